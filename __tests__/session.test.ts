// The token session against the emulator over real HTTP, with an injected clock for the renewal times.
// @actions/core is replaced by a recorder, so its workflow commands (::add-mask::, ::debug::) stay out of the test output.
import { useTestPort } from './test-port.js'

const logged: string[] = []
const masked: string[] = []
useTestPort({
  info: (m: string) => logged.push(m),
  debug: (m: string) => logged.push(m),
  warning: (m: string) => logged.push(m),
  setSecret: (s: string) => masked.push(s)
})

const { CloudApi } = await import('../src/cloud/api.js')
const { CloudClient } = await import('../src/cloud/client.js')
const { CloudSession, RENEW_AFTER_MS, jwtLifetimeMs } = await import('../src/cloud/session.js')
const { ServiceError } = await import('../src/errors.js')
const { HttpTransport } = await import('../src/http/transport.js')
const { startEmulator } = await import('../src/emulator/server.js')
type Emulator = import('../src/emulator/server.js').Emulator
type HttpTransport = import('../src/http/transport.js').HttpTransport
type CloudSession = import('../src/cloud/session.js').CloudSession

describe('CloudSession', () => {
  let emu: Emulator
  let transport: HttpTransport
  let clock: number
  const now = () => clock

  async function setup(tokenLifetimeSeconds = 600, password?: string) {
    emu = await startEmulator({ tokenLifetimeSeconds })
    transport = new HttpTransport(emu.url, { userAgent: 'test' })
    const api = new CloudApi(transport, { retry: { attempts: 1 } })
    const session = new CloudSession(api, emu.username, password ?? emu.password, { target: 'stack test', now })
    return { session, client: new CloudClient(api, session) }
  }

  const count = (op: string) => emu.requests.filter((r) => r.operation === op).length

  beforeEach(() => (clock = 1_000_000))
  afterEach(async () => {
    await transport.close()
    await emu.close()
  })

  test('logs in once, reuses the token, renews through refresh 9 minutes after issue, keeps the refresh token', async () => {
    const { session } = await setup()
    const first = await session.token()
    clock += RENEW_AFTER_MS - 1
    expect(await session.token()).toBe(first)
    expect(count('login')).toBe(1)
    expect(count('refresh')).toBe(0)

    clock += 1
    const second = await session.token()
    expect(second).not.toBe(first)
    expect(count('refresh')).toBe(1)

    clock += RENEW_AFTER_MS
    await session.token()
    const refreshes = emu.requests.filter((r) => r.operation === 'refresh').map((r) => r.json as { refresh_token: string })
    expect(refreshes).toHaveLength(2)
    // The refresh answer carries no refresh token: the one from the login is used every time.
    expect(refreshes[1]?.refresh_token).toBe(refreshes[0]?.refresh_token)
    expect(count('login')).toBe(1)
    expect(count('logout')).toBe(0)
  })

  test('renews at 90% of a JWT that lives shorter than 10 minutes', async () => {
    const { session } = await setup(100)
    const first = await session.token()
    expect(jwtLifetimeMs(first)).toBe(100_000)
    clock += 89_999
    expect(await session.token()).toBe(first)
    clock += 1
    expect(await session.token()).not.toBe(first)
    expect(count('refresh')).toBe(1)
  })

  test('a call that meets 401 renews once and is replayed', async () => {
    const { session, client } = await setup()
    await session.login()
    emu.revokeAccessTokens()
    const envs = (await client.listEnvironments()).items
    expect(envs.map((e) => e.name)).toEqual(['development', 'acceptance', 'production'])
    const listings = emu.requests.filter((r) => r.operation === 'list-environments').map((r) => r.status)
    expect(listings).toEqual([401, 200])
    expect(count('refresh')).toBe(1)
  })

  test('a second 401 after the replay is not retried again', async () => {
    const { session } = await setup()
    let calls = 0
    await expect(
      session.authorized(async () => {
        calls++
        throw new ServiceError('nope', 401)
      })
    ).rejects.toMatchObject({ status: 401 })
    expect(calls).toBe(2)
  })

  test('when the refresh token is refused, it logs in again', async () => {
    const { session } = await setup()
    await session.login()
    // Revoke the session's refresh token the way a client would: DELETE /v3/authn/refresh_token.
    const del = await fetch(emu.url + '/v3/authn/refresh_token', {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: peekRefreshToken(session) })
    })
    expect(del.status).toBeLessThan(300)
    clock += RENEW_AFTER_MS
    await session.token()
    expect(emu.requests.filter((r) => r.operation === 'refresh').map((r) => r.status)).toEqual([401])
    expect(count('login')).toBe(2)
  })

  test('concurrent callers share one renewal', async () => {
    const { session } = await setup()
    await session.token()
    clock += RENEW_AFTER_MS
    const tokens = await Promise.all([session.token(), session.token(), session.token()])
    expect(new Set(tokens).size).toBe(1)
    expect(count('refresh')).toBe(1)
  })

  test('a refused login is a 401 that names the user and is not retried', async () => {
    const { session } = await setup(600, 'wrong')
    await expect(session.login()).rejects.toThrow(
      "Login to stack test as user 'deployer' was refused (HTTP 401 AuthenticationFailed). Check that the username and password secrets belong to a user of this stack, " +
        'that the password has not expired, and that the stack is the right one. If this stack uses single sign-on, its password login is disabled: log in through your ' +
        'identity provider with token-url (see https://github.com/brcloud/brcloud-deploy/blob/main/docs/single-sign-on.md).'
    )
    expect(count('login')).toBe(1)
  })

  test('a stack with single sign-on refuses the password login (403): the message points at token-url, without the 401 checks', async () => {
    emu = await startEmulator({ sso: { passwordLogin: '403' } })
    transport = new HttpTransport(emu.url, { userAgent: 'test' })
    const session = new CloudSession(new CloudApi(transport, { retry: { attempts: 1 } }), emu.username, emu.password, { target: 'stack test', now })
    await expect(session.login()).rejects.toThrow(
      "Login to stack test as user 'deployer' was refused (HTTP 403 SsoEnabled). If this stack uses single sign-on, its password login is disabled: log in through " +
        'your identity provider with token-url (see https://github.com/brcloud/brcloud-deploy/blob/main/docs/single-sign-on.md).'
    )
  })
})

/** Reads the session's refresh token through the one field that holds it (test only). */
function peekRefreshToken(session: CloudSession): string {
  return (session as unknown as { refreshToken: string }).refreshToken
}
