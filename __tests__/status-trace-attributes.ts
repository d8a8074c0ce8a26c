// How the status trace names a --json row (docs/status.md, Tracing), written from the JSON's side for the tests to
// compare with the spans: stack and environment as the deploy names them, every other field brcloud.status.<snake_case>,
// objects by their fields, nulls left out.
export function asAttributes(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const walk = (value: Record<string, unknown>, path: string): void => {
    for (const [key, v] of Object.entries(value)) {
      const name = path + key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
      if (v === null) continue
      if (typeof v === 'object') walk(v as Record<string, unknown>, `${name}.`)
      else out[name === 'stack' || name === 'environment' ? `brcloud.${name}` : `brcloud.status.${name}`] = v
    }
  }
  walk(row, '')
  return out
}
