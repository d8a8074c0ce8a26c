// Writes what is derived from action.yml, so the two never disagree: the README's inputs and outputs
// tables, and src/action-metadata.ts (the inputs' defaults and the output names the code uses).
// `npm run docs` rewrites them; `npm run docs -- --check` fails when one is out of date (CI).
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { ACTION_METADATA_PATH, actionMetadataSource, type ActionMetadata } from './lib/action-metadata.js'
import { EventsInput } from '../src/inputs/events.js'

/** The event sinks' inputs: their table is in docs/events.md, which keeps the README short. */
const EVENTS_INPUTS: ReadonlySet<string> = new Set(Object.values(EventsInput))
const isEventsInput = (name: string): boolean => EVENTS_INPUTS.has(name)

const root = fileURLToPath(new URL('..', import.meta.url))
const escape = (s: string): string => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ').trim()

/** The first sentence of a description: the README's tables stay short, docs/inputs.md has the rest. */
export function firstSentence(text: string): string {
  const re = /[.:](\s+)(?=[A-Z(])/g
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const before = text.slice(Math.max(0, m.index - 4), m.index + 1)
    if (/(e\.g|i\.e|etc)\.$/i.test(before)) continue
    if (text[m.index] === '.') return text.slice(0, m.index + 1)
  }
  return text
}

export function inputsTable(meta: ActionMetadata, describe: (s: string) => string = (s) => s, only: (name: string) => boolean = () => true): string {
  const rows = ['| Input | Default | Description |', '|---|---|---|']
  for (const [name, input] of Object.entries(meta.inputs ?? {})) {
    if (!only(name)) continue
    const def = input.default === undefined || input.default === '' ? '' : `\`${escape(String(input.default))}\``
    rows.push(`| \`${name}\` | ${def} | ${escape(describe(input.description ?? ''))} |`)
  }
  return rows.join('\n')
}

export function outputsTable(meta: ActionMetadata, describe: (s: string) => string = (s) => s): string {
  const rows = ['| Output | Description |', '|---|---|']
  for (const [name, output] of Object.entries(meta.outputs ?? {})) rows.push(`| \`${name}\` | ${escape(describe(output.description ?? ''))} |`)
  return rows.join('\n')
}

/** docs/inputs.md: every input and output with its whole description. */
export function referencePage(meta: ActionMetadata): string {
  return [
    '# Inputs and outputs',
    '',
    'Generated from `action.yml` by `npm run docs`: do not edit by hand. The README shows the first sentence of each.',
    '',
    '## Inputs',
    '',
    inputsTable(meta),
    '',
    '## Outputs',
    '',
    outputsTable(meta),
    ''
  ].join('\n')
}

export function render(readme: string, meta: ActionMetadata): string {
  return between(readme, 'README.md', [
    ['inputs', inputsTable(meta, firstSentence, (name) => !isEventsInput(name))],
    ['outputs', outputsTable(meta, firstSentence)]
  ])
}

/** docs/events.md: the sinks' inputs, with their whole descriptions. */
export function renderEvents(page: string, meta: ActionMetadata): string {
  return between(page, 'docs/events.md', [['events-inputs', inputsTable(meta, (s) => s, isEventsInput)]])
}

/** Each table put between its markers in `text`. */
function between(text: string, file: string, tables: ReadonlyArray<readonly [string, string]>): string {
  let out = text
  for (const [marker, table] of tables) {
    const start = `<!-- ${marker}:start (generated from action.yml by npm run docs) -->`
    const end = `<!-- ${marker}:end -->`
    const from = out.indexOf(start)
    const to = out.indexOf(end)
    if (from < 0 || to < from) throw new Error(`${file} has no ${start} ... ${end} markers`)
    out = out.slice(0, from + start.length) + '\n' + table + '\n' + out.slice(to)
  }
  return out
}

const check = process.argv.includes('--check')
const meta = parse(readFileSync(`${root}action.yml`, 'utf8')) as ActionMetadata
const targets = [
  { file: 'README.md', what: 'inputs and outputs tables', next: (current: string) => render(current, meta) },
  { file: 'docs/events.md', what: "the event sinks' inputs table", next: (current: string) => renderEvents(current, meta) },
  { file: 'docs/inputs.md', what: 'the inputs and outputs reference', next: () => referencePage(meta) },
  { file: ACTION_METADATA_PATH, what: 'input defaults and output names', next: () => actionMetadataSource(meta) }
]
let stale = false
for (const { file, what, next } of targets) {
  const path = `${root}${file}`
  let current = ''
  try {
    current = readFileSync(path, 'utf8')
  } catch {
    // A missing generated file is only stale.
  }
  const wanted = next(current)
  if (wanted === current) {
    console.log(`${file}: ${what} match action.yml.`)
  } else if (check) {
    console.error(`${file}: ${what} differ from action.yml: run \`npm run docs\` and commit ${file}.`)
    stale = true
  } else {
    writeFileSync(path, wanted)
    console.log(`${file}: ${what} rewritten from action.yml.`)
  }
}
if (stale) process.exit(1)
