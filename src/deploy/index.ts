// The deployment step, in order: build -> the archive -> login -> config files -> environment -> the
// distribution (./source.ts) -> the release (./release.ts: wait, request, follow, check, roll back)
// -> a last look at the environment. It returns what it did (DeployResult), or throws StepFailed with
// what it did so far; report.ts derives outputs and summary from that. Loaded by main.ts only once the
// inputs are valid.
import * as core from '../port.js'
import { healthExpectCommit, seeTheRun } from '../advice.js'
import { rm } from 'node:fs/promises'
import type { ArchiveInfo, ReadyArchive } from '../archive/index.js'
import { runBuildCommand } from '../build.js'
import { CloudApi, type CloudRetry } from '../cloud/api.js'
import { CloudClient, type Environment, type EnvironmentList } from '../cloud/client.js'
import { loginMethodFor } from '../cloud/login/choose.js'
import { CloudSession } from '../cloud/session.js'
import { prepareArchive, workspace } from '../distribution.js'
import { ActionError, StepFailed, restated } from '../errors.js'
import { GitHubApi } from '../github/client.js'
import type { CodeHost } from '../code-host/port.js'
import { openCodeHost } from '../code-host/open.js'
import { RecordedDeployment } from '../code-host/recorded-deployment.js'
import { PruneRecords } from '../github/prune-records.js'
import { checkHealth, type HealthAttempt } from '../health.js'
import { HttpTransport } from '../http/transport.js'
import type { DeployInputs, HealthCheck } from '../inputs/index.js'
import type { PhaseRunner } from '../phases.js'
import { sameId } from '../cloud/platform-reading.js'
import { EnvironmentWatch } from './observe.js'
import { DeployOrder } from './order.js'
import { readChanges } from './changes.js'
import { deploymentDescription, payloadChanges } from '../github/deployment-description.js'
import { nowRuns, releaseFailure } from './outcome.js'
import { deployRelease, rollBack, rollbackFailed, rollbackStopped, type ReleaseContext, type Verification } from './release.js'
import { newRelease, reached, rolledBack } from './release-state.js'
import { keepReading, newDeployResult, type DeployResult } from './result.js'
import { ReleaseGate } from '../rules/gate.js'
import { chooseDistribution, findEnvironment, pruneBeforeUpload, pruneNone, resolveConfigFiles, upload, type SourceContext } from './source.js'

export type { DeployResult } from './result.js'
export type { Verification } from './release.js'

export const USER_AGENT = 'brcloud-deploy (GitHub Action)'

/** Retries of cloud calls: attempts from max-attempts, waits from 1 s to 15 s, at most 5 minutes per operation. */
function retryPolicy(inputs: DeployInputs, signal: AbortSignal | undefined): CloudRetry {
  return { attempts: inputs.maxAttempts, baseDelayMs: 1_000, maxDelayMs: 15_000, maxTotalMs: 5 * 60_000, signal }
}

/** The last look's own limit: it also runs after the watchdog aborted everything else. */
const LAST_LOOK_MS = 3_000

/** The health check with the run's settings (each attempt's time limit, user agent, watchdog, log); the page that answered kept as site-url. */
function siteCheck(
  inputs: DeployInputs,
  result: DeployResult,
  health: HealthCheck,
  signal: AbortSignal | undefined
): Promise<{ afterMs: number; attempts: number }> {
  const answered = (address: string): void => void (result.siteUrl = address)
  const tried = (attempt: HealthAttempt): void => void (result.healthAttempts = keepReading(result.healthAttempts, attempt))
  return checkHealth({ ...health, requestTimeoutMs: inputs.requestTimeoutMs, userAgent: USER_AGENT, signal, log: core.info, answered, tried })
}

/** Why a run that deploys again what the environment reports (or skips it) does so. */
function redeployReason(inputs: DeployInputs): string | undefined {
  if (inputs.forceDeploy) return 'force-deploy is true'
  if (inputs.configFiles.length > 0) return 'config-files are given, and the platform cannot tell which config files the environment runs with'
  return undefined
}

/** What every step of one deployment shares: the inputs, the result it fills in, the cloud doors. */
interface Run {
  readonly inputs: DeployInputs
  readonly result: DeployResult
  readonly phase: PhaseRunner
  readonly signal: AbortSignal | undefined
  readonly verify: Verification | undefined
  readonly target: string
  readonly session: CloudSession
  readonly client: CloudClient
  /** Temporary directories to remove when the step ends. */
  readonly cleanup: string[]
  /** Date.now() when the step began. */
  readonly startedAt: number
  /** The GitHub Deployment this run records, while it has no final status. */
  readonly github: { deployment?: RecordedDeployment | undefined }
  /** Each closing call's limit, decided when they begin (see startDeploy). */
  readonly closeLimitMs: () => number
  /** Logs a line, and keeps it in the dry run's plan. */
  readonly say: (line: string) => void
  /** A warning the summary repeats. */
  readonly caution: (line: string) => void
  /** The archive's whole check, its hashes noted in the result once known. */
  readonly verified: (ready: ReadyArchive) => Promise<ArchiveInfo>
  /** The closing calls, once made (they run once, on success or failure, or when a stopped run is closed). */
  closed: Promise<void> | undefined
  /** The release rules (freeze, soak gate, backup, override-reason), keeping what they find in result.rules. */
  readonly gate: ReleaseGate
}

/** What the stack told before anything changes: the config files' ids, the environment (and the list it came from). */
interface StackView {
  readonly configFileIds: string[]
  readonly environment: Environment | undefined
  readonly environments: EnvironmentList | undefined
}

/** A deployment under way: its result so far (read at any time), its end, and its closing calls. */
export interface DeployRun {
  /** What it did so far: filled in as it goes, so a stopped run still reports how far it came. */
  readonly result: DeployResult
  /** Resolves to the result, or rejects with StepFailed carrying it. */
  readonly done: Promise<DeployResult>
  /**
   * The closing calls (a last look, the revocation), once, through a door of their own: for a run the
   * watchdog or a cancel stopped whose steps did not unwind in time. `limitMs` bounds each call.
   */
  close(limitMs?: number): Promise<void>
}

export async function deploy(inputs: DeployInputs, phase: PhaseRunner, signal?: AbortSignal, verify?: Verification): Promise<DeployResult> {
  return startDeploy(inputs, phase, signal, verify).done
}

/**
 * `closeLimitMs`: each closing call's limit, asked when the closing calls begin: after a stop, the caller's (a
 * cancel leaves seconds, SIGTERM alone less), else the last look's own.
 */
export function startDeploy(
  inputs: DeployInputs,
  phase: PhaseRunner,
  signal?: AbortSignal,
  verify?: Verification,
  closeLimitMs: () => number = () => LAST_LOOK_MS
): DeployRun {
  const { address } = inputs
  const target = address.stack ? `stack '${address.stack}' (${address.apiUrl})` : address.apiUrl
  const result = newDeployResult(inputs)
  const { transport, session, client } = openCloud(inputs, target, signal)
  const run = newRun({ inputs, result, phase, signal, verify, target, session, client, closeLimitMs })
  const done = runToEnd(run, transport)
  return { result, done, close: (limitMs) => closeRun(run, limitMs) }
}

/** The run's door to Bloomreach Cloud: its transport (closed when the run ends), the session that logs in, the client. */
function openCloud(
  inputs: DeployInputs,
  target: string,
  signal: AbortSignal | undefined
): { transport: HttpTransport; session: CloudSession; client: CloudClient } {
  const transport = new HttpTransport(inputs.address.apiUrl, { userAgent: USER_AGENT, timeoutMs: inputs.requestTimeoutMs, signal })
  const api = new CloudApi(transport, {
    retry: retryPolicy(inputs, signal),
    uploadIdleTimeoutMs: inputs.requestTimeoutMs,
    callTimeoutMs: inputs.requestTimeoutMs
  })
  const session = new CloudSession(api, loginMethodFor(inputs.login, target, { signal, attempts: inputs.maxAttempts }), { target })
  return { transport, session, client: new CloudClient(api, session) }
}

/** What the run is given before it starts. */
type RunSettings = Pick<Run, 'inputs' | 'result' | 'phase' | 'signal' | 'verify' | 'target' | 'session' | 'client' | 'closeLimitMs'>

/** What every step shares: the settings and doors, the release gate, and how a step says, warns and notes the hashes. */
function newRun(settings: RunSettings): Run {
  const { inputs, result, signal } = settings
  // A warning the summary repeats: the run's and the release gate's (an overridden rule).
  const caution = (line: string): void => {
    core.warning(line)
    result.cautions.push(line)
  }
  return {
    ...settings,
    cleanup: [],
    startedAt: Date.now(),
    github: {},
    closed: undefined,
    gate: new ReleaseGate({
      rules: inputs.rules,
      record: (result.rules ??= {}),
      environment: inputs.environment ?? '',
      dryRun: inputs.dryRun,
      now: () => Date.now(),
      signal,
      log: core.info,
      caution,
      gitlab: inputs.codeHost.gitlab !== undefined
    }),
    say: (line) => {
      core.info(line)
      if (inputs.dryRun) result.plan.push(line)
    },
    caution,
    verified: async (ready) => {
      const info = await ready.hashes()
      if (result.archive) {
        result.archive.sha256 = info.sha256
        result.archive.md5 = info.md5
      }
      return info
    }
  }
}

/**
 * The steps, then the closing calls whatever happened: the result, or StepFailed carrying it (and the GitHub
 * Deployment's failure). Always: the token renewals noted, the transport closed, the temporary folders removed.
 */
async function runToEnd(run: Run, transport: HttpTransport): Promise<DeployResult> {
  const { github, result, session } = run
  try {
    await steps(run, github)
    await closeRun(run) // a dry run logged in too: its refresh token is revoked as well
    return result
  } catch (error) {
    await closeRun(run)
    await github.deployment?.set(
      'failure',
      rolledBack(result.release) ? `Rolled back to ${result.release?.rollbackTo ?? '?'}` : `The deploy failed; ${seeTheRun()}`
    )
    throw new StepFailed(result, failureOf(result, error))
  } finally {
    result.tokenRenewals = session.renewals
    await transport.close().catch(() => undefined)
    for (const dir of run.cleanup) await rm(dir, { recursive: true, force: true }).catch(() => undefined)
  }
}

/** The steps in order; a dry run stops once it has said what it would do. */
async function steps(run: Run, github: { deployment?: RecordedDeployment | undefined }): Promise<void> {
  const { inputs, result } = run
  // A freeze window costs no request to check: before the build, the login and anything else.
  if (inputs.environment !== undefined) run.gate.freeze('start')
  // A token the stack did not issue is checked before the build and the packing: a refusal costs nothing then.
  if (inputs.login.kind !== 'password') await signIn(run)
  const archive = await prepare(run)
  const stack = await readStack(run)
  const source: SourceContext = {
    inputs,
    client: run.client,
    phase: run.phase,
    result,
    target: run.target,
    say: run.say,
    verified: run.verified,
    startedAt: run.startedAt
  }
  let distributionId = await chooseDistribution(source, archive)
  result.distributionId = distributionId
  const { environment } = stack
  const alreadyRuns = environment !== undefined && distributionId !== undefined && sameId(environment.distributionId, distributionId)
  const redeploy = alreadyRuns ? redeployReason(inputs) : undefined
  const skip = alreadyRuns && redeploy === undefined
  if (environment) planDeploy(inputs, environment, distributionId, skip, redeploy, result, run.say)
  const host = await openCodeHost(inputs.codeHost, run.signal)
  // Pruning keeps what GitHub's Deployments name; GitLab's deployments name no distribution.
  if (host instanceof GitHubApi) source.records = new PruneRecords(host, inputs.address.apiUrl)
  // Before any change: an older commit than the one the environment runs is refused here.
  const order = environment && !skip ? await checkOrder(run, host, environment, distributionId) : undefined
  if (order?.last) result.changes = await readChanges(host, order.last, core.info)
  // The soak gate and the backup rule: before any change too (an environment that already runs it is not deployed to).
  if (environment && !skip) await checkRules(run, host, environment, distributionId)
  if (distributionId === undefined && archive !== undefined) await pruneBeforeUpload(source, archive, stack.environments)
  else pruneNone(source)
  if (inputs.dryRun) return finishDryRun(run, archive)

  if (distributionId === undefined && archive !== undefined) {
    distributionId = await upload(source, archive)
    result.distributionId = distributionId
  }
  if (environment && host && !skip && distributionId !== undefined) {
    github.deployment = await recordDeployment(run, host, environment.name, distributionId, order)
    order?.noteOwnDeployment(github.deployment?.id)
  }
  if (environment && distributionId !== undefined && !skip) {
    await release(inputs, { ...run, environment, distributionId, configFileIds: stack.configFileIds, order, host }, result)
  } else {
    result.skipped = skip
    await checkWithoutDeploy(run)
  }
  await closeRun(run)
  if (result.release) {
    noteLateChange(result, run.caution)
    const how = result.release.state === 'already-running' ? 'Runs' : 'Deployed'
    await github.deployment?.set('success', `${how} ${distributionId ?? ''}`)
  }
  github.deployment = undefined
  result.completed = true
}

/** The deploy order against what the environment runs (./order.ts); throws OrderRefused when ours is older. */
async function checkOrder(run: Run, host: CodeHost | undefined, environment: Environment, distributionId: string | undefined): Promise<DeployOrder> {
  const { inputs, result } = run
  const order = new DeployOrder({
    host,
    client: run.client,
    apiUrl: inputs.address.apiUrl,
    environment: environment.name,
    allowOlder: inputs.allowOlderCommit,
    allowUnchecked: inputs.allowUncheckedOrder,
    promoted: inputs.source.kind === 'upload' ? undefined : distributionId,
    dryRun: inputs.dryRun,
    log: run.say,
    warn: run.caution,
    notice: core.notice,
    record: (check) => void (result.order = check)
  })
  const running = environment.distributionId ?? undefined
  // Without a token there is nothing to read: one line says so, without a phase of its own.
  if (host === undefined) await order.check(running)
  else await run.phase(`Check the deploy order on '${environment.name}'`, () => order.check(running))
  return order
}

/** The soak gate of a promotion and the backup rule (src/rules/gate.ts): RuleRefused, or overridden on the record. */
async function checkRules(run: Run, host: CodeHost | undefined, environment: Environment, distributionId: string | undefined): Promise<void> {
  const { rules } = run.inputs
  const soak = rules.soak
  if (soak !== undefined && distributionId !== undefined)
    await run.phase(`Check the soak gate: ${distributionId} in '${soak.environment}'`, () => run.gate.soak(host, run.inputs.address.apiUrl, distributionId))
  if (rules.backupHours !== undefined) await run.phase(`Check the backups of '${environment.name}'`, () => run.gate.backup(run.client, environment.id))
}

/**
 * Records the deploy as a GitHub Deployment of the commit deployed, with the distribution's id in its payload. A
 * promoted distribution whose commit is not known is recorded at the run's commit (GitHub needs one) with the
 * payload saying the commit is unknown, so no later run reads the run's commit as the distribution's.
 */
function recordDeployment(
  run: Run,
  host: CodeHost,
  environment: string,
  distributionId: string,
  order: DeployOrder | undefined
): Promise<RecordedDeployment | undefined> {
  const { result } = run
  const name = result.upload?.storedName ?? result.archive?.name ?? result.knownName
  // The commit the check found, also when the order itself stayed unknown (a running commit the host does not know).
  const ours = order?.oursEvidence
  const promotion = run.inputs.source.kind !== 'upload'
  const override = result.rules?.override
  const changes = payloadChanges(result.changes)
  const known = promotion ? (ours?.from === 'run' ? undefined : ours?.sha) : undefined
  const ref = known ?? (host.sha || host.ref)
  const payload = {
    distributionId,
    distributionName: name,
    // What the environment ran before (the rollback target): another run's pruning keeps it.
    ...(result.previousDistributionId !== undefined && { previousDistributionId: result.previousDistributionId }),
    apiUrl: result.apiUrl,
    ...(promotion && known === undefined && { commit: 'unknown' as const }),
    ...(changes !== undefined && { changes }),
    ...(override && { override: { reason: override.reason, overrode: [...override.overrode] } }),
    ...(result.rules?.backup?.id !== undefined && { backupId: result.rules.backup.id })
  }
  const description = deploymentDescription({ name: name ?? distributionId, target: result.target, changes: result.changes, overrideReason: override?.reason })
  return RecordedDeployment.start(host, environment, description, payload, ref, run.inputs.environmentUrl)
}

/** The optional build, then the archive on disk (checked or packed); undefined when nothing is uploaded. */
async function prepare(run: Run): Promise<ReadyArchive | undefined> {
  const { inputs, result } = run
  if (inputs.buildCommand) {
    const command = inputs.buildCommand
    await run.phase(`Build: ${command}`, () => runBuildCommand(command, workspace()))
  }
  if (inputs.source.kind !== 'upload') return undefined
  const ready = await run.phase('Prepare the distribution', () => prepareArchive(inputs, run.cleanup))
  result.archive = { name: ready.fileName, source: ready.packed ? 'packed' : 'archive', size: ready.size, sha256: undefined }
  // A packed directory's hashes are known once its bytes were read whole (by the upload, or for a lookup).
  if (ready.packed)
    ready.verified.then(
      () => run.verified(ready),
      () => undefined
    )
  return ready
}

/** The token, and for a token the stack did not issue (single sign-on) the stack's word that it accepts it. */
async function signIn(run: Run): Promise<void> {
  const how = run.inputs.login.kind === 'oauth' ? ` through ${run.inputs.login.tokenUrl}` : run.inputs.login.kind === 'token' ? ' with access-token' : ''
  await run.phase(`Log in to ${run.target}${how}`, async () => {
    await run.session.login()
    run.result.platformReached = true
    // A refusal ends the run here: the environment is not found, so the closing calls only revoke.
    const check = await run.session.verify()
    if (check === undefined) return core.info(`Logged in as ${run.session.who}.`)
    core.info(`The stack accepts the token: user ${check.userId ?? '(not named)'}, role ${check.role ?? '(not named)'}.`)
  })
}

/** Login, config files and the environment: everything that could refuse the run, read before anything changes. */
async function readStack(run: Run): Promise<StackView> {
  const { inputs, result, client, target } = run
  if (!result.platformReached) await signIn(run)
  let configFileIds: string[] = []
  if (inputs.configFiles.length > 0) {
    configFileIds = await run.phase('Find the config files', async () => {
      const ids = await resolveConfigFiles(client, inputs.configFiles, target)
      core.info(`Config files: ${inputs.configFiles.map((n, i) => `'${n}' (${ids[i] ?? '?'})`).join(', ')}, role systemproperty.`)
      return ids
    })
  }
  const name = inputs.environment
  if (name === undefined) return { configFileIds, environment: undefined, environments: undefined }
  const found = await run.phase(`Find environment '${name}'`, async () => {
    const lookup = await findEnvironment(client, name, target, 'environment')
    const env = lookup.environment
    core.info(`Environment '${env.name}' has id ${env.id}${env.distributionId ? `; it runs distribution ${env.distributionId}` : '; it runs no distribution'}.`)
    return lookup
  })
  result.environmentId = found.environment.id
  result.previousDistributionId = found.environment.distributionId ?? undefined
  result.foundDistributionId = result.previousDistributionId
  return { configFileIds, environment: found.environment, environments: found.list }
}

/** A dry run: the archive's whole check, what it would check, the search check (which changes nothing). */
async function finishDryRun(run: Run, archive: ReadyArchive | undefined): Promise<void> {
  const { inputs } = run
  if (archive) await run.verified(archive)
  if (inputs.health)
    run.say(`Would check ${inputs.health.shown} until it answers 2xx${inputs.health.expect === undefined ? '' : ` containing '${inputs.health.expect}'`}.`)
  if (run.verify) await run.verify()
  run.result.completed = true
}

/** Nothing was deployed (the environment already ran it, or an upload only): the site and search are checked all the same. */
async function checkWithoutDeploy(run: Run): Promise<void> {
  const health = run.inputs.health
  if (health) await run.phase(`Health check ${health.shown}`, () => siteCheck(run.inputs, run.result, health, run.signal))
  const why = run.verify ? await run.verify() : undefined
  if (why !== undefined) throw new ActionError(why)
}

/**
 * The run's last calls, once: a look at the environment and the refresh token revoked (only after a login), and,
 * when the run was stopped (a cancel, the watchdog), the GitHub Deployment's final status.
 */
function closeRun(run: Run, limitMs = run.closeLimitMs()): Promise<void> {
  const stopped = run.signal?.aborted ? (run.signal.reason as Error) : undefined
  const deployment = run.github.deployment
  const finalStatus =
    stopped === undefined || deployment === undefined
      ? undefined
      : () =>
          deployment.set(
            'canceled',
            `${stopped.name === 'WatchdogTimeout' ? 'Stopped by its watchdog' : 'Cancelled'} while the release was ${run.result.release?.state ?? 'not yet requested'}; ${seeTheRun()}`
          )
  if (!run.result.platformReached) return finalStatus?.() ?? Promise.resolve()
  // The last look is at an environment this run found: a name the platform never listed has nothing to look at.
  const found = run.result.environmentId !== undefined
  // The look is kept the moment it is known: a run hurried by a second signal reports before the revocation ends.
  run.closed ??= closingCalls(run.inputs, run.session, limitMs, found, finalStatus, (look) => (run.result.finalLook = look))
  return run.closed
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

interface ReleaseParts extends Run {
  readonly environment: Environment
  readonly distributionId: string
  readonly configFileIds: readonly string[]
  readonly order: DeployOrder | undefined
  readonly host: CodeHost | undefined
}

/**
 * Our release, through its states; a failure rolls back when asked, and the step fails saying what runs now. Once it
 * ended (a rollback included: the commits never delay it), the release's commits follow the order's last check.
 */
async function release(inputs: DeployInputs, parts: ReleaseParts, result: DeployResult): Promise<void> {
  try {
    await releaseSteps(inputs, parts, result)
  } finally {
    await changesAfterWait(parts, result)
  }
}

async function releaseSteps(inputs: DeployInputs, parts: ReleaseParts, result: DeployResult): Promise<void> {
  const { environment } = parts
  const record = newRelease(environment.name, parts.distributionId, result.previousDistributionId)
  result.release = record
  const ctx: ReleaseContext = {
    client: parts.client,
    watch: new EnvironmentWatch(parts.client, environment.name, {
      signal: parts.signal,
      log: core.info,
      seen: (look) => void (result.looks = keepReading(result.looks, look))
    }),
    signal: parts.signal,
    environmentId: environment.id,
    strategy: inputs.deployStrategy,
    configFileIds: parts.configFileIds,
    maxAttempts: inputs.maxAttempts,
    requestTimeoutMs: inputs.requestTimeoutMs,
    log: core.info,
    warn: core.warning,
    phase: parts.phase,
    followDeploy: inputs.followDeploy,
    deployTimeoutMs: inputs.deployTimeoutMs,
    health: inputs.health,
    checkSite: (health) => siteCheck(inputs, result, health, parts.signal),
    order: parts.order,
    // A wait for a busy environment may cross into a freeze window: checked again right before the request.
    beforeRequest: () => parts.gate.freeze('request', result.upload ? `${parts.distributionId}, uploaded by this run,` : parts.distributionId)
  }
  const failure = await deployRelease(ctx, record, parts.verify).catch((error: unknown) => {
    if (parts.signal?.aborted)
      record.stopped = `the run was stopped (${(parts.signal.reason as Error).name}) while the release was ${record.state}, before more could be seen`
    throw error
  })
  result.previousDistributionId = record.previous
  if (record.state === 'already-running') {
    result.skipped = true
    return checkWithoutDeploy(parts)
  }
  cautionsAbout(inputs, record, parts.caution)
  if (failure === undefined) return
  const rollsBack = inputs.rollback && (record.failure?.kind !== 'search' || inputs.rollbackOnSearch)
  if (rollsBack) {
    try {
      await rollBack(ctx, record)
    } catch (error) {
      // A stop (watchdog, cancel) is no verdict on the rollback: it says how far it came, and the run ends as stopped.
      if (parts.signal?.aborted) throw rollbackStopped(record, error)
      rollbackFailed(record, error)
    }
  }
  // The message is written once the last look is known (in deploy's finally): see failureOf().
  throw new ReleaseFailed(failure.message, inputs.rollback, inputs.rollbackOnSearch)
}

/**
 * A wait may have changed what the environment ran (another job's deploy, which the deploy order checked again): the
 * release's commits then follow that last check, so `changes` names what this release brings over what it replaced.
 */
async function changesAfterWait(parts: ReleaseParts, result: DeployResult): Promise<void> {
  const check = result.order
  const changes = result.changes
  // A check that refused the deploy changed nothing: no commits came or went.
  if (check?.recheck !== true || check.refused === true || changes === undefined || changes.running === check.running?.sha) return
  if (parts.signal?.aborted) return
  // Only the run's stop can end the reading with an error (GitHub's failures are its `why`): the step's own ending stands.
  result.changes = await readChanges(parts.host, check, core.info).catch(() => changes)
}

/** Warnings about what the checks could not show. */
function cautionsAbout(inputs: DeployInputs, record: ReturnType<typeof newRelease>, caution: (line: string) => void): void {
  if (record.state === 'failed' || record.state === 'replaced') return
  if (inputs.health !== undefined && inputs.health.expect === undefined) {
    caution(
      `The health check cannot tell the new release from the old one: any 2xx answer passes, and the old release may still be answering. ` +
        `Write a release marker into a page (e.g. the commit SHA into version.txt at build time) and set health-expect to it (${healthExpectCommit()}).`
    )
  }
  if (record.appliedBy === 'not-observed' && record.site !== 'marker') {
    // The reported state's evidence says what was seen (from the first look on, or after no id at all) and why it proves nothing.
    const seen = reached(record, 'reported')?.evidence ?? `'${record.environment}' reports ${record.distributionId}`
    caution(`${seen}. The switch itself was not seen: set health-url and health-expect to a release marker to verify that the new release serves.`)
  }
}

/** A release that passed, but the last look shows another distribution: someone deployed after it. Said, never undone. */
function noteLateChange(result: DeployResult, caution: (line: string) => void): void {
  const look = result.finalLook
  // No id at the end (a restarted platform, a switch that shows none) is no deploy of anyone's.
  if (look === undefined || 'error' in look || look.distributionId === undefined || sameId(look.distributionId, result.distributionId)) return
  // What ran before: ours has not switched yet (not followed, or reported at request), which is no other deploy.
  if (sameId(look.distributionId, result.release?.previous)) return
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
    return restated(cause, releaseFailure(result, cause instanceof Error ? cause.message : String(cause), result.rollback, result.rollbackOnSearch))
  }
  const now = result.release ? nowRuns(result) : undefined
  if (now && cause instanceof ActionError) return restated(cause, `${cause.message} ${now}`)
  return cause
}

/**
 * The run's last calls, through a door of their own (a short limit, no watchdog, so they also run after
 * it fired): one look at the environment (what it runs when the step ends), then this run's refresh
 * token revoked, so nothing stays valid after the job. A failure to revoke is a warning, never a failure.
 */
async function closingCalls(
  inputs: DeployInputs,
  session: CloudSession,
  limitMs: number,
  found: boolean,
  alongside: (() => Promise<void>) | undefined,
  looked: (look: DeployResult['finalLook']) => void
): Promise<void> {
  const transport = new HttpTransport(inputs.address.apiUrl, { userAgent: USER_AGENT, timeoutMs: limitMs })
  const api = new CloudApi(transport, { retry: { attempts: 1 } })
  session.reroute(api, limitMs)
  let look: Promise<unknown> = Promise.resolve()
  try {
    if (!inputs.environment || inputs.dryRun || !found) return
    // The look (with any token renewal it needs) gets `limitMs` in all, so the revocation always has its turn.
    const looking = new EnvironmentWatch(new CloudClient(api, session), inputs.environment).look()
    look = looking
    looked(await within(limitMs, looking))
  } catch (error) {
    looked({ error: error instanceof Error ? error.message : String(error) })
  } finally {
    // The revocation and anything else left (a GitHub Deployment's status) at once: a cancel has seconds.
    const [failed] = await Promise.all([session.revoke(api), alongside?.()])
    if (failed !== undefined) core.warning(`Could not revoke this run's refresh token (${failed}); it expires by itself within 24 hours.`)
    // A look given up at its limit may still be renewing the token (a login after a refresh that failed): the door
    // stays open for that login's own revocation until the look ends, within the limit once more, and the run waits
    // for it (the command exits the moment the run ends: a revocation still in flight would never be sent or said).
    await within(limitMs, look).catch(() => undefined)
    if (session.loggingIn)
      core.warning(
        `A login the last look made was still under way when the run ended: its refresh token may stay valid, and expires by itself within 24 hours.`
      )
    void transport.close().catch(() => undefined)
  }
}

/** `work`, or a CallTimeoutError-like failure once `ms` passed (the work itself goes on, unawaited). */
function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${Math.round(ms / 1000)} s`)), ms)
  })
  work.catch(() => undefined) // a look that fails after the limit is nobody's failure
  return Promise.race([work, late]).finally(() => clearTimeout(timer))
}
