// `brcloud status` as a trace (issue 45, docs/tracing.md, docs/status.md "Tracing"), planned from the report alone
// after the command decided its exit: a root span for the command, a span per stack read with a span per environment
// row in it (and the row's health probe), and a client span per call to the code's host. Every time is one the
// report observed (src/status/timing.ts); a row's attributes are exactly the row's values in --json (nulls left out,
// known secrets masked), a stack's its entry in --json's stacks. Pure data, like ./plan.ts: sent by ./send.ts.
import type { HealthAttempt } from '../health.js'
import type { RunContext } from '../port.js'
import { redact } from '../secrets.js'
import type { StackOutcome, StatusReport } from '../status/index.js'
import type { EnvironmentRow } from '../status/row.js'
import type { StatusStop } from '../status/stop.js'
import type { HostRead, Timed } from '../status/timing.js'
import { defined, type Attributes, type AttributeValue, type PlannedSpan } from './plan.js'

/** How the command ended, in the words of OpenTelemetry's CICD task runs. */
export interface StatusEnding {
  readonly result: 'success' | 'failure' | 'cancellation'
  /** Why it failed, in a word a viewer groups by: unreadable, fail-on, drift-issues, cancelled, the refusal's class (InputError). */
  readonly errorType?: string | undefined
  /** The one error line the command wrote (the step's failure). */
  readonly message?: string | undefined
  /** The command's exit code (the CLI's; the action's step has none of its own). */
  readonly exitCode?: number | undefined
  readonly stopped?: StatusStop | undefined
}

export interface StatusTraceFacts {
  readonly context: RunContext
  /** Date.now() when the command began, and when it had decided its exit (before the trace is sent). */
  readonly startedAt: number
  readonly endedAt: number
  readonly ending: StatusEnding
}

export const STATUS_SPAN = 'brcloud status'
export const STACK_SPAN = 'read stack'
export const ENVIRONMENT_SPAN = 'read environment'

/** The command's trace; `report` is undefined when there was none (refused, cancelled): the root span alone. */
export function planStatusTrace(report: StatusReport | undefined, facts: StatusTraceFacts): PlannedSpan {
  const root: Timed = { startedAt: facts.startedAt, endedAt: Math.max(facts.startedAt, facts.endedAt) }
  const stacks = (report?.stacks ?? []).map((stack) => stackSpan(stack, report?.environments.filter((r) => r.stack === stack.name) ?? [], report, root))
  const reads = (report?.hostReads ?? []).map((read) => hostReadSpan(read, root))
  return span(STATUS_SPAN, 'internal', root, rootAttributes(report, facts), rootStatus(facts.ending), byStart([...stacks, ...reads]))
}

/** OpenTelemetry's CICD task-run attributes, as the deploy's root has them, and what the report read as a whole. */
function rootAttributes(report: StatusReport | undefined, { context, ending }: StatusTraceFacts): Attributes {
  const errors = report === undefined ? undefined : [...report.githubErrors, ...report.trackErrors].map(redact)
  return defined({
    'cicd.pipeline.task.name': STATUS_SPAN,
    'cicd.pipeline.task.run.result': ending.result,
    'cicd.pipeline.run.id': context.runId || undefined,
    'cicd.pipeline.run.url.full': context.runUrl,
    'error.type': ending.result === 'success' ? undefined : (ending.errorType ?? '_OTHER'),
    // OpenTelemetry's VCS conventions, as the deploy's root: the repository's own name, and its address when GitHub was read.
    'vcs.repository.name': report?.repository?.split('/').at(-1) || undefined,
    'vcs.repository.url.full':
      report?.host === 'GitHub' && report.repository !== null ? `${context.serverUrl.replace(/\/+$/, '')}/${report.repository}` : undefined,
    'brcloud.status.exit_code': ending.exitCode,
    'brcloud.status.stopped': ending.stopped,
    'brcloud.status.code_host': report?.host,
    'brcloud.status.code_host.errors': errors,
    'brcloud.status.environments': report?.environments.length,
    'brcloud.status.drift': report === undefined ? undefined : report.environments.some((r) => r.state !== 'in-sync')
  })
}

function rootStatus(ending: StatusEnding): PlannedSpan['status'] {
  if (ending.result === 'success') return { code: 'ok' }
  return { code: 'error', message: redact(ending.message ?? ending.errorType ?? ending.result) }
}

/** A stack's read, its environments' rows within it; its attributes are its entry in --json's stacks. */
function stackSpan(stack: StackOutcome, rows: readonly EnvironmentRow[], report: StatusReport | undefined, root: Timed): PlannedSpan {
  const times = inside(stack.timing ?? root, root)
  const read = stack.errors.length === 0
  const attributes = defined({
    'brcloud.stack': stack.name,
    'brcloud.stack.api_url': stack.apiUrl,
    'brcloud.stack.read': read,
    'brcloud.stack.errors': stack.errors.map(redact)
  })
  const status: PlannedSpan['status'] = read ? { code: 'ok' } : { code: 'error', message: redact(stack.errors.join('; ')) }
  const children = rows.map((row) => rowSpan(row, stack, report, times))
  return span(STACK_SPAN, 'internal', times, attributes, status, byStart(children))
}

/** An environment row: its own read's times (a row not read on its own, its stack's), its health probe inside. */
function rowSpan(row: EnvironmentRow, stack: StackOutcome, report: StatusReport | undefined, parent: Timed): PlannedSpan {
  const own = row.environment === null ? undefined : stack.timing?.environments.find((t) => t.environment === row.environment)
  const times = inside(own ?? parent, parent)
  const unread = unreadReason(row, stack, report)
  const status: PlannedSpan['status'] = unread === undefined ? { code: 'ok' } : { code: 'error', message: redact(unread) }
  const probe = own?.probe === undefined ? [] : [probeSpan(own.probe, times)]
  return span(ENVIRONMENT_SPAN, 'internal', times, rowAttributes(row), status, probe)
}

/** The row's reason, when the report counts it among what could not be read (a stack's, the code host's, a tracked ref's). */
function unreadReason(row: EnvironmentRow, stack: StackOutcome, report: StatusReport | undefined): string | undefined {
  const reason = row.reason
  if (reason === null) return undefined
  const failures = [...stack.errors, ...(report?.githubErrors ?? []), ...(report?.trackErrors ?? [])]
  return failures.includes(reason) || failures.includes(`${row.environment ?? ''}: ${reason}`) ? reason : undefined
}

/**
 * A row's values as attributes, exactly as --json prints them (null ones left out): `stack` and `environment` as the
 * deploy names them (brcloud.stack, brcloud.environment), every other field brcloud.status.<field in snake case>, an
 * object's fields under its name (brcloud.status.last_deployment.commit, brcloud.status.backup.age_hours).
 */
function rowAttributes(row: EnvironmentRow): Attributes {
  const out: Record<string, AttributeValue> = {}
  const walk = (value: object, path: readonly string[]): void => {
    for (const [key, v] of Object.entries(value) as Array<[string, unknown]>) {
      const at = [...path, key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]
      if (v === null || v === undefined) continue
      if (typeof v === 'object') walk(v, at)
      else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[rowAttributeName(at)] = typeof v === 'string' ? redact(v) : v
    }
  }
  walk(row, [])
  return out
}

function rowAttributeName(path: readonly string[]): string {
  const name = path.join('.')
  return name === 'stack' || name === 'environment' ? `brcloud.${name}` : `brcloud.status.${name}`
}

/** The health probe's one GET (redirects followed within it), as the deploy's health attempts are spans. */
function probeSpan(a: HealthAttempt, parent: Timed): PlannedSpan {
  const attributes = defined({
    'http.request.method': 'GET',
    'url.full': redact(a.url),
    'http.response.status_code': a.status,
    'brcloud.health.result': redact(a.what)
  })
  return span('GET', 'client', inside(a, parent), attributes, a.ok ? { code: 'unset' } : { code: 'error', message: redact(a.what) }, [])
}

/** One call to the code's host ("GitHub compare"), shared by the rows that asked it: a child of the root. */
function hostReadSpan(read: HostRead, root: Timed): PlannedSpan {
  const attributes = defined({ 'brcloud.code_host': read.host, 'brcloud.code_host.call': read.call, 'error.type': read.failure })
  const status: PlannedSpan['status'] = read.failure === undefined ? { code: 'unset' } : { code: 'error', message: read.failure }
  return span(`${read.host} ${read.call}`, 'client', inside(read, root), attributes, status, [])
}

function span(
  name: string,
  kind: PlannedSpan['kind'],
  times: Timed,
  attributes: Attributes,
  status: PlannedSpan['status'],
  children: readonly PlannedSpan[]
): PlannedSpan {
  return { name, kind, start: times.startedAt, end: times.endedAt, attributes, events: [], status, children }
}

/** `times` within `parent`'s: the clock may step while a read runs, and a child never outlasts its parent. */
function inside(times: Timed, parent: Timed): Timed {
  const startedAt = Math.min(Math.max(times.startedAt, parent.startedAt), parent.endedAt)
  return { startedAt, endedAt: Math.min(Math.max(times.endedAt, startedAt), parent.endedAt) }
}

function byStart(spans: readonly PlannedSpan[]): PlannedSpan[] {
  return [...spans].sort((a, b) => a.start - b.start)
}
