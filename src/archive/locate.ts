// Resolves the `distribution` input to an archive or a directory to pack. No network.
import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { InputError } from '../errors.js'
import { globFiles, hasGlobChars } from './glob.js'
import type { DistributionSource } from './types.js'

const POINT_HINT = 'Point `distribution` at the .tar.gz that your build produced (e.g. target/*-distribution.tar.gz), or at a directory to pack.'
const BUILD_HINT =
  'If the distribution is built in this job, build it before this action: a `run: mvn -B -P dist package` step, or build-command: ' +
  'mvn -B -P dist package (build-command runs without a shell: one command, or bash -c "..." for && and pipes); ' +
  'if another job built it, download that artifact first (actions/download-artifact).'

/**
 * What a build leaves beside its archive (Maven's target/, Gradle's build/): a directory holding an archive and
 * one of these is a build output, and packing it would deploy a tarball inside a tarball with the build's debris.
 * A brXM distribution tree has none of them at its top (bin/, conf/, common/, shared/, webapps/).
 */
const BUILD_LEFTOVERS = new Set([
  'classes',
  'test-classes',
  'maven-archiver',
  'maven-status',
  'generated-sources',
  'generated-test-sources',
  'surefire-reports',
  'failsafe-reports',
  'archive-tmp',
  'antrun',
  'jacoco.exec',
  'libs',
  'tmp'
])

function isBuildLeftover(name: string): boolean {
  return BUILD_LEFTOVERS.has(name) || /\.(jar|war|pom)$/i.test(name)
}

export function isArchiveName(name: string): boolean {
  return /\.(tar\.gz|tgz)$/i.test(name)
}

async function statOrUndefined(p: string): Promise<Awaited<ReturnType<typeof stat>> | undefined> {
  try {
    return await stat(p)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'EACCES' || code === 'EPERM') {
      throw new InputError(`distribution: cannot access '${p}' (${code}). Make sure the user running the action can read it.`)
    }
    return undefined // ENOENT, ENOTDIR, EINVAL (glob characters on Windows), ENAMETOOLONG, ...
  }
}

/** A path for messages: relative to the workspace with '/' when inside it, else as is. */
function display(p: string, workspace: string): string {
  const rel = path.relative(workspace, p)
  if (rel === '') return '.'
  if (rel.startsWith('..') || path.isAbsolute(rel)) return p
  return rel.split(path.sep).join('/')
}

/** `platform`: the runner's (process.platform); a test passes another. */
export async function locateDistribution(input: string, workspace: string, platform: NodeJS.Platform = process.platform): Promise<DistributionSource> {
  const written = input.trim()
  if (written === '') throw new InputError(`distribution: the input is empty. ${POINT_HINT}`)
  // On Windows a backslash separates folders as / does: the glob matcher and the messages speak /.
  const raw = platform === 'win32' ? written.replace(/\\/g, '/') : written
  const ws = path.resolve(workspace || '.')
  const resolved = path.resolve(ws, raw)

  const st = await statOrUndefined(resolved)
  if (st?.isDirectory()) {
    checkDirectory(raw, resolved, await readdir(resolved))
    return { kind: 'directory', path: resolved }
  }
  if (st?.isFile()) {
    if (!isArchiveName(resolved)) {
      throw new InputError(
        `distribution: '${raw}' is not a .tar.gz or .tgz file; Bloomreach Cloud takes the distribution as a gzip-compressed tar. ${POINT_HINT}`
      )
    }
    return { kind: 'archive', path: resolved }
  }
  if (st) throw new InputError(`distribution: '${raw}' (${resolved}) is neither a file nor a directory. ${POINT_HINT}`)

  if (hasGlobChars(raw)) {
    const { base, matches } = await globFiles(raw, ws)
    const archives = matches.filter((m) => isArchiveName(m))
    if (archives.length === 1) return { kind: 'archive', path: archives[0] as string }
    if (archives.length === 0) {
      // A Windows path (target\\site-*.tar.gz) on Linux or macOS: the backslash escapes the next character there.
      if (raw.includes('\\')) throw backslashError(raw, 'matched nothing', platform)
      const others =
        matches.length > 0
          ? ` It matched ${matches.length} file(s), none a .tar.gz or .tgz: ${matches
              .slice(0, 5)
              .map((m) => display(m, ws))
              .join(', ')}${matches.length > 5 ? ', ...' : ''}.`
          : ''
      throw new InputError(`distribution: the pattern '${raw}' matched no .tar.gz or .tgz file (searched under ${base}).${others} ${BUILD_HINT} ${POINT_HINT}`)
    }
    const shown = archives.slice(0, 10).map((m) => `  ${display(m, ws)}`)
    if (archives.length > 10) shown.push(`  ... and ${archives.length - 10} more`)
    throw new InputError(
      `distribution: the pattern '${raw}' matched ${archives.length} archives; it must match exactly one:\n${shown.join('\n')}\n` +
        'Make the pattern more specific (e.g. include the project name or version), or clean stale archives before the build.'
    )
  }

  if (raw.includes('\\')) throw backslashError(raw, 'does not exist', platform)
  throw new InputError(`distribution: '${raw}' does not exist (looked for ${resolved}). ${POINT_HINT} ${BUILD_HINT}`)
}

/** A path written with Windows' separators on a runner where a backslash is part of a name (or, in a glob, an escape). */
function backslashError(raw: string, what: string, platform: NodeJS.Platform): InputError {
  return new InputError(
    `distribution: '${raw}' ${what}, and it is written with backslashes (\\), which separate folders only on Windows; this runner ` +
      `is ${platform === 'darwin' ? 'macOS' : 'Linux'}, where a backslash is part of a name. Write the path with forward slashes: ${raw.replace(/\\/g, '/')}`
  )
}

/**
 * What a source tree has at its top and a brXM distribution (bin/, conf/, common/, shared/, webapps/) never has:
 * packing one (distribution: . in the project's checkout) would deploy the sources, .git and node_modules included.
 */
const SOURCE_TREE_MARKS = ['pom.xml', 'package.json', 'node_modules', '.git', 'src']

/** A directory to pack: refused when empty, when it holds only archives, or when it is a build output or a source tree. */
function checkDirectory(raw: string, resolved: string, names: readonly string[]): void {
  if (names.length === 0) {
    throw new InputError(
      `distribution: the directory '${raw}' (${resolved}) is empty; there is nothing to deploy. ` +
        `Point \`distribution\` at the directory your build filled, or at its .tar.gz. ${BUILD_HINT}`
    )
  }
  // A folder of archives only: packing it would deploy a tar of tarballs. The user meant one of them.
  const archives = names.filter(isArchiveName)
  if (archives.length > 0 && archives.length === names.filter((n) => !n.startsWith('.')).length) {
    const shown = archives.slice(0, 3).map((n) => `'${raw.replace(/\/+$/, '')}/${n}'`)
    throw new InputError(
      `distribution: the directory '${raw}' holds only ${archives.length === 1 ? 'an archive' : 'archives'} (${archives.join(', ')}): packing it would deploy ` +
        `a tar of tarballs. Point \`distribution\` at the archive itself${archives.length === 1 ? `: ${shown[0] ?? ''}` : `, e.g. ${shown.join(' or ')}, or a glob that matches one`}.`
    )
  }
  // A build output (target/ with the archive beside classes/, maven-archiver/...): the user meant the archive.
  const leftovers = names.filter(isBuildLeftover)
  if (archives.length > 0 && leftovers.length > 0) {
    const dir = raw.replace(/\/+$/, '')
    const shown = archives.slice(0, 3).map((n) => `'${dir === '.' ? n : `${dir}/${n}`}'`)
    throw new InputError(
      `distribution: the directory '${raw}' looks like a build output: it holds ${archives.length === 1 ? 'the archive' : 'the archives'} ${archives.join(', ')} beside ` +
        `${leftovers.slice(0, 4).join(', ')}${leftovers.length > 4 ? ', ...' : ''}. Packing it would deploy a tarball inside a tarball, with the build's leftovers. ` +
        `Point \`distribution\` at the archive itself${archives.length === 1 ? `: ${shown[0] ?? ''}` : `, e.g. ${shown.join(' or ')}, or a glob that matches one`} (e.g. target/*-distribution.tar.gz).`
    )
  }
  const marks = SOURCE_TREE_MARKS.filter((mark) => names.includes(mark))
  if (marks.length > 0 && !names.includes('webapps')) {
    throw new InputError(
      `distribution: the directory '${raw}' looks like a source tree, not a distribution: it holds ${marks.join(', ')} and no webapps/ folder. ` +
        `A brXM distribution (what mvn -P dist package makes) has webapps/ at its top, beside conf/, common/ and shared/. ` +
        `Point \`distribution\` at the archive your build made (e.g. target/*-distribution.tar.gz), or at the directory it unpacked into.`
    )
  }
}
