// End to end: the status report's action (status/action.yml) as a runner runs its bundle (status/dist/index.js; npm
// run build:status): INPUT_* variables, the logins in the step's env:, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY, against
// two emulators as two stacks and the GitHub stand-in over real HTTP. The outputs json and drift, the summary, the
// verdict of `brcloud status` as the step's one failure (fails closed; fail-on), a bad input refused before any
// request, and no secret printed nor any call that changes a stack.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Emulator } from '../src/emulator/server.js'
import { DEFAULT_GITHUB_TOKEN, type GitHubStandIn } from '../src/emulator/github/server.js'
import { runAction, STATUS_ACTION, type ActionRun, type CancelPlan } from '../scripts/lib/run-action.js'
import { expectNoSecrets, secretsOf } from './e2e-support.js'
import { startFleet, type Fleet } from './status-fleet.js'

let eu: Emulator
let us: Emulator
let github: GitHubStandIn
/** The workspace: the config input is relative to it. */
const workspace = mkdtempSync(join(tmpdir(), 'brcd-status-action-'))
let downUrl: string

let fleet: Fleet | undefined
beforeAll(async () => {
  fleet = await startFleet()
  ;({ eu, us, github, downUrl } = fleet)
}, 60_000)

afterAll(async () => {
  await fleet?.close()
})

/** A configuration file in the workspace; its name, as a workflow's `config:` gives it. */
function config(name: string, stacks: string[]): string {
  writeFileSync(join(workspace, name), ['track: main', 'stacks:', ...stacks, ''].join('\n'))
  return name
}
const EU = (): string => `  - name: eu\n    api-url: ${eu.url}`
const US = (): string => `  - name: us\n    api-url: ${us.url}\n    login:\n      username-variable: US_USER\n      password-variable: US_PASS`

/** The step's env: the logins the file names (from secrets, in a workflow), and GitHub's API as the runner sets it. */
const ENV = (): Record<string, string> => ({
  BRCLOUD_USERNAME: eu.username,
  BRCLOUD_PASSWORD: eu.password,
  US_USER: us.username,
  US_PASS: us.password,
  GITHUB_API_URL: github.url,
  GITHUB_SERVER_URL: 'https://github.example'
})

const runs: ActionRun[] = []

async function step(inputs: Record<string, string>, env: Record<string, string> = ENV(), cancel?: CancelPlan): Promise<ActionRun> {
  const r = await runAction(inputs, { action: STATUS_ACTION, workspace, env, ...(cancel && { cancel }) })
  runs.push(r)
  return r
}

afterEach(() => {
  // Read-only: no upload, deploy, delete or logout on either stack, no write to GitHub; and no secret shown.
  for (const emu of [eu, us]) expect(emu.requests.filter((r) => ['upload', 'delete-distribution', 'deploy', 'logout'].includes(r.operation))).toEqual([])
  expect(github.calls.filter((c) => c.method !== 'GET')).toEqual([])
  expectNoSecrets(runs.splice(0), [...secretsOf(eu), ...secretsOf(us), DEFAULT_GITHUB_TOKEN])
})

const states = (r: ActionRun): unknown[] =>
  (JSON.parse(r.outputs.json ?? '{}') as { environments: Array<Record<string, unknown>> }).environments.map((e) => [
    e.stack,
    e.environment,
    e.state,
    e.evidence
  ])

test('the outputs json and drift, the summary and the table in the log; drift alone passes, fail-on behind,outside fails once', async () => {
  const file = config('fleet.yml', [EU(), US()])
  const r = await step({ config: file, 'github-token': DEFAULT_GITHUB_TOKEN })
  expect({ code: r.code, errors: r.errors, stderr: r.stderr }).toEqual({ code: 0, errors: [], stderr: '' })
  expect(states(r)).toEqual([
    ['eu', 'production', 'in-sync', 'deployment'],
    ['eu', 'acceptance', 'behind', 'name'],
    ['us', 'production', 'outside', 'unknown']
  ])
  expect(r.outputs.drift).toBe('true')
  // The repository is the workflow's (GITHUB_REPOSITORY) when the input is not given.
  expect(JSON.parse(r.outputs.json ?? '{}')).toMatchObject({ github: { repository: 'acme/site', errors: [] } })
  expect(r.summary).toMatch(/^## What runs where\n\nRepository: acme\/site\n\n\| Stack \| Environment \| State/)
  expect(r.visible).toMatch(/^STACK\s+ENVIRONMENT\s+STATE/m)
  expect(r.visible).toMatch(/^eu\s+acceptance\s+behind 1\s+-\s+main/m)
  // The token is masked the moment it is read.
  expect(r.stdout).toContain(`::add-mask::${DEFAULT_GITHUB_TOKEN}`)

  const failing = await step({ config: file, 'github-token': DEFAULT_GITHUB_TOKEN, 'fail-on': 'behind, outside' })
  expect(failing.code).toBe(1)
  expect(failing.errors).toEqual(['::error::fail-on behind,outside: eu/acceptance is behind; us/production is outside.'])
  // A failing step still reports: a later `if: failure()` step reads what drifted.
  expect(failing.outputs.drift).toBe('true')
  expect(states(failing)).toEqual(states(r))
  expect(failing.summary).toContain('## What runs where')
  // Each run logged in to each stack once and revoked its refresh token.
  for (const emu of [eu, us]) expect(emu.requests.filter((q) => q.operation === 'revoke-refresh')).toHaveLength(2)
})

test('every environment in-sync: drift false; the repository input names whose Deployments are read', async () => {
  const file = config('production.yml', [`${EU()}\n    environments: [production]`])
  const r = await step({ config: file, 'github-token': DEFAULT_GITHUB_TOKEN, repository: 'acme/site', 'fail-on': 'behind' })
  expect({ code: r.code, errors: r.errors, drift: r.outputs.drift }).toEqual({ code: 0, errors: [], drift: 'false' })
  expect(states(r)).toEqual([['eu', 'production', 'in-sync', 'deployment']])
  // A repository the token cannot see: GitHub is not read, and the step fails closed.
  const other = await step({ config: file, 'github-token': DEFAULT_GITHUB_TOKEN, repository: 'acme/other' })
  expect(other.code).toBe(1)
  expect(other.errors).toEqual([expect.stringMatching(/^::error::The report is not complete: GitHub could not be read/)])
  expect(other.outputs.drift).toBe('true')
})

test('a track GitHub does not know (a typo) fails the step once, naming the ref and where it was written', async () => {
  const why =
    "track 'mian' (typo.yml: stacks[0] (eu).track) is no branch, tag or commit that GitHub knows in acme/site: correct it (a misspelt name?), or push it"
  const r = await step({ config: config('typo.yml', [`${EU()}\n    track: mian\n    environments: [production]`]), 'github-token': DEFAULT_GITHUB_TOKEN })
  expect(r.code).toBe(1)
  expect(r.errors).toEqual([`::error::The report is not complete: ${why} (its rows read unknown).`])
  expect(JSON.parse(r.outputs.json ?? '{}')).toMatchObject({ environments: [{ state: 'unknown', reason: why }], github: { errors: [why] } })
  expect(r.summary).toContain(`**Not read** (the report fails closed):\n\n- ${why}`)
  // With the track as an input instead of a file: named as the input.
  const input = await step({
    'api-url': eu.url,
    environments: 'production',
    track: 'mian',
    username: eu.username,
    password: eu.password,
    'github-token': DEFAULT_GITHUB_TOKEN
  })
  expect(input.errors).toEqual([`::error::The report is not complete: ${why.replace('typo.yml: stacks[0] (eu).track', 'track')} (its rows read unknown).`])
})

test('a stack that cannot be read fails the step (fails closed), its row unknown, the others read', async () => {
  const r = await step({ config: config('down.yml', [EU(), `  - name: down\n    api-url: ${downUrl}`]), 'github-token': DEFAULT_GITHUB_TOKEN })
  expect(r.code).toBe(1)
  expect(r.errors).toEqual([expect.stringMatching(/^::error::The report is not complete: stack down could not be read \(its rows read unknown\)\.$/)])
  const json = JSON.parse(r.outputs.json ?? '{}') as { environments: Array<Record<string, unknown>>; stacks: Array<Record<string, unknown>> }
  expect(json.environments.find((e) => e.stack === 'down')).toMatchObject({
    environment: null,
    state: 'unknown',
    reason: expect.stringMatching(/could not be read/)
  })
  expect(json.environments.find((e) => e.stack === 'eu')?.state).toBe('in-sync')
  expect(json.stacks.map((s) => [s.name, s.read])).toEqual([
    ['eu', true],
    ['down', false]
  ])
  expect(r.summary).toContain('**Not read** (the report fails closed)')
})

test('refused before any request, one failure each: a bad file, a login not set, a bad fail-on or parallel, no config', async () => {
  const before = eu.requests.length + us.requests.length + github.calls.length
  writeFileSync(join(workspace, 'bad.yml'), `stacks:\n  - name: eu\n    api-url: ${eu.url}\n    password: hunter2\n`)
  const cases: Array<[Record<string, string>, Record<string, string>, RegExp]> = [
    [{ config: 'bad.yml' }, ENV(), /^::error::bad\.yml: stacks\[0\] \(eu\) has an unknown key 'password'/],
    [{ config: 'missing.yml' }, ENV(), /^::error::The configuration file missing\.yml could not be read \(ENOENT\)\.$/],
    [
      { config: config('nologin.yml', [EU(), US()]) },
      { ...ENV(), US_PASS: '' },
      /Stack 'us': its login's password-variable names US_PASS, which is not set or empty/
    ],
    [{ config: 'nologin.yml', 'fail-on': 'behind,late' }, ENV(), /^::error::fail-on names 'late': the states are in-sync, /],
    [{ config: 'nologin.yml', parallel: '0' }, ENV(), /^::error::parallel '0' is not a number from 1 to 32\.$/],
    [{}, ENV(), /^::error::Nothing to report on: set config to the YAML file that names the stacks, or stack \(or console-url, or api-url\)/],
    [{ config: 'nologin.yml', stack: 'eu', username: 'u' }, ENV(), /^::error::config and stack, username are both set: /],
    [{ 'api-url': eu.url, username: eu.username }, ENV(), /^::error::Input password is required/]
  ]
  for (const [inputs, env, error] of cases) {
    const r = await step(inputs, env)
    expect({ inputs, code: r.code, outputs: r.outputs }).toEqual({ inputs, code: 1, outputs: {} })
    expect(r.errors).toEqual([expect.stringMatching(error)])
  }
  expect(eu.requests.length + us.requests.length + github.calls.length).toBe(before)
})

test("a single stack's inputs instead of a file: the deploy action's login inputs, the password masked, the environments and track", async () => {
  const before = us.requests.length
  // A freeze window from yesterday to tomorrow (UTC), by the deploy-freeze input: in force for both environments.
  const day = (offset: number): string => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)
  const window = `${day(-1)}T00:00 .. ${day(1)}T00:00 UTC`
  const r = await step(
    {
      stack: 'eu',
      'api-url': eu.url,
      environments: 'acceptance\nproduction',
      track: 'main',
      'deploy-freeze': window,
      username: eu.username,
      password: eu.password,
      'github-token': DEFAULT_GITHUB_TOKEN
    },
    // No login in env: a single stack logs in with its inputs alone.
    { GITHUB_API_URL: github.url, GITHUB_SERVER_URL: 'https://github.example' }
  )
  expect({ code: r.code, errors: r.errors }).toEqual({ code: 0, errors: [] })
  expect(states(r)).toEqual([
    ['eu', 'acceptance', 'behind', 'name'],
    ['eu', 'production', 'in-sync', 'deployment']
  ])
  const rows = (JSON.parse(r.outputs.json ?? '{}') as { environments: Array<{ freeze: { window: string; endsAt: string } | null }> }).environments
  expect(rows.map((e) => e.freeze && [e.freeze.window, e.freeze.endsAt])).toEqual([
    [window, `${day(1)}T00:00:00.000Z`],
    [window, `${day(1)}T00:00:00.000Z`]
  ])
  expect(r.summary).toContain(`'${window}' (line 1) until `)
  expect(r.stdout).toContain(`::add-mask::${eu.password}`)
  // It logged in to eu with the inputs, and revoked the refresh token; us was not asked anything.
  const logins = eu.requests.filter((q) => q.operation === 'login')
  expect(logins.at(-1)?.status).toBe(200)
  expect(eu.requests.at(-1)?.operation).toBe('revoke-refresh')
  expect(us.requests.length).toBe(before)
})

test('a health probe per environment and a tag pattern as the track: fail-on unhealthy fails the step, the JSON says why', async () => {
  github.model.tag('v1.0.0', github.model.branchTip('main') as string)
  const r = await step({
    config: config('health.yml', [
      `${EU()}\n    track: v*\n    health-url: ${eu.url}/sites/{environment}/index.html\n    health-expect: e\n    environments:\n      - production\n      - name: acceptance\n        track: main`
    ]),
    'github-token': DEFAULT_GITHUB_TOKEN,
    'fail-on': 'unhealthy'
  })
  const json = JSON.parse(r.outputs.json ?? '{}') as { environments: Array<Record<string, unknown>> }
  expect(json.environments.map((e) => [e.environment, e.state, e.trackedRef, e.health])).toEqual([
    ['production', 'in-sync', 'v1.0.0', 'ok'],
    ['acceptance', 'behind', 'main', 'failing']
  ])
  expect(json.environments[1]?.healthReason).toMatch(/HTTP 200, but the page does not contain 'e'/)
  expect(r.code).toBe(1)
  expect(r.errors).toEqual(['::error::fail-on unhealthy: eu/acceptance is unhealthy.'])
  expect(r.visible).toMatch(/^eu\s+production\s+in-sync\s+ok\s+v1\.0\.0 \(v\*\)/m)
  expect(r.summary).toMatch(/\| eu \| acceptance \| \*\*behind 1\*\* \| failing \| main \|/)
  // GitHub was asked for the tags once; the sites got one GET each.
  expect(github.calls.filter((c) => c.route === 'list-tags')).toHaveLength(1)
  expect(eu.requests.filter((q) => q.url.startsWith('/sites/')).map((q) => `${q.method} ${q.url}`)).toEqual([
    'GET /sites/production/index.html',
    'GET /sites/acceptance/index.html'
  ])
})

test('a cancelled workflow (SIGINT) while a stack is read: the step fails once, saying so, after revoking that refresh token', async () => {
  let release: () => void = () => undefined
  us.holdRequests('list-environments', new Promise<void>((done) => (release = done)))
  const before = us.requests.length
  try {
    const r = await step({ config: config('cancel.yml', [US()]), 'github-token': DEFAULT_GITHUB_TOKEN }, ENV(), {
      when: () => us.requests.slice(before).some((q) => q.operation === 'list-environments')
    })
    expect(r.code).toBe(1)
    expect(r.errors).toEqual([
      "::error::The status report was cancelled (SIGINT): nothing was reported. Each stack's refresh token was revoked, or a warning says why not."
    ])
    expect(r.outputs).toEqual({})
    expect(us.requests.slice(before).map((q) => `${q.operation} ${q.status}`)).toEqual(['login 200', 'list-environments 0', 'revoke-refresh 200'])
    // Within GitHub's grace: before its SIGTERM (7.5 s after SIGINT).
    expect(r.exitAfterSigintMs).toBeLessThan(7_500)
  } finally {
    release()
  }
})
