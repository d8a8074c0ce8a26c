// The status report's trace in-process (src/status/trace.ts, src/status/timing.ts), against the OTLP receiver: the
// settings read with the face's input name, what the JSON and summary say of the trace, how an error names the
// ending, the limits after a stop (a cancel's 1.5 s, none after SIGTERM or a second signal, each said), a signal
// during the send ending it, and the code host's reads timed by their port names.
import { useTestPort } from './test-port.js'
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.js'

const infos: string[] = []
const warnings: string[] = []
useTestPort({ info: (m: string) => void infos.push(m), warning: (m: string) => void warnings.push(m) })

const { readStatusTracing, traceNote, endingOfError, traceStatus } = await import('../src/status/trace.js')
const { timedHost, MAX_HOST_READS } = await import('../src/status/timing.js')
const { StatusCancelled } = await import('../src/status/stop.js')
const { CodeHostCallFailed } = await import('../src/code-host/port.js')
const { InputError } = await import('../src/errors.js')
// The modules traceStatus loads with import(), loaded first: Jest's module registry links them only from the top level.
await import('../src/tracing/index.js')
await import('../src/tracing/status-plan.js')
type StatusEnding = import('../src/status/trace.js').StatusEnding
type CodeHost = import('../src/code-host/port.js').CodeHost
type HostRead = import('../src/status/timing.js').HostRead

let otlp: OtlpReceiver
beforeEach(async () => {
  otlp = await startOtlpReceiver()
  infos.length = 0
  warnings.length = 0
})
afterEach(() => otlp.close())

const context = {
  sha: '',
  noCommit: '',
  ref: '',
  repository: 'acme/site',
  serverUrl: 'https://github.com',
  runUrl: undefined,
  workspace: '/w',
  runId: '9',
  runAttempt: '1',
  actor: undefined
}
const env = (over: Record<string, string> = {}) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, ...over })

/** Signals as the command's process gives them: the test fires them. */
function signals() {
  const handlers = new Map<string, Set<(s: string) => void>>()
  return {
    on: (event: string, fn: (s: string) => void) => void (handlers.get(event) ?? handlers.set(event, new Set()).get(event))?.add(fn),
    off: (event: string, fn: (s: string) => void) => void handlers.get(event)?.delete(fn),
    fire: (event: string) => [...(handlers.get(event) ?? [])].forEach((fn) => fn(event)),
    count: () => [...handlers.values()].reduce((n, s) => n + s.size, 0)
  }
}

const facts = (ending: StatusEnding) => ({ context, startedAt: Date.now() - 50, endedAt: Date.now(), ending })
const tracingOf = (over: Record<string, string> = {}) => {
  const t = readStatusTracing('', '--otel-endpoint', env(over))
  if (t === undefined) throw new Error('tracing is off')
  return t
}

describe('the settings and what the report says of them', () => {
  test("a bad flag is refused naming the face's input; a malformed variable says the report is unaffected", () => {
    expect(() => readStatusTracing('c:4318', '--otel-endpoint', {})).toThrow(InputError)
    expect(() => readStatusTracing('c:4318', '--otel-endpoint', {})).toThrow(/^--otel-endpoint /)
    expect(readStatusTracing('', 'otel-endpoint', { OTEL_EXPORTER_OTLP_ENDPOINT: 'otel collector' })).toBeUndefined()
    expect(warnings).toEqual([
      expect.stringMatching(
        /^OTEL_EXPORTER_OTLP_ENDPOINT 'otel collector' is not an absolute address: .* No trace is sent for this run; the report is unaffected\.$/
      )
    ])
  })

  test('the note: the id, the collector, and whether it joins the pipeline', () => {
    expect(traceNote(undefined)).toBeUndefined()
    const own = tracingOf()
    expect(traceNote(own)).toEqual({ id: own.traceId, collector: otlp.url, joined: false })
    const joined = tracingOf({ TRACEPARENT: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' })
    expect(traceNote(joined)).toEqual({ id: '0af7651916cd43dd8448eb211c80319c', collector: otlp.url, joined: true })
  })

  test("an error's ending: a cancel, a class, or _OTHER for a bare Error", () => {
    expect(endingOfError(new StatusCancelled('cancel', 'SIGINT', true), 'm', 130)).toEqual({
      result: 'cancellation',
      errorType: 'cancelled',
      message: 'm',
      exitCode: 130,
      stopped: 'cancel'
    })
    expect(endingOfError(new InputError('bad'), 'bad', 2)).toEqual({ result: 'failure', errorType: 'InputError', message: 'bad', exitCode: 2 })
    expect(endingOfError(new Error('x'), 'x')).toMatchObject({ errorType: '_OTHER' })
    expect(endingOfError('a string', 'x')).toMatchObject({ errorType: '_OTHER' })
  })
})

describe('sending it', () => {
  test('a report that ended: sent within the trace limit, said in one line, the signals let go', async () => {
    const s = signals()
    await traceStatus(tracingOf(), undefined, facts({ result: 'success' }), s)
    expect({ warnings, requests: otlp.requests, rejected: otlp.rejected.map((r) => r.reason) }).toEqual({ warnings: [], requests: 1, rejected: [] })
    expect(otlp.received).toHaveLength(1)
    expect(infos).toEqual([expect.stringMatching(/^Tracing: trace [0-9a-f]{32} \(1 spans\) sent to /)])
    expect(s.count()).toBe(0)
  })

  test("after a cancel: at most 1.5 s, named as what a cancel leaves; a shorter trace limit is the trace's own", async () => {
    otlp.hang()
    await traceStatus(tracingOf(), undefined, facts({ result: 'cancellation', stopped: 'cancel' }), signals())
    expect(warnings).toEqual([expect.stringContaining('(no answer within what a cancel leaves the trace (1.5 s)).')])
    warnings.length = 0
    await traceStatus(tracingOf({ OTEL_EXPORTER_OTLP_TIMEOUT: '200' }), undefined, facts({ result: 'cancellation', stopped: 'cancel' }), signals())
    expect(warnings).toEqual([expect.stringContaining('(no answer within OTEL_EXPORTER_OTLP_TIMEOUT (0.2 s)).')])
  })

  test('after SIGTERM, or once hurried by a second signal: nothing sent, and said', async () => {
    await traceStatus(tracingOf(), undefined, facts({ result: 'cancellation', stopped: 'terminate' }), signals())
    await traceStatus(tracingOf(), undefined, facts({ result: 'cancellation', stopped: 'cancel' }), signals(), true)
    expect(otlp.requests).toBe(0)
    expect(warnings).toEqual([
      expect.stringMatching(/\(SIGTERM leaves no time to send it\)\. The report's outcome and exit code are unchanged\.$/),
      expect.stringMatching(/\(the run was asked to end at once\)\. The report's outcome and exit code are unchanged\.$/)
    ])
  })

  test('a signal during the send ends it at once', async () => {
    otlp.hang()
    const s = signals()
    const sending = traceStatus(tracingOf({ OTEL_EXPORTER_OTLP_TIMEOUT: '60000' }), undefined, facts({ result: 'success' }), s)
    await otlp.requested(1)
    s.fire('SIGTERM')
    await sending
    expect(warnings).toEqual([expect.stringContaining('(the run was asked to end at once)')])
  })
})

describe("the code host's reads, timed", () => {
  const host = (fail = false): CodeHost =>
    ({
      host: 'GitHub',
      project: 'acme/site',
      compare: () => (fail ? Promise.reject(new CodeHostCallFailed('compare', 401, 'no', 'bad-token')) : Promise.resolve('c')),
      listTags: () => Promise.resolve('t'),
      listDeploymentPages: () => Promise.resolve('d'),
      latestStatus: () => Promise.resolve('s'),
      other: () => 'o'
    }) as unknown as CodeHost

  test('each read by its name, its answer or failure passed on; any other member as it is', async () => {
    const reads: HostRead[] = []
    const h = timedHost(host(), reads) as unknown as Record<string, (...a: unknown[]) => unknown>
    expect(await h.compare?.()).toBe('c')
    expect(await h.listTags?.()).toBe('t')
    expect(await h.listDeploymentPages?.()).toBe('d')
    expect(await h.latestStatus?.()).toBe('s')
    expect(h.other?.()).toBe('o')
    expect(reads.map((r) => [r.host, r.call, r.failure])).toEqual([
      ['GitHub', 'compare', undefined],
      ['GitHub', 'list tags', undefined],
      ['GitHub', 'list deployments', undefined],
      ['GitHub', 'deployment status', undefined]
    ])
    const failing = timedHost(host(true), reads) as unknown as Record<string, () => Promise<unknown>>
    await expect(failing.compare?.()).rejects.toThrow(CodeHostCallFailed)
    expect(reads.at(-1)).toMatchObject({ call: 'compare', failure: 'bad-token' })
  })

  test('at most MAX_HOST_READS are kept', async () => {
    const reads: HostRead[] = []
    const h = timedHost(host(), reads) as unknown as Record<string, () => Promise<unknown>>
    for (let i = 0; i < MAX_HOST_READS + 3; i++) await h.listTags?.()
    expect(reads).toHaveLength(MAX_HOST_READS)
  })
})
