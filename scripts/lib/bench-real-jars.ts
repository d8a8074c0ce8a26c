// The benchmark's real-jar tree: a brXM-like distribution made of REAL jars (Debian's Java library
// packages in the brXM assembly's layout) by ../shared/bench/real-jar-tree.py, which compresses the
// way a real distribution does (gzip -6 saves a few percent). Built once and cached in --work, with
// a marker next to it naming the script and package list it was made from; or an existing tree
// (--real-jar-tree DIR) taken as it is. A tree that cannot be had is a reason, never a crash: its
// cases are reported NOT MEASURED with it.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import type { BenchTree } from './bench-tree.js'

/** The script the issue names, and its package list beside it. */
export const REAL_JAR_SCRIPT = '/work/shared/bench/real-jar-tree.py'

/** Files whose content is already compressed (zip containers): what the tree is about. */
const ARCHIVE = /\.(jar|war|ear|zip)$/i

/** Walks `root`: its regular files, their bytes, and how many of those are jars/wars (zips). */
export function treeStats(root: string): { tree: BenchTree; archives: number } {
  let files = 0
  let archives = 0
  let binaryBytes = 0
  let textBytes = 0
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, entry.name)
      if (entry.isDirectory()) walk(p)
      else if (entry.isFile()) {
        const size = statSync(p).size
        files++
        if (ARCHIVE.test(entry.name)) {
          archives++
          binaryBytes += size
        } else textBytes += size
      }
    }
  }
  walk(root)
  return { tree: { root, files, bytes: binaryBytes + textBytes, binaryBytes, textBytes }, archives }
}

/** Below this many bytes of jars and wars, a tree is not a real-jar tree (the script, fetching nothing, makes two empty wars). */
export const MIN_ARCHIVE_BYTES = 1024 * 1024

/** Why a tree is not a real-jar tree (no jars or wars worth the name in it), or undefined when it is one. */
export function notARealJarTree(stats: { tree: BenchTree; archives: number }): string | undefined {
  const { root, files, binaryBytes } = stats.tree
  if (binaryBytes < MIN_ARCHIVE_BYTES)
    return `${root} holds ${stats.archives} .jar/.war files of ${binaryBytes} bytes in all (${files} files; a real-jar tree has hundreds of MiB of them)`
  return undefined
}

/** Identifies what a cached tree was made from: the script and its package list, byte for byte. */
export function recipeKey(script: string): string {
  const hash = createHash('sha256').update(readFileSync(script))
  const packages = join(dirname(script), 'real-jar-packages.txt')
  if (existsSync(packages)) hash.update(readFileSync(packages))
  return hash.digest('hex').slice(0, 16)
}

/** The cached tree the marker describes, when it was made from `key` (else undefined: build again). */
export function cachedTree(markerText: string | undefined, key: string): BenchTree | undefined {
  if (markerText === undefined) return undefined
  try {
    const made = JSON.parse(markerText) as BenchTree & { key?: string }
    return made.key === key && typeof made.root === 'string' && made.files > 0 ? made : undefined
  } catch {
    return undefined
  }
}

/** The last non-empty lines of a process's output, for a reason that fits on a line. */
export function tail(text: string, lines = 2): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .slice(-lines)
    .join(' | ')
}

export type RealJarTree = { tree: BenchTree; how: string } | { reason: string }

export interface RealJarOptions {
  /** --work: the tree is built in <work>/real-jar-tree, its marker beside it. */
  work: string
  /** --real-jar-tree DIR: an existing tree, used as it is (nothing built, no marker written). */
  given?: string | undefined
  /** --real-jar-debs DIR: .deb files already downloaded (passed to the script as --debs). */
  debs?: string | undefined
  script?: string
}

/** The real-jar tree, or why there is none. Builds it (minutes: apt-get download) when not cached. */
export async function realJarTree(options: RealJarOptions): Promise<RealJarTree> {
  if (options.given !== undefined) return givenTree(resolve(options.given))
  const script = options.script ?? REAL_JAR_SCRIPT
  if (!existsSync(script)) return { reason: `${script} is missing (pass an existing tree with --real-jar-tree DIR)` }
  const root = join(options.work, 'real-jar-tree')
  const marker = `${root}.json`
  const key = recipeKey(script)
  const cached = existsSync(root) ? cachedTree(existsSync(marker) ? readFileSync(marker, 'utf8') : undefined, key) : undefined
  if (cached) return { tree: cached, how: `cached in ${root}` }
  rmSync(marker, { force: true })
  if (options.debs !== undefined && !existsSync(options.debs)) return { reason: `--real-jar-debs ${options.debs} does not exist` }
  const args = [script, root, ...(options.debs === undefined ? [] : ['--debs', options.debs])]
  const started = performance.now()
  const run = await runScript('python3', args)
  if (run.error) return { reason: `python3 could not run ${script}: ${run.error}` }
  if (run.code !== 0) return { reason: `python3 ${args.join(' ')} exited with ${run.code}: ${tail(run.stderr) || tail(run.stdout)}` }
  const stats = treeStats(root)
  const bad = notARealJarTree(stats)
  if (bad)
    return {
      reason: `${bad}: apt-get download fetched nothing? Run \`apt-get update\` once, or pass --real-jar-debs DIR (already downloaded .debs) or --real-jar-tree DIR${run.stderr ? ` (the script said: ${tail(run.stderr)})` : ''}`
    }
  writeFileSync(marker, JSON.stringify({ ...stats.tree, key }))
  return { tree: stats.tree, how: `built in ${((performance.now() - started) / 1000).toFixed(0)} s: ${tail(run.stdout, 1)}` }
}

function givenTree(dir: string): RealJarTree {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return { reason: `--real-jar-tree ${dir} is not a directory` }
  const stats = treeStats(dir)
  const bad = notARealJarTree(stats)
  return bad ? { reason: bad } : { tree: stats.tree, how: `given: ${dir}` }
}

/** Runs a command to its end, its output kept (the script prints a line; apt-get's errors go to stderr). */
function runScript(command: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; error?: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', (e) => done({ code: null, stdout, stderr, error: e.message }))
    child.on('close', (code) => done({ code, stdout, stderr }))
  })
}
