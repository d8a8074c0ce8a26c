// A stack with single sign-on: the token comes from an OAuth 2.0 token endpoint (the organisation's
// identity provider, or Bloomreach's Auth0), through oauth4webapi: client credentials with a secret,
// client credentials with GitHub's OIDC token as the client's assertion (RFC 7523), or a script
// account's password. Renewed with the refresh token when the endpoint gave one, else by the same
// grant again; the refresh token revoked at the end (RFC 7009) only where the endpoint's metadata
// names a revocation endpoint.
import * as core from '../../port.js'
import * as oauth from 'oauth4webapi'
import type { Dispatcher } from 'undici'
import { proxyAwareDispatcher } from '../../http/dispatcher.js'
import { httpFetch } from '../../http/fetch.js'
import { phaseEndsAt, phaseLimit } from '../../http/phase.js'
import { timeLimit, type TimeLimit } from '../../http/time-limit.js'
import { ActionError, describeError } from '../../errors.js'
import { isLoopbackHost } from '../../inputs/address.js'
import type { Login } from '../../inputs/login.js'
import { createRetrier, untilAborted, type Retrier } from '../../http/retry.js'
import { formatDuration } from '../../format.js'
import { registerSecret } from '../../secrets.js'
import { noOidcToken } from '../../advice.js'
import { SSO_DOCS_URL, type LoginMethod, type TokenGrant } from './method.js'

type OAuthLoginInputs = Extract<Login, { kind: 'oauth' }>

const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'
/** Each call to the identity provider: they answer in well under a second. */
const CALL_LIMIT_MS = 30_000
/** Each look for the identity provider's metadata. */
const METADATA_LIMIT_MS = 5_000

/** A token endpoint's refusal, or an answer that is not OAuth's: the message says what to fix. */
export class TokenEndpointError extends ActionError {
  override name = 'TokenEndpointError'
  constructor(
    message: string,
    /** Worth another try: a 5xx or no answer. */
    readonly transient: boolean
  ) {
    super(message)
    this.loginRefused = !transient
  }
  /** Not worth another try: the token endpoint refused the login, or gave no token this run can use (refusesLogin). */
  readonly loginRefused: boolean
}

export interface OAuthOptions {
  readonly signal?: AbortSignal | undefined
  readonly attempts: number
  /** GitHub's OIDC token for an audience (core.getIDToken); injectable for tests. */
  readonly idToken?: ((audience: string) => Promise<string>) | undefined
}

export class OAuthLogin implements LoginMethod {
  readonly issuer = 'oauth'
  readonly preflight = true
  readonly renewable = true
  readonly renewAfterMs = undefined
  readonly who: string
  private readonly as: oauth.AuthorizationServer
  private readonly client: oauth.Client
  private readonly dispatcher: Dispatcher
  private readonly retrier: Retrier
  private revocationEndpoint: Promise<{ endpoint: string } | { none: true } | { failed: string }> | undefined
  /** The run's stop, which ends every call; none for the closing calls (see reroute). */
  private stop: AbortSignal | undefined
  private limitMs = CALL_LIMIT_MS
  /** The refresh token was revoked at the endpoint (not merely left to expire). */
  revoked = false
  private saidNoRevocation = false
  /** Rerouted for the closing calls: one attempt each, within their own short limit. */
  private closing = false
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
    this.stop = options.signal
    this.retrier = createRetrier(
      {
        attempts: options.attempts,
        baseDelayMs: 1_000,
        maxDelayMs: 10_000,
        maxTotalMs: 2 * 60_000,
        retryable: transient,
        signal: options.signal,
        until: phaseEndsAt
      },
      (level, m) => (level === 'warning' ? core.warning(m) : core.info(m))
    )
  }

  get refusedHint(): string {
    return (
      `The stack did not accept the token from ${this.inputs.tokenUrl}: check that it is issued for the stack's API (audience: ${this.inputs.audience ?? 'not set'}, ` +
      `scope: ${this.inputs.scope ?? 'not set'}) and that single sign-on is set up for this stack (ask Bloomreach support for the token endpoint and audience; see ${SSO_DOCS_URL}).`
    )
  }

  /**
   * The run's closing calls (a last look that renews a due token, the revocation) come after a cancel or the
   * watchdog stopped the run: from here on no call is ended by that stop, and each gets `limitMs`.
   */
  reroute(limitMs: number): void {
    this.stop = undefined
    this.limitMs = limitMs
    this.closing = true
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
        const res = await oauth.genericTokenEndpointRequest(this.as, this.client, await this.auth(signalOf(http)), 'password', params, http)
        return oauth.processGenericTokenEndpointResponse(this.as, this.client, await withoutIdToken(res))
      }
      const res = await oauth.clientCredentialsGrantRequest(this.as, this.client, await this.auth(signalOf(http)), params, http)
      return oauth.processClientCredentialsResponse(this.as, this.client, await withoutIdToken(res))
    })
  }

  async refresh(_api: unknown, refreshToken: string): Promise<TokenGrant> {
    return this.call(`Renewing the token at ${this.inputs.tokenUrl}`, async (http) => {
      const res = await oauth.refreshTokenGrantRequest(this.as, this.client, await this.auth(signalOf(http)), refreshToken, {
        ...http,
        additionalParameters: this.extraParameters()
      })
      return oauth.processRefreshTokenResponse(this.as, this.client, await withoutIdToken(res))
    })
  }

  revokeNote = (none: boolean): string | undefined =>
    none ? `nothing to revoke: ${this.inputs.tokenUrl} gave no refresh token, and its access tokens expire by themselves` : undefined

  /** The run's end: the refresh tokens revoked where the endpoint says how, and the connections closed. */
  async revoke(_api: unknown, refreshTokens: readonly string[], revoked: (token: string) => void = () => undefined): Promise<string | undefined> {
    let failed: string | undefined
    try {
      for (const token of refreshTokens) {
        const why = await this.revokeAt(token)
        if (why !== undefined) failed ??= why
        else if (this.revoked) revoked(token)
      }
      return failed
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
    const found = await this.findRevocationEndpoint()
    if ('failed' in found) return `finding where ${this.inputs.tokenUrl} revokes tokens: ${found.failed}`
    if ('none' in found) {
      // Not a failure: the endpoint offers no way to revoke. Said once, quietly.
      if (this.saidNoRevocation) return undefined
      this.saidNoRevocation = true
      core.info(
        `Token: nothing revoked: ${this.inputs.tokenUrl} names no revocation endpoint in its metadata, so this run's refresh token is left to expire by itself.`
      )
      return undefined
    }
    const { endpoint } = found
    const limit = this.limit()
    try {
      const res = await oauth.revocationRequest({ ...this.as, revocation_endpoint: endpoint }, this.client, await this.auth(limit.signal), refreshToken, {
        ...this.http(limit),
        additionalParameters: { token_type_hint: 'refresh_token' }
      })
      await oauth.processRevocationResponse(res)
      this.revoked = true
      core.info(`Revoked this run's refresh token at ${endpoint}.`)
      return undefined
    } catch (error) {
      return `revoking at ${endpoint}: ${describeError(error)}`
    } finally {
      limit.clear()
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
  private async auth(signal: AbortSignal | undefined): Promise<oauth.ClientAuth> {
    if (this.inputs.grant === 'client_assertion') {
      const assertion = await this.gitHubToken(signal)
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

  /**
   * A fresh OIDC token from GitHub for each grant: they live minutes. Masked before anything could print it. Within
   * the call's limit (GitHub's own client has none). Without the runner's request URL the job lacks the permission
   * (a refusal); with it, a failure is GitHub's token service failing (worth another try).
   */
  private async gitHubToken(signal: AbortSignal | undefined): Promise<string> {
    const audience = this.inputs.oidcAudience ?? ''
    const permitted = Boolean(process.env.ACTIONS_ID_TOKEN_REQUEST_URL)
    try {
      const asked = (this.options.idToken ?? ((a: string) => core.getIDToken(a)))(audience)
      const token = await (signal === undefined ? asked : untilAborted(asked, signal))
      registerSecret(token)
      return token
    } catch (error) {
      if (this.stop?.aborted) throw error
      throw new TokenEndpointError(
        permitted
          ? `GitHub's OIDC token service gave no token for audience '${audience}' (${describeError(error)}).`
          : `GitHub gave no OIDC token for audience '${audience}' (${describeError(error)}). ${noOidcToken()}`,
        permitted
      )
    }
  }

  /** One call's limit (never past the phase it is made in), joined with the run's stop while the run goes on. */
  private limit(): TimeLimit {
    return timeLimit(phaseLimit(this.limitMs), this.stop)
  }

  private http(limit: TimeLimit): oauth.TokenEndpointRequestOptions {
    const url = new URL(this.inputs.tokenUrl)
    return {
      signal: limit.signal,
      [oauth.customFetch]: (input: string, init: oauth.CustomFetchOptions<'POST' | 'GET', URLSearchParams>) =>
        httpFetch(input, { ...(init as Omit<RequestInit, 'dispatcher'>), dispatcher: this.dispatcher }),
      // http only to this machine (the input rules refuse it elsewhere): the local emulator.
      ...(url.protocol === 'http:' && isLoopbackHost(url.hostname) ? { [oauth.allowInsecureRequests]: true } : {})
    }
  }

  /** One grant with retries of what may pass on another try; every token masked the moment it arrives. */
  private async call(operation: string, grant: (http: oauth.TokenEndpointRequestOptions) => Promise<oauth.TokenEndpointResponse>): Promise<TokenGrant> {
    const attempt = async (): Promise<oauth.TokenEndpointResponse> => {
      const limit = this.limit()
      try {
        return await grant(this.http(limit))
      } catch (error) {
        // The call's own limit, or no connection at all: the endpoint did not answer, which may pass.
        if (limit.expired())
          throw new TokenEndpointError(`${operation}: no answer from ${this.inputs.tokenUrl} within ${formatDuration(phaseLimit(this.limitMs))}.`, true)
        if (!this.refusedSecretInBody(error)) throw this.explain(operation, error)
        this.secretIn = 'basic'
        core.info(`${this.inputs.tokenUrl} refused the client secret in the request body; sending it with HTTP Basic authentication instead.`)
        try {
          return await grant(this.http(limit))
        } catch (again) {
          throw this.explain(operation, again)
        }
      } finally {
        limit.clear()
      }
    }
    const answer = this.closing ? await attempt() : await this.retrier.retrying(operation, attempt)
    registerSecret(answer.access_token)
    registerSecret(answer.refresh_token)
    // Where to revoke a refresh token is looked up now, so the end of a cancelled run (seconds) does not wait for it.
    if (answer.refresh_token && this.inputs.clientId !== undefined && !this.closing) void this.findRevocationEndpoint()
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
    if (this.stop?.aborted) return error
    if (error instanceof oauth.ResponseBodyError) {
      const said = `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`
      // A 429 is the endpoint's rate limit, not a refusal of the login: worth another try, as an answer that is not OAuth's.
      return new TokenEndpointError(`${operation}: HTTP ${error.status} ${said}. ${this.advice(error.error)}`, error.status >= 500 || error.status === 429)
    }
    if (error instanceof oauth.WWWAuthenticateChallengeError) {
      const code = error.cause.map((c) => c.parameters.error).find((e): e is string => typeof e === 'string') ?? 'invalid_client'
      const both = this.secretIn === 'basic' ? ' (with the secret in the body, then with HTTP Basic)' : ''
      return new TokenEndpointError(`${operation}: HTTP ${error.status} ${code}${both}. ${this.advice(code)}`, false)
    }
    if (error instanceof TypeError && !(error instanceof oauth.OperationProcessingError)) {
      // fetch's "fetch failed": no connection (the cause names why).
      const cause = (error as { cause?: unknown }).cause
      return new TokenEndpointError(`${operation}: ${this.inputs.tokenUrl} could not be reached (${describeError(cause ?? error)}).`, true)
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

  /**
   * The endpoint's metadata (RFC 8414 / OpenID discovery) at the token URL's path prefixes, asked at once within one
   * limit (the longest prefix that describes this token endpoint wins): the revocation endpoint where it names one,
   * 'none' where the metadata names none, or why it could not be read (not kept: the next look asks again).
   */
  private findRevocationEndpoint(): Promise<{ endpoint: string } | { none: true } | { failed: string }> {
    this.revocationEndpoint ??= (async () => {
      const limit = timeLimit(Math.min(METADATA_LIMIT_MS, this.limitMs))
      try {
        const answers = await Promise.all(
          metadataAddresses(this.inputs.tokenUrl).map(async (candidate) => {
            try {
              const res = await httpFetch(candidate, { dispatcher: this.dispatcher, signal: limit.signal })
              if (!res.ok) return { read: true as const }
              const meta = (await res.json()) as { token_endpoint?: unknown; revocation_endpoint?: unknown }
              if (meta.token_endpoint !== this.inputs.tokenUrl) return { read: true as const }
              return { read: true as const, endpoint: typeof meta.revocation_endpoint === 'string' ? meta.revocation_endpoint : undefined, found: true }
            } catch (error) {
              return { read: false as const, why: describeError(error) }
            }
          })
        )
        const found = answers.find((a) => 'found' in a)
        if (found !== undefined && 'found' in found) return found.endpoint === undefined ? { none: true as const } : { endpoint: found.endpoint }
        const unread = answers.find((a) => !a.read)
        if (unread !== undefined && 'why' in unread) {
          this.revocationEndpoint = undefined
          return { failed: `its metadata could not be read (${unread.why})` }
        }
        return { none: true as const }
      } finally {
        limit.clear()
      }
    })()
    return this.revocationEndpoint
  }
}

/**
 * A token answer without its OpenID Connect ID token (a scope with openid asks for one), masked first. The action uses
 * the access token alone; the library would check the ID token's issuer against the token URL's origin, the only issuer
 * it can know here, and refuse the login of a provider whose issuer has a path (Keycloak's realms, Okta's authorization
 * servers, Entra's tenants) or a trailing slash (Auth0).
 */
export async function withoutIdToken(res: Response): Promise<Response> {
  if (!res.ok) return res
  const text = await res.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  const headers = new Headers(res.headers)
  headers.delete('content-length')
  if (body === null || typeof body !== 'object' || !('id_token' in body)) return new Response(text, { status: res.status, statusText: res.statusText, headers })
  const { id_token: idToken, ...rest } = body as Record<string, unknown>
  if (typeof idToken === 'string') registerSecret(idToken)
  return new Response(JSON.stringify(rest), { status: res.status, statusText: res.statusText, headers })
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

/** The abort signal of a call's options (oauth4webapi also takes a function that makes one: never ours). */
function signalOf(http: oauth.TokenEndpointRequestOptions): AbortSignal | undefined {
  return typeof http.signal === 'function' ? undefined : http.signal
}
