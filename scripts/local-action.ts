// `npm run local-action [-- ENV_FILE]`: runs the action's TypeScript source (src/action/main.ts, its run()
// export) under @github/local-action, with the inputs and runner variables of ENV_FILE (default:
// .env, else .env.example). Around it, this script:
//   - makes the sample distribution directory .env.example names (.tmp/local-action/sample) and
//     the job summary file, so a fresh clone runs with no setup;
//   - starts the local emulator for the run when the env file points api-url or search-base-url at
//     a loopback address and nothing listens there yet;
//   - exits 1 when the action failed: local-action itself exits 0 even when the action calls
//     core.setFailed (it records the failure but never sets the exit code).
// local-action replaces @actions/core and @actions/github with its own stubs, so it runs the source,
// not the ncc bundle in dist/ (which exports no run()); `npm run demo` runs dist/ as a runner would.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createConnection } from 'node:net'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { makeDistributionTree } from './lib/sample-tree.js'

export const LOCAL_ACTION = '@github/local-action@7.0.1'

const root = fileURLToPath(new URL('..', import.meta.url))
process.chdir(root)
const envFile = process.argv[2] ?? (existsSync('.env') ? '.env' : '.env.example')
if (!existsSync(envFile)) {
  console.error(`No ${envFile}: copy .env.example to .env and edit it.`)
  process.exit(2)
}
const env = parseEnv(readFileSync(envFile, 'utf8'))

// The sample directory and the summary file.
const distribution = env['INPUT_DISTRIBUTION'] ?? ''
if (distribution.startsWith('.tmp/') && !existsSync(distribution)) {
  makeDistributionTree(resolve(distribution))
  console.log(`Made a sample distribution directory: ${distribution}`)
}
const summary = env['GITHUB_STEP_SUMMARY']
if (summary) {
  mkdirSync(dirname(resolve(summary)), { recursive: true })
  writeFileSync(summary, '')
}

// The emulator, when the env file points at a free loopback port.
const loopback = [env['INPUT_API-URL'], env['INPUT_SEARCH-BASE-URL']]
  .filter((u): u is string => !!u)
  .map((u) => new URL(u))
  .find((u) => u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname))
let emulator: { url: string; close(): Promise<void> } | undefined
if (loopback && !(await listening(loopback.hostname.replace(/^\[|\]$/g, ''), Number(loopback.port || 80)))) {
  const { startEmulator } = await import('../src/emulator/server.js')
  emulator = await startEmulator({ host: loopback.hostname.replace(/^\[|\]$/g, ''), port: Number(loopback.port || 80) })
  console.log(`Started the emulator at ${emulator.url} for this run.`)
}

let failed = false
try {
  const code = await new Promise<number | null>((done, fail) => {
    const child = spawn('npx', ['--yes', LOCAL_ACTION, 'run', '.', 'src/action/main.ts', envFile], {
      stdio: ['inherit', 'pipe', 'inherit'],
      shell: process.platform === 'win32' // npx is npx.cmd there
    })
    let pending = ''
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk)
      pending += chunk.toString()
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      if (lines.some((l) => l.startsWith('::error::'))) failed = true
    })
    child.on('error', fail)
    child.on('close', (c) => {
      if (pending.startsWith('::error::')) failed = true
      done(c)
    })
  })
  if (code !== 0) failed = true
  if (summary && existsSync(summary) && readFileSync(summary, 'utf8').trim()) console.log(`\nJob summary: ${summary}`)
} finally {
  await emulator?.close()
}
if (failed) {
  console.error('\nThe action failed (see the ::error:: line above).')
  process.exit(1)
}

/** KEY=value lines, as dotenv reads the simple cases (# comments, optional quotes). */
function parseEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*(.*?)\s*$/.exec(line)
    if (!m) continue
    let value = m[2] as string
    const quoted = /^(['"])(.*)\1$/.exec(value)
    value = quoted ? (quoted[2] as string) : value.replace(/\s+#.*$/, '')
    out[m[1] as string] = value
  }
  return out
}

function listening(host: string, port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ host, port })
    socket.once('connect', () => (socket.destroy(), done(true)))
    socket.once('error', () => done(false))
  })
}
