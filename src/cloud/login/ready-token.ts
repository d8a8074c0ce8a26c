// access-token: a bearer token an earlier step obtained, used as it is: never renewed, never revoked
// (this run did not create it). Its lifetime was checked against the run's budgets with the inputs.
import { ActionError } from '../../errors.js'
import type { LoginMethod, TokenGrant } from './method.js'

export class ReadyToken implements LoginMethod {
  readonly issuer = 'oauth'
  readonly who = 'the holder of access-token'
  readonly preflight = true
  readonly renewable = false
  readonly refusedHint =
    "The stack did not accept access-token: it may have expired, or be issued for another audience. Get a fresh token for the stack's API in the step before this one, or use token-url so the action gets and renews it."

  constructor(private readonly accessToken: string) {}

  async obtain(): Promise<TokenGrant> {
    if (this.accessToken === '') throw new ActionError('access-token is empty')
    return { accessToken: this.accessToken }
  }

  async revoke(): Promise<string | undefined> {
    return undefined
  }

  revokeNote = (): string => 'nothing revoked: access-token was made by an earlier step, which owns it'
}
