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

/** Where a step of the parser got to in the buffer, and whether it may go on (false: it waits for more bytes, or is done). */
interface Step {
  pos: number
  more: boolean
}

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
    let step: Step = { pos: 0, more: true }
    while (step.more) step = this.step(buf, step.pos, events)
    this.pending = step.pos >= buf.length ? Buffer.alloc(0) : Buffer.from(buf.subarray(step.pos))
    return events
  }

  /** One step of the state machine from `pos`: where it got to, and whether `buf` holds enough for another. */
  private step(buf: Buffer, pos: number, events: MultipartEvent[]): Step {
    switch (this.state) {
      case 'preamble':
        return this.preamble(buf, pos)
      case 'after-delimiter':
        return this.afterDelimiter(buf, pos, events)
      case 'headers':
        return this.partHeaders(buf, pos, events)
      case 'body':
        return this.partBody(buf, pos, events)
      case 'epilogue':
        return { pos: buf.length, more: false }
    }
  }

  /** Skips to the first delimiter (keeping the bytes that could be its start, split across chunks). */
  private preamble(buf: Buffer, pos: number): Step {
    const at = buf.indexOf(this.delimiter, pos)
    if (at < 0) return { pos: Math.max(pos, buf.length - (this.delimiter.length - 1)), more: false }
    this.state = 'after-delimiter'
    return { pos: at + this.delimiter.length, more: true }
  }

  /** After a delimiter: `--` closes the body (the rest is epilogue), else the boundary line's padding and CRLF. */
  private afterDelimiter(buf: Buffer, pos: number, events: MultipartEvent[]): Step {
    if (buf.length - pos < 2) return { pos, more: false }
    if (buf[pos] === 0x2d && buf[pos + 1] === 0x2d) {
      // close delimiter: everything after it is epilogue
      this.state = 'epilogue'
      events.push({ type: 'end' })
      return { pos: buf.length, more: false }
    }
    const eol = buf.indexOf(CRLF, pos)
    if (eol < 0) {
      if (buf.length - pos > 256) throw new MultipartError('Malformed boundary line')
      return { pos, more: false }
    }
    for (let i = pos; i < eol; i++) {
      if (buf[i] !== 0x20 && buf[i] !== 0x09) throw new MultipartError('Malformed boundary line')
    }
    this.state = 'headers'
    return { pos: eol, more: true } // the CRLF ending the boundary line starts the header search
  }

  /** A part's header block, once all of it is in (at most maxHeaderBytes). */
  private partHeaders(buf: Buffer, pos: number, events: MultipartEvent[]): Step {
    const end = buf.indexOf(CRLFCRLF, pos)
    if (end < 0) {
      if (buf.length - pos > this.maxHeaderBytes) throw new MultipartError('Part headers are too large')
      return { pos, more: false }
    }
    const block = end > pos + 2 ? buf.subarray(pos + 2, end) : Buffer.alloc(0)
    events.push({ type: 'part', ...parsePartHeaders(block) })
    this.state = 'body'
    return { pos: end + 4, more: true }
  }

  /** A part's body up to the next delimiter, or as much of it as cannot be the start of one. */
  private partBody(buf: Buffer, pos: number, events: MultipartEvent[]): Step {
    const at = buf.indexOf(this.delimiter, pos)
    if (at >= 0) {
      if (at > pos) events.push({ type: 'data', data: buf.subarray(pos, at) })
      events.push({ type: 'part-end' })
      this.state = 'after-delimiter'
      return { pos: at + this.delimiter.length, more: true }
    }
    // Keep the bytes that could be the start of a delimiter split across chunks.
    const safe = buf.length - (this.delimiter.length - 1)
    if (safe <= pos) return { pos, more: false }
    events.push({ type: 'data', data: buf.subarray(pos, safe) })
    return { pos: safe, more: false }
  }

  /** Call at the end of the body: throws when the closing boundary was not seen. */
  end(): void {
    if (this.state !== 'epilogue') {
      throw new MultipartError(this.state === 'preamble' ? 'No multipart boundary found in the body' : 'The multipart body ended before its closing boundary')
    }
  }
}
