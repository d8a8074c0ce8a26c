// Paces a reader to a byte rate ("slow reads"): after each chunk, wait until the rate allows it.
import { setTimeout as sleep } from 'node:timers/promises'

export class Throttle {
  private readonly start = Date.now()
  private bytes = 0

  constructor(private readonly bytesPerSecond: number) {}

  async take(n: number): Promise<void> {
    this.bytes += n
    const wait = this.start + (this.bytes / this.bytesPerSecond) * 1000 - Date.now()
    if (wait > 0) await sleep(wait, undefined, { ref: false })
  }
}
