// How the run gets its access token: the stack's password login (the default), an OAuth 2.0 token
// endpoint (a stack with single sign-on: client credentials, a script account's password, or GitHub's
// OIDC token as a client assertion), or a ready token. One reading of the inputs, checked before any
// request; docs/single-sign-on.md says which to use when.
import type { InputName } from '../action-metadata.js'
import { missingSecret, missingUsername, oidcUnavailable } from '../advice.js'
import { jwtExpiry } from '../cloud/jwt.js'
import { InputError } from '../errors.js'
import { parseAbsoluteUrl, requireHttps } from './address.js'
import { required } from './parsers.js'

export const LoginInput = {
  Username: 'username',
  Password: 'password',
  TokenUrl: 'token-url',
  ClientId: 'client-id',
  ClientSecret: 'client-secret',
  OidcAudience: 'oidc-audience',
  Audience: 'audience',
  Scope: 'scope',
  AccessToken: 'access-token'
} as const satisfies Record<string, InputName>

/** The OAuth grant: client credentials (a secret, or GitHub's OIDC token as the client's assertion), or a script account's password. */
export type OAuthGrant = 'client_credentials' | 'client_assertion' | 'password'

export type Login =
  | { readonly kind: 'password'; readonly username: string; readonly password: string }
  | {
      readonly kind: 'oauth'
      readonly tokenUrl: string
      readonly grant: OAuthGrant
      readonly clientId: string | undefined
      readonly clientSecret: string | undefined
      readonly username: string | undefined
      readonly password: string | undefined
      readonly oidcAudience: string | undefined
      readonly audience: string | undefined
      readonly scope: string | undefined
    }
  | { readonly kind: 'token'; readonly accessToken: string; readonly expiresAtMs: number | undefined }

type Reader = (name: InputName) => string

const SSO_DOCS = 'docs/single-sign-on.md'

/** Names of the inputs in `names` that are set. */
function setOf(read: Reader, names: readonly InputName[]): InputName[] {
  return names.filter((n) => read(n) !== '')
}

/** Refuses inputs that would be ignored: a login reads one set of credentials. */
function refuseWith(read: Reader, names: readonly InputName[], why: string): void {
  const set = setOf(read, names)
  if (set.length > 0) throw new InputError(`${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} set, but ${why}.`)
}

/** `password` was read untrimmed and masked by the caller; `env` is where GitHub says whether an OIDC token can be asked for. */
export function readLogin(read: Reader, password: string, env: NodeJS.ProcessEnv = process.env): Login {
  const pick = (name: InputName): string => (name === LoginInput.Password ? password : read(name))
  const accessToken = read(LoginInput.AccessToken)
  if (accessToken !== '') {
    refuseWith(
      pick,
      [
        LoginInput.Username,
        LoginInput.Password,
        LoginInput.TokenUrl,
        LoginInput.ClientId,
        LoginInput.ClientSecret,
        LoginInput.OidcAudience,
        LoginInput.Audience,
        LoginInput.Scope
      ],
      'access-token is used as it is, with no login: leave the other credentials empty, or leave access-token empty'
    )
    return { kind: 'token', accessToken, expiresAtMs: jwtExpiry(accessToken) }
  }
  const tokenUrl = read(LoginInput.TokenUrl)
  if (tokenUrl === '') {
    refuseWith(
      pick,
      [LoginInput.ClientId, LoginInput.ClientSecret, LoginInput.OidcAudience, LoginInput.Audience, LoginInput.Scope],
      `token-url is empty: they are sent to an OAuth token endpoint, for a stack with single sign-on. Set token-url (see ${SSO_DOCS}), or leave them empty`
    )
    return passwordLogin(pick)
  }
  return oauthLogin(pick, parseTokenUrl(tokenUrl), env)
}

function passwordLogin(pick: Reader): Login {
  const username = required(LoginInput.Username, pick(LoginInput.Username), missingUsername())
  const password = required(LoginInput.Password, pick(LoginInput.Password), missingSecret(LoginInput.Password))
  return { kind: 'password', username, password }
}

function oauthLogin(pick: Reader, tokenUrl: string, env: NodeJS.ProcessEnv): Login {
  const value = (name: InputName): string | undefined => pick(name) || undefined
  const clientId = value(LoginInput.ClientId)
  const clientSecret = value(LoginInput.ClientSecret)
  const username = value(LoginInput.Username)
  const password = value(LoginInput.Password)
  const oidcAudience = value(LoginInput.OidcAudience)
  const common = {
    kind: 'oauth',
    tokenUrl,
    clientId,
    clientSecret,
    username,
    password,
    oidcAudience,
    audience: value(LoginInput.Audience),
    scope: value(LoginInput.Scope)
  } as const
  if (clientSecret !== undefined && clientId === undefined)
    throw new InputError('client-secret is set without client-id: set client-id to the OAuth client the secret belongs to.')
  if ((username === undefined) !== (password === undefined)) {
    throw new InputError(
      `With token-url, ${username === undefined ? 'password is set without username' : 'username is set without password'}: a script account needs both.`
    )
  }
  if (oidcAudience !== undefined) {
    refuseWith(
      pick,
      [LoginInput.ClientSecret, LoginInput.Username, LoginInput.Password],
      "oidc-audience logs in with GitHub's OIDC token instead of a secret: leave them empty, or leave oidc-audience empty"
    )
    const unavailable = oidcUnavailable(env)
    if (unavailable !== undefined) throw new InputError(unavailable)
    return { ...common, grant: 'client_assertion' }
  }
  if (username !== undefined) return { ...common, grant: 'password' }
  if (clientId !== undefined && clientSecret !== undefined) return { ...common, grant: 'client_credentials' }
  throw new InputError(
    'token-url is set without credentials for it: set client-id and client-secret (client credentials), username and password (a script account ' +
      `of your identity provider), or oidc-audience (GitHub's OIDC token, no secret). See ${SSO_DOCS}.`
  )
}

function parseTokenUrl(value: string): string {
  const rules = {
    input: LoginInput.TokenUrl,
    example: 'https://login.example.com/oauth/token',
    credentialsHint: 'Pass credentials through client-id and client-secret.',
    secret: 'the client secret or password'
  }
  const url = parseAbsoluteUrl(value, rules, true)
  requireHttps(url, value, rules)
  return url.href
}

/** A ready token that ends before the run's budgets would: refused before any change. */
export function checkTokenLifetime(login: Login, watchdogMs: number, now: number = Date.now()): void {
  if (login.kind !== 'token' || login.expiresAtMs === undefined) return
  const at = new Date(login.expiresAtMs).toISOString()
  if (login.expiresAtMs <= now) throw new InputError(`access-token expired at ${at}: get a fresh token in the step before this one.`)
  const left = login.expiresAtMs - now
  if (left < watchdogMs) {
    throw new InputError(
      `access-token expires at ${at}, in ${Math.floor(left / 60_000)} min, before the run's budgets end (${Math.ceil(watchdogMs / 60_000)} min, total-timeout-minutes): ` +
        'it is not renewed, so the deploy could lose its token halfway. Get a token that lives longer, lower total-timeout-minutes, or use token-url so the action renews it.'
    )
  }
}
