// Which old distributions to delete so that, after one more upload, at most `max` remain: the plan
// is pure, so every rule is unit-tested (oldest first, never one an environment runs, never a fresh
// upload); pruning carries it out, looking at the environments again right before each delete (on a
// dry run, it counts what would go).
import * as core from '../port.js'
import { sameId, switching } from '../deploy/look.js'
import { describeError, ServiceError } from '../errors.js'
import type { CloudClient, Distribution, Environment } from './client.js'

/** Another job may have just uploaded a distribution it is about to deploy: one stored this recently is kept. */
const FRESH_MS = 60 * 60_000
/** How far the platform's clock may be off from ours, either way. */
const CLOCK_SKEW_MS = 5 * 60_000

export interface PrunePlan {
  toDelete: Distribution[]
  /** Would have gone, but were stored too recently: another job may be about to deploy them. */
  fresh: Distribution[]
  /** How many more would have to go, but are in use by an environment or fresh. */
  shortBy: number
}

export interface PruneOptions {
  dryRun: boolean
  say?: ((line: string) => void) | undefined
  /** Date.now() when the run began (default: now). */
  startedAt?: number | undefined
}

function createdMs(d: Distribution): number {
  const t = d.createdAt ? Date.parse(d.createdAt) : Number.NaN
  // Undated records sort first: they are the oldest we can tell of.
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t
}

/** Ids are compared without letter case: the platform may write them in either. */
function isInUse(inUse: ReadonlySet<string>, id: string): boolean {
  for (const used of inUse) if (sameId(used, id)) return true
  return false
}

/** `freshSince`: a distribution created at or after this time (ms) is never deleted. */
export function planPruning(distributions: readonly Distribution[], inUse: ReadonlySet<string>, max: number, freshSince = Number.POSITIVE_INFINITY): PrunePlan {
  let excess = distributions.length - (max - 1)
  const toDelete: Distribution[] = []
  const fresh: Distribution[] = []
  const oldestFirst = [...distributions].sort((a, b) => createdMs(a) - createdMs(b) || a.id.localeCompare(b.id))
  for (const d of oldestFirst) {
    if (excess <= 0) break
    if (isInUse(inUse, d.id)) continue
    if (createdMs(d) >= freshSince) {
      fresh.push(d)
      continue
    }
    toDelete.push(d)
    excess--
  }
  return { toDelete, fresh, shortBy: Math.max(0, excess) }
}

/** The distributions the environments report. */
export function inUseBy(environments: readonly Environment[]): Set<string> {
  return new Set(environments.map((e) => e.distributionId).filter((id): id is string => typeof id === 'string' && id !== ''))
}

/**
 * Whether an environment may be switching to a distribution nobody can tell from the list: its status says
 * it is switching (one of the two ids in play is then not reported, in either reading of the platform), or
 * it reports no distribution while its status is not 'empty', or it shows no status field at all (then a
 * deploy in progress cannot be seen: the platform may report the old id until the new one runs).
 */
export function mayBeSwitching(e: Environment): boolean {
  if (e.status === undefined) return true
  const id = e.distributionId ?? undefined
  if (switching({ distributionId: id, status: e.status, at: 0 }) === true) return true
  return (id === undefined || id === '') && e.status.toLowerCase() !== 'empty'
}

function whySwitching(e: Environment): string {
  const runs = e.distributionId ? `reports distribution ${e.distributionId}` : 'reports no distribution'
  if (e.status === undefined) {
    return `environment '${e.name}' ${runs} with no status field, so a deploy in progress there cannot be seen, and the distribution it may be switching to cannot be known`
  }
  return `environment '${e.name}' ${runs} with status '${e.status}', so it may be switching to a distribution that cannot be known`
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'WatchdogTimeout')
}

/** The environments as they are now, or why pruning must stop: a delete acts on this look, not on the run's first one. */
async function lookAgain(client: CloudClient): Promise<{ items: Environment[] } | { stop: string }> {
  let list
  try {
    list = await client.listEnvironments()
  } catch (error) {
    if (isAbort(error)) throw error
    return { stop: `the environments could not be listed again right before deleting (${describeError(error)})` }
  }
  if (!list.complete) return { stop: 'the platform would not list every environment right before deleting' }
  const busy = list.items.find(mayBeSwitching)
  if (busy !== undefined) return { stop: whySwitching(busy) }
  return { items: list.items }
}

function describe(d: Distribution): string {
  return `${d.id} (${d.name ?? 'no name'}, created ${d.createdAt ?? 'at an unknown time'})`
}

/** Deletes the oldest distributions no environment runs, so that the upload keeps the stack at `max`; returns how many went (on a dry run, how many would). */
export async function pruneDistributions(
  client: CloudClient,
  distributions: readonly Distribution[],
  max: number,
  environments: readonly Environment[],
  options: PruneOptions
): Promise<number> {
  const say = options.say ?? core.info
  const busy = environments.find(mayBeSwitching)
  if (busy !== undefined) {
    core.warning(`Not pruning this run: ${whySwitching(busy)}, and deleting it would break that release. Old distributions stay until a later run.`)
    return 0
  }
  const inUse = inUseBy(environments)
  const freshSince = (options.startedAt ?? Date.now()) - FRESH_MS - CLOCK_SKEW_MS
  const plan = planPruning(distributions, inUse, max, freshSince)
  core.info(`The stack holds ${distributions.length} distributions (${inUse.size} in use by an environment); max-distributions is ${max}.`)
  for (const d of plan.fresh) {
    core.info(`Pruning: kept distribution ${describe(d)}: stored within the last hour, it may be another job's upload about to be deployed.`)
  }
  if (plan.toDelete.length === 0 && plan.shortBy === 0) {
    core.info('Nothing to prune.')
    return 0
  }
  // Every one the plan could take, oldest first: one kept at the look before its delete gives way to the next.
  const candidates = planPruning(distributions, inUse, 1, freshSince).toDelete
  const deleted = options.dryRun ? countDryRun(plan.toDelete, say) : await deleteAll(client, candidates, plan.toDelete.length)
  if (plan.shortBy > 0) {
    core.warning(
      `${plan.shortBy} more distribution(s) would have to go to stay within max-distributions=${max}, but every remaining one is in use by an environment` +
        `${plan.fresh.length > 0 ? ' or was stored within the last hour' : ''}.`
    )
  }
  return deleted
}

function countDryRun(toDelete: readonly Distribution[], say: (line: string) => void): number {
  for (const d of toDelete) say(`Would delete distribution ${describe(d)}.`)
  return toDelete.length
}

/** Deletes `want` of the candidates, each only when no environment runs it at a look right before its delete; stops when that look cannot be trusted. */
async function deleteAll(client: CloudClient, candidates: readonly Distribution[], want: number): Promise<number> {
  let deleted = 0
  for (const d of candidates) {
    if (deleted >= want) break
    const now = await lookAgain(client)
    if ('stop' in now) {
      core.warning(`Pruning stopped before deleting distribution ${describe(d)}: ${now.stop}. ${deleted} deleted so far; the rest stay.`)
      break
    }
    const user = now.items.find((e) => sameId(e.distributionId, d.id))
    if (user !== undefined) {
      core.info(`Pruning: kept distribution ${describe(d)}: environment '${user.name}' runs it now.`)
      continue
    }
    if (await deleteOrSkip(client, d.id, describe(d))) deleted++
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
    if (isAbort(error)) throw error
    const why = error instanceof ServiceError && error.status === 409 ? 'the platform says it is in use (HTTP 409)' : describeError(error)
    core.warning(`Pruning: kept distribution ${what}: ${why}. Pruning goes on; delete it later in the console if it is no longer needed.`)
    return false
  }
}
