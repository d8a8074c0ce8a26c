// The one rule set for a service's base address (the cloud API's api-url, the search API's
// search-base-url): absolute, no credentials or query in it, https (plain http only to this
// machine), no trailing slash, and not the API path itself.
import { InputError } from '../errors.js'

/** True for hosts that never leave this machine: 127.0.0.0/8, localhost, [::1]. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase()
  if (host === 'localhost' || host === '[::1]' || host === '::1') return true
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
}

export interface AddressRules {
  /** The input's name, for messages. */
  input: string
  /** A correct value, for messages. */
  example: string
  /** Where credentials go instead of the address. */
  credentialsHint: string
  /** Added to the query/fragment refusal. */
  queryHint?: string
}

/** Parses an absolute address that carries no credentials, query or fragment. */
export function parseAbsoluteUrl(value: string, rules: AddressRules): URL {
  const { input, example } = rules
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InputError(`${input} '${value}' is not an absolute address. Write it in full, for example ${example}.`)
  }
  if (url.username || url.password) throw new InputError(`${input} must not contain a user name or password. ${rules.credentialsHint}`)
  if (url.search || url.hash) {
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
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new InputError(
      `${rules.input} '${value}' uses plain http to ${url.hostname}: ${rules.secret} would travel unencrypted. ` +
        `Use https (plain http is accepted only for 127.0.0.1, localhost or [::1], such as the local emulator).`
    )
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InputError(`${rules.input} '${value}' must start with https:// (for example ${rules.example}).`)
  }
  const path = url.pathname.replace(/\/+$/, '')
  if (rules.apiPath.test(path)) throw new InputError(`${rules.input} '${value}' ${rules.apiPathMessage}, for example ${rules.example}.`)
  return `${url.protocol}//${url.host}${path}`
}
