// The benchmark's arithmetic and its targets table: medians, per-round ratios, link rates, verdicts.
// Pure functions, so scripts/bench.ts stays about running things.

export interface Stat {
  median: number
  min: number
  max: number
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/** Median, min and max of the defined values; undefined when there are none. */
export function statOf(xs: readonly (number | undefined)[]): Stat | undefined {
  const ys = xs.filter((x): x is number => x !== undefined && Number.isFinite(x))
  if (ys.length === 0) return undefined
  return { median: median(ys), min: Math.min(...ys), max: Math.max(...ys) }
}

/** `a[i] / b[i]` for each round both have (the same round, so a busy spell hits both). */
export function perRoundRatios(a: readonly (number | undefined)[], b: readonly (number | undefined)[]): number[] {
  const out: number[] = []
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]
    const y = b[i]
    if (x !== undefined && y !== undefined && y > 0) out.push(x / y)
  }
  return out
}

/** `a[i] - b[i]` for each round both have (as perRoundRatios: for a target in seconds over another case). */
export function perRoundDifferences(a: readonly (number | undefined)[], b: readonly (number | undefined)[]): number[] {
  const out: number[] = []
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]
    const y = b[i]
    if (x !== undefined && y !== undefined) out.push(x - y)
  }
  return out
}

/** "1.23 [1.10-1.40]" (scaled by `scale`, `digits` decimals). */
export function formatStat(s: Stat, digits: number, scale = 1): string {
  const f = (x: number): string => (x * scale).toFixed(digits)
  return `${f(s.median)} [${f(s.min)}-${f(s.max)}]`
}

/**
 * A link rate in bytes per second: "40M" = 40,000,000 B/s (k = 1e3, M = 1e6, G = 1e9: decimal, as
 * links are quoted, unlike the tree sizes' MiB), an optional "B/s" suffix. "off", "none" or "0": none.
 */
export function parseRate(s: string): number | undefined {
  const t = s.trim()
  if (/^(off|none|0)$/i.test(t)) return undefined
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]?)(?:b(?:\/s)?)?$/i.exec(t)
  if (!m) throw new Error(`not a link rate: ${s} (write e.g. 40M for 40 MB/s, or off)`)
  const unit = { '': 1, k: 1e3, m: 1e6, g: 1e9 }[(m[2] ?? '').toLowerCase() as '' | 'k' | 'm' | 'g']
  const rate = Math.round(Number(m[1]) * unit)
  if (rate < 1) throw new Error(`the link rate must be at least 1 B/s: ${s}`)
  return rate
}

/** "40MB/s", "12.5MB/s", "800kB/s": the suffix of the cases run at that rate. */
export function rateLabel(bytesPerSecond: number): string {
  const trim = (x: number): string => String(Number(x.toFixed(2)))
  if (bytesPerSecond >= 1e9) return `${trim(bytesPerSecond / 1e9)}GB/s`
  if (bytesPerSecond >= 1e6) return `${trim(bytesPerSecond / 1e6)}MB/s`
  if (bytesPerSecond >= 1e3) return `${trim(bytesPerSecond / 1e3)}kB/s`
  return `${bytesPerSecond}B/s`
}

/** "100M", "1G", "1.5G": a tree size (MiB/GiB) as the options write it. */
export function sizeLabel(bytes: number): string {
  const trim = (x: number): string => String(Number(x.toFixed(2)))
  if (bytes >= 1024 ** 3) return `${trim(bytes / 1024 ** 3)}G`
  if (bytes >= 1024 ** 2) return `${trim(bytes / 1024 ** 2)}M`
  return `${bytes}`
}

export type Verdict = 'MET' | 'NOT MET' | 'NOT MEASURED' | 'INFO'

export interface TargetRow {
  row: string
  /** The measured figure, or why it was not measured. */
  figure: string
  target: string
  verdict: Verdict
}

/** A row whose verdict is `value <= limit`, or NOT MEASURED (with `missing` as the figure) when value is undefined. */
export function targetRow(row: string, target: string, value: number | undefined, limit: number, figure: string, missing: string): TargetRow {
  if (value === undefined) return { row, figure: missing, target, verdict: 'NOT MEASURED' }
  return { row, figure, target, verdict: value <= limit ? 'MET' : 'NOT MET' }
}

/** The rows as an aligned text table, one line each (verdict first, so it is easy to scan). */
export function renderTargets(rows: readonly TargetRow[]): string[] {
  const head = { row: 'row', figure: 'measured: median [min-max]', target: 'target', verdict: 'verdict' }
  const all = [head, ...rows]
  const w = (k: keyof TargetRow): number => Math.max(...all.map((r) => r[k].length))
  const line = (r: typeof head | TargetRow): string =>
    `${r.verdict.padEnd(w('verdict'))}  ${r.row.padEnd(w('row'))}  ${r.target.padEnd(w('target'))}  ${r.figure}`.trimEnd()
  return [line(head), ...rows.map(line)]
}
