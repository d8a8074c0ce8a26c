// Writes the README's inputs and outputs tables from action.yml, so the two never disagree.
// `npm run docs` rewrites README.md; `npm run docs -- --check` fails when it is out of date (CI).
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'

interface ActionInput {
  description?: string
  required?: boolean
  default?: string
}
interface ActionMetadata {
  inputs?: Record<string, ActionInput>
  outputs?: Record<string, { description?: string }>
}

const root = fileURLToPath(new URL('..', import.meta.url))
const escape = (s: string): string => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ').trim()

export function inputsTable(meta: ActionMetadata): string {
  const rows = ['| Input | Default | Description |', '|---|---|---|']
  for (const [name, input] of Object.entries(meta.inputs ?? {})) {
    const def = input.default === undefined || input.default === '' ? '' : `\`${escape(String(input.default))}\``
    rows.push(`| \`${name}\` | ${def} | ${escape(input.description ?? '')} |`)
  }
  return rows.join('\n')
}

export function outputsTable(meta: ActionMetadata): string {
  const rows = ['| Output | Description |', '|---|---|']
  for (const [name, output] of Object.entries(meta.outputs ?? {})) rows.push(`| \`${name}\` | ${escape(output.description ?? '')} |`)
  return rows.join('\n')
}

export function render(readme: string, meta: ActionMetadata): string {
  let out = readme
  for (const [marker, table] of [
    ['inputs', inputsTable(meta)],
    ['outputs', outputsTable(meta)]
  ] as const) {
    const start = `<!-- ${marker}:start (generated from action.yml by npm run docs) -->`
    const end = `<!-- ${marker}:end -->`
    const from = out.indexOf(start)
    const to = out.indexOf(end)
    if (from < 0 || to < from) throw new Error(`README.md has no ${start} ... ${end} markers`)
    out = out.slice(0, from + start.length) + '\n' + table + '\n' + out.slice(to)
  }
  return out
}

const check = process.argv.includes('--check')
const readmePath = `${root}README.md`
const readme = readFileSync(readmePath, 'utf8')
const next = render(readme, parse(readFileSync(`${root}action.yml`, 'utf8')) as ActionMetadata)
if (next === readme) {
  console.log('README.md inputs and outputs match action.yml.')
} else if (check) {
  console.error('README.md inputs/outputs tables differ from action.yml: run `npm run docs` and commit README.md.')
  process.exit(1)
} else {
  writeFileSync(readmePath, next)
  console.log('README.md inputs and outputs tables rewritten from action.yml.')
}
