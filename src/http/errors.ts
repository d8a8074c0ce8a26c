// Builds the error for a non-2xx answer, and classifies failures: which are network failures (and
// of which kind), which are worth another attempt.
import { ServiceError, systemErrorCode } from '../errors.js'
import { redact } from '../secrets.js'
import type { HttpResponse } from './transport.js'

/** The one list of network failures: a call that timed out, or a connection that failed. Both are worth another attempt. */
const NETWORK_FAILURES: Readonly<Record<string, 'timeout' | 'connection'>> = {
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ECONNRESET: 'connection',
  ECONNREFUSED: 'connection',
  EPIPE: 'connection',
  EAI_AGAIN: 'connection',
  ENETUNREACH: 'connection',
  EHOSTUNREACH: 'connection',
  UND_ERR_SOCKET: 'connection',
  UND_ERR_CLOSED: 'connection'
}

export interface NetworkFailure {
  code: string
  kind: 'timeout' | 'connection'
}

/** The kind of network failure `error` is, or undefined when it is none of the known ones. */
export function networkFailure(error: unknown): NetworkFailure | undefined {
  const code = systemErrorCode(error)
  const kind = code === undefined ? undefined : NETWORK_FAILURES[code]
  return code !== undefined && kind !== undefined ? { code, kind } : undefined
}

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
  const what = redirectText(res) ?? ([code, detail].filter(Boolean).join(': ') || (res.text ? 'the answer was not a JSON error body' : 'no answer body'))
  return new ServiceError(`${operation} failed: HTTP ${res.status} (${what})`, res.status, code, detail, retryAfterMs(res))
}

/**
 * What a 3xx answer says: where it points. Redirects are never followed (they would carry the
 * bearer token or the auth key to another place), so the user must correct the address. The
 * query string is left out: a redirect can carry a secret back in it.
 */
export function redirectText(res: Pick<HttpResponse, 'status' | 'headers'>): string | undefined {
  if (res.status < 300 || res.status > 399) return undefined
  const value = res.headers.location
  const location = (Array.isArray(value) ? value[0] : value)?.replace(/[?#].*$/s, '')
  if (!location) return 'a redirect without a Location; redirects are not followed'
  return `a redirect to ${redact(location).slice(0, 300)}; redirects are not followed: check the address the action was given`
}

export function retryAfterMs(res: { headers: Record<string, string | string[] | undefined> }): number | undefined {
  const value = res.headers['retry-after']
  const text = Array.isArray(value) ? value[0] : value
  if (!text) return undefined
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const date = Date.parse(text)
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now())
}

/** Network failures and 429/502/503/504 are worth another attempt; any other answer is not. */
export function isTransient(error: unknown): boolean | { afterMs: number } {
  if (error instanceof ServiceError) {
    if (error.status === 429 || error.status === 502 || error.status === 503 || error.status === 504) {
      return error.retryAfterMs !== undefined ? { afterMs: error.retryAfterMs } : true
    }
    return false
  }
  return networkFailure(error) !== undefined
}

/**
 * A failure that may pass on its own (a 5xx or 429 after its attempts, no connection, a token endpoint that
 * failed the same way while renewing the token): a wait that meets one looks again later instead of ending.
 * A refusal (401, 404, a token endpoint's refusal) or a bug does not.
 */
export function mayPass(error: unknown): boolean {
  if (error instanceof ServiceError) return error.status >= 500 || error.status === 429
  if ((error as { transient?: unknown } | null)?.transient === true) return true
  return networkFailure(error) !== undefined
}
