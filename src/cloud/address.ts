// Derives the one API base address that receives the password. Everything here is strict on
// purpose: a loose parse of a stack name could send credentials to a host the user did not mean.
import { InputError } from '../errors.js'
import { parseAbsoluteUrl, parseBaseUrl, type BaseUrlRules } from '../http/base-url.js'

export { isLoopbackHost } from '../http/base-url.js'

export const DEFAULT_PLATFORM_DOMAIN = 'bloomreach.cloud'

export interface AddressInputs {
  stack: string
  consoleUrl: string
  platformDomain: string
  apiUrl: string
}

export interface CloudAddress {
  /** Base address without a trailing slash, e.g. https://api.mystack.bloomreach.cloud */
  apiUrl: string
  /** The stack name when it is known (from `stack` or `console-url`), for messages. */
  stack: string | undefined
  /** Which input decided the address. */
  source: 'api-url' | 'console-url' | 'stack'
}

const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i

export function validateStackName(stack: string, input = 'stack'): string {
  if (DNS_LABEL.test(stack)) return stack.toLowerCase()
  let why = 'it must be one DNS label: letters, digits and hyphens, 1 to 63 characters, not starting or ending with a hyphen'
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(stack)) why = 'it looks like an address, not a stack name'
  else if (stack.includes('.')) why = 'it contains a dot, so it is a host name, not a stack name'
  else if (stack.includes('/')) why = 'it contains a slash'
  else if (/\s/.test(stack)) why = 'it contains white space'
  else if (stack.length > 63) why = `it is ${stack.length} characters long (at most 63)`
  throw new InputError(
    `${input} '${stack}' is not a valid stack name: ${why}. Use the word that follows "missioncontrol." in your ` +
      `console address (for https://missioncontrol.mystack.bloomreach.cloud that is "mystack"), or set console-url to ` +
      `that address, or api-url to the full API address.`
  )
}

function validateDomain(domain: string): string {
  const labels = domain.split('.')
  if (labels.length < 2 || !labels.every((l) => DNS_LABEL.test(l))) {
    throw new InputError(
      `platform-domain '${domain}' is not a host name (expected something like "bloomreach.cloud", with no scheme or slash). ` +
        `Leave it empty for the default "${DEFAULT_PLATFORM_DOMAIN}".`
    )
  }
  return domain.toLowerCase()
}

const API_URL_RULES: BaseUrlRules = {
  input: 'api-url',
  example: 'https://api.mystack.bloomreach.cloud',
  credentialsHint: 'Pass credentials through the username and password inputs.',
  secret: 'the password',
  apiPath: /\/v3$/i,
  apiPathMessage: 'ends with /v3: give the base address without the version'
}

function resolveConsoleUrl(value: string): { stack: string; domain: string } {
  const url = parseAbsoluteUrl(value.replace(/#.*$/, ''), {
    input: 'console-url',
    example: 'https://missioncontrol.mystack.bloomreach.cloud',
    credentialsHint: API_URL_RULES.credentialsHint
  })
  const match = /^missioncontrol\.([^.]+)\.(.+)$/i.exec(url.hostname)
  if (url.protocol !== 'https:' || !match) {
    throw new InputError(
      `console-url '${value}' is not a management console address. It must have the form ` +
        `https://missioncontrol.<stack>.<platform domain>, for example https://missioncontrol.mystack.bloomreach.cloud. ` +
        `For any other API host, set api-url instead.`
    )
  }
  return { stack: validateStackName(match[1] ?? '', 'console-url stack'), domain: validateDomain(match[2] ?? '') }
}

/** api-url wins, else console-url, else stack + platform-domain. */
export function resolveCloudAddress(inputs: AddressInputs): CloudAddress {
  if (inputs.apiUrl) {
    const stack = inputs.stack ? validateStackName(inputs.stack) : undefined
    return { apiUrl: parseBaseUrl(inputs.apiUrl, API_URL_RULES), stack, source: 'api-url' }
  }
  if (inputs.consoleUrl) {
    const { stack, domain } = resolveConsoleUrl(inputs.consoleUrl)
    return { apiUrl: `https://api.${stack}.${domain}`, stack, source: 'console-url' }
  }
  if (inputs.stack) {
    const stack = validateStackName(inputs.stack)
    const domain = validateDomain(inputs.platformDomain || DEFAULT_PLATFORM_DOMAIN)
    return { apiUrl: `https://api.${stack}.${domain}`, stack, source: 'stack' }
  }
  throw new InputError(
    'No Bloomreach Cloud stack given. Set `stack` to your stack name (the word after "missioncontrol." in the console ' +
      'address), or `console-url` to the console address, or `api-url` to the full API address.'
  )
}
