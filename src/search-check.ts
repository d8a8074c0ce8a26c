// The search smoke check as a phase of the run: runs it, sets its outputs, fails the step when it
// does not pass. Loaded by main.ts only when search-query is set.
import * as core from '@actions/core'
import { Output, phase, setOutput, type DeployReport } from './report.js'
import { runSearchCheck, type SearchConfig } from './search/index.js'

/** The check did not pass; the message is safe to print (no auth key). */
export class SearchCheckFailed extends Error {
  override name = 'SearchCheckFailed'
}

export async function checkSearch(config: SearchConfig, report: DeployReport, signal?: AbortSignal): Promise<void> {
  const label = config.type === 'category' ? `category '${config.originalQuery}'` : `'${config.originalQuery}'`
  const result = await phase(report, `Search check: ${label}`, async () => {
    const r = await runSearchCheck(config, { log: (line) => core.info(line), signal })
    for (const w of r.warnings) core.warning(w)
    const found = r.numFound === undefined ? 'no result count' : `${r.numFound} result(s) (at least ${r.minResults} wanted)`
    core.info(`${r.passed ? 'Passed' : 'Failed'}: ${found}, ${r.latencyMs ?? '?'} ms, ${r.attempts} attempt(s), facets ${r.facetFormat}.`)
    if (r.titles.length > 0) core.info(`First results: ${r.titles.join(' | ')}`)
    return r
  })
  report.search = result
  setOutput(Output.SearchNumFound, result.numFound)
  setOutput(Output.SearchLatencyMs, result.latencyMs)
  setOutput(Output.SearchRequestId, result.requestId)
  if (!result.passed) throw new SearchCheckFailed(`Search check failed: ${result.failure ?? 'no passing answer'}`)
  core.notice(`Search check passed: ${label} found ${result.numFound ?? 0} result(s) in ${result.latencyMs ?? '?'} ms.`)
}
