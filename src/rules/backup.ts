// The backup rule (docs/release-rules.md): before a risky deploy, the target environment's newest backup must be
// younger than require-backup-hours. A restore takes hours with the whole cluster down, so whoever has to restore
// needs to know which backup: its id goes into the summary and the events. Pure: the listing is the client's.
import type { Backup } from '../cloud/client.js'
import type { BackupFinding } from './record.js'

/** The environment's newest backup (by createdAt; entries without a readable date are no evidence of age). */
export function newestBackup(backups: readonly Backup[], environmentId: string): Backup | undefined {
  let newest: Backup | undefined
  for (const b of backups) {
    if (b.environmentId.toLowerCase() !== environmentId.toLowerCase() || Number.isNaN(b.createdAtMs)) continue
    if (newest === undefined || b.createdAtMs > newest.createdAtMs) newest = b
  }
  return newest
}

/** Hours between two instants, to a tenth; a backup dated ahead of our clock (a skew) is 0 hours old. */
export function ageHours(createdAtMs: number, nowMs: number): number {
  return Math.max(0, Math.round((nowMs - createdAtMs) / 360_000) / 10)
}

/** The rule's judgement: passed when the newest backup is younger than `requiredHours` (exactly that old is too old). */
export function judgeBackup(backups: readonly Backup[], environmentId: string, requiredHours: number, nowMs: number): BackupFinding {
  const newest = newestBackup(backups, environmentId)
  if (newest === undefined) return { requiredHours, passed: false }
  const exactHours = (nowMs - newest.createdAtMs) / 3_600_000
  return {
    requiredHours,
    id: newest.id,
    createdAt: newest.createdAt,
    ageHours: ageHours(newest.createdAtMs, nowMs),
    passed: exactHours < requiredHours
  }
}

/** The finding in words: which backup, how old, against what. */
export function describeBackup(f: BackupFinding, environment: string): string {
  if (f.id === undefined) return `the stack lists no backup of '${environment}'`
  return `the newest backup of '${environment}' is ${f.id}, taken ${f.createdAt ?? '?'} (${f.ageHours ?? '?'} hours ago)`
}
