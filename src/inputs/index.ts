// The one place that reads the action's inputs. Everything is validated here, before any request,
// and turned into one typed, read-only object; an invalid value throws an InputError that says how
// to fix it. One module per group: parsers (shared rules), address, deploy (with the run's common
// settings) and search. Defaults come from action.yml through the generated src/action-metadata.ts.
import * as core from '../port.js'
import { secretSource, usernameSource } from '../advice.js'
import { OTEL_ENDPOINT_INPUT, readTracingInputs } from './tracing.js'
import type { TracingInputs } from '../tracing/config.js'
import { registerSecret } from '../secrets.js'
import { Input, readCommonInputs, readDeployInputs, readSource, type CommonInputs, type DeployInputs, type InputReader } from './deploy.js'
import { InputError } from '../errors.js'
import { parseSearchConfig, type SearchConfig } from './search.js'
import { watchdogMs } from './budget.js'
import type { InputName } from '../action-metadata.js'
import { isSet } from './parsers.js'
import { checkTokenLifetime, LoginInput } from './login.js'
import { AddressInput } from './address.js'
import { SearchInput } from './search.js'
import { anySink, readEventsInputs } from './events.js'
import type { EventsInputs } from '../events/observed.js'

// isLoopbackHost has one home, ./address.js: import it from there.
export { AddressInput, resolveCloudAddress, validateStackName, type AddressInputs, type CloudAddress } from './address.js'
export {
  Input,
  MB,
  parseDistributionName,
  type CommonInputs,
  type DeployInputs,
  type DistributionSource,
  type HealthCheck,
  type InputReader
} from './deploy.js'
export { parseBoolean, parseDecimal, parseInteger } from './parsers.js'
export { LoginInput, type Login, type OAuthGrant } from './login.js'
export {
  checkRequestSize,
  normalizeQuery,
  parseSearchBaseUrl,
  parseSearchConfig,
  SearchInput,
  type NormalizedQuery,
  type SearchConfig,
  type SearchConfigContext,
  type SearchInputReader
} from './search.js'
export { INPUT_DEFAULTS, type InputName } from '../action-metadata.js'
export { EventsInput, readEventsInputs } from './events.js'

export interface ActionInputs {
  readonly common: CommonInputs
  /** The watchdog's limit: total-timeout-minutes, or derived from the run's budgets (./budget.ts). */
  readonly watchdogMs: number
  readonly deploy: DeployInputs | undefined
  readonly search: SearchConfig | undefined
  /** The event sinks (docs/events.md); none on when no sink input is set. */
  readonly events: EventsInputs
  /** Where the run's trace goes (docs/tracing.md); undefined: tracing is off. */
  readonly tracing: TracingInputs | undefined
}

/** Inputs renamed before the first release: the old name still works, with a warning, when the new one is not set. */
export const RENAMED: Readonly<Record<string, InputName>> = {
  'timeout-minutes': 'total-timeout-minutes',
  'search-url': 'search-page-url',
  'max-distribution-size': 'max-distribution-mb'
}

/** A reader that takes a renamed input's old name when the new one is empty or its default (a runner sets defaults itself). */
function withRenamedInputs(getInput: InputReader, warn: (message: string) => void): InputReader {
  const warned = new Set<string>()
  return (name, options) => {
    const value = getInput(name, options)
    const old = Object.keys(RENAMED).find((o) => RENAMED[o] === name)
    if (old === undefined || isSet(name as InputName, value)) return value
    const legacy = getInput(old, options)
    if (legacy === '') return value
    if (!warned.has(old)) warn(`The input ${old} is now called ${name}: rename it in your workflow (the old name still works for now).`)
    warned.add(old)
    return legacy
  }
}

/**
 * Every required input of a deploying run that is missing, named at once: a user learns them in one run,
 * not one a run. One missing input is left to the rule that owns it, which says more about it.
 */
function missingRequired(getInput: InputReader): void {
  const empty = (name: InputName): boolean => getInput(name).trim() === ''
  const noSource = empty(Input.Distribution) && empty(Input.DistributionId) && empty(Input.FromEnvironment)
  if (noSource && !empty(SearchInput.Query)) return // a search check alone: no deployment inputs are needed
  // Any single sign-on input set: the login's own rules say what is missing or misplaced, more precisely.
  const ssoLogin = [
    LoginInput.TokenUrl,
    LoginInput.AccessToken,
    LoginInput.ClientId,
    LoginInput.ClientSecret,
    LoginInput.OidcAudience,
    LoginInput.Audience,
    LoginInput.Scope
  ].some((name) => !empty(name))
  const missing = [
    empty(AddressInput.Stack) && empty(AddressInput.ConsoleUrl) && empty(AddressInput.ApiUrl) && 'stack (or console-url, or api-url): the stack to deploy to',
    !ssoLogin && empty(LoginInput.Username) && `username: ${usernameSource()}`,
    !ssoLogin && getInput(LoginInput.Password, { trimWhitespace: false }) === '' && `password: ${secretSource(LoginInput.Password)}`,
    noSource &&
      'distribution (or distribution-id, or from-environment): the .tar.gz your build produced, e.g. target/*-distribution.tar.gz, or a directory to pack'
  ].filter((m): m is string => m !== false)
  if (missing.length < 2) return
  throw new InputError(
    `${missing.length} required inputs are missing: ${missing.join('; ')}. (On a stack with single sign-on, set token-url or access-token instead of username and password.)`
  )
}

export function readInputs(read: InputReader = core.getInput, env: NodeJS.ProcessEnv = process.env): ActionInputs {
  const getInput = withRenamedInputs(read, (m) => core.warning(m))
  missingRequired(getInput)
  // Mask every secret the moment it is known, before anything could print it. The password is not
  // trimmed: it may legitimately begin or end with a space.
  const password = getInput(Input.Password, { trimWhitespace: false })
  registerSecret(password)
  registerSecret(getInput(LoginInput.ClientSecret))
  registerSecret(getInput(LoginInput.AccessToken))
  const context = core.runContext()
  // The sinks' webhook addresses, tokens and keys are masked here too, before anything could print them.
  const events = readEventsInputs(getInput, { repository: context.repository || undefined, stack: getInput(AddressInput.Stack) || undefined })
  // The collector's headers are masked here too; a malformed OTEL_* variable turns tracing off with a warning.
  const traced = readTracingInputs(getInput(OTEL_ENDPOINT_INPUT), env)
  for (const warning of traced.warnings) core.warning(warning)
  const tracing = traced.tracing
  const search = parseSearchConfig((name) => getInput(name), { repository: context.repository || undefined, warn: (m) => core.warning(m) })
  const common = readCommonInputs(getInput)

  const source = readSource(getInput)
  if (source === undefined && search)
    return { common, watchdogMs: watchdogMs(common, undefined, search, 0, tracing?.timeoutMs), deploy: undefined, search, events, tracing }
  if (source === undefined) {
    throw new InputError(
      `Input ${Input.Distribution} is required: point it at the .tar.gz your build produced (e.g. target/*-distribution.tar.gz) or at a ` +
        'directory to pack, or set distribution-id or from-environment to deploy a distribution already on the stack. ' +
        '(To run only the search check, set search-query and leave distribution empty.)'
    )
  }
  const deploy = readDeployInputs(getInput, common, source, password, (m) => core.warning(m))
  const limit = watchdogMs(common, deploy, search, anySink(events) ? events.timeoutMs : 0, tracing?.timeoutMs)
  checkTokenLifetime(deploy.login, limit)
  return { common, watchdogMs: limit, deploy, search, events, tracing }
}

/**
 * The time the watchdog leaves after the steps, inside total-timeout-minutes: the event sinks' and the trace's sends,
 * side by side, so the longer of the two. The sinks' only when they will be told (not a dry run or an upload alone).
 */
export function afterRunMs(inputs: Pick<ActionInputs, 'deploy' | 'events' | 'tracing'>): number {
  const told = inputs.deploy?.environment !== undefined && !inputs.deploy.dryRun && anySink(inputs.events)
  return Math.max(told ? inputs.events.timeoutMs : 0, inputs.tracing?.timeoutMs ?? 0)
}
