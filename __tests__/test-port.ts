// The engine's port (src/port.ts) as a test gives it: the calls a test records (log lines, masks, saved state),
// every other call doing nothing. Installed in place of the action's port, which setup-port.ts installs for
// every test file.
import { runnerContext } from '../src/github/runner-context.js'
import { usePort, type Port } from '../src/port.js'

/** A port whose calls do nothing (no inputs, no state, no debug; a group runs its function; the runner's context), except `calls`. */
export function quietPort(calls: Partial<Port> = {}): Port {
  return {
    getInput: () => '',
    setOutput: () => undefined,
    info: () => undefined,
    warning: () => undefined,
    error: () => undefined,
    notice: () => undefined,
    debug: () => undefined,
    isDebug: () => false,
    group: (_name, fn) => fn(),
    setSecret: () => undefined,
    writeSummary: async () => true,
    saveState: () => undefined,
    getState: () => '',
    setFailed: () => undefined,
    getIDToken: async () => {
      throw new Error('This test gives no OIDC token.')
    },
    // The runner's variables, as the action's port reads them: a test sets GITHUB_SHA and the like.
    runContext: () => runnerContext(),
    ...calls
  }
}

/** Installs quietPort(calls): the engine's calls after this go to the test. */
export function useTestPort(calls: Partial<Port> = {}): void {
  usePort(quietPort(calls))
}
