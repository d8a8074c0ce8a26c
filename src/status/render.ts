// The status report for people and programs: a plain table for a terminal, Markdown for a job summary, and the
// JSON object of --json. From the report alone; every text scrubbed of known secrets (an error may echo one).
import { short } from '../github/client.js'
import { redact } from '../secrets.js'
import type { StatusReport } from './index.js'
import type { EnvironmentRow } from './row.js'
import type { TraceNote } from '../tracing/config.js'

/** The report's trace, when tracing is on (./trace.ts). */
export type { TraceNote }

/** The state as a word and its count: "behind 3", "diverged +1 -2". */
function stateCell(row: EnvironmentRow): string {
  if (row.state === 'behind') return `behind ${row.behindBy ?? '?'}`
  if (row.state === 'ahead') return `ahead ${row.aheadBy ?? '?'}`
  if (row.state === 'diverged') return `diverged +${row.aheadBy ?? '?'} -${row.behindBy ?? '?'}`
  return row.state
}

function uploaded(row: EnvironmentRow): string {
  if (row.createdAt === null && row.createdBy === null) return ''
  return [row.createdAt ?? '', row.createdBy === null ? '' : `by ${row.createdBy}`].filter((s) => s !== '').join(' ')
}

/** The health probe's verdict: ok, failing, or '-' where no probe is set. */
function healthCell(row: EnvironmentRow): string {
  return row.health === 'not-checked' ? '-' : row.health
}

/** The tracked ref; for a tag pattern, the tag it stood for: "v1.4.0 (v*)". */
function trackCell(row: EnvironmentRow): string {
  if (row.track === null) return ''
  return row.trackedRef === null || row.trackedRef === row.track ? row.track : `${row.trackedRef} (${row.track})`
}

/** A freeze in force: when it ends, to the minute in UTC ("until 2026-11-30T06:00Z"); the words are in the lines below. */
function freezeCell(row: EnvironmentRow): string {
  return row.freeze === null ? '' : `until ${row.freeze.endsAt.slice(0, 16)}Z`
}

/** An age for a person: minutes under an hour, hours under two days, then days. */
export function formatAge(hours: number): string {
  if (hours < 1) return `${Math.round(hours * 60)}m`
  if (hours < 48) return `${Math.round(hours * 10) / 10}h`
  return `${Math.round((hours / 24) * 10) / 10}d`
}

/** The newest backup: "b-7 (5.2h old)", none, or unknown (its reason among the row's lines); nothing where it was not read. */
function backupCell(row: EnvironmentRow): string {
  const b = row.backup
  if (b.state === 'found') return `${b.id ?? ''} (${formatAge(b.ageHours ?? 0)} old)`
  if (b.state === 'none') return 'none'
  return b.reason === null ? '' : 'unknown'
}

function columns(row: EnvironmentRow): string[] {
  return [
    row.stack,
    row.environment ?? '(all)',
    stateCell(row),
    healthCell(row),
    trackCell(row),
    row.commit === null ? '' : short(row.commit),
    row.commit === null ? '' : row.evidence,
    row.distributionName ?? row.distributionId ?? '',
    uploaded(row),
    freezeCell(row),
    backupCell(row)
  ]
}

const HEADINGS = ['STACK', 'ENVIRONMENT', 'STATE', 'HEALTH', 'TRACK', 'COMMIT', 'EVIDENCE', 'DISTRIBUTION', 'UPLOADED', 'FROZEN', 'BACKUP']

/** Aligned columns, then one line per row whose state needs a reason, then what could not be read. */
export function statusTable(report: StatusReport): string {
  const lines = [HEADINGS, ...report.environments.map(columns)]
  const widths = HEADINGS.map((_, i) => Math.max(...lines.map((l) => (l[i] ?? '').length)))
  const out = lines.map((l) =>
    l
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd()
  )
  const reasons = report.environments.flatMap((r) => whyLines(r).map((why) => `  ${r.stack}/${r.environment ?? '(all)'}: ${why}`))
  if (reasons.length > 0) out.push('', 'Why:', ...reasons)
  const failures = failureLines(report)
  if (failures.length > 0) out.push('', 'Not read:', ...failures.map((f) => `  ${f}`))
  return redact(`${out.join('\n')}\n`)
}

/** Why the state is what it is, why the probe failed, the freeze in force, why the backups are unknown: each its own line. */
function whyLines(row: EnvironmentRow, withFreeze = true): string[] {
  return [
    row.reason,
    row.healthReason === null ? null : `health: ${row.healthReason}`,
    row.freeze === null || !withFreeze ? null : `frozen: ${row.freeze.until}`,
    row.backup.reason === null ? null : `backup: ${row.backup.reason}`
  ].filter((w): w is string => w !== null)
}

/** The newest backup for the summary: its id, when it was taken and its age; none; unknown. */
function backupWords(row: EnvironmentRow): string {
  const b = row.backup
  if (b.state === 'found') return `\`${b.id ?? ''}\` taken ${b.createdAt ?? '?'} (${formatAge(b.ageHours ?? 0)} old)`
  return backupCell(row)
}

function failureLines(report: StatusReport): string[] {
  return [...report.stacks.flatMap((s) => s.errors.map((e) => `stack ${s.name}: ${e}`)), ...report.githubErrors, ...report.trackErrors]
}

/** A Markdown cell: pipes escaped, line breaks as spaces. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')
}

function lastDeploy(row: EnvironmentRow): string {
  const d = row.lastDeployment
  if (d === null) return ''
  const what = `${d.commit === null ? 'commit unknown' : short(d.commit)} ${d.state ?? ''}${d.by ? ` by ${d.by}` : ''}${d.at ? ` at ${d.at}` : ''}`
    .replace(/\s+/g, ' ')
    .trim()
  return d.runUrl ? `[${what}](${d.runUrl})` : what
}

/** The job summary: a heading, one table row per environment (with its reason), what could not be read, and the trace's line. */
export function statusMarkdown(report: StatusReport, trace?: TraceNote): string {
  const head = [
    'Stack',
    'Environment',
    'State',
    'Health',
    'Track',
    'Commit',
    'Evidence',
    'Distribution',
    'Uploaded',
    report.host === 'GitLab' ? 'Last GitLab deployment' : 'Last GitHub Deployment',
    'Frozen',
    'Newest backup',
    'Why'
  ]
  const rows = report.environments.map((r) => {
    const [stack, environment, state, health, track, commit, evidence, distribution, up] = columns(r)
    return [
      stack,
      environment,
      `**${state}**`,
      health,
      track,
      commit === '' ? '' : `\`${commit}\``,
      evidence,
      distribution,
      up,
      lastDeploy(r),
      r.freeze === null ? '' : r.freeze.until,
      backupWords(r),
      // The freeze has its own column here.
      whyLines(r, false).join(' ')
    ]
  })
  const table = [head, head.map(() => '---'), ...rows].map((l) => `| ${l.map((c) => cell(c ?? '')).join(' | ')} |`)
  const failures = failureLines(report)
  const lines = [
    '## What runs where',
    '',
    report.repository === null ? '' : `Repository: ${report.repository}`,
    '',
    ...table,
    ...(failures.length > 0 ? ['', '**Not read** (the report fails closed):', '', ...failures.map((f) => `- ${cell(f)}`)] : []),
    ...(trace === undefined ? [] : ['', traceLine(trace)])
  ]
  return redact(`${lines.filter((l, i, all) => !(l === '' && all[i - 1] === '')).join('\n')}\n`)
}

/** The trace's line: its id, and that it is sent after this summary (a warning in the log says when it was not). */
function traceLine(trace: TraceNote): string {
  const joined = trace.joined ? ", in the pipeline's trace (TRACEPARENT)" : ''
  return `Trace \`${trace.id}\`${joined}: its spans are sent to ${trace.collector} after this summary; the log says if they were not.`
}

/** The --json object: the rows as they are, what could not be read, and with tracing on the trace's id (traceId). */
export function statusJson(report: StatusReport, trace?: TraceNote): string {
  return redact(
    `${JSON.stringify({
      environments: report.environments,
      stacks: report.stacks.map((s) => ({ name: s.name, apiUrl: s.apiUrl, read: s.errors.length === 0, errors: s.errors })),
      // A tracked ref GitHub does not know is among GitHub's errors: what GitHub could not tell.
      github: { repository: report.repository, errors: [...report.githubErrors, ...report.trackErrors] },
      ...(trace !== undefined && { traceId: trace.id })
    })}\n`
  )
}
