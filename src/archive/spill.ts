// Where the deflated parts of a packed archive wait between packing and sending: in memory while they
// are small, in a temporary file once they pass `memoryLimit`, so memory stays flat whatever the tree.
// Written once, in order; then read as often as an upload is sent (a retry sends the same bytes). The
// file is open only while written and while a range is read, so deleting its directory is all the
// cleanup there is.
import { open, type FileHandle } from 'node:fs/promises'
import { Writable } from 'node:stream'
import { GarbageRelief } from '../memory.js'

/** Small: what is held in memory is copied out of zlib's output buffers, which are far larger than what they hold. */
export const DEFAULT_SPILL_MEMORY = 1024 * 1024
const READ_CHUNK = 256 * 1024

export class Spill extends Writable {
  private chunks: Buffer[] = []
  private file: FileHandle | undefined
  private spilled = false
  private written = 0

  /** `path`: the temporary file, created only when the parts pass `memoryLimit` bytes. */
  constructor(
    private readonly path: string,
    private readonly memoryLimit = DEFAULT_SPILL_MEMORY
  ) {
    super()
  }

  /** Bytes written so far. */
  get length(): number {
    return this.written
  }

  /** True once the parts went to the file. */
  get onDisk(): boolean {
    return this.spilled
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.append(chunk).then(() => callback(), callback)
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.closeFile().then(() => callback(), callback)
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.closeFile().then(() => callback(error), callback)
  }

  private async closeFile(): Promise<void> {
    const file = this.file
    this.file = undefined
    await file?.close()
  }

  private async append(chunk: Buffer): Promise<void> {
    const at = this.written
    this.written += chunk.length
    if (!this.spilled && this.written <= this.memoryLimit) {
      // A copy: the chunk is a view into a buffer zlib sized for a whole block.
      this.chunks.push(Buffer.from(chunk))
      return
    }
    if (!this.spilled) {
      this.spilled = true
      this.file = await open(this.path, 'w')
      const held = this.chunks
      this.chunks = []
      let offset = 0
      for (const bytes of held) {
        await this.writeAll(bytes, offset)
        offset += bytes.length
      }
    }
    await this.writeAll(chunk, at)
  }

  private async writeAll(bytes: Buffer, position: number): Promise<void> {
    let done = 0
    while (done < bytes.length) done += (await (this.file as FileHandle).write(bytes, done, bytes.length - done, position + done)).bytesWritten
  }

  /** The bytes in [start, end), in chunks of at most 256 KiB (fresh buffers from the file: the caller may keep them). */
  async *range(start: number, end: number): AsyncGenerator<Buffer> {
    if (start < 0 || end > this.written || start > end) throw new RangeError(`spill: [${start}, ${end}) is outside the ${this.written} bytes written`)
    if (!this.spilled) {
      let offset = 0
      for (const chunk of this.chunks) {
        const from = Math.max(start, offset)
        const to = Math.min(end, offset + chunk.length)
        if (from < to) yield chunk.subarray(from - offset, to - offset)
        offset += chunk.length
        if (offset >= end) return
      }
      return
    }
    if (start === end) return
    const relief = new GarbageRelief()
    const file = await open(this.path, 'r')
    try {
      for (let at = start; at < end;) {
        const buffer = Buffer.allocUnsafe(Math.min(READ_CHUNK, end - at))
        let filled = 0
        while (filled < buffer.length) {
          const { bytesRead } = await file.read(buffer, filled, buffer.length - filled, at + filled)
          if (bytesRead === 0) throw new Error(`spill: the temporary file ended at ${at + filled} of ${end} bytes`)
          filled += bytesRead
        }
        at += filled
        relief.produce(filled)
        yield buffer
      }
    } finally {
      await file.close().catch(() => undefined)
    }
  }

  /** Frees the memory (the caller deletes the file's directory). */
  release(): Promise<void> {
    this.chunks = []
    return this.closeFile().catch(() => undefined)
  }
}
