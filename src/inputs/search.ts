// The search smoke check's inputs: read through a getter, validated before any request, returned typed.
// No check runs (undefined) when search-query is empty. The service's own facts (hosts, fields,
// limits) live in src/search/; what a user may write, and what is refused, lives here.
import { INPUT_DEFAULTS, type InputName } from '../action-metadata.js'
import { missingSecret, secretSource } from '../advice.js'
import { InputError } from '../errors.js'
import { registerSecret } from '../secrets.js'
import { MAX_QUERY_CHARS, MAX_QUERY_WORDS, type SearchType } from '../search/query.js'
import { appBrUid, buildSearchRequest, MAX_REQUEST_BYTES, newRequestId, stableUid } from '../search/request.js'
import { REQUESTABLE_FIELDS, SEARCH_HOSTS, SEARCH_LIMITS, type SearchEnvironment } from '../search/service.js'
import { parseBaseUrl } from './address.js'
import { Input, parseMaxAttempts } from './deploy.js'
import { isSet, orDefault, parseInteger, required } from './parsers.js'

/** Input names, as in action.yml. Workflows depend on them: never rename one. */
export const SearchInput = {
  Query: 'search-query',
  Type: 'search-type',
  AccountId: 'search-account-id',
  AuthKey: 'search-auth-key',
  DomainKey: 'search-domain-key',
  Environment: 'search-environment',
  BaseUrl: 'search-base-url',
  Fields: 'search-fields',
  Rows: 'search-rows',
  MinResults: 'search-min-results',
  TimeoutSeconds: 'search-timeout-seconds',
  Url: 'search-page-url',
  Uid: 'search-uid',
  WaitSeconds: 'search-wait-seconds'
} as const satisfies Record<string, InputName>

/** `url` when neither search-page-url nor the repository is known. */
export const DEFAULT_PAGE_URL = 'brcloud-deploy'

export interface SearchConfig {
  /** `q` as sent (after the service's rewriting). */
  readonly query: string
  /** search-query as written. */
  readonly originalQuery: string
  readonly type: SearchType
  readonly accountId: string
  /** A secret: registered for masking as soon as it was read. */
  readonly authKey: string
  readonly domainKey: string
  readonly environment: SearchEnvironment
  /** Base address without a trailing slash, e.g. https://core.dxpapi.com */
  readonly baseUrl: string
  /** Which input decided the base address. */
  readonly baseUrlSource: 'search-environment' | 'search-base-url'
  readonly fields: readonly string[]
  readonly rows: number
  readonly minResults: number
  readonly timeoutMs: number
  /** Placeholder page address sent as `url`. */
  readonly pageUrl: string
  /** `_br_uid_2`, unencoded (`uid=…:v=…:ts=…:hc=…`): from search-uid, else the same for every run of the repository. */
  readonly brUid: string
  /** Attempts per search call for transient failures (429, 5xx, timeouts, connection failures): max-attempts. */
  readonly maxAttempts: number
  /** 0: no waiting. Otherwise too few results are looked for again until enough are found or this much time passed. */
  readonly waitMs: number
  /** Warnings found while reading the inputs (a rewritten q, `*`, fl without pid). */
  readonly warnings: readonly string[]
}

export type SearchInputReader = (name: string) => string

export interface SearchConfigContext {
  /** owner/name of the repository (GITHUB_REPOSITORY), for the default `url`. */
  repository?: string | undefined
  /** Told when search-* inputs are set while search-query is empty (no check runs). */
  warn?: (message: string) => void
}

// --- search-query: the term `q`, checked and rewritten the way the search service treats it --------
// Every rule here is a row of the service's table of special characters and limits.

export interface NormalizedQuery {
  /** What is sent as `q`. */
  q: string
  /** Things the user should know (printed as warnings), e.g. a rewrite or the latency of `*`. */
  warnings: string[]
}

const QUERY = SearchInput.Query
/** `*`, `?` and `~` are not wildcard or fuzzy operators for this service: it replaces them by spaces. */
const SPECIAL = /[*?~]/g

function chars(text: string): number {
  return [...text].length
}

function words(text: string): number {
  return text.split(/\s+/).filter((w) => w !== '').length
}

function checkLimits(text: string, original: string): void {
  const n = chars(text)
  if (n > MAX_QUERY_CHARS) {
    throw new InputError(
      `${QUERY} is ${n} characters long; the search service refuses a q over ${MAX_QUERY_CHARS} characters. ` +
        `Use a shorter keyword: a smoke check needs one or two words that your catalog surely matches.`
    )
  }
  const w = words(text)
  if (w > MAX_QUERY_WORDS) {
    throw new InputError(
      `${QUERY} has ${w} words${text === original ? '' : ' once rewritten'}; the search service refuses a q of more than ` +
        `${MAX_QUERY_WORDS} words. Use one or two words that your catalog surely matches.`
    )
  }
}

/**
 * Checks `q` and returns what to send. Throws an InputError for a value the service refuses
 * (empty, `?` or `~` alone, over the limits, a category id with non-ASCII letters).
 *
 * Rewrites as the service does: a leading `*` is dropped (`*shirt` -> `shirt`), and `*`, `?` and `~`
 * between terms become spaces (`red*shirt` -> `red shirt`). `*` alone (everything) and `.` alone pass.
 */
export function normalizeQuery(value: string, type: SearchType): NormalizedQuery {
  const original = value.trim()
  const warnings: string[] = []
  if (original === '') {
    throw new InputError(`${QUERY} is empty; the search service answers an empty q with HTTP 400. Set a keyword (or a category id with search-type: category).`)
  }
  const control = /\p{Cc}/u.exec(original)
  if (control) {
    const code = control[0].codePointAt(0)?.toString(16).padStart(4, '0') ?? ''
    throw new InputError(`${QUERY} contains a control character (U+${code}); write the query on one line, as plain text.`)
  }
  if (type === 'category') {
    const letter = [...original].find((ch) => (ch.codePointAt(0) ?? 0) > 0x7f && /\p{L}/u.test(ch))
    if (letter !== undefined) {
      throw new InputError(
        `${QUERY} '${original}' is a category id with the non-ASCII letter '${letter}'; the search service does not support ` +
          `such category ids. Use the category's id from your catalog feed (ids are ASCII), not its display name.`
      )
    }
  }
  if (original === '?' || original === '~') {
    throw new InputError(`${QUERY} '${original}' alone is not allowed by the search service. Set a keyword, or * to match everything.`)
  }
  checkLimits(original, original)
  if (original === '*') {
    warnings.push(
      `${QUERY} '*' matches the whole catalog: its latency depends on catalog size and is outside the service's latency ` +
        `service level, so the latency measured here says little. Prefer a keyword your catalog surely matches.`
    )
    return { q: original, warnings }
  }
  if (original === '.' || !/[*?~]/.test(original)) return { q: original, warnings }

  const q = original.replace(SPECIAL, ' ').replace(/\s+/g, ' ').trim()
  if (q === '') {
    throw new InputError(
      `${QUERY} '${original}' has nothing left to search for: the service treats *, ? and ~ as word separators. ` +
        `Set a keyword, or * alone to match everything.`
    )
  }
  checkLimits(q, original)
  warnings.push(
    `${QUERY} '${original}' is sent as '${q}': the search service has no wildcard or fuzzy operators and treats ` +
      `*, ? and ~ as word separators (a leading * is dropped).`
  )
  return { q, warnings }
}

// --- the other search inputs --------------------------------------------------------------------

/** Every missing key at once, so a user fixes them in one go. */
function missingKeys(get: SearchInputReader, authKey: string): void {
  const missing = [
    get(SearchInput.AccountId).trim() === '' && `${SearchInput.AccountId} (the account id the search service gave you, e.g. 6001)`,
    authKey === '' && `${SearchInput.AuthKey} (${secretSource(SearchInput.AuthKey)})`,
    get(SearchInput.DomainKey).trim() === '' && `${SearchInput.DomainKey} (your site's domain key; the service refuses requests without it)`
  ].filter((m): m is string => m !== false)
  if (missing.length < 2) return
  throw new InputError(`${missing.length} search keys are required when ${SearchInput.Query} is set and missing: ${missing.join('; ')}.`)
}

/** A key or id the service gave: required while the check runs, and copied exactly. */
function serviceKey(name: InputName, value: string, why: string): string {
  required(name, value, why, `when ${SearchInput.Query} is set`)
  if (/[\s\p{Cc}]/u.test(value)) {
    throw new InputError(`${name} contains white space or a control character; copy the value exactly as the search service gave it.`)
  }
  return value
}

function parseType(value: string): SearchType {
  const v = orDefault(SearchInput.Type, value).toLowerCase()
  if (v === 'keyword' || v === 'category') return v
  throw new InputError(`${SearchInput.Type} '${value}' is not a search type: write keyword (product search, the default) or category (q is a category id).`)
}

function parseEnvironment(value: string): SearchEnvironment {
  const v = orDefault(SearchInput.Environment, value).toLowerCase()
  if (v === 'production' || v === 'staging') return v
  throw new InputError(
    `${SearchInput.Environment} '${value}' is not a search environment: write production (${SEARCH_HOSTS.production}, the default) ` +
      `or staging (${SEARCH_HOSTS.staging}), or set ${SearchInput.BaseUrl} to another host.`
  )
}

export function parseSearchBaseUrl(value: string): string {
  return parseBaseUrl(value, {
    input: SearchInput.BaseUrl,
    example: 'https://core.dxpapi.com',
    credentialsHint: `The search service takes its keys from ${SearchInput.AccountId}, ${SearchInput.AuthKey} and ${SearchInput.DomainKey}.`,
    queryHint: '; the keys have their own inputs',
    secret: 'the auth key',
    apiPath: /\/api(\/v1(\/core)?)?$/i,
    apiPathMessage: 'includes the API path: give the host only (the action adds /api/v1/core/)'
  })
}

function parseFields(value: string): { fields: string[]; warnings: string[] } {
  const list = orDefault(SearchInput.Fields, value)
  const fields: string[] = []
  for (const raw of list.split(',')) {
    const field = raw.trim()
    if (field === '' || fields.includes(field)) continue
    if (!(REQUESTABLE_FIELDS as readonly string[]).includes(field)) {
      const near = REQUESTABLE_FIELDS.find((f) => f === field.toLowerCase())
      throw new InputError(
        `${SearchInput.Fields} names '${field}', which the search service does not return` +
          `${near ? ` (did you mean '${near}'? names are lower case)` : ''}. Use a comma-separated list of: ${REQUESTABLE_FIELDS.join(', ')}.`
      )
    }
    fields.push(field)
  }
  if (fields.length === 0) {
    throw new InputError(
      `${SearchInput.Fields} '${value}' names no field. Leave it empty for ${INPUT_DEFAULTS[SearchInput.Fields]}, or list some of: ${REQUESTABLE_FIELDS.join(', ')}.`
    )
  }
  const warnings = fields.includes('pid') ? [] : [`${SearchInput.Fields} does not include pid; the search service expects fl to name it.`]
  return { fields, warnings }
}

function parsePageUrl(value: string, repository: string | undefined): string {
  if (value === '') return repository ? `https://github.com/${repository}` : DEFAULT_PAGE_URL
  if (/\p{Cc}/u.test(value)) throw new InputError(`${SearchInput.Url} contains a control character; write one address or app name on one line.`)
  return value
}

/** A bare uid: letters and digits, as in the documented forms (13 digits in a browser cookie). */
const BARE_UID = /^[A-Za-z0-9]{1,64}$/
/** A whole `_br_uid_2` value, unencoded: uid, v, ts and hc, in this order. */
const COOKIE_UID = /^uid=[A-Za-z0-9]{1,64}:v=[A-Za-z0-9._-]{1,32}:ts=\d{1,20}:hc=\d{1,10}$/

/** The value percent-decoded once, or undefined when it holds no escape (or a broken one). */
function decodedOnce(value: string): string | undefined {
  if (!/%[0-9A-Fa-f]{2}/.test(value)) return undefined
  try {
    return decodeURIComponent(value)
  } catch {
    return undefined
  }
}

/** `_br_uid_2`: search-uid as given, or derived from the repository so that every run is the same visitor. */
function parseUid(value: string, repository: string | undefined): string {
  if (value === '') return appBrUid(stableUid(repository || DEFAULT_PAGE_URL))
  if (BARE_UID.test(value)) return appBrUid(value)
  if (COOKIE_UID.test(value)) return value
  // A cookie value copied from a browser is stored percent-encoded once (uid%3D…%3Av%3D…): decoded here, encoded once on the wire.
  const decoded = decodedOnce(value)
  if (decoded !== undefined && COOKIE_UID.test(decoded)) return decoded
  const shown = JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)
  throw new InputError(
    `${SearchInput.Uid} ${shown} is not a visitor id. Write either a bare uid of letters and digits (e.g. 7797686432023) or a whole ` +
      `_br_uid_2 value uid=<id>:v=<version>:ts=<number>:hc=<number> (e.g. uid=7797686432023:v=app:ts=0:hc=1), or leave it empty ` +
      `for one derived from the repository.`
  )
}

/**
 * Search inputs the user set (other than search-query). A runner sets every input that has a default,
 * so a value equal to action.yml's default says nothing about the user's intent: it is ignored.
 */
function otherSearchInputs(get: SearchInputReader): string[] {
  return Object.values(SearchInput).filter((name) => name !== SearchInput.Query && isSet(name, get(name).trim()))
}

/** The service's keys: every missing one named at once, then each checked as the service will read it. */
function readServiceKeys(get: SearchInputReader, authKey: string): Pick<SearchConfig, 'accountId' | 'domainKey'> {
  missingKeys(get, authKey)
  const accountId = serviceKey(
    SearchInput.AccountId,
    get(SearchInput.AccountId).trim(),
    'set it to the account id the search service gave you (for example 6001).'
  )
  serviceKey(SearchInput.AuthKey, authKey, missingSecret(SearchInput.AuthKey))
  const domainKey = serviceKey(
    SearchInput.DomainKey,
    get(SearchInput.DomainKey).trim(),
    "set it to your site's domain key; the service refuses requests without it."
  )
  return { accountId, domainKey }
}

/** Where the check asks: search-base-url when set, else the host of search-environment (still validated). */
function readSearchAddress(get: SearchInputReader): Pick<SearchConfig, 'environment' | 'baseUrl' | 'baseUrlSource'> {
  const environment = parseEnvironment(get(SearchInput.Environment).trim())
  const baseInput = get(SearchInput.BaseUrl).trim()
  if (baseInput === '') return { environment, baseUrl: SEARCH_HOSTS[environment], baseUrlSource: 'search-environment' }
  return { environment, baseUrl: parseSearchBaseUrl(baseInput), baseUrlSource: 'search-base-url' }
}

/**
 * Reads and validates the search inputs. Returns undefined when search-query is empty (no check).
 * Throws an InputError, before any request, for every value the check or the service would refuse.
 * The auth key is registered as a secret the moment it is read, whether or not the check runs.
 */
export function parseSearchConfig(get: SearchInputReader, context: SearchConfigContext = {}): SearchConfig | undefined {
  const rawKey = get(SearchInput.AuthKey)
  registerSecret(rawKey)
  const authKey = rawKey.trim()
  registerSecret(authKey)

  const originalQuery = get(SearchInput.Query).trim()
  if (originalQuery === '') {
    const set = otherSearchInputs(get)
    if (set.length > 0) context.warn?.(`${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} set but search-query is empty: no search check runs.`)
    return undefined
  }

  const type = parseType(get(SearchInput.Type).trim())
  const { q, warnings } = normalizeQuery(originalQuery, type)
  const { accountId, domainKey } = readServiceKeys(get, authKey)
  const { environment, baseUrl, baseUrlSource } = readSearchAddress(get)
  const fields = parseFields(get(SearchInput.Fields).trim())
  warnings.push(...fields.warnings)
  const timeoutSeconds = parseInteger(
    SearchInput.TimeoutSeconds,
    get(SearchInput.TimeoutSeconds).trim(),
    SEARCH_LIMITS.minTimeoutSeconds,
    SEARCH_LIMITS.maxTimeoutSeconds
  )

  const config: SearchConfig = {
    query: q,
    originalQuery,
    type,
    accountId,
    authKey,
    domainKey,
    environment,
    baseUrl,
    baseUrlSource,
    fields: fields.fields,
    rows: parseInteger(SearchInput.Rows, get(SearchInput.Rows).trim(), 1, SEARCH_LIMITS.maxRows),
    minResults: parseInteger(SearchInput.MinResults, get(SearchInput.MinResults).trim(), 0, Number.MAX_SAFE_INTEGER),
    timeoutMs: timeoutSeconds * 1000,
    pageUrl: parsePageUrl(get(SearchInput.Url).trim(), context.repository),
    brUid: parseUid(get(SearchInput.Uid).trim(), context.repository),
    maxAttempts: parseMaxAttempts(get(Input.MaxAttempts).trim()),
    waitMs: parseInteger(SearchInput.WaitSeconds, get(SearchInput.WaitSeconds).trim(), 0, SEARCH_LIMITS.maxWaitSeconds) * 1000,
    warnings
  }
  checkRequestSize(config)
  return config
}

/** Refuses a configuration whose request would be over the service's 16 KB limit (it would answer 414). */
export function checkRequestSize(config: SearchConfig): void {
  const built = buildSearchRequest(
    {
      accountId: config.accountId,
      authKey: config.authKey,
      domainKey: config.domainKey,
      brUid: config.brUid,
      pageUrl: config.pageUrl,
      type: config.type,
      q: config.query,
      fields: config.fields,
      rows: config.rows,
      start: 0,
      requestId: newRequestId()
    },
    // Room for the transport's own headers and a cookie the service may set.
    { baseUrl: config.baseUrl, headers: { 'user-agent': 'x'.repeat(64), accept: 'application/json', cookie: 'x'.repeat(512) } }
  )
  if (built.bytes <= MAX_REQUEST_BYTES) return
  const sizes: Array<[string, number]> = [
    [SearchInput.Url, Buffer.byteLength(encodeURIComponent(config.pageUrl))],
    [SearchInput.Query, Buffer.byteLength(encodeURIComponent(config.query))],
    [SearchInput.AccountId, Buffer.byteLength(encodeURIComponent(config.accountId))],
    [SearchInput.AuthKey, Buffer.byteLength(encodeURIComponent(config.authKey))],
    [SearchInput.DomainKey, Buffer.byteLength(encodeURIComponent(config.domainKey))]
  ]
  sizes.sort((a, b) => b[1] - a[1])
  const [largest, size] = sizes[0] ?? ['', 0]
  throw new InputError(
    `The search request would be ${built.bytes} bytes, over the service's limit of ${MAX_REQUEST_BYTES} bytes (it answers HTTP 414). ` +
      `${largest} takes ${size} bytes once encoded: shorten it.`
  )
}
