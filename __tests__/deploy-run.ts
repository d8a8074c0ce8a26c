// The deploy step run in-process as the action runs it, for deploy-index and deploy-source: inputs read by their
// names, logged in with the emulator's script account, and the result kept also when the step fails. What it logs
// goes to the port the test file installed (test-port.ts); the modules are imported when first called.
import type { DeployResult } from '../src/deploy/result.js'
import type { Emulator } from '../src/emulator/server.js'
import type { DeployInputs } from '../src/inputs/index.js'

export interface DeployOutcome {
  result: DeployResult
  /** Why the step failed (StepFailed's cause); undefined when it passed. */
  error: unknown
  /** The phases entered, in order. */
  phases: string[]
}

/** The deploy inputs these values give, with the emulator's address and script account unless they say otherwise. */
export async function deployInputs(emu: Emulator, values: Record<string, string>): Promise<DeployInputs> {
  const { readInputs } = await import('../src/inputs/index.js')
  const given: Record<string, string> = { 'api-url': emu.url, username: emu.username, password: emu.password, ...values }
  const all = readInputs((name) => given[name] ?? '')
  if (all.deploy === undefined) throw new Error('no deploy inputs')
  return all.deploy
}

/** Runs deploy() with these inputs against the emulator; `verify` is the site check, as main passes it. */
export async function runDeploy(emu: Emulator, values: Record<string, string>, verify?: () => Promise<string | undefined>): Promise<DeployOutcome> {
  const { deploy } = await import('../src/deploy/index.js')
  const { StepFailed } = await import('../src/errors.js')
  const phases: string[] = []
  const phase = <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    phases.push(name)
    return fn()
  }
  const inputs = await deployInputs(emu, values)
  try {
    return { result: await deploy(inputs, phase, undefined, verify), error: undefined, phases }
  } catch (error) {
    if (!(error instanceof StepFailed)) throw error
    return { result: error.result as DeployResult, error: error.cause, phases }
  }
}
