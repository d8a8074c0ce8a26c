// A test run leaves the system temp folder as it found it: every temporary folder of the suites is made under
// one folder of the run (jest.config.js: global-setup.js makes it, global-teardown.js removes it).
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { runnerEnvironment } from '../scripts/lib/run-action.js'

test("the suites' temporary folders are made under the run's own folder, itself in the system temp folder", () => {
  const runDir = process.env.BRCD_TEST_TMPDIR
  expect(runDir).toMatch(/brcd-jest-/)
  expect(tmpdir()).toBe(runDir)
  expect(dirname(runDir ?? '')).toBe(process.env.BRCD_TEST_SYSTEM_TMPDIR)
  const made = mkdtempSync(join(tmpdir(), 'brcd-probe-'))
  expect(dirname(made)).toBe(runDir)
})

test("the bundle's own temporary files go to RUNNER_TEMP, inside the run's folder", () => {
  const dir = mkdtempSync(join(tmpdir(), 'brcd-run-'))
  expect(runnerEnvironment(dir, {}).env.RUNNER_TEMP?.startsWith(process.env.BRCD_TEST_TMPDIR ?? '/nowhere')).toBe(true)
})
