// What the log says of the run's trace, in one line (docs/tracing.md): the summary names the trace and says the log
// tells when it was not sent, so every way it ends is said here, also when a stop left no time to send it. Light: no
// OpenTelemetry, nothing of the plan (src/main.ts says it without loading the rest).
import * as core from '../port.js'
import { redact } from '../secrets.js'
import type { TracingInputs } from './config.js'

/**
 * Sent (with its span count), or why not: an info line when it was sent or the pipeline did not sample it; else one
 * warning, ending with what a failure leaves as it was (`unchanged`).
 */
export function sayTrace(
  tracing: TracingInputs,
  sent: { readonly sent: true; readonly spans: number } | { readonly sent: false; readonly why: string },
  unchanged = "The deployment's outcome is unchanged."
): void {
  const where = new URL(tracing.url).origin
  if (sent.sent) core.info(`Tracing: trace ${tracing.traceId} (${sent.spans} spans) sent to ${where}.`)
  else if (tracing.parent !== undefined && !tracing.parent.sampled) core.info("Tracing: nothing sent: TRACEPARENT says the pipeline's trace is not sampled.")
  else core.warning(`Tracing: the trace was not sent to ${where} (${redact(sent.why)}). ${unchanged}`)
}

/** A trace a stop left no time for (SIGTERM alone: `limitMs` 0), or one a second signal hurried: not sent, and said. */
export function sayNoTime(tracing: TracingInputs, hurried: boolean, unchanged?: string): void {
  sayTrace(tracing, { sent: false, why: hurried ? 'the run was asked to end at once' : 'SIGTERM leaves no time to send it' }, unchanged)
}
