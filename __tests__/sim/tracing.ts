// Tracing in the world (issue 45, docs/tracing.md): how a schedule turns it on (the input otel-endpoint, or
// OTEL_EXPORTER_OTLP_ENDPOINT, as a CI's OpenTelemetry setup exports it), whether the run joins a pipeline's trace
// (TRACEPARENT, sampled or not, or malformed), the collector's key in OTEL_EXPORTER_OTLP_HEADERS (a secret), the
// export's limit, what the collector does with the trace (./collector.ts: takes it, refuses it, is down, answers late
// or never), and a signal while the run sends (a cancel or SIGTERM after its report: it hurries the sends). Off in most
// schedules, and in every fixed one that draws none: those run as before.
import fc from 'fast-check'

/** What the collector does with the trace it is sent. */
export interface CollectorFate {
  /** take: answers 2xx after `seconds` (past the limit, for the longer ones); refuse: answers `status`; down: no connection; hang: never answers. */
  readonly kind: 'take' | 'refuse' | 'down' | 'hang'
  readonly seconds: number
  readonly status: number
  /** refuse: a careless collector, whose error repeats the request's authorization header (the warning must not). */
  readonly echo: boolean
}

export interface TracingSchedule {
  /** How tracing is turned on: the input otel-endpoint, or the variable OTEL_EXPORTER_OTLP_ENDPOINT (both a base address). */
  readonly via: 'input' | 'variable'
  /** OTEL_EXPORTER_OTLP_PROTOCOL: unset, http/json, or grpc (which this step does not speak: tracing off, one warning). */
  readonly protocol: 'unset' | 'http/json' | 'grpc'
  /** TRACEPARENT: none, the pipeline's sampled span, one not sampled (nothing is sent), or a malformed value (ignored, a warning). */
  readonly parent: 'none' | 'sampled' | 'unsampled' | 'malformed'
  /** OTEL_EXPORTER_OTLP_HEADERS carries the collector's key. */
  readonly headers: boolean
  /** OTEL_EXPORTER_OTLP_TIMEOUT in seconds; undefined: OpenTelemetry's default (10 s). */
  readonly timeoutSeconds: number | undefined
  readonly collector: CollectorFate
  /** A signal `afterMs` after the run wrote its summary (its sends under way or about to begin): it hurries them. */
  readonly signal: { readonly kind: 'cancel' | 'sigterm'; readonly afterMs: number } | undefined
}

/** The collector's base address, as the input or the variable gives it. */
export const OTEL_ENDPOINT = 'http://otel.sim:4318'
/** The collector's key, in OTEL_EXPORTER_OTLP_HEADERS: a secret that must appear nowhere. */
export const OTLP_KEY = 'otlp-key-4e8b27c1d9'
/** The pipeline's span (W3C traceparent's ids), when a schedule joins one. */
export const PARENT_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736'
export const PARENT_SPAN_ID = '00f067aa0ba902b7'
/** A traceparent no W3C reader takes (an all-zero trace id). */
export const MALFORMED_TRACEPARENT = `00-${'0'.repeat(32)}-${PARENT_SPAN_ID}-01`

const collectorFates: fc.Arbitrary<CollectorFate> = fc.record({
  kind: fc.constantFrom('take' as const, 'take' as const, 'take' as const, 'refuse' as const, 'down' as const, 'hang' as const),
  seconds: fc.constantFrom(0, 0, 0, 1, 4, 15, 70),
  status: fc.constantFrom(400, 401, 429, 503),
  echo: fc.constantFrom(false, false, true)
})

export const tracingSchedules: fc.Arbitrary<TracingSchedule> = fc.record({
  via: fc.constantFrom('input' as const, 'variable' as const),
  protocol: fc.constantFrom('unset' as const, 'unset' as const, 'unset' as const, 'http/json' as const, 'grpc' as const),
  parent: fc.constantFrom('none' as const, 'none' as const, 'sampled' as const, 'sampled' as const, 'unsampled' as const, 'malformed' as const),
  headers: fc.boolean(),
  timeoutSeconds: fc.constantFrom(undefined, undefined, 2, 30),
  collector: collectorFates,
  signal: fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('cancel' as const, 'sigterm' as const), afterMs: fc.constantFrom(0, 0, 500, 1_000) }) }
  )
})

/** The input a schedule's tracing takes (otel-endpoint); none when it is off or set by the variable. */
export function tracingInputs(t: TracingSchedule | undefined): Record<string, string> {
  return t?.via === 'input' ? { 'otel-endpoint': OTEL_ENDPOINT } : {}
}

/** The variables the run's CI exports for tracing: OTEL_EXPORTER_OTLP_* and the pipeline's TRACEPARENT. */
export function tracingEnv(t: TracingSchedule | undefined): Record<string, string> {
  if (t === undefined) return {}
  const parent =
    t.parent === 'none'
      ? {}
      : t.parent === 'malformed'
        ? { TRACEPARENT: MALFORMED_TRACEPARENT }
        : { TRACEPARENT: `00-${PARENT_TRACE_ID}-${PARENT_SPAN_ID}-${t.parent === 'sampled' ? '01' : '00'}`, TRACESTATE: 'sim=1' }
  return {
    ...(t.via === 'variable' && { OTEL_EXPORTER_OTLP_ENDPOINT: OTEL_ENDPOINT }),
    ...(t.protocol !== 'unset' && { OTEL_EXPORTER_OTLP_PROTOCOL: t.protocol }),
    ...(t.headers && { OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${OTLP_KEY},x-tenant=acme-tenant-17` }),
    ...(t.timeoutSeconds !== undefined && { OTEL_EXPORTER_OTLP_TIMEOUT: String(t.timeoutSeconds * 1000) }),
    ...parent
  }
}

/** Whether the run reads tracing on: a protocol this step speaks (grpc turns it off with a warning). */
export function tracingOn(t: TracingSchedule | undefined): t is TracingSchedule {
  return t !== undefined && t.protocol !== 'grpc'
}

/** The export's own limit, as the run reads it (OTEL_EXPORTER_OTLP_TIMEOUT, or the default 10 s); 0 when tracing is off. */
export function traceTimeoutMs(t: TracingSchedule | undefined): number {
  return tracingOn(t) ? (t.timeoutSeconds ?? 10) * 1000 : 0
}

/** The secrets of tracing a schedule sets: the collector's key, and the header's whole value as it is masked. */
export function tracingSecrets(t: TracingSchedule | undefined): string[] {
  return t?.headers === true ? [OTLP_KEY, `Bearer ${OTLP_KEY}`] : []
}
