// The search client against the local emulator over real HTTP.
import { useTestPort } from './test-port.js'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

useTestPort()

const { parseSearchConfig, SearchInput } = await import('../src/inputs/search.js')
const { runSearchCheck, SearchClient } = await import('../src/search/client.js')
const { startEmulator } = await import('../src/emulator/server.js')
type Emulator = Awaited<ReturnType<typeof startEmulator>>
type SearchConfig = NonNullable<ReturnType<typeof parseSearchConfig>>
type SearchDeps = NonNullable<Parameters<typeof runSearchCheck>[1]>

let emu: Emulator
beforeAll(async () => {
  emu = await startEmulator()
})
afterAll(() => emu.close())
beforeEach(() => {
  emu.requests.length = 0
  emu.search.delayMs = 0
  emu.search.facetFormat = 'v3'
})

function config(over: Record<string, string> = {}, repository = 'acme/shop'): SearchConfig {
  const values: Record<string, string> = {
    [SearchInput.Query]: 'shirt',
    [SearchInput.BaseUrl]: emu.url,
    [SearchInput.AccountId]: emu.search.accountId,
    [SearchInput.AuthKey]: emu.search.authKey,
    [SearchInput.DomainKey]: emu.search.domainKey,
    ...over
  }
  const c = parseSearchConfig((name) => values[name] ?? '', { repository })
  if (c === undefined) throw new Error('no config')
  return c
}

/** A wait window on a fake clock: sleeping advances it at once. */
function fakeTime(): Required<Pick<SearchDeps, 'now' | 'sleep' | 'random'>> & { slept: number[] } {
  let now = 1_000_000
  const slept: number[] = []
  return {
    slept,
    now: () => now,
    sleep: async (ms: number) => {
      slept.push(ms)
      now += ms
    },
    random: () => 0.5
  }
}

function searches() {
  return emu.requests.filter((r) => r.operation === 'search')
}

describe('search check against the emulator', () => {
  test('keyword search passes: numFound, titles, V3 facets, request id, latency', async () => {
    const log: string[] = []
    const result = await runSearchCheck(config(), { log: (l) => log.push(l) })
    expect(result).toMatchObject({
      passed: true,
      query: 'shirt',
      type: 'keyword',
      endpoint: `${emu.url}/api/v1/core/`,
      numFound: 4,
      titles: ['Oxford Shirt', 'Linen Shirt', 'Flannel Shirt', 'Polo Shirt'],
      facetFormat: 'v3',
      facetNames: ['category', 'brand', 'colors', 'price', 'sale_price'],
      attempts: 1,
      status: 200,
      warnings: []
    })
    expect(result.failure).toBeUndefined()
    expect(result.latencyMs).toBeGreaterThanOrEqual(0)
    expect(result.requestId).toMatch(/^\d{13}$/)
    expect(new URL(searches()[0]?.url ?? '', emu.url).searchParams.get('request_id')).toBe(result.requestId)
    expect(log.join('\n')).not.toContain(emu.search.authKey)
  })

  test('category search, legacy facets, at most 5 titles', async () => {
    emu.search.facetFormat = 'legacy'
    const result = await runSearchCheck(config({ [SearchInput.Query]: 'apparel', [SearchInput.Type]: 'category' }))
    expect(result).toMatchObject({ passed: true, type: 'category', numFound: 7, facetFormat: 'legacy' })
    expect(result.titles).toHaveLength(5)
    expect(result.facetNames).toEqual(['category', 'brand', 'colors', 'price'])
    expect(searches()[0]?.search).toMatchObject({ q: 'apparel', numFound: 7 })
  })

  test('the query string the service received: every parameter, _br_uid_2 encoded once, ref_url empty; no-cache', async () => {
    const client = new SearchClient(config({ [SearchInput.Query]: 'red*shirt', [SearchInput.Fields]: 'pid,title,price' }))
    try {
      await client.search()
    } finally {
      await client.close()
    }
    const rec = searches()[0]
    if (rec === undefined) throw new Error('no search recorded')
    const raw = rec.url
    expect(raw.startsWith('/api/v1/core/?')).toBe(true)
    expect(raw).toMatch(/[?&]_br_uid_2=uid%3D\d{13}%3Av%3Dapp%3Ats%3D0%3Ahc%3D1&/)
    expect(raw).not.toContain('%25') // nothing encoded twice
    expect(raw).toContain('&ref_url=&')
    expect(raw).toContain('&q=red%20shirt&')
    const params = new URL(raw, emu.url).searchParams
    expect([...params.keys()]).toEqual([
      'account_id',
      'auth_key',
      'domain_key',
      'request_id',
      '_br_uid_2',
      'ref_url',
      'url',
      'request_type',
      'search_type',
      'q',
      'fl',
      'rows',
      'start'
    ])
    expect(Object.fromEntries(params)).toEqual({
      account_id: '6001',
      auth_key: 'emulator-auth-key',
      domain_key: 'emulator_domain',
      request_id: expect.stringMatching(/^\d{13}$/),
      _br_uid_2: client.brUid,
      ref_url: '',
      url: 'https://github.com/acme/shop',
      request_type: 'search',
      search_type: 'keyword',
      q: 'red shirt',
      fl: 'pid,title,price',
      rows: '10',
      start: '0'
    })
    expect(rec.headers['cache-control']).toBe('no-cache')
    expect(rec.httpVersion).toBe('1.1')
  })

  test('the cookie set by the service is presented on the next call of the run, with the same _br_uid_2', async () => {
    const client = new SearchClient(config())
    try {
      await client.search()
      expect(client.cookies.size).toBe(1)
      await client.search()
    } finally {
      await client.close()
    }
    const [first, second] = searches()
    expect(first?.search?.cookiePresented).toBe(false)
    expect(first?.headers.cookie).toBeUndefined()
    expect(second?.search?.cookiePresented).toBe(true)
    expect(second?.headers.cookie).toMatch(/^br_emulator_session=[0-9a-f]+$/)
    const uid = (r: typeof first): string | null => new URL(r?.url ?? '', emu.url).searchParams.get('_br_uid_2')
    expect(uid(second)).toBe(uid(first))
    expect(new URL(second?.url ?? '', emu.url).searchParams.get('request_id')).not.toBe(new URL(first?.url ?? '', emu.url).searchParams.get('request_id'))
  })

  test('zero results fails the check; min-results 0 passes it', async () => {
    const failed = await runSearchCheck(config({ [SearchInput.Query]: 'unicorn' }))
    expect(failed).toMatchObject({ passed: false, failureKind: 'too-few-results', numFound: 0, titles: [], attempts: 1, facetFormat: 'v3', facetNames: [] })
    expect(failed.failure).toBe(
      "The search for 'unicorn' found 0 product(s), fewer than search-min-results 1. Check that search-query matches products of search-domain-key's catalogue, lower search-min-results, or set search-wait-seconds (e.g. 120) if the catalogue fills only after a deploy."
    )
    const passed = await runSearchCheck(config({ [SearchInput.Query]: 'unicorn', [SearchInput.MinResults]: '0' }))
    expect(passed).toMatchObject({ passed: true, numFound: 0 })
  })

  test('a keyword redirect is reported, and named when it explains a failure', async () => {
    const result = await runSearchCheck(config({ [SearchInput.Query]: 'returns' }))
    expect(result.passed).toBe(false)
    expect(result.keywordRedirect).toEqual({
      originalQuery: 'returns',
      redirectedQuery: 'returns',
      redirectedUrl: 'https://www.example.com/customer-service/returns'
    })
    expect(result.failure).toMatch(/found 0 product\(s\).*redirects this query to https:\/\/www\.example\.com\/customer-service\/returns/)
  })

  test('a timeout fails the check and names the limit', async () => {
    emu.search.delayMs = 800
    // One attempt (max-attempts 1): this test is about the message; the retries have their own tests.
    const result = await runSearchCheck({ ...config({ 'max-attempts': '1' }), timeoutMs: 200 })
    expect(result).toMatchObject({ passed: false, failureKind: 'timeout', attempts: 1 })
    expect(result.failure).toBe('The search service did not answer within the 0.2 s limit (search-timeout-seconds).')
    expect(result.numFound).toBeUndefined()
    expect(result.latencyMs).toBeGreaterThanOrEqual(150)
  })

  test.each([503, 543, 429, 500])('HTTP %i twice, then an answer: the check recovers inside the wait window', async (status) => {
    emu.addFault({ operation: 'search', kind: 'status', status, times: 2 })
    const time = fakeTime()
    const log: string[] = []
    const result = await runSearchCheck(config({ [SearchInput.WaitSeconds]: '60' }), { ...time, log: (l) => log.push(l) })
    expect(result).toMatchObject({ passed: true, attempts: 3, numFound: 4 })
    expect(time.slept).toEqual([500, 1000])
    expect(log.filter((l) => l.startsWith('Search attempt'))).toEqual([
      `Search attempt 1 failed: The search service answered HTTP ${status}, status_code ${status}: Emulated fault on search.${status === 429 ? ' The service is rate limiting this account.' : ''} Trying again in 0.5 s.`,
      expect.stringMatching(/^Search attempt 2 failed: .* Trying again in 1 s\.$/)
    ])
    expect(searches().map((r) => r.status)).toEqual([status, status, 200])
  })

  test('Retry-After of a 429 is honoured', async () => {
    emu.addFault({ operation: 'search', kind: 'status', status: 429, times: 1, retryAfterSeconds: 7 })
    const time = fakeTime()
    const result = await runSearchCheck(config({ [SearchInput.WaitSeconds]: '60' }), time)
    expect(result).toMatchObject({ passed: true, attempts: 2 })
    expect(time.slept).toEqual([7000])
  })

  test('a timeout is retried inside the wait window', async () => {
    emu.addFault({ operation: 'search', kind: 'hang', times: 1 })
    const result = await runSearchCheck({ ...config({ [SearchInput.WaitSeconds]: '60' }), timeoutMs: 300 }, fakeTime())
    expect(result).toMatchObject({ passed: true, attempts: 2, numFound: 4 })
  })

  // Replaces "without a wait window a 503 is not retried", which asserted the old, wrong behaviour.
  test('without a wait window a single 503 is retried (max-attempts): the check passes', async () => {
    emu.addFault({ operation: 'search', kind: 'status', status: 503, times: 1 })
    const time = fakeTime()
    const log: string[] = []
    const result = await runSearchCheck(config(), { ...time, log: (l) => log.push(l) })
    expect(result).toMatchObject({ passed: true, attempts: 2, status: 200, numFound: 4 })
    expect(time.slept).toEqual([500])
    expect(log.filter((l) => l.startsWith('Search attempt'))).toEqual([
      'Search attempt 1 failed: The search service answered HTTP 503, status_code 503: Emulated fault on search. Trying again in 0.5 s.'
    ])
    expect(searches().map((r) => r.status)).toEqual([503, 200])
  })

  test.each([503, 543, 500])('without a wait window HTTP %i stops after max-attempts, and the failure says how many', async (status) => {
    emu.addFault({ operation: 'search', kind: 'status', status, times: 3 })
    const time = fakeTime()
    const result = await runSearchCheck(config({ 'max-attempts': '3' }), time)
    expect(result).toMatchObject({ passed: false, failureKind: 'http', attempts: 3, status })
    expect(time.slept).toEqual([500, 1000])
    expect(result.failure).toBe(`The search service answered HTTP ${status}, status_code ${status}: Emulated fault on search. (3 attempts, max-attempts 3)`)
    expect(searches()).toHaveLength(3)
  })

  test('the wait window does not add retries for a failing service: max-attempts (default from action.yml) bounds them', async () => {
    emu.addFault({ operation: 'search', kind: 'status', status: 503, times: 4 })
    const time = fakeTime()
    const result = await runSearchCheck(config({ [SearchInput.WaitSeconds]: '60' }), time)
    expect(result).toMatchObject({ passed: false, failureKind: 'http', attempts: 4, status: 503 })
    expect(time.slept).toEqual([500, 1000, 2000])
  })

  test('without a wait window Retry-After of a 429 is honoured', async () => {
    emu.addFault({ operation: 'search', kind: 'status', status: 429, times: 1, retryAfterSeconds: 7 })
    const time = fakeTime()
    const result = await runSearchCheck(config(), time)
    expect(result).toMatchObject({ passed: true, attempts: 2 })
    expect(time.slept).toEqual([7000])
  })

  test('without a wait window a timeout is retried', async () => {
    emu.addFault({ operation: 'search', kind: 'hang', times: 1 })
    const result = await runSearchCheck({ ...config(), timeoutMs: 300 }, fakeTime())
    expect(result).toMatchObject({ passed: true, attempts: 2, numFound: 4 })
  })

  test.each([400, 403, 414])('HTTP %i ends the check at once, with or without max-attempts', async (status) => {
    emu.addFault({ operation: 'search', kind: 'status', status, times: 1 })
    const time = fakeTime()
    const result = await runSearchCheck(config({ 'max-attempts': '5' }), time)
    expect(result).toMatchObject({ passed: false, failureKind: 'http', attempts: 1, status })
    expect(time.slept).toEqual([])
    expect(searches()).toHaveLength(1)
  })

  test('_br_uid_2 is the same on every run of one repository, another for another repository; search-uid pins it', async () => {
    const uid = (n: number): string | null => new URL(searches()[n]?.url ?? '', emu.url).searchParams.get('_br_uid_2')
    await runSearchCheck(config())
    await runSearchCheck(config())
    await runSearchCheck(config({}, 'acme/other'))
    await runSearchCheck(config({ 'search-uid': '7797686432023' }))
    expect(uid(0)).toMatch(/^uid=[1-9]\d{12}:v=app:ts=0:hc=1$/)
    expect(uid(1)).toBe(uid(0))
    expect(uid(2)).toMatch(/^uid=[1-9]\d{12}:v=app:ts=0:hc=1$/)
    expect(uid(2)).not.toBe(uid(0))
    expect(uid(3)).toBe('uid=7797686432023:v=app:ts=0:hc=1')
    expect(searches()[3]?.url).toContain('&_br_uid_2=uid%3D7797686432023%3Av%3Dapp%3Ats%3D0%3Ahc%3D1&')
  })

  test('a 3xx answer names where it points, without its query string or the auth key', async () => {
    const key = 'redirect-secret-key'
    const server = createServer((_req, res) =>
      res.writeHead(302, { location: `https://search.example.com/moved/${key}/api/v1/core/?auth_key=${key}&account_id=6001#frag` }).end()
    )
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    try {
      const { port } = server.address() as AddressInfo
      const log: string[] = []
      const result = await runSearchCheck({ ...config(), baseUrl: `http://127.0.0.1:${port}`, authKey: key }, { ...fakeTime(), log: (l) => log.push(l) })
      expect(result).toMatchObject({ passed: false, failureKind: 'http', status: 302, attempts: 1 })
      expect(result.failure).toBe(
        'The search service answered HTTP 302: a redirect to https://search.example.com/moved/***/api/v1/core/ (query string not shown). ' +
          'Check search-base-url / search-environment.'
      )
      const everything = JSON.stringify(result) + log.join('\n')
      expect(everything).not.toContain(key)
      expect(everything).not.toContain('account_id=6001')
    } finally {
      server.closeAllConnections()
      await new Promise((done) => server.close(done))
    }
  })

  test('too few results are retried until the window ends; the failure says how long it waited', async () => {
    const time = fakeTime()
    const result = await runSearchCheck(config({ [SearchInput.Query]: 'wool', [SearchInput.MinResults]: '3', [SearchInput.WaitSeconds]: '20' }), time)
    expect(result).toMatchObject({ passed: false, failureKind: 'too-few-results', numFound: 2 })
    expect(time.slept).toEqual([500, 1000, 2000, 4000, 5000, 5000])
    expect(result.attempts).toBe(7)
    expect(result.failure).toBe(
      "The search for 'wool' found 2 product(s), fewer than search-min-results 3. (7 attempts in the 20 s search-wait-seconds window) Check that search-query matches products of search-domain-key's catalogue, lower search-min-results, or raise search-wait-seconds if the catalogue takes longer to fill after a deploy."
    )
  })

  test('403 is not retried, and the auth key appears in no message even when the service echoes it', async () => {
    // Not registered through parseSearchConfig: the client scrubs the key itself.
    const key = 'wrong/secret key'
    const log: string[] = []
    const result = await runSearchCheck({ ...config({ [SearchInput.WaitSeconds]: '60' }), authKey: key }, { ...fakeTime(), log: (l) => log.push(l) })
    expect(result).toMatchObject({ passed: false, failureKind: 'http', attempts: 1, status: 403 })
    expect(result.failure).toBe(
      'The search service answered HTTP 403, status_code 403: Access denied: auth_key "***" is not valid for account_id "6001". ' +
        'Check search-account-id and search-auth-key.'
    )
    const everything = JSON.stringify(result) + log.join('\n')
    expect(everything).not.toContain(key)
    expect(everything).not.toContain(encodeURIComponent(key))
    expect(searches()).toHaveLength(1)
  })

  test('other refusals of the service are not retried', async () => {
    const result = await runSearchCheck({ ...config({ [SearchInput.WaitSeconds]: '60' }), domainKey: 'other_domain' }, fakeTime())
    expect(result).toMatchObject({ passed: false, attempts: 1, status: 400 })
    expect(result.failure).toMatch(/HTTP 400, status_code 400: Invalid domain_key "other_domain"/)
  })

  test('a request over 16 KB is not sent', async () => {
    const result = await runSearchCheck({ ...config(), pageUrl: 'x'.repeat(17_000) })
    expect(result).toMatchObject({ passed: false, failureKind: 'too-large', attempts: 1 })
    expect(result.failure).toMatch(/over the service's limit of 16384 bytes \(HTTP 414\); not sent/)
    expect(searches()).toHaveLength(0)
  })

  test('an answer that is not a search result fails without retry', async () => {
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>welcome</html>'))
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    try {
      const { port } = server.address() as AddressInfo
      const result = await runSearchCheck({ ...config({ [SearchInput.WaitSeconds]: '60' }), baseUrl: `http://127.0.0.1:${port}` }, fakeTime())
      expect(result).toMatchObject({ passed: false, failureKind: 'bad-answer', status: 200, attempts: 1 })
      expect(result.failure).toBe('The search service answered HTTP 200, but the answer is not JSON. Check search-base-url / search-environment.')
    } finally {
      server.closeAllConnections()
      await new Promise((done) => server.close(done))
    }
  })

  test('connection refused: a network failure whose message has no auth key', async () => {
    const other = await startEmulator()
    const url = other.url
    await other.close()
    const result = await runSearchCheck({ ...config(), baseUrl: url, authKey: 'refused-key' }, fakeTime())
    // A connection failure is transient: retried up to max-attempts (4 by default; it was 1 attempt before).
    expect(result).toMatchObject({ passed: false, failureKind: 'network', attempts: 4 })
    expect(result.failure).toContain(`${url}/api/v1/core/`)
    expect(result.failure).not.toContain('refused-key')
  })
})
