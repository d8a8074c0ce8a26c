// A stand-in for the GitHub REST API calls the action makes (deployments, their statuses) and the
// compare call, the tag listing (the status report's tag patterns), answered as GitHub documents them, for end-to-end tests. A real HTTP/1.1 server
// (node:http) over the model of model.ts; it records every request and can answer faults.
// Self-contained: the emulator's lint rule keeps it from importing even ../http-util.ts.
import { createServer, STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  DEFAULT_CREATOR,
  DEPLOYMENT_STATES,
  GitHubError,
  GitHubModel,
  type Commit,
  type Deployment,
  type DeploymentInput,
  type DeploymentState,
  type DeploymentStatus,
  type StatusInput
} from './model.js'

export { fakeSha, GitHubError, GitHubModel, seedSampleHistory } from './model.js'
export type { Commit, Comparison, CompareStatus, Deployment, DeploymentInput, DeploymentState, DeploymentStatus, StatusInput } from './model.js'

export const DEFAULT_GITHUB_TOKEN = 'ghs_localStandInToken12345'
const DOCS = 'https://docs.github.com/rest'
const HTML = 'https://github.com'
const BODY_LIMIT = 1024 * 1024

export type RouteName = 'create-deployment' | 'list-deployments' | 'get-deployment' | 'create-status' | 'list-statuses' | 'compare' | 'list-tags'

/** What a token may do, as a workflow's `permissions:` grants it; `login` is the creator GitHub records. */
export interface TokenGrant {
  deployments: 'write' | 'read' | 'none'
  contents: 'read' | 'none'
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

export function createGitHubStandIn(options: GitHubStandInOptions = {}): GitHubCore {
  const owner = options.owner ?? 'acme'
  const repo = options.repo ?? 'site'
  const tokens = options.tokens ?? { [DEFAULT_GITHUB_TOKEN]: { deployments: 'write', contents: 'read' } }
  const model = new GitHubModel(options.now)
  const calls: GitHubCall[] = []
  const faults = new Map<RouteName, GitHubFault[]>()
  const ctx: Context = { api: '', owner, repo, model }
  let requestCount = 0

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', ctx.api)
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
    calls.push(call)
    let answer: Answer
    try {
      answer = respond(call, url, raw, req.headers)
    } catch (error) {
      if (!(error instanceof GitHubError)) throw error
      answer = { status: error.status, body: { message: error.message, ...error.extra, documentation_url: DOCS } }
    }
    call.status = answer.status
    send(res, answer, ++requestCount)
  }

  function respond(call: GitHubCall, url: URL, raw: Buffer, headers: IncomingHttpHeaders): Answer {
    if (raw.length > BODY_LIMIT) throw new GitHubError(413, 'Payload Too Large')
    const matched = match(call.method, url.pathname)
    if (matched !== undefined) call.route = matched.route
    if (raw.length > 0) call.json = parseJson(raw)
    // A fault answers before the token is looked at, as an outage of GitHub's front end would: nothing is applied.
    const fault = matched === undefined ? undefined : takeFault(faults, matched.route)
    if (fault !== undefined) return fault
    const grant = tokens[tokenOf(call.auth) ?? '']
    if (grant === undefined) throw new GitHubError(401, 'Bad credentials')
    if (matched === undefined || matched.owner.toLowerCase() !== owner.toLowerCase() || matched.repo.toLowerCase() !== repo.toLowerCase()) {
      throw new GitHubError(404, 'Not Found')
    }
    if (!allowed(grant, matched.route)) throw new GitHubError(403, 'Resource not accessible by integration')
    if (raw.length > 0 && call.json === undefined) throw new GitHubError(400, 'Problems parsing JSON')
    return route(ctx, matched, call, grant.login ?? DEFAULT_CREATOR, headers.accept ?? '')
  }

  return {
    model,
    calls,
    fail(routeName, fault) {
      const queue = faults.get(routeName) ?? []
      queue.push({ ...fault, times: fault.times ?? 1 })
      faults.set(routeName, queue)
    },
    handle,
    setApi(api) {
      ctx.api = api
    }
  }
}

export async function startGitHubStandIn(options: GitHubStandInOptions = {}): Promise<GitHubStandIn> {
  const core = createGitHubStandIn(options)
  const server = createServer((req, res) => {
    void core.handle(req, res).catch(() => res.destroy())
  })
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject)
      resolveListen()
    })
  })
  const address = server.address() as AddressInfo
  const url = `http://${urlHost(address.address)}:${address.port}`
  core.setApi(url)

  let closing: Promise<void> | undefined
  return {
    url,
    model: core.model,
    calls: core.calls,
    fail: (routeName, fault) => core.fail(routeName, fault),
    close() {
      closing ??= new Promise<void>((done) => {
        server.close(() => done())
        server.closeAllConnections() // keep-alive sockets of the client would hold close() open
      })
      return closing
    }
  }
}

/** The host of the stand-in's own URL: a wildcard address is reached on loopback, an IPv6 one in brackets. */
function urlHost(address: string): string {
  if (address === '0.0.0.0') return '127.0.0.1'
  if (address === '::') return '[::1]'
  return address.includes(':') ? `[${address}]` : address
}

function takeFault(faults: Map<RouteName, GitHubFault[]>, route: RouteName): Answer | undefined {
  const fault = faults.get(route)?.[0]
  if (fault === undefined) return undefined
  fault.times = (fault.times ?? 1) - 1
  if (fault.times <= 0) faults.get(route)?.shift()
  const message = fault.status >= 500 ? 'Server Error' : (STATUS_CODES[fault.status] ?? 'Error')
  return { status: fault.status, body: fault.body ?? { message, documentation_url: DOCS } }
}

/** `token X` or `Bearer X`, as GitHub accepts both. */
function tokenOf(auth: string | undefined): string | undefined {
  return /^(?:token|bearer)\s+(\S+)\s*$/i.exec(auth ?? '')?.[1]
}

function allowed(grant: TokenGrant, route: RouteName): boolean {
  if (route === 'compare' || route === 'list-tags') return grant.contents === 'read'
  if (route === 'create-deployment' || route === 'create-status') return grant.deployments === 'write'
  return grant.deployments !== 'none'
}

/** The seven routes by method and path; a `{basehead}` may hold encoded slashes, so the rest of the path is taken. */
function match(method: string, pathname: string): Matched | undefined {
  const parts = pathname.split('/').slice(1)
  const [root, owner, repo, kind, id, sub] = parts
  if (root !== 'repos' || owner === undefined || repo === undefined || owner === '' || repo === '') return undefined
  const base = { owner: decode(owner), repo: decode(repo) }
  if (kind === 'compare' && method === 'GET' && parts.length > 4) return { route: 'compare', ...base, basehead: parts.slice(4).join('/') }
  if (kind === 'tags' && parts.length === 4) return method === 'GET' ? { route: 'list-tags', ...base } : undefined
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

function route(ctx: Context, m: Matched, call: GitHubCall, login: string, accept: string): Answer {
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
    case 'list-tags':
      return page(call, ctx.model.tagList, (t) => tagJson(ctx, t), ctx.api)
  }
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
  const autoInactive = field<boolean>(body, 'auto_inactive', 'boolean')
  if (autoInactive !== undefined) input.auto_inactive = autoInactive
  return input
}

// --- GitHub's JSON objects ---

/** GitHub's legacy global node id: base64 of `0<type length>:<Type><id>`. */
function nodeId(type: string, id: number | string): string {
  return Buffer.from(`0${type.length}:${type}${id}`).toString('base64')
}

function userJson(ctx: Context, login: string): Record<string, unknown> {
  const bot = login.endsWith('[bot]')
  const id = login === DEFAULT_CREATOR ? 41898282 : Number.parseInt(Buffer.from(login).toString('hex').slice(0, 7) || '1', 16)
  return {
    login,
    id,
    node_id: nodeId(bot ? 'Bot' : 'User', id),
    avatar_url: `https://avatars.githubusercontent.com/${bot ? 'in/15368' : `u/${id}`}?v=4`,
    gravatar_id: '',
    url: `${ctx.api}/users/${encodeURIComponent(login)}`,
    html_url: bot ? `${HTML}/apps/${login.replace(/\[bot\]$/, '')}` : `${HTML}/${login}`,
    type: bot ? 'Bot' : 'User',
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

function commitJson(ctx: Context, c: Commit): Record<string, unknown> {
  const person = { name: 'Stand-in Author', email: 'author@example.com', date: c.date }
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
    author: null,
    committer: null,
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
