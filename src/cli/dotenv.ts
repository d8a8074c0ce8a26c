// --dotenv FILE: the outputs as BRCLOUD_<OUTPUT>=value lines, for GitLab CI's artifacts:reports:dotenv (later jobs
// get them as variables; an environment's url: may name one). GitLab reads a narrow dotenv: one VARIABLE=value a
// line, no quoting or escapes (quotes are kept as they are), no multi-line values, blanks around a value dropped.
// A value it cannot hold as it is is left out with a warning rather than handed on changed.
import { envName } from './inputs.js'

/** Why GitLab's dotenv cannot carry `value` as it is, or undefined when it can. */
function unfit(value: string): string | undefined {
  if (/[\r\n]/.test(value)) return 'it holds a line break'
  if (value !== value.trim()) return 'it begins or ends with a blank'
  if (/^["'`]/.test(value)) return 'it begins with a quote'
  return undefined
}

/** The dotenv file's text, and a warning for each output left out. */
export function dotenvOf(outputs: Readonly<Record<string, string>>, warn: (message: string) => void): string {
  const lines: string[] = []
  for (const [name, value] of Object.entries(outputs)) {
    const why = unfit(value)
    if (why === undefined) lines.push(`${envName(name)}=${value}\n`)
    else warn(`--dotenv: ${name} is left out of the file: GitLab's dotenv cannot hold its value, because ${why}.`)
  }
  return lines.join('')
}
