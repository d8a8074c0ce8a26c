// `npm run demo`: the whole action, end to end, on this machine with no account. Starts the local
// emulator, makes a small brXM-like distribution directory, runs the bundled dist/index.js as a
// runner would, and prints its log, its outputs and its job summary.
import { startEmulator } from '../src/emulator/server.js'
import { runAction } from './lib/run-action.js'
import { makeDistributionTree } from './lib/sample-tree.js'

const emulator = await startEmulator()
try {
  const tree = makeDistributionTree()
  console.log(`Emulator listening at ${emulator.url} (user ${emulator.username})`)
  console.log(`Sample distribution directory: ${tree}\n`)
  console.log('--- action log ---------------------------------------------------------')
  const run = await runAction(
    {
      'api-url': emulator.url,
      username: emulator.username,
      password: emulator.password,
      distribution: tree,
      environment: 'development'
    },
    { echo: true }
  )
  console.log('--- outputs (GITHUB_OUTPUT) ----------------------------------------------')
  for (const [name, value] of Object.entries(run.outputs)) console.log(`${name}=${value}`)
  console.log('--- job summary (GITHUB_STEP_SUMMARY) -----------------------------------')
  console.log(run.summary)
  console.log(`Requests the emulator received: ${emulator.requests.map((r) => `${r.method} ${r.url} ${r.status}`).join(', ')}`)
  process.exitCode = run.code ?? 1
} finally {
  await emulator.close()
}
