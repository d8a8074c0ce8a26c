// A repository's history as both code hosts' stand-ins need it (github/, gitlab/): commits with their parents,
// branches, lightweight and annotated tags, refs resolved as git resolves a commit-ish, and how two commits relate
// (merge base, the commits one has and the other lacks). No host's words here: each model turns an unknown ref or
// unrelated histories into its own host's answer.
import { createHash } from 'node:crypto'

export interface CommitAuthor {
  name: string
  email: string
  /** The host's account matched to that email (GitHub's login); none: no account. */
  login?: string
}

export interface Commit {
  sha: string
  parents: string[]
  message: string
  /** ISO time of the commit (its author's and committer's date). */
  date: string
  author?: CommitAuthor
}

/** An annotated tag: a git object of its own (its sha), naming the commit it points to. */
export interface TagObject {
  sha: string
  name: string
  commit: string
  message: string
}

/** How head relates to base: the merge base (none for unrelated histories), head's commits base lacks (oldest first), and base's count. */
export interface Relation {
  base: Commit
  head: Commit
  mergeBase: Commit | undefined
  ahead: Commit[]
  behindBy: number
}

export const FULL_SHA = /^[0-9a-f]{40}$/
const SHORT_SHA = /^[0-9a-f]{7,40}$/

/** A deterministic 40-hex sha for a label (its sha1), so tests can name commits. */
export function fakeSha(label: string): string {
  return createHash('sha1').update(label).digest('hex')
}

/** Times without milliseconds, as GitHub writes them. */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

export class CommitGraph {
  private readonly commits = new Map<string, Commit>()
  private readonly branchTips = new Map<string, string>()
  private readonly tags = new Map<string, string>()
  /** The annotated tags' objects, by tag name (a lightweight tag has none). */
  private readonly tagObjects = new Map<string, TagObject>()

  constructor(private readonly now: () => number = Date.now) {}

  /** Adds a commit (dated now unless `date` says); its parents need not be known (a shallow boundary: the walk stops there). */
  commit(sha: string, parents: string[] = [], message = `Commit ${sha.slice(0, 7)}`, author?: CommitAuthor, date?: string): string {
    for (const s of [sha, ...parents]) if (!FULL_SHA.test(s)) throw new Error(`Not a 40-hex lower-case sha: '${s}' (use fakeSha(label))`)
    if (!this.commits.has(sha)) this.commits.set(sha, { sha, parents: [...parents], message, date: date ?? isoSeconds(this.now()), ...(author && { author }) })
    return sha
  }

  /** Creates or moves (force-pushes) a branch. */
  branch(name: string, sha: string): void {
    this.branchTips.set(name, this.known(sha))
  }

  /** A lightweight tag: the name points at the commit itself. */
  tag(name: string, sha: string): void {
    this.tags.set(name, this.known(sha))
    this.tagObjects.delete(name)
  }

  /** An annotated tag: a tag object (its own sha, a message) pointing at the commit; returns the object's sha. */
  annotatedTag(name: string, sha: string, message = `Release ${name}`): string {
    const object: TagObject = { sha: fakeSha(`tag object ${name} ${sha}`), name, commit: this.known(sha), message }
    this.tags.set(name, object.commit)
    this.tagObjects.set(name, object)
    return object.sha
  }

  /** The object of an annotated tag; undefined for a lightweight one, or no tag. */
  tagObject(name: string): TagObject | undefined {
    return this.tagObjects.get(name)
  }

  /** The tags in the order they were made (a moved tag keeps its place). */
  get tagEntries(): Array<{ name: string; sha: string }> {
    return [...this.tags].map(([name, sha]) => ({ name, sha }))
  }

  /** The branches in the order they were made. */
  get branchEntries(): Array<{ name: string; sha: string }> {
    return [...this.branchTips].map(([name, sha]) => ({ name, sha }))
  }

  branchTip(name: string): string | undefined {
    return this.branchTips.get(name)
  }

  tagTarget(name: string): string | undefined {
    return this.tags.get(name)
  }

  /** A chain of commits on `branch`, the first one's parent the branch's current tip (if any); moves the branch to the last. */
  linear(branch: string, shas: string[], dates?: string[]): string[] {
    let parent = this.branchTips.get(branch)
    shas.forEach((sha, i) => {
      this.commit(sha, parent === undefined ? [] : [parent], undefined, undefined, dates?.[i])
      parent = sha
    })
    if (parent !== undefined) this.branchTips.set(branch, parent)
    return shas
  }

  getCommit(sha: string): Commit | undefined {
    return this.commits.get(sha)
  }

  /** A branch, a tag, `refs/heads/...`, `refs/tags/...`, a known full sha, or a unique prefix of >= 7 hex of one. */
  resolve(ref: string): string | undefined {
    const named = this.branchTips.get(ref.replace(/^refs\/heads\//, '')) ?? this.tags.get(ref.replace(/^refs\/tags\//, ''))
    if (named !== undefined) return named
    const lower = ref.toLowerCase()
    if (!SHORT_SHA.test(lower)) return undefined
    if (this.commits.has(lower)) return lower
    // An annotated tag's own object is peeled to its commit, as git's commit-ish does.
    const object = [...this.tagObjects.values()].find((t) => t.sha === lower)
    if (object !== undefined) return object.commit
    const matches = [...this.commits.keys()].filter((sha) => sha.startsWith(lower))
    return matches.length === 1 ? matches[0] : undefined // an ambiguous prefix names nothing
  }

  /** The commit a ref names; undefined when it names none the graph holds. */
  commitOf(ref: string): Commit | undefined {
    const sha = this.resolve(ref)
    return sha === undefined ? undefined : this.commits.get(sha)
  }

  /** Walks base..head like `git log base..head` and finds the merge base. */
  relate(base: Commit, head: Commit): Relation {
    const fromBase = this.ancestors(base.sha)
    const fromHead = this.ancestors(head.sha)
    const common = [...fromHead].filter((sha) => fromBase.has(sha))
    const ahead = this.topological([...fromHead].filter((sha) => !fromBase.has(sha)))
    const behindBy = [...fromBase].filter((sha) => !fromHead.has(sha)).length
    return { base, head, mergeBase: common.length === 0 ? undefined : this.best(common), ahead, behindBy }
  }

  /** The commit and every known ancestor. */
  ancestors(sha: string): Set<string> {
    const seen = new Set<string>()
    const stack = [sha]
    for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
      const commit = this.commits.get(next)
      if (commit === undefined || seen.has(next)) continue
      seen.add(next)
      stack.push(...commit.parents)
    }
    return seen
  }

  private known(sha: string): string {
    if (!this.commits.has(sha)) throw new Error(`Unknown commit ${sha}: add it with commit() first`)
    return sha
  }

  /** The common ancestor no other common ancestor descends from; the newest added when several (criss-cross merges). */
  private best(common: string[]): Commit {
    const set = new Set(common)
    const shadowed = new Set<string>()
    for (const sha of common) for (const a of this.ancestors(sha)) if (a !== sha && set.has(a)) shadowed.add(a)
    const order = [...this.commits.keys()]
    const candidates = common.filter((sha) => !shadowed.has(sha)).sort((a, b) => order.indexOf(b) - order.indexOf(a))
    return this.commits.get(candidates[0] as string) as Commit
  }

  /** Parents before children, ties in the order commits were added. */
  private topological(shas: string[]): Commit[] {
    const wanted = new Set(shas)
    const done = new Set<string>()
    const out: Commit[] = []
    const visit = (sha: string): void => {
      if (!wanted.has(sha) || done.has(sha)) return
      done.add(sha)
      const commit = this.commits.get(sha) as Commit
      for (const p of commit.parents) visit(p)
      out.push(commit)
    }
    for (const sha of this.commits.keys()) visit(sha)
    return out
  }
}
