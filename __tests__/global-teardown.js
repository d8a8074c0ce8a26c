// Removes the run's temporary folder (see global-setup.js), whatever the suites left in it.
import { rmSync } from 'node:fs'

export default function globalTeardown() {
  const dir = process.env.BRCD_TEST_TMPDIR
  if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
}
