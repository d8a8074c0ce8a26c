// GitLab in the simulation, as the code's host of a schedule (./world.ts draws none, GitHub or GitLab): the GitLab API
// stand-in's core (src/emulator/gitlab) in-process, reached by the real GitLab adapter (src/gitlab) through the
// simulation's request (./transport.ts `httpRequest`, in place of src/http/request.ts), so the deploy order, the GitLab
// deployment a run records and the post step's canceled run under every schedule, with GitLab's own answers: its tokens
// and scopes (401, a read_api token's 403 on writes, 404 for a project the token cannot see), its faults (a status, a
// hang past the call limit, a dropped connection, carried out before either, 429 with Retry-After), no connection,
// slowness, and the run's stop. The same commits as GitHub's world (c0..c5 on main, f off c1; 'gone' unknown). GitLab's
// deployments carry no payload: a commit is known from a distribution's default name only, so the world names its
// distributions that way, or not. Other jobs record their deploys as GitLab deployments (running, then success or
// failed); Mission Control records nothing.
import { createGitLabStandIn, type GitLabCore, type GitLabToken, type GitLabUser, type RouteName } from '../../src/emulator/gitlab/server.js'
import { COMMITS, GONE } from './github.js'
import { runIndex } from './process.js'
import { wire, type GitHubFate } from './transport.js'

/** The instance, as a GitLab CI job's CI_SERVER_URL names it (./faces.ts), and its API. */
export const GITLAB_URL = 'https://gitlab.example.com'
export const GITLAB_API = `${GITLAB_URL}/api/v4`
/** The project, as a GitLab CI job's CI_PROJECT_PATH names it: its last part is the repository's name a default distribution name carries. */
export const GITLAB_PROJECT = 'acme/site'
export const GITLAB_TOKEN = 'glpat-simulated0123456789'
/** The user other jobs' deployments are made by; the run's token acts as the stand-in's bot (DEFAULT_USER). */
export const OTHER_JOB: GitLabUser = { id: 7, username: 'other-job', name: 'Another job' }

/** What GitLab does to a route's calls: answers a status, holds the call, drops the connection, holds the token to its rate limit, is not reached, answers slowly. */
export interface GitLabFault {
  readonly route: RouteName
  readonly kind: 'status' | 'hang' | 'drop' | 'rate-limit' | 'unreachable' | 'slow'
  readonly status: number
  /** Calls of the route let through first. */
  readonly skip: number
  readonly times: number
  /** For 'slow', seconds the answer takes; for 'rate-limit', Retry-After. */
  readonly seconds: number
  /** For 'status', 'hang' and 'drop': the call is carried out first (a deployment created, a status set), then the fault. */
  readonly afterApply: boolean
}

export interface GitLabSchedule {
  /** The commit of each distribution, by index into COMMITS (as GitHub's world: ./github.ts). */
  readonly ours: number
  readonly old: number
  readonly theirs: readonly number[]
  /** Other jobs record their deploys as GitLab deployments (else they are anonymous, like Mission Control). */
  readonly recordOthers: boolean
  /** The world's distributions carry their commit in their default names (`site-<commit>-distribution.tar.gz`): GitLab's only evidence. */
  readonly names: boolean
  readonly allowOlder: boolean
  /** allow-unchecked-order: deploy although GitLab cannot be read. */
  readonly allowUnchecked: boolean
  /** The token: good (api), refused (401), read_api only (writes refused, 403), or one that cannot see the project (404). */
  readonly token: 'ok' | 'bad' | 'read-api' | 'no-project'
  readonly faults: readonly GitLabFault[]
  /** In a GitLab CI job, the project and the instance come from the job's own variables, not from inputs. */
  readonly fromJob: boolean
}

export interface GitLabWorld {
  readonly core: GitLabCore
  readonly schedule: GitLabSchedule
  /** The deployments each run of the world created, by id (./process.ts run index). */
  readonly createdBy: Map<number, number>
  /** Records a deploy of another job of this project, running until `landed` says how its switch ended (absent: recorded done). */
  recordOther(environment: string, commit: number, run?: { readonly seconds: number; readonly landed: () => boolean }): void
}

export const gitlab: { world: GitLabWorld | undefined } = { world: undefined }

function grantOf(token: GitLabSchedule['token']): Record<string, GitLabToken> {
  if (token === 'bad') return {}
  if (token === 'read-api') return { [GITLAB_TOKEN]: { scopes: ['read_api'] } }
  if (token === 'no-project') return { [GITLAB_TOKEN]: { scopes: ['api'], projects: ['acme/another'] } }
  return { [GITLAB_TOKEN]: { scopes: ['api'] } }
}

/** A distribution's default name: what a run of this project names its upload, carrying the commit (src/cloud/distribution-name.ts). */
export function defaultNameOf(commit: number): string {
  return `site-${(COMMITS[commit] ?? '').slice(0, 7)}-distribution.tar.gz`
}

/** The commit index a distribution's name carries (a default name of this project), or undefined. */
export function commitInName(name: string | undefined): number | undefined {
  const short = /^site-([0-9a-f]{7,40})-distribution\.tar\.gz$/i.exec(name ?? '')?.[1]?.toLowerCase()
  if (short === undefined) return undefined
  const i = COMMITS.findIndex((c) => c.startsWith(short))
  return i < 0 ? undefined : i
}

export function makeGitLabWorld(
  schedule: GitLabSchedule,
  seeds: Array<{ environment: string; commit: number; minutesAgo: number }>,
  /** Other tokens GitLab knows (the status report's, ./status.ts). */
  tokens: Record<string, GitLabToken> = {},
  /** Deployments of other environments made before every record (the status report's "more than 300"). */
  filler = 0
): GitLabWorld {
  const core = createGitLabStandIn({ project: GITLAB_PROJECT, tokens: { ...grantOf(schedule.token), ...tokens }, now: () => Date.now() })
  core.setBase(GITLAB_URL)
  const { model } = core
  model.linear('main', COMMITS.slice(0, 6))
  model.commit(COMMITS[6] ?? '', [COMMITS[1] ?? ''])
  // Which run of the world each deployment made through the API (the request is handled in that run's process).
  const createdBy = new Map<number, number>()
  const create = model.createDeployment.bind(model)
  model.createDeployment = (input, user) => {
    const d = create(input, user)
    if (user === undefined || user.username !== OTHER_JOB.username) createdBy.set(d.id, runIndex())
    return d
  }
  const recordOther: GitLabWorld['recordOther'] = (environment, commit, run) => {
    const sha = COMMITS[commit] ?? ''
    // A commit a force-push removed is no commit GitLab would take now: that job recorded it before.
    const d =
      commit === GONE
        ? model.seedDeployment({ environment, sha, status: 'running', user: OTHER_JOB })
        : create({ environment, sha, ref: 'main', tag: false, status: 'running' }, OTHER_JOB)
    if (run === undefined) return void model.updateDeployment(d.id, 'success')
    setTimeout(() => void model.updateDeployment(d.id, run.landed() ? 'success' : 'failed'), run.seconds * 1000 + 1_000)
  }
  for (let i = 0; i < filler; i++) model.seedDeployment({ environment: `preview-${i}`, sha: COMMITS[0] ?? '', status: 'success', user: OTHER_JOB })
  for (const seed of seeds) {
    // Recorded when that release was deployed, not when the run starts.
    const at = new Date(Date.now() - seed.minutesAgo * 60_000).toISOString()
    model.seedDeployment({ environment: seed.environment, sha: COMMITS[seed.commit] ?? '', status: 'success', user: OTHER_JOB, created_at: at })
  }
  const world: GitLabWorld = { core, schedule, createdBy, recordOther }
  gitlab.world = world
  wire.gitlab = core
  wire.gitlabHost = new URL(GITLAB_URL).host
  // Each fault applies to its route's calls after `skip`, `times` times; a status, a hang, a dropped connection and a
  // rate limit are the stand-in's own faults, queued for this very call.
  const seen = new Map<string, number>()
  wire.gitlabFate = (route): GitHubFate => {
    const n = seen.get(route) ?? 0
    seen.set(route, n + 1)
    const fault = schedule.faults.find((f) => f.route === route && n >= f.skip && n < f.skip + f.times)
    if (fault === undefined) return { kind: 'answer' }
    if (fault.kind === 'unreachable') return { kind: 'unreachable', code: 'ECONNREFUSED' }
    if (fault.kind === 'slow') return { kind: 'slow', seconds: fault.seconds }
    if (fault.kind === 'rate-limit')
      core.fail(fault.route, { status: 429, body: 'Retry later\n', headers: { 'retry-after': String(fault.seconds), 'ratelimit-remaining': '0' } })
    else if (fault.kind === 'status') core.fail(fault.route, { status: fault.status, afterApply: fault.afterApply })
    else core.fail(fault.route, { kind: fault.kind, afterApply: fault.afterApply })
    return { kind: 'answer' }
  }
  return world
}

/** How `ours` relates to `running` (indexes into COMMITS) in GitLab's history; 'unknown' for a commit GitLab does not know. */
export function gitlabRelation(running: number, ours: number): string {
  const graph = gitlab.world?.core.model.graph
  const base = graph?.getCommit(COMMITS[running] ?? '')
  const head = graph?.getCommit(COMMITS[ours] ?? '')
  if (graph === undefined || base === undefined || head === undefined || running === GONE || ours === GONE) return 'unknown'
  const r = graph.relate(base, head)
  if (r.ahead.length > 0 && r.behindBy > 0) return 'diverged'
  if (r.ahead.length > 0) return 'ahead'
  return r.behindBy > 0 ? 'behind' : 'identical'
}
