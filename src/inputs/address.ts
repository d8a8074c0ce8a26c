// Addresses given as inputs. The one rule set for a service's base address (the cloud API's api-url,
// the search API's search-base-url): absolute, no credentials or query in it, https (plain http only to
// this machine), no trailing slash, and not the API path itself. And the one API base address that
// receives the password, from api-url, console-url or stack + platform-domain. Everything here is strict
// on purpose: a loose parse of a stack name could send credentials to a host the user did not mean.
import { INPUT_DEFAULTS, type InputName } from '../action-metadata.js'
import { InputError } from '../errors.js'

/** The inputs that decide the cloud API address. Workflows depend on them: never rename one. */
export const AddressInput = {
  Stack: 'stack',
  ConsoleUrl: 'console-url',
  PlatformDomain: 'platform-domain',
  ApiUrl: 'api-url'
} as const satisfies Record<string, InputName>

/** True for hosts that never leave this machine: 127.0.0.0/8, localhost, [::1]. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase()
  if (host === 'localhost' || host === '[::1]' || host === '::1') return true
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
}

export interface AddressRules {
  /** The input's name, for messages. */
  input: InputName
  /** A correct value, for messages. */
  example: string
  /** Where credentials go instead of the address. */
  credentialsHint: string
  /** Added to the query/fragment refusal. */
  queryHint?: string
}

/** Parses an absolute address that carries no credentials (and, unless `allowQuery`, no query or fragment). */
export function parseAbsoluteUrl(value: string, rules: AddressRules, allowQuery = false): URL {
  const { input, example } = rules
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InputError(`${input} '${value}' is not an absolute address. Write it in full, for example ${example}.`)
  }
  if (url.username || url.password) throw new InputError(`${input} must not contain a user name or password. ${rules.credentialsHint}`)
  if (!allowQuery && (url.search || url.hash)) {
    throw new InputError(`${input} '${value}' must not have a query or fragment. Use the bare address, for example ${example}${rules.queryHint ?? ''}.`)
  }
  return url
}

export interface BaseUrlRules extends AddressRules {
  /** What plain http would expose: "the password", "the auth key". */
  secret: string
  /** A path that means the user gave the API path, not the base address; and what to say then. */
  apiPath: RegExp
  apiPathMessage: string
}

/** A base address without a trailing slash, e.g. https://api.mystack.bloomreach.cloud. */
export function parseBaseUrl(value: string, rules: BaseUrlRules): string {
  const url = parseAbsoluteUrl(value, rules)
  requireHttps(url, value, rules)
  const path = url.pathname.replace(/\/+$/, '')
  if (rules.apiPath.test(path)) throw new InputError(`${rules.input} '${value}' ${rules.apiPathMessage}, for example ${rules.example}.`)
  return `${url.protocol}//${url.host}${path}`
}

/** https, or plain http to this machine only: what travels there would otherwise be readable on the way. */
export function requireHttps(url: URL, value: string, rules: AddressRules & { secret: string }): void {
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new InputError(
      `${rules.input} '${value}' uses plain http to ${url.hostname}: ${rules.secret} would travel unencrypted. ` +
        `Use https (plain http is accepted only for 127.0.0.1, localhost or [::1], such as the local emulator).`
    )
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InputError(`${rules.input} '${value}' must start with https:// (for example ${rules.example}).`)
  }
}

/**
 * A public page of the site (health-url): absolute, no credentials (refused), a query allowed, the
 * fragment dropped; https or plain http, since nothing secret is sent (a development site may have no
 * certificate).
 */
export function parsePageUrl(value: string, rules: AddressRules): string {
  const url = parseAbsoluteUrl(value, rules, true)
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new InputError(`${rules.input} '${value}' must start with https:// or http:// (for example ${rules.example}).`)
  url.hash = ''
  return url.href
}

export interface AddressInputs {
  stack: string
  consoleUrl: string
  platformDomain: string
  apiUrl: string
}

export interface CloudAddress {
  /** Base address without a trailing slash, e.g. https://api.mystack.bloomreach.cloud */
  readonly apiUrl: string
  /** The stack name when it is known (from `stack` or `console-url`), for messages. */
  readonly stack: string | undefined
  /** Which input decided the address. */
  readonly source: 'api-url' | 'console-url' | 'stack'
  /** The stack's Mission Control (console) address, when it follows from the inputs: where a user looks at the environment. */
  readonly consoleUrl: string | undefined
}

/** Mission Control of an API address of the current form (https://api.<stack>.<domain>); undefined for any other form. */
function consoleOf(apiUrl: string): string | undefined {
  const m = /^https:\/\/api\.([a-z0-9-]+)\.([a-z0-9.-]+)$/i.exec(apiUrl)
  return m ? `https://missioncontrol.${m[1]}.${m[2]}` : undefined
}

const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i

/** `input` names the value in messages: `stack`, or the stack part of console-url. */
/** The stack named by a console or API address given where a stack name belongs (missioncontrol.<stack>., api.<stack>., api-<stack>.). */
function stackIn(value: string): string | undefined {
  const host = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^/?#\s]+)/i.exec(value.trim())?.[1] ?? ''
  const m = /^(?:missioncontrol|api)[.-]([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)\.[a-z0-9.-]+$/i.exec(host)
  return m?.[1]?.toLowerCase()
}

export function validateStackName(stack: string, input: string = AddressInput.Stack): string {
  if (DNS_LABEL.test(stack)) return stack.toLowerCase()
  let why = 'it must be one DNS label: letters, digits and hyphens, 1 to 63 characters, not starting or ending with a hyphen'
  const meant = stackIn(stack)
  if (meant !== undefined) {
    throw new InputError(
      `${input} '${stack}' is an address, not a stack name: use ${input}: ${meant} (the word after "missioncontrol." or "api."), ` +
        `or set ${AddressInput.ConsoleUrl} to the console address instead.`
    )
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(stack)) why = 'it looks like an address, not a stack name'
  else if (stack.includes('.')) why = 'it contains a dot, so it is a host name, not a stack name'
  else if (stack.includes('/')) why = 'it contains a slash'
  else if (/\s/.test(stack)) why = 'it contains white space'
  else if (stack.length > 63) why = `it is ${stack.length} characters long (at most 63)`
  throw new InputError(
    `${input} '${stack}' is not a valid stack name: ${why}. Use the word that follows "missioncontrol." in your ` +
      `console address (for https://missioncontrol.mystack.bloomreach.cloud that is "mystack"), or set ${AddressInput.ConsoleUrl} to ` +
      `that address, or ${AddressInput.ApiUrl} to the full API address.`
  )
}

function validateDomain(domain: string): string {
  const labels = domain.split('.')
  if (labels.length < 2 || !labels.every((l) => DNS_LABEL.test(l))) {
    throw new InputError(
      `${AddressInput.PlatformDomain} '${domain}' is not a host name (expected something like "bloomreach.cloud", with no scheme or slash). ` +
        `Leave it empty for the default "${INPUT_DEFAULTS[AddressInput.PlatformDomain]}".`
    )
  }
  return domain.toLowerCase()
}

const API_URL_RULES: BaseUrlRules = {
  input: AddressInput.ApiUrl,
  example: 'https://api.mystack.bloomreach.cloud',
  credentialsHint: 'Pass credentials through the username and password inputs.',
  secret: 'the password',
  apiPath: /\/v3$/i,
  apiPathMessage: 'ends with /v3: give the base address without the version'
}

function resolveConsoleUrl(value: string): { stack: string; domain: string } {
  const url = parseAbsoluteUrl(value.replace(/#.*$/, ''), {
    input: AddressInput.ConsoleUrl,
    example: 'https://missioncontrol.mystack.bloomreach.cloud',
    credentialsHint: API_URL_RULES.credentialsHint
  })
  const match = /^missioncontrol\.([^.]+)\.(.+)$/i.exec(url.hostname)
  if (url.protocol !== 'https:' || !match) {
    throw new InputError(
      `${AddressInput.ConsoleUrl} '${value}' is not a management console address. It must have the form ` +
        `https://missioncontrol.<stack>.<platform domain>, for example https://missioncontrol.mystack.bloomreach.cloud. ` +
        `For any other API host, set ${AddressInput.ApiUrl} instead.`
    )
  }
  return { stack: validateStackName(match[1] ?? '', `${AddressInput.ConsoleUrl} stack`), domain: validateDomain(match[2] ?? '') }
}

/** api-url wins, else console-url, else stack + platform-domain. */
export function resolveCloudAddress(inputs: AddressInputs): CloudAddress {
  if (inputs.apiUrl) {
    const stack = inputs.stack ? validateStackName(inputs.stack) : undefined
    const apiUrl = parseBaseUrl(inputs.apiUrl, API_URL_RULES)
    return { apiUrl, stack, source: 'api-url', consoleUrl: consoleOf(apiUrl) }
  }
  if (inputs.consoleUrl) {
    const { stack, domain } = resolveConsoleUrl(inputs.consoleUrl)
    return { apiUrl: `https://api.${stack}.${domain}`, stack, source: 'console-url', consoleUrl: `https://missioncontrol.${stack}.${domain}` }
  }
  if (inputs.stack) {
    const stack = validateStackName(inputs.stack)
    const domain = validateDomain(inputs.platformDomain || INPUT_DEFAULTS[AddressInput.PlatformDomain])
    return { apiUrl: `https://api.${stack}.${domain}`, stack, source: 'stack', consoleUrl: `https://missioncontrol.${stack}.${domain}` }
  }
  throw new InputError(
    'No Bloomreach Cloud stack given. Set `stack` to your stack name (the word after "missioncontrol." in the console ' +
      'address), or `console-url` to the console address, or `api-url` to the full API address.'
  )
}
