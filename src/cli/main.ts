// One command line run: read it and the environment, install the CLI's port, run the engine's run() with the
// process's signals, and give the exit code derived from how the run ended. src/cli/index.ts is the command.
import { registerSecret } from '../secrets.js'
import { run } from '../main.js'
import { usePort } from '../port.js'
import { parseCommandLine } from './args.js'
import { exitCode, EXIT } from './exit-codes.js'
import { commandHelp, mainHelp, version } from './help.js'
import { collectInputs, SECRET_INPUTS, UsageError } from './inputs.js'
import { createCliPort } from './port.js'

/** Runs one command line; resolves with the exit code. */
export async function main(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let invocation
  let values
  try {
    invocation = parseCommandLine(args)
    if (invocation.kind === 'help') return print(invocation.command ? commandHelp(invocation.command) : mainHelp())
    if (invocation.kind === 'version') return print(`${version()}\n`)
    values = collectInputs(invocation.command, invocation.flags, env)
    checkCommand(invocation.command, values)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    process.stderr.write(`error: ${error.message}\n`)
    return EXIT.badInput
  }
  const port = createCliPort({
    values,
    write: (text) => process.stderr.write(text),
    colour: process.stderr.isTTY === true && !env.NO_COLOR,
    debug: invocation.debug || env.BRCLOUD_DEBUG === 'true',
    summaryFile: invocation.summaryFile
  })
  usePort(port)
  // Masked the moment they are known: the engine registers them again as it reads them, which is harmless.
  for (const name of SECRET_INPUTS) registerSecret(values.get(name))
  // run() ends the process's stop itself (a hung call may hold a socket): the exit below does it, with the run's code.
  const ending = await run({ signals: process, exit: () => undefined })
  if (invocation.json) await print(`${JSON.stringify(port.outputs)}\n`)
  return exitCode(ending)
}

/** Which command fits the inputs: a deploy needs a distribution source, a search check a query. */
function checkCommand(command: string, values: ReadonlyMap<string, string>): void {
  const set = (name: string): boolean => (values.get(name) ?? '').trim() !== ''
  const source = set('distribution') || set('distribution-id') || set('from-environment')
  if (command === 'deploy' && !source && set('search-query'))
    throw new UsageError('brcloud deploy needs distribution, distribution-id or from-environment; to run only the search check, use brcloud search-check.')
  if (command === 'search-check' && !set('search-query'))
    throw new UsageError('brcloud search-check needs search-query (--search-query or BRCLOUD_SEARCH_QUERY).')
}

function print(text: string): Promise<number> {
  return new Promise((resolve) => process.stdout.write(text, () => resolve(EXIT.success)))
}
