// A streaming POSIX tar (ustar + PAX extended headers) writer. It only produces tar bytes;
// compression is wired separately (pack.ts), so it can be swapped for a parallel compressor.
import { open, type FileHandle } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { InputError } from '../errors.js'

export const BLOCK = 512

/** Largest value of an 11-digit octal field (size, mtime): 8 GiB - 1. */
export const MAX_OCTAL_11 = 0o77777777777

interface EntryBase {
  /** Relative name with forward slashes; directories end with '/'. */
  name: string
  /** Permission bits (& 0o7777). */
  mode: number
  /** Seconds since the epoch (integer; may be negative). */
  mtime: number
}

export type TarEntry =
  | (EntryBase & { type: 'directory' })
  | (EntryBase & { type: 'symlink'; linkname: string })
  | (EntryBase & {
      type: 'file'
      size: number
      sourcePath: string
      /** The modification time (ms) when the file was listed: read after its content, a change means it was rewritten meanwhile. */
      listedMtimeMs?: number
    })

export interface TarWriterOptions {
  /** Called with the number of file-content bytes just read (a delta). */
  onData?: ((bytes: number) => void) | undefined
  /** At most this many bytes per read; createTarStream's chunk size (default 256 KiB). */
  readChunkSize?: number
}

const TYPEFLAG = { file: '0', symlink: '2', directory: '5' } as const

interface RawHeader {
  name: Buffer
  prefix?: Buffer | undefined
  mode: number
  size: number
  mtime: number
  typeflag: string
  linkname?: Buffer | undefined
}

function writeOctal(block: Buffer, offset: number, length: number, value: number): void {
  const digits = Math.max(0, Math.floor(value))
    .toString(8)
    .padStart(length - 1, '0')
  if (digits.length > length - 1) throw new RangeError(`tar: value ${value} does not fit a ${length}-byte field`)
  block.write(digits, offset, length - 1, 'ascii')
  block[offset + length - 1] = 0
}

/** Encodes one 512-byte ustar header block (with its checksum). */
export function encodeUstarHeader(h: RawHeader): Buffer {
  const block = Buffer.alloc(BLOCK)
  h.name.copy(block, 0, 0, 100)
  writeOctal(block, 100, 8, h.mode & 0o7777)
  writeOctal(block, 108, 8, 0) // uid
  writeOctal(block, 116, 8, 0) // gid
  writeOctal(block, 124, 12, h.size)
  writeOctal(block, 136, 12, h.mtime)
  block.write(h.typeflag, 156, 1, 'ascii')
  h.linkname?.copy(block, 157, 0, 100)
  block.write('ustar\0', 257, 6, 'ascii')
  block.write('00', 263, 2, 'ascii')
  // uname (265..297) and gname (297..329) stay empty; devmajor/devminor zero.
  writeOctal(block, 329, 8, 0)
  writeOctal(block, 337, 8, 0)
  h.prefix?.copy(block, 345, 0, 155)
  block.fill(0x20, 148, 156)
  let sum = 0
  for (const byte of block) sum += byte
  block.write(sum.toString(8).padStart(6, '0'), 148, 6, 'ascii')
  block[154] = 0
  block[155] = 0x20
  return block
}

/** Splits a name into ustar prefix (<= 155 bytes) and name (<= 100 bytes) at a '/', or returns undefined. */
export function splitUstarName(name: Buffer): { name: Buffer; prefix: Buffer } | undefined {
  if (name.length <= 100) return { name, prefix: Buffer.alloc(0) }
  // The slash at index i separates prefix [0, i) from name [i + 1, end). The name part must be non-empty.
  for (let i = Math.min(155, name.length - 2); i > 0; i--) {
    if (name[i] !== 0x2f) continue
    if (name.length - i - 1 > 100) return undefined // smaller i only makes the name part longer
    return { prefix: name.subarray(0, i), name: name.subarray(i + 1) }
  }
  return undefined
}

/** One PAX record "<len> <key>=<value>\n", where len counts the whole record. */
export function paxRecord(key: string, value: string): Buffer {
  const body = Buffer.byteLength(key) + Buffer.byteLength(value) + 3
  let length = body + 1
  while (body + String(length).length !== length) length = body + String(length).length
  return Buffer.from(`${length} ${key}=${value}\n`, 'utf8')
}

const isPlainAscii = (s: string): boolean => /^[\x20-\x7e]*$/.test(s)

/** A printable-ASCII stand-in, cut to max bytes, for the ustar field when the real value lives in a PAX header. */
function fallbackField(value: string, max: number): Buffer {
  return Buffer.from(value.replace(/[^\x20-\x7e]/g, '_').slice(0, max), 'ascii')
}

function padding(size: number): number {
  return (BLOCK - (size % BLOCK)) % BLOCK
}

/** The header block(s) of an entry: an optional PAX 'x' header (with its data) then the ustar header. */
export function encodeEntryHeader(entry: TarEntry): Buffer {
  // What a ustar field cannot hold goes into PAX records, in this order: path, linkpath, size, mtime.
  const pax: Buffer[] = []
  const { name, prefix } = ustarName(entry, pax)
  const linkname = entry.type === 'symlink' ? ustarLinkname(entry.linkname, pax) : undefined
  const size = ustarSize(entry.type === 'file' ? entry.size : 0, pax)
  const mtime = ustarMtime(Math.floor(entry.mtime), pax)
  const header = encodeUstarHeader({
    name,
    prefix,
    mode: entry.mode,
    size,
    mtime,
    typeflag: TYPEFLAG[entry.type],
    linkname
  })
  if (pax.length === 0) return header
  return Buffer.concat([...paxHeaderBlocks(entry.name, pax, mtime), header])
}

/** The ustar name (and prefix) of an entry; a name they cannot hold as plain ASCII goes into a PAX 'path' record. */
function ustarName(entry: TarEntry, pax: Buffer[]): { name: Buffer; prefix: Buffer | undefined } {
  const split = splitUstarName(Buffer.from(entry.name, 'utf8'))
  if (split && isPlainAscii(entry.name)) return { name: split.name, prefix: split.prefix }
  pax.push(paxRecord('path', entry.name))
  // The ustar field gets an ASCII stand-in, not raw UTF-8: a reader decodes it in its own charset
  // before the PAX record replaces it, and Java's Commons Compress fails on UTF-8 in the C locale.
  return { name: fallbackField(entry.name, 100), prefix: undefined }
}

/** A symlink's target in the ustar field, or in a PAX 'linkpath' record when it is long or not plain ASCII. */
function ustarLinkname(target: string, pax: Buffer[]): Buffer {
  const linkBytes = Buffer.from(target, 'utf8')
  if (linkBytes.length <= 100 && isPlainAscii(target)) return linkBytes
  pax.push(paxRecord('linkpath', target))
  return fallbackField(target, 100)
}

/** A file's size for its 11-digit octal field; a larger one goes into a PAX 'size' record, the field says 0. */
function ustarSize(size: number, pax: Buffer[]): number {
  if (size <= MAX_OCTAL_11) return size
  pax.push(paxRecord('size', String(size)))
  return 0
}

/** An mtime for its 11-digit octal field; one before 1970 or past the field goes into a PAX 'mtime' record, the field the nearest it holds. */
function ustarMtime(mtime: number, pax: Buffer[]): number {
  if (mtime >= 0 && mtime <= MAX_OCTAL_11) return mtime
  pax.push(paxRecord('mtime', String(mtime)))
  return mtime < 0 ? 0 : MAX_OCTAL_11
}

/** The PAX 'x' header that carries the records, its data and the padding to a whole block. */
function paxHeaderBlocks(entryName: string, pax: Buffer[], mtime: number): Buffer[] {
  const data = Buffer.concat(pax)
  const base = entryName.replace(/\/+$/, '').split('/').pop() ?? 'entry'
  const paxHeader = encodeUstarHeader({
    name: fallbackField(`PaxHeaders/${base}`, 100),
    mode: 0o644,
    size: data.length,
    mtime,
    typeflag: 'x'
  })
  return [paxHeader, data, Buffer.alloc(padding(data.length))]
}

/**
 * Where writeTar puts the tar bytes. Small pieces (headers, padding) go through write(); file
 * content is read straight into the room reserve() gives, then commit()ted, so a sink that keeps
 * its own buffers (the parallel gzip) gets the content with no copy and no buffer allocated per read.
 */
export interface TarSink {
  /** Takes these bytes (copying them, or keeping them: writeTar never touches them again). */
  write(bytes: Buffer): Promise<void> | void
  /** Room for file content, at least 1 byte; valid until the next commit(). */
  reserve(): Promise<Buffer> | Buffer
  /** Takes `bytes` written at the start of the room reserve() gave. */
  commit(bytes: number): Promise<void> | void
  /**
   * Takes the first bytes of a file's content by reference instead of its bytes: how many (0: none,
   * the file's size: all of it); writeTar writes the rest. The packer takes what is already
   * compressed, to store it as it is when the archive is sent.
   */
  takeFile?(entry: TarEntry & { type: 'file' }): Promise<number>
}

/** A 1-byte read past the listed size tells whether a file grew; what it reads is never used. */
const PROBE = Buffer.alloc(1)

/** A file that changed between its listing and its last byte read: refused, since the archive would not be what was listed. */
export function changedWhilePacked(name: string, how: string): InputError {
  return new InputError(
    `distribution: '${name}' changed while it was being packed (${how}). ` +
      'Make sure no other step or process writes into the distribution directory while this action runs, then run it again.'
  )
}

/** A file that could not be read: a deleted one changed; anything else is named with its code. */
export function unreadable(name: string, err: unknown): InputError {
  const code = (err as NodeJS.ErrnoException).code
  if (code === 'ENOENT') return changedWhilePacked(name, 'it was deleted')
  return new InputError(
    `distribution: cannot read '${name}' (${code ?? (err as Error).message}). ` +
      'Make sure the user running the action can read every file in the distribution directory.'
  )
}

/**
 * After a file's last read: grown (a byte past its listed size), or rewritten at the same size (GNU tar:
 * "file changed as we read it": size and modification time against what the listing saw) is refused.
 * Both asked at once: one trip to the thread pool, not two, for each of a tree's thousands of small files.
 */
export async function checkUnchangedAfterRead(handle: FileHandle, file: { name: string; size: number; listedMtimeMs?: number | undefined }): Promise<void> {
  let more: number
  let after: { size: number; mtimeMs: number } | undefined
  try {
    ;[more, after] = await Promise.all([
      handle.read(PROBE, 0, 1, file.size).then((r) => r.bytesRead),
      file.listedMtimeMs === undefined ? undefined : handle.stat()
    ])
  } catch (err) {
    throw unreadable(file.name, err)
  }
  if (more > 0) throw changedWhilePacked(file.name, `it grew beyond the ${file.size} bytes it had when listed`)
  if (after === undefined) return
  if (after.size !== file.size) throw changedWhilePacked(file.name, `its size went from ${file.size} to ${after.size} bytes`)
  if (after.mtimeMs !== file.listedMtimeMs) throw changedWhilePacked(file.name, 'it was rewritten while it was read: its modification time moved')
}

/** The file's content from byte `from` (the bytes before it were taken by reference), then its padding. */
async function writeFileContent(entry: TarEntry & { type: 'file' }, sink: TarSink, options: TarWriterOptions, from = 0): Promise<void> {
  const changed = (how: string): InputError => changedWhilePacked(entry.name, how)
  const failed = (err: unknown): InputError => unreadable(entry.name, err)
  if (entry.size > from) {
    let handle: FileHandle
    try {
      handle = await open(entry.sourcePath, 'r')
    } catch (err) {
      throw failed(err)
    }
    try {
      const most = options.readChunkSize ?? Number.POSITIVE_INFINITY
      let read = from
      while (read < entry.size) {
        const room = await sink.reserve()
        let n: number
        try {
          n = (await handle.read(room, 0, Math.min(room.length, entry.size - read, most), read)).bytesRead
        } catch (err) {
          throw failed(err)
        }
        if (n === 0) throw changed(`it shrank from ${entry.size} to ${read} bytes`)
        read += n
        options.onData?.(n)
        await sink.commit(n)
      }
      await checkUnchangedAfterRead(handle, entry)
    } finally {
      // Not waited for: nothing is read from it any more, and the next file need not queue behind it.
      handle.close().catch(() => undefined)
    }
  }
  const pad = padding(entry.size)
  if (pad > 0) await sink.write(Buffer.alloc(pad))
}

/**
 * Writes the tar of the given entries into a sink: each entry's header, then each file's content
 * read from disk chunk by chunk as the sink makes room, then the end-of-archive marker.
 */
export async function writeTar(entries: Iterable<TarEntry> | AsyncIterable<TarEntry>, sink: TarSink, options: TarWriterOptions = {}): Promise<void> {
  for await (const entry of entries) {
    await sink.write(encodeEntryHeader(entry))
    if (entry.type !== 'file') continue
    const taken = entry.size > 0 && sink.takeFile !== undefined ? await sink.takeFile(entry) : 0
    if (taken > 0) options.onData?.(taken) // read when the archive is sent
    await writeFileContent(entry, sink, options, taken)
  }
  await sink.write(Buffer.alloc(2 * BLOCK)) // end-of-archive marker
}

/**
 * A Readable of tar bytes for the given entries, produced lazily: each file is read from disk when
 * the consumer asks for more, so memory stays flat whatever the size of the tree.
 */
export function createTarStream(entries: Iterable<TarEntry> | AsyncIterable<TarEntry>, options: TarWriterOptions = {}): Readable {
  const chunkSize = options.readChunkSize ?? 256 * 1024
  let started = false
  let room: Buffer | undefined
  let resume: (() => void) | undefined
  const wake = (): void => {
    const r = resume
    resume = undefined
    r?.()
  }
  const readable = new Readable({
    read() {
      if (!started) {
        started = true
        writeTar(entries, sink, options).then(
          () => readable.push(null),
          (err: unknown) => readable.destroy(err as Error)
        )
      }
      wake()
    },
    destroy(error, callback) {
      wake()
      callback(error)
    }
  })
  const alive = (): void => {
    if (readable.destroyed) throw Object.assign(new Error('the tar stream was destroyed'), { code: 'ERR_STREAM_DESTROYED' })
  }
  const give = async (bytes: Buffer): Promise<void> => {
    alive()
    if (!readable.push(bytes)) await new Promise<void>((resolve) => (resume = resolve))
    alive()
  }
  const sink: TarSink = {
    write: (bytes) => give(bytes),
    reserve() {
      room = Buffer.allocUnsafe(chunkSize)
      return room
    },
    commit: (bytes) => give((room as Buffer).subarray(0, bytes))
  }
  return readable
}
