// The one door to the cloud API: every call, JSON or the streamed upload, goes out here. It sets the
// bearer header, the time limits (the whole call for JSON; no bytes moving for the upload), turns any
// non-2xx answer into a ServiceError, and gives each operation its retries (`retrying`).
import * as core from '../port.js'
import type { Readable } from 'node:stream'
import { isTransient, toServiceError } from '../http/errors.js'
import { phaseEndsAt, phaseLimit } from '../http/phase.js'
import { createRetrier, type Retrier, type RetryNotice, type RetryPolicy } from '../http/retry.js'
import type { HttpResponse, HttpTransport, Method } from '../http/transport.js'

export interface JsonCall {
  /** What the user reads in an error: "Login", "Listing environments", ... */
  operation: string
  method: Method
  path: string
  /** The access token; the call is sent without Authorization when absent (login, refresh). */
  token?: string
  json?: unknown
  /** This call's own time limit (a deploy request within what is left of deploy-timeout-minutes); default: the transport's. */
  timeoutMs?: number
  /**
   * Called with 'sent' when the call is handed to the connection (a deploy call is "maybe carried out" only after
   * it), and with 'refused' when a 4xx answer says it was not carried out (a 401 replayed with a new token, say).
   */
  onDispatch?: ((event: 'sent' | 'refused') => void) | undefined
}

export interface StreamCall {
  operation: string
  path: string
  token: string
  contentType: string
  contentLength: number
  /** A fresh stream of the whole body (each attempt opens its own). */
  body: Readable
}

/** Retries of cloud calls: how many attempts and how long to wait; which failures are retried is fixed (isTransient). */
export type CloudRetry = Omit<RetryPolicy, 'retryable'>

export const DEFAULT_RETRY: CloudRetry = { attempts: 4, baseDelayMs: 500, maxDelayMs: 8_000, maxTotalMs: 60_000 }

export interface CloudApiOptions {
  /** Each call's limit (request-timeout-seconds), which a phase's end shortens. */
  callTimeoutMs?: number
  retry?: CloudRetry
  /** Upload: time allowed with no bytes moving, then for the platform to answer after the last byte. */
  uploadIdleTimeoutMs?: number
}

export class CloudApi implements Retrier {
  private readonly retrier: Retrier
  private readonly uploadIdleTimeoutMs: number
  private readonly callTimeoutMs: number | undefined

  constructor(
    private readonly transport: HttpTransport,
    options: CloudApiOptions = {}
  ) {
    // No attempt begins after the phase a call is made in has ended (a look while following gives up with the deadline).
    this.retrier = createRetrier({ ...(options.retry ?? DEFAULT_RETRY), retryable: isTransient, until: phaseEndsAt }, (level, message) =>
      level === 'warning' ? core.warning(message) : core.info(message)
    )
    this.uploadIdleTimeoutMs = options.uploadIdleTimeoutMs ?? 60_000
    this.callTimeoutMs = options.callTimeoutMs
  }

  /** A call's limit: its own, else the default, shortened to what is left of the phase it is made in. */
  private limitOf(own: number | undefined): number | undefined {
    return phaseLimit(own ?? this.callTimeoutMs)
  }

  get baseUrl(): string {
    return this.transport.baseUrl
  }

  retrying<T>(operation: string, fn: (attempt: number) => Promise<T>, notice?: RetryNotice): Promise<T> {
    return this.retrier.retrying(operation, fn, notice)
  }

  /** One JSON call, one attempt: the parsed answer (undefined for an empty body), or a ServiceError. */
  async json<T>(call: JsonCall): Promise<T> {
    const headers: Record<string, string> = { ...bearer(call.token) }
    if (call.json !== undefined) headers['content-type'] = 'application/json'
    const timeoutMs = this.limitOf(call.timeoutMs)
    const res = await this.transport.send({
      method: call.method,
      path: checkPath(call.path),
      headers,
      body: call.json === undefined ? undefined : JSON.stringify(call.json),
      ...(timeoutMs !== undefined && { timeoutMs }),
      ...(call.onDispatch !== undefined && { onDispatch: () => call.onDispatch?.('sent') })
    })
    core.debug(`${call.method} ${call.path} -> ${res.status}`)
    if (res.status >= 400 && res.status < 500) call.onDispatch?.('refused')
    const ok = succeeded(call.operation, res)
    if (ok.text.trim() === '') return undefined as T
    try {
      return JSON.parse(ok.text) as T
    } catch {
      throw new Error(`${call.operation}: the service answered HTTP ${ok.status} with a body that is not JSON`)
    }
  }

  /** One call, one attempt, its whole answer (headers included) when 2xx, or a ServiceError. */
  async answer(call: JsonCall): Promise<HttpResponse> {
    const timeoutMs = this.limitOf(call.timeoutMs)
    const res = await this.transport.send({
      method: call.method,
      path: checkPath(call.path),
      headers: bearer(call.token),
      ...(timeoutMs !== undefined && { timeoutMs })
    })
    core.debug(`${call.method} ${call.path} -> ${res.status}`)
    return succeeded(call.operation, res)
  }

  /** One streamed POST, one attempt: the answer of a 2xx, or a ServiceError. */
  async stream(call: StreamCall): Promise<HttpResponse> {
    const res = await this.transport.send({
      method: 'POST',
      path: checkPath(call.path),
      headers: { ...bearer(call.token), 'content-type': call.contentType, 'content-length': String(call.contentLength) },
      body: call.body,
      idleTimeoutMs: this.uploadIdleTimeoutMs
    })
    core.debug(`POST ${call.path} -> ${res.status}`)
    return succeeded(call.operation, res)
  }
}

/** The cloud API fails any path with a trailing slash: catch a programming error before it is sent. */
function checkPath(path: string): string {
  if (/.\/(\?|$)/.test(path)) throw new Error(`internal error: request path ${path} ends with a slash`)
  return path
}

function bearer(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { authorization: `Bearer ${token}` }
}

function succeeded(operation: string, res: HttpResponse): HttpResponse {
  if (res.status < 200 || res.status > 299) throw toServiceError(operation, res)
  return res
}
