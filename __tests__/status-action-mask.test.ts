// The status report's action (src/action/status.ts) from its source, in-process: importing the module runs the step, as
// the runner runs its bundle. Its github-token and a single stack's password are masked for the runner the moment they
// are read, before anything else could be written (here a refusal of its inputs): found by `npm run plant-deletions`,
// where deleting either mask survived every test (docs/reliability-and-security.md, "Planted deletions"). One run per
// file: a module runs once.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { maskedValues } from '../scripts/lib/run-action.js'

const TOKEN = 'ghs_statusStepToken0123456789abcdef'
const PASSWORD = 'pw-single-stack-0451'
const dir = mkdtempSync(join(tmpdir(), 'brcd-status-mask-'))
const saved = { ...process.env }

afterAll(() => {
  // The variables this run set, put back as they were.
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name]
  Object.assign(process.env, saved)
  // The step failed through core.setFailed, which sets the process's exit code: not this test's.
  process.exitCode = 0
})

test('github-token and the password are masked before the refusal of a file and a stack both set is written', async () => {
  for (const [name, value] of Object.entries({ GITHUB_OUTPUT: 'output', GITHUB_STEP_SUMMARY: 'summary.md', GITHUB_STATE: 'state' })) {
    writeFileSync(join(dir, value), '')
    process.env[name] = join(dir, value)
  }
  process.env['INPUT_GITHUB-TOKEN'] = TOKEN
  // A file and a single stack's inputs both set: refused, after every input was read.
  Object.assign(process.env, { INPUT_REPOSITORY: 'acme/site', INPUT_CONFIG: 'fleet.yml', INPUT_STACK: 'acme', INPUT_PASSWORD: PASSWORD })
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
  expect(log).toMatch(/::error::config and stack, password are both set: /)
  expect(maskedValues(log)).toEqual(expect.arrayContaining([TOKEN, PASSWORD]))
  for (const secret of [TOKEN, PASSWORD]) expect(log.indexOf(`::add-mask::${secret}`)).toBeLessThan(log.indexOf('::error::'))
})
