// The stack's own login: POST /v3/authn/access_token with the user's name and password, renewed with
// the refresh token, which is revoked at the end (never logout: that ends every token of the user, in
// every parallel job). A stack with single sign-on disables it: the refusal says so.
import { LoginRefused, ServiceError } from '../../errors.js'
import { registerSecret } from '../../secrets.js'
import type { CloudApi } from '../api.js'
import { SSO_DOCS_URL, type LoginMethod, type TokenGrant } from './method.js'

/** The platform's advice: renew 9 minutes after issue (tokens live 10). */
export const RENEW_AFTER_MS = 9 * 60_000

const SSO_HINT = `If this stack uses single sign-on, its password login is disabled: log in through your identity provider with token-url (see ${SSO_DOCS_URL}).`

interface TokenAnswer {
  token_type?: string
  access_token?: string
  refresh_token?: string
}

export class PasswordLogin implements LoginMethod {
  readonly issuer = 'password'
  readonly preflight = false
  readonly renewable = true
  readonly renewAfterMs = RENEW_AFTER_MS
  readonly refusedHint = 'Run again; if it persists, check that the user may deploy to this stack.'

  constructor(
    readonly who: string,
    private readonly password: string,
    /** For messages: the stack (or host) the user logs in to. */
    private readonly target: string
  ) {}

  async obtain(api: CloudApi): Promise<TokenGrant> {
    let answer: TokenAnswer | undefined
    try {
      answer = await api.retrying('Login', () =>
        api.json<TokenAnswer>({ operation: 'Login', method: 'POST', path: '/v3/authn/access_token', json: { username: this.who, password: this.password } })
      )
    } catch (error) {
      throw this.refused(error)
    }
    return toGrant(answer, 'Login')
  }

  async refresh(api: CloudApi, refreshToken: string): Promise<TokenGrant> {
    const answer = await api.retrying('Token refresh', () =>
      api.json<TokenAnswer>({
        operation: 'Token refresh',
        method: 'POST',
        path: '/v3/authn/refresh_token',
        json: { grant_type: 'refresh_token', refresh_token: refreshToken }
      })
    )
    return toGrant(answer, 'Token refresh')
  }

  async revoke(api: CloudApi, refreshTokens: readonly string[], revoked: (token: string) => void): Promise<string | undefined> {
    let failed: string | undefined
    for (const token of refreshTokens) {
      try {
        await revokeRefreshToken(api, token)
        revoked(token)
      } catch (error) {
        failed ??= error instanceof Error ? error.message : String(error)
      }
    }
    return failed
  }

  /** A refusal says what to check: the credentials, the stack, and single sign-on (which disables this login). */
  private refused(error: unknown): unknown {
    if (!(error instanceof ServiceError) || error.status < 401 || error.status >= 500 || error.status === 429) return error
    const code = `HTTP ${error.status}${error.errorCode ? ` ${error.errorCode}` : ''}`
    const check =
      error.status === 401
        ? 'Check that the username and password secrets belong to a user of this stack, that the password has not expired, and that the stack is the right one. '
        : ''
    return new LoginRefused(
      `Login to ${this.target} as user '${this.who}' was refused (${code}). ${check}${SSO_HINT}`,
      error.status,
      error.errorCode,
      error.errorDetail
    )
  }
}

/** The tokens of an answer, masked first: nothing may print a token before the runner knows to hide it. */
function toGrant(answer: TokenAnswer | undefined, operation: string): TokenGrant {
  registerSecret(answer?.access_token)
  registerSecret(answer?.refresh_token)
  if (!answer || typeof answer.access_token !== 'string' || answer.access_token === '') throw new Error(`${operation}: the answer holds no access_token`)
  // The refresh answer carries no new refresh token: the session keeps the one from the login.
  const refreshToken = typeof answer.refresh_token === 'string' && answer.refresh_token !== '' ? answer.refresh_token : undefined
  return { accessToken: answer.access_token, refreshToken }
}

/** The one revocation call: DELETE /v3/authn/refresh_token with the token in the body (never logout). The post step uses it too. */
export async function revokeRefreshToken(api: CloudApi, refreshToken: string): Promise<void> {
  await api.json<unknown>({
    operation: 'Revoking the refresh token',
    method: 'DELETE',
    path: '/v3/authn/refresh_token',
    json: { grant_type: 'refresh_token', refresh_token: refreshToken }
  })
}
