// Choosing the distribution (src/deploy/source.ts), in-process against the emulator over real HTTP, with real
// archives on disk: distribution-id, from-environment, an identical stored one reused, or the archive uploaded
// after pruning; the lookups that refuse a run before anything changes (environments, config files), word for
// word; what the platform received; a dry run that sends no change.
import { useTestPort } from './test-port.js'
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmulator, type Emulator, type EmulatorOptions, type RecordedRequest } from '../src/emulator/server.js'
import { makeDistributionTree } from '../scripts/lib/sample-tree.js'
import { runDeploy } from './deploy-run.js'

const lines: Array<{ kind: 'info' | 'warning' | 'notice'; text: string }> = []
useTestPort({
  info: (text: string) => lines.push({ kind: 'info', text }),
  warning: (text: string) => lines.push({ kind: 'warning', text }),
  notice: (text: string) => lines.push({ kind: 'notice', text }),
  debug: () => undefined,
  setSecret: () => undefined,
  getInput: () => '',
  isDebug: () => false
})

const { InputError, ServiceError } = await import('../src/errors.js')

const said = (kind: 'info' | 'warning' | 'notice'): string[] => lines.filter((l) => l.kind === kind).map((l) => l.text)

let emu: Emulator
async function emulator(options: EmulatorOptions = {}): Promise<Emulator> {
  emu = await startEmulator(options)
  return emu
}
afterEach(async () => {
  await emu?.close()
})
beforeEach(() => {
  lines.length = 0
})

const ops = (op: string): RecordedRequest[] => emu.requests.filter((r) => r.operation === op)
/** The calls that change the stack. */
const changes = (): string[] => emu.requests.filter((r) => ['upload', 'delete-distribution', 'deploy'].includes(r.operation)).map((r) => r.operation)

/** A real tar.gz of a distribution tree, named as it will be stored. */
function archiveFile(name = 'site-1.0.0-distribution.tar.gz', version = 'v1'): { path: string; md5: string; size: number } {
  const tree = makeDistributionTree(undefined, 2_000)
  writeFileSync(join(tree, 'version.txt'), `${version}\n`)
  const dir = mkdtempSync(join(tmpdir(), 'brcd-src-'))
  const path = join(dir, name)
  execFileSync('tar', ['-czf', path, '-C', tree, '.'])
  const bytes = readFileSync(path)
  return { path, md5: createHash('md5').update(bytes).digest('hex'), size: bytes.length }
}

const run = (values: Record<string, string>, verify?: () => Promise<string | undefined>) => runDeploy(emu, values, verify)

describe('findEnvironment: an environment that does not exist', () => {
  test('environment: the names there, quoted, in the order listed; the target names the stack', async () => {
    await emulator()
    const { error } = await run({ 'distribution-id': 'd-1', environment: 'Production', stack: 'mystack' })
    expect(error).toBeInstanceOf(InputError)
    expect((error as Error).message).toBe(
      `environment 'Production' does not exist on stack 'mystack' (${emu.url}). The environments there are: 'development', 'acceptance', 'production'. Names are case-sensitive.`
    )
    expect(changes()).toEqual([])
  })

  test("from-environment: the input is named; a list the platform would not complete says so; none listed says 'none'", async () => {
    await emulator({ environmentPageSize: 1, environmentOffsetIgnored: true })
    const { error } = await run({ 'from-environment': 'staging', environment: 'development' })
    expect((error as Error).message).toBe(
      `from-environment 'staging' does not exist on ${emu.url}. The environments there are: 'development' (the platform listed only these and would not page further, and a lookup by name found nothing). Names are case-sensitive.`
    )
  })
})

test("findEnvironment: a stack without environments lists 'none'", async () => {
  await emulator({ environments: [] })
  const { error } = await run({ 'distribution-id': 'd-1', environment: 'development' })
  expect((error as Error).message).toBe(`environment 'development' does not exist on ${emu.url}. The environments there are: none. Names are case-sensitive.`)
})

describe('resolveConfigFiles: names the stack has, in the order given; an unknown one refused before any change', () => {
  test('one unknown name among known ones: "does not exist", the names there listed', async () => {
    await emulator({ appConfigFiles: ['a.properties', 'b.properties'] })
    const id = await emu.addDistribution('d.tar.gz', { 'version.txt': 'd\n' })
    const { error } = await run({ 'distribution-id': id, environment: 'development', 'config-files': 'a.properties, c.properties' })
    expect(error).toBeInstanceOf(InputError)
    expect((error as Error).message).toBe(
      `config-files names 'c.properties', which does not exist on ${emu.url}. The application configuration files there are: 'a.properties', 'b.properties'. Names are case-sensitive.`
    )
    expect(changes()).toEqual([])
  })

  test('two unknown names: "do not exist"; a stack without config files lists none', async () => {
    await emulator()
    const id = await emu.addDistribution('d.tar.gz', { 'version.txt': 'd\n' })
    const { error } = await run({ 'distribution-id': id, environment: 'development', 'config-files': 'x.properties\ny.properties' })
    expect((error as Error).message).toBe(
      `config-files names 'x.properties', 'y.properties', which do not exist on ${emu.url}. The application configuration files there are: none. Names are case-sensitive.`
    )
  })

  test('known names: their ids, in the order given, sent with the deploy', async () => {
    await emulator({ appConfigFiles: ['a.properties', 'b.properties', 'c.properties'] })
    const id = await emu.addDistribution('d.tar.gz', { 'version.txt': 'd\n' })
    const [a, b, c] = emu.appConfigFiles.map((f) => f.id)
    const { error } = await run({ 'distribution-id': id, environment: 'development', 'config-files': 'c.properties,a.properties' })
    expect(error).toBeUndefined()
    expect(b).toBeDefined()
    expect(ops('deploy').map((d) => d.json)).toEqual([
      {
        distributionId: id,
        strategy: 'stopstart',
        appConfigFileRoles: [
          { appConfigFileId: c, role: 'systemproperty' },
          { appConfigFileId: a, role: 'systemproperty' }
        ]
      }
    ])
  })
})

describe('distribution-id', () => {
  test('one the stack does not hold: refused, with where to copy an id from', async () => {
    await emulator()
    const { error, phases } = await run({ 'distribution-id': 'd-404', environment: 'development', stack: 'mystack' })
    expect(error).toBeInstanceOf(InputError)
    expect((error as Error).message).toBe(
      `distribution-id 'd-404' does not exist on stack 'mystack' (${emu.url}). Copy the id from the console or from an earlier run's distribution-id output.`
    )
    expect(phases).toContain('Check distribution d-404')
    expect(changes()).toEqual([])
  })

  test('one the stack holds: said with its name, the name noted, deployed as it is (no upload)', async () => {
    await emulator()
    const id = await emu.addDistribution('named-1.0-distribution.tar.gz', { 'version.txt': 'd\n' })
    const { result, error } = await run({ 'distribution-id': id, environment: 'development' })
    expect(error).toBeUndefined()
    expect(said('info')).toContain(`Distribution ${id} (named-1.0-distribution.tar.gz) is on the stack.`)
    expect(result.knownName).toBe('named-1.0-distribution.tar.gz')
    expect(result.distributionId).toBe(id)
    expect(changes()).toEqual(['deploy'])
  })

  test('one stored without a name: said without one', async () => {
    await emulator()
    const id = await emu.addDistribution('x.tar.gz', { 'version.txt': 'd\n' })
    const stored = emu.distributions.find((d) => d.id === id)
    if (stored) stored.name = ''
    const { result } = await run({ 'distribution-id': id, environment: 'development', 'dry-run': 'true' })
    expect(said('info')).toContain(`Distribution ${id} is on the stack.`)
    expect(result.knownName).toBe('')
  })
})

describe('from-environment', () => {
  test('an environment that runs nothing: refused, with what to do', async () => {
    await emulator()
    const { error, phases } = await run({ 'from-environment': 'acceptance', environment: 'production' })
    expect(error).toBeInstanceOf(InputError)
    expect((error as Error).message).toBe(`from-environment 'acceptance' runs no distribution on ${emu.url}: deploy to it first, or set distribution-id.`)
    expect(phases).toContain("Find what 'acceptance' runs")
    expect(changes()).toEqual([])
  })

  test('what it runs is deployed, its stored name noted', async () => {
    await emulator()
    const id = await emu.addDistribution('accepted-2.0-distribution.tar.gz', { 'version.txt': 'a\n' })
    emu.deployAs('acceptance', id)
    const { result, error, phases } = await run({ 'from-environment': 'acceptance', environment: 'production' })
    expect(error).toBeUndefined()
    expect(phases).toContain("Find what 'acceptance' runs")
    expect(said('info')).toContain(`Environment 'acceptance' runs distribution ${id}.`)
    expect(result.knownName).toBe('accepted-2.0-distribution.tar.gz')
    expect(result.distributionId).toBe(id)
    expect(ops('deploy').map((d) => d.json)).toEqual([{ distributionId: id, strategy: 'stopstart' }])
  })
})

/** Someone else's distribution stored `hoursAgo` hours ago; `md5` makes it look identical to an archive of ours. */
async function stored(name: string, hoursAgo: number, md5?: string): Promise<string> {
  const id = await emu.addDistribution(name, { 'version.txt': `${name}\n` })
  const record = emu.distributions.find((d) => d.id === id)
  if (record) {
    record.createdAt = new Date(Date.now() - hoursAgo * 3_600_000).toISOString()
    if (md5 !== undefined) record.md5hash = md5
  }
  return id
}

describe('an identical stored distribution: same name and MD5', () => {
  const NAME = 'site-1.0.0-distribution.tar.gz'

  test('reused, no upload: said, the result tells; the listing is noted for a later upload', async () => {
    await emulator()
    const archive = archiveFile(NAME)
    const other = await stored('other.tar.gz', 2, archive.md5)
    const same = await stored(NAME, 2, archive.md5.toUpperCase())
    const { result, error, phases } = await run({ distribution: archive.path, environment: 'development' })
    expect(error).toBeUndefined()
    expect(phases).toContain('Look for an identical distribution')
    expect(said('info')).toContain(`The stack already holds ${NAME} with the same MD5 as distribution ${same}: reusing it, no upload.`)
    expect(result.reused).toBe(true)
    expect(result.distributionId).toBe(same)
    expect(result.listedBefore).toEqual([other, same])
    expect(result.storedBefore).toBe(2)
    expect(result.upload).toBeUndefined()
    expect(changes()).toEqual(['deploy'])
    expect(ops('deploy')[0]?.json).toEqual({ distributionId: same, strategy: 'stopstart' })
  })

  test('on a dry run: "would reuse it", and nothing is sent', async () => {
    await emulator()
    const archive = archiveFile(NAME)
    const same = await stored(NAME, 2, archive.md5)
    const { result, error } = await run({ distribution: archive.path, environment: 'development', 'dry-run': 'true' })
    expect(error).toBeUndefined()
    expect(result.plan).toContain(`The stack already holds ${NAME} with the same MD5 as distribution ${same}: would reuse it, no upload.`)
    expect(result.reused).toBe(true)
    expect(changes()).toEqual([])
  })

  test('same name, another MD5 (and the same MD5 under another name): uploaded, said so', async () => {
    await emulator()
    const archive = archiveFile(NAME)
    const before = await stored(NAME, 2)
    const renamed = await stored('renamed.tar.gz', 2, archive.md5)
    const { result, error } = await run({ distribution: archive.path, environment: 'development' })
    expect(error).toBeUndefined()
    expect(said('info')).toContain(`No distribution named ${NAME} with this MD5 on the stack: uploading it.`)
    expect(result.reused).toBe(false)
    expect(result.listedBefore).toEqual([before, renamed])
    const uploaded = emu.distributions.at(-1)
    expect(result.distributionId).toBe(uploaded?.id)
    expect(result.upload).toEqual({ distributionId: uploaded?.id, storedName: NAME, attempts: 1, adopted: false })
    expect(result.uploadUnconfirmed).toBe(false)
    expect(said('info')).toContain(`Uploaded: distribution id ${uploaded?.id} (${NAME}).`)
    expect(changes()).toEqual(['upload', 'deploy'])
  })

  test('on a dry run, none identical: "would upload it", nothing sent', async () => {
    await emulator()
    const archive = archiveFile(NAME)
    const { result, error } = await run({ distribution: archive.path, 'dry-run': 'true' })
    expect(error).toBeUndefined()
    expect(result.plan).toEqual([`No distribution named ${NAME} with this MD5 on the stack: would upload it.`])
    expect(result.storedBefore).toBe(0)
    expect(changes()).toEqual([])
  })
})

describe('pruning before the upload (max-distributions)', () => {
  test('deletes the oldest to make room; counts what was stored after it', async () => {
    await emulator()
    const a = await stored('a.tar.gz', 5)
    await stored('b.tar.gz', 4)
    await stored('c.tar.gz', 3)
    const { result, error, phases } = await run({ distribution: archiveFile().path, 'max-distributions': '3' })
    expect(error).toBeUndefined()
    expect(phases).toContain('Prune old distributions')
    expect(ops('delete-distribution').map((q) => q.url.split('/').pop())).toEqual([a])
    expect(result.pruned).toBe(1)
    expect(result.wouldPrune).toBeUndefined()
    expect(result.storedBefore).toBe(2)
    expect(changes()).toEqual(['delete-distribution', 'upload'])
  })

  test('a dry run counts what it would delete and deletes nothing', async () => {
    await emulator()
    await stored('a.tar.gz', 5)
    await stored('b.tar.gz', 4)
    await stored('c.tar.gz', 3)
    const { result, error } = await run({ distribution: archiveFile().path, 'max-distributions': '2', 'dry-run': 'true' })
    expect(error).toBeUndefined()
    expect(result.wouldPrune).toBe(2)
    expect(result.pruned).toBeUndefined()
    expect(result.storedBefore).toBe(3)
    expect(changes()).toEqual([])
  })

  test('environments the platform would not list in full: nothing pruned, warned why', async () => {
    await emulator({ environmentPageSize: 1, environmentOffsetIgnored: true })
    await stored('a.tar.gz', 5)
    await stored('b.tar.gz', 4)
    const { result, error } = await run({ distribution: archiveFile().path, environment: 'development', 'max-distributions': '1' })
    expect(error).toBeUndefined()
    expect(said('warning')).toContain(
      'max-distributions=1 could not be kept: the stack holds 2 distributions (0 deleted), 3 with this upload. None was deleted, because the platform ' +
        'listed 1 environment(s) but said it has more and would not list them, so a distribution that an unlisted environment runs could be deleted.'
    )
    expect(result.pruned).toBe(0)
    expect(result.storedBefore).toBe(2)
    expect(changes()).toEqual(['upload', 'deploy'])
  })
})

describe('the upload', () => {
  /** The message of a 413 as the platform gave it, before the action's own words. */
  const platformPart = (message: string): string => message.split('. The platform refused the archive as too large')[0] ?? ''

  test("too large for the platform (413): the archive's size, and what to do; max-distribution-mb at its default is not mentioned", async () => {
    await emulator({ maxDistributionBytes: 1_000 })
    const archive = archiveFile()
    const { error, result } = await run({ distribution: archive.path })
    expect(error).toBeInstanceOf(ServiceError)
    const message = (error as Error).message
    expect(platformPart(message)).not.toBe('')
    expect(message).toBe(
      `${platformPart(message)}. The platform refused the archive as too large (413): it is ${(archive.size / 1024).toFixed(1)} KB (${archive.size} bytes). ` +
        "Make the distribution smaller (leave logs, caches and duplicate jars out of it), or ask Bloomreach support about the stack's upload limit."
    )
    expect((error as InstanceType<typeof ServiceError>).status).toBe(413)
    expect(result.upload).toBeUndefined()
  })

  test('too large, with max-distribution-mb raised: said that raising it did not help', async () => {
    await emulator({ maxDistributionBytes: 1_000 })
    const archive = archiveFile()
    const { error } = await run({ distribution: archive.path, 'max-distribution-mb': '700' })
    const message = (error as Error).message
    expect(message).toBe(
      `${platformPart(message)}. The platform refused the archive as too large (413): it is ${(archive.size / 1024).toFixed(1)} KB (${archive.size} bytes).` +
        " max-distribution-mb (700) is above its default of 650, but it sets only this action's own check before the upload, not the platform's limit. " +
        "Make the distribution smaller (leave logs, caches and duplicate jars out of it), or ask Bloomreach support about the stack's upload limit."
    )
  })

  test('max-distribution-mb below its default: nothing said about it', async () => {
    await emulator({ maxDistributionBytes: 1_000 })
    const { error } = await run({ distribution: archiveFile().path, 'max-distribution-mb': '1' })
    expect((error as Error).message).toMatch(/\(\d+ bytes\)\. Make the distribution smaller/)
  })

  test('another refusal is passed on as the platform said it', async () => {
    await emulator({ faults: [{ operation: 'upload', kind: 'status', status: 400, times: 1 }] })
    const { error } = await run({ distribution: archiveFile().path })
    expect(error).toBeInstanceOf(ServiceError)
    expect((error as Error).message).not.toContain('too large')
    expect((error as InstanceType<typeof ServiceError>).status).toBe(400)
  })

  test('the whole body sent and no answer, no attempt left: the result says the stack may hold it', async () => {
    await emulator({ faults: [{ operation: 'upload', kind: 'drop-after-upload', times: 1 }] })
    const { error, result } = await run({ distribution: archiveFile().path, 'max-attempts': '1' })
    expect(error).toBeDefined()
    expect(result.uploadUnconfirmed).toBe(true)
    expect(result.upload).toBeUndefined()
  })

  test('the answer lost, the stored copy found on the next attempt: adopted, said so', async () => {
    await emulator({ faults: [{ operation: 'upload', kind: 'drop-after-upload', times: 1 }] })
    const NAME = 'site-1.0.0-distribution.tar.gz'
    const { error, result } = await run({ distribution: archiveFile(NAME).path, 'max-attempts': '2' })
    expect(error).toBeUndefined()
    const id = emu.distributions[0]?.id
    expect(emu.distributions).toHaveLength(1)
    expect(result.upload).toEqual({ distributionId: id, storedName: NAME, attempts: 2, adopted: true })
    expect(result.uploadUnconfirmed).toBe(false)
    expect(said('info')).toContain(`Adopted: distribution id ${id} (${NAME}).`)
  })
})

describe('max-distributions when nothing is uploaded: none deleted, and said so (issue 29)', () => {
  test('an identical distribution reused: pruned 0, no delete', async () => {
    await emulator()
    const file = archiveFile()
    await stored('a.tar.gz', 5)
    await stored('site-1.0.0-distribution.tar.gz', 4, file.md5)
    const { result, error } = await run({ distribution: file.path, 'max-distributions': '1' })
    expect(error).toBeUndefined()
    expect(result.reused).toBe(true)
    expect(result.pruned).toBe(0)
    expect(ops('delete-distribution')).toEqual([])
  })

  test('a distribution by id: pruned 0; on a dry run, would delete 0; without max-distributions, not set', async () => {
    await emulator()
    await stored('a.tar.gz', 5)
    const id = await stored('b.tar.gz', 4)
    const given = { 'distribution-id': id, environment: 'development' }
    const dry = await run({ ...given, 'max-distributions': '1', 'dry-run': 'true' })
    expect([dry.result.wouldPrune, dry.result.pruned]).toEqual([0, undefined])
    expect((await run({ ...given, 'max-distributions': '1' })).result.pruned).toBe(0)
    expect((await run({ ...given, 'force-deploy': 'true' })).result.pruned).toBeUndefined()
    expect(ops('delete-distribution')).toEqual([])
  })
})
