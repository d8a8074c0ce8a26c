// `npm run sim:fresh -- [--seeds N | --seed S,S,...] [--runs 5000] [--out DIR]`: the release's simulation from fresh
// seeds, one Jest run per seed, one after the other; what each found is kept where nobody can miss it.
//   - each seed's log: DIR/<seed>.log; a finding: DIR/<seed>.json (written by simulation.test.ts, SIM_FINDING_FILE);
//   - DIR/summary.md: every seed, its schedules and its result, then each finding with the commands that replay it;
//   - on a GitHub runner, the summary goes to the job summary and each finding is an ::error annotation;
//   - the last lines printed are the findings, framed (also DIR/banner.txt, for a CI to print again at its very end).
// Exits 1 when a seed found something (or its run failed without saying what), 0 when none did: the caller decides
// whether that gates (.ci/run reports it without failing; the scheduled workflow opens an issue).
import { spawnSync } from 'node:child_process'
import { randomInt } from 'node:crypto'
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'

interface Finding {
  readonly seed: number
  readonly path?: string
  readonly schedules: number
  readonly replay: string
  readonly schedule: unknown
  readonly invariant: string
}

interface SeedResult {
  readonly seed: number
  readonly seconds: number
  readonly finding: Finding | undefined
  /** The run failed without a finding (a crash, a timeout): its exit code. */
  readonly crashed: number | undefined
}

function options(): { seeds: number[]; runs: number; out: string } {
  const { values } = parseArgs({ options: { seeds: { type: 'string' }, seed: { type: 'string' }, runs: { type: 'string' }, out: { type: 'string' } } })
  const count = Number(values.seeds ?? 1)
  const runs = Number(values.runs ?? 5000)
  const given = values.seed?.split(',').map((s) => Number(s.trim()))
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(runs) || runs < 1 || given?.some((s) => !Number.isInteger(s) || s < 0)) {
    console.error('Usage: npm run sim:fresh -- [--seeds N | --seed S,S,...] [--runs SCHEDULES] [--out DIR]  (N, SCHEDULES: whole numbers from 1)')
    process.exit(2)
  }
  return { seeds: given ?? Array.from({ length: count }, () => randomInt(2 ** 31)), runs, out: resolve(values.out ?? 'reports/sim-fresh') }
}

function runSeed(seed: number, runs: number, out: string): SeedResult {
  const findingFile = join(out, `${seed}.json`)
  rmSync(findingFile, { force: true })
  const began = Date.now()
  const jest = spawnSync(
    process.execPath,
    [
      '--experimental-vm-modules',
      '--disable-warning=ExperimentalWarning',
      'node_modules/jest/bin/jest.js',
      '__tests__/simulation.test.ts',
      '-t',
      'schedules keep every invariant'
    ],
    { env: { ...process.env, SIM_SEED: String(seed), SIM_RUNS: String(runs), SIM_FINDING_FILE: findingFile }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }
  )
  writeFileSync(join(out, `${seed}.log`), `${jest.stdout ?? ''}${jest.stderr ?? ''}`)
  const finding = existsSync(findingFile) ? (JSON.parse(readFileSync(findingFile, 'utf8')) as Finding) : undefined
  const crashed = finding === undefined && jest.status !== 0 ? (jest.status ?? 1) : undefined
  return { seed, seconds: (Date.now() - began) / 1000, finding, crashed }
}

function describeResult(r: SeedResult, runs: number): string {
  if (r.finding) return `broke an invariant after ${r.finding.schedules} schedules`
  if (r.crashed !== undefined) return `the run failed without a finding (exit ${r.crashed}): see its log`
  return `${runs} schedules, every invariant held`
}

function summary(results: readonly SeedResult[], runs: number, out: string): string {
  const lines = [
    '## Simulation from fresh seeds',
    '',
    '| seed | result | time |',
    '|---|---|---|',
    ...results.map((r) => `| ${r.seed} | ${describeResult(r, runs)} | ${Math.round(r.seconds)} s |`)
  ]
  for (const r of results.filter((x) => x.finding !== undefined || x.crashed !== undefined)) {
    lines.push('', `### Seed ${r.seed}`, '')
    if (r.finding) {
      lines.push("Replay it (the whole log, the summary and the platform's history):", '', '```', r.finding.replay, '```', '')
      lines.push(
        'Or the one schedule:',
        '',
        '```',
        `SIM_SCHEDULE='${JSON.stringify(r.finding.schedule)}' SIM_VERBOSE=1 npm test -- __tests__/simulation.test.ts`,
        '```',
        ''
      )
      lines.push('The invariant it broke:', '', '```', r.finding.invariant, '```')
    } else lines.push(`The run failed before it could say what it found: ${join(out, `${r.seed}.log`)}`)
  }
  const found = results.filter((r) => r.finding !== undefined || r.crashed !== undefined).length
  lines.push(
    '',
    found === 0
      ? `No finding: ${results.length} fresh seed${results.length === 1 ? '' : 's'} of ${runs} schedules kept every invariant.`
      : `${found} of ${results.length} fresh seeds found something. A fresh seed that fails is a bug to fix now: fix it, and keep the schedule as a regression seed (FRESH_SEEDS in __tests__/simulation.test.ts).`
  )
  return `${lines.join('\n')}\n`
}

/** The last lines of the log: each finding framed, with its replay command. */
function banner(results: readonly SeedResult[]): string {
  const bad = results.filter((r) => r.finding !== undefined || r.crashed !== undefined)
  if (bad.length === 0) return ''
  const rule = '!'.repeat(100)
  const body = bad.flatMap((r) =>
    r.finding
      ? [
          `FRESH SEED ${r.seed} BROKE AN INVARIANT (after ${r.finding.schedules} schedules). Replay:`,
          `  ${r.finding.replay}`,
          ...r.finding.invariant
            .split('\n')
            .slice(0, 12)
            .map((l) => `  | ${l}`)
        ]
      : [`FRESH SEED ${r.seed}: the simulation failed without a finding (exit ${r.crashed}); its log says why.`]
  )
  return [rule, ...body, 'This is a new finding of the simulation, not necessarily of this change: fix it now and keep it as a regression seed.', rule].join(
    '\n'
  )
}

function main(): void {
  const { seeds, runs, out } = options()
  mkdirSync(out, { recursive: true })
  const results: SeedResult[] = []
  for (const seed of seeds) {
    console.log(`== simulation, seed ${seed}, ${runs} schedules`)
    const r = runSeed(seed, runs, out)
    console.log(`   ${describeResult(r, runs)} (${Math.round(r.seconds)} s)`)
    results.push(r)
  }
  const text = summary(results, runs, out)
  writeFileSync(join(out, 'summary.md'), text)
  writeFileSync(join(out, 'findings.json'), `${JSON.stringify(results, null, 2)}\n`)
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, text)
  const bad = results.filter((r) => r.finding !== undefined || r.crashed !== undefined)
  if (process.env.GITHUB_ACTIONS === 'true')
    for (const r of bad)
      console.log(`::error title=Simulation finding (seed ${r.seed})::${r.finding ? `Replay: ${r.finding.replay}` : 'the run failed without a finding'}`)
  const frame = banner(results)
  writeFileSync(join(out, 'banner.txt'), frame === '' ? '' : `${frame}\n`)
  console.log(frame === '' ? `No finding: ${results.length} fresh seed(s), ${runs} schedules each. Summary: ${join(out, 'summary.md')}` : frame)
  process.exitCode = bad.length === 0 ? 0 : 1
}

main()
