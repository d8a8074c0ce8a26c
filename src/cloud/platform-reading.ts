// How to read what Bloomreach Cloud reports: its ids, and the status words of an environment. Rules of the platform,
// so they live beside its client: the deploy step, the pruning, the status report and the recorded deployments all
// read the platform's answers by them, and the client never needs to know of a release to apply them. Pure.

/**
 * Whether two distribution ids name the same distribution. Ids are uuids, which the platform may write in
 * either letter case (one reading the public sources do not settle): compared without case.
 */
export function sameId(a: string | null | undefined, b: string | null | undefined): boolean {
  return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase()
}

/** Status words that say a deploy is still going on. The platform documents no status field: this only adds evidence. */
const SWITCHING = /deploying|in[ _-]?progress|switching|updating|restarting|starting|stopping|rolling/i

/** Whether an environment's status field says it is busy switching; undefined when the platform gave no status. */
export function switching(status: string | undefined): boolean | undefined {
  return status === undefined ? undefined : SWITCHING.test(status)
}
