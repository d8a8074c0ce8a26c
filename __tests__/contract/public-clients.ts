// The contract with the real services, as data: every call a public client makes, the way it makes it
// (method, path, headers or their absence, body, query string), and the fields of the answer it reads.
// Each case names the public source it comes from, in our own words; nothing here is copied from those
// clients. The shared facts file lists the same calls: when it gains a line, this file gains a case.
// __tests__/contract.test.ts makes each call against the emulator.

/** Values a case may use, filled in by the runner as the sequence goes: {accessToken}, {distributionId}, ... */
export type Slot = 'accessToken' | 'refreshToken' | 'distributionId' | 'spareDistributionId' | 'environmentId' | 'downloadToken'

export interface ContractCase {
  readonly id: string
  /** Where the call and what is read of its answer were seen. */
  readonly source: string
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** Path and query, with {slot} placeholders. */
  readonly path: string
  /** 'bearer': Authorization: Bearer {accessToken}. */
  readonly auth?: 'bearer'
  /** A JSON body: sent with Content-Type application/json, or, with `bareJson`, as text with no Content-Type at all. */
  readonly json?: unknown
  readonly bareJson?: boolean
  /** A multipart upload with the part `dist_file`. */
  readonly upload?: boolean
  /** Statuses the client accepts. */
  readonly status: readonly number[]
  /** Dot paths of the answer the client reads ("items.0.id"); `[]` for an array answer's first item. */
  readonly reads?: readonly string[]
  /** Slots this answer fills: slot -> dot path. */
  readonly captures?: Partial<Record<Slot, string>>
}

const HEE_UPLOAD = 'Health-Education-England upload action (runs against the real service on every push of its project)'
const HEE_DEPLOY = 'Health-Education-England deploy action (production pipelines)'
const HEE_CLEANUP = 'Health-Education-England cleanup action (deletes old distributions when the stack is full)'
const PY_BACKUP = 'a public Python backup script for Bloomreach Cloud'
const FACTS = 'the public API reference, as summarised in the shared facts file'

/** The management API, in the order a deploy pipeline makes its calls. */
export const CLOUD_CASES: readonly ContractCase[] = [
  {
    id: 'login without a Content-Type',
    source: `${PY_BACKUP}: posts the JSON text with no Content-Type header and gets past authentication`,
    method: 'POST',
    path: '/v3/authn/access_token',
    json: { username: '{username}', password: '{password}' },
    bareJson: true,
    status: [200],
    reads: ['access_token', 'refresh_token', 'token_type']
  },
  {
    id: 'login',
    source: `${HEE_UPLOAD}: JSON body with Content-Type application/json`,
    method: 'POST',
    path: '/v3/authn/access_token',
    json: { username: '{username}', password: '{password}' },
    status: [200],
    reads: ['access_token', 'refresh_token'],
    captures: { accessToken: 'access_token', refreshToken: 'refresh_token' }
  },
  {
    id: 'refresh without a Content-Type',
    source: `${PY_BACKUP}: grant_type and refresh_token as JSON text, no Content-Type; the answer holds no new refresh token`,
    method: 'POST',
    path: '/v3/authn/refresh_token',
    json: { grant_type: 'refresh_token', refresh_token: '{refreshToken}' },
    bareJson: true,
    status: [200],
    reads: ['access_token', 'token_type']
  },
  { id: 'verify a token', source: FACTS, method: 'GET', path: '/v3/authn/verify_token', auth: 'bearer', status: [200] },
  {
    id: 'upload a distribution',
    source: `${HEE_UPLOAD}: multipart part dist_file; reads the record's id; any 2xx`,
    method: 'POST',
    path: '/v3/distributions',
    auth: 'bearer',
    upload: true,
    status: [200, 201],
    reads: ['id'],
    captures: { distributionId: 'id' }
  },
  {
    id: 'upload a second one (to delete later)',
    source: HEE_UPLOAD,
    method: 'POST',
    path: '/v3/distributions',
    auth: 'bearer',
    upload: true,
    status: [200, 201],
    reads: ['id'],
    captures: { spareDistributionId: 'id' }
  },
  {
    id: 'list distributions, default page',
    source: `${HEE_CLEANUP}: reads count and compares it with 100 on the default page; the API reference's example answers "max": 100`,
    method: 'GET',
    path: '/v3/distributions',
    auth: 'bearer',
    status: [200],
    reads: ['offset', 'max', 'count', 'more', 'total', 'items.0.id', 'items.0.name', 'items.0.createdAt', 'items.0.md5hash']
  },
  { id: 'get a distribution', source: FACTS, method: 'GET', path: '/v3/distributions/{distributionId}', auth: 'bearer', status: [200], reads: ['id', 'name'] },
  {
    id: 'list environments',
    source: `${FACTS}; paging beyond the first page is not documented`,
    method: 'GET',
    path: '/v3/environments',
    auth: 'bearer',
    status: [200],
    reads: ['items.0.id', 'items.0.name', 'items.0.distributionId', 'more', 'total', 'count']
  },
  {
    id: 'an environment by name',
    source: `${HEE_DEPLOY}: answers the environment itself; reads response.id`,
    method: 'GET',
    path: '/v3/environments?name=development',
    auth: 'bearer',
    status: [200],
    reads: ['id'],
    captures: { environmentId: 'id' }
  },
  {
    id: 'application configuration files',
    source: FACTS,
    method: 'GET',
    path: '/v3/appconfigfiles',
    auth: 'bearer',
    status: [200],
    reads: ['[].id', '[].name']
  },
  {
    id: 'deploy',
    source: `${HEE_DEPLOY}: PUT with distributionId and strategy "stopstart"; the answer body is not read (any 2xx)`,
    method: 'PUT',
    path: '/v3/environments/{environmentId}/deploy',
    auth: 'bearer',
    json: { distributionId: '{distributionId}', strategy: 'stopstart' },
    status: [200, 201, 202, 204]
  },
  {
    id: 'a download token',
    source: `${PY_BACKUP}: asks for a token, then downloads with it`,
    method: 'POST',
    path: '/v3/distributions/{distributionId}/download-token',
    auth: 'bearer',
    status: [200],
    reads: ['token'],
    captures: { downloadToken: 'token' }
  },
  { id: 'download with the token', source: PY_BACKUP, method: 'GET', path: '/v3/distributions/download/{downloadToken}', status: [200] },
  {
    id: 'delete a distribution',
    source: `${HEE_CLEANUP}: deletes one no environment runs`,
    method: 'DELETE',
    path: '/v3/distributions/{spareDistributionId}',
    auth: 'bearer',
    status: [200, 204]
  },
  {
    id: 'revoke the refresh token',
    source: `${FACTS}: DELETE with the refresh body revokes that token`,
    method: 'DELETE',
    path: '/v3/authn/refresh_token',
    json: { grant_type: 'refresh_token', refresh_token: '{refreshToken}' },
    status: [200, 204]
  },
  {
    id: 'a revoked refresh token is refused',
    source: FACTS,
    method: 'POST',
    path: '/v3/authn/refresh_token',
    json: { grant_type: 'refresh_token', refresh_token: '{refreshToken}' },
    status: [401],
    reads: ['error_code', 'error_detail']
  },
  { id: 'logout', source: `${FACTS}: ends every access token of the user`, method: 'POST', path: '/v3/authn/logout', auth: 'bearer', status: [200, 204] },
  { id: 'after logout, the token is refused', source: FACTS, method: 'GET', path: '/v3/authn/verify_token', auth: 'bearer', status: [401] }
]

/** Calls the public sources show that the emulator does not stand in for, and why. */
export const NOT_EMULATED: ReadonlyArray<{ call: string; why: string }> = [
  { call: 'GET /v3/backups', why: 'called by a public backup tool, but the fields of its answer are not shown anywhere public' },
  { call: 'PUT /v3/environments (mark as Acceptance, set production)', why: 'the request bodies are not public' },
  { call: 'adding users', why: 'the operation is not documented anywhere public' }
]

/**
 * The search API as Bloomreach's own client (@bloomreach/discovery-web-sdk 2.0.1) calls it: the query
 * parameters it sends for each function, with its defaults (fl, start 0, facet.version 3.0), and what
 * its types read of the answer. It never sends request_id or ref_url unless given, and passes
 * _br_uid_2 exactly as the browser stores the cookie (percent-encoded once, or as written).
 */
export interface SearchCase {
  readonly id: string
  readonly source: string
  /** The parameters, as the client puts them in the query string (repeatable ones as arrays). */
  readonly query: Readonly<Record<string, string | readonly string[]>>
  readonly status: number
  readonly reads: readonly string[]
}

const SDK = '@bloomreach/discovery-web-sdk 2.0.1'
/** What every call of the SDK carries from its configuration (account_id is a number in its types). */
export const SDK_CONFIGURATION = { account_id: '6001', domain_key: 'emulator_domain', auth_key: 'emulator-auth-key' } as const

export const SEARCH_CASES: readonly SearchCase[] = [
  {
    id: 'product search, the README example',
    source: `${SDK}: productSearch with q, rows, start, url, ref_url, request_id and a browser cookie _br_uid_2`,
    query: {
      q: 'shirt',
      fl: 'pid,title,price',
      start: '0',
      'facet.version': '3.0',
      rows: '10',
      url: 'https://www.example.com/search?q=shirt',
      ref_url: 'https://www.example.com/',
      request_id: '1234',
      _br_uid_2: 'uid%3D7797686432023%3Av%3D11.5%3Ats%3D1428617911187%3Ahc%3D55',
      request_type: 'search',
      search_type: 'keyword'
    },
    status: 200,
    reads: ['response.numFound', 'response.start', 'response.docs.0.pid', 'facet_counts.facets.0.name']
  },
  {
    id: 'product search, defaults only',
    source: `${SDK}: productSearch with only what its types require (no request_id, no ref_url, no rows)`,
    query: {
      q: 'shirt',
      fl: 'pid',
      start: '0',
      'facet.version': '3.0',
      url: 'https://www.example.com/',
      _br_uid_2: 'uid=7797686432023:v=11.5:ts=1428617911187:hc=55',
      request_type: 'search',
      search_type: 'keyword'
    },
    status: 200,
    reads: ['response.numFound', 'response.docs.0.pid']
  },
  {
    id: 'category search',
    source: `${SDK}: categorySearch`,
    query: {
      q: 'shirts',
      fl: 'pid',
      start: '0',
      'facet.version': '3.0',
      url: 'https://www.example.com/shirts',
      _br_uid_2: 'visitor',
      request_type: 'search',
      search_type: 'category'
    },
    status: 200,
    reads: ['response.numFound', 'facet_counts.facets.0.value.0.cat_id']
  },
  {
    id: 'bestseller',
    source: `${SDK}: bestseller, search_type bestseller on the same endpoint`,
    query: {
      q: 'shirt',
      fl: 'pid',
      start: '0',
      'facet.version': '3.0',
      url: 'https://www.example.com/',
      _br_uid_2: 'visitor',
      request_type: 'search',
      search_type: 'bestseller'
    },
    status: 200,
    reads: ['response.numFound', 'response.docs.0.pid']
  },
  {
    id: 'content search',
    source: `${SDK}: contentSearch with catalog_name and fl=item_id (not a product field)`,
    query: {
      q: 'shirt',
      fl: 'item_id',
      start: '0',
      'facet.version': '3.0',
      catalog_name: 'content_en',
      url: 'https://www.example.com/',
      _br_uid_2: 'visitor',
      request_type: 'search',
      search_type: 'keyword'
    },
    status: 200,
    reads: ['response.numFound']
  },
  {
    id: 'filters, sort and stats',
    source: `${SDK}: fq and efq (repeatable), sort, stats.field, facet.range in its request types; stats.stats_fields.price.{min,max} in its answer types`,
    query: {
      q: '*',
      fl: 'pid,brand,price',
      start: '0',
      'facet.version': '3.0',
      url: 'https://www.example.com/',
      _br_uid_2: 'visitor',
      request_type: 'search',
      search_type: 'keyword',
      fq: ['colors:"red" OR "blue"'],
      efq: ['price:[0 TO 1000]'],
      sort: 'price asc',
      'stats.field': 'price',
      'facet.range': 'price'
    },
    status: 200,
    reads: ['response.numFound', 'stats.stats_fields.price.min', 'stats.stats_fields.price.max']
  }
]
