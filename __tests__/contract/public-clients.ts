// The contract with the real services, as data: every call a public client makes, the way it makes it
// (method, path, headers or their absence, body, query string), and the fields of the answer it reads.
// Each case names the public source it comes from, in our own words; nothing here is copied from those
// clients. The shared facts file lists the same calls: when it gains a line, this file gains a case.
// __tests__/contract.test.ts makes each call against the emulator.

/** Values a case may use, filled in by the runner as the sequence goes: {accessToken}, {distributionId}, ... */
export type Slot =
  'accessToken' | 'refreshToken' | 'distributionId' | 'spareDistributionId' | 'environmentId' | 'downloadToken' | 'appConfigFileId' | 'backupId' | 'backupUrl'

export interface ContractCase {
  readonly id: string
  /** Where the call and what is read of its answer were seen. */
  readonly source: string
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** Path and query, with {slot} placeholders (or a whole URL the service gave, such as {backupUrl}). */
  readonly path: string
  /** 'bearer': Authorization: Bearer {accessToken}. */
  readonly auth?: 'bearer'
  /** A JSON body: sent with Content-Type application/json, or, with `bareJson`, as text with no Content-Type at all. */
  readonly json?: unknown
  readonly bareJson?: boolean
  /** A multipart upload with the part `dist_file`; 'chunked' streams it with Transfer-Encoding: chunked and no Content-Length. */
  readonly upload?: boolean | 'chunked'
  /** A bearer header that is not a valid token (a client checking an old one). */
  readonly badToken?: boolean
  /** Headers the client sends besides Accept and Authorization, such as a default Content-Type on a call without a body. */
  readonly headers?: Readonly<Record<string, string>>
  /** Statuses the client accepts. */
  readonly status: readonly number[]
  /** Dot paths of the answer the client reads ("items.0.id"); `[]` for an array answer's first item. */
  readonly reads?: readonly string[]
  /** Slots this answer fills: slot -> dot path. */
  readonly captures?: Partial<Record<Slot, string>>
  /**
   * What the answer marks as the emulator's own (X-Emulator-Invented), exactly: the parts of it its
   * source does not show. Absent: nothing is marked, the answer is the one its source shows.
   */
  readonly invented?: readonly string[]
}

const HEE_UPLOAD = 'Health-Education-England upload action (runs against the real service on every push of its project)'
const HEE_DEPLOY = 'Health-Education-England deploy action (production pipelines)'
const HEE_CLEANUP = 'Health-Education-England cleanup action (deletes old distributions when the stack is full)'
const PY_BACKUP = 'a public Python backup script for Bloomreach Cloud'
const FACTS = 'the public API reference, as summarised in the shared facts file'
const SPEC = 'the cloud deployment API specification (cloud-deployment-api.seed.md)'
/** The scripts that came before the actions (2020): axios 0.19 sends JSON bodies as application/json and a form-data stream chunked. */
const HEE_POC = "Health-Education-England's proof-of-concept deploy scripts (axios 0.19)"
const JENKINSFILE = "visitscotland's Jenkinsfile (curl calls against the real service)"
const BACKUP_TOOL = 'cloneRemote2Local, a public backup tool: lists backups, reads id, environmentId and createdAt of each item of the array, then the link'
const ENVIRONMENT_FIELDS = ['field-status', 'field-strategy', 'field-deployedAt']
/** The cleanup action's client sets this default on every call, with a body or without (axios keeps it on a DELETE). */
const CLEANUP_HEADERS = { 'content-type': 'application/json' } as const

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
  {
    id: 'refresh with Content-Type application/json',
    source: `${HEE_POC}: refreshes when verify_token refuses the token, with a JSON body sent as application/json; reads access_token`,
    method: 'POST',
    path: '/v3/authn/refresh_token',
    json: { grant_type: 'refresh_token', refresh_token: '{refreshToken}' },
    status: [200],
    reads: ['access_token']
  },
  {
    id: 'verify a token',
    source: `${FACTS}: 200 with the headers X-User-Id and X-User-Role (no body shown; the role's values are not public)`,
    method: 'GET',
    path: '/v3/authn/verify_token',
    auth: 'bearer',
    status: [200],
    invented: ['verify-body', 'user-role-value']
  },
  {
    id: 'verify a bad token',
    source: `${JENKINSFILE}: checks a token with verify_token and reads the answer's body; ${FACTS}: 401 with {error_code, error_detail}`,
    method: 'GET',
    path: '/v3/authn/verify_token',
    auth: 'bearer',
    badToken: true,
    status: [401],
    reads: ['error_code', 'error_detail'],
    invented: ['error-code']
  },
  {
    id: 'a trailing slash is refused',
    source: `${SPEC}: "A path must not end with a slash. A trailing slash makes the call fail" (status and body not shown)`,
    method: 'GET',
    path: '/v3/distributions/',
    auth: 'bearer',
    status: [400, 404],
    reads: ['error_code', 'error_detail'],
    invented: ['status-404', 'error-code']
  },
  {
    id: 'a trailing slash on the login is refused',
    source: SPEC,
    method: 'POST',
    path: '/v3/authn/access_token/',
    json: { username: '{username}', password: '{password}' },
    status: [400, 404],
    invented: ['status-404', 'error-code']
  },
  {
    id: 'an upload to /v3/distributions/ is refused',
    source: `${HEE_POC} post the upload to /v3/distributions/ (chunked), and so did the upload action's first version (January 2021), which dropped the slash the next day; ${SPEC}`,
    method: 'POST',
    path: '/v3/distributions/',
    auth: 'bearer',
    upload: 'chunked',
    status: [400, 404],
    reads: ['error_code', 'error_detail'],
    invented: ['status-404', 'error-code']
  },
  {
    id: 'listing environments at /v3/environments/ is refused',
    source: `${SPEC}; the slash a client adds when it joins its base address and a path (no public client was found sending this one)`,
    method: 'GET',
    path: '/v3/environments/',
    auth: 'bearer',
    status: [400, 404],
    reads: ['error_code', 'error_detail'],
    invented: ['status-404', 'error-code']
  },
  {
    id: 'upload a distribution',
    source: `${HEE_UPLOAD}: multipart part dist_file; reads the record's id; any 2xx`,
    method: 'POST',
    path: '/v3/distributions',
    auth: 'bearer',
    upload: true,
    status: [200, 201],
    reads: ['id'],
    captures: { distributionId: 'id' },
    invented: ['status-201', 'location-header']
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
    captures: { spareDistributionId: 'id' },
    invented: ['status-201', 'location-header']
  },
  {
    id: 'an upload to a full stack is refused',
    source: `${HEE_CLEANUP}: exists because a stack holds at most 100 distributions (${FACTS}); the refusal's status and code are not public`,
    method: 'POST',
    path: '/v3/distributions',
    auth: 'bearer',
    upload: true,
    status: [400, 403, 409, 413, 422, 507],
    reads: ['error_code', 'error_detail'],
    invented: ['status-409', 'error-code']
  },
  {
    id: 'list distributions, default page',
    source: `${HEE_CLEANUP}: reads count and compares it with 100 on the default page; the API reference's example answers "max": 100`,
    method: 'GET',
    path: '/v3/distributions',
    auth: 'bearer',
    headers: CLEANUP_HEADERS,
    status: [200],
    reads: ['offset', 'max', 'count', 'more', 'total', 'items.0.id', 'items.0.name', 'items.0.createdAt', 'items.0.md5hash']
  },
  { id: 'get a distribution', source: FACTS, method: 'GET', path: '/v3/distributions/{distributionId}', auth: 'bearer', status: [200], reads: ['id', 'name'] },
  {
    id: 'list environments',
    source: `${FACTS}: {items: [{id, name, distributionId, …}], more, total, count}; paging beyond the first page is not documented`,
    method: 'GET',
    path: '/v3/environments',
    auth: 'bearer',
    status: [200],
    reads: ['items.0.id', 'items.0.name', 'items.0.distributionId', 'more', 'total', 'count'],
    invented: ['field-offset', 'field-max', ...ENVIRONMENT_FIELDS]
  },
  {
    id: 'an environment by name',
    source: `${HEE_DEPLOY}: answers the environment itself; reads response.id`,
    method: 'GET',
    path: '/v3/environments?name=development',
    auth: 'bearer',
    status: [200],
    reads: ['id'],
    captures: { environmentId: 'id' },
    invented: ENVIRONMENT_FIELDS
  },
  {
    id: 'an environment by an unknown name',
    source: `${HEE_DEPLOY}: guards against a 2xx answer without an id; what the service answers is not shown`,
    method: 'GET',
    path: '/v3/environments?name=no-such-environment',
    auth: 'bearer',
    status: [200, 404],
    invented: ['status-404', 'error-code']
  },
  {
    id: 'application configuration files',
    source: FACTS,
    method: 'GET',
    path: '/v3/appconfigfiles',
    auth: 'bearer',
    status: [200],
    reads: ['[].id', '[].name'],
    captures: { appConfigFileId: '[].id' }
  },
  {
    id: 'deploy',
    source: `${FACTS}: PUT with distributionId and strategy "stopstart" (appConfigFileRoles optional); the answer body is not documented (any 2xx)`,
    method: 'PUT',
    path: '/v3/environments/{environmentId}/deploy',
    auth: 'bearer',
    json: { distributionId: '{distributionId}', strategy: 'stopstart' },
    status: [200, 201, 202, 204],
    invented: ['status-202', 'deploy-body']
  },
  {
    id: 'deploy with appConfigFileRoles empty',
    source: `${HEE_DEPLOY}: always sends appConfigFileRoles, an empty array when no file is named; reads nothing of the answer`,
    method: 'PUT',
    path: '/v3/environments/{environmentId}/deploy',
    auth: 'bearer',
    json: { distributionId: '{distributionId}', strategy: 'stopstart', appConfigFileRoles: [] },
    status: [200, 201, 202, 204],
    invented: ['status-202', 'deploy-body']
  },
  {
    id: 'deploy with appConfigFileRoles entries',
    source: `${HEE_DEPLOY}: maps the file names it is given to ids from GET /v3/appconfigfiles, each with the role "systemproperty"`,
    method: 'PUT',
    path: '/v3/environments/{environmentId}/deploy',
    auth: 'bearer',
    json: { distributionId: '{distributionId}', strategy: 'stopstart', appConfigFileRoles: [{ appConfigFileId: '{appConfigFileId}', role: 'systemproperty' }] },
    status: [200, 201, 202, 204],
    invented: ['status-202', 'deploy-body']
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
    id: 'list backups',
    source: `${BACKUP_TOOL}; ${FACTS}: {id, environmentId, createdAt} items`,
    method: 'GET',
    path: '/v3/backups',
    auth: 'bearer',
    status: [200],
    reads: ['[].id', '[].environmentId', '[].createdAt'],
    captures: { backupId: '[].id' }
  },
  {
    id: 'the backup download link',
    source: `${BACKUP_TOOL}; ${FACTS}: 202 {url}, valid 15 minutes`,
    method: 'GET',
    path: '/v3/backups/{backupId}/repositorydownloadlink',
    auth: 'bearer',
    status: [202],
    reads: ['url'],
    captures: { backupUrl: 'url' },
    invented: ['download-url']
  },
  {
    id: 'download the backup from the link',
    source: `${BACKUP_TOOL}: streams the URL with no authorization (a signed link on the real service)`,
    method: 'GET',
    path: '{backupUrl}',
    status: [200],
    invented: ['backup-file']
  },
  {
    id: 'delete a deployed distribution is refused',
    source: `${HEE_CLEANUP}: deletes old distributions and must not take a running one; what the service answers is not public`,
    method: 'DELETE',
    path: '/v3/distributions/{distributionId}',
    auth: 'bearer',
    headers: CLEANUP_HEADERS,
    status: [400, 409, 423],
    reads: ['error_code', 'error_detail'],
    invented: ['status-409', 'error-code']
  },
  {
    id: 'delete a distribution, with a Content-Type and no body',
    source: `${HEE_CLEANUP}: deletes one no environment runs; its client's default Content-Type: application/json goes along, with no body and no Content-Length`,
    method: 'DELETE',
    path: '/v3/distributions/{spareDistributionId}',
    auth: 'bearer',
    headers: CLEANUP_HEADERS,
    status: [200, 204],
    invented: ['status-204']
  },
  {
    id: 'a chunked multipart upload',
    source: `${HEE_POC}: the form is a form-data stream, which axios 0.x sends with Transfer-Encoding: chunked and no Content-Length; reads the record's id. The upload action did the same (axios 0.21 to 0.26) until its 2024 upgrade; since then its axios measures the form and sends a Content-Length`,
    method: 'POST',
    path: '/v3/distributions',
    auth: 'bearer',
    upload: 'chunked',
    status: [200, 201],
    reads: ['id'],
    invented: ['status-201', 'location-header']
  },
  {
    id: 'revoke the refresh token',
    source: `${FACTS}: DELETE with the refresh body revokes that token; the API reference shows 200`,
    method: 'DELETE',
    path: '/v3/authn/refresh_token',
    json: { grant_type: 'refresh_token', refresh_token: '{refreshToken}' },
    status: [200]
  },
  {
    id: 'a revoked refresh token is refused',
    source: FACTS,
    method: 'POST',
    path: '/v3/authn/refresh_token',
    json: { grant_type: 'refresh_token', refresh_token: '{refreshToken}' },
    status: [401],
    reads: ['error_code', 'error_detail'],
    invented: ['error-code']
  },
  {
    id: 'logout',
    source: `${FACTS}: ends every access token of the user; the API reference shows 200`,
    method: 'POST',
    path: '/v3/authn/logout',
    auth: 'bearer',
    status: [200]
  },
  {
    id: 'after logout, the token is refused',
    source: FACTS,
    method: 'GET',
    path: '/v3/authn/verify_token',
    auth: 'bearer',
    status: [401],
    invented: ['error-code']
  },
  {
    id: 'marking an environment (PUT on environments) is not emulated',
    source: `${FACTS}: an environment is marked as Acceptance with a PUT on environments; its body is not public`,
    method: 'PUT',
    path: '/v3/environments/{environmentId}',
    auth: 'bearer',
    json: {},
    status: [501],
    reads: ['error_code', 'error_detail'],
    invented: ['not-emulated']
  }
]

/**
 * A cleanup on a full stack, as the cleanup action runs it: one look at the default page; when its count
 * reaches maxDistributions (100 by default), the items sorted by createdAt and the oldest deleteCount deleted,
 * one DELETE each (the action's distributionsDeleteCount defaults to 1; here 5, as a user may set it).
 */
export const FULL_STACK_CLEANUP = {
  source: `${HEE_CLEANUP}: GET /v3/distributions once, count compared with maxDistributions, the oldest by createdAt deleted one by one`,
  maxDistributions: 100,
  deleteCount: 5,
  headers: CLEANUP_HEADERS
} as const

/** Calls the public sources show that the emulator does not stand in for, and why. */
export const NOT_EMULATED: ReadonlyArray<{ call: string; why: string }> = [
  { call: 'PUT /v3/environments/{id} (mark as Acceptance, set production)', why: 'the request bodies are not public: answered 501 NotEmulated' },
  { call: 'GET /api/v2/suggest/ (autosuggest), GET /api/v2/widgets/{type}/{id}', why: 'other APIs on other hosts: answered 501 NotEmulated' },
  {
    call: "OPTIONS /api/v1/core/ (a browser's CORS preflight, which the search widget's Content-Type on a GET causes), CORS headers on search answers",
    why: 'which origins, methods and headers the service allows is not public: the preflight is answered 501 NotEmulated, and no answer carries Access-Control-Allow-Origin, so a browser page on another origin cannot read the emulator'
  },
  {
    call: "the Bloomreach SPA SDK's Page Model API calls (@bloomreach/spa-sdk: GET of the endpoint it is given plus the page's path, e.g. /site/resourceapi/..., with Accept-Version, Authorization: Bearer for a preview, Server-Id and X-Forwarded-For)",
    why: "the Page Model API is served by the deployed brXM application itself, not by the cloud API or the search API; the emulator's /sites/ serve the distribution's files, not brXM"
  },
  { call: 'creating a backup', why: 'it has its own endpoint, not shown publicly' },
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
  /** Default the search path, /api/v1/core/. */
  readonly path?: string
  /** The configuration without auth_key, as the SDK's README sets it up (a client-side call). */
  readonly withoutAuthKey?: boolean
  /** The parameters, as the client puts them in the query string (repeatable ones as arrays). */
  readonly query: Readonly<Record<string, string | readonly string[]>>
  readonly status: number
  readonly reads: readonly string[]
  /** What the answer marks as the emulator's own (X-Emulator-Invented), exactly. */
  readonly invented?: readonly string[]
  /** Headers the client sends besides Accept. */
  readonly headers?: Readonly<Record<string, string>>
}

/** The search service sets a cookie (specification); its name and attributes are not public. */
const COOKIE = ['cookie-br_emulator_session']

const SDK = '@bloomreach/discovery-web-sdk 2.0.1'
/** Bloomreach's search widget for shops without their own front end (its connector apps build on it). */
const WIDGET = "the search module of Bloomreach's discovery-connector-sdk (vanilla-js, with its api-client)"
/** The fields the widget asks for when it is given none: product fields, variant fields, and some no catalog here has. */
const WIDGET_FIELDS = ['pid', 'title', 'brand', 'price', 'sale_price', 'thumb_image', 'sku_thumb_images', 'sku_swatch_images', 'sku_color_group', 'url']
  .concat(['price_range', 'sale_price_range', 'description', 'is_live', 'score', 'skuid', 'group'])
  .join(',')
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
    reads: ['response.numFound', 'response.start', 'response.docs.0.pid', 'facet_counts.facets.0.name'],
    invented: COOKIE
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
    reads: ['response.numFound', 'response.docs.0.pid'],
    invented: COOKIE
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
    reads: ['response.numFound', 'facet_counts.facets.0.value.0.cat_id'],
    invented: COOKIE
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
    reads: ['response.numFound', 'response.docs.0.pid'],
    invented: COOKIE
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
    reads: ['response.numFound', 'response.docs.0.item_id'],
    invented: COOKIE
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
    reads: ['response.numFound', 'stats.stats_fields.price.min', 'stats.stats_fields.price.max'],
    invented: COOKIE
  },
  {
    id: 'a call without auth_key',
    source: `${SDK}: its README's configuration sets only account_id and domain_key (auth_key is optional in its types); the API reference: client-side calls send it empty`,
    withoutAuthKey: true,
    query: {
      q: 'shirt',
      fl: 'pid',
      start: '0',
      'facet.version': '3.0',
      url: 'https://www.example.com/',
      _br_uid_2: 'someCookieId',
      request_type: 'search',
      search_type: 'keyword'
    },
    status: 200,
    reads: ['response.numFound', 'response.docs.0.pid'],
    invented: COOKIE
  },
  {
    id: 'category search with fq, sort and a repeated stats.field',
    source: `${SDK}: categorySearch takes the same fq (repeatable), sort and stats.field (repeatable) as productSearch`,
    query: {
      q: 'shirts',
      fl: 'pid,price,sale_price',
      start: '0',
      'facet.version': '3.0',
      url: 'https://www.example.com/shirts',
      _br_uid_2: 'visitor',
      request_type: 'search',
      search_type: 'category',
      fq: ['colors:"white" OR "red"', 'brand:"Northwind" OR "Courtside"'],
      sort: 'sale_price desc',
      'stats.field': ['price', 'sale_price']
    },
    status: 200,
    reads: ['response.numFound', 'stats.stats_fields.price.min', 'stats.stats_fields.sale_price.max'],
    invented: COOKIE
  },
  {
    id: 'bestseller with fq, sort and a repeated stats.field',
    source: `${SDK}: bestseller takes the same search parameters`,
    query: {
      q: 'shirt',
      fl: 'pid,price',
      start: '0',
      'facet.version': '3.0',
      url: 'https://www.example.com/',
      _br_uid_2: 'visitor',
      request_type: 'search',
      search_type: 'bestseller',
      fq: ['colors:"red" OR "blue"'],
      sort: 'price asc',
      'stats.field': ['price', 'sale_price']
    },
    status: 200,
    reads: ['response.numFound', 'response.docs.0.pid', 'stats.stats_fields.price.max', 'stats.stats_fields.sale_price.min'],
    invented: COOKIE
  },
  {
    id: "the search widget's product search",
    source: `${WIDGET}: a GET with Content-Type: application/json and no body; its default fl; facet.range and stats.field price; sort sent empty; each fq percent-encoded once, a price slider's as a range; a 13-digit request_id; ref_url the page itself; the widget's fallback _br_uid_2 when the shop has no cookie, sent as it is; no facet.version unless told`,
    headers: { 'content-type': 'application/json' },
    query: {
      q: 'shirt',
      rows: '12',
      sort: '',
      start: '0',
      request_id: '4815162342108',
      _br_uid_2: 'uid%3D7797686432023%3Av%3D11.5%3Ats%3D1428617911187%3Ahc%3D55',
      ref_url: 'https://shop.example.com/search?q=shirt',
      url: 'https://shop.example.com/search?q=shirt',
      request_type: 'search',
      search_type: 'keyword',
      fl: WIDGET_FIELDS,
      'facet.range': 'price',
      'stats.field': 'price',
      fq: ['colors:"white" OR "blue"', 'price:[40 TO 60]']
    },
    status: 200,
    reads: ['response.numFound', 'response.docs.0.pid', 'response.docs.0.sale_price', 'stats.stats_fields.price.min'],
    invented: COOKIE
  },
  {
    id: 'a recommendation widget is not emulated',
    source: `${SDK}: getItemWidget sends its configuration and options to https://pathways.dxpapi.com/api/v2/widgets/item/{widget id} (another host, another API)`,
    path: '/api/v2/widgets/item/w5rmbxxj',
    query: {
      item_ids: 'P1001',
      fields: 'pid,title,price',
      rows: '4',
      start: '0',
      url: 'https://www.example.com/products/oxford-shirt/P1001',
      ref_url: 'https://www.example.com/',
      request_id: '1234567890123',
      _br_uid_2: 'visitor'
    },
    status: 501,
    reads: ['error_code', 'error_detail'],
    invented: ['not-emulated']
  },
  {
    id: 'autosuggest is not emulated',
    source: `${SDK}: autoSuggest sends q, request_type=suggest and the configuration to https://suggest.dxpapi.com/api/v2/suggest/ (another host, another API)`,
    path: '/api/v2/suggest/',
    query: { q: 'shi', request_type: 'suggest', catalog_views: 'product:store1', url: 'https://www.example.com/', _br_uid_2: 'visitor' },
    status: 501,
    reads: ['error_code', 'error_detail'],
    invented: ['not-emulated']
  }
]
