// A packed directory, ready to send: the gzip member as a list of pieces whose length is known to the
// byte before the first byte goes out. Deflated runs (tar headers and compressible content) wait in
// the spill; already-compressed files are read from the tree when sent, framed as stored blocks.
//
//   [gzip header][deflated run][stored blocks of a jar][deflated run] ... [final deflated run][trailer]
//
// read() produces those bytes from the first, as often as asked (a retry sends the same bytes and
// deflates nothing again), computing CRC-32 (for the trailer), MD5 and SHA-256 on the way. A stored
// file that changed since it was listed stops the read before the trailer, so no whole archive that
// differs from the listing is ever sent; a second read also compares each file's CRC-32 with the first's.
import { createHash } from 'node:crypto'
import { open, type FileHandle } from 'node:fs/promises'
import { GarbageRelief } from '../memory.js'
import { crc32, gzipHeader } from './parallel-gzip.js'
import type { Spill } from './spill.js'
import { STORED_BLOCK_MAX, crc32Combine, storedLength, writeStoredBlockHeader } from './stored-blocks.js'
import { changedWhilePacked, checkUnchangedAfterRead, unreadable } from './tar-writer.js'
import type { ArchiveInfo } from './types.js'
import { InputError } from '../errors.js'

export type Piece =
  /** Raw deflate output in the spill, [start, end); `crc` and `inputLength` are of the tar bytes it holds. */
  | { kind: 'deflated'; start: number; end: number; crc: number; inputLength: number }
  /** A file's first `length` bytes (all of them, or a zip's entries before its central directory) as stored blocks; `crc` is set by the first whole read. */
  | { kind: 'stored'; name: string; path: string; length: number; fileSize: number; mtimeMs: number | undefined; crc?: number }

export function pieceLength(piece: Piece): number {
  return piece.kind === 'deflated' ? piece.end - piece.start : storedLength(piece.length)
}

/** Stored blocks read per chunk: four blocks, about 256 KiB. */
const BLOCKS_PER_CHUNK = 4

export interface PackedArchiveInit {
  fileName: string
  level: number
  pieces: Piece[]
  spill: Spill
  entries: number
  warnings: string[]
}

export class PackedArchive {
  readonly fileName: string
  readonly size: number
  readonly entries: number
  readonly warnings: string[]
  /** Settles with the first whole read (an upload's, or hashes()'s); rejects when the tree changed under it. */
  readonly verified: Promise<ArchiveInfo>
  private readonly level: number
  private readonly pieces: Piece[]
  private readonly spill: Spill
  private settle!: { resolve: (info: ArchiveInfo) => void; reject: (reason: unknown) => void }
  private settled = false

  constructor(init: PackedArchiveInit) {
    this.fileName = init.fileName
    this.level = init.level
    this.pieces = init.pieces
    this.spill = init.spill
    this.entries = init.entries
    this.warnings = init.warnings
    this.size = 10 + init.pieces.reduce((sum, p) => sum + pieceLength(p), 0) + 8
    this.verified = new Promise<ArchiveInfo>((resolve, reject) => (this.settle = { resolve, reject }))
    this.verified.catch(() => undefined) // whoever awaits it reports the failure
  }

  /** What is stored as it is and what was deflated: files and content bytes. */
  get composition(): { storedFiles: number; storedBytes: number; deflatedBytes: number } {
    let storedFiles = 0
    let storedBytes = 0
    let deflatedBytes = 0
    for (const p of this.pieces) {
      if (p.kind === 'stored') {
        storedFiles++
        storedBytes += p.length
      } else deflatedBytes += p.inputLength
    }
    return { storedFiles, storedBytes, deflatedBytes }
  }

  /** The hashes: those of the first whole read, reading the archive for them when none was made yet. */
  async hashes(): Promise<ArchiveInfo> {
    if (!this.settled) for await (const chunk of this.read()) void chunk
    return this.verified
  }

  /** The archive's bytes from the first; each call reads the stored files again. */
  async *read(): AsyncGenerator<Buffer> {
    // On this thread: a worker thread took 0.06 s off a 0.55 s read of the real-jar tree and added 100 MB
    // of copies waiting for its collector (measured; docs/benchmarks.md).
    const sha256 = createHash('sha256')
    const md5 = createHash('md5')
    // One for the whole read: per file, a small file would end before its first collection was due. Every
    // 5 ms at most (not 20): a chunk is garbage once the socket took it, and the read outpaces the compressor
    // the default was measured for; the real-jar tree's read peaked 5 MiB lower.
    const relief = new GarbageRelief({ interval: 5 })
    let sent = 0
    const out = (bytes: Buffer): Buffer => {
      sha256.update(bytes)
      md5.update(bytes)
      sent += bytes.length
      return bytes
    }
    let crc = 0
    let inputLength = 0
    try {
      yield out(gzipHeader(this.level))
      for (const piece of this.pieces) {
        if (piece.kind === 'deflated') {
          for await (const chunk of this.spill.range(piece.start, piece.end)) yield out(chunk)
          crc = crc32Combine(crc, piece.crc, piece.inputLength)
          inputLength += piece.inputLength
          continue
        }
        let fileCrc = 0
        for await (const chunk of storedBlocks(piece, relief, (data) => (fileCrc = crc32(data, fileCrc)))) yield out(chunk)
        if (piece.crc !== undefined && piece.crc !== fileCrc) throw changedWhilePacked(piece.name, 'its content differs from the first time it was sent')
        piece.crc = fileCrc
        crc = crc32Combine(crc, fileCrc, piece.length)
        inputLength += piece.length
      }
      const trailer = Buffer.alloc(8)
      trailer.writeUInt32LE(crc >>> 0, 0)
      trailer.writeUInt32LE(inputLength % 0x100000000, 4)
      yield out(trailer)
      if (sent !== this.size) throw new Error(`packing '${this.fileName}': sent ${sent} bytes where ${this.size} were counted`)
      if (!this.settled) {
        this.settled = true
        this.settle.resolve({
          fileName: this.fileName,
          size: sent,
          sha256: sha256.digest('hex'),
          md5: md5.digest('hex'),
          entries: this.entries,
          packed: true,
          ...(this.warnings.length > 0 ? { warnings: this.warnings } : {})
        })
      }
    } catch (error) {
      // The tree changed: no read of this plan can give the archive it describes.
      if (error instanceof InputError && !this.settled) {
        this.settled = true
        this.settle.reject(error)
      }
      throw error
    }
  }

  /** Frees the spill (the caller deletes its directory). */
  release(): Promise<void> {
    return this.spill.release()
  }
}

/** A file's content as stored blocks, about 256 KiB a chunk, each a fresh buffer; `onData` sees the content. */
async function* storedBlocks(piece: Piece & { kind: 'stored' }, relief: GarbageRelief, onData: (data: Buffer) => void): AsyncGenerator<Buffer> {
  const changed = (how: string): Error => changedWhilePacked(piece.name, how)
  let handle: FileHandle
  try {
    handle = await open(piece.path, 'r')
  } catch (err) {
    throw unreadable(piece.name, err)
  }
  let ahead: Promise<Framed> | undefined
  try {
    const before = await handle.stat()
    if (before.size !== piece.fileSize) throw changed(`its size went from ${piece.fileSize} to ${before.size} bytes`)
    if (piece.mtimeMs !== undefined && before.mtimeMs !== piece.mtimeMs) throw changed('it was rewritten after it was listed: its modification time moved')
    // The next chunk is read while this one is sent.
    const file = handle
    let next = readFramed(file, 0, piece, changed)
    ahead = next
    for (let read = 0; ;) {
      const framed = await next
      read += framed.contentLength
      const more = read < piece.length
      if (more) {
        next = readFramed(file, read, piece, changed)
        next.catch(() => undefined) // awaited on the next turn, or dropped with the read
      }
      ahead = more ? next : undefined
      for (const data of framed.data) onData(data)
      relief.produce(framed.chunk.length)
      yield framed.chunk
      if (!more) break
    }
    await checkUnchangedAfterRead(handle, { name: piece.name, size: piece.fileSize, listedMtimeMs: piece.mtimeMs })
  } finally {
    await ahead?.catch(() => undefined) // no read left running on a closed handle
    await handle.close().catch(() => undefined)
  }
}

interface Framed {
  /** Stored blocks: each a 5-byte header and its content. */
  chunk: Buffer
  /** The content parts of `chunk`. */
  data: Buffer[]
  contentLength: number
}

/** Up to four stored blocks of the file from `position`, read with one readv into their places in a fresh chunk (exported for its tests). */
export async function readFramed(
  handle: FileHandle,
  position: number,
  piece: { name: string; length: number; fileSize: number },
  changed: (how: string) => Error
): Promise<Framed> {
  const blocks = Math.min(BLOCKS_PER_CHUNK, Math.ceil((piece.length - position) / STORED_BLOCK_MAX))
  const contentLength = Math.min(piece.length - position, blocks * STORED_BLOCK_MAX)
  const chunk = Buffer.allocUnsafe(contentLength + 5 * blocks)
  const data: Buffer[] = []
  for (let b = 0, at = 0; b < blocks; b++) {
    const length = Math.min(STORED_BLOCK_MAX, contentLength - b * STORED_BLOCK_MAX)
    writeStoredBlockHeader(chunk, at, length, false)
    data.push(chunk.subarray(at + 5, at + 5 + length))
    at += 5 + length
  }
  try {
    const filled = (await handle.readv(data, position)).bytesRead
    // A short read (rare on a regular file) is finished part by part.
    let offset = 0
    for (const part of data) {
      const start = Math.max(0, filled - offset)
      for (let got = start; got < part.length;) {
        const n = (await handle.read(part, got, part.length - got, position + offset + got)).bytesRead
        if (n === 0) throw changed(`it shrank from ${piece.fileSize} to ${position + offset + got} bytes`)
        got += n
      }
      offset += part.length
    }
  } catch (err) {
    if (err instanceof InputError) throw err
    throw unreadable(piece.name, err)
  }
  return { chunk, data, contentLength }
}
