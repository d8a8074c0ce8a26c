// Error classes shared by every module. main.ts turns any of them into one failure annotation.

/** A problem the user fixes in the workflow: raised before any request is sent. */
export class InputError extends Error {
  override name = 'InputError'
}

/** The service answered with a status that is not a success. Never carries a request body or header. */
export class ServiceError extends Error {
  override name = 'ServiceError'
  constructor(
    message: string,
    readonly status: number,
    readonly errorCode?: string,
    readonly errorDetail?: string,
    /** From a Retry-After header, when the service sent one. */
    public retryAfterMs?: number
  ) {
    super(message)
  }
}
