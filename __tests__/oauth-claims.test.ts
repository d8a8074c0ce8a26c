// The token endpoint login's claims word for word (src/cloud/login/oauth.ts), in-process against the emulator's
// identity provider over real HTTP: what each grant sends, the tokens it gives, each refusal's message and advice,
// the OIDC token's failures, renewal, and the revocation at the end (or why there is none).
import { createServer } from 'node:net'
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { OAuthLogin, metadataAddresses, TokenEndpointError } from '../src/cloud/login/oauth.js'
import { oauthInputs, printed, type OAuthInputs } from './oauth-fixtures.js'
import { SSO_DOCS_URL } from '../src/cloud/login/method.js'

let emu: Emulator
let sso: NonNullable<Emulator['sso']>
beforeAll(async () => {
  emu = await startEmulator({ sso: {} })
  if (emu.sso === undefined) throw new Error('no SSO')
  sso = emu.sso
})
afterAll(async () => {
  await emu.close()
})

const clientCredentials = (over: Partial<OAuthInputs> = {}): OAuthInputs => oauthInputs(sso, over)

const tokenCalls = () => emu.requests.filter((r) => r.operation === 'idp-token')
const message = (e: unknown): string => (e instanceof Error ? e.message : String(e))

describe('a grant', () => {
  test('client credentials: the audience in the body, the secret in the body; a bearer token, renewable', async () => {
    const before = tokenCalls().length
    const login = new OAuthLogin(clientCredentials({ scope: 'deploy' }), { attempts: 1 })
    expect([login.issuer, login.preflight, login.renewable, login.renewAfterMs, login.who]).toEqual(['oauth', true, true, undefined, sso.clientId])
    const grant = await login.obtain()
    expect(grant.accessToken).toMatch(/^ey/)
    expect(grant.expiresInSeconds).toBe(600)
    const sent = tokenCalls().slice(before)
    expect(sent).toHaveLength(1)
    expect(sent[0]?.json).toMatchObject({
      grant_type: 'client_credentials',
      audience: sso.audience,
      scope: 'deploy',
      client_id: sso.clientId,
      client_secret: sso.clientSecret
    })
  })

  test('the wrong secret: tried in the body, then with HTTP Basic; the message says both and what to check', async () => {
    const login = new OAuthLogin(clientCredentials({ clientSecret: 'wrong-secret-000' }), { attempts: 1 })
    const { error, lines } = await printed(() => login.obtain())
    expect(error).toBeInstanceOf(TokenEndpointError)
    expect((error as InstanceType<typeof TokenEndpointError>).transient).toBe(false)
    expect(message(error)).toBe(
      `Getting a token from ${sso.tokenUrl} with the client credentials of '${sso.clientId}': HTTP 401 invalid_client (with the secret in the body, then with HTTP Basic). Check client-id and client-secret: the identity provider did not accept them.`
    )
    expect(lines).toContain(`${sso.tokenUrl} refused the client secret in the request body; sending it with HTTP Basic authentication instead.`)
  })

  test('nothing listening at the token URL: could not be reached, worth another try', async () => {
    const free = createServer()
    await new Promise<void>((done) => free.listen(0, '127.0.0.1', done))
    const url = `http://127.0.0.1:${(free.address() as { port: number }).port}/oauth/token`
    await new Promise<void>((done) => free.close(() => done()))
    const login = new OAuthLogin(clientCredentials({ tokenUrl: url }), { attempts: 1 })
    const { error } = await printed(() => login.obtain())
    expect(message(error)).toMatch(
      new RegExp(`^Getting a token from ${url} with the client credentials of 'ci-client': ${url} could not be reached \\(.*ECONNREFUSED.*\\)\\.$`)
    )
    expect((error as InstanceType<typeof TokenEndpointError>).transient).toBe(true)
  })

  test("GitHub's OIDC token refused by GitHub: the permission the job needs, or GitHub's service failing (worth another try)", async () => {
    const inputs = clientCredentials({ grant: 'client_assertion', clientSecret: undefined, clientId: sso.federatedClientId, oidcAudience: 'api://x' })
    const failing = async (): Promise<string> => {
      throw new Error('no token today')
    }
    const saved = process.env.ACTIONS_ID_TOKEN_REQUEST_URL
    try {
      delete process.env.ACTIONS_ID_TOKEN_REQUEST_URL
      const refused = await printed(() => new OAuthLogin(inputs, { attempts: 1, idToken: failing }).obtain())
      expect(message(refused.error)).toBe(
        "GitHub gave no OIDC token for audience 'api://x' (no token today). The job needs 'permissions: id-token: write'; a run from a fork gets none."
      )
      expect((refused.error as InstanceType<typeof TokenEndpointError>).transient).toBe(false)
      process.env.ACTIONS_ID_TOKEN_REQUEST_URL = 'https://token.actions.example/'
      const failed = await printed(() => new OAuthLogin(inputs, { attempts: 1, idToken: failing }).obtain())
      expect(message(failed.error)).toBe("GitHub's OIDC token service gave no token for audience 'api://x' (no token today).")
      expect((failed.error as InstanceType<typeof TokenEndpointError>).transient).toBe(true)
    } finally {
      if (saved === undefined) delete process.env.ACTIONS_ID_TOKEN_REQUEST_URL
      else process.env.ACTIONS_ID_TOKEN_REQUEST_URL = saved
    }
  })

  test("who the login is: the user, else the client, else GitHub's OIDC identity with its audience", () => {
    const who = (over: Partial<OAuthInputs>) => new OAuthLogin(clientCredentials(over), { attempts: 1 }).who
    expect(who({ username: 'svc-deploy' })).toBe('svc-deploy')
    expect(who({})).toBe(sso.clientId)
    expect(who({ clientId: undefined, clientSecret: undefined, oidcAudience: 'api://y' })).toBe("GitHub's OIDC identity (audience api://y)")
    expect(who({ clientId: undefined, clientSecret: undefined })).toBe("GitHub's OIDC identity (audience ?)")
  })

  test("the stack's refusal hint names the token URL, audience and scope as set", () => {
    expect(new OAuthLogin(clientCredentials({ scope: 'deploy' }), { attempts: 1 }).refusedHint).toBe(
      `The stack did not accept the token from ${sso.tokenUrl}: check that it is issued for the stack's API (audience: ${sso.audience}, scope: deploy) and that single sign-on is set up for this stack (ask Bloomreach support for the token endpoint and audience; see ${SSO_DOCS_URL}).`
    )
    expect(new OAuthLogin(clientCredentials({ audience: undefined }), { attempts: 1 }).refusedHint).toContain('(audience: not set, scope: not set)')
  })
})

describe('renewal and the end of the run', () => {
  test('client credentials get no refresh token: nothing to renew or revoke, and that is said', async () => {
    const login = new OAuthLogin(clientCredentials(), { attempts: 1 })
    expect((await login.obtain()).refreshToken).toBeUndefined()
    expect(login.revokeNote(true)).toBe(`nothing to revoke: ${sso.tokenUrl} gave no refresh token, and its access tokens expire by themselves`)
    expect(login.revokeNote(false)).toBeUndefined()
  })
  // Renewal and revocation through the password grant: oauth-more.test.ts.
})

test('where the metadata may be: each prefix of the path, longest first, at most four', () => {
  expect(metadataAddresses('https://idp.example/a/b/c/d/e/token')).toEqual([
    'https://idp.example/a/b/c/d/e/.well-known/openid-configuration',
    'https://idp.example/a/b/c/d/.well-known/openid-configuration',
    'https://idp.example/a/b/c/.well-known/openid-configuration',
    'https://idp.example/a/b/.well-known/openid-configuration'
  ])
  expect(metadataAddresses('https://idp.example/oauth/token')).toEqual([
    'https://idp.example/oauth/.well-known/openid-configuration',
    'https://idp.example/.well-known/openid-configuration'
  ])
  expect(metadataAddresses('https://idp.example/token')).toEqual(['https://idp.example/.well-known/openid-configuration'])
})
