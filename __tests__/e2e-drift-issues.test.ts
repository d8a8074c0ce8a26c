// End to end: drift issues through the status report's action bundle (status/dist/index.js; npm run build:status) as a
// scheduled workflow runs it (examples/drift-issues.yml): drift-issues: true with github-token, against two emulators
// as two stacks and the GitHub stand-in over real HTTP. The issues the stand-in holds after each run, and what it
// received: opened once, nothing written when nothing changed, closed when in sync; GitHub failing fails the step
// with its own reason; a bad input refused before any request. The stacks are only read.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_GITHUB_TOKEN, fakeSha } from '../src/emulator/github/server.js'
import { runAction, STATUS_ACTION, type ActionRun } from '../scripts/lib/run-action.js'
import { expectNoSecrets, secretsOf } from './e2e-support.js'
import { startFleet, type Fleet } from './status-fleet.js'

let fleet: Fleet
const workspace = mkdtempSync(join(tmpdir(), 'brcd-drift-issues-'))
const runs: ActionRun[] = []

beforeAll(async () => {
  fleet = await startFleet()
  writeFileSync(
    join(workspace, 'fleet.yml'),
    [
      'track: main',
      'stacks:',
      `  - name: eu\n    api-url: ${fleet.eu.url}`,
      `  - name: us\n    api-url: ${fleet.us.url}\n    login:\n      username-variable: US_USER\n      password-variable: US_PASS`,
      ''
    ].join('\n')
  )
}, 60_000)

afterAll(async () => {
  await fleet?.close()
})

afterEach(() => {
  // Read-only for the platform: no upload, deploy, delete or logout on either stack; GitHub's writes only to issues.
  for (const emu of [fleet.eu, fleet.us])
    expect(emu.requests.filter((r) => ['upload', 'delete-distribution', 'deploy', 'logout'].includes(r.operation))).toEqual([])
  expect(fleet.github.calls.filter((c) => c.method !== 'GET' && !/^\/repos\/acme\/site\/(issues|labels)\b/.test(c.path))).toEqual([])
  expectNoSecrets(runs.splice(0), [...secretsOf(fleet.eu), ...secretsOf(fleet.us), DEFAULT_GITHUB_TOKEN])
})

async function step(inputs: Record<string, string>, runId: string): Promise<ActionRun> {
  const env = {
    BRCLOUD_USERNAME: fleet.eu.username,
    BRCLOUD_PASSWORD: fleet.eu.password,
    US_USER: fleet.us.username,
    US_PASS: fleet.us.password,
    GITHUB_API_URL: fleet.github.url,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_RUN_ID: runId
  }
  const r = await runAction({ config: 'fleet.yml', ...inputs }, { action: STATUS_ACTION, workspace, env })
  runs.push(r)
  return r
}

const DRIFT = { 'github-token': DEFAULT_GITHUB_TOKEN, 'drift-issues': 'true' }
const issues = () => fleet.github.model.issues.map((i) => [i.number, i.title, i.state, i.labels])
const writes = () => fleet.github.calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`)

test('a scheduled run opens one issue per drifted environment, the next writes nothing, one in sync again closes its issue', async () => {
  const first = await step(DRIFT, '101')
  expect({ code: first.code, errors: first.errors, drift: first.outputs.drift }).toEqual({ code: 0, errors: [], drift: 'true' })
  expect(issues()).toEqual([
    [1, 'Drift: eu/acceptance is behind (main)', 'open', ['brcloud-drift']],
    [2, 'Drift: us/production is outside', 'open', ['brcloud-drift']]
  ])
  expect(fleet.github.model.issue(1)?.body).toContain('Last written by [this run](https://github.example/acme/site/actions/runs/101).')
  expect(first.visible).toMatch(/^Drift issues: eu\/acceptance is behind: issue #1 opened \(https:\/\/github\.com\/acme\/site\/issues\/1\)\.$/m)
  expect(first.visible).toMatch(/^Drift issues: 2 opened, 0 updated, 0 closed\.$/m)

  fleet.github.calls.length = 0
  const second = await step(DRIFT, '102')
  expect(second.code).toBe(0)
  expect(writes()).toEqual([])
  expect(second.visible).toMatch(/^Drift issues: 0 opened, 0 updated, 0 closed\.$/m)

  // acceptance now runs main's head (by its name): its issue is closed, with a comment; production's stays open.
  const head = fleet.github.model.branchTip('main') ?? fakeSha('e')
  fleet.eu.deployAs('acceptance', await fleet.eu.addDistribution(`site-${head.slice(0, 7)}-distribution.tar.gz`, { 'index.html': 'e' }), { seconds: 0 })
  fleet.github.calls.length = 0
  const third = await step(DRIFT, '103')
  expect(third.code).toBe(0)
  expect(writes()).toEqual(['POST /repos/acme/site/issues/1/comments', 'PATCH /repos/acme/site/issues/1'])
  expect(issues()).toEqual([
    [1, 'Drift: eu/acceptance is behind (main)', 'closed', ['brcloud-drift']],
    [2, 'Drift: us/production is outside', 'open', ['brcloud-drift']]
  ])
  expect(fleet.github.model.issue(1)?.comments.map((c) => c.body)).toEqual([
    expect.stringMatching(
      /^eu\/acceptance runs the head of `main` again: `site-[0-9a-f]{7}-distribution\.tar\.gz` .*\(\[the run\]\(https:\/\/github\.example\/acme\/site\/actions\/runs\/103\)\)\.$/
    )
  ])
})

test('GitHub failing to keep the issues fails the step with its own reason; the report and its outputs are still there', async () => {
  fleet.github.fail('list-issues', { status: 403 })
  const r = await step(DRIFT, '104')
  expect(r.code).toBe(1)
  expect(r.errors).toEqual([
    '::error::drift-issues: a drift issue could not be kept (the report itself was read): Listing the open issues labelled brcloud-drift: HTTP 403 (Forbidden); no issue was opened, edited or closed.'
  ])
  expect(r.stdout).toContain('::warning::Drift issues: Listing the open issues labelled brcloud-drift: HTTP 403 (Forbidden)')
  expect(r.outputs.drift).toBe('true')
  expect(r.summary).toContain('## What runs where')
})

test('refused before any request: drift-issues without github-token, or not a boolean', async () => {
  const before = fleet.eu.requests.length + fleet.us.requests.length + fleet.github.calls.length
  const noToken = await step({ 'drift-issues': 'true' }, '105')
  expect({ code: noToken.code, errors: noToken.errors }).toEqual({
    code: 1,
    errors: ['::error::drift-issues is true, but no token is set: give github-token a token with issues: write (or gitlab-token one with scope api).']
  })
  const notBoolean = await step({ ...DRIFT, 'drift-issues': 'yes' }, '106')
  expect(notBoolean.errors).toEqual(["::error::drift-issues 'yes' is not a boolean: write true or false."])
  expect(fleet.eu.requests.length + fleet.us.requests.length + fleet.github.calls.length).toBe(before)
})
