// action.yml is the one source of the inputs' defaults and of the output names: this renders
// src/action-metadata.ts from it, so the code never carries a hand copy that could drift.
// `npm run docs` writes the file; `npm run docs -- --check` (CI) fails when it is stale.

export interface ActionInput {
  description?: string
  required?: boolean
  default?: unknown
}
export interface ActionMetadata {
  inputs?: Record<string, ActionInput>
  outputs?: Record<string, { description?: string }>
}

export const ACTION_METADATA_PATH = 'src/action-metadata.ts'

/** A single-quoted TypeScript string literal. */
function quote(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\r/g, '\\r').replace(/\n/g, '\\n')}'`
}

/** The source of src/action-metadata.ts for this action.yml. */
export function actionMetadataSource(meta: ActionMetadata): string {
  const defaults = Object.entries(meta.inputs ?? {}).map(([name, input]) => {
    // YAML may give an unquoted default as a number or boolean; the runner passes its text.
    const value = input.default === undefined || input.default === null ? '' : String(input.default)
    return `  ${quote(name)}: ${quote(value)}`
  })
  const outputs = Object.keys(meta.outputs ?? {}).map(quote)
  return [
    '// Generated from action.yml by `npm run docs`; `npm run docs -- --check` (CI) fails when it is stale. Do not edit.',
    "/** Every input with the default action.yml declares ('' when none). */",
    'export const INPUT_DEFAULTS = {',
    defaults.join(',\n'),
    '} as const',
    'export type InputName = keyof typeof INPUT_DEFAULTS',
    '/** Every output action.yml declares. */',
    `export const OUTPUT_NAMES = [${outputs.join(', ')}] as const`,
    'export type OutputName = (typeof OUTPUT_NAMES)[number]',
    ''
  ].join('\n')
}
