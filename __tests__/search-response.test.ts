import { CookieJar } from '../src/search/cookies.js'
import { parseSearchResponse, SearchResponseError } from '../src/search/response.js'

const parse = (body: unknown) => parseSearchResponse(JSON.stringify(body))

describe('parseSearchResponse', () => {
  test('the documented envelope with V3 facets', () => {
    const r = parse({
      response: { numFound: 57, start: 0, docs: [{ pid: '1', title: 'A' }, { pid: '2', title: ['B', 'b'] }, { pid: '3' }, 'junk'] },
      facet_counts: {
        facets: [
          { name: 'brand', type: 'text', value: [{ name: 'X', count: 3 }] },
          { name: 'price', type: 'number_range', value: [{ start: 0, end: 10, count: 1 }] },
          { name: 'sale_price', type: 'number_stats', value: { start: 1, end: 9 } },
          { name: 'category', type: 'text', value: [{ cat_id: 'c', cat_name: 'C', count: 1, crumb: 'C', tree_path: '/c', parent: '' }] },
          { type: 'text' }
        ]
      },
      category_map: { c: 'C' },
      did_you_mean: [],
      autoCorrectQuery: 'x',
      metadata: {},
      stats: {},
      campaign: {}
    })
    expect(r).toMatchObject({ numFound: 57, start: 0, titles: ['A', 'B'], facetFormat: 'v3', facetNames: ['brand', 'price', 'sale_price', 'category'] })
    expect(r.docs).toHaveLength(3)
    expect(r.keywordRedirect).toBeUndefined()
  })

  test('legacy facets inside facet_counts', () => {
    const r = parse({
      response: { numFound: 2, start: 0, docs: [] },
      facet_counts: {
        facet_fields: { brand: [{ name: 'X', count: 2 }], colors: [] },
        facet_ranges: { price: [{ count: 2, start: '*', end: 100 }] },
        facet_queries: { 'price:[0 TO 10]': 1 }
      }
    })
    expect(r).toMatchObject({ facetFormat: 'legacy', facetNames: ['brand', 'colors', 'price', 'price:[0 TO 10]'] })
  })

  test("the seed's shape: numFound/start/docs and legacy facets at the top level", () => {
    const r = parse({ numFound: 3, start: 2, docs: [{ title: 'T' }], facet_fields: { brand: [] }, facet_ranges: { price: [] } })
    expect(r).toMatchObject({ numFound: 3, start: 2, titles: ['T'], facetFormat: 'legacy', facetNames: ['brand', 'price'] })
  })

  test('empty result, empty containers, no facets at all', () => {
    expect(parse({ response: { numFound: 0, start: 0, docs: [] }, facet_counts: { facets: [] } })).toMatchObject({
      numFound: 0,
      facetFormat: 'v3',
      facetNames: []
    })
    expect(parse({ response: { numFound: 0, docs: [] }, facet_counts: { facet_fields: {}, facet_ranges: {}, facet_queries: {} } })).toMatchObject({
      facetFormat: 'legacy',
      facetNames: []
    })
    expect(parse({ response: { numFound: '4' } })).toMatchObject({ numFound: 4, start: 0, docs: [], facetFormat: 'none', facetNames: [] })
  })

  test('keywordRedirect, with its keys with spaces', () => {
    const r = parse({
      response: { numFound: 0, docs: [] },
      keywordRedirect: { 'original query': 'returns', 'redirected query': 'returns', 'redirected url': '/help/returns' }
    })
    expect(r.keywordRedirect).toEqual({ originalQuery: 'returns', redirectedQuery: 'returns', redirectedUrl: '/help/returns' })
    expect(parse({ response: { numFound: 0 }, keywordRedirect: {} }).keywordRedirect).toBeUndefined()
  })

  test('at most 5 titles', () => {
    const docs = Array.from({ length: 8 }, (_, i) => ({ title: `t${i}` }))
    expect(parse({ response: { numFound: 8, docs } }).titles).toEqual(['t0', 't1', 't2', 't3', 't4'])
  })

  test.each([
    ['<html>', /not JSON/],
    ['[1]', /not a JSON object/],
    ['{"response":{"docs":[]}}', /no numFound/],
    ['{"response":{"numFound":-1}}', /no numFound/],
    ['{"status_code":200}', /no numFound/]
  ])('%s is not a search result', (body, why) => {
    expect(() => parseSearchResponse(body)).toThrow(SearchResponseError)
    expect(() => parseSearchResponse(body)).toThrow(why)
  })
})

describe('CookieJar', () => {
  test('keeps cookies, replaces by name, deletes expired ones, ignores malformed lines', () => {
    const jar = new CookieJar(() => Date.parse('2030-01-01T00:00:00Z'))
    expect(jar.header()).toBeUndefined()
    jar.store('a=1; Path=/; HttpOnly; Secure; SameSite=None')
    jar.store(['b=x=y; Max-Age=60', 'junk', '=novalue', 'c=3; Expires=Wed, 01 Jan 2020 00:00:00 GMT'])
    expect(jar.header()).toBe('a=1; b=x=y')
    jar.store('a=2')
    expect(jar.header()).toBe('a=2; b=x=y')
    jar.store('b=gone; Max-Age=0')
    expect(jar.header()).toBe('a=2')
    jar.store('a=later; Expires=Wed, 01 Jan 2031 00:00:00 GMT')
    expect(jar.header()).toBe('a=later')
    expect(jar.size).toBe(1)
    jar.store(undefined)
    expect(jar.size).toBe(1)
  })
})
