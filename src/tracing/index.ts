// Tracing a run (issue 45, docs/tracing.md): after the report, the run is planned as a trace from its result
// (./plan.ts) and sent once (./send.ts). Loaded by main.ts only when tracing is on. Never throws, never changes the
// outcome: a trace that could not be sent is one warning.
import * as core from '../port.js'
import { redact } from '../secrets.js'
import type { TracingInputs } from './config.js'
import { planRunTrace, type PlannedSpan, type TraceFacts } from './plan.js'
import { sayTrace } from './said.js'
import { sendTrace, type SendOptions } from './send.js'

/** Plans the run's trace and sends it; says in one line what became of it (`unchanged`: what a failure leaves as it was). */
export async function traceRun(
  plan: () => PlannedSpan,
  tracing: TracingInputs,
  options: SendOptions,
  unchanged = "The deployment's outcome is unchanged."
): Promise<void> {
  let spans: PlannedSpan
  try {
    spans = plan()
  } catch (error) {
    core.warning(`Tracing: no trace was made (${redact(String(error))}). ${unchanged}`)
    return
  }
  const sent = await sendTrace(spans, tracing, options)
  sayTrace(tracing, sent.sent ? { sent: true, spans: count(spans) } : sent, unchanged)
}

/** The deploy's or the search check's run, planned: what traceRun takes for a run of the action or the command. */
export function runPlan(...args: Parameters<typeof planRunTrace>): () => PlannedSpan {
  return () => planRunTrace(...args)
}

export type { TraceFacts }

function count(span: PlannedSpan): number {
  return 1 + span.children.reduce((n, c) => n + count(c), 0)
}
