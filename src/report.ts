// What the user sees at the end: outputs, the job summary, and the timing of each phase.
import * as core from '@actions/core'
import { formatBytes, formatDuration } from './progress.js'
import type { SearchResult } from './search/client.js'

/** Output names, as in action.yml. Workflows depend on them: never rename one. */
export const Output = {
  CloudApiUrl: 'cloud-api-url',
  DistributionId: 'distribution-id',
  DistributionName: 'distribution-name',
  DistributionSize: 'distribution-size',
  DistributionSha256: 'distribution-sha256',
  EnvironmentId: 'environment-id',
  PrunedDistributions: 'pruned-distributions',
  SearchNumFound: 'search-num-found',
  SearchLatencyMs: 'search-latency-ms',
  SearchRequestId: 'search-request-id'
} as const

export interface Phase {
  name: string
  ms: number
  ok: boolean
}

export interface DeployReport {
  apiUrl?: string
  stack?: string
  distributionName?: string
  distributionId?: string
  /** 'packed' from a directory, or 'archive' uploaded as it is. */
  distributionSource?: 'packed' | 'archive'
  size?: number
  sha256?: string
  environmentName?: string
  environmentId?: string
  strategy?: string
  dryRun: boolean
  tokenRenewals: number
  /** Distributions deleted by max-distributions (undefined when pruning is off). */
  pruned?: number
  uploadAttempts?: number
  /** max-attempts, for failure messages. */
  maxAttempts?: number
  /** The upload's answer was lost and the stored copy was adopted. */
  uploadAdopted?: boolean
  phases: Phase[]
  /** Whether the run deploys (false: a search check only). */
  deploys: boolean
  search?: SearchResult
  /** The phase running now (or the one that failed), for failure messages. */
  currentPhase?: string
  error?: string
}

/** Runs one phase in its own log group and records how long it took, failed or not. */
export async function phase<T>(report: DeployReport, name: string, fn: () => Promise<T>): Promise<T> {
  const started = Date.now()
  let ok = false
  report.currentPhase = name
  try {
    const result = await core.group(name, fn)
    ok = true
    return result
  } finally {
    report.phases.push({ name, ms: Date.now() - started, ok })
    // A failed phase stays current, so the failure message can say where it happened.
    if (ok) report.currentPhase = undefined
  }
}

export function setOutput(name: string, value: string | number | undefined): void {
  if (value !== undefined && value !== '') core.setOutput(name, String(value))
}

function cell(value: string | undefined): string {
  return value === undefined || value === '' ? '—' : value.replace(/\|/g, '\\|')
}

function table(rows: Array<[string, string | undefined]>, heading: string): string[] {
  const lines = [`| ${heading} | |`, '|---|---|']
  for (const [k, v] of rows) if (v !== undefined) lines.push(`| ${k} | ${cell(v)} |`)
  return lines
}

function deploymentRows(r: DeployReport): Array<[string, string | undefined]> {
  return [
    ['API address', r.apiUrl ?? '—'],
    ['Distribution', r.distributionName ? `\`${r.distributionName}\`${r.distributionSource === 'packed' ? ' (packed from a directory)' : ''}` : '—'],
    ['Distribution id', r.distributionId ? `\`${r.distributionId}\`` : '—'],
    ['Size', r.size === undefined ? '—' : `${formatBytes(r.size)} (${r.size} bytes)`],
    ['SHA-256', r.sha256 ? `\`${r.sha256}\`` : '—'],
    ['Environment', r.environmentName ? (r.environmentId ? `${r.environmentName} (\`${r.environmentId}\`)` : r.environmentName) : '— (upload only)'],
    ['Strategy', r.environmentName ? r.strategy : undefined],
    ['Upload attempts', r.uploadAttempts === undefined ? undefined : `${r.uploadAttempts}${r.uploadAdopted ? ' (answer lost; the stored upload was adopted, no duplicate)' : ''}`],
    ['Pruned distributions', r.pruned === undefined ? undefined : String(r.pruned)],
    ['Token renewals', String(r.tokenRenewals)]
  ]
}

function searchRows(s: SearchResult): Array<[string, string | undefined]> {
  const query = s.query === s.originalQuery ? `\`${s.query}\`` : `\`${s.query}\` (written as \`${s.originalQuery}\`)`
  return [
    ['Result', s.passed ? '✅ Passed' : `❌ ${s.failure ?? 'Failed'}`],
    ['Query', `${query}, ${s.type} search`],
    ['Endpoint', s.endpoint],
    ['Results found', s.numFound === undefined ? '—' : `${s.numFound} (at least ${s.minResults} wanted)`],
    ['Latency', s.latencyMs === undefined ? '—' : `${s.latencyMs} ms`],
    ['Attempts', String(s.attempts)],
    ['Request id', s.requestId ? `\`${s.requestId}\`` : '—'],
    ['Facet format', s.facetFormat === 'none' ? 'none returned' : `${s.facetFormat === 'v3' ? 'V3 (facet_counts.facets)' : 'legacy (facet_fields/facet_ranges)'}${s.facetNames.length ? `: ${s.facetNames.join(', ')}` : ''}`],
    ['Keyword redirect', s.keywordRedirect ? (s.keywordRedirect.redirectedUrl ?? s.keywordRedirect.redirectedQuery ?? 'yes') : undefined],
    ['First results', s.titles.length ? s.titles.join('<br>') : undefined]
  ]
}

export function summaryMarkdown(r: DeployReport): string {
  const status = r.error ? '❌ Failed' : r.dryRun && r.deploys ? '🔍 Dry run: nothing was changed' : r.deploys ? '✅ Deployed' : '✅ Passed'
  const lines = [r.deploys ? '## Bloomreach Cloud deployment' : '## Bloomreach search check', '']
  lines.push(...table([['Result', status], ...(r.deploys ? deploymentRows(r) : [])], r.deploys ? 'Deployment' : 'Search check'))
  if (r.error) lines.push('', `**Error:** ${r.error.replace(/\r?\n/g, ' ')}`)
  if (r.search) lines.push('', '### Search check', '', ...table(searchRows(r.search), 'Search'))
  if (r.phases.length > 0) {
    lines.push('', '### Phases', '', '| Phase | Time | |', '|---|---:|---|')
    for (const p of r.phases) lines.push(`| ${cell(p.name)} | ${formatDuration(p.ms)} | ${p.ok ? '✓' : '✗'} |`)
  }
  return lines.join('\n') + '\n'
}

export async function writeSummary(report: DeployReport): Promise<void> {
  // Outside a runner (local runs) there is no summary file: skip quietly.
  if (!process.env.GITHUB_STEP_SUMMARY) return
  await core.summary.addRaw(summaryMarkdown(report)).write()
}
