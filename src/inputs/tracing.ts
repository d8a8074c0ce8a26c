// Tracing's settings (issue 45, docs/tracing.md), in OpenTelemetry's own way: the OTEL_* variables a CI's OpenTelemetry
// setup already exports, and the action's input otel-endpoint. Every header value is masked before anything is checked.
// A bad otel-endpoint is refused like any input; a malformed OTEL_* variable (set for every tool in the job, not for
// this one) turns tracing off with one warning: tracing never stops a deploy.
import { randomBytes } from 'node:crypto'
import { InputError } from '../errors.js'
import { registerSecret } from '../secrets.js'
import {
  DEFAULT_EXPORT_TIMEOUT_MS,
  DEFAULT_SERVICE_NAME,
  MAX_EXPORT_TIMEOUT_MS,
  type OtlpProtocol,
  type ParentSpan,
  type TracingInputs
} from '../tracing/config.js'

export const OTEL_ENDPOINT_INPUT = 'otel-endpoint'

/** What was read: the settings when tracing is on, and what to warn about (a setting ignored, tracing turned off). */
export interface TracingRead {
  readonly tracing: TracingInputs | undefined
  readonly warnings: readonly string[]
}

type Env = Readonly<Record<string, string | undefined>>

/** How a face names what it reads: the input's name (a flag, its variable), and what tracing being off leaves unaffected. */
export interface TracingReadOptions {
  readonly inputName?: string
  readonly unaffected?: string
}

/** A variable that turns tracing off, with why. */
class Off extends Error {}

export function readTracingInputs(input: string, env: Env, options: TracingReadOptions = {}): TracingRead {
  const warnings: string[] = []
  // The headers carry the collector's key: masked first, even when tracing ends up off.
  for (const name of ['OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_TRACES_HEADERS']) maskHeaders(env[name])
  // The job asked for no traces: nothing else is read (a bad otel-endpoint is still refused: it is this step's input).
  if (disabled(env) && input.trim() === '') return { tracing: undefined, warnings }
  try {
    const endpoint = endpointOf(input.trim(), env, options.inputName ?? OTEL_ENDPOINT_INPUT)
    if (endpoint === undefined || disabled(env)) return { tracing: undefined, warnings }
    const parent = parentOf(env, warnings)
    const tracing: TracingInputs = {
      ...endpoint,
      protocol: protocolOf(env),
      headers: { ...headersOf(env, 'OTEL_EXPORTER_OTLP_HEADERS'), ...headersOf(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS') },
      compression: compressionOf(env),
      timeoutMs: timeoutOf(env),
      ...serviceOf(env, warnings),
      parent,
      traceId: parent?.traceId ?? randomId(16),
      rootSpanId: randomId(8)
    }
    return { tracing, warnings }
  } catch (error) {
    if (!(error instanceof Off)) throw error
    const unaffected = options.unaffected ?? 'the deployment is unaffected'
    return { tracing: undefined, warnings: [...warnings, `${error.message} No trace is sent for this run; ${unaffected}.`] }
  }
}

/** The address spans go to: the input (a base, like OTEL_EXPORTER_OTLP_ENDPOINT), else the traces' own variable (as is), else the base one. */
function endpointOf(input: string, env: Env, inputName: string): { url: string; urlFrom: string } | undefined {
  if (input !== '') return { url: withTracesPath(checkedUrl(input, inputName, true)), urlFrom: inputName }
  const own = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim()
  if (own) return { url: checkedUrl(own, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', false), urlFrom: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' }
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()
  if (base) return { url: withTracesPath(checkedUrl(base, 'OTEL_EXPORTER_OTLP_ENDPOINT', false)), urlFrom: 'OTEL_EXPORTER_OTLP_ENDPOINT' }
  return undefined
}

/** OTLP's rule for a base endpoint: the signal's path appended. */
function withTracesPath(base: string): string {
  return `${base.replace(/\/+$/, '')}/v1/traces`
}

/** An absolute http(s) address without credentials; the input's fault is an InputError, a variable's turns tracing off. */
function checkedUrl(value: string, name: string, isInput: boolean): string {
  const fail = (why: string): never => {
    if (isInput) throw new InputError(`${name} ${why}`)
    throw new Off(`${name} ${why}`)
  }
  let url: URL | undefined
  try {
    url = new URL(value)
  } catch {
    return fail(`'${value}' is not an absolute address: write the collector's OTLP/HTTP address in full, for example http://otel-collector:4318.`)
  }
  if (url.username || url.password) {
    registerSecret(decodeURIComponent(url.password))
    return fail(
      'must not contain a user name or password: put the collector\'s credentials in OTEL_EXPORTER_OTLP_HEADERS (for example "authorization=Bearer …").'
    )
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return fail(`'${value}' must start with http:// or https:// (OTLP over HTTP; a collector's OTLP/HTTP port is 4318 by default).`)
  return url.href
}

/** OTEL_SDK_DISABLED=true, or OTEL_TRACES_EXPORTER=none: the job asked for no traces. */
function disabled(env: Env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return true
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((e) => e.trim().toLowerCase())
  return exporters.includes('none')
}

function protocolOf(env: Env): OtlpProtocol {
  const [name, value] = firstSet(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_PROTOCOL')
  if (value === undefined || value === 'http/protobuf') return 'http/protobuf'
  if (value === 'http/json') return 'http/json'
  if (value === 'grpc')
    throw new Off(
      `${name} is grpc, which this step does not speak: set OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http/protobuf and the collector's OTLP/HTTP endpoint (port 4318 by default).`
    )
  throw new Off(`${name} '${value}' is not an OTLP protocol: use http/protobuf (the default) or http/json.`)
}

function compressionOf(env: Env): 'gzip' | 'none' {
  const [name, value] = firstSet(env, 'OTEL_EXPORTER_OTLP_TRACES_COMPRESSION', 'OTEL_EXPORTER_OTLP_COMPRESSION')
  if (value === undefined || value === 'none') return 'none'
  if (value === 'gzip') return 'gzip'
  throw new Off(`${name} '${value}' is not a compression OTLP knows: use gzip or none.`)
}

function timeoutOf(env: Env): number {
  const [name, value] = firstSet(env, 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT', 'OTEL_EXPORTER_OTLP_TIMEOUT')
  if (value === undefined) return DEFAULT_EXPORT_TIMEOUT_MS
  const ms = /^\d+$/.test(value) ? Number(value) : NaN
  if (!(ms >= 1 && ms <= MAX_EXPORT_TIMEOUT_MS))
    throw new Off(
      `${name} '${value}' is not a time limit in milliseconds from 1 to ${MAX_EXPORT_TIMEOUT_MS} (OpenTelemetry's default is ${DEFAULT_EXPORT_TIMEOUT_MS}).`
    )
  return ms
}

/** The first of the variables that is set (trimmed, in lower case), with its name; the traces' own wins over the general one. */
function firstSet(env: Env, own: string, general: string): [string, string | undefined] {
  for (const name of [own, general]) {
    const value = env[name]?.trim().toLowerCase()
    if (value) return [name, value]
  }
  return [general, undefined]
}

/** OTEL_EXPORTER_OTLP_HEADERS: key=value pairs, comma-separated, values percent-encoded. A malformed one is named by its position, never its value. */
function headersOf(env: Env, name: string): Record<string, string> {
  const headers: Record<string, string> = {}
  pairs(env[name], name, 'header').forEach(([key, value]) => (headers[key.toLowerCase()] = value))
  return headers
}

function maskHeaders(raw: string | undefined): void {
  if (!raw) return
  registerSecret(raw.trim())
  for (const entry of raw.split(',')) {
    const at = entry.indexOf('=')
    if (at < 0) continue
    const value = entry.slice(at + 1).trim()
    registerSecret(value)
    registerSecret(safeDecode(value))
  }
}

/** W3C Baggage-like key=value lists (OTLP headers, resource attributes), decoded; malformed: tracing off, naming the entry's position. */
function pairs(raw: string | undefined, name: string, what: string): [string, string][] {
  if (raw === undefined || raw.trim() === '') return []
  return raw
    .split(',')
    .filter((entry) => entry.trim() !== '')
    .map((entry, i) => {
      const at = entry.indexOf('=')
      const key = at < 0 ? '' : entry.slice(0, at).trim()
      const value = safeDecode(entry.slice(at + 1).trim())
      if (at < 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key) || value === undefined)
        throw new Off(`${name}: its ${ordinal(i + 1)} ${what} is not key=value (a token, '=', a percent-encoded value); correct it.`)
      return [key, value]
    })
}

function safeDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value)
  } catch {
    return undefined
  }
}

function ordinal(n: number): string {
  return n === 1 ? '1st' : n === 2 ? '2nd' : n === 3 ? '3rd' : `${n}th`
}

/** The service's name and the resource's attributes; a malformed OTEL_RESOURCE_ATTRIBUTES is dropped whole (OpenTelemetry's rule) with a warning. */
function serviceOf(env: Env, warnings: string[]): { serviceName: string; resource: Record<string, string> } {
  let resource: Record<string, string> = {}
  try {
    resource = Object.fromEntries(pairs(env.OTEL_RESOURCE_ATTRIBUTES, 'OTEL_RESOURCE_ATTRIBUTES', 'attribute'))
  } catch (error) {
    if (!(error instanceof Off)) throw error
    warnings.push(`${error.message} The resource attributes are left out of this run's trace.`)
  }
  const serviceName = env.OTEL_SERVICE_NAME?.trim() || resource['service.name'] || DEFAULT_SERVICE_NAME
  return { serviceName, resource }
}

/** TRACEPARENT (version-format-version 00: 00-<trace id>-<span id>-<flags>); a malformed one is ignored with a warning (W3C's rule). */
function parentOf(env: Env, warnings: string[]): ParentSpan | undefined {
  const raw = env.TRACEPARENT?.trim()
  if (!raw) return undefined
  const m = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/.exec(raw)
  const valid = m !== null && m[1] !== 'ff' && !(m[1] === '00' && m[5] !== undefined) && !/^0+$/.test(m[2] ?? '') && !/^0+$/.test(m[3] ?? '')
  if (!valid) {
    warnings.push(`TRACEPARENT '${raw}' is not a W3C traceparent (00-<32 hex trace id>-<16 hex span id>-<2 hex flags>): this run starts a trace of its own.`)
    return undefined
  }
  const traceState = env.TRACESTATE?.trim() || undefined
  return { traceId: m[2] ?? '', spanId: m[3] ?? '', sampled: (parseInt(m[4] ?? '0', 16) & 1) === 1, traceState }
}

/** A random id of `bytes` bytes in hex, never all zeros (an invalid id in W3C's and OTLP's terms). */
function randomId(bytes: number): string {
  for (;;) {
    const id = randomBytes(bytes).toString('hex')
    if (!/^0+$/.test(id)) return id
  }
}
