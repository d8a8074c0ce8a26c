// The search smoke check: one GET /api/v1/core/ per attempt through the shared HTTP/1.1 transport, the
// service's cookie kept for the run, transient failures retried by the action's one retry policy
// (max-attempts), and, inside search-wait-seconds, too few results looked for again. The auth key travels
// in the query string: no message here ever contains the full address or the key.
import type { Dispatcher } from 'undici'
import { systemErrorCode, type ServiceError } from '../errors.js'
import { formatSeconds } from '../format.js'
import { networkFailure, toServiceError } from '../http/errors.js'
import { createRetrier, sleep as realSleep, withRetry, type RetryOptions } from '../http/retry.js'
import { HttpTransport, type HttpResponse } from '../http/transport.js'
import { redact, registerSecret } from '../secrets.js'
import type { SearchConfig } from '../inputs/search.js'
import { CookieJar } from './cookies.js'
import type { SearchType } from './query.js'
import { buildSearchRequest, MAX_REQUEST_BYTES, newRequestId, SEARCH_PATH } from './request.js'
import { parseSearchResponse, SearchResponseError, type FacetFormat, type KeywordRedirect, type ParsedSearchResponse } from './response.js'

export const DEFAULT_USER_AGENT = 'brcloud-deploy-search-check'
/** Backoff of both the transient retries and the wait window: 1 s doubling, capped at 10 s, with full jitter. */
const BASE_DELAY_MS = 1000
const MAX_DELAY_MS = 10_000
/** The transient retries of one search call give up once waiting would take longer (a long Retry-After). */
const CALL_MAX_TOTAL_MS = 60_000

export type SearchFailureKind = 'http' | 'timeout' | 'network' | 'bad-answer' | 'too-few-results' | 'too-large'

/** One failed attempt. Its message is safe to print (no address, no auth key). */
export class SearchFailure extends Error {
  override name = 'SearchFailure'
  constructor(
    message: string,
    readonly kind: SearchFailureKind,
    /** Transient (429, 5xx, timeout, connection failure), or too few results: worth another attempt. */
    readonly retryable: boolean,
    readonly requestId: string,
    readonly extra: { status?: number; statusCode?: number; retryAfterMs?: number; latencyMs?: number; parsed?: ParsedSearchResponse } = {}
  ) {
    super(message)
  }
}

export interface SearchAttempt {
  requestId: string
  status: number
  latencyMs: number
  parsed: ParsedSearchResponse
}

export interface SearchClientOptions {
  userAgent?: string
  /** The run's watchdog: aborts a call in flight (its reason is thrown as is, not as a SearchFailure). */
  signal?: AbortSignal | undefined
  /** For tests; by default the transport's own HTTP/1.1 agent. */
  dispatcher?: Dispatcher | undefined
}

function bodyStatusCode(text: string): number | undefined {
  try {
    const body = JSON.parse(text) as { status_code?: unknown }
    return typeof body.status_code === 'number' ? body.status_code : undefined
  } catch {
    return undefined
  }
}

const HINTS: Record<number, string> = {
  403: ' Check search-account-id and search-auth-key.',
  414: ' The request is too long for the service: shorten search-page-url or search-query.',
  429: ' The service is rate limiting this account.'
}

/**
 * Where a 3xx answer points, for a message: without its query string and fragment (a redirect can carry
 * the auth key back) or user info. The caller passes the message through redact() for a key in the path.
 */
function redirectTarget(res: HttpResponse, endpoint: string): string {
  const value = res.headers.location
  const raw = (Array.isArray(value) ? value[0] : value)?.trim()
  if (!raw) return 'a redirect without a Location header'
  try {
    const to = new URL(raw, endpoint)
    to.search = ''
    to.hash = ''
    to.username = ''
    to.password = ''
    return `a redirect to ${to.href} (query string not shown)`
  } catch {
    return `a redirect to ${raw.split(/[?#]/)[0] ?? ''} (query string not shown)`
  }
}

/** One search client per run: one `_br_uid_2` (the config's, the same on every run), one cookie jar, one connection pool. */
export class SearchClient {
  readonly brUid: string
  readonly cookies = new CookieJar()
  private readonly transport: HttpTransport
  private readonly userAgent: string
  private readonly signal: AbortSignal | undefined

  constructor(
    private readonly config: SearchConfig,
    options: SearchClientOptions = {}
  ) {
    // Registered here too, so every message this client builds is scrubbed by redact() whoever made the config.
    registerSecret(config.authKey)
    this.brUid = config.brUid
    this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT
    this.signal = options.signal
    this.transport = new HttpTransport(config.baseUrl, {
      userAgent: this.userAgent,
      timeoutMs: config.timeoutMs,
      signal: options.signal,
      dispatcher: options.dispatcher
    })
  }

  /** The address without its query string: safe to print. */
  get endpoint(): string {
    return `${this.config.baseUrl}${SEARCH_PATH}`
  }

  /** Sends one search request. Throws a SearchFailure for any answer that is not a search result. */
  async search(): Promise<SearchAttempt> {
    const requestId = newRequestId()
    const headers: Record<string, string> = {}
    const cookie = this.cookies.header()
    if (cookie !== undefined) headers.cookie = cookie
    const target = this.requestTarget(requestId, headers)
    const started = performance.now()
    const elapsed = (): number => Math.round(performance.now() - started)
    let res
    try {
      res = await this.transport.send({
        method: 'GET',
        path: target,
        headers: { 'cache-control': 'no-cache', ...headers },
        timeoutMs: this.config.timeoutMs // the whole call, connection and answer included
      })
    } catch (error) {
      if (this.signal?.aborted) throw error // the run's watchdog: not a failure of the check
      throw this.unanswered(error, requestId, elapsed())
    }
    const latencyMs = elapsed()
    this.cookies.store(res.headers['set-cookie'])
    if (res.status < 200 || res.status > 299) throw this.refused(res, requestId, latencyMs)
    return readAnswer(res, requestId, latencyMs)
  }

  /** The request's path and query (it holds the auth key): refused before it is sent when the service would answer 414. */
  private requestTarget(requestId: string, headers: Record<string, string>): string {
    const c = this.config
    const built = buildSearchRequest(
      {
        accountId: c.accountId,
        authKey: c.authKey,
        domainKey: c.domainKey,
        brUid: this.brUid,
        pageUrl: c.pageUrl,
        type: c.type,
        q: c.query,
        fields: c.fields,
        rows: c.rows,
        start: 0,
        requestId
      },
      { baseUrl: c.baseUrl, headers: { 'user-agent': this.userAgent, accept: 'application/json', ...headers } }
    )
    if (built.bytes > MAX_REQUEST_BYTES) {
      throw new SearchFailure(
        `The search request would be ${built.bytes} bytes, over the service's limit of ${MAX_REQUEST_BYTES} bytes (HTTP 414); not sent.`,
        'too-large',
        false,
        requestId
      )
    }
    return built.target
  }

  /** A call that got no answer: over search-timeout-seconds, or a connection that failed (retried when transient). */
  private unanswered(error: unknown, requestId: string, latencyMs: number): SearchFailure {
    const failure = networkFailure(error)
    if (failure?.kind === 'timeout') {
      return new SearchFailure(
        `The search service did not answer within the ${formatSeconds(this.config.timeoutMs)} limit (search-timeout-seconds).`,
        'timeout',
        true,
        requestId,
        { latencyMs }
      )
    }
    const what = error instanceof Error ? error.message : String(error)
    const code = systemErrorCode(error)
    return new SearchFailure(
      redact(`The search request to ${this.endpoint} failed: ${what}${code ? ` (${code})` : ''}.`),
      'network',
      failure !== undefined,
      requestId,
      { latencyMs }
    )
  }

  /** An answer other than 2xx: what the service said and what to check; 429 and 5xx are worth another attempt. */
  private refused(res: HttpResponse, requestId: string, latencyMs: number): SearchFailure {
    const se: ServiceError = toServiceError('Search', res)
    const statusCode = bodyStatusCode(res.text)
    const redirect = res.status >= 300 && res.status <= 399
    const detail = redirect ? redirectTarget(res, this.endpoint) : (se.errorDetail ?? (res.text ? 'the answer was not a JSON error body' : 'no answer body'))
    const hint = redirect ? ' Check search-base-url / search-environment.' : (HINTS[res.status] ?? '')
    const code = statusCode !== undefined ? `, status_code ${statusCode}` : ''
    const extra: SearchFailure['extra'] = { status: res.status, latencyMs }
    if (statusCode !== undefined) extra.statusCode = statusCode
    if (se.retryAfterMs !== undefined) extra.retryAfterMs = se.retryAfterMs
    return new SearchFailure(
      redact(`The search service answered HTTP ${res.status}${code}: ${detail}.${hint}`),
      'http',
      res.status === 429 || (res.status >= 500 && res.status <= 599),
      requestId,
      extra
    )
  }

  async close(): Promise<void> {
    await this.transport.close()
  }
}

/** A 2xx answer read as a search result; one that is not (an HTML page, another JSON) is a failure not worth retrying. */
function readAnswer(res: HttpResponse, requestId: string, latencyMs: number): SearchAttempt {
  try {
    return { requestId, status: res.status, latencyMs, parsed: parseSearchResponse(res.text) }
  } catch (error) {
    if (!(error instanceof SearchResponseError)) throw error
    throw new SearchFailure(
      `The search service answered HTTP ${res.status}, but ${error.message}. Check search-base-url / search-environment.`,
      'bad-answer',
      false,
      requestId,
      { status: res.status, latencyMs }
    )
  }
}

export interface SearchResult {
  passed: boolean
  /** Why the check failed (safe to print), when it did. */
  failure?: string
  failureKind?: SearchFailureKind
  /** `q` as sent, after rewriting. */
  query: string
  originalQuery: string
  type: SearchType
  /** Base address and path, without the query string. */
  endpoint: string
  minResults: number
  /** From the last answer that was a search result; undefined when none was. */
  numFound?: number
  /** Latency of the last attempt in milliseconds (time to the whole answer), when it got one or timed out. */
  latencyMs?: number
  /** request_id of the last attempt. */
  requestId: string
  /** HTTP status of the last answer, if any. */
  status?: number
  /** Titles of the first products (up to 5). */
  titles: string[]
  facetFormat: FacetFormat
  facetNames: string[]
  keywordRedirect?: KeywordRedirect
  attempts: number
  warnings: string[]
}

export interface SearchDeps extends SearchClientOptions {
  /** Progress lines (request without its auth key, retries). */
  log?: (line: string) => void
  /** For the wait window (tests inject a fake clock and sleep). */
  sleep?: (ms: number) => Promise<void>
  now?: () => number
  random?: () => number
}

function describeRedirect(r: KeywordRedirect): string {
  const to = r.redirectedUrl ?? r.redirectedQuery ?? '?'
  return `the service redirects this query to ${to} (keywordRedirect)`
}

/**
 * Runs the search check and returns its result; never throws for a failed check (`passed: false`
 * with `failure`). Every search call goes through the action's retry policy: a transient failure (429
 * with its Retry-After, 5xx and 543, a timeout, a connection failure) is tried again, up to
 * config.maxAttempts attempts, with exponential backoff and jitter. Other answers (400, 403, 414, a 3xx...)
 * end the check at once. With config.waitMs above 0, too few results are looked for again (a freshly
 * deployed catalogue warming up) until enough are found or the wait window is over.
 */
export async function runSearchCheck(config: SearchConfig, deps: SearchDeps = {}): Promise<SearchResult> {
  const client = new SearchClient(config, deps)
  const result = startingResult(config, client.endpoint)
  const timing: Timing = { sleep: deps.sleep ?? realSleep, random: deps.random, now: deps.now }
  const searchOnce = retriedSearch(client, config, result, deps, timing)
  try {
    deps.log?.(`Search check: ${config.type} search for '${config.query}' at ${client.endpoint} (at least ${config.minResults} result(s))`)
    await untilEnoughResults(searchOnce, config, result, deps, timing)
    result.passed = true
  } catch (error) {
    if (!(error instanceof SearchFailure)) throw error
    recordFailure(result, error, config)
  } finally {
    await client.close()
  }
  if (result.keywordRedirect && result.passed) result.warnings.push(`${describeRedirect(result.keywordRedirect)}.`)
  return result
}

/** The waits of both the transient retries and the wait window: injected by tests (a fake clock and sleep). */
type Timing = Pick<RetryOptions, 'sleep' | 'random' | 'now'>

/** The result before any attempt: not passed, nothing found yet, the inputs' warnings. */
function startingResult(config: SearchConfig, endpoint: string): SearchResult {
  return {
    passed: false,
    query: config.query,
    originalQuery: config.originalQuery,
    type: config.type,
    endpoint,
    minResults: config.minResults,
    requestId: '',
    titles: [],
    facetFormat: 'none',
    facetNames: [],
    attempts: 0,
    warnings: [...config.warnings]
  }
}

/** The line before another attempt; `attempts` counts every request of the check. */
function retryLine(attempts: number, error: unknown, delayMs: number): string {
  return `Search attempt ${attempts} failed: ${error instanceof Error ? error.message : String(error)} Trying again in ${formatSeconds(delayMs)}.`
}

/** One search call, its transient failures retried under max-attempts; every attempt counted and its last answer kept. */
function retriedSearch(client: SearchClient, config: SearchConfig, result: SearchResult, deps: SearchDeps, timing: Timing): () => Promise<SearchAttempt> {
  const retrier = createRetrier(
    {
      attempts: config.maxAttempts,
      baseDelayMs: BASE_DELAY_MS,
      maxDelayMs: MAX_DELAY_MS,
      maxTotalMs: CALL_MAX_TOTAL_MS,
      retryable: (error) => {
        if (!(error instanceof SearchFailure) || !error.retryable) return false
        return error.extra.retryAfterMs !== undefined ? { afterMs: error.extra.retryAfterMs } : true
      },
      ...timing
    },
    (_level, message) => deps.log?.(message)
  )
  return () =>
    retrier.retrying(
      'Search',
      async () => {
        result.attempts++
        try {
          return await client.search()
        } catch (error) {
          if (error instanceof SearchFailure) recordFailedAttempt(result, error)
          throw error
        }
      },
      (error, _attempt, delayMs) => ({ level: 'info', message: retryLine(result.attempts, error, delayMs) })
    )
}

/** A failed attempt replaces the last one's request id, latency and status: the result tells of the last attempt. */
function recordFailedAttempt(result: SearchResult, error: SearchFailure): void {
  result.requestId = error.requestId
  if (error.extra.latencyMs === undefined) delete result.latencyMs
  else result.latencyMs = error.extra.latencyMs
  if (error.extra.status === undefined) delete result.status
  else result.status = error.extra.status
}

/**
 * Searches until enough results are found: once, or with search-wait-seconds again while too few are (a freshly
 * deployed catalogue warming up). The wait window only adds attempts for too few results; waiting does not fix any
 * other failure.
 */
async function untilEnoughResults(
  searchOnce: () => Promise<SearchAttempt>,
  config: SearchConfig,
  result: SearchResult,
  deps: SearchDeps,
  timing: Timing
): Promise<void> {
  await withRetry(
    async () => {
      const answer = await searchOnce()
      recordAnswer(result, answer)
      if (answer.parsed.numFound < config.minResults) throw tooFewResults(answer, config)
      return answer
    },
    {
      attempts: config.waitMs > 0 ? Number.MAX_SAFE_INTEGER : 1,
      baseDelayMs: BASE_DELAY_MS,
      maxDelayMs: MAX_DELAY_MS,
      maxTotalMs: config.waitMs,
      retryable: (error) => error instanceof SearchFailure && error.kind === 'too-few-results',
      onRetry: (error, _attempt, delayMs) => deps.log?.(retryLine(result.attempts, error, delayMs)),
      ...timing
    }
  )
}

/** A search result replaces what the last one found. */
function recordAnswer(result: SearchResult, answer: SearchAttempt): void {
  result.requestId = answer.requestId
  result.latencyMs = answer.latencyMs
  result.status = answer.status
  const parsed = answer.parsed
  result.numFound = parsed.numFound
  result.titles = parsed.titles
  result.facetFormat = parsed.facetFormat
  result.facetNames = parsed.facetNames
  if (parsed.keywordRedirect) result.keywordRedirect = parsed.keywordRedirect
  else delete result.keywordRedirect
}

/** An answer with fewer results than search-min-results, naming the service's redirect of the query when it has one. */
function tooFewResults(answer: SearchAttempt, config: SearchConfig): SearchFailure {
  const redirect = answer.parsed.keywordRedirect ? `; ${describeRedirect(answer.parsed.keywordRedirect)}` : ''
  return new SearchFailure(
    `The search for '${config.query}' found ${answer.parsed.numFound} product(s), fewer than search-min-results ${config.minResults}${redirect}.`,
    'too-few-results',
    true,
    answer.requestId,
    { status: answer.status, latencyMs: answer.latencyMs, parsed: answer.parsed }
  )
}

/** Why the check failed, with how many attempts it took against which limit, and advice for too few results. */
function recordFailure(result: SearchResult, error: SearchFailure, config: SearchConfig): void {
  result.failureKind = error.kind
  const tries =
    result.attempts <= 1
      ? ''
      : error.kind === 'too-few-results'
        ? ` (${result.attempts} attempts in the ${formatSeconds(config.waitMs)} search-wait-seconds window)`
        : ` (${result.attempts} attempts, max-attempts ${config.maxAttempts})`
  result.failure = `${error.message}${tries}${error.kind === 'too-few-results' ? tooFewAdvice(config.waitMs) : ''}`
}

/** What to do about too few results: the query or the bar may be wrong, or the catalogue not yet filled. */
function tooFewAdvice(waitMs: number): string {
  const wait =
    waitMs > 0
      ? 'raise search-wait-seconds if the catalogue takes longer to fill after a deploy'
      : 'set search-wait-seconds (e.g. 120) if the catalogue fills only after a deploy'
  return ` Check that search-query matches products of search-domain-key's catalogue, lower search-min-results, or ${wait}.`
}
