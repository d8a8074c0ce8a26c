// The emulated stack without a network: its state, faults, hooks, the record of every request, and
// `handle(req, res)`, which answers one request. server.ts serves it over HTTP/1.1; the release
// simulation (__tests__/sim/) calls `handle` in-process with the same objects a socket would give, so
// both run the one model of the platform (switching, 409s, the readings) and differ only in transport
// and clock.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { backupsApi } from './backups.js'
import { cloudApi } from './cloud-api.js'
import { FaultQueue } from './faults.js'
import { codeForStatus, errorBody, HttpError, parseJson } from './http-util.js'
import { Router, type RequestContext, type RouteMatch } from './router.js'
import { newSearchState, searchApi, type SearchState } from './search-api.js'
import { sitesApi } from './sites.js'
import { createSso, type Sso } from './sso.js'
import { IDP_PATH } from './sso-idp.js'
import { OIDC_PATH } from './sso-github-oidc.js'
import { SSO_DEFAULTS } from './sso-options.js'
import { errorMarks, INVENTED_HEADER, isNotEmulated, notEmulatedBody, operationMarks } from './invented.js'
import { newAppConfigFile, newBackup, newEnvironment, platformHoursAgo, type EmulatorState } from './state.js'
import { RequestHooks } from './test-hooks.js'
import { passwordAccess, TokenService } from './tokens.js'
import type { EmulatorOptions, Fault, Operation, RecordedRequest } from './types.js'

export const DEFAULTS = {
  host: '127.0.0.1',
  username: 'deployer',
  password: 'emulator-password',
  tokenLifetimeSeconds: 600,
  refreshLifetimeSeconds: 86400,
  tokenClockSkewSeconds: 0,
  maxDistributionBytes: 650 * 1024 * 1024,
  maxDistributions: 100,
  environments: ['development', 'acceptance', 'production'],
  maxEnvironments: 4,
  /** No cap: a page holds what `max` asks (100 by default, as the API reference shows). */
  distributionPageSize: Number.MAX_SAFE_INTEGER,
  deploySeconds: 0,
  deployLooks: 0,
  appConfigFiles: [],
  sso: SSO_DEFAULTS
} as const

/** Bodies of faulted calls are kept (to record their JSON) up to this size, then only drained. */
const RECORD_LIMIT = 1024 * 1024

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return out
}

/** A body as the record keeps it: JSON, or a form (the identity provider's calls) decoded into an object. */
function recordedBody(req: IncomingMessage, body: Buffer): { ok: true; value: unknown } | { ok: false } {
  if (/^\s*application\/x-www-form-urlencoded/i.test(req.headers['content-type'] ?? '')) {
    return { ok: true, value: Object.fromEntries(new URLSearchParams(body.toString('utf8'))) }
  }
  return parseJson(body)
}

/** Reads the whole body, recording it as JSON when it parses as JSON (or a form); never leaves the stream early. */
async function consumeForRecord(req: IncomingMessage, record: RecordedRequest): Promise<void> {
  const keep = !/^\s*multipart\//i.test(req.headers['content-type'] ?? '')
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length
      if (keep && size <= RECORD_LIMIT) chunks.push(chunk)
    }
  } catch {
    return // the client went away
  }
  if (keep && size > 0 && size <= RECORD_LIMIT) {
    const parsed = recordedBody(req, Buffer.concat(chunks))
    if (parsed.ok) record.json = parsed.value
  }
}

/** Reads `afterBytes` of the body (or all of it when shorter), then destroys the connection. */
async function resetAfter(req: IncomingMessage, afterBytes: number): Promise<void> {
  const socket = req.socket
  let seen = 0
  if (afterBytes > 0) {
    try {
      for await (const chunk of req as AsyncIterable<Buffer>) {
        seen += chunk.length
        if (seen >= afterBytes) break
      }
    } catch {
      // already gone
    }
  }
  socket.destroy()
}

/** Resolves on 'drain' or 'close', removing both listeners (one pair per wait, none left behind). */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resume) => {
    const done = (): void => {
      res.off('drain', done)
      res.off('close', done)
      resume()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}

/** A request target for the log: the search auth_key (a credential sent in the query string) masked. */
export function loggedUrl(url: string): string {
  return url.replace(/([?&]auth_key=)[^&]*/gi, '$1***')
}

/** Each service's error body: the search API's, the identity provider's (RFC 6749 5.2), GitHub's, or the cloud API's. */
function errorShape(pathname: string, status: number, code: string, detail: string): unknown {
  if (pathname.startsWith('/api/')) return { status_code: status, message: detail }
  if (pathname.startsWith(`${IDP_PATH}/`)) return { error: code, error_description: detail }
  if (pathname.startsWith(`${OIDC_PATH}/`)) return { message: detail }
  return errorBody(code, detail)
}

/** A 'status' fault's code: the identity provider's for its calls (RFC 6749 has no code for a 5xx, these are the usual ones). */
function faultCode(operation: Operation, status: number): string {
  if (!operation.startsWith('idp-')) return codeForStatus(status)
  return status === 503 ? 'temporarily_unavailable' : 'server_error'
}

export interface Stack {
  readonly state: EmulatorState
  readonly faults: FaultQueue
  readonly hooks: RequestHooks
  readonly requests: RecordedRequest[]
  readonly search: SearchState
  /** Single sign-on mode's stand-ins, when on. */
  readonly sso: Sso | undefined
  /** Answers one request (or drops, hangs, resets it, as a fault says). */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>
}

/** The stack's settings: each option given, else the platform's default (or the emulator's reading of it). */
function settingsOf(options: EmulatorOptions, storageDir: string): EmulatorState['settings'] {
  return {
    username: options.username ?? DEFAULTS.username,
    password: options.password ?? DEFAULTS.password,
    maxDistributionBytes: options.maxDistributionBytes ?? DEFAULTS.maxDistributionBytes,
    maxDistributions: options.maxDistributions ?? DEFAULTS.maxDistributions,
    keepUploads: options.keepUploads ?? true,
    storageDir,
    uploadBytesPerSecond: options.uploadBytesPerSecond,
    distributionPageSize: options.distributionPageSize ?? DEFAULTS.distributionPageSize,
    environmentPageSize: options.environmentPageSize ?? Number.MAX_SAFE_INTEGER,
    environmentOffsetIgnored: options.environmentOffsetIgnored ?? false,
    uploadAnswer: options.uploadAnswer ?? 'record',
    deploySeconds: options.deploySeconds ?? DEFAULTS.deploySeconds,
    deployWhileBusy: options.deployWhileBusy ?? 'refuse',
    deployLooks: options.deployLooks ?? DEFAULTS.deployLooks,
    deployReport: options.deployReport ?? 'when-done',
    siteDuringDeploy: options.siteDuringDeploy ?? (options.deployReport === 'at-request' ? 'old' : 'unavailable'),
    environmentStatus: options.environmentStatus ?? true,
    md5Case: options.md5Case ?? 'lower',
    clockOffsetSeconds: options.clockOffsetSeconds ?? 0,
    idCase: options.idCase ?? 'as-stored',
    idWhileDeploying: options.idWhileDeploying ?? 'reported',
    deleteInUse: options.deleteInUse ?? 'refuse',
    unknownEnvironmentByName: options.unknownEnvironmentByName ?? 'not-found',
    passwordLogin: 'enabled'
  }
}

/** The platform's state as the stack starts: its environments, files, a backup of each, password login. Throws on too many environments. */
function initialState(options: EmulatorOptions, storageDir: string, refreshSeconds: number, skewSeconds: number): EmulatorState {
  const environmentNames = options.environments ?? DEFAULTS.environments
  const maxEnvironments = options.maxEnvironments ?? DEFAULTS.maxEnvironments
  if (environmentNames.length > maxEnvironments) {
    throw new Error(`The platform allows at most ${maxEnvironments} environments per stack, ${environmentNames.length} were asked for (raise maxEnvironments)`)
  }
  const tokens = new TokenService(options.tokenLifetimeSeconds ?? DEFAULTS.tokenLifetimeSeconds, refreshSeconds, skewSeconds)
  const state: EmulatorState = {
    settings: settingsOf(options, storageDir),
    tokens,
    access: passwordAccess(tokens),
    distributions: [],
    environments: environmentNames.map(newEnvironment),
    appConfigFiles: (options.appConfigFiles ?? DEFAULTS.appConfigFiles).map(newAppConfigFile),
    backups: [],
    switches: new Set(),
    landings: new Map()
  }
  // One backup per environment, taken as the stack starts (by the platform's clock; backupAgeHours earlier), so a backup
  // tool has one to find; none with noBackups.
  const taken = platformHoursAgo(state, options.backupAgeHours ?? 0)
  if (options.noBackups !== true) state.backups.push(...state.environments.map((e) => newBackup(e, taken)))
  return state
}

/** The search API's settings: each option given, else the search API's default. */
function searchStateOf(options: EmulatorOptions): SearchState {
  return newSearchState({
    ...(options.searchAccountId !== undefined && { accountId: options.searchAccountId }),
    ...(options.searchAuthKey !== undefined && { authKey: options.searchAuthKey }),
    ...(options.searchDomainKey !== undefined && { domainKey: options.searchDomainKey }),
    ...(options.searchFacetFormat !== undefined && { facetFormat: options.searchFacetFormat }),
    ...(options.searchDelayMs !== undefined && { delayMs: options.searchDelayMs }),
    ...(options.searchEmptyAuthKey !== undefined && { emptyAuthKey: options.searchEmptyAuthKey })
  })
}

/** Every service's routes: the cloud API (its docs page lists the others' cloud paths too), backups, search, sites, single sign-on. */
function routerOf(state: EmulatorState, search: SearchState, sso: Sso | undefined): Router {
  const sites = sitesApi(state)
  const backups = backupsApi(state)
  const ssoRoutes = sso?.module.routes ?? []
  return new Router([
    cloudApi(state, [...backups.routes, ...sites.routes, ...ssoRoutes]),
    backups,
    searchApi(search),
    sites,
    ...(sso === undefined ? [] : [sso.module])
  ])
}

/** The stack of `options`, its uploads stored in `storageDir`. Throws on more environments than the platform allows. */
export function createStack(options: EmulatorOptions, storageDir: string): Stack {
  const refreshSeconds = options.refreshLifetimeSeconds ?? DEFAULTS.refreshLifetimeSeconds
  const skewSeconds = options.tokenClockSkewSeconds ?? DEFAULTS.tokenClockSkewSeconds
  const state = initialState(options, storageDir, refreshSeconds, skewSeconds)
  const faults = new FaultQueue(options.faults)
  const hooks = new RequestHooks()
  const requests: RecordedRequest[] = []
  const search = searchStateOf(options)
  const sso = options.sso === undefined ? undefined : createSso(options.sso, state.settings, refreshSeconds, skewSeconds)
  if (sso !== undefined) {
    state.settings.passwordLogin = sso.options.passwordLogin
    state.access = sso.access
  }
  const handling: Handling = { state, faults, hooks, requests, router: routerOf(state, search, sso), log: options.log }
  return { state, faults, hooks, requests, search, sso, handle: (req, res) => handle(handling, req, res) }
}

/** What answering a request needs of the stack. */
interface Handling {
  readonly state: EmulatorState
  readonly faults: FaultQueue
  readonly hooks: RequestHooks
  readonly requests: RecordedRequest[]
  readonly router: Router
  readonly log: EmulatorOptions['log']
}

/** Answers one request: recorded, routed, held or faulted as a test asks, handled; an error answered in its service's shape. */
async function handle(stack: Handling, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const started = performance.now()
  const socket = req.socket // req.socket is cleared once the request is destroyed
  const record = recordOf(req)
  stack.requests.push(record)
  res.on('finish', () => (record.status = res.statusCode))
  res.on('close', () => {
    logAnswered(stack.log, record, Math.round(performance.now() - started))
    stack.hooks.after(record)
  })
  const reply = new Reply(req, res)
  const ctx = reply.context(record)
  try {
    await answer(stack, ctx, reply)
  } catch (err) {
    if (socket.destroyed || res.headersSent) return
    answerError(stack.log, ctx, err)
  }
}

/** A request as the record first holds it: no operation, no status yet. */
function recordOf(req: IncomingMessage): RecordedRequest {
  return {
    operation: 'unknown',
    method: req.method ?? '',
    url: req.url ?? '',
    httpVersion: req.httpVersion,
    remotePort: req.socket.remotePort,
    headers: headersOf(req),
    at: Date.now(),
    status: 0
  }
}

/** The log's line of an answered (or dropped) request: its status, time, fault and warning. */
function logAnswered(log: EmulatorOptions['log'], record: RecordedRequest, ms: number): void {
  const status = record.status === 0 ? 'no-answer' : String(record.status)
  const fault = record.fault === undefined ? '' : ` [fault: ${record.fault}]`
  const note = record.note === undefined ? '' : ` [warning: ${record.note}]`
  log?.(`${record.method} ${loggedUrl(record.url)} ${status} ${ms}ms${fault}${note}`)
}

/** Routes the request and answers it: its route's handler, unless a fault a test asked for answers instead. */
async function answer(stack: Handling, ctx: RequestContext, reply: Reply): Promise<void> {
  const { req, record } = ctx
  try {
    ctx.url = new URL(req.url ?? '/', 'http://emulator.invalid')
  } catch {
    throw new HttpError(400, 'InvalidRequest', 'The request target is not a valid path')
  }
  const match = stack.router.match(req.method ?? '', ctx.url.pathname)
  if (match.kind !== 'route') return answerUnrouted(ctx, match)
  record.operation = match.route.operation
  ctx.params = match.params
  ctx.invent(...operationMarks(match.route.operation))
  // A test holding this operation (a slow network): handled once it lets go.
  const held = stack.hooks.held(match.route.operation)
  if (held !== undefined) await held
  const fault = stack.faults.take(match.route.operation)
  if (fault !== undefined && (await applyFault(stack, ctx, reply, fault)) === 'answered') return
  await match.route.handler(ctx)
}

/** A path no route takes: 501 for a real path the emulator does not emulate, else 404 or 405. */
async function answerUnrouted(ctx: RequestContext, match: Exclude<RouteMatch, { kind: 'route' }>): Promise<void> {
  const method = ctx.req.method ?? ''
  const { pathname } = ctx.url
  // A real path without an emulation says so (501), rather than a 404 that looks like a genuine miss.
  if (isNotEmulated(method, pathname)) {
    ctx.record.operation = 'not-emulated'
    await consumeForRecord(ctx.req, ctx.record)
    ctx.invent('not-emulated')
    ctx.send(501, notEmulatedBody(method, pathname))
    return
  }
  if (match.kind === 'trailing-slash') throw new HttpError(404, 'TrailingSlash', `Paths must not end with a slash: "${pathname}"`)
  if (match.kind === 'not-found') throw new HttpError(404, 'NotFound', `No operation at "${pathname}"`)
  throw new HttpError(405, 'MethodNotAllowed', `${method} is not allowed on "${pathname}"`, { allow: match.allow.join(', ') })
}

/** A fault a test asked for: either it answers (or never does) in place of the handler, or it shapes how the handler's call ends. */
async function applyFault(stack: Handling, ctx: RequestContext, reply: Reply, fault: Fault): Promise<'answered' | 'handle'> {
  ctx.record.fault = fault.kind
  // An answer the test asked for, not the platform's.
  if (fault.kind === 'status' || fault.kind === 'apply-then-status') ctx.invent('fault')
  switch (fault.kind) {
    case 'status':
      await answerFaultStatus(ctx, reply, fault)
      return 'answered'
    case 'revoke-tokens':
      // Every access token issued so far dies just before this call is handled.
      stack.state.access.revokeAll()
      return 'handle'
    case 'hang':
      await consumeForRecord(ctx.req, ctx.record) // and never answer: the socket stays open until close()
      return 'answered'
    case 'reset-mid-upload':
      await resetAfter(ctx.req, fault.afterBytes ?? 0)
      return 'answered'
    case 'drop-after-upload':
    case 'drop-after-apply':
      reply.drop = true
      return 'handle'
    case 'apply-then-status':
      stack.faults.answerStatusAfterApply(ctx, fault)
      return 'handle'
    case 'apply-then-delay':
      stack.faults.answerLateAfterApply(ctx, fault)
      return 'handle'
  }
}

/** A 'status' fault's answer, in the service's error shape; with `echo`, what the request sent (a server that leaks it). */
async function answerFaultStatus(ctx: RequestContext, reply: Reply, fault: Fault): Promise<void> {
  const { req, record } = ctx
  await consumeForRecord(req, record)
  const status = fault.status ?? 503
  const headers: Record<string, string> = {}
  if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(fault.retryAfterSeconds)
  if (fault.location !== undefined) headers.location = fault.location
  if (fault.echo !== undefined) {
    const echoed = `Request was: authorization=${req.headers.authorization ?? ''} body=${JSON.stringify(record.json ?? null)}`
    if (fault.echo === 'json') ctx.send(status, errorShape(ctx.url.pathname, status, faultCode(fault.operation, status), echoed), headers)
    else ctx.res.writeHead(status, reply.marked({ ...headers, 'content-type': 'text/plain' })).end(echoed)
    return
  }
  ctx.send(status, errorShape(ctx.url.pathname, status, faultCode(fault.operation, status), `Emulated fault on ${fault.operation}`), headers)
}

/** A refusal (HttpError) in its service's error shape; anything else is the emulator's own failure, a 500 that closes. */
function answerError(log: EmulatorOptions['log'], ctx: RequestContext, err: unknown): void {
  if (err instanceof HttpError) {
    const headers = err.closeConnection ? { ...err.headers, connection: 'close' } : err.headers
    ctx.invent(...errorMarks(ctx.url.pathname, err.status, err.code))
    // A refusal answered before the body was read (a 413 on the declared length): the rest of the body is read
    // and dropped before the connection closes, as a front end's lingering close does (nginx's default). Closed
    // with the body unread, the socket would be reset, and a client still sending would see the reset, not the answer.
    if (err.closeConnection) ctx.req.resume()
    // Each service's paths answer in its own error shape, even for a path it does not have.
    ctx.send(err.status, errorShape(ctx.url.pathname, err.status, err.code, err.detail), headers)
  } else {
    log?.(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
    ctx.invent('status-500', 'error-code')
    ctx.send(500, errorBody('InternalError', 'The emulator failed to handle the request'), { connection: 'close' })
  }
}

/**
 * One request's answer: the marks of what in it is invented, and the ways to send it. Sends nothing once an answer
 * has started; once a fault said drop, destroys the connection instead of answering.
 */
class Reply {
  /** A 'drop-after-upload' or 'drop-after-apply' fault: the call is carried out, its answer never sent. */
  drop = false
  private readonly invented = new Set<string>()
  private readonly socket: Socket

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse
  ) {
    this.socket = req.socket
  }

  /** The handlers' view of the request and its answer. */
  context(record: RecordedRequest): RequestContext {
    return {
      req: this.req,
      res: this.res,
      url: new URL('http://emulator.invalid/'),
      params: {},
      record,
      invent: (...names) => {
        for (const name of names) this.invented.add(name)
      },
      send: (status, body, headers) => this.send(status, body, headers),
      sendText: (status, contentType, text, headers) => this.sendText(status, contentType, text, headers),
      sendStream: (status, headers, length, body) => this.sendStream(status, headers, length, body)
    }
  }

  /** The answer's headers, with the marks of what in it is invented. */
  marked<T extends Record<string, unknown>>(headers: T): T {
    return this.invented.size === 0 ? headers : { ...headers, [INVENTED_HEADER]: [...this.invented].join(', ') }
  }

  /** Whether an answer may start now: not when one has, and not when a fault said drop (the connection is destroyed). */
  private mayAnswer(): boolean {
    if (this.res.headersSent || this.res.writableEnded) return false
    if (this.drop) {
      this.socket.destroy()
      return false
    }
    return true
  }

  send(status: number, body?: unknown, headers: Record<string, string> = {}): void {
    if (!this.mayAnswer()) return
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body))
    const h: OutgoingHttpHeaders = this.marked({ ...headers })
    if (payload !== undefined) {
      h['content-type'] = 'application/json'
      h['content-length'] = payload.length
    }
    this.res.writeHead(status, h)
    if (h.connection === 'close' && this.req.complete === false) return lingerThenEnd(this.req, this.res, payload)
    this.res.end(payload)
  }

  sendText(status: number, contentType: string, text: string, headers: Record<string, string> = {}): void {
    if (!this.mayAnswer()) return
    const payload = Buffer.from(text)
    this.res.writeHead(status, this.marked({ ...headers, 'content-type': contentType, 'content-length': payload.length }))
    this.res.end(payload)
  }

  async sendStream(status: number, headers: Record<string, string>, length: number, body: AsyncIterable<Buffer>): Promise<void> {
    if (!this.mayAnswer()) return
    const { req, res, socket } = this
    res.writeHead(status, this.marked({ ...headers, 'content-length': length }))
    if (req.method === 'HEAD') {
      res.end() // the generator never started, so nothing was opened
      return
    }
    let sent = 0
    try {
      for await (const chunk of body) {
        sent += chunk.length
        // Wait for the client to read on, or for the connection to close (then stop reading the archive).
        if (!res.write(chunk)) await drainedOrClosed(res)
        if (res.destroyed) return
      }
    } catch (err) {
      // The answer has started: cut the connection so the client sees it was incomplete.
      socket.destroy()
      throw err
    }
    if (sent !== length) {
      socket.destroy()
      throw new Error(`sendStream: ${sent} bytes sent, ${length} announced`)
    }
    res.end()
  }
}

/** nginx's lingering_time: how long a refused body is still read before the connection closes anyway. */
const LINGER_MS = 30_000

/**
 * A refusal answered before the request's body was in (a 413 on its declared length): the whole answer is sent at
 * once, but the connection closes only once the client's body was read and dropped, as a front end's lingering close
 * does. Closed earlier, the socket would be reset under a client still sending, which would see the reset, not the answer.
 */
function lingerThenEnd(req: IncomingMessage, res: ServerResponse, payload: Buffer | undefined): void {
  if (payload !== undefined) res.write(payload)
  const end = (): void => {
    clearTimeout(timer)
    if (!res.writableEnded) res.end()
  }
  const timer = setTimeout(end, LINGER_MS)
  timer.unref()
  req.once('end', end)
  req.once('close', end)
  req.resume()
}
