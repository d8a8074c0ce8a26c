// A tracked ref that is a pattern of tag names (docs/status.md, "Tracking a tag pattern"): `v*`, `tags/release-*`,
// `refs/tags/v1.?.*` means "the newest tag whose name matches". Newest by the names' version order, not by commit
// date: a tag name is what a release process chooses to say "this one is later" (v1.10.0 after v1.9.2), it is known
// from one listing without a call per tag, and a hotfix tag of an old line (v1.9.3, tagged after v2.0.0) must not be
// taken for the newest release. Pure: GitHub's listing comes from github/client.ts.

/** The glob characters: a tracked ref with one of them is a pattern of tag names. */
export const TAG_PATTERN_CHARS = /[*?]/g

export function isTagPattern(track: string): boolean {
  return /[*?]/.test(track)
}

/** The pattern's tag names: `*` any run of characters, `?` one; a leading `tags/` or `refs/tags/` names the tags' namespace. */
export function tagMatcher(pattern: string): RegExp {
  const body = pattern
    .replace(/^(?:refs\/)?tags\//, '')
    .split('')
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('')
  return new RegExp(`^${body}$`, 'u')
}

/** Runs of digits and of the rest: 'v1.10.0-rc2' -> ['v', 1, '.', 10, '.', 0, '-rc', 2]. */
function parts(name: string): Array<string | number> {
  return (name.match(/\d+|\D+/g) ?? []).map((p) => (/^\d/.test(p) ? Number(p) : p))
}

/** The version core (the name up to a `-` after its first digit) and what follows it: a pre-release such as -rc1. */
function split(name: string): { core: string; pre: string | undefined } {
  const m = /^(\D*\d[^-]*)(?:-(.*))?$/.exec(name)
  return m === null ? { core: name, pre: undefined } : { core: m[1] ?? name, pre: m[2] }
}

function byParts(a: string, b: string): number {
  const pa = parts(a)
  const pb = parts(b)
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i] as string | number
    const y = pb[i] as string | number
    if (x === y) continue
    if (typeof x === 'number' && typeof y === 'number') return x - y
    // A number ranks after text at the same place (v1.2 after v1.x): a version's digits are what grows.
    if (typeof x === 'number') return 1
    if (typeof y === 'number') return -1
    return x < y ? -1 : 1
  }
  return pa.length - pb.length
}

/**
 * Version order of tag names: numbers compared as numbers (v1.10.0 after v1.9.2), and a pre-release before its
 * release (v2.0.0-rc1 before v2.0.0), as semantic versioning orders them; names without digits by their text.
 */
export function compareTagNames(a: string, b: string): number {
  const x = split(a)
  const y = split(b)
  const cores = byParts(x.core, y.core)
  if (cores !== 0) return cores
  if (x.pre === undefined || y.pre === undefined) return (x.pre === undefined ? 1 : 0) - (y.pre === undefined ? 1 : 0)
  return byParts(x.pre, y.pre)
}

/** The newest tag whose name matches `pattern`, or undefined when none does. */
export function newestTag<T extends { readonly name: string }>(tags: readonly T[], pattern: string): T | undefined {
  const matches = tagMatcher(pattern)
  return tags
    .filter((t) => matches.test(t.name))
    .reduce<T | undefined>((best, t) => (best === undefined || compareTagNames(t.name, best.name) > 0 ? t : best), undefined)
}
