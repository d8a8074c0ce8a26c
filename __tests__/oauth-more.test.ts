// More of the token endpoint login's claims (src/cloud/login/oauth.ts), in-process over real HTTP: the password
// and OIDC assertion grants' requests and refusals, the advice for each OAuth error, answers that are not
// OAuth's, the run's stop, the closing calls, retries, and where (and whether) the refresh token is revoked.
// The emulator's identity provider serves the usual answers; a small stand-in of this file serves the odd ones.
import { jest } from '@jest/globals'
import { getEventListeners } from 'node:events'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as oauth from 'oauth4webapi'
import { startEmulator, type Emulator, type SsoHandle } from '../src/emulator/server.js'
import { OAuthLogin, TokenEndpointError } from '../src/cloud/login/oauth.js'
import { oauthInputs, printed, type OAuthInputs } from './oauth-fixtures.js'
import { SSO_DOCS_URL } from '../src/cloud/login/method.js'
import { ActionError } from '../src/errors.js'

let emu: Emulator
let sso: SsoHandle
beforeAll(async () => {
  emu = await startEmulator({ sso: {} })
  if (emu.sso === undefined) throw new Error('no SSO')
  sso = emu.sso
})
afterAll(async () => {
  await emu.close()
})
afterEach(() => {
  jest.restoreAllMocks()
})

const inputs = (over: Partial<OAuthInputs> = {}): OAuthInputs => oauthInputs(sso, over)

const calls = (operation: string, from = 0) => emu.requests.slice(from).filter((r) => r.operation === operation)
const message = (e: unknown): string => (e instanceof Error ? e.message : String(e))
const transientOf = (e: unknown): boolean | undefined => (e instanceof TokenEndpointError ? e.transient : undefined)
const getting = (url: string, what: string): string => `Getting a token from ${url} with ${what}`

/** A GitHub OIDC token for `audience` from the emulator's stand-in, as @actions/core would ask for it. */
async function oidcToken(audience: string): Promise<string> {
  const res = await fetch(`${sso.oidcRequestUrl}&audience=${encodeURIComponent(audience)}`, {
    headers: { authorization: `Bearer ${sso.oidcRequestToken}` }
  })
  return ((await res.json()) as { value: string }).value
}

interface Seen {
  method: string
  path: string
  headers: IncomingHttpHeaders
  form: Record<string, string>
}
interface Answer {
  status: number
  headers?: Record<string, string>
  /** A string is sent as it is; anything else as JSON. */
  body?: unknown
}

/** A token endpoint of this file's own that answers what the test says, and records what it was sent. */
async function standIn(
  answer: (seen: Seen) => Answer
): Promise<{ base: string; tokenUrl: string; seen: Seen[]; connections: () => Promise<number>; close: () => Promise<void> }> {
  const seen: Seen[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const one: Seen = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        form: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')))
      }
      seen.push(one)
      const a = answer(one)
      const text = typeof a.body === 'string' ? a.body : a.body === undefined ? '' : JSON.stringify(a.body)
      const type = typeof a.body === 'string' ? 'text/plain' : 'application/json'
      res.writeHead(a.status, { 'content-type': type, ...a.headers }).end(text)
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    base,
    tokenUrl: `${base}/t/oauth/token`,
    seen,
    connections: () => new Promise<number>((done, fail) => server.getConnections((error, count) => (error ? fail(error) : done(count)))),
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((done) => server.close(() => done()))
    }
  }
}

describe('the password grant', () => {
  test('sends the script account with the client, gives a refresh token, renews with it and revokes it at the end', async () => {
    const from = emu.requests.length
    const login = new OAuthLogin(inputs({ grant: 'password', username: emu.username, password: emu.password }), { attempts: 1 })
    expect(login.who).toBe(emu.username)
    const first = (await printed(() => login.obtain())).value ?? { accessToken: '' }
    expect(first.expiresInSeconds).toBe(600)
    expect(first.refreshToken).toEqual(expect.any(String))
    expect(calls('idp-token', from).map((r) => r.json)).toEqual([
      {
        grant_type: 'password',
        username: emu.username,
        password: emu.password,
        audience: sso.audience,
        client_id: sso.clientId,
        client_secret: sso.clientSecret
      }
    ])
    const renewed = await printed(() => login.refresh(undefined, first.refreshToken ?? ''))
    expect(renewed.value?.refreshToken).toBe(first.refreshToken)
    expect(calls('idp-token', from)[1]?.json).toEqual({
      grant_type: 'refresh_token',
      refresh_token: first.refreshToken,
      audience: sso.audience,
      client_id: sso.clientId,
      client_secret: sso.clientSecret
    })
    const revokedTokens: string[] = []
    const { value, lines } = await printed(() => login.revoke(undefined, [first.refreshToken ?? ''], (t) => revokedTokens.push(t)))
    expect(value).toBeUndefined()
    expect(lines).toEqual([`Revoked this run's refresh token at ${sso.revocationUrl ?? ''}.`])
    expect(revokedTokens).toEqual([first.refreshToken])
    expect(login.revoked).toBe(true)
    expect(calls('idp-revoke', from).map((r) => r.json)).toEqual([
      { token: first.refreshToken, token_type_hint: 'refresh_token', client_id: sso.clientId, client_secret: sso.clientSecret }
    ])
    // The run's end closed the connections: nothing more goes out.
    const after = await printed(() => login.obtain())
    expect(message(after.error)).toMatch(/could not be reached/)
    expect(calls('idp-token', from)).toHaveLength(2)
  })

  test('where to revoke is looked up as soon as a refresh token arrives, before the run ends', async () => {
    const looked = new Promise<void>((done) => emu.onRequest('idp-discovery', () => done()))
    const login = new OAuthLogin(inputs({ grant: 'password', username: emu.username, password: emu.password }), { attempts: 1 })
    await printed(() => login.obtain())
    await looked
  }, 15_000)

  test('without client-id a refresh token is not revocable: its metadata is never looked up', async () => {
    const from = emu.requests.length
    const login = new OAuthLogin(inputs({ grant: 'password', username: emu.username, password: emu.password, clientId: undefined, clientSecret: undefined }), {
      attempts: 1
    })
    const grant = await printed(() => login.obtain())
    expect(grant.value?.refreshToken).toEqual(expect.any(String))
    expect(login.who).toBe(emu.username)
    // The run's end waits for the calls still going on the connections, then closes them.
    const { value } = await printed(() => login.revoke(undefined, [grant.value?.refreshToken ?? '']))
    expect(value).toBeUndefined()
    expect(calls('idp-token', from).map((r) => r.json)).toEqual([
      { grant_type: 'password', username: emu.username, password: emu.password, audience: sso.audience }
    ])
    expect(calls('idp-discovery', from)).toEqual([])
  })

  test('a client without a secret is named in the body, and the password grant passes', async () => {
    const from = emu.requests.length
    const login = new OAuthLogin(inputs({ grant: 'password', username: emu.username, password: emu.password, clientSecret: undefined }), { attempts: 1 })
    const { value, error } = await printed(() => login.obtain())
    expect(error).toBeUndefined()
    expect(value?.accessToken).toMatch(/^ey/)
    expect(calls('idp-token', from).map((r) => r.json)).toEqual([
      { grant_type: 'password', username: emu.username, password: emu.password, audience: sso.audience, client_id: sso.clientId }
    ])
  })

  test('no username nor password: both sent empty, and the refusal names the grant', async () => {
    const from = emu.requests.length
    const { error, lines } = await printed(() => new OAuthLogin(inputs({ grant: 'password' }), { attempts: 1 }).obtain())
    expect(message(error)).toBe(
      `${getting(sso.tokenUrl, "the password grant for ''")}: HTTP 400 invalid_request: The password grant needs "username" and "password". See ${SSO_DOCS_URL}.`
    )
    expect(transientOf(error)).toBe(false)
    expect(lines).toEqual([])
    expect(calls('idp-token', from).map((r) => r.json)).toEqual([
      { grant_type: 'password', username: '', password: '', audience: sso.audience, client_id: sso.clientId, client_secret: sso.clientSecret }
    ])
  })

  test('a wrong password, or none: the advice is about the script account', async () => {
    const from = emu.requests.length
    const advice = 'Check username and password: the identity provider did not accept the script account (it must be allowed to log in without a browser).'
    for (const password of ['wrong-password', undefined]) {
      const { error } = await printed(() => new OAuthLogin(inputs({ grant: 'password', username: emu.username, password }), { attempts: 1 }).obtain())
      expect(message(error)).toBe(
        `${getting(sso.tokenUrl, `the password grant for '${emu.username}'`)}: HTTP 400 invalid_grant: Wrong username or password. ${advice}`
      )
    }
    expect(calls('idp-token', from).map((r) => (r.json as Record<string, string>).password)).toEqual(['wrong-password', ''])
  })
})

describe('client credentials without a secret', () => {
  test('no client at all: nothing identifies it, the refusal is said once and not tried again with HTTP Basic', async () => {
    const from = emu.requests.length
    const login = new OAuthLogin(inputs({ clientId: undefined, clientSecret: undefined }), { attempts: 1 })
    const { error, lines } = await printed(() => login.obtain())
    expect(message(error)).toBe(
      `${getting(sso.tokenUrl, "the client credentials of ''")}: HTTP 401 invalid_client: The client_credentials grant needs client authentication. Check client-id and client-secret: the identity provider did not accept them.`
    )
    expect(transientOf(error)).toBe(false)
    expect(lines).toEqual([])
    const sent = calls('idp-token', from)
    expect(sent.map((r) => r.json)).toEqual([{ grant_type: 'client_credentials', audience: sso.audience }])
    expect(sent[0]?.headers.authorization).toBeUndefined()
  })

  test('a client id alone is sent as it is, and refused without another try', async () => {
    const from = emu.requests.length
    const { error, lines } = await printed(() => new OAuthLogin(inputs({ clientSecret: undefined }), { attempts: 1 }).obtain())
    expect(message(error)).toBe(
      `${getting(sso.tokenUrl, `the client credentials of '${sso.clientId}'`)}: HTTP 401 invalid_client: The client_credentials grant needs client authentication. Check client-id and client-secret: the identity provider did not accept them.`
    )
    expect(lines).toEqual([])
    expect(calls('idp-token', from).map((r) => r.json)).toEqual([{ grant_type: 'client_credentials', audience: sso.audience, client_id: sso.clientId }])
  })
})

test('once the secret went with HTTP Basic, the next grant sends it that way at once', async () => {
  const login = new OAuthLogin(inputs({ clientSecret: 'wrong-secret-000' }), { attempts: 1 })
  await printed(() => login.obtain())
  const from = emu.requests.length
  const { error, lines } = await printed(() => login.obtain())
  expect(message(error)).toBe(
    `${getting(sso.tokenUrl, `the client credentials of '${sso.clientId}'`)}: HTTP 401 invalid_client (with the secret in the body, then with HTTP Basic). Check client-id and client-secret: the identity provider did not accept them.`
  )
  expect(lines).toEqual([])
  const sent = calls('idp-token', from)
  expect(sent).toHaveLength(1)
  expect(sent[0]?.headers.authorization).toMatch(/^Basic /)
  expect(sent[0]?.json).toEqual({ grant_type: 'client_credentials', audience: sso.audience })
})

describe("GitHub's OIDC token as the client's assertion", () => {
  test('the token goes in the body as a JWT bearer assertion for the federated client, with no secret', async () => {
    const from = emu.requests.length
    const asked: string[] = []
    let given = ''
    const idToken = async (audience: string): Promise<string> => {
      asked.push(audience)
      given = await oidcToken(audience)
      return given
    }
    const login = new OAuthLogin(
      inputs({ grant: 'client_assertion', clientId: sso.federatedClientId, clientSecret: undefined, oidcAudience: sso.oidcAudience }),
      { attempts: 1, idToken }
    )
    const { value, error } = await printed(() => login.obtain())
    expect(error).toBeUndefined()
    expect(value?.accessToken).toMatch(/^ey/)
    expect(asked).toEqual([sso.oidcAudience])
    expect(calls('idp-token', from).map((r) => r.json)).toEqual([
      {
        grant_type: 'client_credentials',
        audience: sso.audience,
        client_id: sso.federatedClientId,
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: given
      }
    ])
  })

  test('refused: the advice names the issuer, audience and client the provider must trust', async () => {
    const asked: string[] = []
    const idToken = async (audience: string): Promise<string> => {
      asked.push(audience)
      return Promise.resolve('not-a-jwt')
    }
    const run = (over: Partial<OAuthInputs>) =>
      printed(() => new OAuthLogin(inputs({ grant: 'client_assertion', clientSecret: undefined, ...over }), { attempts: 1, idToken }).obtain())
    const named = await run({ clientId: sso.federatedClientId, oidcAudience: 'api://x' })
    expect(message(named.error)).toBe(
      `${getting(sso.tokenUrl, "GitHub's OIDC token as the client's assertion")}: HTTP 401 invalid_client: The client assertion is refused: it is malformed. The identity provider did not accept GitHub's OIDC token: check that it trusts this repository's tokens (issuer https://token.actions.githubusercontent.com, audience 'api://x', the subject of this workflow) for client '${sso.federatedClientId}'.`
    )
    const unnamed = await run({ clientId: undefined, oidcAudience: undefined })
    expect(message(unnamed.error)).toBe(
      `${getting(sso.tokenUrl, "GitHub's OIDC token as the client's assertion")}: HTTP 401 invalid_client: The client assertion is refused: it is malformed. The identity provider did not accept GitHub's OIDC token: check that it trusts this repository's tokens (issuer https://token.actions.githubusercontent.com, audience '', the subject of this workflow) for client ''.`
    )
    expect(asked).toEqual(['api://x', ''])
  })
})

describe('the run stopped', () => {
  test('while asking GitHub for its token: the stop itself, not a refusal', async () => {
    const reason = new Error('the run was cancelled')
    const idToken = (): Promise<string> => new Promise<string>(() => undefined)
    const login = new OAuthLogin(inputs({ grant: 'client_assertion', clientId: sso.federatedClientId, clientSecret: undefined, oidcAudience: 'api://x' }), {
      attempts: 1,
      idToken,
      signal: AbortSignal.abort(reason)
    })
    const { error } = await printed(() => login.obtain())
    expect(error).toBe(reason)
  })

  test('before the token endpoint answered: the stop itself, whatever it is', async () => {
    const reason = new TypeError('stopped by the watchdog')
    const { error } = await printed(() => new OAuthLogin(inputs(), { attempts: 1, signal: AbortSignal.abort(reason) }).obtain())
    expect(error).toBe(reason)
  })

  test.each([
    ['an error of no kind the action knows: another try would be made', new Error('connection lost'), true],
    ["the action's own error: not tried again", new ActionError('refused'), false],
    ["oauth4webapi's processing error: not tried again", new oauth.OperationProcessingError('bad answer'), false],
    ['not an error at all: not tried again', 'stop', false]
  ])('%s', async (_what, reason, retried) => {
    jest.spyOn(Math, 'random').mockReturnValue(0.5)
    const { error, lines } = await printed(() => new OAuthLogin(inputs(), { attempts: 2, signal: AbortSignal.abort(reason) }).obtain())
    expect(error).toBe(reason)
    const describe = reason instanceof Error ? reason.message : reason
    expect(lines).toEqual(
      retried ? [`${getting(sso.tokenUrl, `the client credentials of '${sso.clientId}'`)}: attempt 1 failed (${describe}); retrying in 0.5 s`] : []
    )
  })
})

describe('retries and the closing calls', () => {
  test('a 503 is tried again (said on the log), and the second try gives the token', async () => {
    jest.spyOn(Math, 'random').mockReturnValue(0)
    const from = emu.requests.length
    emu.addFault({ operation: 'idp-token', kind: 'status', status: 503, times: 1 })
    const { value, error, lines } = await printed(() => new OAuthLogin(inputs(), { attempts: 2 }).obtain())
    expect(error).toBeUndefined()
    expect(value?.accessToken).toMatch(/^ey/)
    expect(lines).toEqual([
      `${getting(sso.tokenUrl, `the client credentials of '${sso.clientId}'`)}: attempt 1 failed (${getting(sso.tokenUrl, `the client credentials of '${sso.clientId}'`)}: HTTP 503, not an OAuth answer ("response" is not a conform Token Endpoint response (unexpected HTTP status code)).); retrying in 0.0 s`
    ])
    expect(calls('idp-token', from)).toHaveLength(2)
  })

  test('a closing call gets one attempt, whatever the attempts', async () => {
    jest.spyOn(Math, 'random').mockReturnValue(0)
    const from = emu.requests.length
    emu.addFault({ operation: 'idp-token', kind: 'status', status: 503, times: 1 })
    const login = new OAuthLogin(inputs(), { attempts: 3 })
    login.reroute(30_000)
    const { error, lines } = await printed(() => login.obtain())
    expect(message(error)).toBe(
      `${getting(sso.tokenUrl, `the client credentials of '${sso.clientId}'`)}: HTTP 503, not an OAuth answer ("response" is not a conform Token Endpoint response (unexpected HTTP status code)).`
    )
    expect(transientOf(error)).toBe(true)
    expect(lines).toEqual([])
    expect(calls('idp-token', from)).toHaveLength(1)
  })

  test("a closing call's own limit: no answer within it, which may pass", async () => {
    emu.addFault({ operation: 'idp-token', kind: 'hang', times: 1 })
    const login = new OAuthLogin(inputs(), { attempts: 1 })
    login.reroute(200)
    const { error } = await printed(() => login.obtain())
    expect(message(error)).toBe(`${getting(sso.tokenUrl, `the client credentials of '${sso.clientId}'`)}: no answer from ${sso.tokenUrl} within 200 ms.`)
    expect(transientOf(error)).toBe(true)
  })

  test.each([
    [500, 'HTTP 500, not an OAuth answer ("response" is not a conform Token Endpoint response (unexpected HTTP status code)).', true],
    [400, `HTTP 400 server_error: Emulated fault on idp-token. See ${SSO_DOCS_URL}.`, false],
    // Found by the simulation (a 429 read as a refused login: no retry, exit 4): a rate limit is worth another try.
    [429, `HTTP 429 server_error: Emulated fault on idp-token. See ${SSO_DOCS_URL}.`, true]
  ])('the identity provider answers %i: said as it is, worth another try or not', async (status, said, transient) => {
    emu.addFault({ operation: 'idp-token', kind: 'status', status, times: 1 })
    const { error } = await printed(() => new OAuthLogin(inputs(), { attempts: 1 }).obtain())
    expect(message(error)).toBe(`${getting(sso.tokenUrl, `the client credentials of '${sso.clientId}'`)}: ${said}`)
    expect(transientOf(error)).toBe(transient)
  })

  test('plain http to an address that is not this machine is refused before anything is sent', async () => {
    const url = sso.tokenUrl.replace('127.0.0.1', '0.0.0.0')
    const from = emu.requests.length
    const { error } = await printed(() => new OAuthLogin(inputs({ tokenUrl: url }), { attempts: 1 }).obtain())
    expect(message(error)).toBe(`${getting(url, `the client credentials of '${sso.clientId}'`)}: only requests to HTTPS are allowed.`)
    expect(transientOf(error)).toBe(false)
    expect(calls('idp-token', from)).toHaveLength(0)
  })
})

describe('the revocation at the end', () => {
  test('without client-id nothing can be revoked, and nothing is asked', async () => {
    const from = emu.requests.length
    const login = new OAuthLogin(inputs({ clientId: undefined, clientSecret: undefined }), { attempts: 1 })
    const revokedTokens: string[] = []
    const { value, lines } = await printed(() => login.revoke(undefined, ['rt-1'], (t) => revokedTokens.push(t)))
    expect(value).toBeUndefined()
    expect(lines).toEqual([
      'Token: nothing revoked: revoking a refresh token needs the client it was issued to (client-id), and none is set; it expires by itself.'
    ])
    expect(revokedTokens).toEqual([])
    expect(emu.requests.slice(from)).toEqual([])
  })

  test('an endpoint that names no revocation endpoint: said once, however many tokens', async () => {
    const plain = await startEmulator({ sso: { revocation: false } })
    try {
      const tokenUrl = plain.sso?.tokenUrl ?? ''
      const login = new OAuthLogin(inputs({ tokenUrl }), { attempts: 1 })
      const revokedTokens: string[] = []
      const { value, lines } = await printed(() => login.revoke(undefined, ['rt-1', 'rt-2'], (t) => revokedTokens.push(t)))
      expect(value).toBeUndefined()
      expect(lines).toEqual([
        `Token: nothing revoked: ${tokenUrl} names no revocation endpoint in its metadata, so this run's refresh token is left to expire by itself.`
      ])
      expect(revokedTokens).toEqual([])
      expect(login.revoked).toBe(false)
    } finally {
      await plain.close()
    }
  })

  test('the revocation endpoint fails: the first failure is said, with where', async () => {
    emu.addFault({ operation: 'idp-revoke', kind: 'status', status: 503, times: 2 })
    const login = new OAuthLogin(inputs(), { attempts: 1 })
    const revokedTokens: string[] = []
    const { value } = await printed(() => login.revoke(undefined, ['rt-1', 'rt-2'], (t) => revokedTokens.push(t)))
    expect(value).toBe(`revoking at ${sso.revocationUrl ?? ''}: "response" is not a conform Revocation Endpoint response (unexpected HTTP status code)`)
    expect(revokedTokens).toEqual([])
    expect(login.revoked).toBe(false)
  })

  test("a closing look for the metadata within the closing call's limit; none was made early without a refresh token", async () => {
    const login = new OAuthLogin(inputs(), { attempts: 1 })
    const grant = await printed(() => login.obtain())
    expect(grant.value?.refreshToken).toBeUndefined()
    emu.addFault({ operation: 'idp-discovery', kind: 'apply-then-delay', delayMs: 300, times: 4 })
    login.reroute(100)
    const { value } = await printed(() => login.revoke(undefined, ['rt-1']))
    expect(value).toBe(`finding where ${sso.tokenUrl} revokes tokens: its metadata could not be read (TimeoutError: no answer within 0 s)`)
  })
})

describe('answers of a token endpoint that does its own thing', () => {
  const advice = {
    client: 'Check client-id and client-secret: the identity provider did not accept them.',
    password: 'Check username and password: the identity provider did not accept the script account (it must be allowed to log in without a browser).',
    audience: `Check audience and scope: ask your identity provider (or Bloomreach support) which the stack's API expects. See ${SSO_DOCS_URL}.`,
    grant: `The client may not use this grant at the identity provider. See ${SSO_DOCS_URL}.`,
    docs: `See ${SSO_DOCS_URL}.`,
    oidc: "The identity provider did not accept GitHub's OIDC token: check that it trusts this repository's tokens (issuer https://token.actions.githubusercontent.com, audience 'api://x', the subject of this workflow) for client 'fed'."
  }
  const grants = {
    client_credentials: { grant: 'client_credentials', clientId: 'cid', clientSecret: undefined, what: "the client credentials of 'cid'" },
    password: { grant: 'password', clientId: 'cid', clientSecret: undefined, username: 'svc', password: 'pw', what: "the password grant for 'svc'" },
    client_assertion: {
      grant: 'client_assertion',
      clientId: 'fed',
      clientSecret: undefined,
      oidcAudience: 'api://x',
      what: "GitHub's OIDC token as the client's assertion"
    }
  } as const

  test.each([
    ['client_credentials', 'invalid_client', advice.client],
    ['password', 'invalid_client', advice.client],
    ['client_assertion', 'invalid_client', advice.oidc],
    ['password', 'invalid_grant', advice.password],
    ['client_credentials', 'invalid_grant', advice.docs],
    ['client_assertion', 'invalid_grant', advice.docs],
    ['client_credentials', 'invalid_scope', advice.audience],
    ['client_credentials', 'invalid_target', advice.audience],
    ['client_credentials', 'access_denied', advice.audience],
    ['password', 'unauthorized_client', advice.grant],
    ['client_credentials', 'unsupported_grant_type', advice.grant],
    ['client_credentials', 'server_error', advice.docs]
  ] as const)('%s refused with %s', async (grant, code, said) => {
    const idp = await standIn(() => ({ status: code === 'invalid_client' ? 401 : 400, body: { error: code, error_description: 'no.' } }))
    try {
      const { what, ...over } = grants[grant]
      const login = new OAuthLogin(inputs({ ...over, tokenUrl: idp.tokenUrl }), { attempts: 1, idToken: () => Promise.resolve('gh-token') })
      const { error } = await printed(() => login.obtain())
      expect(message(error)).toBe(`${getting(idp.tokenUrl, what)}: HTTP ${code === 'invalid_client' ? 401 : 400} ${code}: no.. ${said}`)
      expect(transientOf(error)).toBe(false)
      expect(idp.seen).toHaveLength(1)
    } finally {
      await idp.close()
    }
  })

  test('an error without a description is said by its code alone', async () => {
    const idp = await standIn(() => ({ status: 400, body: { error: 'invalid_scope' } }))
    try {
      const { error } = await printed(() => new OAuthLogin(inputs({ tokenUrl: idp.tokenUrl, clientSecret: undefined }), { attempts: 1 }).obtain())
      expect(message(error)).toBe(`${getting(idp.tokenUrl, `the client credentials of '${sso.clientId}'`)}: HTTP 400 invalid_scope. ${advice.audience}`)
    } finally {
      await idp.close()
    }
  })

  test('a challenge in WWW-Authenticate: its error when one names it, else invalid_client', async () => {
    let challenge = 'Basic realm="idp"'
    const idp = await standIn(() => ({ status: 401, headers: { 'www-authenticate': challenge }, body: {} }))
    try {
      const login = new OAuthLogin(inputs({ tokenUrl: idp.tokenUrl, clientSecret: undefined }), { attempts: 1 })
      const plain = await printed(() => login.obtain())
      expect(message(plain.error)).toBe(`${getting(idp.tokenUrl, `the client credentials of '${sso.clientId}'`)}: HTTP 401 invalid_client. ${advice.client}`)
      expect(transientOf(plain.error)).toBe(false)
      challenge = 'Basic realm="idp", Bearer error="invalid_scope"'
      const named = await printed(() => login.obtain())
      expect(message(named.error)).toBe(`${getting(idp.tokenUrl, `the client credentials of '${sso.clientId}'`)}: HTTP 401 invalid_scope. ${advice.audience}`)
      expect(idp.seen).toHaveLength(2)
    } finally {
      await idp.close()
    }
  })

  test('a challenge to the secret in the body: tried again with HTTP Basic', async () => {
    const idp = await standIn(() => ({ status: 401, headers: { 'www-authenticate': 'Basic realm="idp"' }, body: {} }))
    try {
      const { error, lines } = await printed(() => new OAuthLogin(inputs({ tokenUrl: idp.tokenUrl }), { attempts: 1 }).obtain())
      expect(message(error)).toBe(
        `${getting(idp.tokenUrl, `the client credentials of '${sso.clientId}'`)}: HTTP 401 invalid_client (with the secret in the body, then with HTTP Basic). ${advice.client}`
      )
      expect(lines).toEqual([`${idp.tokenUrl} refused the client secret in the request body; sending it with HTTP Basic authentication instead.`])
      expect(idp.seen.map((s) => [s.form.client_secret, s.headers.authorization?.split(' ')[0]])).toEqual([
        [sso.clientSecret, undefined],
        [undefined, 'Basic']
      ])
    } finally {
      await idp.close()
    }
  })

  test.each([
    [429, 'text/plain', 'slow down', true],
    [400, 'json', { message: 'nope' }, false]
  ])('%i that is not an OAuth error', async (status, _kind, body, transient) => {
    const idp = await standIn(() => ({ status, body }))
    try {
      const { error } = await printed(() => new OAuthLogin(inputs({ tokenUrl: idp.tokenUrl }), { attempts: 1 }).obtain())
      expect(message(error)).toMatch(
        new RegExp(`^${getting(idp.tokenUrl, `the client credentials of '${sso.clientId}'`)}: HTTP ${status}, not an OAuth answer \\(.+\\)\\.$`)
      )
      expect(transientOf(error)).toBe(transient)
    } finally {
      await idp.close()
    }
  })

  test('200 with a page, not JSON: not an OAuth answer, not worth another try', async () => {
    const idp = await standIn(() => ({ status: 200, body: '<html>login</html>' }))
    try {
      const { error } = await printed(() => new OAuthLogin(inputs({ tokenUrl: idp.tokenUrl }), { attempts: 1 }).obtain())
      expect(message(error)).toBe(
        `${getting(idp.tokenUrl, `the client credentials of '${sso.clientId}'`)}: HTTP 200, not an OAuth answer ("response" content-type must be application/json).`
      )
      expect(transientOf(error)).toBe(false)
    } finally {
      await idp.close()
    }
  })

  test('an answer without an access token', async () => {
    const idp = await standIn(() => ({ status: 200, body: { token_type: 'Bearer' } }))
    try {
      const { error } = await printed(() => new OAuthLogin(inputs({ tokenUrl: idp.tokenUrl }), { attempts: 1 }).obtain())
      expect(message(error)).toBe(
        `${getting(idp.tokenUrl, `the client credentials of '${sso.clientId}'`)}: "response" body "access_token" property must be a string.`
      )
      expect(transientOf(error)).toBe(false)
    } finally {
      await idp.close()
    }
  })

  test('a DPoP token is not a bearer token', async () => {
    const idp = await standIn(() => ({ status: 200, body: { access_token: 'at-1', token_type: 'DPoP', expires_in: 60 } }))
    try {
      const { error } = await printed(() => new OAuthLogin(inputs({ tokenUrl: idp.tokenUrl }), { attempts: 1 }).obtain())
      expect(message(error)).toBe(`${getting(idp.tokenUrl, `the client credentials of '${sso.clientId}'`)}: the token is of type 'dpop', not a bearer token`)
      expect(transientOf(error)).toBe(false)
    } finally {
      await idp.close()
    }
  })

  test('a token type oauth4webapi does not know: its error, tried again', async () => {
    jest.spyOn(Math, 'random').mockReturnValue(0)
    const idp = await standIn(() => ({ status: 200, body: { access_token: 'at-1', token_type: 'mac' } }))
    try {
      const { error, lines } = await printed(() => new OAuthLogin(inputs({ tokenUrl: idp.tokenUrl }), { attempts: 2 }).obtain())
      expect(message(error)).toBe('unsupported `token_type` value')
      expect(lines).toEqual([
        `${getting(idp.tokenUrl, `the client credentials of '${sso.clientId}'`)}: attempt 1 failed (unsupported \`token_type\` value); retrying in 0.0 s`
      ])
      expect(idp.seen).toHaveLength(2)
    } finally {
      await idp.close()
    }
  })
})

describe("the endpoint's metadata", () => {
  /** A stand-in whose token endpoint gives a refresh token, and whose metadata addresses answer `meta`. */
  async function withMetadata(meta: (path: string, tokenUrl: string) => Answer) {
    let tokenUrl = ''
    const idp = await standIn((seen) => {
      if (seen.path === '/t/oauth/token') return { status: 200, body: { access_token: 'at-1', token_type: 'Bearer', refresh_token: 'rt-1' } }
      if (seen.path === '/revoke') return { status: 200 }
      return meta(seen.path, tokenUrl)
    })
    tokenUrl = idp.tokenUrl
    return idp
  }
  const revokeAt = async (tokenUrl: string) => {
    const login = new OAuthLogin(inputs({ tokenUrl }), { attempts: 1 })
    return printed(() => login.revoke(undefined, ['rt-1']))
  }

  test('an answer that is not a success is not read, whatever it says', async () => {
    const idp = await withMetadata((path, tokenUrl) =>
      path === '/t/oauth/.well-known/openid-configuration'
        ? { status: 404, body: { token_endpoint: tokenUrl, revocation_endpoint: `${tokenUrl.replace('/t/oauth/token', '')}/revoke` } }
        : { status: 404, body: {} }
    )
    try {
      const { value, lines } = await revokeAt(idp.tokenUrl)
      expect(value).toBeUndefined()
      expect(lines).toEqual([
        `Token: nothing revoked: ${idp.tokenUrl} names no revocation endpoint in its metadata, so this run's refresh token is left to expire by itself.`
      ])
      expect(idp.seen.filter((s) => s.method === 'POST')).toEqual([])
    } finally {
      await idp.close()
    }
  })

  test("metadata of another token endpoint is not this one's", async () => {
    const idp = await withMetadata((path, tokenUrl) =>
      path === '/t/oauth/.well-known/openid-configuration'
        ? { status: 200, body: { token_endpoint: 'https://elsewhere.example/token', revocation_endpoint: `${tokenUrl.replace('/t/oauth/token', '')}/revoke` } }
        : { status: 404, body: {} }
    )
    try {
      const { value, lines } = await revokeAt(idp.tokenUrl)
      expect(value).toBeUndefined()
      expect(lines).toEqual([
        `Token: nothing revoked: ${idp.tokenUrl} names no revocation endpoint in its metadata, so this run's refresh token is left to expire by itself.`
      ])
      expect(idp.seen.filter((s) => s.method === 'POST')).toEqual([])
      expect(idp.seen.map((s) => s.path).sort()).toEqual([
        '/.well-known/openid-configuration',
        '/t/.well-known/openid-configuration',
        '/t/oauth/.well-known/openid-configuration'
      ])
    } finally {
      await idp.close()
    }
  })

  test('an address that could not be read, while the others did not describe this endpoint: a failure, said', async () => {
    const idp = await withMetadata((path) => {
      if (path === '/t/oauth/.well-known/openid-configuration') return { status: 404, body: {} }
      if (path === '/t/.well-known/openid-configuration') return { status: 200, body: { token_endpoint: 'https://elsewhere.example/token' } }
      return { status: 200, headers: { 'content-type': 'application/json' }, body: '{not json' }
    })
    try {
      const { value } = await revokeAt(idp.tokenUrl)
      expect(value).toMatch(new RegExp(`^finding where ${idp.tokenUrl} revokes tokens: its metadata could not be read \\(.+\\)$`))
    } finally {
      await idp.close()
    }
  })
})

describe('mutation survivors of part f', () => {
  test('the advice points at the single sign-on page by its address', async () => {
    const idp = await standIn(() => ({ status: 400, body: { error: 'invalid_scope' } }))
    try {
      const { error } = await printed(() => new OAuthLogin(inputs({ tokenUrl: idp.tokenUrl }), { attempts: 1 }).obtain())
      expect(message(error)).toMatch(/ See https:\/\/github\.com\/brcloud\/brcloud-deploy\/blob\/main\/docs\/single-sign-on\.md\.$/)
    } finally {
      await idp.close()
    }
  })

  test("the run's end closes the connections to the token endpoint", async () => {
    const idp = await standIn(() => ({ status: 200, body: { access_token: 'at-1', token_type: 'bearer', expires_in: 60 } }))
    try {
      const login = new OAuthLogin(inputs({ tokenUrl: idp.tokenUrl }), { attempts: 1 })
      expect((await printed(() => login.obtain())).value?.accessToken).toBe('at-1')
      expect(await idp.connections()).toBe(1)
      await printed(() => login.revoke(undefined, []))
      const until = Date.now() + 1_000
      while ((await idp.connections()) > 0 && Date.now() < until) await new Promise((done) => setTimeout(done, 20))
      expect(await idp.connections()).toBe(0)
    } finally {
      await idp.close()
    }
  })

  test("token calls under the run's stop leave no listener on it (twelve would print a MaxListenersExceededWarning)", async () => {
    const stop = new AbortController()
    const login = new OAuthLogin(inputs(), { attempts: 1, signal: stop.signal })
    for (let i = 0; i < 12; i++) expect((await printed(() => login.obtain())).error).toBeUndefined()
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0)
  })
})
