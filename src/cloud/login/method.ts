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
  /** Who issues its refresh tokens: the stack ('password'), or a token endpoint ('oauth'). */
  readonly issuer: 'password' | 'oauth'
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
   * Revokes this run's refresh tokens at the end, through `api` (a door of its own), and ends what the method
   * holds open. Resolves to why one failed, or undefined; never throws. `revoked` is told each one revoked.
   */
  revoke(api: CloudApi, refreshTokens: readonly string[], revoked: (token: string) => void): Promise<string | undefined>
  /**
   * The run's closing calls begin (after a cancel or the watchdog, too): calls of this method's own door (a token
   * endpoint) are no longer ended by the run's stop, and each gets `limitMs`. The stack's own login goes through
   * the session's door, which the session reroutes itself.
   */
  reroute?(limitMs: number): void
  /** Why nothing is revoked at the end, said once, when this method cannot revoke what it has (`none`: it received no refresh token). */
  readonly revokeNote?: ((none: boolean) => string | undefined) | undefined
  /** Advice for a token the stack refused (a 401 from verify_token or a call). */
  readonly refusedHint: string
}
