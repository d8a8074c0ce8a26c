// The parallel gzip stream: byte-compatible output (Node's zlib and GNU gzip read it back), the
// size single-threaded gzip gives, the gzip header and trailer, and bounded memory.
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { Readable, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import zlib from 'node:zlib'
import { garbageCollector, GarbageRelief } from '../src/memory.js'
import { crc32, crc32Fallback, createParallelGzip, gzipHeader, ParallelGzip, WINDOW, type ParallelGzipOptions } from '../src/archive/parallel-gzip.js'

const KiB = 1024
const BLOCK = 64 * KiB

/** Compresses the chunks, written one by one through the Writable side, and returns the gzip bytes. */
async function gzipChunks(chunks: Buffer[], options: ParallelGzipOptions = {}): Promise<{ out: Buffer; gz: ParallelGzip }> {
  const gz = createParallelGzip({ blockSize: BLOCK, ...options })
  const parts: Buffer[] = []
  await pipeline(
    Readable.from(chunks, { objectMode: false }),
    gz,
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        parts.push(chunk)
        callback()
      }
    })
  )
  return { out: Buffer.concat(parts), gz }
}

/** Some text that compresses about 4x, like configuration files. */
function text(bytes: number, seed = 1): Buffer {
  const words = ['hippo', 'jcr:primaryType', 'content', 'document', 'channel', '<property name="', '"/>', 'sitemap', '\n  ', 'value', 'true']
  const parts: string[] = []
  let n = 0
  let x = seed
  while (n < bytes) {
    x = (x * 1103515245 + 12345) >>> 0
    const w = `${words[x % words.length]}${x % 7 === 0 ? String(x % 100000) : ''} `
    parts.push(w)
    n += w.length
  }
  return Buffer.from(parts.join('')).subarray(0, bytes)
}

/** Checks the output decompresses to `input` with Node's zlib and with GNU gzip (-t and -dc). */
function expectReadsBack(out: Buffer, input: Buffer): void {
  expect(zlib.gunzipSync(out).equals(input)).toBe(true)
  execFileSync('gzip', ['-t'], { input: out })
  const gnu = execFileSync('gzip', ['-dc'], { input: out, maxBuffer: 64 * 1024 * 1024 })
  expect(gnu.equals(input)).toBe(true)
}

describe('round trips through Node zlib and GNU gzip', () => {
  const cases: Array<[string, () => Buffer[]]> = [
    ['empty input', () => []],
    ['one byte', () => [Buffer.from('x')]],
    ['exactly one block', () => [randomBytes(BLOCK)]],
    ['one block minus one byte', () => [randomBytes(BLOCK - 1)]],
    ['one block plus one byte', () => [randomBytes(BLOCK + 1)]],
    ['exactly three blocks', () => [randomBytes(3 * BLOCK)]],
    ['several blocks of random data in odd chunks', () => [randomBytes(100_000), randomBytes(7), randomBytes(250_001)]],
    ['highly compressible data', () => [Buffer.alloc(700 * KiB, 'a'), text(300 * KiB)]],
    ['many small writes', () => Array.from({ length: 5000 }, (_, i) => (i % 3 === 0 ? randomBytes(i % 97) : text((i % 61) + 1, i)))]
  ]
  test.each(cases)('%s', async (_name, make) => {
    const chunks = make()
    const input = Buffer.concat(chunks)
    const { out, gz } = await gzipChunks(chunks)
    expectReadsBack(out, input)
    expect(gz.stats.bytesIn).toBe(input.length)
    expect(gz.stats.blocks).toBe(Math.max(1, Math.ceil(input.length / BLOCK)))
  })

  test('blocks smaller than the 32 KiB window (dictionaries spanning several blocks)', async () => {
    const input = Buffer.concat([text(90 * KiB), randomBytes(5000), text(40 * KiB, 7)])
    for (const blockSize of [1, 1000, WINDOW - 1, WINDOW, WINDOW + 1]) {
      const chunks = blockSize === 1 ? [input.subarray(0, 3000)] : [input]
      const { out } = await gzipChunks(chunks, { blockSize })
      expectReadsBack(out, Buffer.concat(chunks))
    }
  })

  test.each([1, 6, 9])('level %i', async (level) => {
    const input = Buffer.concat([text(200 * KiB), randomBytes(50 * KiB)])
    const { out } = await gzipChunks([input], { level })
    expectReadsBack(out, input)
    expect(out[8]).toBe(level === 9 ? 2 : level === 1 ? 4 : 0) // XFL
  })
})

test('a standard gzip header and a trailer with the CRC-32 and length of the input', async () => {
  const input = Buffer.concat([randomBytes(150 * KiB), text(20 * KiB)])
  const { out } = await gzipChunks([input])
  expect([...out.subarray(0, 10)]).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3])
  expect(out.subarray(0, 10).equals(gzipHeader(6))).toBe(true)
  expect(out.readUInt32LE(out.length - 8)).toBe(zlib.crc32 ? zlib.crc32(input) : crc32Fallback(input))
  expect(out.readUInt32LE(out.length - 4)).toBe(input.length)
  // One member: the raw deflate stream ends exactly before the trailer.
  expect(zlib.inflateRawSync(out.subarray(10, out.length - 8)).equals(input)).toBe(true)
})

test('the CRC-32 fallback agrees with zlib, also when continued', () => {
  const data = randomBytes(10_000)
  expect(crc32Fallback(Buffer.from('123456789'))).toBe(0xcbf43926)
  expect(crc32Fallback(Buffer.alloc(0))).toBe(0)
  expect(crc32Fallback(data.subarray(4000), crc32Fallback(data.subarray(0, 4000)))).toBe(crc32(data))
  expect(crc32(data.subarray(123), crc32(data.subarray(0, 123)))).toBe(crc32Fallback(data))
})

test('within 2% of single-threaded gzip at the same level, for a realistic mix, with the default block size', async () => {
  const parts: Buffer[] = []
  for (let i = 0; i < 12; i++) parts.push(i % 2 === 0 ? randomBytes(150 * KiB + i) : text(250 * KiB + i * 13, i))
  const input = Buffer.concat(parts)
  for (const level of [1, 6, 9]) {
    const { out } = await gzipChunks(parts, { level, blockSize: undefined })
    const single = zlib.gzipSync(input, { level }).length
    expect(Math.abs(out.length / single - 1)).toBeLessThan(0.02)
    expect(zlib.gunzipSync(out).equals(input)).toBe(true)
  }
})

test('primes each block with the previous 32 KiB: repeats across a block boundary cost nothing', async () => {
  // A 20 KiB random pattern repeated: single-threaded gzip stores it once; so must we, across blocks.
  const pattern = randomBytes(20 * KiB)
  const input = Buffer.concat(Array.from({ length: 40 }, () => pattern))
  const { out } = await gzipChunks([input])
  const single = zlib.gzipSync(input, { level: 6 }).length
  expect(out.length).toBeLessThan(single * 1.02 + 200)
  expect(out.length).toBeLessThan(2 * pattern.length)
})

test('reserve()/commit()/writeBytes() take input straight into the blocks', async () => {
  const gz = createParallelGzip({ blockSize: BLOCK })
  const parts: Buffer[] = []
  const done = pipeline(gz, new Writable({ write: (c: Buffer, _e, cb) => (parts.push(c), cb()) }))
  const input = Buffer.concat([text(100 * KiB), randomBytes(70 * KiB)])
  let offset = 0
  while (offset < input.length) {
    const room = await gz.reserve()
    expect(room.length).toBeGreaterThan(0)
    const n = Math.min(room.length, 9999, input.length - offset)
    input.copy(room, 0, offset, offset + n)
    gz.commit(n)
    offset += n
  }
  await gz.writeBytes(Buffer.from('tail'))
  expect(() => gz.commit(BLOCK + 1)).toThrow(RangeError)
  gz.end()
  await done
  expectReadsBack(Buffer.concat(parts), Buffer.concat([input, Buffer.from('tail')]))
})

test('refuses levels and sizes out of range', () => {
  expect(() => createParallelGzip({ level: -1 })).toThrow(RangeError)
  expect(() => createParallelGzip({ level: 10 })).toThrow(RangeError)
  expect(() => createParallelGzip({ blockSize: 0 })).toThrow(RangeError)
  expect(() => createParallelGzip({ maxInFlight: 0 })).toThrow(RangeError)
  expect(() => createParallelGzip({ concurrency: 1.5 })).toThrow(RangeError)
})

describe('bounded memory', () => {
  test('a reader that does not read stops the writer: no more than maxInFlight blocks are held', async () => {
    const maxInFlight = 3
    const gz = createParallelGzip({ blockSize: BLOCK, maxInFlight, concurrency: 2 })
    let accepted = 0
    const total = 40 * BLOCK
    const chunk = randomBytes(16 * KiB)
    const writer = (async () => {
      while (accepted < total) {
        await gz.writeBytes(chunk)
        accepted += chunk.length
      }
      gz.end()
    })()
    // Nobody reads: the writer must come to a halt with a bounded amount taken.
    let last = -1
    while (accepted !== last) {
      last = accepted
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(accepted).toBeLessThan(total)
    expect(accepted).toBeLessThanOrEqual((maxInFlight + 2) * BLOCK)
    expect(gz.inFlight).toBeLessThanOrEqual(maxInFlight)
    expect(gz.stats.inFlightPeak).toBeLessThanOrEqual(maxInFlight)
    expect(gz.stats.runningPeak).toBeLessThanOrEqual(2)

    // Now read slowly: everything comes through, in order, with the bounds kept.
    const parts: Buffer[] = []
    await pipeline(
      gz,
      new Writable({
        highWaterMark: 1,
        write(c: Buffer, _e, cb) {
          parts.push(c)
          setTimeout(cb, 2)
        }
      })
    )
    await writer
    const input = Buffer.concat(Array.from({ length: total / chunk.length }, () => chunk))
    expect(zlib.gunzipSync(Buffer.concat(parts)).equals(input)).toBe(true)
    expect(gz.stats.inFlightPeak).toBeLessThanOrEqual(maxInFlight)
    expect(gz.stats.runningPeak).toBeLessThanOrEqual(2)
    // Block buffers are recycled: a handful, not one per block.
    expect(gz.stats.blocks).toBe(40)
    expect(gz.stats.buffers).toBeLessThanOrEqual(maxInFlight + 3)
  })

  test('through pipeline() with a slow consumer, the Writable side also waits', async () => {
    const maxInFlight = 2
    const input = randomBytes(30 * BLOCK)
    const chunks = Array.from({ length: 120 }, (_, i) => input.subarray(i * (input.length / 120), (i + 1) * (input.length / 120)))
    const parts: Buffer[] = []
    let maxQueued = 0
    const gz = createParallelGzip({ blockSize: BLOCK, maxInFlight })
    await pipeline(
      Readable.from(chunks, { objectMode: false }),
      gz,
      new Writable({
        write(c: Buffer, _e, cb) {
          parts.push(c)
          maxQueued = Math.max(maxQueued, gz.writableLength + gz.readableLength)
          setTimeout(cb, 1)
        }
      })
    )
    expect(zlib.gunzipSync(Buffer.concat(parts)).equals(input)).toBe(true)
    expect(gz.stats.inFlightPeak).toBeLessThanOrEqual(maxInFlight)
    expect(maxQueued).toBeLessThan(4 * BLOCK)
  })

  test('a destroyed stream fails a waiting writer instead of leaving it hanging', async () => {
    const gz = createParallelGzip({ blockSize: BLOCK, maxInFlight: 1 })
    gz.on('error', () => undefined)
    const writing = (async () => {
      for (;;) await gz.writeBytes(randomBytes(BLOCK))
    })()
    await new Promise((resolve) => setTimeout(resolve, 50))
    gz.destroy(new Error('downstream failed'))
    await expect(writing).rejects.toThrow(/destroyed/)
  })
})

describe('GarbageRelief', () => {
  test('reaches V8 collector and collects no more often than asked', () => {
    expect(typeof garbageCollector()).toBe('function')
    const relief = new GarbageRelief({ every: 1000, interval: 0 })
    relief.produce(999)
    expect(relief.collections).toBe(0)
    relief.produce(1)
    expect(relief.collections).toBe(1)
    const slow = new GarbageRelief({ every: 1, interval: 60_000 })
    slow.produce(10)
    slow.produce(10)
    expect(slow.collections).toBe(0)
  })
})
