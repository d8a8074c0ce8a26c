// gzip on every core, the way pigz does it, with Node's own zlib and no dependency.
//
// The input is cut into blocks. Each block is deflated on its own on libuv's threadpool (Node's
// async zlib calls run there, so several blocks in flight use several cores), primed with the last
// 32 KiB of the input before it as its dictionary, so matches reach back across the cut as they
// would in one long deflate. Every block but the last ends with a sync flush (an empty stored block:
// the output ends on a byte boundary and no block is marked final); the last one ends with
// Z_FINISH. Concatenated in order, the pieces are one ordinary raw deflate stream; with a standard
// 10-byte gzip header and the trailer (CRC-32 and length mod 2^32 of the input) that is a single
// gzip member that any gzip reader takes.
//
// Memory is bounded and flat:
// - at most `maxInFlight` blocks are between "full" and "pushed to the reader"; a writer waits (its
//   write callback, or the promise of reserve()/writeBytes()) while that many are, so a slow reader
//   stops the writer instead of making this stream buffer everything;
// - at most `concurrency` of them are being deflated at once; by default one thread of libuv's pool
//   stays free so file reads and writes (which run there too) never queue behind compression;
// - block buffers are recycled, and a producer can read file content straight into them
//   (reserve() + commit()), so packing allocates no buffer per chunk read. Fresh buffers that are
//   garbage a moment later are what makes a Node process's RSS climb well past what it holds.
import { availableParallelism } from 'node:os'
import { Duplex } from 'node:stream'
import zlib from 'node:zlib'
import { GarbageRelief } from '../memory.js'

/** Deflate's window: the dictionary handed to each block is at most this much of the input before it. */
export const WINDOW = 32 * 1024

export const DEFAULT_BLOCK_SIZE = 512 * 1024

export interface ParallelGzipOptions {
  /** gzip level 0-9 (0: zlib's stored blocks); default 6. */
  level?: number
  /**
   * Raw deflate: no gzip header or trailer. The packer assembles the gzip member itself, with the
   * stored blocks of already-compressed files between runs of this stream (cut()).
   */
  raw?: boolean
  /** Uncompressed bytes per block; default 512 KiB. */
  blockSize?: number | undefined
  /** Blocks between full and pushed to the reader, at most; default concurrency + 1 (one ready whenever a thread frees). */
  maxInFlight?: number
  /** Blocks deflated at once, at most; default availableParallelism(), capped at libuv's pool size - 1. */
  concurrency?: number
  /** Collects the garbage of zlib's output buffers before it piles up (src/memory.ts); false: leave it to V8. */
  relief?: GarbageRelief | false
}

type Crc32 = (data: Uint8Array, value?: number) => number

let crcTable: Uint32Array | undefined

/** CRC-32 (the gzip one) for Node versions without zlib.crc32 (before 20.15 and 22.2). */
export function crc32Fallback(data: Uint8Array, value = 0): number {
  if (crcTable === undefined) {
    crcTable = new Uint32Array(256)
    for (let n = 0; n < 256; n++) {
      let c = n
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
      crcTable[n] = c >>> 0
    }
  }
  const table = crcTable
  let crc = (value ^ 0xffffffff) >>> 0
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

const nativeCrc32 = (zlib as unknown as { crc32?: Crc32 }).crc32
export const crc32: Crc32 = typeof nativeCrc32 === 'function' ? nativeCrc32 : crc32Fallback

/** The 10-byte gzip header: deflate, no name, no mtime (reproducible), XFL from the level, OS Unix. */
export function gzipHeader(level: number): Buffer {
  const xfl = level === 9 ? 2 : level === 1 ? 4 : 0
  return Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, xfl, 0x03])
}

/** libuv's threadpool size (UV_THREADPOOL_SIZE, default 4). */
function threadpoolSize(): number {
  const n = Number(process.env.UV_THREADPOOL_SIZE)
  return Number.isInteger(n) && n > 0 ? Math.min(n, 1024) : 4
}

function defaultConcurrency(): number {
  return Math.max(1, Math.min(availableParallelism(), threadpoolSize() - 1))
}

interface Job {
  /** The block buffer (full size, recycled) and how much of it is input. */
  buffer: Buffer
  length: number
  last: boolean
  dictionary: Buffer | undefined
  started: boolean
  done: boolean
  out?: Buffer | undefined
  /** The next block: this one's buffer holds its dictionary, so it is recycled only once that one is done. */
  next?: Job | undefined
  previous?: Job | undefined
  recycled: boolean
  /** The last block before a cut(): no block reads its dictionary from this one's buffer. */
  endsRun?: boolean
  /** A cut(): no input, told the output's length so far when every block before it was pushed. */
  marker?: (() => void) | undefined
}

/** Where a run of deflate output ends (cut()): its output's end in the stream, its input's CRC-32 and length. */
export interface RunEnd {
  outputEnd: number
  crc: number
  inputLength: number
}

const EMPTY = Buffer.alloc(0)

export class ParallelGzip extends Duplex {
  readonly level: number
  readonly raw: boolean
  readonly blockSize: number
  readonly maxInFlight: number
  readonly concurrency: number
  private readonly relief: GarbageRelief | undefined

  /** The block being filled and how much of it is filled. */
  private block: Buffer | undefined
  private fill = 0
  /** The last (at most) 32 KiB of the input handed over so far: a view into the last block, or a copy. */
  private dictionary: Buffer | undefined
  /** Blocks handed over and not yet pushed, in input order. */
  private readonly jobs: Job[] = []
  private lastJob: Job | undefined
  private running = 0
  private readonly pool: Buffer[] = []
  private roomWaiters: Array<() => void> = []
  private finished: (() => void) | undefined
  private ended = false
  private wantsData = false
  private headerPushed = false
  private crc = 0
  private length = 0
  /** The input's CRC-32 and length since the last cut(). */
  private runCrc = 0
  private runLength = 0
  /** Output bytes pushed so far. */
  private pushed = 0
  private peak = 0
  private runningPeak = 0
  private blocks = 0
  private buffers = 0

  constructor(options: ParallelGzipOptions = {}) {
    super({ allowHalfOpen: true })
    this.level = options.level ?? 6
    this.raw = options.raw ?? false
    this.blockSize = options.blockSize ?? DEFAULT_BLOCK_SIZE
    this.concurrency = options.concurrency ?? defaultConcurrency()
    // More in flight buys no speed (measured: 3 and 4 pack a 300 MB tree equally fast on 2 cores)
    // and costs a block and its output each.
    this.maxInFlight = options.maxInFlight ?? this.concurrency + 1
    this.relief = options.relief === false ? undefined : (options.relief ?? new GarbageRelief())
    if (!Number.isInteger(this.level) || this.level < 0 || this.level > 9) throw new RangeError(`gzip level ${this.level} is not 0-9`)
    for (const [name, value] of [
      ['blockSize', this.blockSize],
      ['maxInFlight', this.maxInFlight],
      ['concurrency', this.concurrency]
    ] as const) {
      if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} ${value} is not a positive whole number`)
    }
  }

  /** Blocks handed over and not yet pushed, now. */
  get inFlight(): number {
    return this.jobs.length
  }

  /** The most blocks ever in flight and deflating at once, blocks compressed, input bytes, block buffers allocated. */
  get stats(): { inFlightPeak: number; runningPeak: number; blocks: number; bytesIn: number; buffers: number } {
    return { inFlightPeak: this.peak, runningPeak: this.runningPeak, blocks: this.blocks, bytesIn: this.length, buffers: this.buffers }
  }

  /**
   * Free room in the current block, to read input into directly; waits while `maxInFlight` blocks
   * are in flight. Valid until the next commit(); then commit() the bytes written at its start.
   * One producer at a time; do not mix with write().
   */
  async reserve(): Promise<Buffer> {
    if (this.block !== undefined && this.fill < this.blockSize) return this.block.subarray(this.fill)
    if (this.block !== undefined) {
      // A full block is handed over only once more input comes, so the last block is always the one
      // end() hands over (with Z_FINISH), even when the input ends on a block boundary.
      await this.room()
      this.submit(false)
    }
    this.assertOpen()
    this.block = this.pool.pop() ?? this.allocate()
    this.fill = 0
    return this.block
  }

  /** Takes `bytes` written at the start of what reserve() returned. */
  commit(bytes: number): void {
    if (this.block === undefined || !Number.isInteger(bytes) || bytes < 0 || this.fill + bytes > this.blockSize) {
      throw new RangeError(`commit(${bytes}) does not match the room reserve() gave`)
    }
    this.fill += bytes
  }

  /**
   * Ends the run of output here, on a byte boundary (the last block ends with a sync flush): what is
   * written next starts a new run with no dictionary, since bytes that are not this stream's (stored
   * blocks) go between the two. `at` is called with where the run ends once all of it was pushed.
   */
  async cut(at: (end: RunEnd) => void): Promise<void> {
    if (this.block !== undefined) {
      await this.room()
      this.submit(false)
    }
    this.assertOpen()
    const end = { crc: this.runCrc, inputLength: this.runLength }
    this.runCrc = 0
    this.runLength = 0
    this.dictionary = undefined
    const tail = this.lastJob
    if (tail !== undefined) {
      tail.endsRun = true
      this.recycle(tail)
    }
    this.lastJob = undefined
    const marker: Job = { buffer: EMPTY, length: 0, last: false, dictionary: undefined, started: true, done: true, recycled: true }
    marker.marker = () => at({ outputEnd: this.pushed, ...end })
    this.jobs.push(marker)
    this.pushReady()
  }

  /** Copies `bytes` in; resolves once they are taken (the caller may then reuse its buffer). */
  async writeBytes(bytes: Uint8Array): Promise<void> {
    let offset = 0
    while (offset < bytes.length) {
      const room = await this.reserve()
      const n = Math.min(room.length, bytes.length - offset)
      room.set(bytes.subarray(offset, offset + n))
      this.commit(n)
      offset += n
    }
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.writeBytes(chunk).then(() => callback(), callback)
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.room()
      .then(() => {
        this.assertOpen()
        this.submit(true)
        return new Promise<void>((resolve) => {
          this.finished = resolve
          this.pushReady()
        })
      })
      .then(() => callback(), callback)
  }

  override _read(): void {
    this.wantsData = true
    this.pushReady()
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.jobs.length = 0
    this.pool.length = 0
    this.block = undefined
    this.dictionary = undefined
    this.lastJob = undefined
    this.wake()
    callback(error)
  }

  private assertOpen(): void {
    if (this.destroyed) throw Object.assign(new Error('the gzip stream was destroyed'), { code: 'ERR_STREAM_DESTROYED' })
  }

  private allocate(): Buffer {
    this.buffers++
    return Buffer.allocUnsafeSlow(this.blockSize)
  }

  /** Resolves once fewer than maxInFlight blocks are in flight. */
  private async room(): Promise<void> {
    while (this.jobs.length >= this.maxInFlight) {
      this.assertOpen()
      await new Promise<void>((resolve) => this.roomWaiters.push(resolve))
    }
    this.assertOpen()
  }

  private wake(): void {
    const waiters = this.roomWaiters
    this.roomWaiters = []
    for (const resolve of waiters) resolve()
  }

  private submit(last: boolean): void {
    const buffer = this.block ?? EMPTY
    const data = buffer.subarray(0, this.fill)
    this.crc = crc32(data, this.crc)
    this.length += data.length
    this.runCrc = crc32(data, this.runCrc)
    this.runLength += data.length
    const job: Job = { buffer, length: data.length, last, dictionary: this.dictionary, started: false, done: false, recycled: false }
    if (this.block === undefined) job.recycled = true // nothing to recycle
    if (this.lastJob !== undefined) {
      this.lastJob.next = job
      job.previous = this.lastJob
    }
    this.lastJob = job
    this.jobs.push(job)
    this.blocks++
    this.peak = Math.max(this.peak, this.jobs.length)
    this.dictionary = nextDictionary(this.dictionary, data)
    this.block = undefined
    this.fill = 0
    if (last) this.ended = true
    this.startJobs()
  }

  /** Starts queued blocks, in order, while fewer than `concurrency` are being deflated. */
  private startJobs(): void {
    for (const job of this.jobs) {
      if (this.running >= this.concurrency) return
      if (job.started) continue
      job.started = true
      this.running++
      this.runningPeak = Math.max(this.runningPeak, this.running)
      const options: zlib.ZlibOptions = {
        level: this.level,
        // The largest hash table: 3-4% less CPU than the default 8 for 0.02% more bytes, at the same level.
        memLevel: 9,
        // 64 KiB output buffers: zlib comes back to JS each time one fills, which costs nothing measurable,
        // while one buffer the size of the block (as before) held 530 KiB for 120 KiB of output: measured on
        // the 300 MiB bench tree, packing peaked at 76 MiB RSS with those, 69 MiB with these.
        chunkSize: 64 * 1024,
        finishFlush: job.last ? zlib.constants.Z_FINISH : zlib.constants.Z_SYNC_FLUSH
      }
      if (job.dictionary !== undefined) options.dictionary = job.dictionary
      zlib.deflateRaw(job.buffer.subarray(0, job.length), options, (error, out) => {
        if (this.destroyed) return
        this.running--
        if (error) {
          this.destroy(error)
          return
        }
        job.done = true
        job.out = out
        job.dictionary = undefined
        const previous = job.previous
        this.recycle(job)
        if (previous) this.recycle(previous)
        this.startJobs()
        this.pushReady()
      })
    }
  }

  /** Returns a block buffer to the pool once its block is done and no block still reads its dictionary from it. */
  private recycle(job: Job): void {
    if (job.recycled || !job.done || !(job.last || job.endsRun === true || job.next?.done)) return
    job.recycled = true
    job.previous = undefined
    if (job.next) job.next.previous = undefined
    if (this.pool.length <= this.maxInFlight) this.pool.push(job.buffer)
  }

  /** Pushes finished blocks in order while the reader wants data, then lets the writer go on. */
  private pushReady(): void {
    let freed = false
    while (this.wantsData && !this.destroyed) {
      const head = this.jobs[0]
      if (head?.marker !== undefined) {
        this.jobs.shift()
        freed = true
        head.marker()
        continue
      }
      if (head === undefined || !head.done || head.out === undefined) break
      this.jobs.shift()
      freed = true
      let out = head.out
      head.out = undefined
      if (!this.raw && !this.headerPushed) {
        out = Buffer.concat([gzipHeader(this.level), out])
        this.headerPushed = true
      }
      this.pushed += out.length
      this.wantsData = this.push(out)
      // zlib allocated the whole buffer `out` is a view of; it is garbage once the reader is done.
      this.relief?.produce(out.buffer.byteLength)
    }
    if (this.destroyed) return
    if (freed) this.wake()
    if (this.ended && this.jobs.length === 0 && this.finished !== undefined) {
      if (!this.raw) {
        const trailer = Buffer.alloc(8)
        trailer.writeUInt32LE(this.crc >>> 0, 0)
        trailer.writeUInt32LE(this.length % 0x100000000, 4)
        this.push(trailer)
      }
      this.push(null)
      const finished = this.finished
      this.finished = undefined
      finished()
    }
  }
}

/** The last WINDOW bytes of (previous dictionary + data): a view into data when it is long enough, else a copy. */
function nextDictionary(previous: Buffer | undefined, data: Buffer): Buffer | undefined {
  if (data.length >= WINDOW) return data.subarray(data.length - WINDOW)
  if (data.length === 0) return previous
  const joined = previous === undefined ? Buffer.from(data) : Buffer.concat([previous, data])
  return joined.length > WINDOW ? joined.subarray(joined.length - WINDOW) : joined
}

/** A drop-in for zlib.createGzip({ level }) that compresses on every core. */
export function createParallelGzip(options: ParallelGzipOptions = {}): ParallelGzip {
  return new ParallelGzip(options)
}
