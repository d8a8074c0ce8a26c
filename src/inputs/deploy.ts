// The deployment's inputs and the settings of the whole run: validated and returned typed. The password
// is registered as a secret by readInputs (before anything else is read), the GitHub token here.
import { readReleaseRules, type ReleaseRules } from './rules.js'
import { distributionNameProblem } from '../cloud/distribution-name.js'
import type { DistributionSource, InputReader } from './reader.js'
import { INPUT_DEFAULTS, type InputName } from '../action-metadata.js'
import { giveGitHubToken } from '../advice.js'
import { readCodeHost, type CodeHostInputs } from './code-host.js'
import { InputError } from '../errors.js'
import { AddressInput, parseAbsoluteUrl, parsePageUrl, resolveCloudAddress, type CloudAddress } from './address.js'
import { readLogin, type Login } from './login.js'
import { isSet, optional, parseBoolean, parseDecimal, parseInteger } from './parsers.js'

export type { DistributionSource, InputReader }

/** Input names, as in action.yml. Workflows depend on them: never rename one. */
export const Input = {
  ...AddressInput,
  Username: 'username',
  Password: 'password',
  Distribution: 'distribution',
  DistributionId: 'distribution-id',
  FromEnvironment: 'from-environment',
  DistributionName: 'distribution-name',
  Environment: 'environment',
  EnvironmentUrl: 'environment-url',
  ConfigFiles: 'config-files',
  ForceDeploy: 'force-deploy',
  AllowOlderCommit: 'allow-older-commit',
  AllowUncheckedOrder: 'allow-unchecked-order',
  FollowDeploy: 'follow-deploy',
  DeployTimeoutMinutes: 'deploy-timeout-minutes',
  HealthUrl: 'health-url',
  HealthExpect: 'health-expect',
  HealthTimeoutMinutes: 'health-timeout-minutes',
  Rollback: 'rollback',
  RollbackOnSearch: 'rollback-on-search',
  DeployStrategy: 'deploy-strategy',
  DryRun: 'dry-run',
  MaxDistributionSize: 'max-distribution-mb',
  MaxDistributions: 'max-distributions',
  MaxAttempts: 'max-attempts',
  RequestTimeoutSeconds: 'request-timeout-seconds',
  TimeoutMinutes: 'total-timeout-minutes',
  BuildCommand: 'build-command',
  CompressionLevel: 'compression-level',
  GitHubToken: 'github-token'
} as const satisfies Record<string, InputName>

/** max-distribution-mb is in MB of this size. */
export const MB = 1024 * 1024

/** Settings of the whole run. */
export interface CommonInputs {
  readonly dryRun: boolean
  /** Attempts per call, for failures worth another try. */
  readonly maxAttempts: number
  /** JSON calls: time for the whole call; upload: time allowed with no bytes moving. */
  readonly requestTimeoutMs: number
  /** The whole run: a watchdog fails the step instead of hanging until the job's own limit; undefined: derived from the other budgets. */
  readonly timeoutMs: number | undefined
}

/** The health check of the deployed site. */
export interface HealthCheck {
  readonly url: string
  /** The address as logs and the summary show it: no query string, which may carry a token. */
  readonly shown: string
  /** Text the answer must contain; undefined: any 2xx passes. */
  readonly expect: string | undefined
  readonly timeoutMs: number
}

/** What the deployment needs; absent when only a search check runs. */
export interface DeployInputs extends CommonInputs {
  /** The release rules: freeze windows, the soak gate, the backup rule, override-reason (./rules.ts). */
  readonly rules: ReleaseRules
  readonly address: CloudAddress
  /** How the run gets its access token (./login.ts). */
  readonly login: Login
  readonly source: DistributionSource
  /** The raw `distribution` input: a file, a glob or a directory (resolved by the archive module); '' when another source is used. */
  readonly distribution: string
  /** Upload name for a packed directory; undefined = derive it from the workflow context. */
  readonly distributionName: string | undefined
  readonly environment: string | undefined
  readonly deployStrategy: string
  readonly maxDistributionBytes: number
  /** Prune old distributions so that at most this many remain after the upload; undefined = off. */
  readonly maxDistributions: number | undefined
  /** 0 stores everything; 1-9 is the gzip level of what is deflated (already-compressed files are stored at any level). */
  readonly compressionLevel: number
  /** Run before packing, e.g. `mvn -B -P dist package`; undefined = none. */
  readonly buildCommand: string | undefined
  /** When set (and an environment is), each deploy is recorded as a GitHub Deployment. */
  readonly githubToken: string | undefined
  /** Where the code lives (GitHub or GitLab), for the deploy order and the recorded deployments. */
  readonly codeHost: CodeHostInputs
  /** Shown on the recorded deployment (GitHub's; GitLab's environment). */
  readonly environmentUrl: string | undefined
  /** Names of application configuration files, deployed with role systemproperty. */
  readonly configFiles: readonly string[]
  /** Deploy even when the environment already runs the distribution. */
  readonly forceDeploy: boolean
  /** Deploy a commit older than the one the environment runs (the order check refuses it otherwise). */
  readonly allowOlderCommit: boolean
  /** Deploy even when GitHub cannot be read to check the deploy order (refused otherwise). */
  readonly allowUncheckedOrder: boolean
  /** Wait until the environment reports the new distribution. */
  readonly followDeploy: boolean
  readonly deployTimeoutMs: number
  readonly health: HealthCheck | undefined
  /** Deploy the previous distribution back when the new one fails its checks. */
  readonly rollback: boolean
  /** Also roll back when the search check after the deploy fails (the search service is a separate system). */
  readonly rollbackOnSearch: boolean
}

export function readCommonInputs(getInput: InputReader): CommonInputs {
  return {
    dryRun: parseBoolean(Input.DryRun, getInput(Input.DryRun)),
    maxAttempts: parseMaxAttempts(getInput(Input.MaxAttempts)),
    requestTimeoutMs: parseInteger(Input.RequestTimeoutSeconds, getInput(Input.RequestTimeoutSeconds), 1, 3600) * 1000,
    timeoutMs: optional(Input.TimeoutMinutes, getInput(Input.TimeoutMinutes), (v) => Math.round(parseDecimal(Input.TimeoutMinutes, v, 0.01, 360) * 60_000))
  }
}

/** max-attempts: one rule for the cloud calls and the search check. */
export function parseMaxAttempts(value: string): number {
  return parseInteger(Input.MaxAttempts, value, 1, 20)
}

export function parseDistributionName(value: string): string | undefined {
  if (value === '') return undefined
  if (!/\.(tar\.gz|tgz)$/i.test(value)) {
    throw new InputError(`distribution-name '${value}' must end with .tar.gz or .tgz, e.g. ${value}.tar.gz.`)
  }
  const problem = distributionNameProblem(value)
  if (problem !== undefined) {
    throw new InputError(`distribution-name '${value}' must be a plain file name: ${problem}. For example myproject-1.2.0-distribution.tar.gz.`)
  }
  return value
}

/** Edits (insert, delete, replace) that turn a into b: Levenshtein's distance. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++) next.push(Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)))
    row = next
  }
  return row[b.length] ?? 0
}

/** The known value a near miss meant (another case, a separator, a typo of at most 2 edits); undefined when none is near. */
export function closest(value: string, known: readonly string[]): string | undefined {
  const bare = (v: string): string => v.toLowerCase().replace(/[-_ ]/g, '')
  let best: { value: string; distance: number } | undefined
  for (const k of known) {
    const distance = bare(value) === bare(k) ? 0 : editDistance(bare(value), bare(k))
    if (distance <= 2 && (best === undefined || distance < best.distance)) best = { value: k, distance }
  }
  return best?.value
}

/** The strategy values public clients send; Mission Control also offers rolling updates, whose API value is not public. */
export const KNOWN_STRATEGIES: readonly string[] = ['stopstart']

function parseDeployStrategy(value: string, warn: (message: string) => void): string {
  const strategy = value || INPUT_DEFAULTS[Input.DeployStrategy]
  if (!/^[a-z][a-z0-9-]*$/i.test(strategy)) {
    throw new InputError(`deploy-strategy '${strategy}' is not a strategy name; leave it empty for "${INPUT_DEFAULTS[Input.DeployStrategy]}".`)
  }
  const meant = closest(strategy, KNOWN_STRATEGIES)
  if (meant !== undefined && meant !== strategy) {
    throw new InputError(
      `deploy-strategy '${strategy}' is not a strategy the platform is known to take: did you mean ${meant}? Write deploy-strategy: ${meant}, or leave it empty for the default.`
    )
  }
  if (!KNOWN_STRATEGIES.includes(strategy)) {
    warn(
      `deploy-strategy '${strategy}' is not a value public clients send (they send ${KNOWN_STRATEGIES.join(', ')}). It is sent as given; the ` +
        'platform may refuse it only at the deploy, after the upload. Mission Control also offers rolling updates, whose API value is not public.'
    )
  }
  return strategy
}

/** Inputs that something else makes pointless: a warning, before any request, instead of silence. */
function warnIgnored(getInput: InputReader, source: DistributionSource, environment: string | undefined, warn: (message: string) => void): void {
  const set = (name: InputName): boolean => isSet(name, getInput(name))
  const notes: string[] = []
  if (set(Input.EnvironmentUrl) && getInput(Input.GitHubToken) === '' && getInput('gitlab-token') === '') {
    notes.push(`environment-url is set but github-token is empty: it is shown only on a GitHub Deployment (set ${giveGitHubToken('deployments: write')})`)
  }
  if (set(Input.HealthTimeoutMinutes) && getInput(Input.HealthUrl) === '')
    notes.push('health-timeout-minutes is set but health-url is empty: no health check runs')
  if (environment === undefined) {
    for (const name of [Input.DeployTimeoutMinutes, Input.FollowDeploy, Input.DeployStrategy, Input.EnvironmentUrl] as const) {
      if (set(name)) notes.push(`${name} is set but environment is empty: nothing is deployed`)
    }
  }
  if (source.kind !== 'upload') {
    for (const name of [Input.DistributionName, Input.MaxDistributions, Input.CompressionLevel, Input.MaxDistributionSize] as const) {
      if (set(name))
        notes.push(
          `${name} is set but nothing is uploaded (the distribution comes from ${source.kind === 'id' ? Input.DistributionId : Input.FromEnvironment})`
        )
    }
  }
  for (const note of notes) warn(`${note}. It is ignored.`)
}

/** The one source of the distribution: exactly one of distribution, distribution-id and from-environment (checked by the caller to be set). */
export function readSource(getInput: InputReader): DistributionSource | undefined {
  const given: DistributionSource[] = []
  const distribution = getInput(Input.Distribution)
  const id = getInput(Input.DistributionId)
  const from = getInput(Input.FromEnvironment)
  if (distribution !== '') given.push({ kind: 'upload', input: distribution })
  if (id !== '') {
    if (/\.(tar\.gz|tgz|tar|gz|zip|jar|war)$/i.test(id)) {
      throw new InputError(
        `distribution-id '${id}' looks like a file name, not a distribution id: distribution-id takes the id the platform gave the distribution ` +
          `(the distribution-id output of the run that uploaded it, or the id Mission Control shows). To upload this file, set distribution: ${id} instead.`
      )
    }
    if (/[\s/\\?#%\p{Cc}]/u.test(id))
      throw new InputError(`distribution-id '${id}' is not a distribution id: copy the id exactly as the platform shows it (no spaces or slashes).`)
    given.push({ kind: 'id', id })
  }
  if (from !== '') given.push({ kind: 'environment', name: from })
  if (given.length > 1) {
    const meaning: Record<DistributionSource['kind'], string> = {
      upload: `${Input.Distribution} to upload a build`,
      id: `${Input.DistributionId} to deploy a distribution already on the stack`,
      environment: `${Input.FromEnvironment} to deploy what another environment runs`
    }
    const names = given.map((g) => ({ upload: Input.Distribution, id: Input.DistributionId, environment: Input.FromEnvironment })[g.kind])
    const set =
      names.length === 2 ? `${names[0] ?? ''} and ${names[1] ?? ''} are both set` : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''} are all set`
    throw new InputError(
      `${set}, but they are alternatives: keep ${given.map((g) => meaning[g.kind]).join(', or ')}, and remove the other${names.length > 2 ? 's' : ''}.`
    )
  }
  return given[0]
}

/**
 * build-command runs without a shell, split into arguments as the runner splits them: only double quotes group.
 * `bash -c 'mvn package && cp ...'` would reach bash as the words `'mvn`, `package`, ... and fail with a bare
 * syntax error, so a single quote that opens an argument is refused here, with the command rewritten.
 */
function parseBuildCommand(value: string): string | undefined {
  const command = value.trim()
  if (command === '') return undefined
  if (opensWithSingleQuote(command)) {
    const rewritten = command.includes('"') ? '' : ` Write it as: ${command.replace(/'/g, '"')}`
    throw new InputError(
      `build-command: ${command} groups words with single quotes, which only a shell understands. build-command runs without a shell, ` +
        `and only double quotes group arguments (as the runner splits them).${rewritten}`
    )
  }
  return command
}

/** Whether an argument starts with ' outside double quotes (a backslash inside them escapes the next character). */
function opensWithSingleQuote(command: string): boolean {
  let quoted = false
  let atStart = true
  for (let i = 0; i < command.length; i++) {
    const c = command[i]
    if (quoted && c === '\\') i++
    else if (c === '"') quoted = !quoted
    else if (!quoted && c === ' ') {
      atStart = true
      continue
    } else if (!quoted && atStart && c === "'") return true
    atStart = false
  }
  return false
}

function parseConfigFiles(value: string): string[] {
  const names: string[] = []
  for (const raw of value.split(/[\n,]/)) {
    const name = raw.trim()
    if (name === '' || names.includes(name)) continue
    if (/\p{Cc}/u.test(name))
      throw new InputError(`config-files names '${name}', which contains a control character; write one name per line or separate them with commas.`)
    names.push(name)
  }
  return names
}

function parseEnvironmentUrl(value: string): string | undefined {
  if (value === '') return undefined
  const url = parseAbsoluteUrl(
    value,
    { input: Input.EnvironmentUrl, example: 'https://www.example.com', credentialsHint: 'It is only shown, never visited.' },
    true
  )
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new InputError(`environment-url '${value}' must start with https:// (for example https://www.example.com).`)
  return url.href
}

function parseHealth(getInput: InputReader): HealthCheck | undefined {
  const url = getInput(Input.HealthUrl)
  const expect = getInput(Input.HealthExpect)
  if (url === '') {
    if (expect !== '')
      throw new InputError(
        'health-expect is set but health-url is empty: set health-url to the page that must contain it, e.g. https://www.example.com/version.txt.'
      )
    return undefined
  }
  const page = parsePageUrl(url, {
    input: Input.HealthUrl,
    example: 'https://www.example.com/version.txt',
    credentialsHint: 'The health check sends no credentials: point it at a public page.'
  })
  const { origin, pathname } = new URL(page)
  return {
    url: page,
    shown: `${origin}${pathname}`,
    expect: expect === '' ? undefined : expect,
    timeoutMs: Math.round(parseDecimal(Input.HealthTimeoutMinutes, getInput(Input.HealthTimeoutMinutes), 0.01, 360) * 60_000)
  }
}

/** Inputs that act on an environment, refused without one rather than silently ignored. */
function needsEnvironment(getInput: InputReader, source: DistributionSource): void {
  const set: string[] = []
  if (source.kind === 'id') set.push(Input.DistributionId)
  if (source.kind === 'environment') set.push(Input.FromEnvironment)
  for (const name of [Input.ConfigFiles, Input.HealthUrl] as const) if (getInput(name) !== '') set.push(name)
  for (const name of [Input.Rollback, Input.RollbackOnSearch, Input.ForceDeploy, Input.AllowOlderCommit, Input.AllowUncheckedOrder] as const)
    if (parseBoolean(name, getInput(name))) set.push(`${name}: true`)
  if (set.length > 0) {
    throw new InputError(
      `${set.join(', ')} ${set.length === 1 ? 'needs' : 'need'} an environment to act on: set environment to the name of the environment to deploy to.`
    )
  }
}

/** The environment to act on, or none: then every input that acts on one is refused; a promotion comes from another. */
function readEnvironment(getInput: InputReader, source: DistributionSource): string | undefined {
  const environment = getInput(Input.Environment) || undefined
  if (environment === undefined) needsEnvironment(getInput, source)
  if (source.kind === 'environment' && source.name === environment) {
    throw new InputError(
      `from-environment and environment are both '${environment}': promote from another environment (e.g. from-environment: acceptance, environment: production).`
    )
  }
  return environment
}

/** rollback, and rollback-on-search, which only widens it: refused on its own rather than silently doing nothing. */
function readRollback(getInput: InputReader): { rollback: boolean; rollbackOnSearch: boolean } {
  const rollback = parseBoolean(Input.Rollback, getInput(Input.Rollback))
  const rollbackOnSearch = parseBoolean(Input.RollbackOnSearch, getInput(Input.RollbackOnSearch))
  if (rollbackOnSearch && !rollback) {
    throw new InputError('rollback-on-search: true needs rollback: true: set rollback: true to roll back when a check fails, or leave rollback-on-search off.')
  }
  return { rollback, rollbackOnSearch }
}

/**
 * allow-older-commit or allow-unchecked-order: each loosens the deploy order check, which runs only with a code
 * host's token; without one the input would do nothing unseen, so a warning says so.
 */
function readOrderOverride(
  getInput: InputReader,
  name: typeof Input.AllowOlderCommit | typeof Input.AllowUncheckedOrder,
  anyToken: boolean,
  warn: (message: string) => void
): boolean {
  const allowed = parseBoolean(name, getInput(name))
  if (allowed && !anyToken) {
    warn(
      `${name}: true has no effect without github-token: the deploy order is checked only with a token (${giveGitHubToken('deployments: write and contents: read')}).`
    )
  }
  return allowed
}

/** `password` was read (and registered as a secret) by the caller, before anything else. */
export function readDeployInputs(
  getInput: InputReader,
  common: CommonInputs,
  source: DistributionSource,
  password: string,
  warn: (message: string) => void = () => undefined
): DeployInputs {
  const address = resolveCloudAddress({
    stack: getInput(Input.Stack),
    consoleUrl: getInput(Input.ConsoleUrl),
    platformDomain: getInput(Input.PlatformDomain),
    apiUrl: getInput(Input.ApiUrl)
  })
  const login = readLogin((name) => getInput(name), password)

  const environment = readEnvironment(getInput, source)
  const deployStrategy = parseDeployStrategy(getInput(Input.DeployStrategy), warn)
  warnIgnored(getInput, source, environment, warn)
  const maxDistributions = getInput(Input.MaxDistributions)
  const codeHost = readCodeHost(getInput, warn)
  const githubToken = codeHost.githubToken ?? ''
  const anyToken = githubToken !== '' || codeHost.gitlab !== undefined
  const { rollback, rollbackOnSearch } = readRollback(getInput)
  const allowOlderCommit = readOrderOverride(getInput, Input.AllowOlderCommit, anyToken, warn)
  const allowUncheckedOrder = readOrderOverride(getInput, Input.AllowUncheckedOrder, anyToken, warn)
  return {
    ...common,
    address,
    login,
    source,
    distribution: source.kind === 'upload' ? source.input : '',
    distributionName: parseDistributionName(getInput(Input.DistributionName)),
    environment,
    deployStrategy,
    maxDistributionBytes: parseInteger(Input.MaxDistributionSize, getInput(Input.MaxDistributionSize), 1, 1024 * 1024) * MB,
    maxDistributions: optional(Input.MaxDistributions, maxDistributions, (v) => parseInteger(Input.MaxDistributions, v, 1, 1000)),
    compressionLevel: parseInteger(Input.CompressionLevel, getInput(Input.CompressionLevel), 0, 9),
    buildCommand: parseBuildCommand(getInput(Input.BuildCommand)),
    githubToken: githubToken || undefined,
    codeHost,
    environmentUrl: parseEnvironmentUrl(getInput(Input.EnvironmentUrl)),
    configFiles: parseConfigFiles(getInput(Input.ConfigFiles)),
    forceDeploy: parseBoolean(Input.ForceDeploy, getInput(Input.ForceDeploy)),
    allowOlderCommit,
    allowUncheckedOrder,
    followDeploy: parseBoolean(Input.FollowDeploy, getInput(Input.FollowDeploy)),
    deployTimeoutMs: Math.round(parseDecimal(Input.DeployTimeoutMinutes, getInput(Input.DeployTimeoutMinutes), 0.01, 360) * 60_000),
    health: parseHealth(getInput),
    rollback,
    rollbackOnSearch,
    rules: readReleaseRules(getInput, source, environment, githubToken)
  }
}
