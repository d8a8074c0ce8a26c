// src/action-metadata.ts is generated from action.yml (npm run docs; CI runs docs --check): the
// committed file must be exactly what the generator makes of today's action.yml.
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { ACTION_METADATA_PATH, actionMetadataSource, type ActionMetadata } from '../scripts/lib/action-metadata.js'
import { INPUT_DEFAULTS, OUTPUT_NAMES } from '../src/action-metadata.js'

const meta = parse(readFileSync('action.yml', 'utf8')) as ActionMetadata

describe('action metadata', () => {
  test('the committed src/action-metadata.ts is what action.yml generates', () => {
    expect(readFileSync(ACTION_METADATA_PATH, 'utf8')).toBe(actionMetadataSource(meta))
  })

  test('every input with its declared default, every output', () => {
    const declared: Record<string, string> = {}
    for (const [name, input] of Object.entries(meta.inputs ?? {})) declared[name] = input.default === undefined ? '' : String(input.default)
    expect(INPUT_DEFAULTS).toEqual(declared)
    expect([...OUTPUT_NAMES]).toEqual(Object.keys(meta.outputs ?? {}))
  })

  test('the generator quotes what it copies', () => {
    const source = actionMetadataSource({ inputs: { a: { default: "it's" }, b: {}, c: { default: 6 } }, outputs: { x: {} } })
    expect(source).toContain(`  'a': 'it\\'s',\n  'b': '',\n  'c': '6'\n} as const`)
    expect(source).toContain(`export const OUTPUT_NAMES = ['x'] as const`)
  })
})
