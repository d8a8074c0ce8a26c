// The targets table's rows, built from a run's samples: issue 42's goals, issue 12's targets (still
// checked) and rows for information. Pure: the samples come in as a map from case id to rounds, so
// scripts/bench.ts stays about running things and the verdicts can be tested without running any.
import { formatStat, perRoundDifferences, perRoundRatios, rateLabel, sizeLabel, statOf, targetRow, type Stat, type TargetRow } from './bench-targets.js'

/** One round of one case: wall time, peak RSS (KiB) and, for uploads, the bytes sent. */
export interface CaseSample {
  ms: number
  peakKb: number | undefined
  bytes?: number | undefined
}

/** Case id -> its samples, indexed by round (so that ratios pair the same round). */
export type Samples = ReadonlyMap<string, readonly CaseSample[]>

export type TreeName = 'generated' | 'real-jars'
export const TREE_NAMES: readonly TreeName[] = ['generated', 'real-jars']
/** "generated", "real-jar": as the rows name a tree. */
export const treeLabel = (tree: TreeName): string => (tree === 'real-jars' ? 'real-jar' : tree)

/**
 * A case as reported: `action-dir`, `action-dir@40MB/s`, `action-dir[1G]` on the generated tree (the
 * names the earlier runs used), `real-jars:action-dir@40MB/s` on the real-jar tree.
 */
export function caseId(kind: string, where: { tree?: TreeName; link?: string | undefined; scale?: number } = {}): string {
  const prefix = where.tree === 'real-jars' ? 'real-jars:' : ''
  return `${prefix}${kind}${where.scale === undefined ? '' : `[${sizeLabel(where.scale)}]`}${where.link ?? ''}`
}

/** `--trees generated,real-jars`: the trees to measure, in that order, each once. */
export function parseTrees(s: string): TreeName[] {
  const names = s
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '')
  for (const n of names) if (!TREE_NAMES.includes(n as TreeName)) throw new Error(`unknown tree ${n}; --trees takes ${TREE_NAMES.join(', ')} (comma-separated)`)
  if (names.length === 0) throw new Error(`--trees names no tree; write e.g. --trees ${TREE_NAMES.join(',')}`)
  return TREE_NAMES.filter((t) => names.includes(t))
}

const MIB_PER_KIB = 1 / 1024
const sec = (ms: number): string => (ms / 1000).toFixed(2)
const signed = (x: number, digits: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(digits)}`
const times = (samples: Samples, id: string): (number | undefined)[] => (samples.get(id) ?? []).map((s) => s.ms)
const peaks = (samples: Samples, id: string): (number | undefined)[] => (samples.get(id) ?? []).map((s) => s.peakKb)
const ran = (samples: Samples, id: string): boolean => (samples.get(id)?.length ?? 0) > 0
const notRun = (samples: Samples, ids: string[]): string => {
  const absent = ids.filter((id) => !ran(samples, id))
  return `needs the ${ids.join(' and ')} case${ids.length > 1 ? 's' : ''}${absent.length > 0 ? ` (not run: ${absent.join(', ')}; see --cases, --trees, --link-rate)` : ''}`
}

/** `a / b` per round, median of the rounds, at most `limit`. `missing`: why it could not run, when known. */
export function ratioRow(samples: Samples, row: string, a: string, b: string, limit: number, missing?: string): TargetRow {
  const ratios = statOf(perRoundRatios(times(samples, a), times(samples, b)))
  const ta = statOf(times(samples, a))
  const tb = statOf(times(samples, b))
  const figure = ratios && ta && tb ? `${formatStat(ratios, 2)} x (${a} ${sec(ta.median)} s, ${b} ${sec(tb.median)} s)` : ''
  return targetRow(row, `<= ${limit.toFixed(2)}x`, ratios?.median, limit, figure, missing ?? notRun(samples, [a, b]))
}

/** `a - b` per round, median of the rounds, at most `limitSeconds` (compared in ms, as measured). */
export function differenceRow(samples: Samples, row: string, a: string, b: string, limitSeconds: number, missing?: string): TargetRow {
  const diffs = statOf(perRoundDifferences(times(samples, a), times(samples, b)))
  const ta = statOf(times(samples, a))
  const tb = statOf(times(samples, b))
  const s = (ms: number): string => signed(ms / 1000, 2)
  const figure = diffs && ta && tb ? `${s(diffs.median)} [${s(diffs.min)} to ${s(diffs.max)}] s (${a} ${sec(ta.median)} s, ${b} ${sec(tb.median)} s)` : ''
  return targetRow(row, `<= ${signed(limitSeconds, 2)} s`, diffs?.median, limitSeconds * 1000, figure, missing ?? notRun(samples, [a, b]))
}

/** The highest peak RSS over every round of every case in `ids` that ran, at most `limitMiB`. */
export function memoryRow(samples: Samples, row: string, ids: string[], limitMiB: number, missing?: string): TargetRow {
  const measured = ids.map((id) => [id, statOf(peaks(samples, id))] as const).filter((e): e is readonly [string, Stat] => e[1] !== undefined)
  const worst = measured.length === 0 ? undefined : Math.max(...measured.map(([, m]) => m.max)) * MIB_PER_KIB
  const worstId = measured.find(([, m]) => m.max * MIB_PER_KIB === worst)?.[0]
  const figure = `${measured.map(([id, m]) => `${id} ${formatStat(m, 1, MIB_PER_KIB)}`).join('; ')} MiB; highest ${worst?.toFixed(1)} MiB (${worstId})`
  return targetRow(row, `<= ${limitMiB} MiB`, worst, limitMiB, figure, missing ?? notRun(samples, ids))
}

/**
 * For information: the time the link alone needs to carry the action's archive (its bytes / the
 * rate), as a ratio to the recipe's time on that link in the same round: the floor of `action / recipe`.
 */
export function linkFloorRow(samples: Samples, row: string, action: string, recipe: string, rate: number): TargetRow | undefined {
  const floorMs = (samples.get(action) ?? []).map((s) => (s.bytes === undefined ? undefined : (s.bytes / rate) * 1000))
  const ratios = statOf(perRoundRatios(floorMs, times(samples, recipe)))
  const floor = statOf(floorMs)
  const bytes = statOf((samples.get(action) ?? []).map((s) => s.bytes))
  const tr = statOf(times(samples, recipe))
  if (!ratios || !floor || !bytes || !tr) return undefined
  const figure = `${formatStat(ratios, 2)} x (${(bytes.median / 1e6).toFixed(1)} MB at ${rateLabel(rate)} = ${sec(floor.median)} s; ${recipe} ${sec(tr.median)} s)`
  return { row, figure, target: '(no target)', verdict: 'INFO' }
}

/** What a run measured, beyond its samples: the link, the trees that could not be measured, the scale trees. */
export interface GoalContext {
  /** The link emulator's rate, B/s; undefined with --link-rate off. */
  linkRate: number | undefined
  /** Why a tree's cases did not run (not in --trees, its build failed); absent when they ran. */
  treeMissing: Partial<Record<TreeName, string>>
  scale: {
    /** --scale's sizes, ascending. */
    requested: number[]
    /** The sizes measured (action-dir[S] ran). */
    measured: number[]
    /** Size -> why it was skipped (disk). */
    skipped: ReadonlyMap<number, string>
    /** Why no scale case could run at all (--scale off, no action-dir in --cases, --trees). */
    off?: string | undefined
  }
}

export const MEMORY_LIMIT_MIB = 80

export interface GoalRows {
  /** Issue 42's goals, in the issue's order. */
  issue42: TargetRow[]
  /** Issue 12's targets not restated by issue 42 (still checked). */
  issue12: TargetRow[]
  info: TargetRow[]
}

export function goalRows(samples: Samples, ctx: GoalContext): GoalRows {
  const link = ctx.linkRate === undefined ? undefined : `@${rateLabel(ctx.linkRate)}`
  const linkName = ctx.linkRate === undefined ? '40MB/s' : rateLabel(ctx.linkRate)
  const other = ctx.linkRate === undefined || ctx.linkRate === 40e6 ? '' : ' (the goal is for 40MB/s)'
  const real = ctx.treeMissing['real-jars']
  const gen = ctx.treeMissing.generated
  const id = (kind: string, tree: TreeName, onLink = false): string => caseId(kind, { tree, link: onLink ? link : undefined })
  const ratio = (row: string, a: string, b: string, limit: number, missing?: string): TargetRow => ratioRow(samples, row, a, b, limit, missing)
  // Without a link, a link row's case ids would be the loopback ones: it is NOT MEASURED outright.
  const onLink = (row: TargetRow, missing: string | undefined): TargetRow =>
    link === undefined ? { ...row, figure: missing ?? '--link-rate off', verdict: 'NOT MEASURED' } : row
  const realOnLink = `real-jar tree, ${linkName} link${other} (action-dir / recipe)`
  const genOnLink = `generated half-text tree, ${linkName} link${other} (action-dir / recipe)`
  const prebuiltOnLink = `prebuilt archive, ${linkName} link${other}`
  const issue42: TargetRow[] = [
    onLink(ratio(realOnLink, id('action-dir', 'real-jars', true), id('recipe', 'real-jars', true), 0.55, real), real),
    ratio('real-jar tree, loopback (action-dir / recipe)', id('action-dir', 'real-jars'), id('recipe', 'real-jars'), 0.2, real),
    onLink(ratio(genOnLink, id('action-dir', 'generated', true), id('recipe', 'generated', true), 0.5, gen), gen),
    ...memoryRows(samples, ctx, link),
    onLink(
      differenceRow(
        samples,
        `${prebuiltOnLink} (action-archive - curl-archive)`,
        id('action-archive', 'generated', true),
        id('curl-archive', 'generated', true),
        0.15,
        gen
      ),
      gen
    )
  ]
  const issue12: TargetRow[] = [
    ratio('generated tree, loopback (action-dir / recipe)', 'action-dir', 'recipe', 0.55, gen),
    ratio('prebuilt archive, loopback (action-archive / curl-archive)', 'action-archive', 'curl-archive', 1.15, gen),
    onLink(
      ratio(`${prebuiltOnLink} (action-archive / curl-archive)`, id('action-archive', 'generated', true), id('curl-archive', 'generated', true), 1.05, gen),
      gen
    ),
    scaleRow(samples, ctx.scale)
  ]
  return { issue42, issue12, info: infoRows(samples, ctx, link) }
}

/** Issue 42: peak RSS <= 80 MiB for every action case; a row per tree (loopback and link together). */
function memoryRows(samples: Samples, ctx: GoalContext, link: string | undefined): TargetRow[] {
  const both = (kind: string, tree: TreeName): string[] => [caseId(kind, { tree }), ...(link ? [caseId(kind, { tree, link })] : [])]
  const rows = [
    memoryRow(samples, 'peak RSS, real-jar tree (action-dir)', both('action-dir', 'real-jars'), MEMORY_LIMIT_MIB, ctx.treeMissing['real-jars']),
    memoryRow(samples, 'peak RSS, generated tree (action-dir)', both('action-dir', 'generated'), MEMORY_LIMIT_MIB, ctx.treeMissing.generated),
    memoryRow(samples, 'peak RSS, prebuilt archive (action-archive)', both('action-archive', 'generated'), MEMORY_LIMIT_MIB, ctx.treeMissing.generated)
  ]
  const scaled = ctx.scale.measured.map((s) => caseId('action-dir', { scale: s }))
  if (scaled.length > 0) rows.push(memoryRow(samples, 'peak RSS, scale trees (action-dir)', scaled, MEMORY_LIMIT_MIB))
  const refusals = TREE_NAMES.map((tree) => caseId('refusal', { tree })).filter((r) => ran(samples, r))
  if (refusals.length > 0) rows.push(memoryRow(samples, 'peak RSS, refused input (refusal)', refusals, MEMORY_LIMIT_MIB))
  return rows
}

/** Issue 12: the median peak RSS of the largest --scale tree against the smallest's, within +5%. */
function scaleRow(samples: Samples, scale: GoalContext['scale']): TargetRow {
  const { requested, measured, skipped, off } = scale
  const row =
    requested.length >= 2
      ? `peak RSS scale: ${sizeLabel(requested[requested.length - 1]!)} tree against ${sizeLabel(requested[0]!)} tree (action-dir)`
      : 'peak RSS scale: largest --scale tree against smallest (action-dir)'
  const target = 'within +5%'
  if (off !== undefined || requested.length === 0) return { row, figure: off ?? '--scale off', target, verdict: 'NOT MEASURED' }
  const why = [...skipped].map(([s, reason]) => `${sizeLabel(s)} skipped: ${reason}`).join('; ')
  if (measured.length < 2 || skipped.size > 0) return { row, figure: `needs two tree sizes${why ? `; ${why}` : ''}`, target, verdict: 'NOT MEASURED' }
  const lo = measured[0]!
  const hi = measured[measured.length - 1]!
  const pLo = statOf(peaks(samples, caseId('action-dir', { scale: lo })))
  const pHi = statOf(peaks(samples, caseId('action-dir', { scale: hi })))
  const growth = pLo && pHi ? pHi.median / pLo.median - 1 : undefined
  const figure =
    pLo && pHi && growth !== undefined
      ? `${signed(growth * 100, 1)}% (${sizeLabel(hi)}: ${formatStat(pHi, 1, MIB_PER_KIB)} MiB, ${sizeLabel(lo)}: ${formatStat(pLo, 1, MIB_PER_KIB)} MiB; medians compared)`
      : ''
  return targetRow(row, target, growth, 0.05, figure, 'no peak RSS')
}

/** Rows without a target: the link-alone floor per tree, the time ratio at each scale size, the refusal. */
function infoRows(samples: Samples, ctx: GoalContext, link: string | undefined): TargetRow[] {
  const info: TargetRow[] = []
  const push = (r: TargetRow | undefined): void => {
    if (r && r.verdict !== 'NOT MEASURED') info.push({ ...r, target: '(no target)', verdict: 'INFO' })
  }
  if (link !== undefined && ctx.linkRate !== undefined)
    for (const tree of TREE_NAMES) {
      const action = caseId('action-dir', { tree, link })
      push(
        linkFloorRow(
          samples,
          `${treeLabel(tree)} tree, the link alone: archive bytes / ${rateLabel(ctx.linkRate)}, to recipe${link}`,
          action,
          caseId('recipe', { tree, link }),
          ctx.linkRate
        )
      )
    }
  for (const s of ctx.scale.measured) {
    const a = caseId('action-dir', { scale: s })
    const b = caseId('recipe', { scale: s })
    if (ran(samples, b)) push(ratioRow(samples, `generated ${sizeLabel(s)} tree, loopback (action-dir / recipe)`, a, b, Infinity))
  }
  for (const tree of TREE_NAMES) {
    const refuse = statOf(times(samples, caseId('refusal', { tree })))
    if (refuse)
      info.push({ row: 'refused input (bad stack), reported and exited', figure: `${formatStat(refuse, 0)} ms`, target: '(no target)', verdict: 'INFO' })
  }
  return info
}
