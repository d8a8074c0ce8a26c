// The invariants of the run's trace (issue 45, docs/tracing.md): no span claims what the events, the outputs, the log
// and the platform's history do not. Read against the simulated collector's record (./collector.ts: the planned spans
// the run handed over, its limit, how the send ended), what the run showed, and the world; and against the run's
// untraced twin (the same world and schedule without tracing's input and variables): tracing never changes the outcome.
import { expect } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { environmentId } from '../../src/emulator/state.js'
import type { PlannedSpan } from '../../src/tracing/plan.js'
import { reported, same, secretsOf, type Facts } from './claims.js'
import type { CliRecord } from './cli-run.js'
import { collector, type TraceSend } from './collector.js'
import { cdeventsOf, rollbackAppliedBy } from './event-claims.js'
import { shown } from './mocks.js'
import { processRecord } from './process.js'
import type { Ending } from './run.js'
import { OTEL_ENDPOINT, OTLP_KEY, PARENT_SPAN_ID, PARENT_TRACE_ID, traceTimeoutMs, tracingOn, type TracingSchedule } from './tracing.js'
import { wire } from './transport.js'

/** The outputs action.yml declares (read from it, not from the code): each is a brcloud.<name> attribute when set. */
const OUTPUTS = Object.keys((parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as { outputs: object }).outputs)
/** Outputs docs/tracing.md keeps out of the attributes: the commits' list, the trace's own id. */
const NOT_ATTRIBUTES = new Set(['changes', 'trace-id'])
const ENDINGS = new Set(['refused', 'unconfirmed', 'cancelled', 'failed'])
/** A line of the log about tracing: its own ("Tracing: ..."), or a setting of it read (TRACEPARENT, OTEL_*, otel-endpoint). */
const TRACING_LINE = /Tracing:|TRACEPARENT|OTEL_|otel/

/** Every invariant of one run's trace. */
export function checkTrace(f: Facts, index: number, cli: CliRecord | undefined, untraced: UntracedView | undefined): void {
  const t = f.s.tracing
  const sends = collector.sends.filter((x) => x.run === index)
  const engine = processRecord(index)
  const said = mainLines().filter((l) => /^(::warning::)?Tracing:/.test(l))
  expect({ failureNamesTracing: /Tracing|otel\.sim/i.exec(f.failed)?.[0] }).toEqual({ failureNamesTracing: undefined })
  if (untraced !== undefined) checkUntraced(f, cli, untraced)
  if (!tracingOn(t)) {
    const off = { traceId: engine.outputs['trace-id'], sends: sends.length, summaryNamesATrace: /^Trace `/m.test(shown.summary), said }
    expect({ tracingOff: true, ...off }).toEqual({ tracingOff: true, traceId: undefined, sends: 0, summaryNamesATrace: false, said: [] })
    // grpc: one warning that says why tracing is off, at most (a run refused before its inputs were read has none).
    if (t !== undefined)
      expect({ grpcWarnings: mainLines().filter((l) => l.startsWith('::warning::OTEL_EXPORTER_OTLP_PROTOCOL is grpc')).length <= 1 }).toEqual({
        grpcWarnings: true
      })
    return
  }
  expect({ sendsOfOneRun: sends.length <= 1, byTheMainStep: sends.every((x) => x.by === 'main') }).toEqual({ sendsOfOneRun: true, byTheMainStep: true })
  const traceId = checkTraceId(index, t, sends, cli)
  const send = sends[0]
  checkSaid(f, said, send, traceId)
  if (send === undefined) return
  checkSettings(t, send, traceId)
  checkLimits(f, t, send)
  checkRoot(f, index, send.plan)
  checkSpans(f, index, send)
  const text = JSON.stringify(send.plan)
  expect({ secretInTheTrace: secretsOf(f).find((s) => text.includes(s)) }).toEqual({ secretInTheTrace: undefined })
}

function mainLines(): string[] {
  return shown.lines.filter((l) => l.by === 'main').map((l) => l.text)
}

/**
 * The trace-id output: the pipeline's trace when TRACEPARENT joined one, else a trace of the run's own (32 hex digits,
 * never all zeros); the summary names it; every span sent is of it. Set whenever the action reported.
 */
function checkTraceId(index: number, t: TracingSchedule, sends: readonly TraceSend[], cli: CliRecord | undefined): string | undefined {
  const engine = processRecord(index)
  const output = engine.outputs['trace-id']
  // The action's run() reads tracing even from inputs it refuses; a command may refuse its command line before run() (no trace).
  if (shown.summary !== '' && cli === undefined) expect({ traceIdOutput: output !== undefined }).toEqual({ traceIdOutput: true })
  for (const send of sends) expect({ sentTraceId: send.tracing.traceId }).toEqual({ sentTraceId: output })
  if (output === undefined) return undefined
  const joined = t.parent === 'sampled' || t.parent === 'unsampled'
  expect({ traceId: joined ? output : /^(?!0{32})[0-9a-f]{32}$/.test(output) && output !== PARENT_TRACE_ID }).toEqual({
    traceId: joined ? PARENT_TRACE_ID : true
  })
  // The summary names it (a killed step may have written none), and whether it joins the pipeline's trace.
  if (shown.summary !== '') {
    const line = shown.summary.split('\n').find((l) => l.startsWith(`Trace \`${output}\``))
    expect({ summaryNamesTheTrace: line !== undefined, joined: line?.includes("in the pipeline's trace (TRACEPARENT)") }).toEqual({
      summaryNamesTheTrace: true,
      joined
    })
  }
  return output
}

/**
 * What the log says of the trace, once and in one line: sent (an info line, never a warning), nothing sent (the
 * pipeline's trace not sampled), or exactly one warning that it was not sent, naming the collector and no secret.
 * Nothing when tracing is off; nothing more for a step killed before it could say it.
 */
function checkSaid(f: Facts, said: readonly string[], send: TraceSend | undefined, traceId: string | undefined): void {
  if (traceId === undefined || !f.ending.finished) {
    expect({ tracingLines: said.length <= 1 }).toEqual({ tracingLines: true })
    return
  }
  const origin = new URL(OTEL_ENDPOINT).origin
  const expected =
    send?.outcome === 'taken'
      ? `Tracing: trace ${traceId} (${countSpans(send.plan)} spans) sent to ${origin}.`
      : send?.outcome === 'not-sampled' || (send === undefined && f.s.tracing?.parent === 'unsampled')
        ? "Tracing: nothing sent: TRACEPARENT says the pipeline's trace is not sampled."
        : `::warning::Tracing: the trace was not sent to ${origin} (`
  expect({ outcome: send?.outcome ?? 'not sent', tracingLines: said.length, line: said[0]?.slice(0, expected.length) }).toEqual({
    outcome: send?.outcome ?? 'not sent',
    tracingLines: 1,
    line: expected
  })
  if (expected.startsWith('::warning::')) expect({ warningEnds: said[0]?.endsWith("). The deployment's outcome is unchanged.") }).toEqual({ warningEnds: true })
}

function countSpans(span: PlannedSpan): number {
  return 1 + span.children.reduce((n, c) => n + countSpans(c), 0)
}

/** The settings the run handed the edge: the schedule's, as docs/tracing.md reads them. */
function checkSettings(t: TracingSchedule, send: TraceSend, traceId: string | undefined): void {
  const joined = t.parent === 'sampled' || t.parent === 'unsampled'
  const { tracing } = send
  expect({
    url: tracing.url,
    protocol: tracing.protocol,
    headers: tracing.headers,
    timeoutMs: tracing.timeoutMs,
    parent: tracing.parent,
    traceId: tracing.traceId
  }).toEqual({
    url: `${OTEL_ENDPOINT}/v1/traces`,
    protocol: t.protocol === 'http/json' ? 'http/json' : 'http/protobuf',
    headers: t.headers ? { authorization: `Bearer ${OTLP_KEY}`, 'x-tenant': 'acme-tenant-17' } : {},
    timeoutMs: traceTimeoutMs(t),
    parent: joined ? { traceId: PARENT_TRACE_ID, spanId: PARENT_SPAN_ID, sampled: t.parent === 'sampled', traceState: 'sim=1' } : undefined,
    traceId
  })
}

/**
 * Bounded: the limit is the trace's own (OTEL_EXPORTER_OTLP_TIMEOUT), or 1.5 s after a cancel stopped the run; nothing
 * is sent after SIGTERM alone stopped it; the send ends within its limit, and at once when a signal hurries it (any
 * signal after the report, or the second one); the main step ends by then too.
 */
function checkLimits(f: Facts, t: TracingSchedule, send: TraceSend): void {
  const timeout = traceTimeoutMs(t)
  const cancelled = /^The run was cancelled \(SIGINT\)/.test(f.failed)
  const limitMs = cancelled ? Math.min(1_500, timeout) : timeout
  const limitName = cancelled && 1_500 < timeout ? 'what a cancel leaves the trace' : 'OTEL_EXPORTER_OTLP_TIMEOUT'
  expect({ limitMs: send.limitMs, limitName: send.limitName }).toEqual({ limitMs, limitName })
  expect({ sentAfterSIGTERMAlone: /^The run was cancelled \(SIGTERM\)/.test(f.failed) }).toEqual({ sentAfterSIGTERMAlone: false })
  const end = send.settledAt ?? Number.POSITIVE_INFINITY
  if (!f.ending.killed)
    expect({ pending: send.settledAt === undefined, withinItsLimit: end - send.at <= send.limitMs }).toEqual({ pending: false, withinItsLimit: true })
  for (const at of hurries(f.ending)) {
    // A SIGTERM that came first stopped the run before it sent (checked above); any other signal after the send began ends it then.
    if (at > send.at) expect({ pendingAfterASignal: end > at }).toEqual({ pendingAfterASignal: false })
  }
  if (send.outcome === 'hurried') expect({ hurriedBy: hurries(f.ending).includes(end) || send.hurriedBefore }).toEqual({ hurriedBy: true })
  if (f.ending.finished) {
    const ended = f.ending.startedAt + f.ending.endedAt
    // The sinks are told beside it, within their own limit (./event-claims.ts): the later of the two ends the step.
    const sinksEnd = Math.max(0, ...wire.sinkRequests.map((r) => r.settledAt ?? 0))
    expect({ mainStepEndedWithinTheLimit: ended <= Math.max(send.at + send.limitMs, sinksEnd) }).toEqual({ mainStepEndedWithinTheLimit: true })
    if (send.outcome === 'hurried') expect({ hurriedSendEndedTheStepAtOnce: ended }).toEqual({ hurriedSendEndedTheStepAtOnce: end })
  }
}

/** The moments a signal came that ends the sends at once once they began: every signal the world sent this run. */
function hurries(ending: Ending): number[] {
  const at: number[] = []
  if (ending.signalAt !== undefined) {
    const first = ending.startedAt + ending.signalAt
    at.push(first)
    if (ending.firstSignal === 'SIGINT') at.push(first + 7_500)
  }
  if (ending.afterReport !== undefined) {
    at.push(ending.afterReport.at)
    if (ending.afterReport.signal === 'SIGINT') at.push(ending.afterReport.at + 7_500)
  }
  return at
}

/**
 * The root span: error with the step's failure iff it failed; the task's result in the CICD conventions' words, from
 * the failure as the step wrote it; deployment.status from the events' outcome; every brcloud.<output> the output
 * exactly, and none for an output not set; brcloud.events the kinds the sinks were told, in order.
 */
function checkRoot(f: Facts, index: number, root: PlannedSpan): void {
  const failed = processRecord(index).failed
  const a = root.attributes
  const result =
    failed === undefined
      ? 'success'
      : /did not finish within total-timeout-minutes/.test(failed)
        ? 'timeout'
        : /^The run was cancelled \(SIG(INT|TERM)\)/.test(failed)
          ? 'cancellation'
          : 'failure'
  expect({ name: root.name, kind: root.kind, status: root.status, result: a['cicd.pipeline.task.run.result'] }).toEqual({
    name: 'brcloud deploy',
    kind: 'internal',
    status: failed === undefined ? { code: 'ok' } : { code: 'error', message: failed },
    result
  })
  if (a['deployment.status'] !== undefined)
    expect({ deploymentStatus: a['deployment.status'] }).toEqual({ deploymentStatus: failed === undefined ? 'succeeded' : 'failed' })
  const outputs = processRecord(index).outputs
  for (const name of OUTPUTS) {
    const attribute = a[`brcloud.${name.replace(/-/g, '_')}`]
    const value = NOT_ATTRIBUTES.has(name) ? undefined : outputs[name]
    expect({ output: name, attribute: attribute === undefined ? undefined : String(attribute) }).toEqual({ output: name, attribute: value })
  }
  const kinds = (a['brcloud.events'] as readonly string[] | undefined) ?? []
  // Told to CDEvents, in order (a retried delivery keeps its ce-id): the very list.
  if (mainLines().includes('Events: CDEvents told.')) {
    const ids = new Set<string>()
    const told = cdeventsOf(wire.sinkRequests).filter((e) => !ids.has(e.request.headers['ce-id'] ?? '') && ids.add(e.request.headers['ce-id'] ?? ''))
    expect({ brcloudEvents: kinds }).toEqual({ brcloudEvents: told.map((e) => e.kind) })
  }
  // Whatever the sinks: one ending, last, for a failed step (of a run the events speak of); none for a green one.
  const endings = kinds.filter((k) => ENDINGS.has(k))
  if (failed === undefined) expect({ greenStepWithAnEnding: endings }).toEqual({ greenStepWithAnEnding: [] })
  else if (a['deployment.status'] !== undefined) expect({ endings: endings.length, last: ENDINGS.has(kinds.at(-1) ?? '') }).toEqual({ endings: 1, last: true })
  if (kinds.includes('published'))
    expect({ published: shown.outputs['release-state'] ?? processRecord(index).outputs['release-state'] }).toEqual({ published: 'verified' })
  if (kinds.includes('rolledback')) expect({ rolledbackSeen: rollbackAppliedBy(f, Number.POSITIVE_INFINITY) }).toEqual({ rolledbackSeen: true })
}

/** Every span with its parent (the root's is undefined). */
function allSpans(root: PlannedSpan): Array<{ span: PlannedSpan; parent: PlannedSpan | undefined }> {
  const out: Array<{ span: PlannedSpan; parent: PlannedSpan | undefined }> = []
  const walk = (span: PlannedSpan, parent: PlannedSpan | undefined): void => {
    out.push({ span, parent })
    for (const c of span.children) walk(c, span)
  }
  walk(root, undefined)
  return out
}

/**
 * Spans claim only what was seen, when it was: each within its parent and the run, each event within its span; a
 * rollback's switch only once the platform switched back (and the events told it), its health only with the release
 * rollback-healthy; a health attempt as the log wrote it and as the site was called; a look as the platform answered it.
 */
function checkSpans(f: Facts, index: number, send: TraceSend): void {
  const root = send.plan
  const outOfTime: string[] = []
  for (const { span, parent } of allSpans(root)) {
    const name = `${span.name} [${span.start}..${span.end}]`
    if (span.start > span.end) outOfTime.push(`${name} ends before it starts`)
    if (parent !== undefined && (span.start < parent.start || span.end > parent.end))
      outOfTime.push(`${name} outside ${parent.name} [${parent.start}..${parent.end}]`)
    for (const e of span.events) if (e.at < span.start || e.at > span.end) outOfTime.push(`event ${e.name} at ${e.at} outside ${name}`)
  }
  if (root.start < f.ending.startedAt || root.end > send.at)
    outOfTime.push(`the root [${root.start}..${root.end}] outside the run [${f.ending.startedAt}..${send.at}]`)
  expect({ spansOutOfTime: outOfTime }).toEqual({ spansOutOfTime: [] })
  const spans = allSpans(root).map((x) => x.span)
  const kinds = (root.attributes['brcloud.events'] as readonly string[] | undefined) ?? []
  const state = processRecord(index).outputs['release-state']
  for (const span of spans) {
    if (span.name === 'rollback request') {
      const sent = wire.deploys.some((d) => !same(d.distributionId, f.ours) && d.at <= span.end)
      expect({ span: span.name, rollbackCallSent: sent }).toEqual({ span: span.name, rollbackCallSent: true })
    }
    if (span.name === 'rollback switch')
      expect({ span: span.name, switchedBack: rollbackAppliedBy(f, span.end), rolledbackTold: kinds.includes('rolledback') }).toEqual({
        span: span.name,
        switchedBack: true,
        rolledbackTold: true
      })
    if (span.name === 'rollback health')
      expect({ span: span.name, releaseState: state, afterTheSwitch: spans.some((s) => s.name === 'rollback switch') }).toEqual({
        span: span.name,
        releaseState: 'rollback-healthy',
        afterTheSwitch: true
      })
    if (span.kind === 'client') checkAttempt(span)
  }
  checkLooks(f, spans)
}

/** A health attempt's span: the log line that attempt wrote, at its end, saying the same; passed only with a 2xx the site was called for within it. */
function checkAttempt(span: PlannedSpan): void {
  const url = String(span.attributes['url.full'])
  const what = String(span.attributes['brcloud.health.result'])
  const logged = shown.lines.some((l) => l.by === 'main' && l.at === span.end && l.text.startsWith('Health check ') && l.text.includes(`: ${url}: ${what} in `))
  const passed = span.status.code === 'unset'
  const called = wire.calls.some((c) => c.path.startsWith('/sites/') && c.at >= span.start && c.at <= span.end)
  expect({
    attempt: `${url}: ${what}`,
    name: span.name,
    logged,
    passed,
    sitePassed: /^HTTP 2\d\d(, contains '|$)/.test(what),
    called: called || !passed
  }).toEqual({
    attempt: `${url}: ${what}`,
    name: 'GET',
    logged: true,
    passed,
    sitePassed: passed,
    called: true
  })
}

/** Each look event: an answer of the platform to this run at that very moment, naming that distribution and status. */
function checkLooks(f: Facts, spans: readonly PlannedSpan[]): void {
  const envId = f.log.environment?.id
  const unseen: string[] = []
  for (const span of spans)
    for (const e of span.events) {
      if (e.name !== 'look') continue
      const id = String(e.attributes['brcloud.look.distribution_id'] ?? '')
      const status = e.attributes['brcloud.look.status']
      const seen = wire.looks.some((l) => {
        if (l.at !== e.at) return false
        const r = reported(l.answer, envId)
        const sameId = id === '' ? r.id === null || r.id === undefined : typeof r.id === 'string' && same(r.id, id)
        return sameId && r.status === status
      })
      if (!seen) unseen.push(`${id || '(none)'} ${String(status)} at ${e.at}`)
    }
  expect({ looksThePlatformNeverAnswered: unseen }).toEqual({ looksThePlatformNeverAnswered: [] })
}

/** What the untraced twin of a run showed (./trace-claims.ts untracedView), for the traced run to show the same. */
export interface UntracedView {
  /** Its outcome: the outputs (but trace-id), the failure, the summary (but the trace's line), when it was decided. */
  readonly outcome: readonly string[]
  /** How it ended: its exit code, then every request its sinks got. */
  readonly exit: string
  readonly sinks: readonly string[]
  /** The main step's lines (tracing's own set aside), each with when it came (fake ms from the run's start). */
  readonly lines: ReadonlyArray<{ readonly at: number; readonly text: string }>
  /** Whether the main step ended by itself (a kill may land during a traced run's longer sends, after its outcome). */
  readonly finished: boolean
  /** When the main step ended, or was killed (fake ms from the run's start). */
  readonly endedAt: number
}

/**
 * The lines of the closing work that may outlive a run, said once it ends. First, a login its last look began, given
 * up at the look's limit, whose refresh token is revoked when that login ends (src/cloud/session.ts login(); the
 * look's lines before it are bounded by the closing calls' wait, src/deploy/index.ts closingCalls()): the run warns
 * that the login was still under way. Second, after a stop, the run's own revocation: the closing calls get the stop's
 * time in all (src/main.ts CLOSE_TOTAL_MS), and a revocation begun after a slow look may still be within its own
 * limit when that time ends: the run reports, and the command warns that its closing calls had not ended. Either way
 * the process may end before that revocation does: the command exits the moment the run ends. A traced run lives on
 * after that for its trace's send (beside the sinks, within a limit that can be longer), so its process may see that
 * revocation end and say how: its failure (the session's warning for a late login, closingCalls()' for the run's
 * own), or, through a token endpoint, its success or that nothing could be revoked (src/cloud/login/oauth.ts
 * revokeAt()). Said after the report, they change no outcome.
 */
const LATE_REVOCATION = [
  /^::warning::Could not revoke the refresh token of a login that ended after this run's revocation \(.*\); it expires by itself within 24 hours\.$/,
  /^::warning::Could not revoke this run's refresh token \(.*\); it expires by itself within 24 hours\.$/,
  /^Revoked this run's refresh token at \S+\.$/,
  /^Token: nothing revoked: revoking a refresh token needs the client it was issued to \(client-id\), and none is set; it expires by itself\.$/
]

/**
 * What a run showed that tracing must not change, in a form two runs of one world compare in. Random upload ids are
 * named by order, the search's request id set aside; so is the run's budget (total-timeout-minutes, the watchdog's
 * limit, a token's lifetime checked against it), which counts the trace's export limit.
 */
export function untracedView(ending: Ending, cli: CliRecord | undefined): UntracedView {
  const fixed = /^(0[0-9a-f])\1{3}-/
  const stable = new Set(['production', 'development', 'production-renamed'].map((name) => environmentId(name)))
  const ids = new Map<string, string>()
  // The search service's request id is random too.
  const requestId = shown.outputs['search-request-id']
  const normal = (text: string): string =>
    (requestId ? text.split(requestId).join('<search request id>') : text)
      .replace(/total-timeout-minutes \((?:[^()]|\([^()]*\))*\)/g, 'total-timeout-minutes (…)')
      .replace(/the run's budgets end \([\d.]+ min, total-timeout-minutes\)/g, "the run's budgets end (…)")
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, (id) => {
        const key = id.toLowerCase()
        if (fixed.test(key) || stable.has(key)) return id
        if (!ids.has(key)) ids.set(key, `<upload ${ids.size + 1}>`)
        return ids.get(key) ?? id
      })
  const outcome = [
    `decided at ${String(processRecord(0).decidedAt)}`,
    '--- outputs',
    ...Object.entries(shown.outputs)
      .filter(([name]) => name !== 'trace-id')
      .map(([name, value]) => `${name}=${String(value)}`),
    '--- failed',
    shown.failed ?? '',
    '--- summary',
    shown.summary.replace(/\n\nTrace `[0-9a-f]{32}`[^\n]*/, '')
  ].map(normal)
  const lines = shown.lines.filter((l) => l.by === 'main' && !TRACING_LINE.test(l.text)).map((l) => ({ at: l.at - ending.startedAt, text: normal(l.text) }))
  const sinks = wire.sinkRequests
    .filter((r) => r.run === 0)
    .map((r) => `${r.key}#${r.index} ${r.headers['ce-type'] ?? ''} at ${r.at} -> ${r.outcome ?? 'pending'} ${String(r.status)} at ${String(r.settledAt)}`)
  return {
    outcome,
    exit: `exit ${String(cli?.exitCode ?? ending.exitCode)}`,
    sinks: sinks.map(normal),
    lines,
    finished: ending.finished,
    endedAt: ending.endedAt
  }
}

/**
 * Tracing never changes the outcome: the traced run shows what its untraced twin showed, and how it ended too when
 * both ended alike: the exit code, the requests to the sinks, every line of the main step; a traced run that lived
 * longer may add, from the moment its twin ended, the lines of a revocation still in flight then alone (LATE_REVOCATION).
 */
function checkUntraced(f: Facts, cli: CliRecord | undefined, untraced: UntracedView): void {
  const traced = untracedView(f.ending, cli)
  expect({ outcome: traced.outcome }).toEqual({ outcome: untraced.outcome })
  if (traced.finished !== untraced.finished) return
  const twinGone = traced.endedAt > untraced.endedAt ? untraced.endedAt : Number.POSITIVE_INFINITY
  const ending = (v: UntracedView): string[] => [
    v.exit,
    ...v.lines.filter((l) => !(l.at >= twinGone && LATE_REVOCATION.some((line) => line.test(l.text)))).map((l) => l.text),
    '--- sinks',
    ...v.sinks
  ]
  expect({ ending: ending(traced) }).toEqual({ ending: ending(untraced) })
}

/** What tracing met, for the coverage report: each must occur in the default run (./coverage.ts). */
export const TRACE_CASES: ReadonlyArray<readonly [string, (f: Facts) => boolean]> = [
  ['tracing: the collector took the trace', () => outcomes().includes('taken')],
  ['tracing: the collector refused it: one warning', () => outcomes().includes('refused')],
  ['tracing: the collector was down: one warning', () => outcomes().includes('down')],
  ['tracing: no answer within its limit: one warning', () => outcomes().includes('timed-out')],
  ["tracing: the pipeline's trace not sampled: nothing sent", () => outcomes().includes('not-sampled')],
  [
    "tracing: the run's root a child of the pipeline's span (TRACEPARENT)",
    () => collector.sends.some((x) => x.tracing.parent?.sampled === true && x.outcome === 'taken')
  ],
  ['tracing: a signal during the send ended it at once', () => outcomes().includes('hurried')],
  ['tracing: a cancel left the trace 1.5 s', () => collector.sends.some((x) => x.limitName === 'what a cancel leaves the trace')],
  ['tracing: SIGTERM alone left no time: said', () => /^::warning::Tracing: .*\(SIGTERM leaves no time to send it\)/m.test(mainLines().join('\n'))],
  ['tracing: a rollback traced, its switch seen', () => collector.sends.some((x) => allSpans(x.plan).some(({ span }) => span.name === 'rollback switch'))],
  [
    'tracing: health attempts as spans, one passed',
    () => collector.sends.some((x) => allSpans(x.plan).some(({ span }) => span.kind === 'client' && span.status.code === 'unset'))
  ],
  ['tracing: looks as span events', () => collector.sends.some((x) => allSpans(x.plan).some(({ span }) => span.events.some((e) => e.name === 'look')))],
  ['tracing: a failed step traced as an error', () => collector.sends.some((x) => x.plan.status.code === 'error')],
  ['tracing: the trace of a command (brcloud deploy)', (f) => f.s.face !== undefined && collector.sends.length > 0]
]

function outcomes(): Array<TraceSend['outcome']> {
  return collector.sends.map((x) => x.outcome)
}
