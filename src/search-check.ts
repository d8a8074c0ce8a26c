// The search smoke check as a phase of the run: runs it and logs what it found. It returns the
// result, passed or not; main.ts fails the step on a failed check, report.ts derives the outputs.
// Loaded by main.ts only when search-query is set.
import * as core from './port.js'
import type { PhaseRunner } from './phases.js'
import { searchLabel } from './report.js'
import { runSearchCheck, type SearchConfig, type SearchResult } from './search/index.js'

export async function checkSearch(config: SearchConfig, phase: PhaseRunner, signal?: AbortSignal): Promise<SearchResult> {
  return phase(
    `Search check: ${searchLabel(config)}`,
    async () => {
      const r = await runSearchCheck(config, { log: (line) => core.info(line), signal })
      for (const w of r.warnings) core.warning(w)
      const found = r.numFound === undefined ? 'no result count' : `${r.numFound} result(s) (at least ${r.minResults} wanted)`
      core.info(`${r.passed ? 'Passed' : 'Failed'}: ${found}, ${r.latencyMs ?? '?'} ms, ${r.attempts} attempt(s), facets ${r.facetFormat}.`)
      if (r.titles.length > 0) core.info(`First results: ${r.titles.join(' | ')}`)
      return r
    },
    (r) => r.passed
  )
}
