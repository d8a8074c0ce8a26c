// One HTTP/1.1 transport for every call of the action (undici; no fetch: uploads must stream).
import type { Readable } from 'node:stream'
import { EnvHttpProxyAgent, request, type Dispatcher } from 'undici'

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

export interface HttpRequest {
  method: Method
  /** Path relative to the base address, starting with '/'. Never ends with a slash. */
  path: string
  headers?: Record<string, string>
  body?: string | Readable
  /** Time allowed for the whole call, answer included (JSON calls). */
  timeoutMs?: number
  /** Time allowed with no progress: while sending the body, then until the answer (uploads). */
  idleTimeoutMs?: number
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
  signal?: AbortSignal
  dispatcher?: Dispatcher
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
    this.dispatcher = options.dispatcher ?? new EnvHttpProxyAgent({ allowH2: false, connect: { timeout: 30_000 } })
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    if (req.path.length > 1 && req.path.endsWith('/')) {
      // The cloud API fails any path with a trailing slash; catch a programming error here.
      throw new Error(`internal error: request path ${req.path} ends with a slash`)
    }
    const total = req.idleTimeoutMs === undefined ? (req.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS) : undefined
    const idle = req.idleTimeoutMs ?? total ?? DEFAULT_TIMEOUT_MS
    const timer = total === undefined ? undefined : AbortSignal.timeout(total)
    const signals = [timer, this.options.signal].filter((s): s is AbortSignal => s !== undefined)
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0]
    try {
      const res = await request(this.baseUrl + req.path, {
        method: req.method,
        dispatcher: this.dispatcher,
        headers: { 'user-agent': this.options.userAgent, accept: 'application/json', ...req.headers },
        body: req.body,
        headersTimeout: idle,
        bodyTimeout: idle,
        signal
      })
      const text = await res.body.text()
      return { status: res.statusCode, headers: res.headers, text }
    } catch (error) {
      if (this.options.signal?.aborted) throw this.options.signal.reason
      if (timer?.aborted) throw new CallTimeoutError(`no answer within ${Math.round((total ?? 0) / 1000)} s`)
      throw error
    }
  }

  async close(): Promise<void> {
    if (!this.ownsDispatcher) return
    // After the watchdog fired, calls may still hang: destroy instead of waiting for them.
    if (this.options.signal?.aborted) await this.dispatcher.destroy()
    else await this.dispatcher.close()
  }
}
