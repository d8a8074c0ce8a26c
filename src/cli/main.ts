// One command line run: read it and the environment, install the CLI's port, run the engine's run() with the
// process's signals, write the outputs in the formats asked for and the CI's own, and give the exit code derived
// from how the run ended. src/cli/index.ts is the command.
import { writeFile } from 'node:fs/promises'
import { registerSecret } from '../secrets.js'
import { run } from '../main.js'
import { usePort, type RunContext } from '../port.js'
import { parseCommandLine } from './args.js'
import { azureEnding, azureIssue, underAzure } from './azure.js'
import { dotenvOf } from './dotenv.js'
import { runEmulator } from './emulator.js'
import { exitCode, EXIT } from './exit-codes.js'
import { commandHelp, mainHelp, version } from './help.js'
import { collectInputs, SECRET_INPUTS, UsageError } from './inputs.js'
import { processIo, type CliIo } from './io.js'
import { createCliPort, printOut, stderrLog, type CliPort } from './port.js'
import { cliRunContext } from './run-context.js'
import { watchSignals } from './signals.js'
import { statusMain } from './status.js'
import { gitHubRunner } from './runner-files.js'

/**
 * Runs one command line in `env`, writing and listening through `io` (the process's own, or a test's); resolves with the
 * exit code. Only a third signal ends the process itself, through io.exit.
 */
export async function main(args: readonly string[], env: NodeJS.ProcessEnv = process.env, io: CliIo = processIo()): Promise<number> {
  // The emulator reads its own flags (brcloud emulator --help): none of the engine's inputs apply to it.
  if (args[0] === 'emulator') return runEmulator(args.slice(1), undefined, io)
  let invocation
  let values
  let context
  try {
    invocation = parseCommandLine(args)
    if (invocation.kind === 'help') return printOut(io, invocation.command ? commandHelp(invocation.command) : mainHelp())
    if (invocation.kind === 'version') return printOut(io, `${version()}\n`)
    if (invocation.kind === 'status') return statusMain(invocation.args, env, io)
    values = collectInputs(invocation.command, invocation.flags, env)
    context = cliRunContext(invocation.flags, env, io.cwd())
    checkCommand(invocation.command, values, context)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    io.stderr(`error: ${error.message}\n`)
    return EXIT.badInput
  }
  const azure = underAzure(env)
  const port = createCliPort({
    values,
    ...stderrLog(io, env, invocation.debug),
    summaryFile: invocation.summaryFile,
    context,
    issue: azure ? (type, message) => void io.stdout(azureIssue(type, message)) : undefined,
    runner: await gitHubRunner(env)
  })
  usePort(port)
  // Masked the moment they are known: the engine registers them again as it reads them, which is harmless.
  for (const name of SECRET_INPUTS) registerSecret(values.get(name))
  // The first signal cancels the run, the second hurries its report (run()'s own); the third ends the process here.
  watchSignals(io.signals, (code, message) => {
    port.error(message)
    io.exit(code)
  })
  // run() ends the process's stop itself (a hung call may hold a socket): the exit below does it, with the run's code.
  const ending = await run({ signals: io.signals, exit: () => undefined })
  // No post step follows a command to finish them, as the action's does.
  if (ending.cutShort) {
    port.warning(
      'A second signal: the run reported before its closing calls ended (the last look at the environment, the revocation of its refresh token). If the revocation did not reach the platform, the token expires by itself within 24 hours.'
    )
  } else if (ending.closingUnfinished) {
    port.warning(
      "The run reported before its closing calls ended within the stop's time (the last look at the environment, the revocation of its refresh token, a GitHub Deployment's final status). If the revocation did not reach the platform, the token expires by itself within 24 hours; a GitHub Deployment of this run may stay in progress."
    )
  }
  await writeOutputs(io, port, invocation.dotenvFile, invocation.json, azure)
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

/** Which command fits the inputs: a deploy needs a distribution source, a search check a query; GitHub's calls a repository. */
function checkCommand(command: string, values: ReadonlyMap<string, string>, context: RunContext): void {
  const set = (name: string): boolean => (values.get(name) ?? '').trim() !== ''
  const source = set('distribution') || set('distribution-id') || set('from-environment')
  if (command === 'deploy' && !source && set('search-query'))
    throw new UsageError('brcloud deploy needs distribution, distribution-id or from-environment; to run only the search check, use brcloud search-check.')
  if (command === 'search-check' && !set('search-query'))
    throw new UsageError('brcloud search-check needs search-query (--search-query or BRCLOUD_SEARCH_QUERY).')
  if (command === 'deploy' && set('github-token') && context.repository === '')
    throw new UsageError(
      'github-token is set, so the run records GitHub Deployments: name their repository with --repository owner/name or BRCLOUD_REPOSITORY.'
    )
}
