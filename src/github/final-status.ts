// The post step's one GitHub call: a final status for a GitHub Deployment the main step started and
// could not finish. Best effort, like every GitHub call of the action.
import { timeLimit } from '../http/time-limit.js'
import type { SavedState } from '../run-state.js'
import { statusDescription } from './status-description.js'

type Saved = NonNullable<SavedState['githubDeployment']>

interface Octokit {
  rest: { repos: { createDeploymentStatus(params: Record<string, unknown>): Promise<unknown> } }
}

/**
 * 'error', not 'inactive': the deploy's outcome is unknown, and inactive is what GitHub shows for a
 * deployment a later one replaced, which would hide that this one never finished. Throws on a failure.
 */
export async function setErrorStatus(token: string, saved: Saved, description: string, limitMs: number): Promise<void> {
  const github = await import('@actions/github')
  const octokit = github.getOctokit(token) as unknown as Octokit
  // A post step that hangs on GitHub would hold the job until its timeout.
  const limit = timeLimit(limitMs)
  try {
    await octokit.rest.repos.createDeploymentStatus({
      owner: saved.owner,
      repo: saved.repo,
      deployment_id: saved.id,
      state: 'error',
      description: statusDescription(description),
      ...(saved.logUrl ? { log_url: saved.logUrl } : {}),
      auto_inactive: false,
      request: { signal: limit.signal }
    })
  } catch (error) {
    if (limit.expired()) throw new Error(`GitHub did not answer within ${limitMs / 1000} s`, { cause: error })
    throw error
  } finally {
    limit.clear()
  }
}
