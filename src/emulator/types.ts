// Public types of the local emulator of the Bloomreach Cloud deployment management API.
// server.ts re-exports all of them; the other emulator modules import them from here.

export type Operation =
  | 'login'
  | 'refresh'
  | 'revoke-refresh'
  | 'verify'
  | 'logout'
  | 'list-distributions'
  | 'get-distribution'
  | 'upload'
  | 'delete-distribution'
  | 'download-token'
  | 'download'
  | 'list-backups'
  | 'backup-download-link'
  | 'backup-file'
  | 'list-environments'
  | 'deploy'
  | 'list-appconfigfiles'
  | 'docs'
  | 'search'
  | 'site'
  | 'idp-discovery'
  | 'idp-jwks'
  | 'idp-token'
  | 'idp-revoke'
  | 'oidc-token'
  | 'oidc-discovery'
  | 'oidc-jwks'
  | 'not-emulated'

export interface Fault {
  operation: Operation
  /**
   * 'drop-after-apply' (alias 'drop-after-upload'): the call is carried out in full, then the connection is closed with no answer.
   * 'apply-then-status': carried out in full, then answered `status` with the usual error body (a deploy done but answered 500).
   * 'apply-then-delay': carried out in full, its answer sent `delayMs` late (a client with a shorter timeout sees none).
   */
  kind: 'status' | 'reset-mid-upload' | 'drop-after-upload' | 'drop-after-apply' | 'apply-then-status' | 'apply-then-delay' | 'hang' | 'revoke-tokens'
  /** For kinds 'status' and 'apply-then-status' (e.g. 503, 429, 500). */
  status?: number
  /** For kind 'apply-then-delay': how long the answer is held back, in milliseconds. */
  delayMs?: number
  /**
   * For kind 'status': the error body echoes the request (its JSON body and Authorization header),
   * as a JSON error body ('json') or as plain text ('text'), the way careless servers do.
   */
  echo?: 'json' | 'text'
  /** Sent as Retry-After with a 'status' fault. */
  retryAfterSeconds?: number
  /** Sent as Location with a 'status' fault (a 3xx redirect). */
  location?: string
  /** Applies to the first N matching calls, then stops. */
  times: number
  /** Lets this many matching calls through untouched before the fault applies. */
  skip?: number
  /** For 'reset-mid-upload': destroy the socket after this many body bytes were read. */
  afterBytes?: number
}

/** Facet format of the search API's answers: V3 (`facet_counts.facets[]`) or legacy (`facet_fields`...). */
export type SearchFacetFormat = 'v3' | 'legacy'

/** The search API's settings; `Emulator.search` is this object, so tests may change it at run time. */
export interface SearchSettings {
  accountId: string
  authKey: string
  domainKey: string
  /** Used unless a request asks for V3 with `facet.version=3.0`. */
  facetFormat: SearchFacetFormat
  /** Every search is answered this many milliseconds late. */
  delayMs: number
  /**
   * A search with an empty or absent `auth_key`: 'accept' (default; the API reference's client-side calls
   * send it empty, Bloomreach's own SDK sets none) or 'refuse' with 403 (the error-codes page).
   */
  emptyAuthKey: SearchEmptyAuthKey
}

/** What a search with an empty or absent `auth_key` gets (the public sources disagree: see docs/emulator.md). */
export type SearchEmptyAuthKey = 'accept' | 'refuse'

export type UploadAnswer = 'record' | 'numeric-id' | 'no-id' | 'empty'

/**
 * When an environment reports a deploy's new distributionId: when the switch is done, or as soon as
 * the deploy is requested (while its site keeps serving the old release). Not public: both are plausible.
 */
export type DeployReport = 'when-done' | 'at-request'

/**
 * The case of distribution ids in the platform's answers. Not public, nor whether every endpoint writes them
 * alike: as stored (lower-case uuids) everywhere, upper case everywhere, or upper case in one family of answers
 * only while the others write them as stored: 'upper-distributions' (distribution records: the list, one
 * distribution, the upload's answer), 'upper-environments' (environments: the list, `?name=`, the deploy's
 * answer) or 'upper-by-name' (`GET /v3/environments?name=` alone). Whenever any answer writes ids in upper
 * case, an id a request names matches in any case.
 */
export type IdCase = 'as-stored' | 'upper' | 'upper-distributions' | 'upper-environments' | 'upper-by-name'

/**
 * A deploy requested while the environment is still switching. Not public: 'refuse' answers 409
 * DeploymentInProgress (the emulator's choice so far); 'accept' answers 202 and replaces the switch in
 * progress, which is abandoned (never applied), as a platform that queues by replacing would.
 */
export type DeployWhileBusy = 'refuse' | 'accept'

/**
 * An environment's `distributionId` while it deploys: the id `deployReport` says ('reported'), no such
 * field ('absent'), or null. Not public: a client must not take a missing id for "runs nothing" mid-deploy.
 */
export type IdWhileDeploying = 'reported' | 'absent' | 'null'

/** What an environment's site answers while it switches: 503 (stop-start stops every container), or the old release. */
export type SiteDuringDeploy = 'unavailable' | 'old'

/** What the disabled password login answers on an SSO stack (not public): 403 SsoEnabled (invented), 401 as for wrong credentials, or 404. */
export type PasswordLoginAnswer = '403' | '401' | '404'

/** A client of the stand-in identity provider that authenticates with a secret. */
export interface SsoClient {
  id: string
  secret: string
}

/**
 * Single sign-on mode (defaults in sso-options.ts). The password login is disabled; the cloud API accepts
 * only access tokens of the stand-in identity provider at /idp/, which a client gets with a secret, the
 * script account's password, or a GitHub OIDC token from the stand-in at /github-oidc/ (federation).
 */
export interface SsoOptions {
  /** What POST /v3/authn/access_token and /v3/authn/refresh_token answer (default '403'). */
  passwordLogin?: PasswordLoginAnswer
  /** The audience the cloud API accepts in an access token (default 'brcloud-api'). */
  audience?: string
  /** Clients that authenticate with a secret (default one: ci-client / ci-secret-123456). */
  clients?: SsoClient[]
  /** Lifetime of the identity provider's access tokens (default 600). */
  accessTokenSeconds?: number
  /** Which grants answer a refresh_token: the password grant and the refresh grant (default 'password'), every grant, or none. */
  refreshTokens?: 'password' | 'all' | 'none'
  /** Whether the identity provider has (and its discovery document advertises) a revocation endpoint (default true). */
  revocation?: boolean
  /** The client that authenticates with a GitHub OIDC token: its id, the `aud` the token must carry, a glob its `sub` must match. */
  federation?: { clientId?: string; audience?: string; subject?: string }
  /** The job the GitHub OIDC stand-in signs its tokens for (defaults in sso-options.ts): what a workflow run would be. */
  githubJob?: Partial<GitHubJob>
  /** Sign with one key pair per process for each stand-in instead of one per stack (a simulation makes thousands of stacks). */
  sharedKeys?: boolean
}

/**
 * The job a GitHub OIDC token describes, as GitHub's claims name it (its OpenID Connect reference): the
 * repository, the ref and commit, the workflow and its run, who started it, the event, and the job's
 * environment when it has one. The subject follows from it (sso-github-oidc.ts, `githubSubject`).
 */
export interface GitHubJob {
  /** owner/name. */
  repository: string
  repositoryId: string
  repositoryOwnerId: string
  /** The ref that triggered the run: refs/heads/BRANCH, refs/tags/TAG, refs/pull/N/merge. */
  ref: string
  sha: string
  /** The job's environment (`environment:` of the job); the subject then names it. */
  environment?: string
  /** The event that triggered the run: push, workflow_dispatch, pull_request, ... */
  eventName: string
  /** The workflow's name, and its file in the repository (for workflow_ref and job_workflow_ref). */
  workflow: string
  workflowFile: string
  runId: string
  runNumber: string
  runAttempt: string
  actor: string
  actorId: string
  /** A pull request's target and source branches (empty strings for other events, as in GitHub's example token). */
  baseRef: string
  headRef: string
}

/** What a test needs to wire the action to an SSO stack (`Emulator.sso`). */
export interface SsoHandle {
  tokenUrl: string
  issuer: string
  audience: string
  clientId: string
  clientSecret: string
  federatedClientId: string
  /** The subjects the federation trusts: a glob, `*` any run of characters. */
  federationSubject: string
  /** The audience to ask the GitHub OIDC stand-in for (the federation's). */
  oidcAudience: string
  /** ACTIONS_ID_TOKEN_REQUEST_URL: the stand-in's token URL, with ?api-version=2.0. */
  oidcRequestUrl: string
  /** ACTIONS_ID_TOKEN_REQUEST_TOKEN. */
  oidcRequestToken: string
  /** The issuer of the OIDC stand-in's tokens: GitHub's own, https://token.actions.githubusercontent.com. */
  oidcIssuer: string
  /** The subject its tokens carry, e.g. repo:acme/site:ref:refs/heads/main (what an identity provider's trust names). */
  oidcSubject: string
  /** Absent when the identity provider has no revocation endpoint. */
  revocationUrl?: string
}

export interface EmulatorOptions {
  host?: string
  port?: number
  username?: string
  password?: string
  tokenLifetimeSeconds?: number
  refreshLifetimeSeconds?: number
  /**
   * The cloud API accepts an access token up to this many seconds past its `exp` (default 0: refused at `exp`), as
   * servers that allow for clock skew do; the identity provider's tokens too in SSO mode. `exp` is whole seconds, so a
   * token otherwise lives up to a second less than `exp - iat`: a test of a client's own renewal with tokens of a
   * few seconds sets it, so that no refusal, early by up to a second and by the machine's speed, can force one.
   */
  tokenClockSkewSeconds?: number
  storageDir?: string
  keepUploads?: boolean
  maxDistributionBytes?: number
  maxDistributions?: number
  environments?: string[]
  /** The platform's limit of environments per stack (default 4): more in `environments` is refused at start. */
  maxEnvironments?: number
  /** At most this many distributions per page of GET /v3/distributions, whatever `max` asks (default: no cap, `max` decides, 100 when absent); the answer's `max` says the size used. */
  distributionPageSize?: number
  /** At most this many environments per page of GET /v3/environments (default: all on one page). */
  environmentPageSize?: number
  /** GET /v3/environments ignores `offset` and answers the first page again (a list the client cannot complete). */
  environmentOffsetIgnored?: boolean
  /**
   * What `GET /v3/environments?name=<unknown>` answers: 404 (default), or 200 with an object without an
   * `id` (a public deploy action guards against that answer, which suggests the real service gives it).
   */
  unknownEnvironmentByName?: 'not-found' | 'no-id'
  /** The shape of the upload's answer: the record (default), the record with a numeric id, the record without an id, or an empty body. */
  uploadAnswer?: UploadAnswer
  /**
   * Seconds a deploy takes (default 0, fractions allowed; Infinity: until a test lands it with finishDeploy):
   * the environment keeps reporting its old distributionId, with status 'deploying', until then; another
   * deploy to it meanwhile is refused (409), or replaces it, as `deployWhileBusy` says.
   */
  deploySeconds?: number
  /**
   * Looks at the environment (`GET /v3/environments`, listed or by name) that report a deploy in progress
   * before it lands (default 0). With deploySeconds too, it lands when both are done. A test that must see
   * a switch in progress sets 1: the first look after the request sees it, the next one sees it done,
   * however slow the machine.
   */
  deployLooks?: number
  /**
   * A deploy requested while the environment is still switching: refused with 409 DeploymentInProgress
   * (default 'refuse'), or accepted (202), abandoning the switch in progress (its deployment is never applied)
   * for the new one, which takes its own deploy time. A mode because how the platform treats a second deploy
   * meanwhile is not public: a client must neither count on a 409 nor take its own accepted deploy as the one
   * that will run. The `deployAs` hook follows the same rule.
   */
  deployWhileBusy?: DeployWhileBusy
  /** When the new distributionId is reported (default 'when-done'). */
  deployReport?: DeployReport
  /** What the site answers while switching (default: 'unavailable' when reported when done, 'old' when reported at request). */
  siteDuringDeploy?: SiteDuringDeploy
  /** false: environments carry no `status` field at all (the field is the emulator's own; default true). */
  environmentStatus?: boolean
  /** The case of the md5hash field of distribution records (default 'lower'). */
  md5Case?: 'lower' | 'upper'
  /**
   * The case the platform writes distribution ids in (default 'as-stored'): 'upper' writes them in upper
   * case (a distribution's `id`, an environment's `distributionId`) in every answer; 'upper-distributions',
   * 'upper-environments' and 'upper-by-name' in that family of answers only, the others as stored. Any of
   * them matches ids sent in any case. A mode because the case (and whether every endpoint writes it alike)
   * is not public: a client must compare ids in any case, also an id from one endpoint with one from another.
   */
  idCase?: IdCase
  /** What an environment's `distributionId` is while it deploys (default 'reported', as `deployReport` says). */
  idWhileDeploying?: IdWhileDeploying
  /**
   * Deleting a distribution an environment runs or switches to: refused with 409 (default), or allowed
   * (the environment then names an id that is gone). Not public: with 'allow', only the client's own care
   * protects a running release.
   */
  deleteInUse?: 'refuse' | 'allow'
  /**
   * Seconds added to every timestamp the platform writes (default 0, may be negative): a platform whose
   * clock is off from the runner's. Not public how far off it may be; a client must not compare the two.
   */
  clockOffsetSeconds?: number
  /**
   * How old each environment's one backup is when the emulator starts, in hours (default 0: taken as it starts), by
   * the platform's clock. A test makes one old or absent later with setBackups.
   */
  backupAgeHours?: number
  /** No backups at all at start: `GET /v3/backups` lists none (default false). */
  noBackups?: boolean
  /** Names of the stack's application configuration files (default none), listed by GET /v3/appconfigfiles. */
  appConfigFiles?: string[]
  faults?: Fault[]
  uploadBytesPerSecond?: number
  /** Search API (`GET /api/v1/core/`): account, keys, facet format and delay. */
  searchAccountId?: string
  searchAuthKey?: string
  searchDomainKey?: string
  searchFacetFormat?: SearchFacetFormat
  searchDelayMs?: number
  /** A search with an empty or absent auth_key: accepted (default) or refused with 403. */
  searchEmptyAuthKey?: SearchEmptyAuthKey
  /** Single sign-on mode (off when absent; `{}` turns it on with the defaults). */
  sso?: SsoOptions
  log?: (line: string) => void
}

export interface RecordedPart {
  name: string
  filename?: string
  contentType?: string
  size: number
  sha256: string
  md5: string
  path?: string
}

export interface RecordedRequest {
  operation: Operation | 'unknown'
  method: string
  url: string
  httpVersion: string
  /** The client's port: tells which connection (e.g. a proxy's tunnel) carried the call. */
  remotePort?: number | undefined
  headers: Record<string, string>
  json?: unknown
  parts?: RecordedPart[]
  /** Date.now() when the request arrived (tests attribute requests to the run that made them). */
  at: number
  /** Status answered; 0 while unanswered or when the connection was reset/dropped. */
  status: number
  /** Something the emulator accepted but a stricter reading would not (printed as a warning in its log). */
  note?: string
  /** The kind of the injected fault that applied to this call, if any. */
  fault?: Fault['kind']
  /** For operation 'search': whether the client presented the cookie the emulator set, q after rewriting, numFound. */
  search?: { cookiePresented: boolean; q?: string; numFound?: number }
}

export interface StoredDistribution {
  id: string
  name: string
  createdAt: string
  createdBy: string
  modifiedAt: string
  modifiedBy: string
  md5hash: string
  sha256: string
  size: number
  path?: string
  /** Files held in memory instead of an archive on disk (a simulation's distributions): the site serves them. */
  files?: Readonly<Record<string, string>>
}

/**
 * The emulator's own field, not the platform's (whose status fields are not documented): 'empty' runs
 * no distribution, 'deploying' is switching to a new one, 'running' runs `distributionId`.
 */
export type EnvironmentStatus = 'empty' | 'deploying' | 'running'

export interface AppConfigFileRole {
  appConfigFileId: string
  role: string
}

/** One accepted deploy call, in the order received. */
export interface Deployment {
  distributionId: string
  strategy: string
  /** As sent (empty when the call had none). */
  appConfigFileRoles: AppConfigFileRole[]
  requestedAt: string
  /** When the environment switched to it; null while deploying (or when the emulator closed first, or it was abandoned). */
  appliedAt: string | null
  /**
   * When its switch was abandoned, never to be applied (platform time): a later deploy replaced it
   * (`deployWhileBusy: 'accept'`), or its environment was deleted. Absent otherwise.
   */
  abandonedAt?: string
  /** Who asked for it: the authenticated user, or who a test's deployAs names ('someone-else'). */
  by: string
}

export interface StoredEnvironment {
  id: string
  name: string
  /** The distribution the API reports: the old one while switching when reported when done, the new one at once when reported at request. */
  distributionId: string | null
  /** The distribution the site serves: the old one until the switch is done, in both readings. */
  serving: string | null
  status: EnvironmentStatus
  deployments: Deployment[]
}

/** A repository backup of an environment, as `GET /v3/backups` lists it (one per environment at start, unless noBackups). */
export interface StoredBackup {
  id: string
  environmentId: string
  createdAt: string
}

export interface StoredAppConfigFile {
  id: string
  name: string
}

export interface Emulator {
  url: string
  username: string
  password: string
  requests: RecordedRequest[]
  distributions: StoredDistribution[]
  environments: StoredEnvironment[]
  appConfigFiles: StoredAppConfigFile[]
  /** The repository backups `GET /v3/backups` lists (mutable: a test may add or remove some). */
  backups: StoredBackup[]
  /** The search API's settings (mutable). */
  search: SearchSettings
  /** Present in single sign-on mode. */
  sso?: SsoHandle
  /** Revokes every access token issued so far (the identity provider's in SSO mode). */
  revokeAccessTokens(): void
  addFault(f: Fault): void
  /** Someone else deletes a distribution, by the API's rules (honouring deleteInUse); rejects when unknown or in use. */
  deleteAs(distributionId: string): Promise<void>
  /**
   * Someone else's deploy, started exactly as a PUT would (same switching rules: while the environment is
   * busy it throws, or with `deployWhileBusy: 'accept'` replaces the switch in progress); it takes `seconds`
   * and `looks` as given (either alone), else the stack's deploySeconds and deployLooks.
   */
  deployAs(environmentName: string, distributionId: string, options?: { seconds?: number; looks?: number; by?: string }): void
  /** Someone else renames an environment: same id, new name (throws when `from` is unknown or `to` is taken). */
  renameEnvironment(from: string, to: string): void
  /**
   * Someone else deletes an environment: it leaves the lists and every lookup (by name, by id, its site), and
   * a switch it was making is abandoned (its timer cleared). Throws when unknown. Its backups stay listed.
   */
  deleteEnvironment(name: string): void
  /** A stored distribution made of `files` (a real tar.gz, as if someone else uploaded it); resolves to its id. */
  addDistribution(name: string, files: Record<string, string>): Promise<string>
  /** Calls `fn` after each answered (or dropped) request of `operation`, `times` times (default 1) after `skip`. */
  onRequest(operation: Operation, fn: (record: RecordedRequest) => void, options?: { times?: number; skip?: number }): void
  /**
   * Holds the next `times` requests (default 1, after `skip`) of `operation` until `until` settles, then handles
   * them: a slow network, so that a test can order another process's events before them. `onHeld` is called as each
   * request is held (the other process has sent it and waits).
   */
  holdRequests(operation: Operation, until: Promise<unknown>, options?: { times?: number; skip?: number; onHeld?: () => void }): void
  /** Lands the deploy in progress on the environment now (throws when none is): the test decides when a switch is done. */
  finishDeploy(environmentName: string): void
  /** Changes how long later deploys take (Infinity: until finishDeploy). */
  setDeploySeconds(seconds: number): void
  /**
   * Replaces the backups listed for an environment: one per age, taken that many hours ago by the platform's clock
   * (fractions allowed); [] lists none. Throws when the environment is unknown or an age is negative or not a number.
   */
  setBackups(environmentName: string, agesInHours: readonly number[]): void
  close(): Promise<void>
}
