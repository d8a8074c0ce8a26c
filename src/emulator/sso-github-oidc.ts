// A stand-in for GitHub Actions' OIDC token service, as @actions/core's getIDToken calls it: GET the
// request URL (which carries ?api-version=2.0) plus `&audience=...` with `Authorization: Bearer <request
// token>`, answered `{"value": "<jwt>"}`. The JWT carries what GitHub's OpenID Connect reference lists:
// GitHub's issuer, the subject in GitHub's forms and the job's claims; it is signed (RS256) with the
// stand-in's own key, served locally: an identity provider that trusts GitHub's issuer takes its keys
// from here (the emulator cannot reach GitHub's, and its tokens are not GitHub's).
import { randomUUID } from 'node:crypto'
import { HttpError } from './http-util.js'
import type { RequestContext, Route } from './router.js'
import { newSigningKey, signJwt, type SigningKey } from './sso-keys.js'
import { SSO_DEFAULTS } from './sso-options.js'
import type { GitHubJob } from './types.js'

export const OIDC_PATH = '/github-oidc'

/** The `iss` of GitHub Actions' OIDC tokens (github.com; GitHub Enterprise Server has its own). */
export const GITHUB_OIDC_ISSUER = 'https://token.actions.githubusercontent.com'

/**
 * The claims GitHub's token service advertises in its discovery document (claims_supported), in its order: a
 * token of this stand-in carries a subset (not enterprise, ref_protected, environment_node_id, issuer_scope).
 */
export const GITHUB_OIDC_CLAIMS = [
  'sub',
  'aud',
  'exp',
  'iat',
  'iss',
  'jti',
  'nbf',
  'ref',
  'sha',
  'repository',
  'repository_id',
  'repository_owner',
  'repository_owner_id',
  'enterprise',
  'enterprise_id',
  'run_id',
  'run_number',
  'run_attempt',
  'actor',
  'actor_id',
  'workflow',
  'workflow_ref',
  'workflow_sha',
  'head_ref',
  'base_ref',
  'event_name',
  'ref_type',
  'ref_protected',
  'environment',
  'environment_node_id',
  'job_workflow_ref',
  'job_workflow_sha',
  'repository_visibility',
  'runner_environment',
  'issuer_scope'
] as const

/** A value inside the subject: GitHub writes a `:` in it as `%3A`, so the parts stay apart. */
const subjectPart = (value: string): string => value.replaceAll(':', '%3A')

/**
 * The subject as GitHub forms it by default: the job's environment when it has one, else `pull_request` for a
 * run a pull request triggered, else the ref (a branch or a tag).
 */
export function githubSubject(job: GitHubJob): string {
  const repo = `repo:${subjectPart(job.repository)}`
  if (job.environment !== undefined && job.environment !== '') return `${repo}:environment:${subjectPart(job.environment)}`
  if (job.eventName === 'pull_request') return `${repo}:pull_request`
  return `${repo}:ref:${subjectPart(job.ref)}`
}

/** The claims of a token for `audience` (when absent: the URL of the repository's owner, GitHub's default), issued at `iat`. */
export function githubClaims(job: GitHubJob, audience: string | undefined, iat: number): Record<string, unknown> {
  const owner = job.repository.split('/')[0] ?? ''
  const workflowRef = `${job.repository}/${job.workflowFile}@${job.ref}`
  return {
    jti: randomUUID(),
    sub: githubSubject(job),
    ...(job.environment !== undefined && job.environment !== '' && { environment: job.environment }),
    aud: audience ?? `https://github.com/${owner}`,
    ref: job.ref,
    sha: job.sha,
    repository: job.repository,
    repository_owner: owner,
    repository_owner_id: job.repositoryOwnerId,
    repository_id: job.repositoryId,
    repository_visibility: 'private',
    run_id: job.runId,
    run_number: job.runNumber,
    run_attempt: job.runAttempt,
    runner_environment: 'github-hosted',
    actor: job.actor,
    actor_id: job.actorId,
    workflow: job.workflow,
    workflow_ref: workflowRef,
    workflow_sha: job.sha,
    // The job's own workflow: the same as workflow_ref unless the job runs a reusable workflow (not modelled).
    job_workflow_ref: workflowRef,
    job_workflow_sha: job.sha,
    head_ref: job.headRef,
    base_ref: job.baseRef,
    event_name: job.eventName,
    ref_type: job.ref.startsWith('refs/tags/') ? 'tag' : 'branch',
    iss: GITHUB_OIDC_ISSUER,
    nbf: iat,
    iat,
    exp: iat + SSO_DEFAULTS.oidc.lifetimeSeconds
  }
}

export class GitHubOidc {
  readonly key: SigningKey
  /** The runner's ACTIONS_ID_TOKEN_REQUEST_TOKEN: one per process. */
  readonly requestToken = `oidc-request-${randomUUID()}`
  readonly issuer = GITHUB_OIDC_ISSUER

  constructor(
    readonly job: GitHubJob,
    key?: SigningKey,
    /** The emulator's own address as a request reached it: where the key set is served. */
    private readonly baseOf: (ctx: RequestContext) => string = (ctx) => `http://${ctx.req.headers.host ?? '127.0.0.1'}`
  ) {
    this.key = key ?? newSigningKey()
  }

  get subject(): string {
    return githubSubject(this.job)
  }

  routes(): Route[] {
    return [
      {
        method: 'GET',
        path: `${OIDC_PATH}/token`,
        operation: 'oidc-token',
        summary: `GitHub OIDC stand-in: {value: jwt} for ?audience= with Authorization: Bearer <request token> (iss ${GITHUB_OIDC_ISSUER})`,
        handler: (ctx) => this.token(ctx)
      },
      {
        method: 'GET',
        path: `${OIDC_PATH}/.well-known/openid-configuration`,
        operation: 'oidc-discovery',
        summary: "GitHub OIDC stand-in: its discovery document (GitHub's issuer, the key set served here, the claims GitHub advertises)",
        handler: (ctx) => ctx.send(200, this.discovery(this.baseOf(ctx)))
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

  /**
   * What GitHub's token service serves at /.well-known/openid-configuration, but with the key set of this stand-in
   * (GitHub's cannot be reached from here, and would not verify this stand-in's tokens).
   */
  private discovery(base: string): Record<string, unknown> {
    return {
      issuer: this.issuer,
      jwks_uri: `${base}${OIDC_PATH}/.well-known/jwks`,
      subject_types_supported: ['public', 'pairwise'],
      response_types_supported: ['id_token'],
      claims_supported: [...GITHUB_OIDC_CLAIMS],
      id_token_signing_alg_values_supported: ['RS256'],
      scopes_supported: ['openid']
    }
  }

  private token(ctx: RequestContext): void {
    const m = /^bearer\s+(\S+)\s*$/i.exec(ctx.req.headers.authorization ?? '')
    // GitHub's body for a bad request token is not public: this one is the emulator's own.
    if (m?.[1] !== this.requestToken) throw new HttpError(401, 'Unauthorized', 'Bad credentials')
    const claims = githubClaims(this.job, ctx.url.searchParams.get('audience') ?? undefined, Math.floor(Date.now() / 1000))
    ctx.send(200, { value: signJwt(claims, this.key) })
  }
}
