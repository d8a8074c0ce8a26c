// Which LoginMethod a Login (the inputs' reading of the credentials) is: the stack's password login, an OAuth
// token endpoint (single sign-on), or a ready token. One choice for every reader of a stack: a deploy, a status report.
import type { Login } from '../../inputs/login.js'
import type { LoginMethod } from './method.js'
import { OAuthLogin } from './oauth.js'
import { PasswordLogin } from './password.js'
import { ReadyToken } from './ready-token.js'

export interface LoginOptions {
  /** The run's stop: ends the token endpoint's calls (the stack's own go through the session's door). */
  readonly signal?: AbortSignal | undefined
  /** Attempts of a token endpoint's call. */
  readonly attempts: number
}

/** `target` names the stack in messages. */
export function loginMethodFor(login: Login, target: string, options: LoginOptions): LoginMethod {
  if (login.kind === 'password') return new PasswordLogin(login.username, login.password, target)
  if (login.kind === 'token') return new ReadyToken(login.accessToken)
  return new OAuthLogin(login, { signal: options.signal, attempts: options.attempts })
}
