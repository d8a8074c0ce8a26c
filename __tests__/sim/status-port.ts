// src/port.js as the simulation gives it: `brcloud status` installs its own port (its face's, with usePort) in the
// status report's process, apart from the run's. Each engine call goes to the port of the process that makes it: the
// status report's calls (the 'status' caller of ./transport.ts) to the one its command installed, every other call to
// the one the test file installed (./mocks.ts: the runner's). A read of the report through the engine alone (no
// command) installs none: its calls go to the test file's port, which keeps them apart (./mocks.ts, statusShown).
import type * as PortModule from '../../src/port.js'
import type { InputOptions, Port } from '../../src/port.js'
import { caller } from './transport.js'

let runs: Port | undefined
let report: Port | undefined

/** A new read of the report: no command has installed its port yet. */
export function resetStatusPort(): void {
  report = undefined
}

function port(): Port {
  const installed = caller.getStore() === 'status' ? (report ?? runs) : runs
  if (installed === undefined) throw new Error('No port is installed: the face calls usePort() before it runs the engine.')
  return installed
}

/** Every value export of src/port.ts (typed against it, so tsc names one that is missing). */
export const statusRoutedPort: typeof PortModule = {
  usePort: (p: Port) => {
    if (caller.getStore() === 'status') report = p
    else runs = p
  },
  getInput: (name: string, options?: InputOptions) => port().getInput(name, options),
  setOutput: (name: string, value: string) => port().setOutput(name, value),
  info: (message: string) => port().info(message),
  warning: (message: string) => port().warning(message),
  error: (message: string) => port().error(message),
  notice: (message: string) => port().notice(message),
  debug: (message: string) => port().debug(message),
  isDebug: () => port().isDebug(),
  group: <T>(name: string, fn: () => Promise<T>) => port().group(name, fn),
  setSecret: (secret: string) => port().setSecret(secret),
  writeSummary: (markdown: string) => port().writeSummary(markdown),
  saveState: (name: string, value: string) => port().saveState(name, value),
  getState: (name: string) => port().getState(name),
  setFailed: (message: string) => port().setFailed(message),
  getIDToken: (audience: string) => port().getIDToken(audience),
  runContext: () => port().runContext()
}
