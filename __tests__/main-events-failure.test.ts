// run() when telling the event sinks fails before any send (src/main.ts tellSinks): one warning, the outcome unchanged,
// and no secret of the run in its words, even when the failure quotes one. Found by `npm run plant-deletions`: deleting
// that redact() survived every test (docs/reliability-and-security.md, "Planted deletions"). Real @actions/core, as a
// runner drives it; the sinks' module replaced by one that fails.
import { jest } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const PASSWORD = 'pw-of-this-run-0451'
jest.unstable_mockModule('../src/events/sinks.js', () => ({
  sinksFor: () => {
    throw new Error(`no sink could be made (login ${PASSWORD})`)
  }
}))
const { run } = await import('../src/main.js')

const dir = mkdtempSync(join(tmpdir(), 'brcd-main-events-'))
const host = { signals: { on: () => undefined, off: () => undefined }, exit: () => undefined }
const saved = { ...process.env }
afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name]
  Object.assign(process.env, saved)
})

test('a failure before any send is one warning, with the password the run was given as ***', async () => {
  for (const name of Object.keys(process.env)) if (name.startsWith('INPUT_')) delete process.env[name]
  // Refused (a stack name that is not one DNS label) after the password was read: a refusal is told to the sinks too.
  const inputs = { stack: 'bad.stack', username: 'deployer', password: PASSWORD, 'distribution-id': 'abc', environment: 'production' }
  for (const [name, value] of Object.entries({ ...inputs, 'events-url': 'https://events.example.com/cdevents' }))
    process.env[`INPUT_${name.toUpperCase()}`] = value
  for (const name of ['output', 'state', 'summary.md']) writeFileSync(join(dir, name), '')
  Object.assign(process.env, { GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STATE: join(dir, 'state'), GITHUB_STEP_SUMMARY: join(dir, 'summary.md') })
  const out: string[] = []
  const write = process.stdout.write.bind(process.stdout)
  process.stdout.write = ((chunk: string | Uint8Array) => out.push(String(chunk)) > 0) as typeof process.stdout.write
  try {
    await run(host)
  } finally {
    process.stdout.write = write
    process.exitCode = 0
  }
  const warnings = out
    .join('')
    .split('\n')
    .filter((l) => l.startsWith('::warning::'))
  expect(warnings).toEqual(["::warning::Events: nothing was sent (no sink could be made (login ***)). The deployment's outcome is unchanged."])
})
