// The post step (action.yml runs.post, post-if: always()): it runs after the job's steps, also after a
// cancel or a kill, and finishes only what the main step could not: the refresh token it did not
// revoke, the GitHub Deployment it left in progress, and a word in the summary when it never reported.
// It never acts on the environment (no deploy, no rollback), and a failure here is a warning, never a
// failed step.
import * as core from '@actions/core'
import { CloudApi } from './cloud/api.js'
import { revokeRefreshToken } from './cloud/login/password.js'
import { describeError, ServiceError } from './errors.js'
import { setErrorStatus } from './github/final-status.js'
import { HttpTransport } from './http/transport.js'
import { readState, type SavedState } from './run-state.js'
import { redact, registerSecret } from './secrets.js'

/** One attempt, a short limit: a cancelled job's post step must not hang. */
const REVOKE_LIMIT_MS = 5_000

/** Tells the platform's logs which step called. */
const USER_AGENT = 'brcloud-deploy (GitHub Action, post step)'

export async function runPost(read: () => SavedState = readState): Promise<void> {
  try {
    const state = read()
    // A new process: the runner's mask is per job, but our own redact() knows nothing yet.
    registerSecret(state.refreshToken)
    const done: string[] = []
    const revoked = await revokeLeftToken(state)
    if (revoked) done.push(revoked)
    const finished = await finishGitHubDeployment(state)
    if (finished) done.push(finished)
    if (!state.reported) await writeSummary(done)
  } catch (error) {
    core.warning(`The post step could not finish (${redact(describeError(error))}).`)
  }
}

/** Revokes the refresh token the main step left valid; what was done, for the summary. */
async function revokeLeftToken(state: SavedState): Promise<string | undefined> {
  const { apiUrl, refreshToken } = state
  if (state.revoked || !apiUrl || !refreshToken) return undefined
  const transport = new HttpTransport(apiUrl, { userAgent: USER_AGENT, timeoutMs: REVOKE_LIMIT_MS })
  const api = new CloudApi(transport, { retry: { attempts: 1 } })
  try {
    await revokeRefreshToken(api, refreshToken)
    core.info("Revoked the main step's refresh token, which it had left valid.")
    return "revoked this run's refresh token, which the main step had left valid"
  } catch (error) {
    if (error instanceof ServiceError && error.status === 401) {
      core.info('The platform refused the refresh token (HTTP 401): it is no longer valid, nothing to revoke.')
      return undefined
    }
    core.warning(`Could not revoke this run's refresh token (${redact(describeError(error))}); it expires by itself within 24 hours.`)
    return undefined
  } finally {
    await transport.close().catch(() => undefined)
  }
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
  core.setSecret(token)
  const description = state.reported
    ? 'The deploy step ended without a final status; see the workflow run'
    : 'The main step was stopped before it reported; see the workflow run'
  try {
    await setErrorStatus(token, saved, description)
    core.info(`Set GitHub Deployment ${saved.id} to error: ${description}.`)
    return `set GitHub Deployment ${saved.id} to error (it was left in progress)`
  } catch (error) {
    core.warning(`Could not set GitHub Deployment ${saved.id} to error (${redact(describeError(error))}).`)
    return undefined
  }
}

/** The main step never wrote its report: say so, and list only what the post step did. */
async function writeSummary(done: readonly string[]): Promise<void> {
  // Outside a runner there is no summary file, as in report.ts.
  if (!process.env.GITHUB_STEP_SUMMARY) return
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
  await core.summary.addRaw(text).write()
}
