// Freeze windows (deploy-freeze, docs/release-rules.md): when deploying is refused. Pure: the time is always passed
// in, so the deploy step, the status report and the simulation's fake clock ask the same questions.
//
// A line is one window, in one of two forms:
// - GitLab's deploy-freeze fields, '<start cron>; <end cron>; <IANA time zone>' (five-field crons, read by croner):
//   in force from an occurrence of the start cron until the next occurrence of the end cron after it; in force at
//   the start instant, no longer at the end instant.
// - a dated range, '<YYYY-MM-DDTHH:MM> .. <YYYY-MM-DDTHH:MM> <IANA time zone>' (wall times in that zone): in force
//   from the start (inclusive) to the end (exclusive).
// Daylight saving: a wall time that does not exist (the clock set forward over it) means the first instant after
// the gap; one that exists twice (the clock set back) means the first of the two. A cron whose minute or hour has
// a '*' or a step ('*/15') names every clock minute it matches instead, as cron does: none in the gap, both passes
// of a repeated hour.
import { readFreezeLine, type FreezePlan, type FreezeWindow } from './freeze-lines.js'
import { formatInZone } from './zoned-time.js'

export { formatInZone }
export type { FreezeWindow }

export interface FreezeInForce {
  readonly window: FreezeWindow
  readonly since: Date
  readonly endsAt: Date
}

export interface FreezeAhead {
  readonly window: FreezeWindow
  readonly startsAt: Date
  readonly endsAt: Date
}

/** One occurrence of a window: [start, end). */
interface Span {
  readonly window: FreezeWindow
  readonly start: number
  readonly end: number
}

const plans = new WeakMap<FreezeWindow, FreezePlan>()

/** A window's crons or instants; a window built by hand (a test's literal) is read again from its line. */
function planOf(window: FreezeWindow): FreezePlan {
  let plan = plans.get(window)
  if (!plan) {
    plan = readFreezeLine(window.line, window.lineNumber, 'deploy-freeze').plan
    plans.set(window, plan)
  }
  return plan
}

/** Every window of deploy-freeze (blank lines and lines starting with # ignored); throws InputError (src/errors.ts) naming the line, what is wrong and how to write it. */
export function parseFreezeWindows(text: string, input = 'deploy-freeze'): FreezeWindow[] {
  const windows: FreezeWindow[] = []
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim()
    if (line === '' || line.startsWith('#')) return
    const { window, plan } = readFreezeLine(line, index + 1, input)
    plans.set(window, plan)
    windows.push(window)
  })
  return windows
}

/** The occurrence of a window in force at `at` (ms), if any. */
function spanAt(window: FreezeWindow, at: number): Span | undefined {
  const plan = planOf(window)
  if (plan.kind === 'dated') return plan.start <= at && at < plan.end ? { window, start: plan.start, end: plan.end } : undefined
  const start = lastAtOrBefore(plan.start, at)
  if (start === undefined) return undefined
  const end = plan.end.nextRun(new Date(start))?.getTime()
  if (end === undefined || at >= end) return undefined
  return { window, start: firstStartOfRun(plan, start), end }
}

type CronOf = Extract<FreezePlan, { kind: 'cron' }>['start']

/** The latest occurrence at or before `at` (croner's previousRuns is strictly before its reference). */
function lastAtOrBefore(cron: CronOf, at: number): number | undefined {
  return cron.previousRuns(1, new Date(at + 1))[0]?.getTime()
}

/** The first instant at or after `at` (croner's nextRun is strictly after its reference). */
function firstAtOrAfter(cron: CronOf, at: number): number | undefined {
  return cron.nextRun(new Date(at - 1))?.getTime()
}

/** When a cron window in force since `start` began: the first start after the end before it (starts in between extend it). */
function firstStartOfRun(plan: Extract<FreezePlan, { kind: 'cron' }>, start: number): number {
  const endBefore = lastAtOrBefore(plan.end, start)
  return endBefore === undefined ? start : (firstAtOrAfter(plan.start, endBefore) ?? start)
}

/** How many windows that overlap or touch are followed to the real end; a longer chain is cut there. */
const MAX_CHAIN = 1000

/** The end of `end` once windows in force at it (overlapping or touching) are followed. */
function chainedEnd(windows: readonly FreezeWindow[], end: number): number {
  for (let link = 0; link < MAX_CHAIN; link++) {
    const next = latestEnding(windows.map((window) => spanAt(window, end)))
    if (!next) break
    end = next.end
  }
  return end
}

function latestEnding(spans: readonly (Span | undefined)[]): Span | undefined {
  let best: Span | undefined
  for (const span of spans) if (span && (!best || span.end > best.end)) best = span
  return best
}

/**
 * The window in force at `at` (several: the one that ends last, so a refusal names when deploying is possible
 * again; chain windows that overlap or touch so the end is the real one), or undefined. `since` is when that
 * window's occurrence began; `endsAt` is the end of the chain (after at most 1000 links).
 */
export function freezeAt(windows: readonly FreezeWindow[], at: Date): FreezeInForce | undefined {
  const span = latestEnding(windows.map((window) => spanAt(window, at.getTime())))
  if (!span) return undefined
  return { window: span.window, since: new Date(span.start), endsAt: new Date(chainedEnd(windows, span.end)) }
}

/** A window's next occurrence that begins after `at` (one in force at `at` begins again only after it ends). */
function nextSpan(window: FreezeWindow, at: number): Span | undefined {
  const plan = planOf(window)
  if (plan.kind === 'dated') return plan.start > at ? { window, start: plan.start, end: plan.end } : undefined
  const current = spanAt(window, at)
  const start = current ? firstAtOrAfter(plan.start, current.end) : plan.start.nextRun(new Date(at))?.getTime()
  if (start === undefined) return undefined
  const end = plan.end.nextRun(new Date(start))?.getTime()
  return end === undefined ? undefined : { window, start, end }
}

/**
 * The next window that begins after `at` and within `withinMs` (its start at most `withinMs` after `at`), or
 * undefined. Of two that begin together, the one that ends last; `endsAt` follows windows that overlap or touch.
 */
export function freezeAhead(windows: readonly FreezeWindow[], at: Date, withinMs: number): FreezeAhead | undefined {
  let best: Span | undefined
  for (const window of windows) {
    const span = nextSpan(window, at.getTime())
    if (!span || span.start - at.getTime() > withinMs) continue
    if (!best || span.start < best.start || (span.start === best.start && span.end > best.end)) best = span
  }
  if (!best) return undefined
  return { window: best.window, startsAt: new Date(best.start), endsAt: new Date(chainedEnd(windows, best.end)) }
}

/** Words for a user: the line as written, and the instant in the window's zone and in UTC, e.g. "'0 18 * * 5; 0 7 * * 1; Europe/Amsterdam' (line 1) until Mon 30 Nov 2026 07:00 Europe/Amsterdam (06:00 UTC)". */
export function describeUntil(hit: FreezeInForce): string {
  return `'${hit.window.line}' (line ${hit.window.lineNumber}) until ${formatInZone(hit.endsAt, hit.window.timeZone)}`
}
