// Command-line flags of the emulator (`npm run emulator -- --help`, or `brcloud emulator --help`).
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { gitHubFor, usageLine, type Face } from './banner.js'
import { SEARCH_API_DEFAULTS } from './search-api.js'
import { DEFAULTS, type EmulatorOptions, type Fault, type Operation, type SsoOptions } from './server.js'

export const DEFAULT_PORT = 4080
/** The GitHub API stand-in's port with --github. */
export const DEFAULT_GITHUB_PORT = 4081
/** The GitLab API stand-in's port with --gitlab. */
export const DEFAULT_GITLAB_PORT = 4082

const OPERATIONS: Operation[] = [
  'login',
  'refresh',
  'revoke-refresh',
  'verify',
  'logout',
  'list-distributions',
  'get-distribution',
  'upload',
  'delete-distribution',
  'list-environments',
  'deploy',
  'list-appconfigfiles',
  'list-backups',
  'backup-download-link',
  'backup-file',
  'docs',
  'search',
  'site',
  'idp-discovery',
  'idp-jwks',
  'idp-token',
  'idp-revoke',
  'oidc-token',
  'oidc-discovery',
  'oidc-jwks'
]

// --help, in sections: each a block of lines, without its last newline.
const INTRO = `Local emulator of the Bloomreach Cloud deployment management API and the Bloomreach product search API (no account needed).`

const STACK_FLAGS = `  --host HOST                  address to bind (default ${DEFAULTS.host})
  --port PORT                  port (default ${DEFAULT_PORT}; 0 = any free port)
  --username NAME              login username (default ${DEFAULTS.username})
  --password PASSWORD          login password (default ${DEFAULTS.password})
  --token-lifetime SECONDS     access token lifetime (default ${DEFAULTS.tokenLifetimeSeconds})
  --refresh-lifetime SECONDS   refresh token lifetime (default ${DEFAULTS.refreshLifetimeSeconds})
  --token-clock-skew SECONDS   accept an access token this long past its exp (default ${DEFAULTS.tokenClockSkewSeconds})
  --environments a,b,c         environment names (default ${DEFAULTS.environments.join(',')})
  --max-environments N         environments a stack may have (default ${DEFAULTS.maxEnvironments}, the platform's limit)
  --environment-page-size N    list at most N environments per page (default: all on one page)
  --environment-offset-ignored the environment list ignores offset: a client cannot page past the first page
  --distribution-page-size N   list at most N distributions per page, whatever max asks (default: no cap, 100 when max is absent)
  --upload-answer SHAPE        the upload's answer: record (default), numeric-id, no-id or empty
  --storage DIR                keep uploaded distributions in DIR (default: a temporary dir, removed on exit)
  --no-keep-uploads            only count and hash uploads, write nothing
  --max-distributions N        stored distributions allowed (default ${DEFAULTS.maxDistributions})
  --max-distribution-bytes N   largest distribution file (default ${DEFAULTS.maxDistributionBytes})
  --upload-rate BYTES_PER_SEC  read uploads at most this fast ("slow reads")`

const DEPLOY_FLAGS = `  --deploy-seconds N           a deploy takes N seconds (fractions allowed; default ${DEFAULTS.deploySeconds}): until then the
                               environment reports its old distributionId, status "deploying", and refuses
                               another deploy (409 DeploymentInProgress; see --deploy-while-busy)
  --deploy-looks N             a deploy is reported in progress by N looks at the environment before it lands
                               (default ${DEFAULTS.deployLooks}; with --deploy-seconds, it lands when both are done)
  --deploy-while-busy refuse|accept
                               a deploy requested while the environment switches: refused with 409
                               DeploymentInProgress (default), or accepted (202), abandoning the switch in
                               progress for the new one (its own deploy time)
  --deploy-report when-done|at-request
                               when an environment reports a deploy's new distributionId: once the switch is
                               done (default), or at once while its site serves the old release until then
  --site-during-deploy unavailable|old
                               the site while switching: 503, or the old release (default: unavailable when
                               reported when done, old when reported at request)
  --no-environment-status      environments carry no "status" field (the emulator's own field)
  --md5-case lower|upper       the case of distribution records' md5hash (default lower)
  --unknown-environment-by-name not-found|no-id
                               GET /v3/environments?name=<unknown>: 404 (default), or 200 with an object without id
  --id-case as-stored|upper|upper-distributions|upper-environments|upper-by-name
                               distribution ids in answers as stored (default), in upper case everywhere, or
                               in upper case in one family of answers only: distribution records (list, one,
                               the upload's answer), environments (list, ?name=, the deploy's answer), or
                               GET /v3/environments?name= alone; with any upper case, ids in requests match
                               in any case
  --id-while-deploying reported|absent|null
                               an environment's distributionId while it deploys: as --deploy-report says (default),
                               no such field, or null
  --delete-in-use refuse|allow
                               deleting a distribution an environment runs or switches to: 409 (default), or done
  --clock-offset SECONDS       the platform's clock is SECONDS off (may be negative: --clock-offset=-90; default 0):
                               every timestamp it writes (distributions, deployments) is shifted
  --backup-age-hours N         each environment's backup was taken N hours before the emulator started (fractions
                               allowed; default 0)
  --no-backups                 GET /v3/backups lists no backup at all
  --app-config-files a,b       names of the stack's application configuration files (default none)`

const SEARCH_FLAGS = `  --search-account-id ID       search API account_id (default ${SEARCH_API_DEFAULTS.accountId})
  --search-auth-key KEY        search API auth_key (default ${SEARCH_API_DEFAULTS.authKey})
  --search-domain-key KEY      search API domain_key (default ${SEARCH_API_DEFAULTS.domainKey})
  --search-facet-format v3|legacy
                               facet format of search answers (default ${SEARCH_API_DEFAULTS.facetFormat}; facet.version=3.0 asks for v3)
  --search-delay MS            answer every search MS milliseconds late
  --search-empty-auth-key accept|refuse
                               a search with an empty or absent auth_key: accepted as a client-side call
                               (default; the API reference, the official SDK) or refused with 403 (the error-codes page)`

const SSO_FLAGS = `  --sso                        single sign-on mode: the password login is disabled, the cloud API accepts only
                               access tokens (audience ${DEFAULTS.sso.audience}) of the stand-in identity provider at
                               /idp/ (client ${DEFAULTS.sso.clients[0].id} / ${DEFAULTS.sso.clients[0].secret}, the password grant with
                               the username and password, or a GitHub OIDC token from /github-oidc/token)
  --sso-password-login 403|401|404
                               what the disabled password login answers (implies --sso; default ${DEFAULTS.sso.passwordLogin}
                               SsoEnabled, invented)
  --sso-token-seconds N        lifetime of the identity provider's access tokens (implies --sso; default ${DEFAULTS.sso.accessTokenSeconds})
  --sso-federation-subject GLOB
                               the subjects the identity provider's GitHub federation trusts, * any run of
                               characters (implies --sso; default ${DEFAULTS.sso.federation.subject}), e.g.
                               repo:acme/site:environment:production, as a platform team writes its trust
  --oidc-environment NAME      the job the GitHub OIDC stand-in signs for has this environment: subject
                               repo:OWNER/REPO:environment:NAME (implies --sso; default none)
  --oidc-ref REF               the ref of that job (implies --sso; default ${DEFAULTS.sso.githubJob.ref}): subject
                               repo:OWNER/REPO:ref:REF when it has no environment (refs/tags/v1 for a tag)
  --oidc-event NAME            the event that started that job (implies --sso; default ${DEFAULTS.sso.githubJob.eventName}); pull_request
                               gives the subject repo:OWNER/REPO:pull_request when it has no environment`

/** --github and --gitlab: what --github prints names the commands of how the emulator was started. */
const codeHostFlags = (face: Face): string => `  --github                     also start the GitHub API stand-in (Deployments, statuses, compare) for
                               ${DEFAULTS.sso.githubJob.repository}, with a few commits on main, and print the variables to export
                               ${gitHubFor(face)}
  --github-port PORT           its port (implies --github; default ${DEFAULT_GITHUB_PORT}; 0 = any free port)
  --gitlab                     also start the GitLab API stand-in (REST API v4: deployments, compare, merge base,
                               tags, issues) for acme/platform/site, with a few commits on main, and print the
                               variables to export for brcloud deploy and brcloud status: BRCLOUD_GITLAB_URL,
                               BRCLOUD_GITLAB_PROJECT, BRCLOUD_GITLAB_TOKEN, BRCLOUD_COMMIT (not with --github)
  --gitlab-port PORT           its port (implies --gitlab; default ${DEFAULT_GITLAB_PORT}; 0 = any free port)`

const FAULT_FLAGS = `  --fail OP:STATUS[:TIMES[:RETRY_AFTER]]
                               answer STATUS to the first TIMES (default 1) calls of OP; repeatable
  --apply-then-fail OP:STATUS[:TIMES]
                               carry out the first TIMES (default 1) calls of OP in full, then answer STATUS
                               (a deploy done but answered 500); repeatable
  --apply-then-delay OP:MS[:TIMES]
                               carry out the first TIMES (default 1) calls of OP in full, then answer MS
                               milliseconds late (a client with a shorter timeout sees no answer); repeatable
  --hang OP[:TIMES]            never answer the first TIMES (default 1) calls of OP; repeatable
  --reset-upload-after BYTES   reset the connection of the first upload after BYTES of its body
  --drop-after-upload N        store the first N uploads, then close the connection without answering`

const RUN_FLAGS = `  --ready-file PATH            write the URL to PATH once listening (removed on exit)
  --quiet                      do not log requests
  --help                       show this help`

const NOTES = `Answers carry X-Emulator-Invented: <names> where something in them is the emulator's own (docs/emulator.md).
Real paths it does not emulate (PUT /v3/environments/ID, GET /api/v2/suggest/, GET /api/v2/widgets/TYPE/ID)
answer 501 NotEmulated.

Sites (no authorization): GET /sites/ENVIRONMENT/PATH answers the file PATH inside the distribution the
environment runs (no PATH: index.html); 503 while it deploys; 500 on every path when the distribution
holds a file EMULATOR-SITE-FAILS at its root.`

/** --help, naming the commands of how the emulator was started (./banner.ts). */
export const helpText = (face: Face = 'clone'): string =>
  [
    INTRO,
    '',
    usageLine(face),
    '',
    STACK_FLAGS,
    DEPLOY_FLAGS,
    SEARCH_FLAGS,
    SSO_FLAGS,
    codeHostFlags(face),
    FAULT_FLAGS,
    RUN_FLAGS,
    '',
    `Operations: ${OPERATIONS.join(', ')}`,
    '',
    NOTES,
    ''
  ].join('\n')

export class UsageError extends Error {}

function int(flag: string, value: string, min = 0): number {
  if (!/^\d+$/.test(value) || Number(value) < min) throw new UsageError(`--${flag} needs a whole number >= ${min}, got "${value}"`)
  return Number(value)
}

function seconds(flag: string, value: string): number {
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(value)) throw new UsageError(`--${flag} needs a number of seconds >= 0 (fractions allowed), got "${value}"`)
  return Number(value)
}

/** A number of hours, 0 or more. */
function hours(flag: string, value: string): number {
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(value)) throw new UsageError(`--${flag} needs a number of hours >= 0 (fractions allowed), got "${value}"`)
  return Number(value)
}

/** A signed number of seconds (a clock may be behind as well as ahead). */
function signedSeconds(flag: string, value: string): number {
  if (!/^-?(\d+(\.\d*)?|\.\d+)$/.test(value)) throw new UsageError(`--${flag} needs a number of seconds (may be negative, fractions allowed), got "${value}"`)
  return Number(value)
}

function names(value: string): string[] {
  return value
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '')
}

function operation(flag: string, value: string): Operation {
  const op = OPERATIONS.find((o) => o === value)
  if (op === undefined) throw new UsageError(`--${flag}: unknown operation "${value}" (one of ${OPERATIONS.join(', ')})`)
  return op
}

/** With --github: where the GitHub API stand-in listens (the emulator's host). */
export interface GitHubCli {
  port: number
}

/** With --gitlab: where the GitLab API stand-in listens (the emulator's host). */
export interface GitLabCli {
  port: number
}

export type CliCommand = { help: true } | { help: false; options: EmulatorOptions; readyFile?: string; quiet: boolean; github?: GitHubCli; gitlab?: GitLabCli }

/** A flag that takes one of a few words. */
function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${flag} needs ${allowed.join(' or ')}, got "${value}"`)
  return value as T
}

/** `--apply-then-fail OP:STATUS[:TIMES]`: carried out, then answered STATUS. */
function applyThenFail(spec: string): Fault {
  const [op, status, times, ...rest] = spec.split(':')
  if (op === undefined || status === undefined || rest.length > 0) throw new UsageError(`--apply-then-fail needs OPERATION:STATUS[:TIMES], got "${spec}"`)
  const code = int('apply-then-fail', status, 100)
  if (code > 599) throw new UsageError(`--apply-then-fail: status ${code} is not an HTTP status`)
  return { operation: operation('apply-then-fail', op), kind: 'apply-then-status', status: code, times: timesOf('apply-then-fail', times) }
}

/** `--apply-then-delay OP:MS[:TIMES]`: carried out, then answered MS late. */
function applyThenDelay(spec: string): Fault {
  const [op, ms, times, ...rest] = spec.split(':')
  if (op === undefined || ms === undefined || rest.length > 0) throw new UsageError(`--apply-then-delay needs OPERATION:MS[:TIMES], got "${spec}"`)
  return {
    operation: operation('apply-then-delay', op),
    kind: 'apply-then-delay',
    delayMs: int('apply-then-delay', ms),
    times: timesOf('apply-then-delay', times)
  }
}

/** A fault's optional TIMES (default 1). */
function timesOf(flag: string, times: string | undefined): number {
  return times === undefined || times === '' ? 1 : int(flag, times, 1)
}

interface SsoFlags {
  sso?: boolean | undefined
  'sso-password-login'?: string | undefined
  'sso-token-seconds'?: string | undefined
  'sso-federation-subject'?: string | undefined
  'oidc-environment'?: string | undefined
  'oidc-ref'?: string | undefined
  'oidc-event'?: string | undefined
}

/** `--sso` and its knobs; a knob alone turns single sign-on on too (it means nothing without it). */
function ssoOptions(flags: SsoFlags): SsoOptions | undefined {
  const knobs = {
    'sso-password-login': flags['sso-password-login'],
    'sso-token-seconds': flags['sso-token-seconds'],
    'sso-federation-subject': flags['sso-federation-subject'],
    'oidc-environment': flags['oidc-environment'],
    'oidc-ref': flags['oidc-ref'],
    'oidc-event': flags['oidc-event']
  }
  if (flags.sso !== true && Object.values(knobs).every((v) => v === undefined)) return undefined
  const sso: SsoOptions = {}
  const answer = oneOf('sso-password-login', knobs['sso-password-login'], ['403', '401', '404'] as const)
  if (answer !== undefined) sso.passwordLogin = answer
  if (knobs['sso-token-seconds'] !== undefined) sso.accessTokenSeconds = int('sso-token-seconds', knobs['sso-token-seconds'], 1)
  const subject = knobs['sso-federation-subject']
  if (subject !== undefined) {
    if (subject.trim() === '') throw new UsageError('--sso-federation-subject needs a subject or a glob, e.g. repo:acme/site:*')
    sso.federation = { subject }
  }
  const job: NonNullable<SsoOptions['githubJob']> = {}
  const environment = knobs['oidc-environment']
  if (environment !== undefined) {
    if (environment.trim() === '') throw new UsageError('--oidc-environment needs an environment name')
    job.environment = environment
  }
  const ref = knobs['oidc-ref']
  if (ref !== undefined) {
    if (!/^refs\/(heads|tags|pull)\/\S+$/.test(ref))
      throw new UsageError(`--oidc-ref needs a full ref (refs/heads/BRANCH, refs/tags/TAG, refs/pull/N/merge), got "${ref}"`)
    job.ref = ref
  }
  const event = knobs['oidc-event']
  if (event !== undefined) {
    if (!/^[a-z_]+$/.test(event)) throw new UsageError(`--oidc-event needs an event name (push, workflow_dispatch, pull_request, ...), got "${event}"`)
    job.eventName = event
  }
  if (Object.keys(job).length > 0) sso.githubJob = job
  return sso
}

/** Every flag the emulator takes; parseArgs refuses any other (strict) and any positional argument. */
const FLAGS = {
  host: { type: 'string' },
  port: { type: 'string' },
  username: { type: 'string' },
  password: { type: 'string' },
  'token-lifetime': { type: 'string' },
  'token-clock-skew': { type: 'string' },
  'refresh-lifetime': { type: 'string' },
  environments: { type: 'string' },
  'max-environments': { type: 'string' },
  'environment-page-size': { type: 'string' },
  'environment-offset-ignored': { type: 'boolean' },
  'distribution-page-size': { type: 'string' },
  'upload-answer': { type: 'string' },
  storage: { type: 'string' },
  'no-keep-uploads': { type: 'boolean' },
  'max-distributions': { type: 'string' },
  'max-distribution-bytes': { type: 'string' },
  'upload-rate': { type: 'string' },
  'deploy-seconds': { type: 'string' },
  'deploy-while-busy': { type: 'string' },
  'deploy-looks': { type: 'string' },
  'deploy-report': { type: 'string' },
  'site-during-deploy': { type: 'string' },
  'no-environment-status': { type: 'boolean' },
  'md5-case': { type: 'string' },
  'unknown-environment-by-name': { type: 'string' },
  'id-case': { type: 'string' },
  'id-while-deploying': { type: 'string' },
  'delete-in-use': { type: 'string' },
  'clock-offset': { type: 'string' },
  'backup-age-hours': { type: 'string' },
  'no-backups': { type: 'boolean' },
  'app-config-files': { type: 'string' },
  'search-account-id': { type: 'string' },
  'search-auth-key': { type: 'string' },
  'search-domain-key': { type: 'string' },
  'search-facet-format': { type: 'string' },
  'search-delay': { type: 'string' },
  'search-empty-auth-key': { type: 'string' },
  sso: { type: 'boolean' },
  'sso-password-login': { type: 'string' },
  'sso-token-seconds': { type: 'string' },
  'sso-federation-subject': { type: 'string' },
  'oidc-environment': { type: 'string' },
  'oidc-ref': { type: 'string' },
  'oidc-event': { type: 'string' },
  github: { type: 'boolean' },
  'github-port': { type: 'string' },
  gitlab: { type: 'boolean' },
  'gitlab-port': { type: 'string' },
  fail: { type: 'string', multiple: true },
  hang: { type: 'string', multiple: true },
  'apply-then-fail': { type: 'string', multiple: true },
  'apply-then-delay': { type: 'string', multiple: true },
  'reset-upload-after': { type: 'string' },
  'drop-after-upload': { type: 'string' },
  'ready-file': { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' }
} as const satisfies ParseArgsConfig['options']

/** The flags given, typed as parseArgs reads FLAGS. */
function readFlags(argv: string[]) {
  return parseArgs({ args: argv, strict: true, allowPositionals: false, options: FLAGS }).values
}

type Flags = ReturnType<typeof readFlags>

/** `--fail OP:STATUS[:TIMES[:RETRY_AFTER]]`: answered STATUS, nothing carried out. */
function fail(spec: string): Fault {
  const [op, status, times, retryAfter, ...rest] = spec.split(':')
  if (op === undefined || status === undefined || rest.length > 0) {
    throw new UsageError(`--fail needs OPERATION:STATUS[:TIMES[:RETRY_AFTER]], got "${spec}"`)
  }
  const fault: Fault = { operation: operation('fail', op), kind: 'status', status: int('fail', status, 100), times: 1 }
  if (fault.status !== undefined && fault.status > 599) throw new UsageError(`--fail: status ${fault.status} is not an HTTP status`)
  if (times !== undefined && times !== '') fault.times = int('fail', times, 1)
  if (retryAfter !== undefined && retryAfter !== '') fault.retryAfterSeconds = int('fail', retryAfter)
  return fault
}

/** `--hang OP[:TIMES]`: never answered. */
function hang(spec: string): Fault {
  const [op, times, ...rest] = spec.split(':')
  if (op === undefined || rest.length > 0) throw new UsageError(`--hang needs OPERATION[:TIMES], got "${spec}"`)
  return { operation: operation('hang', op), kind: 'hang', times: times === undefined ? 1 : int('hang', times, 1) }
}

/** The faults the flags ask for, in the order of the help: --fail, --hang, --apply-then-*, then the upload's. */
function faultsOf(flags: Flags): Fault[] {
  const faults: Fault[] = []
  for (const spec of flags.fail ?? []) faults.push(fail(spec))
  for (const spec of flags.hang ?? []) faults.push(hang(spec))
  for (const spec of flags['apply-then-fail'] ?? []) faults.push(applyThenFail(spec))
  for (const spec of flags['apply-then-delay'] ?? []) faults.push(applyThenDelay(spec))
  if (flags['reset-upload-after'] !== undefined) {
    faults.push({ operation: 'upload', kind: 'reset-mid-upload', afterBytes: int('reset-upload-after', flags['reset-upload-after']), times: 1 })
  }
  if (flags['drop-after-upload'] !== undefined) {
    faults.push({ operation: 'upload', kind: 'drop-after-upload', times: int('drop-after-upload', flags['drop-after-upload'], 1) })
  }
  return faults
}

/** Where it listens, the account and its tokens. */
function setLogin(flags: Flags, options: EmulatorOptions): void {
  if (flags.host !== undefined) options.host = flags.host
  if (flags.port !== undefined) options.port = int('port', flags.port)
  if (flags.username !== undefined) options.username = flags.username
  if (flags.password !== undefined) options.password = flags.password
  if (flags['token-lifetime'] !== undefined) options.tokenLifetimeSeconds = int('token-lifetime', flags['token-lifetime'], 1)
  if (flags['refresh-lifetime'] !== undefined) options.refreshLifetimeSeconds = int('refresh-lifetime', flags['refresh-lifetime'], 1)
  if (flags['token-clock-skew'] !== undefined) options.tokenClockSkewSeconds = seconds('token-clock-skew', flags['token-clock-skew'])
}

/** The environments, their lists' pages, and the distributions: the upload's answer, where they are kept, their limits. */
function setStack(flags: Flags, options: EmulatorOptions): void {
  if (flags.environments !== undefined) options.environments = names(flags.environments)
  if (flags['max-environments'] !== undefined) options.maxEnvironments = int('max-environments', flags['max-environments'], 1)
  if (flags['environment-page-size'] !== undefined) options.environmentPageSize = int('environment-page-size', flags['environment-page-size'], 1)
  if (flags['environment-offset-ignored'] === true) options.environmentOffsetIgnored = true
  if (flags['distribution-page-size'] !== undefined) options.distributionPageSize = int('distribution-page-size', flags['distribution-page-size'], 1)
  const answer = flags['upload-answer']
  if (answer !== undefined) {
    if (answer !== 'record' && answer !== 'numeric-id' && answer !== 'no-id' && answer !== 'empty') {
      throw new UsageError(`--upload-answer needs record, numeric-id, no-id or empty, got "${answer}"`)
    }
    options.uploadAnswer = answer
  }
  if (flags.storage !== undefined) options.storageDir = flags.storage
  if (flags['no-keep-uploads'] === true) options.keepUploads = false
  if (flags['max-distributions'] !== undefined) options.maxDistributions = int('max-distributions', flags['max-distributions'])
  if (flags['max-distribution-bytes'] !== undefined) {
    options.maxDistributionBytes = int('max-distribution-bytes', flags['max-distribution-bytes'], 1)
  }
  if (flags['upload-rate'] !== undefined) options.uploadBytesPerSecond = int('upload-rate', flags['upload-rate'], 1)
}

/** How a deploy goes and is reported, and how records read (cases, ids, fields) while it does. */
function setDeploy(flags: Flags, options: EmulatorOptions): void {
  if (flags['deploy-seconds'] !== undefined) options.deploySeconds = seconds('deploy-seconds', flags['deploy-seconds'])
  const whileBusy = oneOf('deploy-while-busy', flags['deploy-while-busy'], ['refuse', 'accept'] as const)
  if (whileBusy !== undefined) options.deployWhileBusy = whileBusy
  if (flags['deploy-looks'] !== undefined) options.deployLooks = int('deploy-looks', flags['deploy-looks'])
  const report = oneOf('deploy-report', flags['deploy-report'], ['when-done', 'at-request'] as const)
  if (report !== undefined) options.deployReport = report
  const during = oneOf('site-during-deploy', flags['site-during-deploy'], ['unavailable', 'old'] as const)
  if (during !== undefined) options.siteDuringDeploy = during
  if (flags['no-environment-status'] === true) options.environmentStatus = false
  const md5Case = oneOf('md5-case', flags['md5-case'], ['lower', 'upper'] as const)
  if (md5Case !== undefined) options.md5Case = md5Case
  const unknownByName = oneOf('unknown-environment-by-name', flags['unknown-environment-by-name'], ['not-found', 'no-id'] as const)
  if (unknownByName !== undefined) options.unknownEnvironmentByName = unknownByName
  const idCase = oneOf('id-case', flags['id-case'], ['as-stored', 'upper', 'upper-distributions', 'upper-environments', 'upper-by-name'] as const)
  if (idCase !== undefined) options.idCase = idCase
  const idWhileDeploying = oneOf('id-while-deploying', flags['id-while-deploying'], ['reported', 'absent', 'null'] as const)
  if (idWhileDeploying !== undefined) options.idWhileDeploying = idWhileDeploying
  const deleteInUse = oneOf('delete-in-use', flags['delete-in-use'], ['refuse', 'allow'] as const)
  if (deleteInUse !== undefined) options.deleteInUse = deleteInUse
}

/** The platform's clock, its backups and the stack's application configuration files. */
function setClockAndBackups(flags: Flags, options: EmulatorOptions): void {
  if (flags['clock-offset'] !== undefined) options.clockOffsetSeconds = signedSeconds('clock-offset', flags['clock-offset'])
  if (flags['backup-age-hours'] !== undefined) options.backupAgeHours = hours('backup-age-hours', flags['backup-age-hours'])
  if (flags['no-backups'] === true) {
    if (flags['backup-age-hours'] !== undefined) throw new UsageError('--no-backups and --backup-age-hours: give one or the other')
    options.noBackups = true
  }
  if (flags['app-config-files'] !== undefined) options.appConfigFiles = names(flags['app-config-files'])
}

/** The search API's keys, facet format, delay, and what it makes of an empty auth_key. */
function setSearch(flags: Flags, options: EmulatorOptions): void {
  if (flags['search-account-id'] !== undefined) options.searchAccountId = flags['search-account-id']
  if (flags['search-auth-key'] !== undefined) options.searchAuthKey = flags['search-auth-key']
  if (flags['search-domain-key'] !== undefined) options.searchDomainKey = flags['search-domain-key']
  const facets = flags['search-facet-format']
  if (facets !== undefined) {
    if (facets !== 'v3' && facets !== 'legacy') throw new UsageError(`--search-facet-format needs v3 or legacy, got "${facets}"`)
    options.searchFacetFormat = facets
  }
  if (flags['search-delay'] !== undefined) options.searchDelayMs = int('search-delay', flags['search-delay'])
  const emptyAuthKey = oneOf('search-empty-auth-key', flags['search-empty-auth-key'], ['accept', 'refuse'] as const)
  if (emptyAuthKey !== undefined) options.searchEmptyAuthKey = emptyAuthKey
}

/** The emulator's options, read in the order of the help (the first bad flag is the one named). */
function optionsOf(flags: Flags): EmulatorOptions {
  const options: EmulatorOptions = { port: DEFAULT_PORT, faults: faultsOf(flags) }
  setLogin(flags, options)
  setStack(flags, options)
  setDeploy(flags, options)
  setClockAndBackups(flags, options)
  setSearch(flags, options)
  const sso = ssoOptions(flags)
  if (sso !== undefined) options.sso = sso
  return options
}

type StartCommand = Extract<CliCommand, { help: false }>

/** --github or --gitlab (one code host per run), each on its port. */
function setCodeHost(flags: Flags, command: StartCommand): void {
  if (flags.github === true || flags['github-port'] !== undefined) {
    command.github = { port: flags['github-port'] === undefined ? DEFAULT_GITHUB_PORT : int('github-port', flags['github-port']) }
  }
  if (flags.gitlab === true || flags['gitlab-port'] !== undefined) {
    if (command.github !== undefined) {
      throw new UsageError('--github and --gitlab: the emulator stands in for one code host per run, as a deploy talks to one; give one or the other')
    }
    command.gitlab = { port: flags['gitlab-port'] === undefined ? DEFAULT_GITLAB_PORT : int('gitlab-port', flags['gitlab-port']) }
  }
}

export function parseCli(argv: string[]): CliCommand {
  const flags = readFlags(argv)
  if (flags.help === true) return { help: true }
  const command: StartCommand = { help: false, options: optionsOf(flags), quiet: flags.quiet === true }
  if (flags['ready-file'] !== undefined) command.readyFile = flags['ready-file']
  setCodeHost(flags, command)
  return command
}
