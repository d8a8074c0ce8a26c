// The tar writer and reader on their own: header encoding, PAX records, limits, and reading GNU tar output.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { buffer } from 'node:stream/consumers'
import { parsePax, TarReader, type TarEntryHeader } from '../src/archive/tar-reader.js'
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

async function readEntries(bytes: Buffer | Readable): Promise<TarEntryHeader[]> {
  const entries: TarEntryHeader[] = []
  const source = Buffer.isBuffer(bytes) ? Readable.from([bytes]) : bytes
  await pipeline(source, new TarReader((e) => entries.push(e)))
  return entries
}

/** The entry described by the first header(s) of a buffer that holds no content after them. */
function headerOnly(bytes: Buffer): TarEntryHeader {
  const entries: TarEntryHeader[] = []
  const reader = new TarReader((e) => entries.push(e))
  reader.write(bytes)
  reader.destroy()
  const [entry] = entries
  if (!entry) throw new Error('no entry')
  return entry
}

test('paxRecord counts its own length, across a digit boundary', () => {
  for (let n = 80; n < 1010; n++) {
    const record = paxRecord('path', 'x'.repeat(n))
    expect(Number(record.toString('ascii').split(' ')[0])).toBe(record.length)
  }
  const record = paxRecord('path', 'données/é.txt')
  expect(parsePax(record).get('path')).toBe('données/é.txt')
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
  expect(headerOnly(bytes)).toMatchObject({ name: 'huge.bin', size: 8 * 1024 ** 3, type: 'file', mtime: 1_700_000_000 })

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
  const read = await readEntries(fs.readFileSync(file))
  expect(read.map((e) => [e.name, e.type, e.linkname, e.mtime])).toEqual([
    ['old/', 'directory', '', -365 * 86400],
    ['old/link', 'symlink', target, 1_000_000_000]
  ])
})

test('the reader understands GNU long names (L/K), PAX, a global header and base-256 sizes', async () => {
  const dir = path.join(tmp, 'gnu')
  const longName = `${'n'.repeat(130)}.txt`
  const longTarget = 'x'.repeat(130)
  fs.mkdirSync(dir)
  fs.writeFileSync(path.join(dir, longName), 'hello')
  fs.symlinkSync(longTarget, path.join(dir, 'link'))
  for (const format of ['gnu', 'pax']) {
    const file = path.join(tmp, `${format}.tar`)
    execFileSync('tar', ['cf', file, `--format=${format}`, '--sort=name', '.'], { cwd: dir })
    const entries = await readEntries(fs.createReadStream(file))
    expect(entries.map((e) => [e.name, e.type, e.size, e.linkname])).toEqual([
      ['./', 'directory', 0, ''],
      ['./link', 'symlink', 0, longTarget],
      [`./${longName}`, 'file', 5, '']
    ])
  }

  // A global PAX header is not an entry; a local one supplies the path.
  const global = paxRecord('comment', 'built by CI')
  const local = paxRecord('path', 'real-name.txt')
  const gHeader = encodeUstarHeader({ name: Buffer.from('pax_global_header'), mode: 0o644, size: global.length, mtime: 0, typeflag: 'g' })
  const xHeader = encodeUstarHeader({ name: Buffer.from('PaxHeaders/x'), mode: 0o644, size: local.length, mtime: 0, typeflag: 'x' })
  const fileHeader = encodeUstarHeader({ name: Buffer.from('short'), mode: 0o644, size: 3, mtime: 0, typeflag: '0' })
  const pad = (b: Buffer): Buffer => Buffer.concat([b, Buffer.alloc((512 - (b.length % 512)) % 512)])
  const crafted = Buffer.concat([gHeader, pad(global), xHeader, pad(local), fileHeader, pad(Buffer.from('abc')), Buffer.alloc(1024)])
  expect((await readEntries(crafted)).map((e) => [e.name, e.size])).toEqual([['real-name.txt', 3]])

  // GNU base-256 size field.
  const base256 = Buffer.from(fileHeader)
  base256.fill(0, 124, 136)
  base256[124] = 0x80
  base256[135] = 3
  base256.fill(0x20, 148, 156)
  let sum = 0
  for (const byte of base256) sum += byte
  base256.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1')
  expect(headerOnly(base256).size).toBe(3)
})

test('the reader reports extended headers cut off at the end of the stream', async () => {
  const local = paxRecord('path', 'x')
  const xHeader = encodeUstarHeader({ name: Buffer.from('PaxHeaders/x'), mode: 0o644, size: local.length, mtime: 0, typeflag: 'x' })
  const bytes = Buffer.concat([xHeader, local, Buffer.alloc(512 - local.length)])
  await expect(readEntries(bytes)).rejects.toThrow(/inside an extended header/)
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
