// Which old distributions to delete so that, after one more upload, at most `max` remain: the plan
// is pure, so every rule is unit-tested (oldest first, never one an environment runs); pruning
// carries it out (on a dry run, it counts what would go).
import * as core from '@actions/core'
import { describeError, ServiceError } from '../errors.js'
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

/** Deletes the oldest distributions no environment runs, so that the upload keeps the stack at `max`; returns how many went (on a dry run, how many would). */
export async function pruneDistributions(
  client: CloudClient,
  distributions: readonly Distribution[],
  max: number,
  environments: readonly Environment[],
  dryRun: boolean,
  say: (line: string) => void = core.info
): Promise<number> {
  const inUse = new Set(environments.map((e) => e.distributionId).filter((id): id is string => typeof id === 'string' && id !== ''))
  const plan = planPruning(distributions, inUse, max)
  core.info(`The stack holds ${distributions.length} distributions (${inUse.size} in use by an environment); max-distributions is ${max}.`)
  if (plan.toDelete.length === 0 && plan.shortBy === 0) {
    core.info('Nothing to prune.')
    return 0
  }
  let deleted = 0
  for (const d of plan.toDelete) {
    const what = `${d.id} (${d.name ?? 'no name'}, created ${d.createdAt ?? 'at an unknown time'})`
    if (dryRun) {
      say(`Would delete distribution ${what}.`)
      deleted++
      continue
    }
    if (await deleteOrSkip(client, d.id, what)) deleted++
  }
  if (plan.shortBy > 0) {
    core.warning(
      `${plan.shortBy} more distribution(s) would have to go to stay within max-distributions=${max}, but every remaining one is in use by an environment.`
    )
  }
  return deleted
}

/**
 * Deletes one distribution; a refusal (409: deployed or being deployed somewhere, or any other failure) is a
 * warning and pruning goes on: it is housekeeping and never stops a deploy. Only an aborted run stops it.
 */
async function deleteOrSkip(client: CloudClient, id: string, what: string): Promise<boolean> {
  try {
    await client.deleteDistribution(id)
    core.info(`Deleted distribution ${what}`)
    return true
  } catch (error) {
    if (error instanceof Error && (error.name === 'AbortError' || error.name === 'WatchdogTimeout')) throw error
    const why = error instanceof ServiceError && error.status === 409 ? 'the platform says it is in use (HTTP 409)' : describeError(error)
    core.warning(`Pruning: kept distribution ${what}: ${why}. Pruning goes on; delete it later in the console if it is no longer needed.`)
    return false
  }
}
