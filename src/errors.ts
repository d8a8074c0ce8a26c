// Error classes shared by every module, and the two ways of reading any error. main.ts turns any of
// them into one failure annotation.

/** A failure whose message is written for the user (what went wrong, what to do): printed as it is. */
export class ActionError extends Error {
  override name = 'ActionError'
}

/** A problem the user fixes in the workflow or the distribution: raised before any request is sent. */
export class InputError extends ActionError {
  override name = 'InputError'
}

/** The service answered with a status that is not a success. Never carries a request body or header. */
export class ServiceError extends ActionError {
  override name = 'ServiceError'
  constructor(
    message: string,
    readonly status: number,
    /** The platform's `error_code` from the answer body (not a system error code). */
    readonly errorCode?: string,
    readonly errorDetail?: string,
    /** From a Retry-After header, when the service sent one. */
    public retryAfterMs?: number
  ) {
    super(message)
  }
}

/** The stack refused the password login (a 4xx): the same credentials will be refused again. */
export class LoginRefused extends ServiceError {
  override name = 'LoginRefused'
  readonly loginRefused = true
}

/** The stack refused a token it did not issue (single sign-on, access-token) before any change; not a ServiceError: it is not retried. */
export class TokenRefused extends ActionError {
  override name = 'TokenRefused'
  readonly loginRefused = true
}

/** The stack refused a token this run cannot renew (a ready access-token): any call fails on it, as on a refused login. */
export class TokenNotRenewed extends ActionError {
  override name = 'TokenNotRenewed'
}

/** The login was refused (LoginRefused, TokenRefused, or a token endpoint's refusal, which sets loginRefused too): a face's exit code says so. */
export function refusesLogin(error: unknown): boolean {
  return error instanceof ActionError && (error as { loginRefused?: unknown }).loginRefused === true
}

/** A refused login said again in more words (what runs now): still a refused login. */
class RefusedLoginRestated extends ActionError {
  readonly loginRefused = true
}

/**
 * The same failure in more words: a refused login stays one, so the command's exit code (4) and the events say so
 * also when it came during the release (a token renewal the identity provider refused: fresh seed 2098856143).
 */
export function restated(error: unknown, message: string): ActionError {
  return refusesLogin(error) ? new RefusedLoginRestated(message) : new ActionError(message)
}

/**
 * The operating system's or undici's code of a failure (ECONNRESET, UND_ERR_SOCKET, ...), looked up
 * on the error and its causes; undefined when there is none.
 */
export function systemErrorCode(error: unknown): string | undefined {
  let e: unknown = error
  for (let depth = 0; depth < 3 && e && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string') return code
    e = (e as { cause?: unknown }).cause
  }
  return undefined
}

/** An error's message for a log line; prefixed with its HTTP status when it carries one its message does not name (Octokit's errors). */
export function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const status = (error as { status?: unknown } | null)?.status
  return typeof status === 'number' && !message.includes(`HTTP ${status}`) ? `HTTP ${status}: ${message}` : message
}

/** A step stopped part-way: `result` holds what it did (for the outputs and the summary), `cause` why it stopped. */
export class StepFailed<R> extends Error {
  override name = 'StepFailed'
  constructor(
    readonly result: R,
    override readonly cause: unknown
  ) {
    super(cause instanceof Error ? cause.message : String(cause))
  }
}
