// `npm run bench [-- --size 300M --rounds 3 --level 6 --link-rate 40M --scale 100M,1G]`: the action
// against the platform docs' recipe, on this machine, with the local emulator counting and hashing
// uploads without keeping them; ends with the performance issue's targets table (MET / NOT MET).
//
// Cases, interleaved over the rounds (each round starts at a different case, so drift on a shared
// machine spreads over all of them):
//   recipe          GNU `tar czf` (at --level), curl login (POST /v3/authn/access_token, JSON), then
//                   `curl -F dist_file=@file` with the bearer token: directory in, distribution uploaded.
//   action-dir      the bundled action (node dist/index.js, run as a runner would) on the directory.
//   curl-archive    curl login + `curl -F` of a prebuilt archive (GNU tar's, made once).
//   action-archive  the bundled action on that same prebuilt archive.
//   refusal         the bundled action with a bad stack name: it must report and exit at once.
//   <case>@40MB/s   recipe, action-dir, curl-archive and action-archive again against a second
//                   emulator that reads uploads at --link-rate (uploadBytesPerSecond): a runner's
//                   network, not loopback, is the limit there. Added to the loopback cases.
//   action-dir[1G]  the action on each --scale tree (memory flat with size?); recipe[1G] too with
//                   --scale-recipe. Skipped (NOT MEASURED) when --work lacks the disk for a tree.
// Each is timed wall-clock from spawn to exit; peak memory is the peak RSS of the process tree
// (GNU time's %M: the action's node process; for the recipe the largest of tar/gzip/curl). The
// action runs with BRCLOUD_DEPLOY_TRACE_MEMORY=1 and the first run of each action case has its
// per-phase memory lines printed.
//
// Checks: every upload the emulator counted has the size and SHA-256 of the file (recipe, prebuilt)
// or of the action's outputs (action-dir). Before the rounds, one untimed run of the action uploads
// to a second emulator that KEEPS the upload; that stored file is checked with `gzip -t`, listed and
// extracted with GNU tar and compared with the tree (`diff -r`), and its size is compared with
// single-threaded gzip (GNU gzip, and Node's zlib) of the very same tar bytes at the same level.
// Run `npm run build` first when src/ changed: this measures dist/.
import { execFileSync, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createReadStream, existsSync, mkdirSync, readFileSync, rmSync, statfsSync, statSync } from 'node:fs'
import { availableParallelism, cpus, totalmem, tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { parseArgs } from 'node:util'
import { createGzip } from 'node:zlib'
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { makeBenchTree, parseSize, type BenchTree } from './lib/bench-tree.js'
import { gnuTimeAvailable, measure, measureAction, type Measured } from './lib/bench-run.js'
import {
  formatStat,
  parseRate,
  perRoundRatios,
  rateLabel,
  renderTargets,
  sizeLabel,
  statOf,
  targetRow,
  type Stat,
  type TargetRow
} from './lib/bench-targets.js'
import { ACTION } from './lib/run-action.js'

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '300M' },
    rounds: { type: 'string', default: '3' },
    level: { type: 'string', default: '6' },
    work: { type: 'string', default: join(tmpdir(), 'brcloud-deploy-bench') },
    cases: { type: 'string', default: 'recipe,action-dir,curl-archive,action-archive,refusal' },
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
                 [--link-rate 40M|off] [--scale 100M,1G|off] [--scale-recipe] [--action FILE] [--node-args "..."]

Generates (once, cached in --work) a brXM-like tree of --size (half incompressible jars/wars, half
text), starts the emulator counting uploads without keeping them, and times, interleaved over the
rounds: the docs' recipe (GNU tar czf + curl login + curl -F), the bundled action on the directory,
curl on a prebuilt archive, the bundled action on that archive, and the action refusing a bad stack.

--link-rate 40M   also runs recipe, action-dir, curl-archive and action-archive against an emulator
                  that reads uploads at that many bytes per second (k/M/G = 1e3/1e6/1e9, decimal:
                  40M = 40,000,000 B/s), reported as separate cases (action-archive@40MB/s, ...).
                  "off": loopback only.
--scale 100M,1G   also runs action-dir on a tree of each size (M = MiB, G = GiB, like --size) and
                  compares the peak RSS of the largest with the smallest; a size whose tree would
                  not fit on --work's disk is skipped (NOT MEASURED). "off": none. Needs action-dir
                  in --cases. --scale-recipe runs the recipe on those trees too (time ratio per size).

Ends with the targets table: each row's figure (median [min-max]), target and MET / NOT MET /
NOT MEASURED. Measures dist/index.js: run \`npm run build\` first when src/ changed. --node-args "..."
runs the action as \`node <args> dist/index.js\` (a diagnostic: a runner passes no arguments);
--action FILE measures another bundle (e.g. a variant built elsewhere) instead of dist/index.js.`)
  process.exit(0)
}

const size = parseSize(values.size)
const rounds = Number(values.rounds)
const level = Number(values.level)
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds must be a whole number >= 1')
if (!Number.isInteger(level) || level < 1 || level > 9) throw new Error('--level must be 1-9')
const linkRate = parseRate(values['link-rate'])
const link = linkRate === undefined ? '' : `@${rateLabel(linkRate)}`
const scaleSizes = /^(off|none)$/i.test(values.scale.trim()) ? [] : [...new Set(values.scale.split(',').map((s) => parseSize(s)))].sort((a, b) => a - b)
const work = values.work
const KINDS = ['recipe', 'action-dir', 'curl-archive', 'action-archive', 'refusal'] as const
type Kind = (typeof KINDS)[number]
const selected = values.cases.split(',').map((c) => c.trim()) as Kind[]
for (const c of selected) if (!KINDS.includes(c)) throw new Error(`unknown case ${c}; cases: ${KINDS.join(', ')}`)

const MiB = 1024 * 1024
const mb = (bytes: number): string => (bytes / MiB).toFixed(1)
const sec = (ms: number): string => (ms / 1000).toFixed(2)

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256')
  await pipeline(createReadStream(file), hash)
  return hash.digest('hex')
}

/** Bytes a shell pipeline writes to stdout (for `gzip -dc f | gzip -6 -c | wc -c`). */
function sh(script: string): string {
  return execFileSync('bash', ['-o', 'pipefail', '-c', script], { encoding: 'utf8', maxBuffer: 64 * MiB }).trim()
}

/** Size of Node's single-threaded zlib gzip (createGzip) of what `gzip -dc file` gives. */
async function zlibSizeOfTarIn(file: string): Promise<number> {
  const child = spawn('gzip', ['-dc', file], { stdio: ['ignore', 'pipe', 'inherit'] })
  let bytes = 0
  await pipeline(child.stdout, createGzip({ level }), async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) bytes += chunk.length
  })
  return bytes
}

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
console.log(`== tree: ${values.size} in ${work}`)
let t0 = performance.now()
const describeTree = (t: BenchTree): string => `${t.files} files, ${mb(t.bytes)} MiB (${mb(t.binaryBytes)} MiB incompressible, ${mb(t.textBytes)} MiB text)`
const tree = await makeBenchTree(join(work, `tree-${size}`), size)
console.log(`   ${describeTree(tree)} (${sec(performance.now() - t0)} s)`)

const prebuilt = join(work, `prebuilt-${size}-l${level}.tar.gz`)
const tarArgs = (root: string, out: string): string[] => (level === 6 ? ['-C', root, '-czf', out, '.'] : ['-C', root, '-I', `gzip -${level}`, '-cf', out, '.'])
const needsPrebuilt = selected.includes('curl-archive') || selected.includes('action-archive')
if (needsPrebuilt && !existsSync(prebuilt)) {
  t0 = performance.now()
  execFileSync('tar', tarArgs(tree.root, prebuilt))
  console.log(`   prebuilt archive (GNU tar, gzip -${level}): ${prebuilt}, ${mb(statSync(prebuilt).size)} MiB (${sec(performance.now() - t0)} s)`)
}
const prebuiltSha = needsPrebuilt ? await sha256Of(prebuilt) : ''

// Scale trees: each needs its own bytes (unless cached) plus room for one archive in flight (the
// action's packed file in RUNNER_TEMP, or the recipe's), bounded by the tree's size, plus a margin.
const scaleTrees = new Map<number, BenchTree>()
const scaleSkipped = new Map<number, string>()
if (scaleSizes.length > 0 && selected.includes('action-dir')) {
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
  console.log('== readback: one untimed action run on the directory, upload KEPT by a second emulator')
  const store = join(work, 'verify-store')
  const extract = join(work, 'verify-extract')
  rmSync(store, { recursive: true, force: true })
  rmSync(extract, { recursive: true, force: true })
  const keeper = await startEmulator({ ...emulatorOptions, keepUploads: true, storageDir: store })
  try {
    const run = await measureAction(actionInputs(keeper, tree.root), { scratchRoot: scratch, nodeArgs, action })
    if (run.code !== 0) fail(`the action failed:\n${run.stdout}\n${run.stderr}`)
    const stored = keeper.distributions[0]
    if (!stored?.path) fail('the emulator kept no upload')
    const sha = await sha256Of(stored.path)
    const ok = sha === run.outputs['distribution-sha256'] && sha === stored.sha256 && String(stored.size) === run.outputs['distribution-size']
    if (!ok)
      fail(
        `the stored upload (${sha}, ${stored.size} B) is not what the action reported (${run.outputs['distribution-sha256']}, ${run.outputs['distribution-size']} B)`
      )
    execFileSync('gzip', ['-t', stored.path])
    const listed = Number(sh(`tar -tzf '${stored.path}' | wc -l`))
    mkdirSync(extract)
    execFileSync('tar', ['-xzf', stored.path, '-C', extract])
    execFileSync('diff', ['-r', '--no-dereference', tree.root, extract])
    const ours = stored.size
    const gnu = Number(sh(`gzip -dc '${stored.path}' | gzip -${level} -c | wc -c`))
    const zlibSize = await zlibSizeOfTarIn(stored.path)
    const vsGnu = ((ours / gnu - 1) * 100).toFixed(2)
    const vsZlib = ((ours / zlibSize - 1) * 100).toFixed(2)
    console.log(
      `   sha256 matches the action's output and the emulator's record; gzip -t ok; GNU tar lists ${listed} entries; extracted tree = source tree (diff -r)`
    )
    console.log(`   size: ${ours} B; single-threaded gzip -${level} of the same tar: GNU gzip ${gnu} B (${vsGnu}%), Node zlib ${zlibSize} B (${vsZlib}%)`)
    if (Math.abs(ours / Math.min(gnu, zlibSize) - 1) > 0.02) fail('the parallel gzip output is more than 2% larger than single-threaded gzip')
  } finally {
    await keeper.close()
    rmSync(store, { recursive: true, force: true })
    rmSync(extract, { recursive: true, force: true })
  }
}

// ---------------------------------------------------------------------------------------------
const loopback = await startEmulator(emulatorOptions)
const linked = linkRate === undefined ? undefined : await startEmulator({ ...emulatorOptions, uploadBytesPerSecond: linkRate })
console.log(`== emulator at ${loopback.url}, uploads counted and hashed, not kept`)
if (linked && linkRate !== undefined)
  console.log(`== emulator at ${linked.url}, the same, reading uploads at ${linkRate.toLocaleString('en-US')} B/s (${rateLabel(linkRate)})`)

interface Spec {
  /** As reported: `action-dir`, `action-dir@40MB/s`, `action-dir[1G]`. */
  id: string
  kind: Kind
  tree: BenchTree
  emulator: Emulator
}
const specs: Spec[] = selected.map((kind) => ({ id: kind, kind, tree, emulator: loopback }))
if (linked) for (const kind of selected) if (kind !== 'refusal') specs.push({ id: `${kind}${link}`, kind, tree, emulator: linked })
for (const [s, t] of scaleTrees) {
  if (values['scale-recipe'] && selected.includes('recipe')) specs.push({ id: `recipe[${sizeLabel(s)}]`, kind: 'recipe', tree: t, emulator: loopback })
  specs.push({ id: `action-dir[${sizeLabel(s)}]`, kind: 'action-dir', tree: t, emulator: loopback })
}

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

interface Sample {
  ms: number
  peakKb: number | undefined
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
      return { ms: tar.ms + up.ms, peakKb: Math.max(tar.peakKb ?? 0, up.peakKb ?? 0), note: `tar ${sec(tar.ms)} s + curl ${sec(up.ms)} s` }
    }
    case 'curl-archive': {
      const up = await curlUpload(emulator, prebuilt)
      const got = lastUpload(emulator, before)
      if (got.sha256 !== prebuiltSha) fail('the curl upload differs from the prebuilt file')
      return { ms: up.ms, peakKb: up.peakKb }
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
      return { ms: run.ms, peakKb: run.peakKb, note: phases, trace }
    }
    case 'refusal': {
      const run = await measureAction({ ...actionInputs(emulator, t.root), 'api-url': '', stack: 'my stack!' }, { scratchRoot: scratch, nodeArgs, action })
      if (run.code === 0 || run.errors.length === 0) fail(`the action did not refuse a bad stack name:\n${run.stdout}`)
      if (emulator.distributions.length !== before) fail('the refused run uploaded something')
      return { ms: run.ms, peakKb: run.peakKb }
    }
  }
}

const width = Math.max(...specs.map((s) => s.id.length)) + 1
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
const times = (id: string): (number | undefined)[] => (samples.get(id) ?? []).map((s) => s.ms)
const peaks = (id: string): (number | undefined)[] => (samples.get(id) ?? []).map((s) => s.peakKb)

console.log(`\n== results: ${mb(tree.bytes)} MiB tree, level ${level}, ${rounds} rounds (median [min-max])`)
console.log(`   ${'case'.padEnd(width)} ${'wall time (s)'.padEnd(26)} peak RSS (MiB)`)
for (const spec of specs) {
  const t = statOf(times(spec.id))
  const m = statOf(peaks(spec.id))
  console.log(`   ${spec.id.padEnd(width)} ${(t ? formatStat(t, 2, 1 / 1000) : '?').padEnd(26)} ${m ? formatStat(m, 1, 1 / 1024) : '?'}`)
}

const traced = specs.filter((s) => (samples.get(s.id)?.[0]?.trace?.length ?? 0) > 0)
if (traced.length > 0) {
  console.log('\n== per-phase memory (BRCLOUD_DEPLOY_TRACE_MEMORY=1), first run of each action case')
  for (const spec of traced) {
    console.log(`   ${spec.id}:`)
    for (const line of samples.get(spec.id)![0]!.trace!) console.log(`     ${line}`)
  }
}

// The targets. Times: the median of per-round ratios (each round's pair ran minutes apart at most).
// Memory: the highest peak over the rounds (a peak is a peak); scale: the ratio of the median peaks.
const ratioRow = (row: string, a: string, b: string, limit: number): TargetRow => {
  const ratios = statOf(perRoundRatios(times(a), times(b)))
  const ta = statOf(times(a))
  const tb = statOf(times(b))
  const figure = ratios && ta && tb ? `${formatStat(ratios, 2)} x (${a} ${sec(ta.median)} s, ${b} ${sec(tb.median)} s)` : ''
  const missing = `needs the ${a} and ${b} cases${!samples.has(a) || !samples.has(b) ? ' (not run: see --cases, --link-rate)' : ''}`
  return targetRow(row, `<= ${limit.toFixed(2)}x`, ratios?.median, limit, figure, missing)
}
const LIMIT_MIB = 80
const memoryRow = (row: string, id: string): TargetRow => {
  const m = statOf(peaks(id))
  const alsoLinked = linkRate === undefined ? undefined : statOf(peaks(`${id}${link}`))
  const worst = m === undefined ? undefined : Math.max(m.max, alsoLinked?.max ?? 0) / 1024
  const figure = m
    ? `${formatStat(m, 1, 1 / 1024)} MiB${alsoLinked ? `; ${id}${link} ${formatStat(alsoLinked, 1, 1 / 1024)} MiB` : ''}; verdict on the highest, ${worst?.toFixed(1)} MiB`
    : ''
  return targetRow(row, `<= ${LIMIT_MIB} MiB`, worst, LIMIT_MIB, figure, `needs the ${id} case (see --cases)`)
}

const rows: TargetRow[] = [
  ratioRow('directory in, uploaded (action-dir / recipe, time)', 'action-dir', 'recipe', 0.55),
  ratioRow('prebuilt archive in, uploaded, on loopback (action-archive / curl-archive)', 'action-archive', 'curl-archive', 1.15),
  linkRate === undefined
    ? { row: 'prebuilt archive in, uploaded, on a 40MB/s link', figure: '--link-rate off', target: '<= 1.05x', verdict: 'NOT MEASURED' }
    : ratioRow(
        `prebuilt archive in, uploaded, on a ${rateLabel(linkRate)} link${linkRate === 40e6 ? '' : ' (the target is for 40MB/s)'}`,
        `action-archive${link}`,
        `curl-archive${link}`,
        1.05
      ),
  memoryRow('peak memory, directory (action-dir, peak RSS)', 'action-dir')
]
{
  const row =
    scaleSizes.length >= 2
      ? `peak memory, directory, scale: ${sizeLabel(scaleSizes[scaleSizes.length - 1]!)} tree against ${sizeLabel(scaleSizes[0]!)} tree`
      : 'peak memory, directory, scale (largest --scale tree against smallest)'
  const target = 'within +5%'
  const measured = [...scaleTrees.keys()]
  const skipped = [...scaleSkipped].map(([s, why]) => `${sizeLabel(s)} skipped: ${why}`).join('; ')
  if (!selected.includes('action-dir') || scaleSizes.length === 0)
    rows.push({ row, figure: '--scale off (or no action-dir in --cases)', target, verdict: 'NOT MEASURED' })
  else if (measured.length < 2 || scaleSkipped.size > 0)
    rows.push({ row, figure: `needs two tree sizes${skipped ? `; ${skipped}` : ` (--scale ${values.scale})`}`, target, verdict: 'NOT MEASURED' })
  else {
    const lo = measured[0]!
    const hi = measured[measured.length - 1]!
    const pLo = statOf(peaks(`action-dir[${sizeLabel(lo)}]`))
    const pHi = statOf(peaks(`action-dir[${sizeLabel(hi)}]`))
    const growth = pLo && pHi ? pHi.median / pLo.median - 1 : undefined
    const figure =
      pLo && pHi && growth !== undefined
        ? `${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}% (${sizeLabel(hi)}: ${formatStat(pHi, 1, 1 / 1024)} MiB, ${sizeLabel(lo)}: ${formatStat(pLo, 1, 1 / 1024)} MiB; medians compared)`
        : ''
    rows.push(targetRow(row, target, growth, 0.05, figure, 'no peak RSS'))
  }
}
rows.push(memoryRow('peak memory, prebuilt (action-archive, peak RSS)', 'action-archive'))

// For information (no target in the issue): the directory case on the link, the time ratio at each
// scale size (with --scale-recipe), and the refusal.
const info: TargetRow[] = []
if (linked) {
  const r = ratioRow(`directory in, uploaded, ${rateLabel(linkRate!)} link (action-dir${link} / recipe${link})`, `action-dir${link}`, `recipe${link}`, 0.55)
  if (r.verdict !== 'NOT MEASURED') info.push({ ...r, target: '(no target)', verdict: 'INFO' })
}
for (const s of scaleTrees.keys()) {
  const r = ratioRow(`directory in, uploaded, ${sizeLabel(s)} tree`, `action-dir[${sizeLabel(s)}]`, `recipe[${sizeLabel(s)}]`, 0.55)
  if (r.verdict !== 'NOT MEASURED') info.push({ ...r, target: '(no target)', verdict: 'INFO' })
}
const refuse: Stat | undefined = statOf(times('refusal'))
if (refuse) info.push({ row: 'refused input (bad stack), reported and exited', figure: `${formatStat(refuse, 0)} ms`, target: '(no target)', verdict: 'INFO' })

console.log(`\n== targets: ${sizeLabel(size)} tree (scale: ${scaleSizes.map(sizeLabel).join(', ') || 'off'}), level ${level}, ${rounds} rounds`)
console.log(`   machine: ${machine}`)
for (const line of renderTargets([...rows, ...info])) console.log(`   ${line}`)
const unmet = rows.filter((r) => r.verdict === 'NOT MET').length
const unmeasured = rows.filter((r) => r.verdict === 'NOT MEASURED').length
console.log(`   ${rows.length - unmet - unmeasured} of ${rows.length} rows met, ${unmet} not met, ${unmeasured} not measured`)
