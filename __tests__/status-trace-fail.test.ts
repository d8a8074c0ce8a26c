// The status report's trace when its modules fail to load or throw (src/status/trace.ts): one warning, its message
// scrubbed of every secret the run knows, the exit unchanged; nothing is sent.
import { jest } from '@jest/globals'
import { useTestPort } from './test-port.js'

const warnings: string[] = []
useTestPort({ warning: (m: string) => void warnings.push(m) })

jest.unstable_mockModule('../src/tracing/index.js', () => ({
  traceRun: () => Promise.reject(new Error('the collector library broke while holding s3cr3t-header-value'))
}))

const { traceStatus } = await import('../src/status/trace.js')
const { registerSecret } = await import('../src/secrets.js')

test("a trace module that throws: one warning, the secret in its message masked, the report's outcome unchanged", async () => {
  registerSecret('s3cr3t-header-value')
  const tracing = {
    url: 'http://127.0.0.1:9/v1/traces',
    urlFrom: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    protocol: 'http/protobuf' as const,
    headers: {},
    compression: 'none' as const,
    timeoutMs: 1_000,
    serviceName: 'brcloud-deploy',
    resource: {},
    parent: undefined,
    traceId: '0123456789abcdef0123456789abcdef',
    rootSpanId: '0123456789abcdef'
  }
  const context = {
    sha: '',
    noCommit: '',
    ref: '',
    repository: '',
    serverUrl: 'https://github.com',
    runUrl: undefined,
    workspace: '/w',
    runId: '1',
    runAttempt: '1',
    actor: undefined
  }
  const signals = { on: () => undefined, off: () => undefined }
  await traceStatus(tracing, undefined, { context, startedAt: 1, endedAt: 2, ending: { result: 'success' } }, signals)
  expect(warnings).toEqual(["Tracing: nothing was sent (the collector library broke while holding ***). The report's outcome and exit code are unchanged."])
})
