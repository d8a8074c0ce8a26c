// The scheduled drift workflow (examples/drift-issues.yml) against the status action it uses (status/action.yml):
// every input it passes is one the action declares, drift issues are on with the workflow's own token, the
// permissions are the ones the report and its issues need (docs/status.md), it runs daily and by hand, and every
// credential comes from secrets. Read as GitHub reads it (YAML through the yaml package).
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'

const read = (path: string): Record<string, unknown> =>
  parse(readFileSync(fileURLToPath(new URL(`../${path}`, import.meta.url)), 'utf8')) as Record<string, unknown>

const workflow = read('examples/drift-issues.yml') as {
  on: Record<string, unknown>
  permissions: Record<string, string>
  concurrency: Record<string, unknown>
  jobs: Record<string, { steps: Array<{ uses?: string; with?: Record<string, unknown>; env?: Record<string, string> }> }>
}
const statusInputs = Object.keys((read('status/action.yml') as { inputs: Record<string, unknown> }).inputs)
const steps = Object.values(workflow.jobs).flatMap((j) => j.steps)
const statusSteps = steps.filter((s) => /^brcloud\/brcloud-deploy\/status@/.test(s.uses ?? ''))

test('the status step passes only inputs status/action.yml declares, drift-issues on, with the workflow token and a config file', () => {
  expect(statusSteps).toHaveLength(1)
  const step = statusSteps[0] ?? {}
  for (const input of Object.keys(step.with ?? {})) expect(statusInputs).toContain(input)
  expect(step.with).toMatchObject({ 'drift-issues': true, 'github-token': '${{ github.token }}', config: expect.stringMatching(/\.ya?ml$/) })
  // The logins through env:, each from a secret; never an input.
  expect(Object.values(step.env ?? {}).length).toBeGreaterThan(0)
  for (const value of Object.values(step.env ?? {})) expect(value).toMatch(/^\$\{\{ secrets\.[A-Z_]+ \}\}$/)
  // The configuration file is in the repository: checked out first.
  expect(steps.findIndex((s) => (s.uses ?? '').startsWith('actions/checkout@'))).toBeLessThan(steps.indexOf(step))
})

test('daily and by hand, one run at a time, with the permissions the report and its issues need and no more', () => {
  expect(workflow.on.schedule).toEqual([{ cron: expect.stringMatching(/^\d+ \d+ \* \* \*$/) }])
  expect(workflow.on).toHaveProperty('workflow_dispatch')
  expect(workflow.permissions).toEqual({ contents: 'read', deployments: 'read', issues: 'write' })
  expect(workflow.concurrency).toMatchObject({ group: expect.any(String), 'cancel-in-progress': false })
})
