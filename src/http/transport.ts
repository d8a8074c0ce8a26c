// One HTTP/1.1 transport for every call of the action (undici; no fetch: uploads must stream).
import type { Readable } from 'node:stream'
import { Agent, request, type Dispatcher } from 'undici'

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

export interface HttpRequest {
  method: Method
  /** Path relative to the base address, starting with '/'. Never ends with a slash. */
  path: string
  headers?: Record<string, string>
  body?: string | Readable
  /** Time allowed without progress: while sending the body, and then until the answer's headers. */
  idleTimeoutMs?: number
}

export interface HttpResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
}

export interface TransportOptions {
  userAgent: string
  idleTimeoutMs?: number
  dispatcher?: Dispatcher
}

const DEFAULT_IDLE_TIMEOUT_MS = 60_000

export class HttpTransport {
  private readonly dispatcher: Dispatcher
  private readonly ownsDispatcher: boolean

  constructor(
    readonly baseUrl: string,
    private readonly options: TransportOptions
  ) {
    // HTTP/1.1 only: the platform documents side effects of HTTP/2.
    this.ownsDispatcher = !options.dispatcher
    this.dispatcher = options.dispatcher ?? new Agent({ allowH2: false, connect: { timeout: 30_000 } })
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    if (req.path.length > 1 && req.path.endsWith('/')) {
      // The cloud API fails any path with a trailing slash; catch a programming error here.
      throw new Error(`internal error: request path ${req.path} ends with a slash`)
    }
    const timeout = req.idleTimeoutMs ?? this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS
    const res = await request(this.baseUrl + req.path, {
      method: req.method,
      dispatcher: this.dispatcher,
      headers: { 'user-agent': this.options.userAgent, accept: 'application/json', ...req.headers },
      body: req.body,
      headersTimeout: timeout,
      bodyTimeout: timeout
    })
    const text = await res.body.text()
    return { status: res.statusCode, headers: res.headers, text }
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close()
  }
}
