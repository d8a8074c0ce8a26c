// The one fetch of the action (undici's, through a dispatcher of dispatcher.ts), for the door that speaks
// OAuth (the token endpoint, its metadata): an edge of its own, as transport.ts is for the cloud API, so
// the simulation replaces it and answers in-process.
import { fetch as undiciFetch, type Dispatcher } from 'undici'

export type FetchInit = Omit<RequestInit, 'dispatcher'> & { dispatcher?: Dispatcher | undefined }

export function httpFetch(input: string, init: FetchInit): Promise<Response> {
  return undiciFetch(input, init as Parameters<typeof undiciFetch>[1]) as unknown as Promise<Response>
}
