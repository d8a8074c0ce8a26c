// End to end: the bundled action as a child process against the emulator over real HTTP.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { makeDistributionTree } from '../scripts/lib/sample-tree.js'
import { expectNoSecrets, extract, ops, opsBefore, run as runAction, secretsOf, sweepAndClose } from './e2e-support.js'

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')

describe('deploy end to end (bundled dist/index.js)', () => {
  let emu: Emulator
  beforeEach(async () => {
    emu = await startEmulator()
  })
  afterEach(async () => {
    await sweepAndClose(emu)
  })

  const creds = () => ({ 'api-url': emu.url + '/', username: emu.username, password: emu.password })

  test('packs a directory, uploads it, deploys it, and reports', async () => {
    const tree = makeDistributionTree()
    const run = await runAction({ ...creds(), stack: 'mystack', distribution: tree, environment: 'development' })
    expect(run.stderr).toBe('')
    expect(run.errors).toEqual([])
    expect(run.code).toBe(0)

    // What the server received: HTTP/1.1 everywhere, no trailing slash, the JSON login.
    for (const r of emu.requests) {
      expect(r.httpVersion).toBe('1.1')
      expect(r.url.split('?')[0]).not.toMatch(/.\/$/)
    }
    const [login, ...moreLogins] = ops(emu, 'login')
    expect(moreLogins).toEqual([])
    expect(login).toMatchObject({ method: 'POST', url: '/v3/authn/access_token', json: { username: emu.username, password: emu.password }, status: 200 })
    expect(login?.headers['content-type']).toMatch(/^application\/json/)
    // Resolved once, before anything changed (later listings follow the deploy until it is applied).
    expect(opsBefore(emu, 'list-environments', 'upload')).toHaveLength(1)

    // One upload, exactly one dist_file part, named after the repository and commit.
    const uploads = ops(emu, 'upload')
    expect(uploads).toHaveLength(1)
    const parts = uploads[0]?.parts ?? []
    expect(parts).toHaveLength(1)
    expect(parts[0]).toMatchObject({ name: 'dist_file', filename: 'site-0123456-distribution.tar.gz' })
    expect(uploads[0]?.headers['content-length']).toMatch(/^\d+$/)
    expect(uploads[0]?.headers['transfer-encoding']).toBeUndefined()

    // The stored archive is exactly the source tree, modes kept, with relative names.
    const stored = emu.distributions[0]
    expect(stored).toBeDefined()
    const extracted = extract(stored?.path as string)
    execFileSync('diff', ['-r', tree, extracted])
    expect(statSync(join(extracted, 'bin/setenv.sh')).mode & 0o777).toBe(0o755)
    const names = execFileSync('tar', ['-tzf', stored?.path as string])
      .toString()
      .trim()
      .split('\n')
    expect(names).toContain('bin/setenv.sh')
    expect(names.every((n) => !n.startsWith('/') && !n.startsWith('./') && !n.split('/').includes('..'))).toBe(true)
    execFileSync('gzip', ['-t', stored?.path as string])

    // The deploy call.
    const env = emu.environments.find((e) => e.name === 'development')
    const deploys = ops(emu, 'deploy')
    expect(deploys).toHaveLength(1)
    expect(deploys[0]).toMatchObject({ method: 'PUT', url: `/v3/environments/${env?.id}/deploy`, json: { distributionId: stored?.id, strategy: 'stopstart' } })
    expect(env?.distributionId).toBe(stored?.id)

    // Outputs, summary and notice.
    expect(run.outputs).toEqual({
      changes: '[]',
      'cloud-api-url': emu.url,
      'distribution-id': stored?.id,
      'distribution-name': 'site-0123456-distribution.tar.gz',
      'distribution-size': String(stored?.size),
      'distribution-sha256': stored?.sha256,
      'environment-id': env?.id,
      'distribution-reused': 'false',
      deployed: 'true',
      'rolled-back': 'false',
      // The emulator switches at once here: the new id is there from the first look on, which proves no switch.
      order: 'unknown',
      'release-state': 'reported',
      'environment-distribution-id': stored?.id
    })
    expect(run.summary).toContain('## Bloomreach Cloud deployment')
    expect(run.summary).toContain("**✅ Deployed, not verified: 'development' reports")
    expect(run.summary).toContain(`\`${stored?.sha256}\``)
    expect(run.summary).toContain(`development (\`${env?.id}\`)`)
    expect(run.summary).toMatch(/\| Upload the distribution \| [\d.]+ (ms|s) \| ✓ \|/)
    expect(run.summary).not.toMatch(/undefined|null|NaN/)
    expect(run.visible).toMatch(/::notice::Deployed site-0123456-distribution\.tar\.gz/)
    for (const group of ['Prepare the distribution', 'Log in to', "Find environment 'development'", 'Upload the distribution', "Deploy to 'development'"]) {
      expect(run.visible).toContain(`::group::${group}`)
    }
    expect(run.visible).toMatch(/Uploading site-0123456-distribution\.tar\.gz: .* \(100%\), [\d.]+ MB\/s/)
    expectNoSecrets([run], secretsOf(emu))
  })

  test('uploads a prebuilt archive found by a glob byte for byte, without deploying', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'brcd-ws-'))
    const tree = makeDistributionTree()
    mkdirSync(join(workspace, 'target'))
    const archive = join(workspace, 'target', 'myproject-1.0.0-distribution.tar.gz')
    execFileSync('tar', ['-czf', archive, '-C', tree, '.'])
    const run = await runAction({ ...creds(), distribution: 'target/*-distribution.tar.gz' }, { workspace })
    expect(run.errors).toEqual([])
    expect(run.code).toBe(0)
    const stored = emu.distributions[0]
    expect(stored?.name).toBe('myproject-1.0.0-distribution.tar.gz')
    expect(stored?.sha256).toBe(sha256(archive))
    expect(run.outputs['distribution-sha256']).toBe(sha256(archive))
    expect(run.outputs['environment-id']).toBeUndefined()
    expect(ops(emu, 'deploy')).toHaveLength(0)
    expect(ops(emu, 'list-environments')).toHaveLength(0)
    expect(run.visible).toMatch(/::notice::Uploaded myproject-1\.0\.0-distribution\.tar\.gz \(\S+\) to .*; no environment given, so nothing was deployed\./)
    expect(run.summary).not.toMatch(/undefined|null|NaN/)
  })

  test('an archive whose entries all sit under one folder: uploaded, with a warning that names the folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'brcd-nested-'))
    const tree = makeDistributionTree(join(dir, 'mysite-1.0'), 1000)
    const archive = join(dir, 'nested.tar.gz')
    execFileSync('tar', ['-czf', archive, '-C', dir, 'mysite-1.0'])
    expect(tree).toContain('mysite-1.0')
    const run = await runAction({ ...creds(), distribution: archive })
    expect(run.code).toBe(0)
    expect(run.visible).toMatch(/::warning::.*under one top-level folder 'mysite-1\.0\/'/)
    expect(emu.distributions).toHaveLength(1)
  })

  test('a wrong password fails at once, naming the stack and the user, never the password', async () => {
    const tree = makeDistributionTree()
    const run = await runAction({ ...creds(), stack: 'mystack', password: 'wrong-Pa55word!', distribution: tree, environment: 'development' })
    expect(run.code).toBe(1)
    expect(run.errors).toHaveLength(1)
    expect(run.errors[0]).toMatch(/Login to stack 'mystack' .* as user 'deployer' was refused \(HTTP 401 AuthenticationFailed\)/)
    expect(run.errors[0]).toMatch(/Check that the username and password/)
    expect(ops(emu, 'login')).toHaveLength(1)
    expect(ops(emu, 'upload')).toHaveLength(0)
    expect(run.visible).not.toContain('wrong-Pa55word!')
    expect(run.summary).not.toContain('wrong-Pa55word!')
    expect(run.summary).toContain('❌ Failed')
  })

  test('an unknown environment fails before the upload, listing the names that exist', async () => {
    const run = await runAction({ ...creds(), distribution: makeDistributionTree(), environment: 'Production' })
    expect(run.code).toBe(1)
    expect(run.errors[0]).toMatch(/environment 'Production' does not exist .* 'development', 'acceptance', 'production'/)
    expect(ops(emu, 'upload')).toHaveLength(0)
    // The summary invents no cause: no "deleted or renamed", no last look at a name the stack never listed.
    expect(run.summary).toContain('**❌ Failed before anything was deployed**')
    expect(run.summary).toContain('| Environment | Production (not resolved to an id) |')
    expect(run.summary).not.toMatch(/\*\*Now:\*\*|deleted or renamed/)
  })

  test('dry run: logs in, packs, resolves the environment, changes nothing', async () => {
    const run = await runAction({ ...creds(), distribution: makeDistributionTree(), environment: 'acceptance', 'dry-run': 'true' })
    expect(run.errors).toEqual([])
    expect(run.code).toBe(0)
    expect(ops(emu, 'login')).toHaveLength(1)
    expect(ops(emu, 'list-environments')).toHaveLength(1)
    expect(ops(emu, 'upload')).toHaveLength(0)
    expect(ops(emu, 'deploy')).toHaveLength(0)
    // A dry run logged in too: it leaves no refresh token valid behind it.
    expect(ops(emu, 'revoke-refresh').map((r) => r.status)).toEqual([200])
    expect(run.visible).toMatch(/::notice::Dry run: would upload .* and deploy it to 'acceptance'/)
    expect(run.outputs['distribution-sha256']).toMatch(/^[0-9a-f]{64}$/)
    expect(run.outputs['distribution-id']).toBeUndefined()
    expect(run.summary).toContain('Dry run: nothing was changed')
  })

  test('bad inputs fail before any request, with one annotation', async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ stack: 'my.stack', 'api-url': '' }, /stack 'my\.stack' is not a valid stack name/],
      [{ distribution: '/no/such/dir' }, /no\/such\/dir/],
      [{ username: '' }, /username is required/],
      [{ 'dry-run': 'perhaps' }, /dry-run 'perhaps' is not a boolean/]
    ]
    const tree = makeDistributionTree()
    for (const [over, why] of cases) {
      const run = await runAction({ ...creds(), distribution: tree, ...over })
      expect(run.code).toBe(1)
      expect(run.errors).toHaveLength(1)
      expect(run.errors[0]).toMatch(why)
    }
    expect(emu.requests).toEqual([])
  })
})

describe('a long job', () => {
  test('tokens living 2 s and a slow upload: the deploy after it renews through the refresh operation', async () => {
    // The stack accepts a token for a minute past its exp (clock skew): exp is whole seconds, so a 2 s token may die
    // after 1 s, before the 90% at which the session renews, and a refusal would then come from where in a second the
    // login fell and how fast the machine is. No refusal can come, so every renewal seen is the session's own.
    const emu = await startEmulator({ tokenLifetimeSeconds: 2, tokenClockSkewSeconds: 60, uploadBytesPerSecond: 150_000 })
    try {
      const tree = makeDistributionTree(undefined, 200_000)
      const run = await runAction({ 'api-url': emu.url, username: emu.username, password: emu.password, distribution: tree, environment: 'production' })
      expect(run.errors).toEqual([])
      expect(run.code).toBe(0)
      expect(run.ms).toBeGreaterThan(2000)
      expect(ops(emu, 'login')).toHaveLength(1)
      const refreshes = ops(emu, 'refresh')
      expect(refreshes.length).toBeGreaterThanOrEqual(1)
      expect(refreshes[0]?.json).toMatchObject({ grant_type: 'refresh_token' })
      // Renewed before the call, not after a refusal: the one deploy call succeeds at once.
      const deploys = ops(emu, 'deploy')
      expect(deploys.map((r) => r.status)).toEqual([202])
      const deploy = deploys[0]
      expect(emu.requests.filter((r) => r.status === 401)).toEqual([])
      expect(emu.environments.find((e) => e.name === 'production')?.distributionId).toBe(emu.distributions[0]?.id)
      const loginToken = ops(emu, 'upload')[0]?.headers.authorization
      expect(deploy?.headers.authorization).not.toBe(loginToken)
      expect(run.summary).toMatch(/\| Token renewals \| [1-9]/)
    } finally {
      await sweepAndClose(emu)
    }
  })
})
