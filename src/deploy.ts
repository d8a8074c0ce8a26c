// The deployment, phase by phase: the distribution (uploaded, reused, or already on the stack) ->
// login -> config files -> environment -> deploy (or skip) -> follow until applied -> health check ->
// the caller's verification (the search check) -> a rollback when the new release fails them. It
// returns what it did (DeployResult); when it stops part-way, it throws StepFailed with what it did
// so far. It sets no output and writes no summary: report.ts derives those from the result.
// Loaded by main.ts only once the inputs are valid.
import * as core from '@actions/core'
import { rm } from 'node:fs/promises'
import type { ArchiveInfo, ReadyArchive } from './archive/index.js'
import { runBuildCommand } from './build.js'
import { CloudApi } from './cloud/api.js'
import { CloudClient, type Distribution, type Environment, type EnvironmentList } from './cloud/client.js'
import { sameDistributionName } from './cloud/distribution-name.js'
import { DeployNotApplied, followDeploy } from './cloud/follow.js'
import { pruneDistributions } from './cloud/prune.js'
import { CloudSession } from './cloud/session.js'
import { prepareArchive, workspace } from './distribution.js'
import { ActionError, InputError, StepFailed } from './errors.js'
import { GitHubDeployment } from './github/deployments.js'
import { checkHealth, HealthCheckFailed } from './health.js'
import { HttpTransport } from './http/transport.js'
import type { DeployInputs, HealthCheck } from './inputs/index.js'
import type { PhaseRunner } from './phases.js'

export const USER_AGENT = 'brcloud-deploy (GitHub Action)'

/** Checks that run after the deploy (the search check); resolves to why it failed, or undefined when it passed. */
export type Verification = () => Promise<string | undefined>

/** The new release failed its checks and the previous one was deployed back: the step fails with this. */
export class RolledBack extends ActionError {
  override name = 'RolledBack'
}

/** One line of the summary's timeline: how long after the deploy request it happened. */
export interface TimelineEvent {
  readonly afterMs: number
  readonly text: string
}

/** What a deployment did; each field is set once the step that learns it has passed. */
export interface DeployResult {
  /** The API base address used. */
  readonly apiUrl: string
  /** The stack name when known, else the API address: how notices name the target. */
  readonly target: string
  readonly dryRun: boolean
  readonly strategy: string
  /** The environment input (undefined: upload only). */
  readonly environmentName: string | undefined
  /** Where the distribution comes from: an upload (or a reused identical one), distribution-id, or from-environment. */
  readonly source: DeployInputs['source']['kind']
  readonly fromEnvironment: string | undefined
  archive?:
    | {
        readonly name: string
        /** 'packed' from a directory, or 'archive' uploaded as it is. */
        readonly source: 'packed' | 'archive'
        readonly size: number
        /** Known once the archive's check is done (a given archive is checked beside its upload). */
        sha256: string | undefined
      }
    | undefined
  /** The environment's id, once it was found by name. */
  environmentId?: string | undefined
  /** What the environment ran before this run changed anything (undefined: nothing, or not known). */
  previousDistributionId?: string | undefined
  /** Distributions deleted by max-distributions (undefined when pruning is off). */
  pruned?: number | undefined
  /** With an upload source: true when an identical stored distribution was used instead. */
  reused?: boolean | undefined
  upload?:
    | {
        readonly distributionId: string
        /** The name the platform stored it under, as its answer says (ours when it does not say). */
        readonly storedName: string
        readonly attempts: number
        /** The upload's answer was lost and the stored copy was adopted. */
        readonly adopted: boolean
      }
    | undefined
  /** The distribution deployed (or, on a dry run or a skip, the one that would be). */
  distributionId?: string | undefined
  /** Names of the config files deployed with it. */
  readonly configFiles: readonly string[]
  /** The environment already ran the distribution, so no deploy was made. */
  skipped: boolean
  /** The deploy call went through. */
  deployed: boolean
  appliedAfterMs?: number | undefined
  healthyAfterMs?: number | undefined
  /** The new release failed its checks and this one was deployed back. */
  rolledBack?: { readonly to: string; readonly reason: string } | undefined
  readonly timeline: TimelineEvent[]
  /** On a dry run: what each step would do. */
  readonly plan: string[]
  /** Every step passed (for a dry run: everything it checks). */
  completed: boolean
  tokenRenewals: number
}

/** Retries of cloud calls: attempts from max-attempts, waits from 1 s to 15 s, at most 5 minutes per operation. */
function retryPolicy(inputs: DeployInputs): { attempts: number; baseDelayMs: number; maxDelayMs: number; maxTotalMs: number } {
  return { attempts: inputs.maxAttempts, baseDelayMs: 1_000, maxDelayMs: 15_000, maxTotalMs: 5 * 60_000 }
}

/** The environment of that exact name; an error that lists the names there when it does not exist. */
async function findEnvironment(client: CloudClient, name: string, target: string, input: string): Promise<{ environment: Environment; list: EnvironmentList }> {
  const { environment, list } = await client.findEnvironment(name)
  if (environment) return { environment, list }
  const names = list.items.map((e) => `'${e.name}'`).join(', ') || 'none'
  const partial = list.complete ? '' : ' (the platform listed only these and would not page further, and a lookup by name found nothing)'
  throw new InputError(`${input} '${name}' does not exist on ${target}. The environments there are: ${names}${partial}. Names are case-sensitive.`)
}

/** Prunes only with every environment known: a distribution an unlisted environment runs must never be deleted. */
async function prune(client: CloudClient, stored: readonly Distribution[], max: number, known: EnvironmentList | undefined, dryRun: boolean): Promise<number> {
  const list = known ?? (await client.listEnvironments())
  if (!list.complete) {
    core.warning(
      `Not pruning: the platform listed ${list.items.length} environment(s) but said it has more and would not list them, so a distribution ` +
        'that an unlisted environment runs could be deleted. Delete old distributions in the console, or run again later.'
    )
    return 0
  }
  return pruneDistributions(client, stored, max, list.items, dryRun)
}

/** The ids of the config files named, in the order given; an unknown name is refused before any change. */
async function resolveConfigFiles(client: CloudClient, names: readonly string[], target: string): Promise<string[]> {
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

export async function deploy(inputs: DeployInputs, phase: PhaseRunner, signal?: AbortSignal, verify?: Verification): Promise<DeployResult> {
  const { address } = inputs
  const target = address.stack ? `stack '${address.stack}' (${address.apiUrl})` : address.apiUrl
  const result: DeployResult = {
    apiUrl: address.apiUrl,
    target: address.stack ?? address.apiUrl,
    dryRun: inputs.dryRun,
    strategy: inputs.deployStrategy,
    environmentName: inputs.environment,
    source: inputs.source.kind,
    fromEnvironment: inputs.source.kind === 'environment' ? inputs.source.name : undefined,
    configFiles: inputs.configFiles,
    skipped: false,
    deployed: false,
    timeline: [],
    plan: [],
    completed: false,
    tokenRenewals: 0
  }
  const say = (line: string): void => {
    core.info(line)
    if (inputs.dryRun) result.plan.push(line)
  }

  const cleanup: string[] = []
  const transport = new HttpTransport(address.apiUrl, { userAgent: USER_AGENT, timeoutMs: inputs.requestTimeoutMs, signal })
  const api = new CloudApi(transport, { retry: retryPolicy(inputs), uploadIdleTimeoutMs: inputs.requestTimeoutMs })
  const session = new CloudSession(api, inputs.username, inputs.password, { target })
  const client = new CloudClient(api, session)
  let github: GitHubDeployment | undefined
  try {
    if (inputs.buildCommand) {
      const command = inputs.buildCommand
      await phase(`Build: ${command}`, () => runBuildCommand(command, workspace()))
    }
    let archive: ReadyArchive | undefined
    /** The archive's whole check: its hashes noted in the result once known. */
    const verified = async (ready: ReadyArchive): Promise<ArchiveInfo> => {
      const info = await ready.verified
      if (result.archive) result.archive.sha256 = info.sha256
      return info
    }
    if (inputs.source.kind === 'upload') {
      const ready = await phase('Prepare the distribution', () => prepareArchive(inputs, cleanup))
      archive = ready
      result.archive = { name: ready.fileName, source: ready.packed ? 'packed' : 'archive', size: ready.size, sha256: undefined }
      if (ready.packed) await verified(ready)
    }

    await phase(`Log in to ${target}`, async () => {
      await session.login()
      core.info(`Logged in as ${inputs.username}.`)
    })

    // Everything that could refuse the run is read before anything changes.
    let configFileIds: string[] = []
    if (inputs.configFiles.length > 0) {
      configFileIds = await phase('Find the config files', async () => {
        const ids = await resolveConfigFiles(client, inputs.configFiles, target)
        core.info(`Config files: ${inputs.configFiles.map((n, i) => `'${n}' (${ids[i] ?? '?'})`).join(', ')}, role systemproperty.`)
        return ids
      })
    }

    let environments: EnvironmentList | undefined
    let environment: Environment | undefined
    if (inputs.environment) {
      const name = inputs.environment
      environment = await phase(`Find environment '${name}'`, async () => {
        const found = await findEnvironment(client, name, target, 'environment')
        environments = found.list
        const env = found.environment
        core.info(
          `Environment '${env.name}' has id ${env.id}${env.distributionId ? `; it runs distribution ${env.distributionId}` : '; it runs no distribution'}.`
        )
        return env
      })
      result.environmentId = environment.id
      result.previousDistributionId = environment.distributionId ?? undefined
    }

    // The distribution to deploy: one already on the stack, or the archive (an identical stored one, or uploaded).
    let distributionId: string | undefined
    const source = inputs.source
    if (source.kind === 'id') {
      distributionId = await phase(`Check distribution ${source.id}`, async () => {
        const found = await client.getDistribution(source.id)
        if (found === undefined) {
          throw new InputError(
            `distribution-id '${source.id}' does not exist on ${target}. Copy the id from the console or from an earlier run's distribution-id output.`
          )
        }
        core.info(`Distribution ${found.id}${found.name ? ` (${found.name})` : ''} is on the stack.`)
        return found.id
      })
    } else if (source.kind === 'environment') {
      distributionId = await phase(`Find what '${source.name}' runs`, async () => {
        const { environment: from } = await findEnvironment(client, source.name, target, 'from-environment')
        if (!from.distributionId) {
          throw new InputError(`from-environment '${source.name}' runs no distribution on ${target}: deploy to it first, or set distribution-id.`)
        }
        core.info(`Environment '${source.name}' runs distribution ${from.distributionId}.`)
        return from.distributionId
      })
    } else if (archive !== undefined) {
      const ready = archive
      const stored = await phase('Look for an identical distribution', async () => {
        const all = await client.listDistributions()
        // Only a stored distribution of the same name needs the MD5, and so the whole check, now.
        const named = all.filter((d) => sameDistributionName(d.name, ready.fileName))
        const md5 = named.length > 0 ? (await verified(ready)).md5 : undefined
        const same = named.find((d) => d.md5hash === md5)
        if (same)
          say(
            `The stack already holds ${ready.fileName} with the same MD5 as distribution ${same.id}: ${inputs.dryRun ? 'would reuse it' : 'reusing it'}, no upload.`
          )
        else say(`No distribution named ${ready.fileName} with this MD5 on the stack: ${inputs.dryRun ? 'would upload it' : 'uploading it'}.`)
        return { all, same }
      })
      result.reused = stored.same !== undefined
      distributionId = stored.same?.id
      if (stored.same === undefined && inputs.maxDistributions !== undefined) {
        const max = inputs.maxDistributions
        result.pruned = await phase('Prune old distributions', async () => {
          // Deleting is not undone: only for an archive known to be sound.
          await verified(ready)
          return prune(client, stored.all, max, environments, inputs.dryRun)
        })
      }
    }
    result.distributionId = distributionId

    const alreadyRuns = environment !== undefined && distributionId !== undefined && environment.distributionId === distributionId
    if (environment) {
      const files = inputs.configFiles.length > 0 ? ` with config files ${inputs.configFiles.map((n) => `'${n}'`).join(', ')}` : ''
      if (alreadyRuns && !inputs.forceDeploy)
        say(
          `'${environment.name}' already runs ${distributionId}: ${inputs.dryRun ? 'would skip the deploy' : 'no deploy'} (force-deploy: true deploys it again).`
        )
      else if (inputs.dryRun)
        say(
          `Would deploy ${distributionId ?? 'the uploaded distribution'} to '${environment.name}' (${environment.id}) with strategy ${inputs.deployStrategy}${files}.`
        )
      if (inputs.dryRun && inputs.rollback && !(alreadyRuns && !inputs.forceDeploy)) {
        say(
          result.previousDistributionId
            ? `Would roll back to ${result.previousDistributionId} if the new release fails its checks.`
            : `Could not roll back: '${environment.name}' runs no distribution now.`
        )
      }
    }

    if (inputs.dryRun) {
      if (archive) await verified(archive)
      if (inputs.health)
        say(`Would check ${inputs.health.url} until it answers 2xx${inputs.health.expect === undefined ? '' : ` containing '${inputs.health.expect}'`}.`)
      if (verify) await verify()
      result.completed = true
      return result
    }

    if (environment && inputs.githubToken && !(alreadyRuns && !inputs.forceDeploy)) {
      github = await GitHubDeployment.start(
        inputs.githubToken,
        environment.name,
        `${archive?.fileName ?? distributionId ?? 'distribution'} to ${result.target}`,
        inputs.environmentUrl
      )
    }

    if (distributionId === undefined && archive !== undefined) {
      const ready = archive
      const uploaded = await phase('Upload the distribution', async () => {
        const d = await client.uploadDistribution({ path: ready.path, fileName: ready.fileName, size: ready.size, verified: verified(ready) })
        core.info(`${d.adopted ? 'Adopted' : 'Uploaded'}: distribution id ${d.id}${d.name ? ` (${d.name})` : ''}.`)
        return d
      })
      result.upload = { distributionId: uploaded.id, storedName: uploaded.name ?? ready.fileName, attempts: uploaded.attempts, adopted: uploaded.adopted }
      distributionId = uploaded.id
      result.distributionId = distributionId
    }

    let failure: ActionError | undefined
    let requested: number | undefined
    const since = (): number => (requested === undefined ? 0 : Date.now() - requested)
    if (environment && distributionId !== undefined) {
      const env = environment
      const id = distributionId
      if (alreadyRuns && !inputs.forceDeploy) {
        result.skipped = true
      } else {
        requested = Date.now()
        await phase(`Deploy to '${env.name}'`, async () => {
          await client.deploy(env.id, id, inputs.deployStrategy, configFileIds)
          core.info(`Deployment of ${id} to '${env.name}' requested (strategy ${inputs.deployStrategy}).`)
        })
        result.deployed = true
        result.timeline.push({ afterMs: 0, text: `Deployment of ${id} to '${env.name}' requested` })
        failure = await verifyRelease(inputs, phase, client, env.name, id, signal, result, since)
      }
    }
    if (failure === undefined && inputs.health && (result.skipped || !environment)) {
      // Nothing was deployed (the environment already ran it, or an upload only): the site is checked all the same.
      const health = inputs.health
      await phase(`Health check ${health.url}`, () => siteCheck(inputs, health, signal))
    }
    if (failure === undefined && verify) {
      const why = await verify()
      if (result.deployed) {
        result.timeline.push({ afterMs: since(), text: why === undefined ? 'Search check passed' : 'Search check failed' })
        if (why !== undefined) failure = new ActionError(why)
      }
    }

    if (failure !== undefined && environment && distributionId !== undefined) {
      if (!inputs.rollback) throw failure
      await rollBack(inputs, phase, client, environment, distributionId, configFileIds, failure, result, signal, since)
    }
    if (result.deployed) {
      await github?.set('success', `Deployed ${distributionId ?? ''}`)
      github = undefined
    }
    result.completed = true
    return result
  } catch (error) {
    const reason =
      error instanceof RolledBack
        ? `Rolled back to ${result.rolledBack?.to ?? '?'}: ${result.rolledBack?.reason ?? ''}`
        : 'The deploy failed; see the workflow run'
    await github?.set('failure', reason)
    throw new StepFailed(result, error)
  } finally {
    result.tokenRenewals = session.renewals
    await transport.close().catch(() => undefined)
    for (const dir of cleanup) await rm(dir, { recursive: true, force: true }).catch(() => undefined)
  }
}

/** The health check with the run's settings (each attempt's time limit, user agent, watchdog, log). */
function siteCheck(inputs: DeployInputs, health: HealthCheck, signal: AbortSignal | undefined): Promise<{ afterMs: number; attempts: number }> {
  return checkHealth({ ...health, requestTimeoutMs: inputs.requestTimeoutMs, userAgent: USER_AGENT, signal, log: core.info })
}

/**
 * Follows the deploy until applied, then health-checks the site. Resolves to why the new release
 * failed (not applied in time, unhealthy), or undefined when it passed; any other error is thrown.
 */
async function verifyRelease(
  inputs: DeployInputs,
  phase: PhaseRunner,
  client: CloudClient,
  name: string,
  distributionId: string,
  signal: AbortSignal | undefined,
  result: DeployResult,
  at: () => number
): Promise<ActionError | undefined> {
  try {
    if (inputs.followDeploy) {
      await phase(`Wait until '${name}' runs ${distributionId}`, () =>
        followDeploy(client, name, distributionId, { timeoutMs: inputs.deployTimeoutMs, previous: result.previousDistributionId, log: core.info })
      )
      result.appliedAfterMs = at()
      result.timeline.push({ afterMs: result.appliedAfterMs, text: `Applied: '${name}' runs ${distributionId}` })
    }
    if (inputs.health) {
      const health = inputs.health
      await phase(`Health check ${health.url}`, () => siteCheck(inputs, health, signal))
      result.healthyAfterMs = at()
      result.timeline.push({ afterMs: result.healthyAfterMs, text: 'Healthy' })
    }
    return undefined
  } catch (error) {
    if (error instanceof DeployNotApplied || error instanceof HealthCheckFailed) {
      result.timeline.push({ afterMs: at(), text: error instanceof DeployNotApplied ? 'Not applied in time' : 'Health check failed' })
      return error
    }
    throw error
  }
}

/** Deploys the previous distribution back, follows it and checks the site answers, then fails the step naming both ids. */
async function rollBack(
  inputs: DeployInputs,
  phase: PhaseRunner,
  client: CloudClient,
  environment: Environment,
  failedId: string,
  configFileIds: readonly string[],
  failure: ActionError,
  result: DeployResult,
  signal: AbortSignal | undefined,
  since: () => number
): Promise<never> {
  const previous = result.previousDistributionId
  if (previous === undefined || previous === failedId) {
    throw new ActionError(
      `${failure.message} Cannot roll back: '${environment.name}' ran no other distribution before this deploy, so ${failedId} stays deployed.`
    )
  }
  try {
    await phase(`Roll back '${environment.name}' to ${previous}`, async () => {
      core.warning(`The new release failed (${failure.message}) Rolling '${environment.name}' back to ${previous}.`)
      await client.deploy(environment.id, previous, inputs.deployStrategy, configFileIds)
      await followDeploy(client, environment.name, previous, { timeoutMs: inputs.deployTimeoutMs, previous: failedId, log: core.info })
      // The old release answers without the new release's marker: only its answering is checked.
      if (inputs.health) {
        await siteCheck(inputs, { ...inputs.health, expect: undefined }, signal)
      }
    })
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error)
    throw new ActionError(`${failure.message} The rollback to ${previous} failed too: ${why} Check '${environment.name}' in the console now.`)
  }
  result.rolledBack = { to: previous, reason: failure.message }
  result.timeline.push({ afterMs: since(), text: `Rolled back: '${environment.name}' runs ${previous} again` })
  throw new RolledBack(
    `Rolled back: the new distribution ${failedId} failed (${failure.message.replace(/\.$/, '')}), so '${environment.name}' runs the previous distribution ${previous} again. ` +
      `${failedId} stays on the stack for inspection.`
  )
}
