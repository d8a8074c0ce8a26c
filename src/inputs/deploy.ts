// The deployment's inputs and the settings of the whole run: validated and returned typed. The password
// is registered as a secret by readInputs (before anything else is read), the GitHub token here.
import { distributionNameProblem } from '../cloud/distribution-name.js'
import type { InputOptions } from '@actions/core'
import { INPUT_DEFAULTS, type InputName } from '../action-metadata.js'
import { InputError } from '../errors.js'
import { registerSecret } from '../secrets.js'
import { AddressInput, resolveCloudAddress, type CloudAddress } from './address.js'
import { optional, parseBoolean, parseDecimal, parseInteger, required } from './parsers.js'

/** Input names, as in action.yml. Workflows depend on them: never rename one. */
export const Input = {
  ...AddressInput,
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
} as const satisfies Record<string, InputName>

/** max-distribution-size is in MB of this size. */
export const MB = 1024 * 1024

/** How an input is read: @actions/core's getInput, or a stand-in. */
export type InputReader = (name: string, options?: InputOptions) => string

/** Settings of the whole run. */
export interface CommonInputs {
  readonly dryRun: boolean
  /** Attempts per call, for failures worth another try. */
  readonly maxAttempts: number
  /** JSON calls: time for the whole call; upload: time allowed with no bytes moving. */
  readonly requestTimeoutMs: number
  /** The whole run: a watchdog fails the step instead of hanging until the job's own limit. */
  readonly timeoutMs: number
}

/** What the deployment needs; absent when only a search check runs. */
export interface DeployInputs extends CommonInputs {
  readonly address: CloudAddress
  readonly username: string
  readonly password: string
  /** The raw `distribution` input: a file, a glob or a directory (resolved by the archive module). */
  readonly distribution: string
  /** Upload name for a packed directory; undefined = derive it from the workflow context. */
  readonly distributionName: string | undefined
  readonly environment: string | undefined
  readonly deployStrategy: string
  readonly maxDistributionBytes: number
  /** Prune old distributions so that at most this many remain after the upload; undefined = off. */
  readonly maxDistributions: number | undefined
  /** gzip level for a packed directory: 1 fastest, 9 smallest. */
  readonly compressionLevel: number
  /** Run before packing, e.g. `mvn -B -P dist package`; undefined = none. */
  readonly buildCommand: string | undefined
  /** When set (and an environment is), each deploy is recorded as a GitHub Deployment. */
  readonly githubToken: string | undefined
}

export function readCommonInputs(getInput: InputReader): CommonInputs {
  return {
    dryRun: parseBoolean(Input.DryRun, getInput(Input.DryRun)),
    maxAttempts: parseMaxAttempts(getInput(Input.MaxAttempts)),
    requestTimeoutMs: parseInteger(Input.RequestTimeoutSeconds, getInput(Input.RequestTimeoutSeconds), 1, 3600) * 1000,
    timeoutMs: Math.round(parseDecimal(Input.TimeoutMinutes, getInput(Input.TimeoutMinutes), 0.01, 360) * 60_000)
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

function parseDeployStrategy(value: string): string {
  const strategy = value || INPUT_DEFAULTS[Input.DeployStrategy]
  if (!/^[a-z][a-z0-9-]*$/i.test(strategy)) {
    throw new InputError(`deploy-strategy '${strategy}' is not a strategy name; leave it empty for "${INPUT_DEFAULTS[Input.DeployStrategy]}".`)
  }
  return strategy
}

/** `password` was read (and registered as a secret) by the caller, before anything else. */
export function readDeployInputs(getInput: InputReader, common: CommonInputs, distribution: string, password: string): DeployInputs {
  const address = resolveCloudAddress({
    stack: getInput(Input.Stack),
    consoleUrl: getInput(Input.ConsoleUrl),
    platformDomain: getInput(Input.PlatformDomain),
    apiUrl: getInput(Input.ApiUrl)
  })
  const username = required(
    Input.Username,
    getInput(Input.Username),
    'set it to the Bloomreach Cloud user that deploys, from a secret (username: ${{ secrets.BRC_USERNAME }}).'
  )
  required(
    Input.Password,
    password,
    'set it from a secret (password: ${{ secrets.BRC_PASSWORD }}); if it is set and still empty, the secret is not available to this workflow (forks and Dependabot runs get no secrets).'
  )

  const deployStrategy = parseDeployStrategy(getInput(Input.DeployStrategy))
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
    deployStrategy,
    maxDistributionBytes: parseInteger(Input.MaxDistributionSize, getInput(Input.MaxDistributionSize), 1, 1024 * 1024) * MB,
    maxDistributions: optional(Input.MaxDistributions, maxDistributions, (v) => parseInteger(Input.MaxDistributions, v, 1, 1000)),
    compressionLevel: parseInteger(Input.CompressionLevel, getInput(Input.CompressionLevel), 1, 9),
    buildCommand: getInput(Input.BuildCommand) || undefined,
    githubToken: githubToken || undefined
  }
}
