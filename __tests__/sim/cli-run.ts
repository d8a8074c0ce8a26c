// The command's face driven in-process: `brcloud deploy` (src/cli/main.ts main(argv, env, io)) with the command line,
// the environment and the files its CI gives it (./faces.ts), its stdout and stderr recorded with the fake time and the
// wire's sequence number of each write, the world's signals, and its exit code. No process is spawned: it runs in the
// same fake clock and transports as the action. Afterwards its claims are read from what it printed (--json, --summary,
// stderr; Azure's lines on stdout), into the same `Shown` the action's invariants read.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { EventEmitter } from 'node:events'
import type { CliIo } from '../../src/cli/io.js'
import { redact } from '../../src/secrets.js'
import type { Shown } from './mocks.js'
import { processOf, processRecord } from './process.js'
import { COMMIT_VARIABLE, SECRETS, ciVariables, variableOf, type CiJob, type CliFace } from './faces.js'
import { caller, dead, wire } from './transport.js'

/** One write of the command, when it happened (`order`: among all its writes, on either stream). */
export interface Written {
  readonly at: number
  readonly seq: number
  readonly order: number
  readonly text: string
}

/** A command line as its CI runs it, and what the world knows of it. */
export interface CliCommand {
  readonly argv: string[]
  readonly env: Record<string, string>
  readonly cwd: string
  readonly summaryFile: string
  readonly dotenvFile: string | undefined
  /** The command's own refusal the world set up, before the engine runs (exit 2, no request): why. */
  readonly refusal: 'a secret as a flag' | 'a secret file missing' | 'a malformed commit' | 'github-token without a repository' | undefined
  /** The commit the command was given where docs/cli.md says it reads it (--commit, BRCLOUD_COMMIT, or the CI's variable). */
  readonly commitGiven: string | undefined
  /** Each secret's value as the world holds it (a file's line ending is not part of it). */
  readonly secrets: Record<string, string>
}

/** What the command did: every write on stdout and stderr, its exit code, the io.exit calls. */
export interface CliRecord {
  readonly command: CliCommand
  readonly stdout: Written[]
  readonly stderr: Written[]
  exitCode: number | undefined
  /** A rejection out of main(): src/cli/index.ts prints it and exits 1. */
  thrown: string | undefined
  readonly exits: number[]
}

let folder: string | undefined
/** A folder of the test process's for the commands' files (their summaries, dotenv files, secrets' files). */
function filesFolder(): string {
  folder ??= join(tmpdir(), `brcloud-sim-cli-${process.pid}`)
  mkdirSync(folder, { recursive: true })
  return folder
}

/**
 * The command line and environment a CI gives `brcloud deploy` for these inputs (the action's, as ../run.ts draws
 * them): plain inputs as flags or BRCLOUD_* variables, secrets as variables or files, the CI's variables.
 */
export function cliCommand(face: CliFace, inputs: Record<string, string>, job: CiJob, index: number): CliCommand {
  const dir = join(filesFolder(), `run-${index}`)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const ci = ciVariables(face.ci, face.commit === 'none' && face.ci === 'jenkins' ? { ...job, commit: undefined } : job, dir)
  const argv = ['deploy']
  const env: Record<string, string> = { ...ci }
  const secrets: Record<string, string> = {}
  let refusal: CliCommand['refusal']
  let plain = 0
  for (const [name, value] of Object.entries(inputs)) {
    if (value === '') continue
    if ((SECRETS as readonly string[]).includes(name)) {
      secrets[name] = value
      const first = Object.keys(secrets).length === 1
      if (first && face.secrets === 'flag') {
        argv.push(`--${name}=${value}`)
        refusal = 'a secret as a flag'
      } else if (first && face.secrets === 'missing-file') {
        env[`${variableOf(name)}_FILE`] = join(dir, `${name}.missing`)
        refusal ??= 'a secret file missing'
      } else if (face.secrets === 'file-lf' || face.secrets === 'file-crlf') {
        const file = join(dir, name)
        writeFileSync(file, `${value}${face.secrets === 'file-lf' ? '\n' : '\r\n'}`)
        if (plain++ % 2 === 0) argv.push(`--${name}-file`, file)
        else env[`${variableOf(name)}_FILE`] = file
      } else env[variableOf(name)] = value
      continue
    }
    const asFlag = face.inputs === 'flags' || (face.inputs === 'mixed' && plain % 2 === 0)
    plain++
    if (asFlag) argv.push(`--${name}=${value}`)
    else env[variableOf(name)] = value
  }
  const ciCommit = COMMIT_VARIABLE[face.ci] === undefined ? undefined : ci[COMMIT_VARIABLE[face.ci] ?? '']
  let commitGiven = ciCommit
  if (face.commit === 'flag' && job.commit !== undefined) argv.push('--commit', (commitGiven = job.commit))
  if (face.commit === 'variable' && job.commit !== undefined) env.BRCLOUD_COMMIT = commitGiven = job.commit
  if (face.commit === 'malformed') {
    argv.push('--commit', 'HEAD')
    refusal ??= 'a malformed commit'
  }
  if (face.repository === 'flag') argv.push('--repository', 'acme/site')
  if (face.repository === 'variable') env.BRCLOUD_REPOSITORY = 'acme/site'
  if (inputs['github-token'] && face.repository === 'none' && ci.GITHUB_REPOSITORY === undefined) refusal ??= 'github-token without a repository'
  const summaryFile = join(dir, 'summary.md')
  const dotenvFile = face.dotenv ? join(dir, 'outputs.env') : undefined
  argv.push('--json', '--summary', summaryFile)
  if (dotenvFile !== undefined) argv.push('--dotenv', dotenvFile)
  if (face.debug) argv.push('--debug')
  return { argv, env, cwd: dir, summaryFile, dotenvFile, refusal, commitGiven, secrets }
}

/** The command's io in the world: its writes recorded (none once its process is killed), the world's signals, its exits. */
function worldIo(record: CliRecord, signals: EventEmitter): CliIo {
  let order = 0
  const keep = (into: Written[], text: string): void => {
    if (process.env.SIM_TRACE) console.log(`[${new Date(Date.now()).toISOString().slice(11, 23)}] ${text}`)
    if (!dead()) into.push({ at: Date.now(), seq: wire.seq, order: order++, text })
  }
  return {
    stdout: async (text) => keep(record.stdout, text),
    stderr: (text) => keep(record.stderr, text),
    stderrIsTTY: false,
    signals,
    exit: (code) => void record.exits.push(code),
    cwd: () => record.command.cwd
  }
}

type CliMain = typeof import('../../src/cli/main.js').main

/** Starts the command in run `index`'s process; `done` is called with its exit code once main() resolves (a killed one never does). */
export function startCli(main: CliMain, command: CliCommand, index: number, signals: EventEmitter, done: (code: number) => void): CliRecord {
  const record: CliRecord = { command, stdout: [], stderr: [], exitCode: undefined, thrown: undefined, exits: [] }
  const io = worldIo(record, signals)
  void processOf.run(index, () =>
    caller.run('main', () =>
      main(command.argv, command.env, io).then(
        (code) => {
          // A killed process ends nothing more, whatever its code would have gone on to do.
          if (dead()) return
          record.exitCode = code
          done(code)
        },
        (error: unknown) => {
          if (dead()) return
          // What src/cli/index.ts does with a rejection: the message on stderr, exit 1.
          record.thrown = redact(error instanceof Error ? error.message : String(error))
          io.stderr(`error: ${record.thrown}\n`)
          record.exitCode = 1
          done(1)
        }
      )
    )
  )
  return record
}

/** Azure Pipelines' escaping undone (src/cli/azure.ts's table, read backwards): %AZP25 %0D %0A %5D %3B. */
export function unescapeAzure(text: string): string {
  return text
    .replace(/%0D/g, '\r')
    .replace(/%0A/g, '\n')
    .replace(/%5D/g, ']')
    .replace(/%3B/g, ';')
    .replace(/%AZP25/g, '%')
}

const AZURE_ISSUE = /^##vso\[task\.logissue type=(warning|error)\](.*)$/

/** A write of the log as the action's port records it: the labels docs/cli.md names, as the workflow commands they stand for. */
function asLine(text: string): string {
  const t = text.replace(/\n$/, '')
  const label = /^(warning|error|notice|debug): /.exec(t)
  if (label) return `::${label[1]}::${t.slice(label[0].length)}`
  if (t.startsWith('== ')) return `::group::${t.slice(3)}`
  return t
}

/** The JSON object --json printed (the last line of stdout), or undefined. */
export function jsonOf(record: CliRecord): Record<string, string> | undefined {
  const last = record.stdout
    .map((w) => w.text)
    .join('')
    .trimEnd()
    .split('\n')
    .at(-1)
  if (last === undefined || !last.startsWith('{')) return undefined
  try {
    return JSON.parse(last) as Record<string, string>
  } catch {
    return undefined
  }
}

/** A file the command wrote, or '' when there is none. */
export function fileText(path: string | undefined): string {
  if (path === undefined) return ''
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return ''
  }
}

/** The command's claims, read from what it printed, into the view the invariants read (the outputs from --json, the summary from --summary, the failure from its error line). */
export function readCliClaims(view: Shown, record: CliRecord, index: number): void {
  const lines: Array<Shown['lines'][number] & { order: number }> = []
  for (const w of record.stderr) lines.push({ by: 'main', at: w.at, seq: w.seq, order: w.order, text: asLine(w.text) })
  for (const w of record.stdout) {
    // One write may hold several of Azure's lines (the ending: the output variables, the error, the task failed).
    for (const line of w.text.split('\n')) {
      const issue = AZURE_ISSUE.exec(line)
      if (issue !== null) lines.push({ by: 'main', at: w.at, seq: w.seq, order: w.order, text: `::${issue[1]}::${unescapeAzure(issue[2] ?? '')}` })
    }
  }
  lines.sort((a, b) => a.order - b.order)
  // A command killed before its failure was printed (Azure's comes last, after the sends) failed all the same.
  const printedFailure = lines.find((l) => l.text.startsWith('::error::'))?.text.slice('::error::'.length)
  const failed = printedFailure ?? (record.exitCode === undefined ? processRecord(index).failed : undefined)
  const engine = processRecord(index)
  Object.assign(view, {
    lines: lines.map(({ order: _, ...line }) => line),
    // A command killed after its report (during its sends) printed no --json: what its summary and events claim is
    // read against the outputs its engine had set then (no output claim is read of it: it did not report).
    outputs: jsonOf(record) ?? (record.exitCode === undefined ? { ...engine.outputs } : {}),
    masked: [...engine.masked],
    summary: fileText(record.command.summaryFile),
    postSummary: '',
    failed,
    state: new Map(record.exitCode === undefined ? [] : [['reported', 'true']]),
    decided: engine.decided
  })
}
