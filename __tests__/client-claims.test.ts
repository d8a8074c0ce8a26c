// The cloud client's claims, word for word, in-process: what it sends (paths, queries, the upload's multipart part,
// the deploy body), what it returns, and each failure it reports. Most run against the emulator over real HTTP;
// answers the emulator never gives (odd ids, items that are not objects, a "null" upload answer, a transport that
// fails before reading the body) come from a scripted transport. @actions/core is a recorder.
import { useTestPort } from './test-port.js'
import { execFileSync } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'

const infos: string[] = []
const warnings: string[] = []
const debugs: string[] = []
useTestPort({
  info: (m: string) => infos.push(m),
  warning: (m: string) => warnings.push(m),
  debug: (m: string) => debugs.push(m),
  setSecret: () => undefined,
  saveState: () => undefined,
  getState: () => ''
})

const { CloudApi } = await import('../src/cloud/api.js')
const { CloudClient, sameMd5 } = await import('../src/cloud/client.js')
const { CloudSession } = await import('../src/cloud/session.js')
const { fileBytes } = await import('../src/archive/bytes.js')
const { planDirectory } = await import('../src/archive/plan.js')
const { packDirectory } = await import('../src/archive/pack.js')
const { InputError } = await import('../src/errors.js')
const { ServiceError } = await import('../src/errors.js')
const { HttpTransport } = await import('../src/http/transport.js')
const { startEmulator } = await import('../src/emulator/server.js')
type Emulator = import('../src/emulator/server.js').Emulator
type EmulatorOptions = import('../src/emulator/server.js').EmulatorOptions
type StoredDistribution = import('../src/emulator/server.js').StoredDistribution
type RecordedRequest = import('../src/emulator/server.js').RecordedRequest
type CloudClient = import('../src/cloud/client.js').CloudClient
type UploadFile = import('../src/cloud/client.js').UploadFile
type CloudSession = import('../src/cloud/session.js').CloudSession
type HttpRequest = import('../src/http/transport.js').HttpRequest
type HttpResponse = import('../src/http/transport.js').HttpResponse
type HttpTransport = import('../src/http/transport.js').HttpTransport

// --- the archive: a real tar.gz of incompressible bytes, over three read chunks (256 KB each) long ---

const work = mkdtempSync(join(tmpdir(), 'client-claims-'))
const archive = join(work, 'site.tar.gz')
{
  const tree = join(work, 'tree')
  mkdirSync(join(tree, 'webapps'), { recursive: true })
  writeFileSync(join(tree, 'webapps', 'site.war'), randomBytes(900_000))
  execFileSync('tar', ['-czf', archive, '-C', tree, '.'])
}
const size = statSync(archive).size
const md5 = createHash('md5').update(readFileSync(archive)).digest('hex')
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** The archive as an upload; `unconfirmed` records each onUnconfirmed call. */
function upload(over: Partial<UploadFile> = {}): { file: UploadFile; unconfirmed: boolean[] } {
  const unconfirmed: boolean[] = []
  const file: UploadFile = {
    bytes: fileBytes(archive),
    fileName: 'site.tar.gz',
    size,
    gate: Promise.resolve(),
    md5: () => Promise.resolve(md5),
    onUnconfirmed: (u) => unconfirmed.push(u),
    ...over
  }
  return { file, unconfirmed }
}

// --- the emulator, one per test ---

const closing: Array<() => Promise<void>> = []
beforeEach(() => {
  infos.length = 0
  warnings.length = 0
  debugs.length = 0
})
afterEach(async () => {
  for (const close of closing.splice(0)) await close()
})

/** A stack and a client of it; retries wait 0 ms. `T` is the client's clock, fixed when the stack started (when an upload began). */
let T = 0
async function stack(options: EmulatorOptions = {}, attempts = 3): Promise<{ e: Emulator; client: CloudClient }> {
  T = Date.now()
  const e = await startEmulator(options)
  const transport = new HttpTransport(e.url, { userAgent: 'client-claims' })
  closing.push(
    () => transport.close(),
    () => e.close()
  )
  const api = new CloudApi(transport, { retry: { attempts, baseDelayMs: 0, maxDelayMs: 0 } })
  const session = new CloudSession(api, e.username, e.password, { target: 'stack test' })
  return { e, client: new CloudClient(api, session, { now: () => T }) }
}

/** The requests of the run past the login: operation, method and url. */
function calls(e: Emulator): string[] {
  return e.requests.filter((r) => r.operation !== 'login').map((r) => `${r.operation} ${r.method} ${r.url} ${r.status}`)
}

/** A distribution record as the emulator stores it (listing needs no file). */
function stored(id: string, name: string, createdAt = '2030-01-01T00:00:00.000Z'): StoredDistribution {
  return { id, name, createdAt, createdBy: 'someone', modifiedAt: createdAt, modifiedBy: 'someone', md5hash: 'ab'.repeat(16), sha256: '', size: 1 }
}

/** The last stored distribution, changed by `change` right after the upload's connection ended. */
function afterUpload(e: Emulator, change: (d: StoredDistribution, r: RecordedRequest) => void): void {
  e.onRequest('upload', (r) => {
    const d = e.distributions.at(-1)
    if (d === undefined) throw new Error('no distribution stored')
    change(d, r)
  })
}

const upper = (s: string): string => s.toUpperCase()

// --- a scripted transport, for answers the emulator never gives ---

type Script = (req: HttpRequest, n: number) => HttpResponse | Promise<HttpResponse>
class ScriptedTransport {
  readonly baseUrl = 'http://scripted.invalid'
  readonly sent: HttpRequest[] = []
  constructor(private readonly script: Script) {}
  send(req: HttpRequest): Promise<HttpResponse> {
    this.sent.push(req)
    if (this.sent.length > 1500) return Promise.reject(new Error('more than 1500 calls'))
    return Promise.resolve().then(() => this.script(req, this.sent.length))
  }
}
const json = (status: number, body: unknown): HttpResponse => ({ status, headers: {}, text: body === undefined ? '' : JSON.stringify(body) })

/** A client over a scripted transport; the session only hands out a token. */
function scripted(script: Script, attempts = 3): { client: CloudClient; t: ScriptedTransport; paths: () => string[] } {
  const t = new ScriptedTransport(script)
  const api = new CloudApi(t as unknown as HttpTransport, { retry: { attempts, baseDelayMs: 0, maxDelayMs: 0 } })
  const session = { authorized: <R>(fn: (token: string) => Promise<R>) => fn('scripted-token') } as unknown as CloudSession
  return { client: new CloudClient(api, session, { now: () => T }), t, paths: () => t.sent.map((r) => `${r.method} ${r.path}`) }
}

/** Reads a streamed body to its end (none: nothing). */
async function drain(body: unknown): Promise<Buffer> {
  const chunks: Buffer[] = []
  if (body === undefined) return Buffer.alloc(0)
  for await (const c of body as Readable) chunks.push(c as Buffer)
  return Buffer.concat(chunks)
}

const hint = (held: string): string =>
  `. The stack may hold as many distributions as the platform allows (100 by default).${held} Set max-distributions (e.g. 50) to delete the oldest ` +
  'ones that no environment runs before each upload, or delete some in the console.'

const adoptLine = (id: string): string =>
  `The platform had stored the upload before its answer was lost: adopting distribution ${id} instead of uploading a duplicate.`
const noCopy = 'No stored copy of the previous attempt was found; uploading again.'
const notProgress = (lines: string[]): string[] => lines.filter((l) => !l.startsWith('Uploading site.tar.gz: '))

describe('uploadDistribution against the emulator', () => {
  test('one dist_file part with the archive, its exact length and the bearer token; the stored record comes back', async () => {
    const { e, client } = await stack()
    const { file, unconfirmed } = upload()
    const result = await client.uploadDistribution(file)

    const d = e.distributions[0] as StoredDistribution
    expect(e.distributions).toHaveLength(1)
    expect(result).toEqual({ id: d.id, name: 'site.tar.gz', createdAt: d.createdAt, createdBy: 'deployer', md5hash: md5, adopted: false, attempts: 1 })
    const [post] = e.requests.filter((r) => r.operation === 'upload')
    expect(post?.method).toBe('POST')
    expect(post?.url).toBe('/v3/distributions')
    expect(post?.status).toBe(201)
    expect(post?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=----brcloud-deploy-[0-9a-f]{32}$/)
    expect(Number(post?.headers['content-length'])).toBeGreaterThan(size)
    expect(post?.headers.authorization).toMatch(/^Bearer \S+$/)
    expect(post?.parts).toEqual([
      { name: 'dist_file', filename: 'site.tar.gz', contentType: 'application/gzip', size, md5, sha256: expect.any(String), path: expect.any(String) }
    ])
    // Sent whole once, over several chunks: one "unconfirmed" and no more (the answer came, and it was a success).
    expect(unconfirmed).toEqual([true])
    expect(debugs).toContain('POST /v3/distributions -> 201')
    expect(infos.at(-1)).toMatch(/^Uploading site\.tar\.gz: ([\d.]+ KB) of \1 \(100%\), [\d.]+ MB\/s$/)
    expect(warnings).toEqual([])
  })

  test('a lost answer after the whole body was sent: the stored upload is adopted, not sent again', async () => {
    const { e, client } = await stack({ faults: [{ operation: 'upload', kind: 'drop-after-upload', times: 1 }] })
    const { file, unconfirmed } = upload()
    const result = await client.uploadDistribution(file)

    const d = e.distributions[0] as StoredDistribution
    expect(e.distributions).toHaveLength(1)
    expect(result).toEqual({ id: d.id, name: 'site.tar.gz', createdAt: d.createdAt, createdBy: 'deployer', md5hash: md5, adopted: true, attempts: 2 })
    expect(calls(e)).toEqual(['upload POST /v3/distributions 0', 'list-distributions GET /v3/distributions?offset=0&max=100 200'])
    expect(notProgress(infos)).toEqual([adoptLine(d.id)])
    expect(unconfirmed).toEqual([true])
    // The connection closed with no answer (undici says "other side closed"; a reset would read ECONNRESET).
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/^Upload attempt 1 failed \((other side closed|read ECONNRESET)\); trying again in 0\.0 s with the same bytes\.$/)
  })

  test('a 503 after the body was read: no stored copy, so the archive is sent again; the warning names the answer', async () => {
    const { e, client } = await stack({ faults: [{ operation: 'upload', kind: 'status', status: 503, times: 1 }] })
    const { file, unconfirmed } = upload()
    const result = await client.uploadDistribution(file)

    const d = e.distributions[0] as StoredDistribution
    expect(result).toMatchObject({ id: d.id, adopted: false, attempts: 2 })
    expect(calls(e)).toEqual([
      'upload POST /v3/distributions 503',
      'list-distributions GET /v3/distributions?offset=0&max=100 200',
      'upload POST /v3/distributions 201'
    ])
    expect(warnings).toEqual([
      'Upload attempt 1 failed (Uploading the distribution failed: HTTP 503 (ServiceUnavailable: Emulated fault on upload)); trying again in 0.0 s with the same bytes.'
    ])
    expect(notProgress(infos)).toEqual([noCopy])
    // Sent whole, refused (known: not stored), sent whole again and stored.
    expect(unconfirmed).toEqual([true, false, true])
  })

  test.each<[string, boolean, (d: StoredDistribution, known: Set<string>) => void]>([
    ['its MD5 differs', false, (d) => (d.md5hash = 'f'.repeat(32))],
    ['its name differs', false, (d) => (d.name = 'other.tar.gz')],
    ['it is dated before the upload began, less the 5 minutes of skew allowed', false, (d) => (d.createdAt = new Date(T - 300_001).toISOString())],
    ['its id was listed before the upload (in another letter case)', true, (d, known) => known.add(upper(d.id))]
  ])('a lost answer, but the stored copy is not ours (%s): the archive is sent again', async (_, listedBefore, change) => {
    const { e, client } = await stack({ faults: [{ operation: 'upload', kind: 'drop-after-upload', times: 1 }] })
    const known = new Set<string>(['not-this-one', 'nor-this-one'])
    afterUpload(e, (d) => change(d, known))
    const result = await client.uploadDistribution(upload({ knownBefore: listedBefore ? known : undefined }).file)

    expect(e.distributions).toHaveLength(2)
    expect(result).toMatchObject({ id: e.distributions[1]?.id, adopted: false, attempts: 2 })
    expect(notProgress(infos)).toEqual([noCopy])
  })

  test.each<[string, EmulatorOptions, (d: StoredDistribution) => void]>([
    ['dated exactly 5 minutes before the upload began', {}, (d) => (d.createdAt = new Date(T - 300_000).toISOString())],
    ['dated long after it began', {}, (d) => (d.createdAt = '2099-01-01T00:00:00.000Z')],
    ['undated', {}, (d) => delete (d as Partial<StoredDistribution>).createdAt],
    ['with its MD5 in upper case', { md5Case: 'upper' }, () => undefined]
  ])('a lost answer; the stored copy %s is adopted', async (_, options, change) => {
    const { e, client } = await stack({ ...options, faults: [{ operation: 'upload', kind: 'drop-after-upload', times: 1 }] })
    afterUpload(e, change)
    const result = await client.uploadDistribution(upload().file)
    expect(e.distributions).toHaveLength(1)
    expect(result).toMatchObject({ id: e.distributions[0]?.id, adopted: true, attempts: 2 })
  })

  test('a lost answer: of two copies not listed before, the newest is adopted, wherever it is listed', async () => {
    const { e, client } = await stack({ faults: [{ operation: 'upload', kind: 'drop-after-upload', times: 1 }] })
    afterUpload(e, (d) => {
      d.createdAt = '2030-01-01T00:01:00.000Z'
      e.distributions.push({ ...d, id: 'newer-copy', createdAt: '2030-01-01T00:02:00.000Z' })
    })
    const result = await client.uploadDistribution(upload().file)
    expect(result).toMatchObject({ id: 'newer-copy', adopted: true, attempts: 2 })
    expect(notProgress(infos)).toEqual([adoptLine('newer-copy')])
  })

  test('a lost answer: the copy listed before the upload (in another case) is never adopted, however new it looks', async () => {
    const { e, client } = await stack({ faults: [{ operation: 'upload', kind: 'drop-after-upload', times: 1, skip: 1 }] })
    const first = await client.uploadDistribution(upload().file)
    const known = new Set(['some-other-id', upper(first.id)])
    afterUpload(e, () => {
      const old = e.distributions[0] as StoredDistribution
      old.createdAt = '2099-01-01T00:00:00.000Z'
    })
    const second = await client.uploadDistribution(upload({ knownBefore: known }).file)
    expect(e.distributions).toHaveLength(2)
    expect(second).toMatchObject({ id: e.distributions[1]?.id, adopted: true, attempts: 2 })
    expect(second.id).not.toBe(first.id)
  })

  test.each(['no-id', 'empty'] as const)('an answer without an id (%s): the upload is found by its name and MD5', async (uploadAnswer) => {
    const { e, client } = await stack({ uploadAnswer })
    const result = await client.uploadDistribution(upload().file)
    const d = e.distributions[0] as StoredDistribution
    expect(result).toEqual({ id: d.id, name: 'site.tar.gz', createdAt: d.createdAt, createdBy: 'deployer', md5hash: md5, adopted: false, attempts: 1 })
    expect(calls(e)).toEqual(['upload POST /v3/distributions 201', 'list-distributions GET /v3/distributions?offset=0&max=100 200'])
    expect(notProgress(infos)).toEqual([
      `The platform answered HTTP 201 without a distribution id; found the upload by its name and MD5: distribution ${d.id}.`
    ])
  })

  test('an answer without an id, and no copy of ours listed: the failure says so, and nothing is sent again', async () => {
    const { e, client } = await stack({ uploadAnswer: 'no-id' })
    afterUpload(e, (d) => (d.md5hash = '0'.repeat(32)))
    await expect(client.uploadDistribution(upload().file)).rejects.toThrow(
      new Error(
        'Uploading the distribution: the platform answered HTTP 201 without a distribution id, and no distribution named site.tar.gz with this MD5 was found on the stack afterwards'
      )
    )
    expect(calls(e)).toEqual(['upload POST /v3/distributions 201', 'list-distributions GET /v3/distributions?offset=0&max=100 200'])
  })

  test('numeric ids are read as their decimal strings', async () => {
    const { e, client } = await stack({ uploadAnswer: 'numeric-id' })
    const result = await client.uploadDistribution(upload().file)
    expect(result.id).toMatch(/^\d+$/)
    expect(result.id).toBe(e.distributions[0]?.id)
    const listed = await client.listDistributions()
    expect(listed.map((d) => d.id)).toEqual([result.id])
  })

  test('a full stack refuses the upload (409): the message says what to do, with how many it held', async () => {
    const { e, client } = await stack({ faults: [{ operation: 'upload', kind: 'status', status: 409, times: 1 }] })
    const { file, unconfirmed } = upload({ storedBefore: 1 })
    const error = await client.uploadDistribution(file).catch((err: unknown) => err)
    expect(error).toBeInstanceOf(ServiceError)
    expect((error as Error).message).toBe(
      'Uploading the distribution failed: HTTP 409 (Conflict: Emulated fault on upload)' + hint(' It held 1 before this upload.')
    )
    expect(error).toMatchObject({ status: 409, errorCode: 'Conflict', errorDetail: 'Emulated fault on upload' })
    expect(unconfirmed).toEqual([true, false])
    expect(e.distributions).toHaveLength(0)
    expect(calls(e)).toEqual(['upload POST /v3/distributions 409'])
  })

  test('an archive the check refuses: its reason is the failure, the stream stops, nothing is stored or retried', async () => {
    const { e, client } = await stack()
    const reason = new Error('site.tar.gz is not a sound archive')
    const verified = Promise.reject(reason)
    verified.catch(() => undefined)
    await expect(client.uploadDistribution(upload({ gate: verified }).file)).rejects.toBe(reason)
    expect(e.distributions).toHaveLength(0)
    expect(warnings).toEqual([])
  })
})

describe('uploadDistribution of a packed directory (its bytes made as they are sent)', () => {
  let k = 0
  /** A tree of a stored jar (random bytes) and deflated text, planned; the upload reads it as it sends. */
  async function packed(): Promise<{ dir: string; file: UploadFile; archive: Awaited<ReturnType<typeof planDirectory>> }> {
    const dir = join(work, `packed-${k++}`)
    mkdirSync(join(dir, 'webapps'), { recursive: true })
    writeFileSync(join(dir, 'webapps', 'site.war'), randomBytes(600_000))
    writeFileSync(join(dir, 'conf.xml'), '<node name="x">hippo brxm</node>\n'.repeat(5000))
    const archive = await planDirectory(dir, 'site.tar.gz', { spillPath: join(work, `spill-${k++}`) })
    const file: UploadFile = {
      bytes: () => archive.read(),
      fileName: 'site.tar.gz',
      size: archive.size,
      md5: async () => (await archive.hashes()).md5
    }
    return { dir, file, archive }
  }

  test('a 503: the very same bytes again, with the same exact length, and nothing deflated again', async () => {
    const { e, client } = await stack({ faults: [{ operation: 'upload', kind: 'status', status: 503, times: 1 }] })
    const { dir, file, archive } = await packed()
    const reads: string[] = []
    const result = await client.uploadDistribution({
      ...file,
      bytes: async function* () {
        // The deflated file is gone before the second send: only the spill can give its bytes.
        if (reads.length > 0) rmSync(join(dir, 'conf.xml'))
        const hash = createHash('md5')
        reads.push('')
        for await (const chunk of archive.read()) {
          hash.update(chunk)
          yield chunk
        }
        reads[reads.length - 1] = hash.digest('hex')
      }
    })
    const { md5: sent, size: length } = await archive.verified
    expect(length).toBe(archive.size)
    expect(result).toMatchObject({ md5hash: sent, adopted: false, attempts: 2 })
    const posts = e.requests.filter((r) => r.operation === 'upload')
    expect(posts.map((p) => p.status)).toEqual([503, 201])
    expect(reads).toEqual([sent, sent])
    expect(posts[1]?.parts?.[0]).toMatchObject({ md5: sent, size: archive.size })
    expect(new Set(posts.map((p) => p.headers['content-length'])).size).toBe(1)
  })

  test('what the platform stores is byte for byte the file packDirectory writes (the one the readers test unpacks)', async () => {
    const { e, client } = await stack()
    const { dir, file } = await packed()
    await client.uploadDistribution(file)
    const stored = e.requests.find((r) => r.operation === 'upload')?.parts?.[0]?.path
    expect(stored).toBeDefined()
    const written = await packDirectory(dir, join(work, `written-${k++}.tar.gz`))
    expect(
      createHash('sha256')
        .update(readFileSync(stored as string))
        .digest('hex')
    ).toBe(written.sha256)
  })

  test('a lost answer: the MD5 of the bytes sent finds the stored copy, which is adopted', async () => {
    const { e, client } = await stack({ faults: [{ operation: 'upload', kind: 'drop-after-upload', times: 1 }] })
    const { file, archive } = await packed()
    const result = await client.uploadDistribution(file)
    expect(result).toMatchObject({ adopted: true, attempts: 2, md5hash: (await archive.verified).md5 })
    expect(e.distributions).toHaveLength(1)
  })

  test('a stored file rewritten after packing: the body stops before its end; nothing stored, no retry, the file named', async () => {
    const { e, client } = await stack()
    const { dir, file } = await packed()
    writeFileSync(join(dir, 'webapps', 'site.war'), randomBytes(600_001))
    const error = await client.uploadDistribution(file).catch((err: unknown) => err)
    expect(error).toBeInstanceOf(InputError)
    expect((error as Error).message).toMatch(
      /^distribution: 'webapps\/site\.war' changed while it was being packed \(its size went from 600000 to 600001 bytes\)/
    )
    expect(e.distributions).toHaveLength(0)
    expect(e.requests.filter((r) => r.operation === 'upload')).toHaveLength(1)
    expect(warnings).toEqual([])
  })
})

describe('uploadDistribution: what a refusal adds (scripted answers)', () => {
  const refusal = (status: number) => json(status, { error_code: 'Refused', error_detail: 'no' })
  const plain = (status: number) =>
    `Uploading the distribution failed: HTTP ${status} (${status === 399 ? 'a redirect without a Location; redirects are not followed' : 'Refused: no'})`
  test.each<[number, number | undefined, string | undefined]>([
    [409, undefined, ''],
    [422, 3, ' It held 3 before this upload.'],
    [400, 100, ' It held 100 before this upload.'],
    [404, 250, ' It held 250 before this upload.'],
    [499, 100, ' It held 100 before this upload.'],
    [400, 99, undefined],
    [403, undefined, undefined],
    [401, 100, undefined],
    [413, 100, undefined],
    [500, 100, undefined],
    [399, 100, undefined]
  ])('HTTP %i with %s stored before: the hint %s', async (status, storedBefore, held) => {
    const { client, paths } = scripted(async (req) => {
      await drain(req.body)
      return refusal(status)
    })
    const error = (await client.uploadDistribution(upload({ storedBefore }).file).catch((err: unknown) => err)) as InstanceType<typeof ServiceError>
    expect(error).toBeInstanceOf(ServiceError)
    expect(error.message).toBe(held === undefined ? plain(status) : plain(status) + hint(held))
    expect(error).toMatchObject({ status, errorCode: 'Refused', errorDetail: 'no' })
    expect(paths()).toEqual(['POST /v3/distributions'])
  })

  test('the hint keeps the Retry-After of the answer', async () => {
    const { client } = scripted(async (req) => {
      await drain(req.body)
      return { ...refusal(409), headers: { 'retry-after': '7' } }
    }, 1)
    await expect(client.uploadDistribution(upload().file)).rejects.toMatchObject({ status: 409, retryAfterMs: 7000 })
  })

  test('an attempt that failed before the body was read: the next one uploads at once, without looking for a copy', async () => {
    const { client, paths } = scripted(async (req, n) => {
      if (n === 1) throw Object.assign(new Error('connection reset'), { code: 'ECONNRESET' })
      await drain(req.body)
      return json(201, { id: 'd1', name: 'site.tar.gz' })
    })
    const { file, unconfirmed } = upload()
    expect(await client.uploadDistribution(file)).toEqual({ id: 'd1', name: 'site.tar.gz', adopted: false, attempts: 2 })
    expect(paths()).toEqual(['POST /v3/distributions', 'POST /v3/distributions'])
    expect(unconfirmed).toEqual([true])
    expect(warnings).toEqual(['Upload attempt 1 failed (connection reset); trying again in 0.0 s with the same bytes.'])
  })

  test('a failed connection after the whole body: "unconfirmed" stays set (no answer came)', async () => {
    const { client, paths } = scripted(async (req, n) => {
      await drain(req.body)
      if (n === 1) throw Object.assign(new Error('socket closed'), { code: 'UND_ERR_SOCKET' })
      if (n === 2) return json(200, { items: [], more: false })
      return json(201, { id: 'd2' })
    })
    const { file, unconfirmed } = upload()
    expect(await client.uploadDistribution(file)).toEqual({ id: 'd2', adopted: false, attempts: 2 })
    expect(paths()).toEqual(['POST /v3/distributions', 'GET /v3/distributions?offset=0&max=100', 'POST /v3/distributions'])
    expect(unconfirmed).toEqual([true, true])
  })

  test('an archive the check refuses while the connection fails: the refusal, not the connection, is the failure; no retry', async () => {
    const reason = new Error('site.tar.gz is not a sound archive')
    const verified = Promise.reject(reason)
    verified.catch(() => undefined)
    const { client, paths } = scripted(async (req) => {
      // The body stops with the check's reason; the connection then fails as a reset would.
      await expect(drain(req.body)).rejects.toBe(reason)
      throw Object.assign(new Error('connection reset'), { code: 'ECONNRESET' })
    })
    const { file, unconfirmed } = upload({ gate: verified })
    await expect(client.uploadDistribution(file)).rejects.toBe(reason)
    expect(paths()).toEqual(['POST /v3/distributions'])
    expect(unconfirmed).toEqual([])
    expect(warnings).toEqual([])
  })

  test('bytes that drain after a refusal came are no upload awaiting an answer', async () => {
    const { client, t } = scripted(() => json(409, { error_code: 'Refused', error_detail: 'no' }))
    const { file, unconfirmed } = upload()
    await expect(client.uploadDistribution(file)).rejects.toMatchObject({ status: 409 })
    expect(unconfirmed).toEqual([false])
    // The body is read to its end only now, after the answer.
    expect((await drain(t.sent[0]?.body)).length).toBeGreaterThan(size)
    expect(unconfirmed).toEqual([false])
  })

  test('an answer of "null": no record, so the upload is looked for by its name and MD5', async () => {
    const { client, paths } = scripted(async (req, n) => {
      if (n === 1) {
        await drain(req.body)
        return { status: 201, headers: {}, text: 'null' }
      }
      return json(200, { items: [{ id: 'found', name: 'site.tar.gz', md5hash: upper(md5) }], more: false })
    })
    expect(await client.uploadDistribution(upload().file)).toEqual({ id: 'found', name: 'site.tar.gz', md5hash: upper(md5), adopted: false, attempts: 1 })
    expect(paths()).toEqual(['POST /v3/distributions', 'GET /v3/distributions?offset=0&max=100'])
  })
})

describe('listing', () => {
  test('distributions across pages: the offset advances by what each page brought', async () => {
    const { e, client } = await stack({ distributionPageSize: 2 })
    e.distributions.push(stored('d1', 'a.tar.gz'), stored('d2', 'b.tar.gz'), stored('d3', 'c.tar.gz'), stored('d4', 'd.tar.gz'), stored('d5', 'e.tar.gz'))
    const listed = await client.listDistributions()
    expect(listed).toEqual(
      ['d1', 'd2', 'd3', 'd4', 'd5'].map((id, i) => ({
        id,
        name: `${'abcde'[i]}.tar.gz`,
        createdAt: '2030-01-01T00:00:00.000Z',
        createdBy: 'someone',
        md5hash: 'ab'.repeat(16)
      }))
    )
    expect(calls(e)).toEqual([
      'list-distributions GET /v3/distributions?offset=0&max=100 200',
      'list-distributions GET /v3/distributions?offset=2&max=100 200',
      'list-distributions GET /v3/distributions?offset=4&max=100 200'
    ])
  })

  test('environments across pages: the first page as documented, the later ones with offset and max', async () => {
    const { e, client } = await stack({ environmentPageSize: 2, environmentStatus: false })
    const list = await client.listEnvironments()
    expect(list).toEqual({
      complete: true,
      items: e.environments.map((env) => ({ id: env.id, name: env.name, distributionId: null, status: undefined }))
    })
    expect(list.items.map((env) => env.name)).toEqual(['development', 'acceptance', 'production'])
    expect(calls(e)).toEqual(['list-environments GET /v3/environments 200', 'list-environments GET /v3/environments?offset=2&max=100 200'])
  })

  test('a platform that ignores the offset: the list is incomplete after the page that brought nothing new', async () => {
    const { e, client } = await stack({ environmentPageSize: 2, environmentOffsetIgnored: true })
    const list = await client.listEnvironments()
    expect(list.complete).toBe(false)
    expect(list.items.map((env) => [env.name, env.status])).toEqual([
      ['development', 'empty'],
      ['acceptance', 'empty']
    ])
    expect(calls(e)).toEqual(['list-environments GET /v3/environments 200', 'list-environments GET /v3/environments?offset=2&max=100 200'])
  })

  test('findEnvironment: a name missing from an incomplete list is asked for by name', async () => {
    const { e, client } = await stack({ environmentPageSize: 1, environmentOffsetIgnored: true })
    const { environment, list } = await client.findEnvironment('production')
    const prod = e.environments[2]
    expect(environment).toEqual({ id: prod?.id, name: 'production', distributionId: null, status: 'empty' })
    expect(list.complete).toBe(false)
    expect(calls(e)).toEqual([
      'list-environments GET /v3/environments 200',
      'list-environments GET /v3/environments?offset=1&max=100 200',
      'list-environments GET /v3/environments?name=production 200'
    ])
  })

  test('findEnvironment: an unknown name answered 404, or with no id, is no environment', async () => {
    const { e, client } = await stack({ environmentPageSize: 1, environmentOffsetIgnored: true })
    expect((await client.findEnvironment('staging 2')).environment).toBeUndefined()
    expect(calls(e).at(-1)).toBe('list-environments GET /v3/environments?name=staging%202 404')
    const second = await stack({ environmentPageSize: 1, environmentOffsetIgnored: true, unknownEnvironmentByName: 'no-id' })
    expect((await second.client.findEnvironment('staging')).environment).toBeUndefined()
  })

  test('findEnvironment: a listed name needs no lookup; a complete list without it means none', async () => {
    const { e, client } = await stack()
    expect((await client.findEnvironment('acceptance')).environment?.id).toBe(e.environments[1]?.id)
    expect((await client.findEnvironment('Acceptance')).environment).toBeUndefined()
    expect(calls(e)).toEqual(['list-environments GET /v3/environments 200', 'list-environments GET /v3/environments 200'])
  })

  test('findEnvironment: a lookup that fails names the environment', async () => {
    const { client } = await stack({
      environmentPageSize: 1,
      environmentOffsetIgnored: true,
      faults: [{ operation: 'list-environments', kind: 'status', status: 500, times: 1, skip: 2 }]
    })
    await expect(client.findEnvironment('production')).rejects.toThrow(
      new Error("Looking up environment 'production' failed: HTTP 500 (InternalServerError: Emulated fault on list-environments)")
    )
  })

  test('a listing that fails names the operation; a 503 is retried with an info line', async () => {
    const { e, client } = await stack({ faults: [{ operation: 'list-distributions', kind: 'status', status: 503, times: 1 }] }, 2)
    e.distributions.push(stored('d1', 'a.tar.gz'))
    expect((await client.listDistributions()).map((d) => d.id)).toEqual(['d1'])
    expect(infos).toEqual([
      'Listing distributions: attempt 1 failed (Listing distributions failed: HTTP 503 (ServiceUnavailable: Emulated fault on list-distributions)); retrying in 0.0 s'
    ])
    expect(warnings).toEqual([])
    e.addFault({ operation: 'list-distributions', kind: 'status', status: 500, times: 1 })
    await expect(client.listDistributions()).rejects.toThrow(
      new Error('Listing distributions failed: HTTP 500 (InternalServerError: Emulated fault on list-distributions)')
    )
  })
})

describe('listing (scripted answers)', () => {
  test('ids: strings and safe integers; an empty, fractional, unsafe or missing id drops the record; items that are not objects are skipped', async () => {
    const { client, paths } = scripted((_req, n) =>
      n === 1
        ? json(200, {
            items: [
              { id: 'a', name: 'a.tar.gz', createdAt: 5, createdBy: null, md5hash: 7 },
              null,
              5,
              'x',
              { id: 12 },
              { id: '' },
              { id: 1.5 },
              { id: 2 ** 60 },
              { name: 'n' }
            ],
            more: true
          })
        : json(200, { items: [{ id: 'b' }], more: false })
    )
    expect(await client.listDistributions()).toEqual([{ id: 'a', name: 'a.tar.gz' }, { id: '12' }, { id: 'b' }])
    // Six records were read from the first page (what is not an object is no record): the next page starts there.
    expect(paths()).toEqual(['GET /v3/distributions?offset=0&max=100', 'GET /v3/distributions?offset=6&max=100'])
  })

  test("an environment's status: the first status field that is a non-empty string", async () => {
    const { client } = scripted(() =>
      json(200, {
        items: [
          { id: 'e1', name: 'one', status: '', state: 7, deploymentStatus: 'deploying', deployStatus: 'x', distributionId: 42 },
          { id: 'e2', name: 'two', deployStatus: 'done', distributionId: 'd' },
          { id: 'e3', name: 3 }
        ]
      })
    )
    expect(await client.listEnvironments()).toEqual({
      complete: true,
      items: [
        { id: 'e1', name: 'one', distributionId: '42', status: 'deploying' },
        { id: 'e2', name: 'two', distributionId: 'd', status: 'done' }
      ]
    })
  })

  test('a platform that says "more" with nothing new: distributions cannot be listed whole', async () => {
    const { client, paths } = scripted(() => json(200, { items: [{ id: 'a' }, { id: 'b' }], more: true }))
    await expect(client.listDistributions()).rejects.toThrow(
      new Error('Listing distributions: the platform said it holds more than the 2 it listed, but would not list the rest')
    )
    expect(paths()).toEqual(['GET /v3/distributions?offset=0&max=100', 'GET /v3/distributions?offset=2&max=100'])
  })

  test('a platform that says "more" forever: paging stops after 1000 pages', async () => {
    const { client, t } = scripted((_req, n) => json(200, { items: [{ id: `d${n}` }], more: true }))
    await expect(client.listDistributions()).rejects.toThrow(
      new Error('Listing distributions: the platform said it holds more than the 1000 it listed, but would not list the rest')
    )
    expect(t.sent).toHaveLength(1000)
    expect(t.sent.at(-1)?.path).toBe('/v3/distributions?offset=999&max=100')
  })

  test('findEnvironment: an answer by name for another name is not that environment', async () => {
    const { client, paths } = scripted((req) =>
      req.path.includes('name=') ? json(200, { id: 'e9', name: 'Production' }) : json(200, { items: [{ id: 'e1', name: 'development' }], more: true, total: 9 })
    )
    const { environment, list } = await client.findEnvironment('production')
    expect(environment).toBeUndefined()
    expect(list).toEqual({ complete: false, items: [{ id: 'e1', name: 'development', distributionId: null, status: undefined }] })
    expect(paths()).toEqual(['GET /v3/environments', 'GET /v3/environments?offset=1&max=100', 'GET /v3/environments?name=production'])
  })

  test('application configuration files: a bare array or a page of items; an empty answer is none', async () => {
    const answers = [
      json(200, [{ id: 'f1', name: 'a.properties' }, { id: 3, name: 'b.properties' }, { id: 'f4' }, null]),
      json(200, { items: [{ id: 'f2', name: 'c.properties' }] }),
      { status: 200, headers: {}, text: '  \n' }
    ]
    const { client, paths } = scripted((_req, n) => answers[n - 1] as HttpResponse)
    expect(await client.listAppConfigFiles()).toEqual([
      { id: 'f1', name: 'a.properties' },
      { id: '3', name: 'b.properties' }
    ])
    expect(await client.listAppConfigFiles()).toEqual([{ id: 'f2', name: 'c.properties' }])
    expect(await client.listAppConfigFiles()).toEqual([])
    expect(paths()).toEqual(['GET /v3/appconfigfiles', 'GET /v3/appconfigfiles', 'GET /v3/appconfigfiles'])
  })

  test('a lookup that meets an error other than an answer throws it', async () => {
    const boom = new Error('not a network failure')
    const { client } = scripted(() => Promise.reject(boom))
    await expect(client.getDistribution('x')).rejects.toBe(boom)
  })
})

describe('one distribution, configuration files, deleting, deploying', () => {
  test('getDistribution: the record by its id; undefined for a 404; any other failure names the distribution', async () => {
    const { e, client } = await stack({ faults: [{ operation: 'get-distribution', kind: 'status', status: 500, times: 1, skip: 2 }] })
    e.distributions.push(stored('d 1', 'a.tar.gz'))
    expect(await client.getDistribution('d 1')).toEqual({
      id: 'd 1',
      name: 'a.tar.gz',
      createdAt: '2030-01-01T00:00:00.000Z',
      createdBy: 'someone',
      md5hash: 'ab'.repeat(16)
    })
    expect(await client.getDistribution('gone')).toBeUndefined()
    await expect(client.getDistribution('d 1')).rejects.toThrow(
      new Error('Looking up distribution d 1 failed: HTTP 500 (InternalServerError: Emulated fault on get-distribution)')
    )
    expect(calls(e)).toEqual([
      'get-distribution GET /v3/distributions/d%201 200',
      'get-distribution GET /v3/distributions/gone 404',
      'get-distribution GET /v3/distributions/d%201 500'
    ])
  })

  test('listAppConfigFiles: the id and name of each; a failure names the operation', async () => {
    const { e, client } = await stack({ appConfigFiles: ['a.properties', 'b.properties'] })
    expect(await client.listAppConfigFiles()).toEqual(e.appConfigFiles.map((f) => ({ id: f.id, name: f.name })))
    expect((await client.listAppConfigFiles()).map((f) => f.name)).toEqual(['a.properties', 'b.properties'])
    e.addFault({ operation: 'list-appconfigfiles', kind: 'status', status: 500, times: 1 })
    await expect(client.listAppConfigFiles()).rejects.toThrow(
      new Error('Listing application configuration files failed: HTTP 500 (InternalServerError: Emulated fault on list-appconfigfiles)')
    )
    expect(calls(e).every((c) => c.startsWith('list-appconfigfiles GET /v3/appconfigfiles '))).toBe(true)
  })

  test('deleteDistribution: DELETE by its id; a refusal names the distribution', async () => {
    const { e, client } = await stack()
    const first = await client.uploadDistribution(upload().file)
    const second = await client.uploadDistribution(upload().file)
    await client.deleteDistribution(first.id)
    expect(e.distributions.map((d) => d.id)).toEqual([second.id])
    const env = e.environments[0]
    await client.requestDeploy(env?.id ?? '', second.id, 'stopstart')
    await expect(client.deleteDistribution(second.id)).rejects.toThrow(
      new Error(`Deleting distribution ${second.id} failed: HTTP 409 (DistributionInUse: The distribution is deployed to environment "development")`)
    )
    expect(calls(e).filter((c) => c.startsWith('delete-distribution'))).toEqual([
      `delete-distribution DELETE /v3/distributions/${first.id} 204`,
      `delete-distribution DELETE /v3/distributions/${second.id} 409`
    ])
  })

  test('requestDeploy: the body without roles when no configuration file is given, with one role each otherwise', async () => {
    const { e, client } = await stack({ appConfigFiles: ['a.properties', 'b.properties'], deployWhileBusy: 'accept' })
    const d = await client.uploadDistribution(upload().file)
    const env = e.environments[0]?.id ?? ''
    const [a, b] = e.appConfigFiles.map((f) => f.id)
    await client.requestDeploy(env, d.id, 'stopstart')
    await client.requestDeploy(env, d.id, 'rolling', [])
    await client.requestDeploy(env, d.id, 'stopstart', [a ?? '', b ?? ''])
    const deploys = e.requests.filter((r) => r.operation === 'deploy')
    expect(deploys.map((r) => [r.method, r.url, r.status, r.headers['content-type']])).toEqual(
      Array(3).fill(['PUT', `/v3/environments/${env}/deploy`, 202, 'application/json'])
    )
    expect(deploys.map((r) => r.json)).toEqual([
      { distributionId: d.id, strategy: 'stopstart' },
      { distributionId: d.id, strategy: 'rolling' },
      {
        distributionId: d.id,
        strategy: 'stopstart',
        appConfigFileRoles: [
          { appConfigFileId: a, role: 'systemproperty' },
          { appConfigFileId: b, role: 'systemproperty' }
        ]
      }
    ])
  })

  test('requestDeploy: one attempt; a refusal names the operation and is reported refused, a 5xx only sent', async () => {
    const { e, client } = await stack({ faults: [{ operation: 'deploy', kind: 'status', status: 500, times: 1, skip: 2 }] })
    const d = await client.uploadDistribution(upload().file)
    const events: string[] = []
    const onDispatch = (event: 'sent' | 'refused') => events.push(event)
    await expect(client.requestDeploy('no-such-env', d.id, 'stopstart', [], 5_000, onDispatch)).rejects.toThrow(
      new Error('Deploying the distribution failed: HTTP 404 (EnvironmentNotFound: No environment with id "no-such-env")')
    )
    expect(events).toEqual(['sent', 'refused'])
    events.length = 0
    await expect(client.requestDeploy(e.environments[0]?.id ?? '', 'no-such-distribution', 'stopstart', [], 5_000, onDispatch)).rejects.toThrow(
      new Error('Deploying the distribution failed: HTTP 400 (DistributionNotFound: No distribution with id "no-such-distribution")')
    )
    expect(events).toEqual(['sent', 'refused'])
    events.length = 0
    await expect(client.requestDeploy(e.environments[0]?.id ?? '', d.id, 'stopstart', [], 5_000, onDispatch)).rejects.toThrow(
      new Error('Deploying the distribution failed: HTTP 500 (InternalServerError: Emulated fault on deploy)')
    )
    expect(events).toEqual(['sent'])
    expect(e.requests.filter((r) => r.operation === 'deploy')).toHaveLength(3)
  })
})

describe('sameMd5', () => {
  test.each<[string | undefined, string | undefined, boolean]>([
    ['ABCDEF0123', 'abcdef0123', true],
    ['abcdef0123', 'ABCDEF0123', true],
    ['abcdef0123', 'abcdef0123', true],
    ['abcdef0123', 'abcdef0124', false],
    [undefined, 'abcdef', false],
    ['abcdef', undefined, false],
    [undefined, undefined, false]
  ])('%s and %s: %s', (a, b, same) => {
    expect(sameMd5(a, b)).toBe(same)
  })
})

describe('mutation survivors of part f', () => {
  test('a lost answer: a copy the platform dated up to five minutes before the upload began is adopted (its clock may run behind); one dated earlier is not', async () => {
    const behind = await stack({ faults: [{ operation: 'upload', kind: 'drop-after-upload', times: 1 }] })
    afterUpload(behind.e, (d) => (d.createdAt = new Date(T - 4 * 60_000).toISOString()))
    const adopted = await behind.client.uploadDistribution(upload().file)
    expect(behind.e.distributions).toHaveLength(1)
    expect(adopted).toMatchObject({ id: behind.e.distributions[0]?.id, adopted: true, attempts: 2 })
    expect(notProgress(infos)).toEqual([adoptLine(adopted.id)])

    infos.length = 0
    const older = await stack({ faults: [{ operation: 'upload', kind: 'drop-after-upload', times: 1 }] })
    afterUpload(older.e, (d) => (d.createdAt = new Date(T - 6 * 60_000).toISOString()))
    const again = await older.client.uploadDistribution(upload().file)
    expect(older.e.distributions).toHaveLength(2)
    expect(again).toMatchObject({ id: older.e.distributions[1]?.id, adopted: false, attempts: 2 })
    expect(notProgress(infos)).toEqual([noCopy])
  })

  test('findEnvironment: a name on the first page of an incomplete list is not asked for again by name', async () => {
    const { e, client } = await stack({ environmentPageSize: 1, environmentOffsetIgnored: true })
    const { environment, list } = await client.findEnvironment('development')
    expect(environment?.id).toBe(e.environments[0]?.id)
    expect(list.complete).toBe(false)
    expect(calls(e)).toEqual(['list-environments GET /v3/environments 200', 'list-environments GET /v3/environments?offset=1&max=100 200'])
  })

  test("requestDeploy: the call's own time limit ends a deploy call whose answer comes later", async () => {
    const { e, client } = await stack({ faults: [{ operation: 'deploy', kind: 'apply-then-delay', delayMs: 2_500, times: 1 }] })
    const d = await client.uploadDistribution(upload().file)
    const started = Date.now()
    await expect(client.requestDeploy(e.environments[0]?.id ?? '', d.id, 'stopstart', [], 1_000)).rejects.toThrow(/no answer within 1 s/)
    expect(Date.now() - started).toBeLessThan(2_400)
    expect(e.requests.filter((r) => r.operation === 'deploy')).toHaveLength(1)
  })
})

describe('listBackups: every reading of GET /v3/backups', () => {
  test('an array of {id, environmentId, createdAt}: ids as strings (a number as its decimal), the instant parsed', async () => {
    const { client, paths } = scripted(() =>
      json(200, [
        { id: 'b1', environmentId: 'env-1', createdAt: '2026-11-28T04:00:00Z' },
        { id: 7, environmentId: 12, createdAt: '2026-11-27T04:00:00.000Z' }
      ])
    )
    expect(await client.listBackups()).toEqual([
      { id: 'b1', environmentId: 'env-1', createdAt: '2026-11-28T04:00:00Z', createdAtMs: Date.parse('2026-11-28T04:00:00Z') },
      { id: '7', environmentId: '12', createdAt: '2026-11-27T04:00:00.000Z', createdAtMs: Date.parse('2026-11-27T04:00:00.000Z') }
    ])
    expect(paths()).toEqual(['GET /v3/backups'])
  })
  test('a page of items; epoch milliseconds or seconds read as instants; entries missing a part left out', async () => {
    const ms = Date.parse('2026-11-28T04:00:00Z')
    const { client } = scripted(() =>
      json(200, {
        items: [
          { id: 'ms', environmentId: 'e', createdAt: ms },
          { id: 's', environmentId: 'e', createdAt: ms / 1000 },
          { id: 'no-date', environmentId: 'e' },
          { id: 'zero', environmentId: 'e', createdAt: 0 },
          { environmentId: 'e', createdAt: '2026-11-28T04:00:00Z' },
          { id: 'no-env', createdAt: '2026-11-28T04:00:00Z' },
          null
        ]
      })
    )
    expect(await client.listBackups()).toEqual([
      { id: 'ms', environmentId: 'e', createdAt: '2026-11-28T04:00:00.000Z', createdAtMs: ms },
      { id: 's', environmentId: 'e', createdAt: '2026-11-28T04:00:00.000Z', createdAtMs: ms }
    ])
  })
  test('text that is no date is kept with an instant of NaN (the rule never trusts it)', async () => {
    const { client } = scripted(() => json(200, [{ id: 'b', environmentId: 'e', createdAt: 'yesterday' }]))
    const [b] = await client.listBackups()
    expect(b?.createdAt).toBe('yesterday')
    expect(Number.isNaN(b?.createdAtMs)).toBe(true)
  })
  test('a 503 is tried again; a 500 is not', async () => {
    const flaky = scripted((_r, n) => (n === 1 ? json(503, {}) : json(200, [])))
    expect(await flaky.client.listBackups()).toEqual([])
    expect(flaky.paths()).toEqual(['GET /v3/backups', 'GET /v3/backups'])
    const broken = scripted(() => json(500, {}))
    await expect(broken.client.listBackups()).rejects.toThrow(/Listing backups/)
  })
})
