// The post step's one GitHub call: a final status for a GitHub Deployment the main step started and
// could not finish. Best effort, like every GitHub call of the action.
import type { SavedState } from '../run-state.js'

type Saved = NonNullable<SavedState['githubDeployment']>

interface Octokit {
  rest: { repos: { createDeploymentStatus(params: Record<string, unknown>): Promise<unknown> } }
}

/**
 * 'error', not 'inactive': the deploy's outcome is unknown, and inactive is what GitHub shows for a
 * deployment a later one replaced, which would hide that this one never finished. Throws on a failure.
 */
export async function setErrorStatus(token: string, saved: Saved, description: string): Promise<void> {
  const github = await import('@actions/github')
  const octokit = github.getOctokit(token) as unknown as Octokit
  await octokit.rest.repos.createDeploymentStatus({
    owner: saved.owner,
    repo: saved.repo,
    deployment_id: saved.id,
    state: 'error',
    description: description.slice(0, 140),
    ...(saved.logUrl ? { log_url: saved.logUrl } : {}),
    auto_inactive: false
  })
}
