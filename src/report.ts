// What the user sees at the end, derived from the results of the run's steps and nothing else: the
// outputs (one table, OUTPUTS), the notices, and the job summary.
import * as core from '@actions/core'
import type { OutputName } from './action-metadata.js'
import type { DeployResult } from './deploy.js'
import { formatBytes, formatDuration } from './format.js'
import type { Phase } from './phases.js'
import type { SearchResult } from './search/client.js'

/** Everything one run did: what report.ts turns into outputs, notices and the summary. */
export interface RunResult {
  /** Whether the run deploys (false: a search check only). */
  readonly deploys: boolean
  /** What the deployment did, also when it stopped part-way; undefined when it never began. */
  readonly deploy: DeployResult | undefined
  readonly search: SearchResult | undefined
  readonly phases: readonly Phase[]
  /** The failure message, when the run failed. */
  readonly error: string | undefined
}

type OutputValue = string | number | undefined

/**
 * Every output of action.yml and how it is derived (undefined: not set). The type makes this table
 * name each output exactly once; a test checks it against action.yml. Workflows depend on the names.
 */
export const OUTPUTS: { readonly [name in OutputName]: (run: RunResult) => OutputValue } = {
  'cloud-api-url': ({ deploy }) => deploy?.apiUrl,
  'distribution-id': ({ deploy }) => (deploy?.dryRun ? undefined : deploy?.distributionId),
  'distribution-name': ({ deploy }) => deploy?.upload?.storedName ?? deploy?.archive?.name,
  'distribution-size': ({ deploy }) => deploy?.archive?.size,
  'distribution-sha256': ({ deploy }) => deploy?.archive?.sha256,
  'environment-id': ({ deploy }) => (deploy?.deployed ? deploy.environmentId : undefined),
  'pruned-distributions': ({ deploy }) => deploy?.pruned,
  'distribution-reused': ({ deploy }) => (deploy?.reused === undefined ? undefined : String(deploy.reused)),
  'previous-distribution-id': ({ deploy }) => deploy?.previousDistributionId,
  deployed: ({ deploy }) => (deploy?.deployed ? 'true' : deploy?.skipped ? 'false' : undefined),
  'rolled-back': ({ deploy }) => (deploy?.deployed ? String(deploy.rolledBack !== undefined) : undefined),
  'search-num-found': ({ search }) => search?.numFound,
  'search-latency-ms': ({ search }) => search?.latencyMs,
  'search-request-id': ({ search }) => search?.requestId
}

export function outputValues(run: RunResult): Partial<Record<OutputName, string>> {
  const values: Partial<Record<OutputName, string>> = {}
  for (const [name, derive] of Object.entries(OUTPUTS) as Array<[OutputName, (run: RunResult) => OutputValue]>) {
    const value = derive(run)
    if (value !== undefined && value !== '') values[name] = String(value)
  }
  return values
}

/** How the summary and the notice name the search query. */
export function searchLabel(search: Pick<SearchResult, 'type' | 'originalQuery'>): string {
  return search.type === 'category' ? `category '${search.originalQuery}'` : `'${search.originalQuery}'`
}

/** The notices of a run: one for each step that finished. */
export function notices(run: RunResult): string[] {
  const lines: string[] = []
  const d = run.deploy
  if (d?.completed) {
    const what = d.archive?.name ?? d.distributionId ?? 'the distribution'
    if (d.dryRun) {
      const then = d.environmentName ? ` and deploy it to '${d.environmentName}' (${d.environmentId ?? '?'}) with strategy ${d.strategy}` : ''
      const head =
        d.archive && !d.reused
          ? `Dry run: would upload ${d.archive.name} (${formatBytes(d.archive.size)}) to ${d.apiUrl}${then}.`
          : `Dry run: would use distribution ${d.distributionId ?? '?'} (${sourceText(d)})${then}.`
      lines.push(`${head} Nothing was changed.${d.plan.length > 0 ? ` ${d.plan.join(' ')}` : ''}`)
    } else if (d.skipped) {
      lines.push(
        `'${d.environmentName ?? ''}' already runs ${what} (${d.distributionId ?? '?'}) on ${d.target}: nothing deployed. Set force-deploy: true to deploy it again.`
      )
    } else if (d.deployed) {
      const applied = d.appliedAfterMs === undefined ? '' : `; applied after ${formatDuration(d.appliedAfterMs)}`
      const healthy = d.healthyAfterMs === undefined ? '' : `, healthy after ${formatDuration(d.healthyAfterMs)}`
      lines.push(`Deployed ${what} (${d.distributionId ?? '?'}) to '${d.environmentName ?? ''}' on ${d.target}${applied}${healthy}.`)
    } else if (d.upload) {
      lines.push(`Uploaded ${what} as distribution ${d.upload.distributionId} to ${d.target}.`)
    } else if (d.reused) {
      lines.push(`${what} is already on ${d.target} as distribution ${d.distributionId ?? '?'}: nothing uploaded.`)
    }
  }
  const s = run.search
  if (s?.passed) lines.push(`Search check passed: ${searchLabel(s)} found ${s.numFound ?? 0} result(s) in ${s.latencyMs ?? '?'} ms.`)
  return lines
}

/** Where the deployed distribution came from, in words. */
function sourceText(d: DeployResult): string {
  if (d.source === 'id') return 'given by distribution-id'
  if (d.source === 'environment') return `what '${d.fromEnvironment ?? '?'}' runs`
  if (d.reused) return 'an identical one already on the stack, reused'
  return 'uploaded'
}

function cell(value: string | undefined): string {
  return value === undefined || value === '' ? '—' : value.replace(/\|/g, '\\|')
}

function table(rows: Array<[string, string | undefined]>, heading: string): string[] {
  const lines = [`| ${heading} | |`, '|---|---|']
  for (const [k, v] of rows) if (v !== undefined) lines.push(`| ${k} | ${cell(v)} |`)
  return lines
}

/** ", stored as `x`" when the platform stored the distribution under another name than ours. */
function storedAs(d: DeployResult | undefined): string {
  const stored = d?.upload?.storedName
  return stored !== undefined && stored !== d?.archive?.name ? `, stored as \`${stored}\`` : ''
}

function deploymentRows(d: DeployResult | undefined): Array<[string, string | undefined]> {
  const archive = d?.archive
  return [
    ['API address', d?.apiUrl ?? '—'],
    ['Distribution', archive ? `\`${archive.name}\`${archive.source === 'packed' ? ' (packed from a directory)' : ''}${storedAs(d)}` : d ? sourceText(d) : '—'],
    ['Distribution id', d?.distributionId ? `\`${d.distributionId}\`${archive && d.reused ? ' (already on the stack: reused, not uploaded)' : ''}` : '—'],
    ['Size', archive ? `${formatBytes(archive.size)} (${archive.size} bytes)` : d?.source === 'upload' || !d ? '—' : undefined],
    ['SHA-256', archive?.sha256 ? `\`${archive.sha256}\`` : d?.source === 'upload' || !d ? '—' : undefined],
    ['Environment', d?.environmentName ? (d.environmentId ? `${d.environmentName} (\`${d.environmentId}\`)` : d.environmentName) : '— (upload only)'],
    ['Strategy', d?.environmentName ? d.strategy : undefined],
    ['Config files', d?.configFiles.length ? d.configFiles.map((n) => `\`${n}\``).join(', ') : undefined],
    ['Previous distribution', d?.previousDistributionId ? `\`${d.previousDistributionId}\`` : undefined],
    ['Deploy', d?.skipped ? 'skipped: the environment already ran it' : undefined],
    ['Rolled back', d?.rolledBack ? `to \`${d.rolledBack.to}\`: ${d.rolledBack.reason}` : undefined],
    ['Upload attempts', d?.upload ? `${d.upload.attempts}${d.upload.adopted ? ' (answer lost; the stored upload was adopted, no duplicate)' : ''}` : undefined],
    ['Pruned distributions', d?.pruned === undefined ? undefined : String(d.pruned)],
    ['Token renewals', String(d?.tokenRenewals ?? 0)]
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
    [
      'Facet format',
      s.facetFormat === 'none'
        ? 'none returned'
        : `${s.facetFormat === 'v3' ? 'V3 (facet_counts.facets)' : 'legacy (facet_fields/facet_ranges)'}${s.facetNames.length ? `: ${s.facetNames.join(', ')}` : ''}`
    ],
    ['Keyword redirect', s.keywordRedirect ? (s.keywordRedirect.redirectedUrl ?? s.keywordRedirect.redirectedQuery ?? 'yes') : undefined],
    ['First results', s.titles.length ? s.titles.join('<br>') : undefined]
  ]
}

/** The summary's first row. */
function resultText(r: RunResult): string {
  const d = r.deploy
  if (r.error) return d?.rolledBack ? `❌ Failed, rolled back to \`${d.rolledBack.to}\`` : '❌ Failed'
  if (!r.deploys) return '✅ Passed'
  if (d?.dryRun) return '🔍 Dry run: nothing was changed'
  if (d?.skipped) return '✅ Already running: nothing deployed'
  return '✅ Deployed'
}

export function summaryMarkdown(r: RunResult): string {
  const status = resultText(r)
  const lines = [r.deploys ? '## Bloomreach Cloud deployment' : '## Bloomreach search check', '']
  lines.push(...table([['Result', status], ...(r.deploys ? deploymentRows(r.deploy) : [])], r.deploys ? 'Deployment' : 'Search check'))
  if (r.error) lines.push('', `**Error:** ${r.error.replace(/\r?\n/g, ' ')}`)
  const timeline = r.deploy?.timeline ?? []
  if (timeline.length > 0) {
    lines.push('', '### Timeline', '', '| After the deploy request | Event |', '|---:|---|')
    for (const e of timeline) lines.push(`| ${formatDuration(e.afterMs)} | ${cell(e.text)} |`)
  }
  if (r.deploy?.dryRun && r.deploy.plan.length > 0) lines.push('', '### What the run would do', '', ...r.deploy.plan.map((p) => `- ${p}`))
  if (r.search) lines.push('', '### Search check', '', ...table(searchRows(r.search), 'Search'))
  if (r.phases.length > 0) {
    lines.push('', '### Phases', '', '| Phase | Time | |', '|---|---:|---|')
    for (const p of r.phases) lines.push(`| ${cell(p.name)} | ${formatDuration(p.ms)} | ${p.ok ? '✓' : '✗'} |`)
  }
  return lines.join('\n') + '\n'
}

/** Sets the outputs, shows the notices and writes the job summary of a run. */
export async function report(run: RunResult): Promise<void> {
  for (const [name, value] of Object.entries(outputValues(run))) core.setOutput(name, value)
  for (const line of notices(run)) core.notice(line)
  // Outside a runner (local runs) there is no summary file: skip quietly.
  if (!process.env.GITHUB_STEP_SUMMARY) return
  await core.summary.addRaw(summaryMarkdown(run)).write()
}
