// The search check's claims in the report word for word (src/report.ts): its notice, its headline in a run that
// only checks search, and every row of the summary's search table, for each branch.
import { headline, notices, searchLabel, summaryMarkdown, type RunResult } from '../src/report.js'
import type { SearchResult } from '../src/search/client.js'
import { searchPassed } from './report-fixtures.js'

const ENDPOINT = 'https://core.dxpapi.com/api/v1/core/'

/** Fields to set, or to leave unset with undefined (report.ts reads an unset field and an undefined one alike). */
type Over<T> = { [K in keyof T]?: T[K] | undefined }

const searchOf = (over: Over<SearchResult> = {}): SearchResult => ({ ...searchPassed, endpoint: ENDPOINT, ...over }) as SearchResult

/** A run that only checks search. */
const runOf = (search: SearchResult, over: Partial<RunResult> = {}): RunResult => ({
  deploys: false,
  deploy: undefined,
  search,
  phases: [],
  error: undefined,
  ...over
})

/** The search table's rows, from its heading on. */
const searchTable = (search: SearchResult): string[] => {
  const lines = summaryMarkdown(runOf(search)).split('\n')
  const start = lines.indexOf('| Search | |')
  const end = lines.indexOf('', start)
  return lines.slice(start, end)
}

/** The row `label` of the search table; undefined when the table leaves it out. */
const row = (search: SearchResult, label: string): string | undefined => searchTable(search).find((l) => l.startsWith(`| ${label} |`))

describe('the query, as the notice and the summary name it', () => {
  test('a keyword query quoted; a category query says so', () => {
    expect(searchLabel({ type: 'keyword', originalQuery: 'red shirt' })).toBe("'red shirt'")
    expect(searchLabel({ type: 'category', originalQuery: 'men-shirts' })).toBe("category 'men-shirts'")
  })
})

describe('notice', () => {
  test('a passed check: the query, the results found and the latency', () => {
    expect(notices(runOf(searchOf({ type: 'category', originalQuery: 'men-shirts', query: 'men-shirts', numFound: 7, latencyMs: 85 })))).toEqual([
      "Search check passed: category 'men-shirts' found 7 result(s) in 85 ms."
    ])
  })

  test('no count or latency known: 0 results, ? ms', () => {
    expect(notices(runOf(searchOf({ numFound: undefined, latencyMs: undefined })))).toEqual(["Search check passed: 'shirt' found 0 result(s) in ? ms."])
  })

  test('a failed check has no notice', () => {
    expect(notices(runOf(searchOf({ passed: false, failure: 'HTTP 403' }), { error: 'Search check failed: HTTP 403' }))).toEqual([])
  })
})

describe('headline', () => {
  test('a search check alone: passed, failed, or failed after it passed', () => {
    expect(headline(runOf(searchOf()))).toBe('✅ Passed')
    expect(headline(runOf(searchOf({ passed: false }), { error: 'Search check failed' }))).toBe('❌ Search check failed')
    expect(headline(runOf(searchOf(), { error: 'the runner went away' }))).toBe('❌ Failed after the search check passed')
  })
})

describe('summary: the search table', () => {
  test('a passed keyword check, the whole summary', () => {
    expect(summaryMarkdown(runOf(searchOf()))).toBe(
      [
        '## Bloomreach search check',
        '',
        '**✅ Passed**',
        '',
        '',
        '### Search check',
        '',
        '| Search | |',
        '|---|---|',
        '| Result | ✅ Passed |',
        '| Query | `shirt`, keyword search |',
        `| Endpoint | ${ENDPOINT} |`,
        '| Results found | 4 (at least 1 wanted) |',
        '| Latency | 12 ms |',
        '| Attempts | 1 |',
        '| Request id | `1234567890123` |',
        '| Facet format | none returned |'
      ].join('\n') + '\n'
    )
  })

  test('a failed, rewritten category query with facets, a keyword redirect and titles: every row', () => {
    const failed = searchOf({
      passed: false,
      failure: 'too few results',
      type: 'category',
      query: 'men shirts',
      originalQuery: 'Men  Shirts',
      minResults: 5,
      numFound: 2,
      latencyMs: 340,
      attempts: 3,
      requestId: '',
      facetFormat: 'v3',
      facetNames: ['brand', 'color'],
      keywordRedirect: { redirectedUrl: 'https://shop.example/sale', redirectedQuery: 'sale' },
      titles: ['Shirt A', 'Shirt | B']
    })
    expect(searchTable(failed)).toEqual([
      '| Search | |',
      '|---|---|',
      '| Result | ❌ too few results |',
      '| Query | `men shirts` (written as `Men  Shirts`), category search |',
      `| Endpoint | ${ENDPOINT} |`,
      '| Results found | 2 (at least 5 wanted) |',
      '| Latency | 340 ms |',
      '| Attempts | 3 |',
      '| Request id | — |',
      '| Facet format | V3 (facet_counts.facets): brand, color |',
      '| Keyword redirect | https://shop.example/sale |',
      '| First results | Shirt A<br>Shirt \\| B |'
    ])
  })

  test('no answer: Failed, and no count or latency', () => {
    const { numFound: _n, latencyMs: _l, ...unanswered } = searchOf({ passed: false })
    expect(row(unanswered, 'Result')).toBe('| Result | ❌ Failed |')
    expect(row(unanswered, 'Results found')).toBe('| Results found | — |')
    expect(row(unanswered, 'Latency')).toBe('| Latency | — |')
  })

  test('a count of 0 is a count', () => {
    expect(row(searchOf({ passed: false, numFound: 0, latencyMs: 0 }), 'Results found')).toBe('| Results found | 0 (at least 1 wanted) |')
    expect(row(searchOf({ passed: false, numFound: 0, latencyMs: 0 }), 'Latency')).toBe('| Latency | 0 ms |')
  })

  test('the facet format: legacy, with and without facet names; V3 without', () => {
    expect(row(searchOf({ facetFormat: 'legacy', facetNames: [] }), 'Facet format')).toBe('| Facet format | legacy (facet_fields/facet_ranges) |')
    expect(row(searchOf({ facetFormat: 'legacy', facetNames: ['size'] }), 'Facet format')).toBe('| Facet format | legacy (facet_fields/facet_ranges): size |')
    expect(row(searchOf({ facetFormat: 'v3', facetNames: [] }), 'Facet format')).toBe('| Facet format | V3 (facet_counts.facets) |')
    expect(row(searchOf({ facetFormat: 'none', facetNames: ['ignored'] }), 'Facet format')).toBe('| Facet format | none returned |')
  })

  test('the keyword redirect: its address, else the query it redirects to, else that there is one', () => {
    expect(row(searchOf({ keywordRedirect: { redirectedUrl: 'https://shop.example/sale' } }), 'Keyword redirect')).toBe(
      '| Keyword redirect | https://shop.example/sale |'
    )
    expect(row(searchOf({ keywordRedirect: { redirectedQuery: 'sale' } }), 'Keyword redirect')).toBe('| Keyword redirect | sale |')
    expect(row(searchOf({ keywordRedirect: { originalQuery: 'shirt' } }), 'Keyword redirect')).toBe('| Keyword redirect | yes |')
    expect(row(searchOf(), 'Keyword redirect')).toBeUndefined()
  })

  test('First results only when there are titles', () => {
    expect(row(searchOf({ titles: ['Only one'] }), 'First results')).toBe('| First results | Only one |')
    expect(row(searchOf(), 'First results')).toBeUndefined()
  })
})
