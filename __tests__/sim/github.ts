// GitHub in the simulation: the GitHub API stand-in (src/emulator/github: its model and its request
// handling) in-process, reached by the real octokit through the simulation's fetch (./transport.ts), so
// the action's deploy-order check, its GitHub Deployments and the post step's final status run under every
// schedule, with GitHub's own answers: pages, 401/403/404, faults, no answer, no connection, slowness, and
// the run's abort as octokit reports it. Commits c0..c5 on main, a branch f off c1, and 'gone', a commit a
// force-push removed (GitHub answers 404 for it). Other jobs of this repository record their deploys as
// GitHub Deployments (with the distribution in the payload); Mission Control records nothing.
import { createGitHubStandIn, fakeSha, type GitHubCore, type RouteName, type TokenGrant } from '../../src/emulator/github/server.js'
import { wire, type GitHubFate } from './transport.js'

export const COMMITS = ['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'f', 'gone'].map(fakeSha)
/** Index of the commit a force-push removed: a release recorded at it cannot be compared. */
export const GONE = 7
export const GITHUB_TOKEN = 'ghs_simulated0123456789'
export const GITHUB_API = 'http://github.sim'

/** What GitHub does to a route's calls: answers a status, holds the call, cannot be reached, or answers slowly. */
export interface GitHubFault {
  readonly route: RouteName
  readonly kind: 'status' | 'hang' | 'unreachable' | 'slow'
  readonly status: number
  /** Calls of the route let through first. */
  readonly skip: number
  readonly times: number
  readonly seconds: number
}

export interface GitHubSchedule {
  /** The commit of each distribution, by index into COMMITS. */
  readonly ours: number
  readonly old: number
  readonly theirs: readonly number[]
  /** Other jobs record their deploys as GitHub Deployments (else they are anonymous, like Mission Control). */
  readonly recordOthers: boolean
  /** The run that built our distribution recorded it (a promotion's commit is known); else nothing names its commit. */
  readonly oursRecorded: boolean
  readonly allowOlder: boolean
  /** allow-unchecked-order: deploy although GitHub cannot be read. */
  readonly allowUnchecked: boolean
  /** The job token's permissions: all it needs, no such token (401), no contents: read, or no deployments permission. */
  readonly token: 'ok' | 'bad' | 'no-contents' | 'no-deployments' | 'read-only'
  /** Deployments of other environments recorded before the run: 150 make the listing take two pages. */
  readonly filler: number
  readonly faults: readonly GitHubFault[]
}

export interface GitHubWorld {
  readonly core: GitHubCore
  readonly schedule: GitHubSchedule
  /** What other jobs (and the start) recorded, with the transport's sequence number then: what a look could have been matched with. */
  readonly records: Array<{ seq: number; distributionId: string; commit: number }>
  /**
   * Records a deploy of another job of this repository, as its run would: the distribution, what the environment
   * reported before (its rollback target), in progress until `landed` says how its switch ended (absent: recorded done).
   */
  recordOther(environment: string, distributionId: string, commit: number, run?: OtherRun): void
}

/** Another job's run as its GitHub Deployment shows it: what it replaced, and when its switch ends (true: applied). */
export interface OtherRun {
  readonly previous: string | null
  readonly seconds: number
  readonly landed: () => boolean
}

export const github: { world: GitHubWorld | undefined } = { world: undefined }

function grantOf(token: GitHubSchedule['token']): Record<string, TokenGrant> {
  if (token === 'bad') return {}
  if (token === 'no-contents') return { [GITHUB_TOKEN]: { deployments: 'write', contents: 'none' } }
  if (token === 'no-deployments') return { [GITHUB_TOKEN]: { deployments: 'none', contents: 'read' } }
  if (token === 'read-only') return { [GITHUB_TOKEN]: { deployments: 'read', contents: 'read' } }
  return { [GITHUB_TOKEN]: { deployments: 'write', contents: 'read' } }
}

export function makeGitHubWorld(
  schedule: GitHubSchedule,
  apiUrl: string,
  seeds: Array<{ environment: string; distributionId: string; commit: number; minutesAgo: number; killed?: boolean }>,
  /** Other tokens GitHub knows (the status report's, ./status.ts). */
  tokens: Record<string, TokenGrant> = {}
): GitHubWorld {
  const core = createGitHubStandIn({ tokens: { ...grantOf(schedule.token), ...tokens }, now: () => Date.now() })
  core.setApi(GITHUB_API)
  const { model } = core
  const records: GitHubWorld['records'] = []
  model.linear('main', COMMITS.slice(0, 6))
  model.commit(COMMITS[6] ?? '', [COMMITS[1] ?? ''])
  const recordOther = (environment: string, distributionId: string, commit: number, run?: OtherRun): void => {
    const sha = COMMITS[commit] ?? ''
    const previous = run?.previous ?? undefined
    const payload = { distributionId, apiUrl, ...(previous !== undefined && { previousDistributionId: previous }) }
    const d = model.addDeployment({ ref: sha, sha, environment, payload, creator: 'other-job' })
    const log_url = `https://github.com/acme/site/actions/runs/${d.id}`
    records.push({ seq: wire.seq, distributionId, commit })
    if (run === undefined) return void model.addStatus(d.id, { state: 'success', log_url })
    // Like this action's run: in progress while it follows the switch, then its final status.
    model.addStatus(d.id, { state: 'in_progress', log_url })
    setTimeout(() => void model.addStatus(d.id, { state: run.landed() ? 'success' : 'failure', log_url }), run.seconds * 1000 + 1_000)
  }
  for (let i = 0; i < schedule.filler; i++) {
    model.addDeployment({ ref: COMMITS[0] ?? '', environment: `preview-${i}`, payload: { distributionId: `filler-${i}`, apiUrl }, creator: 'other-job' })
  }
  for (const seed of seeds) {
    if (seed.killed) {
      // A run killed before it set a final status: its Deployment stays in progress for good.
      const sha = COMMITS[seed.commit] ?? ''
      const d = model.addDeployment({
        ref: sha,
        sha,
        environment: seed.environment,
        payload: { distributionId: seed.distributionId, apiUrl },
        creator: 'other-job'
      })
      model.addStatus(d.id, { state: 'in_progress', log_url: `https://github.com/acme/site/actions/runs/${d.id}` })
    } else recordOther(seed.environment, seed.distributionId, seed.commit)
    // Recorded when that release was deployed, not when the run starts.
    const at = new Date(Date.now() - seed.minutesAgo * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z')
    const d = model.deployments.at(-1)
    if (d !== undefined) Object.assign(d, { created_at: at, updated_at: at })
  }
  const world = { core, schedule, records, recordOther }
  github.world = world
  wire.github = core
  wire.githubHost = new URL(GITHUB_API).host
  // Each fault applies to its route's calls after `skip`, `times` times; a status is the stand-in's own fault.
  const seen = new Map<string, number>()
  wire.githubFate = (route): GitHubFate => {
    const n = seen.get(route) ?? 0
    seen.set(route, n + 1)
    const fault = schedule.faults.find((f) => f.route === route && n >= f.skip && n < f.skip + f.times)
    if (fault === undefined) return { kind: 'answer' }
    if (fault.kind === 'status') {
      core.fail(fault.route, { status: fault.status, times: 1 })
      return { kind: 'answer' }
    }
    if (fault.kind === 'unreachable') return { kind: 'unreachable', code: 'ECONNREFUSED' }
    if (fault.kind === 'slow') return { kind: 'slow', seconds: fault.seconds }
    return { kind: 'hang' }
  }
  return world
}

/** How `ours` relates to `running` (indexes into COMMITS), as the compare API says; 'unknown' for a commit GitHub does not know. */
export function relation(running: number, ours: number): string {
  const world = github.world
  if (world === undefined || running === GONE || ours === GONE) return 'unknown'
  return world.core.model.compare(COMMITS[running] ?? '', COMMITS[ours] ?? '').status
}
