import { jest } from '@jest/globals'
import { execFileSync, spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import { Agent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { gunzipSync, gzipSync } from 'node:zlib'
import { parseCli } from '../src/emulator/cli-args.js'
import { MultipartParser, type MultipartEvent } from '../src/emulator/multipart.js'
import { isTarHeader } from '../src/emulator/tar-sniffer.js'
import { startEmulator, type Emulator, type EmulatorOptions, type StoredDistribution } from '../src/emulator/server.js'
import { createStack, type Stack } from '../src/emulator/stack.js'
import { deleteEnvironment as hookDeleteEnvironment, deployAs as hookDeployAs } from '../src/emulator/test-hooks.js'
import { IdpTokens } from '../src/emulator/sso-tokens.js'
import { TokenService } from '../src/emulator/tokens.js'

const work = mkdtempSync(join(tmpdir(), 'emulator-test-'))
let tarGz: Buffer

beforeAll(() => {
  const project = join(work, 'myproject')
  mkdirSync(join(project, 'webapps'), { recursive: true })
  writeFileSync(join(project, 'webapps', 'site.war'), randomBytes(300_000)) // incompressible: the .tar.gz is ~300 KB
  writeFileSync(join(project, 'README'), 'distribution for tests\n')
  execFileSync('tar', ['czf', join(work, 'myproject.tar.gz'), '-C', work, 'myproject'])
  tarGz = readFileSync(join(work, 'myproject.tar.gz'))
})

afterAll(() => rmSync(work, { recursive: true, force: true }))

const open: Emulator[] = []
async function emulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const emu = await startEmulator(options)
  open.push(emu)
  return emu
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()))
})

const md5 = (b: Buffer): string => createHash('md5').update(b).digest('hex')
const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex')

async function login(emu: Emulator): Promise<{ access_token: string; refresh_token: string }> {
  const res = await fetch(`${emu.url}/v3/authn/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: emu.username, password: emu.password })
  })
  expect(res.status).toBe(200)
  return (await res.json()) as { access_token: string; refresh_token: string }
}

function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` }
}

interface Part {
  name: string
  filename?: string
  contentType?: string
  data: Buffer
}

function multipart(parts: Part[], boundary = '----emulator-test-boundary-7MA4YWxkTrZu0gW'): { body: Buffer; contentType: string } {
  const chunks: Buffer[] = []
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`
    if (p.filename !== undefined) head += `; filename="${p.filename}"`
    head += '\r\n'
    if (p.contentType !== undefined) head += `Content-Type: ${p.contentType}\r\n`
    chunks.push(Buffer.from(`${head}\r\n`), p.data, Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` }
}

async function upload(emu: Emulator, token: string, data: Buffer, filename = 'myproject.tar.gz'): Promise<Response> {
  const form = new FormData()
  form.append('dist_file', new Blob([data], { type: 'application/gzip' }), filename)
  return fetch(`${emu.url}/v3/distributions`, { method: 'POST', headers: bearer(token), body: form })
}

interface RawResponse {
  status: number
  headers: IncomingHttpHeaders
  body: string
  reusedSocket: boolean
}

/** node:http client that sends the body in the given chunks, pausing between them so they arrive apart. */
function raw(
  url: string,
  options: { method: string; path: string; headers?: Record<string, string | number>; chunks?: Buffer[]; agent?: Agent; pauseMs?: number }
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${options.path}`, { method: options.method, headers: options.headers, agent: options.agent })
    req.on('response', (res) => {
      const body: Buffer[] = []
      res.on('data', (c: Buffer) => body.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(body).toString(), reusedSocket: req.reusedSocket }))
    })
    req.on('error', reject)
    req.on('socket', (s) => s.setNoDelay(true))
    void (async () => {
      for (const chunk of options.chunks ?? []) {
        req.write(chunk)
        if (options.pauseMs !== undefined) await new Promise((r) => setTimeout(r, options.pauseMs))
      }
      req.end()
    })()
  })
}

function splitEvery(body: Buffer, sizes: number[]): Buffer[] {
  const out: Buffer[] = []
  for (let pos = 0, i = 0; pos < body.length; i++) {
    const n = sizes[i % sizes.length] ?? 1
    out.push(body.subarray(pos, pos + n))
    pos += n
  }
  return out
}

describe('authentication', () => {
  test('login answers bearer JWTs and records the request', async () => {
    const emu = await emulator()
    const tokens = await login(emu)
    const [, payload] = tokens.access_token.split('.')
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>
    expect(claims).toEqual(
      expect.objectContaining({ sub: 'deployer', typ: 'access', iat: expect.any(Number), exp: expect.any(Number), jti: expect.any(String) })
    )
    expect((claims.exp as number) - (claims.iat as number)).toBeGreaterThanOrEqual(600)
    expect(tokens.refresh_token.split('.')).toHaveLength(3)
    const rec = emu.requests[0]
    expect(rec).toMatchObject({ operation: 'login', method: 'POST', url: '/v3/authn/access_token', httpVersion: '1.1', status: 200 })
    expect(rec?.headers['content-type']).toBe('application/json')
    expect(rec?.json).toEqual({ username: 'deployer', password: 'emulator-password' })
  })

  test('wrong credentials 401, malformed JSON 400; a JSON body is accepted whatever its content type, and the log says so', async () => {
    const logged: string[] = []
    const emu = await emulator({ username: 'u', password: 'p', log: (l) => logged.push(l) })
    const post = (body: string, type: string): Promise<Response> =>
      fetch(`${emu.url}/v3/authn/access_token`, { method: 'POST', headers: { 'content-type': type }, body })
    const wrong = await post(JSON.stringify({ username: 'u', password: 'nope' }), 'application/json')
    expect(wrong.status).toBe(401)
    expect(await wrong.json()).toEqual({ error_code: 'AuthenticationFailed', error_detail: expect.any(String) })
    const text = await post(JSON.stringify({ username: 'u', password: 'p' }), 'text/plain')
    expect(text.status).toBe(200)
    // As a public Python client sends it: JSON text and no Content-Type at all.
    const none = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${emu.url}/v3/authn/access_token`, { method: 'POST' }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      req.end(JSON.stringify({ username: 'u', password: 'p' }))
    })
    expect(none).toBe(200)
    await until(() => logged.length >= 3)
    expect(logged.some((l) => /POST \/v3\/authn\/access_token 200 .*\[warning: a JSON body sent without a Content-Type, accepted\]/.test(l))).toBe(true)
    expect(logged.some((l) => /\[warning: a JSON body sent as text\/plain, accepted\]/.test(l))).toBe(true)
    expect(logged.join('\n')).not.toContain('"p"')
    expect((await post('{"username":', 'application/json')).status).toBe(400)
    expect((await post('{"username":"u"}', 'application/json')).status).toBe(400)
    expect((await post(JSON.stringify({ username: 'u', password: 'p' }), 'application/json; charset=utf-8')).status).toBe(200)
  })

  test('access tokens expire after tokenLifetimeSeconds', async () => {
    // exp is whole seconds and enforced as written: a 2 s token lives between 1 and 2 s.
    const emu = await emulator({ tokenLifetimeSeconds: 2 })
    const { access_token } = await login(emu)
    const verify = (): Promise<Response> => fetch(`${emu.url}/v3/authn/verify_token`, { headers: bearer(access_token) })
    expect((await verify()).status).toBe(200)
    await new Promise((r) => setTimeout(r, 2100))
    const expired = await verify()
    expect(expired.status).toBe(401)
    expect(((await expired.json()) as { error_code: string }).error_code).toBe('Unauthorized')
  })

  test("tokenClockSkewSeconds: an access token is accepted that long past its exp, then refused (the identity provider's too)", () => {
    // The clock is the test's: exp is whole seconds, 1_000_002 here.
    let now = 1_000_000_500
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => now)
    try {
      for (const [skew, lastAccepted] of [
        [0, 1_000_001_999],
        [5, 1_000_006_999]
      ] as const) {
        const password = new TokenService(2, 60, skew)
        const idp = new IdpTokens(2, 60, 'api', skew)
        now = 1_000_000_500
        const accessToken = password.issue('access', 'u')
        const idpToken = idp.issueAccess({ sub: 'u', audience: 'api' }, 'https://idp.example').token
        const tokens = [() => password.check('access', accessToken), () => idp.check(idpToken)]
        now = lastAccepted
        for (const check of tokens) expect(check()).toMatchObject({ ok: true, sub: 'u' })
        now = lastAccepted + 1
        for (const check of tokens) expect(check()).toEqual({ ok: false, detail: 'The token has expired' })
        // A refresh token keeps its own exp: no skew.
        now = 1_000_000_500
        const refresh = password.issue('refresh', 'u')
        now = 1_000_060_000
        expect(password.check('refresh', refresh)).toMatchObject({ ok: false })
      }
    } finally {
      clock.mockRestore()
    }
  })

  test('bearer scheme is case-insensitive; missing, forged or refresh tokens are refused', async () => {
    const emu = await emulator()
    const { access_token, refresh_token } = await login(emu)
    const verify = (auth?: string): Promise<number> =>
      fetch(`${emu.url}/v3/authn/verify_token`, { headers: auth === undefined ? {} : { authorization: auth } }).then((r) => r.status)
    expect(await verify(`bearer ${access_token}`)).toBe(200)
    expect(await verify(`BEARER ${access_token}`)).toBe(200)
    expect(await verify()).toBe(401)
    expect(await verify(`Bearer ${refresh_token}`)).toBe(401)
    expect(await verify(`Bearer ${access_token.slice(0, -2)}xx`)).toBe(401)
  })

  test('refresh returns a new access token and no refresh token; DELETE revokes the refresh token', async () => {
    const emu = await emulator()
    const { refresh_token } = await login(emu)
    const refresh = (method: string, body: unknown): Promise<Response> =>
      fetch(`${emu.url}/v3/authn/refresh_token`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    const res = await refresh('POST', { grant_type: 'refresh_token', refresh_token })
    expect(res.status).toBe(200)
    const body = (await res.json()) as Record<string, string>
    expect(Object.keys(body).sort()).toEqual(['access_token', 'token_type'])
    expect(body.token_type).toBe('bearer')
    expect((await fetch(`${emu.url}/v3/authn/verify_token`, { headers: bearer(body.access_token ?? '') })).status).toBe(200)
    expect((await refresh('POST', { grant_type: 'refresh_token', refresh_token: 'not-a-token' })).status).toBe(401)
    expect((await refresh('DELETE', { grant_type: 'refresh_token', refresh_token })).status).toBe(200)
    expect((await refresh('POST', { grant_type: 'refresh_token', refresh_token })).status).toBe(401)
    expect(emu.requests.map((r) => r.operation)).toEqual(['login', 'refresh', 'verify', 'refresh', 'revoke-refresh', 'refresh'])
  })

  test('logout invalidates every access token of the user; revokeAccessTokens keeps refresh tokens', async () => {
    const emu = await emulator()
    const a = await login(emu)
    const b = await login(emu)
    const verify = (t: string): Promise<number> => fetch(`${emu.url}/v3/authn/verify_token`, { headers: bearer(t) }).then((r) => r.status)
    expect((await fetch(`${emu.url}/v3/authn/logout`, { method: 'POST', headers: bearer(a.access_token) })).status).toBe(200)
    expect(await verify(a.access_token)).toBe(401)
    expect(await verify(b.access_token)).toBe(401)

    const c = await login(emu)
    emu.revokeAccessTokens()
    expect(await verify(c.access_token)).toBe(401)
    const res = await fetch(`${emu.url}/v3/authn/refresh_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: c.refresh_token })
    })
    expect(res.status).toBe(200)
  })
})

describe('routing', () => {
  test('trailing slash, unknown path, wrong method; JSON error bodies; docs page', async () => {
    const emu = await emulator()
    const { access_token } = await login(emu)
    const slash = await fetch(`${emu.url}/v3/distributions/`, { headers: bearer(access_token) })
    expect(slash.status).toBe(404)
    expect(await slash.json()).toEqual({ error_code: 'TrailingSlash', error_detail: expect.any(String) })
    expect((await fetch(`${emu.url}/v3/authn/access_token/`, { method: 'POST' })).status).toBe(404)
    const unknown = await fetch(`${emu.url}/v3/nothing`)
    expect(unknown.status).toBe(404)
    expect(((await unknown.json()) as { error_code: string }).error_code).toBe('NotFound')
    const wrong = await fetch(`${emu.url}/v3/environments`, { method: 'PATCH' })
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get('allow')).toBe('GET')
    const docs = await fetch(`${emu.url}/v3/docs`)
    expect(docs.headers.get('content-type')).toContain('text/html')
    const page = await docs.text()
    expect(page).toContain('/v3/environments/{id}/deploy')
    expect(page).toContain('DeploymentInProgress')
    expect(page).toContain('/sites/{environment}/{path+}')
    expect(page).toContain('EMULATOR-SITE-FAILS')
    const files = await fetch(`${emu.url}/v3/appconfigfiles`, { headers: bearer(access_token) })
    expect(await files.json()).toEqual([])
    expect(emu.requests.at(-1)).toMatchObject({ operation: 'list-appconfigfiles', status: 200 })
  })

  test('keep-alive: several requests share one HTTP/1.1 connection', async () => {
    const emu = await emulator()
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      const first = await raw(emu.url, { method: 'GET', path: '/v3/docs', agent })
      const second = await raw(emu.url, { method: 'GET', path: '/v3/environments', agent })
      expect(first.status).toBe(200)
      expect(second.status).toBe(401)
      expect(second.reusedSocket).toBe(true)
      expect(emu.requests.every((r) => r.httpVersion === '1.1')).toBe(true)
    } finally {
      agent.destroy()
    }
  })
})

describe('distributions', () => {
  test('a real tar.gz is stored byte-identical with its md5', async () => {
    const emu = await emulator()
    const { access_token } = await login(emu)
    const res = await upload(emu, access_token, tarGz)
    expect(res.status).toBe(201)
    const record = (await res.json()) as Record<string, string>
    expect(Object.keys(record).sort()).toEqual(['createdAt', 'createdBy', 'id', 'md5hash', 'modifiedAt', 'modifiedBy', 'name'])
    expect(record).toMatchObject({ name: 'myproject.tar.gz', createdBy: 'deployer', md5hash: md5(tarGz) })
    const stored = emu.distributions[0]
    expect(stored).toMatchObject({ id: record.id, size: tarGz.length, sha256: sha256(tarGz) })
    expect(readFileSync(stored?.path ?? '').equals(tarGz)).toBe(true)
    const rec = emu.requests.at(-1)
    expect(rec?.operation).toBe('upload')
    expect(rec?.headers.authorization).toBe(`Bearer ${access_token}`)
    expect(rec?.parts).toEqual([
      {
        name: 'dist_file',
        filename: 'myproject.tar.gz',
        contentType: 'application/gzip',
        size: tarGz.length,
        md5: md5(tarGz),
        sha256: sha256(tarGz),
        path: stored?.path
      }
    ])
  })

  test('keepUploads false hashes without writing', async () => {
    const emu = await emulator({ keepUploads: false })
    const { access_token } = await login(emu)
    expect((await upload(emu, access_token, tarGz)).status).toBe(201)
    expect(emu.distributions[0]?.path).toBeUndefined()
    expect(emu.distributions[0]?.md5hash).toBe(md5(tarGz))
  })

  test('non-gzip, gzip-but-not-tar, and missing dist_file are refused; nothing is left on disk', async () => {
    const storage = join(work, 'refused')
    const emu = await emulator({ storageDir: storage })
    const { access_token } = await login(emu)
    const notGzip = await upload(emu, access_token, Buffer.from('PK\u0003\u0004 this is a zip, not a tar.gz'.repeat(100)))
    expect(notGzip.status).toBe(400)
    expect(((await notGzip.json()) as { error_code: string }).error_code).toBe('InvalidDistribution')
    const notTar = await upload(emu, access_token, gzipSync(Buffer.alloc(4096, 'plain text ')))
    expect(notTar.status).toBe(400)
    expect(((await notTar.json()) as { error_detail: string }).error_detail).toContain('tar')
    const tiny = await upload(emu, access_token, gzipSync(Buffer.from('short')))
    expect(tiny.status).toBe(400)
    const empty = await upload(emu, access_token, Buffer.alloc(0))
    expect(empty.status).toBe(400)

    const form = new FormData()
    form.append('other', new Blob([tarGz]), 'x.tar.gz')
    const missing = await fetch(`${emu.url}/v3/distributions`, { method: 'POST', headers: bearer(access_token), body: form })
    expect(missing.status).toBe(400)
    const twice = multipart([
      { name: 'dist_file', filename: 'a.tar.gz', data: tarGz },
      { name: 'dist_file', filename: 'b.tar.gz', data: tarGz }
    ])
    const two = await fetch(`${emu.url}/v3/distributions`, {
      method: 'POST',
      headers: { ...bearer(access_token), 'content-type': twice.contentType },
      body: twice.body
    })
    expect(two.status).toBe(400)
    const json = await fetch(`${emu.url}/v3/distributions`, {
      method: 'POST',
      headers: { ...bearer(access_token), 'content-type': 'application/json' },
      body: '{}'
    })
    expect(json.status).toBe(415)
    expect(emu.distributions).toHaveLength(0)
    expect(readdirSync(storage)).toEqual([])
  })

  test('uploads need a valid bearer token (connection stays usable)', async () => {
    const emu = await emulator()
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      const { body, contentType } = multipart([{ name: 'dist_file', filename: 'x.tar.gz', data: tarGz }])
      const res = await raw(emu.url, {
        method: 'POST',
        path: '/v3/distributions',
        agent,
        headers: { 'content-type': contentType, 'content-length': body.length },
        chunks: [body]
      })
      expect(res.status).toBe(401)
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/)
      const next = await raw(emu.url, { method: 'GET', path: '/v3/docs', agent })
      expect(next.status).toBe(200)
      expect(next.reusedSocket).toBe(true)
    } finally {
      agent.destroy()
    }
  })

  test('the parser handles boundaries split across chunks (1-byte and odd-size chunks over HTTP)', async () => {
    const emu = await emulator()
    const { access_token } = await login(emu)
    const { body, contentType } = multipart([
      { name: 'comment', data: Buffer.from('first part\r\n--not-a-boundary\r\n') },
      { name: 'dist_file', filename: 'split.tar.gz', contentType: 'application/octet-stream', data: tarGz }
    ])
    const headers = { ...bearer(access_token), 'content-type': contentType, 'content-length': body.length }
    // 1-byte chunks for the head of the body (boundaries and part headers), then odd sizes.
    const head = 400
    const chunks = [
      ...splitEvery(body.subarray(0, head), [1]),
      ...splitEvery(body.subarray(head, body.length - 120), [4093, 7, 65537]),
      ...splitEvery(body.subarray(body.length - 120), [1, 3])
    ]
    const res = await raw(emu.url, { method: 'POST', path: '/v3/distributions', headers, chunks, pauseMs: 0 })
    expect(res.status).toBe(201)
    expect(JSON.parse(res.body)).toMatchObject({ name: 'split.tar.gz', md5hash: md5(tarGz) })
    expect(readFileSync(emu.distributions[0]?.path ?? '').equals(tarGz)).toBe(true)
    expect(emu.requests.at(-1)?.parts?.map((p) => [p.name, p.size])).toEqual([
      ['comment', 30],
      ['dist_file', tarGz.length]
    ])
  })

  test('Content-Length over the limit is refused with 413 before the body is read', async () => {
    const emu = await emulator({ maxDistributionBytes: 1000 })
    const { access_token } = await login(emu)
    const res = await raw(emu.url, {
      method: 'POST',
      path: '/v3/distributions',
      headers: { ...bearer(access_token), 'content-type': 'multipart/form-data; boundary=x', 'content-length': 10 * 1024 * 1024 * 1024 },
      chunks: [Buffer.from('--x\r\n')]
    })
    expect(res.status).toBe(413)
    expect(res.headers.connection).toBe('close')
  })

  test('a streamed (chunked) file over the limit is refused with 413', async () => {
    const emu = await emulator({ maxDistributionBytes: 100_000 })
    const { access_token } = await login(emu)
    const { body, contentType } = multipart([{ name: 'dist_file', filename: 'big.tar.gz', data: tarGz }])
    const res = await raw(emu.url, {
      method: 'POST',
      path: '/v3/distributions',
      headers: { ...bearer(access_token), 'content-type': contentType }, // no Content-Length: chunked
      chunks: splitEvery(body, [50_000])
    })
    expect(res.status).toBe(413)
    expect((JSON.parse(res.body) as { error_code: string }).error_code).toBe('DistributionTooLarge')
    expect(emu.distributions).toHaveLength(0)
  })

  test('the distribution limit is enforced', async () => {
    const emu = await emulator({ maxDistributions: 2 })
    const { access_token } = await login(emu)
    expect((await upload(emu, access_token, tarGz)).status).toBe(201)
    expect((await upload(emu, access_token, tarGz)).status).toBe(201)
    const third = await upload(emu, access_token, tarGz)
    expect(third.status).toBe(409)
    expect(((await third.json()) as { error_code: string }).error_code).toBe('DistributionLimitReached')
    expect(emu.distributions).toHaveLength(2)
  })

  test('list with offset/max, get and delete', async () => {
    const emu = await emulator()
    const { access_token } = await login(emu)
    const ids: string[] = []
    for (const name of ['a.tar.gz', 'b.tar.gz', 'c.tar.gz']) {
      ids.push(((await (await upload(emu, access_token, tarGz, name)).json()) as { id: string }).id)
    }
    const get = (path: string): Promise<Response> => fetch(`${emu.url}${path}`, { headers: bearer(access_token) })
    const page = (await (await get('/v3/distributions?offset=1&max=1')).json()) as Record<string, unknown>
    expect(page).toMatchObject({ offset: 1, max: 1, count: 1, more: true, total: 3 })
    expect((page.items as Array<{ name: string }>)[0]?.name).toBe('b.tar.gz')
    const all = (await (await get('/v3/distributions')).json()) as Record<string, unknown>
    expect(all).toMatchObject({ offset: 0, count: 3, more: false, total: 3 })
    expect((await get('/v3/distributions?max=abc')).status).toBe(400)

    const one = await get(`/v3/distributions/${ids[2] ?? ''}`)
    expect(one.status).toBe(200)
    expect(((await one.json()) as { name: string }).name).toBe('c.tar.gz')
    expect((await get('/v3/distributions/nope')).status).toBe(404)

    const path = emu.distributions[0]?.path ?? ''
    const del = await fetch(`${emu.url}/v3/distributions/${ids[0] ?? ''}`, { method: 'DELETE', headers: bearer(access_token) })
    expect(del.status).toBe(204)
    expect(existsSync(path)).toBe(false)
    expect(emu.distributions.map((d) => d.id)).toEqual(ids.slice(1))
    expect((await fetch(`${emu.url}/v3/distributions/${ids[0] ?? ''}`, { method: 'DELETE', headers: bearer(access_token) })).status).toBe(404)
  })
})

describe('environments', () => {
  test('deploy sets distributionId; in-use distributions cannot be deleted', async () => {
    const emu = await emulator({ environments: ['dev', 'prod'] })
    const { access_token } = await login(emu)
    const dist = (await (await upload(emu, access_token, tarGz)).json()) as { id: string }
    const list = (await (await fetch(`${emu.url}/v3/environments`, { headers: bearer(access_token) })).json()) as {
      items: Array<{ id: string; name: string; distributionId: string | null }>
      more: boolean
      total: number
      count: number
    }
    expect(list).toMatchObject({ more: false, total: 2, count: 2 })
    const dev = list.items.find((e) => e.name === 'dev')
    expect(dev?.distributionId).toBeNull()
    expect(dev?.id).not.toBe('dev')

    const deploy = (envId: string, body: unknown): Promise<Response> =>
      fetch(`${emu.url}/v3/environments/${envId}/deploy`, {
        method: 'PUT',
        headers: { ...bearer(access_token), 'content-type': 'application/json' },
        body: JSON.stringify(body)
      })
    const res = await deploy(dev?.id ?? '', { distributionId: dist.id, strategy: 'stopstart' })
    expect(res.status).toBe(202)
    expect(await res.json()).toMatchObject({ id: dev?.id, name: 'dev', distributionId: dist.id })
    expect(emu.environments[0]).toMatchObject({ distributionId: dist.id, deployments: [{ distributionId: dist.id, strategy: 'stopstart' }] })
    expect(emu.requests.at(-1)).toMatchObject({ operation: 'deploy', method: 'PUT', json: { distributionId: dist.id, strategy: 'stopstart' } })

    expect((await deploy('unknown-env', { distributionId: dist.id, strategy: 'stopstart' })).status).toBe(404)
    expect((await deploy(dev?.id ?? '', { distributionId: 'unknown', strategy: 'stopstart' })).status).toBe(400)
    expect((await deploy(dev?.id ?? '', { distributionId: dist.id })).status).toBe(400)
    expect((await deploy(dev?.id ?? '', { distributionId: dist.id, strategy: '' })).status).toBe(400)

    const del = await fetch(`${emu.url}/v3/distributions/${dist.id}`, { method: 'DELETE', headers: bearer(access_token) })
    expect(del.status).toBe(409)
    expect(((await del.json()) as { error_code: string }).error_code).toBe('DistributionInUse')
  })
})

/** A tar entry for the hand-made archives below: `format` decides how a name over 100 bytes is written. */
interface TarFile {
  name: string
  data?: string | Buffer
  type?: '0' | '1' | '2' | '5'
  linkname?: string
  format?: 'ustar' | 'gnu' | 'pax'
}

/** One 512-byte header, written field by field (independent of the emulator's reader). */
function tarHeader(name: string, size: number, type: string, opts: { linkname?: string; prefix?: string; gnu?: boolean } = {}): Buffer {
  const h = Buffer.alloc(512)
  h.write(name, 0, 100, 'utf8')
  h.write('0000644\0', 100)
  h.write('0000000\0', 108)
  h.write('0000000\0', 116)
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124)
  h.write('00000000000\0', 136)
  h.write(type, 156)
  if (opts.linkname !== undefined) h.write(opts.linkname, 157, 100, 'utf8')
  if (opts.gnu === true) h.write('ustar  \0', 257, 'latin1')
  else h.write('ustar\x0000', 257, 'latin1')
  if (opts.prefix !== undefined) h.write(opts.prefix, 345, 155, 'utf8')
  h.fill(0x20, 148, 156)
  let sum = 0
  for (const b of h) sum += b
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1')
  return h
}

const pad = (n: number): Buffer => Buffer.alloc((512 - (n % 512)) % 512)

/** `"<length> path=<value>\n"`, where length counts the whole record, its own digits included. */
function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`
  let length = Buffer.byteLength(body) + 1
  while (String(length).length + Buffer.byteLength(body) !== length) length = String(length).length + Buffer.byteLength(body)
  return Buffer.from(`${length}${body}`)
}

function tarGzOf(files: TarFile[]): Buffer {
  const out: Buffer[] = []
  for (const f of files) {
    const data = Buffer.from(f.data ?? '')
    const type = f.type ?? '0'
    const size = type === '0' ? data.length : 0
    const link = f.linkname === undefined ? {} : { linkname: f.linkname }
    if (Buffer.byteLength(f.name) <= 100) {
      out.push(tarHeader(f.name, size, type, link))
    } else if ((f.format ?? 'ustar') === 'ustar') {
      const cut = f.name.lastIndexOf('/', f.name.length - 2)
      out.push(tarHeader(f.name.slice(cut + 1), size, type, { ...link, prefix: f.name.slice(0, cut) }))
    } else if (f.format === 'gnu') {
      const longName = Buffer.from(`${f.name}\0`)
      out.push(tarHeader('././@LongLink', longName.length, 'L', { gnu: true }), longName, pad(longName.length))
      out.push(tarHeader(f.name.slice(0, 100), size, type, { ...link, gnu: true }))
    } else {
      const records = paxRecord('path', f.name)
      out.push(tarHeader(`PaxHeaders/${f.name.slice(0, 80)}`, records.length, 'x'), records, pad(records.length))
      out.push(tarHeader(f.name.slice(0, 100), size, type, link))
    }
    if (size > 0) out.push(data, pad(size))
  }
  out.push(Buffer.alloc(1024))
  return gzipSync(Buffer.concat(out))
}

const LONG_DIR = `${'d'.repeat(70)}/${'e'.repeat(70)}`

/** A small site: index.html, a text file, a file under a long path, and whatever `extra` adds. */
function siteArchive(format: 'ustar' | 'gnu' | 'pax', root: '' | './', extra: TarFile[] = []): Buffer {
  return tarGzOf([
    { name: root === '' ? 'conf/' : './', type: '5' },
    { name: `${root}index.html`, data: '<h1>home</h1>', format },
    { name: `${root}health.txt`, data: 'OK', format },
    { name: `${root}${LONG_DIR}/deep.json`, data: '{"deep":true}', format },
    { name: `${root}alias.txt`, type: '2', linkname: 'health.txt', format },
    ...extra.map((e) => ({ ...e, format }))
  ])
}

async function authed(
  emu: Emulator
): Promise<{ token: string; get: (path: string) => Promise<Response>; deploy: (envId: string, body: unknown) => Promise<Response> }> {
  const { access_token: token } = await login(emu)
  return {
    token,
    get: (path) => fetch(`${emu.url}${path}`, { headers: bearer(token) }),
    deploy: (envId, body) =>
      fetch(`${emu.url}/v3/environments/${envId}/deploy`, {
        method: 'PUT',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        body: JSON.stringify(body)
      })
  }
}

async function uploadedId(emu: Emulator, token: string, data: Buffer, filename = 'site.tar.gz'): Promise<string> {
  const res = await upload(emu, token, data, filename)
  expect(res.status).toBe(201)
  return ((await res.json()) as { id: string }).id
}

async function until(check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('deploys that take time', () => {
  test('the environment reports its old distribution while deploying, then switches; history records both times', async () => {
    // A switch of 0.4 s that two looks see in progress: however slow the machine, every check below meets it switching.
    const emu = await emulator({ environments: ['dev'], deploySeconds: 0.4, deployLooks: 2 })
    const api = await authed(emu)
    const first = await uploadedId(emu, api.token, tarGz, 'a.tar.gz')
    const second = await uploadedId(emu, api.token, tarGz, 'b.tar.gz')
    const env = emu.environments[0]
    const envId = env?.id ?? ''
    const byName = async (): Promise<Record<string, unknown>> => (await (await api.get('/v3/environments?name=dev')).json()) as Record<string, unknown>
    const inList = async (): Promise<Record<string, unknown> | undefined> =>
      ((await (await api.get('/v3/environments')).json()) as { items: Array<Record<string, unknown>> }).items[0]

    expect(await byName()).toMatchObject({ id: envId, distributionId: null, status: 'empty', strategy: null, deployedAt: null })
    const started = Date.now()
    const res = await api.deploy(envId, { distributionId: first, strategy: 'stopstart' })
    expect(res.status).toBe(202)
    expect(await res.json()).toMatchObject({ id: envId, distributionId: null, status: 'deploying' })
    expect(env?.deployments).toEqual([
      { distributionId: first, strategy: 'stopstart', appConfigFileRoles: [], requestedAt: expect.any(String), appliedAt: null, by: emu.username }
    ])

    // A second deploy while the first is switching is refused, and leaves no trace in the history.
    const busy = await api.deploy(envId, { distributionId: second, strategy: 'stopstart' })
    expect(busy.status).toBe(409)
    expect(await busy.json()).toEqual({ error_code: 'DeploymentInProgress', error_detail: expect.any(String) })
    // Neither the running nor the incoming distribution may be deleted meanwhile.
    const del = await fetch(`${emu.url}/v3/distributions/${first}`, { method: 'DELETE', headers: bearer(api.token) })
    expect(del.status).toBe(409)
    // The two looks: by name and in the list.
    expect(await byName()).toMatchObject({ distributionId: null, status: 'deploying', strategy: null })
    expect(await inList()).toMatchObject({ distributionId: null, status: 'deploying' })

    await until(async () => (await byName()).distributionId === first)
    expect(Date.now() - started).toBeGreaterThanOrEqual(350)
    expect(await byName()).toMatchObject({ distributionId: first, status: 'running', strategy: 'stopstart', deployedAt: expect.any(String) })
    expect(await inList()).toMatchObject({ distributionId: first, status: 'running' })

    expect((await api.deploy(envId, { distributionId: second, strategy: 'rolling' })).status).toBe(202)
    expect(await byName()).toMatchObject({ distributionId: first, status: 'deploying', strategy: 'stopstart' })
    expect(await inList()).toMatchObject({ distributionId: first, status: 'deploying' })
    await until(async () => (await byName()).distributionId === second)
    expect(env?.status).toBe('running')
    expect(env?.deployments.map((d) => [d.distributionId, d.strategy])).toEqual([
      [first, 'stopstart'],
      [second, 'rolling']
    ])
    for (const d of env?.deployments ?? []) {
      expect(d.appliedAt).not.toBeNull()
      expect(Date.parse(d.appliedAt ?? '') - Date.parse(d.requestedAt)).toBeGreaterThanOrEqual(350)
    }
    // The deploy calls themselves, in order: accepted, refused, accepted.
    expect(emu.requests.filter((r) => r.operation === 'deploy').map((r) => r.status)).toEqual([202, 409, 202])
  })

  test('deployLooks alone: a switch lands right after that many looks reported it in progress; finishDeploy lands one at once', async () => {
    const emu = await emulator({ environments: ['dev'], deployLooks: 1 })
    const api = await authed(emu)
    const id = await uploadedId(emu, api.token, tarGz)
    const envId = emu.environments[0]?.id ?? ''
    const byName = async (): Promise<unknown> => (await api.get('/v3/environments?name=dev')).json()
    expect((await api.deploy(envId, { distributionId: id, strategy: 'stopstart' })).status).toBe(202)
    expect(emu.environments[0]?.status).toBe('deploying')
    expect(await byName()).toMatchObject({ distributionId: null, status: 'deploying' })
    expect(await byName()).toMatchObject({ distributionId: id, status: 'running' })
    // Held until the test lands it: no time, and no number of looks, ends it.
    emu.setDeploySeconds(Infinity)
    const other = await uploadedId(emu, api.token, tarGz, 'other.tar.gz')
    expect((await api.deploy(envId, { distributionId: other, strategy: 'stopstart' })).status).toBe(202)
    for (let i = 0; i < 3; i++) expect(await byName()).toMatchObject({ distributionId: id, status: 'deploying' })
    emu.finishDeploy('dev')
    expect(await byName()).toMatchObject({ distributionId: other, status: 'running' })
    expect(() => emu.finishDeploy('dev')).toThrow(/no deploy in progress on "dev"/)
    // Someone else's deploy takes the time (or looks) it is given, else the stack's.
    const theirs = await emu.addDistribution('theirs.tar.gz', { 'a.txt': 'a\n' })
    emu.deployAs('dev', theirs, { looks: 1 })
    expect(await byName()).toMatchObject({ distributionId: other, status: 'deploying' })
    expect(await byName()).toMatchObject({ distributionId: theirs, status: 'running' })
    emu.deployAs('dev', id)
    expect(emu.environments[0]?.status).toBe('deploying')
    emu.finishDeploy('dev')
    expect(emu.environments[0]).toMatchObject({ distributionId: id, status: 'running' })
  })

  test("a held request is handled once its promise settles: the order of two clients is the test's", async () => {
    const emu = await emulator({ environments: ['dev'] })
    const api = await authed(emu)
    const id = await uploadedId(emu, api.token, tarGz)
    let release = (): void => undefined
    // onHeld tells the test the moment the request is held: the other client has sent it and waits.
    let held = (): void => undefined
    const isHeld = new Promise<void>((resolve) => (held = resolve))
    emu.holdRequests('deploy', new Promise<void>((resolve) => (release = resolve)), { onHeld: () => held() })
    const order: string[] = []
    const deploy = api.deploy(emu.environments[0]?.id ?? '', { distributionId: id, strategy: 'stopstart' }).then((r) => order.push(`deploy ${r.status}`))
    await isHeld
    expect(emu.requests.filter((r) => r.operation === 'deploy').map((r) => r.status)).toEqual([0])
    // Meanwhile other calls are answered, and the held one is not carried out.
    expect((await api.get('/v3/environments?name=dev')).status).toBe(200)
    order.push('look')
    expect(emu.environments[0]?.deployments).toEqual([])
    release()
    await deploy
    expect(order).toEqual(['look', 'deploy 202'])
    expect(emu.environments[0]?.distributionId).toBe(id)
    // Only the next one was held: the one after it is handled at once.
    expect((await api.deploy(emu.environments[0]?.id ?? '', { distributionId: id, strategy: 'stopstart' })).status).toBe(202)
  })

  test('reported at request: the new id at once, while the site serves the old release until the switch; 409 and in-use rules hold', async () => {
    // The switch lasts until the test lands it.
    const emu = await emulator({ environments: ['dev'], deploySeconds: Infinity, deployReport: 'at-request' })
    const api = await authed(emu)
    const old = await emu.addDistribution('old.tar.gz', { 'version.txt': 'old\n' })
    emu.deployAs('dev', old, { seconds: 0 })
    const next = await emu.addDistribution('new.tar.gz', { 'version.txt': 'new\n' })
    const envId = emu.environments[0]?.id ?? ''
    const res = await api.deploy(envId, { distributionId: next, strategy: 'stopstart' })
    expect(await res.json()).toMatchObject({ distributionId: next, status: 'deploying' })
    expect(await (await fetch(`${emu.url}/sites/dev/version.txt`)).text()).toBe('old\n')
    expect((await api.deploy(envId, { distributionId: old, strategy: 'stopstart' })).status).toBe(409)
    // Both the one it serves and the one it switches to are in use.
    for (const id of [old, next]) expect((await fetch(`${emu.url}/v3/distributions/${id}`, { method: 'DELETE', headers: bearer(api.token) })).status).toBe(409)
    emu.finishDeploy('dev')
    expect(emu.environments[0]?.deployments.at(-1)?.appliedAt).not.toBeNull()
    expect(await (await fetch(`${emu.url}/sites/dev/version.txt`)).text()).toBe('new\n')
    expect(emu.environments[0]?.deployments.map((d) => d.by)).toEqual(['someone-else', emu.username])
  })

  test('no status field, an upper-case md5hash, a request hook, and a dropped deploy answer that was carried out', async () => {
    const emu = await emulator({
      environments: ['dev'],
      environmentStatus: false,
      md5Case: 'upper',
      faults: [{ operation: 'deploy', kind: 'drop-after-apply', times: 1 }]
    })
    const api = await authed(emu)
    const id = await uploadedId(emu, api.token, tarGz)
    const listed = (await (await api.get('/v3/distributions')).json()) as { items: Array<{ md5hash: string }> }
    expect(listed.items[0]?.md5hash).toBe(md5(tarGz).toUpperCase())
    const seen: number[] = []
    emu.onRequest('deploy', (r) => seen.push(r.status), { times: 2 })
    await expect(api.deploy(emu.environments[0]?.id ?? '', { distributionId: id, strategy: 'stopstart' })).rejects.toThrow()
    await until(() => seen.length === 1)
    expect(seen).toEqual([0])
    expect(emu.environments[0]?.distributionId).toBe(id)
    const env = ((await (await api.get('/v3/environments')).json()) as { items: Array<Record<string, unknown>> }).items[0]
    expect(env).not.toHaveProperty('status')
    expect(env).toMatchObject({ distributionId: id })
    expect(() => emu.deployAs('dev', 'no-such-id')).toThrow(/no distribution/)
  })

  test('with deploySeconds 0 (the default) the switch is immediate and appliedAt is set at once', async () => {
    const emu = await emulator({ environments: ['dev'] })
    const api = await authed(emu)
    const id = await uploadedId(emu, api.token, tarGz)
    const res = await api.deploy(emu.environments[0]?.id ?? '', { distributionId: id, strategy: 'stopstart' })
    expect(await res.json()).toMatchObject({ distributionId: id, status: 'running', strategy: 'stopstart', deployedAt: expect.any(String) })
    const [d] = emu.environments[0]?.deployments ?? []
    expect(d?.appliedAt).toEqual(expect.any(String))
    expect((await api.deploy(emu.environments[0]?.id ?? '', { distributionId: id, strategy: 'stopstart' })).status).toBe(202)
  })

  test('close() cancels a pending switch (the timer keeps nothing alive)', async () => {
    const emu = await startEmulator({ environments: ['dev'], deploySeconds: 30 })
    const api = await authed(emu)
    const id = await uploadedId(emu, api.token, tarGz)
    expect((await api.deploy(emu.environments[0]?.id ?? '', { distributionId: id, strategy: 'stopstart' })).status).toBe(202)
    const started = Date.now()
    await emu.close()
    expect(Date.now() - started).toBeLessThan(5000)
    expect(emu.environments[0]).toMatchObject({ distributionId: null, status: 'deploying', deployments: [{ distributionId: id, appliedAt: null }] })
  })
})

describe('application configuration files', () => {
  test('listed with stable uuid-shaped ids; the deploy checks ids, roles and the entries', async () => {
    const emu = await emulator({ environments: ['dev'], appConfigFiles: ['site.properties', 'cms.yaml'] })
    const api = await authed(emu)
    const files = (await (await api.get('/v3/appconfigfiles')).json()) as Array<{ id: string; name: string }>
    expect(files.map((f) => f.name)).toEqual(['site.properties', 'cms.yaml'])
    for (const f of files) expect(f.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(new Set(files.map((f) => f.id)).size).toBe(2)
    expect(files.map((f) => f.id)).not.toContain(emu.environments[0]?.id)
    expect(emu.appConfigFiles).toEqual(files)
    const again = await emulator({ environments: ['dev'], appConfigFiles: ['cms.yaml'] })
    expect(again.appConfigFiles[0]?.id).toBe(files[1]?.id) // the same name, the same id

    const id = await uploadedId(emu, api.token, tarGz)
    const envId = emu.environments[0]?.id ?? ''
    const deployWith = async (roles: unknown): Promise<[number, string]> => {
      const res = await api.deploy(envId, { distributionId: id, strategy: 'stopstart', appConfigFileRoles: roles })
      return [res.status, ((await res.json()) as { error_code?: string }).error_code ?? '']
    }
    const siteId = files[0]?.id ?? ''
    expect(await deployWith([{ appConfigFileId: 'no-such-file', role: 'systemproperty' }])).toEqual([400, 'AppConfigFileNotFound'])
    expect(await deployWith([{ appConfigFileId: siteId, role: 'environment' }])).toEqual([400, 'InvalidAppConfigFileRole'])
    expect(await deployWith([siteId])).toEqual([400, 'InvalidRequest'])
    expect(await deployWith([{ appConfigFileId: siteId }])).toEqual([400, 'InvalidRequest'])
    expect(await deployWith([{ appConfigFileId: 7, role: 'systemproperty' }])).toEqual([400, 'InvalidRequest'])
    expect(await deployWith({ appConfigFileId: siteId, role: 'systemproperty' })).toEqual([400, 'InvalidRequest'])
    expect(emu.environments[0]?.deployments).toEqual([])

    const roles = [{ appConfigFileId: siteId, role: 'systemproperty' }]
    expect(await deployWith(roles)).toEqual([202, ''])
    expect(emu.environments[0]?.deployments).toEqual([
      { distributionId: id, strategy: 'stopstart', appConfigFileRoles: roles, requestedAt: expect.any(String), appliedAt: expect.any(String), by: emu.username }
    ])
  })

  test('none by default: the list is empty and any file is unknown', async () => {
    const emu = await emulator({ environments: ['dev'] })
    const api = await authed(emu)
    expect(await (await api.get('/v3/appconfigfiles')).json()).toEqual([])
    const id = await uploadedId(emu, api.token, tarGz)
    const res = await api.deploy(emu.environments[0]?.id ?? '', {
      distributionId: id,
      strategy: 'stopstart',
      appConfigFileRoles: [{ appConfigFileId: 'x', role: 'systemproperty' }]
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error_code: string }).error_code).toBe('AppConfigFileNotFound')
  })
})

describe('sites', () => {
  const site = (emu: Emulator, path: string, method = 'GET'): Promise<Response> => fetch(`${emu.url}/sites/${path}`, { method })

  test('a site serves the files of the distribution its environment runs, without authorization', async () => {
    const emu = await emulator({ environments: ['dev', 'prod'] })
    const api = await authed(emu)
    expect((await site(emu, 'dev/index.html')).status).toBe(404) // runs nothing yet
    expect((await site(emu, 'nowhere/index.html')).status).toBe(404)
    const id = await uploadedId(emu, api.token, siteArchive('pax', './'))
    expect((await api.deploy(emu.environments[0]?.id ?? '', { distributionId: id, strategy: 'stopstart' })).status).toBe(202)

    const home = await site(emu, 'dev')
    expect(home.status).toBe(200)
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await home.text()).toBe('<h1>home</h1>')
    expect(await (await site(emu, 'dev/')).text()).toBe('<h1>home</h1>')
    const health = await site(emu, 'dev/health.txt')
    expect([health.status, health.headers.get('content-type'), await health.text()]).toEqual([200, 'text/plain; charset=utf-8', 'OK'])
    expect(await (await site(emu, `dev/${LONG_DIR}/deep.json`)).json()).toEqual({ deep: true })
    expect(await (await site(emu, 'dev/alias.txt')).text()).toBe('OK') // a symlink inside the distribution
    const head = await site(emu, 'dev/health.txt', 'HEAD')
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([200, '2', ''])

    const missing = await site(emu, 'dev/nope.txt')
    expect(missing.status).toBe(404)
    expect(await missing.text()).toContain('nope.txt')
    expect((await site(emu, 'prod')).status).toBe(404) // the other environment runs nothing
    expect(emu.requests.filter((r) => r.operation === 'site').every((r) => r.headers.authorization === undefined)).toBe(true)
    expect(emu.requests.at(-1)).toMatchObject({ operation: 'site', method: 'GET', url: '/sites/prod', status: 404 })
  })

  test('a larger binary file is streamed byte for byte', async () => {
    const emu = await emulator({ environments: ['dev'] })
    const api = await authed(emu)
    const big = randomBytes(700_000)
    const id = await uploadedId(emu, api.token, siteArchive('gnu', './', [{ name: './static/big.bin', data: big }]))
    await api.deploy(emu.environments[0]?.id ?? '', { distributionId: id, strategy: 'stopstart' })
    for (let i = 0; i < 2; i++) {
      const res = await site(emu, 'dev/static/big.bin')
      expect(res.status).toBe(200)
      expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(big))
    }
  })

  test('ustar prefixes, GNU long names and PAX paths, with and without ./', async () => {
    const emu = await emulator({ environments: ['dev'] })
    const api = await authed(emu)
    const envId = emu.environments[0]?.id ?? ''
    for (const format of ['ustar', 'gnu', 'pax'] as const) {
      for (const root of ['', './'] as const) {
        const id = await uploadedId(emu, api.token, siteArchive(format, root))
        expect((await api.deploy(envId, { distributionId: id, strategy: 'stopstart' })).status).toBe(202)
        const deep = await site(emu, `dev/${LONG_DIR}/deep.json`)
        expect([format, root, deep.status, await deep.text()]).toEqual([format, root, 200, '{"deep":true}'])
        expect(await (await site(emu, 'dev/health.txt')).text()).toBe('OK')
      }
    }
  })

  test.each(['', './'])('a distribution with %sEMULATOR-SITE-FAILS at its root fails on every path; a good one rolls it back', async (root) => {
    const emu = await emulator({ environments: ['dev'] })
    const api = await authed(emu)
    const envId = emu.environments[0]?.id ?? ''
    const good = await uploadedId(emu, api.token, siteArchive('gnu', './'))
    const bad = await uploadedId(emu, api.token, siteArchive('gnu', './', [{ name: `${root}EMULATOR-SITE-FAILS`, data: '' }]))
    const nested = await uploadedId(emu, api.token, siteArchive('gnu', './', [{ name: './conf/EMULATOR-SITE-FAILS', data: '' }]))
    await api.deploy(envId, { distributionId: bad, strategy: 'stopstart' })
    for (const path of ['dev', 'dev/health.txt', 'dev/nope.txt']) {
      const res = await site(emu, path)
      expect([path, res.status]).toEqual([path, 500])
      expect(await res.text()).toContain('EMULATOR-SITE-FAILS')
    }
    await api.deploy(envId, { distributionId: nested, strategy: 'stopstart' })
    expect((await site(emu, 'dev/health.txt')).status).toBe(200) // only the root counts
    await api.deploy(envId, { distributionId: good, strategy: 'stopstart' })
    expect((await site(emu, 'dev/health.txt')).status).toBe(200)
    expect(emu.environments[0]?.deployments.map((d) => d.distributionId)).toEqual([bad, nested, good])
  })

  test('503 with Retry-After while the environment deploys', async () => {
    // The switch lasts until the test lands it.
    const emu = await emulator({ environments: ['dev'], deploySeconds: Infinity })
    const api = await authed(emu)
    const id = await uploadedId(emu, api.token, siteArchive('ustar', ''))
    await api.deploy(emu.environments[0]?.id ?? '', { distributionId: id, strategy: 'stopstart' })
    const busy = await site(emu, 'dev/health.txt')
    expect([busy.status, busy.headers.get('retry-after')]).toEqual([503, '1'])
    emu.finishDeploy('dev')
    expect((await site(emu, 'dev/health.txt')).status).toBe(200)
    expect(emu.environments[0]?.status).toBe('running')
  })

  test('without kept uploads the site answers 500 and says why', async () => {
    const emu = await emulator({ environments: ['dev'], keepUploads: false })
    const api = await authed(emu)
    const id = await uploadedId(emu, api.token, siteArchive('pax', ''))
    await api.deploy(emu.environments[0]?.id ?? '', { distributionId: id, strategy: 'stopstart' })
    const res = await site(emu, 'dev/health.txt')
    expect(res.status).toBe(500)
    expect(await res.text()).toMatch(/keeps no upload contents/)
  })

  test("faults apply to the operation 'site'", async () => {
    const emu = await emulator({ environments: ['dev'], faults: [{ operation: 'site', kind: 'status', status: 502, times: 1 }] })
    const api = await authed(emu)
    const id = await uploadedId(emu, api.token, siteArchive('pax', ''))
    await api.deploy(emu.environments[0]?.id ?? '', { distributionId: id, strategy: 'stopstart' })
    expect((await site(emu, 'dev/health.txt')).status).toBe(502)
    expect((await site(emu, 'dev/health.txt')).status).toBe(200)
    expect(emu.requests.filter((r) => r.operation === 'site').map((r) => [r.status, r.fault])).toEqual([
      [502, 'status'],
      [200, undefined]
    ])
  })

  const gnuTar = ((): boolean => {
    try {
      return execFileSync('tar', ['--version']).toString().includes('GNU tar')
    } catch {
      return false
    }
  })()
  ;(gnuTar ? test : test.skip).each(['gnu', 'pax', 'ustar'])('archives written by GNU tar --format=%s', async (format) => {
    const dir = join(work, `site-${format}`)
    mkdirSync(join(dir, LONG_DIR), { recursive: true })
    writeFileSync(join(dir, 'index.html'), `<p>${format}</p>`)
    writeFileSync(join(dir, LONG_DIR, 'deep.json'), '{"deep":true}')
    const file = join(work, `site-${format}.tar.gz`)
    execFileSync('tar', [`--format=${format}`, '-czf', file, '-C', dir, '.'])
    const emu = await emulator({ environments: ['dev'] })
    const api = await authed(emu)
    const id = await uploadedId(emu, api.token, readFileSync(file))
    await api.deploy(emu.environments[0]?.id ?? '', { distributionId: id, strategy: 'stopstart' })
    expect(await (await site(emu, 'dev')).text()).toBe(`<p>${format}</p>`)
    expect(await (await site(emu, `dev/${LONG_DIR}/deep.json`)).text()).toBe('{"deep":true}')
  })
})

describe('paging, limits and answer shapes', () => {
  const list = async (emu: Emulator, token: string, path: string) =>
    (await (await fetch(`${emu.url}${path}`, { headers: bearer(token) })).json()) as {
      items: Array<{ id: unknown; name: string }>
      more: boolean
      offset?: number
    }

  test('the default page holds 100 distributions, as the API reference shows ("max": 100), and says so', async () => {
    const emu = await emulator()
    const { access_token } = await login(emu)
    const at = new Date(0).toISOString()
    for (let i = 0; i < 120; i++) {
      emu.distributions.push({
        id: `d${i}`,
        name: `d${i}.tar.gz`,
        createdAt: at,
        createdBy: 'x',
        modifiedAt: at,
        modifiedBy: 'x',
        md5hash: '0',
        sha256: '0',
        size: 1
      })
    }
    const page = (await (await fetch(`${emu.url}/v3/distributions`, { headers: bearer(access_token) })).json()) as Record<string, unknown>
    expect(page).toMatchObject({ offset: 0, max: 100, count: 100, more: true, total: 120 })
  })

  test('distribution pages hold at most distributionPageSize items, whatever max asks', async () => {
    const emu = await emulator({ distributionPageSize: 2 })
    const { access_token } = await login(emu)
    for (const name of ['a.tar.gz', 'b.tar.gz', 'c.tar.gz']) await upload(emu, access_token, tarGz, name)
    const first = await list(emu, access_token, '/v3/distributions?offset=0&max=100')
    expect(first.items.map((i) => i.name)).toEqual(['a.tar.gz', 'b.tar.gz'])
    expect(first.more).toBe(true)
    expect((first as { max?: number }).max).toBe(2)
    const second = await list(emu, access_token, '/v3/distributions?offset=2&max=100')
    expect(second.items.map((i) => i.name)).toEqual(['c.tar.gz'])
    expect(second.more).toBe(false)
  })

  test('environments page by offset and max; ?name= answers one environment or 404; an ignored offset repeats the first page', async () => {
    const emu = await emulator({ environmentPageSize: 2 })
    const { access_token } = await login(emu)
    const first = await list(emu, access_token, '/v3/environments')
    expect([first.items.map((e) => e.name), first.more]).toEqual([['development', 'acceptance'], true])
    const rest = await list(emu, access_token, '/v3/environments?offset=2&max=100')
    expect([rest.items.map((e) => e.name), rest.more]).toEqual([['production'], false])
    const one = await fetch(`${emu.url}/v3/environments?name=acceptance`, { headers: bearer(access_token) })
    expect(await one.json()).toMatchObject({ name: 'acceptance', id: emu.environments[1]?.id })
    expect((await fetch(`${emu.url}/v3/environments?name=nope`, { headers: bearer(access_token) })).status).toBe(404)

    const stuck = await emulator({ environmentPageSize: 1, environmentOffsetIgnored: true })
    const t = (await login(stuck)).access_token
    const again = await list(stuck, t, '/v3/environments?offset=1&max=100')
    expect([again.items.map((e) => e.name), again.more]).toEqual([['development'], true])
  })

  test('at most 4 environments by default, as the platform allows', async () => {
    await expect(emulator({ environments: ['a', 'b', 'c', 'd', 'e'] })).rejects.toThrow(/at most 4 environments/)
    const five = await emulator({ environments: ['a', 'b', 'c', 'd', 'e'], maxEnvironments: 5 })
    expect(five.environments).toHaveLength(5)
  })

  test('upload answers: numeric ids (also in lists), no id, an empty body', async () => {
    const numeric = await emulator({ uploadAnswer: 'numeric-id' })
    const t1 = (await login(numeric)).access_token
    const record = (await (await upload(numeric, t1, tarGz)).json()) as { id: unknown }
    expect(typeof record.id).toBe('number')
    expect(String(record.id)).toBe(numeric.distributions[0]?.id)
    expect(typeof (await list(numeric, t1, '/v3/distributions')).items[0]?.id).toBe('number')

    const noId = await emulator({ uploadAnswer: 'no-id' })
    const answer = (await (await upload(noId, (await login(noId)).access_token, tarGz)).json()) as Record<string, unknown>
    expect(answer).not.toHaveProperty('id')
    expect(answer).toMatchObject({ name: 'myproject.tar.gz' })

    const empty = await emulator({ uploadAnswer: 'empty' })
    const res = await upload(empty, (await login(empty)).access_token, tarGz)
    expect(res.status).toBe(201)
    expect(await res.text()).toBe('')
    expect(empty.distributions).toHaveLength(1)
  })
})

describe('faults', () => {
  test("'status' answers the status with Retry-After for the first N calls", async () => {
    const emu = await emulator({ faults: [{ operation: 'login', kind: 'status', status: 503, retryAfterSeconds: 7, times: 2 }] })
    const attempt = (): Promise<Response> =>
      fetch(`${emu.url}/v3/authn/access_token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: emu.username, password: emu.password })
      })
    const first = await attempt()
    expect(first.status).toBe(503)
    expect(first.headers.get('retry-after')).toBe('7')
    expect(await first.json()).toEqual({ error_code: 'ServiceUnavailable', error_detail: expect.any(String) })
    expect((await attempt()).status).toBe(503)
    expect((await attempt()).status).toBe(200)
    expect(emu.requests.map((r) => [r.status, r.fault])).toEqual([
      [503, 'status'],
      [503, 'status'],
      [200, undefined]
    ])
    expect(emu.requests[0]?.json).toEqual({ username: emu.username, password: emu.password })
  })

  test("'status' on upload drains the body and stores nothing; addFault works at runtime", async () => {
    const emu = await emulator()
    const { access_token } = await login(emu)
    emu.addFault({ operation: 'upload', kind: 'status', status: 429, times: 1 })
    expect((await upload(emu, access_token, tarGz)).status).toBe(429)
    expect(emu.distributions).toHaveLength(0)
    expect((await upload(emu, access_token, tarGz)).status).toBe(201)
  })

  test("'reset-mid-upload' destroys the connection after some bytes; nothing is stored", async () => {
    const emu = await emulator({ faults: [{ operation: 'upload', kind: 'reset-mid-upload', afterBytes: 50_000, times: 1 }] })
    const { access_token } = await login(emu)
    await expect(upload(emu, access_token, tarGz)).rejects.toThrow()
    expect(emu.distributions).toHaveLength(0)
    expect(emu.requests.at(-1)).toMatchObject({ operation: 'upload', status: 0, fault: 'reset-mid-upload' })
    expect((await upload(emu, access_token, tarGz)).status).toBe(201)
  })

  test("'drop-after-upload' stores the distribution but never answers", async () => {
    const emu = await emulator({ faults: [{ operation: 'upload', kind: 'drop-after-upload', times: 1 }] })
    const { access_token } = await login(emu)
    await expect(upload(emu, access_token, tarGz)).rejects.toThrow()
    expect(emu.distributions).toHaveLength(1)
    expect(emu.distributions[0]?.md5hash).toBe(md5(tarGz))
    expect(emu.requests.at(-1)).toMatchObject({ operation: 'upload', status: 0, fault: 'drop-after-upload' })
  })

  test("'hang' never answers until close()", async () => {
    const emu = await emulator({ faults: [{ operation: 'list-environments', kind: 'hang', times: 1 }] })
    await expect(fetch(`${emu.url}/v3/environments`, { signal: AbortSignal.timeout(300) })).rejects.toThrow()
    expect(emu.requests.at(-1)).toMatchObject({ operation: 'list-environments', status: 0, fault: 'hang' })
    const pending = fetch(`${emu.url}/v3/docs`) // not faulted
    expect((await pending).status).toBe(200)
  })

  test("'apply-then-status' carries the call out in full, then answers the status with the usual error body", async () => {
    const emu = await emulator({ environments: ['dev'], faults: [{ operation: 'deploy', kind: 'apply-then-status', status: 500, times: 1 }] })
    const api = await authed(emu)
    const id = await uploadedId(emu, api.token, tarGz)
    const envId = emu.environments[0]?.id ?? ''
    const res = await api.deploy(envId, { distributionId: id, strategy: 'stopstart' })
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({ error_code: 'InternalServerError', error_detail: expect.any(String) })
    // Done all the same: the environment runs it, and says so.
    expect(emu.environments[0]).toMatchObject({ distributionId: id, status: 'running', deployments: [{ distributionId: id, by: emu.username }] })
    expect(await (await api.get('/v3/environments?name=dev')).json()).toMatchObject({ distributionId: id })
    expect((await api.deploy(envId, { distributionId: id, strategy: 'stopstart' })).status).toBe(202) // used up
    expect(emu.requests.filter((r) => r.operation === 'deploy').map((r) => [r.status, r.fault])).toEqual([
      [500, 'apply-then-status'],
      [202, undefined]
    ])

    // An upload answered 503 is stored all the same.
    emu.addFault({ operation: 'upload', kind: 'apply-then-status', status: 503, times: 1 })
    const stored = await upload(emu, api.token, tarGz, 'again.tar.gz')
    expect(stored.status).toBe(503)
    expect(await stored.json()).toEqual({ error_code: 'ServiceUnavailable', error_detail: expect.any(String) })
    expect(emu.distributions.map((d) => d.name)).toEqual(['site.tar.gz', 'again.tar.gz'])
    expect(() => emu.addFault({ operation: 'deploy', kind: 'apply-then-status', times: 1 })).toThrow(/needs a status/)
  })

  test("'apply-then-delay' carries the call out, then answers late: a client with a shorter timeout sees no answer, a patient one gets it", async () => {
    const emu = await emulator({ environments: ['dev'], faults: [{ operation: 'deploy', kind: 'apply-then-delay', delayMs: 600, times: 1 }] })
    const api = await authed(emu)
    const id = await uploadedId(emu, api.token, tarGz)
    const envId = emu.environments[0]?.id ?? ''
    const seen: number[] = []
    emu.onRequest('deploy', (r) => seen.push(r.status))
    const deploy = fetch(`${emu.url}/v3/environments/${envId}/deploy`, {
      method: 'PUT',
      headers: { ...bearer(api.token), 'content-type': 'application/json' },
      body: JSON.stringify({ distributionId: id, strategy: 'stopstart' }),
      signal: AbortSignal.timeout(150)
    })
    await expect(deploy).rejects.toThrow()
    expect(emu.environments[0]).toMatchObject({ distributionId: id, deployments: [{ distributionId: id }] })
    await until(() => seen.length === 1)
    expect(seen).toEqual([0]) // the client left before the answer: none was sent
    expect(emu.requests.find((r) => r.operation === 'deploy')).toMatchObject({ status: 0, fault: 'apply-then-delay' })

    emu.addFault({ operation: 'list-environments', kind: 'apply-then-delay', delayMs: 300, times: 1 })
    const started = Date.now()
    const late = await api.get('/v3/environments?name=dev')
    expect(Date.now() - started).toBeGreaterThanOrEqual(280)
    expect(late.status).toBe(200)
    expect(await late.json()).toMatchObject({ distributionId: id })
    expect(emu.requests.at(-1)).toMatchObject({ operation: 'list-environments', status: 200, fault: 'apply-then-delay' })
    expect(() => emu.addFault({ operation: 'deploy', kind: 'apply-then-delay', times: 1 })).toThrow(/needs a delayMs/)
  })

  test("close() ends an answer held back by 'apply-then-delay' at once (the wait keeps nothing alive)", async () => {
    const emu = await startEmulator({ faults: [{ operation: 'docs', kind: 'apply-then-delay', delayMs: 30_000, times: 1 }] })
    const pending = fetch(`${emu.url}/v3/docs`)
    pending.catch(() => undefined)
    await until(() => emu.requests.length === 1)
    const started = Date.now()
    await emu.close()
    expect(Date.now() - started).toBeLessThan(5000)
    await expect(pending).rejects.toThrow()
    expect(emu.requests[0]).toMatchObject({ operation: 'docs', status: 0, fault: 'apply-then-delay' })
  })
})

describe('modes for readings the public sources do not settle', () => {
  test("idCase 'upper' writes distribution ids in upper case and matches ids in any case; the default matches exactly", async () => {
    const emu = await emulator({ environments: ['dev'], idCase: 'upper' })
    const api = await authed(emu)
    const answered = await uploadedId(emu, api.token, tarGz, 'a.tar.gz')
    const stored = emu.distributions[0]?.id ?? ''
    expect(stored).toMatch(/^[0-9a-f-]{36}$/)
    expect(answered).toBe(stored.toUpperCase())
    const listed = (await (await api.get('/v3/distributions')).json()) as { items: Array<{ id: string }> }
    expect(listed.items.map((d) => d.id)).toEqual([stored.toUpperCase()])
    for (const named of [stored, stored.toUpperCase()]) {
      const got = await api.get(`/v3/distributions/${named}`)
      expect(got.status).toBe(200)
      expect(((await got.json()) as { id: string }).id).toBe(stored.toUpperCase())
    }
    // The deploy names it in lower case; the answer and the lists write it in upper case, the history keeps the stored id.
    const envId = emu.environments[0]?.id ?? ''
    const res = await api.deploy(envId, { distributionId: stored, strategy: 'stopstart' })
    expect(res.status).toBe(202)
    expect(await res.json()).toMatchObject({ distributionId: stored.toUpperCase() })
    expect(((await (await api.get('/v3/environments')).json()) as { items: unknown[] }).items[0]).toMatchObject({ distributionId: stored.toUpperCase() })
    expect(emu.environments[0]).toMatchObject({ distributionId: stored, deployments: [{ distributionId: stored }] })
    const mixed = stored.slice(0, 4).toUpperCase() + stored.slice(4)
    const del = (id: string): Promise<Response> => fetch(`${emu.url}/v3/distributions/${id}`, { method: 'DELETE', headers: bearer(api.token) })
    expect((await del(mixed)).status).toBe(409) // in use, whatever the case
    const next = await uploadedId(emu, api.token, tarGz, 'b.tar.gz')
    expect((await api.deploy(envId, { distributionId: next.toLowerCase(), strategy: 'stopstart' })).status).toBe(202)
    expect((await del(mixed)).status).toBe(204)
    expect(emu.distributions.map((d) => d.id)).toEqual([next.toLowerCase()])
    expect(emu.requests.filter((r) => r.operation === 'delete-distribution').map((r) => [r.url, r.status])).toEqual([
      [`/v3/distributions/${mixed}`, 409],
      [`/v3/distributions/${mixed}`, 204]
    ])

    const exact = await emulator()
    const { access_token } = await login(exact)
    const id = ((await (await upload(exact, access_token, tarGz)).json()) as { id: string }).id
    expect((await fetch(`${exact.url}/v3/distributions/${id.toUpperCase()}`, { headers: bearer(access_token) })).status).toBe(404)
  })

  test("deleteInUse 'allow' deletes a distribution an environment runs or switches to; deleteAs follows the API's rules", async () => {
    // The switch lasts until the test lands it: the deletes meet it in progress.
    const emu = await emulator({ environments: ['dev', 'test'], deploySeconds: Infinity, deleteInUse: 'allow' })
    const api = await authed(emu)
    const running = await uploadedId(emu, api.token, tarGz, 'a.tar.gz')
    const incoming = await uploadedId(emu, api.token, tarGz, 'b.tar.gz')
    const [dev, other] = emu.environments
    emu.deployAs('dev', running, { seconds: 0 })
    expect((await api.deploy(dev?.id ?? '', { distributionId: incoming, strategy: 'stopstart' })).status).toBe(202)
    const del = (id: string): Promise<Response> => fetch(`${emu.url}/v3/distributions/${id}`, { method: 'DELETE', headers: bearer(api.token) })
    expect((await del(running)).status).toBe(204) // the one it serves
    expect((await del(incoming)).status).toBe(204) // the one it switches to
    expect(emu.distributions).toEqual([])
    expect((await del(running)).status).toBe(404)
    // The environment still names what it runs; its site has nothing to serve.
    emu.finishDeploy('dev')
    expect(await (await api.get('/v3/environments?name=dev')).json()).toMatchObject({ distributionId: incoming })
    expect((await fetch(`${emu.url}/sites/dev/README`)).status).toBe(404)

    // Someone else deletes the release a test environment runs, by the same rule.
    const theirs = await emu.addDistribution('theirs.tar.gz', { 'a.txt': 'a\n' })
    emu.deployAs('test', theirs, { seconds: 0 })
    await emu.deleteAs(theirs)
    expect(emu.distributions).toEqual([])
    expect(other?.distributionId).toBe(theirs)
    await expect(emu.deleteAs(theirs)).rejects.toThrow(/deleteAs: No distribution with id .* \(404 DistributionNotFound\)/)
    expect(emu.requests.filter((r) => r.operation === 'delete-distribution').map((r) => r.status)).toEqual([204, 204, 404])
  })

  test("deleteAs refuses a distribution in use by default (409), as the API's DELETE does, and deletes one that is not", async () => {
    const emu = await emulator({ environments: ['dev'] })
    const api = await authed(emu)
    const used = await emu.addDistribution('used.tar.gz', { 'a.txt': 'a\n' })
    const spare = await emu.addDistribution('spare.tar.gz', { 'b.txt': 'b\n' })
    emu.deployAs('dev', used, { seconds: 0 })
    await expect(emu.deleteAs(used)).rejects.toThrow(/deleteAs: .*"dev".*\(409 DistributionInUse\)/)
    expect((await fetch(`${emu.url}/v3/distributions/${used}`, { method: 'DELETE', headers: bearer(api.token) })).status).toBe(409)
    await emu.deleteAs(spare)
    expect(emu.distributions.map((d) => d.id)).toEqual([used])
    const listed = (await (await api.get('/v3/distributions')).json()) as { items: Array<{ id: string }> }
    expect(listed.items.map((d) => d.id)).toEqual([used])
  })

  test("idWhileDeploying 'absent' and 'null': while deploying, the environment has no distributionId field, or null; then the new id", async () => {
    for (const mode of ['absent', 'null'] as const) {
      // Two looks see the switch in progress (by name, in the list), whatever the machine's speed.
      const emu = await emulator({ environments: ['dev'], deploySeconds: 0.3, deployLooks: 2, idWhileDeploying: mode })
      const api = await authed(emu)
      const id = await uploadedId(emu, api.token, tarGz)
      const envId = emu.environments[0]?.id ?? ''
      const res = await api.deploy(envId, { distributionId: id, strategy: 'stopstart' })
      expect(res.status).toBe(202)
      const answers = [
        await res.json(),
        await (await api.get('/v3/environments?name=dev')).json(),
        ((await (await api.get('/v3/environments')).json()) as { items: unknown[] }).items[0]
      ]
      for (const env of answers) {
        expect(env).toMatchObject({ id: envId, status: 'deploying' })
        if (mode === 'absent') expect(env).not.toHaveProperty('distributionId')
        else expect(env).toHaveProperty('distributionId', null)
      }
      await until(() => emu.environments[0]?.status === 'running')
      expect(await (await api.get('/v3/environments?name=dev')).json()).toMatchObject({ distributionId: id, status: 'running' })
      expect(emu.environments[0]?.deployments).toMatchObject([{ distributionId: id, appliedAt: expect.any(String) }])
    }
  })

  test('clockOffsetSeconds shifts every timestamp the platform writes: uploads, deploys, switches and the test hooks', async () => {
    const offsetMs = -3600_000
    const emu = await emulator({ environments: ['dev', 'test'], deploySeconds: 0.2, clockOffsetSeconds: offsetMs / 1000 })
    const api = await authed(emu)
    const shifted = (iso: unknown): number => Date.parse(String(iso)) - Date.now() - offsetMs
    const res = await upload(emu, api.token, tarGz)
    const answered = (await res.json()) as Record<string, unknown>
    expect(Math.abs(shifted(answered.createdAt))).toBeLessThan(5000)
    expect(answered.modifiedAt).toBe(answered.createdAt)
    const id = String(answered.id)
    const got = (await (await api.get(`/v3/distributions/${id}`)).json()) as Record<string, unknown>
    expect(got.createdAt).toBe(answered.createdAt)
    expect((await api.deploy(emu.environments[0]?.id ?? '', { distributionId: id, strategy: 'stopstart' })).status).toBe(202)
    await until(() => emu.environments[0]?.status === 'running')
    const [deployment] = emu.environments[0]?.deployments ?? []
    expect(Math.abs(shifted(deployment?.requestedAt))).toBeLessThan(5000)
    expect(Math.abs(shifted(deployment?.appliedAt))).toBeLessThan(5000)
    const env = (await (await api.get('/v3/environments?name=dev')).json()) as Record<string, unknown>
    expect(env.deployedAt).toBe(deployment?.appliedAt)

    const theirs = await emu.addDistribution('theirs.tar.gz', { 'a.txt': 'a\n' })
    expect(Math.abs(shifted(emu.distributions.find((d) => d.id === theirs)?.createdAt))).toBeLessThan(5000)
    emu.deployAs('test', theirs, { seconds: 0 })
    const [hooked] = emu.environments[1]?.deployments ?? []
    expect(Math.abs(shifted(hooked?.requestedAt))).toBeLessThan(5000)
    expect(Math.abs(shifted(hooked?.appliedAt))).toBeLessThan(5000)
  })

  test("deployWhileBusy 'accept': a deploy while one switches is accepted (202) and replaces it; the replaced switch never applies, even after its own time", async () => {
    const emu = await emulator({ environments: ['dev'], deploySeconds: 1, deployWhileBusy: 'accept' })
    const api = await authed(emu)
    const first = await uploadedId(emu, api.token, tarGz, 'a.tar.gz')
    const second = await uploadedId(emu, api.token, tarGz, 'b.tar.gz')
    const env = emu.environments[0]
    const envId = env?.id ?? ''
    const byName = async (): Promise<Record<string, unknown>> => (await (await api.get('/v3/environments?name=dev')).json()) as Record<string, unknown>
    const started = Date.now()
    expect((await api.deploy(envId, { distributionId: first, strategy: 'stopstart' })).status).toBe(202)
    // The second deploy is quicker than what is left of the first: the first, had it gone on, would switch after it.
    emu.setDeploySeconds(0.2)
    const res = await api.deploy(envId, { distributionId: second, strategy: 'rolling' })
    expect(res.status).toBe(202)
    // Reported when done: the environment still names what ran before either (nothing).
    expect(await res.json()).toMatchObject({ id: envId, distributionId: null, status: 'deploying' })
    expect(env?.deployments).toEqual([
      expect.objectContaining({ distributionId: first, appliedAt: null, abandonedAt: expect.any(String) }),
      expect.objectContaining({ distributionId: second, strategy: 'rolling', appliedAt: null })
    ])
    expect(env?.deployments[1]).not.toHaveProperty('abandonedAt')
    // The abandoned distribution is no longer in use; the incoming one is.
    const del = (id: string): Promise<Response> => fetch(`${emu.url}/v3/distributions/${id}`, { method: 'DELETE', headers: bearer(api.token) })
    expect((await del(second)).status).toBe(409)
    await until(async () => (await byName()).distributionId === second)
    expect(await byName()).toMatchObject({ distributionId: second, status: 'running', strategy: 'rolling' })
    // Past the first deploy's own time: its timer was cleared, so nothing switches back to it.
    await new Promise((r) => setTimeout(r, Math.max(0, started + 1300 - Date.now())))
    expect(await byName()).toMatchObject({ distributionId: second, status: 'running', strategy: 'rolling' })
    expect(env?.deployments.map((d) => [d.distributionId, d.appliedAt === null])).toEqual([
      [first, true],
      [second, false]
    ])
    expect((await del(first)).status).toBe(204)
    expect(emu.requests.filter((r) => r.operation === 'deploy').map((r) => r.status)).toEqual([202, 202])
  })

  test("deployWhileBusy 'accept' reported at request: the new id at once, the site serves the old release until the last switch; deployAs replaces too", async () => {
    const emu = await emulator({ environments: ['dev'], deploySeconds: 1, deployReport: 'at-request', deployWhileBusy: 'accept' })
    const api = await authed(emu)
    const old = await emu.addDistribution('old.tar.gz', { 'version.txt': 'old\n' })
    const a = await emu.addDistribution('a.tar.gz', { 'version.txt': 'a\n' })
    const b = await emu.addDistribution('b.tar.gz', { 'version.txt': 'b\n' })
    const c = await emu.addDistribution('c.tar.gz', { 'version.txt': 'c\n' })
    emu.deployAs('dev', old, { seconds: 0 })
    const envId = emu.environments[0]?.id ?? ''
    const site = async (): Promise<string> => (await fetch(`${emu.url}/sites/dev/version.txt`)).text()
    expect(await (await api.deploy(envId, { distributionId: a, strategy: 'stopstart' })).json()).toMatchObject({ distributionId: a, status: 'deploying' })
    expect(await (await api.deploy(envId, { distributionId: b, strategy: 'stopstart' })).json()).toMatchObject({ distributionId: b, status: 'deploying' })
    expect(await (await api.get('/v3/environments?name=dev')).json()).toMatchObject({ distributionId: b, status: 'deploying' })
    expect(await site()).toBe('old\n')
    // Someone else deploys meanwhile: by the same rule, it replaces the switch in progress.
    emu.deployAs('dev', c, { seconds: 0.2, by: 'mission-control' })
    expect(await (await api.get('/v3/environments?name=dev')).json()).toMatchObject({ distributionId: c, status: 'deploying' })
    expect(await site()).toBe('old\n')
    // Only the running release and the incoming one are in use.
    const del = (id: string): Promise<Response> => fetch(`${emu.url}/v3/distributions/${id}`, { method: 'DELETE', headers: bearer(api.token) })
    for (const id of [old, c]) expect((await del(id)).status).toBe(409)
    expect((await del(a)).status).toBe(204)
    await until(() => emu.environments[0]?.status === 'running')
    expect(await site()).toBe('c\n')
    expect(emu.environments[0]?.deployments.map((d) => [d.distributionId, d.by, d.appliedAt !== null, d.abandonedAt !== undefined])).toEqual([
      [old, 'someone-else', true, false],
      [a, emu.username, false, true],
      [b, emu.username, false, true],
      [c, 'mission-control', true, false]
    ])
    // The default still refuses, over the API and through the hook.
    const strict = await emulator({ environments: ['dev'], deploySeconds: 5 })
    const busy = await strict.addDistribution('x.tar.gz', { 'a.txt': 'a\n' })
    strict.deployAs('dev', busy)
    expect(() => strict.deployAs('dev', busy)).toThrow(/deployAs: environment "dev" is still deploying/)
    expect(strict.environments[0]?.deployments).toHaveLength(1)
  })

  test('idCase in one family of answers only: ids upper-case there and as stored elsewhere; an id in any case finds the distribution', async () => {
    const upperIn = {
      'upper-distributions': ['upload', 'list', 'get'],
      'upper-environments': ['deploy', 'environments', 'by-name'],
      'upper-by-name': ['by-name']
    } as const
    for (const [idCase, families] of Object.entries(upperIn) as Array<[keyof typeof upperIn, readonly string[]]>) {
      const emu = await emulator({ environments: ['dev'], idCase })
      const api = await authed(emu)
      const answered = await uploadedId(emu, api.token, tarGz)
      const stored = emu.distributions[0]?.id ?? ''
      expect(stored).toMatch(/^[0-9a-f-]{36}$/)
      const envId = emu.environments[0]?.id ?? ''
      const deployed = await api.deploy(envId, { distributionId: stored.toUpperCase(), strategy: 'stopstart' })
      expect(deployed.status).toBe(202)
      const written: Record<string, unknown> = {
        upload: answered,
        list: ((await (await api.get('/v3/distributions')).json()) as { items: Array<{ id: string }> }).items[0]?.id,
        get: ((await (await api.get(`/v3/distributions/${stored}`)).json()) as { id: string }).id,
        deploy: ((await deployed.json()) as { distributionId: string }).distributionId,
        environments: ((await (await api.get('/v3/environments')).json()) as { items: Array<{ distributionId: string }> }).items[0]?.distributionId,
        'by-name': ((await (await api.get('/v3/environments?name=dev')).json()) as { distributionId: string }).distributionId
      }
      const expected = Object.fromEntries(Object.keys(written).map((k) => [k, families.includes(k) ? stored.toUpperCase() : stored]))
      expect([idCase, written]).toEqual([idCase, expected])
      // Whatever case a request names it in, it is found; the history keeps the stored id.
      for (const named of [stored, stored.toUpperCase()]) expect((await api.get(`/v3/distributions/${named}`)).status).toBe(200)
      expect(emu.environments[0]?.deployments.map((d) => d.distributionId)).toEqual([stored])
    }
  })

  test('renameEnvironment: the same id under a new name, in the lists, lookups, deploys and sites; refused for an unknown or taken name', async () => {
    const emu = await emulator({ environments: ['dev', 'test'] })
    const api = await authed(emu)
    const a = await emu.addDistribution('a.tar.gz', { 'version.txt': 'a\n' })
    emu.deployAs('dev', a, { seconds: 0 })
    const devId = emu.environments[0]?.id ?? ''
    emu.renameEnvironment('dev', 'qa')
    const byOld = await api.get('/v3/environments?name=dev')
    expect(byOld.status).toBe(404)
    expect(await byOld.json()).toEqual({ error_code: 'EnvironmentNotFound', error_detail: expect.any(String) })
    expect(await (await api.get('/v3/environments?name=qa')).json()).toMatchObject({ id: devId, name: 'qa', distributionId: a, status: 'running' })
    const listed = (await (await api.get('/v3/environments')).json()) as { items: Array<{ id: string; name: string }>; total: number }
    expect(listed.items.map((e) => [e.id, e.name])).toEqual([
      [devId, 'qa'],
      [emu.environments[1]?.id, 'test']
    ])
    expect(listed.total).toBe(2)
    expect((await fetch(`${emu.url}/sites/qa/version.txt`)).status).toBe(200)
    expect((await fetch(`${emu.url}/sites/dev/version.txt`)).status).toBe(404)
    // A deploy to its id still reaches it; the hooks know it by its new name only.
    const b = await emu.addDistribution('b.tar.gz', { 'version.txt': 'b\n' })
    expect((await api.deploy(devId, { distributionId: b, strategy: 'stopstart' })).status).toBe(202)
    expect(await (await fetch(`${emu.url}/sites/qa/version.txt`)).text()).toBe('b\n')
    expect(() => emu.deployAs('dev', b)).toThrow(/no environment named "dev"/)
    expect(() => emu.renameEnvironment('dev', 'x')).toThrow(/renameEnvironment: no environment named "dev"/)
    expect(() => emu.renameEnvironment('qa', 'test')).toThrow(/renameEnvironment: an environment named "test" exists/)
    expect(() => emu.renameEnvironment('qa', '')).toThrow(/empty/)
    expect(emu.environments.map((e) => e.name)).toEqual(['qa', 'test'])
  })

  test('deleteEnvironment: gone from the lists and every lookup, its switch abandoned and what it ran no longer in use', async () => {
    const emu = await emulator({ environments: ['dev', 'test'], deploySeconds: 0.3 })
    const api = await authed(emu)
    const a = await emu.addDistribution('a.tar.gz', { 'version.txt': 'a\n' })
    const b = await emu.addDistribution('b.tar.gz', { 'version.txt': 'b\n' })
    emu.deployAs('dev', a, { seconds: 0 })
    const dev = emu.environments[0]
    const devId = dev?.id ?? ''
    expect((await api.deploy(devId, { distributionId: b, strategy: 'stopstart' })).status).toBe(202)
    emu.deleteEnvironment('dev')
    expect(emu.environments.map((e) => e.name)).toEqual(['test'])
    const listed = (await (await api.get('/v3/environments')).json()) as { items: Array<{ name: string }>; total: number; count: number }
    expect([listed.items.map((e) => e.name), listed.total, listed.count]).toEqual([['test'], 1, 1])
    expect((await api.get('/v3/environments?name=dev')).status).toBe(404)
    const deploy = await api.deploy(devId, { distributionId: a, strategy: 'stopstart' })
    expect(deploy.status).toBe(404)
    expect(await deploy.json()).toEqual({ error_code: 'EnvironmentNotFound', error_detail: expect.any(String) })
    expect((await fetch(`${emu.url}/sites/dev/version.txt`)).status).toBe(404)
    // Its switch was abandoned: past its time, the removed record never switched.
    await new Promise((r) => setTimeout(r, 450))
    expect(dev).toMatchObject({ distributionId: a, status: 'deploying' })
    expect(dev?.deployments.at(-1)).toMatchObject({ distributionId: b, appliedAt: null, abandonedAt: expect.any(String) })
    for (const id of [a, b]) expect((await fetch(`${emu.url}/v3/distributions/${id}`, { method: 'DELETE', headers: bearer(api.token) })).status).toBe(204)
    expect(() => emu.deleteEnvironment('dev')).toThrow(/deleteEnvironment: no environment named "dev"/)
    expect(() => emu.deployAs('dev', a)).toThrow(/no environment named "dev"/)
  })
})

/** What node:http's ServerResponse is to the stack: status, headers, body, and the finish/close events. */
class InProcessResponse extends EventEmitter {
  statusCode = 200
  headersSent = false
  writableEnded = false
  destroyed = false
  readonly chunks: Buffer[] = []

  writeHead(status: number): this {
    this.statusCode = status
    this.headersSent = true
    return this
  }

  write(chunk: Buffer | string): boolean {
    this.chunks.push(Buffer.from(chunk))
    return true
  }

  end(chunk?: Buffer | string): this {
    if (chunk !== undefined) this.write(chunk)
    this.writableEnded = true
    this.emit('finish')
    this.emit('close')
    return this
  }
}

/** One request answered by a stack in-process, without a socket (as the simulation calls it): its status and JSON. */
async function inProcess(
  stack: Stack,
  method: string,
  path: string,
  options: { token?: string; json?: unknown } = {}
): Promise<{ status: number; json: unknown }> {
  const body = options.json === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(options.json))
  const headers: Record<string, string> = { host: 'emulator.invalid' }
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
  if (body.length > 0) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(body.length) })
  const res = new InProcessResponse()
  const socket = {
    remotePort: 0,
    destroyed: false,
    destroy(): void {
      this.destroyed = true
      res.destroyed = true
      res.emit('close')
    }
  }
  const req = Object.assign(Readable.from(body.length > 0 ? [body] : []), { method, url: path, httpVersion: '1.1', headers, socket })
  await stack.handle(req as unknown as IncomingMessage, res as unknown as ServerResponse)
  expect(res.writableEnded).toBe(true)
  const text = Buffer.concat(res.chunks).toString('utf8')
  return { status: res.statusCode, json: text === '' ? undefined : (JSON.parse(text) as unknown) }
}

/** A distribution held in memory (as the simulation's are), pushed straight into a stack's state. */
function inMemoryDistribution(id: string): StoredDistribution {
  const at = new Date().toISOString()
  return {
    id,
    name: `${id}.tar.gz`,
    createdAt: at,
    createdBy: 'test',
    modifiedAt: at,
    modifiedBy: 'test',
    md5hash: '0'.repeat(32),
    sha256: '',
    size: 1,
    files: { 'version.txt': `${id}\n` }
  }
}

describe('in-process (createStack, no socket) under a fake clock, as the simulation runs it', () => {
  const A = '0a0a0a0a-0000-4000-8000-00000000000a'
  const B = '0b0b0b0b-0000-4000-8000-00000000000b'
  const T0 = Date.parse('2026-11-24T08:00:00Z')
  const at = (seconds: number): string => new Date(T0 + seconds * 1000).toISOString()
  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'hrtime'], now: T0 })
  })
  afterEach(() => jest.useRealTimers())

  test.each(['when-done', 'at-request'] as const)(
    "deployWhileBusy 'accept' (reported %s): the new deploy replaces the switch in progress, one timer stays, the new one takes its own deploy time",
    async (deployReport) => {
      const stack = createStack(
        { environments: ['dev'], deploySeconds: 30, deployReport, deployWhileBusy: 'accept', keepUploads: false },
        '/nonexistent-emulator-storage'
      )
      const { state } = stack
      state.distributions.push(inMemoryDistribution(A), inMemoryDistribution(B))
      const env = state.environments[0]
      const login = await inProcess(stack, 'POST', '/v3/authn/access_token', { json: { username: 'deployer', password: 'emulator-password' } })
      const token = (login.json as { access_token: string }).access_token
      const deploy = (distributionId: string): Promise<{ status: number; json: unknown }> =>
        inProcess(stack, 'PUT', `/v3/environments/${env?.id ?? ''}/deploy`, { token, json: { distributionId, strategy: 'stopstart' } })
      const look = async (): Promise<unknown> => (await inProcess(stack, 'GET', '/v3/environments?name=dev', { token })).json
      const reported = (id: string): string | null => (deployReport === 'at-request' ? id : null)

      expect(await deploy(A)).toMatchObject({ status: 202, json: { distributionId: reported(A), status: 'deploying' } })
      expect([state.switches.size, jest.getTimerCount()]).toEqual([1, 1])
      await jest.advanceTimersByTimeAsync(10_000)
      expect(await deploy(B)).toMatchObject({ status: 202, json: { distributionId: reported(B), status: 'deploying' } })
      // The first switch's timer is gone: one switch, one timer.
      expect([state.switches.size, jest.getTimerCount()]).toEqual([1, 1])
      expect(env?.deployments[0]).toMatchObject({ distributionId: A, requestedAt: at(0), appliedAt: null, abandonedAt: at(10) })

      // Past the first deploy's time (30 s): nothing switched.
      await jest.advanceTimersByTimeAsync(25_000)
      expect(await look()).toMatchObject({ distributionId: reported(B), status: 'deploying', deployedAt: null })
      expect(env?.serving).toBeNull()
      // The second one's own 30 s.
      await jest.advanceTimersByTimeAsync(5_000)
      expect(await look()).toMatchObject({ distributionId: B, status: 'running', deployedAt: at(40) })
      expect(env?.deployments).toEqual([
        expect.objectContaining({ distributionId: A, requestedAt: at(0), appliedAt: null, abandonedAt: at(10) }),
        { distributionId: B, strategy: 'stopstart', appConfigFileRoles: [], requestedAt: at(10), appliedAt: at(40), by: 'deployer' }
      ])
      expect([state.switches.size, jest.getTimerCount()]).toEqual([0, 0])
    }
  )

  test('the refuse default answers 409 in-process too; deleteEnvironment clears the switch timer of the environment it deletes', async () => {
    const stack = createStack({ environments: ['dev', 'test'], deploySeconds: 30, keepUploads: false }, '/nonexistent-emulator-storage')
    const { state } = stack
    state.distributions.push(inMemoryDistribution(A), inMemoryDistribution(B))
    hookDeployAs(state, 'dev', A)
    hookDeployAs(state, 'test', A)
    expect(() => hookDeployAs(state, 'dev', B)).toThrow(/still deploying/)
    const login = await inProcess(stack, 'POST', '/v3/authn/access_token', { json: { username: 'deployer', password: 'emulator-password' } })
    const token = (login.json as { access_token: string }).access_token
    const dev = state.environments[0]
    const busy = await inProcess(stack, 'PUT', `/v3/environments/${dev?.id ?? ''}/deploy`, { token, json: { distributionId: B, strategy: 'stopstart' } })
    expect(busy).toMatchObject({ status: 409, json: { error_code: 'DeploymentInProgress' } })
    expect([state.switches.size, jest.getTimerCount()]).toEqual([2, 2])

    hookDeleteEnvironment(state, 'dev')
    expect([state.switches.size, jest.getTimerCount()]).toEqual([1, 1])
    expect(dev?.deployments).toEqual([expect.objectContaining({ distributionId: A, appliedAt: null, abandonedAt: at(0) })])
    await jest.advanceTimersByTimeAsync(30_000)
    // The other environment switched; the deleted one never did.
    expect(state.environments.map((e) => [e.name, e.distributionId, e.status])).toEqual([['test', A, 'running']])
    expect(dev).toMatchObject({ distributionId: null, status: 'deploying' })
    expect([state.switches.size, jest.getTimerCount()]).toEqual([0, 0])
  })
})

describe('server', () => {
  test('slow reads: the upload body is read at uploadBytesPerSecond', async () => {
    const emu = await emulator({ uploadBytesPerSecond: 1_000_000 })
    const { access_token } = await login(emu)
    const started = Date.now()
    expect((await upload(emu, access_token, tarGz)).status).toBe(201)
    const expected = (tarGz.length / 1_000_000) * 1000
    expect(Date.now() - started).toBeGreaterThanOrEqual(expected * 0.8)
  })

  test('the command line: --port 0 takes a free port and prints it; a taken port says to use --port', async () => {
    const cli = (args: string[]): Promise<{ code: number | null; out: string; err: string }> =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'src/emulator/cli.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
        let out = ''
        let err = ''
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString()
          if (out.includes('Press Ctrl+C')) child.kill('SIGTERM')
        })
        child.stderr.on('data', (d: Buffer) => (err += d.toString()))
        child.on('close', (code) => resolve({ code, out, err }))
      })
    const free = await cli(['--port', '0', '--quiet'])
    expect(free.out).toMatch(/^Bloomreach Cloud API and search API emulator listening on http:\/\/127\.0\.0\.1:(?!0\b)\d+$/m)
    const taken = await emulator()
    const busy = await cli(['--port', new URL(taken.url).port])
    expect(busy.code).toBe(1)
    expect(busy.err).toMatch(/Another program already listens on 127\.0\.0\.1:\d+\. Choose another port with --port N, or --port 0 to take any free one/)
  })

  test('the command line with --github: the GitHub API stand-in beside it; what the banner says to export works as printed', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/emulator/cli.ts', '--port', '0', '--github-port', '0', '--sso', '--quiet'], {
      stdio: ['ignore', 'pipe', 'pipe']
    })
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve))
    try {
      let out = ''
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString()
          if (out.includes('Press Ctrl+C')) resolve()
        })
        void closed.then(() => reject(new Error(`the emulator ended before its banner:\n${out}`)))
      })
      const exported = (name: string): string => new RegExp(`^  export ${name}='?([^'\\s]+)'?$`, 'm').exec(out)?.[1] ?? ''
      const api = exported('GITHUB_API_URL')
      const sha = exported('GITHUB_SHA')
      const token = /github-token=(\S+)$/m.exec(out)?.[1] ?? ''
      const older = /export GITHUB_SHA=([0-9a-f]{40}) \(an older commit\)/.exec(out)?.[1] ?? ''
      expect(api).toMatch(/^http:\/\/127\.0\.0\.1:(?!4081$)\d+$/)
      expect(exported('GITHUB_REPOSITORY')).toBe('acme/site')
      expect(out).toMatch(/^ {2}npm run action -- api-url=http:\/\/127\.0\.0\.1:\d+ token-url=\S+ client-id=gh-federated .* github-token=\S+$/m)
      // The commits are the stand-in's: the printed older one is behind the printed tip, through GitHub's compare with the printed token.
      const compare = await fetch(`${api}/repos/acme/site/compare/${sha}...${older}`, { headers: { authorization: `token ${token}` } })
      expect(compare.status).toBe(200)
      expect(await compare.json()).toMatchObject({ status: 'behind', behind_by: 1, ahead_by: 0 })
      // Another line and tags, to try diverged and a tracked tag pattern by hand.
      const branchTip = /export GITHUB_SHA=([0-9a-f]{40}) \(the tip of feature\/search\) to deploy a commit of another line \(diverged\)$/m.exec(out)?.[1] ?? ''
      const diverged = await fetch(`${api}/repos/acme/site/compare/main...${branchTip}`, { headers: { authorization: `token ${token}` } })
      expect(await diverged.json()).toMatchObject({ status: 'diverged', ahead_by: 2, behind_by: 1 })
      expect(out).toMatch(/^ {2}tags: v1\.0\.0 \([0-9a-f]{7}\), v1\.1\.0 \(annotated, [0-9a-f]{7}\)$/m)
      const tags = await fetch(`${api}/repos/acme/site/tags`, { headers: { authorization: `token ${token}` } })
      expect(((await tags.json()) as Array<{ name: string }>).map((t) => t.name).sort()).toEqual(['v1.0.0', 'v1.1.0'])
      expect(out).toContain(`For brcloud status, also export BRCLOUD_GITHUB_TOKEN=${token} and BRCLOUD_REPOSITORY=acme/site:`)
      expect(out).toContain('  track main, feature/search, or v* (the newest tag, v1.1.0)')
      // The OIDC stand-in signs for a job of that repository at the tip, under GitHub's issuer.
      const oidc = await fetch(`${exported('ACTIONS_ID_TOKEN_REQUEST_URL')}&audience=x`, {
        headers: { authorization: `Bearer ${exported('ACTIONS_ID_TOKEN_REQUEST_TOKEN')}` }
      })
      const { value } = (await oidc.json()) as { value: string }
      const claims = JSON.parse(Buffer.from(value.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>
      expect(claims).toMatchObject({ iss: 'https://token.actions.githubusercontent.com', sub: 'repo:acme/site:ref:refs/heads/main', sha })
      expect(out).toContain(
        'GitHub OIDC:    issuer https://token.actions.githubusercontent.com (its keys served here), subject repo:acme/site:ref:refs/heads/main'
      )
    } finally {
      child.kill('SIGTERM')
      await closed
    }
  })

  test('close() removes the default storage directory and logs one line per request', async () => {
    const lines: string[] = []
    const emu = await startEmulator({ log: (l) => lines.push(l) })
    const { access_token } = await login(emu)
    await (await upload(emu, access_token, tarGz)).json()
    const dir = join(emu.distributions[0]?.path ?? '', '..')
    expect(existsSync(dir)).toBe(true)
    await emu.close()
    expect(existsSync(dir)).toBe(false)
    expect(lines).toEqual([expect.stringMatching(/^POST \/v3\/authn\/access_token 200 \d+ms$/), expect.stringMatching(/^POST \/v3\/distributions 201 \d+ms$/)])
  })
})

describe('units', () => {
  test('multipart parser: every split point of a body gives the same parts', () => {
    const { body } = multipart(
      [
        { name: 'a', data: Buffer.from('\r\n--bound\r\n-') },
        { name: 'dist_file', filename: 'f.tar.gz', data: Buffer.from('\r\n\r\n--boundar') },
        { name: 'empty', data: Buffer.alloc(0) }
      ],
      'boundary'
    )
    const collect = (chunks: Buffer[]): Array<{ name?: string | undefined; filename?: string | undefined; data: string }> => {
      const parser = new MultipartParser('boundary')
      const out: Array<{ name?: string | undefined; filename?: string | undefined; data: string }> = []
      const events: MultipartEvent[] = chunks.flatMap((c) => parser.write(c))
      parser.end()
      for (const e of events) {
        if (e.type === 'part') out.push({ name: e.name, filename: e.filename, data: '' })
        const last = out[out.length - 1]
        if (e.type === 'data' && last !== undefined) last.data += e.data.toString('latin1')
      }
      return out
    }
    const expected = [
      { name: 'a', filename: undefined, data: '\r\n--bound\r\n-' },
      { name: 'dist_file', filename: 'f.tar.gz', data: '\r\n\r\n--boundar' },
      { name: 'empty', filename: undefined, data: '' }
    ]
    expect(collect([body])).toEqual(expected)
    expect(collect(splitEvery(body, [1]))).toEqual(expected)
    for (let i = 1; i < body.length; i++) {
      for (const j of [i + 1, i + 5, i + 17]) {
        expect(collect([body.subarray(0, i), body.subarray(i, j), body.subarray(j)])).toEqual(expected)
      }
    }
    const truncated = new MultipartParser('boundary')
    truncated.write(body.subarray(0, 60))
    expect(() => truncated.end()).toThrow()
  })

  test('tar header check', () => {
    const header = Buffer.alloc(512)
    header.write('file.txt', 0)
    header.write('0000644\0', 100)
    header.write('00000000005\0', 124)
    header.write('0', 156)
    header.write('ustar\0', 257)
    header.fill(0x20, 148, 156)
    let sum = 0
    for (const b of header) sum += b
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148)
    expect(isTarHeader(header)).toBe(true)
    header[0] = 0x67
    expect(isTarHeader(header)).toBe(false)
    expect(isTarHeader(Buffer.alloc(512))).toBe(false)
  })

  test('CLI: --github and --github-port start the GitHub API stand-in (default port 4081)', () => {
    expect(parseCli([])).not.toHaveProperty('github')
    expect(parseCli(['--github'])).toMatchObject({ github: { port: 4081 }, options: { port: 4080 } })
    expect(parseCli(['--github-port', '0'])).toMatchObject({ github: { port: 0 } })
    expect(() => parseCli(['--github-port', 'x'])).toThrow(/--github-port needs a whole number/)
  })

  test('CLI flags', () => {
    const cmd = parseCli([
      '--port',
      '0',
      '--username',
      'me',
      '--token-lifetime',
      '5',
      '--token-clock-skew',
      '1.5',
      '--environments',
      'a, b',
      '--no-keep-uploads',
      '--upload-rate',
      '1000',
      '--fail',
      'upload:503:2:9',
      '--fail',
      'login:500',
      '--reset-upload-after',
      '100',
      '--drop-after-upload',
      '1',
      '--ready-file',
      '/tmp/x'
    ])
    expect(cmd).toEqual({
      help: false,
      quiet: false,
      readyFile: '/tmp/x',
      options: {
        port: 0,
        username: 'me',
        tokenLifetimeSeconds: 5,
        tokenClockSkewSeconds: 1.5,
        environments: ['a', 'b'],
        keepUploads: false,
        uploadBytesPerSecond: 1000,
        faults: [
          { operation: 'upload', kind: 'status', status: 503, times: 2, retryAfterSeconds: 9 },
          { operation: 'login', kind: 'status', status: 500, times: 1 },
          { operation: 'upload', kind: 'reset-mid-upload', afterBytes: 100, times: 1 },
          { operation: 'upload', kind: 'drop-after-upload', times: 1 }
        ]
      }
    })
    expect(parseCli([])).toMatchObject({ help: false, options: { port: 4080 } })
    expect(parseCli(['--help'])).toEqual({ help: true })
    expect(() => parseCli(['--fail', 'nope:503'])).toThrow(/unknown operation/)
    expect(() => parseCli(['--bogus'])).toThrow()
    expect(
      parseCli([
        '--max-environments',
        '5',
        '--environment-page-size',
        '1',
        '--environment-offset-ignored',
        '--distribution-page-size',
        '7',
        '--upload-answer',
        'no-id'
      ])
    ).toMatchObject({ options: { maxEnvironments: 5, environmentPageSize: 1, environmentOffsetIgnored: true, distributionPageSize: 7, uploadAnswer: 'no-id' } })
    expect(() => parseCli(['--upload-answer', 'xml'])).toThrow(/--upload-answer needs/)
    expect(parseCli(['--deploy-seconds', '0.5', '--app-config-files', 'site.properties, cms.yaml,', '--fail', 'site:500:3', '--hang', 'site'])).toMatchObject({
      options: {
        deploySeconds: 0.5,
        appConfigFiles: ['site.properties', 'cms.yaml'],
        faults: [
          { operation: 'site', kind: 'status', status: 500, times: 3 },
          { operation: 'site', kind: 'hang', times: 1 }
        ]
      }
    })
    expect(parseCli(['--deploy-seconds', '12'])).toMatchObject({ options: { deploySeconds: 12 } })
    for (const bad of ['-1', 'soon', '1e3', '']) expect(() => parseCli([`--deploy-seconds=${bad}`])).toThrow(/--deploy-seconds needs/)
    expect(parseCli(['--deploy-looks', '1', '--deploy-seconds', '2'])).toMatchObject({ options: { deployLooks: 1, deploySeconds: 2 } })
    for (const bad of ['-1', '0.5', 'x']) expect(() => parseCli([`--deploy-looks=${bad}`])).toThrow(/--deploy-looks needs a whole number/)
    expect(parseCli(['--deploy-report', 'at-request', '--site-during-deploy', 'unavailable', '--no-environment-status', '--md5-case', 'upper'])).toMatchObject({
      options: { deployReport: 'at-request', siteDuringDeploy: 'unavailable', environmentStatus: false, md5Case: 'upper' }
    })
    expect(() => parseCli(['--deploy-report', 'later'])).toThrow(/--deploy-report needs when-done or at-request, got "later"/)
    expect(parseCli(['--id-case', 'upper', '--id-while-deploying', 'absent'])).toMatchObject({ options: { idCase: 'upper', idWhileDeploying: 'absent' } })
    expect(parseCli(['--id-while-deploying', 'null'])).toMatchObject({ options: { idWhileDeploying: 'null' } })
    expect(() => parseCli(['--id-case', 'lower'])).toThrow(/--id-case needs as-stored or upper/)
    expect(() => parseCli(['--id-while-deploying', 'none'])).toThrow(/--id-while-deploying needs reported or absent or null/)
    expect(parseCli(['--delete-in-use', 'allow'])).toMatchObject({ options: { deleteInUse: 'allow' } })
    expect(parseCli(['--deploy-while-busy', 'accept'])).toMatchObject({ options: { deployWhileBusy: 'accept' } })
    expect(parseCli(['--deploy-while-busy', 'refuse'])).toMatchObject({ options: { deployWhileBusy: 'refuse' } })
    expect(() => parseCli(['--deploy-while-busy', 'queue'])).toThrow(/--deploy-while-busy needs refuse or accept, got "queue"/)
    for (const idCase of ['upper-distributions', 'upper-environments', 'upper-by-name'] as const) {
      expect(parseCli(['--id-case', idCase])).toMatchObject({ options: { idCase } })
    }
    expect(() => parseCli(['--id-case', 'upper-uploads'])).toThrow(
      /--id-case needs as-stored or upper or upper-distributions or upper-environments or upper-by-name/
    )
    expect(() => parseCli(['--delete-in-use', 'yes'])).toThrow(/--delete-in-use needs refuse or allow/)
    expect(parseCli(['--apply-then-fail', 'deploy:500', '--apply-then-fail', 'upload:503:2', '--apply-then-delay', 'deploy:2500:3'])).toMatchObject({
      options: {
        faults: [
          { operation: 'deploy', kind: 'apply-then-status', status: 500, times: 1 },
          { operation: 'upload', kind: 'apply-then-status', status: 503, times: 2 },
          { operation: 'deploy', kind: 'apply-then-delay', delayMs: 2500, times: 3 }
        ]
      }
    })
    expect(() => parseCli(['--apply-then-fail', 'deploy'])).toThrow(/--apply-then-fail needs OPERATION:STATUS/)
    expect(() => parseCli(['--apply-then-fail', 'deploy:700'])).toThrow(/not an HTTP status/)
    expect(() => parseCli(['--apply-then-delay', 'deploy:soon'])).toThrow(/--apply-then-delay needs a whole number/)
    expect(() => parseCli(['--apply-then-delay', 'nope:10'])).toThrow(/unknown operation/)
    expect(parseCli(['--clock-offset=-90.5'])).toMatchObject({ options: { clockOffsetSeconds: -90.5 } })
    expect(parseCli(['--clock-offset', '30'])).toMatchObject({ options: { clockOffsetSeconds: 30 } })
    for (const bad of ['soon', '1e3', '', '--5']) expect(() => parseCli([`--clock-offset=${bad}`])).toThrow(/--clock-offset needs/)
  })
})

describe('what is invented, marked on the wire (X-Emulator-Invented)', () => {
  const marks = (res: Response): string[] => res.headers.get('x-emulator-invented')?.split(', ') ?? []

  test('upload 201 with Location, deploy 202 with a body, delete 204, the environment fields; revoke and logout 200 unmarked', async () => {
    const emu = await emulator()
    const { token, get, deploy } = await authed(emu)
    const up = await upload(emu, token, tarGz)
    expect(marks(up)).toEqual(['status-201', 'location-header'])
    const { id } = (await up.json()) as { id: string }
    const env = emu.environments[0]?.id ?? ''
    expect(marks(await deploy(env, { distributionId: id, strategy: 'stopstart' }))).toEqual(['status-202', 'deploy-body'])
    expect(marks(await get('/v3/environments'))).toEqual(['field-offset', 'field-max', 'field-status', 'field-strategy', 'field-deployedAt'])
    expect(marks(await get('/v3/environments?name=development'))).toEqual(['field-status', 'field-strategy', 'field-deployedAt'])
    expect(marks(await get('/v3/distributions'))).toEqual([]) // the list's shape is the API reference's
    expect(marks(await get(`/v3/distributions/${id}`))).toEqual([])
    const spare = await uploadedId(emu, token, tarGz)
    expect(marks(await fetch(`${emu.url}/v3/distributions/${spare}`, { method: 'DELETE', headers: bearer(token) }))).toEqual(['status-204'])
    expect(marks(await get('/v3/docs'))).toEqual(['docs-page'])

    const { refresh_token } = await login(emu)
    const revoke = await fetch(`${emu.url}/v3/authn/refresh_token`, { method: 'DELETE', body: JSON.stringify({ grant_type: 'refresh_token', refresh_token }) })
    expect([revoke.status, marks(revoke), await revoke.text()]).toEqual([200, [], ''])
    const logout = await fetch(`${emu.url}/v3/authn/logout`, { method: 'POST', headers: bearer(token) })
    expect([logout.status, marks(logout)]).toEqual([200, []])
  })

  test('without the status field the environments are not marked for it', async () => {
    const emu = await emulator({ environmentStatus: false })
    const { get } = await authed(emu)
    expect(marks(await get('/v3/environments?name=development'))).toEqual(['field-strategy', 'field-deployedAt'])
  })

  test('errors: a status or code no public source shows is marked; login 401 AuthenticationFailed is not; faults say so', async () => {
    const emu = await emulator({ maxDistributions: 1 })
    const { token, get, deploy } = await authed(emu)
    const wrong = await fetch(`${emu.url}/v3/authn/access_token`, { method: 'POST', body: JSON.stringify({ username: 'x', password: 'y' }) })
    expect([wrong.status, marks(wrong)]).toEqual([401, []])
    const expired = await fetch(`${emu.url}/v3/authn/verify_token`, { headers: bearer('nope') })
    expect([expired.status, marks(expired)]).toEqual([401, ['error-code']])
    expect(marks(await get('/v3/distributions/'))).toEqual(['status-404', 'error-code'])
    expect(marks(await get('/v3/nothing'))).toEqual(['status-404', 'error-code'])
    const id = await uploadedId(emu, token, tarGz)
    const full = await upload(emu, token, tarGz)
    expect([full.status, marks(full)]).toEqual([409, ['status-409', 'error-code']])
    await deploy(emu.environments[0]?.id ?? '', { distributionId: id, strategy: 'stopstart' })
    const inUse = await fetch(`${emu.url}/v3/distributions/${id}`, { method: 'DELETE', headers: bearer(token) })
    expect([inUse.status, marks(inUse)]).toEqual([409, ['status-409', 'error-code']])
    emu.addFault({ operation: 'list-environments', kind: 'status', status: 503, times: 1 })
    expect(marks(await get('/v3/environments'))).toEqual(['fault']) // the test's own answer
  })

  test('PUT /v3/environments/{id} exists on the real service: 501 NotEmulated; GET of the same path is still a plain 404', async () => {
    const emu = await emulator()
    const { token, get } = await authed(emu)
    const env = emu.environments[0]?.id ?? ''
    const put = await fetch(`${emu.url}/v3/environments/${env}`, {
      method: 'PUT',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: '{}'
    })
    expect([put.status, marks(put)]).toEqual([501, ['not-emulated']])
    expect(await put.json()).toEqual({
      error_code: 'NotEmulated',
      error_detail: `PUT /v3/environments/${env} exists on the real service but is not emulated here`
    })
    expect(emu.requests.at(-1)).toMatchObject({ operation: 'not-emulated', status: 501, json: {} })
    expect((await get(`/v3/environments/${env}`)).status).toBe(404)
  })
})

describe('backups', () => {
  test('GET /v3/backups lists one per environment as an array; the download link answers 202 {url}, which serves a stand-in dump', async () => {
    const emu = await emulator({ environments: ['dev', 'prod'] })
    const { get } = await authed(emu)
    const list = await get('/v3/backups')
    expect([list.status, list.headers.get('x-emulator-invented')]).toEqual([200, null])
    const backups = (await list.json()) as Array<{ id: string; environmentId: string; createdAt: string }>
    expect(backups.map((b) => b.environmentId)).toEqual(emu.environments.map((e) => e.id))
    expect(backups.every((b) => Object.keys(b).join() === 'id,environmentId,createdAt' && !Number.isNaN(Date.parse(b.createdAt)))).toBe(true)

    const link = await get(`/v3/backups/${backups[1]?.id ?? ''}/repositorydownloadlink`)
    expect([link.status, link.headers.get('x-emulator-invented')]).toEqual([202, 'download-url'])
    const { url } = (await link.json()) as { url: string }
    expect(url.startsWith(`${emu.url}/backup-files/`)).toBe(true)
    for (let i = 0; i < 2; i++) {
      const file = await fetch(url) // no authorization: the link is the credential; a tool may retry
      expect([file.status, file.headers.get('x-emulator-invented')]).toEqual([200, 'backup-file'])
      expect(gunzipSync(Buffer.from(await file.arrayBuffer())).toString()).toContain(`backup ${backups[1]?.id ?? ''} of environment prod`)
    }
    expect((await fetch(`${emu.url}/backup-files/unknown`)).status).toBe(403)
    expect((await get('/v3/backups/nope/repositorydownloadlink')).status).toBe(404)
    expect((await fetch(`${emu.url}/v3/backups`)).status).toBe(401)
    expect(emu.requests.map((r) => r.operation)).toEqual([
      'login',
      'list-backups',
      'backup-download-link',
      'backup-file',
      'backup-file',
      'backup-file',
      'backup-download-link',
      'list-backups'
    ])
  })

  test('the repository download is a gzip file, as Mission Control hands out a .gz: node:zlib and the system gzip unpack it', async () => {
    const emu = await emulator({ environments: ['dev'] })
    const { get } = await authed(emu)
    const [backup] = (await (await get('/v3/backups')).json()) as Array<{ id: string }>
    const { url } = (await (await get(`/v3/backups/${backup?.id ?? ''}/repositorydownloadlink`)).json()) as { url: string }
    const file = await fetch(url)
    expect(file.status).toBe(200)
    // The body is the .gz itself: no Content-Encoding, which would make clients unpack it on the way.
    expect([file.headers.get('content-type'), file.headers.get('content-encoding')]).toEqual(['application/gzip', null])
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${backup?.id ?? ''}.sql.gz"`)
    const bytes = Buffer.from(await file.arrayBuffer())
    expect(Number(file.headers.get('content-length'))).toBe(bytes.length)
    expect([...bytes.subarray(0, 2)]).toEqual([0x1f, 0x8b])
    const dump = gunzipSync(bytes).toString()
    expect(dump).toContain(`-- backup ${backup?.id ?? ''} of environment dev`)
    // As cloneRemote2Local does: save it as a .gz, then the system's gunzip reads it.
    const saved = join(mkdtempSync(join(work, 'backup-')), 'acme-dev-LATESTBACKUP.gz')
    writeFileSync(saved, bytes)
    execFileSync('gzip', ['-t', saved])
    expect(execFileSync('gunzip', ['-c', saved]).toString()).toBe(dump)
    expect(emu.requests.at(-1)).toMatchObject({ operation: 'backup-file', status: 200 })
  })

  test('a test may change the backups; faults apply to their operations', async () => {
    const emu = await emulator({ faults: [{ operation: 'list-backups', kind: 'status', status: 503, times: 1 }] })
    emu.backups.length = 0
    const { get } = await authed(emu)
    expect((await get('/v3/backups')).status).toBe(503)
    expect(await (await get('/v3/backups')).json()).toEqual([])
    expect(parseCli(['--fail', 'backup-download-link:500'])).toMatchObject({ options: { faults: [{ operation: 'backup-download-link', status: 500 }] } })
  })

  test('old or absent at start: backupAgeHours (--backup-age-hours) by the platform clock, noBackups (--no-backups)', async () => {
    const before = Date.now()
    const old = await emulator({ environments: ['dev', 'prod'], backupAgeHours: 30, clockOffsetSeconds: 600 })
    const after = Date.now()
    const listed = (await (await (await authed(old)).get('/v3/backups')).json()) as Array<{ environmentId: string; createdAt: string }>
    expect(listed.map((b) => b.environmentId)).toEqual(old.environments.map((e) => e.id))
    for (const b of listed) {
      // 30 hours before the platform's now, which is 600 s ahead of ours.
      expect(Date.parse(b.createdAt)).toBeGreaterThanOrEqual(before + 600_000 - 30 * 3_600_000)
      expect(Date.parse(b.createdAt)).toBeLessThanOrEqual(after + 600_000 - 30 * 3_600_000)
    }
    const none = await emulator({ environments: ['dev'], noBackups: true })
    expect(await (await (await authed(none)).get('/v3/backups')).json()).toEqual([])
    expect(parseCli(['--backup-age-hours', '2.5'])).toMatchObject({ options: { backupAgeHours: 2.5 } })
    expect(parseCli(['--no-backups'])).toMatchObject({ options: { noBackups: true } })
    expect(() => parseCli(['--backup-age-hours=-1'])).toThrow('--backup-age-hours needs a number of hours >= 0 (fractions allowed), got "-1"')
    expect(() => parseCli(['--no-backups', '--backup-age-hours', '1'])).toThrow('--no-backups and --backup-age-hours: give one or the other')
  })

  test("setBackups: an environment's backups at run time, one per age in hours (none: []); the others' untouched", async () => {
    const emu = await emulator({ environments: ['dev', 'prod'] })
    const { get } = await authed(emu)
    const [dev, prod] = emu.environments
    const startBackup = emu.backups.find((b) => b.environmentId === dev?.id)
    const now = Date.now()
    emu.setBackups('prod', [1.5, 48])
    const listed = (await (await get('/v3/backups')).json()) as Array<{ id: string; environmentId: string; createdAt: string }>
    expect(listed.map((b) => [b.environmentId, Math.round((now - Date.parse(b.createdAt)) / 60_000)])).toEqual([
      [dev?.id, 0],
      [prod?.id, 90],
      [prod?.id, 48 * 60]
    ])
    expect(listed[0]).toEqual(startBackup)
    expect(new Set(listed.map((b) => b.id)).size).toBe(3)
    // Its download link still works for a backup set this way.
    expect((await get(`/v3/backups/${listed[2]?.id ?? ''}/repositorydownloadlink`)).status).toBe(202)
    emu.setBackups('prod', [])
    expect(((await (await get('/v3/backups')).json()) as unknown[]).length).toBe(1)
    expect(emu.backups).toEqual([startBackup])
    expect(() => emu.setBackups('nope', [1])).toThrow('setBackups: no environment named "nope"')
    expect(() => emu.setBackups('dev', [-1])).toThrow('setBackups: an age must be a number of hours, 0 or more (got -1)')
    expect(() => emu.setBackups('dev', [Number.NaN])).toThrow('setBackups: an age must be a number of hours, 0 or more (got NaN)')
  })
})
