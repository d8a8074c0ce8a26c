// `npm run plant-deletions -- [--only <file or folder>]... [--list] [--table] [--no-baseline]`: every call in src/ (not
// src/emulator/) that guards a secret or a promise (scripts/lib/guard-sites.ts: masks, revocations, a GitHub
// Deployment's final status, the post step's hand-off, the scrubbing of printed text) is planted away, one at a time,
// in a copy of the project, and the tests that import the changed file run (Jest's --findRelatedTests, one file at a
// time, stopping at the first failure). One line per site: file:line, the call, and the test that killed it or SURVIVED.
//
// The end-to-end suites (e2e in the name) are left out: they run the bundles, which a planted source does not change,
// and rebuilding three bundles per site would take minutes each. A guard only an end-to-end suite watches shows as
// SURVIVED: it needs a test that runs the source. The simulation runs SIM_RUNS=60 schedules, as under Stryker.
//
// Results are kept in reports/plant-deletions.json, a file's sites replaced whenever it runs again, so a run per folder
// (--only src/cloud) adds up; --table prints them all as the Markdown table of docs/reliability-and-security.md.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { findGuardSites, plant, syntaxError, type GuardSite } from './lib/guard-sites.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const RESULTS = join(ROOT, 'reports', 'plant-deletions.json')
/** One site's tests may not run longer than this (a planted deletion that makes a run hang is killed by its timeout). */
const SITE_LIMIT_MS = 20 * 60_000

interface Outcome {
  readonly site: string
  readonly kind: string
  readonly call: string
  readonly plant: GuardSite['plant']
  /** 'killed', 'timeout' (killed too), 'survived', 'no-tests' (survived: nothing imports the file), 'invalid' (did not parse). */
  readonly status: 'killed' | 'timeout' | 'survived' | 'no-tests' | 'invalid'
  readonly by?: string
  readonly suites?: number
}

const args = process.argv.slice(2)
const only = args.flatMap((a, i) => (args[i - 1] === '--only' ? [a.replace(/\/+$/, '')] : []))
const flags = new Set(args.filter((a) => a.startsWith('--') && a !== '--only'))
for (const flag of flags) {
  if (!['--list', '--table', '--no-baseline'].includes(flag)) {
    console.error(`Unknown option ${flag}. Usage: npm run plant-deletions -- [--only <file or folder>]... [--list] [--table] [--no-baseline]`)
    process.exit(2)
  }
}

if (flags.has('--table')) {
  printTable(readResults())
  process.exit(0)
}

const sites = guardSites()
if (sites.length === 0) {
  console.error(`No guard site under ${only.join(', ') || 'src/'}.`)
  process.exit(2)
}
if (flags.has('--list')) {
  for (const site of sites) console.log(`${site.file}:${site.line}  ${site.kind.padEnd(12)} ${site.plant.padEnd(16)} ${site.call}`)
  console.log(`${sites.length} sites.`)
  process.exit(0)
}
process.exit(run(sites))

/** Every site of src/ (without the emulator), or of the --only files and folders, in path and line order. */
function guardSites(): GuardSite[] {
  const files = listFiles(join(ROOT, 'src'))
    .map((f) => relative(ROOT, f).split(sep).join('/'))
    .filter((f) => f.endsWith('.ts') && !f.startsWith('src/emulator/'))
    .filter((f) => only.length === 0 || only.some((o) => f === o || f.startsWith(`${o}/`)))
    .sort()
  return files.flatMap((f) => findGuardSites(f, readFileSync(join(ROOT, f), 'utf8')))
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)]))
}

function run(all: GuardSite[]): number {
  const copy = prepareCopy()
  console.log(`Planting ${all.length} deletions in a copy of the project (${copy}); tests one file at a time.`)
  const files = [...new Set(all.map((s) => s.file))]
  if (!flags.has('--no-baseline')) {
    // A test that fails with nothing planted would "kill" every site: the copy must be green first.
    const base = jest(copy, files, 'baseline')
    if (base.status !== 'survived' && base.status !== 'no-tests') {
      console.error(`The tests fail with nothing planted (${base.by ?? base.status}): fix them first, or pass --no-baseline.`)
      return 1
    }
    console.log(`Baseline: ${base.suites ?? 0} test files pass with nothing planted.`)
  }
  const outcomes: Outcome[] = []
  for (const site of all) {
    const outcome = plantOne(copy, site)
    outcomes.push(outcome)
    console.log(line(outcome))
    // Kept after each site: a run stopped half-way keeps what it found (its file's older results are gone).
    saveResults([...new Set(outcomes.map(fileOf))], outcomes)
  }
  const survived = outcomes.filter(survivedIn)
  console.log(`${all.length} sites: ${all.length - survived.length} killed, ${survived.length} survived.`)
  return survived.length > 0 ? 1 : 0
}

function plantOne(copy: string, site: GuardSite): Outcome {
  const path = join(copy, site.file)
  const original = readFileSync(path, 'utf8')
  const planted = plant(original, site)
  const base = { site: `${site.file}:${site.line}`, kind: site.kind, call: site.call, plant: site.plant }
  const broken = syntaxError(site.file, planted)
  if (broken !== undefined) return { ...base, status: 'invalid', by: broken }
  writeFileSync(path, planted)
  try {
    return { ...base, ...jest(copy, [site.file], `${site.file}:${site.line}`) }
  } finally {
    writeFileSync(path, original)
  }
}

/** The related tests of `files` in the copy, one file at a time, stopping at the first failure. */
function jest(copy: string, files: readonly string[], label: string): Pick<Outcome, 'status' | 'by' | 'suites'> {
  const report = join(copy, '.plant', `${label.replace(/[^\w.-]+/g, '_')}.json`)
  mkdirSync(dirname(report), { recursive: true })
  rmSync(report, { force: true })
  const command = [
    process.execPath,
    '--experimental-vm-modules',
    '--disable-warning=ExperimentalWarning',
    'node_modules/jest/bin/jest.js',
    '--config',
    'jest.plant.config.js',
    '--ci',
    '--runInBand',
    '--bail=1',
    '--silent',
    '--passWithNoTests',
    '--json',
    `--outputFile=${report}`,
    '--findRelatedTests',
    ...files
  ]
  // PLANT_LOCK=<file>: each Jest run holds a lock on it (flock), so that other Jest runs on a shared machine wait their turn.
  const lock = process.env.PLANT_LOCK
  const [program = '', ...rest] = lock ? ['flock', lock, ...command] : command
  const result = spawnSync(program, rest, {
    cwd: copy,
    env: { ...process.env, SIM_RUNS: '60', CI: 'true' },
    encoding: 'utf8',
    timeout: SITE_LIMIT_MS,
    maxBuffer: 64 * 1024 * 1024
  })
  writeFileSync(report.replace(/\.json$/, '.log'), `${result.stdout ?? ''}\n${result.stderr ?? ''}`)
  if (result.error !== undefined || result.signal !== null) return { status: 'timeout', by: `no end within ${SITE_LIMIT_MS / 60_000} min` }
  if (!existsSync(report)) return { status: 'killed', by: `jest exited ${result.status} without a report` }
  const out = JSON.parse(readFileSync(report, 'utf8')) as JestReport
  const suites = out.testResults.length
  if (suites === 0) return { status: 'no-tests', suites }
  const failed = out.testResults.find((t) => t.status === 'failed')
  if (failed === undefined)
    return { status: result.status === 0 ? 'survived' : 'killed', suites, ...(result.status === 0 ? {} : { by: `jest exited ${result.status}` }) }
  const test = failed.assertionResults.find((a) => a.status === 'failed')
  const name = relative(join(copy, '__tests__'), failed.name)
  return { status: 'killed', suites, by: test === undefined ? `${name} (did not run: ${firstLine(failed.message)})` : `${name} "${test.fullName}"` }
}

interface JestReport {
  testResults: { name: string; status: string; message: string; assertionResults: { status: string; fullName: string }[] }[]
}

function firstLine(text: string): string {
  return (text.split('\n').find((l) => l.trim() !== '') ?? '').trim().slice(0, 120)
}

/**
 * A copy of the project in the system's temp folder (one per checkout, kept so Jest's transform cache stays warm),
 * refreshed from the checkout at each start; node_modules linked. The checkout itself is never planted.
 */
function prepareCopy(): string {
  const copy = join(tmpdir(), `brcloud-plant-deletions-${createHash('sha256').update(ROOT).digest('hex').slice(0, 12)}`)
  const skipped = new Set(['node_modules', '.git', 'reports', 'coverage', '.tmp', '.plant'])
  mkdirSync(copy, { recursive: true })
  for (const entry of readdirSync(copy)) if (entry !== 'node_modules' && entry !== '.plant') rmSync(join(copy, entry), { recursive: true, force: true })
  for (const entry of readdirSync(ROOT)) {
    if (skipped.has(entry) || entry.startsWith('.stryker-tmp')) continue
    cpSync(join(ROOT, entry), join(copy, entry), { recursive: true })
  }
  if (!existsSync(join(copy, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir')
  // The project's Jest settings, with src/ among the roots (so --findRelatedTests follows imports through it, as
  // under Stryker) and without the suites that run the bundles.
  writeFileSync(
    join(copy, 'jest.plant.config.js'),
    [
      "import base from './jest.config.js'",
      'export default {',
      '  ...base,',
      "  roots: ['<rootDir>/__tests__', '<rootDir>/src'],",
      "  testPathIgnorePatterns: ['/node_modules/', '/__tests__/[^/]*e2e[^/]*$']",
      '}',
      ''
    ].join('\n')
  )
  return copy
}

function survivedIn(o: Outcome): boolean {
  return o.status === 'survived' || o.status === 'no-tests'
}

function line(o: Outcome): string {
  const verdict =
    o.status === 'killed' || o.status === 'timeout'
      ? `killed by ${o.by ?? '?'}`
      : o.status === 'invalid'
        ? `NOT PLANTED (${o.by ?? ''})`
        : o.status === 'no-tests'
          ? 'SURVIVED (no test imports the file)'
          : `SURVIVED (${o.suites} test files)`
  return `${o.site}  ${o.call}  ${verdict}`
}

function readResults(): Outcome[] {
  return existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as Outcome[]) : []
}

/** The file's old results replaced by this run's; in path and line order. */
function saveResults(files: readonly string[], outcomes: readonly Outcome[]): void {
  const kept = readResults().filter((o) => !files.includes(fileOf(o)))
  const all = [...kept, ...outcomes].sort((a, b) => fileOf(a).localeCompare(fileOf(b)) || lineOf(a) - lineOf(b))
  mkdirSync(dirname(RESULTS), { recursive: true })
  writeFileSync(RESULTS, `${JSON.stringify(all, null, 2)}\n`)
}

function fileOf(o: Outcome): string {
  return o.site.replace(/:\d+$/, '')
}

function lineOf(o: Outcome): number {
  return Number(/:(\d+)$/.exec(o.site)?.[1] ?? 0)
}

function printTable(outcomes: readonly Outcome[]): void {
  console.log('| Site | Kind | Call | Result |')
  console.log('|---|---|---|---|')
  for (const o of outcomes) {
    const result = survivedIn(o) ? '**SURVIVED**' : o.status === 'invalid' ? 'not planted' : `killed by ${(o.by ?? '').replace(/\|/g, '\\|')}`
    console.log(`| ${o.site} | ${o.kind} | \`${o.call.replace(/\|/g, '\\|')}\` | ${result} |`)
  }
  const survived = outcomes.filter(survivedIn).length
  console.log(`\n${outcomes.length} sites: ${outcomes.length - survived} killed, ${survived} survived.`)
}
