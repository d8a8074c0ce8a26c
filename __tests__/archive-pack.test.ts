// packDirectory against real GNU tar and gzip: pack a tree, extract it with GNU tar, compare everything.
import { execFileSync } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { checkArchive } from '../src/archive/check.js'
import { packDirectory } from '../src/archive/pack.js'
import { InputError } from '../src/errors.js'

let tmp: string
let src: string
let archive: string

const LONG_PATH = `deep/${'a'.repeat(60)}/${'b'.repeat(80)}.txt` // 150 chars: ustar prefix + name
const LONG_COMPONENT = `deep/${'c'.repeat(120)}.txt` // a 124-char base name: needs a PAX path
const VERY_LONG = `deep/${'d'.repeat(90)}/${'e'.repeat(90)}/${'f'.repeat(90)}.txt` // > 255 chars
const LONG_TARGET = `../${LONG_PATH}` // symlink target > 100 chars: PAX linkpath
const FIXED_MTIME = new Date('2021-03-04T05:06:07Z')

function write(rel: string, content: string | Buffer, mode = 0o644): void {
  const full = path.join(src, rel)
  fs.mkdirSync(path.dirname(full), { recursive: true })
  fs.writeFileSync(full, content)
  fs.chmodSync(full, mode)
}

function fileDigest(file: string, algorithm: string): string {
  return createHash(algorithm).update(fs.readFileSync(file)).digest('hex')
}

interface Node {
  type: 'file' | 'dir' | 'link'
  mode: number
  data?: Buffer
  target?: string
  mtime?: number
}

/** Everything under root, keyed by relative name. */
function snapshot(root: string): Map<string, Node> {
  const out = new Map<string, Node>()
  const visit = (dir: string, prefix: string): void => {
    for (const name of fs.readdirSync(dir)) {
      const full = path.join(dir, name)
      const rel = prefix + name
      const st = fs.lstatSync(full)
      if (st.isSymbolicLink()) out.set(rel, { type: 'link', mode: 0, target: fs.readlinkSync(full) })
      else if (st.isDirectory()) {
        out.set(rel, { type: 'dir', mode: st.mode & 0o7777 })
        visit(full, `${rel}/`)
      } else if (st.isFile()) {
        out.set(rel, { type: 'file', mode: st.mode & 0o7777, data: fs.readFileSync(full), mtime: Math.floor(st.mtimeMs / 1000) })
      }
    }
  }
  visit(root, '')
  return out
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'archive-pack-'))
  src = path.join(tmp, 'src')
  fs.mkdirSync(src)
  write('bin/setenv.sh', '#!/bin/sh\nexport CATALINA_OPTS="-Xmx2g"\n', 0o755)
  write('conf/context.xml', '<Context/>\n')
  write('conf/catalina.properties', 'a=b\n', 0o600)
  write('webapps/cms.war', randomBytes(5 * 1024 * 1024 + 17))
  write('zero.txt', '')
  write('b512.bin', randomBytes(512))
  write('b513.bin', randomBytes(513))
  write(LONG_PATH, 'long path\n')
  write(LONG_COMPONENT, 'long component\n')
  write(VERY_LONG, 'very long\n')
  write('données/café-ñ.txt', 'non-ascii\n')
  write('日本/設定.txt', 'cjk\n')
  fs.mkdirSync(path.join(src, 'empty'))
  fs.mkdirSync(path.join(src, 'lib'))
  fs.symlinkSync('../conf/context.xml', path.join(src, 'lib/context-link.xml'))
  fs.symlinkSync(LONG_TARGET, path.join(src, 'deep/long-link'))
  fs.symlinkSync('does-not-exist', path.join(src, 'dangling'))
  execFileSync('mkfifo', [path.join(src, 'conf/pipe')])
  fs.utimesSync(path.join(src, 'conf/context.xml'), FIXED_MTIME, FIXED_MTIME)

  archive = path.join(tmp, 'out', 'dist.tar.gz')
  const info = await packDirectory(src, archive)
  expect(info.path).toBe(archive)
})

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
})

test('the archive passes gzip -t and GNU tar lists relative names in sorted order', () => {
  execFileSync('gzip', ['-t', archive])
  const names = execFileSync('tar', ['-tzf', archive], { encoding: 'utf8' }).trim().split('\n')
  expect(names).toContain('bin/')
  expect(names).toContain('bin/setenv.sh')
  expect(names).toContain('webapps/cms.war')
  expect(names).toContain('empty/')
  expect(names).toContain(LONG_PATH)
  expect(names).toContain(LONG_COMPONENT)
  expect(names).toContain(VERY_LONG)
  expect(names).toContain('données/café-ñ.txt')
  expect(names).not.toContain('conf/pipe')
  for (const name of names) {
    expect(name.startsWith('./')).toBe(false)
    expect(name.startsWith('/')).toBe(false)
    expect(name.includes('PaxHeaders')).toBe(false)
  }
  // Depth-first, each directory's children in byte order.
  expect(names.indexOf('bin/')).toBeLessThan(names.indexOf('bin/setenv.sh'))
  expect(names.indexOf('b512.bin')).toBeLessThan(names.indexOf('b513.bin'))
  expect(names.indexOf('b513.bin')).toBeLessThan(names.indexOf('bin/'))

  const verbose = execFileSync('tar', ['-tvzf', archive], { encoding: 'utf8' })
  expect(verbose).toMatch(/-rwxr-xr-x 0\/0 +\d+ [-\d: ]+ bin\/setenv\.sh/)
  expect(verbose).toMatch(/lrwxrwxrwx 0\/0 +0 [-\d: ]+ lib\/context-link\.xml -> \.\.\/conf\/context\.xml/)
})

test('extracting with GNU tar reproduces every file, mode, mtime and symlink', () => {
  const dest = path.join(tmp, 'extracted')
  fs.mkdirSync(dest)
  execFileSync('tar', ['-xzf', archive, '-C', dest])
  const expected = snapshot(src)
  expected.delete('conf/pipe')
  const actual = snapshot(dest)
  expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort())
  for (const [name, want] of expected) {
    const got = actual.get(name)
    expect({ name, type: got?.type, mode: got?.mode, target: got?.target }).toEqual({
      name,
      type: want.type,
      mode: want.mode,
      target: want.target
    })
    if (want.type === 'file') {
      expect(got?.data?.equals(want.data as Buffer)).toBe(true)
      expect(got?.mtime).toBe(want.mtime)
    }
  }
  expect(actual.get('conf/context.xml')?.mtime).toBe(FIXED_MTIME.getTime() / 1000)
  expect(actual.get('bin/setenv.sh')?.mode).toBe(0o755)
  expect(actual.get('empty')?.type).toBe('dir')
})

test('returns size, sha256 and md5 of the file on disk, and checkArchive agrees', async () => {
  const info = await checkArchive(archive)
  const size = fs.statSync(archive).size
  expect(info.size).toBe(size)
  expect(info.sha256).toBe(fileDigest(archive, 'sha256'))
  expect(info.md5).toBe(fileDigest(archive, 'md5'))
  const listed = execFileSync('tar', ['-tzf', archive], { encoding: 'utf8' }).trim().split('\n').length
  expect(info.entries).toBe(listed)

  const again = path.join(tmp, 'again.tar.gz')
  const packed = await packDirectory(src, again)
  expect(packed).toMatchObject({ fileName: 'again.tar.gz', size, sha256: info.sha256, md5: info.md5, entries: listed, packed: true })
})

test('is reproducible, honours the level and reports progress', async () => {
  let last = 0
  const calls: number[] = []
  const fast = await packDirectory(src, path.join(tmp, 'fast.tar.gz'), {
    level: 1,
    onProgress: (n) => {
      calls.push(n)
      last = n
    }
  })
  const contentBytes = [...snapshot(src).values()].reduce((sum, n) => sum + (n.type === 'file' ? (n.data?.length ?? 0) : 0), 0)
  expect(last).toBe(contentBytes)
  expect(calls.length).toBeGreaterThan(1)
  expect(calls).toEqual([...calls].sort((a, b) => a - b))
  const best = await packDirectory(src, path.join(tmp, 'best.tar.gz'), { level: 9 })
  expect(best.sha256).not.toBe(fast.sha256)
  execFileSync('gzip', ['-t', path.join(tmp, 'fast.tar.gz'), path.join(tmp, 'best.tar.gz')])
  // The inputs module validates compression-level; a wrong level from code is a plain RangeError.
  await expect(packDirectory(src, path.join(tmp, 'bad.tar.gz'), { level: 10 })).rejects.toThrow(RangeError)
  expect(fs.existsSync(path.join(tmp, 'bad.tar.gz'))).toBe(false)
})

test('refuses a packed archive over maxBytes and deletes it; one that fits exactly passes', async () => {
  const out = path.join(tmp, 'limit.tar.gz')
  const size = (await packDirectory(src, out)).size
  expect((await packDirectory(src, out, { maxBytes: size })).size).toBe(size)
  const attempt = packDirectory(src, out, { maxBytes: size - 1, input: 'dist/' })
  await expect(attempt).rejects.toThrow(InputError)
  await expect(attempt).rejects.toThrow(/^distribution: the archive packed from 'dist\/' is .*, over the limit of .* per distribution/)
  expect(fs.existsSync(out)).toBe(false)
})

test('leaves out the archive when it is written inside the directory being packed', async () => {
  const dir = path.join(tmp, 'self')
  fs.mkdirSync(dir)
  fs.writeFileSync(path.join(dir, 'a.txt'), 'a')
  const out = path.join(dir, 'self.tar.gz')
  const info = await packDirectory(dir, out)
  expect(info.entries).toBe(1)
  expect(execFileSync('tar', ['-tzf', out], { encoding: 'utf8' }).trim()).toBe('a.txt')
})

test('refuses an empty or a missing directory', async () => {
  const empty = path.join(tmp, 'nothing')
  fs.mkdirSync(empty)
  await expect(packDirectory(empty, path.join(tmp, 'nothing.tar.gz'))).rejects.toThrow(InputError)
  await expect(packDirectory(empty, path.join(tmp, 'nothing.tar.gz'))).rejects.toThrow(/empty; there is nothing to deploy/)
  await expect(packDirectory(path.join(tmp, 'missing'), path.join(tmp, 'missing.tar.gz'))).rejects.toThrow(/does not exist/)
  expect(fs.existsSync(path.join(tmp, 'nothing.tar.gz'))).toBe(false)
})

/** Compressible bytes (text): deflated while packing, not stored for sending. */
const text = (bytes: number): Buffer => Buffer.from('brxm hippo jcr node property content document folder\n'.repeat(Math.ceil(bytes / 52))).subarray(0, bytes)

test('fails clearly and deletes the partial archive when a file changes while being read', async () => {
  const dir = path.join(tmp, 'changing')
  fs.mkdirSync(dir)
  const big = path.join(dir, 'big.bin')
  fs.writeFileSync(big, text(2 * 1024 * 1024))
  const out = path.join(tmp, 'changing.tar.gz')
  let grown = false
  const attempt = packDirectory(dir, out, {
    onProgress: () => {
      if (!grown) {
        grown = true
        fs.appendFileSync(big, randomBytes(1024 * 1024))
      }
    }
  })
  await expect(attempt).rejects.toThrow(InputError)
  await expect(attempt).rejects.toThrow(/'big\.bin' changed while it was being packed \(it grew/)
  expect(fs.existsSync(out)).toBe(false)

  fs.writeFileSync(big, text(2 * 1024 * 1024))
  let shrunk = false
  const shrinking = packDirectory(dir, out, {
    onProgress: () => {
      if (!shrunk) {
        shrunk = true
        fs.truncateSync(big, 1024)
      }
    }
  })
  await expect(shrinking).rejects.toThrow(/changed while it was being packed \(it shrank/)
  expect(fs.existsSync(out)).toBe(false)
})
