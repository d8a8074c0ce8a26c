// Reads the entries of a stored distribution (a .tar.gz on disk) for the emulated sites: names, types
// and where each file's bytes sit in the gunzipped stream. The emulator's own reading of tar headers
// (ustar names with prefix, GNU long names 'L'/'K', PAX 'path'/'linkpath'/'size' records), kept apart
// from the action's tar code like the rest of the emulator.
import { createReadStream } from 'node:fs'
import { posix } from 'node:path'
import { createGunzip } from 'node:zlib'
import { ByteReader } from './byte-reader.js'
import { isTarHeader } from './tar-sniffer.js'

const BLOCK = 512

export interface TarEntry {
  /** Normalized: no leading `./` or `/`, no trailing `/`. */
  name: string
  type: 'file' | 'directory' | 'hardlink' | 'symlink' | 'other'
  /** Where the entry's data starts in the gunzipped stream. */
  offset: number
  size: number
  linkname: string
}

/** Entry name -> entry; a later entry of the same name wins, as when tar extracts. */
export type TarIndex = Map<string, TarEntry>

/** Opens the gunzipped stream of a file; `close` releases it when the caller stops early. */
function openGunzipped(path: string): { reader: ByteReader; close: () => void } {
  const file = createReadStream(path)
  const gunzip = createGunzip()
  file.on('error', (err) => gunzip.destroy(err))
  file.pipe(gunzip)
  const reader = new ByteReader(gunzip[Symbol.asyncIterator]() as AsyncIterator<Buffer>)
  return {
    reader,
    close: () => {
      file.destroy()
      gunzip.destroy()
    }
  }
}

/** A NUL-terminated text field. */
function text(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length)
  const end = raw.indexOf(0)
  return raw.subarray(0, end === -1 ? raw.length : end).toString('utf8')
}

/** A numeric field: octal digits (space/NUL padded), or GNU base-256 when the first byte has its high bit set. */
function number(block: Buffer, start: number, length: number): number {
  const first = block[start] as number
  if ((first & 0x80) !== 0) {
    let value = first & 0x7f
    for (let i = start + 1; i < start + length; i++) value = value * 256 + (block[i] as number)
    return value
  }
  const digits = block
    .toString('latin1', start, start + length)
    .replace(/\0.*$/s, '')
    .trim()
  if (!/^[0-7]*$/.test(digits)) throw new Error(`Malformed number field in a tar header: "${digits}"`)
  return digits === '' ? 0 : parseInt(digits, 8)
}

/** PAX records, `"<length> <key>=<value>\n"`, where length counts the whole record in bytes. */
export function paxRecords(data: Buffer): Map<string, string> {
  const out = new Map<string, string>()
  let pos = 0
  while (pos < data.length) {
    const space = data.indexOf(0x20, pos)
    if (space === -1) break
    const length = Number(data.toString('latin1', pos, space))
    if (!Number.isInteger(length) || length <= space - pos + 1 || pos + length > data.length) break
    const record = data.toString('utf8', space + 1, pos + length - 1)
    const eq = record.indexOf('=')
    if (eq > 0) out.set(record.slice(0, eq), record.slice(eq + 1))
    pos += length
  }
  return out
}

/** `./a/b/`, `/a/b` and `a/b` all name `a/b`; the archive's root (`./`) is ''. */
export function normalizeName(name: string): string {
  let n = name
  for (;;) {
    const next = n.replace(/^\.\/+/, '').replace(/^\/+/, '')
    if (next === n) break
    n = next
  }
  if (n === '.') return ''
  return n.replace(/\/+$/, '')
}

const padded = (size: number): number => Math.ceil(size / BLOCK) * BLOCK

function typeOf(flag: string): TarEntry['type'] {
  switch (flag) {
    case '0':
    case '\0':
    case '7': // contiguous file: a regular file to everyone but a few old systems
      return 'file'
    case '1':
      return 'hardlink'
    case '2':
      return 'symlink'
    case '5':
      return 'directory'
    default:
      return 'other'
  }
}

/** Reads every header of the archive (file data is skipped, never held). */
export async function readTarIndex(path: string): Promise<TarIndex> {
  const { reader, close } = openGunzipped(path)
  const index: TarIndex = new Map()
  try {
    // Set by 'L', 'K' and 'x' entries for the entry that follows them.
    let longName: string | undefined
    let longLink: string | undefined
    let pax = new Map<string, string>()
    for (;;) {
      const at = reader.position
      const block = await reader.read(BLOCK)
      if (block === undefined || block.every((b) => b === 0)) break // end of archive (GNU tar writes two zero blocks)
      if (!isTarHeader(block)) throw new Error(`No valid tar header at byte ${at} of the gunzipped archive`)
      const flag = String.fromCharCode(block[156] as number)
      const headerSize = number(block, 124, 12)
      if (flag === 'L' || flag === 'K' || flag === 'x' || flag === 'g') {
        const data = await reader.read(headerSize)
        if (data === undefined) throw new Error('The archive ends inside an extended header')
        await reader.skip(padded(headerSize) - headerSize)
        if (flag === 'L') longName = text(data, 0, data.length)
        else if (flag === 'K') longLink = text(data, 0, data.length)
        else if (flag === 'x') pax = paxRecords(data)
        continue // a global header ('g') names no entry: nothing of it applies here
      }
      const type = typeOf(flag)
      let name = text(block, 0, 100)
      // POSIX ustar ("ustar\0" + "00") keeps a prefix; old GNU ("ustar  \0") uses those bytes for times.
      if (block.toString('latin1', 257, 263) === 'ustar\0') {
        const prefix = text(block, 345, 155)
        if (prefix !== '') name = `${prefix}/${name}`
      }
      name = pax.get('path') ?? longName ?? name
      const linkname = pax.get('linkpath') ?? longLink ?? text(block, 157, 100)
      const paxSize = pax.get('size')
      const size = paxSize !== undefined && /^\d+$/.test(paxSize) ? Number(paxSize) : headerSize
      longName = undefined
      longLink = undefined
      pax = new Map()
      // Links, devices, fifos and directories carry no data whatever their size field says.
      const dataSize = flag >= '1' && flag <= '6' ? 0 : size
      const entry: TarEntry = { name: normalizeName(name), type, offset: reader.position, size: dataSize, linkname }
      if (entry.name !== '') index.set(entry.name, entry)
      await reader.skip(padded(dataSize))
    }
  } finally {
    close()
  }
  return index
}

/** The regular file `name` refers to, following hard links and symlinks (inside the archive) a few levels deep. */
export function findFile(index: TarIndex, name: string, depth = 0): TarEntry | undefined {
  const entry = index.get(normalizeName(name))
  if (entry === undefined || depth > 8) return undefined
  if (entry.type === 'file') return entry
  if (entry.type === 'hardlink') return findFile(index, entry.linkname, depth + 1)
  if (entry.type === 'symlink') {
    const target = entry.linkname.startsWith('/') ? entry.linkname : posix.join(posix.dirname(entry.name), entry.linkname)
    const normal = posix.normalize(target)
    if (normal.startsWith('../') || normal === '..') return undefined // points outside the distribution
    return findFile(index, normal, depth + 1)
  }
  return undefined
}

/** The bytes of one entry, streamed from the stored archive. */
export function readEntry(path: string, entry: TarEntry): AsyncGenerator<Buffer> {
  return readEntryPart(path, entry, 0, entry.size)
}

/** `length` bytes of one entry from `start` (a zip inside the archive is read in parts: its end, then an entry). */
export async function* readEntryPart(path: string, entry: TarEntry, start: number, length: number): AsyncGenerator<Buffer> {
  if (start < 0 || length < 0 || start + length > entry.size) throw new Error(`Bytes ${start}+${length} lie outside "${entry.name}" (${entry.size} bytes)`)
  const { reader, close } = openGunzipped(path)
  try {
    await reader.skip(entry.offset + start)
    yield* reader.take(length)
  } finally {
    close()
  }
}
