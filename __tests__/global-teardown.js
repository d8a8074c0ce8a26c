// Removes the run's temporary folder (see global-setup.js), whatever the suites left in it, and puts back the
// temp variables as they were before the run.
import { rmSync } from 'node:fs'

export default function globalTeardown() {
  const dir = process.env.BRCD_TEST_TMPDIR
  if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
  const saved = JSON.parse(process.env.BRCD_TEST_SAVED_TEMP ?? '{}')
  for (const [name, value] of Object.entries(saved)) {
    if (value === null) delete process.env[name]
    else process.env[name] = value
  }
  for (const name of ['BRCD_TEST_SAVED_TEMP', 'BRCD_TEST_SYSTEM_TMPDIR', 'BRCD_TEST_TMPDIR']) delete process.env[name]
}
