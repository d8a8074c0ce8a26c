// The simulated OpenTelemetry collector: src/tracing/send.ts replaced (the one module that loads OpenTelemetry, and
// the edge of tracing). It keeps what each run handed it (the planned spans, the run's tracing settings, the limit
// and its name, whether the run was hurried) with when it arrived and how it ended for the run, and answers as the
// schedule's collector fate says, in the simulation's clock: within the limit it was given, ended at once by the
// hurry, as the real export is. A trace the pipeline did not sample reaches no collector, as with the real one.
import type { TracingInputs } from '../../src/tracing/config.js'
import type { PlannedSpan } from '../../src/tracing/plan.js'
import type { SendOptions, Sent } from '../../src/tracing/send.js'
import { runIndex } from './process.js'
import type { CollectorFate } from './tracing.js'
import { OTLP_KEY } from './tracing.js'
import { caller, wire, type Caller } from './transport.js'

/** One trace a run handed the edge, and what became of it. */
export interface TraceSend {
  readonly run: number
  readonly by: Caller
  /** Fake Date.now() when the run handed it over, and the wire's sequence number then. */
  readonly at: number
  readonly seq: number
  readonly plan: PlannedSpan
  readonly tracing: TracingInputs
  readonly limitMs: number
  readonly limitName: string
  /** The hurry had come before the send began. */
  readonly hurriedBefore: boolean
  /**
   * taken: the collector answered 2xx; refused: an error status; down: no connection; timed-out: no answer within the
   * limit; hurried: ended at once by the hurry; not-sampled: nothing sent (TRACEPARENT's flag); undefined: still pending.
   */
  outcome: 'taken' | 'refused' | 'down' | 'timed-out' | 'hurried' | 'not-sampled' | undefined
  /** When it ended for the run. */
  settledAt: number | undefined
}

/** The world's collector: its fate (set per world) and every trace handed to it, in order. */
export const collector: { fate: CollectorFate | undefined; sends: TraceSend[] } = { fate: undefined, sends: [] }

/** A new world's collector. */
export function resetCollector(fate: CollectorFate | undefined): void {
  collector.fate = fate
  collector.sends = []
}

/** What the collector answers, after how long (undefined: never), and what the run's export makes of it. */
function answerOf(fate: CollectorFate | undefined): { afterMs: number; sent: Sent; outcome: TraceSend['outcome'] } | undefined {
  const kind = fate?.kind ?? 'take'
  if (kind === 'hang') return undefined
  if (kind === 'down') return { afterMs: 0, sent: { sent: false, why: 'connect ECONNREFUSED 10.9.0.4:4318' }, outcome: 'down' }
  if (kind === 'refuse') {
    const status = fate?.status ?? 503
    // A careless collector repeats what it was sent: the run must not show it.
    const said = fate?.echo === true ? `: authorization=Bearer ${OTLP_KEY}` : ''
    return { afterMs: 0, sent: { sent: false, why: `the collector answered HTTP ${status}${said}` }, outcome: 'refused' }
  }
  return { afterMs: (fate?.seconds ?? 0) * 1000, sent: { sent: true }, outcome: 'taken' }
}

/** src/tracing/send.ts's sendTrace, answered by the world's collector; never throws. */
export async function sendTrace(plan: PlannedSpan, tracing: TracingInputs, options: SendOptions): Promise<Sent> {
  const record: TraceSend = {
    run: runIndex(),
    by: caller.getStore() ?? 'world',
    at: Date.now(),
    seq: wire.seq,
    plan,
    tracing,
    limitMs: options.limitMs,
    limitName: options.limitName,
    hurriedBefore: options.hurry.aborted,
    outcome: undefined,
    settledAt: undefined
  }
  collector.sends.push(record)
  const end = (outcome: TraceSend['outcome'], sent: Sent): Sent => Object.assign(record, { outcome, settledAt: Date.now() }) && sent
  if (tracing.parent !== undefined && !tracing.parent.sampled)
    return end('not-sampled', { sent: false, why: "TRACEPARENT says the pipeline's trace is not sampled" })
  if (options.hurry.aborted) return end('hurried', { sent: false, why: 'the run was asked to end at once' })
  const answer = answerOf(collector.fate)
  return new Promise<Sent>((resolve) => {
    const timers: NodeJS.Timeout[] = []
    const done = (outcome: TraceSend['outcome'], sent: Sent): void => {
      for (const t of timers) clearTimeout(t)
      options.hurry.removeEventListener('abort', onHurry)
      resolve(end(outcome, sent))
    }
    const onHurry = (): void => done('hurried', { sent: false, why: 'the run was asked to end at once' })
    options.hurry.addEventListener('abort', onHurry, { once: true })
    timers.push(
      setTimeout(() => done('timed-out', { sent: false, why: `no answer within ${options.limitName} (${options.limitMs / 1000} s)` }), options.limitMs)
    )
    if (answer === undefined) return
    if (answer.afterMs === 0) return done(answer.outcome, answer.sent)
    timers.push(setTimeout(() => done(answer.outcome, answer.sent), answer.afterMs))
  })
}
