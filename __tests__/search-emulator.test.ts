// The emulator's search API (GET /api/v1/core/): catalog, facets, error table, cookie, knobs, CLI flags.
import { request } from 'node:http'
import { parseCli } from '../src/emulator/cli-args.js'
import { CONTENT_ITEMS, PRODUCTS } from '../src/emulator/search-catalog.js'
import { startEmulator, type Emulator } from '../src/emulator/server.js'

let emu: Emulator
beforeAll(async () => {
  emu = await startEmulator()
})
afterAll(() => emu.close())
beforeEach(() => {
  emu.requests.length = 0
  emu.search.facetFormat = 'v3'
})

const good: Record<string, string> = {
  account_id: '6001',
  auth_key: 'emulator-auth-key',
  domain_key: 'emulator_domain',
  request_id: '1234567890123',
  _br_uid_2: 'uid=1234567890123:v=app:ts=0:hc=1',
  ref_url: '',
  url: 'app',
  request_type: 'search',
  search_type: 'keyword',
  q: 'shirt',
  fl: 'pid,title',
  rows: '10',
  start: '0'
}

type Body = {
  response?: { numFound: number; start: number; docs: Array<Record<string, unknown>> }
  facet_counts?: Record<string, unknown>
  status_code?: number
  message?: string
  keywordRedirect?: Record<string, string>
}

async function search(over: Record<string, string | undefined> = {}, headers: Record<string, string> = {}) {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries({ ...good, ...over })) if (v !== undefined) params.set(k, v)
  const res = await fetch(`${emu.url}/api/v1/core/?${params.toString()}`, { headers })
  return { status: res.status, headers: res.headers, body: (await res.json()) as Body }
}

describe('emulator search API', () => {
  test('keyword search: matching products with the fl fields, V3 facets, a cookie; recorded as operation search', async () => {
    const { status, headers, body } = await search()
    expect(status).toBe(200)
    expect(body.response?.numFound).toBe(4)
    expect(body.response?.docs[0]).toEqual({ pid: 'P1001', title: 'Oxford Shirt' })
    const facets = (body.facet_counts?.facets ?? []) as Array<{ name: string; type: string; value: unknown }>
    expect(facets.map((f) => `${f.name}:${f.type}`)).toEqual(['category:text', 'brand:text', 'colors:text', 'price:number_range', 'sale_price:number_stats'])
    expect(facets[0]?.value).toContainEqual({
      cat_id: 'shirts',
      cat_name: 'Shirts',
      count: 4,
      crumb: 'Apparel>Shirts',
      tree_path: '/apparel/shirts',
      parent: 'apparel'
    })
    expect(headers.get('set-cookie')).toMatch(/^br_emulator_session=[0-9a-f]+; Path=\/; Max-Age=1800; HttpOnly$/)
    expect(emu.requests[0]).toMatchObject({ operation: 'search', status: 200, search: { cookiePresented: false, q: 'shirt', numFound: 4 } })
  })

  test('the cookie is recognized when presented; an unknown one is not', async () => {
    const first = await search()
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
    const again = await search({}, { cookie: `other=1; ${cookie}` })
    expect(again.headers.get('set-cookie')?.split(';')[0]).toBe(cookie)
    await search({}, { cookie: 'br_emulator_session=forged' })
    expect(emu.requests.map((r) => r.search?.cookiePresented)).toEqual([false, true, false])
  })

  test('all twelve fields when fl is absent; rows and start page; * and . return everything', async () => {
    const all = await search({ fl: undefined, q: '*', rows: '5', start: '10' })
    expect(all.body.response).toMatchObject({ numFound: PRODUCTS.length, start: 10 })
    expect(all.body.response?.docs).toHaveLength(2)
    expect(Object.keys(all.body.response?.docs[0] ?? {}).sort()).toEqual(
      ['pid', 'title', 'brand', 'price', 'sale_price', 'thumb_image', 'url', 'description', 'colors', 'sizes', 'price_range', 'sale_price_range'].sort()
    )
    expect((await search({ q: '.' })).body.response?.numFound).toBe(PRODUCTS.length)
  })

  test('q is rewritten as the service does', async () => {
    expect((await search({ q: '*shirt' })).body.response?.numFound).toBe(4)
    expect((await search({ q: 'wool*scarf' })).body.response?.numFound).toBe(1)
    expect((await search({ q: 'wool~trousers' })).body.response?.numFound).toBe(1)
    expect((await search({ q: 'red?shirt' })).body.response?.numFound).toBe(2)
    expect(emu.requests.map((r) => r.search?.q)).toEqual(['shirt', 'wool scarf', 'wool trousers', 'red shirt'])
  })

  test('category search includes sub-categories; an unknown or empty category has an empty result with empty containers', async () => {
    expect((await search({ search_type: 'category', q: 'apparel' })).body.response?.numFound).toBe(7)
    expect((await search({ search_type: 'category', q: 'shoes' })).body.response?.numFound).toBe(3)
    const empty = await search({ search_type: 'category', q: 'gift-cards' })
    expect(empty.body).toMatchObject({ response: { numFound: 0, start: 0, docs: [] }, facet_counts: { facets: [] } })
    emu.search.facetFormat = 'legacy'
    const none = await search({ q: 'unicorn' })
    expect(none.body.facet_counts).toEqual({ facet_fields: {}, facet_ranges: {}, facet_queries: {} })
  })

  test('legacy facet format; facet.version=3.0 asks for V3', async () => {
    emu.search.facetFormat = 'legacy'
    const legacy = await search()
    expect(Object.keys(legacy.body.facet_counts ?? {})).toEqual(['facet_fields', 'facet_ranges', 'facet_queries'])
    expect((legacy.body.facet_counts?.facet_ranges as Record<string, unknown>).price).toEqual([
      { count: 1, start: 0, end: 50 },
      { count: 3, start: 50, end: 100 }
    ])
    const everything = await search({ q: '*' })
    expect((everything.body.facet_counts?.facet_ranges as Record<string, unknown[]>).price?.at(-1)).toEqual({ count: 1, start: 200, end: '*' })
    const v3 = await search({ 'facet.version': '3.0' })
    expect(Array.isArray(v3.body.facet_counts?.facets)).toBe(true)
  })

  test('a keyword redirect', async () => {
    const { body } = await search({ q: 'Returns' })
    expect(body.keywordRedirect).toEqual({
      'original query': 'Returns',
      'redirected query': 'Returns',
      'redirected url': 'https://www.example.com/customer-service/returns'
    })
  })

  test.each([
    [{ q: '' }, 400, 'Missing or empty q'],
    [{ q: undefined }, 400, 'Missing or empty q'],
    [{ q: '?' }, 400, 'q "?" is not allowed'],
    [{ q: '~' }, 400, 'q "~" is not allowed'],
    [{ q: 'x'.repeat(301) }, 400, 'q is longer than 300 characters'],
    [{ q: Array.from({ length: 31 }, () => 'w').join(' ') }, 400, 'q has more than 30 words'],
    [{ q: 'a*'.repeat(31) }, 400, 'q has more than 30 words'],
    [{ domain_key: undefined }, 400, 'Missing domain_key: every request must carry the domain key'],
    [{ domain_key: 'other' }, 400, 'Invalid domain_key "other" for account_id "6001"'],
    [{ rows: '216' }, 400, 'Pagination limit exceeded: requested start 0, rows 216. Max start 10000, rows 200'],
    [{ start: '10001' }, 400, 'Pagination limit exceeded: requested start 10001, rows 10. Max start 10000, rows 200'],
    [{ rows: 'ten' }, 400, 'Invalid rows: "ten" is not a non-negative integer'],
    [{ search_type: 'fuzzy' }, 400, 'Invalid or empty search_type'],
    [{ search_type: '' }, 400, 'Invalid or empty search_type'],
    [{ request_type: 'suggest' }, 400, 'Invalid or empty request_type'],
    [{ request_type: undefined }, 400, 'Invalid or empty request_type'],
    [{ search_type: 'category', q: 'chaussures-été' }, 400, 'Unsupported non-ASCII letter in the category id'],
    [{ request_id: 'abcdefghijklm' }, 400, 'Invalid request_id "abcdefghijklm": a number expected'],
    [{ _br_uid_2: undefined }, 400, 'Missing _br_uid_2'],
    // URLSearchParams encodes once more what is already encoded: the service receives uid%253D...%253A...
    [{ _br_uid_2: 'uid%3D1234567890123%3Av%3Dapp%3Ats%3D0%3Ahc%3D1' }, 400, 'Invalid _br_uid_2: percent-encoded twice'],
    [{ url: undefined }, 400, 'Missing url'],
    [{ auth_key: 'nope' }, 403, 'Access denied: auth_key "nope" is not valid for account_id "6001"'],
    [{ auth_key: '', account_id: '7' }, 403, 'Access denied: unknown account_id "7"'],
    [{ account_id: '7' }, 403, 'Access denied: auth_key "emulator-auth-key" is not valid for account_id "7"']
  ])('%j -> %i', async (over, status, message) => {
    const res = await search(over)
    expect(res.status).toBe(status)
    expect(res.body).toEqual({ status_code: status, message })
  })

  test('what the official client sends is accepted: no request_id or ref_url, a short numeric request_id, any _br_uid_2 value', async () => {
    for (const over of [
      { request_id: undefined, ref_url: undefined },
      { request_id: '42' },
      { request_id: '' },
      { _br_uid_2: 'visitor-1' },
      { _br_uid_2: 'uid=1:v=11.5' }
    ]) {
      expect((await search(over)).status).toBe(200)
    }
  })

  test('bestseller, any fl field, brand and colour fq, price sort and stats.field=price are honoured', async () => {
    const best = await search({ search_type: 'bestseller', q: undefined })
    expect(best.status).toBe(200)
    expect(best.body.response?.numFound).toBe(PRODUCTS.length)
    const content = await search({ fl: 'pid,item_id' })
    expect(content.body.response?.docs[0]).toEqual({ pid: 'P1001' })
    const brand = PRODUCTS[0]?.brand ?? ''
    // fq is repeatable, so it is appended, not set.
    const params = new URLSearchParams({ ...good, q: '*', fl: 'pid,brand', rows: '50' })
    params.append('fq', `brand:"${brand}" OR "No Such Brand"`)
    const byBrand = (await (await fetch(`${emu.url}/api/v1/core/?${params.toString()}`)).json()) as Body
    expect(byBrand.response?.docs.length).toBe(PRODUCTS.filter((p) => p.brand === brand).length)
    expect(byBrand.response?.docs.every((d) => d.brand === brand)).toBe(true)
    const red = await search({ q: '*', fl: 'pid', rows: '50', fq: 'colors:red' })
    expect(red.body.response?.numFound).toBe(PRODUCTS.filter((p) => p.colors.some((c) => c.toLowerCase() === 'red')).length)
    const sorted = await search({ q: '*', fl: 'pid,price', rows: '50', sort: 'price desc', 'stats.field': 'price' })
    const prices = (sorted.body.response?.docs ?? []).map((d) => d.price as number)
    expect(prices).toEqual([...prices].sort((a, b) => b - a))
    expect((sorted.body as { stats?: unknown }).stats).toEqual({
      stats_fields: { price: { min: Math.min(...PRODUCTS.map((p) => p.price)), max: Math.max(...PRODUCTS.map((p) => p.price)) } }
    })
  })

  test('content search (catalog_name, fl=item_id) answers content records that carry item_id, unmarked but for the cookie', async () => {
    const res = await search({ catalog_name: 'content_en', q: 'shirt', fl: 'item_id' })
    const shirts = CONTENT_ITEMS.filter((c) => `${c.title} ${c.description}`.toLowerCase().includes('shirt'))
    expect(shirts.length).toBeGreaterThan(1)
    expect(res.status).toBe(200)
    expect(res.body.response).toEqual({ numFound: shirts.length, start: 0, docs: shirts.map((c) => ({ item_id: c.item_id })) })
    expect(res.body.facet_counts).toEqual({ facets: [] })
    expect(res.headers.get('x-emulator-invented')).toBe('cookie-br_emulator_session')
    expect(emu.requests.at(-1)).toMatchObject({ operation: 'search', status: 200, search: { q: 'shirt', numFound: shirts.length } })
  })

  test("content records' other fields are the emulator's own, and say so; the product catalog's name searches the products", async () => {
    for (const fl of [undefined, 'item_id,title,url']) {
      const res = await search({ catalog_name: 'content_en', q: '*', fl, rows: '50' })
      expect(res.body.response?.numFound).toBe(CONTENT_ITEMS.length)
      expect(res.body.response?.docs.every((d) => typeof d.item_id === 'string' && typeof d.title === 'string')).toBe(true)
      expect(res.headers.get('x-emulator-invented')).toBe('content-fields, cookie-br_emulator_session')
    }
    const titleOnly = await search({ catalog_name: 'content_en', q: 'returns', fl: 'title' })
    expect(titleOnly.body.response?.docs).toEqual([{ title: 'Returns and exchanges' }])
    expect(titleOnly.headers.get('x-emulator-invented')).toBe('content-fields, cookie-br_emulator_session')
    const products = await search({ catalog_name: 'emulator_domain', fl: 'pid,item_id' })
    expect(products.body.response?.docs[0]).toEqual({ pid: 'P1001' })
  })

  test("a price slider's range fq (price:[a TO b], either end * or quoted) is honoured, both ends included", async () => {
    const inRange = (low: number, high: number) => PRODUCTS.filter((p) => p.price >= low && p.price <= high)
    const params = new URLSearchParams({ ...good, q: '*', fl: 'pid,price', rows: '50' })
    params.append('fq', 'price:[49 TO 79]')
    const body = (await (await fetch(`${emu.url}/api/v1/core/?${params.toString()}`)).json()) as Body
    expect(body.response?.docs.map((d) => d.pid)).toEqual(inRange(49, 79).map((p) => p.pid))
    expect(inRange(49, 79).map((p) => p.price)).toEqual(expect.arrayContaining([49, 79]))
    const open = await search({ q: '*', fl: 'pid', rows: '50', fq: 'sale_price:["100" TO *]' })
    expect(open.body.response?.numFound).toBe(PRODUCTS.filter((p) => p.sale_price >= 100).length)
    const garbled = await search({ q: '*', fl: 'pid', rows: '50', fq: 'price:[cheap TO 10]' })
    expect(garbled.body.response?.numFound).toBe(PRODUCTS.length) // not a range it can read: ignored, as other fields are
  })

  test('the search path without its trailing slash is a 404 in the search error shape; the log masks auth_key', async () => {
    const logged: string[] = []
    const own = await startEmulator({ log: (l) => logged.push(l) })
    try {
      const res = await fetch(`${own.url}/api/v1/core?${new URLSearchParams(good).toString()}`)
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({ status_code: 404, message: expect.any(String) })
      await (await fetch(`${own.url}/api/v1/core/?${new URLSearchParams(good).toString()}`)).text()
      // The log line is written once the server is done with the answer: wait for it, not for a time.
      while (logged.length < 2) await new Promise((r) => setTimeout(r, 10))
      expect(logged.join('\n')).toContain('auth_key=***')
      expect(logged.join('\n')).not.toContain('emulator-auth-key')
    } finally {
      await own.close()
    }
  })

  test('_br_uid_2 encoded once is accepted, encoded twice (%253A) is refused; a browser cookie value and an empty ref_url pass', async () => {
    const raw = (uid: string): Promise<Response> =>
      fetch(`${emu.url}/api/v1/core/?${new URLSearchParams({ ...good, _br_uid_2: 'X' }).toString().replace('_br_uid_2=X', `_br_uid_2=${uid}`)}`)
    expect((await raw('uid%3D1234567890123%3Av%3Dapp%3Ats%3D0%3Ahc%3D1')).status).toBe(200)
    const twice = await raw('uid%253D1234567890123%253Av%253Dapp%253Ats%253D0%253Ahc%253D1')
    expect(twice.status).toBe(400)
    expect(await twice.json()).toEqual({ status_code: 400, message: 'Invalid _br_uid_2: percent-encoded twice' })
    expect((await search({ _br_uid_2: 'uid=7797686432023:v=11.5:ts=1428617911187:hc=55', ref_url: '' })).status).toBe(200)
  })

  test('a request over 16 KB gets 414 (request line and headers counted)', async () => {
    expect((await search({ url: 'x'.repeat(15_000) })).status).toBe(200)
    const long = await search({ url: 'x'.repeat(16_400) })
    expect(long.status).toBe(414)
    expect(long.body.message).toMatch(/^Request-URI Too Long: the request is \d+ bytes \(at most 16384\)$/)
    expect((await search({ url: 'x'.repeat(8_000) }, { 'x-padding': 'y'.repeat(9_000) })).status).toBe(414)
  })

  test('faults answer with the search error shape; the cloud API keeps its own', async () => {
    emu.addFault({ operation: 'search', kind: 'status', status: 543, times: 1, retryAfterSeconds: 2 })
    const faulted = await search()
    expect(faulted.status).toBe(543)
    expect(faulted.headers.get('retry-after')).toBe('2')
    expect(faulted.body).toEqual({ status_code: 543, message: 'Emulated fault on search' })
    expect(emu.requests[0]).toMatchObject({ operation: 'search', status: 543, fault: 'status' })
    expect((await search()).status).toBe(200)
    const slash = await fetch(`${emu.url}/v3/distributions/`)
    expect(await slash.json()).toEqual({ error_code: 'TrailingSlash', error_detail: expect.any(String) })
  })

  test('the delay knob answers late', async () => {
    emu.search.delayMs = 300
    try {
      const started = Date.now()
      expect((await search()).status).toBe(200)
      expect(Date.now() - started).toBeGreaterThanOrEqual(280)
    } finally {
      emu.search.delayMs = 0
    }
  })

  test('a client that gives up during the delay leaves the server healthy', async () => {
    emu.search.delayMs = 300
    try {
      await new Promise<void>((done) => {
        const req = request(`${emu.url}/api/v1/core/?${new URLSearchParams(good).toString()}`)
        req.on('error', () => done())
        req.end()
        setTimeout(() => {
          req.destroy()
          done()
        }, 50)
      })
    } finally {
      emu.search.delayMs = 0
    }
    expect((await search()).status).toBe(200)
  })

  test('an empty or absent auth_key is accepted as a client-side call (the default), or refused with 403 as a mode', async () => {
    for (const over of [{ auth_key: '' }, { auth_key: undefined }]) {
      const res = await search(over)
      expect(res.status).toBe(200)
      expect(res.body.response?.numFound).toBe(4)
    }
    expect(emu.requests.map((r) => r.note)).toEqual([
      'a search without auth_key (a client-side call), accepted',
      'a search without auth_key (a client-side call), accepted'
    ])
    expect((await search({ auth_key: 'wrong' })).status).toBe(403) // a key that is sent must be right
    emu.search.emptyAuthKey = 'refuse'
    try {
      for (const over of [{ auth_key: '' }, { auth_key: undefined }]) {
        const res = await search(over)
        expect(res).toMatchObject({ status: 403, body: { status_code: 403, message: 'Access denied: empty auth_key' } })
        expect(res.headers.get('x-emulator-invented')).toBeNull() // the error-codes page shows this 403
      }
    } finally {
      emu.search.emptyAuthKey = 'accept'
    }
  })

  test('answers name what is invented: the cookie; documented errors carry no mark, a 404 does', async () => {
    expect((await search()).headers.get('x-emulator-invented')).toBe('cookie-br_emulator_session')
    expect((await search({ rows: '500' })).headers.get('x-emulator-invented')).toBeNull()
    expect((await fetch(`${emu.url}/api/v1/core?q=x`)).headers.get('x-emulator-invented')).toBe('status-404')
  })

  test('autosuggest and the widgets exist on the real service: 501 NotEmulated naming the call, not a 404 about the slash', async () => {
    for (const path of ['/api/v2/suggest/?q=shirt&account_id=6001', '/api/v2/widgets/global/w1?account_id=6001']) {
      const res = await fetch(`${emu.url}${path}`)
      expect(res.status).toBe(501)
      expect(res.headers.get('x-emulator-invented')).toBe('not-emulated')
      const pathname = path.split('?')[0] ?? ''
      expect(await res.json()).toEqual({ error_code: 'NotEmulated', error_detail: `GET ${pathname} exists on the real service but is not emulated here` })
    }
    expect(emu.requests.map((r) => [r.operation, r.status])).toEqual([
      ['not-emulated', 501],
      ['not-emulated', 501]
    ])
  })

  test("a browser's CORS preflight (the search widget's GET carries a Content-Type) is 501 NotEmulated, not a 405", async () => {
    const preflight = await fetch(`${emu.url}/api/v1/core/?q=shirt`, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'GET', 'access-control-request-headers': 'content-type' }
    })
    expect([preflight.status, preflight.headers.get('x-emulator-invented'), preflight.headers.get('access-control-allow-origin')]).toEqual([
      501,
      'not-emulated',
      null
    ])
    expect(await preflight.json()).toEqual({
      error_code: 'NotEmulated',
      error_detail: 'OPTIONS /api/v1/core/ exists on the real service but is not emulated here'
    })
    expect(emu.requests.map((r) => [r.method, r.operation, r.status])).toEqual([['OPTIONS', 'not-emulated', 501]])
  })

  test('options set the keys, facet format and delay', async () => {
    const other = await startEmulator({ searchAccountId: '42', searchAuthKey: 'k', searchDomainKey: 'd', searchFacetFormat: 'legacy', searchDelayMs: 5 })
    try {
      expect(other.search).toEqual({ accountId: '42', authKey: 'k', domainKey: 'd', facetFormat: 'legacy', delayMs: 5, emptyAuthKey: 'accept' })
      const res = await fetch(`${other.url}/api/v1/core/?${new URLSearchParams({ ...good, account_id: '42', auth_key: 'k', domain_key: 'd' }).toString()}`)
      expect(res.status).toBe(200)
      expect(Object.keys(((await res.json()) as Body).facet_counts ?? {})).toContain('facet_fields')
    } finally {
      await other.close()
    }
  })
})

describe('emulator CLI search flags', () => {
  test('parsed into options; search is a fault operation', () => {
    const cmd = parseCli([
      '--search-account-id',
      '42',
      '--search-auth-key',
      'k',
      '--search-domain-key',
      'd',
      '--search-facet-format',
      'legacy',
      '--search-delay',
      '2500',
      '--search-empty-auth-key',
      'refuse',
      '--fail',
      'search:543:2',
      '--hang',
      'search'
    ])
    if (cmd.help) throw new Error('help')
    expect(cmd.options).toMatchObject({
      searchAccountId: '42',
      searchAuthKey: 'k',
      searchDomainKey: 'd',
      searchFacetFormat: 'legacy',
      searchDelayMs: 2500,
      searchEmptyAuthKey: 'refuse',
      faults: [
        { operation: 'search', kind: 'status', status: 543, times: 2 },
        { operation: 'search', kind: 'hang', times: 1 }
      ]
    })
    expect(() => parseCli(['--search-facet-format', 'v2'])).toThrow(/needs v3 or legacy/)
    expect(() => parseCli(['--search-delay', 'soon'])).toThrow(/--search-delay needs a whole number/)
    expect(() => parseCli(['--search-empty-auth-key', 'maybe'])).toThrow(/needs accept or refuse/)
  })
})
