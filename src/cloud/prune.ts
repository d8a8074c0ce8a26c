// Which old distributions to delete so that, after one more upload, at most `max` remain: the plan
// is pure, so every rule is unit-tested (oldest first, never one an environment runs); pruning
// carries it out.
import * as core from '@actions/core'
import type { CloudClient, Distribution, Environment } from './client.js'

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

export function planPruning(distributions: readonly Distribution[], inUse: ReadonlySet<string>, max: number): PrunePlan {
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

/** Deletes the oldest distributions no environment runs, so that the upload keeps the stack at `max`; returns how many went (0 on a dry run). */
export async function pruneDistributions(
  client: CloudClient,
  distributions: readonly Distribution[],
  max: number,
  environments: readonly Environment[],
  dryRun: boolean
): Promise<number> {
  const inUse = new Set(environments.map((e) => e.distributionId).filter((id): id is string => typeof id === 'string' && id !== ''))
  const plan = planPruning(distributions, inUse, max)
  core.info(`The stack holds ${distributions.length} distributions (${inUse.size} in use by an environment); max-distributions is ${max}.`)
  if (plan.toDelete.length === 0 && plan.shortBy === 0) {
    core.info('Nothing to prune.')
    return 0
  }
  for (const d of plan.toDelete) {
    const what = `${d.id} (${d.name ?? 'no name'}, created ${d.createdAt ?? 'at an unknown time'})`
    if (dryRun) {
      core.info(`Would delete distribution ${what}`)
      continue
    }
    await client.deleteDistribution(d.id)
    core.info(`Deleted distribution ${what}`)
  }
  if (plan.shortBy > 0) {
    core.warning(
      `${plan.shortBy} more distribution(s) would have to go to stay within max-distributions=${max}, but every remaining one is in use by an environment.`
    )
  }
  return dryRun ? 0 : plan.toDelete.length
}
