// A stand-in for GitHub Actions' OIDC token service, as @actions/core's getIDToken calls it: GET the
// request URL (which carries ?api-version=2.0) plus `&audience=...` with `Authorization: Bearer <request
// token>`, answered `{"value": "<jwt>"}`. The JWT is RS256 with the stand-in's own key, for one repository.
import { randomUUID } from 'node:crypto'
import { HttpError } from './http-util.js'
import type { RequestContext, Route } from './router.js'
import { newSigningKey, signJwt, type SigningKey } from './sso-keys.js'
import { SSO_DEFAULTS } from './sso-options.js'

export const OIDC_PATH = '/github-oidc'

export class GitHubOidc {
  readonly key: SigningKey
  /** The runner's ACTIONS_ID_TOKEN_REQUEST_TOKEN: one per process. */
  readonly requestToken = `oidc-request-${randomUUID()}`

  constructor(
    private readonly baseOf: (ctx: RequestContext) => string,
    key?: SigningKey
  ) {
    this.key = key ?? newSigningKey()
  }

  issuer(base: string): string {
    return `${base}${OIDC_PATH}`
  }

  routes(): Route[] {
    return [
      {
        method: 'GET',
        path: `${OIDC_PATH}/token`,
        operation: 'oidc-token',
        summary: 'GitHub OIDC stand-in: {value: jwt} for ?audience= with Authorization: Bearer <request token>',
        handler: (ctx) => this.token(ctx)
      },
      {
        method: 'GET',
        path: `${OIDC_PATH}/.well-known/jwks`,
        operation: 'oidc-jwks',
        summary: 'GitHub OIDC stand-in: the key set its tokens are signed with',
        handler: (ctx) => ctx.send(200, { keys: [this.key.jwk] })
      }
    ]
  }

  private token(ctx: RequestContext): void {
    const m = /^bearer\s+(\S+)\s*$/i.exec(ctx.req.headers.authorization ?? '')
    // GitHub's body for a bad request token is not public: this one is the emulator's own.
    if (m?.[1] !== this.requestToken) throw new HttpError(401, 'Unauthorized', 'Bad credentials')
    const { defaultAudience, subject, repository, lifetimeSeconds } = SSO_DEFAULTS.oidc
    const iat = Math.floor(Date.now() / 1000)
    const claims = {
      iss: this.issuer(this.baseOf(ctx)),
      aud: ctx.url.searchParams.get('audience') ?? defaultAudience,
      sub: subject,
      repository,
      repository_owner: repository.split('/')[0],
      ref: 'refs/heads/main',
      iat,
      nbf: iat,
      exp: iat + lifetimeSeconds,
      jti: randomUUID()
    }
    ctx.send(200, { value: signJwt(claims, this.key) })
  }
}
