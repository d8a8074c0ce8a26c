// The session owns the tokens. Every call asks it for a valid access token; it renews through the
// refresh operation before the token runs out, and renews once more when a call meets a 401.
// It never calls logout: that would end every token of the user, in every parallel job.
import * as core from '@actions/core'
import { describeError, ServiceError } from '../errors.js'
import { networkFailure } from '../http/errors.js'
import { registerSecret } from '../secrets.js'
import { noteRefreshToken, noteRevoked } from '../run-state.js'
import type { CloudApi } from './api.js'

/** The platform's advice: renew 9 minutes after issue (tokens live 10). */
export const RENEW_AFTER_MS = 9 * 60_000

interface TokenAnswer {
  token_type?: string
  access_token?: string
  refresh_token?: string
}

export interface SessionOptions {
  /** For messages: the stack (or host) the user logs in to. */
  target: string
  now?: () => number
}

/** Milliseconds between `iat` and `exp` of a JWT, or undefined when the token is not a readable JWT. */
export function jwtLifetimeMs(token: string): number | undefined {
  const payload = token.split('.')[1]
  if (token.split('.').length !== 3 || !payload) return undefined
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { iat?: unknown; exp?: unknown }
    if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number' || claims.exp <= claims.iat) return undefined
    return (claims.exp - claims.iat) * 1000
  } catch {
    return undefined
  }
}

export class CloudSession {
  private accessToken: string | undefined
  private refreshToken: string | undefined
  private renewAt = 0
  private renewing: Promise<void> | undefined
  /** The refresh token was (or is being) revoked: the run is ending. */
  private closed = false
  private readonly now: () => number
  /** How many times the access token was renewed (reported in the summary). */
  renewals = 0

  constructor(
    private api: CloudApi,
    private readonly username: string,
    private readonly password: string,
    private readonly options: SessionOptions
  ) {
    this.now = options.now ?? Date.now
  }

  async login(): Promise<void> {
    // A closed session logs in no more: tokens that arrived after the revocation would stay valid.
    if (this.closed) throw new Error('Login: the run is ending and its session is closed')
    let answer: TokenAnswer
    try {
      answer = await this.api.retrying('Login', () =>
        this.api.json<TokenAnswer>({
          operation: 'Login',
          method: 'POST',
          path: '/v3/authn/access_token',
          json: { username: this.username, password: this.password }
        })
      )
    } catch (error) {
      if (error instanceof ServiceError && error.status === 401) {
        throw new ServiceError(
          `Login to ${this.options.target} as user '${this.username}' was refused (HTTP 401${error.errorCode ? ` ${error.errorCode}` : ''}). ` +
            `Check that the username and password secrets belong to a user of this stack, that the password has not ` +
            `expired, and that the stack is the right one.`,
          401,
          error.errorCode,
          error.errorDetail
        )
      }
      throw error
    }
    this.accept(answer, 'Login')
    if (this.refreshToken) noteRefreshToken(this.api.baseUrl, this.refreshToken)
    // A login that was under way when the session closed: its refresh token is revoked at once.
    if (this.closed && this.refreshToken) void this.revokeToken(this.api, this.refreshToken)
  }

  /**
   * Sends every later call, renewals included, through another door: the run's closing calls use one of
   * their own after the watchdog or a cancel aborted the first, and still renew a token that is due.
   */
  reroute(api: CloudApi): void {
    this.api = api
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
    this.renewals++
    if (this.refreshToken) {
      try {
        const refreshToken = this.refreshToken
        const answer = await this.api.retrying('Token refresh', () =>
          this.api.json<TokenAnswer>({
            operation: 'Token refresh',
            method: 'POST',
            path: '/v3/authn/refresh_token',
            json: { grant_type: 'refresh_token', refresh_token: refreshToken }
          })
        )
        this.accept(answer, 'Token refresh')
        core.info('Access token renewed through the refresh operation.')
        return
      } catch (error) {
        // Refused (401), or failing after its attempts (5xx, no connection): a fresh login may still
        // get through, and only when that fails too does the call fail. Anything else (the run's
        // watchdog, a bug) ends it here.
        if (error instanceof ServiceError && error.status < 500) core.info(`The refresh token was refused (HTTP ${error.status}); logging in again.`)
        else if (error instanceof ServiceError || networkFailure(error)) core.info(`The token refresh failed (${describeError(error)}); logging in again.`)
        else throw error
      }
    }
    await this.login()
  }

  /**
   * Revokes this run's own refresh token (it would stay valid for 24 hours after the job), through
   * `api` (a door of its own at the end of the run). Never logout: that ends every token of the user,
   * in every parallel job. Resolves to why it failed, or undefined; it never throws.
   */
  async revoke(api: CloudApi): Promise<string | undefined> {
    this.closed = true
    const refreshToken = this.refreshToken
    if (refreshToken === undefined) return undefined
    return this.revokeToken(api, refreshToken)
  }

  private async revokeToken(api: CloudApi, refreshToken: string): Promise<string | undefined> {
    try {
      await revokeRefreshToken(api, refreshToken)
      if (this.refreshToken === refreshToken) this.refreshToken = undefined
      noteRevoked()
      return undefined
    } catch (error) {
      return describeError(error)
    }
  }

  private accept(answer: TokenAnswer | undefined, operation: string): void {
    // Mask first, look later: nothing may print a token before the runner knows to hide it.
    registerSecret(answer?.access_token)
    registerSecret(answer?.refresh_token)
    if (!answer || typeof answer.access_token !== 'string' || answer.access_token === '') {
      throw new Error(`${operation}: the answer holds no access_token`)
    }
    this.accessToken = answer.access_token
    // The refresh answer carries no new refresh token: keep the one from the login.
    if (typeof answer.refresh_token === 'string' && answer.refresh_token !== '') this.refreshToken = answer.refresh_token
    const lifetime = jwtLifetimeMs(answer.access_token)
    const renewAfter = lifetime === undefined ? RENEW_AFTER_MS : Math.min(RENEW_AFTER_MS, Math.floor(lifetime * 0.9))
    this.renewAt = this.now() + renewAfter
  }
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
