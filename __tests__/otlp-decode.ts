// A hand-written decoder of OTLP trace exports (ExportTraceServiceRequest), as protobuf and as OTLP/JSON, for the
// tests' OTLP receiver (otlp-receiver.ts). No @opentelemetry code on purpose: a stand-in that shared the exporters'
// encoder would forgive what they get wrong. Field numbers are opentelemetry-proto's (collector/trace/v1, trace/v1,
// common/v1, resource/v1); OTLP/JSON is the OTLP spec's: lowerCamelCase keys, ids as hex (not base64), enums as
// integers, 64-bit integers as decimal strings or numbers. What a collector could refuse or misread is an error that
// says where it is (an unknown field is skipped, as a receiver must).

/** An attribute's value. int64 is a bigint (always, whatever the encoding); double a number; bytes a Uint8Array;
 * an empty AnyValue null; an array an array; a kvlist an object. */
export type AttrValue = string | boolean | number | bigint | Uint8Array | null | AttrValue[] | { [key: string]: AttrValue }
export type Attributes = Record<string, AttrValue>

export interface Scope {
  readonly name: string
  readonly version: string
  readonly attributes: Attributes
}
export interface ReceivedEvent {
  readonly name: string
  readonly timeNs: bigint
  /** timeNs in milliseconds since the epoch, to the microsecond (a fraction below the millisecond). */
  readonly timeMs: number
  readonly attributes: Attributes
}
export interface ReceivedLink {
  readonly traceId: string
  readonly spanId: string
  readonly traceState: string
  readonly flags: number
  readonly attributes: Attributes
}
export interface ReceivedSpan {
  /** Lower-case hex: 32 digits. */
  readonly traceId: string
  /** Lower-case hex: 16 digits. */
  readonly spanId: string
  /** Lower-case hex, '' for a root span. */
  readonly parentSpanId: string
  readonly traceState: string
  /** The W3C trace flags in bits 0-7; bit 8 says bit 9 is known, bit 9 that the parent is remote. */
  readonly flags: number
  readonly name: string
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer (0, unspecified, is refused). */
  readonly kind: number
  readonly scope: Scope
  readonly startNs: bigint
  readonly endNs: bigint
  readonly startMs: number
  readonly endMs: number
  readonly attributes: Attributes
  readonly events: ReceivedEvent[]
  readonly links: ReceivedLink[]
  readonly dropped: { readonly attributes: number; readonly events: number; readonly links: number }
  /** OTLP's StatusCode: 0 unset, 1 ok, 2 error. */
  readonly status: { readonly code: number; readonly message: string }
}
export interface Decoded {
  /** The resource of each ResourceSpans, in order. */
  readonly resources: Attributes[]
  readonly spans: ReceivedSpan[]
}

export class OtlpDecodeError extends Error {}
const fail = (at: string, what: string): never => {
  throw new OtlpDecodeError(`${at}: ${what}`)
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] }
type SpanFields = Mutable<Omit<ReceivedSpan, 'startMs' | 'endMs' | 'events' | 'dropped'>> & {
  events: Omit<ReceivedEvent, 'timeMs'>[]
  dropped: Mutable<ReceivedSpan['dropped']>
}
const newSpan = (scope: Scope): SpanFields => ({
  traceId: '',
  spanId: '',
  parentSpanId: '',
  traceState: '',
  flags: 0,
  name: '',
  kind: 0,
  scope,
  startNs: 0n,
  endNs: 0n,
  attributes: {},
  events: [],
  links: [],
  dropped: { attributes: 0, events: 0, links: 0 },
  status: { code: 0, message: '' }
})
/** Nanoseconds as milliseconds, to the microsecond (exact in a double until the year 2255). */
const ms = (ns: bigint): number => Number(ns / 1000n) / 1000

/** The checks both encodings share: what OTLP calls required or invalid, which a lenient collector might let by. */
function finishSpan(s: SpanFields, at: string): ReceivedSpan {
  checkId(s.traceId, 16, `${at}.traceId`)
  checkId(s.spanId, 8, `${at}.spanId`)
  if (s.parentSpanId !== '') checkId(s.parentSpanId, 8, `${at}.parentSpanId`)
  if (s.name === '') fail(at, 'a span without a name')
  if (s.kind < 1 || s.kind > 5) fail(`${at}.kind`, `${s.kind}: OTLP's SpanKind is 1-5 (0 is "unspecified, do not use as default")`)
  if (s.status.code < 0 || s.status.code > 2) fail(`${at}.status.code`, `${s.status.code}: OTLP's StatusCode is 0-2`)
  if (s.startNs === 0n || s.endNs === 0n) fail(at, 'a span without its start or end time')
  if (s.endNs < s.startNs) fail(at, `ends (${s.endNs}) before it starts (${s.startNs})`)
  s.events.forEach((e, i) => e.timeNs === 0n && fail(`${at}.events[${i}]`, 'an event without its time'))
  s.links.forEach((l, i) => (checkId(l.traceId, 16, `${at}.links[${i}].traceId`), checkId(l.spanId, 8, `${at}.links[${i}].spanId`)))
  return { ...s, startMs: ms(s.startNs), endMs: ms(s.endNs), events: s.events.map((e) => ({ ...e, timeMs: ms(e.timeNs) })) }
}
function checkId(hex: string, bytes: number, at: string): void {
  if (hex.length !== bytes * 2) fail(at, `${hex.length / 2} bytes, this id has ${bytes}`)
  if (/^0+$/.test(hex)) fail(at, 'all zeroes, an invalid id')
}

/** Attributes from key/value pairs: keys must be non-empty and unique (OTLP: "Attribute keys MUST be unique"). */
function toAttributes(pairs: Array<[string, AttrValue]>, at: string): Attributes {
  const seen = new Set<string>()
  for (const [key] of pairs) {
    if (key === '') fail(at, 'an attribute with an empty key')
    if (seen.has(key)) fail(at, `the key ${key} twice`)
    seen.add(key)
  }
  return Object.fromEntries(pairs)
}

// ---- protobuf: the wire format (varint, I64, LEN, I32), read by hand ----

interface Field {
  readonly no: number
  readonly wire: number
  /** A varint's value (wire type 0). */
  readonly int: bigint
  /** The bytes of an I64, LEN or I32 field. */
  readonly data: Uint8Array
}
const NONE = new Uint8Array(0)

function* fields(buf: Uint8Array, at: string): Generator<Field> {
  let pos = 0
  const varint = (): bigint => {
    let value = 0n
    for (let shift = 0n; shift < 70n; shift += 7n) {
      const b = buf[pos++]
      if (b === undefined) return fail(at, 'a varint cut short')
      value |= BigInt(b & 0x7f) << shift
      if (b < 0x80) return value
    }
    return fail(at, 'a varint longer than 10 bytes')
  }
  const take = (n: number): Uint8Array =>
    pos + n > buf.length ? fail(at, `a field of ${n} bytes with ${buf.length - pos} left`) : buf.subarray(pos, (pos += n))
  while (pos < buf.length) {
    const key = varint()
    const no = Number(key >> 3n)
    const wire = Number(key & 7n)
    if (no === 0) fail(at, 'field number 0')
    if (wire === 0) yield { no, wire, int: varint(), data: NONE }
    else if (wire === 1) yield { no, wire, int: 0n, data: take(8) }
    else if (wire === 2) yield { no, wire, int: 0n, data: take(Number(varint())) }
    else if (wire === 5) yield { no, wire, int: 0n, data: take(4) }
    else fail(at, `field ${no} has wire type ${wire} (a group), which OTLP never uses`)
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true })
const view = (d: Uint8Array) => new DataView(d.buffer, d.byteOffset, d.byteLength)
function wire(f: Field, want: number, at: string): Field {
  return f.wire === want ? f : fail(at, `wire type ${f.wire} where the proto says ${want}`)
}
/** Readers of one field as its proto type, the wire type checked. */
const pb = {
  bytes: (f: Field, at: string) => wire(f, 2, at).data,
  hex: (f: Field, at: string) => Buffer.from(wire(f, 2, at).data).toString('hex'),
  string(f: Field, at: string): string {
    try {
      return utf8.decode(wire(f, 2, at).data)
    } catch {
      return fail(at, 'a string that is not UTF-8')
    }
  },
  int64: (f: Field, at: string) => BigInt.asIntN(64, wire(f, 0, at).int),
  uint32: (f: Field, at: string) => (wire(f, 0, at).int > 0xffffffffn ? fail(at, 'a uint32 above 2^32') : Number(f.int)),
  enum: (f: Field, at: string) => Number(BigInt.asIntN(32, wire(f, 0, at).int)),
  bool: (f: Field, at: string) => (wire(f, 0, at).int > 1n ? fail(at, `a bool of ${f.int}`) : f.int === 1n),
  double: (f: Field, at: string) => view(wire(f, 1, at).data).getFloat64(0, true),
  fixed64: (f: Field, at: string) => view(wire(f, 1, at).data).getBigUint64(0, true),
  fixed32: (f: Field, at: string) => view(wire(f, 5, at).data).getUint32(0, true)
}
function pbRepeated<T>(buf: Uint8Array, at: string, no: number, decode: (buf: Uint8Array, at: string) => T): T[] {
  const items: T[] = []
  for (const f of fields(buf, at)) if (f.no === no) items.push(decode(pb.bytes(f, at), `${at}[${items.length}]`))
  return items
}
const pbAttributes = (buf: Uint8Array, at: string, no: number) => toAttributes(pbRepeated(buf, `${at}.attributes`, no, pbKeyValue), `${at}.attributes`)

function pbKeyValue(buf: Uint8Array, at: string): [string, AttrValue] {
  let key = ''
  let value: AttrValue = null
  for (const f of fields(buf, at)) {
    if (f.no === 1) key = pb.string(f, `${at}.key`)
    else if (f.no === 2) value = pbAnyValue(pb.bytes(f, `${at}.value`), `${at}.value`)
  }
  return [key, value]
}
function pbAnyValue(buf: Uint8Array, at: string): AttrValue {
  let value: AttrValue = null
  for (const f of fields(buf, at)) {
    if (f.no === 1) value = pb.string(f, `${at}.stringValue`)
    else if (f.no === 2) value = pb.bool(f, `${at}.boolValue`)
    else if (f.no === 3) value = pb.int64(f, `${at}.intValue`)
    else if (f.no === 4) value = pb.double(f, `${at}.doubleValue`)
    else if (f.no === 5) value = pbRepeated(pb.bytes(f, at), `${at}.arrayValue.values`, 1, pbAnyValue)
    else if (f.no === 6) value = toAttributes(pbRepeated(pb.bytes(f, at), `${at}.kvlistValue.values`, 1, pbKeyValue), `${at}.kvlistValue`)
    else if (f.no === 7) value = new Uint8Array(pb.bytes(f, `${at}.bytesValue`))
  }
  return value
}

/** Decodes a protobuf ExportTraceServiceRequest; throws OtlpDecodeError naming where it is wrong. */
export function decodeProtobuf(body: Uint8Array): Decoded {
  const out: Decoded = { resources: [], spans: [] }
  pbRepeated(body, 'resourceSpans', 1, (buf, at) => {
    let resource: Attributes = {}
    for (const f of fields(buf, at)) if (f.no === 1) resource = pbAttributes(pb.bytes(f, at), `${at}.resource`, 1)
    out.resources.push(resource)
    pbRepeated(buf, `${at}.scopeSpans`, 2, (b, where) => out.spans.push(...pbScopeSpans(b, where)))
  })
  return out
}
function pbScopeSpans(buf: Uint8Array, at: string): ReceivedSpan[] {
  let scope: Scope = { name: '', version: '', attributes: {} }
  for (const f of fields(buf, at)) if (f.no === 1) scope = pbScope(pb.bytes(f, `${at}.scope`), `${at}.scope`)
  return pbRepeated(buf, `${at}.spans`, 2, (b, where) => pbSpan(b, where, scope))
}
function pbScope(buf: Uint8Array, at: string): Scope {
  const scope = { name: '', version: '', attributes: pbAttributes(buf, at, 3) }
  for (const f of fields(buf, at)) {
    if (f.no === 1) scope.name = pb.string(f, `${at}.name`)
    else if (f.no === 2) scope.version = pb.string(f, `${at}.version`)
  }
  return scope
}
function pbSpan(buf: Uint8Array, at: string, scope: Scope): ReceivedSpan {
  const s = newSpan(scope)
  for (const f of fields(buf, at)) {
    const [name, read] = SPAN_FIELDS[f.no] ?? ['', () => undefined]
    read(s, f, `${at}.${name}`)
  }
  s.attributes = pbAttributes(buf, at, 9)
  return finishSpan(s, at)
}
/** The span's fields by number (but attributes, 9): the name an error gives, and how it is read. */
const SPAN_FIELDS: Record<number, [string, (s: SpanFields, f: Field, at: string) => unknown]> = {
  1: ['traceId', (s, f, at) => (s.traceId = pb.hex(f, at))],
  2: ['spanId', (s, f, at) => (s.spanId = pb.hex(f, at))],
  3: ['traceState', (s, f, at) => (s.traceState = pb.string(f, at))],
  4: ['parentSpanId', (s, f, at) => (s.parentSpanId = pb.hex(f, at))],
  5: ['name', (s, f, at) => (s.name = pb.string(f, at))],
  6: ['kind', (s, f, at) => (s.kind = pb.enum(f, at))],
  7: ['startTimeUnixNano', (s, f, at) => (s.startNs = pb.fixed64(f, at))],
  8: ['endTimeUnixNano', (s, f, at) => (s.endNs = pb.fixed64(f, at))],
  10: ['droppedAttributesCount', (s, f, at) => (s.dropped.attributes = pb.uint32(f, at))],
  11: ['events', (s, f, at) => s.events.push(pbEvent(pb.bytes(f, at), `${at}[${s.events.length}]`))],
  12: ['droppedEventsCount', (s, f, at) => (s.dropped.events = pb.uint32(f, at))],
  13: ['links', (s, f, at) => s.links.push(pbLink(pb.bytes(f, at), `${at}[${s.links.length}]`))],
  14: ['droppedLinksCount', (s, f, at) => (s.dropped.links = pb.uint32(f, at))],
  15: ['status', (s, f, at) => (s.status = pbStatus(pb.bytes(f, at), at))],
  16: ['flags', (s, f, at) => (s.flags = pb.fixed32(f, at))]
}

function pbEvent(buf: Uint8Array, at: string): Omit<ReceivedEvent, 'timeMs'> {
  const event = { name: '', timeNs: 0n, attributes: pbAttributes(buf, at, 3) }
  for (const f of fields(buf, at)) {
    if (f.no === 1) event.timeNs = pb.fixed64(f, `${at}.timeUnixNano`)
    else if (f.no === 2) event.name = pb.string(f, `${at}.name`)
  }
  return event
}
function pbLink(buf: Uint8Array, at: string): ReceivedLink {
  const link = { traceId: '', spanId: '', traceState: '', flags: 0, attributes: pbAttributes(buf, at, 4) }
  for (const f of fields(buf, at)) {
    if (f.no === 1) link.traceId = pb.hex(f, `${at}.traceId`)
    else if (f.no === 2) link.spanId = pb.hex(f, `${at}.spanId`)
    else if (f.no === 3) link.traceState = pb.string(f, `${at}.traceState`)
    else if (f.no === 6) link.flags = pb.fixed32(f, `${at}.flags`)
  }
  return link
}
function pbStatus(buf: Uint8Array, at: string): SpanFields['status'] {
  const status = { code: 0, message: '' }
  for (const f of fields(buf, at)) {
    if (f.no === 2) status.message = pb.string(f, `${at}.message`)
    else if (f.no === 3) status.code = pb.enum(f, `${at}.code`)
  }
  return status
}

// ---- OTLP/JSON ----

type Json = Record<string, unknown>
const js = {
  /** An object whose keys are lowerCamelCase (OTLP/JSON: "original field names are not valid"). */
  obj(v: unknown, at: string): Json {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return fail(at, `${JSON.stringify(v)} where an object belongs`)
    const snake = Object.keys(v).find((k) => k.includes('_'))
    return snake === undefined ? (v as Json) : fail(at, `the key ${snake}: OTLP/JSON keys are lowerCamelCase`)
  },
  arr: (v: unknown, at: string): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : fail(at, 'not an array')),
  string: (v: unknown, at: string): string => (v === undefined ? '' : typeof v === 'string' ? v : fail(at, `${JSON.stringify(v)} where a string belongs`)),
  hex(v: unknown, at: string): string {
    const s = js.string(v, at)
    if (/^([0-9a-f]{2})*$/i.test(s)) return s.toLowerCase()
    return fail(at, `${JSON.stringify(s)} is not hex${/[+/=]|^.{24}$|^.{12}$/.test(s) ? ' (base64? OTLP/JSON ids are hex)' : ''}`)
  },
  /** int64, uint64, fixed64: a decimal string, or a number that is a safe integer (a larger one lost digits in JSON). */
  int64(v: unknown, at: string, unsigned = false): bigint {
    if (v === undefined) return 0n
    const ok = typeof v === 'string' ? /^-?\d+$/.test(v) : Number.isSafeInteger(v)
    if (!ok) fail(at, `${JSON.stringify(v)}: a 64-bit integer is a decimal string, or a number below 2^53`)
    const n = BigInt(v as string | number)
    return unsigned && n < 0n ? fail(at, `${n} is negative`) : n
  },
  uint32(v: unknown, at: string): number {
    const n = Number(js.int64(v, at, true))
    return n > 0xffffffff ? fail(at, `${n} is above 2^32`) : n
  },
  enum: (v: unknown, at: string): number =>
    v === undefined ? 0 : Number.isInteger(v) ? (v as number) : fail(at, `${JSON.stringify(v)}: OTLP/JSON enums are integers`),
  double(v: unknown, at: string): number {
    if (typeof v === 'number') return v
    const special: Record<string, number> = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity }
    return typeof v === 'string' && v in special ? (special[v] as number) : fail(at, `${JSON.stringify(v)} is not a double`)
  },
  bytes: (v: unknown, at: string): Uint8Array => {
    const s = js.string(v, at)
    return /^[A-Za-z0-9+/_-]*={0,2}$/.test(s) && s.length % 4 !== 1 ? new Uint8Array(Buffer.from(s, 'base64')) : fail(at, 'not base64')
  }
}
const jsAttributes = (v: unknown, at: string): Attributes =>
  toAttributes(
    js.arr(v, at).map((kv, i) => jsKeyValue(kv, `${at}[${i}]`)),
    at
  )

/** The fields of one OTLP/JSON object, read as their proto types (absent: the default); an error names the field's place. */
interface JsObject {
  string(key: string): string
  hex(key: string): string
  uint64(key: string): bigint
  uint32(key: string): number
  enum(key: string): number
  attributes(key: string): Attributes
  object(key: string): JsObject
  list<T>(key: string, each: (v: unknown, at: string) => T): T[]
}
function jsObject(v: unknown, at: string): JsObject {
  const o = js.obj(v ?? {}, at)
  const read =
    <T>(parse: (v: unknown, at: string) => T) =>
    (key: string): T =>
      parse(o[key], `${at}.${key}`)
  return {
    string: read(js.string),
    hex: read(js.hex),
    uint64: read((v, where) => js.int64(v, where, true)),
    uint32: read(js.uint32),
    enum: read(js.enum),
    attributes: read(jsAttributes),
    object: read(jsObject),
    list: <T>(key: string, each: (v: unknown, at: string) => T): T[] => js.arr(o[key], `${at}.${key}`).map((x, i) => each(x, `${at}.${key}[${i}]`))
  }
}

function jsKeyValue(v: unknown, at: string): [string, AttrValue] {
  const kv = js.obj(v, at)
  return [js.string(kv.key, `${at}.key`), kv.value === undefined ? null : jsAnyValue(kv.value, `${at}.value`)]
}
function jsAnyValue(v: unknown, at: string): AttrValue {
  const o = js.obj(v, at)
  const keys = Object.keys(o)
  if (keys.length > 1) fail(at, `${keys.join(' and ')}: an AnyValue holds one value`)
  const [key] = keys
  if (key === undefined) return null
  const [x, where] = [o[key], `${at}.${key}`]
  if (key === 'stringValue') return js.string(x, where)
  if (key === 'boolValue') return typeof x === 'boolean' ? x : fail(where, `${JSON.stringify(x)} is not a boolean`)
  if (key === 'intValue') return js.int64(x, where)
  if (key === 'doubleValue') return js.double(x, where)
  if (key === 'bytesValue') return js.bytes(x, where)
  if (key === 'arrayValue') return jsObject(x, where).list('values', jsAnyValue)
  if (key === 'kvlistValue') return jsObject(x, where).attributes('values')
  return fail(at, `an AnyValue of the unknown kind ${key}`)
}

/** Decodes an OTLP/JSON ExportTraceServiceRequest; throws OtlpDecodeError naming where it is wrong. */
export function decodeJson(text: string): Decoded {
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch (e) {
    fail('request', `not JSON (${(e as Error).message})`)
  }
  const out: Decoded = { resources: [], spans: [] }
  jsObject(doc, 'request').list('resourceSpans', (v, at) => {
    const rs = jsObject(v, at)
    out.resources.push(rs.object('resource').attributes('attributes'))
    rs.list('scopeSpans', (w, where) => {
      const ss = jsObject(w, where)
      const o = ss.object('scope')
      const scope = { name: o.string('name'), version: o.string('version'), attributes: o.attributes('attributes') }
      out.spans.push(...ss.list('spans', (x, k) => jsSpan(x, k, scope)))
    })
  })
  return out
}
function jsSpan(v: unknown, at: string, scope: Scope): ReceivedSpan {
  const o = jsObject(v, at)
  const status = o.object('status')
  const span: SpanFields = {
    ...{ traceId: o.hex('traceId'), spanId: o.hex('spanId'), parentSpanId: o.hex('parentSpanId'), traceState: o.string('traceState') },
    ...{ flags: o.uint32('flags'), name: o.string('name'), kind: o.enum('kind'), scope },
    ...{ startNs: o.uint64('startTimeUnixNano'), endNs: o.uint64('endTimeUnixNano'), attributes: o.attributes('attributes') },
    events: o.list('events', (x, where) => {
      const e = jsObject(x, where)
      return { name: e.string('name'), timeNs: e.uint64('timeUnixNano'), attributes: e.attributes('attributes') }
    }),
    links: o.list('links', (x, where) => {
      const l = jsObject(x, where)
      return {
        traceId: l.hex('traceId'),
        spanId: l.hex('spanId'),
        traceState: l.string('traceState'),
        flags: l.uint32('flags'),
        attributes: l.attributes('attributes')
      }
    }),
    dropped: { attributes: o.uint32('droppedAttributesCount'), events: o.uint32('droppedEventsCount'), links: o.uint32('droppedLinksCount') },
    status: { code: status.enum('code'), message: status.string('message') }
  }
  return finishSpan(span, at)
}
