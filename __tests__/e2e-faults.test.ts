// What real networks and platforms do, through the emulator's fault knobs, against the bundled action.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmulator, type Emulator, type EmulatorOptions } from '../src/emulator/server.js'
import { makeDistributionTree } from '../scripts/lib/sample-tree.js'
import { ops, opsBefore, run, sweepAndClose } from './e2e-support.js'

let emu: Emulator
async function emulator(options: EmulatorOptions = {}): Promise<Emulator> {
  emu = await startEmulator(options)
  return emu
}
afterEach(async () => {
  await sweepAndClose(emu)
})

const tree = makeDistributionTree(undefined, 1_000_000)
const base = (over: Record<string, string> = {}) => ({
  'api-url': emu.url,
  username: emu.username,
  password: emu.password,
  distribution: tree,
  environment: 'development',
  ...over
})
const statuses = (op: string) => ops(emu, op).map((r) => r.status)

/** Uploads a small real archive through the API, the way an earlier run would have. */
async function seedDistribution(name: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'brcd-seed-'))
  execFileSync('tar', ['-czf', join(dir, name), '-C', makeDistributionTree(undefined, 1000), '.'])
  const login = await fetch(`${emu.url}/v3/authn/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: emu.username, password: emu.password })
  })
  const { access_token } = (await login.json()) as { access_token: string }
  const form = new FormData()
  form.append('dist_file', new Blob([readFileSync(join(dir, name))]), name)
  const res = await fetch(`${emu.url}/v3/distributions`, { method: 'POST', headers: { authorization: `Bearer ${access_token}` }, body: form })
  expect(res.status).toBe(201)
  await new Promise((r) => setTimeout(r, 5)) // distinct creation times
  const id = ((await res.json()) as { id: string }).id
  // An earlier run's upload: older than the hour in which pruning keeps another job's fresh upload.
  const stored = emu.distributions.find((d) => d.id === id)
  if (stored) stored.createdAt = new Date(Date.parse(stored.createdAt) - 2 * 3600_000).toISOString()
  return id
}

describe('retries without duplicates', () => {
  test('503 twice on the upload: replayed from disk, one distribution stored', async () => {
    await emulator({ faults: [{ operation: 'upload', kind: 'status', status: 503, times: 2 }] })
    const r = await run(base())
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(statuses('upload')).toEqual([503, 503, 201])
    expect(emu.distributions).toHaveLength(1)
    expect(statuses('deploy')).toEqual([202])
    expect(r.visible).toMatch(/::warning::Upload attempt 1 failed \(Uploading the distribution failed: HTTP 503/)
    expect(r.summary).toMatch(/\| Upload \| uploaded in 3 attempt\(s\) \|/)
  })

  test('a connection reset in the middle of the upload: replayed, one distribution stored', async () => {
    await emulator({ faults: [{ operation: 'upload', kind: 'reset-mid-upload', afterBytes: 100_000, times: 1 }] })
    const r = await run(base())
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(statuses('upload')).toEqual([0, 201])
    expect(emu.distributions).toHaveLength(1)
    expect(r.outputs['distribution-id']).toBe(emu.distributions[0]?.id)
  })

  test('the answer lost after the body was received: the stored upload is adopted, not duplicated', async () => {
    await emulator({ faults: [{ operation: 'upload', kind: 'drop-after-upload', times: 1 }] })
    const r = await run(base())
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(ops(emu, 'upload')).toHaveLength(1)
    expect(emu.distributions).toHaveLength(1)
    expect(ops(emu, 'list-distributions').length).toBeGreaterThanOrEqual(1)
    expect(r.outputs['distribution-id']).toBe(emu.distributions[0]?.id)
    expect(r.visible).toContain(`adopting distribution ${emu.distributions[0]?.id} instead of uploading a duplicate`)
    expect(r.summary).toContain('the stored upload was adopted, no duplicate')
    expect(ops(emu, 'deploy')[0]?.json).toMatchObject({ distributionId: emu.distributions[0]?.id })
  })

  test('an operation made of several calls makes at most max-attempts attempts in total', async () => {
    // The upload's answer is lost, then every lookup of the stored copy fails: before, each lookup
    // ran its own retries inside the upload's, so attempts multiplied (3 x 3 listings).
    await emulator({
      faults: [
        { operation: 'upload', kind: 'drop-after-upload', times: 1 },
        // The first listing (looking for an identical distribution before the upload) gets through.
        { operation: 'list-distributions', kind: 'status', status: 503, times: 10, skip: 1 }
      ]
    })
    const r = await run(base({ 'max-attempts': '3' }))
    expect(r.code).toBe(1)
    expect(ops(emu, 'upload')).toHaveLength(1)
    expect(statuses('list-distributions')).toEqual([200, 503, 503])
    expect(r.visible.match(/::warning::Upload attempt \d failed/g)).toHaveLength(2)
    expect(r.errors[0]).toMatch(/Listing distributions failed: HTTP 503/)
    // The platform holds it, unconfirmed: the summary does not say "not uploaded".
    expect(r.summary).toContain('**❌ Failed after sending the upload, which was not confirmed: nothing was deployed**')
    expect(r.summary).toMatch(/\| Upload \| sent, not confirmed: its answer was lost and no stored copy could be looked up/)
  })

  test('429 with Retry-After on login: waits as asked, then logs in', async () => {
    await emulator({ faults: [{ operation: 'login', kind: 'status', status: 429, retryAfterSeconds: 1, times: 1 }] })
    const r = await run(base())
    expect(r.code).toBe(0)
    expect(statuses('login')).toEqual([429, 200])
    expect(r.visible).toMatch(/Login: attempt 1 failed \(Login failed: HTTP 429 \(TooManyRequests[^)]*\)\); retrying in [1-9]\.\d s/)
    expect(r.ms).toBeGreaterThan(1000)
  })

  test('a refused login (401) is never retried', async () => {
    await emulator()
    const r = await run(base({ password: 'not-the-password' }))
    expect(r.code).toBe(1)
    expect(statuses('login')).toEqual([401])
  })

  test('a token revoked between calls: renewed through refresh, the call replayed', async () => {
    await emulator({ faults: [{ operation: 'upload', kind: 'revoke-tokens', times: 1 }] })
    const r = await run(base())
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(statuses('upload')).toEqual([401, 201])
    expect(statuses('refresh')).toEqual([200])
    expect(statuses('login')).toEqual([200])
    expect(emu.distributions).toHaveLength(1)
  })

  test('a lost deploy answer is not replayed once the environment runs the distribution', async () => {
    await emulator({ faults: [{ operation: 'deploy', kind: 'drop-after-upload', times: 1 }] })
    const r = await run(base())
    expect(r.code).toBe(0)
    expect(ops(emu, 'deploy')).toHaveLength(1)
    expect(r.visible).toContain(
      "Release requested: the deploy call's answer was lost, but 'development' showed it had been carried out: adopted, not sent again"
    )
    expect(r.outputs).toMatchObject({ deployed: 'true', 'release-state': 'reported' })
  })

  test('nothing left behind: every run that logged in revokes its own refresh token, which is refused afterwards; never logout', async () => {
    await emulator()
    const ok = await run(base())
    expect(ok.code).toBe(0)
    const failed = await run(base({ 'distribution-id': 'no-such-id', distribution: '' }))
    expect(failed.code).toBe(1)
    expect(ops(emu, 'login')).toHaveLength(2)
    const revoked = ops(emu, 'revoke-refresh')
    expect(revoked.map((q) => q.status)).toEqual([200, 200])
    const token = (revoked[0]?.json as { refresh_token: string }).refresh_token
    const again = await fetch(`${emu.url}/v3/authn/refresh_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: token })
    })
    expect(again.status).toBe(401)
    expect(ops(emu, 'logout')).toHaveLength(0)
  })

  test('a refresh token that cannot be revoked is a warning, never a failed step', async () => {
    await emulator({ faults: [{ operation: 'revoke-refresh', kind: 'status', status: 503, times: 1 }] })
    const r = await run(base())
    expect(r.code).toBe(0)
    expect(r.visible).toMatch(/::warning::Could not revoke this run's refresh token \(.*503.*\); it expires by itself within 24 hours\./)
  })

  test('two deploys of the same stack at once: both succeed, no logout', async () => {
    await emulator()
    // Two environments: two deploys to one environment at once replace each other (a concurrency group per environment prevents that).
    const [a, b] = await Promise.all([run(base()), run(base({ distribution: makeDistributionTree(), environment: 'acceptance' }))])
    expect([a?.code, b?.code]).toEqual([0, 0])
    expect(emu.distributions).toHaveLength(2)
    expect(statuses('deploy')).toEqual([202, 202])
    expect(ops(emu, 'logout')).toHaveLength(0)
  })
})

describe('timeouts', () => {
  test('a server that stops answering: the watchdog fails the step with a clear message', async () => {
    await emulator({ faults: [{ operation: 'upload', kind: 'hang', times: 1 }] })
    // 6 s: what comes before the upload (start, pack, login, lookups: under a second, and nearly two on a busy
    // machine) fits in it many times over, so the watchdog fires during the upload that hangs.
    const r = await run(base({ 'total-timeout-minutes': '0.1', 'deploy-timeout-minutes': '0.02' }))
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(/did not finish within total-timeout-minutes \(0\.1 min\); it was stopped during "Upload the distribution"/)
    expect(r.ms).toBeLessThan(15_000)
    // The server read the whole body and never answered: the stack may hold it, and the summary says so.
    expect(r.summary).toContain('**❌ Failed after sending the upload, which was not confirmed: nothing was deployed**')
  })

  test('a call with no answer times out and is retried (request-timeout-seconds)', async () => {
    await emulator({ faults: [{ operation: 'list-environments', kind: 'hang', times: 1 }] })
    // Every other call must answer within the limit too: 2 s, far above what a busy machine takes.
    const r = await run(base({ 'request-timeout-seconds': '2' }))
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    // The lookup (hung, then retried), and one look right before the request (is a deploy in progress?).
    expect(opsBefore(emu, 'list-environments', 'deploy')).toHaveLength(3)
    expect(r.visible).toMatch(/Listing environments: attempt 1 failed \(no answer within 2 s\)/)
  })
})

describe('pruning (the platform keeps at most 100 distributions)', () => {
  test('limit reached: the oldest unused distribution is deleted, then the upload succeeds', async () => {
    await emulator({ maxDistributions: 3 })
    const a = await seedDistribution('a.tar.gz')
    const b = await seedDistribution('b.tar.gz')
    const c = await seedDistribution('c.tar.gz')
    // 'a' runs in acceptance: it must survive although it is the oldest.
    const acceptance = emu.environments.find((e) => e.name === 'acceptance')
    if (acceptance) acceptance.distributionId = a
    const r = await run(base({ 'max-distributions': '3' }))
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(ops(emu, 'delete-distribution').map((x) => x.url)).toEqual([`/v3/distributions/${b}`])
    expect(emu.distributions.map((d) => d.id)).toEqual([a, c, r.outputs['distribution-id']])
    expect(r.outputs['pruned-distributions']).toBe('1')
    expect(r.visible).toContain(`Deleted distribution ${b} (b.tar.gz`)
    expect(r.summary).toMatch(/\| Pruned distributions \| 1 \|/)
  })

  test('without max-distributions a full stack refuses the upload, and the error says what to do', async () => {
    await emulator({ maxDistributions: 1 })
    await seedDistribution('a.tar.gz')
    const r = await run(base())
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/HTTP 409 \(DistributionLimitReached.*It held 1 before this upload\. Set max-distributions/)
    expect(emu.distributions).toHaveLength(1)
  })

  test.each([
    ['a 409 in other words', { status: 409 }, 0],
    ['a 403 from a stack that holds 100', { status: 403 }, 100]
  ])('the full-stack hint does not depend on the wording: %s', async (_label, fault, seeded) => {
    await emulator({ faults: [{ operation: 'upload', kind: 'status', times: 1, ...fault }] })
    // Records only (the fault is for the action's upload): the stack lists them as full.
    const at = new Date(0).toISOString()
    for (let i = 0; i < seeded; i++) {
      emu.distributions.push({
        id: `old-${i}`,
        name: `old-${i}.tar.gz`,
        createdAt: at,
        createdBy: 'x',
        modifiedAt: at,
        modifiedBy: 'x',
        md5hash: '0',
        sha256: '0',
        size: 1
      })
    }
    const r = await run(base())
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(new RegExp(`HTTP ${fault.status} .*Emulated fault on upload.* It held ${seeded} before this upload\\. Set max-distributions`))
  })

  test('a refusal a full stack does not explain gets no such hint', async () => {
    await emulator({ faults: [{ operation: 'upload', kind: 'status', status: 403, times: 1 }] })
    const r = await run(base())
    expect(r.code).toBe(1)
    expect(r.errors[0]).not.toMatch(/max-distributions/)
  })

  test('dry run: says which would be deleted, deletes nothing', async () => {
    await emulator()
    const a = await seedDistribution('a.tar.gz')
    await seedDistribution('b.tar.gz')
    const r = await run(base({ 'max-distributions': '2', 'dry-run': 'true' }))
    expect(r.code).toBe(0)
    expect(r.visible).toContain(`Would delete distribution ${a} (a.tar.gz`)
    expect(ops(emu, 'delete-distribution')).toHaveLength(0)
    expect(emu.distributions).toHaveLength(2)
    expect(r.outputs['pruned-distributions']).toBe('0')
  })
})

describe('secrets on failure paths (swept after each test)', () => {
  test('a 5xx whose JSON error echoes the login request: the password is scrubbed from the message', async () => {
    await emulator({ faults: [{ operation: 'login', kind: 'status', status: 500, echo: 'json', times: 1 }] })
    const r = await run(base())
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/Login failed: HTTP 500 \(InternalServerError: Request was: .*"password":"\*\*\*"/)
  })

  test('a 5xx whose JSON error echoes the bearer token on deploy', async () => {
    await emulator({ faults: [{ operation: 'deploy', kind: 'status', status: 500, echo: 'json', times: 1 }] })
    const r = await run(base())
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/authorization=Bearer \*\*\*/)
  })

  test('a 502 whose plain-text body echoes the request is never printed', async () => {
    await emulator({ faults: [{ operation: 'upload', kind: 'status', status: 502, echo: 'text', times: 2 }] })
    const r = await run(base({ 'max-attempts': '2' }))
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/HTTP 502 \(the answer was not a JSON error body\)/)
  })

  test('a crash inside the upload', async () => {
    await emulator({ faults: [{ operation: 'upload', kind: 'reset-mid-upload', afterBytes: 1000, times: 1 }] })
    const r = await run(base({ 'max-attempts': '1' }))
    expect(r.code).toBe(1)
    // Reset while the action writes (ECONNRESET), or while it reads the next stored file (the socket closed
    // under it): which one depends on the moment, and both are the connection failing.
    expect(r.errors[0]).toMatch(
      /The connection to http:\/\/127\.0\.0\.1:\d+ failed during "Upload the distribution" \((ECONNRESET|UND_ERR_SOCKET: other side closed).*on each of up to 1 attempt\(s\) \(max-attempts\).*raise max-attempts/
    )
  })

  test('a misspelt stack: the host does not resolve, tried once, and the error says the stack name is probably wrong', async () => {
    await emulator()
    const r = await run(base({ 'api-url': '', stack: 'no-such-stack-xyz' }))
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(
      /The host api\.no-such-stack-xyz\.bloomreach\.cloud does not exist during "Log in to stack 'no-such-stack-xyz'.*\(ENOTFOUND\): the stack name is probably wrong\. It was tried once and is not retried\./
    )
    expect(r.visible).not.toMatch(/attempt 2/)
  })
})
