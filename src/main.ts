// Entry of one run: read and validate the inputs, run the steps (deploy, search check) under a
// watchdog, then report what they did. This is the one place that calls core.setFailed. Only light
// modules load before the inputs are valid; the steps (HTTP, archive, search) are imported after.
import * as core from './port.js'
import v8 from 'node:v8'
import type { DeployRun } from './deploy/index.js'
import { whereItStands } from './deploy/outcome.js'
import { ActionError, StepFailed, systemErrorCode, type InputError } from './errors.js'
import { afterRunMs, readInputs, type ActionInputs } from './inputs/index.js'
import { Timeline } from './phases.js'
import { report, type RunResult } from './report.js'
import type { SearchResult } from './search/client.js'
import { networkFailure } from './http/errors.js'
import { proxyFor } from './http/proxy.js'
import { redact } from './secrets.js'
import { anySink, readEventsInputs } from './inputs/events.js'
import type { EventsInputs, ObservedRun } from './events/observed.js'
import { exportLimit, traceNote, type TracingInputs } from './tracing/config.js'
import { OTEL_ENDPOINT_INPUT, readTracingInputs } from './inputs/tracing.js'
import { sayNoTime } from './tracing/said.js'

/** The run took longer than total-timeout-minutes. */
export class WatchdogTimeout extends ActionError {
  override name = 'WatchdogTimeout'
}

/** The search check ran and did not pass. */
export class SearchCheckFailed extends ActionError {
  override name = 'SearchCheckFailed'
}

/** The run was cancelled: GitHub sent SIGINT (a cancelled workflow, cancel-in-progress, a step's timeout-minutes), or Ctrl-C. */
export class Cancelled extends ActionError {
  override name = 'Cancelled'
}

/** Why the run was stopped before its steps ended: the watchdog, GitHub's cancel (SIGINT first), or SIGTERM alone. */
export type Stop = 'watchdog' | 'cancel' | 'terminate'

/**
 * After a stop: how long the steps get to unwind (temp files, the partial result), then each closing call's
 * limit (the last look, then the revocation beside the GitHub Deployment's status). A cancel must end within
 * GitHub's grace: SIGTERM comes 7.5 s after SIGINT, the kill 2.5 s later; 2 s + 2.5 s (the look) + 2.5 s
 * report before SIGTERM. SIGTERM alone leaves 2.5 s before the kill: 0.5 s + 0.8 s + 0.8 s, and the post:
 * step finishes what these could not.
 */
const UNWIND_MS: { readonly [s in Stop]: number } = { watchdog: 5_000, cancel: 2_000, terminate: 500 }
const CLOSE_LIMIT_MS: { readonly [s in Stop]: number } = { watchdog: 3_000, cancel: 2_500, terminate: 800 }
/** All the closing calls together (the look, then the revocation beside the GitHub status). */
const CLOSE_TOTAL_MS: { readonly [s in Stop]: number } = { watchdog: 6_000, cancel: 5_000, terminate: 1_600 }
/** The closing calls' limit when the run ends by itself: the last look's. */
const LAST_LOOK_MS = 3_000
/**
 * The event sinks' time after a stop (docs/events.md): a cancel's report comes at most 7 s after SIGINT (2 s + 5 s
 * above), so 1.5 s more ends before the kill (10 s) even when SIGTERM's hurry comes first, which ends them at once;
 * SIGTERM alone leaves none. After the watchdog they get events-timeout-seconds, kept out of the watchdog's limit.
 */
const EVENTS_AFTER_STOP_MS: { readonly [s in Stop]: number | undefined } = { watchdog: undefined, cancel: 1_500, terminate: 0 }

/**
 * What run() needs of the process: where signals arrive (a cancel), and how to end it. The face passes the
 * process's (src/action/main.ts); tests and the simulation pass their own.
 */
export interface RunHost {
  readonly signals: {
    on(event: 'SIGINT' | 'SIGTERM', fn: (signal: string) => void): unknown
    off(event: 'SIGINT' | 'SIGTERM', fn: (signal: string) => void): unknown
  }
  exit(code: number): void
  /** The variables the run reads (tracing's OTEL_* and TRACEPARENT): the command's own environment; absent: the process's. */
  readonly env?: NodeJS.ProcessEnv
}

/** How a run ended: what it reported, and the failure it ended with (a face derives its exit code from both). */
export interface RunEnding {
  readonly result: RunResult
  /** What ended the run when it failed (an InputError, a refusal, a stop, ...); undefined when it succeeded. */
  readonly failure: unknown
  /**
   * A second signal made the run report before its closing calls (the last look, the revocation of its refresh
   * token) ended: the action's post step finishes them; a face without one says what was left.
   */
  readonly cutShort: boolean
  /** A stop's closing calls had not ended within its time when the run reported (with a second signal or without). */
  readonly closingUnfinished: boolean
}

export async function run(host: RunHost): Promise<RunEnding> {
  const startedAt = Date.now()
  const state = startingState()
  let inputs: ActionInputs | undefined
  let error: string | undefined
  let ended: unknown
  let tracing: TracingInputs | undefined
  const onSignal = signalHandler(state)
  host.signals.on('SIGINT', onSignal)
  host.signals.on('SIGTERM', onSignal)
  let timer: NodeJS.Timeout | undefined
  let result: RunResult
  let endedAt: number
  try {
    inputs = readInputs(undefined, host.env)
    timer = startWatchdog(inputs, state)
    // undici parses HTTP with WebAssembly; V8's optimizing tier would compile it again in the
    // background for about 35 MB of peak memory, for no gain in a run of a few hundred calls.
    v8.setFlagsFromString('--liftoff-only')
    await runSteps(inputs, state)
  } catch (failure) {
    ended = failure
    error = failureMessage(failure, inputs, state.timeline.current)
    core.setFailed(error)
  } finally {
    clearTimeout(timer)
    host.signals.off('SIGINT', onSignal)
    host.signals.off('SIGTERM', onSignal)
    endedAt = Date.now()
    tracing = inputs ? inputs.tracing : tracingAlone(host.env ?? process.env)
    const { timeline, deployRun, searched, stopped } = state
    result = { ...intent(inputs), deploy: deployRun?.result, search: searched, phases: timeline.phases, error, stopped, trace: traceNote(tracing) }
    await report(result).catch((e: unknown) => core.warning(`Could not write the job summary: ${String(e)}`))
  }
  await tellAfterReport(host, state, { inputs, tracing, result, facts: { startedAt, endedAt, failure: ended } })
  // A hung call may still hold a socket open after a stop: end the process, do not wait for it.
  if (state.stopped !== undefined) host.exit(1)
  return { result, failure: ended, cutShort: state.cutShort, closingUnfinished: state.closingUnfinished }
}

/** What one run learns as it goes, shared by its steps, the watchdog and the signal handler. */
interface RunState {
  readonly timeline: Timeline
  /** Aborted by a stop (the watchdog, a cancel): every call in flight and every wait ends. */
  readonly stop: AbortController
  /** A second signal (GitHub's SIGTERM, 7.5 s after SIGINT): report at once with what is known. */
  readonly hurry: AbortController
  /** Set once, by the first stop; never changed after. */
  stopped: Stop | undefined
  deployRun: DeployRun | undefined
  searched: SearchResult | undefined
  cutShort: boolean
  closingUnfinished: boolean
}

function startingState(): RunState {
  return {
    timeline: new Timeline(),
    stop: new AbortController(),
    hurry: new AbortController(),
    stopped: undefined,
    deployRun: undefined,
    searched: undefined,
    cutShort: false,
    closingUnfinished: false
  }
}

/** When the run began and ended, and the failure it ended with: for the event sinks and the trace. */
interface RunFacts {
  startedAt: number
  endedAt: number
  failure: unknown
}

/** SIGINT or SIGTERM: the first stops the run (a cancel), the second hurries it to report. */
function signalHandler(state: RunState): (signal: string) => void {
  const during = (): string => (state.timeline.current ? ` during "${state.timeline.current}"` : '')
  let signals = 0
  return (signal) => {
    if (++signals > 1) return state.hurry.abort()
    // The watchdog is already ending the run: after SIGINT its closing calls fit in the grace period (SIGTERM, 7.5 s
    // later, hurries it); SIGTERM alone leaves 2.5 s, so it reports at once and the post step finishes the rest.
    if (state.stopped !== undefined) return signal === 'SIGTERM' ? state.hurry.abort() : undefined
    state.stopped = signal === 'SIGTERM' ? 'terminate' : 'cancel'
    state.stop.abort(new Cancelled(`The run was cancelled (${signal})${during()}: it sent no deploy or rollback after that.`))
  }
}

/** Stops the run at total-timeout-minutes, less the time kept after the steps for the event sinks and the trace. */
function startWatchdog(inputs: ActionInputs, state: RunState): NodeJS.Timeout {
  const minutes = +(inputs.watchdogMs / 60_000).toFixed(2)
  // The event sinks' time is part of total-timeout-minutes: the steps' watchdog leaves it for the sends.
  const forEvents = afterRunMs(inputs)
  const derived = (inputs.common.timeoutMs === undefined ? ', derived from the other budgets' : '') + (forEvents > 0 ? keptAfter(inputs, forEvents) : '')
  return setTimeout(() => {
    if (state.stopped !== undefined) return
    state.stopped = 'watchdog'
    const current = state.timeline.current
    state.stop.abort(
      new WatchdogTimeout(
        `The deployment did not finish within total-timeout-minutes (${minutes} min${derived})${current ? `; it was stopped during "${current}"` : ''}. The platform may be slow or not ` +
          `answering: check its status, then run again, or raise total-timeout-minutes for very large distributions.`
      )
    )
  }, inputs.watchdogMs - forEvents)
}

/** The steps until they end, or until a stop: then they are closed within the stop's time and its message is thrown. */
async function runSteps(inputs: ActionInputs, state: RunState): Promise<void> {
  const running = steps(inputs, state)
  try {
    await Promise.race([running, aborted(state.stop.signal)])
  } catch (failure) {
    const stopped = state.stopped
    if (stopped === undefined) throw failure
    await closeAfterStop(running, state, stopped)
    throw stoppedBy(state.stop.signal, state.deployRun)
  }
}

/** The deploy (which runs the search check after it, and may roll back when it fails), or the search check alone. */
async function steps(inputs: ActionInputs, state: RunState): Promise<void> {
  const { deploy: deployInputs, search } = inputs
  const checkSearchOnce = async (): Promise<string | undefined> => {
    if (!search) return undefined
    const { checkSearch } = await import('./search-check.js')
    state.searched = await checkSearch(search, state.timeline.run, state.stop.signal)
    return searchFailure(state.searched)
  }
  if (deployInputs) {
    const { startDeploy } = await import('./deploy/index.js')
    // After a stop, the closing calls get the stop's limits, whoever begins them (the unwinding steps, or this run).
    const closeLimitMs = (): number => (state.stopped === undefined ? LAST_LOOK_MS : CLOSE_LIMIT_MS[state.stopped])
    state.deployRun = startDeploy(deployInputs, state.timeline.run, state.stop.signal, search ? checkSearchOnce : undefined, closeLimitMs)
    try {
      await state.deployRun.done
    } catch (failure) {
      if (!(failure instanceof StepFailed)) throw failure
      throw failure.cause
    }
  } else {
    await checkSearchOnce()
  }
  const failed = state.searched && searchFailure(state.searched)
  if (failed) throw new SearchCheckFailed(failed)
}

/**
 * After a stop every call in flight was aborted and every wait ended: the steps unwind briefly, then the closing
 * calls (the last look, the revocation) get what is left of the stop's time, no more, even when they began before it
 * with longer limits. A second signal ends both waits at once.
 */
async function closeAfterStop(running: Promise<void>, state: RunState, stopped: Stop): Promise<void> {
  const late = aborted(state.hurry.signal).catch(() => undefined)
  await Promise.race([running.catch(() => undefined), delay(UNWIND_MS[stopped]), late])
  let closed = false
  const closing = state.deployRun?.close().then(() => void (closed = true))
  await Promise.race([closing, late, delay(CLOSE_TOTAL_MS[stopped])])
  state.closingUnfinished = !closed && state.deployRun?.result.platformReached === true
  state.cutShort = state.hurry.signal.aborted && state.closingUnfinished
}

/**
 * The event sinks and the trace, after the report, side by side: neither waits for the other, both within what is
 * left. The outcome is decided: a signal now only ends the sends, at once (SIGTERM after a cancel, a late cancel).
 */
async function tellAfterReport(
  host: RunHost,
  state: RunState,
  outcome: { inputs: ActionInputs | undefined; tracing: TracingInputs | undefined; result: RunResult; facts: RunFacts }
): Promise<void> {
  const hurrySends = (): void => state.hurry.abort()
  host.signals.on('SIGINT', hurrySends)
  host.signals.on('SIGTERM', hurrySends)
  try {
    const limitMs = state.stopped === undefined ? undefined : EVENTS_AFTER_STOP_MS[state.stopped]
    const seen = seenOnce(outcome.result, outcome.facts)
    await Promise.all([
      tellSinks(outcome.inputs?.events ?? eventsAlone(), seen, limitMs, state.hurry.signal),
      sendTrace(outcome.tracing, outcome.result, outcome.facts, seen, limitMs, state.hurry.signal)
    ])
  } finally {
    host.signals.off('SIGINT', hurrySends)
    host.signals.off('SIGTERM', hurrySends)
  }
}

/**
 * A face's own refusal, before run() could read an input: a command line the CLI could not read (a secret given as a
 * flag, an unknown flag, an unreadable secret file, a malformed --commit, a github-token without a commit). Failed and
 * reported as run() reports refused inputs (the one failure, no outputs, the summary), so that every output format of
 * the face is written as for any other refusal. No step runs; no sink is told, since no input was read.
 */
export async function refuse(failure: InputError): Promise<RunEnding> {
  const error = failureMessage(failure, undefined, undefined)
  core.setFailed(error)
  const result: RunResult = { ...intent(undefined), deploy: undefined, search: undefined, phases: [], error, stopped: undefined }
  await report(result).catch((e: unknown) => core.warning(`Could not write the job summary: ${String(e)}`))
  return { result, failure, cutShort: false, closingUnfinished: false }
}

/**
 * Tells the event sinks what the run observed (docs/events.md), after the report: each sink within its limit (or the
 * shorter `limitMs` a stop leaves), ended at once by `hurry`; nothing here fails the run or changes its outcome.
 */
async function tellSinks(events: EventsInputs | undefined, seen: () => Promise<RunSeen>, limitMs: number | undefined, hurry: AbortSignal): Promise<void> {
  if (events === undefined || !anySink(events) || hurry.aborted || limitMs === 0) return
  try {
    const { observed } = await seen()
    if (observed === undefined) return
    const { sinksFor } = await import('./events/sinks.js')
    const { tellOthers } = await import('./events/dispatch.js')
    // A cancel leaves less than events-timeout-seconds: its warning names the limit that applied.
    const short = limitMs !== undefined && limitMs < events.timeoutMs
    await tellOthers(observed, sinksFor(events), short ? limitMs : events.timeoutMs, hurry, short ? 'what a cancel leaves the sinks' : 'events-timeout-seconds')
  } catch (e) {
    core.warning(`Events: nothing was sent (${redact(e instanceof Error ? e.message : String(e))}). The deployment's outcome is unchanged.`)
  }
}

/**
 * Sends the run's trace (docs/tracing.md), after the report, within the trace's own limit or the shorter `limitMs` a
 * stop leaves, ended at once by `hurry`. Loads OpenTelemetry only now, and only with tracing on; never throws.
 */
async function sendTrace(
  tracing: TracingInputs | undefined,
  result: RunResult,
  facts: RunFacts,
  seen: () => Promise<RunSeen>,
  limitMs: number | undefined,
  hurry: AbortSignal
): Promise<void> {
  if (tracing === undefined) return
  // The summary says the log tells when the trace was not sent: a stop that leaves no time is said too.
  if (hurry.aborted || limitMs === 0) return sayNoTime(tracing, hurry.aborted)
  try {
    const [{ traceRun, runPlan }, { context, stack, observed }] = await Promise.all([import('./tracing/index.js'), seen()])
    await traceRun(runPlan(result, { ...facts, context, stack, observed }), tracing, { ...exportLimit(tracing, limitMs), hurry })
  } catch (e) {
    core.warning(`Tracing: nothing was sent (${redact(e instanceof Error ? e.message : String(e))}). The deployment's outcome is unchanged.`)
  }
}

/** What the sinks and the trace both tell of the run: its CI context, the stack given, and what it observed. */
interface RunSeen {
  readonly context: ReturnType<typeof core.runContext>
  readonly stack: string | undefined
  readonly observed: ObservedRun | undefined
}

/** The run as seen, read once for the sinks and the trace, and only when one of them asks (each is off by default). */
function seenOnce(result: RunResult, facts: RunFacts): () => Promise<RunSeen> {
  let seen: Promise<RunSeen> | undefined
  return () =>
    (seen ??= import('./events/from-run.js').then(({ observeRun }) => {
      const context = core.runContext()
      const stack = rawInput('stack') || undefined
      return { context, stack, observed: observeRun(result, { ...facts, context, stack, promotion: isPromotion() }) }
    }))
}

/** Tracing's settings on their own, when the run's inputs were refused: a refused run is traced too. */
function tracingAlone(env: NodeJS.ProcessEnv): TracingInputs | undefined {
  try {
    return readTracingInputs(rawInput(OTEL_ENDPOINT_INPUT), env).tracing
  } catch {
    return undefined
  }
}

/** What the watchdog's message says of the time kept after the steps (the sinks', the trace's). */
function keptAfter(inputs: ActionInputs, ms: number): string {
  const sinks = inputs.deploy?.environment !== undefined && !inputs.deploy.dryRun && anySink(inputs.events) && ms === inputs.events.timeoutMs
  return sinks
    ? `, less events-timeout-seconds (${ms / 1000} s) kept for the event sinks`
    : `, less the trace's export limit (${ms / 1000} s) kept for sending it`
}

/** distribution-id or from-environment is set: a promotion, also for a run refused before its deployment began. */
function isPromotion(): boolean {
  return rawInput('distribution-id').trim() !== '' || rawInput('from-environment').trim() !== ''
}

/** The sinks' inputs on their own, when the run's inputs were refused: a refusal is worth telling too. */
function eventsAlone(): EventsInputs | undefined {
  try {
    return readEventsInputs(rawInput, { repository: core.runContext().repository || undefined, stack: rawInput('stack') || undefined })
  } catch {
    return undefined
  }
}

/** An input as given, '' when it cannot be read. */
function rawInput(name: string): string {
  try {
    return core.getInput(name)
  } catch {
    return ''
  }
}

/**
 * What the run was asked to do, for the report: from the parsed inputs, or, when they were refused, from the raw
 * values (a search check alone when search-query is set and no distribution source is).
 */
function intent(inputs: ActionInputs | undefined): { deploys: boolean; environment: string | undefined } {
  const raw = rawInput
  const environment = inputs ? inputs.deploy?.environment : raw('environment') || undefined
  if (inputs) return { deploys: inputs.deploy !== undefined, environment }
  const source = ['distribution', 'distribution-id', 'from-environment'].some((n) => raw(n) !== '')
  return { deploys: source || raw('search-query') === '', environment }
}

/** The stop's message (the watchdog's or the cancel's), with where the release stands and what runs now. */
function stoppedBy(signal: AbortSignal, deployRun: DeployRun | undefined): ActionError {
  return new ActionError(`${(signal.reason as Error).message}${whereItStands(deployRun?.result)}`)
}

/** What a search check that did not pass says; undefined when it passed. */
function searchFailure(searched: SearchResult): string | undefined {
  return searched.passed ? undefined : `Search check failed: ${searched.failure ?? 'no passing answer'}`
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref())
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) return reject(signal.reason as Error)
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true })
  })
}

/** A code of the operating system or undici: the connection failed. */
const NETWORK_CODE = /^(E[A-Z]+|UND_ERR_\w+)$/

/** What a failed connection means, honestly counted: a name that does not resolve is tried once; the rest up to max-attempts. */
function connectionMessage(code: string, text: string, apiUrl: string, maxAttempts: number, phase: string | undefined): string {
  const during = phase ? ` during "${phase}"` : ''
  const host = new URL(apiUrl).host
  const proxy = proxyFor(apiUrl)
  if (proxy) {
    // Through a proxy, a refused or unresolved connection is the proxy's as often as the platform's: name it.
    return (
      `The connection to ${apiUrl} through the proxy ${proxy.url} (set by ${proxy.variable}) failed${during} (${code}: ${text})` +
      `${networkFailure({ code }) !== undefined ? `, on each of up to ${maxAttempts} attempt(s)` : ''}. Check that the proxy runs and that the runner can reach it, or correct ${proxy.variable}; a host listed in ` +
      `NO_PROXY bypasses it. More attempts (max-attempts) will not help while the proxy is unreachable.`
    )
  }
  if (code === 'ENOTFOUND') {
    return (
      `The host ${host} does not exist${during} (ENOTFOUND): the stack name is probably wrong. It was tried once and is not retried. ` +
      `Copy the word after "missioncontrol." from your console address into stack (or set console-url to that address).`
    )
  }
  const retried = networkFailure({ code }) !== undefined
  return retried
    ? `The connection to ${apiUrl} failed${during} (${code}: ${text}), on each of up to ${maxAttempts} attempt(s) (max-attempts). ` +
        `Check that the runner can reach the platform; if the network is flaky, raise max-attempts.`
    : `The connection to ${apiUrl} failed${during} (${code}: ${text}); this failure is not retried. Check the stack name or api-url and that the runner can reach the platform.`
}

/** One message for the failure annotation: what went wrong and what to do; never a secret. */
export function failureMessage(error: unknown, inputs: ActionInputs | undefined, phase: string | undefined): string {
  let message: string
  if (error instanceof ActionError) {
    message = error.message
  } else {
    const code = systemErrorCode(error)
    const text = error instanceof Error ? error.message : String(error)
    const deploy = inputs?.deploy
    if (code && NETWORK_CODE.test(code) && deploy) {
      message = connectionMessage(code, text, deploy.address.apiUrl, deploy.maxAttempts, phase)
    } else {
      message = text
    }
  }
  return redact(message)
}
