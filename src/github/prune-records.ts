// What this repository's GitHub Deployments tell pruning (src/cloud/prune.ts), with github-token set: what each
// environment of the stack ran before its latest deploy (the payload's previousDistributionId, else the distribution
// recorded before), whether a payload names it (then pruning needs no guess by date), what a deploy asked for within
// the last hour (its switch may be hidden), and whether a Deployment naming a distribution is still under way. Read
// again before each delete: another job may record one.
import type { Environment } from '../cloud/client.js'
import { CLOCK_SKEW_MS, FRESH_MS, type KeepReason, type Keeps } from '../cloud/prune-keep.js'
import { sameId } from '../cloud/platform-reading.js'
import type { GitHubApi, GitHubDeploymentRecord } from './client.js'
import { DeploymentHistory } from '../code-host/evidence.js'

/** A Deployment's latest status that says it is not done; GitHub gives a new Deployment no status (pending) until one is set. */
const UNDER_WAY = new Set(['queued', 'in_progress', 'pending'])
/** The newest Deployments naming one distribution whose status is read: an older one still under way is a stale record. */
const STATUS_READS = 5

/** A Deployment that names a distribution: as what it deploys, or as what ran before it (its rollback target). */
function names(d: GitHubDeploymentRecord, id: string): boolean {
  return sameId(d.payload.distributionId, id) || sameId(d.payload.previousDistributionId, id)
}

/**
 * What ran before the distribution of record `i`, going back through the records: its payload's previous distribution
 * (older versions of this action wrote none), else the one recorded before it, skipping redeploys of the same one.
 * When the records show the environment back on the same distribution after that one (a rollback, or a deploy the
 * platform abandoned: a payload names what the environment reported at request, which may never have served), or
 * name that one only as a payload's previous, never as deployed there, the one before is kept too.
 */
function ranBefore(here: readonly GitHubDeploymentRecord[], i: number): string[] {
  const at = here[i]?.payload.distributionId
  const found: string[] = []
  let returned = false
  let oneMore = false
  for (let j = i; j < here.length; j++) {
    const record = here[j]?.payload
    for (const [id, named] of [
      [j === i ? undefined : record?.distributionId, 'deployed'],
      [record?.previousDistributionId, 'previous']
    ] as const) {
      if (id === undefined || found.some((f) => sameId(f, id))) continue
      if (sameId(id, at)) {
        returned = found.length > 0
        continue
      }
      if (found.length > 0 && !returned && !oneMore) return found
      found.push(id)
      if (found.length === 2) return found
      // Named only as a payload's previous, never recorded as deployed here: the environment may have reported it at
      // request and then abandoned it (another deploy came first): the one before it stays too.
      oneMore = named === 'previous' && !here.slice(j + 1).some((d) => sameId(d.payload.distributionId, id))
    }
  }
  return found
}

export class PruneRecords {
  private readonly history: DeploymentHistory

  constructor(
    github: GitHubApi,
    apiUrl: string,
    private readonly now: () => number = Date.now
  ) {
    this.history = new DeploymentHistory(github, apiUrl)
  }

  /** This stack's Deployments that name a distribution, newest first, read afresh. Throws when GitHub cannot be read. */
  async read(): Promise<GitHubDeploymentRecord[]> {
    this.history.refresh()
    return (await this.history.deployments()).filter((d) => d.payload.distributionId !== undefined)
  }

  /** Adds what the records say must stay: each environment's previous distribution, and what a deploy named within the hour. */
  async keep(records: readonly GitHubDeploymentRecord[], environments: readonly Environment[], keeps: Keeps): Promise<void> {
    const since = this.now() - FRESH_MS - CLOCK_SKEW_MS
    for (const d of records) {
      if (!(Date.parse(d.createdAt ?? '') >= since)) continue
      const reason: KeepReason = { kind: 'requested', environment: d.environment, deployment: d.id }
      keeps.add(d.payload.distributionId, reason)
      keeps.add(d.payload.previousDistributionId, reason)
    }
    for (const e of environments) await this.previousOf(e, records, keeps)
  }

  /**
   * What environment `e` ran before, by its records: the previous of the Deployment that put its distribution there;
   * when no record names what it reports (deployed outside this action, or no id shown), the latest one recorded, which
   * ran there before, and also what ran before that when it shows no id at all, or when that latest one is not recorded
   * as done (a deploy still waiting on a busy environment, or one that failed, may never have served: fresh seed
   * 410796983, our promotion waiting while another job's unrecorded deploys landed).
   */
  private async previousOf(e: Environment, records: readonly GitHubDeploymentRecord[], keeps: Keeps): Promise<void> {
    const here = records.filter((d) => d.environment === e.name)
    const latest = here[0]
    if (latest === undefined) return
    const reason = (d: GitHubDeploymentRecord): KeepReason => ({ kind: 'previous', environment: e.name, deployment: d.id })
    keeps.add(latest.payload.distributionId, reason(latest))
    const current = e.distributionId ?? undefined
    const i = current === undefined ? -1 : here.findIndex((d) => sameId(d.payload.distributionId, current))
    const at = here[i]
    if (at !== undefined) for (const id of ranBefore(here, i)) keeps.add(id, reason(at))
    else if (current === undefined || current === '' || !(await this.served(latest))) for (const id of ranBefore(here, 0)) keeps.add(id, reason(latest))
  }

  /** Whether a Deployment's latest status says it was done (success); GitHub's failure to answer is thrown (pruning stops). */
  private async served(d: GitHubDeploymentRecord): Promise<boolean> {
    return (await this.history.host.latestStatus(d.id))?.state === 'success'
  }

  /**
   * Whether the Deployment that put `runs` on `environment` names, in its payload, what ran there before it (through
   * redeploys of the same one): then that is the environment's previous, and pruning needs no guess by date
   * (./prune.ts, built-before). Not when no record covers what it runs (deployed from Mission Control, or by a job
   * without a token), nor when the record names no previous (an earlier version): the order of records is no proof.
   */
  namesPrevious(records: readonly GitHubDeploymentRecord[], environment: string, runs: string): boolean {
    const here = records.filter((d) => d.environment === environment)
    for (let j = here.findIndex((d) => sameId(d.payload.distributionId, runs)); j >= 0 && j < here.length; j++) {
      const payload = here[j]?.payload
      if (!sameId(payload?.distributionId, runs) || payload?.previousDistributionId === undefined) return false
      if (!sameId(payload.previousDistributionId, runs)) return true
    }
    return false
  }

  /** The newest Deployment naming `id` that is still under way (its latest status queued, pending or in progress, or none yet). */
  async underWay(records: readonly GitHubDeploymentRecord[], id: string): Promise<KeepReason | undefined> {
    for (const d of records.filter((r) => names(r, id)).slice(0, STATUS_READS)) {
      const status = await this.history.host.latestStatus(d.id)
      const state = status?.state ?? 'pending'
      if (UNDER_WAY.has(state)) return { kind: 'in-progress', environment: d.environment, deployment: d.id, state }
    }
    return undefined
  }
}
