// Which files keep their own compression: a jar, a war, an image or a font is already deflated, and
// deflating it again costs nearly all of the packing time for 0-5% of its size. Such a file goes
// into the gzip stream as stored blocks (stored-blocks.ts); everything else is deflated.
//
// The test is a trial, not a list of extensions or magic numbers: five 16 KiB samples spread over the
// file are deflated at level 1, and a file whose median sample shrinks by less than 10% is stored. A
// trial catches what a list misses both ways: a jar of stored (uncompressed) entries, as NetBeans
// ships them, shrinks to a third and is deflated; an encrypted or random file with no known magic
// number is stored. The median leaves out a zip's central directory (its last sample), which is text.
// Measured on the real-jar tree (docs/benchmarks.md): 14.8 of 241 MB deflated, the archive 2.4% larger
// than GNU tar's. The same bytes always give the same answer, so the archive is reproducible.
import { open } from 'node:fs/promises'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { unreadable } from './tar-writer.js'

const deflateRaw = promisify(zlib.deflateRaw)

/** Files smaller than this are deflated without a trial: a stored run would save next to nothing. */
export const TRIAL_MIN = 16 * 1024
export const SAMPLE = 16 * 1024
export const SAMPLES = 5
/** A sample that deflates to at least this share of its size counts as already compressed. */
export const STORE_RATIO = 0.9

/** Where the samples of a file of `size` bytes start: the whole file when it is small, else evenly spread, the last at its end. */
export function samplePositions(size: number): Array<{ position: number; length: number }> {
  if (size <= SAMPLES * SAMPLE) return [{ position: 0, length: size }]
  const span = size - SAMPLE
  return Array.from({ length: SAMPLES }, (_, i) => ({ position: Math.floor((i * span) / (SAMPLES - 1)), length: SAMPLE }))
}

/** The median of the samples' deflated share (compressed / original). */
async function medianRatio(samples: Buffer[]): Promise<number> {
  const ratios = await Promise.all(samples.map(async (s) => (await deflateRaw(s, { level: 1 })).length / s.length))
  ratios.sort((a, b) => a - b)
  return ratios[Math.floor(ratios.length / 2)] as number
}

/** True when the file's content is already compressed: it is stored as it is. `name` is its name in the archive, for errors. */
export async function keepsItsCompression(file: string, size: number, name: string): Promise<boolean> {
  if (size < TRIAL_MIN) return false
  const positions = samplePositions(size)
  const samples: Buffer[] = []
  let handle
  try {
    handle = await open(file, 'r')
    for (const { position, length } of positions) {
      const sample = Buffer.allocUnsafe(length)
      let filled = 0
      while (filled < length) {
        const { bytesRead } = await handle.read(sample, filled, length - filled, position + filled)
        if (bytesRead === 0) break // shrank: the packer's own read says so, with the sizes
        filled += bytesRead
      }
      if (filled > 0) samples.push(sample.subarray(0, filled))
    }
  } catch (err) {
    throw unreadable(name, err)
  } finally {
    await handle?.close().catch(() => undefined)
  }
  if (samples.length === 0) return false
  return (await medianRatio(samples)) >= STORE_RATIO
}
