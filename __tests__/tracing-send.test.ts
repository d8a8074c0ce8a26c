// The trace's one export (src/tracing/send.ts, src/tracing/index.ts) against the OTLP receiver: the planned spans
// made into OpenTelemetry spans with their own ids and times, sent once, within the limit, ended by a hurry; what
// becomes of it is one line (an info, or one warning), and nothing throws.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { useTestPort } from './test-port.js'
import { startOtlpReceiver, spanTree, type OtlpReceiver } from './otlp-receiver.js'

const infos: string[] = []
const warnings: string[] = []
useTestPort({ info: (m: string) => void infos.push(m), warning: (m: string) => void warnings.push(m) })

const { sendTrace } = await import('../src/tracing/send.js')
const { traceRun } = await import('../src/tracing/index.js')
const { registerSecret } = await import('../src/secrets.js')
type TracingInputs = import('../src/tracing/config.js').TracingInputs
type PlannedSpan = import('../src/tracing/plan.js').PlannedSpan

let otlp: OtlpReceiver
beforeEach(async () => {
  otlp = await startOtlpReceiver()
  infos.length = 0
  warnings.length = 0
})
afterEach(() => otlp.close())

const T0 = 1_790_000_000_000
const tracing = (over: Partial<TracingInputs> = {}): TracingInputs => ({
  url: otlp.tracesUrl,
  urlFrom: 'OTEL_EXPORTER_OTLP_ENDPOINT',
  protocol: 'http/protobuf',
  headers: { 'x-api-key': 'k-123' },
  compression: 'none',
  timeoutMs: 5_000,
  serviceName: 'site-deploys',
  resource: { team: 'web', 'service.name': 'ignored' },
  parent: undefined,
  traceId: '0123456789abcdef0123456789abcdef',
  rootSpanId: 'a1b2c3d4e5f60718',
  ...over
})

const span = (name: string, start: number, end: number, over: Partial<PlannedSpan> = {}): PlannedSpan => ({
  name,
  kind: 'internal',
  start,
  end,
  attributes: {},
  events: [],
  status: { code: 'ok' },
  children: [],
  ...over
})

const PLAN: PlannedSpan = span('brcloud deploy', T0, T0 + 9_000, {
  attributes: { 'brcloud.environment': 'production', 'brcloud.events': ['upgraded', 'published'], 'brcloud.archive.size': 4096, 'brcloud.dry_run': false },
  events: [{ name: 'release requested', at: T0 + 2_000, attributes: { 'brcloud.evidence': 'accepted' } }],
  status: { code: 'error', message: 'The health check did not pass.' },
  children: [
    span('upload', T0 + 500, T0 + 1_500),
    span('health check', T0 + 3_000, T0 + 8_000, {
      status: { code: 'error', message: 'The health check did not pass.' },
      children: [
        span('GET', T0 + 3_000, T0 + 3_123, { kind: 'client', status: { code: 'unset' }, attributes: { 'http.response.status_code': 503 } }),
        span('GET', T0 + 5_000, T0 + 5_010, { kind: 'client', status: { code: 'error', message: 'HTTP 503' } })
      ]
    })
  ]
})

const hurry = () => new AbortController().signal
const options = (over = {}) => ({ limitMs: 5_000, limitName: 'OTEL_EXPORTER_OTLP_TIMEOUT', hurry: hurry(), ...over })

describe('sendTrace', () => {
  test('one export: the ids chosen ahead, the tree, the kinds, the statuses, the times to the millisecond, the attributes and events', async () => {
    expect(await sendTrace(PLAN, tracing(), options())).toEqual({ sent: true })
    expect(otlp.received).toHaveLength(1)
    const [x] = otlp.received
    expect(x).toMatchObject({ path: '/v1/traces', encoding: 'protobuf', gzip: false })
    expect(x?.headers['x-api-key']).toBe('k-123')
    expect(x?.resource).toMatchObject({ 'service.name': 'site-deploys', team: 'web', 'service.version': expect.any(String) })
    const spans = otlp.spans()
    const [root] = spanTree(spans, { traceId: '0123456789abcdef0123456789abcdef' })
    expect(root?.span).toMatchObject({
      spanId: 'a1b2c3d4e5f60718',
      parentSpanId: '',
      name: 'brcloud deploy',
      kind: 1,
      startMs: T0,
      endMs: T0 + 9_000,
      status: { code: 2, message: 'The health check did not pass.' }
    })
    expect(root?.span.attributes).toEqual({
      'brcloud.environment': 'production',
      'brcloud.events': ['upgraded', 'published'],
      'brcloud.archive.size': 4096n,
      'brcloud.dry_run': false
    })
    expect(root?.span.events).toMatchObject([{ name: 'release requested', timeMs: T0 + 2_000, attributes: { 'brcloud.evidence': 'accepted' } }])
    expect(root?.children.map((c) => [c.span.name, c.span.startMs, c.span.endMs, c.span.status.code])).toEqual([
      ['upload', T0 + 500, T0 + 1_500, 1],
      ['health check', T0 + 3_000, T0 + 8_000, 2]
    ])
    const gets = root?.children[1]?.children.map((c) => c.span)
    expect(gets?.map((g) => [g.kind, g.status.code, g.status.message, g.startMs, g.endMs])).toEqual([
      [3, 0, '', T0 + 3_000, T0 + 3_123],
      [3, 2, 'HTTP 503', T0 + 5_000, T0 + 5_010]
    ])
    // Every other span id is random and unique, never the root's.
    expect(new Set(spans.map((s) => s.spanId)).size).toBe(spans.length)
  })

  test("TRACEPARENT's span is the root's parent, remote, with its trace state; over http/json, gzipped", async () => {
    const parent = { traceId: 'fedcba9876543210fedcba9876543210', spanId: '1122334455667788', sampled: true, traceState: 'vendor=x1' }
    const t = tracing({ parent, traceId: parent.traceId, protocol: 'http/json', compression: 'gzip' })
    expect(await sendTrace(PLAN, t, options())).toEqual({ sent: true })
    expect(otlp.received[0]).toMatchObject({ encoding: 'json', gzip: true })
    const spans = otlp.spans()
    const [root] = spanTree(spans, { traceId: parent.traceId, parentSpanId: parent.spanId })
    expect(root?.span.spanId).toBe('a1b2c3d4e5f60718')
    expect(root?.span.traceState).toBe('vendor=x1')
    // Bit 9 of the flags: the parent is remote (OTLP's rule for a span whose parent came from outside).
    expect((root?.span.flags ?? 0) & 0x300).toBe(0x300)
  })

  test("a follow of a thousand looks keeps them all (OpenTelemetry's default keeps 128); the scope names the tool", async () => {
    const { MAX_READINGS } = await import('../src/deploy/result.js')
    const looks = Array.from({ length: MAX_READINGS }, (_, i) => ({ name: 'look', at: T0 + 100 + i, attributes: { 'brcloud.look.distribution_id': `d${i}` } }))
    expect(await sendTrace(span('brcloud deploy', T0, T0 + 2_000, { events: looks }), tracing(), options())).toEqual({ sent: true })
    const [root] = otlp.spans()
    expect(root?.events).toHaveLength(MAX_READINGS)
    expect(root?.dropped.events).toBe(0)
    expect(root?.scope).toMatchObject({ name: 'brcloud-deploy', version: expect.any(String) })
  })

  test('a pipeline trace that is not sampled: nothing is sent', async () => {
    const parent = { traceId: 'fedcba9876543210fedcba9876543210', spanId: '1122334455667788', sampled: false, traceState: undefined }
    expect(await sendTrace(PLAN, tracing({ parent }), options())).toEqual({ sent: false, why: "TRACEPARENT says the pipeline's trace is not sampled" })
    expect(otlp.requests).toBe(0)
  })

  test('a collector that refuses: why, from its answer', async () => {
    otlp.refuse(401)
    const sent = await sendTrace(PLAN, tracing(), options())
    expect(sent.sent).toBe(false)
    expect(sent.sent === false && sent.why).toMatch(/401|Unauthorized/i)
  })

  test('a collector that never answers: ended at the limit, named', async () => {
    otlp.hang()
    expect(await sendTrace(PLAN, tracing(), options({ limitMs: 300, limitName: 'what a cancel leaves the trace' }))).toEqual({
      sent: false,
      why: 'no answer within what a cancel leaves the trace (0.3 s)'
    })
  })

  test('a hurry ends it at once, before or during the export', async () => {
    const ended = new AbortController()
    ended.abort()
    expect(await sendTrace(PLAN, tracing(), options({ hurry: ended.signal }))).toEqual({ sent: false, why: 'the run was asked to end at once' })
    otlp.hang()
    const during = new AbortController()
    const sending = sendTrace(PLAN, tracing(), options({ hurry: during.signal, limitMs: 60_000 }))
    await otlp.requested(otlp.requests + 1)
    during.abort()
    expect(await sending).toEqual({ sent: false, why: 'the run was asked to end at once' })
  })
})

describe('traceRun', () => {
  test('sent: one info line with the trace id, the span count and the collector; no warning', async () => {
    await traceRun(() => PLAN, tracing(), options())
    expect(infos).toEqual([`Tracing: trace 0123456789abcdef0123456789abcdef (5 spans) sent to ${otlp.url}.`])
    expect(warnings).toEqual([])
  })

  test('not sent: one warning naming the collector and why, never its headers; the outcome unchanged', async () => {
    otlp.refuse(403)
    await traceRun(() => PLAN, tracing(), options())
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(
      new RegExp(`^Tracing: the trace was not sent to ${otlp.url.replace(/[.]/g, '\\.')} \\(.+\\)\\. The deployment's outcome is unchanged\\.$`)
    )
    expect(warnings[0]).not.toContain('k-123')
    expect(infos).toEqual([])
  })

  test('not sampled: one info line, no warning; a plan that cannot be made: one warning, nothing sent', async () => {
    const parent = { traceId: 'fedcba9876543210fedcba9876543210', spanId: '1122334455667788', sampled: false, traceState: undefined }
    await traceRun(() => PLAN, tracing({ parent }), options())
    expect(infos).toEqual(["Tracing: nothing sent: TRACEPARENT says the pipeline's trace is not sampled."])
    expect(warnings).toEqual([])
    registerSecret('pl4n-s3cret')
    await traceRun(
      () => {
        throw new Error('no plan for pl4n-s3cret')
      },
      tracing(),
      options()
    )
    expect(warnings).toEqual(["Tracing: no trace was made (Error: no plan for ***). The deployment's outcome is unchanged."])
    expect(otlp.requests).toBe(0)
  })

  test('a collector whose refusal repeats a secret (its key in the status line): the warning masks it', async () => {
    registerSecret('k-123')
    const echo = createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        res.writeHead(403, 'Forbidden: key k-123 is not allowed')
        res.end()
      })
    })
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`
      await traceRun(() => PLAN, tracing({ url: `${url}/v1/traces` }), options())
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain('***')
      expect(warnings[0]).not.toContain('k-123')
    } finally {
      await new Promise((resolve) => echo.close(resolve))
    }
  })
})
