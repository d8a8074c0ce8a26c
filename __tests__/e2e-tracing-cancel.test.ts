// A cancel with tracing on (issue 45), as a runner sends it against the bundled action: the trace still goes, a
// cancellation, within GitHub's grace; a collector that hangs costs what a cancel leaves the trace, no more.
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { spanTree, startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.js'
import { release, run, sweepAndClose } from './e2e-support.js'

const PARENT = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' }
const HEADER_SECRET = 'otlp-Key-7f3e9c2a'

let emu: Emulator
let otlp: OtlpReceiver
beforeEach(async () => {
  // A deploy that stays in progress for as long as the test lasts.
  emu = await startEmulator({ deploySeconds: Infinity })
  otlp = await startOtlpReceiver()
})
afterEach(async () => {
  await otlp.close()
  await sweepAndClose(emu, [HEADER_SECRET])
})

const traced = () => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
  OTEL_EXPORTER_OTLP_HEADERS: `x-api-key=${HEADER_SECRET}`,
  TRACEPARENT: `00-${PARENT.traceId}-${PARENT.spanId}-01`
})
const inputs = () => ({ 'api-url': emu.url, username: emu.username, password: emu.password, environment: 'production', distribution: release('v1') })
const cancel = { when: (stdout: string) => stdout.includes('Release in-progress:') }

test('SIGINT while following: the trace still goes, a cancellation, within the grace', async () => {
  const r = await run(inputs(), { env: traced(), cancel })
  expect(r.code).toBe(1)
  expect(r.exitAfterSigintMs ?? Infinity).toBeLessThan(10_000)
  const [root] = spanTree(otlp.spans(), { traceId: PARENT.traceId, parentSpanId: PARENT.spanId })
  expect(root?.span.attributes).toMatchObject({
    'cicd.pipeline.task.run.result': 'cancellation',
    'error.type': 'cancelled',
    'brcloud.stopped': 'cancel',
    'brcloud.release_state': 'in-progress'
  })
  expect(root?.span.status.message).toContain('The run was cancelled (SIGINT)')
  expect(r.errors[0]).toContain(root?.span.status.message)
})

test('SIGINT with a collector that hangs: one warning, the 1.5 s a cancel leaves, still within the grace', async () => {
  otlp.hang()
  const r = await run(inputs(), { env: traced(), cancel })
  expect(r.code).toBe(1)
  expect(r.exitAfterSigintMs ?? Infinity).toBeLessThan(10_000)
  expect(r.visible.split('\n').filter((l) => l.startsWith('::warning::Tracing'))).toEqual([
    expect.stringContaining('(no answer within what a cancel leaves the trace (1.5 s))')
  ])
})
