// `npm run bench:status [-- --stacks 10 --environments 5 --rounds 5]`: how long `brcloud status` (the bundle,
// dist-cli/, run as a user runs it) takes over many stacks, each an emulator on this machine whose environments
// all run a distribution. Issue 31's target: ten stacks of five environments in under 3 s. Without GitHub: the
// platform's side only (logins, listings, lookups, revocations). Run `npm run build:cli` first when src/ changed.
import { spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { startEmulator, type Emulator } from '../src/emulator/server.js'

const { values } = parseArgs({
  options: { stacks: { type: 'string', default: '10' }, environments: { type: 'string', default: '5' }, rounds: { type: 'string', default: '5' } }
})
const stacks = Number(values.stacks)
const environments = Array.from({ length: Number(values.environments) }, (_, i) => `env-${i + 1}`)
const rounds = Number(values.rounds)

/** A stack whose every environment runs a distribution of its own (its name carries a commit). */
async function stack(): Promise<Emulator> {
  const emu = await startEmulator({ environments, maxEnvironments: environments.length })
  for (const [i, name] of environments.entries()) {
    const id = await emu.addDistribution(`site-${(0xabc0000 + i).toString(16)}-distribution.tar.gz`, { 'version.txt': `${i}\n` })
    emu.deployAs(name, id, { seconds: 0 })
  }
  return emu
}

/** One `brcloud status --json` run: its wall-clock time, and how many rows it reported. */
function timed(config: string, env: Record<string, string>): Promise<{ ms: number; rows: number; code: number | null }> {
  const started = process.hrtime.bigint()
  const child = spawn(process.execPath, ['dist-cli/index.js', 'status', '--config', config, '--json'], { env: { ...process.env, ...env } })
  let out = ''
  child.stdout.on('data', (d: Buffer) => (out += d.toString()))
  return new Promise((resolve) =>
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      const rows = (JSON.parse(out || '{"environments":[]}') as { environments: unknown[] }).environments.length
      resolve({ ms, rows, code })
    })
  )
}

const emus = await Promise.all(Array.from({ length: stacks }, () => stack()))
try {
  const config = join(mkdtempSync(join(tmpdir(), 'brcd-bench-status-')), 'fleet.yml')
  writeFileSync(config, ['stacks:', ...emus.flatMap((e, i) => [`  - name: stack-${i + 1}`, `    api-url: ${e.url}`])].join('\n') + '\n')
  const env = { BRCLOUD_USERNAME: emus[0]?.username ?? '', BRCLOUD_PASSWORD: emus[0]?.password ?? '' }
  const times: number[] = []
  for (let r = 0; r < rounds; r++) {
    const { ms, rows, code } = await timed(config, env)
    if (code !== 0 || rows !== stacks * environments.length)
      throw new Error(`round ${r + 1}: exit ${code}, ${rows} rows (${stacks * environments.length} expected)`)
    times.push(ms)
    console.log(`round ${r + 1}: ${(ms / 1000).toFixed(2)} s, ${rows} rows`)
  }
  const sorted = [...times].sort((a, b) => a - b)
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0
  console.log(
    `brcloud status, ${stacks} stacks x ${environments.length} environments: median ${(median / 1000).toFixed(2)} s (min ${((sorted[0] ?? 0) / 1000).toFixed(2)}, max ${((sorted.at(-1) ?? 0) / 1000).toFixed(2)}); target < 3 s: ${median < 3000 ? 'MET' : 'NOT MET'}`
  )
} finally {
  await Promise.all(emus.map((e) => e.close()))
}
