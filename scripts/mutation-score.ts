// `npm run mutation:score -- reports/mutation/a.json [b.json ...] [--survivors]`: the mutation score of one or more
// StrykerJS reports together (a whole-scope run, or parts run with their own MUTATION_REPORT), by file and in
// total, as the Markdown table docs/reliability-and-security.md publishes. A file in several reports counts once,
// from the last report named. A report named as `<report.json>=<file>,<file>` gives only those files: a run of part
// of the scope seeded from another report's incremental file carries that report's old results for every other
// file, which must not replace a newer part's. A folder (reports/mutation/events-<name>, event-recorder's) gives the
// mutants tested so far, one file each: what a run stopped before its end measured. --survivors lists each surviving
// or uncovered mutant with its line.
//
// Score as Stryker counts it: (killed + timed out) / (killed + timed out + survived + not covered); mutants the
// compiler refused, and those disabled at their line, are left out.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

interface Mutant {
  status: string
  mutatorName: string
  replacement?: string
  location: { start: { line: number; column: number } }
}
interface Report {
  files: Record<string, { source: string; mutants: Mutant[] }>
}

const args = process.argv.slice(2)
const withSurvivors = args.includes('--survivors')
const paths = args.filter((a) => !a.startsWith('--'))
if (paths.length === 0) {
  console.error('Usage: npm run mutation:score -- reports/mutation/<name>.json[=<file>,<file>] [more.json ...] [--survivors]')
  process.exit(2)
}

const files = new Map<string, { source: string; mutants: Mutant[] }>()
for (const arg of paths) {
  const [path = '', only] = arg.split('=')
  const wanted = only === undefined ? undefined : new Set(only.split(','))
  const report = statSync(path).isDirectory() ? recorded(path) : (JSON.parse(readFileSync(path, 'utf8')) as Report)
  for (const name of wanted ?? []) {
    if (!(name in report.files)) {
      console.error(`${path} has no results for ${name}.`)
      process.exit(2)
    }
  }
  for (const [name, file] of Object.entries(report.files)) if (wanted === undefined || wanted.has(name)) files.set(name, file)
}

/** The mutants event-recorder wrote one by one (a run stopped early has no json report), by file, as a report. */
function recorded(dir: string): Report {
  const files: Report['files'] = {}
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('-onMutantTested.json'))
    .sort()) {
    const m = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Mutant & { fileName: string }
    const file = relative(process.cwd(), m.fileName).replace(/^\.stryker-tmp[^/]*\/sandbox-[^/]+\//, '')
    files[file] ??= { source: readFileSync(file, 'utf8'), mutants: [] }
    files[file].mutants.push(m)
  }
  return { files }
}

const COLUMNS = ['Killed', 'Timeout', 'Survived', 'NoCoverage', 'CompileError', 'Ignored'] as const
const score = (c: Record<string, number>): string => {
  const detected = (c.Killed ?? 0) + (c.Timeout ?? 0)
  const valid = detected + (c.Survived ?? 0) + (c.NoCoverage ?? 0)
  return valid === 0 ? '-' : `${((100 * detected) / valid).toFixed(1)}%`
}
const count = (mutants: Mutant[]): Record<string, number> => {
  const c: Record<string, number> = {}
  for (const m of mutants) c[m.status] = (c[m.status] ?? 0) + 1
  return c
}

const total: Record<string, number> = {}
console.log(`| File | Score | ${COLUMNS.join(' | ')} |`)
console.log(`|---|---|${COLUMNS.map(() => '---').join('|')}|`)
for (const [name, file] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
  const c = count(file.mutants)
  for (const [k, v] of Object.entries(c)) total[k] = (total[k] ?? 0) + v
  console.log(`| \`${name}\` | ${score(c)} | ${COLUMNS.map((k) => c[k] ?? 0).join(' | ')} |`)
}
console.log(`| **all ${files.size} files** | **${score(total)}** | ${COLUMNS.map((k) => total[k] ?? 0).join(' | ')} |`)

if (withSurvivors) {
  console.log('')
  for (const [name, file] of files) {
    const lines = file.source.split('\n')
    for (const m of file.mutants.filter((x) => x.status === 'Survived' || x.status === 'NoCoverage')) {
      const { line, column } = m.location.start
      const code = (lines[line - 1] ?? '').trim().slice(0, 110)
      console.log(`- ${name}:${line}:${column} ${m.status} ${m.mutatorName} -> ${JSON.stringify((m.replacement ?? '').slice(0, 60))}: \`${code}\``)
    }
  }
}
