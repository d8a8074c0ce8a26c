// Deleting old distributions so that, after one more upload, at most `max` remain (max-distributions), oldest
// first, never one that must stay (./prune-keep.ts): what an environment runs or ran earlier in this run, what
// GitHub's records name as an environment's previous distribution or as the target of a deploy under way or asked
// for within the hour, where no record names an environment's previous the newest one stored before what it runs,
// a fresh upload. Before each delete, GitHub's records are read again and the environments looked at again. The
// only warning is the one that says the stack could not be kept within `max`, and why.
import * as core from '../port.js'
import { sameId, switching } from './platform-reading.js'
import { describeError, ServiceError } from '../errors.js'
import type { PruneRecords } from '../github/prune-records.js'
import type { GitHubDeploymentRecord } from '../github/client.js'
import type { CloudClient, Distribution, Environment, EnvironmentList } from './client.js'
import { builtBefore, countKept, describeKeep, isFresh, Keeps, oldestFirst, type KeepReason } from './prune-keep.js'

export interface PrunePlan {
  toDelete: Distribution[]
  /** Would have gone, but must stay. */
  kept: Array<{ distribution: Distribution; reason: KeepReason }>
  /** How many more would have to go, but must stay. */
  shortBy: number
}

export interface PruneOptions {
  dryRun: boolean
  say?: ((line: string) => void) | undefined
  /** Date.now() when the run began (default: now): what was stored within the hour before it stays. */
  startedAt?: number | undefined
  /** This stack's GitHub Deployments (github-token set): read again before each delete. */
  records?: PruneRecords | undefined
}

/** The oldest distributions that may go, so that at most max-1 remain; `why` says which must stay. Pure. */
export function planPruning(distributions: readonly Distribution[], max: number, why: (d: Distribution) => KeepReason | undefined): PrunePlan {
  let excess = distributions.length - (max - 1)
  const plan: PrunePlan = { toDelete: [], kept: [], shortBy: 0 }
  for (const d of oldestFirst(distributions)) {
    if (excess <= 0) break
    const reason = why(d)
    if (reason !== undefined) plan.kept.push({ distribution: d, reason })
    else {
      plan.toDelete.push(d)
      excess--
    }
  }
  plan.shortBy = Math.max(0, excess)
  return plan
}

/**
 * Whether an environment's status field shows a switch to a distribution nobody can tell from the list: it says it
 * is switching (one of the two ids in play is then not reported, in either reading of the platform), or it reports no
 * distribution while its status is not 'empty'. Without a status field nothing shows it: the keeps protect a switch then.
 */
export function showsUnnamedSwitch(e: Environment): boolean {
  if (e.status === undefined) return false
  const id = e.distributionId ?? undefined
  if (switching(e.status) === true) return true
  return (id === undefined || id === '') && e.status.toLowerCase() !== 'empty'
}

function whySwitching(e: Environment): string {
  const runs = e.distributionId ? `reports distribution ${e.distributionId}` : 'reports no distribution'
  return `environment '${e.name}' ${runs} with status '${e.status ?? ''}', so it may be switching to a distribution that cannot be known`
}

/** Why nothing may be deleted on this look at the environments, or undefined. */
function holdOff(list: EnvironmentList): string | undefined {
  if (!list.complete) {
    return `the platform listed ${list.items.length} environment(s) but said it has more and would not list them, so a distribution that an unlisted environment runs could be deleted`
  }
  const busy = list.items.find(showsUnnamedSwitch)
  return busy === undefined ? undefined : whySwitching(busy)
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'WatchdogTimeout')
}

function describe(d: Distribution): string {
  return `${d.id} (${d.name ?? 'no name'}, created ${d.createdAt ?? 'at an unknown time'})`
}

/** Deletes the oldest distributions that may go, so that the upload keeps the stack at `max`; returns how many went (on a dry run, how many would). */
export async function pruneDistributions(
  client: CloudClient,
  distributions: readonly Distribution[],
  max: number,
  environments: EnvironmentList,
  options: PruneOptions
): Promise<number> {
  const excess = distributions.length - (max - 1)
  core.info(`The stack holds ${distributions.length} distributions; max-distributions is ${max}.`)
  if (excess <= 0) {
    core.info('Nothing to prune.')
    return 0
  }
  const pruning = new Pruning(client, distributions, environments.items, options)
  const held = holdOff(environments)
  if (held !== undefined) pruning.stop = `None was deleted, because ${held}.`
  else await pruning.run(excess)
  if (pruning.deleted < excess) core.warning(pruning.shortfall(max))
  return pruning.deleted
}

/** One pruning: what must stay, what went, and why it stopped short. */
class Pruning {
  deleted = 0
  /** Why pruning ended before it could delete enough. */
  stop: string | undefined
  private readonly keeps = new Keeps()
  private readonly kept: KeepReason[] = []
  /** Built-before guesses not yet weighed against GitHub's records. */
  private readonly guesses: Array<{ id: string; reason: Extract<KeepReason, { kind: 'built-before' }> }> = []
  private readonly refused: string[] = []
  private readonly say: (line: string) => void
  private lastLook: readonly Environment[]
  private records: readonly GitHubDeploymentRecord[] | undefined

  constructor(
    private readonly client: CloudClient,
    private readonly distributions: readonly Distribution[],
    firstLook: readonly Environment[],
    private readonly options: PruneOptions
  ) {
    this.say = options.say ?? core.info
    this.lastLook = firstLook
    this.noteLook(firstLook)
    const startedAt = options.startedAt ?? Date.now()
    for (const d of distributions) if (isFresh(d, startedAt)) this.keeps.add(d.id, { kind: 'fresh' })
  }

  /**
   * Every id an environment reports stays for the rest of the run: it runs there, or ran there (its previous). So
   * does the newest one stored before it (built-before), the likely previous where no GitHub record names one.
   */
  private noteLook(items: readonly Environment[]): void {
    this.lastLook = items
    for (const e of items) {
      this.keeps.add(e.distributionId, { kind: 'ran', environment: e.name })
      const runs = e.distributionId
      const before = runs ? builtBefore(this.distributions, runs) : undefined
      if (runs && before !== undefined) this.guesses.push({ id: before.id, reason: { kind: 'built-before', environment: e.name, runs } })
    }
    this.settleGuesses()
  }

  /**
   * Keeps each built-before guess whose environment's previous no GitHub record names. With github-token, only once
   * the records were read (they are, before any delete): a record that names the previous makes the guess needless.
   */
  private settleGuesses(): void {
    const read = this.records
    if (this.options.records !== undefined && read === undefined) return
    for (const { id, reason } of this.guesses.splice(0)) {
      if (read === undefined || !this.options.records?.namesPrevious(read, reason.environment, reason.runs)) this.keeps.add(id, reason)
    }
  }

  private why(d: Distribution): KeepReason | undefined {
    const runs = this.lastLook.find((e) => sameId(e.distributionId, d.id))
    return runs === undefined ? this.keeps.why(d.id) : { kind: 'runs', environment: runs.name }
  }

  /** Oldest first, each one that may go deleted (on a dry run, said), until `excess` went or pruning must stop. */
  async run(excess: number): Promise<void> {
    for (const d of oldestFirst(this.distributions)) {
      if (this.deleted >= excess) return
      const reason = this.why(d) ?? (await this.check(d))
      if (this.stop !== undefined) return
      if (reason !== undefined) {
        this.kept.push(reason)
        core.info(`Pruning: kept distribution ${describe(d)}: ${describeKeep(reason)}.`)
        continue
      }
      if (this.options.dryRun) this.say(`Would delete distribution ${describe(d)}.`)
      else if (!(await this.remove(d))) continue
      this.deleted++
    }
  }

  /** GitHub's records read again, then the environments (right before the delete): why `d` must stay now, if it must. */
  private async check(d: Distribution): Promise<KeepReason | undefined> {
    const fromRecords = await this.fromRecords(d)
    if (fromRecords !== undefined || this.stop !== undefined) return fromRecords
    if (this.options.dryRun) return undefined
    const look = await this.lookAgain(d)
    if (look === undefined) return undefined
    this.noteLook(look)
    return this.why(d)
  }

  private async fromRecords(d: Distribution): Promise<KeepReason | undefined> {
    const records = this.options.records
    if (records === undefined) return undefined
    try {
      // A dry run changes nothing: one read is as good as many.
      if (this.records === undefined || !this.options.dryRun) {
        this.records = await records.read()
        await records.keep(this.records, this.lastLook, this.keeps)
        this.settleGuesses()
      }
      return this.why(d) ?? (await records.underWay(this.records, d.id))
    } catch (error) {
      if (isAbort(error)) throw error
      this.stop = `Pruning stopped before deleting distribution ${describe(d)}: GitHub's Deployments could not be read (${describeError(error)}), so a deploy under way that needs it could not be seen.`
      return undefined
    }
  }

  /** The environments as they are now; undefined (with `stop` set) when that look cannot be trusted. */
  private async lookAgain(d: Distribution): Promise<Environment[] | undefined> {
    const stopped = `Pruning stopped before deleting distribution ${describe(d)}`
    let list: EnvironmentList
    try {
      list = await this.client.listEnvironments()
    } catch (error) {
      if (isAbort(error)) throw error
      this.stop = `${stopped}: the environments could not be listed again right before deleting (${describeError(error)}).`
      return undefined
    }
    const held = holdOff(list)
    if (held !== undefined) this.stop = `${stopped}: ${held}.`
    return held === undefined ? list.items : undefined
  }

  /**
   * Deletes one distribution; a refusal (409: deployed or being deployed somewhere, or any other failure) is said and
   * pruning goes on with the next oldest: it is housekeeping and never stops a deploy. Only an aborted run stops it.
   */
  private async remove(d: Distribution): Promise<boolean> {
    try {
      await this.client.deleteDistribution(d.id)
      core.info(`Deleted distribution ${describe(d)}`)
      return true
    } catch (error) {
      if (isAbort(error)) throw error
      const why = error instanceof ServiceError && error.status === 409 ? 'the platform says it is in use (HTTP 409)' : describeError(error)
      core.info(`Pruning: the platform did not delete distribution ${describe(d)}: ${why}. Pruning goes on with the next oldest.`)
      this.refused.push(d.id)
      return false
    }
  }

  /** The one warning: how many stay, and why none of them could go. */
  shortfall(max: number): string {
    const stays = this.distributions.length - this.deleted
    const holds = this.options.dryRun
      ? `would hold ${stays} distributions (${this.deleted} deleted), ${stays + 1} with the upload`
      : `holds ${stays} distributions (${this.deleted} deleted), ${stays + 1} with this upload`
    const why = [
      ...(this.stop === undefined ? [] : [this.stop]),
      ...(this.kept.length === 0 ? [] : [`${this.stop === undefined ? 'None of the others may go' : 'Kept before that'}: ${countKept(this.kept).join(', ')}.`]),
      ...(this.refused.length === 0 ? [] : [`The platform did not delete ${this.refused.length} (${this.refused.join(', ')}), said above.`])
    ]
    return `max-distributions=${max} could not be kept: the stack ${holds}. ${why.join(' ')}`
  }
}
