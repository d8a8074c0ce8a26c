// The action's main step: the port on @actions/core installed, the runner told to run the post step too, then
// the engine's run() with the process's signals. Also the entry @github/local-action runs (its run() export).
import * as core from '@actions/core'
import { run as runEngine, type RunHost } from '../main.js'
import { usePort } from '../port.js'
import { STATE } from '../run-state.js'
import { actionPort } from './port.js'

/** The runner cancels a job with SIGINT, then SIGTERM 7.5 s later; a hung call is ended with process.exit. */
const PROCESS_HOST: RunHost = { signals: process, exit: (code) => process.exit(code) }

export async function run(host: RunHost = PROCESS_HOST): Promise<void> {
  usePort(actionPort)
  // First thing, and straight to @actions/core, as before the port: the runner hands this back to the post
  // step only, and the one bundle then runs as the post step (src/index.ts).
  core.saveState(STATE.isPost, 'true')
  // The runner reads the outcome from the outputs and setFailed's exit code: what the run returns is the CLI's.
  await runEngine(host)
}
