// The search term `q`: its kinds and the service's limits on it. The rules that check and rewrite
// search-query before any request are input validation: normalizeQuery in src/inputs/search.ts.

export type SearchType = 'keyword' | 'category'

/** The service refuses a q longer than this many characters. */
export const MAX_QUERY_CHARS = 300
/** The service refuses a q of more than this many words. */
export const MAX_QUERY_WORDS = 30
