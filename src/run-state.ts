// What the main step leaves for the post step (action.yml runs.post), which runs after a cancel or a
// kill too: the runner hands each saved value back as a STATE_<name> variable. The main step notes
// each fact the moment it becomes true, so whatever point it is stopped at, the post step knows what
// is left to finish.
import * as core from './port.js'

/** The state names; the post step reads them with the port's getState. */
export const STATE = {
  /** 'true' once the main step began: the one bundle then runs as the post step. */
  isPost: 'isPost',
  /** The API base address the refresh token belongs to (the stack's password login). */
  apiUrl: 'cloudApiUrl',
  /** Who issued the refresh token: 'password' (the stack's login) or 'oauth' (token-url, revoked there). */
  tokenIssuer: 'cloudRefreshTokenIssuer',
  /** This run's refresh tokens still valid, one per line (a login after a failed renewal brings another); '' once revoked. */
  refreshToken: 'cloudRefreshToken',
  /** 'true' once the main step revoked every refresh token it received. */
  revoked: 'cloudRefreshTokenRevoked',
  /** The GitHub Deployment started for this run: its id, and owner/repo. */
  githubDeploymentId: 'githubDeploymentId',
  githubRepository: 'githubDeploymentRepository',
  githubLogUrl: 'githubDeploymentLogUrl',
  /** The GitLab deployment started for this run: its id, the project and the API it lives in. */
  gitlabDeploymentId: 'gitlabDeploymentId',
  gitlabProject: 'gitlabDeploymentProject',
  gitlabApiUrl: 'gitlabDeploymentApiUrl',
  /** 'true' once the recorded deployment (GitHub's or GitLab's) got a final status (success or failure). */
  githubDeploymentFinal: 'githubDeploymentFinal',
  /** The final status the main step meant to set and could not (the call failed): the post step sets it on GitLab. */
  deploymentFinalWanted: 'deploymentFinalWanted',
  /** 'true' once the main step wrote its outputs and summary. */
  reported: 'reported'
} as const

/** Through the face's port, which keeps it only where a post step will read it (the runner's state file). */
function save(name: string, value: string): void {
  core.saveState(name, value)
}

/** Who issued the refresh tokens, so the post step revokes them there: the stack's own login, or the token endpoint (token-url). */
export type TokenIssuer = 'password' | 'oauth'

/**
 * The refresh tokens still valid (each masked when it arrived): what the post step revokes if the main step cannot.
 * `apiUrl` is the stack's, for the password login's; an empty list once all are revoked.
 */
export function noteRefreshTokens(issuer: TokenIssuer, apiUrl: string, tokens: readonly string[]): void {
  for (const token of tokens) core.setSecret(token)
  save(STATE.tokenIssuer, issuer)
  save(STATE.apiUrl, apiUrl)
  save(STATE.refreshToken, tokens.join('\n'))
  save(STATE.revoked, tokens.length === 0 ? 'true' : 'false')
}

export function noteGitHubDeployment(id: number, repo: { owner: string; repo: string }, logUrl: string | undefined): void {
  save(STATE.githubDeploymentId, String(id))
  save(STATE.githubRepository, `${repo.owner}/${repo.repo}`)
  save(STATE.githubLogUrl, logUrl ?? '')
  save(STATE.githubDeploymentFinal, 'false')
}

export function noteGitLabDeployment(id: number, project: string, apiUrl: string): void {
  save(STATE.gitlabDeploymentId, String(id))
  save(STATE.gitlabProject, project)
  save(STATE.gitlabApiUrl, apiUrl)
  save(STATE.githubDeploymentFinal, 'false')
}

export function noteGitHubDeploymentFinal(): void {
  save(STATE.githubDeploymentFinal, 'true')
}

/** The final status the main step meant to set when its call failed: the outcome it decided, for the post step to set. */
export function noteDeploymentFinalWanted(state: FinalState): void {
  save(STATE.deploymentFinalWanted, state)
}

/** A final status of a recorded deployment, in the code-host port's words. */
export type FinalState = 'success' | 'failure' | 'error' | 'canceled'
const FINAL_STATES: readonly string[] = ['success', 'failure', 'error', 'canceled']

export function noteReported(): void {
  save(STATE.reported, 'true')
}

/** What the post step reads back. */
export interface SavedState {
  readonly apiUrl: string | undefined
  /** Who issued the refresh tokens (absent in a state saved before this was noted: the stack's login). */
  readonly tokenIssuer: TokenIssuer
  /** The refresh tokens the main step left valid. */
  readonly refreshTokens: readonly string[]
  readonly revoked: boolean
  readonly githubDeployment: { id: number; owner: string; repo: string; logUrl: string | undefined } | undefined
  readonly gitlabDeployment?: { id: number; project: string; apiUrl: string } | undefined
  /** A final status was set on the recorded deployment (GitHub's or GitLab's). */
  readonly githubDeploymentFinal: boolean
  /** The final status the main step meant to set, when its call failed. */
  readonly finalWanted?: FinalState | undefined
  readonly reported: boolean
}

export function readState(get: (name: string) => string = core.getState): SavedState {
  const text = (name: string): string | undefined => get(name) || undefined
  const id = Number(get(STATE.githubDeploymentId))
  const [owner, repo] = (get(STATE.githubRepository) || '').split('/')
  return {
    apiUrl: text(STATE.apiUrl),
    tokenIssuer: get(STATE.tokenIssuer) === 'oauth' ? 'oauth' : 'password',
    refreshTokens: (get(STATE.refreshToken) || '').split('\n').filter((t) => t !== ''),
    revoked: get(STATE.revoked) === 'true',
    githubDeployment: Number.isSafeInteger(id) && id > 0 && owner && repo ? { id, owner, repo, logUrl: text(STATE.githubLogUrl) } : undefined,
    gitlabDeployment: gitLabDeploymentOf(get),
    githubDeploymentFinal: get(STATE.githubDeploymentFinal) === 'true',
    finalWanted: finalWantedOf(get(STATE.deploymentFinalWanted)),
    reported: get(STATE.reported) === 'true'
  }
}

function finalWantedOf(value: string): FinalState | undefined {
  return FINAL_STATES.includes(value) ? (value as FinalState) : undefined
}

function gitLabDeploymentOf(get: (name: string) => string): SavedState['gitlabDeployment'] {
  const id = Number(get(STATE.gitlabDeploymentId))
  const project = get(STATE.gitlabProject)
  const apiUrl = get(STATE.gitlabApiUrl)
  return Number.isSafeInteger(id) && id > 0 && project && apiUrl ? { id, project, apiUrl } : undefined
}
