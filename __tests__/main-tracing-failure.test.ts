// run() when sending the trace fails in a way send.ts does not catch itself (src/main.ts sendTrace): one warning, the
// outcome unchanged, and no secret of the run in its words, even when the failure quotes one. Found by `npm run
// plant-deletions` (issue 46): deleting that redact() survived every test. Real @actions/core, as a runner drives it;
// the tracing module replaced by one that fails.
import { jest } from '@jest/globals'
import { runAsRunner } from './main-as-runner.js'

const PASSWORD = 'pw-of-this-run-7731'
jest.unstable_mockModule('../src/tracing/index.js', () => ({
  runPlan: () => () => ({}),
  traceRun: () => Promise.reject(new Error(`the exporter could not be made (login ${PASSWORD})`))
}))
const { run } = await import('../src/main.js')

const saved = { ...process.env }
afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name]
  Object.assign(process.env, saved)
})

test('a failure of the trace is one warning, with the password the run was given as ***; the failure is the run’s own', async () => {
  for (const name of Object.keys(process.env)) if (name.startsWith('OTEL_')) delete process.env[name]
  // Refused (a stack name that is not one DNS label) after the password was read: a refused run is traced too.
  const inputs = { stack: 'bad.stack', username: 'deployer', password: PASSWORD, 'distribution-id': 'abc', environment: 'production' }
  const { lines } = await runAsRunner(run, { ...inputs, 'otel-endpoint': 'http://127.0.0.1:4318' })
  expect(lines.filter((l) => l.startsWith('::warning::'))).toEqual([
    "::warning::Tracing: nothing was sent (the exporter could not be made (login ***)). The deployment's outcome is unchanged."
  ])
  expect(lines.filter((l) => l.startsWith('::error::'))).toEqual([expect.stringMatching(/^::error::stack 'bad.stack' is not a valid stack name/)])
  // Every line but the runner's own mask command is free of it.
  expect(lines.filter((l) => !l.startsWith('::add-mask::') && l.includes(PASSWORD))).toEqual([])
})
