// Each run of a world is a process of its own, as it is on a CI's machines: the engine's port (src/port.ts, the one
// module-level door of the engine) is installed per process, so two runs that overlap in the world's time each talk
// to their own face; and so is the status report's (the 'status' caller, ./status.ts), whose command installs its own. The test file mocks src/port.js with `routedPort`: every call of the engine goes to the port the
// calling process installed (the async context says which process calls), and what the engine handed its face is
// kept per process: the outputs, the failure and the summary with the wire's sequence number when they were set (the
// moment the outcome was decided), the secrets it registered, and the run's context the face gave it. A face's claims
// are read from what the face itself printed; these records are what they are compared with.
import { AsyncLocalStorage } from 'node:async_hooks'
import type * as PortModule from '../../src/port.js'
import type { InputOptions, Port, RunContext } from '../../src/port.js'
import { caller, wire } from './transport.js'

/** Which run's process a call is made in: 0 the world's first run, 1 the second (./runs.ts). */
export const processOf = new AsyncLocalStorage<number>()

export function runIndex(): number {
  return processOf.getStore() ?? 0
}

/** What one process's engine handed its port. */
export interface ProcessRecord {
  port: Port | undefined
  readonly outputs: Record<string, string>
  failed: string | undefined
  summary: string
  /** The wire's sequence number when the engine last set an output, its failure or its summary. */
  decided: number
  /** Fake Date.now() when the engine first set its failure, an output or its summary: its outcome was decided by then. */
  decidedAt: number | undefined
  /** Every secret the engine registered (setSecret). */
  readonly masked: string[]
  /** The run's context as the face gave it to the engine, the first time the engine asked. */
  context: RunContext | undefined
}

const records = new Map<number, ProcessRecord>()
/** The port installed outside any run's process (the test file's: the runner's, as ./mocks.ts gives it). */
let outside: Port | undefined
/** The port the status report's command installed in its own process (the 'status' caller, ./status.ts). */
let statusReport: Port | undefined

function fresh(): ProcessRecord {
  return { port: undefined, outputs: {}, failed: undefined, summary: '', decided: 0, decidedAt: undefined, masked: [], context: undefined }
}

/** The record of process `index` (created empty). */
export function processRecord(index = runIndex()): ProcessRecord {
  let record = records.get(index)
  if (record === undefined) {
    record = fresh()
    records.set(index, record)
  }
  return record
}

/** A new world: no process has installed a port or handed anything over yet. */
export function resetProcesses(): void {
  records.clear()
}

/** A new read of the status report (./status.ts): its command has installed no port yet. */
export function resetStatusPort(): void {
  statusReport = undefined
}

/** The world's hooks on a process's hand-overs: a run's main step wrote its summary (its report is done; its sends follow). */
export const handOvers: { summaryWritten: ((index: number) => void) | undefined } = { summaryWritten: undefined }

/** The status report's calls: its own process, apart from every run's (their engine's hand-overs are not kept). */
const reporting = (): boolean => caller.getStore() === 'status'

function port(): Port {
  if (reporting()) {
    const installed = statusReport ?? outside
    if (installed === undefined) throw new Error('No port is installed: the face calls usePort() before it runs the engine.')
    return installed
  }
  const installed = processOf.getStore() === undefined ? outside : (records.get(runIndex())?.port ?? outside)
  if (installed === undefined) throw new Error('No port is installed: the face calls usePort() before it runs the engine.')
  return installed
}

function decided(record: ProcessRecord): void {
  record.decided = wire.seq
  record.decidedAt ??= Date.now()
}

/** src/port.js as each process sees it (every value export of the real module, so tsc names one that is missing). */
export const routedPort: typeof PortModule = {
  usePort: (p: Port) => {
    if (reporting()) statusReport = p
    else if (processOf.getStore() === undefined) outside = p
    else processRecord().port = p
  },
  getInput: (name: string, options?: InputOptions) => port().getInput(name, options),
  setOutput: (name: string, value: string) => {
    if (!reporting()) {
      const record = processRecord()
      record.outputs[name] = value
      decided(record)
    }
    port().setOutput(name, value)
  },
  info: (message: string) => port().info(message),
  warning: (message: string) => port().warning(message),
  error: (message: string) => port().error(message),
  notice: (message: string) => port().notice(message),
  debug: (message: string) => port().debug(message),
  isDebug: () => port().isDebug(),
  group: <T>(name: string, fn: () => Promise<T>) => port().group(name, fn),
  setSecret: (secret: string) => {
    if (!reporting()) processRecord().masked.push(secret)
    port().setSecret(secret)
  },
  writeSummary: (markdown: string) => {
    if (!reporting()) {
      const record = processRecord()
      record.summary += markdown
      decided(record)
      if (caller.getStore() === 'main') handOvers.summaryWritten?.(runIndex())
    }
    return port().writeSummary(markdown)
  },
  saveState: (name: string, value: string) => port().saveState(name, value),
  getState: (name: string) => port().getState(name),
  setFailed: (message: string) => {
    if (!reporting()) {
      const record = processRecord()
      record.failed = message
      decided(record)
    }
    port().setFailed(message)
  },
  getIDToken: (audience: string) => port().getIDToken(audience),
  runContext: () => {
    const context = port().runContext()
    if (!reporting()) processRecord().context ??= context
    return context
  }
}
