// GitHub in the simulation: the GitHub API stand-in's model (src/emulator/github/model.ts), in-process,
// behind an octokit-shaped `request`, so the action's deploy-order check runs under every schedule.
// Commits c0..c5 on main and a branch f off c1; other jobs of this repository record their deploys as
// GitHub Deployments (with the distribution in the payload), Mission Control records nothing.
import { fakeSha, GitHubError, GitHubModel } from '../../src/emulator/github/model.js'

export const COMMITS = ['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'f'].map(fakeSha)

export interface GitHubSchedule {
  /** The commit of each distribution, by index into COMMITS. */
  readonly ours: number
  readonly old: number
  readonly theirs: readonly number[]
  /** Other jobs record their deploys as GitHub Deployments (else they are anonymous, like Mission Control). */
  readonly recordOthers: boolean
  readonly allowOlder: boolean
  readonly fault: 'none' | 'list-500' | 'compare-500'
}

export interface GitHubWorld {
  readonly model: GitHubModel
  readonly schedule: GitHubSchedule
  /** What other jobs (and the start) recorded, with the transport's sequence number then: what a look could have been matched with. */
  readonly records: Array<{ seq: number; distributionId: string; commit: number }>
  /** Records a deploy of another job of this repository, as its run would. */
  recordOther(environment: string, distributionId: string, commit: number): void
}

export const github: { world: GitHubWorld | undefined; apiUrl: string } = { world: undefined, apiUrl: '' }

export function makeGitHubWorld(
  schedule: GitHubSchedule,
  apiUrl: string,
  seeds: Array<{ environment: string; distributionId: string; commit: number }>,
  seq: () => number
): GitHubWorld {
  const model = new GitHubModel(() => Date.now())
  const records: GitHubWorld['records'] = []
  model.linear('main', COMMITS.slice(0, 6))
  model.commit(COMMITS[6] ?? '', [COMMITS[1] ?? ''])
  const recordOther = (environment: string, distributionId: string, commit: number): void => {
    const d = model.addDeployment({ ref: COMMITS[commit] ?? '', environment, payload: { distributionId, apiUrl }, creator: 'other-job' })
    model.addStatus(d.id, { state: 'success', log_url: `https://github.com/acme/site/actions/runs/${d.id}` })
    records.push({ seq: seq(), distributionId, commit })
  }
  for (const seed of seeds) recordOther(seed.environment, seed.distributionId, seed.commit)
  const world = { model, schedule, records, recordOther }
  github.world = world
  github.apiUrl = apiUrl
  return world
}

/** An error as octokit throws it. */
function octokitError(status: number, message: string): Error {
  return Object.assign(new Error(message), { status, response: { data: { message } } })
}

function page<T>(items: readonly T[], params: Record<string, unknown>): T[] {
  const per = Number(params.per_page ?? 30)
  const at = Number(params.page ?? 1)
  return items.slice((at - 1) * per, at * per)
}

/** The routes the action calls, answered from the model as GitHub does. */
export function request(route: string, params: Record<string, unknown>): Promise<{ status: number; data: unknown; headers: Record<string, unknown> }> {
  const world = github.world
  if (world === undefined) return Promise.reject(octokitError(401, 'Bad credentials'))
  const { model, schedule } = world
  try {
    if (route === 'GET /repos/{owner}/{repo}/deployments') {
      if (schedule.fault === 'list-500') throw octokitError(500, 'Server Error')
      const all = [...model.deployments].reverse().filter((d) => params.environment === undefined || d.environment === params.environment)
      return Promise.resolve({ status: 200, data: page(all, params), headers: {} })
    }
    if (route === 'GET /repos/{owner}/{repo}/deployments/{deployment_id}/statuses') {
      return Promise.resolve({ status: 200, data: page(model.statuses(Number(params.deployment_id)), params), headers: {} })
    }
    if (route === 'POST /repos/{owner}/{repo}/deployments') {
      const d = model.addDeployment({
        ref: String(params.ref),
        environment: String(params.environment),
        payload: params.payload,
        description: String(params.description ?? '')
      })
      return Promise.resolve({ status: 201, data: d, headers: {} })
    }
    if (route === 'POST /repos/{owner}/{repo}/deployments/{deployment_id}/statuses') {
      const status = model.addStatus(Number(params.deployment_id), {
        state: params.state as never,
        ...(typeof params.log_url === 'string' && { log_url: params.log_url }),
        ...(typeof params.description === 'string' && { description: params.description })
      })
      return Promise.resolve({ status: 201, data: status, headers: {} })
    }
    if (route === 'GET /repos/{owner}/{repo}/compare/{basehead}') {
      if (schedule.fault === 'compare-500') throw octokitError(500, 'Server Error')
      const [base, head] = String(params.basehead).split('...')
      const c = model.compare(base ?? '', head ?? '')
      return Promise.resolve({ status: 200, data: { status: c.status, ahead_by: c.aheadBy, behind_by: c.behindBy }, headers: {} })
    }
    throw octokitError(404, 'Not Found')
  } catch (error) {
    if (error instanceof GitHubError) return Promise.reject(octokitError(error.status, error.message))
    return Promise.reject(error as Error)
  }
}

/** How `ours` relates to `running` (indexes into COMMITS), as the compare API says. */
export function relation(running: number, ours: number): string {
  const world = github.world
  if (world === undefined) return 'unknown'
  return world.model.compare(COMMITS[running] ?? '', COMMITS[ours] ?? '').status
}
