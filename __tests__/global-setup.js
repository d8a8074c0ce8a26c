// One temporary folder per test run: every suite's mkdtemp (brcd-*, brcloud-emulator-*, the action's RUNNER_TEMP)
// lands under it, because the workers, and the processes they start, inherit TMPDIR from here. The teardown
// removes it, so a run leaves the system temp folder as it found it (issue 23: about 600 folders a run before).
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export default function globalSetup() {
  const dir = mkdtempSync(join(tmpdir(), 'brcd-jest-'))
  process.env.BRCD_TEST_SYSTEM_TMPDIR = tmpdir()
  process.env.BRCD_TEST_TMPDIR = dir
  // os.tmpdir() reads TMPDIR on POSIX, TEMP and TMP on Windows.
  process.env.TMPDIR = dir
  process.env.TEMP = dir
  process.env.TMP = dir
}
