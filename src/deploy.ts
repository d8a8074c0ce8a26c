// The deployment, phase by phase: archive -> login -> environment -> prune -> upload -> deploy. It
// returns what it did (DeployResult); when it stops part-way, it throws StepFailed with what it did
// so far. It sets no output and writes no summary: report.ts derives those from the result.
// Loaded by main.ts only once the inputs are valid.
import * as core from '@actions/core'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { checkArchive, locateDistribution, packDirectory, type ArchiveInfo } from './archive/index.js'
import { runBuildCommand } from './build.js'
import { CloudApi } from './cloud/api.js'
import { distributionNameProblem } from './cloud/distribution-name.js'
import { CloudClient, type Environment, type EnvironmentList } from './cloud/client.js'
import { pruneDistributions } from './cloud/prune.js'
import { CloudSession } from './cloud/session.js'
import { InputError, StepFailed } from './errors.js'
import { formatBytes } from './format.js'
import { GitHubDeployment } from './github/deployments.js'
import { HttpTransport } from './http/transport.js'
import type { DeployInputs } from './inputs/index.js'
import type { PhaseRunner } from './phases.js'

export const USER_AGENT = 'brcloud-deploy (GitHub Action)'

/** The default upload name: where the distribution came from, so the platform's list tells. */
export async function defaultDistributionName(sourceDir: string): Promise<string> {
  let repo = ''
  let sha = ''
  if (process.env.GITHUB_REPOSITORY || process.env.GITHUB_SHA) {
    const { context } = await import('@actions/github')
    try {
      repo = context.repo.repo
    } catch {
      repo = ''
    }
    sha = context.sha ?? ''
  }
  const safe = (s: string): string => s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '')
  const name = safe(repo) || safe(basename(sourceDir)) || 'distribution'
  const short = safe(sha.slice(0, 7)) || 'local'
  return `${name}-${short}-distribution.tar.gz`
}

function workspace(): string {
  return process.env.GITHUB_WORKSPACE || process.cwd()
}

/** An archive uploaded under its own file name: the same rule as distribution-name. */
function checkOwnName(fileName: string): void {
  const problem = distributionNameProblem(fileName)
  if (problem === undefined) return
  throw new InputError(
    `distribution: the archive's file name '${fileName}' cannot be the name it is stored under: ${problem}. ` +
      'Rename the file, or set distribution-name to the name to store it under (e.g. myproject-1.2.0-distribution.tar.gz).'
  )
}

async function prepareArchive(inputs: DeployInputs, cleanup: string[]): Promise<ArchiveInfo> {
  const source = await locateDistribution(inputs.distribution, workspace())
  if (source.kind === 'archive') {
    core.info(`Checking ${source.path}`)
    const info = await checkArchive(source.path, { maxBytes: inputs.maxDistributionBytes })
    core.info(`${info.fileName}: ${formatBytes(info.size)}, ${info.entries} entries, a readable gzip tar`)
    if (inputs.distributionName === undefined) checkOwnName(info.fileName)
    return { ...info, fileName: inputs.distributionName ?? info.fileName }
  }
  const name = inputs.distributionName ?? (await defaultDistributionName(source.path))
  const dir = await mkdtemp(join(process.env.RUNNER_TEMP || tmpdir(), 'brcloud-deploy-'))
  cleanup.push(dir)
  core.info(`Packing ${source.path} into ${name}`)
  const info = await packDirectory(source.path, join(dir, name), {
    level: inputs.compressionLevel,
    maxBytes: inputs.maxDistributionBytes,
    input: inputs.distribution
  })
  core.info(`${name}: ${formatBytes(info.size)}, ${info.entries} entries, SHA-256 ${info.sha256}`)
  return info
}

/** The environment of that exact name; an error that lists the names there when it does not exist. */
async function findEnvironment(client: CloudClient, name: string, target: string): Promise<{ environment: Environment; list: EnvironmentList }> {
  const { environment, list } = await client.findEnvironment(name)
  if (environment) return { environment, list }
  const names = list.items.map((e) => `'${e.name}'`).join(', ') || 'none'
  const partial = list.complete ? '' : ' (the platform listed only these and would not page further, and a lookup by name found nothing)'
  throw new InputError(`environment '${name}' does not exist on ${target}. The environments there are: ${names}${partial}. Names are case-sensitive.`)
}

/** Prunes only with every environment known: a distribution an unlisted environment runs must never be deleted. */
async function prune(client: CloudClient, max: number, known: EnvironmentList | undefined, dryRun: boolean): Promise<number> {
  const list = known ?? (await client.listEnvironments())
  if (!list.complete) {
    core.warning(
      `Not pruning: the platform listed ${list.items.length} environment(s) but said it has more and would not list them, so a distribution ` +
        'that an unlisted environment runs could be deleted. Delete old distributions in the console, or run again later.'
    )
    return 0
  }
  return pruneDistributions(client, max, list.items, dryRun)
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
  archive?:
    | {
        readonly name: string
        /** 'packed' from a directory, or 'archive' uploaded as it is. */
        readonly source: 'packed' | 'archive'
        readonly size: number
        readonly sha256: string
      }
    | undefined
  /** The environment's id, once it was found by name. */
  environmentId?: string | undefined
  /** Distributions deleted by max-distributions (undefined when pruning is off). */
  pruned?: number | undefined
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
  /** The deploy call went through. */
  deployed: boolean
  /** Every step passed (for a dry run: everything it checks). */
  completed: boolean
  tokenRenewals: number
}

/** Retries of cloud calls: attempts from max-attempts, waits from 1 s to 15 s, at most 5 minutes per operation. */
function retryPolicy(inputs: DeployInputs): { attempts: number; baseDelayMs: number; maxDelayMs: number; maxTotalMs: number } {
  return { attempts: inputs.maxAttempts, baseDelayMs: 1_000, maxDelayMs: 15_000, maxTotalMs: 5 * 60_000 }
}

export async function deploy(inputs: DeployInputs, phase: PhaseRunner, signal?: AbortSignal): Promise<DeployResult> {
  const { address } = inputs
  const target = address.stack ? `stack '${address.stack}' (${address.apiUrl})` : address.apiUrl
  const result: DeployResult = {
    apiUrl: address.apiUrl,
    target: address.stack ?? address.apiUrl,
    dryRun: inputs.dryRun,
    strategy: inputs.deployStrategy,
    environmentName: inputs.environment,
    deployed: false,
    completed: false,
    tokenRenewals: 0
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
    const archive = await phase('Prepare the distribution', () => prepareArchive(inputs, cleanup))
    result.archive = { name: archive.fileName, source: archive.packed ? 'packed' : 'archive', size: archive.size, sha256: archive.sha256 }

    await phase(`Log in to ${target}`, async () => {
      await session.login()
      core.info(`Logged in as ${inputs.username}.`)
    })

    let environments: EnvironmentList | undefined
    let environment: Environment | undefined
    if (inputs.environment) {
      const name = inputs.environment
      environment = await phase(`Find environment '${name}'`, async () => {
        const found = await findEnvironment(client, name, target)
        environments = found.list
        const env = found.environment
        core.info(`Environment '${env.name}' has id ${env.id}${env.distributionId ? `; it runs distribution ${env.distributionId}` : ''}.`)
        return env
      })
      result.environmentId = environment.id
    }

    if (inputs.maxDistributions !== undefined) {
      const max = inputs.maxDistributions
      result.pruned = await phase('Prune old distributions', () => prune(client, max, environments, inputs.dryRun))
    }

    if (inputs.dryRun) {
      result.completed = true
      return result
    }

    if (environment && inputs.githubToken) {
      github = await GitHubDeployment.start(inputs.githubToken, environment.name, `${archive.fileName} to ${result.target}`)
    }

    const distribution = await phase('Upload the distribution', async () => {
      const d = await client.uploadDistribution({ path: archive.path, fileName: archive.fileName, size: archive.size, md5: archive.md5 })
      core.info(`${d.adopted ? 'Adopted' : 'Uploaded'}: distribution id ${d.id}${d.name ? ` (${d.name})` : ''}.`)
      return d
    })
    result.upload = {
      distributionId: distribution.id,
      storedName: distribution.name ?? archive.fileName,
      attempts: distribution.attempts,
      adopted: distribution.adopted
    }

    if (environment) {
      const env = environment
      await phase(`Deploy to '${env.name}'`, async () => {
        await client.deploy(env.id, distribution.id, inputs.deployStrategy)
        core.info(`Deployment of ${distribution.id} to '${env.name}' requested (strategy ${inputs.deployStrategy}).`)
      })
      result.deployed = true
      await github?.set('success', `Deployed ${distribution.id}`)
      github = undefined
    }
    result.completed = true
    return result
  } catch (error) {
    await github?.set('failure', 'The deploy failed; see the workflow run')
    throw new StepFailed(result, error)
  } finally {
    result.tokenRenewals = session.renewals
    await transport.close().catch(() => undefined)
    for (const dir of cleanup) await rm(dir, { recursive: true, force: true }).catch(() => undefined)
  }
}
