// What a way of getting an access token must do, so the session (../session.ts) renews, replays and
// revokes the same way whichever one a run uses: the stack's password login, an OAuth 2.0 token
// endpoint (single sign-on), or a ready token.
import type { CloudApi } from '../api.js'

/** The page every login message points at: which login a stack with single sign-on needs. */
export const SSO_DOCS_URL = 'https://github.com/brcloud/brcloud-deploy/blob/main/docs/single-sign-on.md'

/** Tokens as a login or renewal answered them (each masked by the method the moment it arrived). */
export interface TokenGrant {
  readonly accessToken: string
  readonly refreshToken?: string | undefined
  /** The answer's expires_in, when it said. */
  readonly expiresInSeconds?: number | undefined
}

export interface LoginMethod {
  /** For the log: "Logged in as <who>". */
  readonly who: string
  /** Whether the stack should be asked, before any change, whether it accepts the token (verify_token): a token it did not issue. */
  readonly preflight: boolean
  /** Renew no later than this after a token arrives, whatever it says of its lifetime (the platform's advice); undefined: its lifetime decides. */
  readonly renewAfterMs?: number | undefined
  /** Gets a token. Throws an error that says what to fix. */
  obtain(api: CloudApi): Promise<TokenGrant>
  /** Renews with the refresh token (undefined: obtain again); throws when refused. */
  refresh?(api: CloudApi, refreshToken: string): Promise<TokenGrant>
  /** False for a token that cannot be renewed (a ready token). */
  readonly renewable: boolean
  /**
   * Revokes this run's refresh token at the end, through `api` (a door of its own). Resolves to why it
   * failed, or undefined; never throws. `refreshToken` undefined: nothing to revoke.
   */
  revoke(api: CloudApi, refreshToken: string | undefined): Promise<string | undefined>
  /** Why nothing is revoked at the end, said once, when this method cannot revoke what it has. */
  readonly revokeNote?: ((refreshToken: string | undefined) => string | undefined) | undefined
  /** Advice for a token the stack refused (a 401 from verify_token or a call). */
  readonly refusedHint: string
}
