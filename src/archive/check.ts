// Checks an existing distribution archive before anything is uploaded: reads it once, verifying the
// gzip stream and every tar header, and computing size, sha256 and md5 in the same pass. The file
// is read into recycled buffers and hashed while zlib inflates on the threadpool, so the two overlap
// and memory stays flat (1.5 s -> 1.0 s, +40 MB -> a few MB RSS for a 184 MB archive).
import { createHash } from 'node:crypto'
import { open, stat } from 'node:fs/promises'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { Writable } from 'node:stream'
import { createGunzip } from 'node:zlib'
import { InputError } from '../errors.js'
import { formatMb } from '../format.js'
import { GarbageRelief } from '../memory.js'
import { SparseEntry, TarCheck, TarFormatError, UnsafeEntry } from './tar-check.js'

export { unsafeName } from './tar-check.js'
import type { ArchiveInfo } from './types.js'

export interface CheckOptions {
  /** Refuse files larger than this many bytes (checked before the content is read). */
  maxBytes?: number
}

const REBUILD_HINT =
  'Rebuild the distribution (e.g. mvn -B -P dist package) and make sure it is completely written, uploaded and downloaded ' +
  '(an interrupted artifact upload/download or cache restore leaves a cut-off file).'
const POINT_HINT = 'Point `distribution` at the .tar.gz that your build produced (e.g. target/*-distribution.tar.gz), or at a directory to pack.'

/** MB, with the exact byte count when the rounded MB would not tell the two numbers apart. */
function sizeText(bytes: number, other: number): string {
  return formatMb(bytes) === formatMb(other) ? `${formatMb(bytes)} (${bytes} bytes)` : formatMb(bytes)
}

/** Refuses an archive over the limit: checked before reading an existing archive, and after packing a directory. */
export function checkSizeLimit(label: string, size: number, maxBytes: number): void {
  if (size <= maxBytes) return
  throw new InputError(
    `${label} is ${sizeText(size, maxBytes)}, over the limit of ${sizeText(maxBytes, size)} per distribution ` +
      '(Bloomreach Cloud accepts at most 650 MB per distribution by default). Make the distribution smaller ' +
      '(e.g. leave unused dependencies or test jars out of the build), or, if your platform allows larger distributions, ' +
      'raise the limit with the `max-distribution-mb` input.'
  )
}

/** A short description of what a non-gzip file looks like, from its first bytes. */
export function describeContent(head: Buffer): string {
  if (head.length >= 262 && head.toString('latin1', 257, 262) === 'ustar') return 'a plain, uncompressed tar'
  if (head[0] === 0x50 && head[1] === 0x4b) return "it starts with 'PK', a zip (or war/jar)?"
  if (head.toString('latin1', 0, 3) === 'BZh') return 'it looks like bzip2'
  if (head.subarray(0, 6).equals(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]))) return 'it looks like xz'
  if (head.subarray(0, 4).equals(Buffer.from([0x28, 0xb5, 0x2f, 0xfd]))) return 'it looks like zstd'
  const start = head.subarray(0, 16).toString('latin1')
  if (/^\s*</.test(start)) return 'it looks like HTML or XML, perhaps an error page saved instead of the file'
  if (/^[\x20-\x7e\t\r\n]+$/.test(start))
    return `it is text starting with '${start
      .replace(/[\r\n\t]/g, ' ')
      .trim()
      .slice(0, 12)}'`
  return `it starts with bytes ${[...head.subarray(0, 4)].map((b) => b.toString(16).padStart(2, '0')).join(' ')}`
}

async function readHead(file: string, length: number): Promise<Buffer> {
  const handle = await open(file, 'r')
  try {
    const buffer = Buffer.alloc(length)
    const { bytesRead } = await handle.read(buffer, 0, length, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

/** Tar bytes at the start of an archive that are checked before any request is sent. */
export const HEAD_CHECK_BYTES = 4 * 1024 * 1024

/** A check under way: its start, then all of it. */
export interface ArchiveCheck {
  /**
   * Resolves once the cheap checks passed and the start of the archive (HEAD_CHECK_BYTES of tar, or
   * all of it) was read and found sound; rejects with the check's InputError. When the file's gzip
   * trailer cannot be a tar's (a cut-off file, bytes after the stream), it waits for the whole check.
   */
  readonly head: Promise<{ size: number }>
  /** The whole check, with sizes and hashes; rejects with an InputError naming what is wrong. */
  readonly done: Promise<ArchiveInfo>
  /** The archive's absolute path. */
  readonly path: string
}

/** Checks the whole archive before returning (see startArchiveCheck for a check that runs beside the upload). */
export async function checkArchive(file: string, options: CheckOptions = {}): Promise<ArchiveInfo> {
  return startArchiveCheck(file, options).done
}

/** The length of the uncompressed data mod 2^32, from a gzip file's last 4 bytes. */
async function trailerLength(file: string, size: number): Promise<number | undefined> {
  if (size < 18) return undefined
  const handle = await open(file, 'r')
  try {
    const tail = Buffer.alloc(4)
    await handle.read(tail, 0, 4, size - 4)
    return tail.readUInt32LE(0)
  } finally {
    await handle.close()
  }
}

/**
 * Starts checking an archive: the cheap checks and the start of it are awaited before any request
 * (`head`); the rest runs while the upload sends the bytes, and the upload waits for it (`done`)
 * before its last bytes, so a bad entry anywhere stops the upload before the platform has a whole
 * request to store.
 */
export function startArchiveCheck(file: string, options: CheckOptions = {}): ArchiveCheck {
  let headReached: (size: number) => void = () => undefined
  const head = new Promise<{ size: number }>((resolve) => (headReached = (size) => resolve({ size })))
  const done = runCheck(file, options, (size) => headReached(size))
  // The head settles with the check: passed at HEAD_CHECK_BYTES, or failed (or done) before.
  const gated = Promise.race([head, done.then((info) => ({ size: info.size }))])
  gated.catch(() => undefined)
  done.catch(() => undefined)
  return { head: gated, done, path: path.resolve(file) }
}

async function runCheck(file: string, options: CheckOptions, headChecked: (size: number) => void): Promise<ArchiveInfo> {
  const absolute = path.resolve(file)
  const label = `distribution: '${file}'`
  const fileSize = await checkBeforeReading(absolute, label, options)
  const read = await readArchive(absolute, label, fileSize, headChecked)
  if (read.reader.entries === 0) {
    throw new InputError(`${label} is an empty archive (no entries at all); there is nothing to deploy. ${REBUILD_HINT}`)
  }
  const warnings = archiveWarnings(read.reader, label, absolute)
  return {
    path: absolute,
    fileName: path.basename(absolute),
    size: read.size,
    sha256: read.sha256,
    md5: read.md5,
    entries: read.reader.entries,
    packed: false,
    ...(warnings.length > 0 ? { warnings } : {})
  }
}

/** The checks that need no reading of the content: there, a file, within the limit, not empty, gzip. Returns its size. */
async function checkBeforeReading(absolute: string, label: string, options: CheckOptions): Promise<number> {
  let st
  try {
    st = await stat(absolute)
  } catch {
    throw new InputError(`${label} does not exist. ${POINT_HINT}`)
  }
  if (!st.isFile()) throw new InputError(`${label} is not a file. ${POINT_HINT}`)

  if (options.maxBytes !== undefined) checkSizeLimit(label, st.size, options.maxBytes)
  if (st.size === 0) throw new InputError(`${label} is an empty file (0 bytes). ${REBUILD_HINT}`)

  const head = await readHead(absolute, 512)
  if (head[0] !== 0x1f || head[1] !== 0x8b) {
    const tar = head.length >= 262 && head.toString('latin1', 257, 262) === 'ustar'
    throw new InputError(
      `${label} is not a gzip file (${describeContent(head)}). ` +
        (tar
          ? 'Bloomreach Cloud takes a gzip-compressed tar: compress it (`gzip` it, or build it with `tar -czf`), or point `distribution` at the directory to pack.'
          : POINT_HINT)
    )
  }
  return st.size
}

/** What one read of the whole archive found: the tar's entries, the file's size and hashes. */
interface ReadArchive {
  readonly reader: TarCheck
  readonly size: number
  readonly sha256: string
  readonly md5: string
}

/**
 * Reads the archive once: gunzip and the tar check on one side, the file's hashes on the other. `headChecked` is
 * told once HEAD_CHECK_BYTES of sound tar were read, unless the gzip trailer makes the file suspicious.
 */
async function readArchive(absolute: string, label: string, fileSize: number, headChecked: (size: number) => void): Promise<ReadArchive> {
  // A tar is a whole number of 512-byte blocks, so a gzip member holding one ends with a length that
  // is too: anything else is a cut-off file or bytes after the stream (or, rarely, a tar split over
  // several members). Then the whole check runs before any request, to name the problem exactly.
  const length = await trailerLength(absolute, fileSize)
  const suspicious = length === undefined || length % 512 !== 0
  let tarBytes = 0
  // zlib hands back every piece of the tar in a fresh buffer: collect that garbage as it goes (src/memory.ts),
  // every 5 ms at most, as the packed archive's read does: the check runs ahead of an upload at link speed.
  const relief = new GarbageRelief({ interval: 5 })
  const reader = new TarCheck((bytes) => {
    relief.produce(bytes)
    tarBytes += bytes
    if (!suspicious && tarBytes >= HEAD_CHECK_BYTES && !reader.failing) headChecked(fileSize)
  })

  const sha256 = createHash('sha256')
  const md5 = createHash('md5')
  let size = 0
  try {
    const gunzip = createGunzip({ chunkSize: 256 * 1024 })
    const consuming = pipeline(gunzip, reader)
    const [fed, consumed] = await Promise.allSettled([
      feed(absolute, gunzip, consuming, (chunk) => {
        sha256.update(chunk)
        md5.update(chunk)
        size += chunk.length
      }),
      consuming
    ])
    // What the tar check or gunzip found comes first; a read error of the file otherwise.
    if (consumed.status === 'rejected') throw consumed.reason
    if (fed.status === 'rejected') throw fed.reason
  } catch (err) {
    throw readFailure(err, label, absolute, size)
  }
  return { reader, size, sha256: sha256.digest('hex'), md5: md5.digest('hex') }
}

/**
 * What a failed read of the archive is, for the user: an InputError naming what is wrong and how to fix it, or the
 * failure as it was when it is none of the archive's (a read error of the file). `fed`: the bytes read before it.
 */
function readFailure(err: unknown, label: string, absolute: string, fed: number): unknown {
  if (err instanceof UnsafeEntry) return unsafeEntryError(err, label)
  if (err instanceof SparseEntry) {
    return new InputError(
      `${label} contains a sparse file '${err.entryName}' (written by \`tar --sparse\`): an extractor that does not know GNU's sparse ` +
        'format unpacks other bytes than GNU tar does (its map as content, or content as further entries), so what the platform would ' +
        'unpack cannot be checked. Repack it without `--sparse` (`-S`), e.g. `tar -czf dist.tar.gz -C <dir> .`, ' +
        'or point `distribution` at the directory and let the action pack it.'
    )
  }
  if (err instanceof TarFormatError) {
    if (err.kind === 'not-tar') {
      return new InputError(
        `${label} is a gzip file but not a tar archive (${err.message}). Bloomreach Cloud takes a gzip-compressed tar (.tar.gz). ${POINT_HINT}`
      )
    }
    const what = err.kind === 'truncated' ? 'is truncated' : 'is corrupt'
    return new InputError(`${label} ${what}: ${err.message}. ${REBUILD_HINT}`)
  }
  return gzipFailure(err, label, absolute, fed) ?? err
}

/** An entry that would land outside the installation directory: a symlink leading out, or a name or hard link that does. */
function unsafeEntryError(err: UnsafeEntry, label: string): InputError {
  const { entry } = err
  if (entry.symlink !== undefined) {
    return new InputError(
      `${label} contains a symlink '${entry.name}' -> '${entry.symlink}' that ${entry.why}; on the platform it would lead outside the ` +
        'installation directory (GNU tar and bsdtar refuse to extract through such a link). Replace the link by the file or directory ' +
        'it points to (e.g. pack with `tar -h`/`--dereference`), or make it point inside the distribution with a relative target ' +
        '(e.g. `lib/current -> ../lib-1.2`).'
    )
  }
  const what = entry.link === undefined ? `an entry '${entry.name}' that ${entry.why}` : `a hard link '${entry.name}' whose target '${entry.link}' ${entry.why}`
  return new InputError(
    `${label} contains ${what}; extracting it would write outside the installation directory. ` +
      'Repack the distribution with relative paths only (e.g. `tar -czf dist.tar.gz -C <dir> .`), ' +
      'or point `distribution` at the directory and let the action pack it.'
  )
}

/** zlib's failures (codes Z_*) in the user's words; undefined for any other failure. */
function gzipFailure(err: unknown, label: string, absolute: string, fed: number): InputError | undefined {
  const code = (err as NodeJS.ErrnoException).code
  if (code === 'Z_BUF_ERROR') {
    return new InputError(`${label} is truncated: the gzip stream ends early (after ${fed} bytes). ${REBUILD_HINT}`)
  }
  // After a complete member (its CRC and length checked), zlib reads the next bytes as another
  // member's header: a second member is valid gzip and read on, zero padding is ignored. zlib says
  // "incorrect header check" only where a member must start, and the file's first member starts
  // right (checked above), so this is bytes that are not gzip after a complete gzip stream. Refused:
  // gzip and GNU tar ignore them with a warning, Python's gzip and others refuse the file, and the
  // platform's extractor is not known.
  if (code === 'Z_DATA_ERROR' && /incorrect header check/.test((err as Error).message)) {
    return new InputError(
      `${label} has data after the end of its gzip stream: bytes that are not gzip follow the complete archive. ` +
        'gzip and GNU tar ignore such bytes with a warning ("trailing garbage ignored"), other extractors refuse the file, ' +
        'and what the platform does with it is not known. A copy or upload step usually appended them: rebuild the distribution, or cut ' +
        `them off with \`gzip -dc ${path.basename(absolute)} | gzip > fixed.tar.gz\` and deploy that.`
    )
  }
  if (typeof code === 'string' && code.startsWith('Z_')) {
    return new InputError(`${label} is a corrupt gzip file (${(err as Error).message}). ${REBUILD_HINT}`)
  }
  return undefined
}

/** What deploys but likely not as meant: everything under one top-level folder, device or FIFO entries. */
function archiveWarnings(reader: TarCheck, label: string, absolute: string): string[] {
  const warnings: string[] = []
  const folder = reader.topLevel.folder
  if (folder !== undefined) {
    warnings.push(
      `${label}: all ${reader.entries} entries sit under one top-level folder '${folder}/', but a brXM distribution unpacks at its root ` +
        `(webapps/, shared/, conf/, bin/), so the platform would find '${folder}/webapps/...' instead of 'webapps/...'. ` +
        `Repack it from inside that folder: \`tar -czf ${path.basename(absolute)} -C ${folder} .\`.`
    )
  }
  const special = reader.special
  if (special !== undefined) {
    const what = special.count === 1 ? 'a device or FIFO entry' : `${special.count} device or FIFO entries`
    warnings.push(
      `${label} holds ${what} (e.g. '${special.first}', ${special.kind}); they are no files to deploy, and an extractor without ` +
        'root privileges cannot make devices. Leave them out of the distribution.'
    )
  }
  return warnings
}

const FEED_CHUNK = 512 * 1024

/**
 * Reads the file into three recycled buffers and writes them to gunzip, hashing each chunk on the
 * way: one chunk is read and hashed while zlib inflates the ones before it on the threadpool. A
 * buffer is reused only once gunzip's write callback says zlib has consumed it. Stops when the
 * consuming side (gunzip -> tar reader) fails.
 */
async function feed(file: string, gunzip: Writable, consuming: Promise<void>, digest: (chunk: Buffer) => void): Promise<void> {
  let failed = false
  const stopped = consuming.then(
    () => undefined,
    () => {
      failed = true
    }
  )
  const buffers = [Buffer.allocUnsafeSlow(FEED_CHUNK), Buffer.allocUnsafeSlow(FEED_CHUNK), Buffer.allocUnsafeSlow(FEED_CHUNK)]
  const taken: Array<Promise<void> | undefined> = buffers.map(() => undefined)
  const handle = await open(file, 'r')
  try {
    let position = 0
    for (let i = 0; ; i = (i + 1) % buffers.length) {
      if (taken[i] !== undefined) await Promise.race([taken[i], stopped])
      if (failed) return
      const buffer = buffers[i]!
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position)
      if (bytesRead === 0) break
      position += bytesRead
      const chunk = buffer.subarray(0, bytesRead)
      digest(chunk)
      const written = new Promise<void>((resolve, reject) => gunzip.write(chunk, (err) => (err ? reject(err) : resolve())))
      written.catch(() => undefined) // the error also fails `consuming`, which reports it
      taken[i] = written
    }
    await Promise.race([Promise.all(taken), stopped])
    if (!failed) gunzip.end()
  } finally {
    await handle.close()
  }
}
