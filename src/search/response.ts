// Reads a search answer defensively: numFound/start/docs inside `response` (or at the top level), facets in
// the V3 format (`facet_counts.facets[]`) or the legacy one (`facet_fields`/`facet_ranges`/`facet_queries`,
// inside `facet_counts` or at the top level), and a keyword redirect. Unknown keys are ignored.

export type FacetFormat = 'v3' | 'legacy' | 'none'

export interface KeywordRedirect {
  originalQuery?: string
  redirectedQuery?: string
  redirectedUrl?: string
}

export interface ParsedSearchResponse {
  numFound: number
  start: number
  docs: Array<Record<string, unknown>>
  /** Titles of the first products (up to 5), for the report. */
  titles: string[]
  facetFormat: FacetFormat
  facetNames: string[]
  keywordRedirect?: KeywordRedirect
}

/** The answer is not a search result (not JSON, or no numFound). */
export class SearchResponseError extends Error {
  override name = 'SearchResponseError'
}

export const MAX_TITLES = 5

type Json = Record<string, unknown>

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function count(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value)
  return undefined
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0]
  return undefined
}

function facets(body: Json): { facetFormat: FacetFormat; facetNames: string[] } {
  const counts = isObject(body.facet_counts) ? body.facet_counts : undefined
  if (counts && Array.isArray(counts.facets)) {
    const names = counts.facets.map((f) => (isObject(f) ? text(f.name) : undefined)).filter((n): n is string => n !== undefined)
    return { facetFormat: 'v3', facetNames: [...new Set(names)] }
  }
  const containers = [counts?.facet_fields, counts?.facet_ranges, counts?.facet_queries, body.facet_fields, body.facet_ranges, body.facet_queries]
  const legacy = containers.filter(isObject)
  if (legacy.length > 0) return { facetFormat: 'legacy', facetNames: [...new Set(legacy.flatMap((c) => Object.keys(c)))] }
  return { facetFormat: 'none', facetNames: [] }
}

function redirect(value: unknown): KeywordRedirect | undefined {
  if (!isObject(value)) return undefined
  const out: KeywordRedirect = {}
  const original = text(value['original query'])
  const query = text(value['redirected query'])
  const url = text(value['redirected url'])
  if (original !== undefined) out.originalQuery = original
  if (query !== undefined) out.redirectedQuery = query
  if (url !== undefined) out.redirectedUrl = url
  return Object.keys(out).length > 0 ? out : undefined
}

export function parseSearchResponse(body: string): ParsedSearchResponse {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    throw new SearchResponseError('the answer is not JSON')
  }
  if (!isObject(parsed)) throw new SearchResponseError('the answer is not a JSON object')
  const inner = isObject(parsed.response) ? parsed.response : parsed
  const numFound = count(inner.numFound) ?? count(parsed.numFound)
  if (numFound === undefined) throw new SearchResponseError('the answer has no numFound (it does not look like a search result)')
  const rawDocs = Array.isArray(inner.docs) ? inner.docs : Array.isArray(parsed.docs) ? parsed.docs : []
  const docs = rawDocs.filter(isObject)
  const titles = docs
    .map((d) => text(d.title))
    .filter((t): t is string => t !== undefined && t !== '')
    .slice(0, MAX_TITLES)
  const result: ParsedSearchResponse = {
    numFound,
    start: count(inner.start) ?? count(parsed.start) ?? 0,
    docs,
    titles,
    ...facets(parsed)
  }
  const kr = redirect(parsed.keywordRedirect)
  if (kr) result.keywordRedirect = kr
  return result
}
