// Decides, while an upload streams in, whether it is a gzip-compressed tar archive: gzip magic bytes,
// then the first 512-byte block, once gunzipped, must be a tar header with a valid checksum.
// Only the start of the stream is decompressed; the rest is never looked at.
import { createGunzip, type Gunzip } from 'node:zlib'

export type SniffResult = { ok: true } | { ok: false; reason: string }

const BLOCK = 512
/** Compressed bytes after which a file that still has not produced its first tar block is refused. */
const MAX_SNIFF_INPUT = 16 * 1024 * 1024

// The emulator stands in for the server the action uploads to, so it keeps its own reading of the
// header checksum rather than sharing the action's tar code (a shared bug would pass unnoticed).

/** The checksum field (offset 148, 8 bytes): octal digits, padded with spaces or NULs; NaN when malformed. */
function storedChecksum(block: Buffer): number {
  const text = block.toString('latin1', 148, 156).replace(/\0.*$/s, '').trim()
  return /^[0-7]{1,7}$/.test(text) ? parseInt(text, 8) : Number.NaN
}

/** True when `block` (512 bytes) is a tar header whose checksum field matches its bytes (unsigned or signed sum, as POSIX and old tars wrote it). */
export function isTarHeader(block: Buffer): boolean {
  if (block.length < BLOCK) return false
  const stored = storedChecksum(block)
  if (Number.isNaN(stored)) return false
  let unsigned = 0
  let signed = 0
  for (let i = 0; i < BLOCK; i++) {
    // The checksum field itself counts as eight spaces.
    const byte = i >= 148 && i < 156 ? 0x20 : (block[i] as number)
    unsigned += byte
    signed += byte >= 0x80 ? byte - 0x100 : byte
  }
  return stored === unsigned || stored === signed
}

export class GzipTarSniffer {
  private gunzip: Gunzip | undefined
  private head: Buffer[] = []
  private headBytes = 0
  private magic = Buffer.alloc(0)
  private bytesIn = 0
  private verdict: SniffResult | undefined
  private readonly settled: Promise<SniffResult>
  private settle!: (r: SniffResult) => void

  constructor() {
    this.settled = new Promise((resolve) => (this.settle = resolve))
  }

  get decided(): boolean {
    return this.verdict !== undefined
  }

  /** The verdict once known (it may be known long before the end of the file). */
  get result(): SniffResult | undefined {
    return this.verdict
  }

  push(chunk: Buffer): void {
    if (this.verdict !== undefined || chunk.length === 0) return
    if (this.magic.length < 2) {
      this.magic = Buffer.concat([this.magic, chunk.subarray(0, 2 - this.magic.length)])
      if (this.magic.length === 2 && (this.magic[0] !== 0x1f || this.magic[1] !== 0x8b)) {
        return this.decide({ ok: false, reason: 'The file is not gzip-compressed (no gzip magic bytes)' })
      }
    }
    this.bytesIn += chunk.length
    if (this.bytesIn > MAX_SNIFF_INPUT) {
      return this.decide({ ok: false, reason: 'The start of the gzip content does not decompress to a tar header' })
    }
    this.ensureGunzip().write(chunk)
  }

  /** Call once the whole file has been pushed; resolves with the verdict. */
  finish(): Promise<SniffResult> {
    if (this.verdict === undefined) {
      if (this.gunzip === undefined) this.decide({ ok: false, reason: 'The file is empty or too short to be a gzip file' })
      else this.gunzip.end()
    }
    return this.settled
  }

  /** Releases the decompressor without waiting for a verdict. */
  dispose(): void {
    if (this.verdict === undefined) this.decide({ ok: false, reason: 'aborted' })
  }

  private ensureGunzip(): Gunzip {
    if (this.gunzip !== undefined) return this.gunzip
    const gunzip = createGunzip()
    gunzip.on('data', (out: Buffer) => {
      if (this.verdict !== undefined) return
      this.head.push(out)
      this.headBytes += out.length
      if (this.headBytes >= BLOCK) {
        const block = Buffer.concat(this.head).subarray(0, BLOCK)
        this.decide(isTarHeader(block) ? { ok: true } : { ok: false, reason: 'The gzip content is not a tar archive (bad tar header checksum)' })
      }
    })
    gunzip.on('error', (err: Error) => this.decide({ ok: false, reason: `The file is not valid gzip: ${err.message}` }))
    gunzip.on('end', () => this.decide({ ok: false, reason: 'The gzip content is too short to be a tar archive (less than 512 bytes)' }))
    this.gunzip = gunzip
    return gunzip
  }

  private decide(result: SniffResult): void {
    if (this.verdict !== undefined) return
    this.verdict = result
    this.head = []
    if (this.gunzip !== undefined) {
      this.gunzip.removeAllListeners('data')
      this.gunzip.on('error', () => {}) // errors after the verdict do not matter
      this.gunzip.destroy()
    }
    this.settle(result)
  }
}
