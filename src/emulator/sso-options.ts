// The single sign-on mode's options with their defaults, in one place.
import type { PasswordLoginAnswer, SsoClient, SsoOptions } from './types.js'

export const SSO_DEFAULTS = {
  passwordLogin: '403',
  audience: 'brcloud-api',
  clients: [{ id: 'ci-client', secret: 'ci-secret-123456' }],
  accessTokenSeconds: 600,
  refreshTokens: 'password',
  revocation: true,
  federation: { clientId: 'gh-federated', audience: 'api://brcloud-ci', subject: 'repo:acme/site:*' },
  /** The GitHub OIDC stand-in: the audience it signs for when asked for none, the subject and repository it signs. */
  oidc: { defaultAudience: 'https://github.com/acme', subject: 'repo:acme/site:ref:refs/heads/main', repository: 'acme/site', lifetimeSeconds: 300 }
} as const

export interface ResolvedSso {
  passwordLogin: PasswordLoginAnswer
  audience: string
  clients: SsoClient[]
  accessTokenSeconds: number
  refreshTokens: 'password' | 'all' | 'none'
  revocation: boolean
  federation: { clientId: string; audience: string; subject: string }
}

/** The options with every default filled in; throws on values the stand-in cannot serve. */
export function resolveSso(options: SsoOptions): ResolvedSso {
  const resolved: ResolvedSso = {
    passwordLogin: options.passwordLogin ?? SSO_DEFAULTS.passwordLogin,
    audience: options.audience ?? SSO_DEFAULTS.audience,
    clients: (options.clients ?? SSO_DEFAULTS.clients).map((c) => ({ ...c })),
    accessTokenSeconds: options.accessTokenSeconds ?? SSO_DEFAULTS.accessTokenSeconds,
    refreshTokens: options.refreshTokens ?? SSO_DEFAULTS.refreshTokens,
    revocation: options.revocation ?? SSO_DEFAULTS.revocation,
    federation: { ...SSO_DEFAULTS.federation, ...options.federation }
  }
  // Emulator.sso names the first client: a stack with none could not be wired.
  if (resolved.clients.length === 0) throw new Error('sso.clients needs at least one client')
  if (!Number.isInteger(resolved.accessTokenSeconds) || resolved.accessTokenSeconds < 1) {
    throw new Error(`sso.accessTokenSeconds must be a whole number >= 1, got ${resolved.accessTokenSeconds}`)
  }
  return resolved
}
