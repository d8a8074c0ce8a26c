// What the user sees at the end: outputs, the job summary, and the timing of each phase.
import * as core from '@actions/core'
import { formatBytes, formatDuration } from './progress.js'

/** Output names, as in action.yml. Workflows depend on them: never rename one. */
export const Output = {
  CloudApiUrl: 'cloud-api-url',
  DistributionId: 'distribution-id',
  DistributionName: 'distribution-name',
  DistributionSize: 'distribution-size',
  DistributionSha256: 'distribution-sha256',
  EnvironmentId: 'environment-id',
  PrunedDistributions: 'pruned-distributions'
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

export function summaryMarkdown(r: DeployReport): string {
  const status = r.error ? '❌ Failed' : r.dryRun ? '🔍 Dry run: nothing was changed' : '✅ Deployed'
  const rows: Array<[string, string | undefined]> = [
    ['Result', status],
    ['API address', r.apiUrl],
    ['Distribution', r.distributionName && `\`${r.distributionName}\`${r.distributionSource === 'packed' ? ' (packed from a directory)' : ''}`],
    ['Distribution id', r.distributionId && `\`${r.distributionId}\``],
    ['Size', r.size === undefined ? undefined : `${formatBytes(r.size)} (${r.size} bytes)`],
    ['SHA-256', r.sha256 && `\`${r.sha256}\``],
    ['Environment', r.environmentName && (r.environmentId ? `${r.environmentName} (\`${r.environmentId}\`)` : r.environmentName)],
    ['Strategy', r.environmentName ? r.strategy : undefined],
    ['Upload attempts', r.uploadAttempts === undefined ? undefined : `${r.uploadAttempts}${r.uploadAdopted ? ' (answer lost; the stored upload was adopted, no duplicate)' : ''}`],
    ['Pruned distributions', r.pruned === undefined ? undefined : String(r.pruned)],
    ['Token renewals', String(r.tokenRenewals)]
  ]
  const lines = ['## Bloomreach Cloud deployment', '', '| | |', '|---|---|']
  for (const [k, v] of rows) lines.push(`| ${k} | ${cell(v)} |`)
  if (r.error) lines.push('', `**Error:** ${r.error.replace(/\r?\n/g, ' ')}`)
  if (r.phases.length > 0) {
    lines.push('', '| Phase | Time | |', '|---|---:|---|')
    for (const p of r.phases) lines.push(`| ${cell(p.name)} | ${formatDuration(p.ms)} | ${p.ok ? '✓' : '✗'} |`)
  }
  return lines.join('\n') + '\n'
}

export async function writeSummary(report: DeployReport): Promise<void> {
  // Outside a runner (local runs) there is no summary file: skip quietly.
  if (!process.env.GITHUB_STEP_SUMMARY) return
  await core.summary.addRaw(summaryMarkdown(report)).write()
}
