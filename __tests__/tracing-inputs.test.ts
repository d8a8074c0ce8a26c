// Tracing's settings (src/inputs/tracing.ts): off unless an endpoint is given, OpenTelemetry's variables read in its
// own order (the traces' own over the general ones), the headers masked before anything is checked, a bad otel-endpoint
// refused, a malformed OTEL_* variable turning tracing off with a warning, TRACEPARENT joined, and the time kept for
// the export in the run's budget.
import { useTestPort } from './test-port.js'

const secrets: string[] = []
const warnings: string[] = []
useTestPort({ setSecret: (s: string) => void secrets.push(s), warning: (m: string) => void warnings.push(m) })

const { readTracingInputs } = await import('../src/inputs/tracing.js')
const { readInputs } = await import('../src/inputs/index.js')
const { InputError } = await import('../src/errors.js')

const BASE = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318' }
const read = (env: Record<string, string>, input = '') => readTracingInputs(input, env)
const on = (env: Record<string, string>, input = '') => {
  const r = read(env, input)
  if (r.tracing === undefined) throw new Error(`tracing is off: ${r.warnings.join(' ')}`)
  return r.tracing
}

beforeEach(() => {
  secrets.length = 0
  warnings.length = 0
})

describe('off unless configured', () => {
  test('no endpoint: off, nothing to say', () => {
    expect(read({})).toEqual({ tracing: undefined, warnings: [] })
    expect(read({ OTEL_SERVICE_NAME: 'x', TRACEPARENT: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' })).toEqual({
      tracing: undefined,
      warnings: []
    })
  })

  test('OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none: off, even with an endpoint', () => {
    expect(read({ ...BASE, OTEL_SDK_DISABLED: 'TRUE' }).tracing).toBeUndefined()
    expect(read({ ...BASE, OTEL_TRACES_EXPORTER: 'otlp, none' }).tracing).toBeUndefined()
    expect(read({ ...BASE, OTEL_SDK_DISABLED: 'false', OTEL_TRACES_EXPORTER: 'otlp' }).tracing).toBeDefined()
  })
})

describe('where the spans go', () => {
  test("a base endpoint gets OTLP's /v1/traces; the traces' own endpoint is used as it is and wins; the input wins over both", () => {
    expect(on(BASE)).toMatchObject({ url: 'http://otel-collector:4318/v1/traces', urlFrom: 'OTEL_EXPORTER_OTLP_ENDPOINT' })
    expect(on({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otlp.example.com/otlp/' }).url).toBe('https://otlp.example.com/otlp/v1/traces')
    expect(on({ ...BASE, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://t.example.com/custom/path' })).toMatchObject({
      url: 'https://t.example.com/custom/path',
      urlFrom: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
    })
    expect(on({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://t.example.com/x' }, ' http://127.0.0.1:4318 ')).toMatchObject({
      url: 'http://127.0.0.1:4318/v1/traces',
      urlFrom: 'otel-endpoint'
    })
  })

  test('a bad otel-endpoint is refused as an input, saying how to write it', () => {
    expect(() => read({}, 'otel-collector:4318')).toThrow(InputError)
    expect(() => read({}, 'not an address')).toThrow(/otel-endpoint 'not an address' is not an absolute address: .*http:\/\/otel-collector:4318/)
    expect(() => read({}, 'grpc://c:4317')).toThrow(/must start with http:\/\/ or https:\/\//)
    expect(() => read({}, 'https://user:pa55word@c.example.com')).toThrow(
      /must not contain a user name or password: put the collector's credentials in OTEL_EXPORTER_OTLP_HEADERS/
    )
    // The password in it is masked before the refusal is shown.
    expect(secrets).toContain('pa55word')
  })

  test('a malformed endpoint variable turns tracing off with one warning naming it; the deploy goes on', () => {
    const r = read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'otel collector' })
    expect(r.tracing).toBeUndefined()
    expect(r.warnings).toEqual([
      "OTEL_EXPORTER_OTLP_ENDPOINT 'otel collector' is not an absolute address: write the collector's OTLP/HTTP address in full, for example http://otel-collector:4318. No trace is sent for this run; the deployment is unaffected."
    ])
    expect(read({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'collector:4318' }).warnings).toEqual([
      "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT 'collector:4318' must start with http:// or https:// (OTLP over HTTP; a collector's OTLP/HTTP port is 4318 by default). No trace is sent for this run; the deployment is unaffected."
    ])
    // Turned off by OTEL_SDK_DISABLED, a malformed endpoint says nothing: the job asked for no traces.
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'otel collector', OTEL_SDK_DISABLED: 'true' })).toEqual({ tracing: undefined, warnings: [] })
    expect(() => read({ OTEL_SDK_DISABLED: 'true' }, 'c:4318')).toThrow(InputError)
  })
})

describe('how they are sent', () => {
  test('protocol: http/protobuf by default, http/json when asked, the traces own variable first', () => {
    expect(on(BASE).protocol).toBe('http/protobuf')
    expect(on({ ...BASE, OTEL_EXPORTER_OTLP_PROTOCOL: 'HTTP/JSON' }).protocol).toBe('http/json')
    expect(on({ ...BASE, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' }).protocol).toBe('http/protobuf')
  })

  test('grpc, which this step does not speak, or an unknown protocol: off with a warning that says what to set', () => {
    expect(read({ ...BASE, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }).warnings[0]).toMatch(
      /^OTEL_EXPORTER_OTLP_PROTOCOL is grpc, which this step does not speak: set OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http\/protobuf .* No trace is sent/
    )
    expect(read({ ...BASE, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'thrift' }).warnings[0]).toMatch(
      /^OTEL_EXPORTER_OTLP_TRACES_PROTOCOL 'thrift' is not an OTLP protocol/
    )
  })

  test('headers: decoded, merged (the traces own win), each value masked first, also when tracing ends up off', () => {
    const t = on({
      ...BASE,
      OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Bearer%20abc123,x-team=web',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-team=deploys'
    })
    expect(t.headers).toEqual({ authorization: 'Bearer abc123', 'x-team': 'deploys' })
    expect(secrets).toEqual(expect.arrayContaining(['Bearer%20abc123', 'Bearer abc123', 'web', 'deploys']))
    secrets.length = 0
    const off = read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'bad', OTEL_EXPORTER_OTLP_HEADERS: 'api-key=k3y' })
    expect(off.tracing).toBeUndefined()
    expect(secrets).toContain('k3y')
  })

  test('the whole variable is masked too, and a value that cannot be decoded as it is written', () => {
    read({ ...BASE, OTEL_EXPORTER_OTLP_HEADERS: ' api-key=k%2b1, other=s3cr%E0%A4%A ' })
    expect(secrets).toEqual(expect.arrayContaining(['api-key=k%2b1, other=s3cr%E0%A4%A', 'k%2b1', 'k+1', 's3cr%E0%A4%A']))
  })

  test('a malformed header: off, named by its position, its value never repeated', () => {
    const r = read({ ...BASE, OTEL_EXPORTER_OTLP_HEADERS: 'a=1,s3cr3t-without-equals' })
    expect(r.tracing).toBeUndefined()
    expect(r.warnings).toEqual([
      "OTEL_EXPORTER_OTLP_HEADERS: its 2nd header is not key=value (a token, '=', a percent-encoded value); correct it. No trace is sent for this run; the deployment is unaffected."
    ])
    expect(read({ ...BASE, OTEL_EXPORTER_OTLP_HEADERS: 'k=%E0%A4%A' }).warnings[0]).toMatch(/its 1st header is not key=value/)
  })

  test('timeout: 10 s by default, milliseconds from the variables, a bad one turns tracing off', () => {
    expect(on(BASE).timeoutMs).toBe(10_000)
    expect(on({ ...BASE, OTEL_EXPORTER_OTLP_TIMEOUT: '2500' }).timeoutMs).toBe(2500)
    expect(on({ ...BASE, OTEL_EXPORTER_OTLP_TIMEOUT: '2500', OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '700' }).timeoutMs).toBe(700)
    for (const bad of ['0', '60001', '1.5', '10s'])
      expect(read({ ...BASE, OTEL_EXPORTER_OTLP_TIMEOUT: bad }).warnings[0]).toMatch(/is not a time limit in milliseconds from 1 to 60000/)
    expect(on({ ...BASE, OTEL_EXPORTER_OTLP_TIMEOUT: '60000' }).timeoutMs).toBe(60_000)
  })

  test('compression: none by default, gzip when asked', () => {
    expect(on(BASE).compression).toBe('none')
    expect(on({ ...BASE, OTEL_EXPORTER_OTLP_COMPRESSION: 'gzip' }).compression).toBe('gzip')
    expect(read({ ...BASE, OTEL_EXPORTER_OTLP_COMPRESSION: 'zstd' }).warnings[0]).toMatch(/is not a compression OTLP knows/)
  })
})

describe('the service and the resource', () => {
  test("OTEL_SERVICE_NAME, else the resource's service.name, else brcloud-deploy; the attributes decoded", () => {
    expect(on(BASE)).toMatchObject({ serviceName: 'brcloud-deploy', resource: {} })
    expect(on({ ...BASE, OTEL_RESOURCE_ATTRIBUTES: 'service.name=site-deploys,team=web%20shop' })).toMatchObject({
      serviceName: 'site-deploys',
      resource: { 'service.name': 'site-deploys', team: 'web shop' }
    })
    expect(on({ ...BASE, OTEL_SERVICE_NAME: 'deploys', OTEL_RESOURCE_ATTRIBUTES: 'service.name=x' }).serviceName).toBe('deploys')
  })

  test("a malformed OTEL_RESOURCE_ATTRIBUTES is dropped whole (OpenTelemetry's rule), with a warning; the trace still goes", () => {
    const r = read({ ...BASE, OTEL_RESOURCE_ATTRIBUTES: 'team=web,broken' })
    expect(r.tracing?.resource).toEqual({})
    expect(r.warnings).toEqual([
      "OTEL_RESOURCE_ATTRIBUTES: its 2nd attribute is not key=value (a token, '=', a percent-encoded value); correct it. The resource attributes are left out of this run's trace."
    ])
  })
})

describe('the trace the run joins, and its id', () => {
  test("TRACEPARENT: the pipeline's trace and span, sampled or not, with TRACESTATE", () => {
    const t = on({ ...BASE, TRACEPARENT: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', TRACESTATE: 'congo=t61rcWkgMzE' })
    expect(t.parent).toEqual({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', sampled: true, traceState: 'congo=t61rcWkgMzE' })
    expect(t.traceId).toBe('0af7651916cd43dd8448eb211c80319c')
    expect(t.rootSpanId).toMatch(/^[0-9a-f]{16}$/)
    expect(t.rootSpanId).not.toBe('b7ad6b7169203331')
    expect(on({ ...BASE, TRACEPARENT: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00' }).parent).toMatchObject({
      sampled: false,
      traceState: undefined
    })
    // A later version may add fields: read as version 00 (W3C's rule).
    expect(on({ ...BASE, TRACEPARENT: '01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-03-extra' }).parent).toMatchObject({ sampled: true })
  })

  test('a malformed TRACEPARENT is ignored with a warning: the run starts a trace of its own', () => {
    for (const bad of [
      '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331',
      '00-00000000000000000000000000000000-b7ad6b7169203331-01',
      '00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01',
      'ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      '00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01',
      '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra'
    ]) {
      const r = read({ ...BASE, TRACEPARENT: bad })
      expect(r.tracing?.parent).toBeUndefined()
      expect(r.warnings).toEqual([
        `TRACEPARENT '${bad}' is not a W3C traceparent (00-<32 hex trace id>-<16 hex span id>-<2 hex flags>): this run starts a trace of its own.`
      ])
    }
  })

  test('a trace of its own: a new random id each run, never all zeros', () => {
    const a = on(BASE)
    const b = on(BASE)
    expect(a.traceId).toMatch(/^[0-9a-f]{32}$/)
    expect(a.traceId).not.toBe(b.traceId)
    expect(a.traceId).not.toMatch(/^0+$/)
    expect(a.parent).toBeUndefined()
  })
})

describe('in the run', () => {
  const inputs = (values: Record<string, string>) => (name: string) => values[name] ?? ''
  const DEPLOY = { 'api-url': 'https://api.example.com', username: 'u', password: 'p', distribution: 'site.tar.gz', environment: 'test' }

  test("readInputs reads them once, warns through the port, and keeps the export's limit in the watchdog's budget", () => {
    const off = readInputs(inputs(DEPLOY), {})
    expect(off.tracing).toBeUndefined()
    const traced = readInputs(inputs(DEPLOY), { ...BASE, OTEL_EXPORTER_OTLP_TIMEOUT: '30000', TRACEPARENT: 'nonsense' })
    expect(traced.tracing?.url).toBe('http://otel-collector:4318/v1/traces')
    expect(traced.watchdogMs - off.watchdogMs).toBe(30_000)
    expect(warnings).toEqual([expect.stringMatching(/^TRACEPARENT 'nonsense' is not a W3C traceparent/)])
  })

  test('the input otel-endpoint is read by readInputs too, and refused before any request when bad', () => {
    expect(readInputs(inputs({ ...DEPLOY, 'otel-endpoint': 'http://127.0.0.1:4318' }), {}).tracing?.urlFrom).toBe('otel-endpoint')
    expect(() => readInputs(inputs({ ...DEPLOY, 'otel-endpoint': 'c:4318' }), {})).toThrow(InputError)
  })

  test("total-timeout-minutes too short for the export is refused, naming the trace's limit", () => {
    expect(() => readInputs(inputs({ ...DEPLOY, 'total-timeout-minutes': '15' }), { ...BASE, OTEL_EXPORTER_OTLP_TIMEOUT: '60000' })).toThrow(
      /deploy-timeout-minutes 15 \+ the trace's export limit \(OTEL_EXPORTER_OTLP_TIMEOUT\) 1 = 16 min/
    )
  })
})

describe('the edges (mutation testing)', () => {
  test('a blank otel-endpoint with the SDK disabled reads nothing else: a malformed variable says nothing', () => {
    expect(read({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'otel collector' }, '   ')).toEqual({ tracing: undefined, warnings: [] })
  })

  test('a base endpoint with several trailing slashes gets one /v1/traces', () => {
    expect(on({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318//' }).url).toBe('http://c:4318/v1/traces')
  })

  test('a user name alone in the address is refused too', () => {
    expect(() => read({}, 'https://collector-user@c.example.com')).toThrow(/must not contain a user name or password/)
  })

  test("the traces' own compression alone; none said outright; a limit of 1 ms", () => {
    expect(on({ ...BASE, OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: 'gzip' }).compression).toBe('gzip')
    expect(read({ ...BASE, OTEL_EXPORTER_OTLP_COMPRESSION: 'none' })).toMatchObject({ tracing: { compression: 'none' }, warnings: [] })
    expect(on({ ...BASE, OTEL_EXPORTER_OTLP_TIMEOUT: '1' }).timeoutMs).toBe(1)
  })

  test('a header with no name still has its value masked; a key alone (no value) is not a secret', () => {
    read({ ...BASE, OTEL_EXPORTER_OTLP_HEADERS: '=n0-name-s3cret,flag' })
    expect(secrets).toContain('n0-name-s3cret')
    expect(secrets).not.toContain('flag')
  })

  test('spaces around keys and values, and an empty entry, are what OTLP headers allow', () => {
    const t = on({ ...BASE, OTEL_EXPORTER_OTLP_HEADERS: 'x-a = 1 , x-b=2,' })
    expect(t.headers).toEqual({ 'x-a': '1', 'x-b': '2' })
  })

  test('a key with a space in it is not a header name; the position is counted in words', () => {
    expect(read({ ...BASE, OTEL_EXPORTER_OTLP_HEADERS: 'x a=1' }).warnings[0]).toMatch(/its 1st header is not key=value/)
    expect(read({ ...BASE, OTEL_EXPORTER_OTLP_HEADERS: 'a=1,b=2,bad' }).warnings[0]).toMatch(/its 3rd header/)
    expect(read({ ...BASE, OTEL_EXPORTER_OTLP_HEADERS: 'a=1,b=2,c=3,bad' }).warnings[0]).toMatch(/its 4th header/)
  })

  test('the service name and the pipeline context are read trimmed', () => {
    const t = on({
      ...BASE,
      OTEL_SERVICE_NAME: ' deploys ',
      TRACEPARENT: ' 00-0af7651916cd43dd8448eb211c803190-00f067aa0ba902b0-01 ',
      TRACESTATE: ' congo=t61rcWkgMzE '
    })
    expect(t.serviceName).toBe('deploys')
    // Ids that begin or end with zeros are ids; only all zeros is not.
    expect(t.parent).toEqual({ traceId: '0af7651916cd43dd8448eb211c803190', spanId: '00f067aa0ba902b0', sampled: true, traceState: 'congo=t61rcWkgMzE' })
  })

  test('TRACEPARENT is the whole value: nothing before it, nothing after its flags', () => {
    for (const bad of ['x00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01x']) {
      expect(read({ ...BASE, TRACEPARENT: bad }).tracing?.parent).toBeUndefined()
    }
  })
})
