// One stack given as inputs instead of a file (docs/status.md, "A single stack"): the address, the environments, the
// tracked ref and the login, read by the deploy action's own rules (inputs/address.ts, inputs/login.ts), so a
// workflow without a configuration file can ask what runs where. A file and these inputs are one or the other:
// both, or neither, is an InputError before any request. Each face reads the values (action inputs, or the CLI's
// flags and variables); every secret is masked here, the moment it is read.
import { InputError } from '../errors.js'
import { resolveCloudAddress } from '../inputs/address.js'
import { checkTokenLifetime, readLogin } from '../inputs/login.js'
import { registerSecret } from '../secrets.js'
import { parseFreezeWindows } from '../rules/freeze.js'
import { checkRef, checkStackHealthUrl, DEFAULT_LOGIN_VARIABLES, parseHealthProbe, type StackConfig } from './config.js'
import type { PreparedStatus } from './index.js'

/** Where the stack is and what to report of it. */
export const SINGLE_STACK_SETTINGS = [
  'stack',
  'console-url',
  'api-url',
  'platform-domain',
  'environments',
  'track',
  'health-url',
  'health-expect',
  'deploy-freeze'
] as const
/** The login, as the deploy action takes it (no oidc-audience: the report offers no GitHub OIDC login). */
export const SINGLE_STACK_LOGIN = ['username', 'password', 'token-url', 'client-id', 'client-secret', 'audience', 'scope', 'access-token'] as const
export const SINGLE_STACK_INPUTS = [...SINGLE_STACK_SETTINGS, ...SINGLE_STACK_LOGIN] as const
export type SingleStackInput = (typeof SINGLE_STACK_INPUTS)[number]

const SECRETS = ['password', 'client-secret', 'access-token'] as const

/** A value as the face has it: trimmed, except the password (it may begin or end with a blank); '' when not set. */
export type SingleStackReader = (name: SingleStackInput) => string

/** `read`, each secret masked the moment it is read (also when a face only asks whether it is set). */
export function maskedReader(read: SingleStackReader): SingleStackReader {
  return (name) => {
    const value = read(name)
    if ((SECRETS as readonly string[]).includes(name)) registerSecret(value)
    return value
  }
}

/**
 * The report's source: the file (`configName` names its setting: `config`, `--config`), or the single stack's
 * inputs (`set`: those given). One or the other; an InputError saying which to drop, or what to set.
 */
export function singleStackChosen(configFile: string, set: readonly string[], configName: string, addressNames: string): boolean {
  if (configFile !== '' && set.length > 0)
    throw new InputError(
      `${configName} and ${set.join(', ')} are both set: a configuration file names its stacks and their logins itself; the single-stack inputs are ` +
        `for a report without a file. Use one or the other (docs/status.md).`
    )
  if (configFile === '' && set.length === 0)
    throw new InputError(
      `Nothing to report on: set ${configName} to the YAML file that names the stacks, or ${addressNames} (with its login) for a single stack (docs/status.md).`
    )
  return configFile === ''
}

/**
 * The single stack's configuration and login from `unmasked` (each secret masked as it is read); throws an InputError.
 * `trackFrom` names where the track was given (the input `track`, the flag `--track`, `BRCLOUD_TRACK`), for messages;
 * `freezeFrom` where the deploy-freeze windows were (`deploy-freeze`, `--deploy-freeze`, `BRCLOUD_DEPLOY_FREEZE`).
 */
export function prepareSingleStack(unmasked: SingleStackReader, trackFrom = 'track', freezeFrom = 'deploy-freeze'): PreparedStatus {
  const read = maskedReader(unmasked)
  const address = resolveCloudAddress({
    stack: read('stack'),
    consoleUrl: read('console-url'),
    apiUrl: read('api-url'),
    platformDomain: read('platform-domain')
  })
  const track = read('track') || undefined
  if (track !== undefined) checkRef(track, trackFrom)
  const environments = parseEnvironmentList(read('environments'))
  const health = parseHealthProbe(read('health-url'), read('health-expect'), '')
  if (health !== undefined) checkStackHealthUrl(health.url, environments, 'health-url')
  const freeze = parseFreezeWindows(read('deploy-freeze'), freezeFrom)
  const stack: StackConfig = {
    // Its rows are named by the stack (the stack input names it beside an api-url), else by the API's host.
    name: address.stack ?? new URL(address.apiUrl).host,
    address,
    environments,
    track,
    trackFrom,
    health,
    freeze,
    // Not read: the login comes from the inputs below, not from variables.
    login: { variables: DEFAULT_LOGIN_VARIABLES, defaults: true }
  }
  const login = readLogin((name) => ((SINGLE_STACK_LOGIN as readonly string[]).includes(name) ? read(name as SingleStackInput) : ''), read('password'), {})
  // A ready token that has expired is refused now; one that expires during the report is the stack's failure.
  checkTokenLifetime(login, 0)
  return { config: { stacks: [stack] }, logins: [login] }
}

/** `production, acceptance` or one a line; undefined when empty (every environment of the stack). */
export function parseEnvironmentList(raw: string): string[] | undefined {
  const names = raw
    .split(/[,\n]/)
    .map((n) => n.trim())
    .filter((n) => n !== '')
  if (names.length === 0) return undefined
  const twice = names.find((n, i) => names.indexOf(n) !== i)
  if (twice !== undefined) throw new InputError(`environments names '${twice}' twice.`)
  return names
}
