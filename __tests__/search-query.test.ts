import { useTestPort } from './test-port.js'

useTestPort()

const { MAX_QUERY_CHARS, MAX_QUERY_WORDS } = await import('../src/search/query.js')
const { buildSearchRequest, MAX_REQUEST_BYTES, newBrUid, newRequestId } = await import('../src/search/request.js')
const { normalizeQuery, parseSearchConfig, SearchInput } = await import('../src/inputs/search.js')
const { InputError } = await import('../src/errors.js')

describe('normalizeQuery: the service table of special characters', () => {
  test.each([
    ['*', '*'],
    ['.', '.'],
    ['*term1', 'term1'],
    ['term1*term2', 'term1 term2'],
    ['term1~term2', 'term1 term2'],
    ['term1?term2', 'term1 term2'],
    ['shirt', 'shirt'],
    ['red shirt', 'red shirt'],
    ['  shirt  ', 'shirt'],
    ['shirt*', 'shirt'],
    ['*red*shirt?', 'red shirt'],
    ['a.b', 'a.b']
  ])('%j is sent as %j', (input, sent) => {
    expect(normalizeQuery(input, 'keyword').q).toBe(sent)
  })

  test('a rewrite is reported; a plain keyword gives no warning', () => {
    expect(normalizeQuery('term1*term2', 'keyword').warnings).toEqual([expect.stringMatching(/'term1\*term2' is sent as 'term1 term2'.*word separators/)])
    expect(normalizeQuery('shirt', 'keyword').warnings).toEqual([])
    expect(normalizeQuery('.', 'keyword').warnings).toEqual([])
  })

  test("'*' is accepted with a warning about the latency service level", () => {
    const { q, warnings } = normalizeQuery('*', 'keyword')
    expect(q).toBe('*')
    expect(warnings).toEqual([expect.stringMatching(/outside the service's latency service level/)])
  })

  test.each([
    ['', /empty.*HTTP 400/],
    ['   ', /empty/],
    ['?', /'\?' alone is not allowed/],
    ['~', /'~' alone is not allowed/],
    ['**', /nothing left to search for/],
    ['?~', /nothing left to search for/],
    ['red\nshirt', /control character \(U\+000a\)/]
  ])('%j is refused', (input, why) => {
    expect(() => normalizeQuery(input, 'keyword')).toThrow(InputError)
    expect(() => normalizeQuery(input, 'keyword')).toThrow(why)
  })

  test(`at most ${MAX_QUERY_CHARS} characters`, () => {
    expect(normalizeQuery('a'.repeat(MAX_QUERY_CHARS), 'keyword').q).toHaveLength(300)
    expect(() => normalizeQuery('a'.repeat(MAX_QUERY_CHARS + 1), 'keyword')).toThrow(/301 characters long.*over 300 characters/)
    // characters, not bytes or UTF-16 units
    expect(normalizeQuery('é'.repeat(300), 'keyword').q).toHaveLength(300)
    expect(normalizeQuery('😀'.repeat(300), 'keyword').q).toBe('😀'.repeat(300))
  })

  test(`at most ${MAX_QUERY_WORDS} words, counted after the rewrite too`, () => {
    const words = (n: number, sep = ' '): string => Array.from({ length: n }, (_, i) => `w${i}`).join(sep)
    expect(normalizeQuery(words(30), 'keyword').q).toBe(words(30))
    expect(() => normalizeQuery(words(31), 'keyword')).toThrow(/has 31 words.*more than 30 words/)
    expect(() => normalizeQuery(words(31, '*'), 'keyword')).toThrow(/has 31 words once rewritten/)
  })

  test('category ids: non-ASCII letters refused, ASCII and non-letter symbols pass', () => {
    expect(normalizeQuery('mens-shirts_01', 'category').q).toBe('mens-shirts_01')
    expect(() => normalizeQuery('chaussures-été', 'category')).toThrow(/non-ASCII letter 'é'.*not its display name/)
    expect(() => normalizeQuery('Größe', 'category')).toThrow(InputError)
    expect(() => normalizeQuery('обувь', 'category')).toThrow(InputError)
    // the same keyword search is fine
    expect(normalizeQuery('chaussures été', 'keyword').q).toBe('chaussures été')
  })

  test('category ids follow the same special-character table', () => {
    expect(normalizeQuery('*shirts', 'category').q).toBe('shirts')
    expect(() => normalizeQuery('?', 'category')).toThrow(/not allowed/)
  })
})

describe('request size (16 KB)', () => {
  const params = {
    accountId: '6001',
    authKey: 'k',
    domainKey: 'd',
    brUid: newBrUid(),
    pageUrl: 'app',
    type: 'keyword' as const,
    q: 'shirt',
    fields: ['pid'],
    rows: 10,
    start: 0,
    requestId: newRequestId()
  }

  test('counts request line and headers', () => {
    const small = buildSearchRequest(params, { baseUrl: 'https://core.dxpapi.com' })
    expect(small.bytes).toBeLessThan(500)
    const big = buildSearchRequest({ ...params, pageUrl: 'x'.repeat(MAX_REQUEST_BYTES) }, { baseUrl: 'https://core.dxpapi.com' })
    expect(big.bytes).toBeGreaterThan(MAX_REQUEST_BYTES)
    // multi-byte characters count in bytes, encoded: 'é' is %C3%A9
    const wide = buildSearchRequest({ ...params, pageUrl: 'é'.repeat(1000) }, { baseUrl: 'https://core.dxpapi.com' })
    expect(wide.bytes - small.bytes).toBe(6000 - 3)
  })

  test('a configuration whose request is over 16 KB is refused before any request, naming the input', () => {
    const get =
      (over: Record<string, string>) =>
      (name: string): string =>
        ({
          [SearchInput.Query]: 'shirt',
          [SearchInput.AccountId]: '6001',
          [SearchInput.AuthKey]: 'key',
          [SearchInput.DomainKey]: 'dom',
          ...over
        })[name] ?? ''
    expect(parseSearchConfig(get({ [SearchInput.Url]: 'x'.repeat(15_000) }))).toBeDefined()
    expect(() => parseSearchConfig(get({ [SearchInput.Url]: 'x'.repeat(16_500) }))).toThrow(
      /would be \d+ bytes, over the service's limit of 16384 bytes \(it answers HTTP 414\)\. search-page-url takes 16500 bytes/
    )
    expect(() => parseSearchConfig(get({ [SearchInput.Url]: '/'.repeat(6000) }))).toThrow(/search-page-url takes 18000 bytes/)
  })
})

describe('identifiers', () => {
  test('request_id is 13 digits; _br_uid_2 is the app form', () => {
    for (let i = 0; i < 50; i++) {
      expect(newRequestId()).toMatch(/^[1-9]\d{12}$/)
      expect(newBrUid()).toMatch(/^uid=[1-9]\d{12}:v=app:ts=0:hc=1$/)
    }
    expect(newRequestId()).not.toBe(newRequestId())
  })

  test('the query string: every parameter in order, each value encoded exactly once, the auth key redacted in the printable form', () => {
    const built = buildSearchRequest(
      {
        accountId: '6001',
        authKey: 'se cr/et',
        domainKey: 'dom',
        brUid: 'uid=1234567890123:v=app:ts=0:hc=1',
        pageUrl: 'https://github.com/o/r',
        type: 'keyword',
        q: 'red shirt',
        fields: ['pid', 'title'],
        rows: 10,
        start: 0,
        requestId: '1111111111111'
      },
      { baseUrl: 'https://core.dxpapi.com' }
    )
    expect(built.target).toBe(
      '/api/v1/core/?account_id=6001&auth_key=se%20cr%2Fet&domain_key=dom&request_id=1111111111111' +
        '&_br_uid_2=uid%3D1234567890123%3Av%3Dapp%3Ats%3D0%3Ahc%3D1&ref_url=&url=https%3A%2F%2Fgithub.com%2Fo%2Fr' +
        '&request_type=search&search_type=keyword&q=red%20shirt&fl=pid%2Ctitle&rows=10&start=0'
    )
    expect(built.redactedTarget).toContain('auth_key=***&')
    expect(built.redactedTarget).not.toContain('se%20cr')
    expect(built.headers['cache-control']).toBe('no-cache')
  })
})
