// One retry helper: exponential backoff with full jitter, bounded attempts and total time.
export interface RetryOptions {
  attempts: number
  baseDelayMs?: number
  maxDelayMs?: number
  /** Stop retrying when the next wait would pass this much total time. */
  maxTotalMs?: number
  /** Decides whether an error is worth another attempt; may return a delay the server asked for. */
  retryable: (error: unknown) => boolean | { afterMs: number }
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void
  sleep?: (ms: number) => Promise<void>
  random?: () => number
  now?: () => number
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

export async function withRetry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const base = options.baseDelayMs ?? 500
  const cap = options.maxDelayMs ?? 10_000
  const wait = options.sleep ?? sleep
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
      options.onRetry?.(error, attempt, delay)
      await wait(delay)
    }
  }
}
