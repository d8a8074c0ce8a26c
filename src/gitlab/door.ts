// The HTTP door to GitLab's REST API v4: undici's request() (../http/request.ts, an edge of its own, which the
// simulation replaces) through the proxy-aware connections, the token as PRIVATE-TOKEN, JSON both ways, a time limit per
// call joined with the run's stop, reads tried again after an outage (writes never), the Link header's next pages, and
// every failure named as the port names them (CodeHostCallFailed).
import type { Dispatcher } from 'undici'
import { CodeHostCallFailed, type CallFailure } from '../code-host/port.js'
import { describeError, systemErrorCode } from '../errors.js'
import { redirectText } from '../http/errors.js'
import { proxyFor } from '../http/proxy.js'
import { httpRequest } from '../http/request.js'
import { withRetry } from '../http/retry.js'
import { timeLimit } from '../http/time-limit.js'
import { redact } from '../secrets.js'
import { objectOr } from './records.js'

export type Headers = Record<string, string | string[] | undefined>

export interface Answer {
  readonly data: unknown
  readonly headers: Headers
}

export interface DoorOptions {
  readonly apiUrl: string
  readonly token: string
  readonly dispatcher: Dispatcher
  /** The run's stop: a call it ends throws its reason, never a failure of GitLab's. */
  readonly signal: AbortSignal | undefined
  readonly limitMs: number
  readonly readAttempts: number
}

type Method = 'GET' | 'POST' | 'PUT'

const USER_AGENT = 'brcloud-deploy (GitLab)'

export class GitLabDoor {
  constructor(private readonly o: DoorOptions) {}

  /** The same door for closing calls: not ended by the run's stop, one attempt, a limit of its own. */
  closing(limitMs: number): GitLabDoor {
    return new GitLabDoor({ ...this.o, signal: undefined, limitMs, readAttempts: 1 })
  }

  /** A read: tried again after no answer or a 5xx (a moment's outage), never after a refusal; ended at once by the run's stop. */
  read(what: string, path: string): Promise<Answer> {
    return withRetry(() => this.exchange(what, 'GET', this.url(path)), {
      attempts: this.o.readAttempts,
      baseDelayMs: 1_000,
      maxDelayMs: 4_000,
      retryable: (error) =>
        error instanceof CodeHostCallFailed &&
        (error.failure === 'unreachable' || (error.failure === 'failed' && (error.status === undefined || error.status >= 500))),
      signal: this.o.signal
    })
  }

  /** A write: never tried twice (a second attempt could record a second deployment, open a second issue). */
  async write(what: string, method: 'POST' | 'PUT', path: string, body: Record<string, unknown>): Promise<unknown> {
    return (await this.exchange(what, method, this.url(path), body)).data
  }

  /**
   * Every page of a listing, following the Link header's next page (GitLab leaves out its totals for big lists), each
   * page's items given to `take`; at most `maxPages` read: true when that was all of them.
   */
  async pages(what: string, path: string, maxPages: number, take: (items: unknown[]) => void): Promise<boolean> {
    let url = this.url(path)
    for (let page = 1; ; page++) {
      const answer = await this.read(what, url)
      take(Array.isArray(answer.data) ? (answer.data as unknown[]) : [])
      const next = nextPage(answer.headers.link, this.o.apiUrl)
      if (next === undefined) return true
      if (page >= maxPages) return false
      url = next
    }
  }

  private url(path: string): string {
    return /^https?:\/\//.test(path) ? path : `${this.o.apiUrl}${path}`
  }

  private async exchange(what: string, method: Method, url: string, body?: Record<string, unknown>): Promise<Answer> {
    const limit = timeLimit(this.o.limitMs, this.o.signal)
    try {
      const res = await httpRequest(url, {
        method,
        dispatcher: this.o.dispatcher,
        headers: {
          'private-token': this.o.token,
          accept: 'application/json',
          'user-agent': USER_AGENT,
          ...(body !== undefined && { 'content-type': 'application/json' })
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        signal: limit.signal
      })
      const text = await res.body.text()
      if (res.statusCode < 200 || res.statusCode > 299) throw refusal(what, method, res.statusCode, res.headers, text)
      return { data: parsed(what, text), headers: res.headers }
    } catch (error) {
      // The run's own stop (a cancel, the watchdog) is no failure of GitLab's.
      if (this.o.signal?.aborted) throw this.o.signal.reason
      if (error instanceof CodeHostCallFailed) throw error
      if (limit.expired())
        throw new CodeHostCallFailed(what, undefined, `no answer from ${this.o.apiUrl} within ${this.o.limitMs / 1000} s`, 'unreachable', 'GitLab')
      throw new CodeHostCallFailed(what, undefined, this.unreachable(error), 'unreachable', 'GitLab')
    } finally {
      limit.clear()
    }
  }

  /** Why GitLab could not be reached: the connection's own code, and the proxy it went through when one is set. */
  private unreachable(error: unknown): string {
    const code = systemErrorCode(error)
    const text = describeError(error)
    const proxy = proxyFor(this.o.apiUrl)
    const via = proxy ? ` through the proxy ${proxy.url} (set by ${proxy.variable})` : ''
    return `${this.o.apiUrl} could not be reached${via} (${code !== undefined && !text.includes(code) ? `${code}: ` : ''}${text})`
  }
}

/** An answer's JSON; an empty one is none. */
function parsed(what: string, text: string): unknown {
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new CodeHostCallFailed(what, undefined, 'the answer is not JSON', 'failed', 'GitLab')
  }
}

/**
 * The next page's address from a Link header. GitLab builds it from the address it was asked at; it is sent to this
 * door's own origin whatever the header says, so the token never goes to another host (a proxy that rewrote it).
 */
export function nextPage(link: string | string[] | undefined, apiUrl: string): string | undefined {
  const header = Array.isArray(link) ? link.join(', ') : (link ?? '')
  for (const part of header.split(/,\s*(?=<)/)) {
    const m = /^\s*<([^>]*)>(.*)$/s.exec(part)
    const rel = m ? /;\s*rel\s*=\s*"?([^";]*)"?/i.exec(m[2] ?? '') : null
    if (m === null || rel === null || !(rel[1] ?? '').split(/\s+/).includes('next')) continue
    try {
      const next = new URL(m[1] ?? '', apiUrl)
      return `${new URL(apiUrl).origin}${next.pathname}${next.search}`
    } catch {
      return undefined
    }
  }
  return undefined
}

/** A refusal or failure GitLab answered, named for the fix it needs, with GitLab's own words. */
function refusal(what: string, method: Method, status: number, headers: Headers, text: string): CodeHostCallFailed {
  const fail = (failure: CallFailure, ...ours: Array<string | undefined>): CodeHostCallFailed => {
    const extra = ours.filter((p): p is string => p !== undefined)
    const said = gitlabWords(text)
    const parts = [extra.length > 0 ? said?.replace(/\.$/, '') : said, ...extra].filter((p): p is string => p !== undefined && p !== '')
    return new CodeHostCallFailed(what, status, `HTTP ${status}${parts.length > 0 ? ` (${parts.join('; ')})` : ''}`, failure, 'GitLab')
  }
  const redirect = redirectText({ status, headers })
  if (redirect !== undefined) return new CodeHostCallFailed(what, status, `HTTP ${status} (${redirect})`, 'failed', 'GitLab')
  const limited = rateLimit(status, headers)
  if (limited !== undefined) return fail('rate-limited', limited)
  if (status === 401) return fail('bad-token', 'GitLab refused the token: it is wrong, expired or revoked')
  if (status === 403) return fail('forbidden', missingScope(text, method))
  if (status === 404) return fail('not-found')
  // merge_base's answer for a ref the repository does not have.
  if (status === 400 && /^Could not find refs?:/.test(gitlabWords(text) ?? '')) return fail('not-found')
  return fail('failed')
}

/** What GitLab's error body says: `message` (a string, or field errors), else `error`. A body that is not JSON is never echoed. */
function gitlabWords(text: string): string | undefined {
  let body: Record<string, unknown> | undefined
  try {
    body = objectOr(JSON.parse(text))
  } catch {
    return undefined
  }
  const said = words(body?.message) ?? (body?.error === 'insufficient_scope' ? words(body.error_description) : undefined) ?? words(body?.error)
  return said === undefined ? undefined : redact(said).slice(0, 300)
}

/** A message as GitLab writes one: a string, a list, or field errors ({"title": ["can't be blank"]}). */
function words(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim()
  if (Array.isArray(value)) return value.map(String).join(', ') || undefined
  const fields = objectOr(value)
  if (fields === undefined) return undefined
  const each = Object.entries(fields).map(([field, v]) => {
    const said = Array.isArray(v) ? v.map(String).join(', ') : String(v)
    return field === 'error' || field === 'base' ? said : `${field} ${said}`
  })
  return each.join('; ') || undefined
}

/** GitLab's insufficient_scope: the scope the token lacks (api to write, read_api to read). */
function missingScope(text: string, method: Method): string | undefined {
  try {
    if (objectOr(JSON.parse(text))?.error !== 'insufficient_scope') return undefined
  } catch {
    return undefined
  }
  return method === 'GET' ? 'the token needs the scope read_api (or api)' : 'the token needs the scope api'
}

/** When a 429, or a 403 saying no requests remain, is GitLab's rate limit: the words, with when it lifts when the answer says. */
function rateLimit(status: number, headers: Headers): string | undefined {
  if (status !== 429 && !(status === 403 && header(headers, 'ratelimit-remaining') === '0')) return undefined
  const when = lifts(header(headers, 'retry-after'), header(headers, 'ratelimit-reset'))
  return `GitLab's rate limit for the token was reached${when === undefined ? '' : `: it lifts ${when}`}`
}

function lifts(retryAfter: string | undefined, reset: string | undefined): string | undefined {
  if (retryAfter !== undefined && /^\d+$/.test(retryAfter)) return `in ${retryAfter} s`
  const date = retryAfter === undefined ? NaN : Date.parse(retryAfter)
  if (!Number.isNaN(date)) return `at ${instant(date)}`
  if (reset !== undefined && /^\d+$/.test(reset) && Number(reset) > 0) return `at ${instant(Number(reset) * 1000)}`
  return undefined
}

function instant(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name]
  return (Array.isArray(value) ? value[0] : value)?.trim()
}
