// The deployment, phase by phase: archive -> login -> environment -> prune -> upload -> deploy.
// Loaded by main.ts only once the inputs are valid.
import * as core from '@actions/core'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { checkArchive, locateDistribution, packDirectory, type ArchiveInfo } from './archive/index.js'
import { runBuildCommand } from './build.js'
import { CloudApi, type RetryPolicy } from './cloud/api.js'
import { CloudClient, type Environment } from './cloud/client.js'
import { planPruning } from './cloud/prune.js'
import { CloudSession } from './cloud/session.js'
import { InputError } from './errors.js'
import { GitHubDeployment } from './github/deployments.js'
import { HttpTransport } from './http/transport.js'
import type { DeployInputs } from './inputs.js'
import { formatBytes } from './progress.js'
import { Output, phase, setOutput, type DeployReport } from './report.js'

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

async function prepareArchive(inputs: DeployInputs, cleanup: string[]): Promise<ArchiveInfo> {
  const source = await locateDistribution(inputs.distribution, workspace())
  if (source.kind === 'archive') {
    core.info(`Checking ${source.path}`)
    const info = await checkArchive(source.path, { maxBytes: inputs.maxDistributionBytes })
    core.info(`${info.fileName}: ${formatBytes(info.size)}, ${info.entries} entries, a readable gzip tar`)
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

function findEnvironment(environments: Environment[], name: string, target: string): Environment {
  const found = environments.find((e) => e.name === name)
  if (found) return found
  const names = environments.map((e) => `'${e.name}'`).join(', ') || 'none'
  throw new InputError(`environment '${name}' does not exist on ${target}. The environments there are: ${names}. Names are case-sensitive.`)
}

/** Deletes the oldest distributions no environment runs, so that the upload keeps the stack at `max`. */
async function prune(client: CloudClient, max: number, environments: Environment[], dryRun: boolean): Promise<number> {
  const inUse = new Set(environments.map((e) => e.distributionId).filter((id): id is string => typeof id === 'string' && id !== ''))
  const distributions = await client.listDistributions()
  const plan = planPruning(distributions, inUse, max)
  core.info(`The stack holds ${distributions.length} distributions (${inUse.size} in use by an environment); max-distributions is ${max}.`)
  if (plan.toDelete.length === 0 && plan.shortBy === 0) {
    core.info('Nothing to prune.')
    return 0
  }
  for (const d of plan.toDelete) {
    const what = `${d.id} (${d.name ?? 'no name'}, created ${d.createdAt ?? 'at an unknown time'})`
    if (dryRun) {
      core.info(`Would delete distribution ${what}`)
      continue
    }
    await client.deleteDistribution(d.id)
    core.info(`Deleted distribution ${what}`)
  }
  if (plan.shortBy > 0) {
    core.warning(`${plan.shortBy} more distribution(s) would have to go to stay within max-distributions=${max}, but every remaining one is in use by an environment.`)
  }
  return dryRun ? 0 : plan.toDelete.length
}

export async function deploy(inputs: DeployInputs, report: DeployReport, signal?: AbortSignal): Promise<void> {
  const { address } = inputs
  const target = address.stack ? `stack '${address.stack}' (${address.apiUrl})` : address.apiUrl
  report.apiUrl = address.apiUrl
  report.stack = address.stack
  report.dryRun = inputs.dryRun
  report.maxAttempts = inputs.maxAttempts
  report.strategy = inputs.deployStrategy
  report.environmentName = inputs.environment
  setOutput(Output.CloudApiUrl, address.apiUrl)

  const retry: RetryPolicy = { attempts: inputs.maxAttempts, baseDelayMs: 1_000, maxDelayMs: 15_000, maxTotalMs: 5 * 60_000 }
  const cleanup: string[] = []
  const transport = new HttpTransport(address.apiUrl, { userAgent: USER_AGENT, timeoutMs: inputs.requestTimeoutMs, signal })
  const api = new CloudApi(transport, retry)
  const session = new CloudSession(api, inputs.username, inputs.password, { target })
  const client = new CloudClient(api, session, { retry, uploadIdleTimeoutMs: inputs.requestTimeoutMs })
  let github: GitHubDeployment | undefined
  try {
    if (inputs.buildCommand) {
      const command = inputs.buildCommand
      await phase(report, `Build: ${command}`, () => runBuildCommand(command, workspace()))
    }
    const archive = await phase(report, 'Prepare the distribution', () => prepareArchive(inputs, cleanup))
    report.distributionName = archive.fileName
    report.distributionSource = archive.packed ? 'packed' : 'archive'
    report.size = archive.size
    report.sha256 = archive.sha256
    setOutput(Output.DistributionName, archive.fileName)
    setOutput(Output.DistributionSize, archive.size)
    setOutput(Output.DistributionSha256, archive.sha256)

    await phase(report, `Log in to ${target}`, async () => {
      await session.login()
      core.info(`Logged in as ${inputs.username}.`)
    })

    let environments: Environment[] | undefined
    let environment: Environment | undefined
    if (inputs.environment) {
      const name = inputs.environment
      environment = await phase(report, `Find environment '${name}'`, async () => {
        environments = await client.listEnvironments()
        const env = findEnvironment(environments, name, target)
        core.info(`Environment '${env.name}' has id ${env.id}${env.distributionId ? `; it runs distribution ${env.distributionId}` : ''}.`)
        return env
      })
      report.environmentId = environment.id
    }

    if (inputs.maxDistributions !== undefined) {
      const max = inputs.maxDistributions
      report.pruned = await phase(report, 'Prune old distributions', async () => prune(client, max, environments ?? (await client.listEnvironments()), inputs.dryRun))
      setOutput(Output.PrunedDistributions, report.pruned)
    }

    if (inputs.dryRun) {
      const then = environment ? ` and deploy it to '${environment.name}' (${environment.id}) with strategy ${inputs.deployStrategy}` : ''
      core.notice(`Dry run: would upload ${archive.fileName} (${formatBytes(archive.size)}) to ${address.apiUrl}${then}. Nothing was changed.`)
      return
    }

    if (environment && inputs.githubToken) {
      github = await GitHubDeployment.start(inputs.githubToken, environment.name, `${archive.fileName} to ${address.stack ?? address.apiUrl}`)
    }

    const distribution = await phase(report, 'Upload the distribution', async () => {
      const d = await client.uploadDistribution({ path: archive.path, fileName: archive.fileName, size: archive.size, md5: archive.md5 })
      core.info(`${d.adopted ? 'Adopted' : 'Uploaded'}: distribution id ${d.id}${d.name ? ` (${d.name})` : ''}.`)
      return d
    })
    report.distributionId = distribution.id
    report.uploadAttempts = distribution.attempts
    report.uploadAdopted = distribution.adopted
    setOutput(Output.DistributionId, distribution.id)

    if (environment) {
      const env = environment
      await phase(report, `Deploy to '${env.name}'`, async () => {
        await client.deploy(env.id, distribution.id, inputs.deployStrategy)
        core.info(`Deployment of ${distribution.id} to '${env.name}' requested (strategy ${inputs.deployStrategy}).`)
      })
      setOutput(Output.EnvironmentId, env.id)
      await github?.set('success', `Deployed ${distribution.id}`)
      github = undefined
      core.notice(`Deployed ${archive.fileName} (${distribution.id}) to '${env.name}' on ${address.stack ?? address.apiUrl}.`)
    } else {
      core.notice(`Uploaded ${archive.fileName} as distribution ${distribution.id} to ${address.stack ?? address.apiUrl}.`)
    }
  } catch (error) {
    await github?.set('failure', 'The deploy failed; see the workflow run')
    throw error
  } finally {
    report.tokenRenewals = session.renewals
    await transport.close().catch(() => undefined)
    for (const dir of cleanup) await rm(dir, { recursive: true, force: true }).catch(() => undefined)
  }
}
