// The run planned as a trace (src/tracing/plan.ts): phases nested by their observed times, looks and release states as
// events, health attempts and rollback steps as spans, every output as a brcloud.* attribute, the CICD and deployment
// conventions, and the status from the outcome. Pure: the tests give a result and read the tree.
import { useTestPort } from './test-port.js'
import { deployResult, releaseOf, searchPassed } from './report-fixtures.js'

useTestPort()

const { planRunTrace } = await import('../src/tracing/plan.js')
const { spanNameOf, PHASE_SPAN_NAMES } = await import('../src/tracing/names.js')
const { observeRun } = await import('../src/events/from-run.js')
const { outputValues } = await import('../src/report.js')
const { HealthCheckFailed } = await import('../src/health.js')
type RunResult = import('../src/report.js').RunResult
type PlannedSpan = import('../src/tracing/plan.js').PlannedSpan
type RunContext = import('../src/port.js').RunContext

const context = {
  sha: 'c0ffee'.padEnd(40, '0'),
  noCommit: '',
  ref: 'refs/heads/main',
  repository: 'acme/site',
  serverUrl: 'https://github.com',
  runUrl: 'https://github.com/acme/site/actions/runs/42',
  workspace: '/w',
  runId: '42',
  runAttempt: '1',
  actor: 'dev'
}

const phase = (name: string, startedAt: number, ms: number, ok = true) => ({ name, startedAt, ms, ok })

/** A verified upgrade: packed, uploaded, deployed, followed (two looks), checked (a 503, then a pass). */
function verified(): RunResult {
  return {
    deploys: true,
    environment: 'development',
    error: undefined,
    search: undefined,
    phases: [
      phase('Prepare the distribution', 998_000, 500),
      phase('Log in to mystack', 998_500, 200),
      phase('Upload the distribution', 998_700, 1_000),
      // The timeline lists a phase when it ends: the inner ones first.
      phase("Wait until 'development' runs dist-1", 1_000_050, 1_000),
      phase('Health check https://www.example.com/', 1_001_100, 1_500),
      phase("Deploy to 'development'", 999_800, 3_300)
    ],
    deploy: deployResult({
      release: releaseOf(['requested', 'applied', 'healthy', 'verified']),
      looks: [
        { distributionId: 'dist-0', status: 'deploying', at: 1_000_200 },
        { distributionId: 'dist-1', status: 'running', at: 1_000_900 }
      ],
      healthAttempts: [
        { url: 'https://www.example.com/', startedAt: 1_001_150, endedAt: 1_001_300, ok: false, what: 'HTTP 503', status: 503 },
        { url: 'https://www.example.com/', startedAt: 1_002_000, endedAt: 1_002_100, ok: true, what: 'HTTP 200', status: 200 }
      ]
    })
  }
}

function plan(result: RunResult, failure?: unknown): PlannedSpan {
  const facts = { context, startedAt: 997_000, endedAt: 1_004_000, failure }
  return planRunTrace(result, { ...facts, stack: 'mystack', observed: observeRun(result, facts) })
}

/** The tree as names, children indented: what a trace viewer's waterfall shows. */
function shape(span: PlannedSpan, depth = 0): string[] {
  return [`${'  '.repeat(depth)}${span.name}`, ...span.children.flatMap((c) => shape(c, depth + 1))]
}

function find(span: PlannedSpan, name: string): PlannedSpan {
  const all = (s: PlannedSpan): PlannedSpan[] => [s, ...s.children.flatMap(all)]
  const found = all(span).find((s) => s.name === name)
  if (found === undefined) throw new Error(`no span ${name}`)
  return found
}

function allSpans(span: PlannedSpan): PlannedSpan[] {
  return [span, ...span.children.flatMap(allSpans)]
}

describe('a verified deploy', () => {
  const root = plan(verified())

  test('one root, the phases under it nested by time, the health attempts under their check', () => {
    expect(shape(root)).toEqual([
      'brcloud deploy',
      '  prepare distribution',
      '  login',
      '  upload',
      '  deploy',
      '    follow deploy',
      '    health check',
      '      GET',
      '      GET'
    ])
  })

  test('every span within its parent, at the times observed', () => {
    expect([root.start, root.end]).toEqual([997_000, 1_004_000])
    expect(find(root, 'upload')).toMatchObject({ start: 998_700, end: 999_700, attributes: { 'brcloud.phase': 'Upload the distribution' } })
    const check = (s: PlannedSpan): void => {
      expect(s.start).toBeLessThanOrEqual(s.end)
      for (const c of s.children) {
        expect(c.start).toBeGreaterThanOrEqual(s.start)
        expect(c.end).toBeLessThanOrEqual(s.end)
        check(c)
      }
      for (const e of s.events) expect(e.at >= s.start && e.at <= s.end).toBe(true)
    }
    check(root)
  })

  test('each look while following is an event of the follow span, with what the environment reported', () => {
    expect(find(root, 'follow deploy').events).toEqual([
      { name: 'look', at: 1_000_200, attributes: { 'brcloud.look.distribution_id': 'dist-0', 'brcloud.look.status': 'deploying' } },
      { name: 'look', at: 1_000_900, attributes: { 'brcloud.look.distribution_id': 'dist-1', 'brcloud.look.status': 'running' } }
    ])
  })

  test('the health attempts: client GETs with the status each got; a failed one is an error', () => {
    const [first, second] = find(root, 'health check').children
    expect(first).toMatchObject({
      kind: 'client',
      start: 1_001_150,
      end: 1_001_300,
      status: { code: 'error', message: 'HTTP 503' },
      attributes: {
        'http.request.method': 'GET',
        'url.full': 'https://www.example.com/',
        'http.response.status_code': 503,
        'brcloud.health.result': 'HTTP 503'
      }
    })
    expect(second).toMatchObject({ status: { code: 'unset' }, attributes: { 'http.response.status_code': 200 } })
  })

  test("the release's states are the root's events, with their evidence, in order", () => {
    expect(root.events.map((e) => [e.name, e.at, e.attributes['brcloud.evidence']])).toEqual([
      ['release requested', 1_000_000, 'evidence of requested'],
      ['release applied', 1_001_000, 'evidence of applied'],
      ['release healthy', 1_002_000, 'evidence of healthy'],
      ['release verified', 1_003_000, 'evidence of verified']
    ])
  })

  test('the root: ok, every output as a brcloud.* attribute, the CICD task run, the deployment and the commit', () => {
    const result = verified()
    expect(root.status).toEqual({ code: 'ok' })
    expect(root.kind).toBe('internal')
    const outputs = outputValues(result)
    for (const [name, value] of Object.entries(outputs)) {
      if (name === 'changes') continue
      expect([name, root.attributes[`brcloud.${name.replace(/-/g, '_')}`]]).toEqual([name, value])
    }
    expect(root.attributes).toMatchObject({
      'cicd.pipeline.task.name': 'brcloud deploy',
      'cicd.pipeline.task.type': 'deploy',
      'cicd.pipeline.task.run.result': 'success',
      'cicd.pipeline.run.id': '42',
      'cicd.pipeline.run.url.full': 'https://github.com/acme/site/actions/runs/42',
      'vcs.ref.head.revision': context.sha,
      'vcs.ref.head.name': 'refs/heads/main',
      'vcs.repository.name': 'site',
      'vcs.repository.url.full': 'https://github.com/acme/site',
      'deployment.environment.name': 'development',
      'deployment.name': 'site.tar.gz',
      'deployment.status': 'succeeded',
      'brcloud.stack': 'mystack',
      'brcloud.environment': 'development',
      'brcloud.release_state': 'verified',
      'brcloud.distribution_id': 'dist-1',
      'brcloud.archive.size': 2048,
      'brcloud.upload.bytes': 2048,
      'brcloud.upload.attempts': 1,
      'brcloud.events': ['upgraded', 'published']
    })
    expect(root.attributes['deployment.id']).toMatch(/^[0-9a-f-]{36}$/)
    // Nothing unset is claimed: no error type, no stop, no attribute with no value.
    expect(root.attributes['error.type']).toBeUndefined()
    expect(root.attributes['brcloud.stopped']).toBeUndefined()
    for (const span of allSpans(root)) for (const value of Object.values(span.attributes)) expect(value).not.toBeUndefined()
  })

  test('a reused distribution: its size, no upload bytes (nothing was sent)', () => {
    const r = verified()
    const reused = plan({ ...r, deploy: { ...deployResult(), upload: undefined, reused: true } })
    expect(reused.attributes['brcloud.archive.size']).toBe(2048)
    expect(reused.attributes['brcloud.upload.bytes']).toBeUndefined()
  })
})

describe('a deploy rolled back', () => {
  function rolledBack(): RunResult {
    const r = verified()
    const release = releaseOf(['requested', 'applied', 'failed', 'rollback-requested', 'rollback-applied', 'rollback-healthy'], { rollbackTo: 'dist-0' })
    return {
      ...r,
      error: 'The health check of https://www.example.com/ did not pass; rolled back to dist-0.',
      phases: [
        phase("Wait until 'development' runs dist-1", 1_000_050, 900),
        phase('Health check https://www.example.com/', 1_001_050, 900, false),
        phase("Roll back 'development' to dist-0", 1_002_000, 3_500),
        phase("Deploy to 'development'", 999_800, 1_200)
      ],
      deploy: deployResult({ release, finalLook: { distributionId: 'dist-0', status: undefined, at: 1_005_600 }, healthAttempts: [] })
    }
  }
  const result = rolledBack()
  const root = plan({ ...result }, new HealthCheckFailed('x'))

  test('the rollback phase holds its steps, each from one observed state to the next', () => {
    expect(find(root, 'rollback').children.map((s) => [s.name, s.start, s.end, s.attributes['brcloud.evidence']])).toEqual([
      ['rollback request', 1_002_000, 1_003_000, 'evidence of rollback-requested'],
      ['rollback switch', 1_003_000, 1_004_000, 'evidence of rollback-applied'],
      ['rollback health', 1_004_000, 1_005_000, 'evidence of rollback-healthy']
    ])
  })

  test('the root is an error with the failure, the deployment failed, the failed phase says why', () => {
    expect(root.status).toEqual({ code: 'error', message: result.error })
    expect(root.attributes).toMatchObject({
      'cicd.pipeline.task.run.result': 'failure',
      'error.type': 'HealthCheckFailed',
      'deployment.status': 'failed',
      'brcloud.rolled_back': 'true',
      'brcloud.events': ['upgraded', 'rolledback', 'failed']
    })
    expect(find(root, 'health check').status).toEqual({ code: 'error', message: result.error })
    expect(find(root, 'follow deploy').status).toEqual({ code: 'ok' })
  })

  test('a rollback not seen applied: no switch or health step is claimed', () => {
    const release = releaseOf(['requested', 'applied', 'failed', 'rollback-requested'])
    const r = { ...result, deploy: deployResult({ release }) }
    expect(find(plan(r), 'rollback').children.map((s) => s.name)).toEqual(['rollback request'])
  })
})

describe('other endings', () => {
  test("the watchdog: a timeout; a cancel: a cancellation; the release's failure kind; an unknown failure: error.type _OTHER", async () => {
    const r = verified()
    const watchdog = plan({ ...r, error: 'did not finish', stopped: 'watchdog' })
    expect(watchdog.attributes).toMatchObject({ 'cicd.pipeline.task.run.result': 'timeout', 'error.type': 'timeout', 'brcloud.stopped': 'watchdog' })
    const cancel = plan({ ...r, error: 'cancelled', stopped: 'cancel' })
    expect(cancel.attributes).toMatchObject({ 'cicd.pipeline.task.run.result': 'cancellation', 'error.type': 'cancelled' })
    expect(plan({ ...r, error: 'boom' }, new Error('boom')).attributes['error.type']).toBe('_OTHER')
    expect(plan({ ...r, error: 'boom' }, 'a string').attributes['error.type']).toBe('_OTHER')
    const { ActionError } = await import('../src/errors.js')
    expect(plan({ ...r, error: 'boom' }, new ActionError('boom')).attributes['error.type']).toBe('_OTHER')
    // The release's failure kind says more than the class that carried it.
    const unhealthy = releaseOf(['requested', 'applied', 'failed'], { failure: { kind: 'unhealthy', message: 'm' } })
    expect(plan({ ...r, error: 'm', deploy: deployResult({ release: unhealthy }) }, new ActionError('m')).attributes['error.type']).toBe('unhealthy')
  })

  test('a search check alone: its own root name and type, no deployment claimed', () => {
    const root = plan({
      deploys: false,
      deploy: undefined,
      environment: undefined,
      error: undefined,
      search: searchPassed,
      phases: [phase('Search check: shirt', 998_000, 40)]
    })
    expect(shape(root)).toEqual(['brcloud search-check', '  search check'])
    expect(root.attributes).toMatchObject({
      'cicd.pipeline.task.name': 'brcloud search-check',
      'cicd.pipeline.task.type': 'test',
      'brcloud.search.passed': true
    })
    expect(Object.keys(root.attributes).filter((k) => k.startsWith('deployment.'))).toEqual([])
  })

  test('a phase that began before the run is clamped into the root; one that ended after the report extends it', () => {
    const r = verified()
    const root = plan({ ...r, phases: [phase('Prepare the distribution', 990_000, 8_000)] })
    expect(find(root, 'prepare distribution')).toMatchObject({ start: 997_000, end: 998_000 })
    // A stopped run's phase that ended after the report: the root holds it, at the time it ended.
    const late = plan({ ...r, phases: [phase("Wait until 'development' runs dist-1", 1_003_000, 2_500, false)] })
    expect([late.end, find(late, 'follow deploy').end]).toEqual([1_005_500, 1_005_500])
  })
})

describe('what a refused or partial run claims', () => {
  test('refused before its deployment began: the stack and the environment as given, nothing of a deployment', () => {
    const refused: RunResult = {
      deploys: true,
      deploy: undefined,
      environment: 'production',
      error: 'Input environment is bad.',
      search: undefined,
      phases: []
    }
    const facts = { context, startedAt: 997_000, endedAt: 998_000, failure: undefined }
    const root = planRunTrace(refused, { ...facts, stack: 'mystack', observed: observeRun(refused, facts) })
    expect(root.attributes).toMatchObject({ 'brcloud.stack': 'mystack', 'brcloud.environment': 'production' })
    expect(root.attributes['brcloud.upload.bytes']).toBeUndefined()
  })

  test('an upload whose answer was lost and whose stored copy was adopted: no bytes claimed as taken from this upload', () => {
    const r = verified()
    const adopted = plan({ ...r, deploy: deployResult({ upload: { distributionId: 'dist-1', storedName: 'site.tar.gz', attempts: 2, adopted: true } }) })
    expect(adopted.attributes).toMatchObject({ 'brcloud.archive.size': 2048, 'brcloud.upload.attempts': 2, 'brcloud.upload.adopted': true })
    expect(adopted.attributes['brcloud.upload.bytes']).toBeUndefined()
  })

  test('of two phases that did not pass, the last carries the failure; two that began together nest the shorter in the longer', () => {
    const r = verified()
    const root = plan({
      ...r,
      error: 'the last failure',
      phases: [phase('Search check: shirt', 998_000, 100, false), phase('Health check https://www.example.com/', 998_500, 100, false)]
    })
    expect(find(root, 'search check').status).toEqual({ code: 'error', message: undefined })
    expect(find(root, 'health check').status).toEqual({ code: 'error', message: 'the last failure' })
    const nested = plan({ ...r, phases: [phase("Wait until 'development' runs dist-1", 998_000, 100), phase("Deploy to 'development'", 998_000, 500)] })
    expect(shape(nested).filter((l) => !l.trim().startsWith('GET'))).toEqual(['brcloud deploy', '  deploy', '    follow deploy'])
  })
})

describe('a moment on the boundary of two phases', () => {
  test('a look belongs to the phase it ends, a health attempt to the phase it begins', () => {
    const r = verified()
    const root = plan({
      ...r,
      phases: [phase("Wait until 'development' runs dist-1", 1_000_000, 1_000), phase('Health check https://www.example.com/', 1_001_000, 500)],
      deploy: deployResult({
        release: releaseOf(['requested', 'applied', 'healthy', 'verified']),
        looks: [{ distributionId: 'dist-1', status: undefined, at: 1_001_000 }],
        healthAttempts: [{ url: 'https://www.example.com/', startedAt: 1_001_000, endedAt: 1_001_100, ok: true, what: 'HTTP 200', status: 200 }]
      })
    })
    expect(find(root, 'follow deploy').events.map((e) => e.at)).toEqual([1_001_000])
    expect(find(root, 'health check').events).toEqual([])
    expect(find(root, 'health check').children.map((c) => c.name)).toEqual(['GET'])
    expect(find(root, 'follow deploy').children).toEqual([])
  })

  test('a look or an attempt outside every phase belongs to the root', () => {
    const r = verified()
    const root = plan({ ...r, phases: [], deploy: { ...deployResult(), looks: [{ distributionId: 'dist-1', status: undefined, at: 998_000 }] } })
    expect(root.events.filter((e) => e.name === 'look')).toHaveLength(1)
  })
})

describe('what the run knew of where it ran', () => {
  const searchOnly = (): RunResult => ({ deploys: false, deploy: undefined, environment: undefined, error: undefined, search: searchPassed, phases: [] })
  const planWith = (result: RunResult, over: Record<string, string | undefined>) => {
    const facts = { context: { ...context, ...over } as RunContext, startedAt: 997_000, endedAt: 1_004_000, failure: undefined }
    return planRunTrace(result, { ...facts, stack: undefined, observed: observeRun(result, facts) })
  }

  test('a search check alone: the commit and ref of the run; nothing claimed of what the CI did not say', () => {
    expect(planWith(searchOnly(), {}).attributes).toMatchObject({
      'vcs.ref.head.revision': context.sha,
      'vcs.ref.head.name': 'refs/heads/main',
      'cicd.pipeline.run.id': '42'
    })
    const bare = planWith(searchOnly(), { sha: '', ref: '', runId: '', repository: '', runUrl: undefined }).attributes
    for (const key of [
      'vcs.ref.head.revision',
      'vcs.ref.head.name',
      'cicd.pipeline.run.id',
      'cicd.pipeline.run.url.full',
      'vcs.repository.name',
      'vcs.repository.url.full'
    ])
      expect([key, bare[key]]).toEqual([key, undefined])
  })

  test("a repository on GitLab: its own name is the path's last part; its address without the server's trailing slashes", () => {
    const attributes = planWith(searchOnly(), { repository: 'acme/platform/site', serverUrl: 'https://gitlab.example.com//' }).attributes
    expect(attributes['vcs.repository.name']).toBe('site')
    expect(attributes['vcs.repository.url.full']).toBe('https://gitlab.example.com/acme/platform/site')
  })

  test("a promotion names the distribution's commit, never the promoting run's, and no ref", () => {
    const r = verified()
    const order = {
      order: 'ahead',
      runningDistributionId: 'dist-0',
      running: undefined,
      ours: { sha: 'ABCDEF0123456789ABCDEF0123456789ABCDEF01', from: 'deployment' }
    } as unknown as NonNullable<RunResult['deploy']>['order']
    const promoted = { ...r, deploy: deployResult({ source: 'id', upload: undefined, order }) }
    const attributes = planWith(promoted, {}).attributes
    expect(attributes['vcs.ref.head.revision']).toBe('abcdef0123456789abcdef0123456789abcdef01')
    expect(attributes['vcs.ref.head.name']).toBeUndefined()
  })
})

describe("the phases' span names", () => {
  test('named by kind, never by id or environment; an unknown title keeps its first word', () => {
    expect(spanNameOf("Wait until 'production' runs 6f1c")).toBe('follow deploy')
    expect(spanNameOf('Check distribution 6f1c')).toBe('check distribution')
    expect(spanNameOf('Build: mvn -B verify')).toBe('build')
    expect(spanNameOf('Something: else')).toBe('something')
    expect(spanNameOf('')).toBe('phase')
    expect(new Set(PHASE_SPAN_NAMES).size).toBe(PHASE_SPAN_NAMES.length)
  })
})
