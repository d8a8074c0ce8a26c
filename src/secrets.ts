// Every secret goes through here: masked in the runner's log the moment it is known, and remembered
// so that any text we print ourselves (error details from a service) can be scrubbed as well.
import * as core from './port.js'

const known = new Set<string>()

export function registerSecret(value: string | undefined): void {
  if (!value) return
  if (!known.has(value)) {
    known.add(value)
    core.setSecret(value)
  }
  // Also mask the percent-encoded forms: a service may echo a secret back URL-encoded, or as the form body it was
  // sent in (a token endpoint quoting the password grant: a space there is '+').
  const form = new URLSearchParams({ v: value }).toString().slice(2)
  for (const encoded of [encodeURIComponent(value), form]) {
    if (encoded !== value && !known.has(encoded)) {
      known.add(encoded)
      core.setSecret(encoded)
    }
  }
}

/** Replaces every known secret in `text` with ***. */
export function redact(text: string): string {
  let out = text
  for (const secret of [...known].sort((a, b) => b.length - a.length)) out = out.split(secret).join('***')
  return out
}

/** Forgets every secret: a process that runs many runs one after another (the simulation) starts each with none. */
export function forgetSecrets(): void {
  known.clear()
}
