// Issues, checks and revokes the emulator's access and refresh tokens (JWTs signed with a per-process secret).
import { randomBytes, randomUUID } from 'node:crypto'
import { signJwt, verifyJwt } from './jwt.js'

interface Issued {
  sub: string
  /** When it stops being accepted: its `exp`, plus the clock skew allowed for an access token. */
  expiresAtMs: number
}

export type TokenCheck = { ok: true; sub: string; jti: string } | { ok: false; detail: string }

/** The access tokens the cloud API accepts: the password login's, or in SSO mode the identity provider's. */
export interface AccessTokens {
  /** The error_code of a 401 for a refused bearer token. */
  readonly refusal: string
  check(token: string): TokenCheck
  /** Revokes every access token issued so far, or only those of `sub`. */
  revokeAll(sub?: string): void
}

/** The password login's access tokens as the cloud API's. */
export function passwordAccess(tokens: TokenService): AccessTokens {
  return {
    refusal: 'Unauthorized',
    check: (token) => tokens.check('access', token),
    revokeAll: (sub) => tokens.revokeAccessTokens(sub)
  }
}

export class TokenService {
  private readonly secret = randomBytes(32)
  private readonly live = { access: new Map<string, Issued>(), refresh: new Map<string, Issued>() }

  constructor(
    private readonly accessLifetimeSeconds: number,
    private readonly refreshLifetimeSeconds: number,
    /** How long past its `exp` an access token is still accepted (clock skew allowed). */
    private readonly accessSkewSeconds = 0
  ) {}

  issue(typ: 'access' | 'refresh', sub: string): string {
    const now = Date.now()
    const lifetime = typ === 'access' ? this.accessLifetimeSeconds : this.refreshLifetimeSeconds
    // Whole seconds, as real servers write them, and truthful: the token dies exactly at `exp` (unless a
    // skew is allowed), so exp - iat is its lifetime (it may live up to a second less than that after the call returns).
    const iat = Math.floor(now / 1000)
    const exp = iat + lifetime
    const jti = randomUUID()
    this.prune(now)
    this.live[typ].set(jti, { sub, expiresAtMs: exp * 1000 + this.skewMs(typ) })
    return signJwt({ sub, iat, exp, jti, typ }, this.secret)
  }

  check(typ: 'access' | 'refresh', token: string): TokenCheck {
    const now = Date.now()
    // An access token past its exp within the allowed skew is read as if the clock were that much behind.
    const result = verifyJwt(token, this.secret, now - this.skewMs(typ))
    if (!result.ok) {
      const detail = { malformed: 'The token is malformed', signature: 'The token signature is invalid', expired: 'The token has expired' }
      return { ok: false, detail: detail[result.reason] }
    }
    const { payload } = result
    if (payload.typ !== typ) return { ok: false, detail: `The token is not ${typ === 'access' ? 'an access' : 'a refresh'} token` }
    const issued = this.live[typ].get(payload.jti)
    if (issued === undefined) return { ok: false, detail: 'The token has been revoked' }
    if (now >= issued.expiresAtMs) return { ok: false, detail: 'The token has expired' }
    return { ok: true, sub: payload.sub, jti: payload.jti }
  }

  private skewMs(typ: 'access' | 'refresh'): number {
    return typ === 'access' ? this.accessSkewSeconds * 1000 : 0
  }

  revoke(typ: 'access' | 'refresh', jti: string): void {
    this.live[typ].delete(jti)
  }

  /** Revokes every access token issued so far, or only those of `sub`. Refresh tokens stay valid. */
  revokeAccessTokens(sub?: string): void {
    for (const [jti, issued] of this.live.access) {
      if (sub === undefined || issued.sub === sub) this.live.access.delete(jti)
    }
  }

  private prune(now: number): void {
    for (const map of [this.live.access, this.live.refresh]) {
      for (const [jti, issued] of map) if (now >= issued.expiresAtMs) map.delete(jti)
    }
  }
}
