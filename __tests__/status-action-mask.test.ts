// The status report's action (src/action/status.ts) from its source, in-process: importing the module runs the step, as
// the runner runs its bundle. Its github-token is masked for the runner the moment it is read, before anything else
// could be written (here a refusal of its inputs): found by `npm run plant-deletions`, where deleting that mask
// survived every test (docs/reliability-and-security.md, "Planted deletions"). One run per file: a module runs once.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { maskedValues } from '../scripts/lib/run-action.js'

const TOKEN = 'ghs_statusStepToken0123456789abcdef'
const dir = mkdtempSync(join(tmpdir(), 'brcd-status-mask-'))
const saved = { ...process.env }

afterAll(() => {
  process.env = saved
  // The step failed through core.setFailed, which sets the process's exit code: not this test's.
  process.exitCode = 0
})

test('github-token is masked before the refusal of the repository is written', async () => {
  for (const [name, value] of Object.entries({ GITHUB_OUTPUT: 'output', GITHUB_STEP_SUMMARY: 'summary.md', GITHUB_STATE: 'state' })) {
    writeFileSync(join(dir, value), '')
    process.env[name] = join(dir, value)
  }
  process.env['INPUT_GITHUB-TOKEN'] = TOKEN
  process.env.INPUT_REPOSITORY = 'not a repository'
  const out: string[] = []
  const write = process.stdout.write.bind(process.stdout)
  process.stdout.write = ((chunk: string | Uint8Array) => out.push(String(chunk)) > 0) as typeof process.stdout.write
  try {
    await import('../src/action/status.js')
    // The step ends with its one failure: wait for it (the order of events, not a time).
    while (!out.join('').includes('::error::')) await new Promise((next) => setImmediate(next))
  } finally {
    process.stdout.write = write
  }
  const log = out.join('')
  expect(log).toContain("::error::github-token is set, but repository 'not a repository' is not owner/name.")
  expect(maskedValues(log)).toContain(TOKEN)
  expect(log.indexOf(`::add-mask::${TOKEN}`)).toBeLessThan(log.indexOf('::error::'))
})
