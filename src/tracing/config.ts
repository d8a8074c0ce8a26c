// What tracing needs to know before the run (issue 45, docs/tracing.md): where to send, how, and which trace the run
// joins. Read once by inputs/tracing.ts; nothing here loads OpenTelemetry.

export type OtlpProtocol = 'http/protobuf' | 'http/json'

/** The span the run's root is a child of: the pipeline's, from TRACEPARENT (W3C Trace Context). */
export interface ParentSpan {
  /** 32 lower-case hex digits. */
  readonly traceId: string
  /** 16 lower-case hex digits. */
  readonly spanId: string
  /** The trace flags' low bit: the caller sampled its span. */
  readonly sampled: boolean
  /** TRACESTATE, passed on as it came; undefined when not set. */
  readonly traceState: string | undefined
}

export interface TracingInputs {
  /** The whole address spans are posted to (…/v1/traces for a base endpoint). */
  readonly url: string
  /** Where the address came from, for messages: the input or the variable. */
  readonly urlFrom: string
  readonly protocol: OtlpProtocol
  /** Sent with each export (OTEL_EXPORTER_OTLP_HEADERS); every value is a secret, masked when read. */
  readonly headers: Readonly<Record<string, string>>
  readonly compression: 'gzip' | 'none'
  /** The export's time limit (OTEL_EXPORTER_OTLP_TIMEOUT), within the run's budget. */
  readonly timeoutMs: number
  readonly serviceName: string
  /** OTEL_RESOURCE_ATTRIBUTES, decoded. */
  readonly resource: Readonly<Record<string, string>>
  readonly parent: ParentSpan | undefined
  /** The run's trace: the parent's, else a new one. Known before any span is made: the trace-id output. */
  readonly traceId: string
  /** The root span's id, chosen with the trace id. */
  readonly rootSpanId: string
}

/** The service's name when OTEL_SERVICE_NAME and the resource attributes name none. */
export const DEFAULT_SERVICE_NAME = 'brcloud-deploy'

/** OpenTelemetry's default export limit (OTEL_EXPORTER_OTLP_TIMEOUT), and the most this run allows. */
export const DEFAULT_EXPORT_TIMEOUT_MS = 10_000
export const MAX_EXPORT_TIMEOUT_MS = 60_000

/** What the report, the JSON and the summary say of the trace: its id, where it goes, whether it joins the pipeline's. */
export interface TraceNote {
  readonly id: string
  readonly collector: string
  readonly joined: boolean
}

export function traceNote(tracing: TracingInputs | undefined): TraceNote | undefined {
  return tracing && { id: tracing.traceId, collector: new URL(tracing.url).origin, joined: tracing.parent !== undefined }
}

/** The export's limit: the trace's own, or the shorter `leftMs` a stop leaves (named so, for the warning). */
export function exportLimit(tracing: TracingInputs, leftMs: number | undefined): { readonly limitMs: number; readonly limitName: string } {
  return leftMs !== undefined && leftMs < tracing.timeoutMs
    ? { limitMs: leftMs, limitName: 'what a cancel leaves the trace' }
    : { limitMs: tracing.timeoutMs, limitName: 'OTEL_EXPORTER_OTLP_TIMEOUT' }
}
