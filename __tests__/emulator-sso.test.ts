// The emulator's single sign-on mode over real HTTP: the stand-in identity provider's grants and client
// authentication, the GitHub OIDC stand-in driven by @actions/core's own getIDToken, the cloud API's
// checks of the identity provider's tokens, revocation, the disabled password login and faults.
import { getIDToken as coreGetIDToken } from '@actions/core'
import { jest } from '@jest/globals'
import { createPublicKey, createVerify, type JsonWebKey } from 'node:crypto'
import { parseCli } from '../src/emulator/cli-args.js'
import { githubClaims, githubSubject } from '../src/emulator/sso-github-oidc.js'
import { resolveSso } from '../src/emulator/sso-options.js'
import { startEmulator, type Emulator, type EmulatorOptions, type SsoHandle } from '../src/emulator/server.js'

/** @actions/core's getIDToken, its workflow commands (::debug::, ::add-mask::) kept out of the test output. */
async function getIDToken(audience?: string): Promise<string> {
  const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true)
  try {
    return await coreGetIDToken(audience)
  } finally {
    write.mockRestore()
  }
}

const open: Emulator[] = []
async function emulator(options: EmulatorOptions = { sso: {} }): Promise<Emulator & { sso: SsoHandle }> {
  const emu = await startEmulator(options)
  open.push(emu)
  if (emu.sso === undefined && options.sso !== undefined) throw new Error('no sso handle')
  return emu as Emulator & { sso: SsoHandle }
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()))
})

interface TokenAnswer {
  access_token: string
  token_type: string
  expires_in: number
  scope?: string
  refresh_token?: string
  error?: string
  error_description?: string
}

const basic = (id: string, secret: string): string => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`

async function tokenCall(
  emu: Emulator & { sso: SsoHandle },
  form: Record<string, string>,
  headers: Record<string, string> = {}
): Promise<{ res: Response; body: TokenAnswer }> {
  const res = await fetch(emu.sso.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString()
  })
  return { res, body: (await res.json()) as TokenAnswer }
}

/** client_credentials with client_secret_post, for the cloud API's audience unless told otherwise. */
async function clientToken(emu: Emulator & { sso: SsoHandle }, extra: Record<string, string> = {}): Promise<TokenAnswer> {
  const { res, body } = await tokenCall(emu, {
    grant_type: 'client_credentials',
    client_id: emu.sso.clientId,
    client_secret: emu.sso.clientSecret,
    audience: emu.sso.audience,
    ...extra
  })
  expect(res.status).toBe(200)
  return body
}

const claimsOf = (jwt: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>

async function environments(emu: Emulator, token: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${emu.url}/v3/environments`, { headers: { authorization: `Bearer ${token}` } })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

async function verify(emu: Emulator, token: string): Promise<Response> {
  return fetch(`${emu.url}/v3/authn/verify_token`, { headers: { authorization: `Bearer ${token}` } })
}

describe('the identity provider stand-in', () => {
  test('discovery and key set: the access token verifies with the published key', async () => {
    const emu = await emulator()
    const discovery = (await (await fetch(`${emu.sso.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>
    expect(discovery).toMatchObject({
      issuer: `${emu.url}/idp`,
      token_endpoint: emu.sso.tokenUrl,
      revocation_endpoint: emu.sso.revocationUrl,
      jwks_uri: `${emu.url}/idp/.well-known/jwks.json`,
      grant_types_supported: ['client_credentials', 'password', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt']
    })
    const { keys } = (await (await fetch(String(discovery.jwks_uri))).json()) as { keys: JsonWebKey[] }
    const { access_token } = await clientToken(emu)
    const [header, payload, signature] = access_token.split('.') as [string, string, string]
    const key = createPublicKey({ key: keys[0] as JsonWebKey, format: 'jwk' })
    expect(createVerify('RSA-SHA256').update(`${header}.${payload}`).verify(key, signature, 'base64url')).toBe(true)
  })

  test('no revocation: discovery advertises none, the endpoint is not there, the handle has no URL', async () => {
    const emu = await emulator({ sso: { revocation: false } })
    const discovery = (await (await fetch(`${emu.sso.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>
    expect(discovery.revocation_endpoint).toBeUndefined()
    expect(emu.sso.revocationUrl).toBeUndefined()
    const res = await fetch(`${emu.url}/idp/oauth/revoke`, { method: 'POST', headers: { authorization: basic('ci-client', 'ci-secret-123456') } })
    expect(res.status).toBe(404)
  })

  test('client_credentials with client_secret_post: a JWT for the audience, accepted by the cloud API; recorded form-decoded', async () => {
    const emu = await emulator()
    const answer = await clientToken(emu, { scope: 'deploy' })
    expect(answer).toMatchObject({ token_type: 'Bearer', expires_in: 600, scope: 'deploy' })
    expect(answer.refresh_token).toBeUndefined()
    const claims = claimsOf(answer.access_token)
    expect(claims).toMatchObject({ iss: emu.sso.issuer, sub: 'ci-client', aud: 'brcloud-api', azp: 'ci-client', scope: 'deploy' })
    expect(Number(claims.exp) - Number(claims.iat)).toBe(600)
    expect(typeof claims.jti).toBe('string')
    expect((await environments(emu, answer.access_token)).status).toBe(200)
    const record = emu.requests.find((r) => r.operation === 'idp-token')
    expect(record?.json).toMatchObject({ grant_type: 'client_credentials', client_id: 'ci-client', client_secret: 'ci-secret-123456' })
  })

  test('client_secret_basic (RFC 6749 2.3.1 form-encoding) and Cache-Control: no-store', async () => {
    const emu = await emulator({ sso: { clients: [{ id: 'ci client:1', secret: 'p@ss word+/' }] } })
    const { res, body } = await tokenCall(
      emu,
      { grant_type: 'client_credentials', audience: 'brcloud-api' },
      { authorization: basic('ci client:1', 'p@ss word+/') }
    )
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(claimsOf(body.access_token).sub).toBe('ci client:1')
  })

  test('a wrong secret: 401 invalid_client, with a Basic challenge when Basic was used', async () => {
    const emu = await emulator()
    const viaBasic = await tokenCall(emu, { grant_type: 'client_credentials' }, { authorization: basic('ci-client', 'wrong') })
    expect(viaBasic.res.status).toBe(401)
    expect(viaBasic.body.error).toBe('invalid_client')
    expect(viaBasic.res.headers.get('www-authenticate')).toBe('Basic realm="idp"')
    const viaPost = await tokenCall(emu, { grant_type: 'client_credentials', client_id: 'ci-client', client_secret: 'wrong' })
    expect(viaPost.res.status).toBe(401)
    expect(viaPost.body.error).toBe('invalid_client')
    expect(viaPost.res.headers.get('www-authenticate')).toBeNull()
  })

  test('request errors: no grant, an unknown grant, no client, two client methods', async () => {
    const emu = await emulator()
    expect((await tokenCall(emu, {})).body.error).toBe('invalid_request')
    expect((await tokenCall(emu, { grant_type: 'authorization_code' })).body.error).toBe('unsupported_grant_type')
    const anonymous = await tokenCall(emu, { grant_type: 'client_credentials' })
    expect([anonymous.res.status, anonymous.body.error]).toEqual([401, 'invalid_client'])
    const both = await tokenCall(
      emu,
      { grant_type: 'client_credentials', client_id: 'ci-client', client_secret: 'ci-secret-123456' },
      { authorization: basic('ci-client', 'ci-secret-123456') }
    )
    expect([both.res.status, both.body.error]).toEqual([400, 'invalid_request'])
  })

  test('the audience: an Entra-style .default scope; none (userinfo) and another resource are issued but refused by the cloud API', async () => {
    const emu = await emulator()
    const entra = await clientToken(emu, { audience: '', scope: 'brcloud-api/.default' })
    expect(claimsOf(entra.access_token).aud).toBe('brcloud-api')
    expect((await environments(emu, entra.access_token)).status).toBe(200)

    const missing = await clientToken(emu, { audience: '' })
    expect(claimsOf(missing.access_token).aud).toBe(`${emu.url}/idp/userinfo`)
    const refusedMissing = await environments(emu, missing.access_token)
    expect(refusedMissing.status).toBe(401)
    expect(refusedMissing.body.error_code).toBe('AuthenticationFailed')
    expect(String(refusedMissing.body.error_detail)).toMatch(/audience/)

    const other = await clientToken(emu, { audience: 'https://other.example/api' })
    expect(claimsOf(other.access_token).aud).toBe('https://other.example/api')
    const refusedOther = await environments(emu, other.access_token)
    expect(refusedOther.status).toBe(401)
    expect(String(refusedOther.body.error_detail)).toContain('https://other.example/api')
    expect((await verify(emu, other.access_token)).status).toBe(401)
  })

  test('the password grant with the script account (no client), then the refresh grant', async () => {
    const emu = await emulator()
    const wrong = await tokenCall(emu, { grant_type: 'password', username: emu.username, password: 'nope', audience: 'brcloud-api' })
    expect([wrong.res.status, wrong.body.error]).toEqual([400, 'invalid_grant'])
    const first = await tokenCall(emu, { grant_type: 'password', username: emu.username, password: emu.password, audience: 'brcloud-api' })
    expect(first.res.status).toBe(200)
    expect(claimsOf(first.body.access_token)).toMatchObject({ sub: 'deployer', aud: 'brcloud-api' })
    expect(claimsOf(first.body.access_token).azp).toBeUndefined()
    expect(first.body.refresh_token).toMatch(/^rt_/)

    const refreshed = await tokenCall(emu, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token ?? '' })
    expect(refreshed.res.status).toBe(200)
    expect(refreshed.body.access_token).not.toBe(first.body.access_token)
    expect(refreshed.body.refresh_token).toBe(first.body.refresh_token)
    expect((await environments(emu, refreshed.body.access_token)).status).toBe(200)

    const unknown = await tokenCall(emu, { grant_type: 'refresh_token', refresh_token: 'rt_unknown' })
    expect([unknown.res.status, unknown.body.error]).toEqual([400, 'invalid_grant'])
  })

  test("refreshTokens 'all' and 'none'; a refresh token issued to a client is good only for that client", async () => {
    const all = await emulator({
      sso: {
        refreshTokens: 'all',
        clients: [
          { id: 'a', secret: 'sa' },
          { id: 'b', secret: 'sb' }
        ]
      }
    })
    const issued = await tokenCall(all, { grant_type: 'client_credentials', client_id: 'a', client_secret: 'sa', audience: 'brcloud-api' })
    expect(issued.body.refresh_token).toBeDefined()
    const refresh = issued.body.refresh_token ?? ''
    const byOther = await tokenCall(all, { grant_type: 'refresh_token', refresh_token: refresh, client_id: 'b', client_secret: 'sb' })
    expect(byOther.body.error).toBe('invalid_grant')
    const byNone = await tokenCall(all, { grant_type: 'refresh_token', refresh_token: refresh })
    expect([byNone.res.status, byNone.body.error]).toEqual([401, 'invalid_client'])
    const byOwner = await tokenCall(all, { grant_type: 'refresh_token', refresh_token: refresh }, { authorization: basic('a', 'sa') })
    expect(byOwner.res.status).toBe(200)

    const none = await emulator({ sso: { refreshTokens: 'none' } })
    const password = await tokenCall(none, { grant_type: 'password', username: none.username, password: none.password, audience: 'brcloud-api' })
    expect(password.res.status).toBe(200)
    expect(password.body.refresh_token).toBeUndefined()
  })

  test('expiry: with accessTokenSeconds 1 the cloud API refuses the token a second later, saying it expired', async () => {
    const emu = await emulator({ sso: { accessTokenSeconds: 1 } })
    const { access_token, expires_in } = await clientToken(emu)
    expect(expires_in).toBe(1)
    await new Promise((r) => setTimeout(r, 1100))
    const refused = await environments(emu, access_token)
    expect(refused.status).toBe(401)
    expect(refused.body).toEqual({ error_code: 'AuthenticationFailed', error_detail: 'The token has expired' })
  })

  test('revocation: a revoked access token stops working at the cloud API, a revoked refresh token at the IdP; unknown tokens answer 200', async () => {
    const emu = await emulator()
    const revoke = (token: string, auth = basic('ci-client', 'ci-secret-123456')): Promise<Response> =>
      fetch(emu.sso.revocationUrl ?? '', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: auth },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString()
      })
    const { access_token } = await clientToken(emu)
    expect((await environments(emu, access_token)).status).toBe(200)
    const revoked = await revoke(access_token)
    expect(revoked.status).toBe(200)
    expect(await revoked.text()).toBe('')
    expect((await environments(emu, access_token)).body.error_detail).toBe('The token has been revoked')

    const password = await tokenCall(emu, { grant_type: 'password', username: emu.username, password: emu.password, audience: 'brcloud-api' })
    expect((await revoke(password.body.refresh_token ?? '')).status).toBe(200)
    const after = await tokenCall(emu, { grant_type: 'refresh_token', refresh_token: password.body.refresh_token ?? '' })
    expect(after.body.error).toBe('invalid_grant')

    expect((await revoke('not-a-token')).status).toBe(200)
    const badClient = await revoke('not-a-token', basic('ci-client', 'wrong'))
    expect(badClient.status).toBe(401)
    expect(emu.requests.filter((r) => r.operation === 'idp-revoke').length).toBe(4)
  })

  test('a 5xx fault on idp-token: answered in the IdP error shape, the form still recorded', async () => {
    const emu = await emulator({ sso: {}, faults: [{ operation: 'idp-token', kind: 'status', status: 503, times: 1, retryAfterSeconds: 2 }] })
    const failed = await tokenCall(emu, { grant_type: 'client_credentials', client_id: 'ci-client', client_secret: 'ci-secret-123456' })
    expect(failed.res.status).toBe(503)
    expect(failed.res.headers.get('retry-after')).toBe('2')
    expect(failed.body.error).toBe('temporarily_unavailable')
    const record = emu.requests.find((r) => r.operation === 'idp-token')
    expect(record).toMatchObject({ fault: 'status', status: 503, json: { client_id: 'ci-client' } })
    await clientToken(emu) // the next call goes through
  })
})

describe('federation: a GitHub OIDC token as client assertion', () => {
  const saved = { url: process.env.ACTIONS_ID_TOKEN_REQUEST_URL, token: process.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN }
  afterEach(() => {
    for (const [name, value] of [
      ['ACTIONS_ID_TOKEN_REQUEST_URL', saved.url],
      ['ACTIONS_ID_TOKEN_REQUEST_TOKEN', saved.token]
    ] as const) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  })

  function runnerEnv(emu: Emulator & { sso: SsoHandle }): void {
    process.env.ACTIONS_ID_TOKEN_REQUEST_URL = emu.sso.oidcRequestUrl
    process.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN = emu.sso.oidcRequestToken
  }

  const assertionForm = (assertion: string, extra: Record<string, string> = {}): Record<string, string> => ({
    grant_type: 'client_credentials',
    client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    client_assertion: assertion,
    audience: 'brcloud-api',
    ...extra
  })

  test("@actions/core's getIDToken fetches a token; the IdP exchanges it for an access token the cloud API accepts", async () => {
    const emu = await emulator()
    runnerEnv(emu)
    const idToken = await getIDToken(emu.sso.oidcAudience)
    expect(claimsOf(idToken)).toMatchObject({
      iss: 'https://token.actions.githubusercontent.com',
      aud: 'api://brcloud-ci',
      sub: 'repo:acme/site:ref:refs/heads/main',
      repository: 'acme/site'
    })
    expect([emu.sso.oidcIssuer, emu.sso.oidcSubject]).toEqual(['https://token.actions.githubusercontent.com', 'repo:acme/site:ref:refs/heads/main'])
    const oidcCall = emu.requests.find((r) => r.operation === 'oidc-token')
    expect(oidcCall?.url).toBe('/github-oidc/token?api-version=2.0&audience=api%3A%2F%2Fbrcloud-ci')
    const { res, body } = await tokenCall(emu, assertionForm(idToken, { client_id: emu.sso.federatedClientId }))
    expect(res.status).toBe(200)
    expect(claimsOf(body.access_token)).toMatchObject({ sub: 'gh-federated', azp: 'gh-federated', aud: 'brcloud-api' })
    expect((await environments(emu, body.access_token)).status).toBe(200)
    const verified = await verify(emu, body.access_token)
    expect(verified.headers.get('x-user-id')).toBe('gh-federated')
  })

  test('refused assertions: another audience, a subject outside the glob, another client id, a forged token; a bad request token', async () => {
    const emu = await emulator({ sso: { federation: { subject: 'repo:acme/site:environment:production' } } })
    runnerEnv(emu)
    const wrongAudience = await tokenCall(emu, assertionForm(await getIDToken('api://someone-else')))
    expect([wrongAudience.res.status, wrongAudience.body.error]).toEqual([401, 'invalid_client'])
    expect(wrongAudience.body.error_description).toMatch(/audience/)
    const idToken = await getIDToken(emu.sso.oidcAudience)
    const wrongSubject = await tokenCall(emu, assertionForm(idToken))
    expect(wrongSubject.body.error_description).toMatch(/subject/)
    const wrongClient = await tokenCall(emu, assertionForm(idToken, { client_id: 'ci-client' }))
    expect(wrongClient.body.error).toBe('invalid_client')
    // An IdP access token is well formed but not signed by the OIDC stand-in's key.
    const forged = await tokenCall(emu, assertionForm((await clientToken(emu)).access_token))
    expect(forged.body.error_description).toMatch(/signature/)

    const denied = await fetch(emu.sso.oidcRequestUrl, { headers: { authorization: 'Bearer wrong' } })
    expect(denied.status).toBe(401)
    expect(await denied.json()).toEqual({ message: 'Bad credentials' })
  })

  test('without an audience the OIDC stand-in signs for https://github.com/acme', async () => {
    const emu = await emulator()
    runnerEnv(emu)
    expect(claimsOf(await getIDToken()).aud).toBe('https://github.com/acme')
  })

  test("the token carries GitHub's documented claims for the job, signed with a key its JWKS serves", async () => {
    const emu = await emulator({ sso: { githubJob: { environment: 'production', sha: 'c'.repeat(40), runId: '77', actor: 'mona' } } })
    runnerEnv(emu)
    const idToken = await getIDToken(emu.sso.oidcAudience)
    const claims = claimsOf(idToken)
    expect(claims).toMatchObject({
      iss: 'https://token.actions.githubusercontent.com',
      sub: 'repo:acme/site:environment:production',
      aud: 'api://brcloud-ci',
      environment: 'production',
      repository: 'acme/site',
      repository_owner: 'acme',
      repository_id: expect.stringMatching(/^\d+$/),
      repository_owner_id: expect.stringMatching(/^\d+$/),
      ref: 'refs/heads/main',
      ref_type: 'branch',
      sha: 'c'.repeat(40),
      workflow: 'Deploy',
      workflow_ref: 'acme/site/.github/workflows/deploy.yml@refs/heads/main',
      job_workflow_ref: 'acme/site/.github/workflows/deploy.yml@refs/heads/main',
      run_id: '77',
      run_number: '1',
      run_attempt: '1',
      actor: 'mona',
      actor_id: expect.stringMatching(/^\d+$/),
      event_name: 'push',
      head_ref: '',
      base_ref: ''
    })
    expect(typeof claims.jti).toBe('string')
    expect(claims.nbf).toBe(claims.iat)
    expect(claims.exp).toBe((claims.iat as number) + 300)
    // A platform team's identity provider checks the signature against the issuer's key set: here the stand-in's.
    const [header, payload, signature] = idToken.split('.') as [string, string, string]
    const { kid } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { kid: string }
    const jwks = (await (await fetch(`${emu.url}/github-oidc/.well-known/jwks`)).json()) as { keys: JsonWebKey[] }
    const jwk = jwks.keys.find((k) => (k as { kid?: string }).kid === kid)
    expect(jwk).toBeDefined()
    const key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' })
    expect(createVerify('RSA-SHA256').update(`${header}.${payload}`).verify(key, signature, 'base64url')).toBe(true)
  })

  test("the OIDC stand-in's discovery document: GitHub's issuer, its own key set, the claims and algorithm GitHub advertises; every claim of its tokens among them", async () => {
    const emu = await emulator({ sso: { githubJob: { environment: 'production' } } })
    runnerEnv(emu)
    const res = await fetch(`${emu.url}/github-oidc/.well-known/openid-configuration`)
    expect(res.status).toBe(200)
    const discovery = (await res.json()) as Record<string, unknown>
    expect(discovery).toEqual({
      issuer: 'https://token.actions.githubusercontent.com',
      jwks_uri: `${emu.url}/github-oidc/.well-known/jwks`,
      subject_types_supported: ['public', 'pairwise'],
      response_types_supported: ['id_token'],
      claims_supported: expect.arrayContaining(['sub', 'aud', 'iss', 'repository', 'repository_owner_id', 'job_workflow_ref', 'runner_environment']),
      id_token_signing_alg_values_supported: ['RS256'],
      scopes_supported: ['openid']
    })
    // The key set it names is where the tokens' key is; every claim a token carries is one it advertises.
    const token = await getIDToken('api://x')
    const jwks = (await (await fetch(discovery.jwks_uri as string)).json()) as { keys: Array<{ kid?: string }> }
    const header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as { kid: string; alg: string }
    expect(jwks.keys.map((k) => k.kid)).toContain(header.kid)
    expect(discovery.id_token_signing_alg_values_supported).toContain(header.alg)
    const unadvertised = Object.keys(claimsOf(token)).filter((claim) => !(discovery.claims_supported as string[]).includes(claim))
    expect(unadvertised).toEqual([])
  })

  test('the identity provider trusts the subject glob the federation names: an environment-only trust refuses a branch job and admits the environment job', async () => {
    const federation = { subject: 'repo:acme/site:environment:production' }
    const branchJob = await emulator({ sso: { federation } })
    runnerEnv(branchJob)
    const refused = await tokenCall(branchJob, assertionForm(await getIDToken(branchJob.sso.oidcAudience)))
    expect(refused.body.error_description).toBe(
      'The client assertion is refused: its subject "repo:acme/site:ref:refs/heads/main" does not match "repo:acme/site:environment:production"'
    )
    const environmentJob = await emulator({ sso: { federation, githubJob: { environment: 'production' } } })
    runnerEnv(environmentJob)
    const admitted = await tokenCall(environmentJob, assertionForm(await getIDToken(environmentJob.sso.oidcAudience)))
    expect(admitted.res.status).toBe(200)
  })
})

describe("the GitHub OIDC stand-in's subject, in GitHub's forms", () => {
  const job = resolveSso({}).githubJob
  test.each([
    ['a job with an environment', { environment: 'production' }, 'repo:acme/site:environment:production'],
    [
      'the environment before a pull request',
      { environment: 'staging', eventName: 'pull_request', ref: 'refs/pull/7/merge' },
      'repo:acme/site:environment:staging'
    ],
    ['a pull request without an environment', { eventName: 'pull_request', ref: 'refs/pull/7/merge' }, 'repo:acme/site:pull_request'],
    ['a branch', { ref: 'refs/heads/release/2' }, 'repo:acme/site:ref:refs/heads/release/2'],
    ['a tag', { ref: 'refs/tags/v1.2.0', eventName: 'push' }, 'repo:acme/site:ref:refs/tags/v1.2.0'],
    ['a colon in a value, written %3A', { environment: 'Production:V1' }, 'repo:acme/site:environment:Production%3AV1'],
    ['another repository', { repository: 'octo-org/octo-repo' }, 'repo:octo-org/octo-repo:ref:refs/heads/main']
  ] as const)('%s', (_name, change, subject) => {
    expect(githubSubject({ ...job, ...change })).toBe(subject)
  })

  test('a tag is ref_type tag; no environment claim without one; the default audience is the owner', () => {
    const claims = githubClaims({ ...job, ref: 'refs/tags/v1', repository: 'octo-org/octo-repo' }, undefined, 1000)
    expect(claims).toMatchObject({ ref_type: 'tag', aud: 'https://github.com/octo-org', repository_owner: 'octo-org', iat: 1000, exp: 1300 })
    expect(claims).not.toHaveProperty('environment')
  })
})

describe('the cloud API on an SSO stack', () => {
  const login = (emu: Emulator): Promise<Response> =>
    fetch(`${emu.url}/v3/authn/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: emu.username, password: emu.password })
    })

  test.each([
    ['403', 403, { error_code: 'SsoEnabled', error_detail: 'Password login is disabled: this stack uses single sign-on' }],
    ['401', 401, { error_code: 'AuthenticationFailed', error_detail: 'Invalid username or password' }],
    ['404', 404, { error_code: 'NotFound', error_detail: 'No operation at "/v3/authn/access_token"' }]
  ] as const)('the disabled password login answers %s, and so do the refresh endpoints', async (passwordLogin, status, body) => {
    const emu = await emulator({ sso: { passwordLogin } })
    const res = await login(emu)
    expect(res.status).toBe(status)
    expect(await res.json()).toEqual(body)
    expect(res.headers.get('x-emulator-invented')?.split(', ')).toContain('sso-password-login')
    expect(emu.requests[0]?.json).toEqual({ username: emu.username, password: emu.password })
    for (const method of ['POST', 'DELETE']) {
      const refresh = await fetch(`${emu.url}/v3/authn/refresh_token`, { method, body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: 'x' }) })
      expect(refresh.status).toBe(status)
      await refresh.arrayBuffer()
    }
  })

  test('a password-login token of another emulator is refused; logout and revokeAccessTokens end IdP tokens', async () => {
    const plain = await emulator({})
    const plainToken = ((await (await login(plain)).json()) as { access_token: string }).access_token
    const emu = await emulator()
    const refused = await environments(emu, plainToken)
    expect(refused.status).toBe(401)
    expect(refused.body.error_detail).toMatch(/not signed by the identity provider/)

    const first = (await clientToken(emu)).access_token
    const logout = await fetch(`${emu.url}/v3/authn/logout`, { method: 'POST', headers: { authorization: `Bearer ${first}` } })
    expect(logout.status).toBe(200)
    expect((await environments(emu, first)).status).toBe(401)
    const second = (await clientToken(emu)).access_token
    emu.revokeAccessTokens()
    expect((await environments(emu, second)).status).toBe(401)
  })
})

describe('verify_token in both modes', () => {
  test('without SSO: 200 with X-User-Id and X-User-Role, the body as before; 401 for a bad token', async () => {
    const emu = await emulator({})
    expect(emu.sso).toBeUndefined()
    const login = await fetch(`${emu.url}/v3/authn/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: emu.username, password: emu.password })
    })
    const { access_token } = (await login.json()) as { access_token: string }
    const res = await verify(emu, access_token)
    expect(res.status).toBe(200)
    expect(res.headers.get('x-user-id')).toBe('deployer')
    expect(res.headers.get('x-user-role')).toBe('deployer')
    expect(res.headers.get('x-emulator-invented')).toBe('verify-body, user-role-value')
    expect(await res.json()).toEqual({ username: 'deployer', valid: true })
    expect((await verify(emu, 'nope')).status).toBe(401)
  })

  test("without SSO: a token from the password login's refresh gets the headers too", async () => {
    const emu = await emulator({})
    const login = await fetch(`${emu.url}/v3/authn/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: emu.username, password: emu.password })
    })
    const { refresh_token } = (await login.json()) as { refresh_token: string }
    const refreshed = await fetch(`${emu.url}/v3/authn/refresh_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'refresh_token', refresh_token })
    })
    const res = await verify(emu, ((await refreshed.json()) as { access_token: string }).access_token)
    expect(res.status).toBe(200)
    expect([res.headers.get('x-user-id'), res.headers.get('x-user-role')]).toEqual(['deployer', 'deployer'])
  })

  test("with SSO: the token's subject and the role; 401 for an expired or bad token", async () => {
    const emu = await emulator()
    const res = await verify(emu, (await clientToken(emu)).access_token)
    expect(res.status).toBe(200)
    expect(res.headers.get('x-user-id')).toBe('ci-client')
    expect(res.headers.get('x-user-role')).toBe('deployer')
    expect(res.headers.get('x-emulator-invented')).toBe('verify-body, user-role-value')
    const bad = await verify(emu, 'a.b.c')
    expect(bad.status).toBe(401)
    // 401 is public; AuthenticationFailed is public only for a failed login, so here the code is marked.
    expect(bad.headers.get('x-emulator-invented')).toBe('error-code')
    expect(((await bad.json()) as Record<string, unknown>).error_code).toBe('AuthenticationFailed')
  })
})

test('CLI: --sso, --sso-password-login, --sso-token-seconds, --sso-federation-subject and the OIDC job (--oidc-environment, --oidc-ref, --oidc-event)', () => {
  expect(parseCli([])).not.toHaveProperty('options.sso')
  expect(parseCli(['--sso'])).toMatchObject({ options: { sso: {} } })
  expect(parseCli(['--sso-password-login=404', '--sso-token-seconds=5'])).toMatchObject({ options: { sso: { passwordLogin: '404', accessTokenSeconds: 5 } } })
  expect(() => parseCli(['--sso-password-login=500'])).toThrow(/403 or 401 or 404/)
  expect(() => parseCli(['--sso-token-seconds=0'])).toThrow(/>= 1/)
  expect(parseCli(['--fail', 'idp-token:503'])).toMatchObject({ options: { faults: [{ operation: 'idp-token', status: 503 }] } })
  expect(parseCli(['--oidc-environment', 'production'])).toMatchObject({ options: { sso: { githubJob: { environment: 'production' } } } })
  expect(parseCli(['--sso', '--oidc-ref', 'refs/pull/7/merge', '--oidc-event', 'pull_request'])).toMatchObject({
    options: { sso: { githubJob: { ref: 'refs/pull/7/merge', eventName: 'pull_request' } } }
  })
  expect(parseCli(['--sso'])).not.toHaveProperty('options.sso.githubJob')
  expect(parseCli(['--sso-federation-subject', 'repo:acme/site:environment:production'])).toMatchObject({
    options: { sso: { federation: { subject: 'repo:acme/site:environment:production' } } }
  })
  expect(() => parseCli(['--sso-federation-subject='])).toThrow(/--sso-federation-subject needs a subject/)
  expect(() => parseCli(['--oidc-ref', 'main'])).toThrow(/--oidc-ref needs a full ref/)
  expect(() => parseCli(['--oidc-event', 'Pull Request'])).toThrow(/--oidc-event needs an event name/)
  expect(() => parseCli(['--oidc-environment', ' '])).toThrow(/--oidc-environment needs an environment name/)
})
