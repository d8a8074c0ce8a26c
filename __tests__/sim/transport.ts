// The simulation's replaced edges on the action's side: HttpTransport (the cloud API, the sites, search),
// the fetch of the OAuth door and of octokit (the token endpoint, GitHub) and the request of GitLab's door,
// answering in-process from the emulator's own stack (stack.ts `handle`), the GitHub stand-in's core
// (github/server.ts) and the GitLab stand-in's core (gitlab/server.ts) with the objects a socket would give them. No sockets, no real time: every wait is a fake timer, so a schedule
// replays exactly. A dropped or held answer becomes what undici would throw (a closed socket, a call past
// its time limit). Who calls (the main step, the post step, the world) is known through an async context,
// so a killed main step's calls and answers vanish as its process would. The event sinks' host
// (events.sim) is a recorder: each request kept with when it arrived and when its caller let go, answered
// as the schedule's fate for that sink says.
import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks'
import { EventEmitter } from 'node:events'
import { Readable } from 'node:stream'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { HttpRequest, HttpResponse, TransportOptions } from '../../src/http/transport.js'
import type { FetchInit } from '../../src/http/fetch.js'
import type { RequestAnswer, RequestOptions } from '../../src/http/request.js'
import type { Stack } from '../../src/emulator/stack.js'
import type { GitHubCore } from '../../src/emulator/github/server.js'
import type { GitLabCore } from '../../src/emulator/gitlab/server.js'
import { match as gitlabMatch } from '../../src/emulator/gitlab/routes.js'
import { runIndex } from './process.js'

/** Which process makes a call: the main step, the post step, the world (actors, the test), or the status report (./status.ts). */
export type Caller = 'main' | 'post' | 'world' | 'status'
export const caller = new AsyncLocalStorage<Caller>()

/** What happens to one of the status report's calls: answered by the service, or a fault of its own (./status.ts decides). */
export type TapFate =
  | { kind: 'answer' }
  /** `echo`: the body says what the request was (its Authorization header and body), as careless servers do. */
  | { kind: 'respond'; status: number; headers: Record<string, string>; body: string; echo?: boolean }
  | { kind: 'hang' }
  | { kind: 'reset' }
  | { kind: 'unreachable'; code: string }

/** One call of the status report, as the tap follows it: the service's answer as it was made, and how the call ended. */
export interface TapCall {
  readonly fate: TapFate
  /** The answer's latency (the report's own, so that its calls leave the run's drawn latencies as they were). */
  readonly latencyMs: number
  /** The service made its answer (its status and body): the world at that very moment is what the answer showed. */
  answered(status: number, text: string): void
  /** How the call ended for the caller: an answer, or an error (no answer within its limit, a closed socket, no connection). */
  settled(status: number | undefined): void
}

/** The status report's side of the wire: its calls get their own faults and are recorded, apart from the run's (./status.ts). */
export interface Tap {
  begin(service: 'stack' | 'github' | 'gitlab', method: string, url: URL): TapCall
}

/** The tap of the current call: the status report's calls only. */
function tapOf(): Tap | undefined {
  return caller.getStore() === 'status' ? wire.statusTap : undefined
}

/** The handler a tapped call meets: the service's, or the fault its fate names (a hang never settles). */
function tapped(handler: Handler, fate: TapFate): Handler {
  if (fate.kind === 'answer') return handler
  if (fate.kind === 'hang') return () => never()
  if (fate.kind === 'reset')
    return async (req) => {
      req.socket.destroy()
    }
  if (fate.kind === 'unreachable')
    return async () => {
      throw Object.assign(new Error(`connect ${fate.code}`), { code: fate.code })
    }
  return async (req, res) => {
    let body = fate.body
    if (fate.echo === true) {
      const chunks: Buffer[] = []
      for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk)
      const said = `Request was: authorization=${req.headers.authorization ?? ''} body=${Buffer.concat(chunks).toString('utf8')}`
      body = JSON.stringify({ code: 'Fault', message: said, error: 'temporarily_unavailable', error_description: said })
    }
    res.writeHead(fate.status, { 'content-type': 'application/json', ...fate.headers })
    res.end(body)
  }
}

/**
 * Follows a tapped call to its end for the tap: the status it was answered with, or none. An untapped call is the very
 * promise it was (no extra turn of the microtask queue: the run's schedules replay as they did before the tap).
 */
function settledFor<T extends { status: number }>(call: TapCall | undefined, work: Promise<T>): Promise<T> {
  return call === undefined ? work : followed(call, work)
}

async function followed<T extends { status: number }>(call: TapCall, work: Promise<T>): Promise<T> {
  try {
    const res = await work
    call.settled(res.status)
    return res
  } catch (error) {
    call.settled(undefined)
    throw error
  }
}

/** One request to the event sinks' host, as it arrived, and how it ended for the caller. */
export interface SinkRequest {
  readonly seq: number
  /** Which run of the world sent it (./process.ts). */
  readonly run: number
  /** The sink, by the first segment of the path (cdevents, slack, grafana, ...). */
  readonly key: string
  /** Its index among this sink's requests in the run. */
  readonly index: number
  readonly by: Caller
  readonly method: string
  readonly path: string
  readonly headers: Record<string, string>
  readonly body: string
  /** Fake Date.now() when it arrived. */
  readonly at: number
  /** When the caller got its answer or gave up (undefined: never, e.g. a killed step). */
  settledAt: number | undefined
  /** answered (with `status`), or given up (the caller's signal or time limit). */
  outcome: 'answered' | 'given-up' | undefined
  status: number | undefined
}

/** What the sinks' host does with a request: the status it answers, after how long; undefined: it never answers. */
export type SinkAnswer = { status: number; afterMs: number } | undefined

/** A GitHub call's fate, decided by the world before the stand-in sees it. */
export type GitHubFate = { kind: 'answer' } | { kind: 'hang' } | { kind: 'unreachable'; code: string } | { kind: 'slow'; seconds: number }

/** The world the transports of one simulated run talk to (set by the world before the run starts). */
export const wire: {
  stack: Stack | undefined
  /** Other stacks of the world, by host (a second run's stack, ./runs.ts); any other host is `stack`. */
  stacks: Map<string, Stack>
  github: GitHubCore | undefined
  /** The host octokit is given as GitHub's API (GITHUB_API_URL). */
  githubHost: string
  latencyMs: (path: string) => number
  /** What happens to the next GitHub call of a route (faults the stand-in cannot give: no answer, no connection). */
  githubFate: (route: string) => GitHubFate
  gitlab: GitLabCore | undefined
  /** The host of GitLab's instance (gitlab-url). */
  gitlabHost: string
  /** What happens to the next GitLab call of a route (./gitlab.ts queues the stand-in's own faults; no connection and slowness here). */
  gitlabFate: (route: string) => GitHubFate
  /** Called after a call of the code's host (GitHub's or GitLab's) was answered, by its route (request-relative actors). */
  afterCodeHost: (route: string) => void
  /** Every environments answer the action got, in order, with when the platform made it: what each look could have seen (and which run looked). */
  looks: Array<{ seq: number; at: number; sentAt: number; answer: Record<string, unknown>; run: number }>
  /** Every page of the stack's distributions the action received, in order: what pruning chose from (and which run read it). */
  distributionLists: Array<{ seq: number; answer: Record<string, unknown>; run: number }>
  /** Every list of GitHub Deployments the action received (the main step), with its call's sequence number: what pruning could have read. */
  githubLists: Array<{ seq: number; at: number; deployments: Array<Record<string, unknown>>; run: number }>
  /** Every deploy call the action made, in order, by the sequence number of its call and when it was sent (and which run sent it). */
  deploys: Array<{ seq: number; at: number; distributionId: string; run: number }>
  /** Every GitHub call of a run that reached the stand-in, by its sequence number and route: what GitHub had recorded when the run read it. */
  githubCalls: Array<{ seq: number; route: string; run: number }>
  /** Every GitLab call of a run that reached the stand-in (the status report's are its own), with its route and the body it sent. */
  gitlabCalls: Array<{ seq: number; route: string; run: number; by: Caller; method: string; path: string; body: string }>
  /** Every token a service handed a run in an answer (a login, a refresh, a token endpoint): secrets the world knows. */
  issued: Array<{ token: string; run: number }>
  /** Every request a run made of the platform, its identity provider or GitHub (not the sinks'), as it arrived. */
  calls: Array<{ seq: number; run: number; by: Caller; method: string; host: string; path: string; at: number }>
  /** The event sinks' host: its name, what it answers each sink's nth request, and every request it got. */
  eventsHost: string
  sinkAnswer: (key: string, index: number) => SinkAnswer
  sinkRequests: SinkRequest[]
  seq: number
  /** Real I/O under way (a body read from disk): the clock waits for it. */
  io: Set<Promise<unknown>>
  /** The main step's process was killed: its calls never arrive, its answers are never read. */
  killed: boolean
  /** Runs whose command has exited (process.exit once main() resolved): their late answers are never read. */
  exited: Set<number>
  /** Calls in flight, by run and caller: a step's process lives on until they are answered or given up. */
  inFlight: Map<string, number>
  /** The status report's calls, when a schedule reads it (./status.ts). */
  statusTap: Tap | undefined
} = {
  stack: undefined,
  stacks: new Map(),
  github: undefined,
  githubHost: 'github.sim',
  latencyMs: () => 0,
  githubFate: () => ({ kind: 'answer' }),
  gitlab: undefined,
  gitlabHost: 'gitlab.sim',
  gitlabFate: () => ({ kind: 'answer' }),
  afterCodeHost: () => undefined,
  looks: [],
  distributionLists: [],
  githubLists: [],
  deploys: [],
  githubCalls: [],
  gitlabCalls: [],
  issued: [],
  calls: [],
  eventsHost: 'events.sim',
  sinkAnswer: () => ({ status: 200, afterMs: 0 }),
  sinkRequests: [],
  seq: 0,
  io: new Set(),
  killed: false,
  exited: new Set(),
  inFlight: new Map(),
  statusTap: undefined
}

/** Real I/O the clock waits for before it moves (a file the command writes: its summary, its dotenv file). */
export function realIo<T>(work: Promise<T>): Promise<T> {
  wire.io.add(work)
  void work.finally(() => wire.io.delete(work)).catch(() => undefined)
  return work
}

/** Whether the current caller is a killed main step (only the world's first run is ever stopped from outside), or a command that exited. */
export function dead(): boolean {
  if (caller.getStore() !== 'main') return false
  return (wire.killed && runIndex() === 0) || wire.exited.has(runIndex())
}

/** How many calls of run `run`'s `who` are in flight. */
export function inFlight(run: number, who: Caller): number {
  return wire.inFlight.get(`${run}:${who}`) ?? 0
}

/** Counts `work` as a call in flight of the calling run and step until it settles for its caller (the same promise: no tick added). */
function inFlightWhile<T>(work: () => Promise<T>): Promise<T> {
  const key = `${runIndex()}:${caller.getStore() ?? 'world'}`
  wire.inFlight.set(key, (wire.inFlight.get(key) ?? 0) + 1)
  const settled = (): void => void wire.inFlight.set(key, (wire.inFlight.get(key) ?? 1) - 1)
  const call = work()
  call.then(settled, settled)
  return call
}

/** A promise that never settles: what a killed process waits on. */
function never<T>(): Promise<T> {
  return new Promise<T>(() => undefined)
}

/**
 * Timers keep the async context they were set in (fake timers run every callback from the test's own
 * context): a main step's pause still belongs to the main step when it ends. Installed after each
 * jest.useFakeTimers(); jest.useRealTimers() puts the real ones back.
 */
export function bindTimersToContext(): void {
  const set = globalThis.setTimeout
  const every = globalThis.setInterval
  globalThis.setTimeout = ((fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) =>
    set(AsyncResource.bind(fn), ms, ...args)) as unknown as typeof setTimeout
  globalThis.setInterval = ((fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) =>
    every(AsyncResource.bind(fn), ms, ...args)) as unknown as typeof setInterval
}

export class CallTimeoutError extends Error {
  override name = 'CallTimeoutError'
  readonly code = 'ETIMEDOUT'
}

class SocketClosed extends Error {
  override name = 'SocketError'
  readonly code = 'UND_ERR_SOCKET'
}

/** What node:http's ServerResponse is to the handlers: status, headers, body, and the finish/close events. */
class FakeResponse extends EventEmitter {
  statusCode = 200
  headersSent = false
  writableEnded = false
  destroyed = false
  headers: Record<string, unknown> = {}
  readonly chunks: Buffer[] = []

  writeHead(status: number, headers: Record<string, unknown> = {}): this {
    this.statusCode = status
    this.headers = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))
    this.headersSent = true
    return this
  }

  write(chunk: Buffer | string): boolean {
    this.chunks.push(Buffer.from(chunk))
    return true
  }

  end(chunk?: Buffer | string): this {
    if (chunk !== undefined) this.write(chunk)
    this.writableEnded = true
    this.emit('finish')
    this.emit('close')
    return this
  }
}

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>

interface Exchange {
  method: string
  url: URL
  headers: Record<string, string>
  body: Buffer
}

/** A body as bytes; a stream (an upload from disk) is read while the clock waits for it. */
async function bytesOf(body: HttpRequest['body'] | FetchInit['body']): Promise<Buffer> {
  if (body === undefined || body === null) return Buffer.alloc(0)
  if (typeof body === 'string') return Buffer.from(body)
  if (body instanceof URLSearchParams) return Buffer.from(body.toString())
  if (body instanceof Uint8Array) return Buffer.from(body)
  if (body instanceof Readable) {
    const reading = (async () => {
      const chunks: Buffer[] = []
      for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer))
      return Buffer.concat(chunks)
    })()
    wire.io.add(reading)
    try {
      return await reading
    } finally {
      wire.io.delete(reading)
    }
  }
  throw new Error(`simulation: a body of type ${typeof body} is not supported`)
}

/** One request through a handler, answered after the world's latency; never settles when the handler holds it (a hang). */
async function exchange(
  handler: Handler,
  x: Exchange,
  latencyMs: number,
  numbered?: (seq: number) => void,
  tap?: TapCall
): Promise<HttpResponse & { seq: number }> {
  const seq = ++wire.seq
  numbered?.(seq)
  wire.calls.push({ seq, run: runIndex(), by: caller.getStore() ?? 'world', method: x.method, host: x.url.host, path: x.url.pathname, at: Date.now() })
  const headers: Record<string, string> = { host: x.url.host, ...x.headers }
  if (x.body.length > 0) headers['content-length'] = String(x.body.length)
  const res = new FakeResponse()
  const socket = {
    remotePort: 0,
    destroyed: false,
    destroy(): void {
      if (this.destroyed) return
      this.destroyed = true
      res.destroyed = true
      res.emit('close')
    }
  }
  const incoming = Object.assign(Readable.from(x.body.length > 0 ? [x.body] : []), {
    method: x.method,
    url: `${x.url.pathname}${x.url.search}`,
    httpVersion: '1.1',
    headers,
    socket
  })
  const closed = new Promise<void>((done) => res.once('close', () => done()))
  if (tap !== undefined) res.once('finish', () => tap.answered(res.statusCode, Buffer.concat(res.chunks).toString('utf8')))
  const handling = handler(incoming as unknown as IncomingMessage, res as unknown as ServerResponse)
  // An upload's handler checks the archive with zlib on the threadpool (real time): the clock waits for it.
  if (x.method === 'POST' && x.url.pathname === '/v3/distributions') {
    wire.io.add(handling)
    void handling.finally(() => wire.io.delete(handling)).catch(() => undefined)
  }
  await handling
  await closed
  if (latencyMs > 0) await new Promise((done) => setTimeout(done, latencyMs))
  if (!res.writableEnded) throw new SocketClosed('other side closed')
  const out: Record<string, string | string[] | undefined> = {}
  for (const [k, v] of Object.entries(res.headers)) out[k] = Array.isArray(v) ? v.map(String) : v === undefined ? undefined : String(v as string)
  const text = Buffer.concat(res.chunks).toString('utf8')
  noteTokens(text)
  return { status: res.statusCode, headers: out, text, seq }
}

/** The tokens an answer hands the caller (OAuth's and the platform's token fields, GitHub's OIDC `value`). */
function noteTokens(text: string): void {
  if (!/token"|"value"/.test(text)) return
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return
  }
  if (typeof body !== 'object' || body === null) return
  for (const [key, value] of Object.entries(body as Record<string, unknown>))
    if (/token$|^value$/i.test(key) && typeof value === 'string' && value.length >= 16) wire.issued.push({ token: value, run: runIndex() })
}

/**
 * `work` within `limitMs` and the signal; what undici gives when either ends first. A killed main step's
 * call never settles, and neither does its answer once the kill came.
 */
function limited<T>(work: Promise<T>, limitMs: number | undefined, signal: AbortSignal | undefined | null, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = limitMs === undefined ? undefined : setTimeout(() => finish(() => reject(onTimeout())), limitMs)
    const onAbort = (): void => finish(() => reject(abortReason(signal)))
    signal?.addEventListener('abort', onAbort, { once: true })
    let settled = false
    function finish(then: () => void): void {
      if (settled) return
      settled = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      if (dead()) return
      then()
    }
    work.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(error as Error))
    )
  })
}

function abortReason(signal: AbortSignal | undefined | null): Error {
  const reason: unknown = signal?.reason
  return reason instanceof Error || reason instanceof DOMException ? (reason as Error) : new DOMException('This operation was aborted', 'AbortError')
}

export class HttpTransport {
  private closed = false

  constructor(
    readonly baseUrl: string,
    private readonly options: TransportOptions
  ) {}

  send(req: HttpRequest): Promise<HttpResponse> {
    if (dead()) return never()
    return inFlightWhile(() => this.sendNow(req))
  }

  private async sendNow(req: HttpRequest): Promise<HttpResponse> {
    if (new URL(this.baseUrl).host === wire.eventsHost) return this.toSinks(req)
    const stack = wire.stacks.get(new URL(this.baseUrl).host) ?? wire.stack
    if (stack === undefined || this.closed) throw new SocketClosed('no simulated stack')
    const signal = this.options.signal
    if (signal?.aborted) throw signal.reason
    const url = new URL(req.path, this.baseUrl)
    const limit = req.idleTimeoutMs ?? req.timeoutMs ?? this.options.timeoutMs ?? 60_000
    const headers: Record<string, string> = { 'user-agent': this.options.userAgent }
    for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v
    const sentAt = Date.now()
    req.onDispatch?.()
    const tap = tapOf()?.begin('stack', req.method, url)
    const handler = tapped((q, s) => stack.handle(q, s), tap?.fate ?? { kind: 'answer' })
    const work = (async () => {
      const body = await bytesOf(req.body)
      const deploy = req.method === 'PUT' && req.path.endsWith('/deploy')
      const noteDeploy = (seq: number): void => {
        if (deploy)
          wire.deploys.push({
            seq,
            at: Date.now(),
            distributionId: String((JSON.parse(body.toString('utf8')) as { distributionId?: unknown }).distributionId),
            run: runIndex()
          })
      }
      return exchange(handler, { method: req.method, url, headers, body }, tap?.latencyMs ?? wire.latencyMs(url.pathname), noteDeploy, tap)
    })()
    const res = await settledFor(
      tap,
      limited(work, limit, signal, () => new CallTimeoutError(`no answer within ${Math.round(limit / 1000)} s`))
    )
    // Only an answer the action received counts as something it could have seen (the status report's are its own).
    if (tap === undefined && req.method === 'GET' && req.path.startsWith('/v3/environments') && res.status === 200) {
      wire.looks.push({ seq: res.seq, at: Date.now(), sentAt, answer: JSON.parse(res.text) as Record<string, unknown>, run: runIndex() })
    }
    if (req.method === 'GET' && /^\/v3\/distributions(\?|$)/.test(req.path) && res.status === 200) {
      wire.distributionLists.push({ seq: res.seq, answer: JSON.parse(res.text) as Record<string, unknown>, run: runIndex() })
    }
    return { status: res.status, headers: res.headers, text: res.text }
  }

  async close(): Promise<void> {
    this.closed = true
  }

  /** A request to the event sinks' host: recorded as it arrives, answered as the sink's fate says, its end for the caller noted. */
  private async toSinks(req: HttpRequest): Promise<HttpResponse> {
    const signal = this.options.signal
    if (signal?.aborted) throw signal.reason
    const url = new URL(req.path, this.baseUrl)
    const headers: Record<string, string> = { 'user-agent': this.options.userAgent }
    for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v
    const body = (await bytesOf(req.body)).toString('utf8')
    const key = url.pathname.split('/')[1] ?? ''
    const index = wire.sinkRequests.filter((r) => r.key === key).length
    const record: SinkRequest = {
      seq: ++wire.seq,
      run: runIndex(),
      key,
      index,
      by: caller.getStore() ?? 'world',
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers,
      body,
      at: Date.now(),
      settledAt: undefined,
      outcome: undefined,
      status: undefined
    }
    wire.sinkRequests.push(record)
    const answer = wire.sinkAnswer(key, index)
    const answered = (status: number): HttpResponse & { seq: number } => ({
      status,
      headers: { 'content-type': 'application/json' },
      text: '{}',
      seq: record.seq
    })
    const work =
      answer === undefined
        ? never<HttpResponse & { seq: number }>()
        : answer.afterMs === 0
          ? Promise.resolve(answered(answer.status))
          : new Promise<HttpResponse & { seq: number }>((done) => setTimeout(() => done(answered(answer.status)), answer.afterMs))
    const limit = req.timeoutMs ?? this.options.timeoutMs ?? 60_000
    try {
      const res = await limited(work, limit, signal, () => new CallTimeoutError(`no answer within ${Math.round(limit / 1000)} s`))
      Object.assign(record, { settledAt: Date.now(), outcome: 'answered', status: res.status })
      return { status: res.status, headers: res.headers, text: res.text }
    } catch (error) {
      Object.assign(record, { settledAt: Date.now(), outcome: 'given-up' })
      throw error
    }
  }
}

function headersOf(init: FetchInit): Record<string, string> {
  const out: Record<string, string> = {}
  const raw = init.headers
  if (raw === undefined) return out
  const entries = raw instanceof Headers ? [...raw.entries()] : Array.isArray(raw) ? raw : Object.entries(raw as Record<string, string>)
  for (const [k, v] of entries) out[String(k).toLowerCase()] = String(v)
  return out
}

/** fetch, answered in-process: the token endpoint (the stack's /idp/ and /github-oidc/) or GitHub (the stand-in). */
export function httpFetch(input: string, init: FetchInit = {}): Promise<Response> {
  if (dead()) return never()
  return inFlightWhile(() => fetchNow(input, init))
}

async function fetchNow(input: string, init: FetchInit): Promise<Response> {
  const url = new URL(input)
  const signal = init.signal ?? undefined
  if (signal?.aborted) throw abortReason(signal)
  const github = url.host === wire.githubHost
  const stack = wire.stacks.get(url.host) ?? wire.stack
  const handler: Handler | undefined = github ? wire.github?.handle : stack === undefined ? undefined : (q, s) => stack.handle(q, s)
  if (handler === undefined)
    throw new TypeError('fetch failed', { cause: Object.assign(new Error(`getaddrinfo ENOTFOUND ${url.hostname}`), { code: 'ENOTFOUND' }) })
  const route = github ? githubRoute(init.method ?? 'GET', url.pathname) : ''
  // The status report's calls meet their own faults (./status.ts), never the run's, and follow no trigger of the run.
  const tap = tapOf()?.begin(github ? 'github' : 'stack', init.method ?? 'GET', url)
  const fate: GitHubFate | TapFate = tap !== undefined ? tap.fate : github ? wire.githubFate(route) : { kind: 'answer' as const }
  let work: Promise<HttpResponse & { seq: number }>
  if (fate.kind === 'hang') work = never()
  else if (fate.kind === 'unreachable') {
    const cause = Object.assign(new Error(`connect ${fate.code} ${url.host}`), { code: fate.code })
    work = Promise.reject(new TypeError('fetch failed', { cause }))
  } else {
    const latency = tap !== undefined ? tap.latencyMs : fate.kind === 'slow' ? fate.seconds * 1000 : github ? 0 : wire.latencyMs(url.pathname)
    const through = tap !== undefined && (fate.kind === 'respond' || fate.kind === 'reset') ? tapped(handler, fate) : handler
    work = (async () => {
      const body = await bytesOf(init.body as FetchInit['body'])
      // The run's own GitHub calls, numbered (the status report's, tapped, are not the run's).
      const numbered = github && tap === undefined ? (seq: number): void => void wire.githubCalls.push({ seq, route, run: runIndex() }) : undefined
      const answer = await exchange(through, { method: init.method ?? 'GET', url, headers: headersOf(init), body }, latency, numbered, tap)
      if (github && tap === undefined) wire.afterCodeHost(route)
      return answer
    })()
  }
  const res = await settledFor(
    tap,
    limited(work, undefined, signal, () => new Error('unreachable'))
  )
  if (route === 'list-deployments' && res.status === 200 && caller.getStore() === 'main') {
    wire.githubLists.push({ seq: res.seq, at: Date.now(), deployments: JSON.parse(res.text) as Array<Record<string, unknown>>, run: runIndex() })
  }
  const headers = new Headers()
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v)
  const nullBody = res.status === 204 || res.status === 205 || res.status === 304
  return Object.defineProperty(new Response(nullBody ? null : res.text, { status: res.status, headers }), 'url', { value: input })
}

/** The stand-in's route of a GitHub call, by its path: what a schedule's GitHub faults are keyed on. */
export function githubRoute(method: string, pathname: string): string {
  if (pathname.includes('/compare/')) return 'compare'
  if (pathname.endsWith('/statuses')) return method === 'POST' ? 'create-status' : 'list-statuses'
  if (/\/deployments$/.test(pathname)) return method === 'POST' ? 'create-deployment' : 'list-deployments'
  return 'other'
}

/** undici's request for GitLab's door, answered in-process by the GitLab stand-in's core (./gitlab.ts sets it up). */
export function httpRequest(url: string, options: RequestOptions): Promise<RequestAnswer> {
  if (dead()) return never()
  return inFlightWhile(() => requestNow(url, options))
}

async function requestNow(input: string, options: RequestOptions): Promise<RequestAnswer> {
  const url = new URL(input)
  const { signal, method } = options
  if (signal.aborted) throw abortReason(signal)
  const core = url.host === wire.gitlabHost ? wire.gitlab : undefined
  if (core === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${url.hostname}`), { code: 'ENOTFOUND' })
  const route = gitlabMatch(method, url.pathname)?.route ?? 'unknown'
  // The status report's calls meet their own faults (./status.ts), never the run's, and follow no trigger of the run.
  const tap = tapOf()?.begin('gitlab', method, url)
  const fate: GitHubFate | TapFate = tap !== undefined ? tap.fate : wire.gitlabFate(route)
  let work: Promise<HttpResponse & { seq: number }>
  if (fate.kind === 'hang') work = never()
  else if (fate.kind === 'unreachable') work = Promise.reject(Object.assign(new Error(`connect ${fate.code} ${url.host}`), { code: fate.code }))
  else {
    const latency = tap !== undefined ? tap.latencyMs : fate.kind === 'slow' ? fate.seconds * 1000 : 0
    const handler: Handler = (q, s) => core.handle(q, s)
    const through = tap !== undefined && (fate.kind === 'respond' || fate.kind === 'reset') ? tapped(handler, fate) : handler
    const body = options.body ?? ''
    // The run's own GitLab calls, numbered (the status report's, tapped, are not the run's).
    const numbered =
      tap === undefined
        ? (seq: number): void => void wire.gitlabCalls.push({ seq, route, run: runIndex(), by: caller.getStore() ?? 'world', method, path: url.pathname, body })
        : undefined
    work = (async () => {
      const answer = await exchange(through, { method, url, headers: options.headers, body: Buffer.from(body) }, latency, numbered, tap)
      if (tap === undefined) wire.afterCodeHost(route)
      return answer
    })()
  }
  const res = await settledFor(
    tap,
    limited(work, undefined, signal, () => new Error('unreachable'))
  )
  return { statusCode: res.status, headers: res.headers, body: { text: async () => res.text } }
}
