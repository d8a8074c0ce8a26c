// Runs a command for the benchmark and measures its wall time and peak memory: the peak resident set
// (ru_maxrss) reported by GNU time (`/usr/bin/time -f %M`), which covers the process and anything it
// waited for (GNU tar's gzip child). Without GNU time, the process's /proc/<pid>/status VmHWM is
// polled instead (Linux only; may miss a peak in the last few milliseconds).
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ACTION, runnerEnvironment, parseOutputFile } from './run-action.js'

const GNU_TIME = '/usr/bin/time'

export interface Measured {
  code: number | null
  /** Wall time, milliseconds, from spawn to exit. */
  ms: number
  /** Peak resident set, KiB; undefined when it could not be measured. */
  peakKb: number | undefined
  stdout: string
  stderr: string
}

export function gnuTimeAvailable(): boolean {
  return existsSync(GNU_TIME)
}

function vmHwmKb(pid: number): number | undefined {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) : undefined
  } catch {
    return undefined
  }
}

export async function measure(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number | undefined; stdin?: 'ignore' } = {}
): Promise<Measured> {
  const useTime = gnuTimeAvailable()
  const scratch = mkdtempSync(join(tmpdir(), 'brcd-measure-'))
  const timeFile = join(scratch, 'time')
  const [file, argv] = useTime ? [GNU_TIME, ['-f', '%M', '-o', timeFile, command, ...args]] : [command, args]
  const started = performance.now()
  const child = spawn(file, argv, { env: options.env ?? process.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  let polled: number | undefined
  const poll = useTime
    ? undefined
    : setInterval(() => {
        const kb = child.pid === undefined ? undefined : vmHwmKb(child.pid)
        if (kb !== undefined) polled = Math.max(polled ?? 0, kb)
      }, 10)
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 10 * 60_000)
  const code = await new Promise<number | null>((done, fail) => {
    child.on('error', fail)
    child.on('close', done)
  })
  const ms = performance.now() - started
  clearTimeout(timer)
  if (poll) clearInterval(poll)
  let peakKb = polled
  if (useTime) {
    // "Command exited with non-zero status N" may come first; %M is the last line.
    const lines = readFileSync(timeFile, 'utf8').trim().split('\n')
    const last = Number(lines[lines.length - 1])
    peakKb = Number.isFinite(last) ? last : undefined
  }
  rmSync(scratch, { recursive: true, force: true })
  return { code, ms, peakKb, stdout, stderr }
}

export interface MeasuredAction extends Measured {
  outputs: Record<string, string>
  summary: string
  errors: string[]
  /** Phase name -> milliseconds, read from the job summary's phase table (when it has one). */
  phases: Record<string, number>
}

function parsePhases(summary: string): Record<string, number> {
  const phases: Record<string, number> = {}
  for (const line of summary.split('\n')) {
    const m = /^\| (.+?) \| ([\d.]+) (ms|s)\b/.exec(line)
    if (m) phases[m[1]!] = Number(m[2]) * (m[3] === 's' ? 1000 : 1)
  }
  return phases
}

/**
 * Runs the bundled action (dist/index.js) the way a runner does (as scripts/lib/run-action.ts does),
 * measured: INPUT_* variables, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and RUNNER_TEMP under `scratchRoot`.
 */
export async function measureAction(
  inputs: Record<string, string>,
  options: {
    scratchRoot?: string
    node?: string
    nodeArgs?: string[]
    action?: string
    timeoutMs?: number | undefined
    /** Extra environment variables (e.g. BRCLOUD_DEPLOY_TRACE_MEMORY=1), over the runner's. */
    env?: Record<string, string>
  } = {}
): Promise<MeasuredAction> {
  const root = options.scratchRoot ?? tmpdir()
  mkdirSync(root, { recursive: true })
  const dir = mkdtempSync(join(root, 'brcd-bench-run-'))
  try {
    const { env, outputFile, summaryFile } = runnerEnvironment(dir, inputs)
    const run = await measure(options.node ?? (process.env.E2E_NODE || process.execPath), [...(options.nodeArgs ?? []), options.action ?? ACTION], {
      env: { ...env, ...options.env },
      timeoutMs: options.timeoutMs
    })
    const summary = readFileSync(summaryFile, 'utf8')
    return {
      ...run,
      outputs: parseOutputFile(readFileSync(outputFile, 'utf8')),
      summary,
      errors: run.stdout.split('\n').filter((l) => l.startsWith('::error')),
      phases: parsePhases(summary)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
