// The run as a trace (issue 45, docs/tracing.md), planned from its result alone, after the run: every span's times
// are ones the run observed (a phase's start and end, a health attempt's, a release state's evidence), every
// attribute is an output or an input the run had, every status follows the outcome. Pure data: no OpenTelemetry here
// (tracing/send.ts turns the plan into spans), so the simulation can check a plan against the outputs and the events.
import type { Phase } from '../phases.js'
import type { RunContext } from '../port.js'
import { headline, outputValues, type RunResult } from '../report.js'
import type { ObservedRun } from '../events/observed.js'
import type { DeployResult } from '../deploy/result.js'
import type { EnvironmentLook } from '../deploy/look.js'
import type { HealthAttempt } from '../health.js'
import type { Transition } from '../deploy/release-state.js'
import { spanNameOf } from './names.js'

export type AttributeValue = string | number | boolean | readonly string[]
export type Attributes = Readonly<Record<string, AttributeValue>>

export interface PlannedEvent {
  readonly name: string
  readonly at: number
  readonly attributes: Attributes
}

export interface PlannedSpan {
  readonly name: string
  readonly kind: 'internal' | 'client'
  /** Date.now() values: when it began and ended, as observed. */
  readonly start: number
  readonly end: number
  readonly attributes: Attributes
  readonly events: readonly PlannedEvent[]
  /** 'ok' when it passed, 'error' (with the message) when it failed, 'unset' when it says neither. */
  readonly status: { readonly code: 'ok' | 'error' | 'unset'; readonly message?: string | undefined }
  readonly children: readonly PlannedSpan[]
}

/** What the run knew beside its result (as the event sinks get it). */
export interface TraceFacts {
  readonly context: RunContext
  readonly startedAt: number
  readonly endedAt: number
  /** The failure the run ended with: its class names error.type. */
  readonly failure: unknown
  readonly stack: string | undefined
  /** What the events tell of this run (undefined: no events for it, a dry run or a search check alone). */
  readonly observed: ObservedRun | undefined
}

/** A span under construction: its children are added as the plan nests phases and attempts in it. */
interface Building extends Omit<PlannedSpan, 'children' | 'events'> {
  readonly children: Building[]
  readonly events: PlannedEvent[]
}

/** The run's trace: one root span with the phases nested by time, the looks and release states as events, each health attempt and rollback step a span. */
export function planRunTrace(result: RunResult, facts: TraceFacts): PlannedSpan {
  const root = rootSpan(result, facts)
  const phases = nestPhases(root, result.phases, result, facts)
  const d = result.deploy
  for (const look of d?.looks ?? []) innermost(root, phases, look.at, 'ends').events.push(lookEvent(look))
  for (const t of d?.release?.transitions ?? []) root.events.push(transitionEvent(t))
  for (const attempt of d?.healthAttempts ?? []) innermost(root, phases, attempt.startedAt, 'begins', attempt.endedAt).children.push(attemptSpan(attempt))
  const rollback = phases.find((p) => p.name === 'rollback')
  if (rollback !== undefined) rollback.children.push(...rollbackSteps(d, rollback))
  return freeze(root)
}

function rootSpan(result: RunResult, facts: TraceFacts): Building {
  const failed = result.error !== undefined
  return {
    name: result.deploys ? 'brcloud deploy' : 'brcloud search-check',
    kind: 'internal',
    start: facts.startedAt,
    end: lastMoment(result, facts),
    attributes: { ...cicdAttributes(result, facts), ...deploymentAttributes(result, facts), ...brcloudAttributes(result, facts) },
    events: [],
    status: failed ? { code: 'error', message: result.error } : { code: 'ok' },
    children: []
  }
}

/**
 * When the run ended: when it reported, or later when a phase, an attempt or a look it still saw ended after that (a
 * stopped run's steps unwind while it reports): the root holds every moment the trace shows.
 */
function lastMoment(result: RunResult, facts: TraceFacts): number {
  const d = result.deploy
  return Math.max(
    facts.startedAt,
    facts.endedAt,
    ...result.phases.map((p) => p.startedAt + p.ms),
    ...(d?.healthAttempts ?? []).map((a) => a.endedAt),
    ...(d?.looks ?? []).map((l) => l.at),
    ...(d?.release?.transitions ?? []).map((t) => t.at)
  )
}

/** The task-run attributes of OpenTelemetry's CICD conventions; the result in their words. */
function cicdAttributes(result: RunResult, facts: TraceFacts): Attributes {
  const { context } = facts
  return defined({
    'cicd.pipeline.task.name': result.deploys ? 'brcloud deploy' : 'brcloud search-check',
    'cicd.pipeline.task.type': result.deploys ? 'deploy' : 'test',
    'cicd.pipeline.task.run.result': taskResult(result),
    'cicd.pipeline.run.id': context.runId || undefined,
    'cicd.pipeline.run.url.full': context.runUrl,
    'error.type': result.error === undefined ? undefined : errorType(result, facts.failure),
    'vcs.ref.head.revision': facts.observed?.commit ?? (context.sha || undefined),
    'vcs.ref.head.name': facts.observed === undefined ? context.ref || undefined : facts.observed.ref,
    // OpenTelemetry's VCS conventions: the repository's own name (no owner), and its address in full.
    'vcs.repository.name': context.repository.split('/').at(-1) || undefined,
    'vcs.repository.url.full': context.repository && context.serverUrl ? `${context.serverUrl.replace(/\/+$/, '')}/${context.repository}` : undefined
  })
}

function taskResult(result: RunResult): string {
  if (result.error === undefined) return 'success'
  if (result.stopped === 'watchdog') return 'timeout'
  if (result.stopped !== undefined) return 'cancellation'
  return 'failure'
}

/** Failure classes too general to group by: the release's failure kind, or _OTHER, says more. */
const GENERAL_ERRORS = new Set(['Error', 'ActionError', 'StepFailed'])

/**
 * What a viewer groups failures by: the stop, else the release's failure kind ("unhealthy", "not-applied", "busy",
 * "older", "search"…), else the failure's class ("InputError", "LoginRefused", "OrderRefused"), else _OTHER.
 */
function errorType(result: RunResult, failure: unknown): string {
  if (result.stopped === 'watchdog') return 'timeout'
  if (result.stopped !== undefined) return 'cancelled'
  const kind = result.deploy?.release?.failure?.kind
  if (kind !== undefined) return kind
  return failure instanceof Error && !GENERAL_ERRORS.has(failure.name) ? failure.name : '_OTHER'
}

/** The deployment's attributes (OpenTelemetry's deployment.*), only for a run the events speak of: one that deployed or meant to. */
function deploymentAttributes(result: RunResult, facts: TraceFacts): Attributes {
  const o = facts.observed
  if (o === undefined) return defined({ 'deployment.environment.name': result.deploy?.environmentName ?? result.environment })
  return defined({
    'deployment.environment.name': o.environment,
    'deployment.id': o.chainId,
    'deployment.name': o.distribution.name,
    'deployment.status': o.outcome === 'success' ? 'succeeded' : 'failed'
  })
}

/** Outputs that are not attributes: the commits' list (JSON, long; its count is one), the trace's own id. */
const NOT_ATTRIBUTES = new Set(['changes', 'trace-id'])

/** Our own: every output the run set, as brcloud.<name with underscores>, and what the run was asked and found. */
function brcloudAttributes(result: RunResult, facts: TraceFacts): Attributes {
  const d = result.deploy
  const outputs: Record<string, AttributeValue> = {}
  for (const [name, value] of Object.entries(outputValues(result))) {
    if (!NOT_ATTRIBUTES.has(name) && value !== undefined) outputs[`brcloud.${name.replace(/-/g, '_')}`] = value
  }
  return defined({
    ...outputs,
    'brcloud.stack': d?.target ?? facts.stack,
    'brcloud.environment': d?.environmentName ?? result.environment,
    'brcloud.source': d?.source,
    'brcloud.dry_run': d?.dryRun,
    'brcloud.outcome': headline(result),
    'brcloud.stopped': result.stopped,
    'brcloud.events': facts.observed?.events.map((e) => e.kind),
    'brcloud.changes.count': facts.observed?.changes?.total,
    ...uploadAttributes(d),
    'brcloud.token_renewals': d?.tokenRenewals,
    'brcloud.override_reason': d?.rules?.override?.reason,
    'brcloud.backup.id': d?.rules?.backup?.id,
    'brcloud.refused_by': d?.rules?.refusedBy,
    'brcloud.search.passed': result.search?.passed
  })
}

/** The archive's size, and the bytes the platform accepted (an upload this run made; none for a reused or given distribution). */
function uploadAttributes(d: DeployResult | undefined): Attributes {
  return defined({
    'brcloud.archive.size': d?.archive?.size,
    'brcloud.upload.bytes': d?.upload !== undefined && !d.upload.adopted ? d.archive?.size : undefined,
    'brcloud.upload.attempts': d?.upload?.attempts,
    'brcloud.upload.adopted': d?.upload?.adopted
  })
}

/**
 * The phases as spans, nested by time: a phase that began and ended within another (the release's follow within its
 * deploy) is its child. A phase still running when the run reported is not in the timeline, so no span claims it.
 */
function nestPhases(root: Building, phases: readonly Phase[], result: RunResult, facts: TraceFacts): Building[] {
  const spans: Building[] = []
  const open: Building[] = []
  const failedLast = [...phases].reverse().find((p) => !p.ok)
  const ordered = [...phases].sort((a, b) => a.startedAt - b.startedAt || b.ms - a.ms)
  for (const phase of ordered) {
    const span = phaseSpan(phase, phase === failedLast ? result.error : undefined, facts)
    while (open.length > 0 && !within(span, open[open.length - 1] as Building)) open.pop()
    ;(open[open.length - 1] ?? root).children.push(span)
    open.push(span)
    spans.push(span)
  }
  return spans
}

function phaseSpan(phase: Phase, failure: string | undefined, facts: TraceFacts): Building {
  const start = Math.max(phase.startedAt, facts.startedAt)
  return {
    name: spanNameOf(phase.name),
    kind: 'internal',
    start,
    end: Math.max(start, phase.startedAt + phase.ms),
    attributes: { 'brcloud.phase': phase.name },
    events: [],
    status: phase.ok ? { code: 'ok' } : { code: 'error', message: failure },
    children: []
  }
}

function within(inner: { start: number; end: number }, outer: { start: number; end: number }): boolean {
  return inner.start >= outer.start && inner.end <= outer.end
}

/**
 * The deepest phase span running from `at` to `until`, else the root: where a look (a moment) or an attempt belongs. At
 * a boundary (one phase ends in the millisecond the next begins) a look belongs to the phase it ends (the follow's last
 * look), an attempt to the phase it begins (a health check's first attempt); a phase the attempt outlasts never holds it.
 */
function innermost(root: Building, phases: readonly Building[], at: number, moment: 'ends' | 'begins', until = at): Building {
  const around = phases.filter((span) => span.start <= at && until <= span.end)
  const inside = around.filter((span) => (moment === 'ends' ? span.start < at : span.end > at))
  let found: Building | undefined
  for (const span of inside.length > 0 ? inside : around) {
    if (found === undefined || span.start > found.start || (span.start === found.start && span.end <= found.end)) found = span
  }
  return found ?? root
}

function lookEvent(look: EnvironmentLook): PlannedEvent {
  return {
    name: 'look',
    at: look.at,
    attributes: defined({ 'brcloud.look.distribution_id': look.distributionId ?? '', 'brcloud.look.status': look.status })
  }
}

function transitionEvent(t: Transition): PlannedEvent {
  return { name: `release ${t.state}`, at: t.at, attributes: { 'brcloud.release.state': t.state, 'brcloud.evidence': t.evidence } }
}

function attemptSpan(a: HealthAttempt): Building {
  return {
    name: 'GET',
    kind: 'client',
    start: a.startedAt,
    end: Math.max(a.startedAt, a.endedAt),
    attributes: defined({ 'http.request.method': 'GET', 'url.full': a.url, 'http.response.status_code': a.status, 'brcloud.health.result': a.what }),
    events: [],
    status: a.ok ? { code: 'unset' } : { code: 'error', message: a.what },
    children: []
  }
}

/** The rollback's steps, each from one observed state to the next within the rollback's phase: requested, seen applied, healthy. */
function rollbackSteps(d: DeployResult | undefined, phase: Building): Building[] {
  const steps: Array<[string, Transition['state']]> = [
    ['rollback request', 'rollback-requested'],
    ['rollback switch', 'rollback-applied'],
    ['rollback health', 'rollback-healthy']
  ]
  const seen = d?.release?.transitions ?? []
  const spans: Building[] = []
  let from = phase.start
  for (const [name, state] of steps) {
    const t = seen.find((x) => x.state === state)
    if (t === undefined || t.at < from || t.at > phase.end) break
    spans.push({
      name,
      kind: 'internal',
      start: from,
      end: t.at,
      attributes: { 'brcloud.evidence': t.evidence },
      events: [],
      status: { code: 'ok' },
      children: []
    })
    from = t.at
  }
  return spans
}

function freeze(span: Building): PlannedSpan {
  const children = [...span.children].sort((a, b) => a.start - b.start).map(freeze)
  return { ...span, events: [...span.events].sort((a, b) => a.at - b.at), children }
}

/** The attributes that have a value: an attribute never says "undefined", nor lists nothing. */
export function defined(attributes: Record<string, AttributeValue | undefined>): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {}
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined && !(Array.isArray(value) && value.length === 0)) out[key] = value
  return out
}
