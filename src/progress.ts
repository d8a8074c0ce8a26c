// Progress lines for long transfers: bytes, percent and rate, at most every few seconds.
import { formatBytes } from './format.js'

export class ProgressReporter {
  private done = 0
  private lastReport: number
  private readonly started: number

  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly log: (line: string) => void,
    private readonly intervalMs = 5_000,
    private readonly now: () => number = Date.now
  ) {
    this.started = this.lastReport = now()
  }

  add(bytes: number): void {
    this.done += bytes
    const t = this.now()
    if (t - this.lastReport >= this.intervalMs) {
      this.lastReport = t
      this.log(this.line(t))
    }
  }

  finish(): void {
    this.log(this.line(this.now()))
  }

  private line(t: number): string {
    const seconds = Math.max((t - this.started) / 1000, 0.001)
    const percent = this.total > 0 ? Math.floor((this.done / this.total) * 100) : 100
    const rate = this.done / 1024 / 1024 / seconds
    return `${this.label}: ${formatBytes(this.done)} of ${formatBytes(this.total)} (${percent}%), ${rate.toFixed(1)} MB/s`
  }
}
