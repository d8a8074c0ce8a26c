// Single sign-on, end to end: the bundled action against the emulator in SSO mode (its stand-in identity
// provider and GitHub OIDC token service, the cloud API accepting only the provider's tokens), over real
// HTTP. Each grant deploys with tokens that expire during a follow longer than their life; each refusal is said before any
// change. The sweep after each test checks that no secret (client secret, assertion, tokens) was printed.
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import type { EmulatorOptions, SsoOptions } from '../src/emulator/types.js'
import { ops, release, run, sweepAndClose } from './e2e-support.js'

let emu: Emulator
afterEach(async () => {
  await sweepAndClose(emu, emu.sso ? [emu.sso.clientSecret] : [])
})

async function ssoStack(sso: SsoOptions = {}, options: EmulatorOptions = {}): Promise<NonNullable<Emulator['sso']>> {
  emu = await startEmulator({ sso, ...options })
  if (emu.sso === undefined) throw new Error('the emulator started without SSO')
  return emu.sso
}

/**
 * A switch of 2 s, longer than the 90% of a 2 s token at which the session renews: the look that sees it done is made
 * with a token asked again. The cloud API accepts a token a minute past its exp (clock skew), since exp is whole
 * seconds and a 2 s token may die after 1 s: a refusal, and the renewal it forces, would then depend on the
 * machine's speed; as it is, every renewal seen is the session's own.
 */
const FOLLOW: EmulatorOptions = { deploySeconds: 2, tokenClockSkewSeconds: 60 }

const base = (over: Record<string, string>) => ({ 'api-url': emu.url, distribution: release('sso'), environment: 'development', ...over })

/** The provider's token calls, by grant. */
const grants = () => ops(emu, 'idp-token').map((r) => (r.json as { grant_type?: string }).grant_type)

describe('single sign-on: each grant deploys, with tokens renewed during a long follow', () => {
  test('client credentials with an audience: never the password login; verify_token before the upload', async () => {
    const sso = await ssoStack({ accessTokenSeconds: 2 }, FOLLOW)
    const r = await run(base({ 'token-url': sso.tokenUrl, 'client-id': sso.clientId, 'client-secret': sso.clientSecret, audience: sso.audience }))
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(ops(emu, 'login')).toEqual([])
    expect(r.visible).toContain(`The stack accepts the token: user ${sso.clientId}, role deployer.`)
    const order = emu.requests.map((q) => q.operation)
    expect(order.indexOf('verify')).toBeLessThan(order.indexOf('upload'))
    // Tokens living 2 s over a 2 s switch: asked again (no refresh token for client credentials).
    expect(grants().length).toBeGreaterThanOrEqual(2)
    expect(grants().every((g) => g === 'client_credentials')).toBe(true)
    // Renewed before any refusal: the session's own renewal.
    expect(emu.requests.filter((q) => q.status === 401)).toEqual([])
    expect(ops(emu, 'deploy').map((q) => q.status)).toEqual([202])
    expect(r.visible).toMatch(/Token: nothing to revoke: .* gave no refresh token/)
    expect(ops(emu, 'idp-revoke')).toEqual([])
  })

  test("a script account's password grant: renewed by the refresh grant, the refresh token revoked at the end", async () => {
    const sso = await ssoStack({ accessTokenSeconds: 2 }, FOLLOW)
    const r = await run(
      base({
        'token-url': sso.tokenUrl,
        username: emu.username,
        password: emu.password,
        'client-id': sso.clientId,
        'client-secret': sso.clientSecret,
        audience: sso.audience
      })
    )
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(grants()[0]).toBe('password')
    expect(grants().slice(1)).toContain('refresh_token')
    expect(emu.requests.filter((q) => q.status === 401)).toEqual([])
    const revoked = ops(emu, 'idp-revoke')
    expect(revoked).toHaveLength(1)
    expect(revoked[0]?.json).toMatchObject({ token_type_hint: 'refresh_token' })
    expect(r.visible.split('\n').filter((l) => /revok/i.test(l))).toEqual([`Revoked this run's refresh token at ${sso.revocationUrl ?? ''}.`])
  })

  test("GitHub's OIDC token as the client's assertion: no secret in the workflow", async () => {
    const sso = await ssoStack({ accessTokenSeconds: 2 }, FOLLOW)
    const r = await run(base({ 'token-url': sso.tokenUrl, 'client-id': sso.federatedClientId, 'oidc-audience': sso.oidcAudience, audience: sso.audience }), {
      env: { ACTIONS_ID_TOKEN_REQUEST_URL: sso.oidcRequestUrl, ACTIONS_ID_TOKEN_REQUEST_TOKEN: sso.oidcRequestToken }
    })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const oidc = ops(emu, 'oidc-token')
    expect(oidc.length).toBeGreaterThanOrEqual(2) // a fresh one for each grant
    expect(oidc[0]?.url).toContain(`audience=${encodeURIComponent(sso.oidcAudience)}`)
    const first = ops(emu, 'idp-token')[0]?.json as Record<string, string>
    expect(first).toMatchObject({
      grant_type: 'client_credentials',
      client_id: sso.federatedClientId,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'
    })
    expect(first.client_secret).toBeUndefined()
    expect(r.visible).toContain(`user ${sso.federatedClientId}`)
  })

  test('a stack whose verify_token cannot say (404): the run goes on, saying so; the first call tells', async () => {
    const sso = await ssoStack()
    emu.addFault({ operation: 'verify', kind: 'status', status: 404, times: 1 })
    const r = await run(base({ 'token-url': sso.tokenUrl, 'client-id': sso.clientId, 'client-secret': sso.clientSecret, audience: sso.audience }))
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.visible).toMatch(
      /The stack could not say whether it accepts the token \(Checking the token failed: HTTP 404.*going on: the first call will tell\./
    )
    expect(ops(emu, 'deploy').map((q) => q.status)).toEqual([202])
  })

  test('a ready access-token: used as is, never renewed or revoked', async () => {
    const sso = await ssoStack({ accessTokenSeconds: 3600 })
    const res = await fetch(sso.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: sso.clientId, client_secret: sso.clientSecret, audience: sso.audience })
    })
    const token = ((await res.json()) as { access_token: string }).access_token
    const before = ops(emu, 'idp-token').length
    const r = await run(base({ 'access-token': token }))
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(ops(emu, 'idp-token')).toHaveLength(before)
    expect(ops(emu, 'idp-revoke')).toEqual([])
    expect(r.visible).toMatch(/Token: nothing revoked: access-token was made by an earlier step/)
  })
})

describe('single sign-on: refusals are said before any change', () => {
  test('a wrong client secret: the provider refuses, nothing is uploaded', async () => {
    const sso = await ssoStack()
    const r = await run(base({ 'token-url': sso.tokenUrl, 'client-id': sso.clientId, 'client-secret': 'not-the-secret', audience: sso.audience }))
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(/HTTP 401 invalid_client.*Check client-id and client-secret/)
    expect(ops(emu, 'upload')).toEqual([])
    // Refused in the body, then once with HTTP Basic (a client registered for Basic only refuses the body): no more.
    const tries = ops(emu, 'idp-token')
    expect(tries.map((q) => [typeof (q.json as Record<string, unknown>).client_secret, /^Basic /.test(q.headers.authorization ?? '')])).toEqual([
      ['string', false],
      ['undefined', true]
    ])
  })

  test('a wrong audience: the stack refuses the token at verify_token, before packing; the message points at audience and scope', async () => {
    const sso = await ssoStack()
    const r = await run(base({ 'token-url': sso.tokenUrl, 'client-id': sso.clientId, 'client-secret': sso.clientSecret, audience: 'another-api' }))
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/The stack refused the token \(HTTP 401.*before any change\..*audience: another-api/)
    expect(r.visible).not.toContain('Prepare the distribution')
    expect(emu.requests.map((q) => q.operation).filter((o) => !o.startsWith('idp') && o !== 'verify')).toEqual([])
  })

  test('an access-token that has expired: refused before any request', async () => {
    await ssoStack()
    const expired = `e30.${Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) - 60 })).toString('base64url')}.c2ln`
    const r = await run(base({ 'access-token': expired }))
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/access-token expired at/)
    expect(emu.requests).toEqual([])
  })

  test('oidc-audience without id-token: write: the message names the permission, no request', async () => {
    const sso = await ssoStack()
    const r = await run(base({ 'token-url': sso.tokenUrl, 'client-id': sso.federatedClientId, 'oidc-audience': sso.oidcAudience }))
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/add 'permissions: id-token: write' to the job/)
    expect(emu.requests).toEqual([])
  })

  test('the token endpoint answering 5xx: retried; when it goes on failing, the step says so', async () => {
    const sso = await ssoStack()
    emu.addFault({ operation: 'idp-token', kind: 'status', status: 503, times: 1 })
    const inputs = base({
      'token-url': sso.tokenUrl,
      'client-id': sso.clientId,
      'client-secret': sso.clientSecret,
      audience: sso.audience,
      'max-attempts': '2'
    })
    const ok = await run(inputs)
    expect(ok.code).toBe(0)
    expect(
      ops(emu, 'idp-token')
        .map((q) => q.status)
        .slice(0, 2)
    ).toEqual([503, 200])

    emu.addFault({ operation: 'idp-token', kind: 'status', status: 500, times: 5 })
    const failed = await run({ ...inputs, distribution: release('sso-2') })
    expect(failed.code).toBe(1)
    expect(failed.errors[0]).toMatch(/Getting a token from .* HTTP 500/)
    expect(ops(emu, 'upload')).toHaveLength(1)
  })

  test('the password login against a stack with single sign-on: refused, naming single sign-on and token-url', async () => {
    await ssoStack()
    const r = await run(base({ username: emu.username, password: emu.password }))
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(
      /Login to .* was refused \(HTTP 403 SsoEnabled\)\. If this stack uses single sign-on, its password login is disabled: log in through your identity provider with token-url/
    )
    expect(r.errors[0]).toContain('docs/single-sign-on.md')
  })
})
