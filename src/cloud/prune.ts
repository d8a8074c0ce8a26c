// Which old distributions to delete so that, after one more upload, at most `max` remain.
// Pure, so every rule is unit-tested: oldest first, never one an environment runs.
import type { Distribution } from './client.js'

export interface PrunePlan {
  toDelete: Distribution[]
  /** How many more would have to go, but are in use by an environment. */
  shortBy: number
}

function createdMs(d: Distribution): number {
  const t = d.createdAt ? Date.parse(d.createdAt) : Number.NaN
  // Undated records sort first: they are the oldest we can tell of.
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t
}

export function planPruning(distributions: Distribution[], inUse: ReadonlySet<string>, max: number): PrunePlan {
  let excess = distributions.length - (max - 1)
  const toDelete: Distribution[] = []
  const oldestFirst = [...distributions].sort((a, b) => createdMs(a) - createdMs(b) || a.id.localeCompare(b.id))
  for (const d of oldestFirst) {
    if (excess <= 0) break
    if (inUse.has(d.id)) continue
    toDelete.push(d)
    excess--
  }
  return { toDelete, shortBy: Math.max(0, excess) }
}
