// End to end: the status report traced (issue 45), as the bundles run it: `brcloud status` (dist-cli/) and the status
// action (status/dist/) as child processes against the end-to-end fleet (two emulators as two stacks, the GitHub
// stand-in) and the OTLP/HTTP receiver stand-in over real HTTP. The trace joins TRACEPARENT, its rows' attributes are
// the --json rows; a collector that refuses (503) or is down changes neither the exit code nor stdout and is exactly
// one "Tracing:" warning; a cancel sends the root alone, SIGTERM nothing; without the OTEL variables no request
// reaches the receiver.
import { spawn } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DEFAULT_GITHUB_TOKEN } from '../src/emulator/github/server.js'
import { runAction, STATUS_ACTION } from '../scripts/lib/run-action.js'
import { outline, spanTree, startOtlpReceiver, type AttrValue, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.js'
import { startFleet, type Fleet } from './status-fleet.js'
import { asAttributes } from './status-trace-attributes.js'

const BUNDLE = fileURLToPath(new URL('../dist-cli/index.js', import.meta.url))
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736'
const PARENT_SPAN = '00f067aa0ba902b7'
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_SPAN}-01`

interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

/** `brcloud status ARGS` as a child (of `bundle`, dist-cli's by default); `signalWhen`: that signal once it holds (checked every 20 ms). */
function status(
  args: string[],
  env: Record<string, string>,
  signalWhen?: { signal: 'SIGINT' | 'SIGTERM'; when: () => boolean },
  bundle: string = BUNDLE
): Promise<CliRun> {
  const child = spawn(process.env.E2E_NODE ?? process.execPath, [bundle, 'status', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), TMPDIR: tmpdir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
  const poll = setInterval(() => {
    if (signalWhen === undefined || !signalWhen.when()) return
    clearInterval(poll)
    child.kill(signalWhen.signal)
  }, 20)
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer)
      clearInterval(poll)
      resolve({ code, stdout, stderr })
    })
  )
}

let fleet: Fleet
let receiver: OtlpReceiver
const folder = mkdtempSync(join(tmpdir(), 'brcd-status-trace-'))

beforeAll(async () => {
  fleet = await startFleet()
  // No backups: a backup's age would change between two runs compared with each other.
  for (const [emu, environment] of [
    [fleet.eu, 'production'],
    [fleet.eu, 'acceptance'],
    [fleet.us, 'production']
  ] as const)
    emu.setBackups(environment, [])
  receiver = await startOtlpReceiver()
  writeFileSync(
    join(folder, 'fleet.yml'),
    [
      'track: main',
      'stacks:',
      `  - name: eu\n    api-url: ${fleet.eu.url}`,
      `  - name: us\n    api-url: ${fleet.us.url}\n    login:\n      username-variable: US_USER\n      password-variable: US_PASS`,
      ''
    ].join('\n')
  )
}, 60_000)

afterAll(async () => {
  await Promise.all([fleet?.close(), receiver?.close()])
})

afterEach(() => receiver.normal())

const FILE = (): string => join(folder, 'fleet.yml')
const ENV = (): Record<string, string> => ({
  BRCLOUD_USERNAME: fleet.eu.username,
  BRCLOUD_PASSWORD: fleet.eu.password,
  US_USER: fleet.us.username,
  US_PASS: fleet.us.password,
  BRCLOUD_GITHUB_TOKEN: DEFAULT_GITHUB_TOKEN,
  BRCLOUD_REPOSITORY: 'acme/site',
  GITHUB_API_URL: fleet.github.url,
  GITHUB_SERVER_URL: 'https://github.example'
})

/** The spans of the exports that arrived since `before` exports. */
const spansSince = (before: number): ReceivedSpan[] => receiver.received.slice(before).flatMap((e) => e.spans)

/** A received attribute as JSON holds it (OTLP's int64 arrives as a bigint). */
const plain = (v: AttrValue): unknown => (typeof v === 'bigint' ? Number(v) : Array.isArray(v) ? v.map(plain) : v)
const attributesOf = (span: ReceivedSpan): Record<string, unknown> => Object.fromEntries(Object.entries(span.attributes).map(([k, v]) => [k, plain(v)]))

test('brcloud status --json with TRACEPARENT: one export whose root is a child of the pipeline span, the rows as --json says them', async () => {
  const before = receiver.received.length
  const startedMs = Date.now()
  const r = await status(['--config', FILE(), '--json'], { ...ENV(), OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, TRACEPARENT })
  const endedMs = Date.now()
  expect(r.code).toBe(0)
  const json = JSON.parse(r.stdout) as { environments: Array<Record<string, unknown>>; traceId: string }
  expect(json.traceId).toBe(TRACE_ID)
  expect(receiver.received.slice(before).map((e) => [e.path, e.encoding])).toEqual([['/v1/traces', 'protobuf']])
  const spans = spansSince(before)
  expect(r.stderr).toBe(`Tracing: trace ${TRACE_ID} (${spans.length} spans) sent to ${receiver.url}.\n`)
  const [root, ...others] = spanTree(spans, { traceId: TRACE_ID, parentSpanId: PARENT_SPAN })
  expect(others).toEqual([])
  expect(outline([root!]).filter((line) => !/^ {2}GitHub /.test(line))).toEqual([
    'brcloud status',
    '  read stack',
    '    read environment',
    '    read environment',
    '  read stack',
    '    read environment'
  ])
  expect({ kind: root!.span.kind, status: root!.span.status, parent: root!.span.parentSpanId }).toEqual({
    kind: 1,
    status: { code: 1, message: '' },
    parent: PARENT_SPAN
  })
  expect(attributesOf(root!.span)).toMatchObject({
    'cicd.pipeline.task.name': 'brcloud status',
    'cicd.pipeline.task.run.result': 'success',
    'brcloud.status.exit_code': 0,
    'vcs.repository.name': 'site',
    'vcs.repository.url.full': 'https://github.example/acme/site'
  })
  expect(receiver.received.at(-1)?.resource).toMatchObject({ 'service.name': 'brcloud-deploy' })
  // The rows: exactly what --json says of each.
  const rows = spans.filter((s) => s.name === 'read environment')
  expect(rows.map(attributesOf)).toEqual(expect.arrayContaining(json.environments.map(asAttributes)) as unknown as Array<Record<string, unknown>>)
  expect(rows).toHaveLength(json.environments.length)
  // Observed times: all within the run, every child within its parent.
  expect(root!.span.startMs).toBeGreaterThanOrEqual(startedMs)
  expect(root!.span.endMs).toBeLessThanOrEqual(endedMs)
  const byId = new Map(spans.map((s) => [s.spanId, s]))
  for (const s of spans.filter((x) => x !== root!.span)) {
    const parent = byId.get(s.parentSpanId) as ReceivedSpan
    expect(s.startNs >= parent.startNs && s.endNs <= parent.endNs).toBe(true)
  }
})

test('--otel-endpoint with http/json, and a --fail-on state: the root fails with the error line, the exit code is 8', async () => {
  const before = receiver.received.length
  const r = await status(['--config', FILE(), '--fail-on', 'behind', '--otel-endpoint', receiver.url], { ...ENV(), OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })
  expect(r.code).toBe(8)
  expect(r.stderr).toMatch(
    /^error: --fail-on behind: eu\/acceptance is behind\.\nTracing: trace [0-9a-f]{32} \(\d+ spans\) sent to http:\/\/127\.0\.0\.1:\d+\.\n$/
  )
  expect(receiver.received.slice(before).map((e) => e.encoding)).toEqual(['json'])
  const [root] = spanTree(spansSince(before))
  expect(root?.span.status).toEqual({ code: 2, message: '--fail-on behind: eu/acceptance is behind.' })
  expect(attributesOf(root!.span)).toMatchObject({ 'cicd.pipeline.task.run.result': 'failure', 'error.type': 'fail-on', 'brcloud.status.exit_code': 8 })
})

test('a collector that refuses (503) or is down: the same exit code and stdout as without tracing, and exactly one Tracing: warning', async () => {
  const plain = await status(['--config', FILE(), '--repository', 'acme/site'], ENV())
  expect({ code: plain.code, stderr: plain.stderr }).toEqual({ code: 0, stderr: '' })
  const traced = { ...ENV(), TRACEPARENT, OTEL_EXPORTER_OTLP_TIMEOUT: '1000' }
  receiver.refuse(503)
  const requestsBefore = receiver.requests
  const refused = await status(['--config', FILE(), '--repository', 'acme/site'], { ...traced, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url })
  expect(receiver.requests).toBeGreaterThan(requestsBefore)
  const down = await status(['--config', FILE(), '--repository', 'acme/site'], { ...traced, OTEL_EXPORTER_OTLP_ENDPOINT: fleet.downUrl })
  for (const r of [refused, down]) {
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: plain.code, stdout: plain.stdout })
    expect(r.stderr.split('\n').filter((line) => line.includes('Tracing:'))).toHaveLength(1)
    expect(r.stderr).toMatch(
      /^warning: Tracing: the trace was not sent to http:\/\/127\.0\.0\.1:\d+ \(.+\)\. The report's outcome and exit code are unchanged\.\n$/
    )
  }
})

test('without the OTEL variables no request reaches the receiver, and --json has no traceId', async () => {
  const requests = receiver.requests
  const r = await status(['--config', FILE(), '--json'], { ...ENV(), TRACEPARENT })
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
  expect(JSON.parse(r.stdout)).not.toHaveProperty('traceId')
  expect(receiver.requests).toBe(requests)
})

test('without tracing nothing of OpenTelemetry is loaded: the command runs the same with those chunks of its bundle deleted', async () => {
  const bundle = mkdtempSync(join(tmpdir(), 'brcd-no-otel-'))
  cpSync(dirname(BUNDLE), bundle, { recursive: true })
  const deleted = readdirSync(bundle).filter((f) => f.endsWith('.js') && readFileSync(join(bundle, f), 'utf8').includes('opentelemetry'))
  for (const f of deleted) rmSync(join(bundle, f))
  expect(deleted.length).toBeGreaterThan(0)
  expect(deleted).not.toContain('index.js')
  const args = ['--config', FILE(), '--repository', 'acme/site']
  const whole = await status(args, ENV())
  const without = await status(args, ENV(), undefined, join(bundle, 'index.js'))
  expect(without).toEqual(whole)
  expect(whole).toMatchObject({ code: 0, stderr: '' })
  // With tracing on, the same command needs them: it says so once, and its outcome is unchanged.
  const traced = await status(args, { ...ENV(), OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }, undefined, join(bundle, 'index.js'))
  expect({ code: traced.code, stdout: traced.stdout }).toEqual({ code: 0, stdout: whole.stdout })
  expect(traced.stderr).toMatch(
    /^warning: Tracing: (nothing was sent|no trace was made|the trace was not sent)[^\n]*The report's outcome and exit code are unchanged\.\n$/
  )
  rmSync(bundle, { recursive: true, force: true })
})

test('Ctrl-C while a stack is read: exit 130, nothing reported, the root alone sent as a cancellation; SIGTERM: nothing sent, and said', async () => {
  const env = { ...ENV(), OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, TRACEPARENT }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    let release: () => void = () => undefined
    fleet.eu.holdRequests('list-environments', new Promise<void>((done) => (release = done)))
    const seen = fleet.eu.requests.length
    const before = receiver.received.length
    const requests = receiver.requests
    try {
      const r = await status(['--config', FILE(), '--parallel', '1', '--json'], env, {
        signal,
        when: () => fleet.eu.requests.slice(seen).some((q) => q.operation === 'list-environments')
      })
      expect(r.stdout).toBe('')
      if (signal === 'SIGTERM') {
        expect(r.code).toBe(143)
        expect(receiver.requests).toBe(requests)
        // Nothing sent, and said: the log is where a trace that was not sent is told.
        expect(r.stderr.split('\n').filter((l) => l.includes('Tracing'))).toEqual([
          expect.stringMatching(/^warning: Tracing: the trace was not sent to http:\/\/127\.0\.0\.1:\d+ \(SIGTERM leaves no time to send it\)\. /)
        ])
        continue
      }
      expect(r.code).toBe(130)
      expect(r.stderr).toMatch(
        /^error: The status report was cancelled \(SIGINT\): nothing was reported\. .*\nTracing: trace [0-9a-f]{32} \(1 spans\) sent to /
      )
      const [root] = spanTree(spansSince(before), { traceId: TRACE_ID, parentSpanId: PARENT_SPAN })
      expect(root?.children).toEqual([])
      expect(root?.span.status.code).toBe(2)
      expect(attributesOf(root!.span)).toMatchObject({
        'cicd.pipeline.task.run.result': 'cancellation',
        'error.type': 'cancelled',
        'brcloud.status.stopped': 'cancel',
        'brcloud.status.exit_code': 130
      })
    } finally {
      release()
    }
  }
})

test('the status action: input otel-endpoint, output trace-id (the json output has it as traceId), the trace in the pipeline trace', async () => {
  writeFileSync(join(folder, 'eu.yml'), `track: main\nstacks:\n  - name: eu\n    api-url: ${fleet.eu.url}\n`)
  const before = receiver.received.length
  const env = { BRCLOUD_USERNAME: fleet.eu.username, BRCLOUD_PASSWORD: fleet.eu.password, GITHUB_API_URL: fleet.github.url, TRACEPARENT }
  const r = await runAction(
    { config: 'eu.yml', 'github-token': DEFAULT_GITHUB_TOKEN, 'otel-endpoint': receiver.url },
    { action: STATUS_ACTION, workspace: folder, env }
  )
  expect({ code: r.code, errors: r.errors }).toEqual({ code: 0, errors: [] })
  expect(r.outputs['trace-id']).toBe(TRACE_ID)
  expect(JSON.parse(r.outputs.json ?? '{}')).toMatchObject({ traceId: TRACE_ID })
  expect(r.summary).toContain(`Trace \`${TRACE_ID}\`, in the pipeline's trace (TRACEPARENT): its spans are sent to ${receiver.url} after this summary`)
  const [root] = spanTree(spansSince(before), { traceId: TRACE_ID, parentSpanId: PARENT_SPAN })
  expect(outline([root!]).filter((line) => !/^ {2}GitHub /.test(line))).toEqual([
    'brcloud status',
    '  read stack',
    '    read environment',
    '    read environment'
  ])
  // A collector that refuses: the step passes, one warning in the log.
  receiver.refuse(503)
  const refused = await runAction(
    { config: 'eu.yml', 'github-token': DEFAULT_GITHUB_TOKEN, 'otel-endpoint': receiver.url },
    { action: STATUS_ACTION, workspace: folder, env: { ...env, OTEL_EXPORTER_OTLP_TIMEOUT: '1000' } }
  )
  expect({ code: refused.code, errors: refused.errors }).toEqual({ code: 0, errors: [] })
  expect(refused.stdout.split('\n').filter((line) => line.includes('Tracing:'))).toEqual([
    expect.stringMatching(
      /^::warning::Tracing: the trace was not sent to http:\/\/127\.0\.0\.1:\d+ \(.+\)\. The report's outcome and exit code are unchanged\.$/
    )
  ])
  // Without tracing: no trace-id output.
  const off = await runAction({ config: 'eu.yml', 'github-token': DEFAULT_GITHUB_TOKEN }, { action: STATUS_ACTION, workspace: folder, env })
  expect(off.outputs).not.toHaveProperty('trace-id')
})
