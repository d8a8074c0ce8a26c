// An archive file's bytes, read from disk each time they are asked for (a retry reads them again).
import { createReadStream } from 'node:fs'
import { GarbageRelief } from '../memory.js'
import type { ArchiveBytes } from './types.js'

export function fileBytes(path: string): ArchiveBytes {
  return async function* (): AsyncGenerator<Buffer> {
    // Each chunk read is garbage once sent; collecting it early (every 5 ms at most, as the packed
    // archive's read does) keeps the upload's memory flat.
    const relief = new GarbageRelief({ interval: 5 })
    for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
      relief.produce(chunk.length)
      yield chunk
    }
  }
}
