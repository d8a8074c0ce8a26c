// The command line, read with util.parseArgs alone: the command, its flags (one per input of action.yml,
// --<secret>-file for each secret) and the CLI's own (--json, --summary, --dotenv, --debug, --commit, --repository,
// --help, --version).
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { closest } from './did-you-mean.js'
import { envName, inputsOf, SECRET_INPUTS, UsageError, type Command } from './inputs.js'

export const COMMANDS: readonly Command[] = ['deploy', 'search-check']

/** The status report: a command of its own (a configuration file, not the action's inputs), parsed by ./status.ts. */
export const STATUS_COMMAND = 'status'

/** What the command line asks for. */
export type Invocation =
  | { readonly kind: 'help'; readonly command: Command | undefined }
  | { readonly kind: 'status'; readonly args: readonly string[] }
  | { readonly kind: 'version' }
  | {
      readonly kind: 'run'
      readonly command: Command
      /** The flags as given, by name (inputs and the CLI's own). */
      readonly flags: Readonly<Record<string, unknown>>
      readonly json: boolean
      readonly summaryFile: string | undefined
      /** --dotenv: the outputs as BRCLOUD_<OUTPUT>=value lines, for GitLab's dotenv report. */
      readonly dotenvFile: string | undefined
      readonly debug: boolean
    }

type Options = NonNullable<ParseArgsConfig['options']>

/** The flags that choose the output formats. */
const OUTPUT: Options = {
  json: { type: 'boolean' },
  summary: { type: 'string' },
  dotenv: { type: 'string' },
  debug: { type: 'boolean' }
}

/** The CLI's own flags, beside the inputs. */
const OWN: Options = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
  ...OUTPUT,
  // The run's context outside GitHub's runner (./run-context.ts).
  commit: { type: 'string' },
  repository: { type: 'string' }
}

/** Every flag of `command`: its inputs, a file flag for each secret among them, and the CLI's own. */
export function optionsOf(command: Command): Options {
  const options: Options = { ...OWN }
  for (const name of inputsOf(command)) {
    options[name] = { type: 'string' }
    if (SECRET_INPUTS.includes(name)) options[`${name}-file`] = { type: 'string' }
  }
  return options
}

export function parseCommandLine(args: readonly string[]): Invocation {
  // A first, lenient pass finds the command, and any secret given as a flag, whatever else is wrong.
  const { tokens } = parseArgs({ args: [...args], strict: false, allowPositionals: true, tokens: true })
  const command = tokens.find((t) => t.kind === 'positional')?.value
  const secretFlags = tokens.filter((t) => t.kind === 'option' && (SECRET_INPUTS as readonly string[]).includes(t.name))
  if (secretFlags.length > 0) {
    const names = [...new Set(secretFlags.map((t) => (t.kind === 'option' ? t.name : '')))]
    throw new UsageError(
      `A secret is refused as a flag, because command lines are logged and seen by other processes: ` +
        names.map((n) => `--${n} (set ${envName(n)}, or --${n}-file FILE)`).join('; ') +
        '.'
    )
  }
  if (command === undefined) {
    const { values } = strictParse(args, OWN, false)
    if (values.version) return { kind: 'version' }
    return { kind: 'help', command: undefined }
  }
  if (command === STATUS_COMMAND) return { kind: 'status', args }
  if (!(COMMANDS as readonly string[]).includes(command))
    throw new UsageError(`Unknown command '${command}': brcloud knows ${[...COMMANDS, STATUS_COMMAND].join(', ')} (brcloud --help).`)
  const known = command as Command
  const { values, positionals } = strictParse(args, optionsOf(known), true, `brcloud ${known} --help`)
  // Not repeated: a stray word may be a secret typed in the wrong place.
  if (positionals.length > 1) throw new UsageError(`brcloud ${known} takes no argument besides its flags (brcloud ${known} --help lists them).`)
  if (values.help) return { kind: 'help', command: known }
  if (values.version) return { kind: 'version' }
  return {
    kind: 'run',
    command: known,
    flags: values,
    json: values.json === true,
    summaryFile: typeof values.summary === 'string' ? values.summary : undefined,
    dotenvFile: typeof values.dotenv === 'string' ? values.dotenv : undefined,
    debug: values.debug === true
  }
}

function strictParse(
  args: readonly string[],
  options: Options,
  allowPositionals: boolean,
  help = 'brcloud --help'
): { values: Record<string, unknown>; positionals: string[] } {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals })
  } catch (error) {
    throw usageOf(error, Object.keys(options), help)
  }
}

/**
 * A command line parseArgs refused, as a UsageError: an unknown flag named with the one it most likely meant (a secret
 * with its variable and file flag, since it is never a flag); any other refusal in parseArgs' words, which name the
 * flag and never repeat a value.
 */
export function usageOf(error: unknown, known: readonly string[], help: string): UsageError {
  const unknown = (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'(-{1,2}[^'=\s]+)'/.exec((error as Error).message)?.[1] : undefined
  if (unknown === undefined) return new UsageError(`${(error as Error).message} (${help}).`)
  const name = unknown.replace(/^-+/, '')
  const meant = closest(name, [...known, ...SECRET_INPUTS])
  if (meant === undefined) return new UsageError(`unknown flag ${unknown} (${help} lists the flags).`)
  const suggestion = (SECRET_INPUTS as readonly string[]).includes(meant) ? `--${meant}-file FILE (or ${envName(meant)})` : `--${meant}`
  return new UsageError(`unknown flag ${unknown}: did you mean ${suggestion}? (${help} lists the flags)`)
}

/** The flags that choose the output formats, read leniently: a refused command line still writes what it asked for. */
export interface OutputFlags {
  /** The first word that is not a flag: the command, when the line has one. */
  readonly command: string | undefined
  readonly json: boolean
  readonly summaryFile: string | undefined
  readonly dotenvFile: string | undefined
  readonly debug: boolean
}

export function outputFlags(args: readonly string[]): OutputFlags {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: OUTPUT,
    strict: false,
    allowPositionals: true
  })
  const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined)
  return {
    command: positionals[0],
    json: values.json === true,
    summaryFile: text(values.summary),
    dotenvFile: text(values.dotenv),
    debug: values.debug === true
  }
}
