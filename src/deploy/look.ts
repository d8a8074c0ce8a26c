// What one look at an environment says, in words and as evidence. Pure: report.ts loads it too.
import type { EnvironmentLook } from './result.js'

/** Status words that say a deploy is still going on. The platform documents no status field: this only adds evidence. */
const SWITCHING = /deploying|in[ _-]?progress|switching|updating|restarting|starting|stopping|rolling/i

/** Whether the status field says the environment is busy switching; undefined when the platform gave no status. */
export function switching(look: EnvironmentLook): boolean | undefined {
  return look.status === undefined ? undefined : SWITCHING.test(look.status)
}

/** "reports distribution X (status: s)", as the log and the summary say it. */
export function describeLook(look: EnvironmentLook): string {
  const runs = look.distributionId ? `reports distribution ${look.distributionId}` : 'reports no distribution'
  return look.status ? `${runs} (status: ${look.status})` : runs
}

/**
 * Whether two distribution ids name the same distribution. Ids are uuids, which the platform may write in
 * either letter case (one reading the public sources do not settle): compared without case.
 */
export function sameId(a: string | null | undefined, b: string | null | undefined): boolean {
  return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase()
}
