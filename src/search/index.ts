// Public API of the product search smoke check (see client.ts for the flow).
// The search inputs (SearchConfig, parseSearchConfig, normalizeQuery) are read in src/inputs/search.ts.
export type { SearchConfig } from '../inputs/search.js'
export { REQUESTABLE_FIELDS, SEARCH_HOSTS, SEARCH_LIMITS, type SearchEnvironment } from './service.js'
export { MAX_QUERY_CHARS, MAX_QUERY_WORDS, type SearchType } from './query.js'
export { appBrUid, buildSearchRequest, MAX_REQUEST_BYTES, SEARCH_PATH, newBrUid, newRequestId, stableUid } from './request.js'
export { parseSearchResponse, SearchResponseError, type FacetFormat, type KeywordRedirect, type ParsedSearchResponse } from './response.js'
export { CookieJar } from './cookies.js'
export {
  runSearchCheck,
  SearchClient,
  SearchFailure,
  DEFAULT_USER_AGENT,
  type SearchAttempt,
  type SearchDeps,
  type SearchFailureKind,
  type SearchResult
} from './client.js'
