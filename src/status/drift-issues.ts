// Drift issues (docs/status.md, "Drift issues"): one issue (GitHub's or GitLab's) per drifted environment, kept from the status report
// (brcloud status --drift-issues, the status action's drift-issues: true). Opened when an environment drifts, its body
// rewritten in place while it drifts (only when what it says changed), closed with a comment once it runs the tracked
// ref's head again. An issue is found by a hidden marker in its body among the open issues of one label, never by its
// title, and a key never gets a second issue. A row that could not be told (unknown) or is switching (deploying) is no
// evidence: its issue is left as it is. The only writes of the report, and only to the code host's issues.
import * as core from '../port.js'
import { describeError } from '../errors.js'
import { openCodeHost } from '../code-host/open.js'
import { short, type CodeHost, type HostName, type IssueRecord } from '../code-host/port.js'
import type { CodeHostInputs } from '../inputs/code-host.js'
import type { RunContext } from '../port.js'
import { redact } from '../secrets.js'
import type { StatusReport } from './index.js'
import type { DriftState, EnvironmentRow } from './row.js'
import type { FailOn } from './verdict.js'

/** The label every drift issue carries: the list is read by it. */
export const DRIFT_LABEL = 'brcloud-drift'
const LABEL_COLOR = 'd93f0b'
const LABEL_DESCRIPTION = 'An environment that does not run its tracked ref (brcloud status, drift issues)'

/** The states that open an issue when no fail-on list is given. */
export const DEFAULT_ISSUE_STATES: readonly DriftState[] = ['behind', 'ahead', 'diverged', 'outside', 'empty']
/** States that say nothing about what runs: an issue is neither opened nor closed for them. */
const NO_EVIDENCE: readonly DriftState[] = ['unknown', 'deploying']

/** Where the body's part that is compared ends: below it, the run that last wrote it (which changes every run). */
const RUN_LINE = '<!-- brcloud-drift-run -->'
const MARKER = /<!-- brcloud-drift stack=(\S+) environment=(\S+) -->/

/** The calls of the code host's door the issues need (src/code-host/port.ts). */
export type IssueTracker = Pick<CodeHost, 'listOpenIssues' | 'createIssue' | 'editIssue' | 'commentOnIssue' | 'ensureLabel'>

export interface DriftIssueOptions {
  /** The fail-on states: when any, they (less in-sync, unknown and deploying) open issues instead of the default ones. */
  readonly failOn: readonly DriftState[]
  /** This run's page, named in what the issues say. */
  readonly runUrl: string | undefined
  /** GitHub's web address (GITHUB_SERVER_URL), for links to commits of the report's repository. */
  readonly serverUrl: string
  /** A commit's page on the code's host (GitLab's differ from GitHub's); GitHub's form from serverUrl when absent. */
  readonly commitUrl?: ((sha: string) => string) | undefined
  /** How the host calls a recorded deployment ("GitLab deployment"); GitHub's when absent. */
  readonly deploymentNoun?: string | undefined
  /** The host keeping the issues, for messages; GitHub when absent. */
  readonly host?: HostName | undefined
}

export interface DriftIssueOutcome {
  readonly opened: number[]
  readonly updated: number[]
  readonly closed: number[]
  /** One line per failure to keep an issue; the face fails on any (the user asked for the issues). */
  readonly failures: string[]
}

/** The states that open an issue: fail-on's (less those that never do), else the default ones. */
export function issueStates(failOn: readonly DriftState[]): DriftState[] {
  const given = failOn.filter((s) => s !== 'in-sync' && !NO_EVIDENCE.includes(s))
  return failOn.length > 0 ? given : [...DEFAULT_ISSUE_STATES]
}

/** The hidden marker that names the issue's environment. */
export function driftMarker(stack: string, environment: string): string {
  return `<!-- brcloud-drift stack=${encodeURIComponent(stack)} environment=${encodeURIComponent(environment)} -->`
}

function keyOf(stack: string, environment: string): string {
  return `${stack}\u0000${environment}`
}

/** The stack and environment a body's marker names, decoded; undefined without one, or with one that cannot be decoded. */
export function markerOf(body: string): { stack: string; environment: string } | undefined {
  const m = MARKER.exec(body)
  if (m === null) return undefined
  try {
    return { stack: decodeURIComponent(m[1] as string), environment: decodeURIComponent(m[2] as string) }
  } catch {
    return undefined
  }
}

function markedKey(body: string): string | undefined {
  const marked = markerOf(body)
  return marked === undefined ? undefined : keyOf(marked.stack, marked.environment)
}

/**
 * The issues of the run's repository (`run.repository`, or the GitLab project) kept through the code host's door (a GitHub
 * token with issues: write, a GitLab token with api); a client that cannot be made is a failure in the outcome, as any other.
 */
export async function keepDriftIssuesOf(report: StatusReport, host: CodeHostInputs, run: RunContext, failOn: readonly FailOn[]): Promise<DriftIssueOutcome> {
  let api: CodeHost | undefined
  try {
    api = await openCodeHost(host, undefined, run)
    if (api === undefined) throw new Error('no token of the code host is set')
  } catch (error) {
    const line = redact(describeError(error))
    core.warning(`Drift issues: ${line}`)
    return { opened: [], updated: [], closed: [], failures: [line] }
  }
  // Drift issues follow the state axis: a failing health probe (fail-on unhealthy) is not drift and opens none.
  const states = failOn.filter((s): s is DriftState => s !== 'unhealthy')
  const hostLinks = api.host === 'GitHub' ? {} : { commitUrl: (sha: string) => api.commitUrl(sha), deploymentNoun: api.deploymentNoun, host: api.host }
  return keepDriftIssues(report, api, { failOn: states, runUrl: run.runUrl, serverUrl: run.serverUrl, ...hostLinks })
}

/** Why the step fails for its issues (`name`: the setting, as each face calls it), or undefined when every one was kept. */
export function driftIssuesFailure(outcome: DriftIssueOutcome, name: string): string | undefined {
  const n = outcome.failures.length
  if (n === 0) return undefined
  return `${name}: ${n === 1 ? 'a drift issue' : `${n} drift issues`} could not be kept (the report itself was read): ${outcome.failures.join('; ')}`
}

/** Keeps one issue per environment of `report` in `tracker`'s repository; never throws: failures are in the outcome. */
export async function keepDriftIssues(report: StatusReport, tracker: IssueTracker, options: DriftIssueOptions): Promise<DriftIssueOutcome> {
  const outcome: DriftIssueOutcome = { opened: [], updated: [], closed: [], failures: [] }
  const fail = (message: string): void => {
    const line = redact(message)
    outcome.failures.push(line)
    core.warning(`Drift issues: ${line}`)
  }
  let open: IssueRecord[]
  try {
    open = await tracker.listOpenIssues(DRIFT_LABEL)
  } catch (error) {
    fail(`${describeError(error)}; no issue was opened, edited or closed.`)
    return outcome
  }
  const byKey = new Map<string, IssueRecord[]>()
  for (const issue of [...open].sort((a, b) => a.number - b.number)) {
    const key = markedKey(issue.body)
    if (key !== undefined) byKey.set(key, [...(byKey.get(key) ?? []), issue])
  }
  const opening = issueStates(options.failOn)
  let label: Promise<void> | undefined
  const keeper = { tracker, options, report, outcome, opening, ensureLabel: () => (label ??= tracker.ensureLabel(DRIFT_LABEL, LABEL_COLOR, LABEL_DESCRIPTION)) }
  for (const row of report.environments) {
    if (row.environment === null) continue // a stack not read at all: which environments it has is not known
    const where = `${row.stack}/${row.environment}`
    const issues = byKey.get(keyOf(row.stack, row.environment)) ?? []
    if (issues.length > 1)
      core.warning(
        `Drift issues: ${issues.map((i) => `#${i.number}`).join(', ')} all track ${where}; #${issues[0]?.number} (the oldest) is kept, close the others by hand.`
      )
    try {
      await keepOne(keeper, row as EnvironmentRow & { environment: string }, where, issues[0])
    } catch (error) {
      fail(`${where}: ${describeError(error)}`)
    }
  }
  const counts = `${outcome.opened.length} opened, ${outcome.updated.length} updated, ${outcome.closed.length} closed`
  core.info(`Drift issues: ${counts}${outcome.failures.length > 0 ? `, ${outcome.failures.length} failed` : ''}.`)
  return outcome
}

interface Keeper {
  readonly tracker: IssueTracker
  readonly options: DriftIssueOptions
  readonly report: StatusReport
  readonly outcome: DriftIssueOutcome
  readonly opening: readonly DriftState[]
  ensureLabel(): Promise<void>
}

async function keepOne(k: Keeper, row: EnvironmentRow & { environment: string }, where: string, issue: IssueRecord | undefined): Promise<void> {
  if (NO_EVIDENCE.includes(row.state)) {
    const left = issue === undefined ? 'no issue opened' : `issue #${issue.number} left as it is`
    core.info(`Drift issues: ${where} is ${row.state}: ${left} (${row.state === 'unknown' ? 'what it runs could not be told' : 'it is switching'}).`)
    return
  }
  if (row.state === 'in-sync') {
    if (issue === undefined) return
    await k.tracker.commentOnIssue(issue.number, closingComment(k, row, where))
    await k.tracker.editIssue(issue.number, { state: 'closed', stateReason: 'completed' })
    k.outcome.closed.push(issue.number)
    core.info(`Drift issues: ${where} is in-sync again: issue #${issue.number} closed.`)
    return
  }
  const title = issueTitle(row, where)
  const content = issueContent(k, row, where)
  if (issue !== undefined) {
    // Not every run: only when what the issue says changed (the run line below the content aside). A title
    // someone changed by hand stays until then.
    if (contentOf(issue.body) === content) return
    await k.tracker.editIssue(issue.number, { title, body: withRunLine(k, content) })
    k.outcome.updated.push(issue.number)
    core.info(`Drift issues: ${where} is ${row.state}: issue #${issue.number} updated.`)
    return
  }
  // A state fail-on leaves out keeps an open issue current, but opens none.
  if (!k.opening.includes(row.state)) return
  await k.ensureLabel()
  const created = await k.tracker.createIssue(title, withRunLine(k, content), [DRIFT_LABEL])
  k.outcome.opened.push(created.number)
  core.info(`Drift issues: ${where} is ${row.state}: issue #${created.number} opened${created.htmlUrl ? ` (${created.htmlUrl})` : ''}.`)
  // GitHub drops the labels of a token without push access, silently (a host that does the same is caught too): the next run would not find the issue and open another.
  if (!created.labels.includes(DRIFT_LABEL))
    throw new Error(
      `${k.options.host ?? 'GitHub'} did not set the label ${DRIFT_LABEL} on issue #${created.number} (the token cannot set labels): the next run would not find it.`
    )
}

function issueTitle(row: EnvironmentRow, where: string): string {
  return `Drift: ${where} is ${row.state}${row.track !== null && ['behind', 'ahead', 'diverged'].includes(row.state) ? ` (${row.track})` : ''}`
}

/** The state as a word and its count, as the table shows it. */
function stateWords(row: EnvironmentRow): string {
  if (row.state === 'behind') return `behind by ${row.behindBy ?? '?'}`
  if (row.state === 'ahead') return `ahead by ${row.aheadBy ?? '?'}`
  if (row.state === 'diverged') return `diverged: ${row.aheadBy ?? '?'} ahead, ${row.behindBy ?? '?'} behind`
  return row.state
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')
}

function commitText(k: Keeper, row: EnvironmentRow): string {
  if (row.commit === null) return 'not known'
  const sha = `\`${short(row.commit)}\``
  const url = k.options.commitUrl?.(row.commit) ?? `${k.options.serverUrl}/${k.report.repository ?? ''}/commit/${row.commit}`
  const linked = /^[0-9a-f]{40}$/i.test(row.commit) && k.report.repository !== null ? `[${sha}](${url})` : sha
  return `${linked} (evidence: ${row.evidence}${row.evidenceDeploymentId === null ? '' : `, ${noun(k)} ${row.evidenceDeploymentId}`})`
}

function noun(k: Keeper): string {
  return k.options.deploymentNoun ?? 'GitHub Deployment'
}

function runsText(row: EnvironmentRow): string {
  if (row.distributionId === null) return 'nothing'
  const name = row.distributionName === null ? '' : `\`${row.distributionName}\` `
  const uploaded = [row.createdAt, row.createdBy === null ? null : `by ${row.createdBy}`].filter((s) => s !== null).join(' ')
  return `${name}(id \`${row.distributionId}\`)${uploaded === '' ? '' : `, uploaded ${uploaded}`}`
}

function lastDeploymentText(row: EnvironmentRow): string {
  const d = row.lastDeployment
  if (d === null) return 'none'
  const what = [d.commit === null ? 'commit unknown' : short(d.commit), d.state, d.by === null ? null : `by ${d.by}`, d.at === null ? null : `at ${d.at}`]
    .filter((s) => s !== null)
    .join(' ')
  return d.runUrl === null ? what : `[${what}](${d.runUrl})`
}

/** What the issue says about the environment: the part compared between runs. */
function issueContent(k: Keeper, row: EnvironmentRow & { environment: string }, where: string): string {
  const lines = [
    driftMarker(row.stack, row.environment),
    `**${where}** is **${stateWords(row)}**${row.track === null ? '' : ` against \`${row.track}\``}.`,
    '',
    '| | |',
    '|---|---|',
    `| State | ${cell(stateWords(row))} |`,
    `| Tracked ref | ${row.track === null ? 'none' : `\`${cell(row.track)}\``} |`,
    `| Runs | ${cell(runsText(row))} |`,
    `| Commit | ${cell(commitText(k, row))} |`,
    `| Last ${noun(k)} | ${cell(lastDeploymentText(row))} |`,
    ...(row.reason === null ? [] : [`| Why | ${cell(row.reason)} |`]),
    ...(row.platformStatus === null ? [] : [`| Platform status | ${cell(row.platformStatus)} |`]),
    '',
    'Kept by the brcloud status report (drift issues): updated while this environment drifts, closed once it runs the',
    "tracked ref's head again. An edit above the line below is written over by the next run that sees a change."
  ]
  return redact(lines.join('\n'))
}

function withRunLine(k: Keeper, content: string): string {
  return `${content}\n\n${RUN_LINE}\n${k.options.runUrl === undefined ? 'Last written by brcloud status.' : `Last written by [this run](${k.options.runUrl}).`}\n`
}

/** The part of a body above the run line, line breaks as \n (an edit on github.com writes \r\n). */
function contentOf(body: string): string {
  return (body.split(RUN_LINE)[0] ?? '').replace(/\r\n/g, '\n').trimEnd()
}

function closingComment(k: Keeper, row: EnvironmentRow, where: string): string {
  const runs = row.distributionId === null ? '' : `: ${runsText(row)}, commit ${commitText(k, row)}`
  const by = k.options.runUrl === undefined ? '' : ` ([the run](${k.options.runUrl}))`
  return redact(`${where} runs the head of \`${row.track ?? '?'}\` again${runs}. Closed by the brcloud status report${by}.`)
}
