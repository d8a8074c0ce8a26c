// The contract with the real services (./contract/public-clients.ts), made call by call against the
// emulator the way each public client makes it, checking that every field the client reads is there.
// Also Bloomreach's own search client, run unchanged against the emulator's search API. Each answer is the
// one its source shows, or names on the wire (X-Emulator-Invented) exactly what in it the source does not show.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { autoSuggest, bestseller, categorySearch, contentSearch, productSearch } from '@bloomreach/discovery-web-sdk'
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { CLOUD_CASES, SDK_CONFIGURATION, SEARCH_CASES, type ContractCase, type Slot } from './contract/public-clients.js'

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

function archive(): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'contract-'))
  writeFileSync(join(dir, 'version.txt'), 'contract\n')
  execFileSync('tar', ['-czf', join(dir, 'site.tar.gz'), '-C', dir, 'version.txt'])
  return readFileSync(join(dir, 'site.tar.gz'))
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
  const headers: Record<string, string> = { accept: 'application/json' }
  if (c.auth === 'bearer') headers.authorization = `Bearer ${c.badToken ? 'not-a-valid-token' : (slots.accessToken ?? '')}`
  let body: Buffer | undefined
  if (c.json !== undefined) {
    body = Buffer.from(fill(JSON.stringify(c.json)))
    if (!c.bareJson) headers['content-type'] = 'application/json'
  }
  if (c.upload) {
    const boundary = 'contract-boundary'
    headers['content-type'] = `multipart/form-data; boundary=${boundary}`
    body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="dist_file"; filename="site.tar.gz"\r\nContent-Type: application/gzip\r\n\r\n`),
      archive(),
      Buffer.from(`\r\n--${boundary}--\r\n`)
    ])
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
  test.each(SEARCH_CASES.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const res = await call('GET', `${c.path ?? '/api/v1/core/'}?${query(c.query, c.withoutAuthKey)}`, { accept: 'application/json' })
    expect({ id: c.id, status: res.status, text: res.status === c.status ? '' : res.text }).toEqual({ id: c.id, status: c.status, text: '' })
    const answer: unknown = JSON.parse(res.text)
    for (const path of c.reads) expect({ path, present: at(answer, path) !== undefined }).toEqual({ path, present: true })
    expect({ id: c.id, invented: [...res.invented].sort() }).toEqual({ id: c.id, invented: [...(c.invented ?? [])].sort() })
    if (c.withoutAuthKey) expect(emu.requests.at(-1)?.url).not.toMatch(/[?&]auth_key=/)
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
    expect((await contentSearch('shirt', config, { ...visitor, catalog_name: 'content_en' } as Parameters<typeof contentSearch>[2])).response).toBeDefined()
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
