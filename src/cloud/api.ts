// JSON calls to the cloud API: one request, a ServiceError for any non-2xx, retries for transient failures.
import * as core from '@actions/core'
import { isTransient, toServiceError } from '../http/errors.js'
import { withRetry, type RetryOptions } from '../http/retry.js'
import type { HttpTransport, Method } from '../http/transport.js'

export interface JsonCall {
  /** What the user reads in an error: "Login", "Listing environments", ... */
  operation: string
  method: Method
  path: string
  token?: string
  json?: unknown
  /** Whether replaying the call is harmless. Non-idempotent calls are sent once. */
  idempotent: boolean
}

export type RetryPolicy = Pick<RetryOptions, 'attempts' | 'baseDelayMs' | 'maxDelayMs' | 'maxTotalMs' | 'sleep' | 'random'>

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 500, maxDelayMs: 8_000, maxTotalMs: 60_000 }

export class CloudApi {
  constructor(
    readonly transport: HttpTransport,
    private readonly retry: RetryPolicy = DEFAULT_RETRY
  ) {}

  get baseUrl(): string {
    return this.transport.baseUrl
  }

  async call<T>(call: JsonCall): Promise<T> {
    const send = async (): Promise<T> => {
      const headers: Record<string, string> = {}
      if (call.token) headers.authorization = `Bearer ${call.token}`
      if (call.json !== undefined) headers['content-type'] = 'application/json'
      const res = await this.transport.send({
        method: call.method,
        path: call.path,
        headers,
        body: call.json === undefined ? undefined : JSON.stringify(call.json)
      })
      core.debug(`${call.method} ${call.path} -> ${res.status}`)
      if (res.status < 200 || res.status > 299) throw toServiceError(call.operation, res)
      if (res.text.trim() === '') return undefined as T
      try {
        return JSON.parse(res.text) as T
      } catch {
        throw new Error(`${call.operation}: the service answered HTTP ${res.status} with a body that is not JSON`)
      }
    }
    if (!call.idempotent) return send()
    return withRetry(send, {
      ...this.retry,
      retryable: isTransient,
      onRetry: (error, attempt, delay) =>
        core.info(`${call.operation}: attempt ${attempt} failed (${describe(error)}); retrying in ${(delay / 1000).toFixed(1)} s`)
    })
  }
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
