// Builds the error for a non-2xx answer, and classifies failures as worth a retry or not.
import { ServiceError } from '../errors.js'
import { redact } from '../secrets.js'
import type { HttpResponse } from './transport.js'

const TRANSIENT_CODES = new Set([
  'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH',
  'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CLOSED'
])

/** Reads `{error_code, error_detail}` (cloud API) or `{status_code, message}` (search API). Never echoes a body that is not JSON. */
export function toServiceError(operation: string, res: HttpResponse): ServiceError {
  let code: string | undefined
  let detail: string | undefined
  try {
    const body = JSON.parse(res.text) as Record<string, unknown>
    if (typeof body.error_code === 'string') code = body.error_code
    if (typeof body.error_detail === 'string') detail = body.error_detail
    else if (typeof body.message === 'string') detail = body.message
  } catch {
    // Not JSON (a proxy's HTML page, say): say so, but print none of it.
  }
  if (detail !== undefined) detail = redact(detail).slice(0, 500)
  const what = [code, detail].filter(Boolean).join(': ') || (res.text ? 'the answer was not a JSON error body' : 'no answer body')
  return new ServiceError(`${operation} failed: HTTP ${res.status} (${what})`, res.status, code, detail, retryAfterMs(res))
}

export function errorCode(error: unknown): string | undefined {
  let e: unknown = error
  for (let depth = 0; depth < 3 && e && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string') return code
    e = (e as { cause?: unknown }).cause
  }
  return undefined
}

export function retryAfterMs(res: { headers: Record<string, string | string[] | undefined> }): number | undefined {
  const value = res.headers['retry-after']
  const text = Array.isArray(value) ? value[0] : value
  if (!text) return undefined
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const date = Date.parse(text)
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now())
}

/** Connection failures and 429/502/503/504 are worth another attempt; any other answer is not. */
export function isTransient(error: unknown): boolean | { afterMs: number } {
  if (error instanceof ServiceError) {
    if (error.status === 429 || error.status === 502 || error.status === 503 || error.status === 504) {
      return error.retryAfterMs !== undefined ? { afterMs: error.retryAfterMs } : true
    }
    return false
  }
  const code = errorCode(error)
  return code !== undefined && TRANSIENT_CODES.has(code)
}
