// Which files keep their own compression: a jar, a war, an image or a font is already deflated, and
// deflating it again costs nearly all of the packing time for 0-5% of its size. Such a file goes
// into the gzip stream as stored blocks (stored-blocks.ts); everything else is deflated.
//
// The test is a trial on the content, not a list of extensions or magic numbers: five 4 KiB samples
// spread over the file, and a file whose median sample carries more than 7.44 bits of information per
// byte (order-0 entropy: what deflate's Huffman stage could at best save is under 7%) is stored. A trial
// catches what a list misses both ways: a jar of stored (uncompressed) entries, as NetBeans ships them,
// is deflated; an encrypted or random file with no known magic number is stored. The median leaves out
// a zip's central directory (its last sample), which is text and is deflated on its own (storedPrefix).
// Entropy, not a deflate at level 1: measured on the real-jar tree, the same decisions but for a few
// jars (the archive 1.4% larger than GNU tar's, against 1.2%), in 0.3 s of packing instead of 0.42,
// and 5 MiB less peak memory (a zlib stream per sample is 300 KiB of native memory, 1,400 of them).
// The same bytes always give the same answer, so the archive is reproducible.
import { open, type FileHandle } from 'node:fs/promises'
import { unreadable } from './tar-writer.js'

/** Files smaller than this are deflated without a trial: a stored run would save next to nothing. */
export const TRIAL_MIN = 16 * 1024
export const SAMPLE = 4 * 1024
export const SAMPLES = 5
/** A sample with at least this many bits of information per byte counts as already compressed. */
export const STORE_BITS = 7.44

/** Where the samples of a file of `size` bytes start: the whole file when it is small, else evenly spread, the last at its end. */
export function samplePositions(size: number): Array<{ position: number; length: number }> {
  if (size <= SAMPLES * SAMPLE) return [{ position: 0, length: size }]
  const span = size - SAMPLE
  return Array.from({ length: SAMPLES }, (_, i) => ({ position: Math.floor((i * span) / (SAMPLES - 1)), length: SAMPLE }))
}

/** Order-0 entropy: the bits per byte an ideal coder of single bytes would need for `sample`. */
export function bitsPerByte(sample: Uint8Array): number {
  const counts = new Uint32Array(256)
  for (const byte of sample) counts[byte]!++
  let bits = 0
  for (const count of counts) {
    if (count === 0) continue
    const p = count / sample.length
    bits -= p * Math.log2(p)
  }
  return bits
}

/** The median of the samples' bits per byte. */
function medianBits(samples: Buffer[]): number {
  const bits = samples.map(bitsPerByte).sort((a, b) => a - b)
  return bits[Math.floor(bits.length / 2)] as number
}

/**
 * How many of the file's first bytes are stored as they are: 0 (deflated whole), its size (already
 * compressed), or, for a zip (jar, war, ear), all but its central directory. That directory is a list
 * of names, text that gzip -6 shrinks by three quarters: 4.9 MB of the real-jar tree's 241, and 3.9 MB
 * of what deflating the whole jars saved. `name` is the file's name in the archive, for errors.
 */
export async function storedPrefix(file: string, size: number, name: string): Promise<number> {
  if (size < TRIAL_MIN) return 0
  let handle
  try {
    handle = await open(file, 'r')
    const samples: Buffer[] = []
    for (const { position, length } of samplePositions(size)) {
      const sample = await readAt(handle, position, length)
      if (sample.length > 0) samples.push(sample)
    }
    if (samples.length === 0 || medianBits(samples) < STORE_BITS) return 0
    const head = (samples[0] as Buffer).subarray(0, 4)
    // Most zips end with their end record and no comment: 22 bytes tell; else the longest tail it may take.
    const short = await readAt(handle, size - 22, 22)
    const entriesEnd = zipEntriesEnd(head, short, size)
    if (entriesEnd !== undefined || size <= 22) return entriesEnd ?? size
    const tailLength = Math.min(size, ZIP_TAIL_MAX)
    return zipEntriesEnd(head, await readAt(handle, size - tailLength, tailLength), size) ?? size
  } catch (err) {
    throw unreadable(name, err)
  } finally {
    await handle?.close().catch(() => undefined)
  }
}

/** Up to `length` bytes at `position`; fewer when the file shrank (the packer's own read says so, with the sizes). */
async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length)
  let filled = 0
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled)
    if (bytesRead === 0) break
    filled += bytesRead
  }
  return buffer.subarray(0, filled)
}

/** The end-of-central-directory record (22 bytes) and the longest comment it may have. */
const ZIP_TAIL_MAX = 22 + 0xffff
const EOCD = 0x06054b50
const LOCAL_HEADER = 0x04034b50

/**
 * Where a zip's local entries end and its central directory begins, from the file's first bytes and
 * its tail; undefined when it is not a plain zip whose central directory runs from there to the end
 * record (ZIP64, a prefix before the first entry, a directory elsewhere): such a file is stored whole.
 */
export function zipEntriesEnd(head: Buffer, tail: Buffer, size: number): number | undefined {
  if (head.length < 4 || head.readUInt32LE(0) !== LOCAL_HEADER) return undefined
  for (let at = tail.length - 22; at >= 0; at--) {
    if (tail.readUInt32LE(at) !== EOCD) continue
    if (at + 22 + tail.readUInt16LE(at + 20) !== tail.length) continue // a signature inside the comment
    const directorySize = tail.readUInt32LE(at + 12)
    const directoryOffset = tail.readUInt32LE(at + 16)
    const recordOffset = size - tail.length + at
    if (directoryOffset === 0 || directoryOffset === 0xffffffff || directoryOffset + directorySize !== recordOffset) return undefined
    return directoryOffset
  }
  return undefined
}
