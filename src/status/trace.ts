// The status report's trace (issue 45, docs/status.md "Tracing"), for both faces: read with the deploy's rules
// (src/inputs/tracing.ts: the OTEL_* variables, or the face's otel-endpoint), then, once the command decided its exit,
// planned from the report (src/tracing/status-plan.ts) and sent through the deploy's one door (src/tracing/send.ts).
// The tracing modules are loaded only here, and only with tracing on. Never throws, never changes the exit: a trace
// that could not be sent is one warning.
import type { RunHost } from '../main.js'
import * as core from '../port.js'
import { readTracingInputs } from '../inputs/tracing.js'
import { redact } from '../secrets.js'
import { sayNoTime } from '../tracing/said.js'
import { exportLimit, type TracingInputs } from '../tracing/config.js'
import type { StatusEnding, StatusTraceFacts } from '../tracing/status-plan.js'
import type { StatusReport } from './index.js'
import { StatusCancelled, TRACE_AFTER_STOP_MS } from './stop.js'

export type { StatusEnding, StatusTraceFacts }

/** What a trace that failed leaves as it was, in its warning. */
const UNCHANGED = "The report's outcome and exit code are unchanged."

/** Tracing's settings, `input` from the face (`inputName` names it in a refusal); each warning said through the port. */
export function readStatusTracing(input: string, inputName: string, env: NodeJS.ProcessEnv): TracingInputs | undefined {
  const read = readTracingInputs(input, env, { inputName, unaffected: 'the report is unaffected' })
  for (const warning of read.warnings) core.warning(warning)
  return read.tracing
}

export { traceNote } from '../tracing/config.js'

/** How a command that threw ended: a cancel, or a failure named by the error's class (InputError for a refusal). */
export function endingOfError(error: unknown, message: string, exitCode?: number): StatusEnding {
  if (error instanceof StatusCancelled) return { result: 'cancellation', errorType: 'cancelled', message, exitCode, stopped: error.stop }
  const errorType = error instanceof Error && error.name !== 'Error' ? error.name : '_OTHER'
  return { result: 'failure', errorType, message, exitCode }
}

/**
 * Sends the report's trace after the command decided its exit: within OTEL_EXPORTER_OTLP_TIMEOUT, or after a stop
 * within what it leaves (none after SIGTERM, or after a second signal); a signal meanwhile ends the send at once.
 */
export async function traceStatus(
  tracing: TracingInputs | undefined,
  report: StatusReport | undefined,
  facts: StatusTraceFacts,
  signals: RunHost['signals'],
  hurried = false
): Promise<void> {
  if (tracing === undefined) return
  const limit = exportLimit(tracing, facts.ending.stopped === undefined ? undefined : TRACE_AFTER_STOP_MS[facts.ending.stopped])
  // The summary and --json name the trace: a stop that leaves no time to send it is said, as the deploy says it.
  if (hurried || limit.limitMs === 0) return sayNoTime(tracing, hurried, UNCHANGED)
  const hurry = new AbortController()
  const onSignal = (): void => hurry.abort()
  signals.on('SIGINT', onSignal)
  signals.on('SIGTERM', onSignal)
  try {
    const [{ traceRun }, { planStatusTrace }] = await Promise.all([import('../tracing/index.js'), import('../tracing/status-plan.js')])
    await traceRun(() => planStatusTrace(report, facts), tracing, { ...limit, hurry: hurry.signal }, UNCHANGED)
  } catch (error) {
    core.warning(`Tracing: nothing was sent (${redact(error instanceof Error ? error.message : String(error))}). ${UNCHANGED}`)
  } finally {
    signals.off('SIGINT', onSignal)
    signals.off('SIGTERM', onSignal)
  }
}
