// A cancel of the status report (Ctrl-C, a cancelled workflow: SIGINT; or SIGTERM): every call in flight is aborted,
// then each stack's refresh token is revoked through a closing door of its own (read-stack.ts), within the limits
// the deploy's run() keeps for its closing calls (src/main.ts: GitHub sends SIGTERM 7.5 s after SIGINT, the kill 2.5 s
// later; SIGTERM alone leaves 2.5 s). A second signal ends the wait at once. Both faces use it; each ends the process.
import { ActionError } from '../errors.js'
import type { RunHost } from '../main.js'

export type StatusStop = 'cancel' | 'terminate'

/** Each closing call's limit (a revocation), by how the report was stopped. */
const CLOSE_LIMIT_MS: { readonly [s in StatusStop]: number } = { cancel: 2_500, terminate: 800 }
/** The wait for every stack to close, in all. */
const CLOSE_TOTAL_MS: { readonly [s in StatusStop]: number } = { cancel: 5_000, terminate: 1_600 }
/**
 * The trace's time after a stop (./trace.ts), as the deploy's sends get (src/main.ts): after SIGINT what is left of
 * GitHub's 7.5 s grace once the stacks closed, at most 1.5 s; after SIGTERM none (the kill follows 2.5 s later).
 */
export const TRACE_AFTER_STOP_MS: { readonly [s in StatusStop]: number } = { cancel: 1_500, terminate: 0 }

/**
 * The report was stopped by a signal; `revoked`: every stack closed in time (its refresh token revoked, or a warning
 * said why not); `hurried`: a second signal ended the wait (nothing more is sent, not even the trace).
 */
export class StatusCancelled extends ActionError {
  override name = 'StatusCancelled'
  constructor(
    readonly stop: StatusStop,
    signal: string,
    readonly revoked: boolean,
    readonly hurried = false
  ) {
    super(
      `The status report was cancelled (${signal}): nothing was reported. ` +
        (revoked
          ? "Each stack's refresh token was revoked, or a warning says why not."
          : 'Not every stack closed in time: a refresh token not revoked expires by itself within 24 hours.')
    )
  }
}

/** What the report's reading needs of a stop: the signal that aborts its calls, and the closing calls' limit once it fired. */
export interface StopControl {
  readonly signal: AbortSignal
  closeLimitMs(): number
}

/**
 * Runs `work` with a stop that SIGINT or SIGTERM on `signals` fires; resolves with its result, or, after a stop,
 * waits for it to close (bounded by the stop's limits, ended by a second signal) and throws StatusCancelled.
 */
export async function stoppable<T>(signals: RunHost['signals'], work: (stop: StopControl) => Promise<T>): Promise<T> {
  const stop = new AbortController()
  let stopped: { stop: StatusStop; signal: string } | undefined
  // The first signal resolves `stopping` with how the report was stopped; a second one, `hurried`.
  let onStopped: (how: { stop: StatusStop; signal: string }) => void = () => undefined
  const stopping = new Promise<{ stop: StatusStop; signal: string }>((done) => (onStopped = done))
  let onHurry: () => void = () => undefined
  const hurried = new Promise<'hurried'>((done) => (onHurry = () => done('hurried')))
  const onSignal = (signal: string): void => {
    if (stopped !== undefined) return onHurry()
    stopped = { stop: signal === 'SIGTERM' ? 'terminate' : 'cancel', signal }
    onStopped(stopped)
    stop.abort(new Error(`cancelled (${signal})`))
  }
  signals.on('SIGINT', onSignal)
  signals.on('SIGTERM', onSignal)
  const timers: NodeJS.Timeout[] = []
  const after = (ms: number): Promise<'late'> => new Promise((done) => timers.push(setTimeout(() => done('late'), ms)))
  try {
    const running = work({ signal: stop.signal, closeLimitMs: () => CLOSE_LIMIT_MS[stopped?.stop ?? 'cancel'] })
    const first = await Promise.race([running.then((value) => ({ value, how: undefined })), stopping.then((how) => ({ how }))])
    if (first.how === undefined) return first.value
    const how = first.how
    // The calls were aborted: each stack now revokes its refresh token on its closing door.
    const closed = await Promise.race([
      running.then(
        () => 'closed' as const,
        () => 'closed' as const
      ),
      after(CLOSE_TOTAL_MS[how.stop]),
      hurried
    ])
    throw new StatusCancelled(how.stop, how.signal, closed === 'closed', closed === 'hurried')
  } finally {
    for (const timer of timers) clearTimeout(timer)
    signals.off('SIGINT', onSignal)
    signals.off('SIGTERM', onSignal)
  }
}
