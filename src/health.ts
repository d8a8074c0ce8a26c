// The health check of the deployed site: GET health-url until it answers 2xx and, with health-expect,
// its body contains that text (the commit SHA of the build, say, so the old release still answering
// cannot pass). No credentials are sent, redirects are followed at most 5 times and only to https (or
// plain http on this machine), and each attempt's status and time go to the log.
import { ActionError, describeError } from './errors.js'
import { formatDuration } from './format.js'
import { isLoopbackHost } from './inputs/address.js'
import { Poll } from './http/retry.js'
import { HttpTransport, type HttpResponse } from './http/transport.js'

export const MAX_REDIRECTS = 5

/** The site did not pass in time. */
export class HealthCheckFailed extends ActionError {
  override name = 'HealthCheckFailed'
}

export interface HealthOptions {
  url: string
  expect: string | undefined
  timeoutMs: number
  /** Each attempt's own limit. */
  requestTimeoutMs: number
  userAgent: string
  signal?: AbortSignal | undefined
  /** One attempt, no waiting for a site to come up: the status report's probe reads, it does not wait (timeoutMs bounds it). */
  once?: boolean | undefined
  log: (line: string) => void
  /** Told each attempt once it ended: when, and what it saw (a trace's span). */
  tried?: (attempt: HealthAttempt) => void
  /** Told the address (origin and path) of each page that answered, redirects followed: the last is the site's. */
  answered?: (address: string) => void
  intervalMs?: number
  maxIntervalMs?: number
  sleep?: (ms: number) => Promise<void>
  now?: () => number
}

/** One attempt of the health check, as a trace shows it. */
export interface HealthAttempt {
  /** The address checked: origin and path, no query string. */
  readonly url: string
  readonly startedAt: number
  readonly endedAt: number
  readonly ok: boolean
  /** What it saw, as the log says it ("HTTP 503", "no answer (…)"). */
  readonly what: string
  /** The last answer's HTTP status, when there was one. */
  readonly status?: number | undefined
}

/** An address for the log: no query string (a page address may carry a token in it). */
function shown(url: URL): string {
  return `${url.origin}${url.pathname}`
}

/** What one attempt saw: passed, or why not; `answered` when the site gave a 2xx without the marker. */
interface Attempt {
  ok: boolean
  what: string
  answered?: boolean
  /** The last answer's status, when one came. */
  status?: number
}

/** What to do about the last answer of a check that did not pass. */
function advice(last: Attempt): string {
  if (last.answered)
    return 'The site answers, but not with the new release: check that the build writes health-expect into that page, and that the deploy really switched.'
  // A page the release does not have is a path to fix, not a site to debug (the README's build writes it into the site webapp).
  if (last.status === 404)
    return "The page does not exist: check the health-url path and where your build writes it (a file of the site webapp is served at the site's root)."
  if (last.status === 401 || last.status === 403) return 'The page asks for credentials, which the check never sends: point health-url at a public page.'
  return 'Check the site and its logs.'
}

/** One GET, following redirects, each call within `limitMs()` (what is left of the check's time); what it answered, or why it did not pass. */
async function attempt(options: HealthOptions, transports: Map<string, HttpTransport>, limitMs: () => number): Promise<Attempt> {
  let url = new URL(options.url)
  for (let redirects = 0; ; redirects++) {
    let transport = transports.get(url.origin)
    if (transport === undefined) {
      transport = new HttpTransport(url.origin, { userAgent: options.userAgent, timeoutMs: options.requestTimeoutMs, signal: options.signal })
      transports.set(url.origin, transport)
    }
    const res: HttpResponse = await transport.send({
      method: 'GET',
      path: `${url.pathname}${url.search}`,
      headers: { accept: '*/*', 'cache-control': 'no-cache' },
      timeoutMs: limitMs()
    })
    options.answered?.(shown(url))
    const location = res.headers.location
    const to = Array.isArray(location) ? location[0] : location
    if (res.status >= 300 && res.status < 400 && to) {
      const next = new URL(to, url)
      if (redirects >= MAX_REDIRECTS) return { ok: false, what: `more than ${MAX_REDIRECTS} redirects (the last to ${shown(next)})` }
      // Plain http only where the user chose it (an http health-url) or on this machine: never a downgrade from https.
      const httpAllowed = new URL(options.url).protocol === 'http:' || isLoopbackHost(next.hostname)
      if (next.protocol !== 'https:' && !(next.protocol === 'http:' && httpAllowed)) {
        return { ok: false, what: `HTTP ${res.status}, a redirect to ${shown(next)}, which is not https: not followed` }
      }
      url = next
      continue
    }
    if (res.status < 200 || res.status > 299) return { ok: false, what: `HTTP ${res.status}`, status: res.status }
    if (options.expect !== undefined && !res.text.includes(options.expect)) {
      return { ok: false, answered: true, status: res.status, what: `HTTP ${res.status}, but the page does not contain '${options.expect}'` }
    }
    return { ok: true, status: res.status, what: `HTTP ${res.status}${options.expect === undefined ? '' : `, contains '${options.expect}'`}` }
  }
}

/** Checks until the site passes (returns after how long) or the time is up (throws HealthCheckFailed). */
export async function checkHealth(options: HealthOptions): Promise<{ afterMs: number; attempts: number }> {
  const now = options.now ?? Date.now
  const poll = new Poll({ ...options, intervalMs: options.intervalMs ?? 2_000, maxIntervalMs: options.maxIntervalMs ?? 15_000 })
  const transports = new Map<string, HttpTransport>()
  const where = shown(new URL(options.url))
  // No call outruns health-timeout-minutes: each gets request-timeout-seconds, or what is left (at least 1 s).
  const limitMs = (): number => Math.max(1_000, Math.min(options.requestTimeoutMs, poll.started + options.timeoutMs - now()))
  try {
    for (let n = 1; ; n++) {
      const t0 = now()
      let result: Attempt
      try {
        result = await attempt(options, transports, limitMs)
      } catch (error) {
        if (options.signal?.aborted) throw error
        result = { ok: false, what: `no answer (${describeError(error)})` }
      }
      const t1 = now()
      options.log(`Health check ${n}: ${where}: ${result.what} in ${formatDuration(t1 - t0)}.`)
      options.tried?.({ url: where, startedAt: t0, endedAt: t1, ok: result.ok, what: result.what, status: result.status })
      if (result.ok) return { afterMs: poll.elapsed(), attempts: n }
      if (options.once === true || !(await poll.next())) {
        const within = options.once === true ? '' : ` within health-timeout-minutes (${formatDuration(options.timeoutMs)}, ${n} attempt(s))`
        throw new HealthCheckFailed(`The health check of ${where} did not pass${within}; the last answer: ${result.what}. ${advice(result)}`)
      }
    }
  } finally {
    for (const transport of transports.values()) await transport.close().catch(() => undefined)
  }
}
