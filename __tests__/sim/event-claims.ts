// The invariants of the deploy events (issue 32, docs/events.md): every claim an event makes, read against the
// platform's history, the outputs and the recorder of the sinks' host (./transport.ts), never the code's beliefs.
// The outcome is decided before any sink hears of it and never mentions them; a sink that fails costs one warning;
// every CDEvent is well-formed and tells only what happened, when it had happened; the sends keep their time limits,
// and a stop's: none from the post step, none after SIGTERM alone, a cancel's within its grace.
import { expect } from '@jest/globals'
import { collector } from './collector.js'
import { shown } from './mocks.js'
import { OTHERS, identicalBuild, releaseIdWindow, rollbackSeenBy, runnerMs, same, sameMarkerBuild, servingAt, type Facts } from './claims.js'
import { SINK_NAMES, eventsTimeoutMs, sinkSecrets } from './sinks.js'
import { wire, type SinkRequest } from './transport.js'
import type { EventsSchedule, SinkKey } from './world.js'
import { QUERY_SECRET, SEARCH_KEY, requestedSeq } from './world.js'

/** The CDEvents types docs/events.md allows, by the moment each tells (written out here, not read from the code). */
const TYPES: { readonly [type: string]: string } = {
  'dev.cdevents.service.deployed.0.3.0': 'deployed',
  'dev.cdevents.service.upgraded.0.3.0': 'upgraded',
  'dev.cdevents.service.published.0.3.0': 'published',
  'dev.cdevents.service.rolledback.0.3.0': 'rolledback',
  'dev.cdeventsx.brcloud-release.refused.0.1.0': 'refused',
  'dev.cdeventsx.brcloud-release.unconfirmed.0.1.0': 'unconfirmed',
  'dev.cdeventsx.brcloud-release.cancelled.0.1.0': 'cancelled',
  'dev.cdeventsx.brcloud-release.failed.0.1.0': 'failed'
}
const ENDINGS = new Set(['refused', 'unconfirmed', 'cancelled', 'failed'])

/** At most this many requests per run, by sink (Sentry: the deploy, the release it creates on a 404, the deploy again). */
const MOST_REQUESTS: { readonly [key in SinkKey]: number } = {
  cdevents: 4,
  slack: 1,
  teams: 1,
  datadog: 2,
  sentry: 3,
  grafana: 1,
  honeycomb: 1,
  'new-relic': 2
}

/** One CDEvent as the recorder got it. */
export interface SeenEvent {
  readonly kind: string
  /** ce-time, on the runner's clock. */
  readonly at: number
  readonly request: SinkRequest
}

/** The CDEvents the host received, in order (well-formedness is checked by checkEvents). */
export function cdeventsOf(requests: readonly SinkRequest[]): SeenEvent[] {
  return requests
    .filter((r) => r.key === 'cdevents')
    .map((request) => ({ kind: TYPES[request.headers['ce-type'] ?? ''] ?? 'unknown', at: Date.parse(request.headers['ce-time'] ?? ''), request }))
}

/** Whether the request got a 2xx answer. */
function answered2xx(r: SinkRequest): boolean {
  return r.outcome === 'answered' && r.status !== undefined && r.status >= 200 && r.status <= 299
}

export function checkEvents(f: Facts): void {
  const ev = f.s.events
  const requests = wire.sinkRequests
  if (ev === undefined) {
    expect({ sinkRequests: requests.length }).toEqual({ sinkRequests: 0 })
    return
  }
  checkSendTimes(f, ev, requests)
  checkSinkWords(f, ev, requests)
  checkCDEvents(f, ev, requests)
  checkNativeSinks(f, ev, requests)
}

/**
 * When the sends happen: from the main step only, after its outcome was decided, each let go within
 * events-timeout-seconds of the first (they run in parallel); never after SIGTERM; after a cancel within 1.5 s,
 * and all of them before GitHub's SIGTERM (7.5 s after SIGINT). A send is pending at the end only after a kill.
 */
function checkSendTimes(f: Facts, ev: EventsSchedule, requests: readonly SinkRequest[]): void {
  expect({ sinkRequestsNotByMain: requests.filter((r) => r.by !== 'main').map((r) => `${r.by} ${r.key}`) }).toEqual({ sinkRequestsNotByMain: [] })
  expect({ sentBeforeTheOutcome: requests.filter((r) => r.seq <= shown.decided).map((r) => r.key) }).toEqual({ sentBeforeTheOutcome: [] })
  if (requests.length === 0) return
  const first = Math.min(...requests.map((r) => r.at))
  const limit = eventsTimeoutMs(ev)
  const late = (by: number): string[] => requests.filter((r) => (r.settledAt ?? Infinity) > by).map((r) => `${r.key}#${r.index} ${r.outcome ?? 'pending'}`)
  // A kill without a signal (the runner lost) may leave sends pending: the process is gone.
  const killedAlone = f.ending.killed && f.ending.firstSignal === undefined
  if (!killedAlone) expect({ pastEventsTimeout: late(first + limit) }).toEqual({ pastEventsTimeout: [] })
  // The trace is sent beside them, within its own limit (./trace-claims.ts): the main step ends by the later of the two.
  const trace = collector.sends[0]
  const sendsEnd = Math.max(first + limit, trace === undefined ? 0 : trace.at + trace.limitMs)
  if (f.ending.finished) expect({ mainStepEndedAfterItsSends: f.ending.startedAt + f.ending.endedAt <= sendsEnd }).toEqual({ mainStepEndedAfterItsSends: true })
  const signalAt = f.ending.signalAt === undefined ? undefined : f.ending.startedAt + f.ending.signalAt
  if (signalAt === undefined) return
  const sigterm = f.ending.firstSignal === 'SIGTERM' ? signalAt : signalAt + 7_500
  // By the wire's order when SIGTERM came: a send begun before it in the same millisecond is not one after it.
  const termSeq = f.ending.sigtermSeq
  const afterSigterm = (r: SinkRequest): boolean => (termSeq === undefined ? r.at >= sigterm : r.seq > termSeq)
  expect({ sentAfterSIGTERM: requests.filter(afterSigterm).map((r) => `${r.key} seq ${r.seq} (SIGTERM at ${termSeq})`) }).toEqual({ sentAfterSIGTERM: [] })
  expect({ pendingAtSIGTERM: late(sigterm) }).toEqual({ pendingAtSIGTERM: [] })
  // A cancel that stopped the run (the signal before the report): the sinks get 1.5 s; one during the sends ends them at once.
  if (first >= signalAt && /^The run was cancelled \(SIGINT\)/.test(f.failed))
    expect({ pastTheCancelsGrace: late(first + 1_500) }).toEqual({ pastTheCancelsGrace: [] })
  if (first < signalAt) expect({ pendingAfterTheSignal: late(signalAt) }).toEqual({ pendingAfterTheSignal: [] })
}

/**
 * What the step says of the sinks: nothing in its outcome (the failure, the summary); for each sink that sent, one
 * line: told when its last request was answered 2xx, otherwise exactly one warning that names the service and no address.
 */
function checkSinkWords(f: Facts, ev: EventsSchedule, requests: readonly SinkRequest[]): void {
  const services = /Events:|CDEvents|Slack|Microsoft Teams|Datadog|Sentry|Grafana|Honeycomb|New Relic|events\.sim/
  expect({ failureNamesASink: services.exec(f.failed)?.[0] }).toEqual({ failureNamesASink: undefined })
  expect({ summaryNamesASink: services.exec(shown.summary)?.[0] }).toEqual({ summaryNamesASink: undefined })
  const lines = shown.lines.filter((l) => l.by === 'main').map((l) => l.text)
  expect({ eventLinesWithAnAddress: lines.filter((l) => /Events:/.test(l) && /events\.sim|https?:\/\//.test(l)) }).toEqual({ eventLinesWithAnAddress: [] })
  // A time limit is named as it applied: events-timeout-seconds only when it was that long (a cancel leaves 1.5 s).
  const limits = lines.flatMap((l) => /^::warning::Events: .* no answer within ([\d.]+) s \(([^)]+)\)/.exec(l)?.slice(1) ?? [])
  for (let i = 0; i < limits.length; i += 2) {
    const [seconds, named] = [Number(limits[i]), limits[i + 1]]
    const applied = named === 'events-timeout-seconds' ? eventsTimeoutMs(ev) / 1000 : 1.5
    expect({ limitNamed: named, seconds }).toEqual({ limitNamed: named, seconds: applied })
  }
  // A step killed during its sends shows nothing more: what it said is not all it would have said.
  if (!f.ending.finished) return
  for (const { key } of ev.sinks) {
    const name = SINK_NAMES[key]
    const mine = requests.filter((r) => r.key === key)
    const warnings = lines.filter((l) => l.startsWith(`::warning::Events: ${name} was not told`)).length
    const told = lines.filter((l) => l === `Events: ${name} told.`).length
    const last = mine.at(-1)
    if (last === undefined) {
      // Nothing sent: never "told" (a stop before its first call may warn once).
      expect({ sink: name, sentNothing: true, told, warnings: warnings <= 1 }).toEqual({ sink: name, sentNothing: true, told: 0, warnings: true })
      continue
    }
    const ok = answered2xx(last)
    expect({ sink: name, last: `${last.outcome ?? 'pending'} ${last.status ?? ''}`, warnings, told }).toEqual({
      sink: name,
      last: `${last.outcome ?? 'pending'} ${last.status ?? ''}`,
      warnings: ok ? 0 : 1,
      told: ok ? 1 : 0
    })
  }
}

/** Each CDEvent well-formed, and only of what was observed, when it had been observed; the ending agrees with the outputs. */
function checkCDEvents(f: Facts, ev: EventsSchedule, requests: readonly SinkRequest[]): void {
  const events = cdeventsOf(requests)
  const ids = new Set<string>()
  const chains = new Set<string>()
  for (const { request: r, kind, at } of events) {
    const body = JSON.parse(r.body) as { context?: Record<string, unknown> }
    const c = body.context ?? {}
    const h = r.headers
    expect({
      method: r.method,
      specversion: h['ce-specversion'],
      contentType: h['content-type'],
      kind: kind !== 'unknown',
      idRepeated: ids.has(h['ce-id'] ?? ''),
      sameId: c.id === h['ce-id'],
      sameType: c.type === h['ce-type'],
      sameTime: c.timestamp === h['ce-time'],
      cdeventsVersion: c.specversion,
      authorization: h.authorization
    }).toEqual({
      method: 'POST',
      specversion: '1.0',
      contentType: 'application/json',
      kind: true,
      idRepeated: false,
      sameId: true,
      sameType: true,
      sameTime: true,
      cdeventsVersion: '0.5.1',
      authorization: ev.token ? 'Bearer cdevents-token-6a9f31' : undefined
    })
    ids.add(h['ce-id'] ?? '')
    chains.add(String(c.chainId))
    // Observed before it was sent, during the run.
    expect({ kind, observedBeforeSent: at <= r.at, afterTheStart: at >= f.ending.startedAt }).toEqual({ kind, observedBeforeSent: true, afterTheStart: true })
  }
  expect({ chainIds: chains.size }).toEqual({ chainIds: Math.min(1, events.length) })
  const kinds = events.map((e) => e.kind)
  expect({ inOrderSeen: events.every((e, i) => i === 0 || (events[i - 1]?.at ?? 0) <= e.at) }).toEqual({ inOrderSeen: true })
  checkMoments(f, events)
  checkEnding(f, events, kinds)
  // Every event the run had was sent when CDEvents said it was told: the verified release and the rollback seen are in it.
  const told = shown.lines.some((l) => l.by === 'main' && l.text === 'Events: CDEvents told.')
  if (told && shown.state.get('reported') === 'true') {
    const { outputs } = shown
    if (outputs['release-state'] === 'verified') expect({ verifiedButNotPublished: kinds.includes('published') }).toEqual({ verifiedButNotPublished: true })
    if (outputs['rolled-back'] === 'true') expect({ rolledBackButNotSent: kinds.includes('rolledback') }).toEqual({ rolledBackButNotSent: true })
    if (f.failed !== '') expect({ failedWithEndings: kinds.filter((k) => ENDINGS.has(k)).length }).toEqual({ failedWithEndings: 1 })
  }
}

/**
 * Ours applied (by this run, or by another deploy of the same distribution a lost answer cannot tell from it) at or before
 * `t`; or the window of the id alone (./claims.ts), where every answer the run got showed the switch.
 */
export function oursAppliedBy(f: Facts, t: number): boolean {
  return (
    f.history.some((d) => d.by !== 'earlier' && same(d.distributionId, f.ours) && d.appliedAt !== null && runnerMs(d.appliedAt, f.s) <= t) ||
    releaseIdWindow(f, t)
  )
}

/**
 * Ours applied by `t`, or what no run can tell from it served then: another copy of our very build (its site is ours),
 * or another run's build of our commit seen by the marker they share (fresh seed 331355206).
 */
function oursSeenBy(f: Facts, t: number): boolean {
  const serving = servingAt(f, t, markerAnswerSeq())
  return oursAppliedBy(f, t) || identicalBuild(f, serving) || sameMarkerBuild(f, serving)
}

/**
 * The site's answer that showed the release's marker (the run's last site call before it said so): a restart of the
 * platform after it, in the same millisecond, forgot what served, not what that answer showed (fresh seed 206013076).
 */
function markerAnswerSeq(): number | undefined {
  const said = shown.lines.find((l) => l.by === 'main' && /^Release applied: .* answers with '.*', the new release's marker/.test(l.text))
  if (said === undefined) return undefined
  return wire.calls.filter((c) => c.path.startsWith('/sites/') && c.seq <= said.seq).at(-1)?.seq
}

/**
 * The environment switched back after our rollback request, at or before `t`: the claim rolled-back: true makes too
 * (./claims.ts). Not "our own rollback deployment applied": another deploy of that same distribution landing first (it
 * abandons ours) shows the same deploy going on and the same id settled, so no run can tell it from ours (fresh seed
 * 184457937, with a status field).
 */
export function rollbackAppliedBy(f: Facts, t: number): boolean {
  return rollbackSeenBy(f, t)
}

/** The moments: a switch seen only once ours was applied (deployed only into an environment that ran nothing), a rollback seen only once applied, published only when verified. */
function checkMoments(f: Facts, events: readonly SeenEvent[]): void {
  const first = wire.deploys.find((d) => same(d.distributionId, f.ours))
  const look = first === undefined ? undefined : wire.looks.filter((l) => l.seq < first.seq).at(-1)
  for (const { kind, at } of events) {
    if (kind === 'deployed' || kind === 'upgraded') {
      // (Or another copy of our very build served then: its site is ours, which no marker tells apart; or another run's
      // build of our commit, seen by the marker they share: fresh seed 331355206.)
      expect({ kind, oursApplied: oursSeenBy(f, at) }).toEqual({ kind, oursApplied: true })
      expect({ switchSeenTwice: events.filter((e) => e.kind === 'deployed' || e.kind === 'upgraded').length }).toEqual({ switchSeenTwice: 1 })
    }
    // "deployed": the environment ran nothing when the run looked before its deploy call (the history at that look).
    if (kind === 'deployed' && look !== undefined) {
      // Only others' deploys ran before ours (this run's own came after that look, even in the same millisecond), and only
      // those the history holds before this run's first request: one requested after it came after the look too, even in
      // the same millisecond (fresh seed 1991172746: no latency, a deploy of 0 s right after the health check).
      // And none requested once the look's call had reached the platform, which made its answer then: a deploy of the
      // same millisecond is ordered by the wire (fresh seed 1082731477: another job's deploy of 0 s right after that look).
      const cut = f.history.findIndex((d) => !OTHERS.has(d.by))
      const before = cut < 0 ? f.history : f.history.slice(0, cut)
      const seqs = f.log.environment === undefined ? undefined : requestedSeq.get(f.stack.state)?.get(f.log.environment.id)
      const afterTheLook = (index: number): boolean => (seqs?.get(index) ?? Number.NEGATIVE_INFINITY) >= look.seq
      const others = { ...f, history: before.map((d, i) => (OTHERS.has(d.by) && !afterTheLook(i) ? d : { ...d, appliedAt: null })) }
      const ran = [servingAt(others, look.sentAt), servingAt(others, look.at)]
      // The one reading docs/events.md names: with no status field, another job's deploy in progress hides the id (the
      // platform shows no distribution), and nothing the run can see tells that from an empty environment.
      const hiddenBySwitch =
        !f.s.status &&
        f.history.some(
          (d) =>
            OTHERS.has(d.by) &&
            d.by !== 'earlier' &&
            runnerMs(d.requestedAt, f.s) <= look.at &&
            (d.appliedAt === null || runnerMs(d.appliedAt, f.s) > look.sentAt)
        )
      if (!hiddenBySwitch) expect({ kind, ranBefore: ran.includes(undefined) ? 'nothing' : ran[1] }).toEqual({ kind, ranBefore: 'nothing' })
    }
    // Something was requested before our request that was carried out: by the history's order (a first call of ours the
    // platform refused, a 401 or a 409, is no request; fresh seed 1909369343: another job deployed between that refusal
    // and our call that landed). What ran at the start ('earlier') was requested before the run, whatever its record's clock says.
    if (kind === 'upgraded' && first !== undefined) {
      const ownFirst = f.history.findIndex((d) => !OTHERS.has(d.by))
      const before = ownFirst < 0 ? f.history.filter((d) => runnerMs(d.requestedAt, f.s) <= first.at) : f.history.slice(0, ownFirst)
      expect({ kind, somethingRequestedBefore: f.history.some((d) => d.by === 'earlier') || before.length > 0 }).toEqual({
        kind,
        somethingRequestedBefore: true
      })
    }
    if (kind === 'rolledback') expect({ kind, ourRollbackApplied: rollbackAppliedBy(f, at) }).toEqual({ kind, ourRollbackApplied: true })
    if (kind === 'published') expect({ kind, releaseState: shown.outputs['release-state'] }).toEqual({ kind, releaseState: 'verified' })
  }
}

/** The ending: none for a green step, one and last for a failed one, of the kind the outcome says. */
function checkEnding(f: Facts, events: readonly SeenEvent[], kinds: readonly string[]): void {
  const endings = events.filter((e) => ENDINGS.has(e.kind))
  expect({ endings: endings.length <= 1, last: endings.length === 0 || ENDINGS.has(kinds.at(-1) ?? '') }).toEqual({ endings: true, last: true })
  const end = endings[0]
  if (end === undefined) return
  const { kind } = end
  const { outputs } = shown
  expect({ greenStepSentAnEnding: kind, failed: f.failed !== '' }).toEqual({ greenStepSentAnEnding: kind, failed: true })
  const stop = /^The run was cancelled \(SIG|did not finish within total-timeout-minutes/.test(f.failed)
  expect({ ending: kind, stopped: stop }).toEqual({ ending: kind, stopped: kind === 'cancelled' })
  // Refused: no deploy of ours carried out (a call the platform refused, 409, carried out nothing), no switch seen.
  if (kind === 'refused')
    expect({ ending: kind, oursCarriedOut: f.release.length, switchSeen: kinds.some((k) => k === 'deployed' || k === 'upgraded') }).toEqual({
      ending: kind,
      oursCarriedOut: 0,
      switchSeen: false
    })
  if (kind === 'unconfirmed')
    expect({ ending: kind, callReachedThePlatform: f.sentOurs + f.sentRollback > 0 }).toEqual({ ending: kind, callReachedThePlatform: true })
  if (kind === 'failed')
    expect({ ending: kind, deployed: outputs.deployed === 'unknown', rolledBack: outputs['rolled-back'] === 'unknown' }).toEqual({
      ending: kind,
      deployed: false,
      rolledBack: false
    })
  // At the run's end: after every other moment, before the main step ended.
  const endedBy = f.ending.finished ? f.ending.startedAt + f.ending.endedAt : Infinity
  expect({ ending: kind, afterTheMoments: events.every((e) => e.at <= end.at), beforeTheEnd: end.at <= endedBy }).toEqual({
    ending: kind,
    afterTheMoments: true,
    beforeTheEnd: true
  })
}

/**
 * A time in nanoseconds, as a body's text holds it, in whole milliseconds: read from the digits, never through a JS
 * number (one past 2^53 is not exact: 1795507201258000000 reads back as ...257.9998 ms; fresh seed 616176534).
 */
function msOfNanoseconds(body: string, field: string): number {
  const digits = new RegExp(`"${field}":(\\d+)`).exec(body)?.[1]
  return digits === undefined ? Number.NaN : Number(BigInt(digits) / 1_000_000n)
}

/** The native sinks: at most their calls per run, no secret in a body, and their times of what was observed. */
function checkNativeSinks(f: Facts, ev: EventsSchedule, requests: readonly SinkRequest[]): void {
  const secrets = [...sinkSecrets(ev), f.stack.state.settings.password, QUERY_SECRET, SEARCH_KEY, ...shown.masked.filter((m) => m.length >= 8)]
  for (const { key } of ev.sinks) {
    const mine = requests.filter((r) => r.key === key)
    expect({ sink: key, requests: mine.length <= MOST_REQUESTS[key] }).toEqual({ sink: key, requests: true })
    for (const r of mine) expect({ sink: key, secretInBody: secrets.find((x) => r.body.includes(x)) }).toEqual({ sink: key, secretInBody: undefined })
  }
  // Datadog's deployment finished when the switch was seen: ours applied by then; its rollback's, our rollback applied by then.
  for (const r of requests.filter((x) => x.key === 'datadog')) {
    const a = (JSON.parse(r.body) as { data: { attributes: { id: string } } }).data.attributes
    const finished = msOfNanoseconds(r.body, 'finished_at')
    const rollback = a.id.endsWith(':rollback')
    expect({
      datadog: a.id,
      applied: rollback ? rollbackAppliedBy(f, finished) : oursSeenBy(f, finished),
      startedFirst: msOfNanoseconds(r.body, 'started_at') <= finished
    }).toEqual({
      datadog: a.id,
      applied: true,
      startedFirst: true
    })
  }
  // Grafana's range: from the run's start to a moment seen before it was sent.
  for (const r of requests.filter((x) => x.key === 'grafana')) {
    const a = JSON.parse(r.body) as { time: number; timeEnd: number }
    expect({ grafana: a.time >= f.ending.startedAt && a.time <= a.timeEnd && a.timeEnd <= r.at }).toEqual({ grafana: true })
  }
}
