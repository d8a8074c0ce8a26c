// Builds one search request: the path with its query string, the identifiers of a client without
// JavaScript, and the 16 KB size check. The auth key travels in the query string, so the full address
// is never printed: `redactedTarget` is the form for messages.
import { createHash, randomInt } from 'node:crypto'
import type { SearchType } from './query.js'

export const SEARCH_PATH = '/api/v1/core/'
/** The service answers HTTP 414 to a request over 16 KB. */
export const MAX_REQUEST_BYTES = 16 * 1024

export interface SearchRequestParams {
  accountId: string
  authKey: string
  domainKey: string
  /** `_br_uid_2`, unencoded (`uid=…:v=app:ts=0:hc=1`); encoded once here. */
  brUid: string
  /** Placeholder page address sent as `url`. */
  pageUrl: string
  type: SearchType
  /** Already normalized (see normalizeQuery). */
  q: string
  fields: readonly string[]
  rows: number
  start: number
  requestId: string
}

export interface BuiltSearchRequest {
  /** Path and query string, relative to the base address: `/api/v1/core/?account_id=…`. */
  target: string
  /** The same with the auth key replaced by ***: safe to print. */
  redactedTarget: string
  headers: Record<string, string>
  /** Request line plus headers, as counted against the 16 KB limit. */
  bytes: number
}

/** `n` random decimal digits, the first one not 0. */
export function randomDigits(n: number): string {
  let out = String(randomInt(1, 10))
  while (out.length < n) out += String(randomInt(0, 10))
  return out
}

/** A request id: 13 random digits, the usual form. */
export function newRequestId(): string {
  return randomDigits(13)
}

/**
 * The one place that writes the `_br_uid_2` form of a client without JavaScript: an app user
 * (`v=app`, `ts=0`, hit count 1), unencoded; it is percent-encoded once when the request is built.
 */
export function appBrUid(uid: string): string {
  return `uid=${uid}:v=app:ts=0:hc=1`
}

/** A random app user's `_br_uid_2` (a new visitor). */
export function newBrUid(): string {
  return appBrUid(randomDigits(13))
}

/**
 * 13 digits (the first not 0) derived from `seed`, e.g. the repository: the service asks a client to
 * keep one uid for good, and an action has no storage between runs, so the same seed makes the same visitor.
 */
export function stableUid(seed: string): string {
  const n = createHash('sha256').update(seed).digest().readBigUInt64BE(0)
  return String(1_000_000_000_000n + (n % 9_000_000_000_000n))
}

/**
 * Percent-encodes a query value exactly once. encodeURIComponent rather than URLSearchParams: a space is
 * sent as %20 (never as '+', which some servers keep literally), and ':' and '=' inside `_br_uid_2`
 * become %3A and %3D.
 */
function encode(value: string): string {
  return encodeURIComponent(value)
}

export function searchParams(p: SearchRequestParams): Array<[string, string]> {
  return [
    ['account_id', p.accountId],
    ['auth_key', p.authKey],
    ['domain_key', p.domainKey],
    ['request_id', p.requestId],
    ['_br_uid_2', p.brUid],
    ['ref_url', ''], // a client without JavaScript has no referring page
    ['url', p.pageUrl],
    ['request_type', 'search'],
    ['search_type', p.type],
    ['q', p.q],
    ['fl', p.fields.join(',')],
    ['rows', String(p.rows)],
    ['start', String(p.start)]
  ]
}

function queryString(pairs: Array<[string, string]>): string {
  return pairs.map(([k, v]) => `${k}=${encode(v)}`).join('&')
}

/** Request line and headers in bytes, as a server counts them against its limit. */
export function requestBytes(target: string, host: string, headers: Record<string, string>): number {
  let n = Buffer.byteLength(`GET ${target} HTTP/1.1\r\nhost: ${host}\r\n`)
  for (const [k, v] of Object.entries(headers)) n += Buffer.byteLength(`${k}: ${v}\r\n`)
  return n + 2
}

export interface BuildOptions {
  /** Base address (for the Host header and a path prefix), without a trailing slash. */
  baseUrl: string
  /** Extra headers (Cookie, User-Agent) counted against the size limit. */
  headers?: Record<string, string>
}

export function buildSearchRequest(p: SearchRequestParams, options: BuildOptions): BuiltSearchRequest {
  const pairs = searchParams(p)
  const target = `${SEARCH_PATH}?${queryString(pairs)}`
  const redactedTarget = `${SEARCH_PATH}?${pairs.map(([k, v]) => `${k}=${k === 'auth_key' ? '***' : encode(v)}`).join('&')}`
  const headers: Record<string, string> = { 'cache-control': 'no-cache', ...options.headers }
  const base = new URL(options.baseUrl)
  const fullTarget = base.pathname.replace(/\/+$/, '') + target
  return { target, redactedTarget, headers, bytes: requestBytes(fullTarget, base.host, headers) }
}
