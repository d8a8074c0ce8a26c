// The benchmark's readback: with uploads not kept during the rounds, one untimed action run per tree
// uploads to a second emulator that KEEPS the upload; the stored file must be what the action reported,
// pass `gzip -t`, list and extract with GNU tar to a tree equal to the source (`diff -r`), and be at
// most 5% larger than GNU gzip of the very same tar bytes (already-compressed files go in as stored
// blocks, which cost up to 5 bytes a 64 KiB block more than deflating them again).
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createReadStream, mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import type { EmulatorOptions } from '../../src/emulator/types.js'
import type { MeasuredAction } from './bench-run.js'
import type { BenchTree } from './bench-tree.js'

/** How much larger than GNU gzip of the same tar the action's archive may be. */
export const SIZE_ALLOWANCE = 0.05

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256')
  await pipeline(createReadStream(file), hash)
  return hash.digest('hex')
}

/** What a shell pipeline writes to stdout, trimmed (for `gzip -dc f | gzip -6 -c | wc -c`). */
export function sh(script: string): string {
  return execFileSync('bash', ['-o', 'pipefail', '-c', script], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim()
}

/** Ours against GNU gzip's size: the difference in percent, and whether it is within the allowance (smaller is fine). */
export function sizeAgainstGnu(ours: number, gnu: number, allowance = SIZE_ALLOWANCE): { percent: number; ok: boolean } {
  return { percent: (ours / gnu - 1) * 100, ok: ours <= gnu * (1 + allowance) }
}

export interface ReadbackOptions {
  tree: BenchTree
  level: number
  /** Where the kept upload and its extraction go (removed after). */
  work: string
  emulatorOptions: EmulatorOptions
  /** Runs the action on the tree against that emulator (untimed, for its outputs). */
  runAction: (emulator: Emulator) => Promise<MeasuredAction>
}

/** Checks one tree's upload; returns the lines to print, throws an Error saying what is wrong. */
export async function verifyReadback(options: ReadbackOptions): Promise<string[]> {
  const { tree, level, work } = options
  const store = join(work, 'verify-store')
  const extract = join(work, 'verify-extract')
  rmSync(store, { recursive: true, force: true })
  rmSync(extract, { recursive: true, force: true })
  const keeper = await startEmulator({ ...options.emulatorOptions, keepUploads: true, storageDir: store })
  try {
    const run = await options.runAction(keeper)
    if (run.code !== 0) throw new Error(`the action failed:\n${run.stdout}\n${run.stderr}`)
    const stored = keeper.distributions[0]
    if (!stored?.path) throw new Error('the emulator kept no upload')
    const sha = await sha256Of(stored.path)
    if (sha !== run.outputs['distribution-sha256'] || sha !== stored.sha256 || String(stored.size) !== run.outputs['distribution-size'])
      throw new Error(
        `the stored upload (${sha}, ${stored.size} B) is not what the action reported (${run.outputs['distribution-sha256']}, ${run.outputs['distribution-size']} B)`
      )
    execFileSync('gzip', ['-t', stored.path])
    const listed = Number(sh(`tar -tzf '${stored.path}' | wc -l`))
    mkdirSync(extract)
    execFileSync('tar', ['-xzf', stored.path, '-C', extract])
    sameTree(tree.root, extract)
    const gnu = Number(sh(`gzip -dc '${stored.path}' | gzip -${level} -c | wc -c`))
    const size = sizeAgainstGnu(stored.size, gnu)
    const vs = `${size.percent >= 0 ? '+' : ''}${size.percent.toFixed(2)}%`
    const lines = [
      `sha256 matches the action's output and the emulator's record; gzip -t ok; GNU tar lists ${listed} entries; extracted tree = source tree (diff -r)`,
      `size: ${stored.size} B; GNU gzip -${level} of the same tar: ${gnu} B; ours ${vs} (allowed: up to +${SIZE_ALLOWANCE * 100}%)`
    ]
    if (!size.ok) throw new Error(`${lines[1]}: the archive is more than ${SIZE_ALLOWANCE * 100}% larger than GNU gzip of the same tar`)
    return lines
  } finally {
    await keeper.close()
    rmSync(store, { recursive: true, force: true })
    rmSync(extract, { recursive: true, force: true })
  }
}

/** `diff -r` of the source and the extraction; throws with diff's first lines when they differ. */
function sameTree(source: string, extracted: string): void {
  try {
    execFileSync('diff', ['-r', '--no-dereference', source, extracted], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  } catch (error) {
    const said = (error as { stdout?: string; stderr?: string }).stdout || (error as { stderr?: string }).stderr || String(error)
    throw new Error(`the extracted tree differs from ${source} (diff -r):\n${said.split('\n').slice(0, 20).join('\n')}`, { cause: error })
  }
}
