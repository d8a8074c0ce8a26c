// What the main step leaves for the post step (action.yml runs.post), which runs after a cancel or a
// kill too: the runner hands each saved value back as a STATE_<name> variable. The main step notes
// each fact the moment it becomes true, so whatever point it is stopped at, the post step knows what
// is left to finish.
import * as core from '@actions/core'

/** The state names; the post step reads them with core.getState. */
export const STATE = {
  /** 'true' once the main step began: the one bundle then runs as the post step. */
  isPost: 'isPost',
  /** The API base address the refresh token belongs to. */
  apiUrl: 'cloudApiUrl',
  /** This run's refresh token while it is valid; '' once revoked. */
  refreshToken: 'cloudRefreshToken',
  /** 'true' once the main step revoked the refresh token. */
  revoked: 'cloudRefreshTokenRevoked',
  /** The GitHub Deployment started for this run: its id, and owner/repo. */
  githubDeploymentId: 'githubDeploymentId',
  githubRepository: 'githubDeploymentRepository',
  githubLogUrl: 'githubDeploymentLogUrl',
  /** 'true' once the GitHub Deployment got a final status (success or failure). */
  githubDeploymentFinal: 'githubDeploymentFinal',
  /** 'true' once the main step wrote its outputs and summary. */
  reported: 'reported'
} as const

/**
 * Only through the runner's state file. Without it (a local run), core.saveState would print the value
 * as a workflow command on stdout, and there is no post step to read it anyway.
 */
function save(name: string, value: string): void {
  if (process.env.GITHUB_STATE) core.saveState(name, value)
}

/** The refresh token the post step revokes if the main step cannot. Masked before it is written anywhere. */
export function noteRefreshToken(apiUrl: string, token: string): void {
  core.setSecret(token)
  save(STATE.apiUrl, apiUrl)
  save(STATE.refreshToken, token)
  save(STATE.revoked, 'false')
}

/** The main step revoked the token: the post step has nothing to revoke, and the state holds no token. */
export function noteRevoked(): void {
  save(STATE.refreshToken, '')
  save(STATE.revoked, 'true')
}

export function noteGitHubDeployment(id: number, repo: { owner: string; repo: string }, logUrl: string | undefined): void {
  save(STATE.githubDeploymentId, String(id))
  save(STATE.githubRepository, `${repo.owner}/${repo.repo}`)
  save(STATE.githubLogUrl, logUrl ?? '')
  save(STATE.githubDeploymentFinal, 'false')
}

export function noteGitHubDeploymentFinal(): void {
  save(STATE.githubDeploymentFinal, 'true')
}

export function noteReported(): void {
  save(STATE.reported, 'true')
}

/** What the post step reads back. */
export interface SavedState {
  readonly apiUrl: string | undefined
  readonly refreshToken: string | undefined
  readonly revoked: boolean
  readonly githubDeployment: { id: number; owner: string; repo: string; logUrl: string | undefined } | undefined
  readonly githubDeploymentFinal: boolean
  readonly reported: boolean
}

export function readState(get: (name: string) => string = core.getState): SavedState {
  const text = (name: string): string | undefined => get(name) || undefined
  const id = Number(get(STATE.githubDeploymentId))
  const [owner, repo] = (get(STATE.githubRepository) || '').split('/')
  return {
    apiUrl: text(STATE.apiUrl),
    refreshToken: text(STATE.refreshToken),
    revoked: get(STATE.revoked) === 'true',
    githubDeployment: Number.isSafeInteger(id) && id > 0 && owner && repo ? { id, owner, repo, logUrl: text(STATE.githubLogUrl) } : undefined,
    githubDeploymentFinal: get(STATE.githubDeploymentFinal) === 'true',
    reported: get(STATE.reported) === 'true'
  }
}
