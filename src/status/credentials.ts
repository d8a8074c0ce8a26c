// Each stack's login from the environment: the variables its `login:` names (or the defaults), read into the
// action's own Login by the action's own rules (inputs/login.ts), every secret masked the moment it is read. All of
// it before any request: a missing or contradictory login is an InputError that names the stack.
import type { InputName } from '../action-metadata.js'
import { InputError } from '../errors.js'
import { checkTokenLifetime, readLogin, type Login } from '../inputs/login.js'
import { registerSecret } from '../secrets.js'
import { readsAsVariableName, SECRET_CREDENTIALS, type LoginSource, type LoginVariable, type StackConfig } from './config.js'

/** The login of `stack`, from `env`. */
export function stackLogin(stack: StackConfig, env: NodeJS.ProcessEnv): Login {
  const source = stack.login
  const value = (credential: LoginVariable): string => {
    const name = source.variables[credential]
    const raw = name === undefined ? '' : (env[name] ?? '')
    // A password may begin or end with a blank; nothing else read here does.
    return credential === 'password' ? raw : raw.trim()
  }
  for (const credential of SECRET_CREDENTIALS) registerSecret(value(credential))
  if (!source.defaults) refuseUnset(stack, source, env)
  else if (value('access-token') === '' && (value('username') === '' || value('password') === '')) {
    const unset = (['username', 'password'] as const).filter((c) => value(c) === '').map((c) => source.variables[c])
    throw new InputError(
      `Stack '${stack.name}' has no login (${unset.join(' and ')} ${unset.length === 1 ? 'is' : 'are'} not set): set ${source.variables.username} and ` +
        `${source.variables.password} (or ${source.variables['access-token']}), or name the variables that hold its credentials under its login: (docs/status.md).`
    )
  }
  const settings: Partial<Record<InputName, string | undefined>> = {
    'token-url': source.tokenUrl,
    'client-id': source.clientId,
    audience: source.audience,
    scope: source.scope
  }
  const read = (name: InputName): string => {
    if (name === 'username' || name === 'access-token' || name === 'client-secret') return value(name)
    return settings[name] ?? ''
  }
  try {
    const login = readLogin(read, value('password'), {})
    // A ready token that has expired is refused now; one that expires during the report is the stack's failure.
    checkTokenLifetime(login, 0)
    return login
  } catch (error) {
    if (error instanceof InputError) throw new InputError(`Stack '${stack.name}': ${error.message}`)
    throw error
  }
}

/**
 * A variable the file names must hold a value: an empty one is a secret this job was not given. A name that does not
 * read as a variable's (lower case) may be the credential itself written in its place: masked, and not repeated.
 */
function refuseUnset(stack: StackConfig, source: LoginSource, env: NodeJS.ProcessEnv): void {
  for (const [credential, name] of Object.entries(source.variables) as Array<[LoginVariable, string]>) {
    if ((env[name] ?? '') !== '') continue
    if (readsAsVariableName(name))
      throw new InputError(
        `Stack '${stack.name}': its login's ${credential}-variable names ${name}, which is not set or empty (a CI job gets a secret only where it is passed in).`
      )
    if (SECRET_CREDENTIALS.includes(credential)) registerSecret(name)
    const example = `${stack.name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_BRC_${credential.toUpperCase().replace(/-/g, '_')}`
    throw new InputError(
      `Stack '${stack.name}': its login's ${credential}-variable names a variable that is not set or empty. The name is not repeated here: written ` +
        `with lower-case letters, it may be the ${credential} itself rather than the name of the variable that holds it (e.g. ${example}).`
    )
  }
}
