// The soak gate for promotions (docs/release-rules.md): a distribution is promoted only when this repository's GitHub
// Deployments show it verified in an upstream environment, without a failure or rollback there, for long enough.
// The records are GitHub's; the judgement (judgeSoak) is pure, over the timeline of that environment's statuses.
import type { CodeHost, DeploymentRecord, DeploymentStatusRecord } from '../code-host/port.js'
import { DeploymentHistory } from '../code-host/evidence.js'
import type { SoakFinding } from './record.js'

/** The newest Deployments of the upstream environment read: older ones cannot change a clock the newer ones reset. */
export const SOAK_DEPLOYMENTS_READ = 30

/** One status of a Deployment of the upstream environment, with what that Deployment recorded. */
export interface SoakEvent {
  readonly atMs: number
  readonly deploymentId: number
  readonly distributionId: string | undefined
  /** What the environment ran before that Deployment: after its failure (a rollback) it runs this again. */
  readonly previousDistributionId: string | undefined
  readonly state: string
}

const same = (a: string | undefined, b: string): boolean => a !== undefined && a.toLowerCase() === b.toLowerCase()
const FAILED = new Set(['failure', 'error'])

/** The statuses of `deployments` as one timeline, oldest first; statuses without a time are no evidence of when. */
export function soakTimeline(deployments: readonly DeploymentRecord[], statuses: ReadonlyMap<number, readonly DeploymentStatusRecord[]>): SoakEvent[] {
  const events: SoakEvent[] = []
  for (const d of deployments) {
    for (const s of statuses.get(d.id) ?? []) {
      const atMs = s.createdAt === undefined ? Number.NaN : Date.parse(s.createdAt)
      if (Number.isNaN(atMs)) continue
      events.push({
        atMs,
        deploymentId: d.id,
        distributionId: d.payload.distributionId,
        previousDistributionId: d.payload.previousDistributionId,
        state: s.state
      })
    }
  }
  return events.sort((a, b) => a.atMs - b.atMs || a.deploymentId - b.deploymentId)
}

interface Period {
  readonly sinceMs: number
  readonly deploymentId: number
}

/**
 * What the timeline says of `distributionId`: its open verified period (to now), the longest completed one (-1: none
 * counts), and the last reset. A failure or error there after it was verified restarts the clock: the periods before it
 * no longer count, and a new one opens at once only when the environment runs ours again (a rollback to it).
 */
function periods(events: readonly SoakEvent[], distributionId: string): { open?: Period; longestMs: number; reset?: SoakEvent; verifiedEver: boolean } {
  let open: Period | undefined
  let longestMs = -1
  let reset: SoakEvent | undefined
  let verifiedEver = false
  for (const e of events) {
    const ours = same(e.distributionId, distributionId)
    if (e.state === 'success' && ours) {
      verifiedEver = true
      open ??= { sinceMs: e.atMs, deploymentId: e.deploymentId }
    } else if (e.state === 'success' && open !== undefined) {
      // Replaced by another release in good order: a completed soak, which counts.
      longestMs = Math.max(longestMs, e.atMs - open.sinceMs)
      open = undefined
    } else if (FAILED.has(e.state) && verifiedEver) {
      reset = e
      longestMs = -1
      open = !ours && same(e.previousDistributionId, distributionId) ? { sinceMs: e.atMs, deploymentId: e.deploymentId } : undefined
    }
  }
  return { ...(open && { open }), longestMs, ...(reset && { reset }), verifiedEver }
}

const iso = (ms: number): string => new Date(ms).toISOString()
const minutes = (ms: number): number => Math.floor(ms / 60_000)

/** The gate's judgement of `distributionId` in `environment` at `nowMs`, with the evidence and, when refused, when it would pass. */
export function judgeSoak(events: readonly SoakEvent[], distributionId: string, environment: string, requiredMinutes: number, nowMs: number): SoakFinding {
  const { open, longestMs, reset, verifiedEver } = periods(events, distributionId)
  const requiredMs = requiredMinutes * 60_000
  const base = { environment, requiredMinutes }
  if (open !== undefined && nowMs - open.sinceMs >= requiredMs)
    return { ...base, passed: true, verifiedSince: iso(open.sinceMs), soakedMinutes: minutes(nowMs - open.sinceMs), deploymentId: open.deploymentId }
  if (longestMs >= 0 && longestMs >= requiredMs)
    return {
      ...base,
      passed: true,
      soakedMinutes: minutes(longestMs),
      why: `verified in '${environment}' for ${minutes(longestMs)} minute(s) before it was replaced there`
    }
  if (open !== undefined) {
    const allowedAt = iso(open.sinceMs + requiredMs)
    const since = reset !== undefined && reset.atMs === open.sinceMs ? ` (the clock restarted at the failure of GitHub Deployment ${reset.deploymentId})` : ''
    return {
      ...base,
      passed: false,
      verifiedSince: iso(open.sinceMs),
      soakedMinutes: minutes(nowMs - open.sinceMs),
      allowedAt,
      deploymentId: open.deploymentId,
      why: `${distributionId} has been verified in '${environment}' since ${iso(open.sinceMs)}${since}: ${minutes(nowMs - open.sinceMs)} of the ${requiredMinutes} minute(s) required; it is allowed from ${allowedAt}`
    }
  }
  if (verifiedEver && reset !== undefined)
    return {
      ...base,
      passed: false,
      why: `${distributionId} was verified in '${environment}', but GitHub Deployment ${reset.deploymentId} ${reset.state === 'error' ? 'ended in an error' : 'failed'} there at ${iso(reset.atMs)} and '${environment}' has not run it verified since: deploy it there again and let it soak`
    }
  if (verifiedEver)
    return {
      ...base,
      passed: false,
      soakedMinutes: minutes(Math.max(0, longestMs)),
      why: `${distributionId} was verified in '${environment}' for only ${minutes(longestMs)} minute(s) before it was replaced there, less than the ${requiredMinutes} required: deploy it there again and let it soak`
    }
  return {
    ...base,
    passed: false,
    why: `no GitHub Deployment of this repository shows ${distributionId} verified (success) in '${environment}': deploy it there first, then promote it`
  }
}

/** Reads the upstream environment's Deployments of this stack (the newest SOAK_DEPLOYMENTS_READ) and their statuses, then judges. */
export async function checkSoak(
  github: CodeHost,
  apiUrl: string,
  distributionId: string,
  gate: { readonly environment: string; readonly minutes: number },
  nowMs: () => number
): Promise<SoakFinding> {
  const deployments = (await new DeploymentHistory(github, apiUrl).deployments(gate.environment)).slice(0, SOAK_DEPLOYMENTS_READ)
  const statuses = new Map<number, readonly DeploymentStatusRecord[]>()
  for (const d of deployments) statuses.set(d.id, await github.listStatuses(d.id))
  return judgeSoak(soakTimeline(deployments, statuses), distributionId, gate.environment, gate.minutes, nowMs())
}

/** The finding in one line for the log. */
export function describeSoak(f: SoakFinding): string {
  if (!f.passed) return f.why ?? 'not verified'
  const from = f.deploymentId === undefined ? '' : ` (GitHub Deployment ${f.deploymentId})`
  return f.verifiedSince !== undefined
    ? `verified in '${f.environment}' since ${f.verifiedSince}${from}: ${f.soakedMinutes ?? 0} minute(s), ${f.requiredMinutes} required`
    : (f.why ?? `verified in '${f.environment}'`)
}
