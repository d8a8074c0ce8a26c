// One HTTP/1.1 transport for every call of the action (undici; no fetch: uploads must stream).
import { Readable } from 'node:stream'
import { request, type Dispatcher } from 'undici'
import { proxyAwareDispatcher } from './dispatcher.js'
import { UploadWatch } from './upload-watch.js'

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

export interface HttpRequest {
  method: Method
  /** Path relative to the base address, starting with '/' (a query may follow). */
  path: string
  headers?: Record<string, string>
  body?: string | Readable | undefined
  /** Time allowed for the whole call, answer included (JSON calls). */
  timeoutMs?: number
  /** Uploads: time allowed with no bytes moving while sending the body, then for the answer (see upload-watch.ts). */
  idleTimeoutMs?: number
  /** Called when the request is handed to the connection: before it, a failure means it was never sent. */
  onDispatch?: (() => void) | undefined
}

export interface HttpResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
}

export interface TransportOptions {
  userAgent: string
  /** Default for HttpRequest.timeoutMs. */
  timeoutMs?: number
  /** Aborts every call in flight and every later one (the run's watchdog). */
  signal?: AbortSignal | undefined
  dispatcher?: Dispatcher | undefined
}

const DEFAULT_TIMEOUT_MS = 60_000

/** A call that ran out of time: code ETIMEDOUT, so the retry policy treats it as transient. */
export class CallTimeoutError extends Error {
  override name = 'CallTimeoutError'
  readonly code = 'ETIMEDOUT'
}

export class HttpTransport {
  private readonly dispatcher: Dispatcher
  private readonly ownsDispatcher: boolean

  constructor(
    readonly baseUrl: string,
    private readonly options: TransportOptions
  ) {
    // HTTP/1.1 only: the platform documents side effects of HTTP/2. HTTPS_PROXY, HTTP_PROXY and
    // NO_PROXY (or their lower-case forms) are honoured, as runners behind a corporate proxy need.
    this.ownsDispatcher = !options.dispatcher
    // Loopback addresses (the emulator, a local stand-in) never go through a proxy (proxy.ts).
    this.dispatcher = options.dispatcher ?? proxyAwareDispatcher(baseUrl)
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    const total = req.idleTimeoutMs === undefined ? (req.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS) : undefined
    const idle = req.idleTimeoutMs ?? total ?? DEFAULT_TIMEOUT_MS
    const timer = total === undefined ? undefined : AbortSignal.timeout(total)
    // A streamed body is watched for progress instead of a limit on the whole call.
    const stalled = new AbortController()
    const watch =
      req.idleTimeoutMs !== undefined && req.body instanceof Readable
        ? new UploadWatch({ idleMs: req.idleTimeoutMs, onIdle: (message) => stalled.abort(new CallTimeoutError(message)) })
        : undefined
    const signals = [timer, watch && stalled.signal, this.options.signal].filter((s): s is AbortSignal => s !== undefined)
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0]
    try {
      if (this.options.signal?.aborted) throw this.options.signal.reason
      req.onDispatch?.()
      const res = await request(this.baseUrl + req.path, {
        method: req.method,
        dispatcher: this.dispatcher,
        headers: { 'user-agent': this.options.userAgent, accept: 'application/json', ...req.headers },
        ...(req.body !== undefined && { body: watch && req.body instanceof Readable ? watch.track(req.body) : req.body }),
        // The watch owns the wait for the answer of an upload; 0 turns undici's own limit off.
        headersTimeout: watch ? 0 : idle,
        bodyTimeout: idle,
        ...(signal !== undefined && { signal })
      })
      watch?.stop()
      const text = await res.body.text()
      return { status: res.statusCode, headers: res.headers, text }
    } catch (error) {
      if (this.options.signal?.aborted) throw this.options.signal.reason
      if (timer?.aborted) throw new CallTimeoutError(`no answer within ${Math.round((total ?? 0) / 1000)} s`)
      if (stalled.signal.aborted) throw stalled.signal.reason
      throw error
    } finally {
      watch?.stop()
    }
  }

  async close(): Promise<void> {
    if (!this.ownsDispatcher) return
    // After the watchdog fired, calls may still hang: destroy instead of waiting for them.
    if (this.options.signal?.aborted) await this.dispatcher.destroy()
    else await this.dispatcher.close()
  }
}
