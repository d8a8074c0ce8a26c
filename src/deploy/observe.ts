// Looking at the environment: what it reports (the documented distributionId, and a status field when
// the platform gives one, which is never required), and the pace of looking again until a deadline.
import { ActionError, describeError } from '../errors.js'
import { formatDuration } from '../format.js'
import { mayPass } from '../http/errors.js'
import { Poll, type PollOptions } from '../http/retry.js'
import type { CloudClient } from '../cloud/client.js'
import type { EnvironmentLook } from './look.js'

/**
 * When a wait or a switch must be over (Date.now() based). It moves only forward, and only by time the
 * platform was not asked anything: the deploy order's checks with GitHub before a request (a slow GitHub
 * must not use up deploy-timeout-minutes, which is the platform's time).
 */
export interface Deadline {
  at: number
}

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
  /** Told each look that got an answer (a trace's span events). */
  seen?: (look: EnvironmentLook) => void
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
    const look = { distributionId: environment.distributionId ?? undefined, status: environment.status, at: this.now() }
    this.options.seen?.(look)
    return look
  }

  /**
   * A look while waiting for something: an answer that failed the way a look may fail for a moment (a 5xx,
   * no connection, a token endpoint that failed while renewing the token, after their own attempts) is noted and gives undefined, so the caller looks again later
   * instead of ending its wait on one bad answer. The run's stop, a refusal (401, 404) or a bug still throw.
   */
  async lookAgain(): Promise<EnvironmentLook | undefined> {
    try {
      return await this.look()
    } catch (error) {
      if (this.options.signal?.aborted) throw error
      if (!mayPass(error)) throw error
      this.options.log?.(`Looking at '${this.name}' failed (${describeError(error)}); looking again later.`)
      return undefined
    }
  }

  /** A pace of looks that ends at `deadline`, read afresh before each pause. */
  poll(deadline: Deadline): Poll {
    const options: PollOptions = {
      // Stryker disable next-line MethodExpression,ArithmeticOperator: Poll reads until() first and it is always given here, so timeoutMs is never used
      timeoutMs: Math.max(0, deadline.at - this.now()),
      until: () => deadline.at,
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
