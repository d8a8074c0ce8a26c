// The stack's password login, word for word: what it sends, which refusals it explains (401, 403 and the
// rest of 4xx but 429) and which it passes on as they are, the operation each error is named by, and what
// it takes from an answer. Against the emulator over real HTTP; the answers no stack gives (no token, an
// empty one) come from a scripted server.
import { useTestPort } from './test-port.js'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

const logged: string[] = []
useTestPort({
  info: (m: string) => void logged.push(m),
  debug: () => undefined,
  warning: (m: string) => void logged.push(`warning: ${m}`),
  setSecret: () => undefined
})

const { CloudApi } = await import('../src/cloud/api.js')
const { PasswordLogin } = await import('../src/cloud/login/password.js')
const { SSO_DOCS_URL } = await import('../src/cloud/login/method.js')
const { ServiceError } = await import('../src/errors.js')
const { HttpTransport } = await import('../src/http/transport.js')
const { startEmulator } = await import('../src/emulator/server.js')
const { registerSecret } = await import('../src/secrets.js')
type Emulator = import('../src/emulator/server.js').Emulator
type CloudApi = import('../src/cloud/api.js').CloudApi

const SSO_HINT = `If this stack uses single sign-on, its password login is disabled: log in through your identity provider with token-url (see ${SSO_DOCS_URL}).`
const CHECK_401 =
  'Check that the username and password secrets belong to a user of this stack, that the password has not expired, and that the stack is the right one. '

const transports: Array<InstanceType<typeof HttpTransport>> = []
function apiAt(url: string, attempts = 1): CloudApi {
  const transport = new HttpTransport(url, { userAgent: 'test' })
  transports.push(transport)
  return new CloudApi(transport, { retry: { attempts, baseDelayMs: 0, maxDelayMs: 0 } })
}

beforeEach(() => void logged.splice(0))
afterEach(async () => {
  for (const t of transports.splice(0)) await t.close()
})

describe('against the emulator', () => {
  let emu: Emulator
  let login: InstanceType<typeof PasswordLogin>
  beforeEach(async () => {
    emu = await startEmulator()
    login = new PasswordLogin(emu.username, emu.password, 'stack test')
  })
  afterEach(async () => {
    await emu.close()
  })
  const fail = (operation: 'login' | 'refresh' | 'revoke-refresh', status: number, echo?: 'text') =>
    emu.addFault({ operation, kind: 'status', status, times: 1, ...(echo && { echo }) })
  const sent = (op: string) => emu.requests.filter((r) => r.operation === op).map((r) => ({ method: r.method, path: r.url, json: r.json }))

  test('logs in with the user name and password, renews with the refresh token, revokes it in the body', async () => {
    const api = apiAt(emu.url)
    const grant = await login.obtain(api)
    expect(grant.accessToken).toEqual(expect.any(String))
    expect(grant.refreshToken).toEqual(expect.any(String))
    const renewed = await login.refresh(api, grant.refreshToken as string)
    expect(renewed.accessToken).not.toBe(grant.accessToken)
    expect(renewed.refreshToken).toBeUndefined()
    const revoked: string[] = []
    expect(await login.revoke(api, [grant.refreshToken as string], (t) => revoked.push(t))).toBeUndefined()
    expect(revoked).toEqual([grant.refreshToken])
    expect(sent('login')).toEqual([{ method: 'POST', path: '/v3/authn/access_token', json: { username: emu.username, password: emu.password } }])
    expect(sent('refresh')).toEqual([
      { method: 'POST', path: '/v3/authn/refresh_token', json: { grant_type: 'refresh_token', refresh_token: grant.refreshToken } }
    ])
    expect(sent('revoke-refresh')).toEqual([
      { method: 'DELETE', path: '/v3/authn/refresh_token', json: { grant_type: 'refresh_token', refresh_token: grant.refreshToken } }
    ])
  })

  test("a stack's error that echoes the request: the password in its detail shows as ***", async () => {
    registerSecret(emu.password)
    emu.addFault({ operation: 'login', kind: 'status', status: 500, times: 1, echo: 'json' })
    const error = await login.obtain(apiAt(emu.url)).then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(ServiceError)
    const message = (error as Error).message
    expect(message).toContain(`Login failed: HTTP 500 (InternalServerError: Request was: authorization= body={"username":"${emu.username}","password":"***"})`)
    expect(message).not.toContain(emu.password)
  })

  test('a redirect whose address holds a secret of the run: the message shows it as ***, never the query', async () => {
    registerSecret('tok-in-path-8842')
    emu.addFault({ operation: 'login', kind: 'status', status: 302, times: 1, location: 'https://login.example/session/tok-in-path-8842?next=x' })
    const error = await login.obtain(apiAt(emu.url)).then(
      () => undefined,
      (e: unknown) => e
    )
    expect((error as Error).message).toContain('a redirect to https://login.example/session/***; redirects are not followed')
    expect((error as Error).message).not.toContain('tok-in-path-8842')
  })

  test('a login that failed for a moment is tried again, told as "Login"', async () => {
    fail('login', 503)
    await login.obtain(apiAt(emu.url, 2))
    expect(logged).toEqual(['Login: attempt 1 failed (Login failed: HTTP 503 (ServiceUnavailable: Emulated fault on login)); retrying in 0.0 s'])
  })

  test.each([
    [401, 'Unauthorized', CHECK_401],
    [403, 'Forbidden', ''],
    [404, 'NotFound', ''],
    [499, 'Error', '']
  ])('refused (%i): names the stack, the user and the code; only a 401 adds what to check', async (status, code, check) => {
    fail('login', status)
    const error = await login.obtain(apiAt(emu.url)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ServiceError)
    expect(error).toMatchObject({ status, errorCode: code, errorDetail: 'Emulated fault on login' })
    expect((error as Error).message).toBe(`Login to stack test as user 'deployer' was refused (HTTP ${status} ${code}). ${check}${SSO_HINT}`)
  })

  test('refused with an answer that carries no code: the status alone', async () => {
    fail('login', 401, 'text')
    await expect(login.obtain(apiAt(emu.url))).rejects.toThrow(`Login to stack test as user 'deployer' was refused (HTTP 401). ${CHECK_401}${SSO_HINT}`)
  })

  test.each([
    [400, 'BadRequest'],
    [429, 'TooManyRequests'],
    [500, 'InternalServerError'],
    [503, 'ServiceUnavailable']
  ])('any other failure (%i) is passed on as it is', async (status, code) => {
    fail('login', status)
    await expect(login.obtain(apiAt(emu.url))).rejects.toThrow(new ServiceError(`Login failed: HTTP ${status} (${code}: Emulated fault on login)`, status))
  })

  test('a refresh that fails is told as "Token refresh", never explained as a login refusal', async () => {
    const api = apiAt(emu.url)
    const grant = await login.obtain(api)
    fail('refresh', 401)
    await expect(login.refresh(api, grant.refreshToken as string)).rejects.toThrow(
      new ServiceError('Token refresh failed: HTTP 401 (Unauthorized: Emulated fault on refresh)', 401)
    )
  })

  test('a refresh that failed for a moment is tried again, told as "Token refresh"', async () => {
    const grant = await login.obtain(apiAt(emu.url))
    logged.length = 0
    fail('refresh', 503)
    await login.refresh(apiAt(emu.url, 2), grant.refreshToken as string)
    expect(logged).toEqual([
      'Token refresh: attempt 1 failed (Token refresh failed: HTTP 503 (ServiceUnavailable: Emulated fault on refresh)); retrying in 0.0 s'
    ])
  })

  test("a refused token's advice, as the session appends it", () => {
    expect(login.refusedHint).toBe('Run again; if it persists, check that the user may deploy to this stack.')
  })

  test('a revocation that fails: the first failure is returned, the others are still revoked', async () => {
    const api = apiAt(emu.url)
    const first = (await login.obtain(api)).refreshToken as string
    const second = (await login.obtain(api)).refreshToken as string
    fail('revoke-refresh', 500)
    const revoked: string[] = []
    expect(await login.revoke(api, [first, second], (t) => revoked.push(t))).toBe(
      'Revoking the refresh token failed: HTTP 500 (InternalServerError: Emulated fault on revoke-refresh)'
    )
    expect(revoked).toEqual([second])
  })
})

describe('what is taken from an answer (a scripted server)', () => {
  let server: Server
  let url: string
  let answers: unknown[]
  beforeEach(async () => {
    answers = []
    server = createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        const body = answers.shift()
        res.writeHead(200, { 'content-type': 'application/json' }).end(body === undefined ? '' : JSON.stringify(body))
      })
    })
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterEach(async () => {
    server.closeAllConnections()
    await new Promise((done) => server.close(done))
  })
  const login = () => new PasswordLogin('deployer', 'secret', 'stack test')

  test.each([
    ['no body', undefined],
    ['no access_token', { token_type: 'Bearer', refresh_token: 'r' }],
    ['an empty access_token', { access_token: '', refresh_token: 'r' }],
    ['an access_token that is not a string', { access_token: 5, refresh_token: 'r' }]
  ])('a login answer with %s is an error that names the login', async (_label, answer) => {
    answers.push(answer)
    await expect(login().obtain(apiAt(url))).rejects.toThrow(new Error('Login: the answer holds no access_token'))
  })

  test('a refresh answer without an access_token is an error that names the refresh', async () => {
    answers.push({ token_type: 'Bearer' })
    await expect(login().refresh(apiAt(url), 'r')).rejects.toThrow(new Error('Token refresh: the answer holds no access_token'))
  })

  test.each([
    ['a refresh_token', 'r1', 'r1'],
    ['an empty refresh_token', '', undefined],
    ['a refresh_token that is not a string', 7, undefined],
    ['no refresh_token', undefined, undefined]
  ])('a login answer with %s', async (_label, refresh, expected) => {
    answers.push({ access_token: 'a1', ...(refresh !== undefined && { refresh_token: refresh }) })
    const grant = await login().obtain(apiAt(url))
    expect(grant.accessToken).toBe('a1')
    expect(grant.refreshToken).toBe(expected)
  })
})
