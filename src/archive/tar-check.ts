// The tar side of checkArchive: node-tar's Parser reads the headers (ustar, GNU long names, PAX,
// base-256 numbers); this Writable feeds it the gunzipped bytes and turns what it reports into
// our three verdicts (not a tar, truncated, corrupt) and the unsafe-name refusal.
//
// The parser runs in strict mode, so a damaged header is an 'error' event, never a mere warning.
// On top of it, three checks node-tar does not make (it tolerates them when reading):
// - a stream that stops inside a 512-byte header block (node-tar drops the partial block silently);
// - a stream that stops right after an extended header, with no entry for it;
// - an extended header over 1 MiB (node-tar skips it as an "ignored" entry).
// The first zero block ends the archive, as for GNU tar: what follows is padding, never parsed.
// node-tar does not know GNU sparse files: the old-GNU extension blocks are taken out of the stream
// before it (tar-step.ts), so every entry GNU tar lists is seen, and a sparse file is refused by the
// name GNU tar gives it (GNU.sparse.name for the PAX formats) once the whole archive has been read:
// an unsafe entry anywhere is the worse news and is named first.
import { Writable } from 'node:stream'
import { Parser, type ReadEntry } from 'tar'
import { LinkTracker, TopLevel } from './links.js'
import { TarStepper } from './tar-step.js'

const BLOCK = 512
/** Upper bound for the data of a PAX or GNU long-name header (node-tar holds them in memory). */
const MAX_META_BYTES = 1024 * 1024

export type TarErrorKind = 'not-tar' | 'corrupt' | 'truncated'

export class TarFormatError extends Error {
  override name = 'TarFormatError'
  constructor(
    readonly kind: TarErrorKind,
    message: string
  ) {
    super(message)
  }
}

/** Stops the check at the first entry that would extract outside the target directory. */
export class UnsafeEntry extends Error {
  override name = 'UnsafeEntry'
  constructor(readonly entry: { name: string; why: string; link?: string; symlink?: string }) {
    super(`unsafe entry '${entry.name}'`)
  }
}

/** Why an entry name would write outside the extraction directory, or undefined when it is safe. */
export function unsafeName(name: string): string | undefined {
  if (/^[\\/]/.test(name)) return 'is an absolute path'
  if (/^[A-Za-z]:/.test(name)) return 'starts with a Windows drive'
  if (name.split(/[\\/]/).includes('..')) return "has a '..' segment"
  return undefined
}

/** A GNU sparse file: refused, since an extractor that does not know the format unpacks other bytes than GNU tar does. */
export class SparseEntry extends Error {
  override name = 'SparseEntry'
  constructor(readonly entryName: string) {
    super(`sparse entry '${entryName}'`)
  }
}

/** The GNU.sparse.* records of PAX extended-header data (read record by record, by length), or undefined when there are none. */
function sparseRecords(meta: string): { name?: string } | undefined {
  if (!meta.includes('GNU.sparse.')) return undefined
  const found: { name?: string } = {}
  const bytes = Buffer.from(meta, 'utf8')
  let at = 0
  while (at < bytes.length) {
    const space = bytes.indexOf(0x20, at)
    const length = space < 0 ? NaN : Number(bytes.toString('latin1', at, space))
    if (!Number.isInteger(length) || length <= space - at) break
    const record = bytes.toString('utf8', space + 1, at + length).replace(/\n$/, '')
    const eq = record.indexOf('=')
    if (eq > 0 && record.slice(0, eq) === 'GNU.sparse.name') found.name = record.slice(eq + 1)
    at += length
  }
  return found
}

/** Entry types an extractor cannot make a file of (a device needs privileges; a FIFO is not content). */
const SPECIAL: Record<string, string> = { CharacterDevice: 'a character device', BlockDevice: 'a block device', FIFO: 'a FIFO' }

export class TarCheck extends Writable {
  /** Entries seen (extended headers and volume labels not counted). */
  entries = 0

  private readonly parser: Parser
  /** Tar bytes handed to the parser. */
  private bytes = 0
  /** Valid headers seen, extended ones included: none means the content is not a tar at all. */
  private headers = 0
  private lastName: string | undefined
  /** An extended header was read and no entry has used it yet. */
  private pendingMeta = false
  /** The first zero block was seen: the rest is padding. */
  private ended = false
  private failure: Error | undefined
  private readonly stepper = new TarStepper(MAX_META_BYTES)
  private readonly links = new LinkTracker()
  /** The top-level folders of the entries (for the "everything under one folder" warning). */
  readonly topLevel = new TopLevel()
  /** Device and FIFO entries: how many, and the first one. */
  special: { count: number; first: string; kind: string } | undefined
  /** GNU.sparse.* records were read for the next entry (PAX sparse formats), with the real name if given. */
  private pendingSparse: { name?: string } | undefined
  /** The first sparse file seen: refused at the end unless something worse turns up. */
  private sparse: SparseEntry | undefined

  constructor(
    /** Called with each chunk's length once it is consumed (the chunk is no longer referenced). */
    private readonly onConsumed?: (bytes: number) => void
  ) {
    super()
    // gzip/brotli/zstd off: the bytes are already gunzipped, node-tar must not sniff them again.
    const parser = new Parser({ strict: true, maxMetaEntrySize: MAX_META_BYTES, brotli: false, zstd: false })
    parser.on('entry', (entry: ReadEntry) => this.onEntry(entry, true))
    parser.on('ignoredEntry', (entry: ReadEntry) => {
      if (entry.meta) {
        this.fail(new TarFormatError('corrupt', `an extended header ${this.where()} claims ${entry.size} bytes`))
      } else {
        this.onEntry(entry, entry.type !== 'TapeVolumeHeader') // unsupported types still count, as GNU tar lists them
      }
    })
    parser.on('meta', (meta: string) => {
      this.headers++
      this.pendingMeta = true
      const sparse = sparseRecords(meta)
      if (sparse) this.pendingSparse = { ...this.pendingSparse, ...sparse }
    })
    parser.on('nullBlock', () => {
      this.ended = true
    })
    parser.on('error', (err: Error & { tarCode?: string }) => this.onParserError(err))
    this.parser = parser
  }

  private where(): string {
    return this.lastName === undefined ? 'at the start of the archive' : `after the entry '${this.lastName}'`
  }

  /** Something wrong was found already (it is reported when the stream ends or fails). */
  get failing(): boolean {
    return this.failure !== undefined
  }

  private fail(err: Error): void {
    if (!this.ended) this.failure ??= err
  }

  private onEntry(entry: ReadEntry, counted: boolean): void {
    entry.resume() // content is never looked at
    if (this.ended) return
    this.headers++
    this.pendingMeta = false
    const sparse = this.pendingSparse
    this.pendingSparse = undefined
    const name = sparse?.name ?? entry.path
    this.lastName = name
    if (counted) this.entries++
    if (sparse || entry.type === 'SparseFile') this.sparse ??= new SparseEntry(name)
    this.topLevel.add(entry.type === 'Directory' && !name.endsWith('/') ? `${name}/` : name)
    const kind = SPECIAL[entry.type]
    if (kind !== undefined) this.special = { count: (this.special?.count ?? 0) + 1, first: this.special?.first ?? name, kind: this.special?.kind ?? kind }
    const why = unsafeName(name)
    if (why) return this.fail(new UnsafeEntry({ name, why }))
    if (entry.type === 'Link' && entry.linkpath !== undefined) {
      const linkWhy = unsafeName(entry.linkpath)
      if (linkWhy) return this.fail(new UnsafeEntry({ name, why: linkWhy, link: entry.linkpath }))
    }
    // Where links lead: a symlink's target resolved against its directory, entries under symlinked directories.
    const symlink = entry.type === 'SymbolicLink' ? entry.linkpath : undefined
    const linkKind = symlink !== undefined ? 'symlink' : entry.type === 'Link' ? 'hardlink' : 'other'
    const problem = this.links.entry(name, linkKind, entry.linkpath)
    if (problem) {
      if (symlink !== undefined) this.fail(new UnsafeEntry({ name, why: problem.why, symlink }))
      else if (linkKind === 'hardlink' && entry.linkpath !== undefined) this.fail(new UnsafeEntry({ name, why: problem.why, link: entry.linkpath }))
      else this.fail(new UnsafeEntry({ name, why: problem.why }))
    }
  }

  /** A symlink that leads outside through a symlink that came after it. */
  private lateLink(): UnsafeEntry | undefined {
    if (this.failure) return undefined
    const late = this.links.finish()
    return late && new UnsafeEntry({ name: late.name, why: late.problem.why, symlink: late.target })
  }

  private onParserError(err: Error & { tarCode?: string }): void {
    const message = err.message.replace(/^TAR_[A-Z_]+: /, '')
    if (err.tarCode === 'TAR_BAD_ARCHIVE') {
      // At the end: "Truncated input" inside an entry's content; "Unrecognized archive format"
      // (nothing valid seen) is decided in _final from what was counted.
      if (/^Truncated input/.test(message)) this.fail(new TarFormatError('truncated', `the tar stream ends in the middle of an entry ${this.where()}`))
      return
    }
    if (message === 'checksum failure') {
      this.fail(
        this.headers === 0
          ? new TarFormatError('not-tar', 'its content does not start with a valid tar header (bad header checksum)')
          : new TarFormatError('corrupt', `a tar header ${this.where()} is damaged (bad header checksum)`)
      )
      return
    }
    // Headers node-tar cannot decode (a malformed base-256 number, a link without a target, ...).
    this.fail(new TarFormatError('corrupt', `a tar header ${this.where()} is damaged (${message})`))
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (!this.ended) {
      this.bytes += chunk.length
      try {
        this.stepper.step(chunk, (piece) => {
          if (!this.ended) this.parser.write(piece)
        })
      } catch (err) {
        this.fail(err as Error)
      }
    }
    this.onConsumed?.(chunk.length)
    callback(this.failure ?? null)
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (!this.ended) {
      try {
        this.parser.end()
      } catch (err) {
        this.fail(err as Error)
      }
    }
    callback(this.failure ?? this.endOfStream() ?? this.lateLink() ?? this.sparse ?? null)
  }

  /** What is wrong with where the tar stream stopped, when it stopped without its end blocks. */
  private endOfStream(): TarFormatError | undefined {
    if (this.ended || this.bytes === 0) return undefined
    if (this.headers === 0) {
      return this.bytes < BLOCK ? new TarFormatError('not-tar', `its content is only ${this.bytes} bytes long, smaller than one tar header`) : undefined
    }
    if (this.bytes % BLOCK !== 0) return new TarFormatError('truncated', `the tar stream ends in the middle of an entry ${this.where()}`)
    if (this.pendingMeta) return new TarFormatError('truncated', `the tar stream ends ${this.where()}, inside an extended header`)
    return undefined // no end-of-archive blocks: tolerated (GNU tar does too)
  }
}
