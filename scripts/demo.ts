// `npm run demo`: the whole action, end to end, on this machine with no account. Starts the local
// emulator (its deploys take 2 s, as a platform's take a while), makes a small brXM-like
// distribution directory with a version page in its site webapp (webapps/site.war), runs the bundled
// dist/index.js as a runner would (deploy, follow until applied, check the site shows this version),
// and prints its log as a runner shows it (the raw log, with the workflow commands a runner consumes,
// goes to a file), its outputs and its job summary.
import { startEmulator } from '../src/emulator/server.js'
import { leaveForReading, runAction } from './lib/run-action.js'
import { makeDistributionTree } from './lib/sample-tree.js'

const emulator = await startEmulator({ deploySeconds: 2 })
try {
  const version = `demo-${Date.now()}`
  // The version page in the site webapp, as the README's build writes it: at the root of webapps/site.war.
  const tree = makeDistributionTree(undefined, undefined, { 'version.txt': `${version}\n` })
  console.log(`Emulator listening at ${emulator.url} (user ${emulator.username})`)
  console.log(`Sample distribution directory: ${tree}\n`)
  console.log('--- action log, as a runner shows it -----------------------------------')
  const run = await runAction(
    {
      'api-url': emulator.url,
      username: emulator.username,
      password: emulator.password,
      distribution: tree,
      environment: 'development',
      // The emulator serves each environment's site webapp (webapps/site.war) at /sites/<environment>/<path>.
      'health-url': `${emulator.url}/sites/development/version.txt`,
      'health-expect': version
    },
    { echo: 'runner' }
  )
  // The run's folder keeps what a user reads (outputs, summary, the raw log with masked values as ***), not the state file.
  const { rawLog } = leaveForReading(run)
  console.log('--- outputs (GITHUB_OUTPUT) ----------------------------------------------')
  for (const [name, value] of Object.entries(run.outputs)) console.log(`${name}=${value}`)
  console.log('--- job summary (GITHUB_STEP_SUMMARY) -----------------------------------')
  console.log(run.summary)
  console.log(
    `Requests the emulator received: ${emulator.requests.map((r) => `${r.method} ${r.url.replace(/auth_key=[^&]*/, 'auth_key=***')} ${r.status}`).join(', ')}`
  )
  console.log(`The raw log (with the workflow commands a runner consumes, masked values as ***): ${rawLog}`)
  process.exitCode = run.code ?? 1
} finally {
  await emulator.close()
}
