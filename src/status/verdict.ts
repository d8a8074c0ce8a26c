// What the status report's faces share besides the report (docs/status.md): the configuration file read, the fail-on
// and parallel settings checked, and the verdict (fails closed; a state fail-on names fails). `brcloud status` turns
// the verdict into its exit code (src/cli/status.ts), the action into its one failure (src/action/status.ts); each
// names its own settings (`--fail-on` on a command line, `fail-on` in a workflow) in the messages.
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { InputError } from '../errors.js'
import { parseStatusConfig, type StatusConfig } from './config.js'
import { readInFull, DEFAULT_PARALLEL, type StatusReport } from './index.js'
import { STATES, type DriftState } from './row.js'

/** The file at `file` (relative to `base`), parsed and checked; an InputError naming `file` as given. */
export async function loadStatusConfig(file: string, base: string = process.cwd()): Promise<StatusConfig> {
  const text = await readFile(resolve(base, file), 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new InputError(`The configuration file ${file} could not be read (${error.code ?? String(error)}).`)
  })
  return parseStatusConfig(text, file)
}

/** What fail-on may name: a state, or `unhealthy` (a health probe failing: its own axis, beside the state). */
export type FailOn = DriftState | 'unhealthy'
export const FAIL_ON_WORDS: readonly FailOn[] = [...STATES, 'unhealthy']

/** A comma-separated list of states or `unhealthy` (none when empty); an InputError, under the setting's `name`, for any other word. */
export function parseFailOn(raw: string | undefined, name: string): FailOn[] {
  if (raw === undefined || raw.trim() === '') return []
  const names = raw.split(',').map((s) => s.trim())
  const unknown = names.filter((n) => !(FAIL_ON_WORDS as readonly string[]).includes(n))
  if (unknown.length > 0)
    throw new InputError(
      `${name} names ${unknown.map((n) => `'${n}'`).join(', ')}: the states are ${STATES.join(', ')}; unhealthy names a failing health probe.`
    )
  return names as FailOn[]
}

/** A setting that is on or off: true or false (also True, TRUE, False, FALSE, as actions take them); off when empty. */
export function parseSwitch(raw: string | undefined, name: string): boolean {
  const v = (raw ?? '').trim()
  if (v === '' || ['false', 'False', 'FALSE'].includes(v)) return false
  if (['true', 'True', 'TRUE'].includes(v)) return true
  throw new InputError(`${name} '${v}' is not a boolean: write true or false.`)
}

/** Stacks read at once, 1 to 32; DEFAULT_PARALLEL when not given (undefined). */
export function parseParallel(raw: string | undefined, name: string): number {
  if (raw === undefined) return DEFAULT_PARALLEL
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN
  if (!(n >= 1 && n <= 32)) throw new InputError(`${name} '${raw}' is not a number from 1 to 32.`)
  return n
}

export type StatusVerdict =
  | { readonly kind: 'read' }
  /** Fails closed: a stack, one of its environments, or the code's host (GitHub or GitLab) was not read. It outranks fail-on. */
  | { readonly kind: 'unreadable'; readonly message: string }
  | { readonly kind: 'fail-on'; readonly message: string }

/** Fails closed: anything not read, whatever else; then a state `failOn` names (the setting called `name`); else read. */
export function statusVerdict(report: StatusReport, failOn: readonly FailOn[], name: string): StatusVerdict {
  if (!readInFull(report)) {
    const stacks = report.stacks.filter((s) => s.errors.length > 0).map((s) => s.name)
    const host = report.githubErrors.length > 0 ? (report.host ?? 'GitHub') : ''
    const what = [stacks.length > 0 ? `stack ${stacks.join(', ')}` : '', host].filter((w) => w !== '').join(' and ')
    const unread = [...(what === '' ? [] : [`${what} could not be read`]), ...report.trackErrors]
    return { kind: 'unreadable', message: `The report is not complete: ${unread.join('; ')} (its rows read unknown).` }
  }
  const unhealthy = failOn.includes('unhealthy')
  const failing = report.environments.flatMap((r) => [
    ...(failOn.includes(r.state) ? [`${r.stack}/${r.environment ?? '(all)'} is ${r.state}`] : []),
    ...(unhealthy && r.health === 'failing' ? [`${r.stack}/${r.environment ?? '(all)'} is unhealthy`] : [])
  ])
  if (failing.length > 0) {
    const which = failing.join('; ')
    return { kind: 'fail-on', message: `${name} ${failOn.join(',')}: ${which}.` }
  }
  return { kind: 'read' }
}

/** Whether any environment is not in-sync (unknown, empty and deploying included): the action's `drift` output. */
export function drifted(report: StatusReport): boolean {
  return report.environments.some((r) => r.state !== 'in-sync')
}
