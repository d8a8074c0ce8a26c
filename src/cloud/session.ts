// The session owns the tokens. Every call asks it for a valid access token; it renews through the
// refresh operation before the token runs out, and renews once more when a call meets a 401. How
// tokens are got (the stack's password login, an OAuth token endpoint, a ready token) is its
// LoginMethod (./login/). It never calls logout: that would end every token of the user, in every parallel job.
import * as core from '../port.js'
import { ActionError, describeError, ServiceError, TokenNotRenewed, TokenRefused } from '../errors.js'
import { networkFailure } from '../http/errors.js'
import { noteRefreshTokens } from '../run-state.js'
import type { CloudApi } from './api.js'
import { jwtLifetimeMs } from './jwt.js'
import type { LoginMethod, TokenGrant } from './login/method.js'
import { PasswordLogin, RENEW_AFTER_MS } from './login/password.js'

export { RENEW_AFTER_MS, revokeRefreshToken } from './login/password.js'
export { jwtLifetimeMs } from './jwt.js'

export interface SessionOptions {
  /** For messages: the stack (or host) the user logs in to. */
  target: string
  now?: () => number
}

/** What the stack said of a token before any change (verify_token). */
export interface TokenCheck {
  readonly userId: string | undefined
  readonly role: string | undefined
}

export class CloudSession {
  private accessToken: string | undefined
  private refreshToken: string | undefined
  /** Every refresh token received and not yet revoked. */
  private received: string[] = []
  private renewAt = 0
  private renewing: Promise<void> | undefined
  /** The refresh token was (or is being) revoked: the run is ending. */
  private closed = false
  /** Logins under way: one that ends after the revocation brings a refresh token of its own to revoke. */
  private loginsUnderWay = 0
  private readonly now: () => number
  private readonly method: LoginMethod
  /** How many times the access token was renewed (reported in the summary). */
  renewals = 0

  /** `login`: how tokens are got; a user name and password (the stack's password login) for short. */
  constructor(api: CloudApi, login: LoginMethod, options: SessionOptions)
  constructor(api: CloudApi, username: string, password: string, options: SessionOptions)
  constructor(
    private api: CloudApi,
    login: LoginMethod | string,
    passwordOrOptions: string | SessionOptions,
    maybeOptions?: SessionOptions
  ) {
    const options = typeof passwordOrOptions === 'string' ? (maybeOptions as SessionOptions) : passwordOrOptions
    this.method = typeof login === 'string' ? new PasswordLogin(login, passwordOrOptions as string, options.target) : login
    this.now = options.now ?? Date.now
  }

  /** Who the run acts as, for the log. */
  get who(): string {
    return this.method.who
  }

  async login(): Promise<void> {
    // A closed session logs in no more: tokens that arrived after the revocation would stay valid.
    if (this.closed) throw new Error('Login: the run is ending and its session is closed')
    this.loginsUnderWay++
    try {
      this.accept(await this.method.obtain(this.api))
      // A login that was under way when the session closed: its refresh token is revoked at once, and a failure said.
      if (this.closed && this.refreshToken) {
        const failed = await this.revokeTokens(this.api, [this.refreshToken])
        if (failed !== undefined)
          core.warning(
            `Could not revoke the refresh token of a login that ended after this run's revocation (${failed}); it expires by itself within 24 hours.`
          )
      }
    } finally {
      this.loginsUnderWay--
    }
  }

  /** A login is under way (a renewal that failed logs in again): its refresh token is not revoked yet. */
  get loggingIn(): boolean {
    return this.loginsUnderWay > 0
  }

  /**
   * Asks the stack whether it accepts the token (GET /v3/authn/verify_token) before any change, for a
   * token it did not issue itself (single sign-on, access-token). Throws a message that says what to fix.
   */
  async verify(): Promise<TokenCheck | undefined> {
    if (!this.method.preflight) return undefined
    const token = await this.token()
    try {
      const answer = await this.api.retrying('Checking the token', () =>
        this.api.answer({ operation: 'Checking the token', method: 'GET', path: '/v3/authn/verify_token', token })
      )
      const header = (name: string): string | undefined => {
        const v = answer.headers[name]
        return Array.isArray(v) ? v[0] : v
      }
      return { userId: header('x-user-id'), role: header('x-user-role') }
    } catch (error) {
      if (error instanceof ServiceError && (error.status === 401 || error.status === 403)) {
        throw new TokenRefused(
          `The stack refused the token (HTTP ${error.status}${error.errorCode ? ` ${error.errorCode}` : ''}) before any change. ${this.method.refusedHint}`
        )
      }
      // Any other answer (no such endpoint, a 5xx after its attempts) tells nothing of the token: the first call will.
      if (error instanceof ServiceError || networkFailure(error)) {
        core.info(`The stack could not say whether it accepts the token (${describeError(error)}); going on: the first call will tell.`)
        return undefined
      }
      throw error
    }
  }

  /**
   * Sends every later call, renewals included, through another door: the run's closing calls use one of
   * their own after the watchdog or a cancel aborted the first, and still renew a token that is due.
   */
  reroute(api: CloudApi, limitMs: number): void {
    this.api = api
    this.method.reroute?.(limitMs)
  }

  /** A valid access token, renewed first when it is due. */
  async token(): Promise<string> {
    if (!this.accessToken) await this.login()
    else if (this.now() >= this.renewAt) await this.renew()
    if (!this.accessToken) throw new Error('internal error: no access token after login')
    return this.accessToken
  }

  /** Runs `call` with a token; on a 401 renews once and replays it. `call` must be replayable. */
  async authorized<T>(call: (token: string) => Promise<T>): Promise<T> {
    const token = await this.token()
    try {
      return await call(token)
    } catch (error) {
      if (!(error instanceof ServiceError) || error.status !== 401) throw error
      core.info('The access token was refused (401); renewing it and trying once more.')
      if (this.accessToken === token) await this.renew()
      return call(await this.token())
    }
  }

  /** Refresh, else log in again. Concurrent callers share one renewal. */
  async renew(): Promise<void> {
    this.renewing ??= this.doRenew().finally(() => (this.renewing = undefined))
    return this.renewing
  }

  private async doRenew(): Promise<void> {
    if (!this.method.renewable) throw new TokenNotRenewed(`The token is refused or due, and it is not renewed. ${this.method.refusedHint}`)
    this.renewals++
    if (this.refreshToken && this.method.refresh) {
      try {
        this.accept(await this.method.refresh(this.api, this.refreshToken))
        core.info('Access token renewed through the refresh operation.')
        return
      } catch (error) {
        // Refused (401), or failing after its attempts (5xx, no connection): a fresh login may still
        // get through, and only when that fails too does the call fail. Anything else (the run's
        // watchdog, a bug) ends it here.
        if (error instanceof ServiceError && error.status < 500) core.info(`The refresh token was refused (HTTP ${error.status}); logging in again.`)
        else if (error instanceof ServiceError || networkFailure(error) || error instanceof ActionError)
          core.info(`The token refresh failed (${describeError(error)}); logging in again.`)
        else throw error
      }
    }
    await this.login()
  }

  /**
   * Revokes every refresh token this run received (each would stay valid for 24 hours after the job; a login
   * after a failed renewal brings another), through `api` (a door of its own at the end of the run). Never
   * logout: that ends every token of the user, in every parallel job. Resolves to why one failed, or
   * undefined; it never throws.
   */
  async revoke(api: CloudApi): Promise<string | undefined> {
    this.closed = true
    const note = this.method.revokeNote?.(this.received.length === 0)
    if (note !== undefined) core.info(`Token: ${note}.`)
    return this.revokeTokens(api, [...this.received])
  }

  private async revokeTokens(api: CloudApi, tokens: readonly string[]): Promise<string | undefined> {
    return this.method.revoke(api, tokens, (token) => {
      this.received = this.received.filter((t) => t !== token)
      if (this.refreshToken === token) this.refreshToken = undefined
      this.noteTokens()
    })
  }

  /** What the post step revokes if this run cannot (a kill): every refresh token still valid. */
  private noteTokens(): void {
    noteRefreshTokens(this.method.issuer, this.api.baseUrl, this.received)
  }

  private accept(grant: TokenGrant): void {
    this.accessToken = grant.accessToken
    // A renewal may carry no new refresh token: keep the one from the login. Each one received is revoked at the end.
    if (grant.refreshToken !== undefined) {
      this.refreshToken = grant.refreshToken
      if (!this.received.includes(grant.refreshToken)) this.received.push(grant.refreshToken)
      this.noteTokens()
    }
    const lifetime = grant.expiresInSeconds !== undefined ? grant.expiresInSeconds * 1000 : jwtLifetimeMs(grant.accessToken)
    const byLifetime = lifetime === undefined ? RENEW_AFTER_MS : Math.floor(lifetime * 0.9)
    // A token that cannot be renewed is used until the stack refuses it.
    this.renewAt = this.method.renewable ? this.now() + Math.min(byLifetime, this.method.renewAfterMs ?? byLifetime) : Number.POSITIVE_INFINITY
  }
}
