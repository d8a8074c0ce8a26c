// The OTLP receiver stand-in (otlp-receiver.ts) checked against the real libraries: spans made with
// @opentelemetry/sdk-trace-base and sent by the OTLP/HTTP exporters, protobuf and JSON, gzip or not, decode by the
// stand-in's own decoder to exactly what was made. Then its strictness (what a collector refuses) and its failure
// modes, as the exporters see them (their ExportResult).
import { readFileSync } from 'node:fs'
import { context, createTraceState, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import { ExportResultCode, type ExportResult } from '@opentelemetry/core'
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { outline, spanTree, startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.js'

const PARENT = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' }
const LINKED = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' }

/** Three spans made with the SDK: a run joining a remote parent (as with TRACEPARENT), with two phases under it. */
function makeSpans(): ReadableSpan[] {
  const memory = new InMemorySpanExporter()
  const resource = resourceFromAttributes({ 'service.name': 'brcloud-deploy', 'deployment.environment.name': 'production' })
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(memory)] })
  const tracer = provider.getTracer('brcloud-deploy', '1.2.3')
  const remote = { ...PARENT, traceFlags: 1, isRemote: true, traceState: createTraceState('vendor=abc') }
  const root = tracer.startSpan('deploy', { startTime: [1700000000, 123456789] }, trace.setSpanContext(context.active(), remote))
  const inRoot = trace.setSpan(context.active(), root)
  const upload = tracer.startSpan(
    'upload',
    {
      kind: SpanKind.CLIENT,
      startTime: [1700000001, 0],
      attributes: { 'brcloud.stack': 'acme', ok: true, bytes: 5_000_000_000, negative: -7, ratio: 0.25, names: ['a', 'b'] },
      links: [{ context: { ...LINKED, traceFlags: 1 }, attributes: { why: 'previous run' } }]
    },
    inRoot
  )
  upload.addEvent('look', { look: 1, state: 'running' }, [1700000002, 500])
  upload.setStatus({ code: SpanStatusCode.ERROR, message: 'upload refused: 413' })
  upload.end([1700000003, 999999999])
  const health = tracer.startSpan('health', { startTime: [1700000004, 0] }, inRoot)
  health.setStatus({ code: SpanStatusCode.OK })
  health.end([1700000004, 1])
  root.end([1700000005, 0])
  return memory.getFinishedSpans()
}

type Exporter = ProtoExporter | JsonExporter
/** The exporters' CompressionAlgorithm.GZIP (an enum of a package this project does not depend on directly). */
const GZIP = 'gzip' as NonNullable<NonNullable<ConstructorParameters<typeof ProtoExporter>[0]>['compression']>
const EXPORTERS = {
  protobuf: (config: ConstructorParameters<typeof ProtoExporter>[0]) => new ProtoExporter(config),
  json: (config: ConstructorParameters<typeof JsonExporter>[0]) => new JsonExporter(config)
}
const exporters: Exporter[] = []
function exporter(encoding: keyof typeof EXPORTERS, config: ConstructorParameters<typeof ProtoExporter>[0] = {}): Exporter {
  const made = EXPORTERS[encoding](config)
  exporters.push(made)
  return made
}
const send = (ex: Exporter, spans: ReadableSpan[]) => new Promise<ExportResult>((resolve) => ex.export(spans, resolve))

let receiver: OtlpReceiver
beforeEach(async () => {
  receiver = await startOtlpReceiver()
})
afterEach(async () => {
  await Promise.all(exporters.splice(0).map((ex) => ex.shutdown()))
  await receiver.close()
})

function byName(spans: ReceivedSpan[], name: string): ReceivedSpan {
  const found = spans.find((s) => s.name === name)
  if (found === undefined) throw new Error(`no span ${name}`)
  return found
}

describe.each(['protobuf', 'json'] as const)('%s, as the exporter sends it', (encoding) => {
  test.each([false, true])('decodes to exactly the spans made (gzip: %s)', async (gzip) => {
    const made = makeSpans()
    const ex = exporter(encoding, { url: receiver.tracesUrl, ...(gzip ? { compression: GZIP } : {}) })
    expect(await send(ex, made)).toEqual({ code: ExportResultCode.SUCCESS })

    expect(receiver.received).toHaveLength(1)
    const [got] = receiver.received
    expect(got).toMatchObject({ path: '/v1/traces', encoding, gzip, contentType: encoding === 'json' ? 'application/json' : 'application/x-protobuf' })
    expect(got?.headers['user-agent']).toMatch(/^OTel-OTLP-Exporter-JavaScript\//)
    expect(got?.resource).toMatchObject({ 'service.name': 'brcloud-deploy', 'deployment.environment.name': 'production' })
    const spans = got?.spans ?? []
    expect(spans.map((s) => s.name).sort()).toEqual(['deploy', 'health', 'upload'])
    const id = (name: string) => made.find((s) => s.name === name)?.spanContext().spanId
    const scope = { name: 'brcloud-deploy', version: '1.2.3', attributes: {} }
    const common = { traceId: PARENT.traceId, traceState: 'vendor=abc', scope, links: [], dropped: { attributes: 0, events: 0, links: 0 } }

    expect(byName(spans, 'upload')).toEqual({
      ...common,
      spanId: id('upload'),
      parentSpanId: id('deploy'),
      flags: 0x101, // sampled; bit 8: "is the parent remote" known, bit 9 unset: a local parent
      name: 'upload',
      kind: 3,
      startNs: 1700000001000000000n,
      endNs: 1700000003999999999n,
      startMs: 1700000001000,
      endMs: 1700000003999.999, // to the microsecond
      attributes: { 'brcloud.stack': 'acme', ok: true, bytes: 5_000_000_000n, negative: -7n, ratio: 0.25, names: ['a', 'b'] },
      events: [{ name: 'look', timeNs: 1700000002000000500n, timeMs: 1700000002000, attributes: { look: 1n, state: 'running' } }],
      links: [{ ...LINKED, traceState: '', flags: 0x101, attributes: { why: 'previous run' } }],
      status: { code: 2, message: 'upload refused: 413' }
    })
    expect(byName(spans, 'deploy')).toMatchObject({
      parentSpanId: PARENT.spanId,
      flags: 0x301,
      kind: 1,
      startNs: 1700000000123456789n,
      endNs: 1700000005000000000n
    })
    expect(byName(spans, 'health')).toMatchObject({ status: { code: 1, message: '' }, startNs: 1700000004000000000n, endNs: 1700000004000000001n })

    expect(outline(spanTree(spans, { traceId: PARENT.traceId, parentSpanId: PARENT.spanId }))).toEqual(['deploy', '  upload', '  health'])
  })

  test('OTEL_EXPORTER_OTLP_ENDPOINT gets /v1/traces appended; OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is used as is', async () => {
    try {
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `${receiver.url}/otlp`
      expect(await send(exporter(encoding), makeSpans())).toEqual({ code: ExportResultCode.SUCCESS })
      process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = `${receiver.url}/custom/traces`
      expect(await send(exporter(encoding), makeSpans())).toEqual({ code: ExportResultCode.SUCCESS })
    } finally {
      delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT
      delete process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
    }
    expect(receiver.received.map((e) => e.path)).toEqual(['/otlp/v1/traces', '/custom/traces'])
  })
})

describe('what a collector refuses (400, 415), whatever the exporters forgive', () => {
  const post = (body: string | Uint8Array, headers: Record<string, string>, path = '/v1/traces') =>
    fetch(`${receiver.url}${path}`, { method: 'POST', headers, body })
  const json = (span: Record<string, unknown>) =>
    JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: PARENT.traceId, spanId: PARENT.spanId, name: 'x', kind: 1, ...span }] }] }] })
  const times = { startTimeUnixNano: '1000', endTimeUnixNano: 2000 } // fixed64 as a string, or a number below 2^53

  test('well-formed OTLP/JSON with unknown fields: accepted, int64 as strings or numbers, every AnyValue kind; the answer is {}', async () => {
    const attributes = [
      { key: 'min', value: { intValue: '-9223372036854775808' } },
      { key: 'bytes', value: { bytesValue: 'AQID' } },
      {
        key: 'kv',
        value: {
          kvlistValue: {
            values: [
              { key: 'a', value: { boolValue: false } },
              { key: 'b', value: {} }
            ]
          }
        }
      },
      { key: 'mixed', value: { arrayValue: { values: [{ doubleValue: 'NaN' }, { intValue: 3 }, { stringValue: '' }] } } }
    ]
    const res = await post(json({ ...times, someday: 1, attributes }), { 'content-type': 'application/json; charset=utf-8' })
    expect([res.status, res.headers.get('content-type'), await res.text()]).toEqual([200, 'application/json', '{}'])
    expect(receiver.spans()).toMatchObject([
      { startNs: 1000n, endNs: 2000n, attributes: { min: -(2n ** 63n), bytes: new Uint8Array([1, 2, 3]), kv: { a: false, b: null }, mixed: [NaN, 3n, ''] } }
    ])
  })

  test.each([
    ['ids in base64', { traceId: 'CvdlGRbNQ92ESOshHIAxnA==' }, /traceId: .*base64\? OTLP\/JSON ids are hex/],
    ['a span id of 4 bytes', { spanId: 'b7ad6b71' }, /spanId: 4 bytes, this id has 8/],
    ['an enum by name', { kind: 'SPAN_KIND_INTERNAL' }, /kind: "SPAN_KIND_INTERNAL": OTLP\/JSON enums are integers/],
    ['kind unspecified', { kind: 0 }, /kind: 0: OTLP's SpanKind is 1-5/],
    ['a proto field name', { start_time_unix_nano: '1' }, /the key start_time_unix_nano: OTLP\/JSON keys are lowerCamelCase/],
    ['nanoseconds as a number beyond 2^53', { startTimeUnixNano: 2 ** 60 }, /startTimeUnixNano: .*a decimal string, or a number below 2\^53/],
    ['an end before the start', { startTimeUnixNano: '2', endTimeUnixNano: '1' }, /ends \(1\) before it starts \(2\)/],
    [
      'an attribute key twice',
      {
        attributes: [
          { key: 'k', value: {} },
          { key: 'k', value: {} }
        ]
      },
      /the key k twice/
    ],
    [
      'two values in one AnyValue',
      { attributes: [{ key: 'k', value: { stringValue: 'a', intValue: 1 } }] },
      /stringValue and intValue: an AnyValue holds one value/
    ]
  ])('OTLP/JSON with %s: 400, the reason says where', async (_, span, reason) => {
    const res = await post(json({ ...times, ...span }), { 'content-type': 'application/json' })
    expect(res.status).toBe(400)
    expect(receiver.rejected.map((r) => r.reason)).toEqual([expect.stringMatching(reason)])
    expect(receiver.received).toEqual([])
  })

  test('protobuf cut short, or with a wrong wire type: 400; an unknown field: skipped', async () => {
    const span = [0x0a, 0x10, ...Buffer.from(PARENT.traceId, 'hex'), 0x12, 0x08, ...Buffer.from(PARENT.spanId, 'hex'), 0x2a, 0x01, 0x78, 0x30, 0x01]
    const times = [0x39, ...[1, 0, 0, 0, 0, 0, 0, 0], 0x41, ...[2, 0, 0, 0, 0, 0, 0, 0], 0xf8, 0x06, 0x07] // + field 111, unknown
    const request = (spanBytes: number[]) => {
      const scopeSpans = [0x12, spanBytes.length, ...spanBytes]
      const resourceSpans = [0x12, scopeSpans.length, ...scopeSpans]
      return new Uint8Array([0x0a, resourceSpans.length, ...resourceSpans])
    }
    const headers = { 'content-type': 'application/x-protobuf' }
    const ok = await post(request([...span, ...times]), headers)
    expect([ok.status, await ok.text()]).toEqual([200, ''])
    expect(receiver.spans()).toMatchObject([{ name: 'x', kind: 1, startNs: 1n, endNs: 2n }])
    expect((await post(request([...span, ...times]).subarray(0, 30), headers)).status).toBe(400)
    expect((await post(request([...span, 0x38, 0x01, ...times]), headers)).status).toBe(400) // start time as a varint
    expect(receiver.rejected.map((r) => r.reason)).toEqual([
      expect.stringMatching(/^resourceSpans: a field of \d+ bytes with \d+ left/),
      'resourceSpans[0].scopeSpans[0].spans[0].startTimeUnixNano: wire type 0 where the proto says 1'
    ])
  })

  test('another content type or encoding: 415; not a POST: 405; each counted', async () => {
    expect((await post('{}', { 'content-type': 'text/plain' })).status).toBe(415)
    expect((await post('{}', { 'content-type': 'application/json', 'content-encoding': 'br' })).status).toBe(415)
    expect((await fetch(receiver.tracesUrl)).status).toBe(405)
    expect(receiver.requests).toBe(3)
    expect(receiver.rejected.map((r) => r.status)).toEqual([415, 415, 405])
  })
})

test('requested(n) and arrived(n) resolve once that many requests came and exports were accepted; a mode to start with', async () => {
  await receiver.close()
  receiver = await startOtlpReceiver({ mode: { kind: 'refuse', status: 401 } })
  const [requested, arrived] = [receiver.requested(1), receiver.arrived(1)]
  let accepted = false
  void arrived.then(() => (accepted = true))
  expect((await send(exporter('json', { url: receiver.tracesUrl }), makeSpans())).code).toBe(ExportResultCode.FAILED)
  await requested
  expect(accepted).toBe(false)
  receiver.normal()
  expect(await send(exporter('json', { url: receiver.tracesUrl }), makeSpans())).toEqual({ code: ExportResultCode.SUCCESS })
  await arrived
  expect([receiver.requests, receiver.received.length]).toEqual([2, 1])
})

describe('failure modes, as the exporter reports them', () => {
  const FAST = { timeoutMillis: 200 } // below the exporter's first retry backoff (1 s ± 20%): a retryable failure is final

  test('503 with Retry-After 0, once: the exporter retries and succeeds; then normal again', async () => {
    receiver.refuse(503, { retryAfter: 0, times: 1 })
    expect(await send(exporter('protobuf', { url: receiver.tracesUrl, timeoutMillis: 30000 }), makeSpans())).toEqual({ code: ExportResultCode.SUCCESS })
    expect(receiver.requests).toBe(2)
    expect(receiver.received).toHaveLength(1)
  })

  test.each([
    ['refused 401 (not retried)', (r: OtlpReceiver) => r.refuse(401)],
    ['refused 503 (retryable, no time left)', (r: OtlpReceiver) => r.refuse(503)],
    ['hanging', (r: OtlpReceiver) => r.hang()],
    ['dropping the connection', (r: OtlpReceiver) => r.drop()],
    ['slower than the timeout', (r: OtlpReceiver) => r.slow(60000)]
  ])('%s: the export fails', async (_, mode) => {
    mode(receiver)
    const result = await send(exporter('json', { url: receiver.tracesUrl, ...FAST }), makeSpans())
    expect(result.code).toBe(ExportResultCode.FAILED)
    expect(receiver.requests).toBeGreaterThanOrEqual(1)
    receiver.normal()
    expect(await send(exporter('json', { url: receiver.tracesUrl, timeoutMillis: 30000 }), makeSpans())).toEqual({ code: ExportResultCode.SUCCESS })
    expect(receiver.received.at(-1)?.spans).toHaveLength(3)
  })
})

test('the receiver shares no code with the exporters: no @opentelemetry import, static or import()', () => {
  for (const file of ['__tests__/otlp-receiver.ts', '__tests__/otlp-decode.ts']) {
    expect(readFileSync(file, 'utf8')).not.toMatch(/(?:from|import)\s*\(?\s*['"]@opentelemetry\//)
  }
})

describe('spanTree', () => {
  const span = (spanId: string, parentSpanId: string, name = spanId): ReceivedSpan =>
    ({ traceId: PARENT.traceId, spanId, parentSpanId, name, startNs: 1n }) as ReceivedSpan

  test('a tree from its roots; children in start order', () => {
    expect(outline(spanTree([span('b', 'a'), span('a', ''), span('c', 'b'), span('d', 'a')]))).toEqual(['a', '  b', '    c', '  d'])
  })
  test('refuses a span whose parent is neither in the set nor the expected parent, a cycle, a span id twice, another trace', () => {
    expect(() => spanTree([span('a', ''), span('b', 'z')])).toThrow('span "b" (b) has the parent z: not among the spans, nor the expected parent (none)')
    expect(() => spanTree([span('a', '')], { parentSpanId: 'p' })).toThrow('span "a" (a) has the parent (none)')
    expect(() => spanTree([span('r', ''), span('a', 'b'), span('b', 'a')])).toThrow('a cycle of parents: span "a" (a), span "b" (b) reach no root')
    expect(() => spanTree([span('a', ''), span('a', '', 'again')])).toThrow('span "again" (a): its span id is taken by span "a" (a)')
    expect(() => spanTree([span('a', '')], { traceId: LINKED.traceId })).toThrow(`span "a" (a) is in trace ${PARENT.traceId}, not ${LINKED.traceId}`)
  })
})
