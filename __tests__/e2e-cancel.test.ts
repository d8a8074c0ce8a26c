// A cancel, as a runner sends it, against the bundled action over real HTTP: SIGINT, SIGTERM 7.5 s later,
// the kill 2.5 s after that. The step must end within 10 s, say where it stopped (outputs, summary),
// and leave no refresh token valid; then the post step, run with the state the main step saved, finishes
// only what was left (after a hard kill: the revocation and a word in the summary).
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { DEFAULT_GITHUB_TOKEN, startGitHubStandIn, type GitHubStandIn } from '../src/emulator/github/server.js'
import type { EmulatorOptions } from '../src/emulator/types.js'
import type { CancelPlan } from '../scripts/lib/run-action.js'
import { ops, release, run, runPost, sweepAndClose } from './e2e-support.js'

const GITHUB_TOKEN = DEFAULT_GITHUB_TOKEN

let emu: Emulator | undefined
afterEach(async () => {
  if (emu) await sweepAndClose(emu, [GITHUB_TOKEN])
  emu = undefined
})

/** The GitHub API stand-in, knowing the run's commit. */
async function githubStandIn(): Promise<GitHubStandIn> {
  const gh = await startGitHubStandIn()
  gh.model.linear('main', ['0123456789abcdef0123456789abcdef01234567'])
  return gh
}

async function emulator(options: EmulatorOptions): Promise<Emulator> {
  emu = await startEmulator(options)
  return emu
}

const base = (e: Emulator, over: Record<string, string> = {}) => ({
  'api-url': e.url,
  username: e.username,
  password: e.password,
  environment: 'production',
  ...over
})

/** Calls of `op` the platform answered 2xx. */
const accepted = (e: Emulator, op: Parameters<typeof ops>[1]) => ops(e, op).filter((r) => r.status >= 200 && r.status < 300)

/** The refresh tokens the action revoked, each as it sent it. */
const revokedTokens = (e: Emulator) => accepted(e, 'revoke-refresh').map((r) => (r.json as { refresh_token: string }).refresh_token)

/** Whether the platform still renews with `token`. */
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

/** A cancel the moment `when` holds. */
const cancelWhen = (when: () => boolean): CancelPlan => ({ when: () => when() })

/** What every cancelled run must show: ended in time, failed as cancelled, reported, and no token left valid. */
async function expectCleanCancel(e: Emulator, r: Awaited<ReturnType<typeof run>>, during: string): Promise<void> {
  expect(r.exitAfterSigintMs).toBeDefined()
  expect(r.exitAfterSigintMs ?? Infinity).toBeLessThan(10_000)
  expect(r.code).toBe(1)
  expect(r.errors[0]).toMatch(new RegExp(`The run was cancelled \\(SIGINT\\) during "${during}`))
  expect(r.summary).toMatch(/^\*\*.+\*\*$/m)
  const tokens = revokedTokens(e)
  expect(tokens).toHaveLength(1)
  expect(await refreshStatus(e, tokens[0] as string)).toBe(401)
}

/** The post step after a main step that reported and revoked: nothing left, nothing done, nothing written. */
async function expectQuietPost(e: Emulator, inputs: Record<string, string>, main: { stateFile: string }): Promise<void> {
  const before = e.requests.length
  const post = await runPost(inputs, main)
  expect(post.code).toBe(0)
  expect(post.errors).toEqual([])
  expect(post.visible).not.toMatch(/::warning::/)
  expect(post.summary).toBe('')
  expect(e.requests.slice(before)).toEqual([])
}

describe('a cancel (SIGINT, SIGTERM 7.5 s later)', () => {
  test('during the upload: the upload stops, nothing is deployed, the token is revoked', async () => {
    const e = await emulator({ uploadBytesPerSecond: 40_000 })
    // The platform never handles the upload: the cancel comes during it, however fast it would have been read.
    e.holdRequests('upload', never)
    const inputs = base(e, { distribution: release('v1') })
    const r = await run(inputs, { cancel: cancelWhen(() => ops(e, 'upload').length > 0) })
    await expectCleanCancel(e, r, 'Upload the distribution')
    expect(accepted(e, 'upload')).toHaveLength(0)
    expect(ops(e, 'deploy')).toHaveLength(0)
    expect(r.outputs['deployed']).toBeUndefined()
    expect(r.outputs['release-state']).toBeUndefined()
    expect(r.outputs['cloud-api-url']).toBe(e.url)
    await expectQuietPost(e, inputs, r)
  })

  test('while following the deploy: the deploy was requested, and the outputs say so', async () => {
    // A deploy that stays in progress for as long as the test lasts.
    const e = await emulator({ deploySeconds: Infinity })
    const inputs = base(e, { distribution: release('v1') })
    const r = await run(inputs, { cancel: { when: (stdout) => stdout.includes('Release in-progress:') } })
    await expectCleanCancel(e, r, "Wait until 'production' runs")
    expect(accepted(e, 'deploy')).toHaveLength(1)
    expect(r.outputs).toMatchObject({ deployed: 'true', 'release-state': 'in-progress' })
    // Not seen applied: the platform was not asked to stop, so the deploy may still land after the step ended.
    expect(r.errors[0]).toMatch(
      /was requested \(last state: in-progress\) and not seen applied: the platform may still switch 'production' to it after this step ended/
    )
    await expectQuietPost(e, inputs, r)
  })

  test('during a rollback: the rollback was requested, never a third deploy', async () => {
    const e = await emulator({ deployLooks: 1 })
    const good = await e.addDistribution('good.tar.gz', { 'version.txt': 'v1\n' })
    e.deployAs('production', good, { seconds: 0 })
    const bad = await e.addDistribution('bad.tar.gz', { 'version.txt': 'v2\n', 'EMULATOR-SITE-FAILS': 'x' })
    // Our deploy is seen in progress, then lands; the rollback stays in progress, so it is cancelled while it is followed.
    e.onRequest('deploy', () => e.setDeploySeconds(Infinity))
    const inputs = base(e, {
      'distribution-id': bad,
      'health-url': `${e.url}/sites/production/version.txt`,
      'health-timeout-minutes': '0.05',
      rollback: 'true'
    })
    const r = await run(inputs, { cancel: cancelWhen(() => accepted(e, 'deploy').length >= 2) })
    await expectCleanCancel(e, r, "Roll back 'production' to")
    expect(ops(e, 'deploy')).toHaveLength(2)
    expect(r.errors[0]).toContain(`A rollback to ${good} was requested; the run was stopped (Cancelled) before the switch back was seen.`)
    // A cancel is no verdict on the rollback: it was requested and not yet seen applied (the platform still applies it).
    expect(r.outputs).toMatchObject({ deployed: 'true', 'rolled-back': 'unknown', 'release-state': 'rollback-requested' })
    await expectQuietPost(e, inputs, r)
  })
  test('with the platform hanging at the end: the step still ends in time, and the post step revokes the token it could not', async () => {
    const e = await emulator({ deploySeconds: Infinity })
    const inputs = base(e, { distribution: release('v1') })
    const hangAtTheEnd = (stdout: string): boolean => {
      if (!stdout.includes('Release in-progress:')) return false
      // From the SIGINT on, the last look and the revocation get no answer.
      e.addFault({ operation: 'list-environments', kind: 'hang', times: 5 })
      e.addFault({ operation: 'revoke-refresh', kind: 'hang', times: 1 })
      return true
    }
    const r = await run(inputs, { cancel: { when: hangAtTheEnd } })
    expect(r.exitAfterSigintMs ?? Infinity).toBeLessThan(10_000)
    expect(r.code).toBe(1)
    expect(r.visible).toMatch(/::warning::Could not revoke this run's refresh token \(.*\); it expires by itself within 24 hours/)
    expect(r.summary).toMatch(/^\*\*.+\*\*$/m)
    expect(r.outputs).toMatchObject({ deployed: 'true', 'release-state': 'in-progress' })
    expect(revokedTokens(e)).toHaveLength(0)
    const post = await runPost(inputs, r)
    expect(post.code).toBe(0)
    expect(post.visible).toContain("Revoked the main step's refresh token, which it had left valid.")
    // The main step reported: the post step adds nothing to the summary.
    expect(post.summary).toBe('')
    const tokens = revokedTokens(e)
    expect(tokens).toHaveLength(1)
    expect(await refreshStatus(e, tokens[0] as string)).toBe(401)
  })
})

describe('a main step killed hard', () => {
  test('right after the login: the post step revokes the token and says what it did in the summary', async () => {
    const e = await emulator({ uploadBytesPerSecond: 40_000 })
    // Held like that, the upload never ends: nothing is deployed, however late the kill comes.
    e.holdRequests('upload', never)
    const inputs = base(e, { distribution: release('v1') })
    const main = await run(inputs, { cancel: { when: (stdout) => stdout.includes('Logged in as'), signal: 'SIGKILL' } })
    expect(main.signal).toBe('SIGKILL')
    expect(main.summary).toBe('')
    expect(ops(e, 'revoke-refresh')).toHaveLength(0)
    const before = e.requests.length
    const post = await runPost(inputs, main)
    expect(post.code).toBe(0)
    expect(post.errors).toEqual([])
    expect(post.visible).not.toMatch(/::warning::/)
    expect(e.requests.slice(before).map((q) => q.operation)).toEqual(['revoke-refresh'])
    const tokens = revokedTokens(e)
    expect(tokens).toHaveLength(1)
    expect(await refreshStatus(e, tokens[0] as string)).toBe(401)
    expect(post.summary).toContain('The main step was stopped before it wrote its report; what the post step could do:')
    expect(post.summary).toContain("- revoked this run's refresh token, which the main step had left valid")
    expect(post.summary).not.toMatch(/GitHub Deployment/)
    expect(ops(e, 'deploy')).toHaveLength(0)
  })
  test('while a GitHub Deployment is in progress: the post step sets it to error, and says so', async () => {
    // The deploy stays in progress: the main step is killed before it could end it.
    const e = await emulator({ deploySeconds: Infinity })
    const gh = await githubStandIn()
    try {
      const inputs = base(e, { distribution: release('v1'), 'github-token': GITHUB_TOKEN })
      const env = { GITHUB_API_URL: gh.url, GITHUB_RUN_ID: '77' }
      const main = await run(inputs, { env, cancel: { when: (stdout) => stdout.includes('Recorded as GitHub Deployment 1000'), signal: 'SIGKILL' } })
      expect(main.signal).toBe('SIGKILL')
      const post = await runPost(inputs, main, { env })
      expect(post.code).toBe(0)
      expect(post.visible).not.toMatch(/::warning::/)
      expect(gh.calls.filter((c) => c.method === 'POST').map((c) => [c.path, (c.json as { state?: string }).state])).toEqual([
        ['/repos/acme/site/deployments', undefined],
        ['/repos/acme/site/deployments/1000/statuses', 'in_progress'],
        ['/repos/acme/site/deployments/1000/statuses', 'error']
      ])
      expect(gh.model.statuses(1000)[0]).toMatchObject({
        state: 'error',
        description: 'The main step was stopped before it reported; see the workflow run',
        log_url: 'https://github.com/acme/site/actions/runs/77'
      })
      expect(revokedTokens(e)).toHaveLength(1)
      expect(post.summary).toContain("- revoked this run's refresh token, which the main step had left valid")
      expect(post.summary).toContain('- set GitHub Deployment 1000 to error (it was left in progress)')
    } finally {
      await gh.close()
    }
  })
})
