// The distribution to upload, ready on disk: a given archive checked, or a directory packed, under
// the name it will be stored under.
import * as core from './port.js'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { fileBytes, locateDistribution, planDirectory, startArchiveCheck, type ReadyArchive } from './archive/index.js'
import { defaultName, distributionNameProblem } from './cloud/distribution-name.js'
import { InputError } from './errors.js'
import { formatBytes } from './format.js'
import type { DeployInputs } from './inputs/index.js'

/**
 * The default upload name: where the distribution came from (the run's repository, or the GitLab project, and the commit), so
 * the platform's list tells. The repository's own name is the path's last part (owner/name, group/sub/project); a numeric
 * GitLab project id has none.
 */
export async function defaultDistributionName(sourceDir: string, gitlabProject?: string): Promise<string> {
  const run = core.runContext()
  const path = gitlabProject ?? run.repository
  const repository = /^\d+$/.test(path) ? '' : (path.split('/').at(-1) ?? '')
  return defaultName(repository, run.sha, basename(sourceDir))
}

export function workspace(): string {
  return core.runContext().workspace
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

/** What a packed archive holds as it is and what was deflated, in a few words. */
export function composition({ storedFiles, storedBytes, deflatedBytes }: { storedFiles: number; storedBytes: number; deflatedBytes: number }): string {
  if (storedFiles === 0) return `all of the tar (${formatBytes(deflatedBytes)}) deflated`
  const files = storedFiles === 1 ? '1 already-compressed file' : `${storedFiles} already-compressed files`
  return `${files} (${formatBytes(storedBytes)}) stored as ${storedFiles === 1 ? 'it is' : 'they are'}, the rest of the tar (${formatBytes(deflatedBytes)}) deflated`
}

/**
 * The archive to upload. A given archive is checked at its start before this returns, and the rest of
 * the check goes on beside the upload (`verified`), which waits for it before its last bytes. A
 * directory is packed up to the point where its exact size is known (the deflated parts in a new
 * directory added to `cleanup`); its already-compressed files are read as the upload sends them.
 */
export async function prepareArchive(inputs: DeployInputs, cleanup: string[]): Promise<ReadyArchive> {
  const source = await locateDistribution(inputs.distribution, workspace())
  if (source.kind === 'archive') {
    core.info(`Checking ${source.path}`)
    const check = startArchiveCheck(source.path, { maxBytes: inputs.maxDistributionBytes })
    const { size } = await check.head
    const fileName = basename(source.path)
    if (inputs.distributionName === undefined) checkOwnName(fileName)
    const verified = check.done.then((info) => {
      core.info(`${info.fileName}: ${formatBytes(info.size)}, ${info.entries} entries, a readable gzip tar, SHA-256 ${info.sha256}`)
      for (const warning of info.warnings ?? []) core.warning(warning)
      return { ...info, fileName: inputs.distributionName ?? info.fileName }
    })
    verified.catch(() => undefined) // whoever awaits it reports the failure
    return { bytes: fileBytes(check.path), fileName: inputs.distributionName ?? fileName, size, packed: false, verified, hashes: () => verified }
  }
  const name = inputs.distributionName ?? (await defaultDistributionName(source.path, inputs.codeHost.gitlab?.project))
  const dir = await mkdtemp(join(process.env.RUNNER_TEMP || tmpdir(), 'brcloud-deploy-'))
  cleanup.push(dir)
  core.info(`Packing ${source.path} into ${name}`)
  const archive = await planDirectory(source.path, name, {
    level: inputs.compressionLevel,
    maxBytes: inputs.maxDistributionBytes,
    input: inputs.distribution,
    spillPath: join(dir, 'deflated.spill')
  })
  core.info(`${name}: ${formatBytes(archive.size)} (${archive.size} bytes), ${archive.entries} entries: ${composition(archive.composition)}.`)
  for (const warning of archive.warnings) core.warning(warning)
  const verified = archive.verified.then((info) => {
    core.info(`${name}: SHA-256 ${info.sha256}`)
    return info
  })
  verified.catch(() => undefined) // whoever awaits it reports the failure
  return { bytes: () => archive.read(), fileName: name, size: archive.size, packed: true, verified, hashes: () => archive.hashes().then(() => verified) }
}
