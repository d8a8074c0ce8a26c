// Tracing end to end (issue 45): the bundled action and the bundled command deploy to the emulator and send their
// trace to an OTLP/HTTP receiver that decodes protobuf and JSON by hand (otlp-receiver.ts). The tree, its parent from
// TRACEPARENT, its attributes against the outputs, its times against the run's; a rollback as an error; a collector
// that refuses, hangs or is down changes no outcome and gives one warning; with tracing off nothing reaches it.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { DEPLOY_ACTION } from '../scripts/lib/run-action.js'
import { brcloud } from './gitlab-e2e-support.js'
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { outline, spanTree, startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.js'
import { release, run, sweepAndClose } from './e2e-support.js'

const PARENT = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' }
const TRACEPARENT = `00-${PARENT.traceId}-${PARENT.spanId}-01`
const HEADER_SECRET = 'otlp-Key-7f3e9c2a'

let emu: Emulator
let otlp: OtlpReceiver
beforeEach(async () => {
  emu = await startEmulator({ deployLooks: 1 })
  otlp = await startOtlpReceiver()
})
afterEach(async () => {
  await otlp.close()
  await sweepAndClose(emu, [HEADER_SECRET])
})

const site = (env = 'production') => `${emu.url}/sites/${env}/version.txt`
const deploy = (version: string, over: Record<string, string> = {}) => ({
  'api-url': emu.url,
  username: emu.username,
  password: emu.password,
  environment: 'production',
  distribution: release(version),
  'health-url': site(),
  'health-expect': version,
  ...over
})
const traced = (over: Record<string, string> = {}) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
  OTEL_EXPORTER_OTLP_HEADERS: `x-api-key=${HEADER_SECRET}`,
  TRACEPARENT,
  ...over
})

const attr = (span: ReceivedSpan | undefined, key: string): unknown => {
  const v = span?.attributes[key]
  return typeof v === 'bigint' ? Number(v) : v
}
const named = (spans: ReceivedSpan[], name: string) => spans.filter((s) => s.name === name)
const one = (spans: ReceivedSpan[], name: string): ReceivedSpan => {
  const found = named(spans, name)
  if (found.length !== 1) throw new Error(`${found.length} spans named ${name}`)
  return found[0] as ReceivedSpan
}

/** Every span inside its parent's times, every event inside its span's. */
function expectNested(spans: ReceivedSpan[]): void {
  const byId = new Map(spans.map((s) => [s.spanId, s]))
  for (const s of spans) {
    expect(s.startNs <= s.endNs).toBe(true)
    for (const e of s.events) expect(e.timeNs >= s.startNs && e.timeNs <= s.endNs).toBe(true)
    const parent = byId.get(s.parentSpanId)
    if (parent === undefined) continue
    expect([s.name, s.startNs >= parent.startNs, s.endNs <= parent.endNs]).toEqual([s.name, true, true])
  }
}

describe('the action', () => {
  test("a verified upgrade: one protobuf export, the root under TRACEPARENT's span, a span per phase, the looks and attempts, the outputs as attributes", async () => {
    expect((await run(deploy('v1.0.0'))).code).toBe(0)
    const startedAt = Date.now()
    const r = await run(deploy('v1.0.1'), { env: { ...traced(), GITHUB_RUN_ID: '4242', GITHUB_RUN_ATTEMPT: '1' } })
    const endedAt = Date.now()
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.visible).toMatch(new RegExp(`Tracing: trace ${PARENT.traceId} \\(\\d+ spans\\) sent to ${otlp.url.replace(/[.]/g, '\\.')}\\.`))
    expect(r.visible).not.toMatch(/::warning::Tracing/)

    expect(otlp.received).toHaveLength(1)
    const [sent] = otlp.received
    expect(sent).toMatchObject({ path: '/v1/traces', encoding: 'protobuf', gzip: false })
    expect(sent?.headers['x-api-key']).toBe(HEADER_SECRET)
    // The header's value is a secret: masked in the log, never shown.
    expect(r.stdout).toContain(`::add-mask::${HEADER_SECRET}`)
    expect(r.visible).not.toContain(HEADER_SECRET)
    expect(sent?.resource).toMatchObject({ 'service.name': 'brcloud-deploy', 'service.version': expect.any(String) })

    const spans = otlp.spans()
    const roots = spanTree(spans, { traceId: PARENT.traceId, parentSpanId: PARENT.spanId })
    expect(roots).toHaveLength(1)
    expect(outline(roots).filter((l) => !l.trim().startsWith('GET'))).toEqual([
      'brcloud deploy',
      '  prepare distribution',
      '  login',
      '  find environment',
      '  find identical distribution',
      '  upload',
      '  deploy',
      '  follow deploy',
      '  health check'
    ])
    const root = one(spans, 'brcloud deploy')
    expect(root.kind).toBe(1)
    expect(root.status).toEqual({ code: 1, message: '' })
    expect(r.outputs['trace-id']).toBe(PARENT.traceId)
    expect(r.summary).toContain(`Trace \`${PARENT.traceId}\`, in the pipeline's trace (TRACEPARENT)`)

    // Every output the run set is an attribute of the root, as it was set.
    for (const [name, value] of Object.entries(r.outputs)) {
      if (name === 'changes' || name === 'trace-id') continue
      expect([name, String(attr(root, `brcloud.${name.replace(/-/g, '_')}`))]).toEqual([name, value])
    }
    expect(root.attributes).toMatchObject({
      'cicd.pipeline.task.name': 'brcloud deploy',
      'cicd.pipeline.task.run.result': 'success',
      'cicd.pipeline.run.id': '4242',
      'deployment.environment.name': 'production',
      'deployment.status': 'succeeded',
      'brcloud.environment': 'production',
      'brcloud.release_state': 'verified',
      'brcloud.events': ['upgraded', 'published']
    })
    expect(attr(root, 'brcloud.archive.size')).toBe(Number(r.outputs['distribution-size']))
    expect(attr(root, 'brcloud.upload.bytes')).toBe(Number(r.outputs['distribution-size']))
    expect(root.events.map((e) => e.name)).toEqual(expect.arrayContaining(['release requested', 'release verified']))

    // The times are the run's own: the root within the process's life, every span within its parent.
    expect(root.startMs).toBeGreaterThanOrEqual(startedAt)
    expect(root.endMs).toBeLessThanOrEqual(endedAt)
    expectNested(spans)

    // Each look while following: an event with what the environment reported; the health attempts: client GETs.
    const follow = one(spans, 'follow deploy')
    const looks = follow.events.filter((e) => e.name === 'look')
    expect(looks.length).toBeGreaterThanOrEqual(1)
    expect(looks.at(-1)?.attributes['brcloud.look.distribution_id']).toBe(r.outputs['distribution-id'])
    const gets = named(spans, 'GET')
    expect(gets.length).toBeGreaterThanOrEqual(1)
    expect(gets.every((g) => g.kind === 3 && g.parentSpanId === one(spans, 'health check').spanId)).toBe(true)
    expect(gets.at(-1)?.attributes).toMatchObject({ 'http.request.method': 'GET', 'url.full': site() })
    expect(attr(gets.at(-1), 'http.response.status_code')).toBe(200)
  })

  test('a release rolled back, over http/json: the root an error with the failure, the rollback and its steps as spans', async () => {
    expect((await run(deploy('v1'))).code).toBe(0)
    const r = await run(deploy('v2', { distribution: release('v2', true), 'health-timeout-minutes': '0.03', rollback: 'true' }), {
      env: traced({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', TRACEPARENT: '' })
    })
    expect(r.code).toBe(1)
    expect(r.outputs['rolled-back']).toBe('true')
    expect(otlp.received.map((x) => x.encoding)).toEqual(['json'])
    const spans = otlp.spans()
    const [root] = spanTree(spans)
    expect(root?.span.name).toBe('brcloud deploy')
    expect(r.outputs['trace-id']).toBe(root?.span.traceId)
    expect(root?.span.status.code).toBe(2)
    expect(r.errors[0]).toContain(root?.span.status.message)
    expect(root?.span.attributes).toMatchObject({
      'cicd.pipeline.task.run.result': 'failure',
      'error.type': 'unhealthy',
      'deployment.status': 'failed',
      'brcloud.rolled_back': 'true'
    })
    expect(root?.span.attributes['brcloud.events']).toEqual(expect.arrayContaining(['rolledback']))
    const rollback = one(spans, 'rollback')
    const steps = spans.filter((s) => s.parentSpanId === rollback.spanId && s.name.startsWith('rollback ')).map((s) => s.name)
    expect(steps).toEqual(expect.arrayContaining(['rollback request', 'rollback switch']))
    expect(one(spans, 'health check').status.code).toBe(2)
    expectNested(spans)
  })

  test('a collector that refuses, hangs or is down: the same outcome and outputs, one warning each; tracing off: nothing sent', async () => {
    const plain = await run(deploy('v1'))
    expect(plain.code).toBe(0)
    expect(plain.outputs['trace-id']).toBeUndefined()
    expect(plain.visible).not.toContain('Tracing')
    expect(otlp.requests).toBe(0)

    otlp.refuse(401)
    const refused = await run(deploy('v2'), { env: traced() })
    otlp.hang()
    const hung = await run(deploy('v3'), { env: traced({ OTEL_EXPORTER_OTLP_TIMEOUT: '1500' }) })
    const closed = await startOtlpReceiver()
    const deadUrl = closed.url
    await closed.close()
    const down = await run(deploy('v4'), { env: traced({ OTEL_EXPORTER_OTLP_ENDPOINT: deadUrl }) })
    for (const [r, why] of [
      [refused, /401|Unauthorized/i],
      [hung, /no answer within OTEL_EXPORTER_OTLP_TIMEOUT \(1\.5 s\)|timeout/i],
      [down, /ECONNREFUSED|connect/i]
    ] as const) {
      expect(r.code).toBe(0)
      expect(r.errors).toEqual([])
      expect(r.outputs['release-state']).toBe('verified')
      expect(r.outputs['trace-id']).toBe(PARENT.traceId)
      const warnings = r.visible.split('\n').filter((l) => l.startsWith('::warning::Tracing'))
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toMatch(/^::warning::Tracing: the trace was not sent to http:\/\/127\.0\.0\.1:\d+ \(.*\)\. The deployment's outcome is unchanged\.$/)
      expect(warnings[0]).toMatch(why)
      expect(r.visible).not.toContain(HEADER_SECRET)
    }
  })
})

describe('tracing off', () => {
  test('nothing of OpenTelemetry is loaded: the action deploys the same from its bundle with those chunks deleted', async () => {
    const bundle = mkdtempSync(join(tmpdir(), 'brcd-action-no-otel-'))
    try {
      cpSync(dirname(DEPLOY_ACTION.bundle), bundle, { recursive: true })
      const deleted = readdirSync(bundle).filter((f) => f.endsWith('.js') && readFileSync(join(bundle, f), 'utf8').includes('opentelemetry'))
      for (const f of deleted) rmSync(join(bundle, f))
      expect(deleted.length).toBeGreaterThan(0)
      expect(deleted).not.toContain('index.js')
      const action = { ...DEPLOY_ACTION, bundle: join(bundle, 'index.js') }
      const r = await run(deploy('v1'), { action })
      expect(r.errors).toEqual([])
      expect(r.outputs['release-state']).toBe('verified')
      expect(r.visible).not.toContain('Tracing')
      // With tracing on, the same bundle needs them: one warning, the outcome unchanged.
      const on = await run(deploy('v2'), { action, env: traced() })
      expect(on.code).toBe(0)
      expect(on.outputs['release-state']).toBe('verified')
      expect(on.visible.split('\n').filter((l) => l.startsWith('::warning::Tracing'))).toHaveLength(1)
    } finally {
      rmSync(bundle, { recursive: true, force: true })
    }
  })
})

// The command: the bundle as a runner's shell step would run it (gitlab-e2e-support.ts's brcloud).
describe('brcloud deploy', () => {
  const args = (version: string) => [
    'deploy',
    '--api-url',
    emu.url,
    '--username',
    emu.username,
    '--environment',
    'production',
    '--distribution',
    release(version),
    '--health-url',
    site(),
    '--health-expect',
    version,
    '--json'
  ]

  test("in a Jenkins build with the OpenTelemetry plugin's TRACEPARENT: joined, trace-id in the JSON; --otel-endpoint wins over the variables", async () => {
    const env = {
      BRCLOUD_PASSWORD: emu.password,
      JENKINS_URL: 'https://ci.example.com/',
      BUILD_TAG: 'jenkins-site-77',
      ...traced({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' })
    }
    const r = await brcloud([...args('v1'), '--otel-endpoint', otlp.url], env)
    expect(r.code).toBe(0)
    const outputs = JSON.parse(r.stdout) as Record<string, string>
    expect(outputs['trace-id']).toBe(PARENT.traceId)
    expect(r.stderr).toMatch(/Tracing: trace 4bf92f3577b34da6a3ce929d0e0e4736 \(\d+ spans\) sent to http:\/\/127\.0\.0\.1:\d+\./)
    const [root] = spanTree(otlp.spans(), { traceId: PARENT.traceId, parentSpanId: PARENT.spanId })
    expect(root?.span.attributes).toMatchObject({ 'brcloud.release_state': 'verified', 'cicd.pipeline.run.id': 'jenkins-site-77' })
    expect(r.stderr).not.toContain(HEADER_SECRET)
  })

  test('a dead collector changes no exit code; without tracing nothing is sent and the JSON has no trace-id', async () => {
    const down = await brcloud(args('v1'), { BRCLOUD_PASSWORD: emu.password, ...traced({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }) })
    expect(down.code).toBe(0)
    expect(down.stderr.split('\n').filter((l) => /Tracing/.test(l))).toEqual([
      expect.stringMatching(/^warning: Tracing: the trace was not sent to http:\/\/127\.0\.0\.1:9 /)
    ])
    const off = await brcloud(args('v2'), { BRCLOUD_PASSWORD: emu.password })
    expect(off.code).toBe(0)
    expect(JSON.parse(off.stdout)['trace-id']).toBeUndefined()
    expect(off.stderr).not.toContain('Tracing')
    expect(otlp.requests).toBe(0)
  })
})
