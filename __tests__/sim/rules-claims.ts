// The release rules' invariants (docs/release-rules.md), read against the world a schedule drew (./rules.ts): the
// windows in the fake clock's time, the statuses GitHub held, the stack's backups; never against what the run believed.
// - No rule is bypassed without override-reason: a deploy request of ours went out only when no window was in force at
//   that moment, the soak clock GitHub showed at the check had run long enough, and the newest backup was young enough.
// - Nothing changes on a refusal: refused before any change, nothing was uploaded, deleted, deployed or recorded on
//   GitHub; refused at the request (a window that began during a wait), no deploy request went out.
// - A refusal names its rule and when it ends or allows; the step is red, its headline says nothing was deployed, and
//   the command's exit code is 10. The world justifies it: the window was in force, the clock short, the backup old.
// - override-reason, once set, refuses nothing and is recorded: the GitHub Deployment's payload and description, the summary.
// - The summary claims only the backups seen: its headline and Backup row say none is listed only when a listing was
//   answered without one, and say the backups could not be listed when the listing failed (the stack's 503s).
import { expect } from '@jest/globals'
import { DEFAULT_CREATOR } from '../../src/emulator/github/model.js'
import type { Facts } from './claims.js'
import { same } from './claims.js'
import type { CliRecord } from './cli-run.js'
import { github } from './github.js'
import { shown } from './mocks.js'
import { BASE } from './run.js'
import { OVERRIDE_REASON, RUN_START, cronLine, freezeLine, wallTime, type RulesSchedule } from './rules.js'
import { soakApplies } from './rules-world.js'
import { wire } from './transport.js'
import { OTHER_ENV } from './world.js'

const MINUTE = 60_000

/** Which rule a run's claims say refused it, and when (for a freeze); undefined: none did. */
export interface RuleRefusal {
  readonly rule: 'freeze' | 'soak' | 'backup'
  /** A freeze: found before any change, or right before the deploy request. */
  readonly at?: 'start' | 'request' | undefined
  /** The fake time of the failure's line. */
  readonly when: number
}

/** The refusal the run's failure names (a rule's own words, at the start or in the release's failure). */
export function ruleRefusalOf(failed: string): RuleRefusal['rule'] | undefined {
  if (/Refused: '[^']+' is in a deploy freeze|a deploy freeze of '[^']+' began while this run waited/.test(failed)) return 'freeze'
  if (/Refused: the soak gate/.test(failed)) return 'soak'
  if (/Refused: require-backup-hours/.test(failed)) return 'backup'
  return undefined
}

function refusalOf(): RuleRefusal | undefined {
  const failed = shown.failed ?? ''
  const rule = ruleRefusalOf(failed)
  if (rule === undefined) return undefined
  const line = shown.lines.find((l) => l.by === 'main' && l.text.startsWith('::error::') && ruleRefusalOf(l.text) !== undefined)
  const at = rule !== 'freeze' ? undefined : /began while this run waited/.test(failed) ? ('request' as const) : ('start' as const)
  return { rule, at, when: line?.at ?? RUN_START }
}

/** A drawn window: its line, and its occurrences [start, end) around the run (a dated one has one). */
export interface Window {
  readonly line: string
  readonly cron: boolean
  readonly spans: ReadonlyArray<{ readonly start: number; readonly end: number }>
}

const DAY = 24 * 60 * MINUTE

/**
 * The windows a schedule drew, by the words: a dated range from its start to its end; a cron window from each
 * occurrence of its start cron to the next of its end cron, every day or week from the drawn one (no daylight saving
 * change falls in these weeks: ./rules.ts), over days before and after the run.
 */
export function windowsOf(r: RulesSchedule): Window[] {
  const dated = r.freeze.map((w) => ({
    line: freezeLine(w, r.zone),
    cron: false,
    spans: [{ start: RUN_START + w.from * MINUTE, end: RUN_START + w.to * MINUTE }]
  }))
  const cron = (r.cron ?? []).map((w) => {
    const period = w.weekly ? 7 * DAY : DAY
    const spans = [-3, -2, -1, 0, 1, 2, 3].flatMap((k) => {
      const start = RUN_START + w.from * MINUTE + k * period
      return [{ start, end: start + (w.to - w.from) * MINUTE }]
    })
    return { line: cronLine(w, r.zone), cron: true, spans }
  })
  return [...dated, ...cron]
}

/** The occurrence of a window in force at `t`, if any. */
const spanAt = (w: Window, t: number): { start: number; end: number } | undefined => w.spans.find((x) => x.start <= t && t < x.end)

/** The windows in force at `t`. */
export function inForce(r: RulesSchedule, t: number): Window[] {
  return windowsOf(r).filter((w) => spanAt(w, t) !== undefined)
}

/** When deploying is possible again after `t`: the end of the windows in force, following the ones that overlap or touch. */
export function freezeEnd(r: RulesSchedule, t: number): number | undefined {
  const windows = windowsOf(r)
  let end: number | undefined
  for (let at = t; ;) {
    const ends = windows.flatMap((w) => spanAt(w, at)?.end ?? [])
    if (ends.length === 0) return end
    end = Math.max(...ends)
    at = end
  }
}

/** One status of a Deployment of the upstream environment, as GitHub held it. */
interface Status {
  readonly at: number
  readonly state: string
  readonly distributionId: string | undefined
  readonly previous: string | undefined
}

/** The upstream environment's statuses (of Deployments of this stack) GitHub held by `t`, oldest first. */
function upstreamStatuses(t: number): Status[] {
  const model = github.world?.core.model
  if (model === undefined) return []
  const out: Status[] = []
  for (const d of model.deployments) {
    const payload = d.payload as { distributionId?: string; previousDistributionId?: string; apiUrl?: string }
    if (d.environment !== OTHER_ENV || payload.apiUrl !== BASE) continue
    for (const st of model.statuses(d.id)) {
      const at = Date.parse(st.created_at)
      if (at <= t) out.push({ at, state: st.state, distributionId: payload.distributionId, previous: payload.previousDistributionId })
    }
  }
  return out.sort((a, b) => a.at - b.at)
}

/**
 * The soak gate by the words, over what GitHub held at `t`: ours verified (success) in the upstream environment
 * continuously for `minutes`, a later failure or error there restarting the clock (from that failure, when it rolled the
 * environment back to ours); a period that ended with another release landing in good order counts once complete.
 */
export function soakPassed(ours: string, minutes: number, t: number): { passed: boolean; since: number | undefined } {
  let since: number | undefined
  let completed = false
  for (const st of upstreamStatuses(t)) {
    const isOurs = same(st.distributionId, ours)
    if (st.state === 'success' && isOurs) since ??= st.at
    else if (st.state === 'success' && since !== undefined) {
      completed ||= st.at - since >= minutes * MINUTE
      since = undefined
    } else if ((st.state === 'failure' || st.state === 'error') && (since !== undefined || same(st.previous, ours)))
      since = !isOurs && same(st.previous, ours) ? st.at : undefined
  }
  return { passed: completed || (since !== undefined && t - since >= minutes * MINUTE), since }
}

/** The run's calls (its main step or its command), in order. */
const callsOfRun = (): typeof wire.calls => wire.calls.filter((c) => c.run === 0 && c.by !== 'post' && c.by !== 'world' && c.by !== 'status')

/** The newest backup of our environment, as the stack lists it. */
export function newestBackup(f: Facts): { id: string; createdAt: number } | undefined {
  // By the environment's id (kept when it is renamed or deleted: its backups stay listed).
  const id = f.log.environment?.id
  const ofEnv = f.stack.state.backups.filter((b) => b.environmentId === id).map((b) => ({ id: b.id, createdAt: Date.parse(b.createdAt) }))
  return ofEnv.sort((a, b) => b.createdAt - a.createdAt)[0]
}

/** No rule bypassed without override-reason: every deploy request of ours, read against the world at its checks. */
function checkNotBypassed(f: Facts, r: RulesSchedule): void {
  if (r.override) return
  const calls = callsOfRun()
  for (const d of wire.deploys.filter((x) => x.run === 0 && same(x.distributionId, f.ours))) {
    const before = calls.filter((c) => c.seq < d.seq)
    // The freeze is read right before the deploy call goes out, once its token is in hand (a renewal before it
    // included): the request's own time is the check's.
    const windows = inForce(r, d.at).map((w) => w.line)
    expect({ deployRequestAt: new Date(d.at).toISOString(), windowsInForce: windows }).toEqual({
      deployRequestAt: new Date(d.at).toISOString(),
      windowsInForce: []
    })
    if (soakApplies(f.s) && r.soak !== undefined && f.ours !== undefined) {
      // The check: the run's last read of a Deployment's statuses before the request (GitHub held what was created by then).
      const read = before.filter((c) => c.host === new URL('http://github.sim').host && /\/deployments\/\d+\/statuses$/.test(c.path)).at(-1)
      const verdict = read === undefined ? undefined : soakPassed(f.ours, r.soak.minutes, read.at)
      expect({ deployRequested: true, soakCheckedAt: read && new Date(read.at).toISOString(), soakPassed: verdict?.passed }).toEqual({
        deployRequested: true,
        soakCheckedAt: read && new Date(read.at).toISOString(),
        soakPassed: true
      })
    }
    if (r.backup !== undefined) {
      const listed = before.filter((c) => c.method === 'GET' && c.path === '/v3/backups').at(-1)
      const newest = newestBackup(f)
      const age = listed === undefined || newest === undefined ? undefined : (listed.at - newest.createdAt) / 3_600_000
      expect({
        deployRequested: true,
        backups: r.backup.age,
        listedAt: listed && new Date(listed.at).toISOString(),
        youngEnough: age !== undefined && age < r.backup.hours
      }).toEqual({
        deployRequested: true,
        backups: r.backup.age,
        listedAt: listed && new Date(listed.at).toISOString(),
        youngEnough: r.backup.age !== 'failing'
      })
    }
  }
}

/** The GitHub Deployments recorded by this action (the world's first run, or its second, which sets no override-reason). */
function actionDeployments(): Array<{ payload: Record<string, unknown>; description: string | null }> {
  const model = github.world?.core.model
  if (model === undefined) return []
  return model.deployments
    .filter((d) => d.creator === DEFAULT_CREATOR)
    .map((d) => ({ payload: d.payload as Record<string, unknown>, description: d.description }))
}

/** The run's requests that reached GitHub and asked it to record a Deployment. */
const deploymentRequests = (): typeof wire.calls => callsOfRun().filter((c) => c.method === 'POST' && /\/deployments$/.test(c.path))

/** A refusal by a rule: nothing changed, it says which rule and until when, and the world justifies it. */
function checkRefusal(f: Facts, r: RulesSchedule, refusal: RuleRefusal, cli: CliRecord | undefined): void {
  const failed = shown.failed ?? ''
  expect({ refusedBy: refusal.rule, overrideReason: r.override }).toEqual({ refusedBy: refusal.rule, overrideReason: false })
  const calls = callsOfRun()
  // Refused at the request: no deploy of ours carried out (a request the platform refused with a 409 before the wait
  // carried nothing out; one sent in a window is the bypass above).
  if (refusal.at === 'request')
    expect({ refusedAtTheRequest: true, oursCarriedOut: f.release.length }).toEqual({ refusedAtTheRequest: true, oursCarriedOut: 0 })
  else {
    const changes = calls.filter(
      (c) =>
        (c.method === 'POST' && c.path === '/v3/distributions') ||
        (c.method === 'DELETE' && c.path.startsWith('/v3/distributions/')) ||
        (c.method === 'PUT' && c.path.endsWith('/deploy')) ||
        (c.method === 'POST' && /\/deployments$/.test(c.path))
    )
    expect({ refusedBeforeAnyChange: refusal.rule, changes: changes.map((c) => `${c.method} ${c.path}`) }).toEqual({
      refusedBeforeAnyChange: refusal.rule,
      changes: []
    })
  }
  // The step is red, its headline and outputs say nothing was deployed; the command ends 10 (unless a stop came first).
  // (deployed is unset when no release began, as for the deploy order's refusal: never 'true' nor 'unknown'.)
  expect({ head: f.head, deployed: shown.outputs.deployed ?? 'unset' }).toEqual({
    head: expect.stringMatching(/^❌ Refused.*nothing was deployed/),
    deployed: expect.stringMatching(/^(false|unset)$/)
  })
  expect({ red: shown.failed !== undefined }).toEqual({ red: true })
  if (cli?.exitCode !== undefined && f.ending.firstSignal === undefined) expect({ exitCode: cli.exitCode, failed }).toEqual({ exitCode: 10, failed })
  if (refusal.rule === 'freeze') checkFreezeRefusal(r, refusal, failed, f.head)
  if (refusal.rule === 'soak') checkSoakRefusal(f, r, failed)
  if (refusal.rule === 'backup') checkBackupRefusal(f, r, failed)
}

/** An instant as a reader is told it: the day and wall time in the window's zone, and the time in UTC. */
export function spoken(ms: number, zone: string): string {
  const day = new Intl.DateTimeFormat('en-GB', { timeZone: zone, day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(ms))
  return `${day} ${wallTime(ms, zone).slice(11)} ${zone} (${new Date(ms).toISOString().slice(11, 16)} UTC)`
}

/** The window named was in force, and the refusal (its failure and the headline) says until when: the end of the windows that follow on. */
function checkFreezeRefusal(r: RulesSchedule, refusal: RuleRefusal, failed: string, head: string): void {
  const windows = inForce(r, refusal.when).map((w) => w.line)
  const named = windows.filter((line) => failed.includes(`'${line}'`))
  const end = freezeEnd(r, refusal.when)
  const until = end === undefined ? '(none in force)' : spoken(end, r.zone)
  expect({
    at: new Date(refusal.when).toISOString(),
    windowsInForce: windows.length > 0,
    named: named.length > 0,
    until,
    inFailure: failed.includes(until),
    inHeadline: head.includes(until)
  }).toEqual({
    at: new Date(refusal.when).toISOString(),
    windowsInForce: true,
    named: true,
    until,
    inFailure: true,
    inHeadline: true
  })
  expect(failed).toMatch(/override-reason/)
}

/** The clock was short (or GitHub could not be read), and the refusal says from when it would be allowed. */
function checkSoakRefusal(f: Facts, r: RulesSchedule, failed: string): void {
  if (/could not be read/.test(failed) || r.soak === undefined || f.ours === undefined) return
  const read = callsOfRun()
    .filter((c) => /\/deployments\/\d+\/statuses$/.test(c.path))
    .at(-1)
  const t = read?.at ?? RUN_START
  const verdict = soakPassed(f.ours, r.soak.minutes, t)
  expect({ soakPassedAtTheCheck: verdict.passed }).toEqual({ soakPassedAtTheCheck: false })
  if (verdict.since !== undefined) expect(failed).toContain(new Date(verdict.since + r.soak.minutes * MINUTE).toISOString())
  else expect(failed).toMatch(/deploy it there|verified/)
}

/** The newest backup was old (or none, or the listing failed), and the refusal names it and its age. */
function checkBackupRefusal(f: Facts, r: RulesSchedule, failed: string): void {
  if (r.backup === undefined) return
  // A listing that got no answer in time (the drawn latency over request-timeout-seconds) proves no backup either.
  const noAnswer = /could not be listed \((no answer within \d+ s|[^)]*ETIMEDOUT|[^)]*timed out)/.test(failed)
  if (noAnswer) return
  expect({ backups: r.backup.age }).toEqual({ backups: expect.stringMatching(/^(old|none|failing)$/) })
  const newest = newestBackup(f)
  if (r.backup.age === 'old') expect(failed).toMatch(new RegExp(`${newest?.id ?? '?'}, taken .* hours ago`))
  if (r.backup.age === 'none') expect(failed).toMatch(/lists no backup of/)
  if (r.backup.age === 'failing') expect(failed).toMatch(/could not be listed/)
}

/**
 * The headline and the Backup row claim only what a listing showed: when it failed (the run says it could not be listed,
 * or the stack answered every listing with a 503), never that none is listed, and "could not be listed" only then.
 */
function checkBackupWords(f: Facts, r: RulesSchedule): void {
  if (r.backup === undefined) return
  const said = [...shown.lines.map((l) => l.text), shown.failed ?? ''].join('\n')
  const row = /^\| Backup \| (.*) \|$/m.exec(shown.summary)?.[1]
  const failed = /the backups of '[^']+' could not be listed/.test(said) || r.backup.age === 'failing'
  const words = {
    listingFailed: failed,
    headSaysNone: /no backup of .* is listed/.test(f.head),
    rowSaysNone: row?.startsWith('none listed') ?? false,
    headSaysUnlisted: /the backups of .* could not be listed/.test(f.head),
    rowSaysUnlisted: row?.startsWith('could not be listed') ?? false
  }
  expect(words).toEqual({
    listingFailed: failed,
    headSaysNone: words.headSaysNone && !failed,
    rowSaysNone: words.rowSaysNone && !failed,
    headSaysUnlisted: words.headSaysUnlisted && failed,
    rowSaysUnlisted: row !== undefined && r.backup.age === 'failing' ? true : words.rowSaysUnlisted && failed
  })
}

/**
 * override-reason: recorded wherever the run got to record. Every Deployment that carries an override carries the
 * reason in its payload and its description; one the run asked for (and GitHub answered) carries it. (A second run of
 * the world records its own, without one.)
 */
function checkOverride(f: Facts): void {
  const withOverride = actionDeployments().filter((d) => d.payload.override !== undefined)
  for (const d of withOverride) {
    // The description holds 140 characters: the reason follows the name and target, whole or cut with an ellipsis.
    const shownReason = /; override: ([^;]*)/.exec(d.description ?? '')?.[1] ?? ''
    expect({
      payloadOverride: (d.payload.override as { reason?: string }).reason,
      reasonInDescription: shownReason === OVERRIDE_REASON || (shownReason.endsWith('…') && OVERRIDE_REASON.startsWith(shownReason.slice(0, -1)))
    }).toEqual({ payloadOverride: OVERRIDE_REASON, reasonInDescription: true })
  }
  const recorded = f.s.second === undefined ? actionDeployments().length : withOverride.length
  if (f.s.second === undefined) expect({ deploymentsWithTheReason: withOverride.length }).toEqual({ deploymentsWithTheReason: recorded })
  // A run that made a request got past its inputs: its summary, when written, carries the reason.
  if (shown.summary !== '' && callsOfRun().length > 0) expect(shown.summary).toContain(OVERRIDE_REASON)
  if (deploymentRequests().length > 0 && github.world?.schedule.token === 'ok' && f.s.github?.faults.length === 0)
    expect({ deploymentRequested: true, recordedWithTheReason: withOverride.length > 0 }).toEqual({ deploymentRequested: true, recordedWithTheReason: true })
}

/** A malformed window is bad input: refused before any request. */
function checkMalformed(): void {
  expect({ malformedWindow: true, calls: callsOfRun().map((c) => `${c.method} ${c.path}`), failed: shown.failed !== undefined }).toEqual({
    malformedWindow: true,
    calls: [],
    failed: true
  })
}

/** Every invariant of the release rules on the world's first run. */
export function checkRules(f: Facts, cli: CliRecord | undefined): void {
  const r = f.s.rules
  if (r === undefined) return
  if (r.malformed !== 'none') return checkMalformed()
  checkNotBypassed(f, r)
  const refusal = refusalOf()
  if (refusal !== undefined) checkRefusal(f, r, refusal, cli)
  checkBackupWords(f, r)
  if (r.override) checkOverride(f)
}

/** A freeze refused the run naming a window in the cron form that was in force. */
function cronRefused(f: Facts): boolean {
  const refusal = refusalOf()
  const r = f.s.rules
  if (refusal?.rule !== 'freeze' || r === undefined) return false
  return inForce(r, refusal.when).some((w) => w.cron && (shown.failed ?? '').includes(`'${w.line}'`))
}

/** Which of the rules' cases a run met (./coverage.ts). */
export const RULE_CASES: ReadonlyArray<readonly [string, (f: Facts) => boolean]> = [
  ['rules: a freeze in force at the start refused the run', () => refusalOf()?.at === 'start'],
  ['rules: a freeze that began during a wait refused the deploy request', () => refusalOf()?.at === 'request'],
  ['rules: a window in the cron form refused the run', (f) => cronRefused(f)],
  ['rules: the soak gate refused a clock a later failure reset', (f) => f.s.rules?.soak?.clock === 'reset' && refusalOf()?.rule === 'soak'],
  ['rules: the soak gate passed', (f) => soakApplies(f.s) && /Soak gate: .* verified|soak gate.*passed/i.test(f.text)],
  ['rules: no backup listed, refused', (f) => f.s.rules?.backup?.age === 'none' && refusalOf()?.rule === 'backup'],
  ['rules: the backups could not be listed, refused', (f) => f.s.rules?.backup?.age === 'failing' && refusalOf()?.rule === 'backup'],
  ['rules: override-reason overrode a rule', () => /override-reason overrides/.test(shown.lines.map((l) => l.text).join('\n'))],
  [
    'rules: a malformed deploy-freeze line refused as bad input',
    (f) => f.s.rules !== undefined && f.s.rules.malformed !== 'none' && /deploy-freeze/.test(shown.failed ?? '')
  ]
]
