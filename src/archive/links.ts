// Where links lead once a distribution is unpacked: shared by the archive check (entries in archive
// order) and the packer (the symlinks of the directory). A symlink is resolved against its own
// directory, through the symlinks met before it, as an extractor that follows links would; so
// `lib/current -> ../lib-1.2` stays inside, while `up -> ..`, an absolute target, or an entry
// `up/file` written through a symlinked directory lead outside the root. GNU tar and bsdtar refuse
// to extract through such links; we refuse the archive before anything is uploaded.

/** Symlinks followed for one path at most, as the kernel's limit (40). */
const MAX_HOPS = 40

export interface LinkProblem {
  /** What is wrong, to follow the entry's name (or a hard link's target): "points outside the archive root". */
  why: string
}

type Resolved = { parts: string[] } | { outside: string } | { loop: string }

const split = (name: string): string[] => name.split('/').filter((part) => part !== '' && part !== '.')

export class LinkTracker {
  /** Symlinks by where they sit once unpacked (their directory resolved), with their targets. */
  private readonly links = new Map<string, string>()

  /** @param root what the names are relative to, for messages: "the archive root", "the directory being packed". */
  constructor(private readonly root = 'the archive root') {}

  /**
   * Checks one entry, in order, and remembers it: its directory must not lead outside through a
   * symlink; a symlink's target must stay inside; a hard link's target must not lie beyond a symlink
   * that leads outside. Names are relative, '/'-separated (a trailing '/' of a directory is ignored).
   */
  entry(name: string, kind: 'symlink' | 'hardlink' | 'other', target?: string): LinkProblem | undefined {
    const parts = split(name)
    const base = parts.pop()
    const dir = this.resolve(parts, [], { hops: MAX_HOPS })
    if (!('parts' in dir)) return { why: this.describe(dir, 'is written through') }
    const where = [...dir.parts, ...(base === undefined ? [] : [base])].join('/')
    this.links.delete(where) // a later entry of the same name replaces the link
    if (kind === 'symlink' && target !== undefined) {
      const problem = this.checkTarget(target, dir.parts)
      this.links.set(where, target)
      return problem
    }
    if (kind === 'hardlink' && target !== undefined) {
      const targetParts = split(target)
      targetParts.pop()
      const resolved = this.resolve(targetParts, [], { hops: MAX_HOPS })
      if (!('parts' in resolved)) return { why: this.describe(resolved, 'lies beyond') }
    }
    return undefined
  }

  /**
   * Checks every symlink again with all of them known: a link that stayed inside when it came may
   * lead outside through a symlink that came after it. Returns the first such link.
   */
  finish(): { name: string; target: string; problem: LinkProblem } | undefined {
    for (const [where, target] of this.links) {
      const dir = split(where)
      dir.pop()
      const problem = this.checkTarget(target, dir)
      if (problem) return { name: where, target, problem }
    }
    return undefined
  }

  private checkTarget(target: string, dir: string[]): LinkProblem | undefined {
    if (target.startsWith('/') || /^[A-Za-z]:[\\/]/.test(target)) return { why: 'points to an absolute path' }
    const resolved = this.resolve(target.split('/'), dir, { hops: MAX_HOPS })
    if ('parts' in resolved) return undefined
    if ('loop' in resolved) return { why: 'is part of a loop of symlinks' }
    const through = resolved.outside === '' ? '' : ` (through the symlink '${resolved.outside}')`
    return { why: `points outside ${this.root}${through}` }
  }

  private describe(resolved: { outside: string } | { loop: string }, how: string): string {
    if ('loop' in resolved) return `${how} a loop of symlinks ('${resolved.loop}')`
    return `${how} the symlink '${resolved.outside}' (-> '${this.links.get(resolved.outside) ?? ''}'), which leads outside ${this.root}`
  }

  /** Walks `parts` from `start`, following known symlinks; `outside` names the link that led out ('' for a plain '..'). */
  private resolve(parts: string[], start: string[], budget: { hops: number }, via = ''): Resolved {
    const out = [...start]
    for (const part of parts) {
      if (part === '' || part === '.') continue
      if (part === '..') {
        if (out.length === 0) return { outside: via }
        out.pop()
        continue
      }
      out.push(part)
      const here = out.join('/')
      const target = this.links.get(here)
      if (target === undefined) continue
      if (--budget.hops < 0) return { loop: here }
      if (target.startsWith('/')) return { outside: here }
      out.pop()
      const next = this.resolve(target.split('/'), out, budget, via || here)
      if (!('parts' in next)) return next
      out.splice(0, out.length, ...next.parts)
    }
    return { parts: out }
  }
}

/** Folders a brXM distribution has at its root: an archive that holds only one of them is fine. */
const DISTRIBUTION_ROOTS = new Set(['webapps', 'shared', 'conf', 'bin', 'common', 'lib', 'server', 'logs', 'temp', 'work'])

/** Follows the top-level folders of a stream of entry names: `folder` is the one folder every entry sits under, if any. */
export class TopLevel {
  private only: string | undefined
  private several = false
  private inFolder = true

  add(name: string): void {
    const parts = split(name)
    if (parts.length === 0) return // '.' or './'
    const first = parts[0]!
    if (parts.length === 1 && !name.endsWith('/')) this.inFolder = false // a file or link at the root
    if (this.only === undefined) this.only = first
    else if (this.only !== first) this.several = true
  }

  /** The single top-level folder, when it is not one a distribution has at its root. */
  get folder(): string | undefined {
    if (this.several || !this.inFolder || this.only === undefined || DISTRIBUTION_ROOTS.has(this.only)) return undefined
    return this.only
  }
}
