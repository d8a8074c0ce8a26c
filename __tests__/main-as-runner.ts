// run() (src/main.ts) driven as GitHub's runner drives the action, with the real @actions/core: INPUT_* variables in
// (and no others), the output, state and summary files out, the workflow commands captured from stdout. The run is
// passed in, so a suite that replaces a module (jest.unstable_mockModule) hands over the run it imported after.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { run as Run } from '../src/main.js'

const host = { signals: { on: () => undefined, off: () => undefined }, exit: () => undefined }
// One folder for the suite's runs: @actions/core keeps the summary file's path it first read.
const dir = mkdtempSync(join(tmpdir(), 'brcd-main-'))

/** The summary the run wrote, and what it printed: one string, and its lines. */
export interface RunnerView {
  summary: string
  stdout: string
  lines: string[]
}

export async function runAsRunner(run: typeof Run, inputs: Record<string, string>): Promise<RunnerView> {
  for (const name of Object.keys(process.env)) if (name.startsWith('INPUT_')) delete process.env[name]
  for (const [name, value] of Object.entries(inputs)) process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value
  for (const name of ['output', 'state', 'summary.md']) writeFileSync(join(dir, name), '')
  Object.assign(process.env, { GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STATE: join(dir, 'state'), GITHUB_STEP_SUMMARY: join(dir, 'summary.md') })
  const out: string[] = []
  const write = process.stdout.write.bind(process.stdout)
  process.stdout.write = ((chunk: string | Uint8Array) => out.push(String(chunk)) > 0) as typeof process.stdout.write
  try {
    await run(host)
  } finally {
    process.stdout.write = write
    process.exitCode = 0
  }
  const stdout = out.join('')
  return { summary: readFileSync(join(dir, 'summary.md'), 'utf8'), stdout, lines: stdout.split('\n') }
}
