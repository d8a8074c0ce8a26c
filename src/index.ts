// One bundle serves both steps of action.yml, as actions/checkout does: the main step saves isPost first
// thing (src/action/main.ts), and the runner hands that state back to the post step only. The post step's
// modules load only there, so the main step loads what it did before. This file and src/action/ are the
// action's face: the only modules that import @actions/core.
import * as core from '@actions/core'
import { run } from './action/main.js'
import { actionPort } from './action/port.js'
import { usePort } from './port.js'
import { STATE } from './run-state.js'

if (core.getState(STATE.isPost) === 'true') {
  usePort(actionPort)
  void import('./post.js').then(({ runPost }) => runPost()).catch((e: unknown) => core.warning(`The post step could not start (${String(e)}).`))
} else {
  void run()
}
