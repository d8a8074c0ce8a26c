// Lists a directory tree as tar entries, lazily and in a reproducible order.
import { lstat, readdir, readlink } from 'node:fs/promises'
import type { Stats } from 'node:fs'
import path from 'node:path'
import { describeError, InputError, systemErrorCode } from '../errors.js'
import { LinkTracker } from './links.js'
import type { TarEntry } from './tar-writer.js'

export interface WalkOptions {
  /** Files to leave out, identified by device + inode (e.g. the archive being written into the tree). */
  exclude?: Array<{ dev: number; ino: number }>
  /** Paths to leave out (same purpose; used where inodes are not reliable, or the file is made later: the packer's spill). */
  excludePaths?: string[]
  /** Platform whose file modes apply; defaults to process.platform. */
  platform?: NodeJS.Platform
  /** Told of each socket, FIFO or device left out (relative name, what it is). */
  onSkipped?: (name: string, kind: string) => void
}

/** Names sorted by their UTF-8 bytes, so the order does not depend on the locale or the file system. */
export function sortByBytes(names: string[]): string[] {
  return names
    .map((name) => ({ name, bytes: Buffer.from(name, 'utf8') }))
    .sort((a, b) => Buffer.compare(a.bytes, b.bytes))
    .map((item) => item.name)
}

/** A name's bytes as text: printable ASCII as it is, every other byte as \\xNN. */
export function escapeBytes(bytes: Buffer): string {
  return [...bytes].map((b) => (b >= 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('')
}

/**
 * A name that is not valid UTF-8 is refused rather than packed as raw bytes: the tar's PAX names are
 * UTF-8 by definition, and the Java platform would open the file under another name, or not at all.
 */
function notUtf8(prefix: string, bytes: Buffer): InputError {
  return new InputError(
    `distribution: the name of '${prefix}${escapeBytes(bytes)}' is not valid UTF-8 (the bytes that are not are shown as \\xNN), ` +
      'so it cannot be packed under its own name. Rename it to a UTF-8 name (e.g. `convmv -f latin1 -t utf-8 --notest <name>`, ' +
      'or regenerate it with a UTF-8 locale such as `LANG=C.UTF-8`), or delete it if it is not needed.'
  )
}

/** The system's code of a failure (EACCES, ...), else its message. */
function why(err: unknown): string {
  return systemErrorCode(err) ?? describeError(err)
}

/** What a walk keeps for its whole tree: what it leaves out, whose file modes apply, and where the symlinks lead. */
interface TreeWalk {
  readonly options: WalkOptions
  readonly exclude: ReadonlyArray<{ dev: number; ino: number }>
  readonly excludePaths: readonly string[]
  readonly windows: boolean
  readonly links: LinkTracker
}

/**
 * Yields the CONTENTS of root (not root itself) depth-first: each directory (name ending in '/')
 * before its children, children in byte order of their names. Regular files, directories and
 * symlinks (kept as links) are listed; sockets, FIFOs and devices are skipped (reported to onSkipped).
 */
export async function* walkDirectory(root: string, options: WalkOptions = {}): AsyncGenerator<TarEntry> {
  const walk: TreeWalk = {
    options,
    exclude: options.exclude ?? [],
    excludePaths: (options.excludePaths ?? []).map((p) => path.resolve(p)),
    windows: (options.platform ?? process.platform) === 'win32',
    links: new LinkTracker('the directory being packed')
  }
  yield* walkFolder(walk, root, '')
  // A symlink may lead outside through one listed after it (a -> b/.., then b -> .): checked once all are known.
  const late = walk.links.finish()
  if (late) throw outside(late.name, late.target, late.problem.why)
}

/** A symlink that leads outside the tree: refused, with what to do instead. */
function outside(rel: string, target: string, why: string): InputError {
  return new InputError(
    `distribution: the symlink '${rel}' -> '${target}' ${why}; packed as a link, it would lead outside the installation directory ` +
      'on the platform (to nothing, or to files that are not yours). Replace the link by the file or directory it points to ' +
      '(copy it into the distribution), or make it point inside the distribution with a relative target (e.g. `lib/current -> ../lib-1.2`).'
  )
}

/** One directory's entries, each directory followed by its own, depth-first. */
async function* walkFolder(walk: TreeWalk, dir: string, prefix: string): AsyncGenerator<TarEntry> {
  for (const name of await listNames(dir, prefix)) {
    const full = path.join(dir, name)
    const rel = prefix + name
    const st = await lstatWhilePacking(full, rel)
    if (leftOut(walk, full, st)) continue
    const mtime = Math.floor(st.mtimeMs / 1000)
    if (st.isDirectory()) {
      yield { type: 'directory', name: `${rel}/`, mode: walk.windows ? 0o755 : st.mode & 0o7777, mtime }
      yield* walkFolder(walk, full, `${rel}/`)
    } else if (st.isFile()) {
      // Windows has no execute bit: make shell scripts executable so bin/*.sh still run on the platform.
      const mode = walk.windows ? (name.endsWith('.sh') ? 0o755 : 0o644) : st.mode & 0o7777
      yield { type: 'file', name: rel, mode, mtime, size: st.size, sourcePath: full, listedMtimeMs: st.mtimeMs }
    } else if (st.isSymbolicLink()) {
      yield await symlinkEntry(walk, full, rel, st, mtime)
    }
    // Sockets, FIFOs and devices: nothing to deploy, left out (the caller says so).
    else {
      const kind = st.isFIFO() ? 'a FIFO' : st.isSocket() ? 'a socket' : st.isCharacterDevice() ? 'a character device' : 'a block device'
      walk.options.onSkipped?.(rel, kind)
    }
  }
}

/** A directory's names, in byte order; a name that is not UTF-8 is refused (notUtf8). */
async function listNames(dir: string, prefix: string): Promise<string[]> {
  let raw: Buffer[]
  try {
    raw = await readdir(dir, { encoding: 'buffer' })
  } catch (err) {
    throw new InputError(
      `distribution: cannot list the directory '${prefix || '.'}' (${why(err)}). ` +
        'Make sure the user running the action can read every directory of the distribution.'
    )
  }
  const names = raw.map((bytes) => {
    const name = bytes.toString('utf8')
    if (!Buffer.from(name, 'utf8').equals(bytes)) throw notUtf8(prefix, bytes)
    return name
  })
  return sortByBytes(names)
}

/** An entry's lstat; a name listed a moment ago that is gone now means something changes the tree while it is packed. */
async function lstatWhilePacking(full: string, rel: string): Promise<Stats> {
  try {
    return await lstat(full)
  } catch (err) {
    throw new InputError(
      `distribution: '${rel}' could not be read while packing (${why(err)}). ` +
        'Make sure no other step or process changes the distribution directory while this action runs.'
    )
  }
}

/** Whether the entry is one the caller left out: by device and inode, or by its path (without case on Windows). */
function leftOut(walk: TreeWalk, full: string, st: Stats): boolean {
  if (walk.exclude.some((e) => e.dev === st.dev && e.ino === st.ino && e.ino !== 0)) return true
  const samePath = (a: string, b: string): boolean => (walk.windows ? a.toLowerCase() === b.toLowerCase() : a === b)
  return walk.excludePaths.some((p) => samePath(path.resolve(full), p))
}

/** A symlink kept as a link, its target checked against the tree (LinkTracker) as far as the links known so far tell. */
async function symlinkEntry(walk: TreeWalk, full: string, rel: string, st: Stats, mtime: number): Promise<TarEntry> {
  let target: string
  try {
    target = await readlink(full)
  } catch (err) {
    throw new InputError(`distribution: cannot read the symlink '${rel}' (${why(err)}).`)
  }
  if (walk.windows) target = target.replace(/\\/g, '/')
  const problem = walk.links.entry(rel, 'symlink', target)
  if (problem) throw outside(rel, target, problem.why)
  return { type: 'symlink', name: rel, mode: walk.windows ? 0o777 : st.mode & 0o7777, mtime, linkname: target }
}
