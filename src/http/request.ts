// The one request() of GitLab's door (undici's, through a dispatcher of dispatcher.ts): an edge of its own, as fetch.ts
// is for the OAuth door and transport.ts for the cloud API, so the simulation replaces it and answers in-process.
import { request, type Dispatcher } from 'undici'

export interface RequestOptions {
  readonly method: 'GET' | 'POST' | 'PUT'
  readonly dispatcher: Dispatcher
  readonly headers: Record<string, string>
  readonly body?: string | undefined
  /** Ends the call: its reason is what the call rejects with. */
  readonly signal: AbortSignal
}

/** An answer as the door reads it: the status, the headers (names in lower case), the body once, as text. */
export interface RequestAnswer {
  readonly statusCode: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly body: { text(): Promise<string> }
}

export function httpRequest(url: string, options: RequestOptions): Promise<RequestAnswer> {
  const { body, ...rest } = options
  return request(url, { ...rest, ...(body !== undefined && { body }) })
}
