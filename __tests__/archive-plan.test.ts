// The content-aware packer: stored blocks for what is already compressed, the exact length before the
// first byte, the same bytes on every read, and a tree that changes under it refused.
import { execFileSync } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { bitsPerByte, samplePositions, SAMPLE, STORE_BITS, storedPrefix, TRIAL_MIN, zipEntriesEnd } from '../src/archive/classify.js'
import { PackedArchive, readFramed } from '../src/archive/packed-archive.js'
import { planDirectory } from '../src/archive/plan.js'
import { Spill } from '../src/archive/spill.js'
import { crc32Combine, STORED_BLOCK_MAX, storedLength, writeStoredBlockHeader } from '../src/archive/stored-blocks.js'
import { InputError } from '../src/errors.js'

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'archive-plan-'))
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

/** Compressible bytes: text. */
const text = (bytes: number, seed = 0): Buffer =>
  Buffer.from(`hippo:document ${seed} brxm jcr node property content folder channel sitemap\n`.repeat(Math.ceil(bytes / 60) + 1)).subarray(0, bytes)

let n = 0
function tree(files: Record<string, Buffer | string>): string {
  const dir = path.join(tmp, `tree-${n++}`)
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true })
    fs.writeFileSync(path.join(dir, name), content)
  }
  return dir
}

async function plan(dir: string, options: { level?: number; maxBytes?: number; spillMemory?: number } = {}): Promise<PackedArchive> {
  return planDirectory(dir, 'site.tar.gz', { spillPath: path.join(tmp, `spill-${n++}`), ...options })
}

async function bytesOf(archive: PackedArchive): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of archive.read()) chunks.push(chunk)
  return Buffer.concat(chunks)
}

/** Every file GNU tar unpacks from the archive, by name. */
function unpacked(archive: Buffer): Map<string, Buffer> {
  const file = path.join(tmp, `a-${n++}.tar.gz`)
  const out = path.join(tmp, `x-${n++}`)
  fs.writeFileSync(file, archive)
  fs.mkdirSync(out)
  execFileSync('tar', ['-xzf', file, '-C', out])
  const files = new Map<string, Buffer>()
  const walk = (dir: string, prefix: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(dir, e.name), `${prefix}${e.name}/`)
      else files.set(`${prefix}${e.name}`, fs.readFileSync(path.join(dir, e.name)))
    }
  }
  walk(out, '')
  return files
}

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex')
const md5 = (b: Buffer): string => createHash('md5').update(b).digest('hex')

describe('stored blocks', () => {
  test('a header is BFINAL/BTYPE 00, then LEN and NLEN little-endian', () => {
    const b = Buffer.alloc(7, 0xee)
    writeStoredBlockHeader(b, 1, 0x1234, false)
    expect([...b]).toEqual([0xee, 0x00, 0x34, 0x12, 0xcb, 0xed, 0xee])
    writeStoredBlockHeader(b, 0, STORED_BLOCK_MAX, true)
    expect([...b.subarray(0, 5)]).toEqual([0x01, 0xff, 0xff, 0x00, 0x00])
    writeStoredBlockHeader(b, 0, 0, true) // an empty final block is valid
    expect([...b.subarray(0, 5)]).toEqual([0x01, 0x00, 0x00, 0xff, 0xff])
    expect(() => writeStoredBlockHeader(b, 0, STORED_BLOCK_MAX + 1, false)).toThrow(RangeError)
    expect(() => writeStoredBlockHeader(b, 0, -1, false)).toThrow(RangeError)
  })

  test('the length of content as stored blocks: 5 bytes per block of up to 65,535', () => {
    expect(storedLength(0)).toBe(0)
    expect(storedLength(1)).toBe(6)
    expect(storedLength(65_535)).toBe(65_540)
    expect(storedLength(65_536)).toBe(65_546)
    expect(storedLength(131_070)).toBe(131_080)
  })

  test('a raw deflate stream of stored blocks inflates to the content', () => {
    const data = randomBytes(70_000)
    const framed = Buffer.alloc(storedLength(data.length))
    writeStoredBlockHeader(framed, 0, 65_535, false)
    data.copy(framed, 5, 0, 65_535)
    writeStoredBlockHeader(framed, 65_540, data.length - 65_535, true)
    data.copy(framed, 65_545, 65_535)
    expect(zlib.inflateRawSync(framed).equals(data)).toBe(true)
  })

  test.each([
    [0, 10],
    [10, 0],
    [1, 1],
    [1000, 65_536],
    [100_000, 1_234_567],
    [3, 2 ** 20 + 7]
  ])('crc32Combine of %i then %i bytes is the CRC-32 of both', (a, b) => {
    const A = randomBytes(a)
    const B = randomBytes(b)
    expect(crc32Combine(zlib.crc32(A), zlib.crc32(B), b)).toBe(zlib.crc32(Buffer.concat([A, B])))
  })
})

/** Whether the packer stores any of the file as it is (storedPrefix above 0). */
async function keepsItsCompression(file: string, size: number, name: string): Promise<boolean> {
  return (await storedPrefix(file, size, name)) > 0
}

describe('the trial', () => {
  test('samples: the whole of a small file; five spread over a large one, the last at its end', () => {
    expect([TRIAL_MIN, SAMPLE]).toEqual([16_384, 4_096])
    expect(samplePositions(20_000)).toEqual([{ position: 0, length: 20_000 }])
    expect(samplePositions(20_480)).toEqual([{ position: 0, length: 20_480 }])
    const size = 1_000_000
    const positions = samplePositions(size)
    expect(positions.map((p) => p.position)).toEqual([0, 248_976, 497_952, 746_928, size - SAMPLE])
    expect(positions.every((p) => p.length === 4096)).toBe(true)
  })

  test('bits per byte: none for one repeated byte, 8 for every byte alike often, 1 for two halves', () => {
    expect(bitsPerByte(Buffer.alloc(4096, 7))).toBe(0)
    expect(bitsPerByte(Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 256)))).toBe(8)
    expect(bitsPerByte(Buffer.concat([Buffer.alloc(100, 1), Buffer.alloc(100, 2)]))).toBe(1)
    expect(STORE_BITS).toBe(7.44)
    // Random bytes come close to 8; text far below.
    expect(bitsPerByte(randomBytes(SAMPLE))).toBeGreaterThan(STORE_BITS)
    expect(bitsPerByte(text(SAMPLE))).toBeLessThan(5)
  })

  test('random bytes keep their compression; text, small files and a zip of stored text do not', async () => {
    const dir = tree({
      'random.bin': randomBytes(300_000),
      'text.xml': text(300_000),
      'small.png': randomBytes(16 * 1024 - 1),
      'edge.bin': randomBytes(16 * 1024)
    })
    const at = (name: string): Promise<boolean> => keepsItsCompression(path.join(dir, name), fs.statSync(path.join(dir, name)).size, name)
    expect(await at('random.bin')).toBe(true)
    expect(await at('edge.bin')).toBe(true)
    expect(await at('text.xml')).toBe(false)
    expect(await at('small.png')).toBe(false)
    // A jar of stored (uncompressed) entries: a zip by its magic number, text by its content.
    const zip = path.join(dir, 'stored.jar')
    execFileSync('python3', [
      '-c',
      `import zipfile,sys\nz=zipfile.ZipFile(sys.argv[1],'w',zipfile.ZIP_STORED)\nfor i in range(20): z.writestr('c%d.xml'%i, ('<node name="%d">hippo brxm</node>\\n'%i)*400)\nz.close()`,
      zip
    ])
    expect(fs.readFileSync(zip).subarray(0, 4).toString('latin1')).toBe('PK\x03\x04')
    expect(await at('stored.jar')).toBe(false)
  })

  test('random in the samples, zeros elsewhere: the trial reads only its samples (and says store)', async () => {
    const size = 2_000_000
    const data = Buffer.alloc(size)
    for (const { position, length } of samplePositions(size)) randomBytes(length).copy(data, position)
    const dir = tree({ 'sampled.bin': data })
    expect(await keepsItsCompression(path.join(dir, 'sampled.bin'), size, 'sampled.bin')).toBe(true)
    // One sample of zeros among five: the median still says store.
    const data2 = Buffer.from(data)
    data2.fill(0, 0, SAMPLE)
    fs.writeFileSync(path.join(dir, 'one-zero.bin'), data2)
    expect(await keepsItsCompression(path.join(dir, 'one-zero.bin'), size, 'one-zero.bin')).toBe(true)
    // Three of five: deflate.
    const data3 = Buffer.from(data2)
    const [, second, third] = samplePositions(size)
    data3.fill(0, second?.position, (second?.position ?? 0) + SAMPLE)
    data3.fill(0, third?.position, (third?.position ?? 0) + SAMPLE)
    fs.writeFileSync(path.join(dir, 'three-zero.bin'), data3)
    expect(await keepsItsCompression(path.join(dir, 'three-zero.bin'), size, 'three-zero.bin')).toBe(false)
    // The middle sample alone: the median is of the samples sorted, not the third one read.
    const data4 = Buffer.from(data)
    data4.fill(0, third?.position, (third?.position ?? 0) + SAMPLE)
    fs.writeFileSync(path.join(dir, 'middle-zero.bin'), data4)
    expect(await keepsItsCompression(path.join(dir, 'middle-zero.bin'), size, 'middle-zero.bin')).toBe(true)
  })

  test('a file shorter than listed: only the samples it has count (the packer names the change when it reads it)', async () => {
    const dir = tree({ 'short.bin': randomBytes(30_000) })
    expect(await storedPrefix(path.join(dir, 'short.bin'), 1_000_000, 'short.bin')).toBe(1_000_000)
  })

  test('a file that cannot be read is named with its code', async () => {
    await expect(keepsItsCompression(path.join(tmp, 'nope.bin'), 100_000, 'lib/nope.bin')).rejects.toThrow(
      "distribution: 'lib/nope.bin' changed while it was being packed (it was deleted)"
    )
  })
})

describe("a zip's central directory", () => {
  /** A zip of random (stored) entries written by Python's zipfile, optionally with a comment. */
  function zipOf(comment = ''): { file: string; bytes: Buffer; directoryOffset: number } {
    const file = path.join(tmp, `z-${n++}.jar`)
    execFileSync('python3', [
      '-c',
      `import zipfile,sys,os\nz=zipfile.ZipFile(sys.argv[1],'w',zipfile.ZIP_STORED)\nfor i in range(6): z.writestr('com/example/C%d.class'%i, os.urandom(20000))\nz.comment=sys.argv[2].encode()\nz.close()`,
      file,
      comment
    ])
    const bytes = fs.readFileSync(file)
    const directoryOffset = Number(
      execFileSync('python3', ['-c', 'import zipfile,sys\nprint(zipfile.ZipFile(sys.argv[1]).start_dir)', file], { encoding: 'utf8' }).trim()
    )
    return { file, bytes, directoryOffset }
  }

  test('found from the end record, with or without a comment; the trial stores the entries, not the directory', async () => {
    for (const comment of ['', 'built by tools']) {
      const { file, bytes, directoryOffset } = zipOf(comment)
      expect(directoryOffset).toBeGreaterThan(100_000)
      expect(zipEntriesEnd(bytes.subarray(0, 4), bytes.subarray(-Math.min(bytes.length, 22 + 0xffff)), bytes.length)).toBe(directoryOffset)
      expect(await storedPrefix(file, bytes.length, 'x.jar')).toBe(directoryOffset)
    }
  })

  test('a zip smaller than the longest comment, with a comment: its directory found all the same', async () => {
    const file = path.join(tmp, `small-${n++}.jar`)
    execFileSync('python3', [
      '-c',
      `import zipfile,sys,os\nz=zipfile.ZipFile(sys.argv[1],'w',zipfile.ZIP_STORED)\nfor i in range(3): z.writestr('C%d.class'%i, os.urandom(9000))\nz.comment=b'made by tools'\nz.close()`,
      file
    ])
    const size = fs.statSync(file).size
    expect(size).toBeLessThan(22 + 0xffff)
    const directoryOffset = Number(
      execFileSync('python3', ['-c', 'import zipfile,sys\nprint(zipfile.ZipFile(sys.argv[1]).start_dir)', file], { encoding: 'utf8' }).trim()
    )
    expect(await storedPrefix(file, size, 'small.jar')).toBe(directoryOffset)
  })

  test('an end record signature inside the comment is not taken for the record', () => {
    const { bytes, directoryOffset } = zipOf()
    const fake = Buffer.concat([Buffer.from('PK\x05\x06', 'latin1'), Buffer.alloc(18, 0x41)])
    const withComment = Buffer.concat([bytes, fake])
    withComment.writeUInt16LE(fake.length, bytes.length - 2)
    expect(zipEntriesEnd(withComment.subarray(0, 4), withComment.subarray(-200), withComment.length)).toBe(directoryOffset)
  })

  test('not a plain zip: stored whole (no local header first, ZIP64, a directory that does not end at the record)', () => {
    const { bytes, directoryOffset } = zipOf()
    const tail = bytes.subarray(-22)
    expect(zipEntriesEnd(Buffer.from('MZ\0\0'), tail, bytes.length)).toBeUndefined()
    const zip64 = Buffer.from(tail)
    zip64.writeUInt32LE(0xffffffff, 16)
    expect(zipEntriesEnd(bytes.subarray(0, 4), zip64, bytes.length)).toBeUndefined()
    const elsewhere = Buffer.from(tail)
    elsewhere.writeUInt32LE(directoryOffset - 1, 16)
    expect(zipEntriesEnd(bytes.subarray(0, 4), elsewhere, bytes.length)).toBeUndefined()
    expect(zipEntriesEnd(bytes.subarray(0, 4), Buffer.alloc(22), bytes.length)).toBeUndefined()
    expect(zipEntriesEnd(bytes.subarray(0, 4), tail, bytes.length)).toBe(directoryOffset)
  })

  test('packed: the entries as stored blocks, the directory deflated after them, the jar whole when unpacked', async () => {
    const { file, bytes, directoryOffset } = zipOf()
    const dir = tree({ 'lib/a.jar': bytes })
    const archive = await plan(dir)
    expect(archive.composition).toMatchObject({ storedFiles: 1, storedBytes: directoryOffset })
    expect(
      unpacked(await bytesOf(archive))
        .get('lib/a.jar')
        ?.equals(fs.readFileSync(file))
    ).toBe(true)
    // Level 0 stores the whole file.
    expect((await plan(dir, { level: 0 })).composition).toMatchObject({ storedFiles: 1, storedBytes: bytes.length })
  })
})

describe('a packed directory', () => {
  const jar = randomBytes(400_000)
  const files = {
    'webapps/site.war': jar,
    'conf/a.xml': text(200_000, 1),
    'conf/b.xml': text(10, 2),
    'shared/lib/x.jar': randomBytes(65_535),
    'shared/lib/y.jar': randomBytes(131_071),
    'empty.txt': ''
  }

  test('its length is exact before the first byte; GNU tar unpacks every file; the parts are as composed', async () => {
    const dir = tree(files)
    const archive = await plan(dir)
    expect(archive.composition).toEqual({ storedFiles: 3, storedBytes: 400_000 + 65_535 + 131_071, deflatedBytes: expect.any(Number) })
    const bytes = await bytesOf(archive)
    expect(bytes.length).toBe(archive.size)
    expect(zlib.gunzipSync(bytes).length % 512).toBe(0)
    // Every byte of the tar is either stored or deflated.
    expect(archive.composition.storedBytes + archive.composition.deflatedBytes).toBe(zlib.gunzipSync(bytes).length)
    const out = unpacked(bytes)
    expect([...out.keys()].sort()).toEqual(Object.keys(files).sort())
    for (const [name, content] of Object.entries(files)) expect(out.get(name)?.equals(Buffer.from(content))).toBe(true)
    // One gzip member: header, no name or time, and the trailer's CRC and length of the tar.
    expect([...bytes.subarray(0, 10)]).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3])
    const tar = zlib.gunzipSync(bytes)
    expect(bytes.readUInt32LE(bytes.length - 8)).toBe(zlib.crc32(tar))
    expect(bytes.readUInt32LE(bytes.length - 4)).toBe(tar.length)
    // The stored jar is in the stream as it is: its bytes appear whole (in 65,535-byte blocks).
    expect(bytes.indexOf(jar.subarray(0, 65_535))).toBeGreaterThan(0)
    const info = await archive.verified
    expect(info).toEqual({ fileName: 'site.tar.gz', size: bytes.length, sha256: sha256(bytes), md5: md5(bytes), entries: 10, packed: true })
  })

  test('the same tree gives the same bytes, whatever the spill keeps in memory; every read gives them again', async () => {
    const dir = tree(files)
    const inMemory = await plan(dir)
    const onDisk = await plan(dir, { spillMemory: 1024 })
    const first = await bytesOf(inMemory)
    expect((await bytesOf(onDisk)).equals(first)).toBe(true)
    expect((await bytesOf(inMemory)).equals(first)).toBe(true)
    expect((await bytesOf(onDisk)).equals(first)).toBe(true)
  })

  test('a directory of nothing that can be packed (a FIFO alone) is refused, and says so', async () => {
    const dir = path.join(tmp, `fifo-${n++}`)
    fs.mkdirSync(dir)
    execFileSync('mkfifo', [path.join(dir, 'pipe')])
    await expect(plan(dir)).rejects.toThrow(/^distribution: the directory '.*' holds no files, directories or symlinks to pack; there is nothing to deploy\.$/)
  })

  test('packed in one pass under the limit: the progress counts every content byte once', async () => {
    const dir = tree(files)
    let last = 0
    const archive = await planDirectory(dir, 'site.tar.gz', { spillPath: path.join(tmp, `spill-${n++}`), maxBytes: 10_000_000, onProgress: (b) => (last = b) })
    const content = Object.values(files).reduce((sum, c) => sum + Buffer.byteLength(c), 0)
    expect(last).toBe(content)
    expect(archive.composition.storedFiles).toBe(3)
  })

  test('a second read deflates nothing again: the deflated files may be gone, the bytes are the same', async () => {
    const dir = tree(files)
    const archive = await plan(dir, { spillMemory: 1024 })
    const first = await bytesOf(archive)
    fs.rmSync(path.join(dir, 'conf'), { recursive: true })
    expect((await bytesOf(archive)).equals(first)).toBe(true)
  })

  test('hashes() reads the archive when nothing did; after a read it is that read', async () => {
    const dir = tree(files)
    const archive = await plan(dir)
    const info = await archive.hashes()
    expect(info.sha256).toBe(sha256(await bytesOf(archive)))
    fs.rmSync(path.join(dir, 'webapps'), { recursive: true })
    expect(await archive.hashes()).toBe(info) // not read again: the stored file is gone
  })

  test('a stored file rewritten after the listing stops the read before the trailer; verified says why', async () => {
    const dir = tree(files)
    const archive = await plan(dir)
    fs.writeFileSync(path.join(dir, 'webapps/site.war'), randomBytes(400_001))
    const read = bytesOf(archive)
    await expect(read).rejects.toThrow(InputError)
    await expect(read).rejects.toThrow("distribution: 'webapps/site.war' changed while it was being packed (its size went from 400000 to 400001 bytes)")
    await expect(archive.verified).rejects.toThrow('its size went from 400000 to 400001 bytes')
  })

  test('same size, time moved: refused; same size and time, other bytes on a second read: refused by its CRC', async () => {
    const dir = tree(files)
    const war = path.join(dir, 'webapps/site.war')
    const archive = await plan(dir)
    const { mtime } = fs.statSync(war)
    fs.writeFileSync(war, randomBytes(400_000))
    fs.utimesSync(war, mtime, new Date(mtime.getTime() + 5000))
    await expect(bytesOf(archive)).rejects.toThrow('changed while it was being packed (it was rewritten after it was listed: its modification time moved)')

    const again = tree(files)
    const war2 = path.join(again, 'webapps/site.war')
    const second = await plan(again)
    await bytesOf(second)
    // touch -r copies the time to the nanosecond (utimes from JS would round it, and the time check would see that).
    const reference = path.join(tmp, `ref-${n++}`)
    execFileSync('cp', ['-p', war2, reference])
    fs.writeFileSync(war2, randomBytes(400_000))
    execFileSync('touch', ['-r', reference, war2])
    await expect(bytesOf(second)).rejects.toThrow(
      "distribution: 'webapps/site.war' changed while it was being packed (its content differs from the first time it was sent)"
    )
  })

  test('a stored file deleted or grown after the listing is named', async () => {
    const dir = tree(files)
    const archive = await plan(dir)
    fs.rmSync(path.join(dir, 'shared/lib/x.jar'))
    await expect(bytesOf(archive)).rejects.toThrow("distribution: 'shared/lib/x.jar' changed while it was being packed (it was deleted)")
  })

  test('level 0 stores everything; 9 and 1 differ from 6 only in the deflated parts', async () => {
    const dir = tree(files)
    const stored = await plan(dir, { level: 0 })
    expect(stored.composition).toMatchObject({ storedFiles: 5, deflatedBytes: expect.any(Number) })
    const bytes = await bytesOf(stored)
    const tar = zlib.gunzipSync(bytes)
    expect(bytes.length).toBeGreaterThan(tar.length) // nothing compressed
    expect(unpacked(bytes).get('conf/a.xml')?.equals(files['conf/a.xml'])).toBe(true)
    const six = await bytesOf(await plan(dir))
    const nine = await bytesOf(await plan(dir, { level: 9 }))
    expect(nine.length).toBeLessThan(bytes.length)
    expect(zlib.gunzipSync(nine).equals(zlib.gunzipSync(six))).toBe(true)
    await expect(plan(dir, { level: 10 })).rejects.toThrow(RangeError)
  })

  test('over the limit with stored blocks, under it deflated: everything is deflated; over it either way: refused', async () => {
    // Random where the trial samples, zeros elsewhere: stored as it is, though it deflates to almost nothing.
    const size = 3_000_000
    const data = Buffer.alloc(size)
    for (const { position, length } of samplePositions(size)) randomBytes(length).copy(data, position)
    const dir = tree({ 'big.bin': data, 'conf.xml': text(1000) })
    const stored = await plan(dir)
    expect(stored.composition.storedFiles).toBe(1)
    const limit = 1_000_000
    expect(stored.size).toBeGreaterThan(limit)
    const deflated = await plan(dir, { maxBytes: limit })
    expect(deflated.composition.storedFiles).toBe(0)
    expect(deflated.size).toBeLessThan(limit)
    expect(
      unpacked(await bytesOf(deflated))
        .get('big.bin')
        ?.equals(data)
    ).toBe(true)
    await expect(plan(dir, { maxBytes: deflated.size - 1 })).rejects.toThrow(
      /^distribution: the archive packed from '.*' is .*, over the limit of .* per distribution/
    )
  })
})

describe('stored blocks read from a file', () => {
  /** A stand-in for a file handle over `data`: readv fills at most `first` bytes, read() at most `step` a call. */
  function handleOver(data: Buffer, first: number, step: number): FileHandle {
    return {
      readv: async (buffers: Buffer[], position: number) => {
        let at = position
        let left = first
        for (const b of buffers) {
          const n = Math.max(0, Math.min(b.length, left, data.length - at))
          data.copy(b, 0, at, at + n)
          at += n
          left -= n
        }
        return { bytesRead: at - position, buffers }
      },
      read: async (buffer: Buffer, offset: number, length: number, position: number) => {
        // As a real handle does: a read must fit the buffer.
        if (offset + length > buffer.length) throw new RangeError(`read of ${length} at ${offset} into ${buffer.length} bytes`)
        const n = Math.max(0, Math.min(length, step, data.length - position))
        data.copy(buffer, offset, position, position + n)
        return { bytesRead: n, buffer }
      }
    } as unknown as FileHandle
  }
  const changed = (how: string): Error => new InputError(how)

  test('a short readv is finished part by part: four blocks, each header before its bytes', async () => {
    const data = randomBytes(300_000)
    const piece = { name: 'a.jar', length: data.length, fileSize: data.length }
    const framed = await readFramed(handleOver(data, 1000, 30_000), 0, piece, changed)
    expect(framed.contentLength).toBe(4 * 65_535)
    expect(framed.chunk.length).toBe(4 * 65_540)
    expect(Buffer.concat(framed.data).equals(data.subarray(0, 4 * 65_535))).toBe(true)
    expect(zlib.inflateRawSync(Buffer.concat([framed.chunk, Buffer.from([1, 0, 0, 0xff, 0xff])])).equals(data.subarray(0, 4 * 65_535))).toBe(true)
    // The rest, from where it stopped: one block of what is left.
    const rest = await readFramed(handleOver(data, 0, 7_000), 4 * 65_535, piece, changed)
    expect(Buffer.concat(rest.data).equals(data.subarray(4 * 65_535))).toBe(true)
    expect(rest.chunk.length).toBe(data.length - 4 * 65_535 + 5)
  })

  test('a file that ends before its listed length: shrank, with where it ended', async () => {
    const data = randomBytes(100_000)
    const piece = { name: 'a.jar', length: 150_000, fileSize: 150_000 }
    await expect(readFramed(handleOver(data, 50_000, 10_000), 0, piece, changed)).rejects.toThrow('it shrank from 150000 to 100000 bytes')
  })
})

describe('the spill', () => {
  test('in memory, or on disk past its limit: the same bytes, any range', async () => {
    const data = randomBytes(100_000)
    // Several chunks held in memory before the limit is crossed, one, none.
    for (const limit of [1_000_000, 50_000, 10_000, 0]) {
      const file = path.join(tmp, `spill-${n++}`)
      const spill = new Spill(file, limit)
      for (let at = 0; at < data.length; at += 7_777) spill.write(data.subarray(at, at + 7_777))
      await new Promise<void>((resolve, reject) => spill.end((err?: Error | null) => (err ? reject(err) : resolve())))
      expect(spill.onDisk).toBe(limit < data.length)
      expect(fs.existsSync(file)).toBe(limit < data.length)
      for (const [start, end] of [
        [0, 100_000],
        [5, 7_790],
        [50_000, 50_000],
        [99_999, 100_000]
      ] as const) {
        const chunks: Buffer[] = []
        for await (const c of spill.range(start, end)) chunks.push(c)
        expect(Buffer.concat(chunks).equals(data.subarray(start, end))).toBe(true)
      }
      await expect(async () => {
        for await (const c of spill.range(0, 100_001)) void c
      }).rejects.toThrow(RangeError)
    }
  })
})
