// The release rules in the simulated world (docs/release-rules.md): what a schedule draws of them (./rules-world.ts
// turns that into inputs and the world they act in). Freeze windows are dated ranges written in a zone with daylight saving, placed
// in the fake clock's time: in force at the start (some ending during the run), beginning while the run waits for an
// environment another job keeps busy, later, or past; the same in GitLab's cron form (daily or weekly crons computed from
// the zone's wall time at drawn minutes of the run), drawn after the rest; now and then a malformed line. The soak clock of a promotion is
// GitHub Deployment statuses of the upstream environment at drawn times (verified, reset by a later failure there,
// closed by a failure of ours, or none). The newest backup of the target environment is fresh, old, absent, or its
// listing fails. override-reason is sometimes set. ./rules-claims.ts reads every claim against this world.
import fc from 'fast-check'
import type { Actor, Schedule } from './world.js'

/** A window in minutes of the fake clock from the run's start, [from, to). */
export interface FreezeDraw {
  readonly from: number
  readonly to: number
}

/** A soak clock in the upstream environment (OTHER_ENV), in minutes before the run's start. */
export interface SoakDraw {
  readonly minutes: number
  /** none: no success of ours drawn; verified: a success `since` ago; reset: then another's Deployment failed there (a rollback to ours) `reset` ago; failed: ours failed there `reset` ago. */
  readonly clock: 'none' | 'verified' | 'reset' | 'failed'
  readonly since: number
  readonly reset: number
}

export interface BackupDraw {
  readonly hours: number
  /** The target environment's newest backup: younger than the hours, older, none listed (the other environment's only), or the listing fails. */
  readonly age: 'fresh' | 'old' | 'none' | 'failing'
  /** With 'fresh': an older one too (the newest counts). */
  readonly older: boolean
}

/**
 * A cron window (GitLab's form, `M H * * D; M H * * D; <zone>`), one occurrence from `from` to `to` minutes of the run's
 * start, as the zone's wall time reads them: daily crons (every day, `*`: shorter than a day), or weekly ones (each names
 * its weekday). No change of daylight saving falls within weeks of the fake clock's start (2026-11-24) in the zones drawn,
 * so every occurrence is a whole number of days or weeks from the drawn one.
 */
export interface CronDraw {
  readonly from: number
  readonly to: number
  readonly weekly: boolean
}

export interface RulesSchedule {
  readonly zone: 'Europe/Amsterdam' | 'America/New_York' | 'Australia/Sydney'
  readonly freeze: readonly FreezeDraw[]
  /** A malformed line after the windows: refused as bad input before any request. */
  readonly malformed: 'none' | 'text' | 'zone' | 'reversed'
  /** Seconds of another job's deploy to our environment, begun right after the run's first look: a wait a window may begin in. */
  readonly busySeconds: number | undefined
  /** Applies to a promotion with github-token only (require-verified-in needs both). */
  readonly soak: SoakDraw | undefined
  readonly backup: BackupDraw | undefined
  readonly override: boolean
  /** Windows in the cron form, after the dated ones (absent in schedules written before it: none). */
  readonly cron?: readonly CronDraw[] | undefined
}

export const OVERRIDE_REASON = 'hotfix for INC-4711, approved by the release manager'

/** The run's start on the fake clock (./run.ts freshStart). */
export const RUN_START = Date.parse('2026-11-24T08:00:00Z')

const freezeDraw: fc.Arbitrary<FreezeDraw> = fc.oneof(
  // In force at the start, ending during the run (or long after).
  fc.record({ from: fc.constantFrom(-30, -120, -1440), to: fc.constantFrom(1, 2, 3, 5, 180) }),
  // Beginning during a wait for a busy environment (or later).
  fc.record({ from: fc.constantFrom(1, 1, 2, 3), to: fc.constantFrom(30, 240) }).map(({ from, to }) => ({ from, to: from + to })),
  // Ahead of the run (announced within the hour), or past.
  fc.record({ from: fc.constantFrom(30, 90, 600), to: fc.constantFrom(60, 120) }).map(({ from, to }) => ({ from, to: from + to })),
  fc.constant({ from: -300, to: -60 })
)

const cronDraw: fc.Arbitrary<CronDraw> = fc.oneof(
  // In force at the start, ending during the run (or long after).
  fc.record({ from: fc.constantFrom(-30, -120, -600), to: fc.constantFrom(1, 2, 3, 5, 180), weekly: fc.boolean() }),
  // Beginning during a wait for a busy environment (or later).
  fc.record({ from: fc.constantFrom(1, 2, 3), to: fc.constantFrom(30, 240), weekly: fc.boolean() }).map((w) => ({ ...w, to: w.from + w.to })),
  // Ahead of the run, or past (a daily one is then ahead 19 hours on).
  fc.record({ from: fc.constantFrom(30, 90, 600), to: fc.constantFrom(60, 120), weekly: fc.boolean() }).map((w) => ({ ...w, to: w.from + w.to })),
  fc.constant({ from: -300, to: -60, weekly: false }),
  // A weekend's kind: begun days ago, ending during the run or a day on.
  fc.record({ from: fc.constantFrom(-2880, -4320), to: fc.constantFrom(2, 1440), weekly: fc.constant(true) })
)

const rulesDrawn = fc.record({
  zone: fc.constantFrom('Europe/Amsterdam' as const, 'America/New_York' as const, 'Australia/Sydney' as const),
  freeze: fc.oneof({ weight: 1, arbitrary: fc.constant([]) }, { weight: 3, arbitrary: fc.array(freezeDraw, { minLength: 1, maxLength: 3 }) }),
  malformed: fc.constantFrom(
    'none' as const,
    'none' as const,
    'none' as const,
    'none' as const,
    'none' as const,
    'none' as const,
    'text' as const,
    'zone' as const,
    'reversed' as const
  ),
  busySeconds: fc.constantFrom(undefined, 90, 150, 240),
  soak: fc.option(
    fc.record({
      minutes: fc.constantFrom(10, 60, 240),
      clock: fc.constantFrom('none' as const, 'verified' as const, 'verified' as const, 'reset' as const, 'failed' as const),
      since: fc.constantFrom(3, 30, 90, 300, 1000),
      reset: fc.constantFrom(2, 20, 45, 120)
    }),
    { nil: undefined, freq: 2 }
  ),
  backup: fc.option(
    fc.record({
      hours: fc.constantFrom(6, 24, 72),
      age: fc.constantFrom('fresh' as const, 'fresh' as const, 'old' as const, 'none' as const, 'failing' as const),
      older: fc.boolean()
    }),
    { nil: undefined, freq: 2 }
  ),
  override: fc.constantFrom(false, false, true),
  // Drawn after the rest, so every other field is what the same seed drew before they existed.
  cron: fc.oneof({ weight: 2, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(cronDraw, { minLength: 1, maxLength: 2 }) }),
  // A malformed line is kept in one draw of six (about 2% of all schedules): one refusal of bad input, not a twelfth of the runs.
  keepMalformed: fc.integer({ min: 0, max: 5 })
})

export const rulesSchedules: fc.Arbitrary<RulesSchedule> = rulesDrawn.map(({ keepMalformed, ...r }) => ({
  ...r,
  malformed: keepMalformed === 0 ? r.malformed : 'none'
}))

/** A wall time of `zone` at `ms`, as deploy-freeze writes it: YYYY-MM-DDTHH:MM. */
export function wallTime(ms: number, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit'
  }).formatToParts(new Date(ms))
  const v = (type: string): string => parts.find((p) => p.type === type)?.value ?? '??'
  return `${v('year')}-${v('month')}-${v('day')}T${v('hour')}:${v('minute')}`
}

/** The line of a drawn window. */
export function freezeLine(w: FreezeDraw, zone: string): string {
  return `${wallTime(RUN_START + w.from * 60_000, zone)} .. ${wallTime(RUN_START + w.to * 60_000, zone)} ${zone}`
}

/** The cron fields of the wall time `minutes` after the run's start: `M H * * *`, or `M H * * D` with its weekday. */
function cronAt(minutes: number, weekly: boolean, zone: string): string {
  const [date = '', time = ''] = wallTime(RUN_START + minutes * 60_000, zone).split('T')
  const [hour, minute] = time.split(':').map(Number)
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay()
  return `${minute ?? '?'} ${hour ?? '?'} * * ${weekly ? weekday : '*'}`
}

/** The line of a drawn cron window. */
export function cronLine(w: CronDraw, zone: string): string {
  return `${cronAt(w.from, w.weekly, zone)}; ${cronAt(w.to, w.weekly, zone)}; ${zone}`
}

/** Whether a schedule draws any window, of either form. */
export function anyWindow(r: RulesSchedule | undefined): boolean {
  return r !== undefined && (r.freeze.length > 0 || (r.cron ?? []).length > 0)
}

/** deploy-freeze as the schedule writes it: a comment, one line per window (dated, then cron), the malformed one last. */
export function freezeText(r: RulesSchedule): string {
  const lines = [...r.freeze.map((w) => freezeLine(w, r.zone)), ...(r.cron ?? []).map((w) => cronLine(w, r.zone))]
  const start = wallTime(RUN_START + 60 * 60_000, r.zone)
  if (r.malformed === 'text') lines.push(`${start} .. next monday ${r.zone}`)
  if (r.malformed === 'zone') lines.push(`${start} .. ${wallTime(RUN_START + 120 * 60_000, r.zone)} Europe/Atlantis`)
  if (r.malformed === 'reversed') lines.push(`${start} .. ${wallTime(RUN_START - 60 * 60_000, r.zone)} ${r.zone}`)
  return lines.length === 0 ? '' : ['# release freezes', ...lines].join('\n')
}

/** The actor that keeps our environment busy: another job's deploy of theirs, right after the run's first look. */
export function busyActor(s: Schedule): Actor | undefined {
  const seconds = s.rules?.busySeconds
  if (seconds === undefined || !anyWindow(s.rules)) return undefined
  return { trigger: { after: 'list-environments', nth: 0, delay: 0 }, kind: 'deploy', which: 1, other: false, seconds }
}
