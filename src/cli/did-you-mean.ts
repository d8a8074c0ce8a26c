// A mistyped flag (--enviroment) named with the flag it most likely meant, by edit distance (a letter left out, added,
// changed, or two swapped, each one edit), instead of node's parser text about positional arguments.

/** The edits between `a` and `b`: insertions, deletions, substitutions and swaps of two neighbours (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  const at = (i: number, j: number): number => d[i]?.[j] ?? Number.POSITIVE_INFINITY
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1)
      ;(d[i] as number[])[j] = best
    }
  }
  return at(a.length, b.length)
}

/** The candidate nearest to `name`, when it is near enough to be a typo: one edit for a short name, two from 6 letters, three from 12. */
export function closest(name: string, candidates: readonly string[]): string | undefined {
  const allowed = name.length >= 12 ? 3 : name.length >= 6 ? 2 : 1
  let best: { candidate: string; distance: number } | undefined
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate)
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { candidate, distance }
  }
  return best?.candidate
}
