// `npm run action -- api-url=http://127.0.0.1:4080 username=deployer password=... distribution=site environment=development`:
// runs the bundled dist/index.js with these inputs as a runner would (INPUT_* variables with
// action.yml's defaults filled, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files), from any shell: an
// INPUT_API-URL variable cannot be set by bash itself (the hyphen). Prints the log as a runner shows
// it, then the outputs, the summary and where the files are. Relative paths are taken from here.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { INPUT_DEFAULTS } from '../src/action-metadata.js'
import { runAction } from './lib/run-action.js'

const USAGE = `Usage: npm run action -- name=value [name=value ...]
  Runs dist/index.js with these inputs, as a GitHub runner would. Every input of action.yml is accepted
  by its name, e.g. npm run action -- api-url=http://127.0.0.1:4080 username=deployer \\
    password=emulator-password distribution=. environment=development
  Start the emulator first (npm run emulator) to try it with no account.`

const inputs: Record<string, string> = {}
const known = new Set(Object.keys(INPUT_DEFAULTS))
const args = process.argv.slice(2)
if (args.length === 0 || args.includes('--help') || args.includes('-h')) {
  console.log(USAGE)
  process.exit(args.length === 0 ? 2 : 0)
}
for (const arg of args) {
  const eq = arg.indexOf('=')
  if (eq <= 0) {
    console.error(`'${arg}' is not name=value. ${USAGE}`)
    process.exit(2)
  }
  const name = arg.slice(0, eq)
  if (!known.has(name)) {
    console.error(`'${name}' is not an input of action.yml (see the inputs table in the README).`)
    process.exit(2)
  }
  inputs[name] = arg.slice(eq + 1)
}

const run = await runAction(inputs, { echo: 'runner', workspace: process.cwd(), timeoutMs: 6 * 60 * 60_000 })
const rawLog = join(run.outputFile, '..', 'raw.log')
writeFileSync(rawLog, run.stdout)
console.log('--- outputs ------------------------------------------------------------')
for (const [name, value] of Object.entries(run.outputs)) console.log(`${name}=${value}`)
console.log('--- job summary --------------------------------------------------------')
console.log(run.summary)
console.log(`GITHUB_OUTPUT: ${run.outputFile}\nGITHUB_STEP_SUMMARY: ${run.summaryFile}\nRaw log (with the workflow commands a runner consumes): ${rawLog}`)
process.exitCode = run.code ?? 1
