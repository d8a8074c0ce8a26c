// Looking at the environment: what it reports (the documented distributionId, and a status field when
// the platform gives one, which is never required), and the pace of looking again until a deadline.
import { ActionError } from '../errors.js'
import { formatDuration } from '../format.js'
import { Poll, type PollOptions } from '../http/retry.js'
import type { CloudClient } from '../cloud/client.js'
import type { EnvironmentLook } from './result.js'

export interface WatchOptions {
  /** Pace of looking again: first pause, growing by half up to the max. */
  intervalMs?: number
  maxIntervalMs?: number
  sleep?: (ms: number) => Promise<void>
  now?: () => number
}

/** One environment, looked at by name (the id the platform gave us stays the same). */
export class EnvironmentWatch {
  readonly now: () => number

  constructor(
    private readonly client: CloudClient,
    readonly name: string,
    private readonly options: WatchOptions = {}
  ) {
    this.now = options.now ?? Date.now
  }

  async look(): Promise<EnvironmentLook> {
    const { environment } = await this.client.findEnvironment(this.name)
    if (environment === undefined) {
      throw new ActionError(`Environment '${this.name}' is no longer listed by the platform: someone deleted or renamed it while this run deployed to it.`)
    }
    return { distributionId: environment.distributionId ?? undefined, status: environment.status, at: this.now() }
  }

  /** A pace of looks that ends at `deadline` (Date.now() based). */
  poll(deadline: number): Poll {
    const options: PollOptions = {
      timeoutMs: Math.max(0, deadline - this.now()),
      intervalMs: this.options.intervalMs ?? 1_000,
      maxIntervalMs: this.options.maxIntervalMs ?? 10_000,
      sleep: this.options.sleep,
      now: this.now
    }
    return new Poll(options)
  }

  /** "after 3.2 s" since `since`. */
  after(since: number): string {
    return `after ${formatDuration(this.now() - since)}`
  }
}
