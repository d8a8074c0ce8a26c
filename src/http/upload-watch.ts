// The upload's time limit: "no bytes moving for request-timeout-seconds", and nothing else (a large
// upload on a slow link may take hours). Bytes move when the socket takes the next chunk of the body.
// After the last chunk, the network and the server may still hold a lot in their buffers (several MB
// on Linux), which a slow server reads long after our last write: the wait for the answer allows for
// draining that at the rate the upload ran, so the limit fires only when the server has stopped
// reading, not while it is still reading what we sent.
import { Readable } from 'node:stream'

/** At most this much of the body can sit in socket buffers between us and the server's reads. */
export const BUFFERED_BOUND = 16 * 1024 * 1024
/** A server reading slower than this is taken as stopped, when the upload ran too briefly to measure its rate. */
export const FLOOR_BYTES_PER_SECOND = 64 * 1024
/** The rate is measured over the last this-many milliseconds of the upload (the first burst into empty buffers would flatter it). */
const RATE_WINDOW_MS = 2_000

export interface UploadWatchOptions {
  idleMs: number
  /** Called once when the limit is reached. */
  onIdle: (message: string) => void
  now?: () => number
}

export class UploadWatch {
  private readonly now: () => number
  private readonly started: number
  private last: number
  /** [time, bytes so far] of each chunk taken, kept for the rate window. */
  private readonly marks: Array<[number, number]> = []
  private bytes = 0
  private deadline: number
  private timer: NodeJS.Timeout | undefined
  private fired = false
  private sent = false

  constructor(private readonly options: UploadWatchOptions) {
    this.now = options.now ?? (() => performance.now())
    this.started = this.last = this.now()
    this.deadline = this.started + options.idleMs
    this.timer = setInterval(() => this.check(), Math.max(50, Math.min(1_000, options.idleMs / 4)))
    this.timer.unref()
  }

  /** The body as the socket takes it: each chunk taken is progress. */
  track(body: Readable): Readable {
    const pass = async function* (this: UploadWatch): AsyncGenerator<Buffer> {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        this.progress(chunk.length)
        yield chunk
      }
      this.bodySent()
    }
    return Readable.from(pass.call(this), { objectMode: false })
  }

  progress(bytes: number): void {
    this.bytes += bytes
    this.last = this.now()
    this.marks.push([this.last, this.bytes])
    while (this.marks.length > 2 && (this.marks[1]?.[0] ?? this.last) < this.last - RATE_WINDOW_MS) this.marks.shift()
    this.deadline = this.last + this.options.idleMs
  }

  /** The whole body was handed to the socket: from now on the limit allows for the buffers to drain. */
  bodySent(): void {
    this.sent = true
    this.deadline = this.now() + this.options.idleMs + this.drainAllowanceMs()
  }

  /** How long what may still sit in buffers takes to drain at the rate the upload ran (or the floor rate). */
  drainAllowanceMs(): number {
    const buffered = Math.min(this.bytes, BUFFERED_BOUND)
    const first = this.marks[0]
    const ranLongEnough = this.last - this.started >= 2 * RATE_WINDOW_MS && first !== undefined && this.last - first[0] >= RATE_WINDOW_MS / 2
    const rate = ranLongEnough ? ((this.bytes - first[1]) / (this.last - first[0])) * 1000 : 0
    return Math.round((buffered / Math.max(FLOOR_BYTES_PER_SECOND, rate)) * 1000)
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer)
    this.timer = undefined
  }

  private check(): void {
    if (this.fired || this.now() < this.deadline) return
    this.fired = true
    this.stop()
    const seconds = Math.round(this.options.idleMs / 1000)
    this.options.onIdle(
      this.sent
        ? `no answer after the whole upload was sent, in ${seconds} s plus the time its buffers take to drain`
        : `the upload made no progress for ${seconds} s`
    )
  }
}
