// The CLI's face: the engine's port (src/port.ts) on a terminal or a CI log. Inputs come from the values the
// command line and the environment gave (./inputs.ts); the human log goes to stderr, every line masked here
// (no runner masks anything outside GitHub Actions); outputs are kept for --json; the summary goes to the
// --summary file. No workflow command is written: outside a runner it would only be noise. Where a CI reads more
// (Azure Pipelines' issues, GitHub's runner files in a `run:` step), main.ts passes what writes it.
import { writeFile } from 'node:fs/promises'
import type { InputOptions, Port, RunContext } from '../port.js'
import type { CliIo } from './io.js'

export interface CliPortOptions {
  readonly values: ReadonlyMap<string, string>
  /** Where the log goes: stderr. */
  readonly write: (text: string) => void
  /** Colour only on a terminal, and never with NO_COLOR (no-color.org). */
  readonly colour: boolean
  readonly debug: boolean
  /** The --summary file, when one was asked for. */
  readonly summaryFile: string | undefined
  /** The run's commit, repository and workspace (./run-context.ts). */
  readonly context: RunContext
  /**
   * Where warnings and errors go instead of a labelled line (Azure Pipelines' issues); the run's failure is then
   * only kept, for main.ts to report after the outputs.
   */
  readonly issue?: ((type: 'warning' | 'error', message: string) => void) | undefined
  /** Also given the outputs and the summary: the runner's files, in a GitHub Actions `run:` step. */
  readonly runner?: Pick<Port, 'setOutput' | 'writeSummary'> | undefined
}

/** The port, with what the run set (masked) for --json and the other output formats, and the failure it reported. */
export interface CliPort extends Port {
  readonly outputs: Readonly<Record<string, string>>
  readonly failure: string | undefined
}

/** The human log of a command: stderr, coloured only on a terminal and never with NO_COLOR; debug lines when asked. */
export function stderrLog(io: CliIo, env: NodeJS.ProcessEnv, debug: boolean): Pick<CliPortOptions, 'write' | 'colour' | 'debug'> {
  return {
    write: (text) => io.stderr(text),
    colour: io.stderrIsTTY && !env.NO_COLOR,
    debug: debug || env.BRCLOUD_DEBUG === 'true'
  }
}

/** Writes a command's data to stdout, resolving once written (with exit code 0, for a command that ends there). */
export async function printOut(io: CliIo, text: string): Promise<0> {
  await io.stdout(text)
  return 0
}

const STYLE = { bold: '1', dim: '2', red: '31', yellow: '33', cyan: '36' } as const

/** The face's log lines: each masked with every secret known when it is written, styled only on a terminal. */
interface CliLog {
  readonly mask: (text: string) => string
  readonly line: (text: string, style?: keyof typeof STYLE, label?: string) => void
  /** A warning or an error: Azure's issue when main.ts passed one, else a labelled line. */
  readonly annotate: (type: 'warning' | 'error', message: string) => void
}

/** `secrets` is read at each line, so a secret registered later masks every line after it. */
function cliLog(options: CliPortOptions, secrets: ReadonlySet<string>): CliLog {
  const mask = (text: string): string => {
    let out = text
    for (const secret of [...secrets].sort((a, b) => b.length - a.length)) out = out.split(secret).join('***')
    return out
  }
  const paint = (style: keyof typeof STYLE, text: string): string => (options.colour ? `\u001b[${STYLE[style]}m${text}\u001b[0m` : text)
  const line = (text: string, style?: keyof typeof STYLE, label?: string): void => {
    const masked = mask(text)
    const shown = label === undefined ? masked : `${label}: ${masked}`
    options.write(`${style === undefined ? shown : paint(style, shown)}\n`)
  }
  const annotate = (type: 'warning' | 'error', message: string): void => {
    if (options.issue) options.issue(type, mask(message))
    else line(message, type === 'warning' ? 'yellow' : 'red', type)
  }
  return { mask, line, annotate }
}

export function createCliPort(options: CliPortOptions): CliPort {
  const secrets = new Set<string>()
  const outputs: Record<string, string> = {}
  let failure: string | undefined
  const { mask, line, annotate } = cliLog(options, secrets)
  return {
    outputs,
    get failure() {
      return failure
    },
    getInput(name: string, input?: InputOptions): string {
      const value = options.values.get(name) ?? ''
      if (input?.required && value === '') throw new Error(`Input required and not supplied: ${name}`)
      return input?.trimWhitespace === false ? value : value.trim()
    },
    setOutput(name, value) {
      // No output holds a secret; masked all the same, since every format prints them.
      outputs[name] = mask(value)
      options.runner?.setOutput(name, outputs[name])
    },
    info: (message) => line(message),
    warning: (message) => annotate('warning', message),
    error: (message) => annotate('error', message),
    notice: (message) => line(message, 'cyan', 'notice'),
    debug: (message) => {
      if (options.debug) line(message, 'dim', 'debug')
    },
    isDebug: () => options.debug,
    // A group is a heading line: a log read in a file or a CI console has no folds.
    async group(name, fn) {
      line(`== ${name}`, 'bold')
      return fn()
    },
    setSecret(secret) {
      if (secret !== '') secrets.add(secret)
    },
    async writeSummary(markdown) {
      const toRunner = (await options.runner?.writeSummary(mask(markdown))) ?? false
      if (options.summaryFile === undefined) return toRunner
      await writeFile(options.summaryFile, mask(markdown))
      return true
    },
    // No post step follows a command: the run revokes its own tokens, and nothing needs to be kept.
    saveState: () => undefined,
    getState: () => '',
    setFailed: (message) => {
      failure = mask(message)
      if (!options.issue) line(message, 'red', 'error')
    },
    getIDToken: () => Promise.reject(new Error('no OIDC identity token outside GitHub Actions (oidc-audience needs a GitHub Actions job)')),
    runContext: () => options.context
  }
}
