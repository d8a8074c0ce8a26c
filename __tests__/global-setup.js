// One temporary folder per test run: every suite's mkdtemp (brcd-*, brcloud-emulator-*, the action's RUNNER_TEMP)
// lands under it, because the workers, and the processes they start, inherit TMPDIR from here. The teardown
// removes it, so a run leaves the system temp folder as it found it (issue 23: about 600 folders a run before).
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The variables os.tmpdir() reads; the teardown puts back what they were before the run. */
const TEMP_VARIABLES = ['TMPDIR', 'TEMP', 'TMP']

export default function globalSetup() {
  const dir = mkdtempSync(join(tmpdir(), 'brcd-jest-'))
  // A process that runs Jest more than once (watch mode, Stryker's test runner: npm run mutation) would
  // otherwise start its next run inside this folder, removed by then.
  process.env.BRCD_TEST_SAVED_TEMP = JSON.stringify(Object.fromEntries(TEMP_VARIABLES.map((name) => [name, process.env[name] ?? null])))
  process.env.BRCD_TEST_SYSTEM_TMPDIR = tmpdir()
  process.env.BRCD_TEST_TMPDIR = dir
  // os.tmpdir() reads TMPDIR on POSIX, TEMP and TMP on Windows.
  for (const name of TEMP_VARIABLES) process.env[name] = dir
}
