// The one place that reads the action's inputs. Everything is validated here, before any request,
// and turned into a typed object; an invalid value throws an InputError that says how to fix it.
import * as core from '@actions/core'
import { resolveCloudAddress, type CloudAddress } from './cloud/address.js'
import { InputError } from './errors.js'
import { parseSearchConfig, type SearchConfig } from './search/config.js'
import { registerSecret } from './secrets.js'

/** Input names, as in action.yml. Workflows depend on them: never rename one. */
export const Input = {
  Stack: 'stack',
  ConsoleUrl: 'console-url',
  PlatformDomain: 'platform-domain',
  ApiUrl: 'api-url',
  Username: 'username',
  Password: 'password',
  Distribution: 'distribution',
  DistributionName: 'distribution-name',
  Environment: 'environment',
  DeployStrategy: 'deploy-strategy',
  DryRun: 'dry-run',
  MaxDistributionSize: 'max-distribution-size',
  MaxDistributions: 'max-distributions',
  MaxAttempts: 'max-attempts',
  RequestTimeoutSeconds: 'request-timeout-seconds',
  TimeoutMinutes: 'timeout-minutes',
  BuildCommand: 'build-command',
  CompressionLevel: 'compression-level',
  GitHubToken: 'github-token'
} as const

export const DEFAULT_DEPLOY_STRATEGY = 'stopstart'
/** The platform's default limit per distribution file (650 MB). */
export const DEFAULT_MAX_DISTRIBUTION_MB = 650
export const MB = 1024 * 1024
export const DEFAULT_MAX_ATTEMPTS = 4
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 60
export const DEFAULT_TIMEOUT_MINUTES = 30
export const DEFAULT_COMPRESSION_LEVEL = 6

/** Settings of the whole run. */
export interface CommonInputs {
  dryRun: boolean
  /** Attempts per call, for failures worth another try. */
  maxAttempts: number
  /** JSON calls: time for the whole call; upload: time allowed with no bytes moving. */
  requestTimeoutMs: number
  /** The whole run: a watchdog fails the step instead of hanging until the job's own limit. */
  timeoutMs: number
}

/** What the deployment needs; absent when only a search check runs. */
export interface DeployInputs extends CommonInputs {
  address: CloudAddress
  username: string
  password: string
  /** The raw `distribution` input: a file, a glob or a directory (resolved by the archive module). */
  distribution: string
  /** Upload name for a packed directory; undefined = derive it from the workflow context. */
  distributionName: string | undefined
  environment: string | undefined
  deployStrategy: string
  maxDistributionBytes: number
  /** Prune old distributions so that at most this many remain after the upload; undefined = off. */
  maxDistributions: number | undefined
  /** gzip level for a packed directory: 1 fastest, 9 smallest. */
  compressionLevel: number
  /** Run before packing, e.g. `mvn -B -P dist package`; undefined = none. */
  buildCommand: string | undefined
  /** When set (and an environment is), each deploy is recorded as a GitHub Deployment. */
  githubToken: string | undefined
}

export interface ActionInputs {
  common: CommonInputs
  deploy: DeployInputs | undefined
  search: SearchConfig | undefined
}

export type InputReader = (name: string, options?: core.InputOptions) => string

export function parseBoolean(name: string, value: string, fallback: boolean): boolean {
  if (value === '') return fallback
  if (/^(true|yes|on)$/i.test(value)) return true
  if (/^(false|no|off)$/i.test(value)) return false
  throw new InputError(`${name} '${value}' is not a boolean: write true or false.`)
}

export function parseInteger(name: string, value: string, fallback: number, min: number, max: number): number {
  if (value === '') return fallback
  if (!/^\d+$/.test(value)) throw new InputError(`${name} '${value}' is not a whole number: write a number from ${min} to ${max}.`)
  const n = Number(value)
  if (n < min || n > max) throw new InputError(`${name} ${value} is out of range: write a number from ${min} to ${max}.`)
  return n
}

/** A positive number with an optional fraction (timeout-minutes: 0.5 is half a minute). */
export function parseDecimal(name: string, value: string, fallback: number, min: number, max: number): number {
  if (value === '') return fallback
  if (!/^\d+(\.\d+)?$/.test(value)) throw new InputError(`${name} '${value}' is not a number: write a number from ${min} to ${max}, e.g. 30 or 2.5.`)
  const n = Number(value)
  if (n < min || n > max) throw new InputError(`${name} ${value} is out of range: write a number from ${min} to ${max}.`)
  return n
}

function required(name: string, value: string, why: string): string {
  if (value === '') throw new InputError(`Input ${name} is required: ${why}`)
  return value
}

export function parseDistributionName(value: string): string | undefined {
  if (value === '') return undefined
  if (/[/\\]/.test(value) || /[\p{Cc}"]/u.test(value)) {
    throw new InputError(`distribution-name '${value}' must be a plain file name (no slashes, quotes or control characters), e.g. myproject-1.2.0-distribution.tar.gz.`)
  }
  if (!/\.(tar\.gz|tgz)$/i.test(value)) {
    throw new InputError(`distribution-name '${value}' must end with .tar.gz or .tgz, e.g. ${value}.tar.gz.`)
  }
  return value
}

export function readInputs(getInput: InputReader = core.getInput): ActionInputs {
  // Mask every secret the moment it is known, before anything could print it. The password is not
  // trimmed: it may legitimately begin or end with a space.
  const password = getInput(Input.Password, { trimWhitespace: false })
  registerSecret(password)
  const search = parseSearchConfig((name) => getInput(name), { repository: process.env.GITHUB_REPOSITORY, warn: (m) => core.warning(m) })

  const common: CommonInputs = {
    dryRun: parseBoolean(Input.DryRun, getInput(Input.DryRun), false),
    maxAttempts: parseInteger(Input.MaxAttempts, getInput(Input.MaxAttempts), DEFAULT_MAX_ATTEMPTS, 1, 20),
    requestTimeoutMs: parseInteger(Input.RequestTimeoutSeconds, getInput(Input.RequestTimeoutSeconds), DEFAULT_REQUEST_TIMEOUT_SECONDS, 1, 3600) * 1000,
    timeoutMs: Math.round(parseDecimal(Input.TimeoutMinutes, getInput(Input.TimeoutMinutes), DEFAULT_TIMEOUT_MINUTES, 0.01, 360) * 60_000)
  }

  const distribution = getInput(Input.Distribution)
  if (distribution === '' && search) return { common, deploy: undefined, search }
  required(
    Input.Distribution,
    distribution,
    'point it at the .tar.gz your build produced (e.g. target/*-distribution.tar.gz) or at a directory to pack. ' +
      '(To run only the search check, set search-query and leave distribution empty.)'
  )
  return { common, deploy: readDeployInputs(getInput, common, distribution, password), search }
}

function readDeployInputs(getInput: InputReader, common: CommonInputs, distribution: string, password: string): DeployInputs {
  const address = resolveCloudAddress({
    stack: getInput(Input.Stack),
    consoleUrl: getInput(Input.ConsoleUrl),
    platformDomain: getInput(Input.PlatformDomain),
    apiUrl: getInput(Input.ApiUrl)
  })
  const username = required(Input.Username, getInput(Input.Username), 'set it to the Bloomreach Cloud user that deploys, from a secret (username: ${{ secrets.BRC_USERNAME }}).')
  required(Input.Password, password, 'set it from a secret (password: ${{ secrets.BRC_PASSWORD }}); if it is set and still empty, the secret is not available to this workflow (forks and Dependabot runs get no secrets).')

  const strategy = getInput(Input.DeployStrategy) || DEFAULT_DEPLOY_STRATEGY
  if (!/^[a-z][a-z0-9-]*$/i.test(strategy)) {
    throw new InputError(`deploy-strategy '${strategy}' is not a strategy name; leave it empty for "${DEFAULT_DEPLOY_STRATEGY}".`)
  }
  const maxDistributions = getInput(Input.MaxDistributions)
  const githubToken = getInput(Input.GitHubToken)
  registerSecret(githubToken)
  return {
    ...common,
    address,
    username,
    password,
    distribution,
    distributionName: parseDistributionName(getInput(Input.DistributionName)),
    environment: getInput(Input.Environment) || undefined,
    deployStrategy: strategy,
    maxDistributionBytes: parseInteger(Input.MaxDistributionSize, getInput(Input.MaxDistributionSize), DEFAULT_MAX_DISTRIBUTION_MB, 1, 1024 * 1024) * MB,
    maxDistributions: maxDistributions === '' ? undefined : parseInteger(Input.MaxDistributions, maxDistributions, 0, 1, 1000),
    compressionLevel: parseInteger(Input.CompressionLevel, getInput(Input.CompressionLevel), DEFAULT_COMPRESSION_LEVEL, 1, 9),
    buildCommand: getInput(Input.BuildCommand) || undefined,
    githubToken: githubToken || undefined
  }
}
