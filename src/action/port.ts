// The action's face: the engine's port (src/port.ts) on @actions/core, as a runner reads it. Inputs come from
// INPUT_* variables, outputs, state and the summary go to the runner's files, log lines and masks to stdout
// as workflow commands; the run's context from the runner's variables.
import * as core from '@actions/core'
import { runnerContext } from '../github/runner-context.js'
import type { Port } from '../port.js'

export const actionPort: Port = {
  getInput: (name, options) => core.getInput(name, options),
  setOutput: (name, value) => core.setOutput(name, value),
  info: (message) => core.info(message),
  warning: (message) => core.warning(message),
  error: (message) => core.error(message),
  notice: (message) => core.notice(message),
  debug: (message) => core.debug(message),
  isDebug: () => core.isDebug(),
  group: (name, fn) => core.group(name, fn),
  setSecret: (secret) => core.setSecret(secret),
  // Outside a runner (a local run) there is no summary file: nothing is written, quietly.
  writeSummary: async (markdown) => {
    if (!process.env.GITHUB_STEP_SUMMARY) return false
    await core.summary.addRaw(markdown).write()
    return true
  },
  // Only through the runner's state file. Without it (a local run), core.saveState would print the value
  // (a refresh token among them) as a workflow command on stdout, and there is no post step to read it anyway.
  saveState: (name, value) => {
    if (process.env.GITHUB_STATE) core.saveState(name, value)
  },
  getState: (name) => core.getState(name),
  setFailed: (message) => core.setFailed(message),
  getIDToken: (audience) => core.getIDToken(audience),
  runContext: () => runnerContext()
}
