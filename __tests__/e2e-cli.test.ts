// End to end: the package as a user gets it. `npm pack` once, `npm install <tarball>` into a temporary folder,
// then the installed `brcloud` (dist-cli/, the committed bundle) as a child process against the emulator over
// real HTTP. The child is spawned asynchronously: the emulator answers from this process.
import { execFile, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { DEFAULT_GITHUB_TOKEN, fakeSha, startGitHubStandIn } from '../src/emulator/github/server.js'
import type { EmulatorOptions } from '../src/emulator/types.js'
import { OUTPUT_NAMES } from '../src/action-metadata.js'
import { eventId } from '../src/events/cdevents.js'
import type { ObservedRun } from '../src/events/observed.js'
import { ops, release, secretsOf } from './e2e-support.js'
import { startEventsStandIn } from './cdevents-standin.js'
import { SECRETS, SinkStandIns } from './sink-stand-ins.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const run = promisify(execFile)

/** The installed command: <folder>/node_modules/.bin/brcloud. */
let brcloud: string

beforeAll(async () => {
  const folder = mkdtempSync(join(tmpdir(), 'brcd-cli-'))
  const { stdout } = await run('npm', ['pack', '--pack-destination', folder, '--silent'], { cwd: ROOT })
  const tarball = join(folder, stdout.trim().split('\n').pop() ?? '')
  // The bundle carries its dependencies: the package has none to fetch.
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', folder, tarball], { cwd: folder })
  brcloud = join(folder, 'node_modules', '.bin', 'brcloud')
}, 120_000)

interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `brcloud args` in the environment given (and PATH, HOME); `onStderr` sees the log so far as it grows. */
function cli(args: string[], env: Record<string, string> = {}, onStderr?: (sofar: string, child: ReturnType<typeof spawn>) => void): Promise<CliRun> {
  // E2E_NODE (CI: Node 24) runs the command as its shebang would find it, first on PATH.
  const path = [process.env.E2E_NODE ? dirname(process.env.E2E_NODE) : dirname(process.execPath), process.env.PATH ?? ''].join(delimiter)
  const child = spawn(brcloud, args, { env: { PATH: path, HOME: process.env.HOME ?? tmpdir(), TMPDIR: tmpdir(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString()
    onStderr?.(stderr, child)
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  )
}

let emu: Emulator | undefined
const runs: CliRun[] = []
afterEach(async () => {
  if (!emu) return
  try {
    // No secret in anything the command printed: the password, every token the emulator issued or saw.
    const secrets = secretsOf(emu)
    for (const r of runs) for (const s of secrets) expect(r.stdout + r.stderr).not.toContain(s)
  } finally {
    runs.length = 0
    await emu.close()
    emu = undefined
  }
})

async function emulator(options: EmulatorOptions = {}): Promise<Emulator> {
  emu = await startEmulator(options)
  return emu
}

/** A deploy's flags and its password, as a CI job gives them: the password only in the environment. */
function deploy(e: Emulator, flags: string[], env: Record<string, string> = {}, onStderr?: Parameters<typeof cli>[2]): Promise<CliRun> {
  const args = ['deploy', '--api-url', e.url, '--username', e.username, '--environment', 'production', ...flags]
  return cli(args, { BRCLOUD_PASSWORD: e.password, ...env }, onStderr).then((r) => (runs.push(r), r))
}

test('brcloud emulator --help: its usage as brcloud emulator, no npm script of a clone', async () => {
  const help = await cli(['emulator', '--help'])
  expect(help.code).toBe(0)
  expect(help.stdout).toMatch(/^Local emulator of .*\n\nUsage: brcloud emulator \[flags\]\n/)
  expect(help.stdout).toContain('for brcloud deploy (GITHUB_API_URL, BRCLOUD_GITHUB_TOKEN, --repository, --commit)')
  expect(help.stdout).not.toMatch(/npm run|npx|tsx/)
})

test('--version and --help answer without a run', async () => {
  const version = await cli(['--version'])
  expect(version).toMatchObject({ code: 0, stdout: `${(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version}\n` })
  const help = await cli(['deploy', '--help'])
  expect(help.code).toBe(0)
  expect(help.stdout).toContain('--password-file FILE')
  expect(help.stdout).toContain('BRCLOUD_PASSWORD (secret: never a flag)')
})

test('a deploy: exit 0, the outputs as JSON on stdout, the summary in its file, the log on stderr without workflow commands', async () => {
  const e = await emulator()
  const summary = join(mkdtempSync(join(tmpdir(), 'brcd-cli-')), 'summary.md')
  const r = await deploy(e, ['--json', '--summary', summary], { BRCLOUD_DISTRIBUTION: release('v1') })
  expect(r.code).toBe(0)
  const outputs = JSON.parse(r.stdout) as Record<string, string>
  const env = e.environments.find((x) => x.name === 'production')
  expect(outputs).toMatchObject({ 'cloud-api-url': e.url, deployed: 'true', 'distribution-id': env?.distributionId, 'environment-id': env?.id })
  for (const name of Object.keys(outputs)) expect(OUTPUT_NAMES).toContain(name)
  // No health-url, no check: no site address.
  expect(outputs).not.toHaveProperty('site-url')
  expect(readFileSync(summary, 'utf8')).toMatch(/^## Bloomreach Cloud deployment\n\n\*\*✅ Deployed, not verified: 'production' reports/)
  expect(r.stderr).toContain("== Deploy to 'production'")
  expect(r.stderr).not.toMatch(/^::/m)
  expect(ops(e, 'revoke-refresh')).toHaveLength(1)
})

test("a bad input: exit 2, the action's message, and no request", async () => {
  const e = await emulator()
  const r = await deploy(e, ['--distribution', release('v1'), '--max-attempts', 'zero', '--json'])
  expect(r.code).toBe(2)
  expect(r.stderr).toMatch(/^error: .*max-attempts/m)
  expect(JSON.parse(r.stdout)).toEqual({})
  expect(e.requests).toEqual([])
})

test('a secret as a flag is refused before anything runs: exit 2, naming its variable', async () => {
  const e = await emulator()
  const r = await cli(['deploy', '--api-url', e.url, '--username', e.username, '--password', e.password, '--distribution', release('v1')])
  runs.push(r)
  expect(r.code).toBe(2)
  expect(r.stderr).toContain('BRCLOUD_PASSWORD')
  expect(r.stderr).toContain('--password-file')
  expect(r.stdout).toBe('')
  expect(e.requests).toEqual([])
})

// Issue 32: the CLI sends events too, with the action's inputs as BRCLOUD_* variables (the secret ones never flags).
describe('deploy events from brcloud deploy', () => {
  const TOKEN = 'evt-token-cli-7d3e'
  // A GitLab job: the pipeline is the run, the job its attempt (cli/run-context.ts), so the events' ids are known.
  const GITLAB = {
    GITLAB_CI: 'true',
    CI_PIPELINE_ID: '777',
    CI_JOB_ID: '9',
    GITLAB_USER_LOGIN: 'alice',
    CI_JOB_URL: 'https://gitlab.example/acme/site/-/jobs/9'
  }
  const sinks = new SinkStandIns()
  beforeAll(() => sinks.start())
  afterAll(() => sinks.stop())
  afterEach(() => sinks.reset())
  const slackUrl = () => `${sinks.base}/slack${SECRETS.slackPath}`

  test('BRCLOUD_EVENTS_URL and BRCLOUD_SLACK_WEBHOOK_URL: the CDEvents of the run and one Slack message, no secret printed', async () => {
    const e = await emulator({ deployLooks: 1 })
    const stand = await startEventsStandIn()
    try {
      const site = `${e.url}/sites/production/version.txt`
      const r = await deploy(e, ['--distribution', release('v1'), '--health-url', site, '--health-expect', 'v1', '--json'], {
        ...GITLAB,
        BRCLOUD_EVENTS_URL: stand.url,
        BRCLOUD_EVENTS_TOKEN: TOKEN,
        BRCLOUD_SLACK_WEBHOOK_URL: slackUrl()
      })
      expect(r.code).toBe(0)
      expect(JSON.parse(r.stdout)).toMatchObject({ 'release-state': 'verified' })
      expect(r.stderr).toContain('Events: CDEvents told.')
      expect(r.stderr).not.toMatch(/^warning: Events/m)

      // CDEvents: deployed at the switch seen (production ran nothing before), published once verified.
      expect(stand.received.map((x) => x.headers['ce-type'])).toEqual(['dev.cdevents.service.deployed.0.3.0', 'dev.cdevents.service.published.0.3.0'])
      // The ids: from the release attempt's chain (GitLab's pipeline and job, the run's start, the stack, the environment).
      const observed = { chainId: (stand.received[0]?.body?.context as { chainId: string }).chainId } as ObservedRun
      expect(stand.received.map((x) => x.headers['ce-id'])).toEqual([
        eventId(observed, { kind: 'deployed', at: 0, evidence: '' }, 0),
        eventId(observed, { kind: 'published', at: 0, evidence: '' }, 1)
      ])
      for (const x of stand.received) {
        expect(x.headers.authorization).toBe(`Bearer ${TOKEN}`)
        expect(x.headers['ce-source']).toBe(GITLAB.CI_JOB_URL)
        expect(x.headers['ce-subject']).toBe(`${e.url}/production`)
        expect(x.body?.customData).toMatchObject({ runKey: '777-9', actor: 'alice' })
      }

      // Slack: one message, at the webhook's own path, naming the environment.
      const slack = sinks.of('slack')
      expect(slack.map((x) => [x.method, x.url])).toEqual([['POST', `/slack${SECRETS.slackPath}`]])
      const message = slack[0]?.json as { text: string; blocks: unknown[] }
      expect(message.text).toMatch(/^✅ Verified: 'production' runs/)
      expect(JSON.stringify(message.blocks)).toContain(`*Environment*\\n${e.url}/production`)
      // Only Slack was on: no other service was called.
      expect(new Set(sinks.requests.map((x) => x.service))).toEqual(new Set(['slack']))

      for (const secret of [TOKEN, slackUrl(), SECRETS.slackPath, 'slackSecret0123456789']) expect(r.stdout + r.stderr).not.toContain(secret)
    } finally {
      await stand.close()
    }
  })

  test('--slack-webhook-url as a flag: refused before any request, exit 2, naming BRCLOUD_SLACK_WEBHOOK_URL, the address not repeated', async () => {
    const e = await emulator()
    const stand = await startEventsStandIn()
    try {
      const r = await deploy(e, ['--distribution', release('v1'), `--slack-webhook-url=${slackUrl()}`, '--json'], { BRCLOUD_EVENTS_URL: stand.url })
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(/^error: .*--slack-webhook-url \(set BRCLOUD_SLACK_WEBHOOK_URL, or --slack-webhook-url-file FILE\)/m)
      // Reported as any refusal is: --json's {}.
      expect(r.stdout).toBe('{}\n')
      expect(r.stdout + r.stderr).not.toContain(SECRETS.slackPath)
      // Nothing ran: no platform call, no event, no message.
      expect(e.requests).toEqual([])
      expect(stand.received).toEqual([])
      expect(sinks.requests).toEqual([])
    } finally {
      await stand.close()
    }
  })
})

test('the password from a file (--password-file) written on Windows, its final CRLF not part of it', async () => {
  const e = await emulator()
  const file = join(mkdtempSync(join(tmpdir(), 'brcd-cli-')), 'password')
  writeFileSync(file, `${e.password}\r\n`)
  const r = await cli([
    'deploy',
    '--api-url',
    e.url,
    '--username',
    e.username,
    '--password-file',
    file,
    '--environment',
    'production',
    '--distribution',
    release('v1')
  ])
  runs.push(r)
  expect(r.code).toBe(0)
  expect(ops(e, 'login').map((q) => q.json)).toEqual([expect.objectContaining({ password: e.password })])
})

/** Calls of `op` the platform answered 2xx. */
const accepted = (e: Emulator, op: string) => ops(e, op).filter((q) => q.status >= 200 && q.status < 300)

/** Whether the platform still renews with `token`: 401 once it was revoked. */
async function refreshStatus(e: Emulator, token: string): Promise<number> {
  const res = await fetch(`${e.url}/v3/authn/refresh_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: token })
  })
  return res.status
}

/** A promise that never settles: a request held on it is never handled. */
const never = new Promise<never>(() => undefined)

/** A signal to the command the moment its log shows the release being followed (the deploy stays in progress). */
function signalWhileFollowed(signal: NodeJS.Signals): { onStderr: Parameters<typeof cli>[2]; sent: () => boolean } {
  let sent = false
  return {
    onStderr: (sofar, child) => {
      if (sent || !/== Wait until 'production' runs/.test(sofar)) return
      sent = true
      child.kill(signal)
    },
    sent: () => sent
  }
}

test('an older commit than the environment runs (--commit, the GitHub stand-in): refused before any change, exit 3', async () => {
  const e = await emulator({ deployLooks: 1 })
  const gh = await startGitHubStandIn()
  try {
    const c = ['c1', 'c2', 'c3', 'c4', 'c5'].map(fakeSha)
    const [oldest, newest] = [c[0] ?? '', c[4] ?? '']
    gh.model.linear('main', c)
    // GitHub's history answers which commit is newer: a token and the repository, as a Jenkins or GitLab job gives them.
    const github = { GITHUB_API_URL: gh.url, BRCLOUD_GITHUB_TOKEN: DEFAULT_GITHUB_TOKEN, BRCLOUD_REPOSITORY: 'acme/site' }
    const newer = await deploy(e, ['--distribution', release('v5'), '--commit', newest, '--json'], github)
    expect(newer.code).toBe(0)
    const older = await deploy(e, ['--distribution', release('v1'), '--commit', oldest, '--json'], github)
    expect(older.code).toBe(3)
    expect(older.stderr).toMatch(new RegExp(`^error: .*commit ${oldest.slice(0, 7)} is older than ${newest.slice(0, 7)}, which 'production' runs`, 'm'))
    expect(JSON.parse(older.stdout)).toMatchObject({ order: 'behind', 'running-commit': newest })
    // Nothing changed: the newer run's upload and deploy only; GitHub was asked to compare the two commits.
    expect(ops(e, 'upload')).toHaveLength(1)
    expect(ops(e, 'deploy')).toHaveLength(1)
    expect(gh.calls.filter((x) => x.route === 'compare').map((x) => x.path.split('/compare/')[1])).toEqual([`${newest}...${oldest}`])
    for (const r of [newer, older]) expect(r.stdout + r.stderr).not.toContain(DEFAULT_GITHUB_TOKEN)
  } finally {
    await gh.close()
  }
})

test('a github-token without a commit (a terminal, a CI whose commit is not set): refused before any change, exit 2, naming where the commit comes from', async () => {
  const e = await emulator()
  const gh = await startGitHubStandIn()
  try {
    gh.model.linear('main', ['c1', 'c2'].map(fakeSha))
    const github = { GITHUB_API_URL: gh.url, BRCLOUD_GITHUB_TOKEN: DEFAULT_GITHUB_TOKEN, BRCLOUD_REPOSITORY: 'acme/site' }
    const terminal = await deploy(e, ['--distribution', release('v1'), '--json'], github)
    expect(terminal.code).toBe(2)
    expect(terminal.stderr).toMatch(
      /^error: github-token is set, so the run checks the deploy order .* and this run has no commit: give it with --commit SHA or BRCLOUD_COMMIT \(e\.g\. --commit "\$\(git rev-parse HEAD\)"\)\.$/m
    )
    expect(JSON.parse(terminal.stdout)).toEqual({})
    // A CircleCI job whose commit variable is not set: its own variable named.
    const circle = await deploy(e, ['--distribution', release('v1')], { ...github, CIRCLECI: 'true', CIRCLE_BUILD_URL: 'https://circleci.com/gh/acme/site/7' })
    expect(circle.code).toBe(2)
    expect(circle.stderr).toMatch(
      /give it with --commit SHA or BRCLOUD_COMMIT \(CircleCI sets CIRCLE_SHA1 when it builds from a commit; it is not set in this job\)/
    )
    // Nothing asked of the platform or of GitHub: no Deployment with an empty ref.
    expect(e.requests).toEqual([])
    expect(gh.calls).toEqual([])
    expect(gh.model.deployments).toEqual([])
  } finally {
    await gh.close()
  }
})

test("on CircleCI: the commit from CIRCLE_SHA1, checked against the environment's; the GitHub Deployment records it, linking the job", async () => {
  const e = await emulator({ deployLooks: 1 })
  const gh = await startGitHubStandIn()
  try {
    const c = ['c1', 'c2', 'c3'].map(fakeSha)
    const [oldest, newest] = [c[0] ?? '', c[2] ?? '']
    gh.model.linear('main', c)
    const circle = (sha: string, n: number) => ({
      GITHUB_API_URL: gh.url,
      BRCLOUD_GITHUB_TOKEN: DEFAULT_GITHUB_TOKEN,
      BRCLOUD_REPOSITORY: 'acme/site',
      CIRCLECI: 'true',
      CIRCLE_SHA1: sha,
      CIRCLE_BUILD_URL: `https://circleci.com/gh/acme/site/${n}`,
      CIRCLE_WORKFLOW_ID: `wf-${n}`,
      CIRCLE_BUILD_NUM: String(n)
    })
    const newer = await deploy(e, ['--distribution', release('v3'), '--json'], circle(newest, 8))
    expect(newer.code).toBe(0)
    expect(JSON.parse(newer.stdout)['distribution-name']).toMatch(new RegExp(`-${newest.slice(0, 7)}-distribution\\.tar\\.gz$`))
    expect(gh.model.deployments.map((d) => [d.ref, d.sha])).toEqual([[newest, newest]])
    const id = gh.model.deployments[0]?.id ?? 0
    expect(gh.model.statuses(id).map((x) => x.log_url)).toContain('https://circleci.com/gh/acme/site/8')
    // An older commit from the CI's variable: the order refuses it, nothing changed.
    const older = await deploy(e, ['--distribution', release('v1')], circle(oldest, 9))
    expect(older.code).toBe(3)
    expect(ops(e, 'deploy')).toHaveLength(1)
  } finally {
    await gh.close()
  }
})

test("the command line's own refusal under Azure Pipelines, with --json and --dotenv: its issue and the task failed, {} last, the file written", async () => {
  const e = await emulator()
  const file = join(mkdtempSync(join(tmpdir(), 'brcd-cli-')), 'brcloud.env')
  const r = await cli([...['deploy', '--api-url', e.url, '--username', e.username, '--password', e.password], '--json', '--dotenv', file], { TF_BUILD: 'True' })
  runs.push(r)
  expect(r.code).toBe(2)
  const lines = r.stdout.split('\n').filter(Boolean)
  expect(lines).toEqual([
    expect.stringMatching(/^##vso\[task\.logissue type=error\]A secret is refused as a flag/),
    '##vso[task.complete result=Failed;]',
    '{}'
  ])
  expect(readFileSync(file, 'utf8')).toBe('')
  expect(r.stdout + r.stderr).not.toContain(e.password)
  expect(e.requests).toEqual([])
})

test('a mistyped flag: the flag it meant, exit 2, no request', async () => {
  const e = await emulator()
  const r = await cli(['deploy', '--api-url', e.url, '--username', e.username, '--enviroment', 'production', '--distribution', release('v1')], {
    BRCLOUD_PASSWORD: e.password
  })
  runs.push(r)
  expect(r.code).toBe(2)
  expect(r.stderr).toBe('error: unknown flag --enviroment: did you mean --environment? (brcloud deploy --help lists the flags)\n')
  expect(e.requests).toEqual([])
})

test('a freeze window in force: refused by the rule before any request, exit 10, the window and its end said', async () => {
  const e = await emulator()
  const window = `${new Date(Date.now() - 3_600_000).toISOString().slice(0, 16)} .. ${new Date(Date.now() + 3_600_000).toISOString().slice(0, 16)} UTC`
  const r = await deploy(e, ['--distribution', release('v1'), '--deploy-freeze', window, '--json'])
  expect(r.code).toBe(10)
  expect(r.stderr).toMatch(
    new RegExp(
      `^error: Refused: 'production' is in a deploy freeze: '${window.replace(/[.*]/g, '\\$&')}' \\(line 1\\) until .+ \\d\\d:\\d\\d UTC, so nothing was changed\\. Deploy once it ends, or set override-reason`,
      'm'
    )
  )
  expect(e.requests).toEqual([])
  expect(JSON.parse(r.stdout)).not.toHaveProperty('deployed')
})

test('a deploy call that never answers: the outcome is unknown, the release may be live, exit 6', async () => {
  const e = await emulator({ faults: [{ operation: 'deploy', kind: 'hang', times: 1 }] })
  const r = await deploy(e, ['--distribution', release('v1'), '--deploy-timeout-minutes', '0.03', '--rollback', 'false', '--json'])
  expect(r.code).toBe(6)
  expect(JSON.parse(r.stdout)).toMatchObject({ deployed: 'unknown' })
  expect(r.stderr).toMatch(/^Release unconfirmed: the deploy call of \S+ got no usable answer .*: it may have been carried out$/m)
  expect(r.stderr).toMatch(/^error: The deploy call of \S+ got no usable answer .* It was not sent again/m)
  expect(ops(e, 'deploy')).toHaveLength(1)
})

test('a wrong password: the login refused, exit 4, and nothing else asked of the platform', async () => {
  const e = await emulator()
  const wrong = 'not-the-password-1234'
  const r = await deploy(e, ['--distribution', release('v1'), '--json'], { BRCLOUD_PASSWORD: wrong })
  expect(r.code).toBe(4)
  expect(r.stderr).toMatch(/^error: .*(username|password)/m)
  expect(JSON.parse(r.stdout)).not.toHaveProperty('deployed')
  expect(e.requests.map((q) => [q.operation, q.status])).toEqual([['login', 401]])
  expect(ops(e, 'login')[0]?.json).toMatchObject({ username: e.username, password: wrong })
  expect(r.stdout + r.stderr).not.toContain(wrong)
})

test('a failed health check with rollback off: the new release stays live, exit 6', async () => {
  const e = await emulator({ deployLooks: 1 })
  const site = `${e.url}/sites/production/version.txt`
  expect((await deploy(e, ['--distribution', release('v1')])).code).toBe(0)
  const r = await deploy(e, ['--distribution', release('v2', true), '--health-url', site, '--health-timeout-minutes', '0.03', '--rollback', 'false', '--json'])
  expect(r.code).toBe(6)
  const outputs = JSON.parse(r.stdout) as Record<string, string>
  // site-url: the page the check saw answering, also when it answered 500.
  expect(outputs).toMatchObject({ deployed: 'true', 'rolled-back': 'false', 'environment-distribution-id': outputs['distribution-id'], 'site-url': site })
  expect(e.environments.find((x) => x.name === 'production')?.distributionId).toBe(outputs['distribution-id'])
  // Two deploys (v1, then v2), no rollback; the site was checked and answered 500.
  expect(ops(e, 'deploy')).toHaveLength(2)
  expect(ops(e, 'site').some((q) => q.status === 500)).toBe(true)
  expect(r.stderr).toMatch(/^error: /m)
})

test('a search check alone that fails: exit 7, the search service asked, the platform never', async () => {
  const e = await emulator()
  const r = await cli(
    [
      'search-check',
      '--search-query',
      'gift-cards',
      '--search-type',
      'category',
      '--search-account-id',
      e.search.accountId,
      '--search-domain-key',
      e.search.domainKey,
      '--search-base-url',
      e.url,
      '--json'
    ],
    { BRCLOUD_SEARCH_AUTH_KEY: e.search.authKey }
  )
  runs.push(r)
  expect(r.code).toBe(7)
  expect(r.stderr).toMatch(/^error: Search check failed: The search for 'gift-cards' found 0 product\(s\), fewer than search-min-results 1\./m)
  expect(JSON.parse(r.stdout)).toMatchObject({ 'search-num-found': '0' })
  expect(e.requests.map((q) => [q.operation, q.status])).toEqual([['search', 200]])
  expect(r.stdout + r.stderr).not.toContain(e.search.authKey)
})

test('a failed health check, rolled back: exit 5', async () => {
  const e = await emulator({ deployLooks: 1 })
  const site = `${e.url}/sites/production/version.txt`
  expect((await deploy(e, ['--distribution', release('v1')])).code).toBe(0)
  const before = e.environments.find((x) => x.name === 'production')?.distributionId
  const r = await deploy(e, ['--distribution', release('v2', true), '--health-url', site, '--health-timeout-minutes', '0.03', '--rollback', 'true', '--json'])
  expect(r.code).toBe(5)
  expect(JSON.parse(r.stdout)).toMatchObject({ 'rolled-back': 'true', 'environment-distribution-id': before })
  expect(r.stderr).toMatch(/^error: .*Rolled back/m)
})

test('a cancel (SIGINT) while the release is followed: exit 130, the same report, the refresh token revoked', async () => {
  const e = await emulator({ deploySeconds: Infinity })
  let sent = false
  const r = await deploy(e, ['--distribution', release('v1'), '--json'], {}, (sofar, child) => {
    if (sent || !/== Wait until 'production' runs/.test(sofar)) return
    sent = true
    child.kill('SIGINT')
  })
  expect(sent).toBe(true)
  expect(r.code).toBe(130)
  expect(r.stderr).toMatch(/^error: The run was cancelled \(SIGINT\)/m)
  expect(JSON.parse(r.stdout)).toMatchObject({ deployed: 'true' })
  expect(ops(e, 'revoke-refresh').filter((q) => q.status >= 200 && q.status < 300)).toHaveLength(1)
})

test('SIGTERM while the release is followed: exit 143, the same report, the refresh token revoked (DELETE)', async () => {
  const e = await emulator({ deploySeconds: Infinity })
  const term = signalWhileFollowed('SIGTERM')
  const r = await deploy(e, ['--distribution', release('v1'), '--json'], {}, term.onStderr)
  expect(term.sent()).toBe(true)
  expect(r.code).toBe(143)
  expect(r.stderr).toMatch(/^error: The run was cancelled \(SIGTERM\) during "Wait until 'production' runs /m)
  expect(JSON.parse(r.stdout)).toMatchObject({ deployed: 'true', 'rolled-back': 'false' })
  // The refresh token the login gave, revoked with DELETE: the platform no longer renews with it.
  const revoked = accepted(e, 'revoke-refresh')
  expect(revoked.map((q) => q.method)).toEqual(['DELETE'])
  const token = (revoked[0]?.json as { refresh_token: string }).refresh_token
  expect(await refreshStatus(e, token)).toBe(401)
  // No deploy or rollback after the signal: ours alone.
  expect(ops(e, 'deploy')).toHaveLength(1)
})

test('a second Ctrl-C while the closing calls wait: the report at once with what is known, exit 130, the revocation left and said so', async () => {
  const e = await emulator({ deploySeconds: Infinity })
  let child: Parameters<NonNullable<Parameters<typeof cli>[2]>>[1] | undefined
  // The revocation, the last closing call, is never answered; it is sent only after the first SIGINT was handled,
  // so the second cannot merge with it. Without the second, the run would wait out the revocation's limit.
  let second = false
  e.holdRequests('revoke-refresh', never, {
    onHeld: () => {
      second = child?.kill('SIGINT') ?? false
    }
  })
  const r = await deploy(e, ['--distribution', release('v1'), '--json'], {}, (sofar, c) => {
    if (child !== undefined || !/== Wait until 'production' runs/.test(sofar)) return
    child = c
    c.kill('SIGINT')
  })
  expect(second).toBe(true)
  expect(r.code).toBe(130)
  expect(JSON.parse(r.stdout)).toMatchObject({ deployed: 'true', 'rolled-back': 'false' })
  // What is known: the last look, answered before the revocation was sent, is in the report.
  expect(r.stderr).toMatch(/^error: The run was cancelled \(SIGINT\) during "Wait until 'production' runs .* At the end of the run, 'production' reports /m)
  expect(r.stderr).toMatch(/^warning: A second signal: the run reported before its closing calls ended .* the token expires by itself within 24 hours\.$/m)
  // Not waited for: the revocation's own limit never ran out (it would have said "Could not revoke").
  expect(r.stderr).not.toContain('Could not revoke')
  expect(accepted(e, 'revoke-refresh')).toHaveLength(0)
  expect(ops(e, 'deploy')).toHaveLength(1)
})

test("--dotenv: the outputs as BRCLOUD_<OUTPUT>=value lines, GitLab's dotenv report, with the commit from CI_COMMIT_SHA", async () => {
  const e = await emulator()
  const file = join(mkdtempSync(join(tmpdir(), 'brcd-cli-')), 'brcloud.env')
  const sha = 'abcdef1234567890abcdef1234567890abcdef12'
  const r = await deploy(e, ['--dotenv', file, '--json'], { BRCLOUD_DISTRIBUTION: release('v1'), CI_COMMIT_SHA: sha })
  expect(r.code).toBe(0)
  const outputs = JSON.parse(r.stdout) as Record<string, string>
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean)
  expect(lines).toEqual(Object.entries(outputs).map(([name, value]) => `BRCLOUD_${name.toUpperCase().replace(/-/g, '_')}=${value}`))
  expect(lines).toContain(`BRCLOUD_DISTRIBUTION_ID=${e.environments.find((x) => x.name === 'production')?.distributionId}`)
  // The default name of a packed directory carries the commit the CI gave.
  expect(outputs['distribution-name']).toMatch(/-abcdef1-distribution\.tar\.gz$/)
})

test('under Azure Pipelines (TF_BUILD=True): an output variable per output, and a failure as an issue with the task failed', async () => {
  const e = await emulator({ deployLooks: 1 })
  const ok = await deploy(e, [], { BRCLOUD_DISTRIBUTION: release('v1'), TF_BUILD: 'True' })
  expect(ok.code).toBe(0)
  expect(ok.stdout).toMatch(/^##vso\[task\.setvariable variable=BRCLOUD_DEPLOYED;isOutput=true\]true$/m)
  expect(ok.stdout).not.toContain('task.complete')
  const site = `${e.url}/sites/production/version.txt`
  const failed = await deploy(e, ['--distribution', release('v2', true), '--health-url', site, '--health-timeout-minutes', '0.03', '--rollback', 'true'], {
    TF_BUILD: 'True'
  })
  expect(failed.code).toBe(5)
  const lines = failed.stdout.split('\n').filter(Boolean)
  expect(lines).toContain('##vso[task.setvariable variable=BRCLOUD_ROLLED_BACK;isOutput=true]true')
  expect(lines.slice(-2)[0]).toMatch(/^##vso\[task\.logissue type=error\].*Rolled back/)
  expect(lines.slice(-1)[0]).toBe('##vso[task.complete result=Failed;]')
  expect(lines.every((l) => l.startsWith('##vso['))).toBe(true)
})

test('a cancel under Azure Pipelines: exit 130, the output variables, then the cancel as an error issue and the task failed', async () => {
  const e = await emulator({ deploySeconds: Infinity })
  const int = signalWhileFollowed('SIGINT')
  const r = await deploy(e, ['--distribution', release('v1')], { TF_BUILD: 'True' }, int.onStderr)
  expect(int.sent()).toBe(true)
  expect(r.code).toBe(130)
  const lines = r.stdout.split('\n').filter(Boolean)
  expect(lines.every((l) => l.startsWith('##vso['))).toBe(true)
  expect(lines).toContain('##vso[task.setvariable variable=BRCLOUD_DEPLOYED;isOutput=true]true')
  expect(lines).toContain(`##vso[task.setvariable variable=BRCLOUD_CLOUD_API_URL;isOutput=true]${e.url}`)
  expect(lines.filter((l) => l.startsWith('##vso[task.setvariable '))).toHaveLength(lines.length - 2)
  expect(lines.at(-2)).toMatch(/^##vso\[task\.logissue type=error\]The run was cancelled \(SIGINT\) during "Wait until 'production' runs [^%]*$/)
  expect(lines.at(-1)).toBe('##vso[task.complete result=Failed;]')
  // The failure is the issue, not an error: line as well.
  expect(r.stderr).not.toMatch(/^error:/m)
  expect(accepted(e, 'revoke-refresh')).toHaveLength(1)
})

test("in a GitHub Actions run: step: the outputs and the summary in the runner's files, as the action writes them", async () => {
  const e = await emulator()
  const dir = mkdtempSync(join(tmpdir(), 'brcd-cli-'))
  const runner = { GITHUB_ACTIONS: 'true', GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STEP_SUMMARY: join(dir, 'summary') }
  for (const file of [runner.GITHUB_OUTPUT, runner.GITHUB_STEP_SUMMARY]) writeFileSync(file, '')
  const r = await deploy(e, [], { BRCLOUD_DISTRIBUTION: release('v1'), ...runner })
  expect(r.code).toBe(0)
  expect(r.stdout).toBe('')
  expect(readFileSync(runner.GITHUB_OUTPUT, 'utf8')).toMatch(/^deployed<<ghadelimiter_[0-9a-f-]+\ntrue\nghadelimiter_/m)
  expect(readFileSync(runner.GITHUB_STEP_SUMMARY, 'utf8')).toMatch(/^## Bloomreach Cloud deployment/)
})

test('brcloud emulator: the local emulator from the package alone; a deploy against it as a user would, then Ctrl-C ends it', async () => {
  const path = [process.env.E2E_NODE ? dirname(process.env.E2E_NODE) : dirname(process.execPath), process.env.PATH ?? ''].join(delimiter)
  const child = spawn(brcloud, ['emulator', '--port', '0', '--deploy-seconds', '0.2'], { env: { PATH: path, HOME: process.env.HOME ?? tmpdir() } })
  let banner = ''
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      banner += d.toString()
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1]
      if (found) resolve(found)
    })
    child.on('close', () => reject(new Error(`the emulator ended before it listened:\n${banner}`)))
  })
  const ended = new Promise<number | null>((resolve) => child.on('close', resolve))
  // The banner names the command the package has, with this emulator's address and login: no npm script of a clone.
  await new Promise<void>((resolve) =>
    banner.includes('Press Ctrl+C') ? resolve() : child.stdout.on('data', () => banner.includes('Press Ctrl+C') && resolve())
  )
  expect(banner).toContain(`  brcloud deploy --api-url ${url} --username deployer --environment development --distribution PATH`)
  expect(banner).toContain('  export BRCLOUD_PASSWORD=emulator-password')
  expect(banner).not.toMatch(/npm run|npx|tsx|password=/)
  try {
    const r = await cli(['deploy', '--api-url', url, '--username', 'deployer', '--environment', 'development', '--json'], {
      BRCLOUD_PASSWORD: 'emulator-password',
      BRCLOUD_DISTRIBUTION: release('v1')
    })
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ deployed: 'true', 'environment-distribution-id': expect.any(String) })
  } finally {
    child.kill('SIGINT')
  }
  expect(await ended).toBe(0)
})
