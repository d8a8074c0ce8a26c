// The post step (action.yml runs.post, post-if: always()): it runs after the job's steps, also after a
// cancel or a kill, and finishes only what the main step could not: the refresh token it did not
// revoke, the GitHub Deployment (or GitLab deployment) it left in progress, and a word in the summary when it never reported.
// It never acts on the environment (no deploy, no rollback), and a failure here is a warning, never a
// failed step.
import * as core from './port.js'
import { CloudApi } from './cloud/api.js'
import { revokeRefreshToken } from './cloud/login/password.js'
import { describeError, ServiceError } from './errors.js'
import { setErrorStatus } from './github/final-status.js'
import { HttpTransport } from './http/transport.js'
import { readState, type SavedState } from './run-state.js'
import { redact, registerSecret } from './secrets.js'

/** One attempt, a short limit: a cancelled job's post step must not hang. */
const REVOKE_LIMIT_MS = 5_000
const GITHUB_LIMIT_MS = 10_000

/** Tells the platform's logs which step called. */
const USER_AGENT = 'brcloud-deploy (GitHub Action, post step)'

export async function runPost(read: () => SavedState = readState): Promise<void> {
  try {
    const state = read()
    // A new process: the runner's mask is per job, but our own redact() knows nothing yet.
    for (const token of state.refreshTokens) registerSecret(token)
    const done: string[] = []
    const revoked = await revokeLeftToken(state)
    if (revoked) done.push(revoked)
    const finished = (await finishGitHubDeployment(state)) ?? (await finishGitLabDeployment(state))
    if (finished) done.push(finished)
    if (!state.reported) await writeSummary(done)
  } catch (error) {
    core.warning(`The post step could not finish (${redact(describeError(error))}).`)
  }
}

/** Revokes the refresh token the main step left valid; what was done, for the summary. */
async function revokeLeftToken(state: SavedState): Promise<string | undefined> {
  const { apiUrl, refreshTokens } = state
  if (state.revoked || refreshTokens.length === 0) return undefined
  if (state.tokenIssuer === 'oauth') return revokeAtTokenEndpoint(refreshTokens)
  if (!apiUrl) return undefined
  const transport = new HttpTransport(apiUrl, { userAgent: USER_AGENT, timeoutMs: REVOKE_LIMIT_MS })
  const api = new CloudApi(transport, { retry: { attempts: 1 } })
  let revoked = 0
  try {
    for (const token of refreshTokens) {
      try {
        await revokeRefreshToken(api, token)
        revoked++
      } catch (error) {
        if (error instanceof ServiceError && error.status === 401) {
          core.info('The platform refused a refresh token (HTTP 401): it is no longer valid, nothing to revoke.')
          continue
        }
        core.warning(`Could not revoke this run's refresh token (${redact(describeError(error))}); it expires by itself within 24 hours.`)
      }
    }
  } finally {
    await transport.close().catch(() => undefined)
  }
  if (revoked === 0) return undefined
  core.info(
    revoked === 1 ? "Revoked the main step's refresh token, which it had left valid." : `Revoked the ${revoked} refresh tokens the main step had left valid.`
  )
  return `revoked this run's refresh token${revoked > 1 ? 's' : ''}, which the main step had left valid`
}

/**
 * A refresh token of the token endpoint (token-url): revoked there, as the main step would have, with the login
 * inputs read again (the post step sees the same inputs). One attempt, a short limit.
 */
async function revokeAtTokenEndpoint(refreshTokens: readonly string[]): Promise<string | undefined> {
  const { readLogin } = await import('./inputs/login.js')
  const { OAuthLogin } = await import('./cloud/login/oauth.js')
  const secret = (name: string): string => {
    const value = core.getInput(name)
    registerSecret(value)
    return value
  }
  const login = readLogin((name) => (name === 'client-secret' ? secret(name) : core.getInput(name)), secret('password'))
  if (login.kind !== 'oauth') return undefined
  const method = new OAuthLogin(login, { attempts: 1 })
  method.reroute(REVOKE_LIMIT_MS)
  let revoked = 0
  const failed = await method.revoke(undefined, refreshTokens, () => revoked++)
  if (failed !== undefined) core.warning(`Could not revoke this run's refresh token (${redact(failed)}); it expires by itself.`)
  return revoked > 0 ? "revoked this run's refresh token at the token endpoint, which the main step had left valid" : undefined
}

/** Gives a GitHub Deployment the main step started, and never finalized, the status 'error'. */
async function finishGitHubDeployment(state: SavedState): Promise<string | undefined> {
  const saved = state.githubDeployment
  if (!saved || state.githubDeploymentFinal) return undefined
  const token = core.getInput('github-token')
  if (!token) {
    core.warning(`GitHub Deployment ${saved.id} stays in progress: the post step has no github-token.`)
    return undefined
  }
  // Known to redact() too: a GitHub error that echoes the token must not print it in the warning below.
  registerSecret(token)
  const description = state.reported
    ? 'The deploy step ended without a final status; see the workflow run'
    : 'The main step was stopped before it reported; see the workflow run'
  try {
    await setErrorStatus(token, saved, description, GITHUB_LIMIT_MS)
    core.info(`Set GitHub Deployment ${saved.id} to error: ${description}.`)
    return `set GitHub Deployment ${saved.id} to error (it was left in progress)`
  } catch (error) {
    core.warning(`Could not set GitHub Deployment ${saved.id} to error (${redact(describeError(error))}).`)
    return undefined
  }
}

/** A GitLab deployment's finished statuses, from the port's words (src/code-host/port.ts) to GitLab's. */
const FINISHED: Readonly<Record<string, string>> = { success: 'success', failure: 'failed', canceled: 'canceled' }

/**
 * Gives a GitLab deployment the main step started, and never finalized, a final status: the one the main step decided
 * and could not set (its call failed), else canceled (the run was stopped before it decided one).
 */
async function finishGitLabDeployment(state: SavedState): Promise<string | undefined> {
  const saved = state.gitlabDeployment
  if (!saved || state.githubDeploymentFinal) return undefined
  const token = core.getInput('gitlab-token')
  if (!token) {
    core.warning(`GitLab deployment ${saved.id} stays running: the post step has no gitlab-token.`)
    return undefined
  }
  registerSecret(token)
  const wanted = state.finalWanted
  const why = wanted === undefined ? 'the main step was stopped before it finished' : 'the status the main step decided and could not set'
  const { GitLabApi, GITLAB_STATUS } = await import('./gitlab/client.js')
  const status = GITLAB_STATUS[wanted ?? 'canceled']
  try {
    const door = GitLabApi.open({ token, project: saved.project, apiUrl: saved.apiUrl }).closing(GITHUB_LIMIT_MS)
    // A call whose answer was lost may have set it: GitLab refuses a move to the status a deployment has (400).
    const now = (await door.latestStatus(saved.id))?.state
    if (now !== undefined && FINISHED[now] !== undefined) {
      core.info(`GitLab deployment ${saved.id} is ${FINISHED[now]} already: the post step has nothing to set.`)
      return undefined
    }
    await door.setDeploymentState(saved.id, { state: wanted ?? 'canceled', description: why })
    core.info(`Set GitLab deployment ${saved.id} to ${status}: ${why}.`)
    return `set GitLab deployment ${saved.id} to ${status} (it was left running)`
  } catch (error) {
    core.warning(`Could not set GitLab deployment ${saved.id} to ${status} (${redact(describeError(error))}).`)
    return undefined
  }
}

/** The main step never wrote its report: say so, and list only what the post step did. */
async function writeSummary(done: readonly string[]): Promise<void> {
  const items = done.length > 0 ? done.map((line) => `- ${line}`) : ['- nothing: it had nothing left to finish, or could not (see its warnings)']
  const text = [
    '### Bloomreach Cloud deploy: post step',
    '',
    'The main step was stopped before it wrote its report; what the post step could do:',
    '',
    ...items,
    '',
    'The post step never deploys or rolls back: check the environment in the console.',
    ''
  ].join('\n')
  // Outside a runner there is no summary file: the port skips it, as in report.ts.
  await core.writeSummary(text)
}
