// The emulator's site serves the site webapp as brXM does: the files inside webapps/site.war (a zip), also
// under its context path /site/, then, as the emulator's own convenience, files at the distribution's root.
// The zip reader is tested on archives of the system's zip and jar and of our own writer (scripts/lib).
import { execFileSync } from 'node:child_process'
import { createReadStream, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Readable } from 'node:stream'
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { findZipFile, readZipEntry, readZipIndex, whyUnreadable, type ZipEntry, type ZipSource } from '../src/emulator/zip-reader.js'
import { makeDistributionTree } from '../scripts/lib/sample-tree.js'
import { crc32, zipArchive } from '../scripts/lib/zip-writer.js'

const work = mkdtempSync(join(tmpdir(), 'emulator-site-test-'))
let counter = 0
const fresh = (label: string): string => join(work, `${label}-${++counter}`)

/** Writes `files` under a new folder; returns it. */
function tree(files: Record<string, string | Buffer>): string {
  const dir = fresh('tree')
  mkdirSync(dir, { recursive: true })
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true })
    writeFileSync(join(dir, name), content)
  }
  return dir
}

/** Whether a command runs here; the tests that need it say so in their names when it does not. */
function available(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}
const hasZip = available('zip', ['-v'])
const hasJar = available('jar', ['--version'])
const hasUnzip = available('unzip', ['-v'])
const needs = (has: boolean, command: string, name: string): [typeof test, string] => [
  has ? test : test.skip,
  has ? name : `${name} (skipped: no \`${command}\` command on this machine)`
]

/** A zip read from a file, as the site reads one from inside a stored tar. */
function fileSource(path: string): ZipSource {
  return {
    size: statSync(path).size,
    stream: (offset, length) => (length === 0 ? Readable.from([]) : createReadStream(path, { start: offset, end: offset + length - 1 }))
  }
}

async function bytesOf(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const all: Buffer[] = []
  for await (const chunk of chunks) all.push(chunk)
  return Buffer.concat(all)
}

async function zipFileAt(path: string): Promise<{ source: ZipSource; index: Map<string, ZipEntry>; read: (name: string) => Promise<Buffer> }> {
  const source = fileSource(path)
  const index = await readZipIndex(source)
  const read = async (name: string): Promise<Buffer> => {
    const entry = findZipFile(index, name)
    if (entry === undefined) throw new Error(`no file ${name}`)
    return bytesOf(readZipEntry(source, entry))
  }
  return { source, index, read }
}

const saved = (bytes: Buffer, name = 'archive.zip'): string => {
  const path = join(fresh('zip'), name)
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, bytes)
  return path
}

// Compressible text (deflate shrinks it), random-looking bytes (kept stored with zip -n .bin), a nested path.
const BIG_TEXT = 'brXM site webapp line\n'.repeat(4000)
const BINARY = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919 + 13) % 251))
const WEBAPP = {
  'index.html': '<h1>site home</h1>',
  'version.txt': 'v-war\n',
  'static/css/app.css': 'body{}',
  'static/big.txt': BIG_TEXT,
  'static/data.bin': BINARY
}

describe('the zip reader', () => {
  test('our writer, stored: every entry, a directory entry, a nested path, a missing file', async () => {
    const zip = await zipFileAt(saved(zipArchive({ 'WEB-INF/': '', 'WEB-INF/web.xml': '<web-app/>', ...WEBAPP })))
    expect([...zip.index.keys()]).toEqual(['WEB-INF', 'WEB-INF/web.xml', ...Object.keys(WEBAPP)])
    expect(zip.index.get('WEB-INF')).toMatchObject({ directory: true, size: 0 })
    expect(findZipFile(zip.index, 'WEB-INF')).toBeUndefined() // a directory is no file
    expect([...zip.index.values()].every((e) => e.method === 0)).toBe(true)
    expect((await zip.read('static/css/app.css')).toString()).toBe('body{}')
    expect((await zip.read('./static/big.txt')).toString()).toBe(BIG_TEXT)
    expect(await zip.read('static/data.bin')).toEqual(BINARY)
    expect(findZipFile(zip.index, 'static/nope.txt')).toBeUndefined()
  })

  test('our writer, deflated: read through inflateRaw, checked against size and CRC-32', async () => {
    const zip = await zipFileAt(saved(zipArchive(WEBAPP, { deflate: true })))
    expect(zip.index.get('static/big.txt')).toMatchObject({ method: 8, size: BIG_TEXT.length })
    expect(zip.index.get('static/big.txt')?.compressedSize).toBeLessThan(BIG_TEXT.length / 10)
    expect((await zip.read('static/big.txt')).toString()).toBe(BIG_TEXT)
    expect(await zip.read('static/data.bin')).toEqual(BINARY)
    expect(zip.index.get('version.txt')?.crc32).toBe(crc32(Buffer.from('v-war\n')))
  })

  const [unzipTest, unzipTitle] = needs(hasUnzip, 'unzip', "our writer's archives pass unzip's own test (deflate: %s)")
  unzipTest.each([false, true])(unzipTitle, (deflate) => {
    const out = execFileSync('unzip', ['-t', saved(zipArchive({ 'd/': '', ...WEBAPP }, { deflate }))]).toString()
    expect(out).toContain('No errors detected')
  })

  const [zipTest, zipTitle] = needs(hasZip, 'zip', 'archives made by zip: stored and deflated entries, directory entries, nested paths')
  zipTest(zipTitle, async () => {
    const dir = tree(WEBAPP)
    const path = join(fresh('zip'), 'site.war')
    mkdirSync(dirname(path), { recursive: true })
    execFileSync('zip', ['-q', '-r', '-X', '-n', '.bin', path, '.'], { cwd: dir })
    const zip = await zipFileAt(path)
    expect(zip.index.get('static/data.bin')?.method).toBe(0)
    expect(zip.index.get('static/big.txt')?.method).toBe(8)
    expect(zip.index.get('static/css')?.directory).toBe(true)
    for (const [name, content] of Object.entries(WEBAPP)) expect([name, await zip.read(name)]).toEqual([name, Buffer.from(content)])
    expect(findZipFile(zip.index, 'missing.txt')).toBeUndefined()
  })

  const [encryptedTest, encryptedTitle] = needs(hasZip, 'zip', 'an encrypted entry (zip -P) is listed, and refused by name when read')
  encryptedTest(encryptedTitle, async () => {
    const path = join(fresh('zip'), 'secret.zip')
    mkdirSync(dirname(path), { recursive: true })
    execFileSync('zip', ['-q', '-P', 'secret', path, 'version.txt'], { cwd: tree(WEBAPP) })
    const zip = await zipFileAt(path)
    expect(whyUnreadable(zip.index.get('version.txt') as ZipEntry)).toBe('"version.txt" is encrypted')
    await expect(zip.read('version.txt')).rejects.toThrow('"version.txt" is encrypted')
  })

  const [zip64Test, zip64Title] = needs(hasZip, 'zip', 'a ZIP64 archive (zip -fz) is refused clearly')
  zip64Test(zip64Title, async () => {
    const path = join(fresh('zip'), 'big.zip')
    mkdirSync(dirname(path), { recursive: true })
    execFileSync('zip', ['-q', '-fz', path, 'version.txt'], { cwd: tree(WEBAPP) })
    await expect(readZipIndex(fileSource(path))).rejects.toThrow(/ZIP64/)
  })

  const [jarTest, jarTitle] = needs(hasJar, 'jar', 'archives made by jar: deflated with data descriptors, and stored (--no-compress)')
  jarTest(jarTitle, async () => {
    for (const stored of [false, true]) {
      const path = join(fresh('jar'), 'site.war')
      mkdirSync(dirname(path), { recursive: true })
      execFileSync('jar', ['--create', '--file', path, ...(stored ? ['--no-compress'] : []), '-C', tree(WEBAPP), '.'])
      const zip = await zipFileAt(path)
      expect(zip.index.get('META-INF')?.directory).toBe(true)
      expect((await zip.read('META-INF/MANIFEST.MF')).toString()).toMatch(/^Manifest-Version: 1\.0/)
      expect(zip.index.get('static/big.txt')?.method).toBe(stored ? 0 : 8)
      if (!stored) expect((zip.index.get('static/big.txt')?.flags ?? 0) & 0x8).toBe(0x8) // sizes after the data
      for (const [name, content] of Object.entries(WEBAPP)) expect([name, await zip.read(name)]).toEqual([name, Buffer.from(content)])
    }
  })

  test('what is not a readable zip is refused with the reason', async () => {
    const good = zipArchive(WEBAPP)
    const refused = (bytes: Buffer): Promise<unknown> => readZipIndex(fileSource(saved(bytes)))
    await expect(refused(Buffer.from('not a zip at all, just text'.repeat(10)))).rejects.toThrow('no end of central directory record: not a zip archive')
    await expect(refused(Buffer.alloc(0))).rejects.toThrow(/not a zip archive/)
    await expect(refused(good.subarray(0, good.length - 30))).rejects.toThrow(/not a zip archive/) // cut before its end record
    const centralAt = good.readUInt32LE(good.length - 6)
    const badCentral = Buffer.from(good)
    badCentral.writeUInt32LE(0x12345678, centralAt)
    await expect(refused(badCentral)).rejects.toThrow('no central directory header at byte 0 of the central directory')
    const pastEnd = Buffer.from(good)
    pastEnd.writeUInt32LE(good.length, good.length - 6) // the directory's offset past the archive
    await expect(refused(pastEnd)).rejects.toThrow(/does not end before its end record/)
    const zip64 = Buffer.from(good)
    zip64.writeUInt32LE(0xffffffff, good.length - 6)
    await expect(refused(zip64)).rejects.toThrow("a ZIP64 archive, which the emulator's zip reader does not read")
    const split = Buffer.from(good)
    split.writeUInt16LE(1, good.length - 18)
    await expect(refused(split)).rejects.toThrow('an archive split over several disks')
  })

  test('a damaged entry fails as it is read: its CRC-32, its deflated data, its local header; an unknown method is refused by name', async () => {
    const stored = zipArchive({ 'a.txt': 'hello world\n' })
    const flipped = Buffer.from(stored)
    flipped[30 + 'a.txt'.length] = 'j'.charCodeAt(0) // the first byte of the data
    const damaged = await zipFileAt(saved(flipped))
    await expect(damaged.read('a.txt')).rejects.toThrow('"a.txt" fails its CRC-32 check')

    const deflated = Buffer.from(zipArchive({ 'big.txt': BIG_TEXT }, { deflate: true }))
    deflated.fill(0xff, 30 + 'big.txt'.length, 30 + 'big.txt'.length + 8)
    await expect((await zipFileAt(saved(deflated))).read('big.txt')).rejects.toThrow()

    const noLocal = Buffer.from(stored)
    noLocal.writeUInt32LE(0, 0)
    await expect((await zipFileAt(saved(noLocal))).read('a.txt')).rejects.toThrow('no local header for "a.txt" at byte 0')

    const bzip2 = Buffer.from(stored)
    bzip2.writeUInt16LE(12, bzip2.readUInt32LE(bzip2.length - 6) + 10) // the central header's method
    const odd = await zipFileAt(saved(bzip2))
    await expect(odd.read('a.txt')).rejects.toThrow('"a.txt" uses compression method 12; the emulator reads stored (0) and deflated (8) entries')
  })
})

describe('the site serves the site webapp', () => {
  let emu: Emulator
  let token: string
  beforeAll(async () => {
    emu = await startEmulator({ environments: ['dev'] })
    const login = await fetch(`${emu.url}/v3/authn/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: emu.username, password: emu.password })
    })
    token = ((await login.json()) as { access_token: string }).access_token
  })
  afterAll(async () => {
    await emu.close()
  })

  /** Uploads a distribution made by GNU tar from `dir` (entries named ./x), deploys it to dev, and resolves to its id. */
  async function deploy(dir: string): Promise<string> {
    const archive = `${fresh('dist')}.tar.gz`
    execFileSync('tar', ['-czf', archive, '-C', dir, '.'])
    const form = new FormData()
    form.append('dist_file', new Blob([readFileSync(archive)], { type: 'application/gzip' }), 'site.tar.gz')
    const headers = { authorization: `Bearer ${token}` }
    const uploaded = await fetch(`${emu.url}/v3/distributions`, { method: 'POST', headers, body: form })
    expect(uploaded.status).toBe(201)
    const { id } = (await uploaded.json()) as { id: string }
    const envId = emu.environments[0]?.id ?? ''
    const body = JSON.stringify({ distributionId: id, strategy: 'stopstart' })
    const deployed = await fetch(`${emu.url}/v3/environments/${envId}/deploy`, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json' },
      body
    })
    expect(deployed.status).toBe(202)
    return id
  }

  const site = (path: string, method = 'GET'): Promise<Response> => fetch(`${emu.url}/sites/dev/${path}`, { method })
  const answer = async (path: string, method = 'GET'): Promise<[number, string | null, string]> => {
    const res = await site(path, method)
    return [res.status, res.headers.get('content-type'), await res.text()]
  }

  test("the webapp's files at the host's root and under /site/, nested and deflated; its index.html for a directory", async () => {
    await deploy(tree({ 'webapps/site.war': zipArchive({ 'static/': '', ...WEBAPP }, { deflate: true }) }))
    expect(await answer('version.txt')).toEqual([200, 'text/plain; charset=utf-8', 'v-war\n'])
    expect(await answer('site/version.txt')).toEqual([200, 'text/plain; charset=utf-8', 'v-war\n'])
    expect(await answer('static/css/app.css')).toEqual([200, 'text/css; charset=utf-8', 'body{}'])
    expect(await answer('site/static/big.txt')).toEqual([200, 'text/plain; charset=utf-8', BIG_TEXT])
    expect(Buffer.from(await (await site('static/data.bin')).arrayBuffer())).toEqual(BINARY)
    for (const home of ['', 'site', 'site/']) expect(await answer(home)).toEqual([200, 'text/html; charset=utf-8', '<h1>site home</h1>'])
    expect((await fetch(`${emu.url}/sites/dev`)).status).toBe(200)
  })

  test('HEAD: the uncompressed length, no body', async () => {
    await deploy(tree({ 'webapps/site.war': zipArchive(WEBAPP, { deflate: true }) }))
    const head = await site('static/big.txt', 'HEAD')
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([200, String(BIG_TEXT.length), ''])
    expect((await site('nope.txt', 'HEAD')).status).toBe(404)
  })

  test("the webapp first, then a file at the distribution's root (the emulator's convenience); 404 names both places", async () => {
    const id = await deploy(
      tree({ 'version.txt': 'v-root\n', 'health.txt': 'root health', 'webapps/site.war': zipArchive({ 'WEB-INF/': '', 'version.txt': 'v-war\n' }) })
    )
    expect(await answer('version.txt')).toEqual([200, 'text/plain; charset=utf-8', 'v-war\n'])
    expect(await answer('health.txt')).toEqual([200, 'text/plain; charset=utf-8', 'root health'])
    expect(await answer('webapps/site.war').then((a) => a[0])).toBe(200) // the root convenience serves any file, as before
    const missing = await answer('nope.txt')
    expect(missing).toEqual([
      404,
      'text/plain; charset=utf-8',
      `No file "nope.txt" in webapps/site.war or at the root of distribution ${id} of environment "dev"\n`
    ])
    expect((await answer('WEB-INF'))[0]).toBe(404) // a directory entry is no file
    expect((await answer('site/health.txt'))[0]).toBe(404) // the context path is the webapp's only
  })

  test('without a site.war, root files as before, and the 404 names the distribution only', async () => {
    const id = await deploy(tree({ 'version.txt': 'v-root\n' }))
    expect(await answer('version.txt')).toEqual([200, 'text/plain; charset=utf-8', 'v-root\n'])
    expect(await answer('nope.txt')).toEqual([404, 'text/plain; charset=utf-8', `No file "nope.txt" in distribution ${id} of environment "dev"\n`])
  })

  test('a site.war that is not a zip: 500 on every path, naming it (Tomcat would not start it); EMULATOR-SITE-FAILS still comes first', async () => {
    const id = await deploy(tree({ 'version.txt': 'v-root\n', 'webapps/site.war': 'not a zip' }))
    for (const path of ['version.txt', '', 'site/x']) {
      const [status, , text] = await answer(path)
      expect([path, status, text]).toEqual([
        path,
        500,
        `webapps/site.war of distribution ${id} is not a zip the emulator can read (no end of central directory record: not a zip archive): its site webapp would not start\n`
      ])
    }
    await deploy(tree({ 'EMULATOR-SITE-FAILS': '', 'webapps/site.war': zipArchive(WEBAPP) }))
    const [status, , text] = await answer('version.txt')
    expect([status, text]).toEqual([500, expect.stringContaining('EMULATOR-SITE-FAILS: its site fails')])
  })

  test('an entry the emulator cannot read: 500 naming it; a damaged one is cut off (its CRC-32)', async () => {
    const war = Buffer.from(zipArchive({ 'a.txt': 'hello world\n', 'b.txt': 'fine' }))
    war.writeUInt16LE(12, war.readUInt32LE(war.length - 6) + 10) // a.txt's method: bzip2
    await deploy(tree({ 'webapps/site.war': war }))
    const [status, , text] = await answer('a.txt')
    expect([status, text]).toEqual([500, expect.stringContaining('"a.txt" uses compression method 12')])
    expect(await answer('b.txt')).toEqual([200, 'text/plain; charset=utf-8', 'fine'])

    const damaged = Buffer.from(zipArchive({ 'a.txt': 'hello world\n' }))
    damaged[30 + 'a.txt'.length] = 'j'.charCodeAt(0)
    await deploy(tree({ 'webapps/site.war': damaged }))
    // The connection is cut before the last bytes: the request or its body fails, never a whole answer.
    const body = await site('a.txt')
      .then((res) => res.text())
      .catch(() => undefined)
    expect(body).toBeUndefined()
  })

  const [jarTest, jarTitle] = needs(hasJar, 'jar', 'a site.war made by jar, as Maven packs a webapp')
  jarTest(jarTitle, async () => {
    const dist = tree({})
    mkdirSync(join(dist, 'webapps'))
    execFileSync('jar', ['--create', '--file', join(dist, 'webapps', 'site.war'), '-C', tree(WEBAPP), '.'])
    await deploy(dist)
    expect(await answer('site/static/big.txt')).toEqual([200, 'text/plain; charset=utf-8', BIG_TEXT])
    expect((await answer('META-INF/MANIFEST.MF'))[2]).toMatch(/^Manifest-Version/)
  })

  test("the sample distribution's site.war: its own index.html, and the version page a build adds", async () => {
    const sample = makeDistributionTree(undefined, 1_000, { 'version.txt': 'sample-v1\n' })
    await deploy(sample)
    expect(await answer('version.txt')).toEqual([200, 'text/plain; charset=utf-8', 'sample-v1\n'])
    expect(await answer('')).toEqual([200, 'text/html; charset=utf-8', '<html>site</html>\n'])
    expect((await answer('WEB-INF/web.xml'))[0]).toBe(200)
    if (hasUnzip) expect(execFileSync('unzip', ['-t', join(sample, 'webapps', 'site.war')]).toString()).toContain('No errors detected')
  })
})
