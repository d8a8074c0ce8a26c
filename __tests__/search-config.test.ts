import { useTestPort } from './test-port.js'

const secrets: string[] = []
useTestPort({ setSecret: (s: string) => secrets.push(s) })

const { parseSearchConfig, SearchInput } = await import('../src/inputs/search.js')
const { REQUESTABLE_FIELDS } = await import('../src/search/service.js')
const { OUTPUT_NAMES } = await import('../src/action-metadata.js')
const { InputError } = await import('../src/errors.js')
const { redact } = await import('../src/secrets.js')

const base: Record<string, string> = {
  [SearchInput.Query]: 'shirt',
  [SearchInput.AccountId]: '6001',
  [SearchInput.AuthKey]: 'the-auth-key',
  [SearchInput.DomainKey]: 'my_domain'
}

function getter(values: Record<string, string>) {
  return (name: string): string => values[name] ?? ''
}

function read(over: Record<string, string> = {}, context: { repository?: string } = { repository: 'acme/shop' }) {
  const config = parseSearchConfig(getter({ ...base, ...over }), context)
  if (config === undefined) throw new Error('expected a config')
  return config
}

function refused(over: Record<string, string>, why: RegExp): void {
  let error: unknown
  try {
    read(over)
  } catch (e) {
    error = e
  }
  expect(error).toBeInstanceOf(InputError)
  expect((error as Error).message).toMatch(why)
  expect((error as Error).message).not.toContain('the-auth-key')
}

describe('search config', () => {
  beforeEach(() => (secrets.length = 0))

  test('public names', () => {
    expect(Object.values(SearchInput).sort()).toEqual(
      [
        'search-query',
        'search-type',
        'search-account-id',
        'search-auth-key',
        'search-domain-key',
        'search-environment',
        'search-base-url',
        'search-fields',
        'search-rows',
        'search-min-results',
        'search-timeout-seconds',
        'search-page-url',
        'search-uid',
        'search-wait-seconds'
      ].sort()
    )
    // The output names come from action.yml (src/action-metadata.ts), no longer from a SearchOutput constant.
    expect(OUTPUT_NAMES).toEqual(expect.arrayContaining(['search-num-found', 'search-latency-ms', 'search-request-id']))
    expect(REQUESTABLE_FIELDS).toHaveLength(12)
  })

  test('no check when search-query is empty; set search inputs are named in a warning', () => {
    const warnings: string[] = []
    expect(parseSearchConfig(getter({}), { warn: (m) => warnings.push(m) })).toBeUndefined()
    expect(warnings).toEqual([])
    expect(parseSearchConfig(getter({ ...base, [SearchInput.Query]: '  ' }), { warn: (m) => warnings.push(m) })).toBeUndefined()
    expect(warnings).toEqual(['search-account-id, search-auth-key, search-domain-key are set but search-query is empty: no search check runs.'])
  })

  test('defaults', () => {
    expect(read()).toEqual({
      query: 'shirt',
      originalQuery: 'shirt',
      type: 'keyword',
      accountId: '6001',
      authKey: 'the-auth-key',
      domainKey: 'my_domain',
      environment: 'production',
      baseUrl: 'https://core.dxpapi.com',
      baseUrlSource: 'search-environment',
      fields: ['pid', 'title', 'url'],
      rows: 10,
      minResults: 1,
      timeoutMs: 5000,
      pageUrl: 'https://github.com/acme/shop',
      brUid: expect.stringMatching(/^uid=[1-9]\d{12}:v=app:ts=0:hc=1$/),
      maxAttempts: 4,
      waitMs: 0,
      warnings: []
    })
    expect(read({}, {}).pageUrl).toBe('brcloud-deploy')
  })

  test('_br_uid_2: the same for every run of a repository, another for another one, a fixed one outside GitHub', () => {
    const uid = read().brUid
    expect(uid).toMatch(/^uid=[1-9]\d{12}:v=app:ts=0:hc=1$/)
    expect(read().brUid).toBe(uid)
    expect(read({}, { repository: 'acme/other' }).brUid).not.toBe(uid)
    expect(read({}, { repository: 'acme/other' }).brUid).toMatch(/^uid=[1-9]\d{12}:v=app:ts=0:hc=1$/)
    const outside = read({}, {}).brUid
    expect(outside).toMatch(/^uid=[1-9]\d{12}:v=app:ts=0:hc=1$/)
    expect(read({}, {}).brUid).toBe(outside)
  })

  test('search-uid pins _br_uid_2: a bare uid, or a whole unencoded value kept as written', () => {
    expect(read({ [SearchInput.Uid]: '7797686432023' }).brUid).toBe('uid=7797686432023:v=app:ts=0:hc=1')
    expect(read({ [SearchInput.Uid]: ' 1e77ab ' }).brUid).toBe('uid=1e77ab:v=app:ts=0:hc=1')
    expect(read({ [SearchInput.Uid]: 'uid=7797686432023:v=11.5:ts=1428617911187:hc=55' }).brUid).toBe('uid=7797686432023:v=11.5:ts=1428617911187:hc=55')
    expect(read({ [SearchInput.Uid]: 'uid=7797686432023:v=app:ts=0:hc=1' }, {}).brUid).toBe('uid=7797686432023:v=app:ts=0:hc=1')
  })

  test('max-attempts is read by the same rule as for the cloud calls', () => {
    expect(read({ 'max-attempts': '7' }).maxAttempts).toBe(7)
    refused({ 'max-attempts': '0' }, /max-attempts 0 is out of range: write a number from 1 to 20/)
  })

  test('the auth key is masked as soon as it is read, even when the check does not run or an input is refused', () => {
    // (secrets.ts calls setSecret once per value: use values no other test used)
    expect(() => read({ [SearchInput.AuthKey]: 'fresh-key', [SearchInput.Rows]: 'many' })).toThrow(InputError)
    expect(secrets).toEqual(['fresh-key'])
    expect(redact('key=fresh-key')).toBe('key=***')
    secrets.length = 0
    parseSearchConfig(getter({ [SearchInput.AuthKey]: ' k/ey ' }))
    expect(secrets).toEqual(expect.arrayContaining([' k/ey ', 'k/ey', 'k%2Fey']))
  })

  test('every value set', () => {
    const c = read({
      [SearchInput.Query]: 'shirts',
      [SearchInput.Type]: 'Category',
      [SearchInput.Environment]: 'STAGING',
      [SearchInput.Fields]: 'pid, title ,brand,pid,,sale_price_range',
      [SearchInput.Rows]: '200',
      [SearchInput.MinResults]: '0',
      [SearchInput.TimeoutSeconds]: '2',
      [SearchInput.Url]: 'my-app',
      [SearchInput.WaitSeconds]: '120'
    })
    expect(c).toMatchObject({
      type: 'category',
      environment: 'staging',
      baseUrl: 'https://staging-core.dxpapi.com',
      fields: ['pid', 'title', 'brand', 'sale_price_range'],
      rows: 200,
      minResults: 0,
      timeoutMs: 2000,
      pageUrl: 'my-app',
      waitMs: 120_000
    })
  })

  test('search-base-url overrides the environment', () => {
    expect(read({ [SearchInput.BaseUrl]: 'https://search.example.com/', [SearchInput.Environment]: 'staging' })).toMatchObject({
      baseUrl: 'https://search.example.com',
      baseUrlSource: 'search-base-url'
    })
    expect(read({ [SearchInput.BaseUrl]: 'https://proxy.example.com/brsearch/' }).baseUrl).toBe('https://proxy.example.com/brsearch')
    expect(read({ [SearchInput.BaseUrl]: 'http://127.0.0.1:4080' }).baseUrl).toBe('http://127.0.0.1:4080')
    expect(read({ [SearchInput.BaseUrl]: 'http://localhost:4080' }).baseUrl).toBe('http://localhost:4080')
    expect(read({ [SearchInput.BaseUrl]: 'http://[::1]:4080' }).baseUrl).toBe('http://[::1]:4080')
  })

  test('the query is normalized and its warnings kept; fl without pid warns', () => {
    const c = read({ [SearchInput.Query]: '*shirt', [SearchInput.Fields]: 'title' })
    expect(c.query).toBe('shirt')
    expect(c.originalQuery).toBe('*shirt')
    expect(c.warnings).toEqual([expect.stringMatching(/is sent as 'shirt'/), expect.stringMatching(/does not include pid/)])
  })

  test.each([
    [{ [SearchInput.AccountId]: '' }, /search-account-id is required when search-query is set/],
    [
      { [SearchInput.AccountId]: '', [SearchInput.AuthKey]: '', [SearchInput.DomainKey]: '' },
      /^3 search keys are required when search-query is set and missing: search-account-id \(.*\); search-auth-key \(.*\); search-domain-key \(.*\)\.$/
    ],
    [{ [SearchInput.AuthKey]: '' }, /search-auth-key is required.*secrets\.BR_SEARCH_AUTH_KEY/],
    [{ [SearchInput.DomainKey]: '' }, /search-domain-key is required.*refuses requests without it/],
    [{ [SearchInput.AccountId]: '60 01' }, /search-account-id contains white space/],
    [{ [SearchInput.DomainKey]: 'a\tb' }, /search-domain-key contains white space/],
    [{ [SearchInput.AuthKey]: 'the-auth-key\u0000' }, /search-auth-key contains white space or a control character/],
    [{ [SearchInput.Type]: 'fuzzy' }, /search-type 'fuzzy' is not a search type: write keyword .* or category/],
    [{ [SearchInput.Environment]: 'prod' }, /search-environment 'prod' is not a search environment: write production .*core\.dxpapi\.com.*or staging/],
    [{ [SearchInput.BaseUrl]: 'core.dxpapi.com' }, /search-base-url 'core\.dxpapi\.com' is not an absolute address/],
    [{ [SearchInput.BaseUrl]: 'http://core.dxpapi.com' }, /plain http to core\.dxpapi\.com: the auth key would travel unencrypted/],
    [{ [SearchInput.BaseUrl]: 'ftp://core.dxpapi.com' }, /must start with https:\/\//],
    [{ [SearchInput.BaseUrl]: 'https://u:p@core.dxpapi.com' }, /must not contain a user name or password/],
    [{ [SearchInput.BaseUrl]: 'https://core.dxpapi.com/?auth_key=x' }, /must not have a query or fragment/],
    [{ [SearchInput.BaseUrl]: 'https://core.dxpapi.com/api/v1/core/' }, /includes the API path: give the host only/],
    [{ [SearchInput.Fields]: 'pid,name' }, /search-fields names 'name', which the search service does not return.*pid, title, brand/],
    [{ [SearchInput.Fields]: 'PID' }, /did you mean 'pid'\? names are lower case/],
    [{ [SearchInput.Fields]: ' , ' }, /names no field/],
    [{ [SearchInput.Rows]: '0' }, /search-rows 0 is out of range: write a number from 1 to 200/],
    [{ [SearchInput.Rows]: '201' }, /search-rows 201 is out of range/],
    [{ [SearchInput.Rows]: 'ten' }, /search-rows 'ten' is not a whole number/],
    [{ [SearchInput.MinResults]: '-1' }, /search-min-results '-1' is not a whole number/],
    [{ [SearchInput.TimeoutSeconds]: '1' }, /search-timeout-seconds 1 is out of range: write a number from 2 to 120/],
    [{ [SearchInput.TimeoutSeconds]: '0' }, /search-timeout-seconds 0 is out of range/],
    [{ [SearchInput.TimeoutSeconds]: '1.5' }, /search-timeout-seconds '1\.5' is not a whole number/],
    [{ [SearchInput.WaitSeconds]: '3601' }, /search-wait-seconds 3601 is out of range: write a number from 0 to 3600/],
    [{ [SearchInput.Url]: 'a\u0007b' }, /search-page-url contains a control character/],
    [{ [SearchInput.Uid]: 'uid%3D7797686432023' }, /search-uid "uid%3D7797686432023" is not a visitor id/],
    [
      { [SearchInput.Uid]: 'uid=1:v=app' },
      /search-uid "uid=1:v=app" is not a visitor id\. Write either a bare uid of letters and digits .* or a whole _br_uid_2 value uid=<id>:v=<version>:ts=<number>:hc=<number>/
    ],
    [{ [SearchInput.Uid]: 'uid=1:v=app:ts=0:hc=1:x=2' }, /search-uid .* is not a visitor id/],
    [{ [SearchInput.Uid]: 'my visitor' }, /search-uid "my visitor" is not a visitor id/],
    [{ [SearchInput.Uid]: 'uid=1:hc=1:v=app:ts=0' }, /is not a visitor id/],
    [{ [SearchInput.Query]: '?' }, /search-query '\?' alone is not allowed/],
    [{ [SearchInput.Query]: 'x'.repeat(301) }, /301 characters long/],
    [{ [SearchInput.Query]: 'été', [SearchInput.Type]: 'category' }, /non-ASCII letter 'é'/]
  ])('refused: %j', (over, why) => refused(over, why))
})

describe('action.yml defaults', () => {
  // The defaults themselves are generated from action.yml (action-metadata.test.ts checks the file):
  // here, a runner that passes every default gives the same config as empty inputs, and no warning.
  test('a runner passing the defaults of action.yml changes nothing', async () => {
    const { INPUT_DEFAULTS } = await import('../src/action-metadata.js')
    const defaults: Record<string, string> = {}
    for (const name of Object.values(SearchInput)) defaults[name] = INPUT_DEFAULTS[name]
    expect(read({ ...defaults, ...base })).toEqual(read())
    const warnings: string[] = []
    expect(parseSearchConfig(getter(defaults), { warn: (m) => warnings.push(m) })).toBeUndefined()
    expect(warnings).toEqual([])
  })
})
