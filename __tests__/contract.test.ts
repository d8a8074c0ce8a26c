// The contract with the real services (./contract/public-clients.ts), made call by call against the
// emulator the way each public client makes it, checking that every field the client reads is there.
// Also Bloomreach's own search client, run unchanged against the emulator's search API.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bestseller, categorySearch, contentSearch, productSearch } from '@bloomreach/discovery-web-sdk'
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { CLOUD_CASES, SDK_CONFIGURATION, SEARCH_CASES, type ContractCase, type Slot } from './contract/public-clients.js'

let emu: Emulator
beforeAll(async () => {
  emu = await startEmulator({ appConfigFiles: ['site.properties'] })
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

/** One HTTP/1.1 call with exactly the headers asked for (fetch would add a Content-Type to a text body). */
function call(method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${emu.url}${path}`, { method, headers: body ? { ...headers, 'content-length': String(body.length) } : headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

const slots: Partial<Record<Slot | 'username' | 'password', string>> = {}
const fill = (text: string): string => text.replace(/\{(\w+)\}/g, (_, name: string) => slots[name as Slot] ?? `{${name}}`)

async function make(c: ContractCase): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (c.auth === 'bearer') headers.authorization = `Bearer ${slots.accessToken ?? ''}`
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
  return call(c.method, fill(c.path), headers, body)
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
  })
})

describe("the search API, as Bloomreach's own client calls it", () => {
  const query = (q: Readonly<Record<string, string | readonly string[]>>): string => {
    const params = Object.entries({ ...SDK_CONFIGURATION, ...q }).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((one: string) => [k, one]))
    // As the client writes it: every value percent-encoded, except _br_uid_2, sent exactly as given.
    return params.map(([k, v]) => `${k}=${k === '_br_uid_2' ? v : encodeURIComponent(v ?? '')}`).join('&')
  }
  test.each(SEARCH_CASES.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const res = await call('GET', `/api/v1/core/?${query(c.query)}`, { accept: 'application/json' })
    expect({ id: c.id, status: res.status, text: res.status === c.status ? '' : res.text }).toEqual({ id: c.id, status: c.status, text: '' })
    const answer: unknown = JSON.parse(res.text)
    for (const path of c.reads) expect({ path, present: at(answer, path) !== undefined }).toEqual({ path, present: true })
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
})
