// A directory packed into a .tar.gz file on disk: the plan (plan.ts) read once into the file. The
// action never writes the archive whole (it sends the plan as it reads it); this is for whoever wants
// the file: the tests that unpack it with other readers, and the benchmark's check.
import { mkdir, open, rm } from 'node:fs/promises'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { Readable } from 'node:stream'
import { InputError } from '../errors.js'
import { planDirectory } from './plan.js'
import type { ArchiveInfo } from './types.js'

export interface PackOptions {
  /** 0 stores everything; 1-9 is zlib's level for what is deflated (plan.ts); default 6. */
  level?: number
  /** Refuse the packed archive when it is larger than this many bytes (nothing is written). */
  maxBytes?: number
  /** The directory as the user named it (the `distribution` input), for messages; default sourceDir. */
  input?: string
  /** Called as file content is deflated, with the running total of content bytes read so far. */
  onProgress?: (bytesIn: number) => void
}

export async function packDirectory(sourceDir: string, outFile: string, options: PackOptions = {}): Promise<ArchiveInfo> {
  const target = path.resolve(outFile)
  await mkdir(path.dirname(target), { recursive: true })
  const spillPath = `${target}.spill`
  const handle = await open(target, 'w')
  try {
    const own = await handle.stat()
    const archive = await planDirectory(sourceDir, path.basename(target), {
      spillPath,
      exclude: [{ dev: own.dev, ino: own.ino }],
      excludePaths: [target],
      ...(options.level !== undefined && { level: options.level }),
      ...(options.maxBytes !== undefined && { maxBytes: options.maxBytes }),
      ...(options.input !== undefined && { input: options.input }),
      ...(options.onProgress !== undefined && { onProgress: options.onProgress })
    })
    try {
      await pipeline(Readable.from(archive.read()), handle.createWriteStream())
    } finally {
      await archive.release()
    }
    return { ...(await archive.verified), path: target }
  } catch (err) {
    await handle.close().catch(() => undefined)
    await rm(target, { force: true }).catch(() => undefined)
    if ((err as NodeJS.ErrnoException).code === 'ENOSPC' && !(err instanceof InputError)) {
      throw new InputError(
        `distribution: the disk ran out of space while writing '${outFile}'. Free some space on the runner (or write the archive to a larger disk) and run again.`
      )
    }
    throw err
  } finally {
    await rm(spillPath, { force: true }).catch(() => undefined)
  }
}
