// A streaming tar header parser: a Writable that reads tar bytes block by block and reports every
// entry (never holding file content in memory). Understands ustar (with prefix), old GNU and v7
// headers, PAX 'x'/'g' extended headers (path, linkpath, size, mtime), GNU 'L'/'K' long names,
// base-256 numbers and the end-of-archive zero blocks.
import { Writable } from 'node:stream'

const BLOCK = 512
/** Upper bound for the data of a PAX or GNU long-name header (they are held in memory). */
const MAX_META_BYTES = 1024 * 1024

export type TarEntryType = 'file' | 'hardlink' | 'symlink' | 'directory' | 'device' | 'fifo' | 'other'

export interface TarEntryHeader {
  name: string
  type: TarEntryType
  /** The raw typeflag character ('0', '5', ...; '\0' for old regular files). */
  typeflag: string
  size: number
  mode: number
  mtime: number
  linkname: string
}

export type TarErrorKind = 'not-tar' | 'corrupt' | 'truncated'

export class TarFormatError extends Error {
  override name = 'TarFormatError'
  constructor(
    readonly kind: TarErrorKind,
    message: string
  ) {
    super(message)
  }
}

const ENTRY_TYPES: Record<string, TarEntryType> = {
  '0': 'file',
  '\0': 'file',
  '7': 'file',
  S: 'file', // GNU sparse
  '1': 'hardlink',
  '2': 'symlink',
  '3': 'device',
  '4': 'device',
  '5': 'directory',
  D: 'directory', // GNU dumpdir
  '6': 'fifo'
}

/** Types that never have data blocks after the header, whatever their size field says. */
const NO_DATA = new Set(['1', '2', '3', '4', '5', '6'])

function readString(block: Buffer, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length)
  const end = field.indexOf(0)
  return field.subarray(0, end === -1 ? length : end).toString('utf8')
}

/** An octal (NUL/space terminated) or GNU base-256 number field; NaN when malformed. */
function readNumber(block: Buffer, offset: number, length: number): number {
  const first = block[offset] ?? 0
  if (first & 0x80) {
    // base-256: two's complement big-endian, top bit of the first byte is the marker.
    let value = BigInt(first & 0x7f)
    if (first & 0x40) value -= 0x80n // negative
    for (let i = 1; i < length; i++) value = (value << 8n) | BigInt(block[offset + i] ?? 0)
    return Number(value)
  }
  const text = block
    .subarray(offset, offset + length)
    .toString('latin1')
    .replace(/[\0 ]+$/, '')
    .replace(/^[ ]+/, '')
    .replace(/\0.*$/, '')
  if (text === '') return 0
  if (!/^[0-7]+$/.test(text)) return Number.NaN
  return parseInt(text, 8)
}

/** True when the checksum field of a 512-byte header block matches its bytes (signed or unsigned sum). */
export function checksumMatches(block: Buffer): boolean {
  const stored = readNumber(block, 148, 8)
  if (Number.isNaN(stored)) return false
  let unsigned = 0
  let signed = 0
  for (let i = 0; i < BLOCK; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : (block[i] ?? 0)
    unsigned += byte
    signed += byte > 127 ? byte - 256 : byte
  }
  return stored === unsigned || stored === signed
}

function isZeroBlock(block: Buffer): boolean {
  for (let i = 0; i < BLOCK; i++) if (block[i] !== 0) return false
  return true
}

/** Parses PAX extended header records "<len> <key>=<value>\n". */
export function parsePax(data: Buffer): Map<string, string> {
  const records = new Map<string, string>()
  let pos = 0
  while (pos < data.length) {
    if (data[pos] === 0) break // some writers pad with NULs
    const space = data.indexOf(0x20, pos)
    const length = space === -1 ? Number.NaN : Number(data.subarray(pos, space).toString('ascii'))
    if (!Number.isInteger(length) || length <= 0 || pos + length > data.length || data[pos + length - 1] !== 0x0a) {
      throw new TarFormatError('corrupt', 'a PAX extended header is malformed')
    }
    const record = data.subarray(space + 1, pos + length - 1).toString('utf8')
    const eq = record.indexOf('=')
    if (eq <= 0) throw new TarFormatError('corrupt', 'a PAX extended header record has no key')
    records.set(record.slice(0, eq), record.slice(eq + 1))
    pos += length
  }
  return records
}

type State =
  | { kind: 'header' }
  | { kind: 'skip'; remaining: number }
  | { kind: 'meta'; typeflag: string; data: Buffer; filled: number; padding: number }
  | { kind: 'end' }

export class TarReader extends Writable {
  /** Entries reported so far (extended headers not counted). */
  entries = 0
  /** True once the end-of-archive zero block was seen. */
  sawEnd = false
  /** Tar bytes consumed so far. */
  bytes = 0

  private state: State = { kind: 'header' }
  private readonly header = Buffer.alloc(BLOCK)
  private headerFilled = 0
  private headersSeen = 0
  private globalPax = new Map<string, string>()
  private localPax: Map<string, string> | undefined
  private longName: string | undefined
  private longLink: string | undefined
  private lastName: string | undefined

  constructor(
    private readonly onEntry: (entry: TarEntryHeader) => void,
    /** Called with each chunk's length once it is consumed (the chunk is no longer referenced). */
    private readonly onConsumed?: (bytes: number) => void
  ) {
    super()
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    try {
      this.consume(chunk)
      this.onConsumed?.(chunk.length)
      callback()
    } catch (err) {
      callback(err as Error)
    }
  }

  override _final(callback: (error?: Error | null) => void): void {
    try {
      this.finish()
      callback()
    } catch (err) {
      callback(err as Error)
    }
  }

  private where(): string {
    return this.lastName === undefined ? 'at the start of the archive' : `after the entry '${this.lastName}'`
  }

  private finish(): void {
    const state = this.state
    if (state.kind === 'end') return
    if (state.kind === 'header' && this.headerFilled === 0) {
      if (this.localPax || this.longName !== undefined || this.longLink !== undefined) {
        throw new TarFormatError('truncated', `the tar stream ends ${this.where()}, inside an extended header`)
      }
      return // no end-of-archive blocks: tolerated (GNU tar does too)
    }
    if (this.headersSeen === 0) {
      throw new TarFormatError('not-tar', `its content is only ${this.bytes} bytes long, smaller than one tar header`)
    }
    throw new TarFormatError('truncated', `the tar stream ends in the middle of an entry ${this.where()}`)
  }

  private consume(chunk: Buffer): void {
    let pos = 0
    while (pos < chunk.length) {
      const state = this.state
      switch (state.kind) {
        case 'end':
          this.bytes += chunk.length - pos
          return
        case 'skip': {
          const n = Math.min(state.remaining, chunk.length - pos)
          state.remaining -= n
          pos += n
          this.bytes += n
          if (state.remaining === 0) this.state = { kind: 'header' }
          break
        }
        case 'meta': {
          const n = Math.min(state.data.length - state.filled, chunk.length - pos)
          chunk.copy(state.data, state.filled, pos, pos + n)
          state.filled += n
          pos += n
          this.bytes += n
          if (state.filled === state.data.length) {
            this.applyMeta(state.typeflag, state.data)
            this.state = state.padding > 0 ? { kind: 'skip', remaining: state.padding } : { kind: 'header' }
          }
          break
        }
        case 'header': {
          const n = Math.min(BLOCK - this.headerFilled, chunk.length - pos)
          chunk.copy(this.header, this.headerFilled, pos, pos + n)
          this.headerFilled += n
          pos += n
          this.bytes += n
          if (this.headerFilled === BLOCK) {
            this.headerFilled = 0
            this.onHeader(this.header)
          }
          break
        }
      }
    }
  }

  private onHeader(block: Buffer): void {
    if (isZeroBlock(block)) {
      // The first zero block ends the archive (a second one normally follows; anything after is padding).
      this.sawEnd = true
      this.state = { kind: 'end' }
      return
    }
    if (!checksumMatches(block)) {
      if (this.headersSeen === 0) {
        throw new TarFormatError('not-tar', 'its content does not start with a valid tar header (bad header checksum)')
      }
      throw new TarFormatError('corrupt', `a tar header ${this.where()} is damaged (bad header checksum)`)
    }
    this.headersSeen++

    const typeflag = String.fromCharCode(block[156] ?? 0)
    const magic = block.toString('latin1', 257, 263)
    const headerSize = readNumber(block, 124, 12)
    if (Number.isNaN(headerSize) || headerSize < 0) {
      throw new TarFormatError('corrupt', `a tar header ${this.where()} has an invalid size field`)
    }

    if (typeflag === 'x' || typeflag === 'g' || typeflag === 'L' || typeflag === 'K') {
      if (headerSize > MAX_META_BYTES) {
        throw new TarFormatError('corrupt', `an extended header ${this.where()} claims ${headerSize} bytes`)
      }
      this.state = { kind: 'meta', typeflag, data: Buffer.alloc(headerSize), filled: 0, padding: pad(headerSize) }
      if (headerSize === 0) {
        this.applyMeta(typeflag, Buffer.alloc(0))
        this.state = { kind: 'header' }
      }
      return
    }
    if (typeflag === 'V') {
      // GNU volume label: not an entry.
      this.skip(headerSize)
      return
    }

    const pax = new Map([...this.globalPax, ...(this.localPax ?? [])])
    let name = readString(block, 0, 100)
    if (magic === 'ustar\0') {
      const prefix = readString(block, 345, 155)
      if (prefix !== '') name = `${prefix}/${name}`
    }
    name = pax.get('path') ?? this.longName ?? name
    const linkname = pax.get('linkpath') ?? this.longLink ?? readString(block, 157, 100)
    let size = headerSize
    const paxSize = pax.get('size')
    if (paxSize !== undefined) {
      size = Number(paxSize)
      if (!Number.isSafeInteger(size) || size < 0) {
        throw new TarFormatError('corrupt', `the PAX size of '${name}' is invalid`)
      }
    }
    const paxMtime = pax.get('mtime')
    const mtime = paxMtime !== undefined ? Number(paxMtime) : readNumber(block, 136, 12)
    const mode = readNumber(block, 100, 8)

    this.localPax = undefined
    this.longName = undefined
    this.longLink = undefined
    this.lastName = name
    this.entries++
    this.onEntry({
      name,
      type: ENTRY_TYPES[typeflag] ?? 'other',
      typeflag,
      size,
      mode: Number.isNaN(mode) ? 0 : mode,
      mtime: Number.isNaN(mtime) ? 0 : mtime,
      linkname
    })
    this.skip(NO_DATA.has(typeflag) ? 0 : size)
  }

  private skip(size: number): void {
    const total = size + pad(size)
    this.state = total > 0 ? { kind: 'skip', remaining: total } : { kind: 'header' }
  }

  private applyMeta(typeflag: string, data: Buffer): void {
    switch (typeflag) {
      case 'x':
        this.localPax = new Map([...(this.localPax ?? []), ...parsePax(data)])
        break
      case 'g':
        this.globalPax = new Map([...this.globalPax, ...parsePax(data)])
        break
      case 'L':
        this.longName = cString(data)
        break
      case 'K':
        this.longLink = cString(data)
        break
    }
  }
}

function pad(size: number): number {
  return (BLOCK - (size % BLOCK)) % BLOCK
}

function cString(data: Buffer): string {
  const end = data.indexOf(0)
  return data.subarray(0, end === -1 ? data.length : end).toString('utf8')
}
