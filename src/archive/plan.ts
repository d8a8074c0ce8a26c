// Packs a directory into a gzip-compressed tar whose every byte is known before the first is sent.
//
// The tree is walked and its tar stream written once: tar headers and compressible content are
// deflated on every core (parallel-gzip.ts, raw deflate) into the spill; a file whose content is
// already compressed (classify.ts) is not read at all here, only noted as a stored piece, and its
// bytes are read when the archive is sent (packed-archive.ts). The stored pieces' length follows from
// the files' sizes, so the archive's exact length is known once the deflated parts are done: the
// upload sends a Content-Length and streams while the stored files are read.
// Deterministic: the walk's order, the block cuts and the trial depend only on the tree's bytes.
import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { InputError } from '../errors.js'
import { checkSizeLimit } from './check.js'
import { storedPrefix } from './classify.js'
import { TopLevel } from './links.js'
import { PackedArchive, type Piece } from './packed-archive.js'
import { createParallelGzip, type ParallelGzip } from './parallel-gzip.js'
import { Spill } from './spill.js'
import { writeTar, type TarEntry, type TarSink } from './tar-writer.js'
import { walkDirectory } from './walk.js'

export interface PlanOptions {
  /**
   * 0: every byte stored (no compression: the fastest, about the tar's size); 1-9: zlib's level for
   * what is deflated, already-compressed files stored as they are. Default 6.
   */
  level?: number
  /** Refuse an archive larger than this many bytes (stored blocks crossing it: everything is deflated first). */
  maxBytes?: number
  /** The directory as the user named it (the `distribution` input), for messages; default sourceDir. */
  input?: string
  /** The spill's file, made when the deflated parts pass its memory (a file nobody else uses). */
  spillPath: string
  /** The spill's memory, in bytes, before it goes to its file. */
  spillMemory?: number
  /** Files to leave out of the archive (the archive written into the tree by packDirectory). */
  exclude?: Array<{ dev: number; ino: number }>
  excludePaths?: string[]
  /** Called as file content is deflated, with the running total of content bytes read so far. */
  onProgress?: (bytesIn: number) => void
}

/**
 * Packs a directory up to the point where its archive's exact size is known (`fileName` is the name the
 * upload gives it); the archive's bytes are then read from the result as often as asked.
 */
export async function planDirectory(sourceDir: string, fileName: string, options: PlanOptions): Promise<PackedArchive> {
  const source = path.resolve(sourceDir)
  await checkSource(source, sourceDir, options)
  const level = options.level ?? 6 // 0-9; another is a RangeError from the compressor (the inputs module validates it)
  const shown = options.input ?? sourceDir
  let archive = await planOnce(source, fileName, options, level, true)
  if (options.maxBytes !== undefined && archive.size > options.maxBytes && archive.composition.storedFiles > 0 && level > 0) {
    // Stored blocks cost 0-5% over deflating those files again: worth a second pass near the limit.
    await archive.release()
    archive = await planOnce(source, fileName, options, level, false)
  }
  if (options.maxBytes !== undefined) {
    try {
      checkSizeLimit(`distribution: the archive packed from '${shown}'`, archive.size, options.maxBytes)
    } catch (error) {
      await archive.release()
      throw error
    }
  }
  return archive
}

async function checkSource(source: string, sourceDir: string, options: PlanOptions): Promise<void> {
  let sourceStat
  try {
    sourceStat = await stat(source)
  } catch {
    throw new InputError(
      `distribution: the directory '${sourceDir}' to pack does not exist. Point \`distribution\` at the directory that holds the distribution's contents (or at a .tar.gz), and run the build step first.`
    )
  }
  if (!sourceStat.isDirectory()) {
    throw new InputError(`distribution: '${sourceDir}' is not a directory, so it cannot be packed. Point \`distribution\` at a directory or at a .tar.gz file.`)
  }
  const left = new Set([options.spillPath, ...(options.excludePaths ?? [])].map((p) => path.resolve(p)))
  const names = (await readdir(source)).filter((name) => !left.has(path.join(source, name)))
  if (names.length === 0) {
    throw new InputError(
      `distribution: the directory '${sourceDir}' is empty; there is nothing to deploy. Point \`distribution\` at the directory your build filled, or at its .tar.gz.`
    )
  }
}

/** One pass over the tree; `storeCompressed` false deflates everything (the size limit's second pass). */
async function planOnce(source: string, fileName: string, options: PlanOptions, level: number, storeCompressed: boolean): Promise<PackedArchive> {
  const shown = options.input ?? source
  const spill = new Spill(options.spillPath, options.spillMemory)
  const gzip = createParallelGzip({ level, raw: true })
  const trials = new Trials()
  const planner = new Planner(gzip, level === 0 ? 'all' : storeCompressed ? 'compressed' : 'none', trials)
  const skipped: string[] = []
  const topLevel = new TopLevel()
  let entries = 0
  const walking = walkDirectory(source, {
    exclude: options.exclude ?? [],
    excludePaths: [options.spillPath, ...(options.excludePaths ?? [])],
    onSkipped: (name, kind) => void skipped.push(`'${name}' (${kind})`)
  })
  const listed = (async function* (): AsyncGenerator<TarEntry> {
    for await (const entry of walking) {
      entries++
      topLevel.add(entry.name)
      yield entry
    }
  })()
  // The trials of the next files run while this one is packed: each waits on its reads of the samples.
  const ahead = planner.store === 'compressed' ? trials.ahead(listed, LOOK_AHEAD) : listed
  let bytesIn = 0
  const onProgress = options.onProgress
  const onData = onProgress && ((n: number): void => onProgress((bytesIn += n)))
  const writing = pipeline(gzip, spill)
  const producing = writeTar(ahead, planner, { onData }).then(
    async () => {
      await planner.finish()
      gzip.end()
    },
    (err: unknown) => {
      gzip.destroy(err as Error) // the pipeline then fails with this error
      throw err
    }
  )
  const [produced, piped] = await Promise.allSettled([producing, writing])
  try {
    // A failure downstream (a full disk) destroys the compressor, which then fails the writer too: the pipeline's error is the cause.
    if (piped.status === 'rejected') throw diskFull(piped.reason, options.spillPath)
    if (produced.status === 'rejected') throw produced.reason
    if (entries === 0) {
      throw new InputError(`distribution: the directory '${shown}' holds no files, directories or symlinks to pack; there is nothing to deploy.`)
    }
  } catch (error) {
    await spill.release()
    throw error
  }
  return new PackedArchive({ fileName, level, pieces: planner.pieces(spill.length), spill, entries, warnings: warningsOf(shown, skipped, topLevel.folder) })
}

/** Entries listed ahead of the packer, at most: their trials run meanwhile. */
const LOOK_AHEAD = 8

/** The trials (classify.ts) of files listed ahead of the one being packed. */
class Trials {
  private readonly started = new Map<TarEntry, Promise<number>>()

  /** The entries, each yielded once up to `depth` after it were listed and their trials started. */
  async *ahead(entries: AsyncIterable<TarEntry>, depth: number): AsyncGenerator<TarEntry> {
    const queue: TarEntry[] = []
    const source = entries[Symbol.asyncIterator]()
    let done = false
    for (;;) {
      while (!done && queue.length < depth) {
        const next = await source.next()
        if (next.done === true) done = true
        else {
          queue.push(next.value)
          this.start(next.value)
        }
      }
      const entry = queue.shift()
      if (entry === undefined) return
      yield entry
    }
  }

  /** How many of the file's first bytes are stored as they are: the trial started ahead, or one now. */
  verdict(entry: TarEntry & { type: 'file' }): Promise<number> {
    const started = this.started.get(entry)
    this.started.delete(entry)
    return started ?? storedPrefix(entry.sourcePath, entry.size, entry.name)
  }

  private start(entry: TarEntry): void {
    if (entry.type !== 'file' || entry.size === 0) return
    const trial = storedPrefix(entry.sourcePath, entry.size, entry.name)
    trial.catch(() => undefined) // its error is thrown when the packer reaches the file
    this.started.set(entry, trial)
  }
}

/** The tar sink of a plan: bytes to the compressor, already-compressed files taken as stored pieces. */
class Planner implements TarSink {
  private readonly list: Array<Piece | undefined> = []
  private runStart = 0

  constructor(
    private readonly gzip: ParallelGzip,
    readonly store: 'all' | 'compressed' | 'none',
    private readonly trials: Trials
  ) {}

  write(bytes: Buffer): Promise<void> {
    return this.gzip.writeBytes(bytes)
  }

  reserve(): Promise<Buffer> {
    return this.gzip.reserve()
  }

  commit(bytes: number): void {
    this.gzip.commit(bytes)
  }

  async takeFile(entry: TarEntry & { type: 'file' }): Promise<number> {
    if (this.store === 'none') return 0
    const length = this.store === 'all' ? entry.size : await this.trials.verdict(entry)
    if (length === 0) return 0
    await this.endRun()
    this.list.push({ kind: 'stored', name: entry.name, path: entry.sourcePath, length, fileSize: entry.size, mtimeMs: entry.listedMtimeMs })
    return length
  }

  /** Ends the last run before the compressor's final block, so its CRC is known like the others'. */
  finish(): Promise<void> {
    return this.endRun()
  }

  /** The pieces, once the compressor's output is all in the spill (`end` bytes): the final block closes the last run. */
  pieces(end: number): Piece[] {
    const pieces = this.list.filter((p): p is Piece => p !== undefined)
    if (pieces.length !== this.list.length) throw new Error('packing: a run of deflated output was never told where it ends')
    pieces.push({ kind: 'deflated', start: this.runStart, end, crc: 0, inputLength: 0 })
    return pieces
  }

  /** Cuts the deflated run here; its place in the list is kept until the compressor says where it ends. */
  private async endRun(): Promise<void> {
    const slot = this.list.length
    this.list.push(undefined)
    await this.gzip.cut((run) => {
      this.list[slot] = { kind: 'deflated', start: this.runStart, end: run.outputEnd, crc: run.crc, inputLength: run.inputLength }
      this.runStart = run.outputEnd
    })
  }
}

function diskFull(error: unknown, spillPath: string): unknown {
  if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') return error
  return new InputError(
    `distribution: the disk ran out of space while packing into '${path.dirname(spillPath)}'. Free some space on the runner (or set RUNNER_TEMP to a larger disk) and run again.`
  )
}

function warningsOf(shown: string, skipped: string[], folder: string | undefined): string[] {
  const warnings: string[] = []
  if (skipped.length > 0) {
    const more = skipped.length > 5 ? ` and ${skipped.length - 5} more` : ''
    warnings.push(
      `distribution: left out of the archive what cannot be deployed from '${shown}': ${skipped.slice(0, 5).join(', ')}${more}; ` +
        'only files, directories and symlinks are packed.'
    )
  }
  if (folder !== undefined) {
    warnings.push(
      `distribution: everything in '${shown}' sits under one folder '${folder}/', but a brXM distribution unpacks at its root ` +
        `(webapps/, shared/, conf/, bin/), so the platform would find '${folder}/webapps/...' instead of 'webapps/...'. ` +
        `Point \`distribution\` at '${path.posix.join(shown.replace(/\\/g, '/'), folder)}' instead.`
    )
  }
  return warnings
}
