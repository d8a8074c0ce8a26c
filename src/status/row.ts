// One row of the status report: what one environment runs, which commit that is and why we think so, and how it
// stands against the tracked ref. The JSON output is these rows as they are (--json), so every field is always
// present, null when not known.
import type { Comparison } from '../github/client.js'
import { isTagPattern } from './track.js'

/**
 * in-sync: runs the tracked ref's head; behind: an older commit of it; ahead: a commit after it; diverged: on
 * another line; outside: no GitHub Deployment of the repository names what it runs and its name, read, carries no commit;
 * deploying: the platform says it is switching; empty: runs nothing; unknown: cannot be told (the reason says why).
 */
export const STATES = ['in-sync', 'behind', 'ahead', 'diverged', 'outside', 'deploying', 'empty', 'unknown'] as const
export type DriftState = (typeof STATES)[number]

/** Where the commit comes from: a GitHub Deployment that recorded the distribution, its name, or nothing. */
export type Evidence = 'deployment' | 'name' | 'unknown'

/** The health probe's verdict (its own axis, beside the state): the page answered as asked, did not, or no probe is set. */
export type Health = 'ok' | 'failing' | 'not-checked'

/** The newest GitHub Deployment of the environment on this stack: who, when, and the run that made it. */
export interface LastDeployment {
  readonly id: number
  /** Its commit; null for a promotion whose commit is unknown (GitHub holds the promoting run's commit, which does not run). */
  readonly commit: string | null
  readonly by: string | null
  readonly at: string | null
  /** Its newest status (success, failure, in_progress, ...). */
  readonly state: string | null
  readonly runUrl: string | null
}

/** A deploy-freeze window in force when the report was read (docs/status.md, "Freeze windows and backups"). */
export interface FreezeInForceRow {
  /** The window as written, and its line number where it was written. */
  readonly window: string
  readonly line: number
  readonly timeZone: string
  /** ISO 8601 (UTC): when this occurrence began, and when deploying is possible again (windows that overlap or touch chained). */
  readonly since: string
  readonly endsAt: string
  /** The same in words: the window, and its end in its zone and in UTC. */
  readonly until: string
}

/**
 * The environment's newest backup, from the stack's one `GET /v3/backups`: found (its id, when it was taken, its age
 * in hours when the report was read); none (the stack lists no backup of it); unknown (the listing failed: `reason`).
 */
export interface NewestBackupRow {
  readonly state: 'found' | 'none' | 'unknown'
  readonly id: string | null
  readonly createdAt: string | null
  readonly ageHours: number | null
  readonly reason: string | null
}

export interface EnvironmentRow {
  readonly stack: string
  /** null in a row that stands for a whole stack that could not be read (its environments are not known). */
  readonly environment: string | null
  readonly distributionId: string | null
  readonly distributionName: string | null
  readonly createdAt: string | null
  readonly createdBy: string | null
  readonly md5hash: string | null
  /** The platform's own status field, when it shows one. */
  readonly platformStatus: string | null
  /** Full, or abbreviated when only the name carries it. */
  readonly commit: string | null
  readonly evidence: Evidence
  /** The GitHub Deployment that recorded the distribution, when that is the evidence. */
  readonly evidenceDeploymentId: number | null
  /** The ref the environment should run, as configured (a branch, a tag, or a pattern of tags such as v*). */
  readonly track: string | null
  /** What the commit was compared with: the track, or for a pattern the newest tag matching it; null when none was found. */
  readonly trackedRef: string | null
  readonly state: DriftState
  /** How many commits behind (behind, diverged) or ahead (ahead, diverged) of the tracked ref. */
  readonly behindBy: number | null
  readonly aheadBy: number | null
  /** Why the state is what it is, when that needs saying (always for unknown and outside). */
  readonly reason: string | null
  readonly lastDeployment: LastDeployment | null
  readonly health: Health
  /** Why the probe failed (what the page answered, what to check); null unless failing. */
  readonly healthReason: string | null
  /** The freeze window in force when the report was read; null when none is (or none is written). */
  readonly freeze: FreezeInForceRow | null
  readonly backup: NewestBackupRow
}

/** A row with nothing known yet but where it is. */
export function blankRow(stack: string, environment: string | null, track: string | undefined): EnvironmentRow {
  return {
    stack,
    environment,
    distributionId: null,
    distributionName: null,
    createdAt: null,
    createdBy: null,
    md5hash: null,
    platformStatus: null,
    commit: null,
    evidence: 'unknown',
    evidenceDeploymentId: null,
    track: track ?? null,
    trackedRef: track === undefined || isTagPattern(track) ? null : track,
    state: 'unknown',
    behindBy: null,
    aheadBy: null,
    reason: null,
    lastDeployment: null,
    health: 'not-checked',
    healthReason: null,
    freeze: null,
    backup: { state: 'unknown', id: null, createdAt: null, ageHours: null, reason: null }
  }
}

/** The state GitHub's compare of the tracked ref (base) with the running commit (head) gives. */
export function stateOfComparison(c: Comparison): Pick<EnvironmentRow, 'state' | 'behindBy' | 'aheadBy'> {
  if (c.status === 'identical') return { state: 'in-sync', behindBy: 0, aheadBy: 0 }
  if (c.status === 'behind') return { state: 'behind', behindBy: c.behindBy, aheadBy: 0 }
  if (c.status === 'ahead') return { state: 'ahead', behindBy: 0, aheadBy: c.aheadBy }
  return { state: 'diverged', behindBy: c.behindBy, aheadBy: c.aheadBy }
}
