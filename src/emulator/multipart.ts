// Streaming multipart/form-data parser (RFC 7578 / RFC 2046). It never holds more than one chunk plus
// a boundary's worth of bytes: part bodies come out as slices of the chunks fed in, ready to be streamed.

export class MultipartError extends Error {
  override name = 'MultipartError'
}

export interface PartHeaders {
  /** Lower-cased header names. */
  headers: Record<string, string>
  name?: string
  filename?: string
  contentType?: string
}

export type MultipartEvent = ({ type: 'part' } & PartHeaders) | { type: 'data'; data: Buffer } | { type: 'part-end' } | { type: 'end' }

/** Splits `type/subtype; a=b; c="d"` into its lower-cased value and its parameters (names lower-cased). */
export function parseHeaderValue(header: string): { value: string; params: Record<string, string> } {
  const semicolon = header.indexOf(';')
  const value = (semicolon < 0 ? header : header.slice(0, semicolon)).trim().toLowerCase()
  const params: Record<string, string> = {}
  const re = /;\s*([^=\s;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g
  const rest = semicolon < 0 ? '' : header.slice(semicolon)
  for (let m = re.exec(rest); m !== null; m = re.exec(rest)) {
    const key = (m[1] ?? '').toLowerCase()
    let raw = (m[2] ?? '').trim()
    if (raw.startsWith('"')) raw = raw.slice(1, -1).replace(/\\(.)/g, '$1')
    params[key] = raw
  }
  return { value, params }
}

/** The boundary of a `multipart/form-data` content type, or undefined when it is not one. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined
  const { value, params } = parseHeaderValue(contentType)
  const boundary = params.boundary
  if (value !== 'multipart/form-data' || boundary === undefined) return undefined
  return boundary.length >= 1 && boundary.length <= 70 ? boundary : undefined
}

function decodeExtValue(value: string): string | undefined {
  // RFC 5987: charset'language'percent-encoded
  const m = /^([^']*)'[^']*'(.*)$/.exec(value)
  if (m === null) return undefined
  try {
    return decodeURIComponent(m[2] ?? '')
  } catch {
    return undefined
  }
}

function parsePartHeaders(block: Buffer): PartHeaders {
  const headers: Record<string, string> = {}
  const text = block.toString('utf8')
  for (const line of text.split('\r\n')) {
    if (line === '') continue
    const colon = line.indexOf(':')
    if (colon <= 0) throw new MultipartError(`Malformed part header line: ${JSON.stringify(line.slice(0, 100))}`)
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  const result: PartHeaders = { headers }
  const disposition = headers['content-disposition']
  if (disposition !== undefined) {
    const { value, params } = parseHeaderValue(disposition)
    if (value === 'form-data') {
      if (params.name !== undefined) result.name = params.name
      const extended = params['filename*'] === undefined ? undefined : decodeExtValue(params['filename*'])
      const filename = extended ?? params.filename
      if (filename !== undefined) result.filename = filename
    }
  }
  if (headers['content-type'] !== undefined) result.contentType = headers['content-type']
  return result
}

const CRLF = Buffer.from('\r\n')
const CRLFCRLF = Buffer.from('\r\n\r\n')

type State = 'preamble' | 'after-delimiter' | 'headers' | 'body' | 'epilogue'

export class MultipartParser {
  private state: State = 'preamble'
  /** Bytes not yet consumed. Starts with CRLF so that a body that begins with the boundary matches the delimiter. */
  private pending: Buffer = Buffer.from(CRLF)
  private readonly delimiter: Buffer

  constructor(
    boundary: string,
    private readonly maxHeaderBytes = 16 * 1024
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1')
  }

  get finished(): boolean {
    return this.state === 'epilogue'
  }

  /** Feeds the next chunk of the body; returns what it completed. `data` slices stay valid after later calls. */
  write(chunk: Buffer): MultipartEvent[] {
    const buf = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk])
    const events: MultipartEvent[] = []
    let pos = 0
    const delim = this.delimiter
    parse: for (;;) {
      switch (this.state) {
        case 'preamble': {
          const at = buf.indexOf(delim, pos)
          if (at < 0) {
            pos = Math.max(pos, buf.length - (delim.length - 1))
            break parse
          }
          pos = at + delim.length
          this.state = 'after-delimiter'
          break
        }
        case 'after-delimiter': {
          if (buf.length - pos < 2) break parse
          if (buf[pos] === 0x2d && buf[pos + 1] === 0x2d) {
            // close delimiter: everything after it is epilogue
            this.state = 'epilogue'
            events.push({ type: 'end' })
            pos = buf.length
            break parse
          }
          const eol = buf.indexOf(CRLF, pos)
          if (eol < 0) {
            if (buf.length - pos > 256) throw new MultipartError('Malformed boundary line')
            break parse
          }
          for (let i = pos; i < eol; i++) {
            if (buf[i] !== 0x20 && buf[i] !== 0x09) throw new MultipartError('Malformed boundary line')
          }
          pos = eol // the CRLF ending the boundary line starts the header search
          this.state = 'headers'
          break
        }
        case 'headers': {
          const end = buf.indexOf(CRLFCRLF, pos)
          if (end < 0) {
            if (buf.length - pos > this.maxHeaderBytes) throw new MultipartError('Part headers are too large')
            break parse
          }
          const block = end > pos + 2 ? buf.subarray(pos + 2, end) : Buffer.alloc(0)
          events.push({ type: 'part', ...parsePartHeaders(block) })
          pos = end + 4
          this.state = 'body'
          break
        }
        case 'body': {
          const at = buf.indexOf(delim, pos)
          if (at >= 0) {
            if (at > pos) events.push({ type: 'data', data: buf.subarray(pos, at) })
            events.push({ type: 'part-end' })
            pos = at + delim.length
            this.state = 'after-delimiter'
            break
          }
          // Keep the bytes that could be the start of a delimiter split across chunks.
          const safe = buf.length - (delim.length - 1)
          if (safe > pos) {
            events.push({ type: 'data', data: buf.subarray(pos, safe) })
            pos = safe
          }
          break parse
        }
        case 'epilogue':
          pos = buf.length
          break parse
      }
    }
    this.pending = pos >= buf.length ? Buffer.alloc(0) : Buffer.from(buf.subarray(pos))
    return events
  }

  /** Call at the end of the body: throws when the closing boundary was not seen. */
  end(): void {
    if (this.state !== 'epilogue') {
      throw new MultipartError(this.state === 'preamble' ? 'No multipart boundary found in the body' : 'The multipart body ended before its closing boundary')
    }
  }
}
