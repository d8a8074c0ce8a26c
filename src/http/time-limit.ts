// A call's own time limit, joined with the run's stop, as one AbortSignal. It runs on the global clock
// (setTimeout), which a simulation's fake clock drives; AbortSignal.timeout runs on Node's internal
// timers, which no fake clock reaches, so a hang in a simulated run would last real seconds.

export interface TimeLimit {
  /** Aborted when the limit passes (reason: a TimeoutError) or when `stop` aborts (its reason). */
  readonly signal: AbortSignal
  /** Whether the limit itself passed (rather than the run's stop). */
  readonly expired: () => boolean
  /** Ends the limit's timer: call it once the call is done. */
  clear(): void
}

export function timeLimit(ms: number, stop?: AbortSignal): TimeLimit {
  const controller = new AbortController()
  let expired = false
  const timer = setTimeout(
    () => {
      expired = true
      controller.abort(new DOMException(`no answer within ${Math.round(ms / 1000)} s`, 'TimeoutError'))
    },
    Math.max(0, ms)
  )
  timer.unref?.()
  const onStop = (): void => controller.abort(stop?.reason)
  if (stop?.aborted) onStop()
  else stop?.addEventListener('abort', onStop, { once: true })
  return {
    signal: controller.signal,
    expired: () => expired,
    clear: () => {
      clearTimeout(timer)
      stop?.removeEventListener('abort', onStop)
    }
  }
}
