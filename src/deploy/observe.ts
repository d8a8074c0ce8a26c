// Looking at the environment: what it reports (the documented distributionId, and a status field when
// the platform gives one, which is never required), and the pace of looking again until a deadline.
import { ActionError, describeError, ServiceError } from '../errors.js'
import { formatDuration } from '../format.js'
import { networkFailure } from '../http/errors.js'
import { Poll, type PollOptions } from '../http/retry.js'
import type { CloudClient } from '../cloud/client.js'
import type { EnvironmentLook } from './result.js'

export interface WatchOptions {
  /** Pace of looking again: first pause, growing by half up to the max. */
  intervalMs?: number
  maxIntervalMs?: number
  sleep?: (ms: number) => Promise<void>
  now?: () => number
  /** The run's stop (watchdog, cancel): ends a pause between looks at once. */
  signal?: AbortSignal | undefined
  /** Where a look that got no answer is noted. */
  log?: (line: string) => void
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
      throw new ActionError(
        `Environment '${this.name}' is no longer listed by the platform, though it was when this run found it: it was deleted or renamed since.`
      )
    }
    return { distributionId: environment.distributionId ?? undefined, status: environment.status, at: this.now() }
  }

  /**
   * A look while waiting for something: an answer that failed the way a look may fail for a moment (a 5xx,
   * no connection, after its own attempts) is noted and gives undefined, so the caller looks again later
   * instead of ending its wait on one bad answer. The run's stop, a refusal (401, 404) or a bug still throw.
   */
  async lookAgain(): Promise<EnvironmentLook | undefined> {
    try {
      return await this.look()
    } catch (error) {
      if (this.options.signal?.aborted) throw error
      const passing = error instanceof ServiceError ? error.status >= 500 || error.status === 429 : networkFailure(error) !== undefined
      if (!passing) throw error
      this.options.log?.(`Looking at '${this.name}' failed (${describeError(error)}); looking again later.`)
      return undefined
    }
  }

  /** A pace of looks that ends at `deadline` (Date.now() based). */
  poll(deadline: number): Poll {
    const options: PollOptions = {
      timeoutMs: Math.max(0, deadline - this.now()),
      intervalMs: this.options.intervalMs ?? 1_000,
      maxIntervalMs: this.options.maxIntervalMs ?? 10_000,
      sleep: this.options.sleep,
      now: this.now,
      signal: this.options.signal
    }
    return new Poll(options)
  }

  /** "after 3.2 s" since `since`. */
  after(since: number): string {
    return `after ${formatDuration(this.now() - since)}`
  }
}
