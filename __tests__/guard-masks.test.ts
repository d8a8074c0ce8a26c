// Every token a login receives is masked for the runner the moment it arrives: each token the servers answered (read
// off the wire by a recording proxy in front of the emulator) must be in an ::add-mask:: command on stdout, written
// through the action's own port, before the login returns. No line prints a token today, so only the mask shows
// that a later line (a debug line, an error that echoes it, another step) would be hidden: found by
// `npm run plant-deletions` (docs/reliability-and-security.md, "Planted deletions"), where deleting any of these
// masks survived every other test.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { actionPort } from '../src/action/port.js'
import { CloudApi } from '../src/cloud/api.js'
import { OAuthLogin } from '../src/cloud/login/oauth.js'
import { PasswordLogin } from '../src/cloud/login/password.js'
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { HttpTransport } from '../src/http/transport.js'
import { usePort } from '../src/port.js'
import { maskedValues } from '../scripts/lib/run-action.js'
import { oauthInputs } from './oauth-fixtures.js'
import { recordingProxy, type Recorder } from './recording-proxy.js'

// The action's own port, as the bundle installs it (setup-port.ts does too; said here, so the test is related to it).
usePort(actionPort)

/** What `call` wrote on stdout (the action's port writes workflow commands there), kept from the test's output. */
async function stdoutOf<T>(call: () => Promise<T>): Promise<{ out: string; value: T }> {
  const out: string[] = []
  const write = process.stdout.write.bind(process.stdout)
  process.stdout.write = ((chunk: string | Uint8Array) => out.push(String(chunk)) > 0) as typeof process.stdout.write
  try {
    const value = await call()
    return { out: out.join(''), value }
  } finally {
    process.stdout.write = write
  }
}

/** Each token answered, with whether the runner was told to mask it. */
const maskOf = (answered: readonly string[], out: string): Array<{ token: string; masked: boolean }> => {
  const masked = maskedValues(out)
  return answered.map((token) => ({ token, masked: masked.includes(token) }))
}

describe("the stack's password login", () => {
  let emu: Emulator
  let proxy: Recorder
  let transport: HttpTransport
  beforeAll(async () => {
    emu = await startEmulator()
    proxy = await recordingProxy(emu.url)
    transport = new HttpTransport(proxy.url, { userAgent: 'test' })
  })
  afterAll(async () => {
    await transport.close()
    await proxy.close()
    await emu.close()
  })

  test('the access and refresh tokens of the login and of the renewal are masked as they arrive', async () => {
    const api = new CloudApi(transport, { retry: { attempts: 1 } })
    const login = new PasswordLogin(emu.username, emu.password, 'the stack')
    const { out } = await stdoutOf(async () => {
      const grant = await login.obtain(api)
      await login.refresh(api, grant.refreshToken ?? '')
    })
    // The login's access and refresh tokens, then the renewal's access token.
    const answered = proxy.answered.map((a) => a.token)
    expect(answered).toHaveLength(3)
    expect(maskOf(answered, out)).toEqual(answered.map((token) => ({ token, masked: true })))
  })
})

describe("an identity provider's tokens (token-url)", () => {
  let emu: Emulator
  let proxy: Recorder
  beforeAll(async () => {
    emu = await startEmulator({ sso: {} })
    proxy = await recordingProxy(emu.url)
  })
  afterAll(async () => {
    await proxy.close()
    await emu.close()
  })
  const sso = (): NonNullable<Emulator['sso']> => emu.sso ?? (undefined as never)

  test("the password grant's access and refresh tokens, and the renewal's, are masked as they arrive", async () => {
    const tokenUrl = `${proxy.url}${new URL(sso().tokenUrl).pathname}`
    const login = new OAuthLogin(oauthInputs(sso(), { tokenUrl, grant: 'password', username: emu.username, password: emu.password }), { attempts: 1 })
    const from = proxy.answered.length
    const { out } = await stdoutOf(async () => {
      const grant = await login.obtain()
      await login.refresh(undefined, grant.refreshToken ?? '')
      await login.revoke(undefined, [], () => undefined)
    })
    const answered = proxy.answered.slice(from).map((a) => a.token)
    // The grant's access and refresh tokens, then the renewal's (the same refresh token again: this IdP does not rotate them).
    expect(answered).toHaveLength(4)
    expect(maskOf(answered, out)).toEqual(answered.map((token) => ({ token, masked: true })))
  })

  test("GitHub's OIDC token, sent as the client's assertion, is masked the moment the run has it", async () => {
    const given: string[] = []
    const idToken = async (audience: string): Promise<string> => {
      const res = await fetch(`${sso().oidcRequestUrl}&audience=${encodeURIComponent(audience)}`, {
        headers: { authorization: `Bearer ${sso().oidcRequestToken}` }
      })
      const { value } = (await res.json()) as { value: string }
      given.push(value)
      return value
    }
    const inputs = oauthInputs(sso(), {
      grant: 'client_assertion',
      clientId: sso().federatedClientId,
      clientSecret: undefined,
      oidcAudience: sso().oidcAudience
    })
    const login = new OAuthLogin(inputs, { attempts: 1, idToken })
    const from = emu.requests.length
    const { out, value } = await stdoutOf(() => login.obtain())
    await login.revoke(undefined, [], () => undefined)
    const assertion = emu.requests
      .slice(from)
      .filter((r) => r.operation === 'idp-token')
      .map((r) => (r.json as Record<string, unknown>).client_assertion)
    expect(assertion).toEqual(given)
    expect(maskOf([...given, value.accessToken], out)).toEqual([...given, value.accessToken].map((token) => ({ token, masked: true })))
  })
})

describe('an OpenID Connect ID token in the answer', () => {
  // An identity provider that answers an ID token with the access token when the scope holds openid. The action has no
  // use for it, and masks it like any other token. Its issuer is its origin (Google's), or has a path (Keycloak's realm,
  // Okta's authorization server, Entra's tenant) or a trailing slash (Auth0's): the login never depends on which.
  let server: Server
  let base: string
  const id = { token: '', access: '', issuer: (origin: string): string => origin }
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        const now = Math.floor(Date.now() / 1000)
        const part = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url')
        id.token = `${part({ alg: 'RS256', typ: 'JWT' })}.${part({ iss: id.issuer(base), sub: 'deployer', aud: 'ci-client', iat: now, exp: now + 600 })}.${'s'.repeat(43)}`
        const body = { access_token: id.access, token_type: 'Bearer', expires_in: 600, id_token: id.token, scope: 'openid' }
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body))
      })
    })
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise<void>((done) => server.close(() => done()))
  })

  test.each([
    ['its origin', (origin: string) => origin],
    ['a realm under it (Keycloak)', (origin: string) => `${origin}/realms/ci`],
    ['its origin with a trailing slash (Auth0)', (origin: string) => `${origin}/`]
  ])('issued by %s: set aside and masked as it arrives, with the access token', async (_name, issuer) => {
    id.issuer = issuer
    // A token of its own for each: one already masked is not masked again.
    id.access = `at-${_name.length}-0123456789abcdef`
    const login = new OAuthLogin(
      {
        kind: 'oauth',
        tokenUrl: `${base}/oauth/token`,
        grant: 'client_credentials',
        clientId: 'ci-client',
        clientSecret: 'ci-secret-0123456789',
        username: undefined,
        password: undefined,
        oidcAudience: undefined,
        audience: undefined,
        scope: 'openid'
      },
      { attempts: 1 }
    )
    const { out, value } = await stdoutOf(() => login.obtain())
    await login.revoke(undefined, [], () => undefined)
    expect(value.accessToken).toBe(id.access)
    expect(maskOf([value.accessToken, id.token], out)).toEqual([value.accessToken, id.token].map((token) => ({ token, masked: true })))
  })
})
