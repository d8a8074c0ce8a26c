// The search smoke check end to end: the bundled action against the emulator's search API.
import { startEmulator, type Emulator, type EmulatorOptions } from '../src/emulator/server.js'
import { makeDistributionTree } from '../scripts/lib/sample-tree.js'
import { ops, run, sweepAndClose } from './e2e-support.js'

let emu: Emulator
async function emulator(options: EmulatorOptions = {}): Promise<Emulator> {
  emu = await startEmulator(options)
  return emu
}
afterEach(async () => {
  await sweepAndClose(emu, [emu.search.authKey])
})

/** A search-only run: no distribution, no cloud credentials. */
const searchOnly = (over: Record<string, string> = {}) => ({
  'search-query': 'shirt',
  'search-account-id': emu.search.accountId,
  'search-auth-key': emu.search.authKey,
  'search-domain-key': emu.search.domainKey,
  'search-base-url': emu.url,
  ...over
})

/** The query string of the n-th search request the emulator received, as a map (decoded once). */
function query(n = 0): URLSearchParams {
  const r = ops(emu, 'search')[n]
  if (!r) throw new Error(`no search request #${n}`)
  return new URLSearchParams(r.url.split('?')[1] ?? '')
}

describe('search check end to end (bundled dist/index.js)', () => {
  test('keyword check, search only: no login, the query string the service documents', async () => {
    await emulator()
    const r = await run(searchOnly({ 'search-fields': 'pid,title,price', 'search-rows': '3' }))
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(ops(emu, 'login')).toHaveLength(0)
    expect(emu.requests.every((x) => x.operation === 'search')).toBe(true)

    const raw = ops(emu, 'search')[0]?.url ?? ''
    expect(raw.startsWith('/api/v1/core/?')).toBe(true)
    // _br_uid_2 in the app form, percent-encoded exactly once.
    expect(raw).toMatch(/[?&]_br_uid_2=uid%3D[A-Za-z0-9]+%3Av%3Dapp%3Ats%3D0%3Ahc%3D1(&|$)/)
    const q = query()
    expect(q.get('account_id')).toBe(emu.search.accountId)
    expect(q.get('auth_key')).toBe(emu.search.authKey)
    expect(q.get('domain_key')).toBe(emu.search.domainKey)
    expect(q.get('request_id')).toMatch(/^\d{13}$/)
    expect(q.get('ref_url')).toBe('')
    expect(q.get('url')).toBe('https://github.com/acme/site')
    expect(q.get('request_type')).toBe('search')
    expect(q.get('search_type')).toBe('keyword')
    expect(q.get('q')).toBe('shirt')
    expect(q.get('fl')).toBe('pid,title,price')
    expect(q.get('rows')).toBe('3')
    expect(q.get('start')).toBe('0')
    expect(ops(emu, 'search')[0]?.headers['cache-control']).toMatch(/no-cache/)

    expect(r.outputs['search-num-found']).toBe('4')
    expect(r.outputs['search-latency-ms']).toMatch(/^\d+$/)
    expect(r.outputs['search-request-id']).toBe(q.get('request_id'))
    expect(r.outputs['distribution-id']).toBeUndefined()
    expect(r.summary).toContain('## Bloomreach search check')
    expect(r.summary).toContain('### Search check')
    expect(r.summary).toMatch(/\| Results found \| 4 \(at least 1 wanted\) \|/)
    expect(r.summary).toContain('Oxford Shirt')
    expect(r.summary).not.toMatch(/undefined|null|NaN/)
    expect(r.visible).toContain('::group::Search check')
    expect(r.visible).toMatch(/::notice::Search check passed: 'shirt' found 4 result\(s\)/)
  })

  test('category check, legacy facets', async () => {
    await emulator({ searchFacetFormat: 'legacy' })
    const r = await run(searchOnly({ 'search-query': 'shoes', 'search-type': 'category' }))
    expect(r.code).toBe(0)
    expect(query().get('search_type')).toBe('category')
    expect(query().get('q')).toBe('shoes')
    expect(r.outputs['search-num-found']).toBe('3')
    expect(r.summary).toMatch(/\| Facet format \| legacy/)
  })

  test('V3 facets are read and named in the summary', async () => {
    await emulator({ searchFacetFormat: 'v3' })
    const r = await run(searchOnly())
    expect(r.code).toBe(0)
    expect(r.summary).toMatch(/\| Facet format \| V3 \(facet_counts\.facets\): \w+/)
  })

  test('the q rewriting the service documents: term1*term2 is sent as "term1 term2", with a warning', async () => {
    await emulator()
    const r = await run(searchOnly({ 'search-query': 'linen*shirt' }))
    expect(r.code).toBe(0)
    expect(query().get('q')).toBe('linen shirt')
    expect(r.visible).toMatch(/::warning::.*linen\*shirt/)
  })

  test('zero results fail the step', async () => {
    await emulator()
    const r = await run(searchOnly({ 'search-query': 'gift-cards', 'search-type': 'category' }))
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(
      /Search check failed: The search for 'gift-cards' found 0 product\(s\), fewer than search-min-results 1\. Check that search-query matches products of search-domain-key's catalogue, lower search-min-results, or set search-wait-seconds \(e\.g\. 120\)/
    )
    expect(r.outputs['search-num-found']).toBe('0')
    expect(r.summary).toContain('❌')
  })

  test('a timeout fails the step and says what the limit was', async () => {
    // No answer at all (not a late one, which a stalled runner could still read in time): every attempt runs out.
    await emulator({ faults: [{ operation: 'search', kind: 'hang', times: 10 }] })
    const r = await run(searchOnly({ 'search-timeout-seconds': '2' }))
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/Search check failed: .*2 s/)
  })

  test('a failing service is retried inside the wait window until the check passes', async () => {
    await emulator({ faults: [{ operation: 'search', kind: 'status', status: 543, times: 2 }] })
    const r = await run(searchOnly({ 'search-wait-seconds': '30' }))
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(ops(emu, 'search').map((x) => x.status)).toEqual([543, 543, 200])
  })

  test('without a wait window a single 503 is retried (max-attempts) and the check passes', async () => {
    await emulator({ faults: [{ operation: 'search', kind: 'status', status: 503, times: 1 }] })
    const r = await run(searchOnly())
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(ops(emu, 'search').map((x) => x.status)).toEqual([503, 200])
  })

  test('_br_uid_2 is the same on every run of the repository; search-uid pins it', async () => {
    await emulator()
    expect((await run(searchOnly())).code).toBe(0)
    expect((await run(searchOnly())).code).toBe(0)
    expect((await run(searchOnly({ 'search-uid': 'uid=7797686432023:v=app:ts=0:hc=1' }))).code).toBe(0)
    expect(query(0).get('_br_uid_2')).toMatch(/^uid=[1-9]\d{12}:v=app:ts=0:hc=1$/)
    expect(query(1).get('_br_uid_2')).toBe(query(0).get('_br_uid_2'))
    expect(query(2).get('_br_uid_2')).toBe('uid=7797686432023:v=app:ts=0:hc=1')
    // A cookie value copied from a browser (percent-encoded once) is accepted and sent encoded exactly once.
    expect((await run(searchOnly({ 'search-uid': 'uid%3D7797686432023%3Av%3D11.5%3Ats%3D1428617911187%3Ahc%3D55' }))).code).toBe(0)
    expect(query(3).get('_br_uid_2')).toBe('uid=7797686432023:v=11.5:ts=1428617911187:hc=55')
    expect(ops(emu, 'search')[3]?.url).toMatch(/_br_uid_2=uid%3D7797686432023%3Av%3D11\.5%3Ats%3D1428617911187%3Ahc%3D55(&|$)/)
    const bad = await run(searchOnly({ 'search-uid': 'uid%3D7797686432023' }))
    expect(bad.code).toBe(1)
    expect(bad.errors[0]).toMatch(/search-uid .* is not a visitor id/)
    expect(ops(emu, 'search')).toHaveLength(4)
  })

  test('a wrong auth key: 403 shown without the key, not retried', async () => {
    await emulator()
    const r = await run(searchOnly({ 'search-auth-key': 'wrong-key-987', 'search-wait-seconds': '10' }))
    expect(r.code).toBe(1)
    expect(ops(emu, 'search')).toHaveLength(1)
    expect(r.errors[0]).toMatch(/403/)
    // A request was sent and answered: the headline says the check failed, never "before anything was done".
    expect(r.summary).toMatch(/^## Bloomreach search check\n\n\*\*❌ Search check failed\*\*$/m)
    expect(r.visible).not.toContain('wrong-key-987')
    expect(r.summary).not.toContain('wrong-key-987')
  })

  test('refused before any request: ? alone, an unknown search-type, a missing domain key', async () => {
    await emulator()
    for (const [over, why] of [
      [{ 'search-query': '?' }, /search-query/],
      [{ 'search-type': 'fuzzy' }, /search-type 'fuzzy'/],
      [{ 'search-domain-key': '' }, /search-domain-key/],
      [{ 'search-timeout-seconds': '1' }, /search-timeout-seconds/]
    ] as const) {
      const r = await run(searchOnly(over))
      expect(r.code).toBe(1)
      expect(r.errors).toHaveLength(1)
      expect(r.errors[0]).toMatch(why)
      // A search check alone, refused: no deployment table, no "Environment — (upload only)".
      expect(r.summary).toMatch(/^## Bloomreach search check\n\n\*\*❌ Failed before anything was done\*\*$/m)
      expect(r.summary).not.toContain('| Environment |')
    }
    expect(emu.requests).toEqual([])
  })

  test('deploy, then the search check, in one step', async () => {
    await emulator()
    const r = await run({
      ...searchOnly(),
      'api-url': emu.url,
      username: emu.username,
      password: emu.password,
      distribution: makeDistributionTree(),
      environment: 'development'
    })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    // A look before the request (busy?), the search check once the deploy is followed, and a last look at the end.
    expect(emu.requests.map((x) => x.operation)).toEqual([
      'login',
      'list-environments',
      'list-distributions',
      'upload',
      'list-environments',
      'deploy',
      'list-environments',
      'search',
      'list-environments',
      'revoke-refresh'
    ])
    expect(r.outputs['distribution-id']).toBe(emu.distributions[0]?.id)
    expect(r.outputs['search-num-found']).toBe('4')
    expect(r.summary).toContain('## Bloomreach Cloud deployment')
    expect(r.summary).toContain('### Search check')
  })
})
