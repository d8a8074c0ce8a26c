// The watchdog's budget (total-timeout-minutes): the run's own limits added up, so that the watchdog never
// cuts a rollback short. Empty: derived from them; an explicit value that cannot hold them is refused
// before any request, with the numbers.
import { InputError } from '../errors.js'
import type { CommonInputs, DeployInputs } from './deploy.js'
import type { SearchConfig } from './search.js'

/** Room for building, packing and uploading, which have no budget of their own. */
export const MARGIN_MS = 10 * 60_000

/** The run's own limits, named as the inputs that set them. */
export function budgetParts(deploy: DeployInputs | undefined, search: SearchConfig | undefined, eventsMs = 0, traceMs = 0): Array<[string, number]> {
  const parts: Array<[string, number]> = []
  if (deploy?.environment !== undefined && !deploy.dryRun) {
    parts.push(['deploy-timeout-minutes', deploy.deployTimeoutMs])
    if (deploy.health) parts.push(['health-timeout-minutes', deploy.health.timeoutMs])
    if (deploy.rollback) {
      // A rollback after "not applied in time" first waits for that deploy to finish, then gets its own switch.
      parts.push(['deploy-timeout-minutes (rollback: the deploy in progress)', deploy.deployTimeoutMs])
      parts.push(['deploy-timeout-minutes (rollback)', deploy.deployTimeoutMs])
      if (deploy.health) parts.push(['health-timeout-minutes (rollback)', deploy.health.timeoutMs])
    }
  }
  // The search check: its wait window, plus its last call's own limit.
  if (search) parts.push(['search-wait-seconds + search-timeout-seconds', search.waitMs + search.timeoutMs])
  // The event sinks send in parallel after the run, each within events-timeout-seconds (docs/events.md).
  // The trace is sent beside them (docs/tracing.md): the longer of the two is kept.
  const told = eventsMs > 0 && deploy?.environment !== undefined && !deploy.dryRun ? eventsMs : 0
  if (traceMs > told) parts.push(["the trace's export limit (OTEL_EXPORTER_OTLP_TIMEOUT)", traceMs])
  else if (told > 0) parts.push(['events-timeout-seconds', told])
  return parts
}

const minutes = (ms: number): string => `${+(ms / 60_000).toFixed(2)}`

/** The watchdog's limit in ms: total-timeout-minutes, or the budgets plus a margin when it is empty. */
export function watchdogMs(common: CommonInputs, deploy: DeployInputs | undefined, search: SearchConfig | undefined, eventsMs = 0, traceMs = 0): number {
  const parts = budgetParts(deploy, search, eventsMs, traceMs)
  const needed = parts.reduce((sum, [, ms]) => sum + ms, 0)
  if (common.timeoutMs === undefined) return needed + MARGIN_MS
  if (common.timeoutMs < needed) {
    const sum = parts.map(([name, ms]) => `${name} ${minutes(ms)}`).join(' + ')
    throw new InputError(
      `total-timeout-minutes (${minutes(common.timeoutMs)}) cannot hold the run's own budgets: ${sum} = ${minutes(needed)} min, so the watchdog would cut ` +
        `${deploy?.rollback ? 'a rollback' : 'the deploy'} short. Set total-timeout-minutes to at least ${Math.ceil((needed + MARGIN_MS) / 60_000)} ` +
        `(the budgets plus ${minutes(MARGIN_MS)} minutes to build and upload), leave it empty to derive it, or lower those budgets.`
    )
  }
  return common.timeoutMs
}
