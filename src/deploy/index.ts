// The deployment step, in order: build -> the archive -> login -> config files -> environment -> the
// distribution (./source.ts) -> the release (./release.ts: wait, request, follow, check, roll back)
// -> a last look at the environment. It returns what it did (DeployResult), or throws StepFailed with
// what it did so far; report.ts derives outputs and summary from that. Loaded by main.ts only once the
// inputs are valid.
import * as core from '@actions/core'
import { rm } from 'node:fs/promises'
import type { ArchiveInfo, ReadyArchive } from '../archive/index.js'
import { runBuildCommand } from '../build.js'
import { CloudApi } from '../cloud/api.js'
import { CloudClient, type Environment, type EnvironmentList } from '../cloud/client.js'
import { CloudSession } from '../cloud/session.js'
import { prepareArchive, workspace } from '../distribution.js'
import { ActionError, StepFailed } from '../errors.js'
import { GitHubDeployment } from '../github/deployments.js'
import { checkHealth } from '../health.js'
import { HttpTransport } from '../http/transport.js'
import type { DeployInputs, HealthCheck } from '../inputs/index.js'
import type { PhaseRunner } from '../phases.js'
import { EnvironmentWatch } from './observe.js'
import { nowRuns, releaseFailure } from './outcome.js'
import { deployRelease, rollBack, rollbackFailed, type ReleaseContext, type Verification } from './release.js'
import { newRelease, rolledBack } from './release-state.js'
import type { DeployResult } from './result.js'
import { chooseDistribution, findEnvironment, resolveConfigFiles, upload, type SourceContext } from './source.js'

export type { DeployResult } from './result.js'
export type { Verification } from './release.js'

export const USER_AGENT = 'brcloud-deploy (GitHub Action)'

/** Retries of cloud calls: attempts from max-attempts, waits from 1 s to 15 s, at most 5 minutes per operation. */
function retryPolicy(inputs: DeployInputs): { attempts: number; baseDelayMs: number; maxDelayMs: number; maxTotalMs: number } {
  return { attempts: inputs.maxAttempts, baseDelayMs: 1_000, maxDelayMs: 15_000, maxTotalMs: 5 * 60_000 }
}

/** The last look's own limit: it also runs after the watchdog aborted everything else. */
const LAST_LOOK_MS = 3_000

function newResult(inputs: DeployInputs): DeployResult {
  const { address } = inputs
  return {
    apiUrl: address.apiUrl,
    target: address.stack ?? address.apiUrl,
    consoleUrl: address.consoleUrl,
    dryRun: inputs.dryRun,
    strategy: inputs.deployStrategy,
    environmentName: inputs.environment,
    source: inputs.source.kind,
    fromEnvironment: inputs.source.kind === 'environment' ? inputs.source.name : undefined,
    configFiles: inputs.configFiles,
    skipped: false,
    cautions: [],
    plan: [],
    completed: false,
    tokenRenewals: 0
  }
}

/** The health check with the run's settings (each attempt's time limit, user agent, watchdog, log). */
function siteCheck(inputs: DeployInputs, health: HealthCheck, signal: AbortSignal | undefined): Promise<{ afterMs: number; attempts: number }> {
  return checkHealth({ ...health, requestTimeoutMs: inputs.requestTimeoutMs, userAgent: USER_AGENT, signal, log: core.info })
}

/** Why a run that deploys again what the environment reports (or skips it) does so. */
function redeployReason(inputs: DeployInputs): string | undefined {
  if (inputs.forceDeploy) return 'force-deploy is true'
  if (inputs.configFiles.length > 0) return 'config-files are given, and the platform cannot tell which config files the environment runs with'
  return undefined
}

export async function deploy(inputs: DeployInputs, phase: PhaseRunner, signal?: AbortSignal, verify?: Verification): Promise<DeployResult> {
  const { address } = inputs
  const target = address.stack ? `stack '${address.stack}' (${address.apiUrl})` : address.apiUrl
  const result = newResult(inputs)
  const say = (line: string): void => {
    core.info(line)
    if (inputs.dryRun) result.plan.push(line)
  }
  const caution = (line: string): void => {
    core.warning(line)
    result.cautions.push(line)
  }

  const cleanup: string[] = []
  const transport = new HttpTransport(address.apiUrl, { userAgent: USER_AGENT, timeoutMs: inputs.requestTimeoutMs, signal })
  const api = new CloudApi(transport, { retry: retryPolicy(inputs), uploadIdleTimeoutMs: inputs.requestTimeoutMs })
  const session = new CloudSession(api, inputs.username, inputs.password, { target })
  const client = new CloudClient(api, session)
  let github: GitHubDeployment | undefined
  let loggedIn = false
  let closed = false
  const takeLastLook = async (): Promise<void> => {
    if (!loggedIn || closed) return
    closed = true
    result.finalLook = await closingCalls(inputs, session)
  }
  try {
    if (inputs.buildCommand) {
      const command = inputs.buildCommand
      await phase(`Build: ${command}`, () => runBuildCommand(command, workspace()))
    }
    let archive: ReadyArchive | undefined
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
      loggedIn = true
      result.platformReached = true
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

    const source: SourceContext = { inputs, client, phase, result, target, say, verified }
    let distributionId = await chooseDistribution(source, archive, environments)
    result.distributionId = distributionId

    const alreadyRuns = environment !== undefined && distributionId !== undefined && environment.distributionId === distributionId
    const redeploy = alreadyRuns ? redeployReason(inputs) : undefined
    const skip = alreadyRuns && redeploy === undefined
    if (environment) planDeploy(inputs, environment, distributionId, skip, redeploy, result, say)

    if (inputs.dryRun) {
      if (archive) await verified(archive)
      if (inputs.health)
        say(`Would check ${inputs.health.url} until it answers 2xx${inputs.health.expect === undefined ? '' : ` containing '${inputs.health.expect}'`}.`)
      if (verify) await verify()
      result.completed = true
      return result
    }

    if (environment && inputs.githubToken && !skip) {
      github = await GitHubDeployment.start(
        inputs.githubToken,
        environment.name,
        `${archive?.fileName ?? distributionId ?? 'distribution'} to ${result.target}`,
        inputs.environmentUrl
      )
    }
    if (distributionId === undefined && archive !== undefined) {
      distributionId = await upload(source, archive)
      result.distributionId = distributionId
    }

    if (environment && distributionId !== undefined && !skip) {
      await release(inputs, { phase, client, environment, distributionId, configFileIds, signal, verify, caution }, result)
    } else {
      if (skip) result.skipped = true
      // Nothing was deployed (the environment already ran it, or an upload only): the site is checked all the same.
      const health = inputs.health
      if (health) await phase(`Health check ${health.url}`, () => siteCheck(inputs, health, signal))
      const why = verify ? await verify() : undefined
      if (why !== undefined) throw new ActionError(why)
    }
    await takeLastLook()
    if (result.release) {
      noteLateChange(result, caution)
      await github?.set('success', `Deployed ${distributionId ?? ''}`)
    }
    github = undefined
    result.completed = true
    return result
  } catch (error) {
    await takeLastLook()
    await github?.set('failure', rolledBack(result.release) ? `Rolled back to ${result.release?.rollbackTo ?? '?'}` : 'The deploy failed; see the workflow run')
    throw new StepFailed(result, failureOf(result, error))
  } finally {
    result.tokenRenewals = session.renewals
    await transport.close().catch(() => undefined)
    for (const dir of cleanup) await rm(dir, { recursive: true, force: true }).catch(() => undefined)
  }
}

/** Logs (and on a dry run plans) what happens to the environment. */
function planDeploy(
  inputs: DeployInputs,
  environment: Environment,
  distributionId: string | undefined,
  skip: boolean,
  redeploy: string | undefined,
  result: DeployResult,
  say: (line: string) => void
): void {
  const files = inputs.configFiles.length > 0 ? ` with config files ${inputs.configFiles.map((n) => `'${n}'`).join(', ')}` : ''
  const would = inputs.dryRun
  if (skip) {
    say(`'${environment.name}' already runs ${distributionId}: ${would ? 'would skip the deploy' : 'no deploy'} (force-deploy: true deploys it again).`)
    return
  }
  if (redeploy) say(`'${environment.name}' already runs ${distributionId}; ${would ? 'would deploy' : 'deploying'} it again because ${redeploy}.`)
  if (!would) return
  say(
    `Would deploy ${distributionId ?? 'the uploaded distribution'} to '${environment.name}' (${environment.id}) with strategy ${inputs.deployStrategy}${files}.`
  )
  if (inputs.rollback) {
    say(
      result.previousDistributionId && result.previousDistributionId !== distributionId
        ? `Would roll back to ${result.previousDistributionId} if the new release fails its checks.`
        : `Would not roll back: '${environment.name}' runs no other distribution now, so there would be nothing to go back to.`
    )
  }
}

interface ReleaseParts {
  readonly phase: PhaseRunner
  readonly client: CloudClient
  readonly environment: Environment
  readonly distributionId: string
  readonly configFileIds: readonly string[]
  readonly signal: AbortSignal | undefined
  readonly verify: Verification | undefined
  readonly caution: (line: string) => void
}

/** Our release, through its states; a failure rolls back when asked, and the step fails saying what runs now. */
async function release(inputs: DeployInputs, parts: ReleaseParts, result: DeployResult): Promise<void> {
  const { environment } = parts
  const record = newRelease(environment.name, parts.distributionId, result.previousDistributionId)
  result.release = record
  const ctx: ReleaseContext = {
    client: parts.client,
    watch: new EnvironmentWatch(parts.client, environment.name),
    environmentId: environment.id,
    strategy: inputs.deployStrategy,
    configFileIds: parts.configFileIds,
    maxAttempts: inputs.maxAttempts,
    log: core.info,
    warn: core.warning,
    phase: parts.phase,
    followDeploy: inputs.followDeploy,
    deployTimeoutMs: inputs.deployTimeoutMs,
    health: inputs.health,
    checkSite: (health) => siteCheck(inputs, health, parts.signal)
  }
  const failure = await deployRelease(ctx, record, parts.verify)
  result.previousDistributionId = record.previous
  cautionsAbout(inputs, record, parts.caution)
  if (failure === undefined) return
  const rollsBack = inputs.rollback && (record.failure?.kind !== 'search' || inputs.rollbackOnSearch)
  if (rollsBack) {
    try {
      await rollBack(ctx, record)
    } catch (error) {
      rollbackFailed(record, error)
    }
  }
  // The message is written once the last look is known (in deploy's finally): see failureOf().
  throw new ReleaseFailed(failure.message, inputs.rollback, inputs.rollbackOnSearch)
}

/** Warnings about what the checks could not show. */
function cautionsAbout(inputs: DeployInputs, record: ReturnType<typeof newRelease>, caution: (line: string) => void): void {
  if (record.state === 'failed' || record.state === 'replaced') return
  if (inputs.health !== undefined && inputs.health.expect === undefined) {
    caution(
      `The health check cannot tell the new release from the old one: any 2xx answer passes, and the old release may still be answering. ` +
        `Write a release marker into a page (e.g. the commit SHA into version.txt at build time) and set health-expect to it (health-expect: \${{ github.sha }}).`
    )
  }
  if (record.appliedBy === 'not-observed' && record.site !== 'marker') {
    caution(
      `'${record.environment}' reported ${record.distributionId} from the first look after the request, so the switch itself was not seen ` +
        `(the platform may report the new id as soon as a deploy is requested). Set health-url and health-expect to a release marker to verify that the new release serves.`
    )
  }
}

/** A release that passed, but the last look shows another distribution: someone deployed after it. Said, never undone. */
function noteLateChange(result: DeployResult, caution: (line: string) => void): void {
  const look = result.finalLook
  if (look === undefined || 'error' in look || look.distributionId === result.distributionId) return
  caution(`${nowRuns(result) ?? ''} That is not ${result.distributionId ?? 'the deployed distribution'}: another deploy followed this one.`)
}

/** The release failed; its message gets the rollback and what runs now once the last look was taken. */
export class ReleaseFailed extends ActionError {
  override name = 'ReleaseFailed'
  constructor(
    message: string,
    readonly rollbackOn: boolean,
    readonly searchRollsBack: boolean
  ) {
    super(message)
  }
}

/** The failure message of a deploy step that stopped: the cause, what was rolled back, what runs now. */
export function failureOf(result: DeployResult, cause: unknown): unknown {
  if (cause instanceof ReleaseFailed) return new ActionError(releaseFailure(result, cause.message, cause.rollbackOn, cause.searchRollsBack))
  if (result.release?.state === 'replaced' || result.release?.state === 'failed') {
    return new ActionError(releaseFailure(result, cause instanceof Error ? cause.message : String(cause), false, false))
  }
  const now = result.release ? nowRuns(result) : undefined
  if (now && cause instanceof ActionError) return new ActionError(`${cause.message} ${now}`)
  return cause
}

/**
 * The run's last calls, through a door of their own (a short limit, no watchdog, so they also run after
 * it fired): one look at the environment (what it runs when the step ends), then this run's refresh
 * token revoked, so nothing stays valid after the job. A failure to revoke is a warning, never a failure.
 */
async function closingCalls(inputs: DeployInputs, session: CloudSession): Promise<DeployResult['finalLook']> {
  const transport = new HttpTransport(inputs.address.apiUrl, { userAgent: USER_AGENT, timeoutMs: LAST_LOOK_MS })
  const api = new CloudApi(transport, { retry: { attempts: 1 } })
  try {
    if (!inputs.environment || inputs.dryRun) return undefined
    return await new EnvironmentWatch(new CloudClient(api, session), inputs.environment).look()
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  } finally {
    const failed = await session.revoke(api)
    if (failed !== undefined) core.warning(`Could not revoke this run's refresh token (${failed}); it expires by itself within 24 hours.`)
    await transport.close().catch(() => undefined)
  }
}
