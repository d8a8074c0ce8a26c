// Which inputs each command takes, and where their values come from: a flag --<input-name>, else the
// variable BRCLOUD_<INPUT_NAME>. Secrets never come from a flag (command lines are logged): only from
// the environment, or from a file named by --<secret>-file or BRCLOUD_<SECRET>_FILE. The values are
// handed to the engine's readInputs() unchecked: it validates them, with the action's messages.
import { readFileSync } from 'node:fs'
import { INPUT_DEFAULTS, type InputName } from '../action-metadata.js'
import { inputVariable } from '../advice.js'
import { InputError } from '../errors.js'
import { EVENTS_SECRETS } from '../inputs/events.js'

export const INPUT_NAMES = Object.keys(INPUT_DEFAULTS) as InputName[]

/** The inputs that are secrets: never a flag. */
export const SECRET_INPUTS: readonly InputName[] = [
  'password',
  'client-secret',
  'access-token',
  'github-token',
  'gitlab-token',
  'search-auth-key',
  ...EVENTS_SECRETS
]

export type Command = 'deploy' | 'search-check'

/** The inputs of a command: every one for deploy (which also runs the search check when asked), the search ones for search-check. */
export function inputsOf(command: Command): InputName[] {
  return command === 'deploy' ? INPUT_NAMES : INPUT_NAMES.filter((name) => name.startsWith('search-') || name === 'total-timeout-minutes')
}

/** The variable an input is read from: BRCLOUD_ and its name in upper case, '-' as '_' (the engine's advice names it too). */
export const envName = inputVariable

/** A bad command line or setting, found before the engine runs: exit 2, like a bad input. */
export class UsageError extends InputError {
  override name = 'UsageError'
}

/**
 * The value of each input of `command`: the flag, else the variable; a secret from its file or its variable
 * (parseCommandLine refused a secret given as a flag). Throws a UsageError when a secret's file cannot be read.
 */
export function collectInputs(command: Command, flags: Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv): Map<InputName, string> {
  const values = new Map<InputName, string>()
  // The break-glass given as an empty flag is a reason left out, not an input left out: said, not ignored.
  if (flags['override-reason'] === '')
    throw new UsageError('--override-reason is empty: write why this deploy cannot wait for the rule (it is recorded), or leave the flag out.')
  for (const name of inputsOf(command)) {
    const value = SECRET_INPUTS.includes(name) ? secretValue(name, flags, env) : (stringFlag(flags[name]) ?? env[envName(name)])
    if (value !== undefined) values.set(name, value)
  }
  if (command === 'deploy') gitLabCiDefaults(values, env)
  return values
}

/**
 * In a GitLab CI job with a GitLab token, the project and the API are the job's own (CI_PROJECT_PATH, CI_API_V4_URL)
 * unless given; without a token nothing is read from GitLab, so nothing is filled in.
 */
function gitLabCiDefaults(values: Map<InputName, string>, env: NodeJS.ProcessEnv): void {
  if (env.GITLAB_CI !== 'true' || !values.get('gitlab-token')) return
  if (!values.get('gitlab-project') && env.CI_PROJECT_PATH) values.set('gitlab-project', env.CI_PROJECT_PATH)
  if (!values.get('gitlab-url') && env.CI_API_V4_URL) values.set('gitlab-url', env.CI_API_V4_URL)
}

function stringFlag(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/** A secret: its file (--<name>-file wins over BRCLOUD_<NAME>_FILE), else BRCLOUD_<NAME>. */
export function secretValue(name: InputName, flags: Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv): string | undefined {
  const file = stringFlag(flags[`${name}-file`]) ?? env[`${envName(name)}_FILE`]
  if (file === undefined || file === '') return env[envName(name)]
  try {
    // A file written by `echo` or an editor ends with a line break that is not part of the secret; nothing else is trimmed.
    return readFileSync(file, 'utf8').replace(/\r?\n$/, '')
  } catch (error) {
    throw new UsageError(`The ${name} file ${file} could not be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).`)
  }
}
