// The distribution to deploy: one already on the stack (distribution-id, or what another environment
// runs), an identical one already stored (reused), or the archive uploaded after pruning. Also the
// lookups that could refuse the run before anything changes: environments by name, config files.
import * as core from '../port.js'
import type { ArchiveInfo, ReadyArchive } from '../archive/index.js'
import { sameMd5, type CloudClient, type Distribution, type Environment, type EnvironmentList } from '../cloud/client.js'
import { sameDistributionName } from '../cloud/distribution-name.js'
import { pruneDistributions } from '../cloud/prune.js'
import type { PruneRecords } from '../github/prune-records.js'
import { InputError, ServiceError } from '../errors.js'
import { formatBytes } from '../format.js'
import { INPUT_DEFAULTS } from '../action-metadata.js'
import { MB } from '../inputs/index.js'
import type { DeployInputs } from '../inputs/index.js'
import type { PhaseRunner } from '../phases.js'
import type { DeployResult } from './result.js'

/** The environment of that exact name; an error that lists the names there when it does not exist. */
export async function findEnvironment(
  client: CloudClient,
  name: string,
  target: string,
  input: string
): Promise<{ environment: Environment; list: EnvironmentList }> {
  const { environment, list } = await client.findEnvironment(name)
  if (environment) return { environment, list }
  const names = list.items.map((e) => `'${e.name}'`).join(', ') || 'none'
  const partial = list.complete ? '' : ' (the platform listed only these and would not page further, and a lookup by name found nothing)'
  throw new InputError(`${input} '${name}' does not exist on ${target}. The environments there are: ${names}${partial}. Names are case-sensitive.`)
}

/** The ids of the config files named, in the order given; an unknown name is refused before any change. */
export async function resolveConfigFiles(client: CloudClient, names: readonly string[], target: string): Promise<string[]> {
  const files = await client.listAppConfigFiles()
  const unknown = names.filter((n) => !files.some((f) => f.name === n))
  if (unknown.length > 0) {
    const there = files.map((f) => `'${f.name}'`).join(', ') || 'none'
    throw new InputError(
      `config-files names ${unknown.map((n) => `'${n}'`).join(', ')}, which ${unknown.length === 1 ? 'does' : 'do'} not exist on ${target}. ` +
        `The application configuration files there are: ${there}. Names are case-sensitive.`
    )
  }
  return names.map((n) => files.find((f) => f.name === n)?.id as string)
}

/** Prunes with the environments as the run first listed them (a list the platform would not complete prunes nothing). */
async function prune(ctx: SourceContext, stored: readonly Distribution[], max: number, known: EnvironmentList | undefined): Promise<number> {
  const { client, inputs } = ctx
  const list = known ?? (await client.listEnvironments())
  return pruneDistributions(client, stored, max, list, {
    dryRun: inputs.dryRun,
    say: inputs.dryRun ? ctx.say : core.info,
    startedAt: ctx.startedAt,
    records: ctx.records
  })
}

export interface SourceContext {
  readonly inputs: DeployInputs
  readonly client: CloudClient
  readonly phase: PhaseRunner
  readonly result: DeployResult
  readonly target: string
  /** Logs a line, and keeps it in the dry run's plan. */
  readonly say: (line: string) => void
  /** The archive's whole check, its hashes noted in the result once known. */
  readonly verified: (ready: ReadyArchive) => Promise<ArchiveInfo>
  /** Date.now() when the run began: what pruning keeps as stored too recently is measured from it. */
  readonly startedAt: number
  /** This stack's GitHub Deployments, with github-token set: what pruning must keep for a deploy under way or a rollback. */
  records?: PruneRecords | undefined
  /** The stack's distributions, as listed when an identical one was looked for (what pruning chooses from). */
  stored?: readonly Distribution[] | undefined
}

/** A distribution given by id: it must be on the stack. */
async function byId(ctx: SourceContext, id: string): Promise<string> {
  return ctx.phase(`Check distribution ${id}`, async () => {
    const found = await ctx.client.getDistribution(id)
    if (found === undefined) {
      throw new InputError(
        `distribution-id '${id}' does not exist on ${ctx.target}. Copy the id from the console or from an earlier run's distribution-id output.`
      )
    }
    core.info(`Distribution ${found.id}${found.name ? ` (${found.name})` : ''} is on the stack.`)
    ctx.result.knownName = found.name
    ctx.result.knownMd5 = found.md5hash
    return found.id
  })
}

/** What another environment runs. */
async function fromEnvironment(ctx: SourceContext, name: string): Promise<string> {
  return ctx.phase(`Find what '${name}' runs`, async () => {
    const { environment: from } = await findEnvironment(ctx.client, name, ctx.target, 'from-environment')
    if (!from.distributionId) {
      throw new InputError(`from-environment '${name}' runs no distribution on ${ctx.target}: deploy to it first, or set distribution-id.`)
    }
    core.info(`Environment '${name}' runs distribution ${from.distributionId}.`)
    const stored = await ctx.client.getDistribution(from.distributionId).catch(() => undefined)
    ctx.result.knownName = stored?.name
    ctx.result.knownMd5 = stored?.md5hash
    return from.distributionId
  })
}

/** An identical stored distribution (same name and MD5, in any case), or undefined; the stack's distributions are noted for pruning. */
async function findIdentical(ctx: SourceContext, ready: ReadyArchive): Promise<string | undefined> {
  const { inputs, result } = ctx
  const stored = await ctx.phase('Look for an identical distribution', async () => {
    const all = await ctx.client.listDistributions()
    // Only a stored distribution of the same name needs the MD5, and so the whole check, now.
    const named = all.filter((d) => sameDistributionName(d.name, ready.fileName))
    const md5 = named.length > 0 ? (await ctx.verified(ready)).md5 : undefined
    const same = named.find((d) => sameMd5(d.md5hash, md5))
    if (same)
      ctx.say(
        `The stack already holds ${ready.fileName} with the same MD5 as distribution ${same.id}: ${inputs.dryRun ? 'would reuse it' : 'reusing it'}, no upload.`
      )
    else ctx.say(`No distribution named ${ready.fileName} with this MD5 on the stack: ${inputs.dryRun ? 'would upload it' : 'uploading it'}.`)
    return { all, same }
  })
  result.reused = stored.same !== undefined
  result.listedBefore = stored.all.map((d) => d.id)
  ctx.stored = stored.all
  result.storedBefore = stored.all.length
  return stored.same?.id
}

/**
 * Deletes old distributions before an upload when max-distributions asks (on a dry run, counts what would go).
 * Called only once nothing can refuse the run any more (the deploy order was checked): a refused run changes nothing.
 */
export async function pruneBeforeUpload(ctx: SourceContext, ready: ReadyArchive, environments: EnvironmentList | undefined): Promise<void> {
  const { inputs, result } = ctx
  const max = inputs.maxDistributions
  const stored = ctx.stored
  if (max === undefined || stored === undefined) return
  const deleted = await ctx.phase('Prune old distributions', async () => {
    // Deleting is not undone: only for an archive known to be sound (a packed one is: it was made here).
    if (!ready.packed) await ctx.verified(ready)
    return prune(ctx, stored, max, environments)
  })
  if (inputs.dryRun) result.wouldPrune = deleted
  else result.pruned = deleted
  result.storedBefore = stored.length - (result.pruned ?? 0)
}

/** No upload (an identical distribution reused, or one named by id): with max-distributions, none was deleted. */
export function pruneNone(ctx: SourceContext): void {
  if (ctx.inputs.maxDistributions === undefined) return
  if (ctx.inputs.dryRun) ctx.result.wouldPrune = 0
  else ctx.result.pruned = 0
}

/** The distribution's id when it is already on the stack; undefined when the archive must be uploaded. */
export async function chooseDistribution(ctx: SourceContext, archive: ReadyArchive | undefined): Promise<string | undefined> {
  const source = ctx.inputs.source
  if (source.kind === 'id') return byId(ctx, source.id)
  if (source.kind === 'environment') return fromEnvironment(ctx, source.name)
  return archive === undefined ? undefined : findIdentical(ctx, archive)
}

/**
 * A 413 (Payload Too Large): the platform's own limit, which max-distribution-mb does not move. Said with the
 * archive's size, and, when max-distribution-mb was raised above its default, that raising it did not help.
 */
function tooLarge(error: ServiceError, size: number, maxBytes: number): ServiceError {
  const defaultMb = Number(INPUT_DEFAULTS['max-distribution-mb'])
  const raised =
    maxBytes > defaultMb * MB
      ? ` max-distribution-mb (${maxBytes / MB}) is above its default of ${defaultMb}, but it sets only this action's own check before the upload, not the platform's limit.`
      : ''
  return new ServiceError(
    `${error.message}. The platform refused the archive as too large (413): it is ${formatBytes(size)} (${size} bytes).${raised} ` +
      "Make the distribution smaller (leave logs, caches and duplicate jars out of it), or ask Bloomreach support about the stack's upload limit.",
    error.status,
    error.errorCode,
    error.errorDetail,
    error.retryAfterMs
  )
}

/** Uploads the archive; notes what the platform stored. */
export async function upload(ctx: SourceContext, ready: ReadyArchive): Promise<string> {
  const uploaded = await ctx.phase('Upload the distribution', async () => {
    const onUnconfirmed = (unconfirmed: boolean): void => void (ctx.result.uploadUnconfirmed = unconfirmed)
    const file = {
      bytes: ready.bytes,
      fileName: ready.fileName,
      size: ready.size,
      // A given archive's check gates the body's end; a packed one checks itself as it is read.
      gate: ready.packed ? undefined : ctx.verified(ready),
      md5: async () => (await ctx.verified(ready)).md5,
      storedBefore: ctx.result.storedBefore,
      // A stored copy after a lost answer is one not listed before: no clock is compared.
      knownBefore: ctx.result.listedBefore && new Set(ctx.result.listedBefore),
      onUnconfirmed
    }
    const d = await ctx.client.uploadDistribution(file).catch((error: unknown) => {
      throw error instanceof ServiceError && error.status === 413 ? tooLarge(error, ready.size, ctx.inputs.maxDistributionBytes) : error
    })
    ctx.result.uploadUnconfirmed = false
    // A packed archive's hashes are those of the bytes just sent: noted now, before anything reports.
    if (ready.packed) await ctx.verified(ready)
    core.info(`${d.adopted ? 'Adopted' : 'Uploaded'}: distribution id ${d.id}${d.name ? ` (${d.name})` : ''}.`)
    return d
  })
  ctx.result.upload = { distributionId: uploaded.id, storedName: uploaded.name ?? ready.fileName, attempts: uploaded.attempts, adopted: uploaded.adopted }
  return uploaded.id
}
