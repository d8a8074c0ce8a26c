// The trace's one export (issue 45): the planned spans made into OpenTelemetry spans with their observed times, and
// sent once to the collector over OTLP/HTTP, within a time limit, ended at once by a hurry. OpenTelemetry's libraries
// are loaded here only, and only when tracing is on. Nothing here throws: a collector that is down, slow or refusing
// is one warning; the run's outcome never depends on it.
import { randomBytes } from 'node:crypto'
import type { Context, Span, Tracer } from '@opentelemetry/api'
import type { ReadableSpan, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base'
import type { TracingInputs } from './config.js'
import type { Attributes, PlannedSpan } from './plan.js'
import { MAX_READINGS } from '../deploy/result.js'
import { version } from '../version.js'

export interface SendOptions {
  /** The export's time limit: the trace's own (OTEL_EXPORTER_OTLP_TIMEOUT), or less after a stop. */
  readonly limitMs: number
  /** Ends the export at once (a signal after the outcome was decided). */
  readonly hurry: AbortSignal
  /** What the limit is, for the warning ("OTEL_EXPORTER_OTLP_TIMEOUT", "what a cancel leaves"). */
  readonly limitName: string
}

/** How the export ended: sent (the collector took it), or why not (already said in a warning, or not asked for). */
export type Sent = { readonly sent: true } | { readonly sent: false; readonly why: string }

/** Sends the run's trace; never throws. */
export async function sendTrace(plan: PlannedSpan, tracing: TracingInputs, options: SendOptions): Promise<Sent> {
  if (tracing.parent !== undefined && !tracing.parent.sampled) return { sent: false, why: "TRACEPARENT says the pipeline's trace is not sampled" }
  let exporter: SpanExporter | undefined
  try {
    const spans = await makeSpans(plan, tracing)
    exporter = await exporterFor(tracing, options.limitMs)
    return await exportWithin(exporter, spans, options)
  } catch (error) {
    return { sent: false, why: error instanceof Error ? error.message : String(error) }
  } finally {
    // Not awaited: a hung connection must not hold the run; the exporter's own limit ends it.
    // Stryker disable next-line OptionalChaining,BlockStatement: frees the exporter's sockets, which its own limit closes too; nothing a test can see
    void exporter?.shutdown().catch(() => undefined)
  }
}

/** The planned spans as ended OpenTelemetry spans, ids chosen ahead (the root's is the trace-id output's span). */
async function makeSpans(plan: PlannedSpan, tracing: TracingInputs): Promise<ReadableSpan[]> {
  const [{ BasicTracerProvider, AlwaysOnSampler }, { resourceFromAttributes }, api] = await Promise.all([
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/api')
  ])
  const ended: ReadableSpan[] = []
  const collect: SpanProcessor = {
    onStart: () => undefined,
    onEnd: (span) => void ended.push(span),
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve()
  }
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ ...tracing.resource, 'service.name': tracing.serviceName, 'service.version': version() }),
    sampler: new AlwaysOnSampler(),
    idGenerator: idsFrom(tracing),
    spanLimits: { eventCountLimit: MAX_READINGS + 100, attributeCountLimit: 256 },
    spanProcessors: [collect]
  })
  const tracer = provider.getTracer('brcloud-deploy', version())
  const parent = tracing.parent
  const root = parent
    ? api.trace.setSpanContext(api.ROOT_CONTEXT, {
        traceId: parent.traceId,
        spanId: parent.spanId,
        traceFlags: api.TraceFlags.SAMPLED,
        isRemote: true,
        ...(parent.traceState !== undefined && { traceState: api.createTraceState(parent.traceState) })
      })
    : api.ROOT_CONTEXT
  emit(tracer, api, plan, root)
  return ended
}

/** Ids as tracing/config.ts chose them: the run's trace id, and the root span's id first. */
function idsFrom(tracing: TracingInputs): { generateTraceId(): string; generateSpanId(): string } {
  let first = true
  return {
    generateTraceId: () => tracing.traceId,
    generateSpanId: () => {
      if (first) {
        first = false
        return tracing.rootSpanId
      }
      const id = randomBytes(8).toString('hex')
      // Stryker disable next-line Regex,ConditionalExpression: an all-zero id is a 2^-64 draw (invalid in W3C's terms), beyond a test's reach
      return /^0+$/.test(id) ? '0000000000000001' : id
    }
  }
}

type Api = typeof import('@opentelemetry/api')

/** One planned span and its children, begun and ended at their observed times. */
function emit(tracer: Tracer, api: Api, planned: PlannedSpan, parent: Context): void {
  const span: Span = tracer.startSpan(
    planned.name,
    {
      kind: planned.kind === 'client' ? api.SpanKind.CLIENT : api.SpanKind.INTERNAL,
      startTime: hrTime(planned.start),
      attributes: otelAttributes(planned.attributes)
    },
    parent
  )
  for (const event of planned.events) span.addEvent(event.name, otelAttributes(event.attributes), hrTime(event.at))
  const code = { ok: api.SpanStatusCode.OK, error: api.SpanStatusCode.ERROR, unset: api.SpanStatusCode.UNSET }[planned.status.code]
  if (code !== api.SpanStatusCode.UNSET) span.setStatus({ code, ...(planned.status.message !== undefined && { message: planned.status.message }) })
  const inside = api.trace.setSpan(parent, span)
  for (const child of planned.children) emit(tracer, api, child, inside)
  span.end(hrTime(planned.end))
}

/** The plan's attributes as OpenTelemetry takes them (its arrays are mutable). */
function otelAttributes(attributes: Attributes): Record<string, string | number | boolean | string[]> {
  const out: Record<string, string | number | boolean | string[]> = {}
  for (const [key, value] of Object.entries(attributes)) out[key] = typeof value === 'object' ? [...value] : value
  return out
}

/** Date.now() as [seconds, nanoseconds]: never mistaken for a time since the process began. */
function hrTime(ms: number): [number, number] {
  const whole = Math.floor(ms)
  return [Math.floor(whole / 1000), (whole % 1000) * 1_000_000]
}

/** The OTLP/HTTP exporter of the protocol asked for, with the run's address, headers and limit. */
async function exporterFor(tracing: TracingInputs, limitMs: number): Promise<SpanExporter> {
  const config = {
    url: tracing.url,
    headers: { ...tracing.headers },
    timeoutMillis: Math.max(1, limitMs),
    compression: tracing.compression as never,
    // Stryker disable next-line BooleanLiteral: one export per run; a kept-alive socket would only outlive it
    keepAlive: false
  }
  if (tracing.protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http')
    return new OTLPTraceExporter(config)
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto')
  return new OTLPTraceExporter(config)
}

/** One export call, within the limit, ended by the hurry; what the collector's answer or its absence means. */
function exportWithin(exporter: SpanExporter, spans: ReadableSpan[], options: SendOptions): Promise<Sent> {
  return new Promise<Sent>((resolve) => {
    const timer = setTimeout(() => done({ sent: false, why: `no answer within ${options.limitName} (${options.limitMs / 1000} s)` }), options.limitMs)
    const onHurry = (): void => done({ sent: false, why: 'the run was asked to end at once' })
    function done(sent: Sent): void {
      clearTimeout(timer)
      options.hurry.removeEventListener('abort', onHurry)
      resolve(sent)
    }
    if (options.hurry.aborted) return done({ sent: false, why: 'the run was asked to end at once' })
    options.hurry.addEventListener('abort', onHurry, { once: true })
    exporter.export(spans, (result) => done(result.code === 0 ? { sent: true } : { sent: false, why: result.error?.message ?? 'the collector refused it' }))
  })
}
