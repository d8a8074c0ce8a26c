// What the release rules (docs/release-rules.md) would find for each environment, for the report: the freeze window
// in force when it was read (pure: the windows from the file or the inputs, the time passed in), and the newest
// backup from the stack's one backup listing. A listing that failed is a finding about that column only: the report
// does not fail closed on it.
import type { Backup, CloudClient } from '../cloud/client.js'
import { sameId } from '../cloud/platform-reading.js'
import { describeError } from '../errors.js'
import { describeUntil, freezeAt, type FreezeWindow } from '../rules/freeze.js'
import type { FreezeInForceRow, NewestBackupRow } from './row.js'

/** The freeze in force at `now` among `windows`, or null. */
export function freezeRow(windows: readonly FreezeWindow[], now: number): FreezeInForceRow | null {
  const hit = freezeAt(windows, new Date(now))
  if (hit === undefined) return null
  return {
    window: hit.window.line,
    line: hit.window.lineNumber,
    timeZone: hit.window.timeZone,
    since: hit.since.toISOString(),
    endsAt: hit.endsAt.toISOString(),
    until: describeUntil(hit)
  }
}

/** The stack's backups as listed once, or why they could not be. */
export type BackupListing = { readonly backups: readonly Backup[] } | { readonly failed: string }

/** One `GET /v3/backups` for the whole stack; never throws. */
export async function listBackupsOnce(client: CloudClient): Promise<BackupListing> {
  try {
    return { backups: await client.listBackups() }
  } catch (error) {
    return { failed: `the stack's backups could not be listed: ${describeError(error)}` }
  }
}

const HOUR_MS = 3_600_000

/** The newest backup of the environment `environmentId` (ids compared without case), its age at `now` in hours (two decimals). */
export function newestBackupRow(listing: BackupListing, environmentId: string, now: number): NewestBackupRow {
  if ('failed' in listing) return { state: 'unknown', id: null, createdAt: null, ageHours: null, reason: listing.failed }
  const own = listing.backups.filter((b) => sameId(b.environmentId, environmentId))
  const dated = own.filter((b) => Number.isFinite(b.createdAtMs)).sort((a, b) => b.createdAtMs - a.createdAtMs)
  const newest = dated[0]
  if (newest === undefined) {
    if (own.length === 0) return { state: 'none', id: null, createdAt: null, ageHours: null, reason: null }
    const first = own[0]!
    return {
      state: 'unknown',
      id: null,
      createdAt: null,
      ageHours: null,
      reason: `the platform lists backups of it without a date it can read ('${first.createdAt}')`
    }
  }
  // A platform clock ahead of ours makes a fresh backup look taken in the future: its age is then 0.
  const ageHours = Math.round((Math.max(0, now - newest.createdAtMs) / HOUR_MS) * 100) / 100
  return { state: 'found', id: newest.id, createdAt: newest.createdAt, ageHours, reason: null }
}
