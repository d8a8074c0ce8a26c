// A stand-in for the GitLab REST API v4 calls a deploy makes of its code's host (the project, commits, compare,
// merge base, branches, tags, deployments and environments, the merge requests of a commit) and the status report's
// drift issues (issues, notes, labels), answered as GitLab documents them. A real HTTP/1.1 server (node:http) over the
// model of model.ts, or the same handling in-process (createGitLabStandIn) for the simulation. It checks tokens and
// their scopes, records every call, answers faults on a route (a status, a hang, a dropped connection; before or after
// carrying the call out), and has two modes: refusing (every call answered e.g. 503, or 429 with GitLab's rate-limit
// headers) and slow (every answer late). Self-contained: it imports nothing of the action's.
import { STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import { serve } from '../listen.js'
import { GitLabError } from './errors.js'
import { DEFAULT_USER, GitLabModel, type GitLabUser } from './model.js'
import { bodyParams, queryParams, type Params } from './params.js'
import { answer, DEVELOPER_ROUTES, match, WRITE_ROUTES, type Answer, type Matched, type RouteName } from './routes.js'

export { GitLabError } from './errors.js'
export {
  DEFAULT_USER,
  DEPLOYMENT_STATUSES,
  ENVIRONMENT_TIERS,
  fakeSha,
  GitLabModel,
  seedSampleHistory,
  SETTABLE_STATUSES,
  type SampleHistory,
  type SettableStatus
} from './model.js'
export type {
  Commit,
  CommitAuthor,
  Deployment,
  DeploymentInput,
  DeploymentStatus,
  Environment,
  GitLabUser,
  Issue,
  IssueInput,
  Label,
  MergeRequest,
  MergeRequestInput,
  Note,
  SeededDeployment
} from './model.js'
export type { RouteName } from './routes.js'

/** The stand-in's own token (a personal access token's form), with the api scope. */
export const DEFAULT_GITLAB_TOKEN = 'glpat-StandInToken12345678'
export const DEFAULT_GITLAB_PROJECT = 'acme/platform/site'
export const DEFAULT_GITLAB_PROJECT_ID = 42
/** GitLab.com's authenticated API limit, per minute. */
export const DEFAULT_RATE_LIMIT = 2000
const BODY_LIMIT = 1024 * 1024

/** What a token may do: its scopes (api reads and writes, read_api only reads), the user it acts as, its role, the projects it sees. */
export interface GitLabToken {
  scopes: ReadonlyArray<'api' | 'read_api'>
  /** Default DEFAULT_USER (a project bot). */
  user?: GitLabUser
  /** Default developer; a reporter is refused deployments (403 Forbidden). */
  role?: 'developer' | 'reporter'
  /** Paths of the projects its user can see (default: the stand-in's project); another is 404 Project Not Found. */
  projects?: readonly string[]
}

export interface GitLabCall {
  method: string
  /** As sent (the project's path still encoded). */
  path: string
  query: URLSearchParams
  /** The body's parameters (JSON or form), or undefined when it had none or could not be read. */
  body: Params | undefined
  raw: string
  /** The token, from PRIVATE-TOKEN, Authorization: Bearer, or private_token in the query. */
  token: string | undefined
  route: RouteName | 'unknown'
  /** The status answered; 0 while it waits, or when it was never answered (a hang, a dropped connection). */
  status: number
}

export interface GitLabFault {
  /** An answer (default), no answer until the connection closes, or the connection closed without one. */
  kind?: 'status' | 'hang' | 'drop'
  /** With kind status: the status (default 500). */
  status?: number
  /** Default GitLab's `{"message": "<status> <reason>"}`; a string is sent as text/plain. */
  body?: unknown
  headers?: Record<string, string>
  /** Calls of the route let through before the fault applies (default 0). */
  skip?: number
  /** How many calls it applies to (default 1). */
  times?: number
  /** Carry the call out first (a deployment created), then answer the fault: the client cannot tell it was done. */
  afterApply?: boolean
}

/** Every call answered this way, before anything else: GitLab down (503) or holding the token to its rate limit (429). */
export interface RefusingMode {
  status: number
  /** Retry-After, in seconds (a 429's default 60). */
  retryAfterSeconds?: number
  /** Default: a 429's "Retry later\n" (text/plain, as GitLab's throttle writes it), else `{"message": "<status> <reason>"}`. */
  body?: unknown
}

export interface GitLabStandInOptions {
  /** group/subgroup/name (default acme/platform/site). */
  project?: string
  projectId?: number
  defaultBranch?: string
  tokens?: Record<string, GitLabToken>
  now?: () => number
  /** Calls per minute before GitLab's 429 (default 2000). */
  rateLimit?: number
  /** How the slow mode waits (default a timer): a test or a simulation's clock may hold the answer itself. */
  sleep?: (ms: number) => Promise<void>
  /** Where startGitLabStandIn listens (default 127.0.0.1, port 0: any free port). */
  host?: string
  port?: number
}

/** The stand-in without a socket: `handle` answers one request; startGitLabStandIn serves it over HTTP, a simulation calls it in-process. */
export interface GitLabCore {
  readonly model: GitLabModel
  readonly calls: GitLabCall[]
  fail(route: RouteName, fault: GitLabFault): void
  /** Every call refused this way from now on; undefined ends it. */
  refuse(mode: RefusingMode | undefined): void
  /** Every answer this many milliseconds late from now on (0 ends it). */
  slow(ms: number): void
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>
  /** The instance's address its links name (known once a server listens): the API is at <base>/api/v4. */
  setBase(base: string): void
}

export interface GitLabStandIn extends Omit<GitLabCore, 'handle' | 'setBase'> {
  /** The instance, e.g. http://127.0.0.1:4082 (what BRCLOUD_GITLAB_URL names). */
  readonly url: string
  /** <url>/api/v4. */
  readonly apiUrl: string
  close(): Promise<void>
}

interface QueuedFault extends GitLabFault {
  skipLeft: number
  timesLeft: number
}

type Outcome = { kind: 'answer'; answer: Answer } | { kind: 'hang' } | { kind: 'drop' }

/** What the stand-in keeps between calls: its project and tokens, the record, the faults and modes, the rate limit's minute. */
interface Stand {
  readonly now: () => number
  /** The project's path (group/subgroup/name). */
  readonly path: string
  readonly model: GitLabModel
  readonly tokens: Record<string, GitLabToken>
  /** Calls per minute before a 429. */
  readonly limit: number
  readonly sleep: (ms: number) => Promise<void>
  readonly calls: GitLabCall[]
  readonly faults: Map<RouteName, QueuedFault[]>
  readonly view: { base: string; model: GitLabModel }
  refusing: RefusingMode | undefined
  slowMs: number
  /** Calls answered, for each answer's X-Request-Id. */
  requests: number
  /** The rate limit's minute and the calls counted in it. */
  readonly window: { start: number; count: number }
}

function standOf(options: GitLabStandInOptions): Stand {
  const now = options.now ?? Date.now
  const path = options.project ?? DEFAULT_GITLAB_PROJECT
  const model = new GitLabModel({ id: options.projectId ?? DEFAULT_GITLAB_PROJECT_ID, path, defaultBranch: options.defaultBranch ?? 'main' }, now)
  return {
    now,
    path,
    model,
    tokens: options.tokens ?? { [DEFAULT_GITLAB_TOKEN]: { scopes: ['api'] } },
    limit: options.rateLimit ?? DEFAULT_RATE_LIMIT,
    sleep: options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms))),
    calls: [],
    faults: new Map(),
    view: { base: '', model },
    refusing: undefined,
    slowMs: 0,
    requests: 0,
    window: { start: 0, count: 0 }
  }
}

export function createGitLabStandIn(options: GitLabStandInOptions = {}): GitLabCore {
  const stand = standOf(options)
  return {
    model: stand.model,
    calls: stand.calls,
    fail(route, fault) {
      const queue = stand.faults.get(route) ?? []
      queue.push({ ...fault, skipLeft: fault.skip ?? 0, timesLeft: fault.times ?? 1 })
      stand.faults.set(route, queue)
    },
    refuse(mode) {
      stand.refusing = mode
    },
    slow(ms) {
      stand.slowMs = ms
    },
    handle: (req, res) => handle(stand, req, res),
    setBase(base) {
      stand.view.base = base
    }
  }
}

/** One request: recorded, late in the slow mode, then answered, dropped or left hanging as a fault says. */
async function handle(stand: Stand, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', stand.view.base === '' ? 'http://gitlab.invalid' : stand.view.base)
  const raw = await readBody(req)
  const call: GitLabCall = {
    method: req.method ?? '',
    path: url.pathname,
    query: url.searchParams,
    body: raw.length > 0 ? bodyParams(raw, req.headers['content-type']) : undefined,
    raw: raw.toString('utf8'),
    token: tokenOf(req.headers, url.searchParams),
    route: 'unknown',
    status: 0
  }
  stand.calls.push(call)
  if (stand.slowMs > 0) await stand.sleep(stand.slowMs)
  const outcome = respond(stand, call, url, raw)
  if (outcome.kind === 'drop') return void req.socket.destroy()
  if (outcome.kind === 'hang') {
    if (!res.destroyed) await new Promise<void>((done) => res.once('close', () => done()))
    return
  }
  call.status = outcome.answer.status
  send(res, outcome.answer, ++stand.requests, rateHeaders(stand))
}

/** The refusing mode's answer, else a fault's (before or after the call is carried out), else the call's own. */
function respond(stand: Stand, call: GitLabCall, url: URL, raw: Buffer): Outcome {
  const matched = match(call.method, url.pathname)
  if (matched !== undefined) call.route = matched.route
  if (stand.refusing !== undefined) return { kind: 'answer', answer: refusal(stand.refusing, rateHeaders(stand, true)) }
  const fault = matched === undefined ? undefined : takeFault(stand.faults, matched.route)
  if (fault !== undefined && fault.afterApply !== true) return faultOutcome(fault)
  const done: Outcome = { kind: 'answer', answer: guarded(() => carryOut(stand, call, matched, raw)) }
  return fault !== undefined ? faultOutcome(fault) : done
}

/** The call checked as GitLab checks it (throttle, token, route, scope, project, role, body), then answered. */
function carryOut(stand: Stand, call: GitLabCall, matched: Matched | undefined, raw: Buffer): Answer {
  const { path, window } = stand
  if (counted(stand) > stand.limit) {
    return refusal({ status: 429, retryAfterSeconds: Math.ceil((window.start + 60_000 - stand.now()) / 1000) }, rateHeaders(stand, true))
  }
  if (raw.length > BODY_LIMIT) throw GitLabError.message(413, '413 Request Entity Too Large')
  const grant = stand.tokens[call.token ?? '']
  if (grant === undefined) throw GitLabError.message(401, '401 Unauthorized')
  if (matched === undefined) throw new GitLabError(404, { error: '404 Not Found' })
  const write = WRITE_ROUTES.includes(matched.route)
  if (!grant.scopes.includes('api') && !(grant.scopes.includes('read_api') && !write)) throw insufficientScope(write)
  if (!isProject(stand, matched.project) || !(grant.projects ?? [path]).some((p) => p.toLowerCase() === path.toLowerCase()))
    throw GitLabError.notFound('Project')
  if (DEVELOPER_ROUTES.includes(matched.route) && grant.role === 'reporter') throw GitLabError.message(403, '403 Forbidden')
  if (raw.length > 0 && call.body === undefined) throw GitLabError.message(400, '400 Bad request - the body is not a JSON object or a form')
  const params = { ...queryParams(call.query), ...call.body }
  return answer(matched, { view: stand.view, params, user: grant.user ?? DEFAULT_USER, path: call.path, query: call.query })
}

/** Whether a path's project (its id, or its path) is the stand-in's. */
function isProject(stand: Stand, id: string): boolean {
  return /^\d+$/.test(id) ? Number(id) === stand.model.project.id : id.toLowerCase() === stand.path.toLowerCase()
}

/** Calls in this minute, this one included. */
function counted({ now, window }: Stand): number {
  const start = Math.floor(now() / 60_000) * 60_000
  if (start !== window.start) Object.assign(window, { start, count: 0 })
  return ++window.count
}

/** GitLab's RateLimit-* headers; `exhausted` when the answer is a throttle's. */
function rateHeaders({ now, window, limit }: Stand, exhausted = false): Record<string, string> {
  const reset = (window.start === 0 ? Math.floor(now() / 60_000) * 60_000 : window.start) + 60_000
  return {
    'ratelimit-name': 'throttle_authenticated_api',
    'ratelimit-limit': String(limit),
    'ratelimit-observed': String(window.count),
    'ratelimit-remaining': exhausted ? '0' : String(Math.max(0, limit - window.count)),
    'ratelimit-reset': String(Math.floor(reset / 1000)),
    'ratelimit-resettime': new Date(reset).toUTCString()
  }
}

export async function startGitLabStandIn(options: GitLabStandInOptions = {}): Promise<GitLabStandIn> {
  const core = createGitLabStandIn(options)
  const served = await serve((req, res) => core.handle(req, res), options.port, options.host)
  const url = served.url
  core.setBase(url)
  return {
    url,
    apiUrl: `${url}/api/v4`,
    model: core.model,
    calls: core.calls,
    fail: (route, fault) => core.fail(route, fault),
    refuse: (mode) => core.refuse(mode),
    slow: (ms) => core.slow(ms),
    close: () => served.close()
  }
}

/** PRIVATE-TOKEN, else Authorization: Bearer, else the private_token parameter, as GitLab takes a personal access token. */
function tokenOf(headers: IncomingHttpHeaders, query: URLSearchParams): string | undefined {
  const header = headers['private-token']
  if (typeof header === 'string' && header !== '') return header
  const bearer = /^bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1]
  return bearer ?? query.get('private_token') ?? undefined
}

function insufficientScope(write: boolean): GitLabError {
  return new GitLabError(403, {
    error: 'insufficient_scope',
    error_description: 'The request requires higher privileges than provided by the access token.',
    scope: write ? 'api' : 'api read_api'
  })
}

function statusMessage(status: number): { message: string } {
  return { message: `${status} ${STATUS_CODES[status] ?? 'Error'}` }
}

/** The refusing mode's answer, and a throttled call's: a 429 is GitLab's throttle ("Retry later", Retry-After, nothing remaining). */
function refusal(mode: RefusingMode, rate: Record<string, string>): Answer {
  if (mode.status !== 429) return { status: mode.status, body: mode.body ?? statusMessage(mode.status) }
  return { status: 429, body: mode.body ?? 'Retry later\n', headers: { ...rate, 'retry-after': String(mode.retryAfterSeconds ?? 60) } }
}

function takeFault(faults: Map<RouteName, QueuedFault[]>, route: RouteName): QueuedFault | undefined {
  const queue = faults.get(route)
  const fault = queue?.[0]
  if (queue === undefined || fault === undefined) return undefined
  if (fault.skipLeft > 0) {
    fault.skipLeft--
    return undefined
  }
  if (--fault.timesLeft <= 0) queue.shift()
  return fault
}

function faultOutcome(fault: GitLabFault): Outcome {
  if (fault.kind === 'hang' || fault.kind === 'drop') return { kind: fault.kind }
  const status = fault.status ?? 500
  return { kind: 'answer', answer: { status, body: fault.body ?? statusMessage(status), ...(fault.headers && { headers: fault.headers }) } }
}

/** A GitLabError as GitLab writes it; anything else is a defect of the stand-in, thrown. */
function guarded(work: () => Answer): Answer {
  try {
    return work()
  } catch (error) {
    if (!(error instanceof GitLabError)) throw error
    return { status: error.status, body: error.body }
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size <= BODY_LIMIT + 1) chunks.push(chunk) // read to the end: leaving early would destroy the socket before the answer
  }
  return Buffer.concat(chunks)
}

/** JSON (or a throttle's text) with the headers GitLab sends on every API answer. */
function send(res: ServerResponse, answer: Answer, n: number, rate: Record<string, string>): void {
  const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body)
  res.writeHead(answer.status, {
    'content-type': typeof answer.body === 'string' ? 'text/plain' : 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'max-age=0, private, must-revalidate',
    'x-request-id': `01STANDIN${String(n).padStart(17, '0')}`,
    'x-content-type-options': 'nosniff',
    ...rate,
    ...answer.headers
  })
  res.end(text)
}
