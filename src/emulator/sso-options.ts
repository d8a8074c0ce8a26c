// The single sign-on mode's options with their defaults, in one place.
import type { GitHubJob, PasswordLoginAnswer, SsoClient, SsoOptions } from './types.js'

/** The job the GitHub OIDC stand-in signs for unless told otherwise: a push to main of acme/site, no environment. */
const GITHUB_JOB: Readonly<GitHubJob> = {
  repository: 'acme/site',
  repositoryId: '700001',
  repositoryOwnerId: '700000',
  ref: 'refs/heads/main',
  /** The commit `npm run action` runs at when GITHUB_SHA is not set. */
  sha: '0123456789abcdef0123456789abcdef01234567',
  eventName: 'push',
  workflow: 'Deploy',
  workflowFile: '.github/workflows/deploy.yml',
  runId: '1',
  runNumber: '1',
  runAttempt: '1',
  actor: 'acme-developer',
  actorId: '700002',
  baseRef: '',
  headRef: ''
}

export const SSO_DEFAULTS = {
  passwordLogin: '403',
  audience: 'brcloud-api',
  clients: [{ id: 'ci-client', secret: 'ci-secret-123456' }],
  accessTokenSeconds: 600,
  refreshTokens: 'password',
  revocation: true,
  federation: { clientId: 'gh-federated', audience: 'api://brcloud-ci', subject: 'repo:acme/site:*' },
  githubJob: GITHUB_JOB,
  /** The GitHub OIDC stand-in's tokens live 5 minutes. */
  oidc: { lifetimeSeconds: 300 }
} as const

export interface ResolvedSso {
  passwordLogin: PasswordLoginAnswer
  audience: string
  clients: SsoClient[]
  accessTokenSeconds: number
  refreshTokens: 'password' | 'all' | 'none'
  revocation: boolean
  federation: { clientId: string; audience: string; subject: string }
  githubJob: GitHubJob
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
    federation: { ...SSO_DEFAULTS.federation, ...options.federation },
    githubJob: { ...SSO_DEFAULTS.githubJob, ...options.githubJob }
  }
  // Emulator.sso names the first client: a stack with none could not be wired.
  if (resolved.clients.length === 0) throw new Error('sso.clients needs at least one client')
  if (!Number.isInteger(resolved.accessTokenSeconds) || resolved.accessTokenSeconds < 1) {
    throw new Error(`sso.accessTokenSeconds must be a whole number >= 1, got ${resolved.accessTokenSeconds}`)
  }
  if (!/^[^/\s]+\/[^/\s]+$/.test(resolved.githubJob.repository)) {
    throw new Error(`sso.githubJob.repository must be owner/name, got "${resolved.githubJob.repository}"`)
  }
  return resolved
}
