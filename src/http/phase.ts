// The end of the phase a call is made in: no call's time limit outruns it (a 12 s health budget must not take
// minutes because one call may take 60 s), and no retry begins after it. Read afresh, so a deadline that moves
// (see deploy/observe.ts Deadline) is followed. One storage for the process: each AsyncLocalStorage instance adds
// work to every promise made afterwards (see http/retry.ts).
import { AsyncLocalStorage } from 'node:async_hooks'

const phaseEnd = new AsyncLocalStorage<{ readonly at: number }>()

/** A call made at a phase's very end still gets this long: it is the look that says where things stand. */
export const MIN_CALL_MS = 1_000

/** Runs `work` as a phase that ends at `deadline` (Date.now() based): every call made in it is limited to what is left of it. */
export function withinPhase<T>(deadline: { readonly at: number }, work: () => Promise<T>): Promise<T> {
  return phaseEnd.run(deadline, work)
}

/** When the current phase ends (Date.now() based), or undefined outside one. */
export function phaseEndsAt(): number | undefined {
  return phaseEnd.getStore()?.at
}

/** A call's limit: `limitMs`, shortened to what is left of the phase it is made in (at least MIN_CALL_MS). */
export function phaseLimit(limitMs: number): number
export function phaseLimit(limitMs: number | undefined): number | undefined
export function phaseLimit(limitMs: number | undefined): number | undefined {
  const end = phaseEndsAt()
  if (end === undefined) return limitMs
  const left = Math.max(MIN_CALL_MS, end - Date.now())
  return limitMs === undefined ? left : Math.min(limitMs, left)
}
