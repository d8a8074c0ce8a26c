// End to end: `brcloud status` as the bundle (dist-cli/) runs it, a child process against two emulators as two stacks
// and the GitHub stand-in over real HTTP: the JSON and the summary, --fail-on, a stack that cannot be read (fails
// closed), a bad file refused before any request, and no secret printed nor any call that changes a stack.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Emulator } from '../src/emulator/server.js'
import { DEFAULT_GITHUB_TOKEN, type GitHubStandIn } from '../src/emulator/github/server.js'
import { secretsOf } from './e2e-support.js'
import { startFleet, type Fleet } from './status-fleet.js'

const BUNDLE = fileURLToPath(new URL('../dist-cli/index.js', import.meta.url))

interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

/** `cancelWhen`: SIGINT once it holds (checked every 20 ms), as Ctrl-C would. */
function status(args: string[], env: Record<string, string>, cancelWhen?: () => boolean): Promise<CliRun> {
  // E2E_NODE (CI: Node 24) runs the bundle as it runs the other end-to-end suites.
  const child = spawn(process.env.E2E_NODE ?? process.execPath, [BUNDLE, 'status', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), TMPDIR: tmpdir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
  const poll =
    cancelWhen &&
    setInterval(() => {
      if (!cancelWhen()) return
      clearInterval(poll)
      child.kill('SIGINT')
    }, 20)
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer)
      clearInterval(poll)
      resolve({ code, stdout, stderr })
    })
  )
}

let eu: Emulator
let us: Emulator
let github: GitHubStandIn
const folder = mkdtempSync(join(tmpdir(), 'brcd-status-'))
let downUrl: string

let fleet: Fleet | undefined
beforeAll(async () => {
  fleet = await startFleet()
  ;({ eu, us, github, downUrl } = fleet)
}, 60_000)

afterAll(async () => {
  await fleet?.close()
})

function config(name: string, down = false): string {
  const file = join(folder, name)
  writeFileSync(
    file,
    [
      'track: main',
      'stacks:',
      `  - name: eu\n    api-url: ${eu.url}`,
      `  - name: us\n    api-url: ${us.url}\n    login:\n      username-variable: US_USER\n      password-variable: US_PASS`,
      ...(down ? [`  - name: down\n    api-url: ${downUrl}`] : []),
      ''
    ].join('\n')
  )
  return file
}

const ENV = (): Record<string, string> => ({
  BRCLOUD_USERNAME: eu.username,
  BRCLOUD_PASSWORD: eu.password,
  US_USER: us.username,
  US_PASS: us.password,
  BRCLOUD_GITHUB_TOKEN: DEFAULT_GITHUB_TOKEN,
  BRCLOUD_REPOSITORY: 'acme/site',
  GITHUB_API_URL: github.url,
  GITHUB_SERVER_URL: 'https://github.example'
})

function expectQuiet(...runs: CliRun[]): void {
  for (const emu of [eu, us]) {
    expect(emu.requests.filter((r) => ['upload', 'delete-distribution', 'deploy', 'logout'].includes(r.operation))).toEqual([])
    for (const r of runs) for (const s of [...secretsOf(emu), DEFAULT_GITHUB_TOKEN]) expect(r.stdout + r.stderr).not.toContain(s)
  }
  expect(github.calls.filter((c) => c.method !== 'GET')).toEqual([])
}

test('the JSON on stdout, the summary in its file; drift alone exits 0, --fail-on behind,outside exits 8', async () => {
  const summary = join(folder, 'summary.md')
  const file = config('fleet.yml')
  const r = await status(['--config', file, '--json', '--summary', summary, '--repository', 'acme/site'], ENV())
  expect(r.stderr).toBe('')
  expect(r.code).toBe(0)
  const json = JSON.parse(r.stdout) as { environments: Array<Record<string, unknown>> }
  expect(json.environments.map((e) => [e.stack, e.environment, e.state, e.evidence])).toEqual([
    ['eu', 'production', 'in-sync', 'deployment'],
    ['eu', 'acceptance', 'behind', 'name'],
    ['us', 'production', 'outside', 'unknown']
  ])
  expect(readFileSync(summary, 'utf8')).toMatch(/^## What runs where\n\nRepository: acme\/site\n\n\| Stack \| Environment \| State/)
  const failing = await status(['--config', file, '--repository', 'acme/site', '--fail-on', 'behind,outside'], ENV())
  expect(failing.code).toBe(8)
  expect(failing.stdout).toMatch(/^STACK\s+ENVIRONMENT\s+STATE/)
  expect(failing.stderr).toBe('error: --fail-on behind,outside: eu/acceptance is behind; us/production is outside.\n')
  // Each run logged in to each stack once and revoked its refresh token.
  for (const emu of [eu, us]) expect(emu.requests.filter((q) => q.operation === 'revoke-refresh')).toHaveLength(2)
  expectQuiet(r, failing)
})

test('a stack that cannot be read: exit 1, its row unknown with the reason, the others read', async () => {
  const r = await status(['--config', config('down.yml', true), '--json', '--repository', 'acme/site'], ENV())
  expect(r.code).toBe(1)
  const json = JSON.parse(r.stdout) as { environments: Array<Record<string, unknown>> }
  expect(json.environments.find((e) => e.stack === 'down')).toMatchObject({
    environment: null,
    state: 'unknown',
    reason: expect.stringMatching(/could not be read/)
  })
  expect(json.environments.find((e) => e.stack === 'eu')?.state).toBe('in-sync')
  expect(r.stderr).toMatch(/^error: The report is not complete: stack down could not be read/m)
  expectQuiet(r)
})

test('a track GitHub does not know (a typo) fails closed: exit 1, the ref and where it was written named; a flag, a variable, the file', async () => {
  const unknownRef = (where: string): string =>
    `track 'mian' (${where}) is no branch, tag or commit that GitHub knows in acme/site: correct it (a misspelt name?), or push it`
  const env = { ...ENV(), BRCLOUD_USERNAME: eu.username, BRCLOUD_PASSWORD: eu.password }
  const flag = await status(['--api-url', eu.url, '--environments', 'production', '--track', 'mian', '--json'], env)
  expect(flag.code).toBe(1)
  expect(flag.stderr).toBe(`error: The report is not complete: ${unknownRef('--track')} (its rows read unknown).\n`)
  expect(JSON.parse(flag.stdout)).toMatchObject({
    environments: [{ environment: 'production', state: 'unknown', reason: unknownRef('--track') }],
    github: { errors: [unknownRef('--track')] }
  })
  const variable = await status(['--api-url', eu.url, '--environments', 'production'], { ...env, BRCLOUD_TRACK: 'mian' })
  expect({ code: variable.code, stderr: variable.stderr }).toEqual({
    code: 1,
    stderr: `error: The report is not complete: ${unknownRef('BRCLOUD_TRACK')} (its rows read unknown).\n`
  })
  const file = join(folder, 'typo.yml')
  writeFileSync(file, `track: mian\nstacks:\n  - name: eu\n    api-url: ${eu.url}\n    environments: [production]\n`)
  const fromFile = await status(['--config', file], ENV())
  expect(fromFile.code).toBe(1)
  expect(fromFile.stdout).toContain(`\nNot read:\n  ${unknownRef(`${file}: track`)}\n`)
  expectQuiet(flag, variable, fromFile)
})

test('refused before any request, exit 2: a bad file, a login not set, a secret as a flag', async () => {
  const before = eu.requests.length + us.requests.length
  const bad = join(folder, 'bad.yml')
  writeFileSync(bad, `stacks:\n  - name: eu\n    api-url: ${eu.url}\n    password: hunter2\n`)
  const file = await status(['--config', bad], ENV())
  expect(file.code).toBe(2)
  expect(file.stderr).toMatch(/^error: .*bad\.yml: stacks\[0\] \(eu\) has an unknown key 'password'/)
  // A credential where a variable's name belongs: refused without repeating it.
  const written = join(folder, 'written.yml')
  writeFileSync(
    written,
    `stacks:\n  - name: eu\n    api-url: ${eu.url}\n    login:\n      username-variable: EU_USER\n      password-variable: hunter2secret\n`
  )
  const leaked = await status(['--config', written], { ...ENV(), EU_USER: 'u' })
  expect(leaked.code).toBe(2)
  expect(leaked.stderr).toMatch(/^error: Stack 'eu': its login's password-variable names a variable that is not set or empty\. The name is not repeated here/)
  expect(leaked.stdout + leaked.stderr).not.toContain('hunter2secret')
  const login = await status(['--config', config('nologin.yml')], { ...ENV(), US_PASS: '' })
  expect(login.code).toBe(2)
  expect(login.stderr).toMatch(/Stack 'us': its login's password-variable names US_PASS, which is not set or empty/)
  const flag = await status(['--config', config('flag.yml'), '--github-token', 'ghs_x'], ENV())
  expect(flag.code).toBe(2)
  expect(flag.stderr).toMatch(/--github-token \(set BRCLOUD_GITHUB_TOKEN, or --github-token-file FILE\)/)
  const both = await status(['--config', config('both.yml'), '--stack', 'eu'], ENV())
  expect(both.code).toBe(2)
  expect(both.stderr).toBe(
    'error: --config and --stack are both set: a configuration file names its stacks and their logins itself; the single-stack inputs are for a report without a file. Use one or the other (docs/status.md).\n'
  )
  const neither = await status([], ENV())
  expect(neither.code).toBe(2)
  expect(neither.stderr).toMatch(/^error: Nothing to report on: set --config to the YAML file/)
  const help = await status(['--help'], {})
  expect(help).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: brcloud status --config FILE/) })
  expect(eu.requests.length + us.requests.length).toBe(before)
})

test('a single stack by flags, its login from BRCLOUD_USERNAME and the password from a file (never a flag)', async () => {
  const passwordFile = join(folder, 'password')
  writeFileSync(passwordFile, `${us.password}\n`)
  const env = { ...ENV(), BRCLOUD_USERNAME: us.username, BRCLOUD_PASSWORD: '', BRCLOUD_PASSWORD_FILE: passwordFile }
  const r = await status(['--api-url', us.url, '--track', 'main', '--json', '--repository', 'acme/site'], env)
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
  const json = JSON.parse(r.stdout) as { environments: Array<Record<string, unknown>> }
  expect(json.environments.map((e) => [e.stack, e.environment, e.state, e.track])).toEqual([[new URL(us.url).host, 'production', 'outside', 'main']])
  expect(us.requests.filter((q) => q.operation === 'login').at(-1)?.status).toBe(200)
  expectQuiet(r)
})

test('a single stack with a health probe (--health-url with {environment}): --fail-on unhealthy exits 8, the table says why', async () => {
  const env = { ...ENV(), BRCLOUD_USERNAME: eu.username, BRCLOUD_PASSWORD: eu.password }
  const r = await status(
    [
      '--api-url',
      eu.url,
      '--stack',
      'eu',
      '--track',
      'main',
      '--health-url',
      `${eu.url}/sites/{environment}/index.html`,
      '--health-expect',
      'e',
      '--fail-on',
      'unhealthy'
    ],
    env
  )
  expect(r.code).toBe(8)
  expect(r.stdout).toMatch(/^eu\s+production\s+in-sync\s+ok\s+main/m)
  expect(r.stdout).toMatch(/^eu\s+acceptance\s+behind 1\s+failing\s+main/m)
  expect(r.stdout).toMatch(/^ {2}eu\/acceptance: health: The health check of http:\/\/127\.0\.0\.1:\d+\/sites\/acceptance\/index\.html did not pass/m)
  expect(r.stderr).toBe('error: --fail-on unhealthy: eu/acceptance is unhealthy.\n')
  expectQuiet(r)
})

test('a single stack with --deploy-freeze and its backups: the freeze in force and each newest backup in the JSON and the table', async () => {
  const minute = (ms: number): string => new Date(ms).toISOString().slice(0, 16)
  const now = Date.now()
  const window = `${minute(now - 3_600_000)} .. ${minute(now + 3_600_000)} UTC`
  eu.setBackups('production', [30, 5])
  eu.setBackups('acceptance', [])
  try {
    const env = { ...ENV(), BRCLOUD_USERNAME: eu.username, BRCLOUD_PASSWORD: eu.password }
    const args = [
      '--api-url',
      eu.url,
      '--stack',
      'eu',
      '--track',
      'main',
      '--environments',
      'production,acceptance',
      '--deploy-freeze',
      `# release week\n${window}`
    ]
    const r = await status([...args, '--json'], env)
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
    const json = JSON.parse(r.stdout) as { environments: Array<{ freeze: Record<string, unknown> | null; backup: Record<string, unknown> }> }
    const [production, acceptance] = json.environments
    expect(production?.freeze).toMatchObject({ window, line: 2, timeZone: 'UTC', endsAt: `${minute(now + 3_600_000)}:00.000Z` })
    expect(production?.backup).toMatchObject({ state: 'found', reason: null })
    expect(production?.backup.ageHours).toBeGreaterThanOrEqual(5)
    expect(production?.backup.ageHours).toBeLessThan(5.1)
    expect(acceptance?.backup).toEqual({ state: 'none', id: null, createdAt: null, ageHours: null, reason: null })
    const table = await status(args, env)
    expect(table.stdout).toMatch(
      new RegExp(`^eu\\s+production\\s+in-sync\\s+-\\s+main\\s.*until ${minute(now + 3_600_000)}Z\\s+\\S+ \\(5(\\.\\d)?h old\\)$`, 'm')
    )
    expect(table.stdout).toMatch(/^eu\s+acceptance\s+behind 1\s.*\snone$/m)
    expect(table.stdout).toContain(`  eu/production: frozen: '${window}' (line 2) until `)
    // With a file, BRCLOUD_DEPLOY_FREEZE (the deploy's windows) is not the report's: the file says; the flag is refused.
    const file = config('freeze.yml')
    const withFile = await status(['--config', file, '--json', '--repository', 'acme/site'], { ...ENV(), BRCLOUD_DEPLOY_FREEZE: window })
    expect(withFile.code).toBe(0)
    expect((JSON.parse(withFile.stdout) as { environments: Array<{ freeze: unknown }> }).environments.map((e) => e.freeze)).toEqual([null, null, null])
    const both = await status(['--config', file, '--deploy-freeze', window], ENV())
    expect(both.code).toBe(2)
    expect(both.stderr).toMatch(/^error: --config and --deploy-freeze are both set/)
    expectQuiet(r, table, withFile, both)
  } finally {
    eu.setBackups('production', [0])
    eu.setBackups('acceptance', [0])
  }
})

test('Ctrl-C while a stack is read: exit 130, nothing reported, and the refresh token of that stack revoked before the end', async () => {
  let release: () => void = () => undefined
  eu.holdRequests('list-environments', new Promise<void>((done) => (release = done)))
  const before = eu.requests.length
  try {
    const r = await status(['--config', config('cancel.yml'), '--parallel', '1', '--repository', 'acme/site'], ENV(), () =>
      eu.requests.slice(before).some((q) => q.operation === 'list-environments')
    )
    expect(r.code).toBe(130)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe(
      "error: The status report was cancelled (SIGINT): nothing was reported. Each stack's refresh token was revoked, or a warning says why not.\n"
    )
    expect(eu.requests.slice(before).map((q) => `${q.operation} ${q.status}`)).toEqual(['login 200', 'list-environments 0', 'revoke-refresh 200'])
    expectQuiet(r)
  } finally {
    release()
  }
})

// Last: the only test that writes to GitHub (its issues), which the others assert never happens.
test('--drift-issues: one issue per drifted environment in the repository, none opened twice; without a token exit 2', async () => {
  const file = config('drift.yml')
  const noToken = await status(['--config', file, '--drift-issues'], { ...ENV(), BRCLOUD_GITHUB_TOKEN: '' })
  expect(noToken).toMatchObject({
    code: 2,
    stderr:
      'error: --drift-issues needs a GitHub token with issues: write: BRCLOUD_GITHUB_TOKEN or --github-token-file (or, for code on GitLab, BRCLOUD_GITLAB_TOKEN with scope api).\n'
  })
  const first = await status(['--config', file, '--drift-issues', '--json'], ENV())
  expect(first.code).toBe(0)
  expect(first.stderr).toMatch(/^Drift issues: 2 opened, 0 updated, 0 closed\.$/m)
  expect(JSON.parse(first.stdout)).toMatchObject({ environments: expect.any(Array) })
  const again = await status(['--config', file, '--drift-issues'], ENV())
  expect(again.code).toBe(0)
  expect(github.model.issues.map((i) => [i.title, i.state])).toEqual([
    ['Drift: eu/acceptance is behind (main)', 'open'],
    ['Drift: us/production is outside', 'open']
  ])
  expect(github.calls.filter((c) => c.method !== 'GET').map((c) => c.route)).toEqual(['create-label', 'create-issue', 'create-issue'])
  for (const r of [noToken, first, again])
    for (const s of [...secretsOf(eu), ...secretsOf(us), DEFAULT_GITHUB_TOKEN]) expect(r.stdout + r.stderr).not.toContain(s)
})
