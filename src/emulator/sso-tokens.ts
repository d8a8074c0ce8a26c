// The stand-in identity provider's tokens: RS256 access tokens (JWTs) it signs and the cloud API checks in
// SSO mode, and opaque refresh tokens; both revocable.
import { randomBytes, randomUUID } from 'node:crypto'
import { audiences, newSigningKey, signJwt, verifyJwt, type SigningKey } from './sso-keys.js'
import type { AccessTokens, TokenCheck } from './tokens.js'

/** What an access token is issued for; a refresh token remembers it to issue the next. */
export interface Grant {
  sub: string
  /** The authenticated client (`azp`); none for a password grant without client authentication. */
  clientId?: string
  audience: string
  scope?: string
}

interface Live {
  sub: string
  expiresAtMs: number
}

interface Refresh {
  grant: Grant
  expiresAtMs: number
}

export class IdpTokens {
  readonly key: SigningKey
  /** Access tokens issued and not revoked, by jti (a revoked one stops working at the cloud API too). */
  private readonly live = new Map<string, Live>()
  private readonly refresh = new Map<string, Refresh>()

  constructor(
    private readonly accessSeconds: number,
    private readonly refreshSeconds: number,
    /** The audience the cloud API accepts. */
    private readonly apiAudience: string,
    /** How long past its `exp` the cloud API still accepts an access token (clock skew allowed). */
    private readonly skewSeconds = 0,
    key?: SigningKey
  ) {
    this.key = key ?? newSigningKey()
  }

  /** `lifetimeSeconds`: the identity provider's default, or another (a token an earlier step got with its own lifetime). */
  issueAccess(grant: Grant, issuer: string, lifetimeSeconds = this.accessSeconds): { token: string; expiresIn: number } {
    const iat = Math.floor(Date.now() / 1000)
    const exp = iat + lifetimeSeconds
    const jti = randomUUID()
    this.prune()
    this.live.set(jti, { sub: grant.sub, expiresAtMs: exp * 1000 + this.skewSeconds * 1000 })
    const claims = { iss: issuer, sub: grant.sub, aud: grant.audience, iat, exp, jti, ...(grant.scope !== undefined && { scope: grant.scope }) }
    return { token: signJwt({ ...claims, ...(grant.clientId !== undefined && { azp: grant.clientId }) }, this.key), expiresIn: lifetimeSeconds }
  }

  issueRefresh(grant: Grant): string {
    const token = `rt_${randomBytes(32).toString('base64url')}`
    this.refresh.set(token, { grant, expiresAtMs: Date.now() + this.refreshSeconds * 1000 })
    return token
  }

  /** The grant a live refresh token stands for. */
  refreshGrant(token: string): Grant | undefined {
    const found = this.refresh.get(token)
    if (found === undefined || Date.now() >= found.expiresAtMs) return undefined
    return found.grant
  }

  /** RFC 7009: a refresh token or an access token of this issuer (expired or not); anything else is ignored. */
  revoke(token: string): void {
    if (this.refresh.delete(token)) return
    const reading = verifyJwt(token, this.key, Date.now(), true)
    if (reading.ok && typeof reading.claims.jti === 'string') this.live.delete(reading.claims.jti)
  }

  /** The cloud API's check of a bearer token: signed by this key, not expired (past the skew allowed), for its audience, not revoked. */
  check(token: string): TokenCheck {
    const reading = verifyJwt(token, this.key, Date.now() - this.skewSeconds * 1000)
    if (!reading.ok) {
      const detail = {
        malformed: 'The token is malformed',
        signature: 'The token signature is invalid: it is not signed by the identity provider',
        expired: 'The token has expired'
      }
      return { ok: false, detail: detail[reading.reason] }
    }
    const { claims } = reading
    const aud = audiences(claims)
    if (!aud.includes(this.apiAudience)) {
      const named = aud.length === 0 ? 'no audience' : `the audience ${aud.map((a) => `"${a}"`).join(', ')}`
      return { ok: false, detail: `The token has ${named}, not this API's ("${this.apiAudience}")` }
    }
    const jti = typeof claims.jti === 'string' ? claims.jti : ''
    const live = this.live.get(jti)
    if (live === undefined) return { ok: false, detail: 'The token has been revoked' }
    return { ok: true, sub: live.sub, jti }
  }

  revokeAll(sub?: string): void {
    for (const [jti, live] of this.live) if (sub === undefined || live.sub === sub) this.live.delete(jti)
  }

  /** As the cloud API's access tokens; its 401s say AuthenticationFailed, as for a failed login. */
  asAccessTokens(): AccessTokens {
    return { refusal: 'AuthenticationFailed', check: (token) => this.check(token), revokeAll: (sub) => this.revokeAll(sub) }
  }

  private prune(): void {
    const now = Date.now()
    for (const [jti, live] of this.live) if (now >= live.expiresAtMs) this.live.delete(jti)
    for (const [token, refresh] of this.refresh) if (now >= refresh.expiresAtMs) this.refresh.delete(token)
  }
}
