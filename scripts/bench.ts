// `npm run bench [-- --size 300M --rounds 5 --level 6]`: the action against the platform docs' recipe,
// on this machine, with the local emulator counting and hashing uploads without keeping them.
//
// Cases, interleaved over the rounds (each round starts at a different case, so drift on a shared
// machine spreads over all of them):
//   recipe          GNU `tar czf` (at --level), curl login (POST /v3/authn/access_token, JSON), then
//                   `curl -F dist_file=@file` with the bearer token: directory in, distribution uploaded.
//   action-dir      the bundled action (node dist/index.js, run as a runner would) on the directory.
//   curl-archive    curl login + `curl -F` of a prebuilt archive (GNU tar's, made once).
//   action-archive  the bundled action on that same prebuilt archive.
//   refusal         the bundled action with a bad stack name: it must report and exit at once.
// Each is timed wall-clock from spawn to exit; peak memory is the peak RSS of the process tree
// (GNU time's %M: the action's node process; for the recipe the largest of tar/gzip/curl).
//
// Checks: every upload the emulator counted has the size and SHA-256 of the file (recipe, prebuilt)
// or of the action's outputs (action-dir). Before the rounds, one untimed run of the action uploads
// to a second emulator that KEEPS the upload; that stored file is checked with `gzip -t`, listed and
// extracted with GNU tar and compared with the tree (`diff -r`), and its size is compared with
// single-threaded gzip (GNU gzip, and Node's zlib) of the very same tar bytes at the same level.
// Run `npm run build` first when src/ changed: this measures dist/.
import { execFileSync, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createReadStream, existsSync, mkdirSync, rmSync, statSync } from 'node:fs'
import { availableParallelism, cpus, totalmem, tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { parseArgs } from 'node:util'
import { createGzip } from 'node:zlib'
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { makeBenchTree, parseSize } from './lib/bench-tree.js'
import { gnuTimeAvailable, measure, measureAction, type Measured } from './lib/bench-run.js'
import { ACTION } from './lib/run-action.js'

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '300M' },
    rounds: { type: 'string', default: '5' },
    level: { type: 'string', default: '6' },
    work: { type: 'string', default: join(tmpdir(), 'brcloud-deploy-bench') },
    cases: { type: 'string', default: 'recipe,action-dir,curl-archive,action-archive,refusal' },
    'no-verify': { type: 'boolean', default: false },
    'node-args': { type: 'string', default: '' },
    action: { type: 'string', default: ACTION },
    help: { type: 'boolean', default: false }
  },
  allowPositionals: false
})

if (values.help) {
  console.log(`npm run bench -- [--size 300M|1G] [--rounds 5] [--level 6] [--work DIR] [--cases a,b] [--no-verify]

Generates (once, cached in --work) a brXM-like tree of --size (half incompressible jars/wars, half
text), starts the emulator counting uploads without keeping them, and times, interleaved over the
rounds: the docs' recipe (GNU tar czf + curl login + curl -F), the bundled action on the directory,
curl on a prebuilt archive, the bundled action on that archive, and the action refusing a bad stack.
Measures dist/index.js: run \`npm run build\` first when src/ changed. --node-args "..." runs the
action as \`node <args> dist/index.js\` (a diagnostic: a runner passes no arguments); --action FILE
measures another bundle (e.g. a variant built elsewhere) instead of dist/index.js.`)
  process.exit(0)
}

const size = parseSize(values.size)
const rounds = Number(values.rounds)
const level = Number(values.level)
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds must be a whole number >= 1')
if (!Number.isInteger(level) || level < 1 || level > 9) throw new Error('--level must be 1-9')
const work = values.work
const CASES = ['recipe', 'action-dir', 'curl-archive', 'action-archive', 'refusal'] as const
type Case = (typeof CASES)[number]
const selected = values.cases.split(',').map((c) => c.trim()) as Case[]
for (const c of selected) if (!CASES.includes(c)) throw new Error(`unknown case ${c}; cases: ${CASES.join(', ')}`)

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

// ---------------------------------------------------------------------------------------------
console.log('== machine')
const cpu = cpus()[0]?.model ?? 'unknown CPU'
const nodeVersion = execFileSync(process.env.E2E_NODE || process.execPath, ['--version'], { encoding: 'utf8' }).trim()
console.log(
  `   ${cpu}, ${availableParallelism()} cores, ${(totalmem() / 1024 ** 3).toFixed(1)} GiB; node ${nodeVersion} (action), ${sh('tar --version | head -1')}, ${sh('gzip --version | head -1')}, ${sh('curl --version | head -1 | cut -d" " -f1-2')}`
)
if (!gnuTimeAvailable()) console.log('   (no /usr/bin/time: peak RSS is polled from /proc/<pid>/status VmHWM)')
const action = values.action
if (!existsSync(action)) fail(`${action} is missing: run \`npm run build\` first.`)
console.log(`   measuring ${action} (built ${statSync(action).mtime.toISOString()})`)

mkdirSync(work, { recursive: true })
console.log(`== tree: ${values.size} in ${work}`)
let t0 = performance.now()
const tree = await makeBenchTree(join(work, `tree-${size}`), size)
console.log(
  `   ${tree.files} files, ${mb(tree.bytes)} MiB (${mb(tree.binaryBytes)} MiB incompressible, ${mb(tree.textBytes)} MiB text)` +
    ` (${sec(performance.now() - t0)} s)`
)

const prebuilt = join(work, `prebuilt-${size}-l${level}.tar.gz`)
const tarArgs = (out: string): string[] => (level === 6 ? ['-C', tree.root, '-czf', out, '.'] : ['-C', tree.root, '-I', `gzip -${level}`, '-cf', out, '.'])
const needsPrebuilt = selected.includes('curl-archive') || selected.includes('action-archive')
if (needsPrebuilt && !existsSync(prebuilt)) {
  t0 = performance.now()
  execFileSync('tar', tarArgs(prebuilt))
  console.log(`   prebuilt archive (GNU tar, gzip -${level}): ${prebuilt}, ${mb(statSync(prebuilt).size)} MiB (${sec(performance.now() - t0)} s)`)
}
const prebuiltSha = needsPrebuilt ? await sha256Of(prebuilt) : ''

const emulatorOptions = { keepUploads: false, maxDistributionBytes: 64 * 1024 * MiB, maxDistributions: 100_000 }
const actionInputs = (emulator: Emulator, distribution: string): Record<string, string> => ({
  'api-url': emulator.url,
  username: emulator.username,
  password: emulator.password,
  distribution,
  'compression-level': String(level),
  'max-distribution-size': String(64 * 1024)
})
const nodeArgs = values['node-args'].split(' ').filter((a) => a !== '')
if (nodeArgs.length > 0) console.log(`   (diagnostic) the action runs as node ${nodeArgs.join(' ')} ${action}`)
const scratch = join(work, 'scratch')
mkdirSync(scratch, { recursive: true })

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
const emulator = await startEmulator(emulatorOptions)
console.log(`== emulator at ${emulator.url}, uploads counted and hashed, not kept`)

function lastUpload(before: number): { size: number; sha256: string } {
  if (emulator.distributions.length !== before + 1) fail(`expected one new upload, the emulator has ${emulator.distributions.length - before}`)
  const d = emulator.distributions[emulator.distributions.length - 1]!
  return { size: d.size, sha256: d.sha256 }
}

/** curl login + curl -F upload of `file`; returns the summed time and the larger peak. */
async function curlUpload(file: string): Promise<Measured> {
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
}
const samples = new Map<Case, Sample[]>(selected.map((c) => [c, []]))
const uploadOnly: number[] = []

async function runCase(c: Case): Promise<Sample> {
  const before = emulator.distributions.length
  switch (c) {
    case 'recipe': {
      const out = join(scratch, `recipe-${size}.tar.gz`)
      rmSync(out, { force: true })
      const tar = await measure('tar', tarArgs(out))
      if (tar.code !== 0) fail(`tar failed: ${tar.stderr}`)
      const up = await curlUpload(out)
      const got = lastUpload(before)
      if (got.size !== statSync(out).size || got.sha256 !== (await sha256Of(out))) fail('the recipe upload differs from its file')
      rmSync(out, { force: true })
      return { ms: tar.ms + up.ms, peakKb: Math.max(tar.peakKb ?? 0, up.peakKb ?? 0), note: `tar ${sec(tar.ms)} s + curl ${sec(up.ms)} s` }
    }
    case 'curl-archive': {
      const up = await curlUpload(prebuilt)
      const got = lastUpload(before)
      if (got.sha256 !== prebuiltSha) fail('the curl upload differs from the prebuilt file')
      return { ms: up.ms, peakKb: up.peakKb }
    }
    case 'action-dir':
    case 'action-archive': {
      const run = await measureAction(actionInputs(emulator, c === 'action-dir' ? tree.root : prebuilt), { scratchRoot: scratch, nodeArgs, action })
      if (run.code !== 0) fail(`the action failed (${c}):\n${run.stdout}\n${run.stderr}`)
      const got = lastUpload(before)
      const want = c === 'action-dir' ? run.outputs['distribution-sha256'] : prebuiltSha
      if (got.sha256 !== want || String(got.size) !== run.outputs['distribution-size']) fail(`the uploaded bytes differ from what the action reported (${c})`)
      const phases = Object.entries(run.phases)
        .map(([name, ms]) => `${name.replace(/ to http.*| the distribution/, '')} ${sec(ms)}`)
        .join(', ')
      if (c === 'action-archive' && run.phases['Upload the distribution'] !== undefined) uploadOnly.push(run.phases['Upload the distribution'])
      return { ms: run.ms, peakKb: run.peakKb, note: phases }
    }
    case 'refusal': {
      const run = await measureAction({ ...actionInputs(emulator, tree.root), 'api-url': '', stack: 'my stack!' }, { scratchRoot: scratch, nodeArgs, action })
      if (run.code === 0 || run.errors.length === 0) fail(`the action did not refuse a bad stack name:\n${run.stdout}`)
      if (emulator.distributions.length !== before) fail('the refused run uploaded something')
      return { ms: run.ms, peakKb: run.peakKb }
    }
  }
}

console.log(`== ${rounds} rounds, gzip level ${level}`)
for (let r = 0; r < rounds; r++) {
  for (let i = 0; i < selected.length; i++) {
    const c = selected[(i + r) % selected.length]!
    const s = await runCase(c)
    samples.get(c)!.push(s)
    const peak = s.peakKb === undefined ? '?' : (s.peakKb / 1024).toFixed(1)
    console.log(`   round ${r + 1} ${c.padEnd(15)} ${sec(s.ms).padStart(7)} s ${peak.padStart(7)} MiB${s.note ? `   (${s.note})` : ''}`)
  }
}
await emulator.close()

// ---------------------------------------------------------------------------------------------
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}
const stat = (c: Case, pick: (s: Sample) => number | undefined): { median: number; min: number; max: number } | undefined => {
  const xs = (samples.get(c) ?? []).map(pick).filter((x): x is number => x !== undefined)
  if (xs.length === 0) return undefined
  return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) }
}

console.log(`\n== results: ${mb(tree.bytes)} MiB tree, level ${level}, ${rounds} rounds (median [min-max])`)
console.log('   case             wall time (s)              peak RSS (MiB)')
for (const c of selected) {
  const t = stat(c, (s) => s.ms)!
  const m = stat(c, (s) => s.peakKb)
  const tm = `${sec(t.median)} [${sec(t.min)}-${sec(t.max)}]`
  const mm = m ? `${(m.median / 1024).toFixed(1)} [${(m.min / 1024).toFixed(1)}-${(m.max / 1024).toFixed(1)}]` : '?'
  console.log(`   ${c.padEnd(16)} ${tm.padEnd(26)} ${mm}`)
}

const verdicts: string[] = []
const check = (ok: boolean, text: string): void => {
  verdicts.push(`   ${ok ? 'MET    ' : 'NOT MET'} ${text}`)
}
const tRecipe = stat('recipe', (s) => s.ms)?.median
const tDir = stat('action-dir', (s) => s.ms)?.median
const mDir = stat('action-dir', (s) => s.peakKb)?.max
const tCurl = stat('curl-archive', (s) => s.ms)?.median
const tArch = stat('action-archive', (s) => s.ms)?.median
const mArch = stat('action-archive', (s) => s.peakKb)?.max
const tRefuse = stat('refusal', (s) => s.ms)?.median
if (tRecipe !== undefined && tDir !== undefined)
  check(
    tDir <= 0.6 * tRecipe,
    `directory in, uploaded: action ${sec(tDir)} s = ${(tDir / tRecipe).toFixed(2)} x the recipe's ${sec(tRecipe)} s (target <= 0.6)`
  )
if (mDir !== undefined) check(mDir <= 96 * 1024, `peak RSS, directory: max ${(mDir / 1024).toFixed(1)} MiB over the rounds (target <= 96 MiB)`)
if (mArch !== undefined) check(mArch <= 96 * 1024, `peak RSS, prebuilt archive: max ${(mArch / 1024).toFixed(1)} MiB (target <= 96 MiB)`)
if (tCurl !== undefined && tArch !== undefined) {
  const upload = uploadOnly.length > 0 ? `; its upload phase alone ${sec(median(uploadOnly))} s` : ''
  check(
    tArch <= 1.2 * tCurl,
    `prebuilt archive in, uploaded: action ${sec(tArch)} s = ${(tArch / tCurl).toFixed(2)} x curl login + curl -F's ${sec(tCurl)} s (target <= 1.2)${upload}`
  )
}
if (tRefuse !== undefined) check(tRefuse <= 300, `refused input (bad stack): reported and exited in ${Math.round(tRefuse)} ms (target <= 300 ms)`)
console.log('\n== targets')
for (const v of verdicts) console.log(v)
rmSync(scratch, { recursive: true, force: true })
