// A stack with single sign-on: the token comes from an OAuth 2.0 token endpoint (the organisation's
// identity provider, or Bloomreach's Auth0), through oauth4webapi: client credentials with a secret,
// client credentials with GitHub's OIDC token as the client's assertion (RFC 7523), or a script
// account's password. Renewed with the refresh token when the endpoint gave one, else by the same
// grant again; the refresh token revoked at the end (RFC 7009) only where the endpoint's metadata
// names a revocation endpoint.
import * as core from '@actions/core'
import * as oauth from 'oauth4webapi'
import { fetch as undiciFetch, type Dispatcher } from 'undici'
import { proxyAwareDispatcher } from '../../http/dispatcher.js'
import { ActionError, describeError } from '../../errors.js'
import { isLoopbackHost } from '../../inputs/address.js'
import type { Login } from '../../inputs/login.js'
import { createRetrier, type Retrier } from '../../http/retry.js'
import { registerSecret } from '../../secrets.js'
import { SSO_DOCS_URL, type LoginMethod, type TokenGrant } from './method.js'

type OAuthLoginInputs = Extract<Login, { kind: 'oauth' }>

const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'
/** Each call to the identity provider: they answer in well under a second. */
const CALL_LIMIT_MS = 30_000

/** A token endpoint's refusal, or an answer that is not OAuth's: the message says what to fix. */
export class TokenEndpointError extends ActionError {
  override name = 'TokenEndpointError'
  constructor(
    message: string,
    /** Worth another try: a 5xx or no answer. */
    readonly transient: boolean
  ) {
    super(message)
  }
}

export interface OAuthOptions {
  readonly signal?: AbortSignal | undefined
  readonly attempts: number
  /** GitHub's OIDC token for an audience (core.getIDToken); injectable for tests. */
  readonly idToken?: ((audience: string) => Promise<string>) | undefined
}

export class OAuthLogin implements LoginMethod {
  readonly preflight = true
  readonly renewable = true
  readonly renewAfterMs = undefined
  readonly who: string
  private readonly as: oauth.AuthorizationServer
  private readonly client: oauth.Client
  private readonly dispatcher: Dispatcher
  private readonly retrier: Retrier
  private revocationEndpoint: Promise<string | undefined> | undefined
  /**
   * Where the client secret goes: in the body (client_secret_post) first, which most providers accept; a
   * client registered for HTTP Basic only (Okta's default) refuses that as invalid_client, so Basic is tried once.
   */
  private secretIn: 'body' | 'basic' = 'body'

  constructor(
    private readonly inputs: OAuthLoginInputs,
    private readonly options: OAuthOptions
  ) {
    const url = new URL(inputs.tokenUrl)
    this.as = { issuer: url.origin, token_endpoint: inputs.tokenUrl }
    // The library wants a client id; without client-id none is sent (auth() decides what goes in the body).
    this.client = { client_id: inputs.clientId ?? 'brcloud-deploy' }
    this.who = inputs.username ?? inputs.clientId ?? `GitHub's OIDC identity (audience ${inputs.oidcAudience ?? '?'})`
    this.dispatcher = proxyAwareDispatcher(inputs.tokenUrl)
    this.retrier = createRetrier(
      { attempts: options.attempts, baseDelayMs: 1_000, maxDelayMs: 10_000, maxTotalMs: 2 * 60_000, retryable: transient, signal: options.signal },
      (level, m) => (level === 'warning' ? core.warning(m) : core.info(m))
    )
  }

  get refusedHint(): string {
    return (
      `The stack did not accept the token from ${this.inputs.tokenUrl}: check that it is issued for the stack's API (audience: ${this.inputs.audience ?? 'not set'}, ` +
      `scope: ${this.inputs.scope ?? 'not set'}) and that single sign-on is set up for this stack (ask Bloomreach support for the token endpoint and audience; see ${SSO_DOCS_URL}).`
    )
  }

  async obtain(): Promise<TokenGrant> {
    const grant = this.inputs.grant
    const what =
      grant === 'password'
        ? `the password grant for '${this.inputs.username ?? ''}'`
        : grant === 'client_assertion'
          ? "GitHub's OIDC token as the client's assertion"
          : `the client credentials of '${this.inputs.clientId ?? ''}'`
    return this.call(`Getting a token from ${this.inputs.tokenUrl} with ${what}`, async (http) => {
      const params = this.extraParameters()
      if (grant === 'password') {
        params.set('username', this.inputs.username ?? '')
        params.set('password', this.inputs.password ?? '')
        const res = await oauth.genericTokenEndpointRequest(this.as, this.client, await this.auth(), 'password', params, http)
        return oauth.processGenericTokenEndpointResponse(this.as, this.client, res)
      }
      const res = await oauth.clientCredentialsGrantRequest(this.as, this.client, await this.auth(), params, http)
      return oauth.processClientCredentialsResponse(this.as, this.client, res)
    })
  }

  async refresh(_api: unknown, refreshToken: string): Promise<TokenGrant> {
    return this.call(`Renewing the token at ${this.inputs.tokenUrl}`, async (http) => {
      const res = await oauth.refreshTokenGrantRequest(this.as, this.client, await this.auth(), refreshToken, {
        ...http,
        additionalParameters: this.extraParameters()
      })
      return oauth.processRefreshTokenResponse(this.as, this.client, res)
    })
  }

  revokeNote = (refreshToken: string | undefined): string | undefined =>
    refreshToken === undefined ? `nothing to revoke: ${this.inputs.tokenUrl} gave no refresh token, and its access tokens expire by themselves` : undefined

  /** The run's end: the refresh token revoked where the endpoint says how, and the connections closed. */
  async revoke(_api: unknown, refreshToken: string | undefined): Promise<string | undefined> {
    try {
      return refreshToken === undefined ? undefined : await this.revokeAt(refreshToken)
    } finally {
      await this.dispatcher.close().catch(() => undefined)
    }
  }

  private async revokeAt(refreshToken: string): Promise<string | undefined> {
    if (this.inputs.clientId === undefined) {
      // RFC 7009: the client that holds a token identifies itself to revoke it; without client-id there is none.
      core.info(`Token: nothing revoked: revoking a refresh token needs the client it was issued to (client-id), and none is set; it expires by itself.`)
      return undefined
    }
    const endpoint = await this.findRevocationEndpoint()
    if (endpoint === undefined) {
      // Not a failure: the endpoint offers no way to revoke. Said once, quietly.
      core.info(
        `Token: nothing revoked: ${this.inputs.tokenUrl} names no revocation endpoint in its metadata, so this run's refresh token is left to expire by itself.`
      )
      return undefined
    }
    try {
      const res = await oauth.revocationRequest({ ...this.as, revocation_endpoint: endpoint }, this.client, await this.auth(), refreshToken, {
        ...this.http(),
        additionalParameters: { token_type_hint: 'refresh_token' }
      })
      await oauth.processRevocationResponse(res)
      core.info(`Revoked this run's refresh token at ${endpoint}.`)
      return undefined
    } catch (error) {
      return `revoking at ${endpoint}: ${describeError(error)}`
    }
  }

  /** audience and scope, sent with every grant when set. */
  private extraParameters(): URLSearchParams {
    const params = new URLSearchParams()
    if (this.inputs.audience !== undefined) params.set('audience', this.inputs.audience)
    if (this.inputs.scope !== undefined) params.set('scope', this.inputs.scope)
    return params
  }

  /** How the client authenticates: a secret (in the body, as most providers accept), GitHub's OIDC token as its assertion, or not at all. */
  private async auth(): Promise<oauth.ClientAuth> {
    if (this.inputs.grant === 'client_assertion') {
      const assertion = await this.gitHubToken()
      const clientId = this.inputs.clientId
      return (_as, _client, body) => {
        if (clientId !== undefined) body.set('client_id', clientId)
        body.set('client_assertion_type', JWT_BEARER)
        body.set('client_assertion', assertion)
      }
    }
    if (this.inputs.clientSecret !== undefined) {
      return this.secretIn === 'body' ? oauth.ClientSecretPost(this.inputs.clientSecret) : oauth.ClientSecretBasic(this.inputs.clientSecret)
    }
    return this.inputs.clientId !== undefined ? oauth.None() : (_as, _client, _body) => undefined
  }

  /** A fresh OIDC token from GitHub for each grant: they live minutes. Masked before anything could print it. */
  private async gitHubToken(): Promise<string> {
    const audience = this.inputs.oidcAudience ?? ''
    try {
      const token = await (this.options.idToken ?? ((a: string) => core.getIDToken(a)))(audience)
      registerSecret(token)
      return token
    } catch (error) {
      throw new TokenEndpointError(
        `GitHub gave no OIDC token for audience '${audience}' (${describeError(error)}). The job needs 'permissions: id-token: write'; a run from a fork gets none.`,
        false
      )
    }
  }

  private http(): oauth.TokenEndpointRequestOptions {
    const url = new URL(this.inputs.tokenUrl)
    const limit = AbortSignal.timeout(CALL_LIMIT_MS)
    const signal = this.options.signal ? AbortSignal.any([this.options.signal, limit]) : limit
    return {
      signal,
      [oauth.customFetch]: (input: string, init: oauth.CustomFetchOptions<'POST' | 'GET', URLSearchParams>) =>
        undiciFetch(input, { ...(init as object), dispatcher: this.dispatcher }) as unknown as Promise<Response>,
      // http only to this machine (the input rules refuse it elsewhere): the local emulator.
      ...(url.protocol === 'http:' && isLoopbackHost(url.hostname) ? { [oauth.allowInsecureRequests]: true } : {})
    }
  }

  /** One grant with retries of what may pass on another try; every token masked the moment it arrives. */
  private async call(operation: string, grant: (http: oauth.TokenEndpointRequestOptions) => Promise<oauth.TokenEndpointResponse>): Promise<TokenGrant> {
    const answer = await this.retrier.retrying(operation, async () => {
      try {
        return await grant(this.http())
      } catch (error) {
        if (!this.refusedSecretInBody(error)) throw this.explain(operation, error)
        this.secretIn = 'basic'
        core.info(`${this.inputs.tokenUrl} refused the client secret in the request body; sending it with HTTP Basic authentication instead.`)
        try {
          return await grant(this.http())
        } catch (again) {
          throw this.explain(operation, again)
        }
      }
    })
    registerSecret(answer.access_token)
    registerSecret(answer.refresh_token)
    registerSecret(answer.id_token)
    if (answer.token_type.toLowerCase() !== 'bearer')
      throw new TokenEndpointError(`${operation}: the token is of type '${answer.token_type}', not a bearer token`, false)
    return { accessToken: answer.access_token, refreshToken: answer.refresh_token, expiresInSeconds: answer.expires_in }
  }

  private refusedSecretInBody(error: unknown): boolean {
    if (this.secretIn !== 'body' || this.inputs.clientSecret === undefined) return false
    const code = error instanceof oauth.ResponseBodyError ? error.error : error instanceof oauth.WWWAuthenticateChallengeError ? 'invalid_client' : undefined
    return code === 'invalid_client'
  }

  /** What the token endpoint's answer means for the user. */
  private explain(operation: string, error: unknown): unknown {
    if (this.options.signal?.aborted) return error
    if (error instanceof oauth.ResponseBodyError) {
      const said = `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`
      return new TokenEndpointError(`${operation}: HTTP ${error.status} ${said}. ${this.advice(error.error)}`, error.status >= 500)
    }
    if (error instanceof oauth.WWWAuthenticateChallengeError) {
      const code = error.cause.map((c) => c.parameters.error).find((e): e is string => typeof e === 'string') ?? 'invalid_client'
      const both = this.secretIn === 'basic' ? ' (with the secret in the body, then with HTTP Basic)' : ''
      return new TokenEndpointError(`${operation}: HTTP ${error.status} ${code}${both}. ${this.advice(code)}`, false)
    }
    const status = (error as { cause?: { status?: unknown } }).cause?.status
    if (error instanceof oauth.OperationProcessingError && typeof status === 'number') {
      return new TokenEndpointError(`${operation}: HTTP ${status}, not an OAuth answer (${error.message}).`, status >= 500 || status === 429)
    }
    if (error instanceof oauth.OperationProcessingError) return new TokenEndpointError(`${operation}: ${error.message}.`, false)
    return error
  }

  private advice(code: string): string {
    const grant = this.inputs.grant
    if (code === 'invalid_client' && grant === 'client_assertion')
      return `The identity provider did not accept GitHub's OIDC token: check that it trusts this repository's tokens (issuer https://token.actions.githubusercontent.com, audience '${this.inputs.oidcAudience ?? ''}', the subject of this workflow) for client '${this.inputs.clientId ?? ''}'.`
    if (code === 'invalid_client') return 'Check client-id and client-secret: the identity provider did not accept them.'
    if (code === 'invalid_grant' && grant === 'password')
      return 'Check username and password: the identity provider did not accept the script account (it must be allowed to log in without a browser).'
    if (code === 'invalid_scope' || code === 'invalid_target' || code === 'access_denied')
      return `Check audience and scope: ask your identity provider (or Bloomreach support) which the stack's API expects. See ${SSO_DOCS_URL}.`
    if (code === 'unauthorized_client' || code === 'unsupported_grant_type')
      return `The client may not use this grant at the identity provider. See ${SSO_DOCS_URL}.`
    return `See ${SSO_DOCS_URL}.`
  }

  /** The endpoint's metadata (RFC 8414 / OpenID discovery) at the token URL's path prefixes: a revocation endpoint only where it names one for this token endpoint. */
  private findRevocationEndpoint(): Promise<string | undefined> {
    this.revocationEndpoint ??= (async () => {
      for (const candidate of metadataAddresses(this.inputs.tokenUrl)) {
        try {
          const res = await undiciFetch(candidate, { dispatcher: this.dispatcher, signal: AbortSignal.timeout(5_000) })
          if (!res.ok) continue
          const meta = (await res.json()) as { token_endpoint?: unknown; revocation_endpoint?: unknown }
          if (meta.token_endpoint !== this.inputs.tokenUrl) continue
          return typeof meta.revocation_endpoint === 'string' ? meta.revocation_endpoint : undefined
        } catch {
          // Not there: the next candidate.
        }
      }
      return undefined
    })()
    return this.revocationEndpoint
  }
}

/** Where an issuer's metadata may be, for each prefix of the token URL's path (longest first), at most four. */
export function metadataAddresses(tokenUrl: string): string[] {
  const url = new URL(tokenUrl)
  const segments = url.pathname.split('/').filter((s) => s !== '')
  const out: string[] = []
  for (let keep = segments.length - 1; keep >= 0 && out.length < 4; keep--) {
    const prefix = segments.slice(0, keep).join('/')
    out.push(`${url.origin}/${prefix ? `${prefix}/` : ''}.well-known/openid-configuration`)
  }
  return out
}

function transient(error: unknown): boolean {
  if (error instanceof TokenEndpointError) return error.transient
  if (error instanceof ActionError) return false
  // No answer at all (a reset, a timeout): worth another try.
  return error instanceof Error && !(error instanceof oauth.OperationProcessingError)
}
