// Tells every sink about the run, all at once, each under its own time limit (http/time-limit.ts: on the clock a
// simulation drives). A sink that fails or hangs costs one warning that names the service and why, never its
// address or token; nothing here throws, and nothing here changes the run's outcome.
import * as core from '../port.js'
import { systemErrorCode } from '../errors.js'
import { timeLimit } from '../http/time-limit.js'
import { redact } from '../secrets.js'
import { SinkCallFailed } from './sinks/post.js'
import type { ObservedRun, Sink } from './observed.js'

/**
 * Sends `run` to every sink in parallel; resolves when each has answered, failed or run out of its `limitMs`.
 * `limitName` says where the limit comes from, in the warning: events-timeout-seconds, or the shorter time a stop leaves.
 */
export async function tellOthers(
  run: ObservedRun,
  sinks: readonly Sink[],
  limitMs: number,
  stopSignal?: AbortSignal,
  limitName = 'events-timeout-seconds'
): Promise<void> {
  if (sinks.length === 0 || limitMs <= 0 || stopSignal?.aborted) return
  await Promise.all(
    sinks.map(async (sink) => {
      const limit = timeLimit(limitMs, stopSignal)
      try {
        // A sink that ignores its signal still ends here at its limit.
        const sent = await Promise.race([sink.send(run, limit.signal), aborted(limit.signal)])
        core.info(sent === false ? `Events: nothing to tell ${sink.name} about this run.` : `Events: ${sink.name} told.`)
      } catch (error) {
        core.warning(`Events: ${sink.name} was not told: ${why(error, sink.name, limit.expired(), limitMs, limitName)}. The deployment's outcome is unchanged.`)
      } finally {
        limit.clear()
      }
    })
  )
}

/** Why a send failed, in words that carry no address and no secret. */
function why(error: unknown, service: string, expired: boolean, limitMs: number, limitName: string): string {
  if (expired) return `no answer within ${+(limitMs / 1000).toFixed(1)} s (${limitName})`
  // "Slack answered 404: no_service" (the sink's own words, already free of addresses and tokens) as "it answered ...".
  if (error instanceof SinkCallFailed) return error.message.startsWith(`${service} `) ? `it ${error.message.slice(service.length + 1)}` : error.message
  if ((error as { name?: unknown } | undefined)?.name === 'TimeoutError' || (error as { name?: unknown } | undefined)?.name === 'CallTimeoutError')
    return 'its call ran out of time'
  const code = systemErrorCode(error)
  if (code !== undefined) return `the connection failed (${code})`
  if ((error as { name?: unknown } | undefined)?.name === 'AbortError' || error instanceof DOMException) return 'the run was stopped'
  const text = error instanceof Error ? error.message : String(error)
  return redact(text).replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<address>')
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) return reject(signal.reason as Error)
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true })
  })
}
