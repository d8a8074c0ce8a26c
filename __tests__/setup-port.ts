// Every test file starts with the action's port installed (src/action/port.ts, on @actions/core), as the bundle
// runs: a test that reads what the engine showed installs its own (test-port.ts).
import { actionPort } from '../src/action/port.js'
import { usePort } from '../src/port.js'

usePort(actionPort)
