// `npm run bench [-- --size 300M --rounds 3 --level 6 --link-rate 40M --scale 100M,1G --trees generated,real-jars]`:
// the action against the platform docs' recipe, on this machine, with the local emulator counting and
// hashing uploads without keeping them; ends with the targets table (issue 42's goals, issue 12's
// targets still checked: MET / NOT MET / NOT MEASURED).
//
// Trees (--trees): "generated", a brXM-like tree of --size, half incompressible noise, half text
// (lib/bench-tree.ts); "real-jars", a brXM-like tree of REAL jars and wars (Debian's Java packages,
// built once by ../shared/bench/real-jar-tree.py, lib/bench-real-jars.ts), which compresses as a real
// distribution does. A real-jar tree that cannot be built makes its cases NOT MEASURED, with the reason.
//
// Cases, interleaved over the rounds (each round starts at a different case, so drift on a shared
// machine spreads over all of them):
//   recipe          GNU `tar czf` (at --level), curl login (POST /v3/authn/access_token, JSON), then
//                   `curl -F dist_file=@file` with the bearer token: directory in, distribution uploaded.
//   action-dir      the bundled action (node dist/index.js, run as a runner would) on the directory.
//   curl-archive    curl login + `curl -F` of a prebuilt archive (GNU tar's of the generated tree, made once).
//   action-archive  the bundled action on that same prebuilt archive.
//   refusal         the bundled action with a bad stack name: it must report and exit at once.
//   <case>@40MB/s   recipe, action-dir, curl-archive and action-archive again against a second
//                   emulator that reads uploads at --link-rate (uploadBytesPerSecond): a runner's
//                   network, not loopback, is the limit there. Added to the loopback cases.
//   real-jars:recipe, real-jars:action-dir (and @40MB/s): the same on the real-jar tree.
//   action-dir[1G]  the action on each --scale tree (memory flat with size?); recipe[1G] too with
//                   --scale-recipe. Skipped (NOT MEASURED) when --work lacks the disk for a tree.
// Each is timed wall-clock from spawn to exit; peak memory is the peak RSS of the process tree
// (GNU time's %M: the action's node process; for the recipe the largest of tar/gzip/curl). The
// action runs with BRCLOUD_DEPLOY_TRACE_MEMORY=1 and the first run of each action case has its
// per-phase memory lines printed.
//
// Checks: every upload the emulator counted has the size and SHA-256 of the file (recipe, prebuilt)
// or of the action's outputs (action-dir). Before the rounds, for each tree, one untimed run of the
// action uploads to a second emulator that KEEPS the upload (lib/bench-verify.ts): gzip -t, GNU tar
// lists and extracts it, diff -r against the tree, and its size is at most 5% over GNU gzip of the
// very same tar bytes at the same level.
// Run `npm run build` first when src/ changed: this measures dist/.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, statfsSync, statSync } from 'node:fs'
import { availableParallelism, cpus, totalmem, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { makeBenchTree, parseSize, type BenchTree } from './lib/bench-tree.js'
import { gnuTimeAvailable, measure, measureAction, type Measured } from './lib/bench-run.js'
import { formatStat, parseRate, rateLabel, renderTargets, sizeLabel, statOf, type TargetRow } from './lib/bench-targets.js'
import { caseId, goalRows, parseTrees, treeLabel, type CaseSample, type TreeName } from './lib/bench-goals.js'
import { REAL_JAR_SCRIPT, realJarTree } from './lib/bench-real-jars.js'
import { sh, sha256Of, verifyReadback } from './lib/bench-verify.js'
import { ACTION } from './lib/run-action.js'

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '300M' },
    rounds: { type: 'string', default: '3' },
    level: { type: 'string', default: '6' },
    work: { type: 'string', default: join(tmpdir(), 'brcloud-deploy-bench') },
    cases: { type: 'string', default: 'recipe,action-dir,curl-archive,action-archive,refusal' },
    trees: { type: 'string', default: 'generated,real-jars' },
    'real-jar-tree': { type: 'string' },
    'real-jar-debs': { type: 'string' },
    'link-rate': { type: 'string', default: '40M' },
    scale: { type: 'string', default: '100M,1G' },
    'scale-recipe': { type: 'boolean', default: false },
    'no-verify': { type: 'boolean', default: false },
    'node-args': { type: 'string', default: '' },
    action: { type: 'string', default: ACTION },
    help: { type: 'boolean', default: false }
  },
  allowPositionals: false
})

if (values.help) {
  console.log(`npm run bench -- [--size 300M|1G] [--rounds 3] [--level 6] [--work DIR] [--cases a,b] [--no-verify]
                 [--trees generated,real-jars] [--real-jar-tree DIR] [--real-jar-debs DIR]
                 [--link-rate 40M|off] [--scale 100M,1G|off] [--scale-recipe] [--action FILE] [--node-args "..."]

Makes (once, cached in --work) the trees, starts the emulator counting uploads without keeping them,
and times, interleaved over the rounds: the docs' recipe (GNU tar czf + curl login + curl -F), the
bundled action on the directory, curl on a prebuilt archive, the bundled action on that archive, and
the action refusing a bad stack.

--trees generated,real-jars
                  the trees measured (default both). generated: a brXM-like tree of --size, half
                  incompressible jars/wars, half text; all the cases run on it. real-jars: a brXM-like
                  tree of real jars and wars (Debian's Java packages; about 230 MiB, gzip saves a few
                  percent); recipe and action-dir run on it, as real-jars:recipe, real-jars:action-dir.
--real-jar-tree DIR
                  use this real-jar tree as it is instead of building one. Without it, the tree is
                  built once into --work/real-jar-tree by python3 ${REAL_JAR_SCRIPT}
                  (apt-get download of the package list beside it: minutes; needs \`apt-get update\`
                  once) and reused while the script and its list are unchanged. A build that fails
                  leaves the real-jar rows NOT MEASURED, with the reason.
--real-jar-debs DIR
                  .deb files already downloaded, for the build (the script's --debs): no download.
--link-rate 40M   also runs recipe, action-dir, curl-archive and action-archive against an emulator
                  that reads uploads at that many bytes per second (k/M/G = 1e3/1e6/1e9, decimal:
                  40M = 40,000,000 B/s), reported as separate cases (action-archive@40MB/s, ...).
                  "off": loopback only.
--scale 100M,1G   also runs action-dir on a generated tree of each size (M = MiB, G = GiB, like
                  --size) and compares the peak RSS of the largest with the smallest; a size whose
                  tree would not fit on --work's disk is skipped (NOT MEASURED). "off": none. Needs
                  action-dir in --cases. --scale-recipe runs the recipe on those trees too.
--no-verify       skip the readback before the rounds (per tree: one untimed upload kept by a second
                  emulator, gzip -t, tar -x, diff -r against the tree, size at most 5% over GNU gzip
                  of the same tar).

Ends with the targets table: each row's figure (median [min-max] over the rounds; time goals as the
ratio to the recipe in the same round), target and MET / NOT MET / NOT MEASURED: issue 42's goals,
then issue 12's targets still checked, then rows for information (the link alone: archive bytes /
link rate, to the recipe). Measures dist/index.js: run \`npm run build\` first when src/ changed.
--node-args "..." runs the action as \`node <args> dist/index.js\` (a diagnostic: a runner passes no
arguments); --action FILE measures another bundle (e.g. a variant built elsewhere) instead.`)
  process.exit(0)
}

/** A bad option: what is wrong, on one line, and exit 2 (no stack trace). */
function option<T>(read: () => T): T {
  try {
    return read()
  } catch (error) {
    console.error(`bench: ${(error as Error).message} (see npm run bench -- --help)`)
    process.exit(2)
  }
}
const size = option(() => parseSize(values.size))
const rounds = Number(values.rounds)
const level = Number(values.level)
option(() => {
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds must be a whole number >= 1')
  if (!Number.isInteger(level) || level < 1 || level > 9) throw new Error('--level must be 1-9')
})
const linkRate = option(() => parseRate(values['link-rate']))
const link = linkRate === undefined ? undefined : `@${rateLabel(linkRate)}`
const scaleSizes = /^(off|none)$/i.test(values.scale.trim())
  ? []
  : option(() => [...new Set(values.scale.split(',').map((s) => parseSize(s)))].sort((a, b) => a - b))
const work = values.work
const trees = option(() => parseTrees(values.trees))
const KINDS = ['recipe', 'action-dir', 'curl-archive', 'action-archive', 'refusal'] as const
type Kind = (typeof KINDS)[number]
const selected = values.cases.split(',').map((c) => c.trim()) as Kind[]
option(() => {
  for (const c of selected) if (!KINDS.includes(c)) throw new Error(`unknown case ${c}; cases: ${KINDS.join(', ')}`)
})
/** The cases run on the real-jar tree (the prebuilt archive is the generated tree's). */
const REAL_JAR_KINDS: readonly Kind[] = ['recipe', 'action-dir']

const MiB = 1024 * 1024
const mb = (bytes: number): string => (bytes / MiB).toFixed(1)
const sec = (ms: number): string => (ms / 1000).toFixed(2)

function fail(message: string): never {
  console.error(`\nBENCH FAILED: ${message}`)
  process.exit(1)
}

/** Bytes free for an unprivileged user on the file system holding `dir`. */
function freeBytes(dir: string): number {
  const fs = statfsSync(dir)
  return fs.bavail * fs.bsize
}

/** Whether makeBenchTree would reuse a tree of `bytes` under `root` (its marker names that size). */
function treeCached(root: string, bytes: number): boolean {
  try {
    return existsSync(root) && (JSON.parse(readFileSync(`${root}.json`, 'utf8')) as { requested?: number }).requested === bytes
  } catch {
    return false
  }
}

// ---------------------------------------------------------------------------------------------
console.log('== machine')
const cpu = cpus()[0]?.model ?? 'unknown CPU'
const nodeVersion = execFileSync(process.env.E2E_NODE || process.execPath, ['--version'], { encoding: 'utf8' }).trim()
const machine = `${cpu}, ${availableParallelism()} cores, ${(totalmem() / 1024 ** 3).toFixed(1)} GiB; node ${nodeVersion} (action)`
console.log(`   ${machine}, ${sh('tar --version | head -1')}, ${sh('gzip --version | head -1')}, ${sh('curl --version | head -1 | cut -d" " -f1-2')}`)
if (!gnuTimeAvailable()) console.log('   (no /usr/bin/time: peak RSS is polled from /proc/<pid>/status VmHWM)')
const action = values.action
if (!existsSync(action)) fail(`${action} is missing: run \`npm run build\` first.`)
console.log(`   measuring ${action} (built ${statSync(action).mtime.toISOString()})`)

mkdirSync(work, { recursive: true })
const describeTree = (t: BenchTree, kinds = 'incompressible, ', other = 'text'): string =>
  `${t.files} files, ${mb(t.bytes)} MiB (${mb(t.binaryBytes)} MiB ${kinds}${mb(t.textBytes)} MiB ${other})`
/** The trees measured, and why a tree in --trees is not (its cases are NOT MEASURED with it). */
const treeOf = new Map<TreeName, BenchTree>()
const treeMissing: Partial<Record<TreeName, string>> = {}
for (const name of ['generated', 'real-jars'] as const)
  if (!trees.includes(name)) treeMissing[name] = `the ${treeLabel(name)} tree is not in --trees (${values.trees})`
let t0 = performance.now()
if (trees.includes('generated')) {
  console.log(`== generated tree: ${values.size} in ${work}`)
  const t = await makeBenchTree(join(work, `tree-${size}`), size)
  treeOf.set('generated', t)
  console.log(`   ${describeTree(t)} (${sec(performance.now() - t0)} s)`)
}
if (trees.includes('real-jars')) {
  console.log(`== real-jar tree${values['real-jar-tree'] ? `: ${values['real-jar-tree']}` : ` in ${work} (built once by ${REAL_JAR_SCRIPT}: minutes)`}`)
  const got = await realJarTree({ work, given: values['real-jar-tree'], debs: values['real-jar-debs'] })
  if ('reason' in got) {
    treeMissing['real-jars'] = `real-jar tree not available: ${got.reason}`
    console.log(`   NOT MEASURED: ${got.reason}`)
  } else {
    treeOf.set('real-jars', got.tree)
    console.log(`   ${describeTree(got.tree, 'jars and wars, ', 'other')}; ${got.how}`)
  }
}
const tree = treeOf.get('generated')

const prebuilt = join(work, `prebuilt-${size}-l${level}.tar.gz`)
const tarArgs = (root: string, out: string): string[] => (level === 6 ? ['-C', root, '-czf', out, '.'] : ['-C', root, '-I', `gzip -${level}`, '-cf', out, '.'])
const needsPrebuilt = tree !== undefined && (selected.includes('curl-archive') || selected.includes('action-archive'))
if (needsPrebuilt && !existsSync(prebuilt)) {
  t0 = performance.now()
  execFileSync('tar', tarArgs(tree.root, prebuilt))
  console.log(`   prebuilt archive (GNU tar, gzip -${level}): ${prebuilt}, ${mb(statSync(prebuilt).size)} MiB (${sec(performance.now() - t0)} s)`)
}
const prebuiltSha = needsPrebuilt ? await sha256Of(prebuilt) : ''

// Scale trees (generated): each needs its own bytes (unless cached) plus room for one archive in
// flight (the action's spill in RUNNER_TEMP, or the recipe's archive), bounded by the tree's size, plus a margin.
const scaleTrees = new Map<number, BenchTree>()
const scaleSkipped = new Map<number, string>()
const scaleOff =
  scaleSizes.length === 0
    ? '--scale off'
    : !selected.includes('action-dir')
      ? 'no action-dir in --cases'
      : tree === undefined
        ? 'the generated tree is not in --trees'
        : undefined
if (scaleOff === undefined) {
  console.log(`== scale trees: ${scaleSizes.map(sizeLabel).join(', ')}`)
  for (const s of scaleSizes) {
    const root = join(work, `tree-${s}`)
    const cached = treeCached(root, s)
    const need = (cached ? 0 : s) + s + 512 * MiB
    const free = freeBytes(work)
    if (free < need) {
      const why = `needs ${(need / 1e9).toFixed(1)} GB free in ${work} (tree${cached ? ' cached' : ''} + archive + margin), has ${(free / 1e9).toFixed(1)} GB`
      scaleSkipped.set(s, why)
      console.log(`   ${sizeLabel(s)}: NOT MEASURED: ${why}`)
      continue
    }
    t0 = performance.now()
    const t = await makeBenchTree(root, s)
    scaleTrees.set(s, t)
    console.log(`   ${sizeLabel(s)}: ${describeTree(t)} (${cached ? 'cached' : `made in ${sec(performance.now() - t0)} s`})`)
  }
}

const emulatorOptions = { keepUploads: false, maxDistributionBytes: 64 * 1024 * MiB, maxDistributions: 100_000 }
// Each run uploads under a name of its own: the action reuses a stored distribution with the same
// name and MD5 instead of uploading (the prebuilt archive has the bytes of the recipe's and of
// curl-archive's uploads, and the action packs the same bytes every round), which would time no upload.
let runs = 0
const actionInputs = (emulator: Emulator, distribution: string): Record<string, string> => ({
  'api-url': emulator.url,
  username: emulator.username,
  password: emulator.password,
  distribution,
  'distribution-name': `bench-run-${++runs}.tar.gz`,
  'compression-level': String(level),
  'max-distribution-mb': String(64 * 1024)
})
const nodeArgs = values['node-args'].split(' ').filter((a) => a !== '')
if (nodeArgs.length > 0) console.log(`   (diagnostic) the action runs as node ${nodeArgs.join(' ')} ${action}`)
const scratch = join(work, 'scratch')
mkdirSync(scratch, { recursive: true })
const TRACE = { BRCLOUD_DEPLOY_TRACE_MEMORY: '1' }

// ---------------------------------------------------------------------------------------------
if (!values['no-verify'] && selected.includes('action-dir')) {
  for (const [name, t] of treeOf) {
    console.log(`== readback, ${treeLabel(name)} tree: one untimed action run on the directory, upload KEPT by a second emulator`)
    try {
      const lines = await verifyReadback({
        tree: t,
        level,
        work,
        emulatorOptions,
        runAction: (keeper) => measureAction(actionInputs(keeper, t.root), { scratchRoot: scratch, nodeArgs, action })
      })
      for (const line of lines) console.log(`   ${line}`)
    } catch (error) {
      fail(`readback of the ${name} tree: ${(error as Error).message}`)
    }
  }
}

// ---------------------------------------------------------------------------------------------
const loopback = await startEmulator(emulatorOptions)
const linked = linkRate === undefined ? undefined : await startEmulator({ ...emulatorOptions, uploadBytesPerSecond: linkRate })
console.log(`== emulator at ${loopback.url}, uploads counted and hashed, not kept`)
if (linked && linkRate !== undefined)
  console.log(`== emulator at ${linked.url}, the same, reading uploads at ${linkRate.toLocaleString('en-US')} B/s (${rateLabel(linkRate)})`)

interface Spec {
  /** As reported: `action-dir`, `action-dir@40MB/s`, `action-dir[1G]`, `real-jars:action-dir@40MB/s`. */
  id: string
  kind: Kind
  tree: BenchTree
  emulator: Emulator
}
const specs: Spec[] = []
for (const [name, t] of treeOf) {
  // The refusal reads no tree: it runs once, on the first tree measured.
  const kinds = name === 'generated' ? selected : selected.filter((k) => REAL_JAR_KINDS.includes(k) || (k === 'refusal' && tree === undefined))
  for (const kind of kinds) specs.push({ id: caseId(kind, { tree: name }), kind, tree: t, emulator: loopback })
  if (linked) for (const kind of kinds) if (kind !== 'refusal') specs.push({ id: caseId(kind, { tree: name, link }), kind, tree: t, emulator: linked })
}
for (const [s, t] of scaleTrees) {
  if (values['scale-recipe'] && selected.includes('recipe')) specs.push({ id: caseId('recipe', { scale: s }), kind: 'recipe', tree: t, emulator: loopback })
  specs.push({ id: caseId('action-dir', { scale: s }), kind: 'action-dir', tree: t, emulator: loopback })
}
// No case left (the only tree asked for could not be had): the table still says why each row is NOT MEASURED.
if (specs.length === 0) console.log(`   no case to run: ${Object.values(treeMissing).join('; ') || `--cases ${values.cases}`}`)

function lastUpload(emulator: Emulator, before: number): { size: number; sha256: string } {
  if (emulator.distributions.length !== before + 1) fail(`expected one new upload, the emulator has ${emulator.distributions.length - before}`)
  const d = emulator.distributions[emulator.distributions.length - 1]!
  return { size: d.size, sha256: d.sha256 }
}

/** curl login + curl -F upload of `file`; returns the summed time and the larger peak. */
async function curlUpload(emulator: Emulator, file: string): Promise<Measured> {
  const login = await measure('curl', [
    '-sS',
    '--fail-with-body',
    '-X',
    'POST',
    '-H',
    'Content-Type: application/json',
    '-d',
    JSON.stringify({ username: emulator.username, password: emulator.password }),
    `${emulator.url}/v3/authn/access_token`
  ])
  if (login.code !== 0) fail(`curl login failed: ${login.stdout} ${login.stderr}`)
  const token = (JSON.parse(login.stdout) as { access_token: string }).access_token
  const upload = await measure('curl', [
    '-sS',
    '--fail-with-body',
    '-H',
    `Authorization: Bearer ${token}`,
    '-F',
    `dist_file=@${file};type=application/gzip`,
    `${emulator.url}/v3/distributions`
  ])
  if (upload.code !== 0) fail(`curl upload failed: ${upload.stdout} ${upload.stderr}`)
  return { ...upload, ms: login.ms + upload.ms, peakKb: Math.max(login.peakKb ?? 0, upload.peakKb ?? 0) }
}

interface Sample extends CaseSample {
  note?: string
  /** The action's `memory after "<phase>"` lines (BRCLOUD_DEPLOY_TRACE_MEMORY=1). */
  trace?: string[]
}
/** Samples per case id, indexed by round (so ratios pair the same round). */
const samples = new Map<string, Sample[]>(specs.map((s) => [s.id, []]))

async function runCase(spec: Spec): Promise<Sample> {
  const { emulator, tree: t } = spec
  const before = emulator.distributions.length
  switch (spec.kind) {
    case 'recipe': {
      const out = join(scratch, `recipe-${t.bytes}.tar.gz`)
      rmSync(out, { force: true })
      const tar = await measure('tar', tarArgs(t.root, out))
      if (tar.code !== 0) fail(`tar failed: ${tar.stderr}`)
      const up = await curlUpload(emulator, out)
      const got = lastUpload(emulator, before)
      if (got.size !== statSync(out).size || got.sha256 !== (await sha256Of(out))) fail('the recipe upload differs from its file')
      rmSync(out, { force: true })
      return { ms: tar.ms + up.ms, peakKb: Math.max(tar.peakKb ?? 0, up.peakKb ?? 0), bytes: got.size, note: `tar ${sec(tar.ms)} s + curl ${sec(up.ms)} s` }
    }
    case 'curl-archive': {
      const up = await curlUpload(emulator, prebuilt)
      const got = lastUpload(emulator, before)
      if (got.sha256 !== prebuiltSha) fail('the curl upload differs from the prebuilt file')
      return { ms: up.ms, peakKb: up.peakKb, bytes: got.size }
    }
    case 'action-dir':
    case 'action-archive': {
      const dir = spec.kind === 'action-dir'
      const run = await measureAction(actionInputs(emulator, dir ? t.root : prebuilt), { scratchRoot: scratch, nodeArgs, action, env: TRACE })
      if (run.code !== 0) fail(`the action failed (${spec.id}):\n${run.stdout}\n${run.stderr}`)
      if (run.outputs['distribution-reused'] === 'true') fail(`the action reused a stored distribution instead of uploading (${spec.id})`)
      const got = lastUpload(emulator, before)
      const want = dir ? run.outputs['distribution-sha256'] : prebuiltSha
      if (got.sha256 !== want || String(got.size) !== run.outputs['distribution-size'])
        fail(`the uploaded bytes differ from what the action reported (${spec.id})`)
      const phases = Object.entries(run.phases)
        .map(([name, ms]) => `${name.replace(/ to http.*| the distribution/, '')} ${sec(ms)}`)
        .join(', ')
      const trace = run.stdout.split('\n').filter((l) => l.startsWith('memory after '))
      return { ms: run.ms, peakKb: run.peakKb, bytes: got.size, note: phases, trace }
    }
    case 'refusal': {
      const run = await measureAction({ ...actionInputs(emulator, t.root), 'api-url': '', stack: 'my stack!' }, { scratchRoot: scratch, nodeArgs, action })
      if (run.code === 0 || run.errors.length === 0) fail(`the action did not refuse a bad stack name:\n${run.stdout}`)
      if (emulator.distributions.length !== before) fail('the refused run uploaded something')
      return { ms: run.ms, peakKb: run.peakKb }
    }
  }
}

const width = Math.max(4, ...specs.map((s) => s.id.length)) + 1
console.log(`== ${rounds} rounds, gzip level ${level}, ${specs.length} cases: ${specs.map((s) => s.id).join(', ')}`)
for (let r = 0; r < rounds; r++) {
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[(i + r) % specs.length]!
    const s = await runCase(spec)
    samples.get(spec.id)!.push(s)
    const peak = s.peakKb === undefined ? '?' : (s.peakKb / 1024).toFixed(1)
    console.log(`   round ${r + 1} ${spec.id.padEnd(width)} ${sec(s.ms).padStart(7)} s ${peak.padStart(7)} MiB${s.note ? `   (${s.note})` : ''}`)
  }
}
await loopback.close()
await linked?.close()
rmSync(scratch, { recursive: true, force: true })

// ---------------------------------------------------------------------------------------------
const treesLine = [...treeOf].map(([name, t]) => `${treeLabel(name)} ${mb(t.bytes)} MiB`).join(', ') || 'no tree'
console.log(`\n== results: ${treesLine}; level ${level}, ${rounds} rounds (median [min-max])`)
console.log(`   ${'case'.padEnd(width)} ${'wall time (s)'.padEnd(26)} ${'peak RSS (MiB)'.padEnd(26)} uploaded (MB)`)
for (const spec of specs) {
  const got = samples.get(spec.id) ?? []
  const t = statOf(got.map((x) => x.ms))
  const m = statOf(got.map((x) => x.peakKb))
  const b = statOf(got.map((x) => x.bytes))
  console.log(
    `   ${spec.id.padEnd(width)} ${(t ? formatStat(t, 2, 1 / 1000) : '?').padEnd(26)} ${(m ? formatStat(m, 1, 1 / 1024) : '?').padEnd(26)} ${b ? (b.median / 1e6).toFixed(1) : ''}`
  )
}

const traced = specs.filter((s) => (samples.get(s.id)?.[0]?.trace?.length ?? 0) > 0)
if (traced.length > 0) {
  console.log('\n== per-phase memory (BRCLOUD_DEPLOY_TRACE_MEMORY=1), first run of each action case')
  for (const spec of traced) {
    console.log(`   ${spec.id}:`)
    for (const line of samples.get(spec.id)![0]!.trace!) console.log(`     ${line}`)
  }
}

// The targets (lib/bench-goals.ts). Times: the median of per-round ratios (each round's pair ran
// minutes apart at most). Memory: the highest peak over the rounds (a peak is a peak); scale: the
// ratio of the median peaks.
const goals = goalRows(samples, {
  linkRate,
  treeMissing,
  scale: { requested: scaleSizes, measured: [...scaleTrees.keys()], skipped: scaleSkipped, off: scaleOff }
})
const groups: Array<[string, TargetRow[]]> = [
  ['issue 42 goals (median of the rounds; ratio to the recipe in the same round)', goals.issue42],
  ['issue 12 targets, still checked', goals.issue12],
  ['for information', goals.info]
]
console.log(`\n== targets: ${treesLine} (scale: ${scaleSizes.map(sizeLabel).join(', ') || 'off'}), level ${level}, ${rounds} rounds`)
console.log(`   machine: ${machine}`)
const lines = renderTargets(groups.flatMap(([, rows]) => rows))
console.log(`   ${lines.shift()}`)
for (const [title, rows] of groups) {
  if (rows.length === 0) continue
  console.log(`   -- ${title}`)
  for (const line of lines.splice(0, rows.length)) console.log(`   ${line}`)
}
for (const [title, rows] of groups.slice(0, 2)) {
  const unmet = rows.filter((r) => r.verdict === 'NOT MET').length
  const unmeasured = rows.filter((r) => r.verdict === 'NOT MEASURED').length
  console.log(`   ${title.replace(/ \(.*/, '')}: ${rows.length - unmet - unmeasured} of ${rows.length} rows met, ${unmet} not met, ${unmeasured} not measured`)
}
