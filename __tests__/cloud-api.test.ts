// The one door to the cloud API (src/cloud/api.ts) and the upload's multipart body (src/cloud/multipart.ts), in-process:
// what each call hands the transport (headers, body, time limits, the dispatch callback), which answers fail and how
// they read, and what is logged. A scripted transport stands in for the network. @actions/core is a recorder.
import { useTestPort } from './test-port.js'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'

const infos: string[] = []
const warnings: string[] = []
const debugs: string[] = []
useTestPort({
  info: (m: string) => infos.push(m),
  warning: (m: string) => warnings.push(m),
  debug: (m: string) => debugs.push(m)
})

const { CloudApi } = await import('../src/cloud/api.js')
const { multipartFile } = await import('../src/cloud/multipart.js')
const { fileBytes } = await import('../src/archive/bytes.js')
const { ServiceError } = await import('../src/errors.js')
type CloudApiOptions = import('../src/cloud/api.js').CloudApiOptions
type HttpRequest = import('../src/http/transport.js').HttpRequest
type HttpResponse = import('../src/http/transport.js').HttpResponse
type HttpTransport = import('../src/http/transport.js').HttpTransport

beforeEach(() => {
  infos.length = 0
  warnings.length = 0
  debugs.length = 0
})

/** Answers from a list, in turn; records each request. Calls the request's onDispatch as the real transport does. */
function scripted(answers: Array<HttpResponse | Error>, options: CloudApiOptions = { retry: { attempts: 1 } }) {
  const sent: HttpRequest[] = []
  const transport = {
    baseUrl: 'http://scripted.invalid',
    send(req: HttpRequest): Promise<HttpResponse> {
      sent.push(req)
      req.onDispatch?.()
      const answer = answers[sent.length - 1]
      if (answer === undefined) return Promise.reject(new Error('no answer scripted'))
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer)
    }
  }
  return { api: new CloudApi(transport as unknown as HttpTransport, options), sent }
}
const answer = (status: number, text = '', headers: Record<string, string> = {}): HttpResponse => ({ status, headers, text })

describe('CloudApi.json', () => {
  test('a JSON body goes with its content type and the bearer token; a call without a body or token sends neither', async () => {
    const { api, sent } = scripted([answer(200, '{"a":1}'), answer(200, '{"b":2}')])
    expect(await api.json({ operation: 'Deploying', method: 'PUT', path: '/v3/environments/e/deploy', token: 'tok', json: { x: 'y' } })).toEqual({ a: 1 })
    expect(await api.json({ operation: 'Login', method: 'GET', path: '/v3/x' })).toEqual({ b: 2 })
    expect(sent[0]).toEqual({
      method: 'PUT',
      path: '/v3/environments/e/deploy',
      headers: { authorization: 'Bearer tok', 'content-type': 'application/json' },
      body: '{"x":"y"}'
    })
    expect(sent[1]).toEqual({ method: 'GET', path: '/v3/x', headers: {}, body: undefined })
    expect(Object.keys(sent[1] ?? {})).not.toContain('onDispatch')
    expect(Object.keys(sent[1] ?? {})).not.toContain('timeoutMs')
    expect(debugs).toEqual(['PUT /v3/environments/e/deploy -> 200', 'GET /v3/x -> 200'])
  })

  test("a call's own time limit wins over the default; without its own, the default; with neither, none", async () => {
    const ok = () => answer(200, '{}')
    const { api, sent } = scripted([ok(), ok()], { callTimeoutMs: 9_000, retry: { attempts: 1 } })
    await api.json({ operation: 'A', method: 'GET', path: '/a', timeoutMs: 1_234 })
    await api.json({ operation: 'B', method: 'GET', path: '/b' })
    expect(sent.map((r) => r.timeoutMs)).toEqual([1_234, 9_000])
    const bare = scripted([ok()])
    await bare.api.json({ operation: 'C', method: 'GET', path: '/c', timeoutMs: 700 })
    expect(bare.sent[0]?.timeoutMs).toBe(700)
  })

  test.each<[number, string[]]>([
    [200, ['sent']],
    [399, ['sent']],
    [400, ['sent', 'refused']],
    [499, ['sent', 'refused']],
    [500, ['sent']]
  ])('HTTP %i: the dispatch callback hears %j', async (status, heard) => {
    const events: string[] = []
    const { api } = scripted([answer(status, '{}')])
    await api.json({ operation: 'Deploying', method: 'PUT', path: '/d', json: {}, onDispatch: (e) => events.push(e) }).catch(() => undefined)
    expect(events).toEqual(heard)
  })

  test('an empty or blank answer is undefined; a body that is not JSON fails, naming the operation and status', async () => {
    const { api } = scripted([answer(200, ''), answer(201, ' \r\n\t '), answer(200, '<html>ok</html>')])
    expect(await api.json({ operation: 'Listing', method: 'GET', path: '/l' })).toBeUndefined()
    expect(await api.json({ operation: 'Listing', method: 'GET', path: '/l' })).toBeUndefined()
    await expect(api.json({ operation: 'Listing things', method: 'GET', path: '/l' })).rejects.toThrow(
      new Error('Listing things: the service answered HTTP 200 with a body that is not JSON')
    )
  })

  test.each<[number, string | undefined]>([
    [199, 'Looking failed: HTTP 199 (Nope: never)'],
    [200, undefined],
    [204, undefined],
    [299, undefined],
    [300, 'Looking failed: HTTP 300 (a redirect without a Location; redirects are not followed)'],
    [404, 'Looking failed: HTTP 404 (Nope: never)'],
    [503, 'Looking failed: HTTP 503 (Nope: never)']
  ])('HTTP %i: %s', async (status, failure) => {
    const { api } = scripted([answer(status, '{"error_code":"Nope","error_detail":"never"}')])
    const result = api.json({ operation: 'Looking', method: 'GET', path: '/x' })
    if (failure === undefined) await expect(result).resolves.toEqual({ error_code: 'Nope', error_detail: 'never' })
    else await expect(result).rejects.toThrow(new ServiceError(failure, status))
  })

  test.each(['/v3/distributions/', '/v3/environments/?name=x', '//'])('a path that ends with a slash (%s) is refused before anything is sent', async (path) => {
    const { api, sent } = scripted([answer(200, '{}')])
    await expect(api.json({ operation: 'Listing', method: 'GET', path })).rejects.toThrow(new Error(`internal error: request path ${path} ends with a slash`))
    expect(sent).toEqual([])
  })

  test('a path with a slash only at its start, or inside, is sent', async () => {
    const { api, sent } = scripted([answer(200, '{}'), answer(200, '{}')])
    await api.json({ operation: 'Listing', method: 'GET', path: '/' })
    await api.json({ operation: 'Listing', method: 'GET', path: '/v3/a/b?c=d/e' })
    expect(sent.map((r) => r.path)).toEqual(['/', '/v3/a/b?c=d/e'])
  })
})

describe('CloudApi.answer and stream', () => {
  test('answer: the whole 2xx answer, the bearer token only; a debug line; a refusal is a ServiceError', async () => {
    const ok = answer(200, '{"valid":true}', { 'x-user-id': 'deployer' })
    const { api, sent } = scripted([ok, answer(401, '{"error_code":"Unauthorized","error_detail":"expired"}')], { callTimeoutMs: 3_000 })
    expect(await api.answer({ operation: 'Checking the token', method: 'GET', path: '/v3/authn/verify_token', token: 't1' })).toBe(ok)
    expect(sent[0]).toEqual({ method: 'GET', path: '/v3/authn/verify_token', headers: { authorization: 'Bearer t1' }, timeoutMs: 3_000 })
    expect(debugs).toEqual(['GET /v3/authn/verify_token -> 200'])
    await expect(api.answer({ operation: 'Checking the token', method: 'GET', path: '/v3/authn/verify_token', token: 't1' })).rejects.toThrow(
      new ServiceError('Checking the token failed: HTTP 401 (Unauthorized: expired)', 401)
    )
    expect(debugs).toEqual(['GET /v3/authn/verify_token -> 200', 'GET /v3/authn/verify_token -> 401'])
  })

  test('stream: a POST with the content type, the length as a string, and the idle limit; a debug line', async () => {
    const body = Readable.from([Buffer.from('x')])
    const ok = answer(201, '{"id":"d"}')
    const { api, sent } = scripted([ok, answer(413, '')], { uploadIdleTimeoutMs: 2_500 })
    const call = { operation: 'Uploading', path: '/v3/distributions', token: 'tk', contentType: 'multipart/form-data; boundary=b', contentLength: 1234, body }
    expect(await api.stream(call)).toBe(ok)
    expect(sent[0]).toEqual({
      method: 'POST',
      path: '/v3/distributions',
      headers: { authorization: 'Bearer tk', 'content-type': 'multipart/form-data; boundary=b', 'content-length': '1234' },
      body,
      idleTimeoutMs: 2_500
    })
    expect(debugs).toEqual(['POST /v3/distributions -> 201'])
    await expect(api.stream(call)).rejects.toThrow(new ServiceError('Uploading failed: HTTP 413 (no answer body)', 413))
    expect(debugs).toEqual(['POST /v3/distributions -> 201', 'POST /v3/distributions -> 413'])
  })

  test('stream: the idle limit is a minute by default', async () => {
    const { api, sent } = scripted([answer(201, '{}')])
    await api.stream({ operation: 'Uploading', path: '/v3/distributions', token: 't', contentType: 'a/b', contentLength: 0, body: Readable.from([]) })
    expect(sent[0]?.idleTimeoutMs).toBe(60_000)
  })

  test('baseUrl is the transport’s', () => {
    expect(scripted([]).api.baseUrl).toBe('http://scripted.invalid')
  })
})

describe('CloudApi.retrying', () => {
  const busy = () => answer(503, '{"error_code":"ServiceUnavailable","error_detail":"busy"}')
  const retry = { attempts: 2, baseDelayMs: 0, maxDelayMs: 0 }

  test('another attempt after a transient failure, announced as info by default', async () => {
    const { api } = scripted([busy(), answer(200, '{"ok":true}')], { retry })
    const result = await api.retrying('Listing things', () => api.json({ operation: 'Listing things', method: 'GET', path: '/t' }))
    expect(result).toEqual({ ok: true })
    expect(infos).toEqual(['Listing things: attempt 1 failed (Listing things failed: HTTP 503 (ServiceUnavailable: busy)); retrying in 0.0 s'])
    expect(warnings).toEqual([])
  })

  test("a notice of level warning is a warning, with the notice's own words", async () => {
    const { api } = scripted([busy(), answer(200, '{}')], { retry })
    await api.retrying(
      'Uploading',
      () => api.json({ operation: 'Uploading', method: 'GET', path: '/t' }),
      (_error, attempt, delay) => ({ level: 'warning', message: `attempt ${attempt} again after ${delay} ms` })
    )
    expect(warnings).toEqual(['attempt 1 again after 0 ms'])
    expect(infos).toEqual([])
  })

  test('a refusal is not retried', async () => {
    const { api, sent } = scripted([answer(404, '{}'), answer(200, '{}')], { retry })
    await expect(api.retrying('Looking', () => api.json({ operation: 'Looking', method: 'GET', path: '/t' }))).rejects.toMatchObject({ status: 404 })
    expect(sent).toHaveLength(1)
    expect(infos).toEqual([])
  })
})

describe('multipart body', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cloud-api-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  // Three read chunks: 256 KB, 256 KB and the rest.
  const data = randomBytes(700_000)
  const file = join(dir, 'site.tar.gz')
  writeFileSync(file, data)

  /** Reads a body; what came before a failure is kept. */
  async function read(stream: Readable): Promise<{ bytes: Buffer; error?: unknown }> {
    const chunks: Buffer[] = []
    try {
      for await (const c of stream) chunks.push(c as Buffer)
      return { bytes: Buffer.concat(chunks) }
    } catch (error) {
      return { bytes: Buffer.concat(chunks), error }
    }
  }

  test('line breaks in the file name are dropped and quotes escaped; the stream is a byte stream', async () => {
    const body = multipartFile({ field: 'dist_file', bytes: fileBytes(file), fileName: 'site\r\n"v2"\n.tar.gz', size: data.length })
    const stream = body.open()
    expect(stream.readableObjectMode).toBe(false)
    const { bytes } = await read(stream)
    expect(bytes.length).toBe(body.contentLength)
    expect(bytes.toString('latin1')).toContain(
      '\r\nContent-Disposition: form-data; name="dist_file"; filename="site%22v2%22.tar.gz"\r\nContent-Type: application/gzip\r\n\r\n'
    )
  })

  test('a gate that failed already stops the body at its first chunk of the file, with its reason', async () => {
    const reason = new Error('the archive is unsound')
    const gate = Promise.reject(reason)
    gate.catch(() => undefined)
    const body = multipartFile({ field: 'dist_file', bytes: fileBytes(file), fileName: 'x.tar.gz', size: data.length, gate })
    let counted = 0
    const { bytes, error } = await read(body.open((n) => (counted += n)))
    expect(error).toBe(reason)
    expect(counted).toBe(0)
    expect(bytes.toString('latin1')).toMatch(
      /^------brcloud-deploy-[0-9a-f]{32}\r\nContent-Disposition: form-data; name="dist_file"; filename="x\.tar\.gz"\r\nContent-Type: application\/gzip\r\n\r\n$/
    )
  })

  test('a gate that fails while the file is read stops the body too, before its closing boundary', async () => {
    let fail: (e: Error) => void = () => undefined
    const gate = new Promise((_, reject) => (fail = reject))
    const reason = new Error('late refusal')
    const body = multipartFile({ field: 'dist_file', bytes: fileBytes(file), fileName: 'x.tar.gz', size: data.length, gate })
    let counted = 0
    const { bytes, error } = await read(
      body.open((n) => {
        counted += n
        if (counted === data.length) fail(reason)
      })
    )
    expect(error).toBe(reason)
    expect(counted).toBe(data.length)
    expect(bytes.length).toBe(body.contentLength - Buffer.byteLength(`\r\n--${/boundary=(.+)$/.exec(body.contentType)?.[1] ?? ''}--\r\n`))
  })

  test('a file that grew: the body stops at the chunk that passes the size, and says what it read', async () => {
    const body = multipartFile({ field: 'dist_file', bytes: fileBytes(file), fileName: 'x.tar.gz', size: 300_000 })
    let counted = 0
    const { error } = await read(body.open((n) => (counted += n)))
    expect(error).toEqual(new Error('x.tar.gz changed while it was being uploaded (expected 300000 bytes, read 524288)'))
    expect(counted).toBe(262_144)
  })

  test('a file that shrank: the body says what it read', async () => {
    const body = multipartFile({ field: 'dist_file', bytes: fileBytes(file), fileName: 'x.tar.gz', size: 800_000 })
    const { error } = await read(body.open())
    expect(error).toEqual(new Error('x.tar.gz changed while it was being uploaded (expected 800000 bytes, read 700000)'))
  })
})
