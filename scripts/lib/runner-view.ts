// How a GitHub runner shows a step's log: workflow commands are consumed (::add-mask::, ::endgroup::),
// debug lines hidden unless step debug logging is on, group titles shown as titles, annotations as
// "Error: ...", "Warning: ...", "Notice: ...". Used by the demo and `npm run action`.

const ANNOTATION: Record<string, string> = { error: 'Error', warning: 'Warning', notice: 'Notice' }

/** A workflow command's data as the runner reads it: @actions/core escapes %, CR and LF (toCommandValue), the runner turns them back. */
export function unescapeData(data: string): string {
  return data.replace(/%0D/gi, '\r').replace(/%0A/gi, '\n').replace(/%25/g, '%')
}

/** The line as the runner shows it, or undefined when the runner shows nothing for it. */
export function runnerLine(line: string, debug = false): string | undefined {
  const m = /^::([a-z-]+)(?: [^:]*)?::(.*)$/.exec(line)
  if (m === null) return line
  const [, command = '', data = ''] = m
  const message = unescapeData(data)
  if (command === 'add-mask' || command === 'endgroup') return undefined
  if (command === 'debug') return debug ? `##[debug]${message}` : undefined
  if (command === 'group') return `▸ ${message}`
  const label = ANNOTATION[command]
  return label === undefined ? line : `${label}: ${message}`
}

/** A whole log as the runner shows it. */
export function runnerView(log: string, debug = false): string {
  return log
    .split('\n')
    .map((l) => runnerLine(l, debug))
    .filter((l): l is string => l !== undefined)
    .join('\n')
}
