// The emulator's reading of a zip archive (a .war is one), for the site webapp of a distribution: the
// end of central directory record, the central directory, then one entry's local header and data,
// stored or deflated (node:zlib), checked against its size and CRC-32. Written from PKWARE's APPNOTE.
// What a brXM build does not write is refused by name: ZIP64, encryption, archives split over disks.
import { Readable } from 'node:stream'
import { createInflateRaw } from 'node:zlib'
import { ByteReader } from './byte-reader.js'
import { normalizeName } from './tar-index.js'

/** Where a zip's bytes come from: a file, or an entry inside a stored distribution's tar. */
export interface ZipSource {
  readonly size: number
  /** `length` bytes from `offset`, as they come. */
  stream(offset: number, length: number): AsyncIterable<Buffer>
}

export interface ZipEntry {
  /** Normalized: no leading `./` or `/`, no trailing `/`. */
  name: string
  directory: boolean
  /** 0 stored, 8 deflated; other methods are listed but not read. */
  method: number
  flags: number
  crc32: number
  compressedSize: number
  size: number
  /** Where the entry's local header starts. */
  headerOffset: number
}

/** Entry name -> entry; a later entry of the same name wins, as when tar extracts. */
export type ZipIndex = Map<string, ZipEntry>

/** A zip the emulator cannot read, with the reason. */
export class ZipError extends Error {
  override name = 'ZipError'
}

const END_SIGNATURE = 0x06054b50
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50
const CENTRAL_SIGNATURE = 0x02014b50
const LOCAL_SIGNATURE = 0x04034b50
const END_SIZE = 22
const ZIP64_LOCATOR_SIZE = 20
const CENTRAL_SIZE = 46
const LOCAL_SIZE = 30
const MAX_COMMENT = 0xffff
const STORED = 0
const DEFLATED = 8
const ENCRYPTED_FLAG = 0x1
const ZIP64_REFUSED = "a ZIP64 archive, which the emulator's zip reader does not read"

/** Reads the central directory: every entry's name, sizes and where its data is. */
export async function readZipIndex(source: ZipSource): Promise<ZipIndex> {
  const directory = await readEndRecord(source)
  const bytes = await readBytes(source, directory.offset, directory.size)
  return parseCentralDirectory(bytes, directory)
}

/** The file (not directory) entry `name` names, if any. */
export function findZipFile(index: ZipIndex, name: string): ZipEntry | undefined {
  const entry = index.get(normalizeName(name))
  return entry !== undefined && !entry.directory ? entry : undefined
}

/** Why the emulator cannot read an entry's data, or undefined when it can. */
export function whyUnreadable(entry: ZipEntry): string | undefined {
  if ((entry.flags & ENCRYPTED_FLAG) !== 0) return `"${entry.name}" is encrypted`
  if (entry.method !== STORED && entry.method !== DEFLATED) {
    return `"${entry.name}" uses compression method ${entry.method}; the emulator reads stored (0) and deflated (8) entries`
  }
  return undefined
}

/** The uncompressed bytes of one entry, streamed; throws, before its last bytes, when they are not what the directory says. */
export async function* readZipEntry(source: ZipSource, entry: ZipEntry): AsyncGenerator<Buffer> {
  const why = whyUnreadable(entry)
  if (why !== undefined) throw new ZipError(why)
  // The local header's name and extra field may differ from the central ones: at most 2 x 64 KiB.
  const span = Math.min(source.size - entry.headerOffset, LOCAL_SIZE + 2 * 0xffff + entry.compressedSize)
  const iterator = source.stream(entry.headerOffset, span)[Symbol.asyncIterator]()
  const reader = new ByteReader(iterator)
  try {
    await skipLocalHeader(reader, entry)
    const archived = reader.take(entry.compressedSize) // the bytes as the archive holds them
    yield* checked(entry.method === DEFLATED ? inflated(archived) : archived, entry)
  } finally {
    await iterator.return?.()
  }
}

interface CentralDirectory {
  offset: number
  size: number
  count: number
}

/** Finds the end of central directory record in the archive's last 64 KiB and reads where the directory is. */
async function readEndRecord(source: ZipSource): Promise<CentralDirectory> {
  const tailStart = source.size - Math.min(source.size, END_SIZE + MAX_COMMENT)
  const tail = await readBytes(source, tailStart, source.size - tailStart)
  const at = findEndRecord(tail)
  if (at === undefined) throw new ZipError('no end of central directory record: not a zip archive')
  refuseZip64(tail, at)
  const end = tail.subarray(at)
  if (end.readUInt16LE(4) !== 0 || end.readUInt16LE(6) !== 0) throw new ZipError('an archive split over several disks')
  const directory = { count: end.readUInt16LE(10), size: end.readUInt32LE(12), offset: end.readUInt32LE(16) }
  if (directory.offset + directory.size > tailStart + at) {
    throw new ZipError(
      `the central directory (${directory.size} bytes at byte ${directory.offset}) does not end before its end record (byte ${tailStart + at})`
    )
  }
  return directory
}

/** The last end record whose comment fits in what follows it (searching back: a comment may hold the signature too). */
function findEndRecord(tail: Buffer): number | undefined {
  for (let at = tail.length - END_SIZE; at >= 0; at--) {
    if (tail.readUInt32LE(at) === END_SIGNATURE && at + END_SIZE + tail.readUInt16LE(at + 20) <= tail.length) return at
  }
  return undefined
}

/** A ZIP64 archive marks the classic record's fields as "see ZIP64" and puts a locator right before it. */
function refuseZip64(tail: Buffer, at: number): void {
  const end = tail.subarray(at)
  const marked = end.readUInt16LE(10) === 0xffff || end.readUInt32LE(12) === 0xffffffff || end.readUInt32LE(16) === 0xffffffff
  const locator = at >= ZIP64_LOCATOR_SIZE && tail.readUInt32LE(at - ZIP64_LOCATOR_SIZE) === ZIP64_LOCATOR_SIGNATURE
  if (marked || locator) throw new ZipError(ZIP64_REFUSED)
}

function parseCentralDirectory(bytes: Buffer, directory: CentralDirectory): ZipIndex {
  const index: ZipIndex = new Map()
  let pos = 0
  for (let i = 0; i < directory.count; i++) {
    const { entry, next } = centralHeader(bytes, pos)
    // A local header and the data after it must lie before the central directory.
    if (entry.headerOffset + LOCAL_SIZE + entry.compressedSize > directory.offset) {
      throw new ZipError(`the data of "${entry.name}" (${entry.compressedSize} bytes after byte ${entry.headerOffset}) runs into the central directory`)
    }
    if (entry.name !== '') index.set(entry.name, entry)
    pos = next
  }
  return index
}

/** One central directory header at `pos`, and where the next one starts. */
function centralHeader(bytes: Buffer, pos: number): { entry: ZipEntry; next: number } {
  if (pos + CENTRAL_SIZE > bytes.length || bytes.readUInt32LE(pos) !== CENTRAL_SIGNATURE) {
    throw new ZipError(`no central directory header at byte ${pos} of the central directory`)
  }
  const nameLength = bytes.readUInt16LE(pos + 28)
  const next = pos + CENTRAL_SIZE + nameLength + bytes.readUInt16LE(pos + 30) + bytes.readUInt16LE(pos + 32)
  if (next > bytes.length) throw new ZipError(`the central directory header at byte ${pos} runs past the central directory`)
  // UTF-8, as jar writes (flag 11) and zip writes on a UTF-8 system; CP437 names are ASCII in practice.
  const raw = bytes.toString('utf8', pos + CENTRAL_SIZE, pos + CENTRAL_SIZE + nameLength)
  const entry: ZipEntry = {
    name: normalizeName(raw),
    directory: raw.endsWith('/'),
    flags: bytes.readUInt16LE(pos + 8),
    method: bytes.readUInt16LE(pos + 10),
    crc32: bytes.readUInt32LE(pos + 16),
    compressedSize: bytes.readUInt32LE(pos + 20),
    size: bytes.readUInt32LE(pos + 24),
    headerOffset: bytes.readUInt32LE(pos + 42)
  }
  if ([entry.compressedSize, entry.size, entry.headerOffset].includes(0xffffffff)) throw new ZipError(ZIP64_REFUSED)
  return { entry, next }
}

/** Exactly `length` bytes from `offset`, held (the end record, the central directory). */
async function readBytes(source: ZipSource, offset: number, length: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of source.stream(offset, length)) chunks.push(chunk)
  const bytes = Buffer.concat(chunks)
  if (bytes.length !== length) throw new ZipError(`the archive ends before byte ${offset + length}`)
  return bytes
}

/** Steps over the local header; its sizes may be zero (a data descriptor follows the data), so the central ones count. */
async function skipLocalHeader(reader: ByteReader, entry: ZipEntry): Promise<void> {
  const header = await reader.read(LOCAL_SIZE)
  if (header === undefined || header.readUInt32LE(0) !== LOCAL_SIGNATURE) {
    throw new ZipError(`no local header for "${entry.name}" at byte ${entry.headerOffset}`)
  }
  await reader.skip(header.readUInt16LE(26) + header.readUInt16LE(28))
}

async function* inflated(compressed: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const inflate = createInflateRaw()
  const input = Readable.from(compressed)
  input.once('error', (err) => inflate.destroy(err))
  input.pipe(inflate)
  try {
    for await (const chunk of inflate) yield chunk as Buffer
  } finally {
    input.destroy()
    inflate.destroy()
  }
}

/**
 * Passes the data on, one chunk behind, and the last only once its size and CRC-32 are right: a damaged entry
 * never reaches a client whole (it sees fewer bytes than announced). Never more bytes than the directory says.
 */
async function* checked(chunks: AsyncIterable<Buffer>, entry: ZipEntry): AsyncGenerator<Buffer> {
  let size = 0
  let crc = 0
  let held: Buffer | undefined
  for await (const chunk of chunks) {
    size += chunk.length
    if (size > entry.size) throw new ZipError(`"${entry.name}" holds more than the ${entry.size} bytes its directory entry says`)
    crc = crc32(chunk, crc)
    if (held !== undefined) yield held
    held = chunk
  }
  if (size !== entry.size) throw new ZipError(`"${entry.name}" holds ${size} bytes, its directory entry says ${entry.size}`)
  if (crc !== entry.crc32) throw new ZipError(`"${entry.name}" fails its CRC-32 check`)
  if (held !== undefined) yield held
}

// CRC-32 as zip uses it (reflected, polynomial 0xEDB88320): kept here rather than zlib.crc32, which Node 20 gained only in 20.15.
const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = (c & 1) !== 0 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(data: Buffer, previous: number): number {
  let crc = ~previous
  for (const byte of data) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8)
  return ~crc >>> 0
}
