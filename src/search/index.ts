// Public API of the product search smoke check (see client.ts for the flow).
export {
  parseSearchBaseUrl,
  parseSearchConfig,
  checkRequestSize,
  REQUESTABLE_FIELDS,
  SEARCH_DEFAULTS,
  SEARCH_HOSTS,
  SearchInput,
  SearchOutput,
  type SearchConfig,
  type SearchConfigContext,
  type SearchEnvironment,
  type SearchInputReader
} from './config.js'
export { normalizeQuery, MAX_QUERY_CHARS, MAX_QUERY_WORDS, type NormalizedQuery, type SearchType } from './query.js'
export { buildSearchRequest, MAX_REQUEST_BYTES, SEARCH_PATH, newBrUid, newRequestId } from './request.js'
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
