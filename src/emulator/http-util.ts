// Small HTTP helpers shared by the emulator's API modules.
import { STATUS_CODES, type IncomingMessage } from 'node:http'

/** Thrown by handlers; the server answers it as `{"error_code", "error_detail"}`. */
export class HttpError extends Error {
  override name = 'HttpError'
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
    /** Close the connection after answering (the request body was not read). */
    readonly closeConnection = false
  ) {
    super(`${status} ${code}: ${detail}`)
  }
}

export function errorBody(code: string, detail: string): { error_code: string; error_detail: string } {
  return { error_code: code, error_detail: detail }
}

/** `ServiceUnavailable` for 503, `TooManyRequests` for 429, ... */
export function codeForStatus(status: number): string {
  const text = STATUS_CODES[status] ?? 'Error'
  return text.replace(/[^A-Za-z0-9 ]/g, '').replace(/(?:^|\s+)(\w)/g, (_, c: string) => c.toUpperCase())
}

export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? ''
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
}

/**
 * Reads the whole (small) body; 413 beyond `limit` bytes. A body over the limit is still read to its end
 * (and discarded): leaving a `for await` over a request early would destroy the socket before the answer.
 */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const tooLarge = (): HttpError => new HttpError(413, 'PayloadTooLarge', `The request body is larger than ${limit} bytes`, {}, true)
  const declared = Number(req.headers['content-length'] ?? '0')
  if (Number.isFinite(declared) && declared > limit) throw tooLarge()
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size <= limit) chunks.push(chunk)
  }
  if (size > limit) throw tooLarge()
  return Buffer.concat(chunks)
}

/** Reads and discards the rest of the body. Resolves when it ended, or when the connection closed. */
export async function drain(req: IncomingMessage): Promise<number> {
  let size = 0
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) size += chunk.length
  } catch {
    // the client went away: nothing left to drain
  }
  return size
}

export function parseJson(body: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body.toString('utf8')) as unknown }
  } catch {
    return { ok: false }
  }
}
