// One bundle serves both steps of action.yml, as actions/checkout does: run() saves isPost first
// thing, and the runner hands that state back to the post step only. The post step's modules load
// only there, so the main step loads what it did before.
import * as core from '@actions/core'
import { run } from './main.js'
import { STATE } from './run-state.js'

if (core.getState(STATE.isPost) === 'true') {
  void import('./post.js').then(({ runPost }) => runPost()).catch((e: unknown) => core.warning(`The post step could not start (${String(e)}).`))
} else {
  void run()
}
