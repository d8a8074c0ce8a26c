// A stand-in identity provider (OAuth 2.0, RFC 6749) under /idp/ for single sign-on stacks. Which IdP a
// real stack uses, and the grant, audience and scope Bloomreach expects, are not public: this one serves
// the usual shapes (Auth0's `audience`, Entra's `<resource>/.default` scope), client_secret_basic,
// client_secret_post and a GitHub OIDC token as client assertion (RFC 7523), and revocation (RFC 7009).
import { HttpError, readBody } from './http-util.js'
import type { RequestContext, Route } from './router.js'
import { audiences, verifyJwt } from './sso-keys.js'
import type { GitHubOidc } from './sso-github-oidc.js'
import type { ResolvedSso } from './sso-options.js'
import type { Grant, IdpTokens } from './sso-tokens.js'
import type { Settings } from './state.js'

export const IDP_PATH = '/idp'
const FORM_LIMIT = 64 * 1024
const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' }

type Form = Map<string, string>

interface Client {
  id: string
  method: 'basic' | 'post' | 'assertion' | 'none'
}

/** RFC 6749 5.2: 400 with `error`, or 401 invalid_client (with a Basic challenge when Basic was used). The stack writes `{error, error_description}`. */
function oauthError(error: string, description: string, basic = false): HttpError {
  if (error === 'invalid_client') return new HttpError(401, error, description, basic ? { 'www-authenticate': 'Basic realm="idp"' } : {})
  return new HttpError(400, error, description)
}

/** The form body (recorded as `json`); parameters sent twice are refused (RFC 6749 3.2). */
async function readForm(ctx: RequestContext): Promise<Form> {
  const body = await readBody(ctx.req, FORM_LIMIT)
  const form: Form = new Map()
  let repeated: string | undefined
  for (const [name, value] of new URLSearchParams(body.toString('utf8'))) {
    if (form.has(name)) repeated = name
    form.set(name, value)
  }
  ctx.record.json = Object.fromEntries(form)
  const type = (ctx.req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase()
  if (type !== 'application/x-www-form-urlencoded') throw oauthError('invalid_request', 'The body must be application/x-www-form-urlencoded')
  if (repeated !== undefined) throw oauthError('invalid_request', `The parameter "${repeated}" is sent more than once`)
  return form
}

/** RFC 6749 2.3.1: id and secret are form-encoded before Basic's base64. */
function basicCredentials(header: string): { id: string; secret: string } | undefined {
  const m = /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header)
  if (m?.[1] === undefined) return undefined
  const text = Buffer.from(m[1], 'base64').toString('utf8')
  const colon = text.indexOf(':')
  if (colon < 0) return undefined
  const formDecode = (part: string): string | undefined => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '))
    } catch {
      return undefined
    }
  }
  const id = formDecode(text.slice(0, colon))
  const secret = formDecode(text.slice(colon + 1))
  return id === undefined || secret === undefined ? undefined : { id, secret }
}

/** A glob of `*` (any run of characters) and literal text, for a federated subject. */
function globMatches(glob: string, value: string): boolean {
  const pattern = glob
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*')
  return new RegExp(`^${pattern}$`).test(value)
}

export class IdentityProvider {
  constructor(
    private readonly options: ResolvedSso,
    private readonly settings: Settings,
    private readonly tokens: IdpTokens,
    private readonly oidc: GitHubOidc,
    private readonly baseOf: (ctx: RequestContext) => string
  ) {}

  issuer(base: string): string {
    return `${base}${IDP_PATH}`
  }

  routes(): Route[] {
    return [
      {
        method: 'GET',
        path: `${IDP_PATH}/.well-known/openid-configuration`,
        operation: 'idp-discovery',
        summary: 'SSO identity provider stand-in: its discovery document',
        handler: (ctx) => ctx.send(200, this.discovery(this.issuer(this.baseOf(ctx))))
      },
      {
        method: 'GET',
        path: `${IDP_PATH}/.well-known/jwks.json`,
        operation: 'idp-jwks',
        summary: 'SSO identity provider stand-in: the key set its access tokens are signed with',
        handler: (ctx) => ctx.send(200, { keys: [this.tokens.key.jwk] })
      },
      {
        method: 'POST',
        path: `${IDP_PATH}/oauth/token`,
        operation: 'idp-token',
        summary: 'SSO identity provider stand-in: grants client_credentials (secret or GitHub OIDC client assertion), password, refresh_token',
        handler: (ctx) => this.token(ctx)
      },
      {
        method: 'POST',
        path: `${IDP_PATH}/oauth/revoke`,
        operation: 'idp-revoke',
        summary: 'SSO identity provider stand-in: revokes an access or refresh token (RFC 7009)',
        handler: (ctx) => this.revoke(ctx)
      }
    ]
  }

  private discovery(issuer: string): Record<string, unknown> {
    return {
      issuer,
      token_endpoint: `${issuer}/oauth/token`,
      ...(this.options.revocation && { revocation_endpoint: `${issuer}/oauth/revoke` }),
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      grant_types_supported: ['client_credentials', 'password', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
      id_token_signing_alg_values_supported: ['RS256']
    }
  }

  private async token(ctx: RequestContext): Promise<void> {
    const form = await readForm(ctx)
    const grantType = form.get('grant_type')
    if (grantType === undefined || grantType === '') throw oauthError('invalid_request', 'The parameter "grant_type" is required')
    if (!['client_credentials', 'password', 'refresh_token'].includes(grantType)) {
      throw oauthError('unsupported_grant_type', `The grant type "${grantType}" is not supported`)
    }
    const client = this.authenticateClient(ctx, form)
    const { refreshTokens } = this.options
    if (grantType === 'password') return this.answer(ctx, this.passwordGrant(ctx, form, client), refreshTokens !== 'none')
    // The same refresh token again: the emulator does not rotate them (not public whether the real IdP does).
    if (grantType === 'refresh_token') return this.answer(ctx, this.refreshGrant(form, client), refreshTokens !== 'none', form.get('refresh_token'))
    if (client.method === 'none') throw oauthError('invalid_client', 'The client_credentials grant needs client authentication')
    this.answer(ctx, { sub: client.id, clientId: client.id, ...this.audienceAndScope(ctx, form) }, refreshTokens === 'all')
  }

  private answer(ctx: RequestContext, grant: Grant, withRefresh: boolean, refreshToken?: string): void {
    const access = this.tokens.issueAccess(grant, this.issuer(this.baseOf(ctx)))
    const refresh = withRefresh ? (refreshToken ?? this.tokens.issueRefresh(grant)) : undefined
    const body = {
      access_token: access.token,
      token_type: 'Bearer',
      expires_in: access.expiresIn,
      ...(grant.scope !== undefined && { scope: grant.scope }),
      ...(refresh !== undefined && { refresh_token: refresh })
    }
    ctx.send(200, body, NO_STORE)
  }

  /** The token's audience: `audience` (Auth0), else a `<resource>/.default` scope (Entra), else the IdP's own userinfo (which the cloud API refuses). */
  private audienceAndScope(ctx: RequestContext, form: Form): { audience: string; scope?: string } {
    const scope = form.get('scope') || undefined
    const fromScope = scope
      ?.split(' ')
      .find((s) => s.endsWith('/.default'))
      ?.slice(0, -'/.default'.length)
    const audience = form.get('audience') || fromScope || `${this.issuer(this.baseOf(ctx))}/userinfo`
    return scope === undefined ? { audience } : { audience, scope }
  }

  private passwordGrant(ctx: RequestContext, form: Form, client: Client): Grant {
    const username = form.get('username')
    const password = form.get('password')
    if (!username || password === undefined) throw oauthError('invalid_request', 'The password grant needs "username" and "password"')
    if (username !== this.settings.username || password !== this.settings.password) throw oauthError('invalid_grant', 'Wrong username or password')
    return { sub: username, ...(client.method !== 'none' && { clientId: client.id }), ...this.audienceAndScope(ctx, form) }
  }

  private refreshGrant(form: Form, client: Client): Grant {
    const token = form.get('refresh_token')
    if (!token) throw oauthError('invalid_request', 'The refresh_token grant needs "refresh_token"')
    const grant = this.tokens.refreshGrant(token)
    if (grant === undefined) throw oauthError('invalid_grant', 'The refresh token is invalid, expired or revoked')
    // RFC 6749 6: a refresh token issued to a client is only good for that client.
    if (grant.clientId !== undefined && client.method === 'none')
      throw oauthError('invalid_client', 'The refresh token was issued to a client: authenticate it')
    if (grant.clientId !== undefined && grant.clientId !== client.id) throw oauthError('invalid_grant', 'The refresh token was issued to another client')
    return grant
  }

  private async revoke(ctx: RequestContext): Promise<void> {
    if (!this.options.revocation) throw new HttpError(404, 'NotFound', `No operation at "${ctx.url.pathname}"`)
    const form = await readForm(ctx)
    const client = this.authenticateClient(ctx, form)
    if (client.method === 'none') throw oauthError('invalid_client', 'Revocation needs client authentication')
    const token = form.get('token')
    if (!token) throw oauthError('invalid_request', 'The parameter "token" is required')
    this.tokens.revoke(token)
    ctx.send(200)
  }

  /** RFC 6749 2.3: one method of Basic, id and secret in the body, or a client assertion; a bare client_id (a public client) is 'none'. */
  private authenticateClient(ctx: RequestContext, form: Form): Client {
    const header = ctx.req.headers.authorization
    const basic = header !== undefined && /^basic\s/i.test(header)
    const methods = [basic, form.has('client_secret'), form.has('client_assertion') || form.has('client_assertion_type')].filter(Boolean).length
    if (methods > 1) throw oauthError('invalid_request', 'Use one client authentication method, not several')
    if (basic) return this.secretClient(basicCredentials(header ?? ''), 'basic')
    if (form.has('client_secret')) return this.secretClient({ id: form.get('client_id') ?? '', secret: form.get('client_secret') ?? '' }, 'post')
    if (methods === 1) return this.assertionClient(form)
    const id = form.get('client_id')
    if (id === undefined) return { id: '', method: 'none' }
    if (!this.options.clients.some((c) => c.id === id) && id !== this.options.federation.clientId) throw oauthError('invalid_client', `Unknown client "${id}"`)
    return { id, method: 'none' }
  }

  private secretClient(credentials: { id: string; secret: string } | undefined, method: 'basic' | 'post'): Client {
    const known = this.options.clients.find((c) => c.id === credentials?.id && c.secret === credentials.secret)
    if (known === undefined) throw oauthError('invalid_client', 'Client authentication failed', method === 'basic')
    return { id: known.id, method }
  }

  /** RFC 7523 2.2: a GitHub OIDC token (GitHub's issuer, the stand-in's key), for the federation's audience and a subject its glob admits. */
  private assertionClient(form: Form): Client {
    const { federation } = this.options
    if (form.get('client_assertion_type') !== JWT_BEARER) throw oauthError('invalid_request', `"client_assertion_type" must be "${JWT_BEARER}"`)
    const assertion = form.get('client_assertion')
    if (!assertion) throw oauthError('invalid_request', 'The parameter "client_assertion" is required')
    const id = form.get('client_id')
    if (id !== undefined && id !== federation.clientId) throw oauthError('invalid_client', `The client "${id}" does not authenticate with an assertion`)
    const refuse = (why: string): HttpError => oauthError('invalid_client', `The client assertion is refused: ${why}`)
    // The federation trusts GitHub's issuer; its keys are the local OIDC stand-in's (GitHub's own are not reachable from here).
    const reading = verifyJwt(assertion, this.oidc.key)
    if (!reading.ok) throw refuse({ malformed: 'it is malformed', signature: 'its signature is invalid', expired: 'it has expired' }[reading.reason])
    const { claims } = reading
    const issuer = this.oidc.issuer
    if (claims.iss !== issuer) throw refuse(`its issuer is ${JSON.stringify(claims.iss)}, not "${issuer}"`)
    if (!audiences(claims).includes(federation.audience)) throw refuse(`its audience is ${JSON.stringify(claims.aud)}, not "${federation.audience}"`)
    const sub = typeof claims.sub === 'string' ? claims.sub : ''
    if (!globMatches(federation.subject, sub)) throw refuse(`its subject "${sub}" does not match "${federation.subject}"`)
    return { id: federation.clientId, method: 'assertion' }
  }
}
