// One command line run: read it and the environment, install the CLI's port, run the engine's run() with the
// command's signals, write the outputs in the formats asked for and the CI's own, and give the exit code derived
// from how the run ended. A command line refused before run() is reported as the engine reports refused inputs, in
// the same formats. src/cli/index.ts is the command; everything goes through the io it is given (./io.ts).
import { writeFile } from 'node:fs/promises'
import { registerSecret } from '../secrets.js'
import { refuse, run, type RunEnding } from '../main.js'
import { usePort, type RunContext } from '../port.js'
import { outputFlags, parseCommandLine, STATUS_COMMAND, type OutputFlags } from './args.js'
import { azureEnding, azureIssue, underAzure } from './azure.js'
import { dotenvOf } from './dotenv.js'
import { runEmulator } from './emulator.js'
import { EXIT, exitCode } from './exit-codes.js'
import { commandHelp, mainHelp, version } from './help.js'
import { collectInputs, SECRET_INPUTS, UsageError } from './inputs.js'
import { processIo, type CliIo } from './io.js'
import { createCliPort, printOut, stderrLog, type CliPort } from './port.js'
import { cliRunContext, giveTheCommit, placeContext } from './run-context.js'
import { watchSignals } from './signals.js'
import { statusMain } from './status.js'
import { gitHubRunner } from './runner-files.js'

/**
 * Runs one command line in `env`, writing and listening through `io` (the process's own, or a test's); resolves with the
 * exit code. Only a third signal ends the process itself, through io.exit.
 */
export async function main(args: readonly string[], env: NodeJS.ProcessEnv = process.env, io: CliIo = processIo()): Promise<number> {
  // The emulator reads its own flags (brcloud emulator --help): none of the engine's inputs apply to it.
  if (args[0] === 'emulator') return runEmulator(args.slice(1), undefined, io, env)
  // Read leniently first: a command line refused below still writes the formats it asked for.
  const asked = outputFlags(args)
  let values: Map<string, string> | undefined
  let port: CliPort
  try {
    const invocation = parseCommandLine(args)
    if (invocation.kind === 'help') return printOut(io, invocation.command ? commandHelp(invocation.command) : mainHelp())
    if (invocation.kind === 'version') return printOut(io, `${version()}\n`)
    if (invocation.kind === 'status') return statusMain(invocation.args, env, io)
    values = collectInputs(invocation.command, invocation.flags, env)
    const context = cliRunContext(invocation.flags, env, io.cwd())
    checkCommand(invocation.command, values, context, env)
    port = await openPort(io, env, asked, values, context)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    // brcloud status has formats of its own (its report, its exit codes): a refusal there is its error line alone.
    if (asked.command === STATUS_COMMAND) {
      io.stderr(`error: ${error.message}\n`)
      return EXIT.badInput
    }
    // The refusal's formats, as the engine's refusals write them: the failure, --json's {}, the --dotenv file, Azure's.
    const refused = await openPort(io, env, asked, values ?? new Map(), placeContext(env, io.cwd()))
    return finish(io, refused, asked, env, await refuse(error))
  }
  // The first signal cancels the run, the second hurries its report (run()'s own); the third ends the process here.
  watchSignals(io.signals, (code, message) => {
    port.error(message)
    io.exit(code)
  })
  // run() ends the process's stop itself (a hung call may hold a socket): the exit below does it, with the run's code.
  const ending = await run({ signals: io.signals, exit: () => undefined, env })
  // No post step follows a command to finish them, as the action's does.
  if (ending.cutShort) {
    port.warning(
      'A second signal: the run reported before its closing calls ended (the last look at the environment, the revocation of its refresh token). If the revocation did not reach the platform, the token expires by itself within 24 hours.'
    )
  } else if (ending.closingUnfinished) {
    port.warning(closingUnfinished(values))
  }
  return finish(io, port, asked, env, ending)
}

/** The closing calls did not end in the stop's time: what may be left, in the words of the code's host the run records its deploy in. */
function closingUnfinished(values: ReadonlyMap<string, string> | undefined): string {
  const token = 'If the revocation did not reach the platform, the token expires by itself within 24 hours'
  const calls = 'the last look at the environment, the revocation of its refresh token'
  if ((values?.get('gitlab-token') ?? '') !== '')
    return `The run reported before its closing calls ended within the stop's time (${calls}, a GitLab deployment's final status). ${token}; a GitLab deployment of this run may stay running.`
  if ((values?.get('github-token') ?? '') === '') return `The run reported before its closing calls ended within the stop's time (${calls}). ${token}.`
  return `The run reported before its closing calls ended within the stop's time (${calls}, a GitHub Deployment's final status). ${token}; a GitHub Deployment of this run may stay in progress.`
}

/** The CLI's port for this run, installed, with every secret among `values` masked from here on. */
async function openPort(io: CliIo, env: NodeJS.ProcessEnv, asked: OutputFlags, values: ReadonlyMap<string, string>, context: RunContext): Promise<CliPort> {
  const port = createCliPort({
    values,
    ...stderrLog(io, env, asked.debug),
    summaryFile: asked.summaryFile,
    context,
    issue: underAzure(env) ? (type, message) => void io.stdout(azureIssue(type, message)) : undefined,
    runner: await gitHubRunner(env)
  })
  usePort(port)
  // Masked the moment they are known: the engine registers them again as it reads them, which is harmless.
  for (const name of SECRET_INPUTS) registerSecret(values.get(name))
  return port
}

/** The outputs in every format asked for, then the exit code of how the run ended. */
async function finish(io: CliIo, port: CliPort, asked: OutputFlags, env: NodeJS.ProcessEnv, ending: RunEnding): Promise<number> {
  await writeOutputs(io, port, asked.dotenvFile, asked.json, underAzure(env))
  return exitCode(ending)
}

/** The outputs in every format asked for: the --dotenv file, Azure's output variables, the --json object (last, on stdout). */
async function writeOutputs(io: CliIo, port: CliPort, dotenvFile: string | undefined, json: boolean, azure: boolean): Promise<void> {
  if (dotenvFile !== undefined) {
    try {
      await writeFile(
        dotenvFile,
        dotenvOf(port.outputs, (message) => port.warning(message))
      )
    } catch (error) {
      port.warning(`--dotenv: ${dotenvFile} could not be written (${(error as NodeJS.ErrnoException).code ?? String(error)}).`)
    }
  }
  if (azure) await printOut(io, azureEnding(port.outputs, port.failure))
  if (json) await printOut(io, `${JSON.stringify(port.outputs)}\n`)
}

/**
 * Which command fits the inputs: a deploy needs a distribution source, a search check a query; the code host's calls a
 * commit, and GitHub's a repository (the deploy order compares it, the recorded deployment records it: without one the
 * order would go unchecked while the token says it is wanted).
 */
function checkCommand(command: string, values: ReadonlyMap<string, string>, context: RunContext, env: NodeJS.ProcessEnv): void {
  const set = (name: string): boolean => (values.get(name) ?? '').trim() !== ''
  const source = set('distribution') || set('distribution-id') || set('from-environment')
  if (command === 'deploy' && !source && set('search-query'))
    throw new UsageError('brcloud deploy needs distribution, distribution-id or from-environment; to run only the search check, use brcloud search-check.')
  if (command === 'search-check' && !set('search-query'))
    throw new UsageError('brcloud search-check needs search-query (--search-query or BRCLOUD_SEARCH_QUERY).')
  if (command === 'deploy') checkCodeHost(set, context, env)
}

/**
 * The code host's token asks for the deploy order and a recorded deployment, both of this run's commit: without the
 * commit (and, for GitHub, the repository) neither could be given, so the run is refused rather than left unchecked.
 * Both tokens at once are the engine's refusal (src/inputs/code-host.ts): the fix is to remove one, not to add a repository.
 */
function checkCodeHost(set: (name: string) => boolean, context: RunContext, env: NodeJS.ProcessEnv): void {
  const github = set('github-token')
  // Neither token, or both.
  if (github === set('gitlab-token')) return
  if (github && context.repository === '')
    throw new UsageError(
      'github-token is set, so the run records GitHub Deployments: name their repository with --repository owner/name or BRCLOUD_REPOSITORY.'
    )
  const [token, recorded] = github ? ['github-token', 'a GitHub Deployment'] : ['gitlab-token', 'a GitLab deployment']
  if (context.sha === '')
    throw new UsageError(
      `${token} is set, so the run checks the deploy order against the commit the environment runs and records ${recorded} of this run's commit, ` +
        `and this run has no commit: ${giveTheCommit(env)}.`
    )
}
