// `npm run demo`: the whole action, end to end, on this machine with no account. Starts the local
// emulator (its deploys take 2 s, as a platform's take a while), makes a small brXM-like
// distribution directory with a version page, runs the bundled dist/index.js as a runner would
// (deploy, follow until applied, check the site shows this version), and prints its log as a runner
// shows it (the raw log, with the workflow commands a runner consumes, goes to a file), its outputs
// and its job summary.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startEmulator } from '../src/emulator/server.js'
import { runAction } from './lib/run-action.js'
import { makeDistributionTree } from './lib/sample-tree.js'

const emulator = await startEmulator({ deploySeconds: 2 })
try {
  const tree = makeDistributionTree()
  const version = `demo-${Date.now()}`
  writeFileSync(join(tree, 'version.txt'), `${version}\n`)
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
      // The emulator serves what each environment runs at /sites/<environment>/<path>.
      'health-url': `${emulator.url}/sites/development/version.txt`,
      'health-expect': version
    },
    { echo: 'runner' }
  )
  const rawLog = join(tree, '..', `${tree.split('/').at(-1) ?? 'demo'}-raw.log`)
  writeFileSync(rawLog, run.stdout)
  console.log('--- outputs (GITHUB_OUTPUT) ----------------------------------------------')
  for (const [name, value] of Object.entries(run.outputs)) console.log(`${name}=${value}`)
  console.log('--- job summary (GITHUB_STEP_SUMMARY) -----------------------------------')
  console.log(run.summary)
  console.log(
    `Requests the emulator received: ${emulator.requests.map((r) => `${r.method} ${r.url.replace(/auth_key=[^&]*/, 'auth_key=***')} ${r.status}`).join(', ')}`
  )
  console.log(`The raw log (with the workflow commands a runner consumes, e.g. ::add-mask::): ${rawLog}`)
  process.exitCode = run.code ?? 1
} finally {
  await emulator.close()
}
