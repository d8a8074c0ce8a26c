// The deployment step in order (src/deploy/index.ts), in-process against the emulator over real HTTP with real
// archives and folders on disk: what it says and plans (a dry run sends no change), when it skips, deploys again or
// refuses, its warnings, the calls the platform received and the result it returns.
import { useTestPort } from './test-port.js'
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmulator, type Emulator, type EmulatorOptions, type RecordedRequest } from '../src/emulator/server.js'
import { DEFAULT_GITHUB_TOKEN, fakeSha, startGitHubStandIn } from '../src/emulator/github/server.js'
import { makeDistributionTree } from '../scripts/lib/sample-tree.js'
import { runOfAcmeSite } from './github-run.js'
import { deployInputs, runDeploy, type DeployOutcome } from './deploy-run.js'
import { recordingProxy } from './recording-proxy.js'

// GitHub, for the runs with github-token: @actions/github reads the runner's variables once, so they are set first.
const standIn = await startGitHubStandIn({ owner: 'acme', repo: 'site' })
const SHA = standIn.model.commit(fakeSha('deploy-index'))
runOfAcmeSite(standIn.url, SHA, { GITHUB_RUN_ID: '77', GITHUB_STATE: '/dev/null' })

const lines: Array<{ kind: 'info' | 'warning' | 'notice'; text: string }> = []
useTestPort({
  info: (text: string) => lines.push({ kind: 'info', text }),
  warning: (text: string) => lines.push({ kind: 'warning', text }),
  notice: (text: string) => lines.push({ kind: 'notice', text }),
  debug: () => undefined,
  setSecret: () => undefined,
  getInput: () => '',
  isDebug: () => false,
  saveState: () => undefined,
  getState: () => ''
})

const { startDeploy, USER_AGENT } = await import('../src/deploy/index.js')
const { StepFailed, ActionError, refusesLogin } = await import('../src/errors.js')
const { packDirectory } = await import('../src/archive/pack.js')
type DeployResult = import('../src/deploy/result.js').DeployResult

const said = (kind: 'info' | 'warning' | 'notice'): string[] => lines.filter((l) => l.kind === kind).map((l) => l.text)

let emu: Emulator
async function emulator(options: EmulatorOptions = {}): Promise<Emulator> {
  emu = await startEmulator(options)
  return emu
}
afterEach(async () => {
  await emu?.close()
})
afterAll(async () => {
  await standIn.close()
})
beforeEach(() => {
  lines.length = 0
  standIn.calls.length = 0
})

const ops = (op: string): RecordedRequest[] => emu.requests.filter((r) => r.operation === op)
/** The calls that change the stack. */
const changes = (): string[] => emu.requests.filter((r) => ['upload', 'delete-distribution', 'deploy'].includes(r.operation)).map((r) => r.operation)
const envId = (name: string): string => emu.environments.find((e) => e.name === name)?.id ?? '?'

const NAME = 'site-1.0.0-distribution.tar.gz'
const NO_ORDER = 'Deploy order not checked: github-token is not set (the check needs a token with deployments: read and contents: read).'

/** A distribution tree whose version.txt says `version`. */
function tree(version = 'v1'): string {
  const dir = makeDistributionTree(undefined, 2_000)
  writeFileSync(join(dir, 'version.txt'), `${version}\n`)
  return dir
}

/** A real tar.gz of a distribution tree. */
function archiveFile(version = 'v1'): string {
  const dir = mkdtempSync(join(tmpdir(), 'brcd-idx-'))
  const path = join(dir, NAME)
  execFileSync('tar', ['-czf', path, '-C', tree(version), '.'])
  return path
}

const run = (values: Record<string, string>, verify?: () => Promise<string | undefined>) => runDeploy(emu, values, verify)

describe('a packed directory uploaded and deployed', () => {
  test('the phases in order, the user agent on every call, the packed archive checked and its folder removed at the end', async () => {
    await emulator()
    const runnerTemp = mkdtempSync(join(tmpdir(), 'brcd-runner-temp-'))
    const saved = process.env.RUNNER_TEMP
    process.env.RUNNER_TEMP = runnerTemp
    try {
      const { result, error, phases } = await run({ stack: 'mystack', distribution: tree(), 'distribution-name': NAME, environment: 'development' })
      expect(error).toBeUndefined()
      const stored = emu.distributions[0]
      expect(phases.slice(0, 5)).toEqual([
        'Prepare the distribution',
        `Log in to stack 'mystack' (${emu.url})`,
        "Find environment 'development'",
        'Look for an identical distribution',
        'Upload the distribution'
      ])
      expect(emu.requests.length).toBeGreaterThan(0)
      for (const r of emu.requests) expect(r.headers['user-agent']).toBe('brcloud-deploy (GitHub Action)')
      expect(USER_AGENT).toBe('brcloud-deploy (GitHub Action)')
      expect(result.archive).toEqual({ name: NAME, source: 'packed', size: stored?.size, sha256: stored?.sha256, md5: stored?.md5hash })
      expect(result.distributionId).toBe(stored?.id)
      expect(result.plan).toEqual([])
      expect(result.completed).toBe(true)
      expect(result.skipped).toBe(false)
      expect(changes()).toEqual(['upload', 'deploy'])
      expect(readdirSync(runnerTemp)).toEqual([])
    } finally {
      if (saved === undefined) delete process.env.RUNNER_TEMP
      else process.env.RUNNER_TEMP = saved
    }
  })

  test('a stored distribution of that name: the MD5 read ahead, the same bytes found, reused; none of that name: not read before the upload', async () => {
    await emulator()
    const dir = tree()
    const packed = await packDirectory(dir, join(mkdtempSync(join(tmpdir(), 'di-')), NAME))
    const same = await emu.addDistribution(NAME, { 'version.txt': 'v1\n' })
    const stored = emu.distributions.find((d) => d.id === same)
    if (stored) stored.md5hash = packed.md5
    const reused = await run({ distribution: dir, 'distribution-name': NAME, environment: 'development' })
    expect(reused.error).toBeUndefined()
    expect(reused.result).toMatchObject({ reused: true, distributionId: same })
    expect(reused.result.archive).toMatchObject({ source: 'packed', size: packed.size, sha256: packed.sha256, md5: packed.md5 })
    // What was stored and what deflated, said once the size is known (this small tree has nothing already compressed).
    expect(lines.map((l) => l.text)).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^${NAME.replace(/\./g, '\\.')}: [\\d.]+ KB \\(${packed.size} bytes\\), ${packed.entries} entries: all of the tar \\([\\d.]+ KB\\) deflated\\.$`
        )
      )
    )
    expect(changes()).toEqual(['deploy'])

    // Another name: the archive is read once, by the upload (its SHA-256 is logged after the lookup said so).
    lines.length = 0
    const uploaded = await run({ distribution: dir, 'distribution-name': 'other-1.0.0-distribution.tar.gz', environment: 'development' })
    expect(uploaded.error).toBeUndefined()
    const texts = lines.map((l) => l.text)
    const sha = texts.findIndex((t) => t === `other-1.0.0-distribution.tar.gz: SHA-256 ${packed.sha256}`)
    const lookup = texts.indexOf('No distribution named other-1.0.0-distribution.tar.gz with this MD5 on the stack: uploading it.')
    expect(lookup).toBeGreaterThanOrEqual(0)
    expect(sha).toBeGreaterThan(lookup)
    expect(texts.filter((t) => t.includes('SHA-256'))).toHaveLength(1)
  })

  test("what a packed archive holds, in the log's words", async () => {
    const { composition } = await import('../src/distribution.js')
    expect(composition({ storedFiles: 0, storedBytes: 0, deflatedBytes: 18_944 })).toBe('all of the tar (18.5 KB) deflated')
    expect(composition({ storedFiles: 1, storedBytes: 400_000, deflatedBytes: 2048 })).toBe(
      '1 already-compressed file (390.6 KB) stored as it is, the rest of the tar (2.0 KB) deflated'
    )
    expect(composition({ storedFiles: 221, storedBytes: 236_000_000, deflatedBytes: 16_000_000 })).toBe(
      '221 already-compressed files (225.1 MB) stored as they are, the rest of the tar (15.3 MB) deflated'
    )
  })

  test('a directory is packed before the login: a refused login reports its exact size, and no SHA-256 (never read whole)', async () => {
    await emulator()
    const dir = tree()
    const { result, error } = await run({ distribution: dir, 'distribution-name': NAME, environment: 'development', password: 'wrong' })
    expect(error).toBeDefined()
    expect(result.archive?.source).toBe('packed')
    expect(result.archive?.size).toBe((await packDirectory(dir, join(mkdtempSync(join(tmpdir(), 'di-')), NAME))).size)
    // The SHA-256 of a packed archive is known once its bytes went out whole: none did, so none is claimed.
    expect(result.archive?.sha256).toBeUndefined()
    expect(changes()).toEqual([])
  })
})

/** An access token of the emulator's user, as an earlier step would have got it. */
async function accessToken(): Promise<string> {
  const answer = await fetch(`${emu.url}/v3/authn/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: emu.username, password: emu.password })
  })
  return ((await answer.json()) as { access_token: string }).access_token
}

test('access-token: checked before the archive is prepared, the phase says how, the stack names the user and role', async () => {
  await emulator({ tokenLifetimeSeconds: 7_200 })
  const token = await accessToken()
  emu.requests.length = 0
  const { error, phases } = await run({ username: '', password: '', 'access-token': token, distribution: archiveFile(), environment: 'development' })
  expect(error).toBeUndefined()
  expect(phases.slice(0, 3)).toEqual([`Log in to ${emu.url} with access-token`, 'Prepare the distribution', "Find environment 'development'"])
  expect(said('info')).toContain(`The stack accepts the token: user ${emu.username}, role deployer.`)
  expect(ops('login')).toEqual([])
})

test('access-token, and a stack that names neither the user nor the role: said so', async () => {
  await emulator({ tokenLifetimeSeconds: 7_200 })
  const token = await accessToken()
  // In front of the emulator: its answer to the token check without the user and role headers.
  const proxy = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length')) as Record<string, string>
      const method = req.method ?? 'GET'
      const init: RequestInit = method === 'GET' || method === 'HEAD' ? { method, headers } : { method, headers, body: Buffer.concat(chunks) }
      void fetch(`${emu.url}${req.url ?? ''}`, init).then(async (answer) => {
        const out: Record<string, string> = {}
        answer.headers.forEach((v, k) => {
          if (!['x-user-id', 'x-user-role', 'content-length', 'transfer-encoding', 'content-encoding', 'connection', 'keep-alive'].includes(k)) out[k] = v
        })
        res.writeHead(answer.status, out).end(Buffer.from(await answer.arrayBuffer()))
      })
    })
  })
  await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done))
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
  try {
    const id = await emu.addDistribution(NAME, { 'version.txt': 'v1\n' })
    const { error, phases } = await run({
      'api-url': url,
      username: '',
      password: '',
      'access-token': token,
      'distribution-id': id,
      environment: 'development',
      'dry-run': 'true'
    })
    expect(error).toBeUndefined()
    expect(phases[0]).toBe(`Log in to ${url} with access-token`)
    expect(said('info')).toContain('The stack accepts the token: user (not named), role (not named).')
  } finally {
    proxy.closeAllConnections()
    await new Promise((done) => proxy.close(done))
  }
})

describe('an environment that already runs the distribution', () => {
  async function running(): Promise<string> {
    await emulator()
    const id = await emu.addDistribution(NAME, { 'version.txt': 'v1\n' })
    emu.deployAs('development', id)
    emu.requests.length = 0
    return id
  }
  const site = (): string => `${emu.url}/sites/development/version.txt`

  test('skipped: said, no deploy; the site is checked all the same, and the search check too', async () => {
    const id = await running()
    let searched = 0
    const { result, error, phases } = await run(
      { 'distribution-id': id, environment: 'development', 'health-url': site(), 'health-expect': 'v1' },
      async () => {
        searched++
        return undefined
      }
    )
    expect(error).toBeUndefined()
    expect(said('info')).toContain(`'development' already runs ${id}: no deploy (force-deploy: true deploys it again).`)
    expect(result.skipped).toBe(true)
    expect(result.completed).toBe(true)
    expect(result.release).toBeUndefined()
    expect(phases).toContain(`Health check ${site()}`)
    expect(ops('site').length).toBeGreaterThan(0)
    expect(searched).toBe(1)
    expect(changes()).toEqual([])
  })

  test('skipped, and the search check fails: the step fails with its words', async () => {
    const id = await running()
    const { result, error } = await run({ 'distribution-id': id, environment: 'development' }, async () => 'the search found nothing')
    expect(error).toBeInstanceOf(ActionError)
    expect((error as Error).message).toBe('the search found nothing')
    expect(result.skipped).toBe(true)
    expect(result.completed).toBe(false)
  })

  test('on a dry run: "would skip the deploy", in the plan', async () => {
    const id = await running()
    const { result, error } = await run({ 'distribution-id': id, environment: 'development', 'dry-run': 'true' })
    expect(error).toBeUndefined()
    expect(result.plan).toEqual([`'development' already runs ${id}: would skip the deploy (force-deploy: true deploys it again).`])
    expect(result.completed).toBe(true)
  })

  test('force-deploy: deployed again, said why', async () => {
    const id = await running()
    const { result, error } = await run({ 'distribution-id': id, environment: 'development', 'force-deploy': 'true' })
    expect(error).toBeUndefined()
    expect(said('info')).toContain(`'development' already runs ${id}; deploying it again because force-deploy is true.`)
    expect(result.skipped).toBe(false)
    expect(ops('deploy').map((d) => d.json)).toEqual([{ distributionId: id, strategy: 'stopstart' }])
  })

  test('config-files: deployed again with them, said why; the files found are logged with their ids', async () => {
    await emulator({ appConfigFiles: ['a.properties', 'b.properties'] })
    const id = await emu.addDistribution(NAME, { 'version.txt': 'v1\n' })
    emu.deployAs('development', id)
    const [a, b] = emu.appConfigFiles.map((f) => f.id)
    const { error, phases } = await run({ 'distribution-id': id, environment: 'development', 'config-files': 'b.properties, a.properties' })
    expect(error).toBeUndefined()
    expect(phases).toContain('Find the config files')
    expect(said('info')).toContain(`Config files: 'b.properties' (${b}), 'a.properties' (${a}), role systemproperty.`)
    expect(said('info')).toContain(
      `'development' already runs ${id}; deploying it again because config-files are given, and the platform cannot tell which config files the environment runs with.`
    )
    expect(ops('deploy')).toHaveLength(1)
  })

  test('on a dry run with config files and rollback: would deploy again, and would not roll back to itself', async () => {
    await emulator({ appConfigFiles: ['a.properties', 'b.properties'] })
    const id = await emu.addDistribution(NAME, { 'version.txt': 'v1\n' })
    emu.deployAs('development', id)
    const { result, error } = await run({
      'distribution-id': id,
      environment: 'development',
      'config-files': 'a.properties, b.properties',
      rollback: 'true',
      'dry-run': 'true'
    })
    expect(error).toBeUndefined()
    expect(result.plan).toEqual([
      `'development' already runs ${id}; would deploy it again because config-files are given, and the platform cannot tell which config files the environment runs with.`,
      `Would deploy ${id} to 'development' (${envId('development')}) with strategy stopstart with config files 'a.properties', 'b.properties'.`,
      "Would not roll back: 'development' runs no other distribution now, so there would be nothing to go back to.",
      NO_ORDER
    ])
    expect(changes()).toEqual([])
  })
})

describe('a dry run: what it would do, and no change sent', () => {
  test('an upload to an environment that runs another: the plan in order, rollback and the health check said; the search check run', async () => {
    await emulator()
    const previous = await emu.addDistribution('old.tar.gz', { 'version.txt': 'v0\n' })
    emu.deployAs('development', previous)
    let searched = 0
    const health = `${emu.url}/sites/development/version.txt`
    const { result, error } = await run(
      { distribution: archiveFile(), environment: 'development', rollback: 'true', 'health-url': health, 'health-expect': 'v1', 'dry-run': 'true' },
      async () => {
        searched++
        return undefined
      }
    )
    expect(error).toBeUndefined()
    expect(result.plan).toEqual([
      `No distribution named ${NAME} with this MD5 on the stack: would upload it.`,
      `Would deploy the uploaded distribution to 'development' (${envId('development')}) with strategy stopstart.`,
      `Would roll back to ${previous} if the new release fails its checks.`,
      NO_ORDER,
      `Would check ${health} until it answers 2xx containing 'v1'.`
    ])
    expect(searched).toBe(1)
    expect(result.completed).toBe(true)
    expect(result.archive?.sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(changes()).toEqual([])
    expect(ops('site')).toEqual([])
  })

  test('a distribution by id, without rollback, a health check without health-expect', async () => {
    await emulator()
    const id = await emu.addDistribution(NAME, { 'version.txt': 'v1\n' })
    const health = `${emu.url}/sites/development/version.txt`
    const { result, error } = await run({ 'distribution-id': id, environment: 'development', 'health-url': `${health}?token=x`, 'dry-run': 'true' })
    expect(error).toBeUndefined()
    expect(result.plan).toEqual([
      `Would deploy ${id} to 'development' (${envId('development')}) with strategy stopstart.`,
      NO_ORDER,
      `Would check ${health} until it answers 2xx.`
    ])
    expect(changes()).toEqual([])
  })

  test('a dry run logged in too: its refresh token is revoked at the end, so the stack no longer takes it', async () => {
    await emulator()
    const id = await emu.addDistribution(NAME, { 'version.txt': 'v1\n' })
    const proxy = await recordingProxy(emu.url)
    try {
      const { error } = await run({ 'api-url': proxy.url, 'distribution-id': id, environment: 'development', 'dry-run': 'true' })
      expect(error).toBeUndefined()
      const refresh = proxy.answered.filter((a) => a.field === 'refresh_token').map((a) => a.token)
      expect(refresh).toHaveLength(1)
      // What the stack says of it after the run, asked directly.
      const res = await fetch(`${emu.url}/v3/authn/refresh_token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: refresh[0] })
      })
      expect(res.status).toBe(401)
    } finally {
      await proxy.close()
    }
  })

  test('rollback asked, the environment runs nothing: would not roll back', async () => {
    await emulator()
    const id = await emu.addDistribution(NAME, { 'version.txt': 'v1\n' })
    const { result } = await run({ 'distribution-id': id, environment: 'development', rollback: 'true', 'dry-run': 'true' })
    expect(result.plan).toContain("Would not roll back: 'development' runs no other distribution now, so there would be nothing to go back to.")
  })
})

describe('refusals and retries', () => {
  test('an environment that does not exist: refused after the login; no last look at it, the refresh token revoked', async () => {
    await emulator()
    const { result, error } = await run({ distribution: archiveFile(), environment: 'staging' })
    expect((error as Error).message).toMatch(/^environment 'staging' does not exist on /)
    expect(result.platformReached).toBe(true)
    expect(result.finalLook).toBeUndefined()
    expect(ops('list-environments')).toHaveLength(1)
    expect(ops('revoke-refresh')).toHaveLength(1)
    expect(changes()).toEqual([])
  })

  test('a login the identity provider refuses: the stack never reached, so no closing call and no word about tokens', async () => {
    await emulator({ sso: {} })
    const sso = emu.sso!
    const { result, error } = await run({
      distribution: archiveFile(),
      environment: 'production',
      username: '',
      password: '',
      'token-url': sso.tokenUrl,
      'client-id': sso.clientId,
      'client-secret': 'not-the-secret',
      audience: sso.audience
    })
    expect((error as Error).message).toMatch(/invalid_client/)
    // Not worth another try, and told apart from an outage: brcloud exits 4 on it (docs/cli.md).
    expect(refusesLogin(error)).toBe(true)
    expect(result.platformReached).toBeFalsy()
    expect(result.finalLook).toBeUndefined()
    // Nothing was received, so nothing is said to be revoked or left: "gave no refresh token" would be a claim.
    expect(said('info').filter((l) => l.startsWith('Token:'))).toEqual([])
    // The secret in the body, then with HTTP Basic; no call to the stack, no revocation.
    expect(emu.requests.map((r) => r.operation)).toEqual(['idp-token', 'idp-token'])
  })

  test('a call that fails once is retried within the attempts max-attempts allows', async () => {
    await emulator({ faults: [{ operation: 'list-environments', kind: 'status', status: 503, times: 1 }] })
    const id = await emu.addDistribution(NAME, { 'version.txt': 'v1\n' })
    const { error } = await run({ 'distribution-id': id, environment: 'development', 'max-attempts': '2' })
    expect(error).toBeUndefined()
    expect(ops('deploy')).toHaveLength(1)
  })

  test('max-attempts 1: the same failure ends the run', async () => {
    await emulator({ faults: [{ operation: 'list-environments', kind: 'status', status: 503, times: 1 }] })
    const id = await emu.addDistribution(NAME, { 'version.txt': 'v1\n' })
    const { error } = await run({ 'distribution-id': id, environment: 'development', 'max-attempts': '1' })
    expect(error).toBeDefined()
    expect(ops('list-environments')).toHaveLength(1)
    expect(changes()).toEqual([])
  })
})

test('build-command runs in the workspace before the archive is prepared', async () => {
  await emulator()
  const workspace = mkdtempSync(join(tmpdir(), 'brcd-ws-'))
  const saved = process.env.GITHUB_WORKSPACE
  process.env.GITHUB_WORKSPACE = workspace
  try {
    const { error, phases } = await run({ 'build-command': 'touch built.txt', distribution: archiveFile() })
    expect(error).toBeUndefined()
    expect(phases.slice(0, 2)).toEqual(['Build: touch built.txt', 'Prepare the distribution'])
    expect(existsSync(join(workspace, 'built.txt'))).toBe(true)
  } finally {
    if (saved === undefined) delete process.env.GITHUB_WORKSPACE
    else process.env.GITHUB_WORKSPACE = saved
  }
})

test('upload only (no environment): the search check runs, and its failure fails the step', async () => {
  await emulator()
  const { result, error } = await run({ distribution: archiveFile() }, async () => 'no products found')
  expect((error as Error).message).toBe('no products found')
  expect(result.skipped).toBe(false)
  expect(result.upload?.distributionId).toBe(emu.distributions[0]?.id)
  expect(changes()).toEqual(['upload'])
})

describe('warnings about what the checks could not show', () => {
  test('a health check without health-expect, a switch not seen: both said, word for word', async () => {
    await emulator()
    const health = `${emu.url}/sites/development/version.txt`
    const { result, error } = await run({ distribution: archiveFile(), environment: 'development', 'health-url': health })
    expect(error).toBeUndefined()
    expect(result.release?.state).toBe('healthy')
    const id = result.distributionId
    expect(result.cautions).toEqual([
      'The health check cannot tell the new release from the old one: any 2xx answer passes, and the old release may still be answering. ' +
        'Write a release marker into a page (e.g. the commit SHA into version.txt at build time) and set health-expect to it (health-expect: ${{ github.sha }}).',
      `'development' reports distribution ${id} (status: running) from the first look on: the platform may report a new id as soon as a deploy is requested, so this does not show that the new release serves. ` +
        'The switch itself was not seen: set health-url and health-expect to a release marker to verify that the new release serves.'
    ])
    expect(said('warning')).toEqual(result.cautions)
  })

  test('a redeploy the site shows the marker of: nothing to warn about, although the switch could not be seen', async () => {
    await emulator()
    const id = await emu.addDistribution(NAME, { 'version.txt': 'v7\n' })
    emu.deployAs('development', id)
    const health = `${emu.url}/sites/development/version.txt`
    const { result, error } = await run({
      'distribution-id': id,
      environment: 'development',
      'force-deploy': 'true',
      'health-url': health,
      'health-expect': 'v7'
    })
    expect(error).toBeUndefined()
    expect(result.release?.appliedBy).toBe('not-observed')
    expect(result.release?.site).toBe('marker')
    expect(result.cautions).toEqual([])
  })

  test('a switch seen, no health check: nothing to warn about', async () => {
    await emulator({ deployLooks: 1 })
    const { result, error } = await run({ distribution: archiveFile(), environment: 'development' })
    expect(error).toBeUndefined()
    expect(result.release?.appliedBy).not.toBe('not-observed')
    expect(result.cautions).toEqual([])
  })
})

describe('another deploy puts this very distribution there while the run waits', () => {
  async function busyWithOurs(): Promise<string> {
    await emulator()
    const id = await emu.addDistribution(NAME, { 'version.txt': 'v1\n' })
    emu.deployAs('development', id, { seconds: Infinity, by: 'someone-else' })
    // The run's own look at the environment, then the release's first: the switch lands after it.
    emu.onRequest('list-environments', () => emu.finishDeploy('development'), { skip: 1 })
    emu.requests.length = 0
    return id
  }

  test('nothing sent: the run counts as skipped, and the search check runs', async () => {
    const id = await busyWithOurs()
    let searched = 0
    const { result, error } = await run({ 'distribution-id': id, environment: 'development' }, async () => {
      searched++
      return undefined
    })
    expect(error).toBeUndefined()
    expect(result.release?.state).toBe('already-running')
    expect(result.skipped).toBe(true)
    expect(searched).toBe(1)
    expect(ops('deploy')).toEqual([])
  })

  test('and the search check fails: its words, then what runs now', async () => {
    const id = await busyWithOurs()
    const { result, error } = await run({ 'distribution-id': id, environment: 'development' }, async () => 'no products found')
    expect(result.release?.state).toBe('already-running')
    expect((error as Error).message).toBe(`no products found At the end of the run, 'development' reports distribution ${id} (status: running).`)
  })
})

describe('the last look shows another distribution than the one deployed', () => {
  /**
   * Deploys ours over `previous` (when given); `late` is what another job does once the release's own last look was
   * answered, before the run's last look. The looks are counted in a first run without it (the emulator switches at
   * once, so every run of this scenario looks as often).
   */
  async function scenario(
    late?: (ids: { ours: string; previous: string; theirs: string }) => void,
    options: EmulatorOptions = { deployLooks: 1 }
  ): Promise<{ outcome: DeployOutcome; ours: string; previous: string; theirs: string }> {
    let looks = 0
    if (late !== undefined) {
      const calibration = await scenario(undefined, options)
      looks = calibration.outcome.result.finalLook === undefined ? -1 : ops('list-environments').length
      await emu.close()
    }
    await emulator(options)
    const previous = await emu.addDistribution('old.tar.gz', { 'version.txt': 'v0\n' })
    const ours = await emu.addDistribution(NAME, { 'version.txt': 'v1\n' })
    const theirs = await emu.addDistribution('theirs.tar.gz', { 'version.txt': 'v2\n' })
    emu.deployAs('development', previous, { seconds: 0, looks: 0 })
    if (late !== undefined) {
      expect(looks).toBeGreaterThan(2)
      emu.onRequest('list-environments', () => late({ ours, previous, theirs }), { skip: looks - 2 })
    }
    const outcome = await run({ 'distribution-id': ours, environment: 'development' })
    return { outcome, ours, previous, theirs }
  }

  test('without another job: the last look shows ours, nothing said', async () => {
    const { outcome, ours } = await scenario()
    expect(outcome.error).toBeUndefined()
    expect(outcome.result.finalLook).toMatchObject({ distributionId: ours })
    expect(outcome.result.cautions).toEqual([])
  })

  test('another deploy followed: said, never undone', async () => {
    const { outcome, ours, theirs } = await scenario((ids) => emu.deployAs('development', ids.theirs, { seconds: 0, looks: 0, by: 'someone-else' }))
    expect(outcome.error).toBeUndefined()
    expect(outcome.result.release?.state).not.toBe('replaced')
    expect(outcome.result.cautions).toEqual([
      `At the end of the run, 'development' reports distribution ${theirs} (status: running). That is not ${ours}: another deploy followed this one.`
    ])
    expect(ops('deploy')).toHaveLength(1)
  })

  test("the one that ran before is back: no other deploy of anyone's (ours may not have switched yet), nothing said", async () => {
    const { outcome, previous } = await scenario((ids) => emu.deployAs('development', ids.previous, { seconds: 0, looks: 0, by: 'someone-else' }))
    expect(outcome.error).toBeUndefined()
    expect(outcome.result.finalLook).toMatchObject({ distributionId: previous })
    expect(outcome.result.cautions).toEqual([])
  })

  test("a switch under way that names no distribution at the end: no deploy of anyone's, nothing said", async () => {
    const { outcome } = await scenario((ids) => emu.deployAs('development', ids.theirs, { seconds: Infinity, by: 'someone-else' }), {
      deployLooks: 1,
      idWhileDeploying: 'absent'
    })
    expect(outcome.error).toBeUndefined()
    expect(outcome.result.finalLook).toMatchObject({ distributionId: undefined, status: 'deploying' })
    expect(outcome.result.cautions).toEqual([])
  })
})

describe('with github-token: the deploy recorded as a GitHub Deployment', () => {
  const statuses = (): unknown[] => standIn.calls.filter((c) => c.route === 'create-status').map((c) => c.json)
  const created = () => standIn.model.deployments.at(-1)
  const GH = { 'github-token': DEFAULT_GITHUB_TOKEN, 'allow-unchecked-order': 'true' }

  test('an upload: named after the archive, at the run\'s commit; success says "Deployed"', async () => {
    await emulator()
    const before = standIn.model.deployments.length
    const { result, error } = await run({ ...GH, distribution: archiveFile(), environment: 'development', stack: 'mystack' })
    expect(error).toBeUndefined()
    const id = result.distributionId
    expect(standIn.model.deployments).toHaveLength(before + 1)
    expect(created()).toMatchObject({ sha: SHA, environment: 'development', description: `${NAME} to mystack` })
    expect(created()?.payload).toEqual({ distributionId: id, distributionName: NAME, apiUrl: emu.url })
    expect(statuses().at(-1)).toMatchObject({ state: 'success', description: `Deployed ${id}` })
  })

  test("a promoted distribution whose commit is not known: recorded at the run's commit, the payload says so", async () => {
    await emulator()
    const id = await emu.addDistribution('promoted-3.0-distribution.tar.gz', { 'version.txt': 'v3\n' })
    const { error } = await run({ ...GH, 'distribution-id': id, environment: 'development' })
    expect(error).toBeUndefined()
    expect(created()).toMatchObject({ sha: SHA, description: `promoted-3.0-distribution.tar.gz to ${emu.url}` })
    expect(created()?.payload).toEqual({ distributionId: id, distributionName: 'promoted-3.0-distribution.tar.gz', apiUrl: emu.url, commit: 'unknown' })
  })

  test('a release that fails its health check and is rolled back: the failure says to what', async () => {
    await emulator({ deployLooks: 1 })
    const previous = await emu.addDistribution('old.tar.gz', { 'version.txt': 'v0\n', 'old.txt': 'old\n' })
    emu.deployAs('development', previous, { looks: 0 })
    const ours = await emu.addDistribution(NAME, { 'version.txt': 'v1\n' })
    const { result, error } = await run({
      ...GH,
      'distribution-id': ours,
      environment: 'development',
      rollback: 'true',
      'health-url': `${emu.url}/sites/development/old.txt`,
      'health-timeout-minutes': '0.01'
    })
    expect(error).toBeDefined()
    expect(result.release?.rollbackTo).toBe(previous)
    expect(statuses().at(-1)).toMatchObject({ state: 'failure', description: `Rolled back to ${previous}` })
  })

  test('a release that fails without rollback: the failure points at the run', async () => {
    await emulator()
    const ours = await emu.addDistribution(NAME, { 'version.txt': 'v1\n' })
    const { error } = await run({
      ...GH,
      'distribution-id': ours,
      environment: 'development',
      'health-url': `${emu.url}/sites/development/missing.txt`,
      'health-timeout-minutes': '0.01'
    })
    expect(error).toBeDefined()
    expect(statuses().at(-1)).toMatchObject({ state: 'failure', description: 'The deploy failed; see the workflow run' })
  })

  test('another deploy put ours there while the run waited: success says it "Runs"', async () => {
    await emulator()
    const id = await emu.addDistribution(NAME, { 'version.txt': 'v1\n' })
    emu.deployAs('development', id, { seconds: Infinity, by: 'someone-else' })
    emu.onRequest('list-environments', () => emu.finishDeploy('development'), { skip: 1 })
    const { result, error } = await run({ ...GH, 'distribution-id': id, environment: 'development' })
    expect(error).toBeUndefined()
    expect(result.release?.state).toBe('already-running')
    expect(statuses().at(-1)).toMatchObject({ state: 'success', description: `Runs ${id}` })
  })

  /** A run stopped with `reason` once its deploy was requested (the switch never lands). */
  async function stopped(reason: Error): Promise<DeployResult> {
    await emulator({ deploySeconds: Infinity })
    const id = await emu.addDistribution(NAME, { 'version.txt': 'v1\n' })
    const stop = new AbortController()
    emu.onRequest('deploy', () => stop.abort(reason))
    const phase = <T>(_: string, fn: () => Promise<T>): Promise<T> => fn()
    const inputs = await deployInputs(emu, { ...GH, 'distribution-id': id, environment: 'development' })
    const deployment = startDeploy(inputs, phase, stop.signal, undefined, () => 2_000)
    await expect(deployment.done).rejects.toBeInstanceOf(StepFailed)
    return deployment.result
  }

  test('stopped by the watchdog: the final status says so, and how far the release came', async () => {
    const result = await stopped(Object.assign(new Error('the watchdog fired'), { name: 'WatchdogTimeout' }))
    expect(statuses().at(-1)).toMatchObject({
      state: 'error',
      description: `Stopped by its watchdog while the release was ${result.release?.state ?? '?'}; see the workflow run`
    })
    // Requested, or unconfirmed when the stop came before its answer was read: a state either way.
    expect(result.release?.state).toBeDefined()
  })

  test('cancelled: the final status says so', async () => {
    const result = await stopped(Object.assign(new Error('cancelled'), { name: 'Cancel' }))
    expect(statuses().at(-1)).toMatchObject({
      state: 'error',
      description: `Cancelled while the release was ${result.release?.state ?? '?'}; see the workflow run`
    })
    expect(result.release?.state).toBeDefined()
  })

  test("an identical stored distribution reused: still this run's upload, its commit the run's", async () => {
    await emulator()
    const path = archiveFile()
    const md5 = createHash('md5').update(readFileSync(path)).digest('hex')
    const same = await emu.addDistribution(NAME, { 'version.txt': 'v1\n' })
    const stored = emu.distributions.find((d) => d.id === same)
    if (stored) stored.md5hash = md5
    const { result, error } = await run({ ...GH, distribution: path, environment: 'development' })
    expect(error).toBeUndefined()
    expect(result.reused).toBe(true)
    expect(result.order?.ours).toMatchObject({ sha: SHA, from: 'run' })
    expect(created()?.payload).toEqual({ distributionId: same, distributionName: NAME, apiUrl: emu.url })
  })
})

test('another deploy replaces ours after the checks passed: the failure says so and that nothing was rolled back; no warning about the checks', async () => {
  await emulator({ deployWhileBusy: 'accept', deployLooks: 1 })
  const ours = await emu.addDistribution(NAME, { 'version.txt': 'v1\n' })
  const theirs = await emu.addDistribution('theirs.tar.gz', { 'version.txt': 'v2\n' })
  emu.onRequest('site', () => emu.deployAs('development', theirs, { seconds: 0, looks: 0, by: 'someone-else' }))
  const { result, error } = await run({ 'distribution-id': ours, environment: 'development', 'health-url': `${emu.url}/sites/development/version.txt` })
  expect(result.release?.state).toBe('replaced')
  expect(error).toBeInstanceOf(ActionError)
  expect((error as Error).message).toBe(
    `'development' reports distribution ${theirs} (status: running) after the checks passed: not ${ours} settled, so another deploy replaced it meanwhile, and the checks may have answered for that one. ` +
      "This run never rolls back another deploy, so nothing was rolled back. If both deploys were yours, give the jobs that deploy to 'development' one concurrency group so they run one at a time. " +
      `At the end of the run, 'development' reports distribution ${theirs} (status: running).`
  )
  expect(result.cautions).toEqual([])
})
