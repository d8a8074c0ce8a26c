// Runs the bundled action (dist/index.js, or another action of the repository: status/) the way a runner does:
// INPUT_* variables, a GITHUB_OUTPUT file and a GITHUB_STEP_SUMMARY file. E2E_NODE picks another Node binary (CI runs the end-to-end tests under Node 24).
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { runnerLine } from './runner-view.js'

/** The commit every run is of (GITHUB_SHA, what ${{ github.sha }} is in a workflow). */
export const RUNNER_SHA = '0123456789abcdef0123456789abcdef01234567'

export const ACTION = fileURLToPath(new URL('../../dist/index.js', import.meta.url))

/** An action of the repository: its bundle and its metadata (the inputs' defaults a runner sets). */
export interface ActionFiles {
  readonly bundle: string
  readonly metadata: string
}

/** The deploy action (action.yml, dist/index.js): what runAction runs unless told otherwise. */
export const DEPLOY_ACTION: ActionFiles = { bundle: ACTION, metadata: fileURLToPath(new URL('../../action.yml', import.meta.url)) }

/** The status report's action (status/action.yml, status/dist/index.js; npm run build:status). */
export const STATUS_ACTION: ActionFiles = {
  bundle: fileURLToPath(new URL('../../status/dist/index.js', import.meta.url)),
  metadata: fileURLToPath(new URL('../../status/action.yml', import.meta.url))
}

export interface ActionRun {
  code: number | null
  /** The signal that ended the process, if one did. */
  signal?: NodeJS.Signals | null
  /** With `cancel`: ms from the SIGINT to the process's end (undefined when it ended before the SIGINT). */
  exitAfterSigintMs?: number | undefined
  stdout: string
  stderr: string
  outputs: Record<string, string>
  summary: string
  /** stdout without the ::add-mask:: commands (which the runner consumes, never shows). */
  visible: string
  /** Every `::error::` annotation. */
  errors: string[]
  ms: number
}

export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i] ?? '')
    if (!m) continue
    const [, name, delimiter] = m
    const value: string[] = []
    while (++i < lines.length && lines[i] !== delimiter) value.push(lines[i] ?? '')
    out[name as string] = value.join('\n')
  }
  return out
}

/** Every input of the action's metadata (action.yml) that declares a default, with it: a runner sets these for each step. */
export function actionDefaults(metadata: string = DEPLOY_ACTION.metadata): Record<string, string> {
  const meta = parse(readFileSync(metadata, 'utf8')) as {
    inputs?: Record<string, { default?: unknown }>
  }
  const defaults: Record<string, string> = {}
  for (const [name, input] of Object.entries(meta.inputs ?? {})) if (input.default !== undefined) defaults[name] = String(input.default)
  return defaults
}

/** The INPUT_* variables a runner sets: the step's `with:` over action.yml's defaults (hyphens kept). */
export function inputEnv(inputs: Record<string, string>, metadata?: string): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries({ ...actionDefaults(metadata), ...inputs })) env[`INPUT_${k.replace(/ /g, '_').toUpperCase()}`] = v
  return env
}

export interface RunnerFiles {
  env: Record<string, string>
  outputFile: string
  summaryFile: string
  /** GITHUB_STATE: where core.saveState writes what the post step gets back. */
  stateFile: string
}

/** What a runner gives a step, under `dir`: the GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and GITHUB_STATE files, RUNNER_TEMP, the GITHUB_* context and the INPUT_* variables. */
export function runnerEnvironment(dir: string, inputs: Record<string, string>, workspace: string = dir, metadata?: string): RunnerFiles {
  const outputFile = join(dir, 'output')
  const summaryFile = join(dir, 'summary.md')
  const stateFile = join(dir, 'state')
  const runnerTemp = join(dir, 'runner-temp')
  mkdirSync(runnerTemp)
  writeFileSync(outputFile, '')
  writeFileSync(summaryFile, '')
  writeFileSync(stateFile, '')
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? dir,
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_STATE: stateFile,
    RUNNER_TEMP: runnerTemp,
    GITHUB_WORKSPACE: workspace,
    GITHUB_REPOSITORY: 'acme/site',
    GITHUB_SHA: RUNNER_SHA,
    ...inputEnv(inputs, metadata)
  }
  return { env, outputFile, summaryFile, stateFile }
}

/** The STATE_* variables a runner gives the post step: the last value saved under each name (core.saveState's file). */
export function stateEnv(stateFile: string): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(parseOutputFile(readFileSync(stateFile, 'utf8')))) env[`STATE_${name}`] = value
  return env
}

/** The values a step masked (`::add-mask::`), as written there (escaped) and as they are, longest first. */
export function maskedValues(stdout: string): string[] {
  const unescape = (v: string): string => v.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%')
  const values = new Set<string>()
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('::add-mask::')) continue
    const written = line.slice('::add-mask::'.length).replace(/\r$/, '')
    if (written.trim() === '') continue
    values.add(written)
    values.add(unescape(written))
  }
  return [...values].sort((a, b) => b.length - a.length)
}

/** `text` with every masked value replaced by ***, as a runner shows a log. */
export function redactMasked(text: string, masked: readonly string[]): string {
  let out = text
  for (const value of masked) out = out.split(value).join('***')
  return out
}

/**
 * What a run leaves for a user to read once it ended (`npm run action`), in its folder: the outputs (`output`), the
 * job summary (`summary.md`) and the raw log with the workflow commands a runner consumes, its masked values
 * shown as *** (`raw.log`). The state file goes (the refresh tokens the run received, revoked or not: a runner
 * hands it to the post step only), and RUNNER_TEMP too, as a runner empties it after the job.
 */
export function leaveForReading(run: { stdout: string; outputFile: string; stateFile: string }): { dir: string; rawLog: string } {
  const dir = dirname(run.outputFile)
  const rawLog = join(dir, 'raw.log')
  writeFileSync(rawLog, redactMasked(run.stdout, maskedValues(run.stdout)))
  rmSync(run.stateFile, { force: true })
  rmSync(join(dir, 'runner-temp'), { recursive: true, force: true })
  return { dir, rawLog }
}

/**
 * A cancel as a runner sends it: SIGINT once `when` holds (checked every 20 ms, given the stdout so far),
 * SIGTERM `termAfterMs` later (7.5 s), SIGKILL `killAfterMs` after that (2.5 s). `signal: 'SIGKILL'` instead
 * kills at once (a runner that died, a machine gone).
 */
export interface CancelPlan {
  when: (stdout: string) => boolean
  signal?: 'SIGINT' | 'SIGKILL'
  termAfterMs?: number
  killAfterMs?: number
}

export async function runAction(
  inputs: Record<string, string>,
  options: {
    env?: Record<string, string>
    workspace?: string
    timeoutMs?: number
    /** Copy the action's log to this process's stdout as it runs: as it is ('raw'), or as a runner shows it ('runner'). */
    echo?: 'raw' | 'runner'
    cancel?: CancelPlan
    /** Called with the whole stdout so far each time more arrives (a test waits for a line of it). */
    onStdout?: (stdout: string) => void
    /** The action to run: the deploy action unless given. */
    action?: ActionFiles
  } = {}
): Promise<ActionRun & { outputFile: string; summaryFile: string; stateFile: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'brcd-run-'))
  const action = options.action ?? DEPLOY_ACTION
  const { env: base, outputFile, summaryFile, stateFile } = runnerEnvironment(dir, inputs, options.workspace, action.metadata)
  const env: Record<string, string> = { ...base, ...options.env }
  const started = Date.now()
  const child = spawn(process.env.E2E_NODE || process.execPath, [action.bundle], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  let pending = ''
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString()
    options.onStdout?.(stdout)
    if (options.echo === 'raw') process.stdout.write(d)
    if (options.echo !== 'runner') return
    // Whole lines only: a workflow command split across two chunks must still be recognised.
    const lines = (pending + d.toString()).split('\n')
    pending = lines.pop() ?? ''
    for (const line of lines) {
      const shown = runnerLine(line)
      if (shown !== undefined) process.stdout.write(`${shown}\n`)
    }
  })
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000)
  let ended = false
  let exitedAt = 0
  child.on('exit', () => {
    ended = true
    exitedAt = Date.now()
  })
  const cancel = options.cancel
  let sigintAt: number | undefined
  const timers: NodeJS.Timeout[] = []
  if (cancel) {
    const poll = setInterval(() => {
      if (ended || !cancel.when(stdout)) return
      clearInterval(poll)
      if (cancel.signal === 'SIGKILL') return void child.kill('SIGKILL')
      sigintAt = Date.now()
      child.kill('SIGINT')
      const termAfter = cancel.termAfterMs ?? 7_500
      timers.push(setTimeout(() => !ended && child.kill('SIGTERM'), termAfter))
      timers.push(setTimeout(() => !ended && child.kill('SIGKILL'), termAfter + (cancel.killAfterMs ?? 2_500)))
    }, 20)
    timers.push(poll)
  }
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) => child.on('close', (c, s) => done([c, s])))
  clearTimeout(timer)
  for (const t of timers) clearTimeout(t)
  const visible = stdout
    .split('\n')
    .filter((l) => !l.startsWith('::add-mask::'))
    .join('\n')
  if (options.echo === 'runner' && pending !== '') process.stdout.write(`${runnerLine(pending) ?? ''}\n`)
  return {
    outputFile,
    summaryFile,
    stateFile,
    code,
    signal,
    exitAfterSigintMs: sigintAt === undefined ? undefined : exitedAt - sigintAt,
    stdout,
    stderr,
    visible,
    outputs: parseOutputFile(readFileSync(outputFile, 'utf8')),
    summary: readFileSync(summaryFile, 'utf8'),
    errors: stdout.split('\n').filter((l) => l.startsWith('::error')),
    ms: Date.now() - started
  }
}
