// A stand-in for the GitHub REST API calls the action makes (deployments, their statuses), the
// compare call and the pull requests of a commit (what a release brings), the status report's tag listing (tag patterns) and drift issues (issues, their comments, a
// label), answered as GitHub documents them, for end-to-end tests. A real HTTP/1.1 server
// (node:http) over the model of model.ts; it records every request and can answer faults.
// Self-contained: the emulator's lint rule keeps it from importing even ../http-util.ts (only the commit graph and the listener).
import { STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import { serve } from '../listen.js'
import {
  DEFAULT_CREATOR,
  DEPLOYMENT_STATES,
  ISSUE_STATE_REASONS,
  GitHubError,
  GitHubModel,
  type Commit,
  type Deployment,
  type DeploymentInput,
  type DeploymentState,
  type DeploymentStatus,
  type Issue,
  type IssueChange,
  type IssueComment,
  type IssueInput,
  type IssueStateReason,
  type Label,
  type StatusInput
} from './model.js'

export { fakeSha, GitHubError, GitHubModel, seedSampleHistory, type SampleHistory, type TagObject } from './model.js'
export type {
  Commit,
  Comparison,
  CompareStatus,
  Deployment,
  DeploymentInput,
  DeploymentState,
  DeploymentStatus,
  Issue,
  IssueComment,
  Label,
  StatusInput
} from './model.js'

export const DEFAULT_GITHUB_TOKEN = 'ghs_localStandInToken12345'
const DOCS = 'https://docs.github.com/rest'
const HTML = 'https://github.com'
const BODY_LIMIT = 1024 * 1024
/** A Deployment status's description, at most (GitHub's REST reference). */
const DESCRIPTION_LIMIT = 140

export type RouteName =
  | 'create-deployment'
  | 'list-deployments'
  | 'get-deployment'
  | 'create-status'
  | 'list-statuses'
  | 'compare'
  | 'list-issues'
  | 'create-issue'
  | 'get-issue'
  | 'update-issue'
  | 'create-issue-comment'
  | 'list-issue-comments'
  | 'get-label'
  | 'create-label'
  | 'list-tags'
  | 'commit-pulls'

const ISSUE_WRITES: readonly RouteName[] = ['create-issue', 'update-issue', 'create-issue-comment', 'create-label']
const ISSUE_READS: readonly RouteName[] = ['list-issues', 'get-issue', 'list-issue-comments', 'get-label']

/** What a token may do, as a workflow's `permissions:` grants it; `login` is the creator GitHub records. */
export interface TokenGrant {
  deployments: 'write' | 'read' | 'none'
  contents: 'read' | 'none'
  /** Default none. */
  issues?: 'write' | 'read' | 'none'
  /** Default none: the pull requests associated with a commit need it. */
  pullRequests?: 'read' | 'none'
  /**
   * Default true. False: a user without push access, whose labels on a new issue GitHub silently drops
   * ("Only users with push access can set labels for new issues").
   */
  setsLabels?: boolean
  login?: string
}

export interface GitHubCall {
  method: string
  path: string
  query: URLSearchParams
  /** The raw Authorization header. */
  auth: string | undefined
  json: unknown
  route: RouteName | 'unknown'
  /** The status answered (0 until then). */
  status: number
}

export interface GitHubFault {
  status: number
  times?: number
  body?: unknown
  /** Headers of the answer, e.g. a rate limit's (x-ratelimit-remaining: 0 and x-ratelimit-reset, or retry-after). */
  headers?: Record<string, string>
}

export interface GitHubStandInOptions {
  owner?: string
  repo?: string
  tokens?: Record<string, TokenGrant>
  now?: () => number
  /** Where startGitHubStandIn listens (default 127.0.0.1, port 0: any free port). */
  host?: string
  port?: number
}

export interface GitHubStandIn {
  url: string
  model: GitHubModel
  calls: GitHubCall[]
  fail(route: RouteName, fault: GitHubFault): void
  close(): Promise<void>
}

interface Answer {
  status: number
  body: unknown
  headers?: Record<string, string>
}

interface Matched {
  route: RouteName
  owner: string
  repo: string
  id?: number
  basehead?: string
  /** A label's name, decoded. */
  name?: string
}

interface Context {
  api: string
  owner: string
  repo: string
  model: GitHubModel
}

/** The stand-in without a socket: `handle` answers one request; `startGitHubStandIn` serves it over HTTP, a simulation calls it in-process. */
export interface GitHubCore {
  model: GitHubModel
  calls: GitHubCall[]
  fail(route: RouteName, fault: GitHubFault): void
  /** Answers one request; `api` is the base address its links and URLs name. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>
  /** Sets the base address (known once the server listens). */
  setApi(api: string): void
}

/** What the stand-in keeps between calls: its repository and model (ctx), the tokens, the record, the faults. */
interface Stand {
  readonly ctx: Context
  readonly tokens: Record<string, TokenGrant>
  readonly calls: GitHubCall[]
  readonly faults: Map<RouteName, GitHubFault[]>
  /** Calls answered, for each answer's X-GitHub-Request-Id. */
  requests: number
}

export function createGitHubStandIn(options: GitHubStandInOptions = {}): GitHubCore {
  const tokens = options.tokens ?? { [DEFAULT_GITHUB_TOKEN]: { deployments: 'write', contents: 'read', issues: 'write', pullRequests: 'read' } }
  const model = new GitHubModel(options.now)
  const ctx: Context = { api: '', owner: options.owner ?? 'acme', repo: options.repo ?? 'site', model }
  const stand: Stand = { ctx, tokens, calls: [], faults: new Map(), requests: 0 }
  return {
    model,
    calls: stand.calls,
    fail(routeName, fault) {
      const queue = stand.faults.get(routeName) ?? []
      queue.push({ ...fault, times: fault.times ?? 1 })
      stand.faults.set(routeName, queue)
    },
    handle: (req, res) => handle(stand, req, res),
    setApi(api) {
      ctx.api = api
    }
  }
}

/** One request: recorded, answered (a GitHubError as GitHub writes it). */
async function handle(stand: Stand, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', stand.ctx.api)
  const raw = await readBody(req)
  const call: GitHubCall = {
    method: req.method ?? '',
    path: url.pathname,
    query: url.searchParams,
    auth: req.headers.authorization,
    json: undefined,
    route: 'unknown',
    status: 0
  }
  stand.calls.push(call)
  let answer: Answer
  try {
    answer = respond(stand, call, url, raw, req.headers)
  } catch (error) {
    if (!(error instanceof GitHubError)) throw error
    answer = { status: error.status, body: { message: error.message, ...error.extra, documentation_url: DOCS } }
  }
  call.status = answer.status
  send(res, answer, ++stand.requests)
}

/** The call checked as GitHub checks it (size, fault, token, repository, permission, body), then routed. */
function respond(stand: Stand, call: GitHubCall, url: URL, raw: Buffer, headers: IncomingHttpHeaders): Answer {
  const { owner, repo } = stand.ctx
  if (raw.length > BODY_LIMIT) throw new GitHubError(413, 'Payload Too Large')
  const matched = match(call.method, url.pathname)
  if (matched !== undefined) call.route = matched.route
  if (raw.length > 0) call.json = parseJson(raw)
  // A fault answers before the token is looked at, as an outage of GitHub's front end would: nothing is applied.
  const fault = matched === undefined ? undefined : takeFault(stand.faults, matched.route)
  if (fault !== undefined) return fault
  const grant = stand.tokens[tokenOf(call.auth) ?? '']
  if (grant === undefined) throw new GitHubError(401, 'Bad credentials')
  if (matched === undefined || matched.owner.toLowerCase() !== owner.toLowerCase() || matched.repo.toLowerCase() !== repo.toLowerCase()) {
    throw new GitHubError(404, 'Not Found')
  }
  if (!allowed(grant, matched.route)) throw new GitHubError(403, 'Resource not accessible by integration')
  if (raw.length > 0 && call.json === undefined) throw new GitHubError(400, 'Problems parsing JSON')
  return route(stand.ctx, matched, call, grant, headers.accept ?? '')
}

export async function startGitHubStandIn(options: GitHubStandInOptions = {}): Promise<GitHubStandIn> {
  const core = createGitHubStandIn(options)
  const served = await serve((req, res) => core.handle(req, res), options.port, options.host)
  const url = served.url
  core.setApi(url)

  return {
    url,
    model: core.model,
    calls: core.calls,
    fail: (routeName, fault) => core.fail(routeName, fault),
    close: () => served.close()
  }
}

function takeFault(faults: Map<RouteName, GitHubFault[]>, route: RouteName): Answer | undefined {
  const fault = faults.get(route)?.[0]
  if (fault === undefined) return undefined
  fault.times = (fault.times ?? 1) - 1
  if (fault.times <= 0) faults.get(route)?.shift()
  const message = fault.status >= 500 ? 'Server Error' : (STATUS_CODES[fault.status] ?? 'Error')
  return { status: fault.status, body: fault.body ?? { message, documentation_url: DOCS }, ...(fault.headers && { headers: fault.headers }) }
}

/** `token X` or `Bearer X`, as GitHub accepts both. */
function tokenOf(auth: string | undefined): string | undefined {
  return /^(?:token|bearer)\s+(\S+)\s*$/i.exec(auth ?? '')?.[1]
}

function allowed(grant: TokenGrant, route: RouteName): boolean {
  if (ISSUE_WRITES.includes(route)) return grant.issues === 'write'
  if (ISSUE_READS.includes(route)) return grant.issues === 'write' || grant.issues === 'read'
  if (route === 'compare' || route === 'list-tags') return grant.contents === 'read'
  if (route === 'commit-pulls') return grant.contents === 'read' && grant.pullRequests === 'read'
  if (route === 'create-deployment' || route === 'create-status') return grant.deployments === 'write'
  return grant.deployments !== 'none'
}

/** The routes by method and path; a `{basehead}` may hold encoded slashes, so the rest of the path is taken. */
function match(method: string, pathname: string): Matched | undefined {
  const parts = pathname.split('/').slice(1)
  const [root, owner, repo, kind, id, sub] = parts
  if (root !== 'repos' || owner === undefined || repo === undefined || owner === '' || repo === '') return undefined
  const base = { owner: decode(owner), repo: decode(repo) }
  if (kind === 'compare' && method === 'GET' && parts.length > 4) return { route: 'compare', ...base, basehead: parts.slice(4).join('/') }
  if (kind === 'issues') return matchIssues(method, parts, base)
  if (kind === 'labels') {
    if (parts.length === 4 && method === 'POST') return { route: 'create-label', ...base }
    if (parts.length === 5 && method === 'GET' && id !== undefined && id !== '') return { route: 'get-label', ...base, name: decode(id) }
    return undefined
  }
  if (kind === 'tags' && parts.length === 4) return method === 'GET' ? { route: 'list-tags', ...base } : undefined
  if (kind === 'commits' && parts.length === 6 && sub === 'pulls' && id !== undefined && id !== '')
    return method === 'GET' ? { route: 'commit-pulls', ...base, name: decode(id) } : undefined
  if (kind !== 'deployments') return undefined
  if (parts.length === 4)
    return method === 'POST' ? { route: 'create-deployment', ...base } : method === 'GET' ? { route: 'list-deployments', ...base } : undefined
  if (id === undefined || !/^\d+$/.test(id)) return undefined
  if (parts.length === 5 && method === 'GET') return { route: 'get-deployment', ...base, id: Number(id) }
  if (parts.length !== 6 || sub !== 'statuses') return undefined
  return method === 'POST'
    ? { route: 'create-status', ...base, id: Number(id) }
    : method === 'GET'
      ? { route: 'list-statuses', ...base, id: Number(id) }
      : undefined
}

/** /issues, /issues/{number}, /issues/{number}/comments. */
function matchIssues(method: string, parts: string[], base: { owner: string; repo: string }): Matched | undefined {
  const [, , , , number, sub] = parts
  if (parts.length === 4) return method === 'GET' ? { route: 'list-issues', ...base } : method === 'POST' ? { route: 'create-issue', ...base } : undefined
  if (number === undefined || !/^\d+$/.test(number)) return undefined
  const id = Number(number)
  if (parts.length === 5)
    return method === 'GET' ? { route: 'get-issue', ...base, id } : method === 'PATCH' ? { route: 'update-issue', ...base, id } : undefined
  if (parts.length !== 6 || sub !== 'comments') return undefined
  return method === 'GET' ? { route: 'list-issue-comments', ...base, id } : method === 'POST' ? { route: 'create-issue-comment', ...base, id } : undefined
}

function route(ctx: Context, m: Matched, call: GitHubCall, grant: TokenGrant, accept: string): Answer {
  const login = grant.login ?? DEFAULT_CREATOR
  switch (m.route) {
    case 'create-deployment':
      return { status: 201, body: deploymentJson(ctx, ctx.model.addDeployment({ ...deploymentInput(call.json), creator: login })) }
    case 'list-deployments':
      return listDeployments(ctx, call)
    case 'get-deployment':
      return { status: 200, body: deploymentJson(ctx, existing(ctx, m.id)) }
    case 'create-status': {
      const input = { ...statusInput(call.json), creator: login, inactivateProduction: accept.includes('flash-preview') }
      return { status: 201, body: statusJson(ctx, ctx.model.addStatus(existing(ctx, m.id).id, input)) }
    }
    case 'list-statuses':
      return page(call, [...ctx.model.statuses(existing(ctx, m.id).id)], (s) => statusJson(ctx, s), ctx.api)
    case 'compare':
      return compare(ctx, m.basehead ?? '', call)
    case 'list-issues':
      return listIssues(ctx, call)
    case 'create-issue': {
      const input = issueInput(call.json)
      // GitHub drops the labels of a user without push access, silently.
      const issue = ctx.model.addIssue({ ...input, ...(grant.setsLabels === false ? { labels: [] } : {}), user: login })
      return { status: 201, body: issueJson(ctx, issue) }
    }
    case 'get-issue':
      return { status: 200, body: issueJson(ctx, existingIssue(ctx, m.id)) }
    case 'update-issue':
      return { status: 200, body: issueJson(ctx, ctx.model.updateIssue(existingIssue(ctx, m.id).number, { ...issueChange(call.json), user: login })) }
    case 'create-issue-comment': {
      const issue = existingIssue(ctx, m.id)
      const body = field<string>(objectBody(call.json), 'body', 'string')
      if (body === undefined) throw invalid('"body" wasn\'t supplied.')
      return { status: 201, body: commentJson(ctx, issue, ctx.model.addComment(issue.number, body, login)) }
    }
    case 'list-issue-comments': {
      const issue = existingIssue(ctx, m.id)
      return page(call, issue.comments, (c) => commentJson(ctx, issue, c), ctx.api)
    }
    case 'get-label': {
      const label = ctx.model.label(m.name ?? '')
      if (label === undefined) throw new GitHubError(404, 'Not Found')
      return { status: 200, body: labelJson(ctx, label) }
    }
    case 'create-label':
      return { status: 201, body: labelJson(ctx, ctx.model.addLabel(...labelInput(call.json))) }
    case 'list-tags':
      return page(call, ctx.model.tagList, (t) => tagJson(ctx, t), ctx.api)
    case 'commit-pulls':
      return page(call, ctx.model.pullsOf(m.name ?? ''), (p) => pullJson(ctx, p), ctx.api)
  }
}

function existingIssue(ctx: Context, number: number | undefined): Issue {
  const issue = number === undefined ? undefined : ctx.model.issue(number)
  if (issue === undefined) throw new GitHubError(404, 'Not Found')
  return issue
}

/** GitHub's list of a repository's issues (pull requests among them): state, labels (all of them), sort, direction. */
function listIssues(ctx: Context, call: GitHubCall): Answer {
  const q = call.query
  const state = q.get('state') ?? 'open'
  const sort = q.get('sort') ?? 'created'
  const direction = q.get('direction') ?? 'desc'
  if (!['open', 'closed', 'all'].includes(state) || !['created', 'updated', 'comments'].includes(sort) || !['asc', 'desc'].includes(direction)) {
    throw new GitHubError(422, 'Validation Failed', { errors: [{ resource: 'Issue', code: 'invalid', field: 'state, sort or direction' }] })
  }
  const wanted = (q.get('labels') ?? '')
    .split(',')
    .map((l) => l.trim().toLowerCase())
    .filter((l) => l !== '')
  const key = (i: Issue): string | number => (sort === 'comments' ? i.comments.length : sort === 'updated' ? i.updated_at : i.number)
  const list = ctx.model.issues
    .filter((i) => state === 'all' || i.state === state)
    .filter((i) => wanted.every((w) => i.labels.some((l) => l.toLowerCase() === w)))
    .sort((a, b) => {
      const [x, y] = [key(a), key(b)]
      const order = x < y ? -1 : x > y ? 1 : a.number - b.number
      return direction === 'asc' ? order : -order
    })
  return page(call, list, (i) => issueJson(ctx, i), ctx.api)
}

/** A malformed escape names nothing: 404, as for any unknown path. */
function decode(part: string): string {
  try {
    return decodeURIComponent(part)
  } catch {
    throw new GitHubError(404, 'Not Found')
  }
}

function existing(ctx: Context, id: number | undefined): Deployment {
  const deployment = id === undefined ? undefined : ctx.model.deployment(id)
  if (deployment === undefined) throw new GitHubError(404, 'Not Found')
  return deployment
}

function listDeployments(ctx: Context, call: GitHubCall): Answer {
  const q = call.query
  const filters = (['sha', 'ref', 'task', 'environment'] as const).flatMap((field) => {
    const value = q.get(field)
    return value === null || value === '' ? [] : [(d: Deployment) => d[field] === value]
  })
  const list = ctx.model.deployments.filter((d) => filters.every((f) => f(d))).reverse() // newest first
  return page(call, list, (d) => deploymentJson(ctx, d), ctx.api)
}

/** GitHub's compare: `BASE...HEAD`, each part decoded; commits paginated only when the client asks (250 otherwise). */
function compare(ctx: Context, basehead: string, call: GitHubCall): Answer {
  const parts = basehead.split('...')
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') throw new GitHubError(404, 'Not Found')
  const [base, head] = parts.map(decode) as [string, string]
  const c = ctx.model.compare(base, head)
  const repoHtml = `${HTML}/${ctx.owner}/${ctx.repo}`
  const body = {
    url: `${ctx.api}/repos/${ctx.owner}/${ctx.repo}/compare/${basehead}`,
    html_url: `${repoHtml}/compare/${basehead}`,
    permalink_url: `${repoHtml}/compare/${ctx.owner}:${c.base.sha}...${ctx.owner}:${c.head.sha}`,
    diff_url: `${repoHtml}/compare/${basehead}.diff`,
    patch_url: `${repoHtml}/compare/${basehead}.patch`,
    base_commit: commitJson(ctx, c.base),
    merge_base_commit: commitJson(ctx, c.mergeBase),
    status: c.status,
    ahead_by: c.aheadBy,
    behind_by: c.behindBy,
    total_commits: c.aheadBy,
    commits: [] as unknown[],
    files: []
  }
  if (!call.query.has('per_page') && !call.query.has('page'))
    return { status: 200, body: { ...body, commits: c.commits.slice(0, 250).map((x) => commitJson(ctx, x)) } }
  const paged = page(call, c.commits, (x) => commitJson(ctx, x), ctx.api)
  return { ...paged, body: { ...body, commits: paged.body } }
}

/** A tag as GitHub's "List repository tags" gives it. */
function tagJson(ctx: Context, tag: { name: string; sha: string }): unknown {
  const repoApi = `${ctx.api}/repos/${ctx.owner}/${ctx.repo}`
  return {
    name: tag.name,
    commit: { sha: tag.sha, url: `${repoApi}/commits/${tag.sha}` },
    zipball_url: `${repoApi}/zipball/refs/tags/${encodeURIComponent(tag.name)}`,
    tarball_url: `${repoApi}/tarball/refs/tags/${encodeURIComponent(tag.name)}`,
    node_id: Buffer.from(`Tag:${tag.name}`).toString('base64')
  }
}

/** A page of `items` and GitHub's Link header: prev, next, last, first, each when it applies; none for a single page. */
function page<T>(call: GitHubCall, items: T[], render: (item: T) => unknown, api: string): Answer {
  const perPage = clampInt(call.query.get('per_page'), 30, 100)
  const current = clampInt(call.query.get('page'), 1, Number.MAX_SAFE_INTEGER)
  const last = Math.max(1, Math.ceil(items.length / perPage))
  const link = (n: number, rel: string): string => {
    const q = new URLSearchParams(call.query)
    q.set('page', String(n))
    return `<${api}${call.path}?${q.toString()}>; rel="${rel}"`
  }
  const rels = [
    ...(current > 1 ? [link(current - 1, 'prev')] : []),
    ...(current < last ? [link(current + 1, 'next'), link(last, 'last')] : []),
    ...(current > 1 ? [link(1, 'first')] : [])
  ]
  const body = items.slice((current - 1) * perPage, current * perPage).map(render)
  return { status: 200, body, ...(rels.length > 0 ? { headers: { link: rels.join(', ') } } : {}) }
}

function clampInt(value: string | null, fallback: number, max: number): number {
  const n = value === null ? NaN : Number.parseInt(value, 10)
  return Number.isFinite(n) && n >= 1 ? Math.min(n, max) : fallback
}

// --- request bodies, checked as GitHub's schema does ---

function invalid(detail: string): GitHubError {
  return new GitHubError(422, `Invalid request.\n\n${detail}`)
}

function objectBody(json: unknown): Record<string, unknown> {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw invalid('Invalid input: the body must be a JSON object.')
  return json as Record<string, unknown>
}

function field<T>(body: Record<string, unknown>, name: string, type: 'string' | 'boolean'): T | undefined {
  const value = body[name]
  if (value === undefined) return undefined
  if (typeof value !== type) throw invalid(`For 'properties/${name}', ${JSON.stringify(value)} is not a ${type}.`)
  return value as T
}

function deploymentInput(json: unknown): DeploymentInput {
  const body = objectBody(json)
  const ref = field<string>(body, 'ref', 'string')
  if (ref === undefined) throw invalid('"ref" wasn\'t supplied.')
  const contexts = body.required_contexts
  if (contexts !== undefined && (!Array.isArray(contexts) || contexts.some((c) => typeof c !== 'string'))) {
    throw invalid(`For 'properties/required_contexts', ${JSON.stringify(contexts)} is not an array of strings.`)
  }
  const payload = body.payload
  if (payload !== undefined && typeof payload !== 'string' && (typeof payload !== 'object' || payload === null || Array.isArray(payload))) {
    throw invalid(`For 'properties/payload', ${JSON.stringify(payload)} is not an object or a string.`)
  }
  const input: DeploymentInput = { ref }
  const strings = ['environment', 'description', 'task'] as const
  for (const name of strings) {
    const value = field<string>(body, name, 'string')
    if (value !== undefined) input[name] = value
  }
  const booleans = ['auto_merge', 'production_environment', 'transient_environment'] as const
  for (const name of booleans) {
    const value = field<boolean>(body, name, 'boolean')
    if (value !== undefined) input[name] = value
  }
  if (payload !== undefined) input.payload = payload
  if (contexts !== undefined) input.required_contexts = contexts as string[]
  return input
}

/** Labels as GitHub takes them: names, or objects with a name. */
function labelList(body: Record<string, unknown>): string[] | undefined {
  const labels = body.labels
  if (labels === undefined) return undefined
  const names = Array.isArray(labels) ? labels.map((l: unknown) => (typeof l === 'string' ? l : (l as { name?: unknown } | null)?.name)) : undefined
  if (names === undefined || names.some((n) => typeof n !== 'string')) throw invalid(`For 'properties/labels', ${JSON.stringify(labels)} is not an array.`)
  return names as string[]
}

function nullableString(body: Record<string, unknown>, name: string): string | null | undefined {
  return body[name] === null ? null : field<string>(body, name, 'string')
}

function issueInput(json: unknown): IssueInput {
  const body = objectBody(json)
  const title = body.title
  if (title === undefined || title === null || title === '') throw invalid('"title" wasn\'t supplied.')
  if (typeof title !== 'string' && typeof title !== 'number') throw invalid(`For 'properties/title', ${JSON.stringify(title)} is not a string or integer.`)
  const input: IssueInput = { title: String(title) }
  const text = nullableString(body, 'body')
  if (text !== undefined) input.body = text
  const labels = labelList(body)
  if (labels !== undefined) input.labels = labels
  return input
}

function issueChange(json: unknown): IssueChange {
  const body = objectBody(json)
  const change: IssueChange = {}
  const title = field<string>(body, 'title', 'string')
  if (title !== undefined) change.title = title
  const text = nullableString(body, 'body')
  if (text !== undefined) change.body = text
  const state = body.state
  if (state !== undefined && state !== 'open' && state !== 'closed') {
    throw new GitHubError(422, 'Validation Failed', { errors: [{ resource: 'Issue', code: 'invalid', field: 'state' }] })
  }
  if (state !== undefined) change.state = state
  const reason = body.state_reason
  if (reason !== undefined && reason !== null && !(ISSUE_STATE_REASONS as readonly unknown[]).includes(reason)) {
    throw invalid(`For 'properties/state_reason', ${JSON.stringify(reason)} is not one of ${ISSUE_STATE_REASONS.join(', ')}.`)
  }
  if (reason !== undefined) change.state_reason = reason as IssueStateReason | null
  const labels = labelList(body)
  if (labels !== undefined) change.labels = labels
  return change
}

function labelInput(json: unknown): [string, string | undefined, string | null] {
  const body = objectBody(json)
  const name = field<string>(body, 'name', 'string')
  if (name === undefined || name === '') throw invalid('"name" wasn\'t supplied.')
  const color = field<string>(body, 'color', 'string')
  if (color !== undefined && !/^[0-9a-fA-F]{6}$/.test(color)) {
    throw new GitHubError(422, 'Validation Failed', { errors: [{ resource: 'Label', code: 'invalid', field: 'color' }] })
  }
  const description = field<string>(body, 'description', 'string')
  if (description !== undefined && description.length > 100) {
    throw new GitHubError(422, 'Validation Failed', { errors: [{ resource: 'Label', code: 'invalid', field: 'description' }] })
  }
  return [name, color, description ?? null]
}

function statusInput(json: unknown): StatusInput {
  const body = objectBody(json)
  const state = body.state
  if (typeof state !== 'string' || !(DEPLOYMENT_STATES as readonly string[]).includes(state)) {
    throw new GitHubError(422, 'Validation Failed', {
      errors: [{ resource: 'DeploymentStatus', code: 'custom', field: 'state', message: 'state is not included in the list' }]
    })
  }
  const input: StatusInput = { state: state as DeploymentState }
  const strings = ['description', 'log_url', 'target_url', 'environment_url', 'environment'] as const
  for (const name of strings) {
    const value = field<string>(body, name, 'string')
    if (value !== undefined) input[name] = value
  }
  // "The maximum description length is 140 characters": characters, not UTF-16 units.
  if (input.description !== undefined && [...input.description].length > DESCRIPTION_LIMIT) {
    throw new GitHubError(422, 'Validation Failed', {
      errors: [
        { resource: 'DeploymentStatus', code: 'custom', field: 'description', message: `description is too long (maximum is ${DESCRIPTION_LIMIT} characters)` }
      ]
    })
  }
  const autoInactive = field<boolean>(body, 'auto_inactive', 'boolean')
  if (autoInactive !== undefined) input.auto_inactive = autoInactive
  return input
}

// --- GitHub's JSON objects ---

/** GitHub's legacy global node id: base64 of `0<type length>:<Type><id>`. */
function nodeId(type: string, id: number | string): string {
  return Buffer.from(`0${type.length}:${type}${id}`).toString('base64')
}

/** GitHub's simple-user: every field its OpenAPI description requires, the URL templates as GitHub writes them. */
function userJson(ctx: Context, login: string): Record<string, unknown> {
  const bot = login.endsWith('[bot]')
  const id = login === DEFAULT_CREATOR ? 41898282 : Number.parseInt(Buffer.from(login).toString('hex').slice(0, 7) || '1', 16)
  const url = `${ctx.api}/users/${encodeURIComponent(login)}`
  return {
    login,
    id,
    node_id: nodeId(bot ? 'Bot' : 'User', id),
    avatar_url: `https://avatars.githubusercontent.com/${bot ? 'in/15368' : `u/${id}`}?v=4`,
    gravatar_id: '',
    url,
    html_url: bot ? `${HTML}/apps/${login.replace(/\[bot\]$/, '')}` : `${HTML}/${login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: bot ? 'Bot' : 'User',
    user_view_type: 'public',
    site_admin: false
  }
}

function repoUrl(ctx: Context): string {
  return `${ctx.api}/repos/${ctx.owner}/${ctx.repo}`
}

function deploymentJson(ctx: Context, d: Deployment): Record<string, unknown> {
  const url = `${repoUrl(ctx)}/deployments/${d.id}`
  return {
    url,
    id: d.id,
    node_id: nodeId('Deployment', d.id),
    sha: d.sha,
    ref: d.ref,
    task: d.task,
    payload: d.payload,
    original_environment: d.original_environment,
    environment: d.environment,
    description: d.description,
    creator: userJson(ctx, d.creator),
    created_at: d.created_at,
    updated_at: d.updated_at,
    statuses_url: `${url}/statuses`,
    repository_url: repoUrl(ctx),
    transient_environment: d.transient_environment,
    production_environment: d.production_environment,
    performed_via_github_app: null
  }
}

function statusJson(ctx: Context, s: DeploymentStatus): Record<string, unknown> {
  const deploymentUrl = `${repoUrl(ctx)}/deployments/${s.deployment_id}`
  return {
    url: `${deploymentUrl}/statuses/${s.id}`,
    id: s.id,
    node_id: nodeId('DeploymentStatus', s.id),
    state: s.state,
    creator: userJson(ctx, s.creator),
    description: s.description,
    environment: s.environment,
    target_url: s.target_url,
    created_at: s.created_at,
    updated_at: s.updated_at,
    deployment_url: deploymentUrl,
    repository_url: repoUrl(ctx),
    environment_url: s.environment_url,
    log_url: s.log_url,
    performed_via_github_app: null
  }
}

function labelJson(ctx: Context, l: Label): Record<string, unknown> {
  return {
    id: l.id,
    node_id: nodeId('Label', l.id),
    url: `${repoUrl(ctx)}/labels/${encodeURIComponent(l.name)}`,
    name: l.name,
    color: l.color,
    default: l.default,
    description: l.description
  }
}

function issueJson(ctx: Context, i: Issue): Record<string, unknown> {
  const url = `${repoUrl(ctx)}/issues/${i.number}`
  const html = `${HTML}/${ctx.owner}/${ctx.repo}/${i.pullRequest ? 'pull' : 'issues'}/${i.number}`
  return {
    url,
    repository_url: repoUrl(ctx),
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: html,
    id: i.id,
    node_id: nodeId('Issue', i.id),
    number: i.number,
    title: i.title,
    user: userJson(ctx, i.user),
    labels: i.labels.flatMap((name) => {
      const label = ctx.model.label(name)
      return label === undefined ? [] : [labelJson(ctx, label)]
    }),
    state: i.state,
    locked: false,
    assignee: null,
    assignees: [],
    milestone: null,
    comments: i.comments.length,
    created_at: i.created_at,
    updated_at: i.updated_at,
    closed_at: i.closed_at,
    author_association: 'NONE',
    active_lock_reason: null,
    body: i.body,
    closed_by: i.closed_by === null ? null : userJson(ctx, i.closed_by),
    state_reason: i.state_reason,
    performed_via_github_app: null,
    ...(i.pullRequest
      ? { pull_request: { url: `${repoUrl(ctx)}/pulls/${i.number}`, html_url: html, diff_url: `${html}.diff`, patch_url: `${html}.patch`, merged_at: null } }
      : {})
  }
}

function commentJson(ctx: Context, issue: Issue, c: IssueComment): Record<string, unknown> {
  return {
    id: c.id,
    node_id: nodeId('IssueComment', c.id),
    url: `${repoUrl(ctx)}/issues/comments/${c.id}`,
    html_url: `${HTML}/${ctx.owner}/${ctx.repo}/issues/${issue.number}#issuecomment-${c.id}`,
    body: c.body,
    user: userJson(ctx, c.user),
    created_at: c.created_at,
    updated_at: c.updated_at,
    issue_url: `${repoUrl(ctx)}/issues/${issue.number}`,
    author_association: 'NONE',
    performed_via_github_app: null
  }
}

/** A pull request as GitHub's pull-request-simple gives it: the fields a client reads (number, state, title, user, links, merge). */
function pullJson(ctx: Context, p: Issue): Record<string, unknown> {
  const url = `${repoUrl(ctx)}/pulls/${p.number}`
  const html = `${HTML}/${ctx.owner}/${ctx.repo}/pull/${p.number}`
  return {
    url,
    id: p.id,
    node_id: nodeId('PullRequest', p.id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: `${repoUrl(ctx)}/issues/${p.number}`,
    commits_url: `${url}/commits`,
    number: p.number,
    state: p.state,
    locked: false,
    title: p.title,
    user: userJson(ctx, p.user),
    body: p.body,
    labels: [],
    created_at: p.created_at,
    updated_at: p.updated_at,
    closed_at: p.closed_at,
    merged_at: p.closed_at,
    author_association: 'NONE',
    draft: false
  }
}

function commitJson(ctx: Context, c: Commit): Record<string, unknown> {
  const person = { name: c.author?.name ?? 'Stand-in Author', email: c.author?.email ?? 'author@example.com', date: c.date }
  const login = c.author?.login
  return {
    sha: c.sha,
    node_id: Buffer.from(`06:Commit${c.sha}`).toString('base64'),
    commit: {
      author: person,
      committer: person,
      message: c.message,
      tree: { sha: c.sha, url: `${repoUrl(ctx)}/git/trees/${c.sha}` }, // no trees in the model: the commit's sha stands in
      url: `${repoUrl(ctx)}/git/commits/${c.sha}`,
      comment_count: 0,
      verification: { verified: false, reason: 'unsigned', signature: null, payload: null }
    },
    url: `${repoUrl(ctx)}/commits/${c.sha}`,
    html_url: `${HTML}/${ctx.owner}/${ctx.repo}/commit/${c.sha}`,
    comments_url: `${repoUrl(ctx)}/commits/${c.sha}/comments`,
    // GitHub's user whose verified email the commit's author email is; null when none matches.
    author: login === undefined ? null : userJson(ctx, login),
    committer: login === undefined ? null : userJson(ctx, login),
    parents: c.parents.map((p) => ({ sha: p, url: `${repoUrl(ctx)}/commits/${p}`, html_url: `${HTML}/${ctx.owner}/${ctx.repo}/commit/${p}` }))
  }
}

// --- HTTP ---

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size <= BODY_LIMIT + 1) chunks.push(chunk) // read to the end: leaving early would destroy the socket before the answer
  }
  return Buffer.concat(chunks)
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8')) as unknown
  } catch {
    return undefined
  }
}

/** GitHub's headers on every answer: the request id clients log, the media type, the rate limit. */
function send(res: ServerResponse, answer: Answer, n: number): void {
  const text = JSON.stringify(answer.body)
  const hex = (value: number, width: number): string => value.toString(16).toUpperCase().padStart(width, '0').slice(-width)
  res.writeHead(answer.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'x-github-request-id': `${hex(process.pid, 4)}:${hex(n, 4)}:${hex(n * 7919, 6)}:${hex(n * 104729, 6)}:${hex(Math.floor(Date.now() / 1000), 8)}`,
    'x-github-media-type': 'github.v3; format=json',
    'x-github-api-version-selected': '2022-11-28',
    'x-ratelimit-limit': '5000',
    'x-ratelimit-remaining': String(Math.max(0, 5000 - n)),
    'x-ratelimit-used': String(n),
    'x-ratelimit-resource': 'core',
    'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
    ...answer.headers
  })
  res.end(text)
}
