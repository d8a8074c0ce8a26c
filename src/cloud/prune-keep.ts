// What pruning keeps, and why: each distribution it must not delete with the reason the user reads. Pure:
// the sources (the environments' looks, the clock, GitHub's records) add to it; the plan and the warning read it.
import type { Distribution } from './client.js'

/** Uploads this recent may be another job's, about to be deployed: never deleted. */
export const FRESH_MS = 60 * 60_000
/** How far the platform's clock may be off from ours, either way: its createdAt is read with this much room. */
export const CLOCK_SKEW_MS = 15 * 60_000

export type KeepReason =
  /** An environment reported it at a look of this run (the last look it was seen in). */
  | { readonly kind: 'runs'; readonly environment: string }
  /** An environment reported it earlier in this run and no longer does: its previous distribution. */
  | { readonly kind: 'ran'; readonly environment: string }
  /** GitHub's record of an environment names it as what ran there before (its likely rollback target). */
  | { readonly kind: 'previous'; readonly environment: string; readonly deployment: number }
  /**
   * The newest one stored before what an environment reported running, where no GitHub record names its previous: in
   * a pipeline that builds forward, what ran there before.
   */
  | { readonly kind: 'built-before'; readonly environment: string; readonly runs: string }
  /** A GitHub Deployment asked for it (or for a rollback to it) within the last hour: its switch may still be under way. */
  | { readonly kind: 'requested'; readonly environment: string; readonly deployment: number }
  /** A GitHub Deployment naming it is still queued, pending or in progress. */
  | { readonly kind: 'in-progress'; readonly environment: string; readonly deployment: number; readonly state: string }
  /** Stored within the last hour. */
  | { readonly kind: 'fresh' }

/** The strongest reason wins when several hold: what runs, then what a deploy under way needs, then the rest. */
const RANK: Record<KeepReason['kind'], number> = { runs: 0, 'in-progress': 1, requested: 2, previous: 3, ran: 4, 'built-before': 5, fresh: 6 }

/** The distributions to keep, by id in any letter case. */
export class Keeps {
  private readonly reasons = new Map<string, KeepReason>()

  add(id: string | null | undefined, reason: KeepReason): void {
    if (typeof id !== 'string' || id === '') return
    const key = id.toLowerCase()
    const known = this.reasons.get(key)
    if (known === undefined || RANK[reason.kind] < RANK[known.kind]) this.reasons.set(key, reason)
  }

  why(id: string): KeepReason | undefined {
    return this.reasons.get(id.toLowerCase())
  }
}

function createdMs(d: Distribution): number {
  const t = d.createdAt ? Date.parse(d.createdAt) : Number.NaN
  // Undated records sort first: they are the oldest we can tell of.
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t
}

/** Oldest first (undated first), then by id: the order pruning deletes in. */
export function oldestFirst(distributions: readonly Distribution[]): Distribution[] {
  return [...distributions].sort((a, b) => createdMs(a) - createdMs(b) || a.id.localeCompare(b.id))
}

/**
 * The newest distribution stored before `runningId` (by the platform's createdAt; undated ones never count), or
 * undefined, also when the running one is not listed or undated: the platform keeps no history of an environment, so
 * where no record names its previous distribution, this is the likely one.
 */
export function builtBefore(distributions: readonly Distribution[], runningId: string): Distribution | undefined {
  const running = distributions.find((d) => d.id.toLowerCase() === runningId.toLowerCase())
  if (running === undefined || !Number.isFinite(createdMs(running))) return undefined
  return oldestFirst(distributions)
    .filter((d) => Number.isFinite(createdMs(d)) && createdMs(d) < createdMs(running))
    .at(-1)
}

/** Whether the platform stored it within the last hour before `startedAt`, by its clock read with CLOCK_SKEW_MS of room. */
export function isFresh(d: Distribution, startedAt: number): boolean {
  return createdMs(d) >= startedAt - FRESH_MS - CLOCK_SKEW_MS
}

/** The reason in the words of a log line: "kept distribution X: <this>". */
export function describeKeep(reason: KeepReason): string {
  switch (reason.kind) {
    case 'runs':
      return `environment '${reason.environment}' runs it`
    case 'ran':
      return `environment '${reason.environment}' ran it earlier in this run: it is that environment's previous distribution, its likely rollback target`
    case 'previous':
      return `GitHub Deployment ${reason.deployment} records it as what '${reason.environment}' ran before its latest deploy: its likely rollback target`
    case 'requested':
      return `GitHub Deployment ${reason.deployment} of '${reason.environment}' named it within the last hour: that deploy may still be switching`
    case 'in-progress':
      return `GitHub Deployment ${reason.deployment} of '${reason.environment}' that names it is still ${reason.state.replace('_', ' ')}`
    case 'built-before':
      return `the newest one stored before ${reason.runs}, which environment '${reason.environment}' reported running: likely what ran there before it, its rollback target (no record names one)`
    case 'fresh':
      return "stored within the last hour: it may be another job's upload about to be deployed"
  }
}

/** The reasons grouped as the warning counts them. */
type Group = 'runs' | 'previous' | 'deploy' | 'fresh'

const GROUP_OF: Record<KeepReason['kind'], Group> = {
  runs: 'runs',
  ran: 'previous',
  previous: 'previous',
  'built-before': 'previous',
  requested: 'deploy',
  'in-progress': 'deploy',
  fresh: 'fresh'
}

const GROUP_WORDS: Record<Group, (n: number) => string> = {
  runs: (n) => `${n} ${n === 1 ? 'runs' : 'run'} on an environment`,
  previous: (n) => `${n} ${n === 1 ? 'is the previous distribution' : 'are the previous distributions'} of an environment (a likely rollback target)`,
  deploy: (n) => `${n} ${n === 1 ? 'is' : 'are'} named by a GitHub Deployment in progress or requested within the last hour`,
  fresh: (n) => `${n} ${n === 1 ? 'was' : 'were'} stored within the last hour (another job may be about to deploy ${n === 1 ? 'it' : 'them'})`
}

/** "2 run on an environment, 1 was stored within the last hour": the kept ones counted by reason. */
export function countKept(kept: readonly KeepReason[]): string[] {
  const counts = new Map<Group, number>()
  for (const reason of kept) counts.set(GROUP_OF[reason.kind], (counts.get(GROUP_OF[reason.kind]) ?? 0) + 1)
  return (['runs', 'previous', 'deploy', 'fresh'] as const).flatMap((g) => {
    const n = counts.get(g) ?? 0
    return n === 0 ? [] : [GROUP_WORDS[g](n)]
  })
}
