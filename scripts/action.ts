// `npm run action -- api-url=http://127.0.0.1:4080 username=deployer password=... distribution=sample-distribution environment=development`:
// runs the bundled dist/index.js with these inputs as a runner would (INPUT_* variables with
// action.yml's defaults filled, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files), from any shell: an
// INPUT_API-URL variable cannot be set by bash itself (the hyphen). Prints the log as a runner shows
// it, then the outputs, the summary and where the files are. Relative paths are taken from the
// directory the command was typed in; the proxy and CA variables and the runner's (GITHUB_SHA, GITHUB_API_URL,
// ACTIONS_ID_TOKEN_REQUEST_URL, ...: lib/action-args.ts) pass through. The run's folder keeps what a user reads
// (outputs, summary, the raw log with masked values hidden); its state file, which held the refresh tokens, goes.
import { ArgsError, parseActionArgs, RUNNER_VARIABLES } from './lib/action-args.js'
import { leaveForReading, runAction } from './lib/run-action.js'

const USAGE = `Usage: npm run action -- name=value [name=value ...]
  Runs dist/index.js with these inputs, as a GitHub runner would. Every input of action.yml is accepted
  by its name (a renamed input's old name too, with the runner's warning), e.g.
    npm run sample -- sample-distribution
    npm run action -- api-url=http://127.0.0.1:4080 username=deployer \\
    password=emulator-password distribution=sample-distribution environment=development
  Relative paths are taken from the current directory; HTTPS_PROXY, HTTP_PROXY, NO_PROXY and
  NODE_EXTRA_CA_CERTS are passed on, and so are the runner's variables when set:
  ${RUNNER_VARIABLES.join(', ')}.
  Start the emulator first (npm run emulator) to try it with no account; npm run emulator -- --github --sso
  prints the variables to export for GitHub's calls and its OIDC token.`

const args = process.argv.slice(2)
if (args.length === 0 || args.includes('--help') || args.includes('-h')) {
  console.log(USAGE)
  process.exit(args.length === 0 ? 2 : 0)
}
let parsed: ReturnType<typeof parseActionArgs>
try {
  parsed = parseActionArgs(args, process.env, process.cwd())
} catch (e) {
  if (!(e instanceof ArgsError)) throw e
  console.error(`${e.message}\n${USAGE}`)
  process.exit(2)
}
for (const w of parsed.warnings) console.log(`Warning: ${w}`)

// Ctrl-C reaches the step as GitHub's cancel does (SIGINT to its process); this wrapper stays, as a
// runner would, to show what the cancelled step leaves: its log, outputs and summary.
process.on('SIGINT', () => console.log('(SIGINT: the step is cancelled; showing what it leaves)'))
const run = await runAction(parsed.inputs, { echo: 'runner', workspace: parsed.workspace, env: parsed.env, timeoutMs: 6 * 60 * 60_000 })
const { dir, rawLog } = leaveForReading(run)
console.log('--- outputs ------------------------------------------------------------')
for (const [name, value] of Object.entries(run.outputs)) console.log(`${name}=${value}`)
console.log('--- job summary --------------------------------------------------------')
console.log(run.summary)
console.log(`The run's folder: ${dir} (its state file, which held the refresh tokens, is removed)`)
console.log(
  `GITHUB_OUTPUT: ${run.outputFile}\nGITHUB_STEP_SUMMARY: ${run.summaryFile}\nRaw log (with the workflow commands a runner consumes, masked values as ***): ${rawLog}`
)
process.exitCode = run.code ?? 1
