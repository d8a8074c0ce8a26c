// run() when telling the event sinks fails before any send (src/main.ts tellSinks): one warning, the outcome unchanged,
// and no secret of the run in its words, even when the failure quotes one. Found by `npm run plant-deletions`: deleting
// that redact() survived every test (docs/reliability-and-security.md, "Planted deletions"). Real @actions/core, as a
// runner drives it; the sinks' module replaced by one that fails.
import { jest } from '@jest/globals'
import { runAsRunner } from './main-as-runner.js'

const PASSWORD = 'pw-of-this-run-0451'
jest.unstable_mockModule('../src/events/sinks.js', () => ({
  sinksFor: () => {
    throw new Error(`no sink could be made (login ${PASSWORD})`)
  }
}))
const { run } = await import('../src/main.js')

const saved = { ...process.env }
afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name]
  Object.assign(process.env, saved)
})

test('a failure before any send is one warning, with the password the run was given as ***', async () => {
  // Refused (a stack name that is not one DNS label) after the password was read: a refusal is told to the sinks too.
  const inputs = { stack: 'bad.stack', username: 'deployer', password: PASSWORD, 'distribution-id': 'abc', environment: 'production' }
  const { lines } = await runAsRunner(run, { ...inputs, 'events-url': 'https://events.example.com/cdevents' })
  const warnings = lines.filter((l) => l.startsWith('::warning::'))
  expect(warnings).toEqual(["::warning::Events: nothing was sent (no sink could be made (login ***)). The deployment's outcome is unchanged."])
})
