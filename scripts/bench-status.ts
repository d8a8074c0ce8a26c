// `npm run bench:status [-- --stacks 10 --environments 5 --rounds 5 --github-latency-ms 0]`: how long `brcloud status`
// (the bundle, dist-cli/, run as a user runs it) takes over many stacks, each an emulator on this machine whose
// environments all run a distribution. Issue 31's target: ten stacks of five environments in under 3 s. Two runs,
// their rounds interleaved so that a busy spell of the machine hits both:
//   - platform: the platform's side only (logins, listings, lookups, revocations), no GitHub;
//   - github: the same stacks with the GitHub stand-in (src/emulator/github/), a token and `track: main`, so each
//     environment's evidence (its Deployments, the newest one's status) and its compare with main are read as in a
//     real run. Every environment runs a commit of its own (no compare is shared: the most GitHub calls a fleet of
//     this size makes), recorded by a GitHub Deployment as the action records one, 'behind' main.
// --github-latency-ms puts a delay before each GitHub answer (a proxy in front of the stand-in), for a figure
// nearer to github.com's. Run `npm run build:cli` first when src/ changed.
import { spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { DEFAULT_GITHUB_TOKEN, fakeSha, startGitHubStandIn, type GitHubStandIn } from '../src/emulator/github/server.js'

const { values } = parseArgs({
  options: {
    stacks: { type: 'string', default: '10' },
    environments: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '5' },
    'github-latency-ms': { type: 'string', default: '0' }
  }
})
const stacks = Number(values.stacks)
const environments = Array.from({ length: Number(values.environments) }, (_, i) => `env-${i + 1}`)
const rounds = Number(values.rounds)
const latencyMs = Number(values['github-latency-ms'])
const rowsExpected = stacks * environments.length

/** The commits on main: one per environment of the fleet, then a tip that every environment is behind. */
const commits = Array.from({ length: rowsExpected + 1 }, (_, i) => fakeSha(`bench-${i}`))

/** Stack `s`: each environment runs a distribution of its own commit, named after it and recorded by a GitHub Deployment. */
async function stack(s: number, github: GitHubStandIn): Promise<Emulator> {
  const emu = await startEmulator({ environments, maxEnvironments: environments.length })
  for (const [i, name] of environments.entries()) {
    const sha = commits[s * environments.length + i] ?? ''
    const id = await emu.addDistribution(`site-${sha.slice(0, 7)}-distribution.tar.gz`, { 'version.txt': `${sha}\n` })
    emu.deployAs(name, id, { seconds: 0 })
    const d = github.model.addDeployment({ ref: sha, environment: name, payload: { distributionId: id, apiUrl: emu.url }, creator: 'ci-bot' })
    github.model.addStatus(d.id, { state: 'success', log_url: `https://github.example/acme/site/actions/runs/${d.id}` })
  }
  return emu
}

/** A proxy that holds each request `ms` before passing it to `target`: GitHub's latency over the stand-in's. */
async function delayed(target: string, ms: number): Promise<{ url: string; close: () => Promise<void> }> {
  const to = new URL(target)
  const server = createServer((req, res) => {
    setTimeout(() => {
      const out = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      })
      req.pipe(out)
    }, ms)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())))
  }
}

interface Row {
  evidence: string
  state: string
}

/** One `brcloud status --json` run: its wall-clock time and its rows. */
function timed(config: string, env: Record<string, string>): Promise<{ ms: number; rows: Row[]; code: number | null }> {
  const started = process.hrtime.bigint()
  const child = spawn(process.execPath, ['dist-cli/index.js', 'status', '--config', config, '--json'], { env: { ...process.env, ...env } })
  let out = ''
  child.stdout.on('data', (d: Buffer) => (out += d.toString()))
  return new Promise((resolve) =>
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      resolve({ ms, rows: (JSON.parse(out || '{"environments":[]}') as { environments: Row[] }).environments, code })
    })
  )
}

const seconds = (ms: number): string => (ms / 1000).toFixed(2)

function summary(label: string, times: number[], extra = ''): string {
  const sorted = [...times].sort((a, b) => a - b)
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0
  return `${label}: median ${seconds(median)} s (min ${seconds(sorted[0] ?? 0)}, max ${seconds(sorted.at(-1) ?? 0)})${extra}; target < 3 s: ${median < 3000 ? 'MET' : 'NOT MET'}`
}

const github = await startGitHubStandIn({ owner: 'acme', repo: 'site' })
github.model.linear('main', commits)
const emus: Emulator[] = []
for (let s = 0; s < stacks; s++) emus.push(await stack(s, github))
const proxy = latencyMs > 0 ? await delayed(github.url, latencyMs) : undefined
try {
  const config = join(mkdtempSync(join(tmpdir(), 'brcd-bench-status-')), 'fleet.yml')
  writeFileSync(config, ['track: main', 'stacks:', ...emus.flatMap((e, i) => [`  - name: stack-${i + 1}`, `    api-url: ${e.url}`])].join('\n') + '\n')
  const login = { BRCLOUD_USERNAME: emus[0]?.username ?? '', BRCLOUD_PASSWORD: emus[0]?.password ?? '' }
  const withGitHub = { ...login, BRCLOUD_GITHUB_TOKEN: DEFAULT_GITHUB_TOKEN, BRCLOUD_REPOSITORY: 'acme/site', GITHUB_API_URL: proxy?.url ?? github.url }
  const times = { platform: [] as number[], github: [] as number[] }
  const githubCalls: number[] = []
  for (let r = 0; r < rounds; r++) {
    const platform = await timed(config, login)
    if (platform.code !== 0 || platform.rows.length !== rowsExpected)
      throw new Error(`round ${r + 1}, platform: exit ${platform.code}, ${platform.rows.length} rows (${rowsExpected} expected)`)
    github.calls.length = 0
    const withIt = await timed(config, withGitHub)
    // GitHub was read for every row: each commit from its Deployment, each behind main by its compare.
    const read = withIt.rows.filter((row) => row.evidence === 'deployment' && row.state === 'behind').length
    if (withIt.code !== 0 || withIt.rows.length !== rowsExpected || read !== rowsExpected)
      throw new Error(`round ${r + 1}, github: exit ${withIt.code}, ${withIt.rows.length} rows, ${read} read from GitHub (${rowsExpected} expected)`)
    if (github.calls.some((c) => c.method !== 'GET')) throw new Error(`round ${r + 1}: brcloud status wrote to GitHub`)
    times.platform.push(platform.ms)
    times.github.push(withIt.ms)
    githubCalls.push(github.calls.length)
    console.log(`round ${r + 1}: platform ${seconds(platform.ms)} s; with GitHub ${seconds(withIt.ms)} s, ${github.calls.length} GitHub calls`)
  }
  const byRoute = new Map<string, number>()
  for (const c of github.calls) byRoute.set(c.route, (byRoute.get(c.route) ?? 0) + 1)
  const size = `${stacks} stacks x ${environments.length} environments`
  console.log(summary(`brcloud status, ${size}, the platform only`, times.platform))
  console.log(
    summary(
      `brcloud status, ${size}, with GitHub${latencyMs > 0 ? ` (+${latencyMs} ms a call)` : ''}`,
      times.github,
      `, ${[...new Set(githubCalls)].join('/')} GitHub calls a run (${[...byRoute].map(([route, n]) => `${n} ${route}`).join(', ')})`
    )
  )
} finally {
  await proxy?.close()
  await Promise.all([...emus.map((e) => e.close()), github.close()])
}
