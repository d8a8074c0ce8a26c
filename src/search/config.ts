// The search smoke check's inputs: read through a getter, validated before any request, returned typed.
// No check runs (undefined) when search-query is empty.
import { parseBaseUrl } from '../http/base-url.js'
import { InputError } from '../errors.js'
import { registerSecret } from '../secrets.js'
import { normalizeQuery, type SearchType } from './query.js'
import { buildSearchRequest, MAX_REQUEST_BYTES, newBrUid, newRequestId } from './request.js'

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
  Url: 'search-url',
  WaitSeconds: 'search-wait-seconds'
} as const

/** Output names, as in action.yml. */
export const SearchOutput = {
  NumFound: 'search-num-found',
  LatencyMs: 'search-latency-ms',
  RequestId: 'search-request-id'
} as const

export type SearchEnvironment = 'production' | 'staging'

export const SEARCH_HOSTS: Record<SearchEnvironment, string> = {
  production: 'https://core.dxpapi.com',
  staging: 'https://staging-core.dxpapi.com'
}

/** The product fields the service lets a request name in `fl`. */
export const REQUESTABLE_FIELDS = [
  'pid', 'title', 'brand', 'price', 'sale_price', 'thumb_image', 'url', 'description', 'colors', 'sizes', 'price_range', 'sale_price_range'
] as const

export const SEARCH_DEFAULTS = {
  type: 'keyword' as SearchType,
  environment: 'production' as SearchEnvironment,
  fields: ['pid', 'title', 'url'],
  rows: 10,
  maxRows: 200,
  minResults: 1,
  timeoutSeconds: 5,
  /** The service asks clients for a timeout of at least 2 seconds. */
  minTimeoutSeconds: 2,
  maxTimeoutSeconds: 120,
  waitSeconds: 0,
  maxWaitSeconds: 3600,
  /** `url` when neither search-url nor the repository is known. */
  pageUrl: 'brcloud-deploy'
}

export interface SearchConfig {
  /** `q` as sent (after the service's rewriting). */
  query: string
  /** search-query as written. */
  originalQuery: string
  type: SearchType
  accountId: string
  /** A secret: registered for masking as soon as it was read. */
  authKey: string
  domainKey: string
  environment: SearchEnvironment
  /** Base address without a trailing slash, e.g. https://core.dxpapi.com */
  baseUrl: string
  /** Which input decided the base address. */
  baseUrlSource: 'search-environment' | 'search-base-url'
  fields: string[]
  rows: number
  minResults: number
  timeoutMs: number
  /** Placeholder page address sent as `url`. */
  pageUrl: string
  /** 0: one attempt. Otherwise failing attempts are repeated until one passes or this much time passed. */
  waitMs: number
  /** Warnings found while reading the inputs (a rewritten q, `*`, fl without pid). */
  warnings: string[]
}

export type SearchInputReader = (name: string) => string

export interface SearchConfigContext {
  /** owner/name of the repository (GITHUB_REPOSITORY), for the default `url`. */
  repository?: string
  /** Told when search-* inputs are set while search-query is empty (no check runs). */
  warn?: (message: string) => void
}

function integer(name: string, value: string, fallback: number, min: number, max: number): number {
  if (value === '') return fallback
  if (!/^\d+$/.test(value)) throw new InputError(`${name} '${value}' is not a whole number: write a number from ${min} to ${max}.`)
  const n = Number(value)
  if (n < min || n > max) throw new InputError(`${name} ${value} is out of range: write a number from ${min} to ${max}.`)
  return n
}

function required(name: string, value: string, why: string): string {
  if (value === '') throw new InputError(`Input ${name} is required when search-query is set: ${why}`)
  if (/[\s\p{Cc}]/u.test(value)) {
    throw new InputError(`${name} contains white space or a control character; copy the value exactly as the search service gave it.`)
  }
  return value
}

function parseType(value: string): SearchType {
  const v = value.toLowerCase()
  if (v === '') return SEARCH_DEFAULTS.type
  if (v === 'keyword' || v === 'category') return v
  throw new InputError(`${SearchInput.Type} '${value}' is not a search type: write keyword (product search, the default) or category (q is a category id).`)
}

function parseEnvironment(value: string): SearchEnvironment {
  const v = value.toLowerCase()
  if (v === '') return SEARCH_DEFAULTS.environment
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
  if (value === '') return { fields: [...SEARCH_DEFAULTS.fields], warnings: [] }
  const fields: string[] = []
  for (const raw of value.split(',')) {
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
    throw new InputError(`${SearchInput.Fields} '${value}' names no field. Leave it empty for ${SEARCH_DEFAULTS.fields.join(',')}, or list some of: ${REQUESTABLE_FIELDS.join(', ')}.`)
  }
  const warnings = fields.includes('pid') ? [] : [`${SearchInput.Fields} does not include pid; the search service expects fl to name it.`]
  return { fields, warnings }
}

function parsePageUrl(value: string, repository: string | undefined): string {
  if (value === '') return repository ? `https://github.com/${repository}` : SEARCH_DEFAULTS.pageUrl
  if (/\p{Cc}/u.test(value)) throw new InputError(`${SearchInput.Url} contains a control character; write one address or app name on one line.`)
  return value
}

/** Any search-* input other than search-query that is set. */
/**
 * The defaults action.yml declares. A runner sets every input that has a default, so a value equal
 * to its default says nothing about the user's intent (a test keeps this in step with action.yml).
 */
export const ACTION_YML_DEFAULTS: Readonly<Record<string, string>> = {
  [SearchInput.Type]: SEARCH_DEFAULTS.type,
  [SearchInput.Environment]: SEARCH_DEFAULTS.environment,
  [SearchInput.Fields]: SEARCH_DEFAULTS.fields.join(','),
  [SearchInput.Rows]: String(SEARCH_DEFAULTS.rows),
  [SearchInput.MinResults]: String(SEARCH_DEFAULTS.minResults),
  [SearchInput.TimeoutSeconds]: String(SEARCH_DEFAULTS.timeoutSeconds),
  [SearchInput.WaitSeconds]: String(SEARCH_DEFAULTS.waitSeconds)
}

/** Search inputs the user set (other than search-query), ignoring values equal to action.yml's defaults. */
function otherSearchInputs(get: SearchInputReader): string[] {
  return Object.values(SearchInput).filter((name) => {
    const value = get(name).trim()
    return name !== SearchInput.Query && value !== '' && value !== ACTION_YML_DEFAULTS[name]
  })
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
  const accountId = required(SearchInput.AccountId, get(SearchInput.AccountId).trim(), 'set it to the account id the search service gave you (for example 6001).')
  required(SearchInput.AuthKey, authKey, 'set it from a secret (search-auth-key: ${{ secrets.BR_SEARCH_AUTH_KEY }}); if it is set and still empty, the secret is not available to this workflow.')
  const domainKey = required(SearchInput.DomainKey, get(SearchInput.DomainKey).trim(), 'set it to your site\'s domain key; the service refuses requests without it.')

  const environment = parseEnvironment(get(SearchInput.Environment).trim())
  const baseInput = get(SearchInput.BaseUrl).trim()
  const baseUrl = baseInput === '' ? SEARCH_HOSTS[environment] : parseSearchBaseUrl(baseInput)
  const fields = parseFields(get(SearchInput.Fields).trim())
  warnings.push(...fields.warnings)
  const timeoutSeconds = integer(
    SearchInput.TimeoutSeconds,
    get(SearchInput.TimeoutSeconds).trim(),
    SEARCH_DEFAULTS.timeoutSeconds,
    SEARCH_DEFAULTS.minTimeoutSeconds,
    SEARCH_DEFAULTS.maxTimeoutSeconds
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
    baseUrlSource: baseInput === '' ? 'search-environment' : 'search-base-url',
    fields: fields.fields,
    rows: integer(SearchInput.Rows, get(SearchInput.Rows).trim(), SEARCH_DEFAULTS.rows, 1, SEARCH_DEFAULTS.maxRows),
    minResults: integer(SearchInput.MinResults, get(SearchInput.MinResults).trim(), SEARCH_DEFAULTS.minResults, 0, Number.MAX_SAFE_INTEGER),
    timeoutMs: timeoutSeconds * 1000,
    pageUrl: parsePageUrl(get(SearchInput.Url).trim(), context.repository),
    waitMs: integer(SearchInput.WaitSeconds, get(SearchInput.WaitSeconds).trim(), SEARCH_DEFAULTS.waitSeconds, 0, SEARCH_DEFAULTS.maxWaitSeconds) * 1000,
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
      brUid: newBrUid(),
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
