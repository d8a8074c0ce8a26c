// The session's claims, word for word, against the emulator over real HTTP: what it says when the stack will
// not say whether it accepts a token, when a refresh fails or is refused, what it renews and when (counted in
// the requests the stack received), and that a session closed at the end of the run logs in no more.
import { useTestPort } from './test-port.js'

const logged: string[] = []
useTestPort({
  info: (m: string) => void logged.push(m),
  debug: () => undefined,
  warning: (m: string) => void logged.push(`warning: ${m}`),
  setSecret: () => undefined
})

const { CloudApi } = await import('../src/cloud/api.js')
const { CloudSession, RENEW_AFTER_MS } = await import('../src/cloud/session.js')
const { PasswordLogin } = await import('../src/cloud/login/password.js')
const { ReadyToken } = await import('../src/cloud/login/ready-token.js')
const { ActionError, ServiceError } = await import('../src/errors.js')
const { HttpTransport } = await import('../src/http/transport.js')
const { startEmulator } = await import('../src/emulator/server.js')
type Emulator = import('../src/emulator/server.js').Emulator
type CloudApi = import('../src/cloud/api.js').CloudApi
type LoginMethod = import('../src/cloud/login/method.js').LoginMethod
type JsonCall = import('../src/cloud/api.js').JsonCall

const READY_HINT = new ReadyToken('x').refusedHint

let emu: Emulator
let transport: InstanceType<typeof HttpTransport>
let api: CloudApi
let clock: number
const now = () => clock

async function setup(): Promise<void> {
  emu = await startEmulator()
  transport = new HttpTransport(emu.url, { userAgent: 'test' })
  api = new CloudApi(transport, { retry: { attempts: 1 } })
}

const passwordSession = (over: Partial<LoginMethod> = {}) => {
  const method = new PasswordLogin(emu.username, emu.password, 'stack test')
  return new CloudSession(api, Object.assign(Object.create(method) as LoginMethod, over), { target: 'stack test', now })
}

/** A session with a token the stack issued to someone else's login: a ready token (verified first, never renewed). */
async function readySession(token?: string) {
  const issued = token ?? (await passwordSession().token())
  return new CloudSession(api, new ReadyToken(issued), { target: 'stack test', now })
}

const ops = (op: string) => emu.requests.filter((r) => r.operation === op)
const statuses = (op: string) => ops(op).map((r) => r.status)

beforeEach(async () => {
  clock = 1_000_000
  logged.splice(0)
  await setup()
})
afterEach(async () => {
  await transport.close()
  await emu.close()
})

describe('verify: asking the stack before any change whether it takes the token', () => {
  test('accepted: who the token acts as, from the answer headers; a failed attempt is retried under the name "Checking the token"', async () => {
    api = new CloudApi(transport, { retry: { attempts: 2, baseDelayMs: 0, maxDelayMs: 0 } })
    const session = await readySession()
    emu.addFault({ operation: 'verify', kind: 'status', status: 503, times: 1 })
    logged.splice(0)
    expect(await session.verify()).toEqual({ userId: 'deployer', role: 'deployer' })
    expect(statuses('verify')).toEqual([503, 200])
    expect(logged).toEqual([
      'Checking the token: attempt 1 failed (Checking the token failed: HTTP 503 (ServiceUnavailable: Emulated fault on verify)); retrying in 0.0 s'
    ])
  })

  test('a method that needs no check is not checked', async () => {
    expect(await passwordSession().verify()).toBeUndefined()
    expect(ops('verify')).toEqual([])
  })

  test('refused (401): an ActionError with the code and what to do, before any change', async () => {
    const session = await readySession('not-a-token-the-stack-issued')
    const error = await session.verify().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ActionError)
    expect(error).not.toBeInstanceOf(ServiceError)
    expect((error as Error).message).toBe(`The stack refused the token (HTTP 401 Unauthorized) before any change. ${READY_HINT}`)
    expect(statuses('verify')).toEqual([401])
  })

  test('refused (403): the same', async () => {
    const session = await readySession()
    emu.addFault({ operation: 'verify', kind: 'status', status: 403, times: 1 })
    await expect(session.verify()).rejects.toThrow(`The stack refused the token (HTTP 403 Forbidden) before any change. ${READY_HINT}`)
  })

  test('refused with an answer that is not a JSON error body: no code in the message', async () => {
    const session = await readySession()
    emu.addFault({ operation: 'verify', kind: 'status', status: 401, times: 1, echo: 'text' })
    await expect(session.verify()).rejects.toThrow(`The stack refused the token (HTTP 401) before any change. ${READY_HINT}`)
  })

  test.each([
    [500, 'InternalServerError'],
    [404, 'NotFound']
  ])('any other answer (%i) tells nothing of the token: said so, and the run goes on', async (status, code) => {
    const session = await readySession()
    emu.addFault({ operation: 'verify', kind: 'status', status, times: 1 })
    logged.splice(0)
    expect(await session.verify()).toBeUndefined()
    expect(logged).toEqual([
      `The stack could not say whether it accepts the token (Checking the token failed: HTTP ${status} (${code}: Emulated fault on verify)); going on: the first call will tell.`
    ])
  })

  test('no connection tells nothing of the token either', async () => {
    const session = await readySession()
    await emu.close()
    logged.splice(0)
    expect(await session.verify()).toBeUndefined()
    expect(logged).toEqual([
      expect.stringMatching(/^The stack could not say whether it accepts the token \(.*ECONNREFUSED.*\); going on: the first call will tell\.$/)
    ])
  })

  test('anything else (a bug) is thrown as it is', async () => {
    const session = await readySession()
    const bug = new TypeError('bug')
    class Broken extends CloudApi {
      override answer(_call: JsonCall): never {
        throw bug
      }
    }
    session.reroute(new Broken(transport, { retry: { attempts: 1 } }), 1_000)
    await expect(session.verify()).rejects.toBe(bug)
  })
})

describe('when the session logs in and renews', () => {
  test('the first token is a login, not a renewal', async () => {
    const session = passwordSession()
    await session.token()
    expect(session.renewals).toBe(0)
    expect(ops('login')).toHaveLength(1)
    expect(ops('refresh')).toHaveLength(0)
    clock += RENEW_AFTER_MS
    await session.token()
    expect(session.renewals).toBe(1)
  })

  test('a ready token is used as it is, and is never renewed', async () => {
    const session = await readySession()
    const token = await session.token()
    clock += 10 * RENEW_AFTER_MS
    expect(await session.token()).toBe(token)
    expect(session.renewals).toBe(0)
    await expect(session.renew()).rejects.toThrow(new ActionError(`The token is refused or due, and it is not renewed. ${READY_HINT}`))
    await expect(session.authorized(() => Promise.reject(new ServiceError('refused', 401)))).rejects.toBeInstanceOf(ActionError)
  })

  test('a 401 after another caller already renewed replays with the new token without renewing again', async () => {
    const session = passwordSession()
    const first = await session.token()
    const used: string[] = []
    const answer = await session.authorized(async (token) => {
      used.push(token)
      if (used.length > 1) return 'ok'
      await session.renew() // another caller renewed meanwhile
      throw new ServiceError('refused', 401)
    })
    expect(answer).toBe('ok')
    expect(used[0]).toBe(first)
    expect(used[1]).not.toBe(first)
    expect(session.renewals).toBe(1)
    expect(ops('refresh')).toHaveLength(1)
  })

  test('a refresh refused (401): said so with its status, then a login', async () => {
    const session = passwordSession()
    await session.token()
    emu.addFault({ operation: 'refresh', kind: 'status', status: 401, times: 1 })
    logged.splice(0)
    clock += RENEW_AFTER_MS
    await session.token()
    expect(logged).toEqual(['The refresh token was refused (HTTP 401); logging in again.'])
    expect(statuses('login')).toEqual([200, 200])
  })

  test('a refresh failing (500): said so with the whole error, then a login', async () => {
    const session = passwordSession()
    await session.token()
    emu.addFault({ operation: 'refresh', kind: 'status', status: 500, times: 1 })
    logged.splice(0)
    clock += RENEW_AFTER_MS
    await session.token()
    expect(logged).toEqual(['The token refresh failed (Token refresh failed: HTTP 500 (InternalServerError: Emulated fault on refresh)); logging in again.'])
    expect(statuses('login')).toEqual([200, 200])
  })

  test('a refresh that fails with a bug ends the renewal with it: no login again', async () => {
    const bug = new TypeError('bug')
    const session = passwordSession({ refresh: () => Promise.reject(bug) })
    await session.token()
    clock += RENEW_AFTER_MS
    await expect(session.token()).rejects.toBe(bug)
    expect(ops('login')).toHaveLength(1)
  })

  test('a login whose answer holds an empty access token is an internal error', async () => {
    const session = passwordSession({ obtain: async () => ({ accessToken: '' }) })
    await expect(session.token()).rejects.toThrow(new Error('internal error: no access token after login'))
  })
})

describe('the end of the run', () => {
  test('a closed session logs in no more', async () => {
    const session = passwordSession()
    expect(await session.revoke(api)).toBeUndefined()
    await expect(session.token()).rejects.toThrow(new Error('Login: the run is ending and its session is closed'))
    await expect(session.login()).rejects.toThrow('Login: the run is ending and its session is closed')
    expect(ops('login')).toEqual([])
  })

  test('a refresh token revoked at the end is not used again: a renewal after it would need a login, which is refused', async () => {
    const session = passwordSession()
    await session.token()
    expect(await session.revoke(api)).toBeUndefined()
    expect(statuses('revoke-refresh')).toEqual([200])
    clock += RENEW_AFTER_MS
    await expect(session.token()).rejects.toThrow('Login: the run is ending and its session is closed')
    expect(ops('refresh')).toEqual([])
  })

  test('the refresh token in use stays when only an older one could be revoked, and still renews', async () => {
    const session = passwordSession()
    await session.token()
    // The refresh is refused, so a second login brings a second refresh token.
    emu.addFault({ operation: 'refresh', kind: 'status', status: 401, times: 1 })
    clock += RENEW_AFTER_MS
    await session.token()
    expect(statuses('login')).toEqual([200, 200])
    // The first revocation (the older token) goes through; the second (the one in use) fails.
    emu.addFault({ operation: 'revoke-refresh', kind: 'status', status: 500, times: 1, skip: 1 })
    expect(await session.revoke(api)).toBe('Revoking the refresh token failed: HTTP 500 (InternalServerError: Emulated fault on revoke-refresh)')
    expect(statuses('revoke-refresh')).toEqual([200, 500])
    clock += RENEW_AFTER_MS
    await session.token()
    expect(statuses('refresh')).toEqual([401, 200])
  })

  test('what the method says of revoking is logged, told whether any refresh token arrived', async () => {
    const asked: boolean[] = []
    const note = (none: boolean) => {
      asked.push(none)
      return none ? 'nothing to revoke' : undefined
    }
    const without = passwordSession({ revokeNote: note })
    logged.splice(0)
    await without.revoke(api)
    expect(logged).toEqual(['Token: nothing to revoke.'])

    const withToken = passwordSession({ revokeNote: note })
    await withToken.token()
    logged.splice(0)
    await withToken.revoke(api)
    expect(logged).toEqual([])
    expect(asked).toEqual([true, false])
  })
})
