// The contract with the real services (./contract/public-clients.ts), made call by call against the
// emulator the way each public client makes it, checking that every field the client reads is there.
// Also Bloomreach's own search client, run unchanged against the emulator's search API, and the cleanup
// action's flow on a stack full at 100 distributions. Each answer is the one its source shows, or names on
// the wire (X-Emulator-Invented) exactly what in it the source does not show.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { autoSuggest, bestseller, categorySearch, contentSearch, getItemWidget, productSearch } from '@bloomreach/discovery-web-sdk'
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { CLOUD_CASES, FULL_STACK_CLEANUP, SDK_CONFIGURATION, SEARCH_CASES, type ContractCase, type SearchCase, type Slot } from './contract/public-clients.js'

let emu: Emulator
beforeAll(async () => {
  // Room for two distributions: the third upload finds the stack full, as a stack of 100 would.
  emu = await startEmulator({ appConfigFiles: ['site.properties'], maxDistributions: 2 })
})
afterAll(() => emu.close())

/** The value at a dot path ("items.0.id"; "[].id" reads the first item of an array answer). */
function at(value: unknown, path: string): unknown {
  let v = value
  for (const key of path.replace(/^\[\]\./, '0.').split('.')) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined
  return v
}

let archived: Buffer | undefined
/** A small distribution made by GNU tar, once. */
function archive(): Buffer {
  if (archived !== undefined) return archived
  const dir = mkdtempSync(join(tmpdir(), 'contract-'))
  writeFileSync(join(dir, 'version.txt'), 'contract\n')
  execFileSync('tar', ['-czf', join(dir, 'site.tar.gz'), '-C', dir, 'version.txt'])
  archived = readFileSync(join(dir, 'site.tar.gz'))
  return archived
}

/** The multipart form with the part `dist_file`, as every public client builds it. */
function uploadForm(): { contentType: string; body: Buffer } {
  const boundary = 'contract-boundary'
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="dist_file"; filename="site.tar.gz"\r\nContent-Type: application/gzip\r\n\r\n`),
      archive(),
      Buffer.from(`\r\n--${boundary}--\r\n`)
    ])
  }
}

interface Answer {
  status: number
  text: string
  /** X-Emulator-Invented, split. */
  invented: string[]
}

/**
 * One HTTP/1.1 call with exactly the headers asked for (fetch would add a Content-Type to a text body). A
 * chunked body goes in pieces with no Content-Length (Node then sends Transfer-Encoding: chunked).
 */
function call(method: string, path: string, headers: Record<string, string>, body?: Buffer, chunked = false): Promise<Answer> {
  const target = /^https?:\/\//.test(path) ? path : `${emu.url}${path}`
  const sized = body !== undefined && !chunked ? { ...headers, 'content-length': String(body.length) } : headers
  return new Promise((resolve, reject) => {
    const req = request(target, { method, headers: sized }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const marks = res.headers['x-emulator-invented']
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), invented: typeof marks === 'string' ? marks.split(', ') : [] })
      })
    })
    req.on('error', reject)
    if (body !== undefined && chunked) {
      for (let at = 0; at < body.length; at += 4096) req.write(body.subarray(at, at + 4096))
      req.end()
    } else req.end(body)
  })
}

const slots: Partial<Record<Slot | 'username' | 'password', string>> = {}
const fill = (text: string): string => text.replace(/\{(\w+)\}/g, (_, name: string) => slots[name as Slot] ?? `{${name}}`)

async function make(c: ContractCase): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...c.headers }
  if (c.auth === 'bearer') headers.authorization = `Bearer ${c.badToken ? 'not-a-valid-token' : (slots.accessToken ?? '')}`
  let body: Buffer | undefined
  if (c.json !== undefined) {
    body = Buffer.from(fill(JSON.stringify(c.json)))
    if (!c.bareJson) headers['content-type'] = 'application/json'
  }
  if (c.upload) {
    const form = uploadForm()
    headers['content-type'] = form.contentType
    body = form.body
  }
  return call(c.method, fill(c.path), headers, body, c.upload === 'chunked')
}

describe('the management API, as public clients call it', () => {
  beforeAll(() => {
    slots.username = emu.username
    slots.password = emu.password
  })
  // In order: later calls use what earlier ones captured.
  test.each(CLOUD_CASES.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const res = await make(c)
    expect({ id: c.id, status: res.status, accepted: c.status.includes(res.status), answer: c.status.includes(res.status) ? '' : res.text }).toMatchObject({
      accepted: true
    })
    const answer: unknown = res.text && res.text.trimStart().match(/^[[{]/) ? JSON.parse(res.text) : undefined
    for (const path of c.reads ?? []) expect({ path, present: at(answer, path) !== undefined }).toEqual({ path, present: true })
    for (const [slot, path] of Object.entries(c.captures ?? {})) slots[slot as Slot] = String(at(answer, path))
    expect({ id: c.id, invented: [...res.invented].sort() }).toEqual({ id: c.id, invented: [...(c.invented ?? [])].sort() })
  })

  test('the chunked upload arrived without a Content-Length', () => {
    const chunked = emu.requests.filter((r) => r.operation === 'upload').at(-1)
    expect(chunked).toMatchObject({ status: 201, headers: { 'transfer-encoding': 'chunked' } })
    expect(chunked?.headers).not.toHaveProperty('content-length')
  })

  test("the cleanup action's DELETE arrived with its Content-Type and no body, and took the distribution away", () => {
    const deleted = emu.requests.filter((r) => r.operation === 'delete-distribution' && r.status === 204)
    expect(deleted).toHaveLength(1)
    expect(deleted[0]?.headers['content-type']).toBe('application/json')
    expect(deleted[0]?.headers).not.toHaveProperty('content-length')
    expect(deleted[0]?.headers).not.toHaveProperty('transfer-encoding')
    expect(emu.distributions.map((d) => d.id)).not.toContain(slots.spareDistributionId)
  })

  test('a path with a trailing slash reached no operation: the upload to /v3/distributions/ was not parsed', () => {
    const refused = emu.requests.filter((r) => r.url === '/v3/distributions/' && r.method === 'POST')
    expect(refused).toHaveLength(1)
    expect(refused[0]).toMatchObject({ operation: 'unknown', status: 404, headers: { 'transfer-encoding': 'chunked' } })
    expect(refused[0]?.parts).toBeUndefined()
  })
})

describe("the search API, as Bloomreach's own client calls it", () => {
  const query = (q: Readonly<Record<string, string | readonly string[]>>, withoutAuthKey = false): string => {
    const { auth_key: _key, ...readme } = SDK_CONFIGURATION
    const params = Object.entries({ ...(withoutAuthKey ? readme : SDK_CONFIGURATION), ...q }).flatMap(([k, v]) =>
      (Array.isArray(v) ? v : [v]).map((one: string) => [k, one])
    )
    // As the client writes it: every value percent-encoded, except _br_uid_2, sent exactly as given.
    return params.map(([k, v]) => `${k}=${k === '_br_uid_2' ? v : encodeURIComponent(v ?? '')}`).join('&')
  }
  const search = (c: SearchCase): Promise<Answer> =>
    call('GET', `${c.path ?? '/api/v1/core/'}?${query(c.query, c.withoutAuthKey)}`, { accept: 'application/json', ...c.headers })
  test.each(SEARCH_CASES.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const res = await search(c)
    expect({ id: c.id, status: res.status, text: res.status === c.status ? '' : res.text }).toEqual({ id: c.id, status: c.status, text: '' })
    const answer: unknown = JSON.parse(res.text)
    for (const path of c.reads) expect({ path, present: at(answer, path) !== undefined }).toEqual({ path, present: true })
    expect({ id: c.id, invented: [...res.invented].sort() }).toEqual({ id: c.id, invented: [...(c.invented ?? [])].sort() })
    if (c.withoutAuthKey) expect(emu.requests.at(-1)?.url).not.toMatch(/[?&]auth_key=/)
  })

  test("the search widget's filters are applied as the server received them: white or blue, 40 to 60, GET with a Content-Type", async () => {
    const widget = SEARCH_CASES.find((c) => c.id === "the search widget's product search")
    if (widget === undefined) throw new Error('the widget case is missing')
    const res = await search(widget)
    const received = emu.requests.at(-1)
    const params = new URL(received?.url ?? '', 'http://emulator.invalid').searchParams
    expect(params.getAll('fq')).toEqual(['colors:"white" OR "blue"', 'price:[40 TO 60]'])
    expect([params.get('sort'), received?.headers['content-type']]).toEqual(['', 'application/json'])
    const docs = (JSON.parse(res.text) as { response: { docs: Array<{ price: number; pid: string }> } }).response.docs
    expect(docs.map((d) => d.pid)).toEqual(['P1001'])
    expect(docs.every((d) => d.price >= 40 && d.price <= 60)).toBe(true)
  })

  test('the official client itself, unchanged but for its endpoint, parses every answer', async () => {
    const config = {
      account_id: 6001,
      domain_key: SDK_CONFIGURATION.domain_key,
      auth_key: SDK_CONFIGURATION.auth_key,
      searchEndpoint: `${emu.url}/api/v1/core/`
    }
    const visitor = { _br_uid_2: 'uid%3D7797686432023%3Av%3D11.5%3Ats%3D1428617911187%3Ahc%3D55', url: 'https://www.example.com/' }
    const found = await productSearch('shirt', config, { ...visitor, fl: 'pid,title', rows: 5 } as Parameters<typeof productSearch>[2])
    expect(found.response?.numFound).toBe(4)
    expect((await categorySearch('shirts', config, visitor as Parameters<typeof categorySearch>[2])).response?.numFound).toBeGreaterThan(0)
    expect((await bestseller('shirt', config, visitor as Parameters<typeof bestseller>[2])).response?.numFound).toBeGreaterThan(0)
    const content = await contentSearch('shirt', config, { ...visitor, catalog_name: 'content_en' } as Parameters<typeof contentSearch>[2])
    const items = (content.response?.docs ?? []) as unknown as Array<Record<string, unknown>>
    expect(items.length).toBeGreaterThan(0)
    expect(items.every((doc) => Object.keys(doc).join() === 'item_id' && typeof doc.item_id === 'string')).toBe(true)
    const calls = emu.requests.filter((r) => r.operation === 'search').slice(-4)
    expect(calls.map((r) => r.status)).toEqual([200, 200, 200, 200])
    expect(calls.every((r) => !/[?&](request_id|ref_url)=/.test(r.url))).toBe(true)
  })

  test('the official client as its README configures it (no auth_key), with fq, sort and repeated stats.field on category and bestseller searches', async () => {
    const readme = { account_id: 6001, domain_key: SDK_CONFIGURATION.domain_key, searchEndpoint: `${emu.url}/api/v1/core/` }
    const visitor = { _br_uid_2: 'someCookieId', url: 'https://www.example.com/' }
    const refine = { fl: 'pid,price', fq: ['colors:"white" OR "red"'], sort: 'price asc', 'stats.field': ['price', 'sale_price'] }
    for (const answer of [
      await categorySearch('shirts', readme, { ...visitor, ...refine } as unknown as Parameters<typeof categorySearch>[2]),
      await bestseller('shirt', readme, { ...visitor, ...refine } as unknown as Parameters<typeof bestseller>[2])
    ]) {
      const prices = answer.response?.docs?.map((d) => Number(d.price)) ?? []
      expect(prices.length).toBeGreaterThan(0)
      expect(prices).toEqual([...prices].sort((x, y) => x - y))
      expect(Object.keys(answer.stats?.stats_fields ?? {})).toEqual(['price', 'sale_price'])
    }
    const calls = emu.requests.filter((r) => r.operation === 'search').slice(-2)
    expect(calls.map((r) => r.status)).toEqual([200, 200])
    expect(calls.every((r) => !/[?&]auth_key=/.test(r.url) && (r.url.match(/stats\.field=/g) ?? []).length === 2)).toBe(true)
  })

  test("the official client's recommendation widget gets 501 NotEmulated, naming the call", async () => {
    const config = { account_id: 6001, domain_key: SDK_CONFIGURATION.domain_key, widgetEndpoint: `${emu.url}/api/v2/widgets/` }
    const options = { _br_uid_2: 'someCookieId', url: 'https://www.example.com/', ref_url: '', request_id: 1234567890123, rows: 4, start: 0, item_ids: 'P1001' }
    const failure = await getItemWidget('w5rmbxxj', config, options as Parameters<typeof getItemWidget>[2]).then(
      () => undefined,
      (err: unknown) => err as { status?: number; body?: string }
    )
    expect(failure?.status).toBe(501)
    expect(JSON.parse(failure?.body ?? '{}')).toEqual({
      error_code: 'NotEmulated',
      error_detail: 'GET /api/v2/widgets/item/w5rmbxxj exists on the real service but is not emulated here'
    })
    expect(new URL(emu.requests.at(-1)?.url ?? '', 'http://emulator.invalid').searchParams.get('item_ids')).toBe('P1001')
  })

  test("the official client's autosuggest gets 501 NotEmulated, naming the call", async () => {
    const config = { account_id: 6001, domain_key: SDK_CONFIGURATION.domain_key, suggestEndpoint: `${emu.url}/api/v2/suggest/` }
    const failure = await autoSuggest('shi', config, { _br_uid_2: 'someCookieId', url: 'https://www.example.com/' } as Parameters<typeof autoSuggest>[2]).then(
      () => undefined,
      (err: unknown) => err as { status?: number; body?: string }
    )
    expect(failure?.status).toBe(501)
    expect(JSON.parse(failure?.body ?? '{}')).toEqual({
      error_code: 'NotEmulated',
      error_detail: 'GET /api/v2/suggest/ exists on the real service but is not emulated here'
    })
  })
})

describe('a full stack of 100 distributions, as a cleanup client sees it', () => {
  interface Page {
    offset: number
    max: number
    count: number
    more: boolean
    total: number
    items: Array<{ id: string; createdAt: string }>
  }
  const { maxDistributions, deleteCount, headers: cleanupHeaders } = FULL_STACK_CLEANUP
  let stack: Emulator
  let token = ''
  const on = (path: string): string => `${stack.url}${path}`
  const authorized = (headers: Record<string, string> = {}): Record<string, string> => ({
    accept: 'application/json',
    authorization: `Bearer ${token}`,
    ...headers
  })
  const json = <T>(answer: Answer): T => JSON.parse(answer.text) as T
  const list = async (query = '', headers: Record<string, string> = {}): Promise<Page> =>
    json<Page>(await call('GET', on(`/v3/distributions${query}`), authorized(headers)))
  const upload = (path = '/v3/distributions'): Promise<Answer> => {
    const form = uploadForm()
    return call('POST', on(path), authorized({ 'content-type': form.contentType }), form.body)
  }
  const remove = (id: string): Promise<Answer> => call('DELETE', on(`/v3/distributions/${id}`), authorized(cleanupHeaders))

  beforeAll(async () => {
    stack = await startEmulator({ maxDistributions })
    const credentials = Buffer.from(JSON.stringify({ username: stack.username, password: stack.password }))
    token = json<{ access_token: string }>(await call('POST', on('/v3/authn/access_token'), { 'content-type': 'application/json' }, credentials)).access_token
    for (let i = 0; i < maxDistributions; i++) expect((await upload()).status).toBe(201)
  })
  afterAll(() => stack.close())

  test('the stack is full: the next upload is refused', async () => {
    const refused = await upload()
    expect([refused.status, json<{ error_code: string }>(refused).error_code]).toEqual([409, 'DistributionLimitReached'])
    expect(stack.distributions).toHaveLength(maxDistributions)
  })

  test('the default page holds all 100, as the cleanup action reads it (count compared with maxDistributions)', async () => {
    const page = await list('', cleanupHeaders)
    expect({ ...page, items: page.items.length }).toEqual({ offset: 0, max: 100, count: 100, more: false, total: 100, items: 100 })
    expect(new Set(page.items.map((d) => d.id))).toEqual(new Set(stack.distributions.map((d) => d.id)))
  })

  test('a client that pages with a smaller max sees every distribution once, with more until the last page', async () => {
    const seen: string[] = []
    const pages: Array<Omit<Page, 'items'>> = []
    for (let offset = 0, more = true; more;) {
      const { items, ...page } = await list(`?offset=${offset}&max=30`)
      seen.push(...items.map((d) => d.id))
      pages.push(page)
      more = page.more
      offset += page.count // by what it received, not by what it asked for
    }
    expect(pages.map(({ offset, count, more, total }) => [offset, count, more, total])).toEqual([
      [0, 30, true, 100],
      [30, 30, true, 100],
      [60, 30, true, 100],
      [90, 10, false, 100]
    ])
    expect(seen).toHaveLength(100)
    expect(new Set(seen)).toEqual(new Set(stack.distributions.map((d) => d.id)))
  })

  test('the cleanup action deletes the oldest by createdAt, one DELETE each with its Content-Type and no body; then an upload fits', async () => {
    const { items, count } = await list('', cleanupHeaders)
    expect(count).toBeGreaterThanOrEqual(maxDistributions)
    const oldest = [...items].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt)).slice(-deleteCount)
    for (const d of oldest) expect((await remove(d.id)).status).toBe(204)

    const received = stack.requests.filter((r) => r.operation === 'delete-distribution')
    expect(received.map((r) => [r.url, r.status, r.headers['content-type'], r.headers['content-length'], r.headers['transfer-encoding']])).toEqual(
      oldest.map((d) => [`/v3/distributions/${d.id}`, 204, 'application/json', undefined, undefined])
    )
    const left = stack.distributions
    expect(left).toHaveLength(maxDistributions - deleteCount)
    expect(left.filter((d) => oldest.some((o) => o.id === d.id))).toEqual([])
    expect(Math.max(...oldest.map((d) => Date.parse(d.createdAt)))).toBeLessThanOrEqual(Math.min(...left.map((d) => Date.parse(d.createdAt))))

    // With room again, the trailing slash still stores nothing; the path without it does.
    expect((await upload('/v3/distributions/')).status).toBe(404)
    expect(stack.distributions).toHaveLength(maxDistributions - deleteCount)
    expect((await upload()).status).toBe(201)
    expect((await list()).total).toBe(maxDistributions - deleteCount + 1)
  })

  test('a client that deletes while it pages sees the list close up behind the deletes: advancing its offset would skip', async () => {
    const first = await list('?offset=0&max=10')
    const second = await list('?offset=10&max=10')
    for (const d of first.items) expect((await remove(d.id)).status).toBe(204)
    const again = await list('?offset=0&max=10')
    expect(again.items.map((d) => d.id)).toEqual(second.items.map((d) => d.id))
    expect(again.total).toBe(first.total - 10)
  })
})
