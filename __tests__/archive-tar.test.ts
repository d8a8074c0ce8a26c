// The tar writer on its own (header encoding, PAX records, limits), read back by GNU tar and node-tar;
// and checkArchive (node-tar's parser) on GNU tar output and hand-made extended headers.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buffer } from 'node:stream/consumers'
import { gzipSync } from 'node:zlib'
import { Parser, type ReadEntry } from 'tar'
import { checkArchive } from '../src/archive/check.js'
import {
  createTarStream,
  encodeEntryHeader,
  encodeUstarHeader,
  MAX_OCTAL_11,
  paxRecord,
  splitUstarName,
  type TarEntry,
  type TarSink,
  writeTar
} from '../src/archive/tar-writer.js'
import { sortByBytes } from '../src/archive/walk.js'

let tmp: string

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'archive-tar-'))
})

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
})

interface ReadHeader {
  name: string
  type: string
  size: number
  mtime: number | undefined
  linkname: string
}

/** The entries node-tar reads from tar bytes (strict: a damaged header fails); content need not follow the headers. */
function readEntries(bytes: Buffer): ReadHeader[] {
  const entries: ReadHeader[] = []
  const parser = new Parser({ strict: true, brotli: false, zstd: false })
  parser.on('error', (err: Error) => {
    throw err
  })
  parser.on('entry', (e: ReadEntry) => {
    entries.push({ name: e.path, type: e.type, size: e.size, mtime: e.mtime && e.mtime.getTime() / 1000, linkname: e.linkpath ?? '' })
    e.resume()
  })
  parser.write(bytes)
  return entries
}

/** The entry described by the first header(s) of a buffer that holds no content after them. */
function headerOnly(bytes: Buffer): ReadHeader {
  const [entry] = readEntries(bytes)
  if (!entry) throw new Error('no entry')
  return entry
}

/** Writes gzipped tar bytes to a file for checkArchive. */
function gzFile(name: string, tarBytes: Buffer): string {
  const file = path.join(tmp, name)
  fs.writeFileSync(file, gzipSync(tarBytes))
  return file
}

test('paxRecord counts its own length, across a digit boundary', () => {
  for (let n = 80; n < 1010; n++) {
    const record = paxRecord('path', 'x'.repeat(n))
    expect(Number(record.toString('ascii').split(' ')[0])).toBe(record.length)
  }
  // GNU tar takes the path from the record.
  const record = paxRecord('path', 'données/é.txt')
  const pad = (b: Buffer): Buffer => Buffer.concat([b, Buffer.alloc((512 - (b.length % 512)) % 512)])
  const xHeader = encodeUstarHeader({ name: Buffer.from('PaxHeaders/x'), mode: 0o644, size: record.length, mtime: 0, typeflag: 'x' })
  const fileHeader = encodeUstarHeader({ name: Buffer.from('x'), mode: 0o644, size: 0, mtime: 0, typeflag: '0' })
  const file = path.join(tmp, 'pax-record.tar')
  fs.writeFileSync(file, Buffer.concat([xHeader, pad(record), fileHeader, Buffer.alloc(1024)]))
  expect(execFileSync('tar', ['-tf', file], { encoding: 'utf8' }).trim()).toBe('données/é.txt')
})

test('splitUstarName uses the prefix only when the name does not fit 100 bytes', () => {
  const b = (s: string): Buffer => Buffer.from(s)
  expect(splitUstarName(b('a/b'))).toEqual({ name: b('a/b'), prefix: b('') })
  const long = `${'p'.repeat(150)}/${'n'.repeat(99)}/`
  expect(splitUstarName(b(long))).toEqual({ prefix: b('p'.repeat(150)), name: b(`${'n'.repeat(99)}/`) })
  expect(splitUstarName(b(`${'p'.repeat(156)}/x`))).toBeUndefined() // prefix too long
  expect(splitUstarName(b(`a/${'n'.repeat(101)}`))).toBeUndefined() // name part too long
  expect(splitUstarName(b('x'.repeat(101)))).toBeUndefined() // no slash
})

test('sizes of 8 GiB and more, and out-of-range mtimes, go to PAX headers', () => {
  const huge: TarEntry = { type: 'file', name: 'huge.bin', mode: 0o644, mtime: 1_700_000_000, size: 8 * 1024 ** 3, sourcePath: '/dev/null' }
  const bytes = encodeEntryHeader(huge)
  expect(bytes.length).toBe(3 * 512) // PAX header + its data + the ustar header
  expect(bytes.toString('latin1', 512, 1024)).toContain('size=8589934592\n')
  expect(headerOnly(bytes)).toMatchObject({ name: 'huge.bin', size: 8 * 1024 ** 3, type: 'File', mtime: 1_700_000_000 })

  const fits = encodeEntryHeader({ ...huge, size: MAX_OCTAL_11 })
  expect(fits.length).toBe(512)
  expect(headerOnly(fits).size).toBe(MAX_OCTAL_11)

  expect(headerOnly(encodeEntryHeader({ ...huge, size: 0, mtime: -86400 })).mtime).toBe(-86400)
  expect(headerOnly(encodeEntryHeader({ ...huge, size: 0, mtime: MAX_OCTAL_11 + 1 })).mtime).toBe(MAX_OCTAL_11 + 1)
})

test('GNU tar reads PAX mtimes and long link names written by createTarStream', async () => {
  const file = path.join(tmp, 'pax.tar')
  const target = `${'t'.repeat(150)}/é`
  const entries: TarEntry[] = [
    { type: 'directory', name: 'old/', mode: 0o755, mtime: -365 * 86400 },
    { type: 'symlink', name: 'old/link', mode: 0o777, mtime: 1_000_000_000, linkname: target }
  ]
  fs.writeFileSync(file, await buffer(createTarStream(entries)))
  const listing = execFileSync('tar', ['-tvf', file], { encoding: 'utf8', env: { ...process.env, TZ: 'UTC' } })
  expect(listing).toMatch(/drwxr-xr-x 0\/0 +0 1969-01-01 00:00 old\//)
  expect(listing).toContain(`old/link -> ${target}`)
  const read = readEntries(fs.readFileSync(file))
  expect(read.map((e) => [e.name, e.type, e.linkname, e.mtime])).toEqual([
    ['old/', 'Directory', '', -365 * 86400],
    ['old/link', 'SymbolicLink', target, 1_000_000_000]
  ])
})

test('checkArchive reads GNU long names (L/K), PAX, a global header and base-256 sizes', async () => {
  const dir = path.join(tmp, 'gnu')
  const longName = `${'n'.repeat(130)}.txt`
  const longTarget = 'x'.repeat(130)
  fs.mkdirSync(dir)
  fs.writeFileSync(path.join(dir, longName), 'hello')
  fs.symlinkSync(longTarget, path.join(dir, 'link'))
  fs.linkSync(path.join(dir, longName), path.join(dir, 'hard'))
  for (const format of ['gnu', 'pax']) {
    const file = path.join(tmp, `${format}.tar.gz`)
    execFileSync('tar', ['czf', file, `--format=${format}`, '--sort=name', '.'], { cwd: dir })
    expect((await checkArchive(file)).entries).toBe(4) // ./, ./hard, ./link, ./<long name>
    // The long name is what the check sees: a '../' in front of it is refused.
    const up = path.join(tmp, `${format}-up.tar.gz`)
    execFileSync('tar', ['czf', up, `--format=${format}`, '--sort=name', '--transform', 's,^\\./n,../n,', '.'], { cwd: dir })
    await expect(checkArchive(up)).rejects.toThrow(/contains an entry '\.\.\/n{130}\.txt' that has a '\.\.' segment/)
  }

  // A GNU long link target ('K') of a hard link is what the check sees.
  const pad = (b: Buffer): Buffer => Buffer.concat([b, Buffer.alloc((512 - (b.length % 512)) % 512)])
  const longUp = Buffer.from(`../${'h'.repeat(121)}\0`)
  const kHeader = encodeUstarHeader({ name: Buffer.from('././@LongLink'), mode: 0o644, size: longUp.length, mtime: 0, typeflag: 'K' })
  const hardHeader = encodeUstarHeader({ name: Buffer.from('hard'), mode: 0o644, size: 0, mtime: 0, typeflag: '1', linkname: Buffer.from('h'.repeat(99)) })
  await expect(checkArchive(gzFile('long-link.tar.gz', Buffer.concat([kHeader, pad(longUp), hardHeader, Buffer.alloc(1024)])))).rejects.toThrow(
    /a hard link 'hard' whose target '\.\.\/h{121}' has a '\.\.' segment/
  )

  // A global PAX header is not an entry; a local one supplies the path (an unsafe one is refused by it).
  const global = paxRecord('comment', 'built by CI')
  const gHeader = encodeUstarHeader({ name: Buffer.from('pax_global_header'), mode: 0o644, size: global.length, mtime: 0, typeflag: 'g' })
  const withPath = (p: string): Buffer => {
    const local = paxRecord('path', p)
    const xHeader = encodeUstarHeader({ name: Buffer.from('PaxHeaders/x'), mode: 0o644, size: local.length, mtime: 0, typeflag: 'x' })
    const fileHeader = encodeUstarHeader({ name: Buffer.from('short'), mode: 0o644, size: 3, mtime: 0, typeflag: '0' })
    return Buffer.concat([gHeader, pad(global), xHeader, pad(local), fileHeader, pad(Buffer.from('abc')), Buffer.alloc(1024)])
  }
  expect((await checkArchive(gzFile('pax-path.tar.gz', withPath('real-name.txt')))).entries).toBe(1)
  await expect(checkArchive(gzFile('pax-up.tar.gz', withPath('../real-name.txt')))).rejects.toThrow(/entry '\.\.\/real-name\.txt' that has a '\.\.' segment/)

  // GNU base-256 size field: read as 3, so the content is skipped right and the next header found.
  const fileHeader = encodeUstarHeader({ name: Buffer.from('short'), mode: 0o644, size: 3, mtime: 0, typeflag: '0' })
  const base256 = Buffer.from(fileHeader)
  base256.fill(0, 124, 136)
  base256[124] = 0x80
  base256[135] = 3
  base256.fill(0x20, 148, 156)
  let sum = 0
  for (const byte of base256) sum += byte
  base256.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1')
  expect(headerOnly(base256).size).toBe(3)
  const second = encodeUstarHeader({ name: Buffer.from('second'), mode: 0o644, size: 0, mtime: 0, typeflag: '0' })
  expect((await checkArchive(gzFile('base256.tar.gz', Buffer.concat([base256, pad(Buffer.from('abc')), second, Buffer.alloc(1024)])))).entries).toBe(2)
})

test('checkArchive reports extended headers cut off at the end of the stream', async () => {
  const local = paxRecord('path', 'x')
  const xHeader = encodeUstarHeader({ name: Buffer.from('PaxHeaders/x'), mode: 0o644, size: local.length, mtime: 0, typeflag: 'x' })
  const bytes = Buffer.concat([xHeader, local, Buffer.alloc(512 - local.length)])
  await expect(checkArchive(gzFile('cut-pax.tar.gz', bytes))).rejects.toThrow(/inside an extended header/)
})

test('the writer refuses files whose size differs from the listed one', async () => {
  const file = path.join(tmp, 'ten.bin')
  fs.writeFileSync(file, Buffer.alloc(10))
  const entry = (size: number): Extract<TarEntry, { type: 'file' }> => ({ type: 'file', name: 'ten.bin', mode: 0o644, mtime: 0, size, sourcePath: file })
  await expect(buffer(createTarStream([entry(20)]))).rejects.toThrow(/'ten\.bin' changed while it was being packed \(it shrank from 20 to 10 bytes\)/)
  await expect(buffer(createTarStream([entry(5)]))).rejects.toThrow(/it grew beyond the 5 bytes/)
  await expect(buffer(createTarStream([{ ...entry(3), sourcePath: path.join(tmp, 'gone') }]))).rejects.toThrow(/it was deleted/)
  const ok = await buffer(createTarStream([entry(10)]))
  expect(ok.length).toBe(512 + 512 + 1024)
})

test('writeTar reads file content into whatever room the sink gives; same bytes as createTarStream', async () => {
  const dir = path.join(tmp, 'rooms')
  fs.mkdirSync(dir)
  const entries: TarEntry[] = [{ type: 'directory', name: 'd/', mode: 0o755, mtime: 1_600_000_000 }]
  for (const size of [0, 1, 511, 512, 513, 70_001]) {
    const file = path.join(dir, `f${size}`)
    fs.writeFileSync(file, Buffer.alloc(size, size % 251))
    entries.push({ type: 'file', name: `d/f${size}`, mode: 0o644, mtime: 1_600_000_000, size, sourcePath: file })
  }
  const expected = await buffer(createTarStream(entries, { readChunkSize: 4096 }))
  for (const roomSize of [1, 7, 512, 100_000]) {
    const parts: Buffer[] = []
    let room = Buffer.alloc(0)
    const sink: TarSink = {
      write: (bytes) => void parts.push(Buffer.from(bytes)),
      reserve: () => (room = Buffer.alloc(roomSize)),
      commit: (n) => void parts.push(Buffer.from(room.subarray(0, n)))
    }
    await writeTar(entries, sink)
    expect(Buffer.concat(parts).equals(expected)).toBe(true)
  }
  const file = path.join(tmp, 'rooms.tar')
  fs.writeFileSync(file, expected)
  expect(execFileSync('tar', ['-tf', file], { encoding: 'utf8' }).trim().split('\n')).toEqual(entries.map((e) => e.name))
})

test('sortByBytes orders by UTF-8 bytes, not locale', () => {
  expect(sortByBytes(['b', 'B', 'a-c', 'a', 'é', 'z', '_'])).toEqual(['B', '_', 'a', 'a-c', 'b', 'z', 'é'])
})
