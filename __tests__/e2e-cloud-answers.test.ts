// What paged lists and odd answers of the cloud API do to the bundled action: pages smaller than
// asked for, environment lists the platform will not complete, ids as numbers or missing, a failing
// refresh, redirects, and a server that reads the upload slowly.
import { execFileSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmulator, type Emulator, type EmulatorOptions, type StoredDistribution } from '../src/emulator/server.js'
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

const tree = makeDistributionTree(undefined, 50_000)
const base = (over: Record<string, string> = {}) => ({
  'api-url': emu.url,
  username: emu.username,
  password: emu.password,
  distribution: tree,
  environment: 'development',
  ...over
})

/** Puts `n` old distributions on the stack, oldest first (d0 is the oldest). */
function seed(n: number): StoredDistribution[] {
  const seeded = Array.from({ length: n }, (_, i) => {
    const at = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString()
    return {
      id: `d${i}`,
      name: `old-${i}.tar.gz`,
      createdAt: at,
      createdBy: 'x',
      modifiedAt: at,
      modifiedBy: 'x',
      md5hash: '0'.repeat(32),
      sha256: '0'.repeat(64),
      size: 1
    }
  })
  emu.distributions.push(...seeded)
  return seeded
}

describe('paged lists', () => {
  test('distribution pages shorter than asked for: every item is seen, so pruning deletes exactly the oldest', async () => {
    await emulator({ distributionPageSize: 7 })
    seed(20)
    const r = await run(base({ 'max-distributions': '10' }))
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    // 20 stored, at most 9 may stay before the upload: the 11 oldest go, d0..d10.
    expect(ops(emu, 'delete-distribution').map((q) => q.url)).toEqual(Array.from({ length: 11 }, (_, i) => `/v3/distributions/d${i}`))
    expect(ops(emu, 'list-distributions').map((q) => new URL(q.url, emu.url).searchParams.get('offset'))).toEqual(['0', '7', '14'])
    expect(r.outputs['pruned-distributions']).toBe('11')
  })

  test('environments over several pages: the one asked for is found on a later page', async () => {
    await emulator({ environmentPageSize: 1 })
    const r = await run(base({ environment: 'production' }))
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(opsBefore(emu, 'list-environments', 'upload').map((q) => q.url)).toEqual([
      '/v3/environments',
      '/v3/environments?offset=1&max=100',
      '/v3/environments?offset=2&max=100'
    ])
    expect(emu.environments.find((e) => e.name === 'production')?.distributionId).toBe(emu.distributions[0]?.id)
  })

  test('a list the platform will not complete: the environment is looked up by name, and nothing is pruned', async () => {
    await emulator({ environmentPageSize: 1, environmentOffsetIgnored: true })
    seed(5)
    const r = await run(base({ environment: 'production', 'max-distributions': '2' }))
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(ops(emu, 'list-environments').some((q) => q.url === '/v3/environments?name=production')).toBe(true)
    expect(ops(emu, 'delete-distribution')).toEqual([])
    expect(r.visible).toMatch(
      /::warning::max-distributions=2 could not be kept: .* None was deleted, because the platform listed 1 environment\(s\) but said it has more/
    )
    expect(r.outputs['pruned-distributions']).toBe('0')
    expect(emu.environments.find((e) => e.name === 'production')?.distributionId).toBe(emu.distributions.at(-1)?.id)
  })

  test.each(['not-found', 'no-id'] as const)(
    'an incomplete list and an unknown name (?name= answers %s): refused, naming the environments there; nothing uploaded',
    async (unknownEnvironmentByName) => {
      await emulator({ environmentPageSize: 1, environmentOffsetIgnored: true, unknownEnvironmentByName })
      const r = await run(base({ environment: 'staging' }))
      expect(r.code).toBe(1)
      expect(r.errors[0]).toMatch(
        /environment 'staging' does not exist .*The environments there are: 'development' \(the platform listed only these and would not page further/
      )
      expect(ops(emu, 'list-environments').find((q) => q.url === '/v3/environments?name=staging')?.status).toBe(
        unknownEnvironmentByName === 'no-id' ? 200 : 404
      )
      expect(ops(emu, 'upload')).toEqual([])
    }
  )
})

describe('upload answers in other shapes', () => {
  test('a numeric id is read as its digits and deployed', async () => {
    await emulator({ uploadAnswer: 'numeric-id' })
    const r = await run(base())
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs['distribution-id']).toMatch(/^\d+$/)
    expect(r.outputs['distribution-id']).toBe(emu.distributions[0]?.id)
    expect(ops(emu, 'deploy')[0]?.json).toMatchObject({ distributionId: emu.distributions[0]?.id })
  })

  test.each(['no-id', 'empty'] as const)('an answer with %s: the stored upload is found by name and MD5, never uploaded twice', async (shape) => {
    await emulator({ uploadAnswer: shape })
    const r = await run(base())
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(ops(emu, 'upload')).toHaveLength(1)
    expect(emu.distributions).toHaveLength(1)
    expect(r.outputs['distribution-id']).toBe(emu.distributions[0]?.id)
    expect(r.visible).toContain(`without a distribution id; found the upload by its name and MD5: distribution ${emu.distributions[0]?.id}`)
  })
})

describe('tokens and redirects', () => {
  test('a refresh that keeps failing with 503: the session logs in again and the deploy goes through', async () => {
    // Tokens accepted a minute past their exp (clock skew): renewals are the session's own, never forced by a refusal
    // that would depend on where in a second the login fell (exp is whole seconds) and on the machine's speed.
    await emulator({
      tokenLifetimeSeconds: 2,
      tokenClockSkewSeconds: 60,
      uploadBytesPerSecond: 150_000,
      faults: [{ operation: 'refresh', kind: 'status', status: 503, times: 100 }]
    })
    const r = await run(base({ distribution: makeDistributionTree(undefined, 200_000) }))
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(ops(emu, 'refresh').map((q) => q.status)).toContain(503)
    expect(ops(emu, 'login').length).toBeGreaterThanOrEqual(2)
    expect(r.visible).toMatch(/The token refresh failed \(Token refresh failed: HTTP 503.*\); logging in again\./)
    expect(ops(emu, 'deploy').map((q) => q.status)).toEqual([202])
  })

  test('a 3xx answer says where it points, without its query string', async () => {
    await emulator({
      faults: [{ operation: 'login', kind: 'status', status: 301, location: 'https://elsewhere.example/v3/authn/access_token?token=abc', times: 1 }]
    })
    const r = await run(base())
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/Login failed: HTTP 301 \(a redirect to https:\/\/elsewhere\.example\/v3\/authn\/access_token; redirects are not followed/)
    expect(r.errors[0]).not.toContain('token=abc')
  })
})

describe('a server that reads the upload slowly', () => {
  test('bytes still moving through the buffers after the last write do not trip request-timeout-seconds', async () => {
    // 1.5 MB that does not compress, read at 300 KB/s: about 5 s, all of it fitting the socket buffers at once.
    await emulator({ uploadBytesPerSecond: 300_000 })
    const dir = mkdtempSync(join(tmpdir(), 'brcd-slow-'))
    const archive = join(dir, 'slow.tar.gz')
    execFileSync('tar', ['-czf', archive, '-C', makeDistributionTree(undefined, 750_000), '.'])
    const r = await run(base({ distribution: archive, 'request-timeout-seconds': '2', 'max-attempts': '1' }))
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(ops(emu, 'upload').map((q) => q.status)).toEqual([201])
    expect(r.ms).toBeGreaterThan(4_000)
  })

  test('a server that stops reading is still caught', async () => {
    await emulator({ faults: [{ operation: 'upload', kind: 'hang', times: 1 }] })
    // With one attempt, every call before the upload must answer within the limit: 2 s, far above what a busy machine takes.
    const r = await run(base({ 'request-timeout-seconds': '2', 'max-attempts': '1' }))
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/no answer after the whole upload was sent|the upload made no progress for 2 s/)
  })
})

describe('the check runs beside the upload', () => {
  /** An archive of `mb` MB that does not compress, with `last` as its last entry (built by Python's tarfile). */
  function archiveEndingWith(mb: number, last: string): string {
    const dir = mkdtempSync(join(tmpdir(), 'brcd-late-'))
    const file = join(dir, 'late.tar.gz')
    const script = [
      'import io, os, sys, tarfile',
      'with tarfile.open(sys.argv[1], "w:gz") as t:',
      '    for name in ("webapps/ROOT/index.html", "conf/context.xml"):',
      '        data = b"<x/>\\n"; i = tarfile.TarInfo(name); i.size = len(data); t.addfile(i, io.BytesIO(data))',
      '    data = os.urandom(int(sys.argv[2]) * 1000 * 1000); i = tarfile.TarInfo("shared/lib/big.jar"); i.size = len(data); t.addfile(i, io.BytesIO(data))',
      '    data = b"x"; i = tarfile.TarInfo(sys.argv[3]); i.size = 1; t.addfile(i, io.BytesIO(data))'
    ].join('\n')
    execFileSync('python3', ['-c', script, file, String(mb), last])
    return file
  }

  test('a bad entry at the end of a large archive: the upload stops before its last bytes, nothing is stored, the entry is named', async () => {
    await emulator()
    const r = await run(base({ distribution: archiveEndingWith(8, '../../escape.txt') }))
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(/contains an entry '\.\.\/\.\.\/escape\.txt' that has a '\.\.' segment/)
    // The start of the archive was sound, so the upload began; it never completed.
    expect(ops(emu, 'upload').length).toBeGreaterThanOrEqual(1)
    expect(ops(emu, 'upload').every((q) => q.status !== 201)).toBe(true)
    expect(emu.distributions).toEqual([])
    expect(ops(emu, 'deploy')).toEqual([])
    // Never retried: a refused archive is not a network failure.
    expect(r.visible).not.toMatch(/Upload attempt 1 failed/)
  })

  test('the same archive without the bad entry uploads whole, its SHA-256 known once the check is done', async () => {
    await emulator()
    const file = archiveEndingWith(8, 'conf/late.txt')
    const r = await run(base({ distribution: file }))
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(emu.distributions).toHaveLength(1)
    expect(r.outputs['distribution-sha256']).toBe(emu.distributions[0]?.sha256)
  })
})
