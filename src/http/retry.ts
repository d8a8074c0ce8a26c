// One retry helper: exponential backoff with full jitter, bounded attempts and total time; and on
// top of it `retrying`, which gives each user-visible operation its attempts.
import { AsyncLocalStorage } from 'node:async_hooks'
import { describeError } from '../errors.js'
import { formatDelay } from '../format.js'
import { redact } from '../secrets.js'

export interface RetryOptions {
  attempts: number
  baseDelayMs?: number | undefined
  maxDelayMs?: number | undefined
  /** Stop retrying when the next wait would pass this much total time. */
  maxTotalMs?: number | undefined
  /** Stop retrying when the next attempt would begin after this moment (Date.now() based; read afresh): the end of the phase. */
  until?: (() => number | undefined) | undefined
  /** Decides whether an error is worth another attempt; may return a delay the server asked for. */
  retryable: (error: unknown) => boolean | { afterMs: number }
  onRetry?: ((error: unknown, attempt: number, delayMs: number) => void) | undefined
  sleep?: ((ms: number) => Promise<void>) | undefined
  random?: (() => number) | undefined
  now?: (() => number) | undefined
  /** Ends a wait at once (rejecting with its reason) when the run is stopped: the watchdog, a cancel. */
  signal?: AbortSignal | undefined
}

/** Waits `ms`; with a signal, rejects with its reason as soon as it aborts, so no wait outlives a stopped run. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal === undefined) return new Promise((resolve) => setTimeout(resolve, ms))
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error)
    const stop = (): void => {
      clearTimeout(timer)
      reject(signal.reason as Error)
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop)
      resolve()
    }, ms)
    signal.addEventListener('abort', stop, { once: true })
  })
}

/** The wait of `options`: an injected sleep (tests), else the real one, ended by the signal either way. */
function waiter(options: { sleep?: ((ms: number) => Promise<void>) | undefined; signal?: AbortSignal | undefined }): (ms: number) => Promise<void> {
  const { signal } = options
  const inject = options.sleep
  if (inject === undefined) return (ms) => sleep(ms, signal)
  if (signal === undefined) return inject
  return (ms) => untilAborted(inject(ms), signal)
}

/** `promise`, or the signal's reason as soon as it aborts (the listener removed either way). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error)
  let stop: (() => void) | undefined
  const stopped = new Promise<never>((_, reject) => {
    stop = () => reject(signal.reason as Error)
    signal.addEventListener('abort', stop, { once: true })
  })
  return Promise.race([promise, stopped]).finally(() => signal.removeEventListener('abort', stop as () => void))
}

export async function withRetry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const base = options.baseDelayMs ?? 500
  const cap = options.maxDelayMs ?? 10_000
  const wait = waiter(options)
  const random = options.random ?? Math.random
  const now = options.now ?? Date.now
  const started = now()
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt)
    } catch (error) {
      const verdict = attempt < options.attempts ? options.retryable(error) : false
      if (verdict === false) throw error
      const backoff = Math.round(random() * Math.min(cap, base * 2 ** (attempt - 1)))
      const delay = typeof verdict === 'object' ? Math.max(verdict.afterMs, backoff) : backoff
      if (options.maxTotalMs !== undefined && now() - started + delay > options.maxTotalMs) throw error
      const end = options.until?.()
      if (end !== undefined && now() + delay >= end) throw error
      options.onRetry?.(error, attempt, delay)
      await wait(delay)
    }
  }
}

/** How a service's operations are retried: everything of RetryOptions but the per-operation parts. */
export type RetryPolicy = Omit<RetryOptions, 'onRetry'>

/** The line logged before another attempt; by default "<operation>: attempt N failed (...); retrying in X s". */
export type RetryNotice = (error: unknown, attempt: number, delayMs: number) => { level: 'info' | 'warning'; message: string }

export interface Retrier {
  /**
   * Runs one user-visible operation with the policy's attempts. An operation that runs inside
   * another one (a listing that an upload makes to find its stored copy, a token renewal before a
   * call) gets one attempt: its failure fails the outer attempt, so the attempts never multiply and
   * the operation the user sees makes at most `policy.attempts` in total.
   */
  retrying<T>(operation: string, fn: (attempt: number) => Promise<T>, notice?: RetryNotice): Promise<T>
}

/**
 * Which retrier's operation the current call runs inside. One storage for the whole process: each
 * AsyncLocalStorage instance stays live and adds work to every promise made afterwards (Node 20), so
 * one per retrier made a long-lived process (the simulation's thousands of runs) slower with each.
 */
const running = new AsyncLocalStorage<Retrier>()

export function createRetrier(policy: RetryPolicy, log: (level: 'info' | 'warning', message: string) => void): Retrier {
  const retrier: Retrier = {
    retrying(operation, fn, notice) {
      if (running.getStore() === retrier) return fn(1)
      const line: RetryNotice =
        notice ??
        ((error, attempt, delay) => ({
          level: 'info',
          message: `${operation}: attempt ${attempt} failed (${describeError(error)}); retrying in ${formatDelay(delay)}`
        }))
      return running.run(retrier, () =>
        withRetry(fn, {
          ...policy,
          onRetry: (error, attempt, delay) => {
            const { level, message } = line(error, attempt, delay)
            // An error's detail may echo a secret back (an identity provider's error page quoting the request): the
            // final error is scrubbed where it is reported, each retry's line here.
            log(level, redact(message))
          }
        })
      )
    }
  }
  return retrier
}

export interface PollOptions {
  timeoutMs: number
  /** The end, read afresh before each pause (Date.now() based): a deadline that moves (see deploy/observe.ts Deadline). Overrides timeoutMs. */
  until?: (() => number) | undefined
  /** First pause between two looks; each next one is half as long again, up to maxIntervalMs. */
  intervalMs: number
  maxIntervalMs: number
  sleep?: ((ms: number) => Promise<void>) | undefined
  now?: (() => number) | undefined
  /** Ends a pause at once (rejecting with its reason): the watchdog, a cancel. */
  signal?: AbortSignal | undefined
}

/** The pace of looking again until something is done (a deploy applied, a site healthy), within a time limit. */
export class Poll {
  private readonly now: () => number
  private readonly wait: (ms: number) => Promise<void>
  private interval: number
  readonly started: number

  constructor(private readonly options: PollOptions) {
    this.now = options.now ?? Date.now
    this.wait = waiter(options)
    this.interval = options.intervalMs
    this.started = this.now()
  }

  /** Milliseconds since the first look. */
  elapsed(): number {
    return this.now() - this.started
  }

  /** Pauses before the next look; false (at once) when the time is up. */
  async next(): Promise<boolean> {
    const left = (this.options.until?.() ?? this.started + this.options.timeoutMs) - this.now()
    if (left <= 0) return false
    await this.wait(Math.min(this.interval, left))
    this.interval = Math.min(this.options.maxIntervalMs, Math.round(this.interval * 1.5))
    return true
  }
}
