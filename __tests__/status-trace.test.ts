// The status report's trace as planned (src/tracing/status-plan.ts) from a real report: the end-to-end fleet (two
// emulators as two stacks, the GitHub stand-in) read in-process, with a health probe on eu and a stack that does not
// answer. The tree and its parents; each row's attributes exactly its values in --json, each stack's its entry in
// --json's stacks; the code host's calls as client spans, one per compare GitHub answered; every span's times within
// its parent's; the root's CICD attributes and status from how the command ended.
import { DEFAULT_GITHUB_TOKEN, fakeSha } from '../src/emulator/github/server.js'
import type { PlannedSpan } from '../src/tracing/plan.js'
import { runOfAcmeSite } from './github-run.js'
import { startFleet } from './status-fleet.js'
import { useTestPort } from './test-port.js'
import { asAttributes } from './status-trace-attributes.js'

const fleet = await startFleet()
runOfAcmeSite(fleet.github.url, fakeSha('run'))
const { parseStatusConfig, prepareStatus, readStatus } = await import('../src/status/index.js')
const { statusJson } = await import('../src/status/render.js')
const { planStatusTrace } = await import('../src/tracing/status-plan.js')
const { runnerContext } = await import('../src/github/runner-context.js')

type Report = Awaited<ReturnType<typeof readStatus>>

const FILE = (): string => `
track: main
stacks:
  - name: eu
    api-url: ${fleet.eu.url}
    health-url: ${fleet.eu.url}/sites/{environment}/index.html
    health-expect: e
  - name: us
    api-url: ${fleet.us.url}
    login:
      username-variable: US_USER
      password-variable: US_PASS
  - name: down
    api-url: ${fleet.downUrl}
    environments: [production]
`
const ENV = (): NodeJS.ProcessEnv => ({
  BRCLOUD_USERNAME: fleet.eu.username,
  BRCLOUD_PASSWORD: fleet.eu.password,
  US_USER: fleet.us.username,
  US_PASS: fleet.us.password
})
const QUICK = { attempts: 1, baseDelayMs: 10, maxDelayMs: 20, maxTotalMs: 1_000 }
const context = { ...runnerContext(), repository: 'acme/site', runUrl: 'https://github.example/acme/site/actions/runs/4242' }

let report: Report
let startedAt: number
let endedAt: number
let comparesAnswered: number

beforeAll(async () => {
  useTestPort()
  startedAt = Date.now()
  const before = fleet.github.calls.length
  report = await readStatus(prepareStatus(parseStatusConfig(FILE(), 'fleet.yml'), ENV()), {
    github: { token: DEFAULT_GITHUB_TOKEN, context },
    repository: 'acme/site',
    retry: QUICK
  })
  endedAt = Date.now()
  comparesAnswered = fleet.github.calls.slice(before).filter((c) => c.route === 'compare').length
}, 60_000)

afterAll(async () => {
  await fleet.close()
})

const failed = { result: 'failure', errorType: 'unreadable', message: 'The report is not complete: stack down could not be read.', exitCode: 1 } as const
const plan = (): PlannedSpan => planStatusTrace(report, { context, startedAt, endedAt, ending: failed })

function everySpan(span: PlannedSpan, parent?: PlannedSpan): Array<{ span: PlannedSpan; parent: PlannedSpan | undefined }> {
  return [{ span, parent }, ...span.children.flatMap((child) => everySpan(child, span))]
}

test('the tree: the command, a span per stack with a span per row in it, the probe in its row, the host calls under the root', () => {
  const root = plan()
  expect({ name: root.name, kind: root.kind }).toEqual({ name: 'brcloud status', kind: 'internal' })
  const stacks = root.children.filter((c) => c.name === 'read stack')
  expect(stacks.map((s) => s.attributes['brcloud.stack']).sort()).toEqual(['down', 'eu', 'us'])
  const rowsOf = (stack: string): unknown[] =>
    (stacks.find((s) => s.attributes['brcloud.stack'] === stack)?.children ?? []).map((r) => [r.name, r.attributes['brcloud.environment'] ?? null])
  expect(rowsOf('eu').sort()).toEqual([
    ['read environment', 'acceptance'],
    ['read environment', 'production']
  ])
  expect(rowsOf('us')).toEqual([['read environment', 'production']])
  expect(rowsOf('down')).toEqual([['read environment', 'production']])
  // The probe's one GET in each eu row; none where no probe is set.
  const eu = stacks.find((s) => s.attributes['brcloud.stack'] === 'eu') as PlannedSpan
  for (const row of eu.children) expect(row.children.map((c) => [c.name, c.kind, c.attributes['http.request.method']])).toEqual([['GET', 'client', 'GET']])
  const acceptanceProbe = eu.children.find((r) => r.attributes['brcloud.environment'] === 'acceptance')?.children[0]
  expect(acceptanceProbe).toMatchObject({
    status: { code: 'error' },
    attributes: { 'url.full': `${fleet.eu.url}/sites/acceptance/index.html`, 'http.response.status_code': 200 }
  })
  expect(eu.children.find((r) => r.attributes['brcloud.environment'] === 'production')?.children[0]?.status).toEqual({ code: 'unset' })
  // Each call to the code's host is a client span of the root: one per compare GitHub answered.
  const calls = root.children.filter((c) => c.name !== 'read stack')
  expect(calls.every((c) => c.kind === 'client' && c.attributes['brcloud.code_host'] === 'GitHub' && c.children.length === 0)).toBe(true)
  expect(calls.filter((c) => c.name === 'GitHub compare')).toHaveLength(comparesAnswered)
  expect(comparesAnswered).toBeGreaterThan(0)
  expect(new Set(calls.map((c) => c.name))).toEqual(new Set(['GitHub compare', 'GitHub list deployments', 'GitHub deployment status']))
})

test("each row's attributes are exactly its values in --json; each stack's its entry in --json's stacks", () => {
  const json = JSON.parse(statusJson(report)) as { environments: Array<Record<string, unknown>>; stacks: Array<Record<string, unknown>> }
  const stacks = plan().children.filter((c) => c.name === 'read stack')
  const rows = stacks.flatMap((s) => s.children)
  expect(rows).toHaveLength(json.environments.length)
  for (const row of json.environments) {
    const span = rows.find((r) => r.attributes['brcloud.stack'] === row.stack && (r.attributes['brcloud.environment'] ?? null) === row.environment)
    expect(span?.attributes).toEqual(asAttributes(row))
  }
  // A few by name, as a trace viewer shows them.
  const production = rows.find((r) => r.attributes['brcloud.stack'] === 'eu' && r.attributes['brcloud.environment'] === 'production')
  expect(production?.attributes).toMatchObject({
    'brcloud.status.state': 'in-sync',
    'brcloud.status.evidence': 'deployment',
    'brcloud.status.tracked_ref': 'main',
    'brcloud.status.health': 'ok',
    'brcloud.status.last_deployment.state': 'success',
    'brcloud.status.backup.state': expect.any(String)
  })
  expect(production?.attributes['brcloud.status.distribution_id']).toBe(report.environments[0]?.distributionId)
  for (const entry of json.stacks) {
    const span = stacks.find((s) => s.attributes['brcloud.stack'] === entry.name)
    const errors = entry.errors as string[]
    expect(span?.attributes).toEqual({
      'brcloud.stack': entry.name,
      'brcloud.stack.api_url': entry.apiUrl,
      'brcloud.stack.read': entry.read,
      ...(errors.length > 0 && { 'brcloud.stack.errors': errors })
    })
  }
})

test('what could not be read is an error: the stack that does not answer, and its row, with the reason', () => {
  const stacks = plan().children.filter((c) => c.name === 'read stack')
  const down = stacks.find((s) => s.attributes['brcloud.stack'] === 'down') as PlannedSpan
  expect(down.status).toEqual({ code: 'error', message: expect.stringMatching(/^the stack could not be read: /) })
  expect(down.children[0]?.status).toEqual({ code: 'error', message: down.status.message })
  for (const read of stacks.filter((s) => s !== down)) {
    expect(read.status).toEqual({ code: 'ok' })
    for (const row of read.children) expect(row.status).toEqual({ code: 'ok' })
  }
})

test("every span's times are observed and within its parent's; the rows' are their own reads, not their stack's", () => {
  const root = plan()
  expect([root.start, root.end]).toEqual([startedAt, endedAt])
  for (const { span, parent } of everySpan(root)) {
    expect(span.end).toBeGreaterThanOrEqual(span.start)
    if (parent === undefined) continue
    expect(span.start).toBeGreaterThanOrEqual(parent.start)
    expect(span.end).toBeLessThanOrEqual(parent.end)
  }
  // A stack's span is its read; a row's, its environment's own read within it (after the login and the listing).
  const eu = root.children.find((s) => s.attributes['brcloud.stack'] === 'eu') as PlannedSpan
  const timing = report.stacks.find((s) => s.name === 'eu')?.timing
  expect([eu.start, eu.end]).toEqual([timing?.startedAt, timing?.endedAt])
  expect(timing?.environments).toHaveLength(2)
  for (const own of timing?.environments ?? []) {
    const row = eu.children.find((r) => r.attributes['brcloud.environment'] === own.environment)
    expect([row?.start, row?.end]).toEqual([own.startedAt, own.endedAt])
    expect([row?.children[0]?.start, row?.children[0]?.end]).toEqual([own.probe?.startedAt, own.probe?.endedAt])
  }
  // The stack that did not answer read no row on its own: its row is its stack's read.
  const down = root.children.find((s) => s.attributes['brcloud.stack'] === 'down') as PlannedSpan
  expect([down.children[0]?.start, down.children[0]?.end]).toEqual([down.start, down.end])
})

test("the root: OpenTelemetry's CICD task-run attributes and the status from how the command ended", () => {
  const root = plan()
  expect(root.attributes).toEqual({
    'cicd.pipeline.task.name': 'brcloud status',
    'cicd.pipeline.task.run.result': 'failure',
    'cicd.pipeline.run.id': '4242',
    'cicd.pipeline.run.url.full': 'https://github.example/acme/site/actions/runs/4242',
    'error.type': 'unreadable',
    'vcs.repository.name': 'site',
    'vcs.repository.url.full': 'https://github.example/acme/site',
    'brcloud.status.exit_code': 1,
    'brcloud.status.code_host': 'GitHub',
    'brcloud.status.environments': 4,
    'brcloud.status.drift': true
  })
  expect(root.status).toEqual({ code: 'error', message: failed.message })
  const passed = planStatusTrace(report, { context, startedAt, endedAt, ending: { result: 'success', exitCode: 0 } })
  expect(passed.status).toEqual({ code: 'ok' })
  expect(passed.attributes).toMatchObject({ 'cicd.pipeline.task.run.result': 'success', 'brcloud.status.exit_code': 0 })
  expect(passed.attributes['error.type']).toBeUndefined()
})

test('no report (refused, or cancelled): the root alone, claiming nothing of stacks or rows', () => {
  const cancelled = planStatusTrace(undefined, {
    context,
    startedAt,
    endedAt,
    ending: { result: 'cancellation', errorType: 'cancelled', message: 'The status report was cancelled (SIGINT): nothing was reported.', stopped: 'cancel' }
  })
  expect(cancelled.children).toEqual([])
  expect(cancelled.status).toEqual({ code: 'error', message: 'The status report was cancelled (SIGINT): nothing was reported.' })
  expect(cancelled.attributes).toEqual({
    'cicd.pipeline.task.name': 'brcloud status',
    'cicd.pipeline.task.run.result': 'cancellation',
    'cicd.pipeline.run.id': '4242',
    'cicd.pipeline.run.url.full': 'https://github.example/acme/site/actions/runs/4242',
    'error.type': 'cancelled',
    'brcloud.status.stopped': 'cancel'
  })
  const refused = planStatusTrace(undefined, {
    context,
    startedAt,
    endedAt,
    ending: { result: 'failure', errorType: 'InputError', message: 'fleet.yml: bad', exitCode: 2 }
  })
  expect(refused).toMatchObject({ children: [], status: { code: 'error', message: 'fleet.yml: bad' }, attributes: { 'error.type': 'InputError' } })
})

test("a call the code's host refused is an error span naming the failure, as the report's rows say GitHub could not be read", async () => {
  const file = `track: main\nstacks:\n  - name: eu\n    api-url: ${fleet.eu.url}\n    environments: [production]\n`
  const refused = await readStatus(prepareStatus(parseStatusConfig(file, 'eu.yml'), ENV()), {
    github: { token: 'ghs_not-a-token', context },
    repository: 'acme/site',
    retry: QUICK
  })
  expect(refused.githubErrors).toEqual([expect.stringMatching(/^GitHub could not be read: /)])
  const root = planStatusTrace(refused, { context, startedAt, endedAt: Date.now(), ending: failed })
  const calls = root.children.filter((c) => c.kind === 'client')
  expect(calls.length).toBeGreaterThan(0)
  for (const call of calls) expect(call).toMatchObject({ status: { code: 'error', message: 'bad-token' }, attributes: { 'error.type': 'bad-token' } })
  expect(root.attributes['brcloud.status.code_host.errors']).toEqual(refused.githubErrors)
  const row = root.children.find((c) => c.name === 'read stack')?.children[0]
  expect(row?.status).toEqual({ code: 'error', message: refused.githubErrors[0] })
})

// Last: a secret registered stays masked for the rest of the file.
test('a secret the report masks is masked in the trace too: the attributes stay equal to --json', async () => {
  const { registerSecret } = await import('../src/secrets.js')
  const name = report.environments.find((r) => r.stack === 'eu' && r.environment === 'production')?.distributionName as string
  registerSecret(name)
  const json = JSON.parse(statusJson(report)) as { environments: Array<Record<string, unknown>> }
  const row = plan()
    .children.flatMap((s) => s.children)
    .find((r) => r.attributes['brcloud.stack'] === 'eu' && r.attributes['brcloud.environment'] === 'production')
  expect(row?.attributes['brcloud.status.distribution_name']).toBe('***')
  expect(row?.attributes).toEqual(asAttributes(json.environments.find((e) => e.stack === 'eu' && e.environment === 'production') as Record<string, unknown>))
})

// Last: it registers secrets that appear in the fleet's addresses, which every later plan would mask.
test("every text the trace carries is scrubbed: a stack's error, a row's reason, the probe's address and answer, the ending's message", async () => {
  const { registerSecret } = await import('../src/secrets.js')
  const down = new URL(fleet.downUrl).host
  const eu = new URL(fleet.eu.url).host
  for (const secret of [down, eu, 'HTTP 200', 'ending-s3cret']) registerSecret(secret)
  const traced = planStatusTrace(report, { context, startedAt, endedAt, ending: { ...failed, message: `not complete: ending-s3cret` } })
  // (The stacks' API addresses are their --json entries, which are not secrets: left as they are.)
  const texts = JSON.stringify(
    everySpan(traced).map(({ span }) => [span.status, Object.entries(span.attributes).filter(([k]) => k !== 'brcloud.stack.api_url')])
  )
  for (const secret of [down, eu, 'ending-s3cret']) expect(texts).not.toContain(secret)
  expect(traced.status.message).toBe('not complete: ***')
  const spans = everySpan(traced).map((x) => x.span)
  const downStack = spans.find((s) => s.attributes['brcloud.stack'] === 'down' && s.name === 'read stack')
  expect(downStack?.status.message).toContain('***')
  const downRow = spans.find((s) => s.attributes['brcloud.stack'] === 'down' && s.name === 'read environment')
  expect(downRow?.status.message).toContain('***')
  const probe = spans.find((s) => s.name === 'GET')
  expect(probe?.attributes['url.full']).toMatch(/^http:\/\/\*\*\*\//)
  expect(probe?.attributes['brcloud.health.result']).toMatch(/^\*\*\*/)
  // A probe that did not pass says why in its status: scrubbed too.
  const failing = spans.filter((s) => s.name === 'GET' && s.status.code === 'error')
  expect(failing.length).toBeGreaterThan(0)
  for (const f of failing) expect(f.status.message).toMatch(/^\*\*\*, but the page does not contain/)
})
