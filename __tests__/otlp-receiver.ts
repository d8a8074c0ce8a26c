// A stand-in for an OpenTelemetry collector's OTLP/HTTP trace receiver (issue 45): a real HTTP/1.1 server on loopback
// that decodes every export with its own decoder (otlp-decode.ts, no @opentelemetry code), protobuf or JSON, gzip or
// not, into one shape, so a test asserts the same way whichever protocol the exporter used. Any path is taken and
// recorded (OTEL_EXPORTER_OTLP_ENDPOINT gets /v1/traces appended, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is used as is).
// Failure modes for the tests of a collector that refuses, hangs, drops the connection or is slow.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gunzipSync } from 'node:zlib'
import { decodeJson, decodeProtobuf, type Attributes, type ReceivedSpan } from './otlp-decode.js'

export type { AttrValue, Attributes, ReceivedEvent, ReceivedLink, ReceivedSpan, Scope } from './otlp-decode.js'

/** One export the receiver decoded and accepted (answered 200, or will after slow()'s delay). */
export interface Export {
  readonly path: string
  /** The media type, without parameters: application/x-protobuf or application/json. */
  readonly contentType: string
  readonly encoding: 'protobuf' | 'json'
  /** Sent with content-encoding: gzip. */
  readonly gzip: boolean
  readonly headers: IncomingHttpHeaders
  /** The first ResourceSpans' resource attributes ({} without one); `resources` has each. */
  readonly resource: Attributes
  readonly resources: Attributes[]
  readonly spans: ReceivedSpan[]
}

/** A request the receiver refused as a collector would: 400 (cannot decode, the reason says where), 405, 415. */
export interface Rejected {
  readonly path: string
  readonly status: number
  readonly reason: string
  readonly headers: IncomingHttpHeaders
}

/** How the receiver answers: as a collector does, or one of the failures. */
export type Mode =
  | { readonly kind: 'normal' }
  | { readonly kind: 'refuse'; readonly status: number; readonly retryAfter?: string | number }
  | { readonly kind: 'hang' }
  | { readonly kind: 'drop' }
  | { readonly kind: 'slow'; readonly ms: number }

export interface OtlpReceiverOptions {
  /** The mode from the first request on (normal by default). */
  readonly mode?: Mode
}

export interface OtlpReceiver {
  /** The origin, http://127.0.0.1:PORT: what OTEL_EXPORTER_OTLP_ENDPOINT takes. */
  readonly url: string
  /** The origin + /v1/traces: what OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (or an exporter's url) takes. */
  readonly tracesUrl: string
  /** The exports decoded and accepted, in arrival order. */
  readonly received: Export[]
  readonly rejected: Rejected[]
  /** Every request that arrived, whatever its fate (refused, hung, dropped, rejected included). */
  readonly requests: number
  /** The spans of every accepted export, in order. */
  spans(): ReceivedSpan[]
  /** Resolves once `n` exports were accepted. */
  arrived(n: number): Promise<void>
  /** Resolves once `n` requests arrived (any fate). */
  requested(n: number): Promise<void>
  /** Answers the next `times` requests (all, by default) with `status`, and Retry-After when given. */
  refuse(status: number, options?: { retryAfter?: string | number; times?: number }): void
  /** Takes the next `times` requests and never answers them (until close()). */
  hang(times?: number): void
  /** Destroys the connection of the next `times` requests once their body arrived. */
  drop(times?: number): void
  /** Accepts the next `times` requests as normal but answers only after `ms`. */
  slow(ms: number, times?: number): void
  /** Back to answering as a collector does. */
  normal(): void
  close(): Promise<void>
}

const PROTOBUF = 'application/x-protobuf'
const JSON_TYPE = 'application/json'

interface Answer {
  readonly status: number
  readonly type: string
  readonly body: string
}

export async function startOtlpReceiver(options: OtlpReceiverOptions = {}): Promise<OtlpReceiver> {
  const received: Export[] = []
  const rejected: Rejected[] = []
  const hanging: ServerResponse[] = []
  const timers = new Set<NodeJS.Timeout>()
  const waiters: Array<{ done: () => boolean; resolve: () => void }> = []
  let requests = 0
  let mode: Mode = options.mode ?? { kind: 'normal' }
  let left = Infinity
  const set = (next: Mode, times = Infinity) => {
    mode = next
    left = times
  }
  /** The mode of the request that just arrived; after `times` of them, normal again. */
  const modeOfNext = (): Mode => {
    const current = mode
    if (--left <= 0) set({ kind: 'normal' })
    return current
  }
  const wake = () => waiters.filter((w) => w.done()).forEach((w) => (waiters.splice(waiters.indexOf(w), 1), w.resolve()))
  const waitFor = (done: () => boolean) => (done() ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ done, resolve })))

  const accept = (req: IncomingMessage, raw: Buffer): Answer => {
    const path = req.url ?? ''
    const reject = (status: number, reason: string): Answer => {
      rejected.push({ path, status, reason, headers: req.headers })
      return { status, type: 'text/plain', body: reason }
    }
    if (req.method !== 'POST') return reject(405, `${req.method}: an OTLP/HTTP export is a POST`)
    const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
    if (contentType !== PROTOBUF && contentType !== JSON_TYPE)
      return reject(415, `content-type ${contentType || '(none)'}: OTLP/HTTP takes ${PROTOBUF} or ${JSON_TYPE}`)
    const coding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase()
    if (coding !== 'identity' && coding !== 'gzip') return reject(415, `content-encoding ${coding}: this receiver takes gzip or none`)
    try {
      const body = coding === 'gzip' ? gunzipSync(raw) : raw
      const decoded = contentType === PROTOBUF ? decodeProtobuf(new Uint8Array(body)) : decodeJson(body.toString('utf8'))
      const encoding = contentType === PROTOBUF ? 'protobuf' : 'json'
      received.push({ path, contentType, encoding, gzip: coding === 'gzip', headers: req.headers, resource: decoded.resources[0] ?? {}, ...decoded })
    } catch (e) {
      return reject(400, (e as Error).message)
    }
    // An empty ExportTraceServiceResponse in the request's encoding.
    return { status: 200, type: contentType, body: contentType === PROTOBUF ? '' : '{}' }
  }
  const send = (res: ServerResponse, a: Answer): void => void res.writeHead(a.status, { 'content-type': a.type }).end(a.body)

  /** Answers as the mode of the request says; only normal and slow decode (and record) it. */
  const answer = (req: IncomingMessage, res: ServerResponse, current: Mode, body: Buffer): void => {
    if (current.kind === 'drop') return void req.socket.destroy()
    if (current.kind === 'hang') return void hanging.push(res)
    if (current.kind === 'refuse') {
      const retry = current.retryAfter === undefined ? {} : { 'retry-after': String(current.retryAfter) }
      return void res.writeHead(current.status, { 'content-type': 'text/plain', ...retry }).end(`refused (${current.status}) by the test`)
    }
    const accepted = accept(req, body)
    wake()
    if (current.kind === 'normal') return send(res, accepted)
    const timer = setTimeout(() => (timers.delete(timer), send(res, accepted)), current.ms)
    timers.add(timer)
  }
  const server = createServer((req, res) => {
    requests++
    wake()
    const current = modeOfNext()
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => answer(req, res, current, Buffer.concat(chunks)))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`
  return {
    url,
    tracesUrl: `${url}/v1/traces`,
    received,
    rejected,
    get requests() {
      return requests
    },
    spans: () => received.flatMap((e) => e.spans),
    arrived: (n) => waitFor(() => received.length >= n),
    requested: (n) => waitFor(() => requests >= n),
    refuse: (status, o = {}) => set(o.retryAfter === undefined ? { kind: 'refuse', status } : { kind: 'refuse', status, retryAfter: o.retryAfter }, o.times),
    hang: (times) => set({ kind: 'hang' }, times),
    drop: (times) => set({ kind: 'drop' }, times),
    slow: (ms, times) => set({ kind: 'slow', ms }, times),
    normal: () => set({ kind: 'normal' }),
    close: async () => {
      for (const timer of timers) clearTimeout(timer)
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

/** A span and its children, ordered by start time (then name). */
export interface SpanNode {
  readonly span: ReceivedSpan
  readonly children: SpanNode[]
}

/**
 * The spans as a tree, checked: one trace id (`traceId` when given), unique span ids, and each span's parent either
 * in the set or the external parent (`parentSpanId`: the span of TRACEPARENT; '' by default, a root of its own), so
 * no cycle. Throws an Error saying which span breaks which rule. Returns the roots.
 */
export function spanTree(spans: readonly ReceivedSpan[], expected: { traceId?: string; parentSpanId?: string } = {}): SpanNode[] {
  const external = expected.parentSpanId ?? ''
  const traceId = expected.traceId ?? spans[0]?.traceId
  const label = (s: ReceivedSpan) => `span ${JSON.stringify(s.name)} (${s.spanId})`
  const byId = new Map<string, ReceivedSpan>()
  for (const s of spans) {
    if (s.traceId !== traceId) throw new Error(`${label(s)} is in trace ${s.traceId}, not ${traceId}`)
    if (byId.has(s.spanId)) throw new Error(`${label(s)}: its span id is taken by ${label(byId.get(s.spanId) as ReceivedSpan)}`)
    byId.set(s.spanId, s)
  }
  for (const s of spans) {
    if (s.parentSpanId !== external && !byId.has(s.parentSpanId)) {
      throw new Error(`${label(s)} has the parent ${s.parentSpanId || '(none)'}: not among the spans, nor the expected parent ${external || '(none)'}`)
    }
  }
  const order = (a: SpanNode, b: SpanNode) =>
    a.span.startNs < b.span.startNs ? -1 : a.span.startNs > b.span.startNs ? 1 : a.span.name.localeCompare(b.span.name)
  const nodeOf = (span: ReceivedSpan): SpanNode => ({
    span,
    children: spans
      .filter((s) => s.parentSpanId === span.spanId && s.parentSpanId !== external)
      .map(nodeOf)
      .sort(order)
  })
  const roots = spans
    .filter((s) => s.parentSpanId === external)
    .map(nodeOf)
    .sort(order)
  const reached = new Set<string>()
  const walk = (n: SpanNode): void => (reached.add(n.span.spanId), n.children.forEach(walk))
  roots.forEach(walk)
  const lost = spans.filter((s) => !reached.has(s.spanId))
  if (lost.length > 0) throw new Error(`a cycle of parents: ${lost.map(label).join(', ')} reach no root`)
  return roots
}

/** The tree as lines of names, two spaces a level: what a test compares the shape with. */
export const outline = (nodes: readonly SpanNode[], depth = 0): string[] =>
  nodes.flatMap((n) => [`${'  '.repeat(depth)}${n.span.name}`, ...outline(n.children, depth + 1)])
