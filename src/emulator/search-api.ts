// The product and category search API (`GET /api/v1/core/`) as an emulator module: the built-in
// catalogs (products, and content for content search), both facet formats, the service's q rewriting and
// error table, its cookie, and a delay knob.
// Errors are `{"status_code": …, "message": …}` like the real service (not the cloud API's shape).
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { ApiModule, RequestContext } from './router.js'
import {
  CATEGORIES,
  categoryById,
  categoryPath,
  CONTENT_ITEMS,
  inCategory,
  KEYWORD_REDIRECTS,
  PRODUCTS,
  type CatalogProduct,
  type ContentItem
} from './search-catalog.js'
import type { SearchEmptyAuthKey, SearchFacetFormat, SearchSettings } from './types.js'

export const SEARCH_API_DEFAULTS = {
  accountId: '6001',
  authKey: 'emulator-auth-key',
  domainKey: 'emulator_domain',
  facetFormat: 'v3' as SearchFacetFormat,
  delayMs: 0,
  emptyAuthKey: 'accept' as SearchEmptyAuthKey
}

export const SEARCH_COOKIE = 'br_emulator_session'
export const MAX_REQUEST_BYTES = 16 * 1024
export const MAX_Q_CHARS = 300
export const MAX_Q_WORDS = 30
export const MAX_ROWS = 200
export const MAX_START = 10000
export const REQUESTABLE_FIELDS = [
  'pid',
  'title',
  'brand',
  'price',
  'sale_price',
  'thumb_image',
  'url',
  'description',
  'colors',
  'sizes',
  'price_range',
  'sale_price_range'
] as const

class SearchError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string
  ) {
    super(detail)
  }
}

/** The mutable state of the search API: its settings and the cookies it has issued. */
export interface SearchState {
  settings: SearchSettings
  issuedCookies: Set<string>
}

export function newSearchState(settings: Partial<SearchSettings> = {}): SearchState {
  return { settings: { ...SEARCH_API_DEFAULTS, ...settings }, issuedCookies: new Set() }
}

/** Request line and headers in bytes, as the service counts them against its 16 KB limit. */
function requestBytes(ctx: RequestContext): number {
  const { req } = ctx
  let n = Buffer.byteLength(`${req.method ?? ''} ${req.url ?? ''} HTTP/${req.httpVersion}\r\n`)
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) n += Buffer.byteLength(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`)
  return n + 2
}

function presentedCookie(ctx: RequestContext, state: SearchState): string | undefined {
  const header = ctx.req.headers.cookie ?? ''
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=')
    const v = value.join('=')
    if (name === SEARCH_COOKIE && state.issuedCookies.has(v)) return v
  }
  return undefined
}

/**
 * The identifiers, refused only where the official client (@bloomreach/discovery-web-sdk) would never
 * send them so: `_br_uid_2` and `url` always come (its types require them); `request_id` (numeric, any
 * length) and `ref_url` are optional; `_br_uid_2` is any value the browser stored, but never one
 * percent-encoded twice (what still holds an escape once decoded here).
 */
function checkIdentifiers(params: URLSearchParams): void {
  const requestId = params.get('request_id')
  if (requestId !== null && requestId !== '' && !/^\d{1,19}$/.test(requestId)) {
    throw new SearchError(400, `Invalid request_id "${requestId}": a number expected`)
  }
  const uid = params.get('_br_uid_2')
  if (uid === null || uid === '') throw new SearchError(400, 'Missing _br_uid_2')
  if (/%[0-9A-Fa-f]{2}/.test(uid)) throw new SearchError(400, 'Invalid _br_uid_2: percent-encoded twice')
  if (params.get('url') === null) throw new SearchError(400, 'Missing url')
}

function integer(params: URLSearchParams, name: string, fallback: number): number {
  const raw = params.get(name)
  if (raw === null || raw === '') return fallback
  if (!/^\d+$/.test(raw)) throw new SearchError(400, `Invalid ${name}: "${raw}" is not a non-negative integer`)
  return Number(raw)
}

/** The service's rewriting: a leading `*` is dropped, `*`, `?` and `~` between terms become spaces. */
export function rewriteQuery(q: string): string {
  if (q === '*' || q === '.') return q
  return q.replace(/[*?~]/g, ' ').replace(/\s+/g, ' ').trim()
}

function searchText(p: CatalogProduct): string {
  const categories = p.categories.flatMap((c) => categoryPath(c).map((a) => a.name))
  return [p.title, p.brand, p.description, ...p.colors, ...categories].join(' ').toLowerCase()
}

/** The fields asked for that a record has; a field it lacks (a product's item_id) is left out, as the service does. */
function project(record: object, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const f of fields) if (Object.hasOwn(record, f)) out[f] = (record as Record<string, unknown>)[f]
  return out
}

/** `brand:"A" OR "B"`, `colors:"red"` (or `color:`): the product has one of the values. */
function valueFilter(fq: string): ((p: CatalogProduct) => boolean) | undefined {
  const m = /^\s*(brand|colors?)\s*:\s*(.+)$/i.exec(fq)
  if (m === null) return undefined
  const wanted = [...(m[2] ?? '').matchAll(/"([^"]*)"|([^\s"]+)/g)].map((v) => (v[1] ?? v[2] ?? '').toLowerCase()).filter((v) => v !== 'or')
  const field = (m[1] ?? '').toLowerCase()
  return (p) => (field === 'brand' ? [p.brand] : p.colors).some((v) => wanted.includes(v.toLowerCase()))
}

/** A bound of a range: a number, `*` (open), either possibly quoted (`"100"`). */
function bound(raw: string, open: number): number | undefined {
  const value = raw.replace(/^"(.*)"$/, '$1')
  if (value === '*') return open
  return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : undefined
}

/** `price:[10 TO 50]` (or sale_price), both ends included, `*` for an open end: what a price slider sends. */
function rangeFilter(fq: string): ((p: CatalogProduct) => boolean) | undefined {
  const m = /^\s*(price|sale_price)\s*:\s*\[\s*(\S+)\s+TO\s+(\S+)\s*\]\s*$/i.exec(fq)
  if (m === null) return undefined
  const field = (m[1] ?? '').toLowerCase() as 'price' | 'sale_price'
  const [low, high] = [bound(m[2] ?? '', -Infinity), bound(m[3] ?? '', Infinity)]
  if (low === undefined || high === undefined) return undefined
  return (p) => p[field] >= low && p[field] <= high
}

/** The `fq` filters it honours: values of brand and colors, ranges of price and sale_price; any other is ignored, as listed in docs/emulator.md. */
function filterBy(params: URLSearchParams): (p: CatalogProduct) => boolean {
  const tests = params
    .getAll('fq')
    .map((fq) => valueFilter(fq) ?? rangeFilter(fq))
    .filter((t) => t !== undefined)
  return (p) => tests.every((t) => t(p))
}

/** `sort=price asc|desc` (or sale_price); anything else keeps the catalogue's order. */
function sortBy(params: URLSearchParams, matches: CatalogProduct[]): CatalogProduct[] {
  const m = /^\s*(price|sale_price)\s+(asc|desc)\s*$/i.exec(params.get('sort') ?? '')
  if (m === null) return matches
  const field = (m[1] ?? 'price').toLowerCase() as 'price' | 'sale_price'
  const sign = (m[2] ?? 'asc').toLowerCase() === 'desc' ? -1 : 1
  return [...matches].sort((a, b) => sign * (a[field] - b[field]))
}

/** `stats.field=price` (or sale_price): `{stats_fields: {price: {min, max}}}` over the matches. */
function statsOf(params: URLSearchParams, matches: CatalogProduct[]): Record<string, unknown> | undefined {
  const fields = params.getAll('stats.field').filter((f): f is 'price' | 'sale_price' => f === 'price' || f === 'sale_price')
  if (fields.length === 0 || matches.length === 0) return undefined
  const stats: Record<string, { min: number; max: number }> = {}
  for (const f of fields) stats[f] = { min: Math.min(...matches.map((p) => p[f])), max: Math.max(...matches.map((p) => p[f])) }
  return { stats_fields: stats }
}

function countBy(values: string[]): Array<{ name: string; count: number }> {
  const counts = new Map<string, number>()
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1)
  return [...counts].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name))
}

const PRICE_BUCKETS: Array<[number, number | '*']> = [
  [0, 50],
  [50, 100],
  [100, 200],
  [200, '*']
]

function categoryValues(matches: CatalogProduct[]): Array<Record<string, unknown>> {
  return CATEGORIES.map((c) => {
    const path = categoryPath(c.id)
    return {
      cat_id: c.id,
      cat_name: c.name,
      count: matches.filter((p) => inCategory(p, c.id)).length,
      crumb: path.map((a) => a.name).join('>'),
      tree_path: `/${path.map((a) => a.id).join('/')}`,
      parent: c.parent
    }
  }).filter((v) => v.count > 0)
}

function priceRanges(matches: CatalogProduct[]): Array<{ start: number | '*'; end: number | '*'; count: number }> {
  return PRICE_BUCKETS.map(([start, end]) => ({
    start,
    end,
    count: matches.filter((p) => p.price >= start && (end === '*' || p.price < end)).length
  })).filter((r) => r.count > 0)
}

function v3Facets(matches: CatalogProduct[]): Record<string, unknown> {
  if (matches.length === 0) return { facets: [] }
  const prices = matches.map((p) => p.sale_price)
  return {
    facets: [
      { name: 'category', type: 'text', value: categoryValues(matches) },
      { name: 'brand', type: 'text', value: countBy(matches.map((p) => p.brand)) },
      { name: 'colors', type: 'text', value: countBy(matches.flatMap((p) => p.colors)) },
      { name: 'price', type: 'number_range', value: priceRanges(matches) },
      { name: 'sale_price', type: 'number_stats', value: { start: Math.min(...prices), end: Math.max(...prices) } }
    ]
  }
}

function legacyFacets(matches: CatalogProduct[]): Record<string, unknown> {
  if (matches.length === 0) return { facet_fields: {}, facet_ranges: {}, facet_queries: {} }
  return {
    facet_fields: {
      category: categoryValues(matches),
      brand: countBy(matches.map((p) => p.brand)),
      colors: countBy(matches.flatMap((p) => p.colors))
    },
    facet_ranges: { price: priceRanges(matches).map(({ start, end, count }) => ({ count, start, end })) },
    facet_queries: {}
  }
}

/** A search the service accepted: q after rewriting, the page, the fields asked for (none: every field), the facet format. */
interface SearchRequest {
  q: string
  type: 'keyword' | 'category' | 'bestseller'
  rows: number
  start: number
  /** The `fl` fields, without repeats; empty when `fl` is absent. */
  fields: string[]
  v3: boolean
  /** A content catalog's search (`catalog_name`), not the product catalog's. */
  content: boolean
}

/**
 * Content search names its catalog (`catalog_name`, the official SDK's contentSearch); the product catalog's
 * name is the domain key (the SDK's docs of `catalog_views`), so that name, or none, searches the products.
 */
function isContentSearch(params: URLSearchParams, settings: SearchSettings): boolean {
  const catalog = params.get('catalog_name') ?? ''
  return catalog !== '' && catalog !== settings.domainKey
}

function validate(ctx: RequestContext, state: SearchState): SearchRequest {
  const { settings } = state
  const bytes = requestBytes(ctx)
  if (bytes > MAX_REQUEST_BYTES) throw new SearchError(414, `Request-URI Too Long: the request is ${bytes} bytes (at most ${MAX_REQUEST_BYTES})`)
  const params = ctx.url.searchParams
  const domainKey = params.get('domain_key')
  if (domainKey === null || domainKey === '') throw new SearchError(400, 'Missing domain_key: every request must carry the domain key')
  const accountId = params.get('account_id') ?? ''
  const authKey = params.get('auth_key') ?? ''
  // The sources disagree (docs/emulator.md): a client-side call sends no key (API reference, the official
  // SDK's README); the error-codes page says 403. Accepting is the default, refusing a mode.
  if (authKey === '' && settings.emptyAuthKey === 'refuse') throw new SearchError(403, 'Access denied: empty auth_key')
  if (authKey === '') {
    if (accountId !== settings.accountId) throw new SearchError(403, `Access denied: unknown account_id "${accountId}"`)
    ctx.record.note = 'a search without auth_key (a client-side call), accepted'
  } else if (accountId !== settings.accountId || authKey !== settings.authKey) {
    // Echoes the key on purpose, as a careless service might: clients must not print error messages unredacted.
    throw new SearchError(403, `Access denied: auth_key "${authKey}" is not valid for account_id "${accountId}"`)
  }
  if (domainKey !== settings.domainKey) throw new SearchError(400, `Invalid domain_key "${domainKey}" for account_id "${accountId}"`)
  checkIdentifiers(params)
  if (params.get('request_type') !== 'search') throw new SearchError(400, 'Invalid or empty request_type')
  const type = params.get('search_type')
  if (type !== 'keyword' && type !== 'category' && type !== 'bestseller') throw new SearchError(400, 'Invalid or empty search_type')
  const raw = (params.get('q') ?? (type === 'bestseller' ? '*' : '')).trim()
  if (raw === '') throw new SearchError(400, 'Missing or empty q')
  if (raw === '?' || raw === '~') throw new SearchError(400, `q "${raw}" is not allowed`)
  if ([...raw].length > MAX_Q_CHARS) throw new SearchError(400, `q is longer than ${MAX_Q_CHARS} characters`)
  const q = rewriteQuery(raw)
  if (q === '') throw new SearchError(400, 'Missing or empty q')
  if (q.split(' ').length > MAX_Q_WORDS) throw new SearchError(400, `q has more than ${MAX_Q_WORDS} words`)
  if (type === 'category' && [...raw].some((ch) => (ch.codePointAt(0) ?? 0) > 0x7f && /\p{L}/u.test(ch))) {
    throw new SearchError(400, 'Unsupported non-ASCII letter in the category id')
  }
  const rows = integer(params, 'rows', 10)
  const start = integer(params, 'start', 0)
  if (rows > MAX_ROWS || start > MAX_START) {
    throw new SearchError(400, `Pagination limit exceeded: requested start ${start}, rows ${rows}. Max start ${MAX_START}, rows ${MAX_ROWS}`)
  }
  // fl is not limited to product fields (content search asks for item_id): a field a record lacks is left out.
  const fl = (params.get('fl') ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '')
  const v3 = params.get('facet.version') === '3.0' || settings.facetFormat === 'v3'
  return { q, type, rows, start, fields: [...new Set(fl)], v3, content: isContentSearch(params, settings) }
}

/** What a search found and the answer's body; `marks` name what in it no public source shows. */
interface SearchAnswer {
  numFound: number
  body: Record<string, unknown>
  marks: string[]
}

function productMatches({ q, type }: SearchRequest): CatalogProduct[] {
  if (type === 'category') return categoryById(q) ? PRODUCTS.filter((p) => inCategory(p, q)) : []
  if (q === '*' || q === '.' || type === 'bestseller') return [...PRODUCTS]
  const terms = q.toLowerCase().split(' ')
  return PRODUCTS.filter((p) => {
    const text = searchText(p)
    return terms.every((t) => text.includes(t))
  })
}

function productAnswer(params: URLSearchParams, request: SearchRequest): SearchAnswer {
  const { q, type, rows, start, v3 } = request
  const fields = request.fields.length > 0 ? request.fields : [...REQUESTABLE_FIELDS]
  const redirect = type === 'keyword' ? KEYWORD_REDIRECTS[q.toLowerCase()] : undefined
  const matches = redirect === undefined ? sortBy(params, productMatches(request).filter(filterBy(params))) : []
  const body: Record<string, unknown> = {
    response: { numFound: matches.length, start, docs: matches.slice(start, start + rows).map((p) => project(p, fields)) },
    facet_counts: v3 ? v3Facets(matches) : legacyFacets(matches),
    category_map: Object.fromEntries(CATEGORIES.filter((c) => matches.some((p) => inCategory(p, c.id))).map((c) => [c.id, c.name])),
    did_you_mean: []
  }
  const stats = statsOf(params, matches)
  if (stats !== undefined) body.stats = stats
  if (redirect !== undefined) body.keywordRedirect = { 'original query': q, 'redirected query': q, 'redirected url': redirect }
  return { numFound: matches.length, body, marks: [] }
}

function contentMatches({ q, type }: SearchRequest): ContentItem[] {
  if (q === '*' || q === '.' || type === 'bestseller') return [...CONTENT_ITEMS]
  const terms = q.toLowerCase().split(' ')
  return CONTENT_ITEMS.filter((item) => terms.every((t) => `${item.title} ${item.description}`.toLowerCase().includes(t)))
}

/**
 * Content search: records carry `item_id` when `fl` asks for it (the SDK's default fl). Any other field of
 * a content record, and every field when `fl` is absent, is the emulator's own (`content-fields`). Its
 * filters, sorts, stats and facets are not public: fq, sort and stats.field are ignored, the facets empty.
 */
function contentAnswer(request: SearchRequest): SearchAnswer {
  const { rows, start, v3 } = request
  const matches = contentMatches(request)
  const fields = request.fields.length > 0 ? request.fields : ['item_id', 'title', 'description', 'url']
  const docs = matches.slice(start, start + rows).map((item) => project(item, fields))
  const body: Record<string, unknown> = {
    response: { numFound: matches.length, start, docs },
    facet_counts: v3 ? v3Facets([]) : legacyFacets([]),
    category_map: {},
    did_you_mean: []
  }
  const ownFields = docs.some((doc) => Object.keys(doc).some((f) => f !== 'item_id'))
  return { numFound: matches.length, body, marks: ownFields ? ['content-fields'] : [] }
}

export function searchApi(state: SearchState): ApiModule {
  return {
    name: 'search-api',
    routes: [
      {
        method: 'GET',
        path: '/api/v1/core/',
        operation: 'search',
        summary:
          "Product (search_type=keyword), category (search_type=category) or bestseller search, or a content catalog's (catalog_name, records with item_id); errors are {status_code, message}",
        handler: async (ctx) => {
          const socket = ctx.req.socket
          const presented = presentedCookie(ctx, state)
          ctx.record.search = { cookiePresented: presented !== undefined }
          if (state.settings.delayMs > 0) {
            await sleep(state.settings.delayMs, undefined, { ref: false })
            if (socket.destroyed) return
          }
          let request
          try {
            request = validate(ctx, state)
          } catch (err) {
            if (!(err instanceof SearchError)) throw err
            ctx.send(err.status, { status_code: err.status, message: err.detail })
            return
          }
          ctx.record.search.q = request.q
          const answer = request.content ? contentAnswer(request) : productAnswer(ctx.url.searchParams, request)
          ctx.record.search.numFound = answer.numFound
          ctx.invent(...answer.marks)
          const cookie = presented ?? randomBytes(12).toString('hex')
          state.issuedCookies.add(cookie)
          // The cookie's name and attributes are not public (the specification says only that there is one).
          ctx.invent(`cookie-${SEARCH_COOKIE}`)
          ctx.send(200, answer.body, {
            'set-cookie': `${SEARCH_COOKIE}=${cookie}; Path=/; Max-Age=1800; HttpOnly`,
            'cache-control': 'no-store'
          })
        }
      }
    ]
  }
}
