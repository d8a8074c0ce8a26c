// The release as an explicit state machine. Each state is entered once, with the evidence that justified
// it (what the platform or the site answered) and when; report.ts tells the outcome from these alone.
//
//   requested -> in-progress -> applied -> healthy -> verified       (reported: our id from the first look on, or after none, no switch seen)
//       |             |            |          |
//       +-------------+------------+----------+--> failed -> rollback-requested -> rollback-applied -> rollback-healthy
//   (waiting first, when the environment is busy; unconfirmed: a request went out and no answer or look
//    settled whether it was carried out, until one does)   replaced: another distribution runs now (from any live state; never rolled back)
//   already-running: before any call of ours, another deploy put this very distribution there (nothing is sent)
import * as core from '../port.js'
import { sameId } from '../cloud/platform-reading.js'

export type ReleaseState =
  | 'planned'
  | 'waiting'
  | 'unconfirmed'
  | 'requested'
  | 'in-progress'
  | 'reported'
  | 'applied'
  | 'healthy'
  | 'verified'
  | 'failed'
  | 'replaced'
  | 'rollback-requested'
  | 'rollback-applied'
  | 'rollback-healthy'
  | 'rollback-failed'
  | 'already-running'

/** Which states may follow which: anything else is a bug, and throws. */
const NEXT: { readonly [s in ReleaseState]: readonly ReleaseState[] } = {
  planned: ['waiting', 'unconfirmed', 'requested', 'failed', 'replaced', 'already-running'],
  waiting: ['unconfirmed', 'requested', 'failed', 'replaced', 'already-running'],
  unconfirmed: ['requested', 'failed', 'replaced'],
  requested: ['in-progress', 'reported', 'applied', 'healthy', 'verified', 'failed', 'replaced'],
  'in-progress': ['applied', 'reported', 'failed', 'replaced'],
  reported: ['applied', 'healthy', 'verified', 'failed', 'replaced'],
  applied: ['healthy', 'verified', 'failed', 'replaced'],
  healthy: ['verified', 'failed', 'replaced'],
  verified: [],
  failed: ['rollback-requested', 'rollback-failed', 'replaced'],
  replaced: [],
  'rollback-requested': ['rollback-applied', 'rollback-failed', 'replaced'],
  'rollback-applied': ['rollback-healthy', 'rollback-failed', 'replaced'],
  'rollback-healthy': [],
  'rollback-failed': [],
  'already-running': []
}

export interface Transition {
  readonly state: ReleaseState
  /** Date.now() when the evidence was seen. */
  readonly at: number
  readonly evidence: string
}

/** How "the environment runs the new release" was established. */
export type AppliedBy =
  /** The platform reported the switch: the id changed from the previous one to ours, or a status went from in progress to settled. */
  | 'switch'
  /** The site answered with health-expect, the new release's marker. */
  | 'marker'
  /** Nothing showed it: the id was reported from the first look on (or after no id at all), and no status or marker told more. */
  | 'not-observed'

/** Why the release failed its checks. */
export type FailureKind = 'busy' | 'older' | 'rule' | 'unconfirmed' | 'not-applied' | 'unhealthy' | 'search'

export interface ReleaseRecord {
  readonly environment: string
  readonly distributionId: string
  /** What the environment reported right before our request: what a rollback goes back to. */
  previous: string | undefined
  /** The environment already reported this distribution: a redeploy (force-deploy, or config files). */
  readonly redeploy: boolean
  state: ReleaseState
  readonly transitions: Transition[]
  /** The request's answer was lost and the environment showed it had been carried out: adopted, not sent again. */
  adopted?: boolean
  appliedBy?: AppliedBy
  /** How the site was checked: with the release marker, or only that it answers (cannot tell new from old). */
  site?: 'marker' | 'answers'
  failure?: { readonly kind: FailureKind; readonly message: string }
  /** The distribution a rollback went (or would go) back to. */
  rollbackTo?: string
  /** Why no rollback was sent although one was due (the environment did not show this run's release). */
  rollbackNotSent?: string
  /** The rollback's call was refused (a 409: another deploy in progress, which replaces ours): nothing was carried out. */
  rollbackRefused?: string
  /** The run was stopped (watchdog, cancel) while the release was under way: what it was doing then. */
  stopped?: string
  /** The rollback was requested and its id reported, but the switch back itself was not seen. */
  rollbackNotSeen?: string
  /** A rollback call got no usable answer: it may have been carried out. */
  rollbackUnconfirmed?: string | undefined
  /** The checks passed, but no look after them showed ours still running: why it is not verified. */
  unconfirmedAfterChecks?: string | undefined
}

export function newRelease(environment: string, distributionId: string, previous: string | undefined): ReleaseRecord {
  return { environment, distributionId, previous, redeploy: sameId(previous, distributionId), state: 'planned', transitions: [] }
}

/** Moves the release on, recording why; logs the step so the log and the summary tell the same story. */
export function enter(release: ReleaseRecord, state: ReleaseState, evidence: string, at = Date.now()): void {
  if (!NEXT[release.state].includes(state)) throw new Error(`Release: no transition from ${release.state} to ${state} (${evidence})`)
  release.state = state
  release.transitions.push({ state, at, evidence })
  core.info(`Release ${state}: ${evidence}`)
}

export function reached(release: ReleaseRecord | undefined, state: ReleaseState): Transition | undefined {
  return release?.transitions.find((t) => t.state === state)
}

/** The deploy call went through (sent and answered, or adopted after a lost answer). */
export function wasRequested(release: ReleaseRecord | undefined): boolean {
  return reached(release, 'requested') !== undefined
}

/** A deploy request of ours went out whose outcome no answer or look settled: it may have been carried out. */
export function mayHaveBeenRequested(release: ReleaseRecord | undefined): boolean {
  return !wasRequested(release) && reached(release, 'unconfirmed') !== undefined
}

/**
 * Our deploy was requested and its switch was not seen, and neither a rollback nor another deploy came after it: the
 * platform may still switch to it, also after the step ended (a stop does not ask the platform to stop).
 */
export function mayStillSwitch(release: ReleaseRecord | undefined): boolean {
  return (
    wasRequested(release) &&
    reached(release, 'applied') === undefined &&
    reached(release, 'rollback-requested') === undefined &&
    reached(release, 'replaced') === undefined
  )
}

/** A rollback was applied: after it was requested, the environment reported the previous distribution again. */
export function rolledBack(release: ReleaseRecord | undefined): boolean {
  return reached(release, 'rollback-applied') !== undefined
}
