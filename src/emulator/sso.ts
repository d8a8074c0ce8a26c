// Single sign-on mode: the stand-in identity provider (/idp/) and GitHub OIDC token service
// (/github-oidc/) on the stack's own port, and the identity provider's tokens as the only ones the cloud
// API accepts. The identity provider's URLs (its issuer) use the server's address once it listens, else
// the request's Host; the OIDC stand-in's issuer is GitHub's own.
import type { ApiModule, RequestContext } from './router.js'
import { GitHubOidc, OIDC_PATH } from './sso-github-oidc.js'
import { IDP_PATH, IdentityProvider } from './sso-idp.js'
import { resolveSso, type ResolvedSso } from './sso-options.js'
import { sharedSigningKey } from './sso-keys.js'
import { IdpTokens } from './sso-tokens.js'
import type { Settings } from './state.js'
import type { AccessTokens } from './tokens.js'
import type { SsoHandle, SsoOptions } from './types.js'

export interface Sso {
  readonly options: ResolvedSso
  readonly module: ApiModule
  readonly access: AccessTokens
  /** The identity provider's tokens (a test asks whether a refresh token still works). */
  readonly tokens: IdpTokens
  /** The server's own address: issuers stop following the Host header. */
  setBaseUrl(url: string): void
  /** What a test needs to wire a client, for the server at `url`. */
  handle(url: string): SsoHandle
}

export function createSso(ssoOptions: SsoOptions, settings: Settings, refreshSeconds: number, skewSeconds = 0): Sso {
  const options = resolveSso(ssoOptions)
  let baseUrl: string | undefined
  // In-process (the simulation) there is no listening address: the request's Host stands for it.
  const baseOf = (ctx: RequestContext): string => baseUrl ?? `http://${ctx.req.headers.host ?? '127.0.0.1'}`
  const shared = ssoOptions.sharedKeys === true
  const tokens = new IdpTokens(options.accessTokenSeconds, refreshSeconds, options.audience, skewSeconds, shared ? sharedSigningKey('idp') : undefined)
  const oidc = new GitHubOidc(options.githubJob, shared ? sharedSigningKey('github-oidc') : undefined, baseOf)
  const idp = new IdentityProvider(options, settings, tokens, oidc, baseOf)
  const [client] = options.clients
  return {
    options,
    module: { name: 'sso-stand-ins', routes: [...idp.routes(), ...oidc.routes()] },
    access: tokens.asAccessTokens(),
    tokens,
    setBaseUrl: (url) => void (baseUrl = url),
    handle: (url) => ({
      tokenUrl: `${url}${IDP_PATH}/oauth/token`,
      issuer: idp.issuer(url),
      audience: options.audience,
      clientId: client?.id ?? '',
      clientSecret: client?.secret ?? '',
      federatedClientId: options.federation.clientId,
      federationSubject: options.federation.subject,
      oidcAudience: options.federation.audience,
      oidcRequestUrl: `${url}${OIDC_PATH}/token?api-version=2.0`,
      oidcRequestToken: oidc.requestToken,
      oidcIssuer: oidc.issuer,
      oidcSubject: oidc.subject,
      ...(options.revocation && { revocationUrl: `${url}${IDP_PATH}/oauth/revoke` })
    })
  }
}
