// The one way a native sink calls its service: JSON over the project's HttpTransport, ended by the
// dispatcher's signal, and a failure that names the service and its status without the address or a
// token (a webhook's URL is its secret; a service may echo what it was sent).
import { systemErrorCode } from '../../errors.js'
import { HttpTransport, type HttpResponse } from '../../http/transport.js'
import { redact } from '../../secrets.js'

const USER_AGENT = 'brcloud-deploy (events)'
/** A service's own error text is quoted when it is at most this long (a page of HTML is not). */
const SHORT_TEXT = 200

export interface SinkCall {
  /** The service's name, first in every failure ("Slack answered 404: ..."). */
  readonly service: string
  /** Where the service is: an origin and maybe a path prefix (an API's base, or a webhook's whole URL). */
  readonly url: string
  /** Appended to `url`'s path ('' when `url` is the whole address). */
  readonly path: string
  /** The address is a webhook's: its path and query are a secret too. */
  readonly webhook?: boolean
  readonly headers?: Record<string, string>
  readonly body: unknown
  /** Values never to appear in a failure's message: the token, the webhook URL. */
  readonly secrets: readonly string[]
  readonly signal: AbortSignal
}

/** A service answered with a status that is not a success, or not at all. Carries no address and no token. */
export class SinkCallFailed extends Error {
  override name = 'SinkCallFailed'
  constructor(
    message: string,
    /** The answer's status; undefined when there was no answer. */
    readonly status?: number
  ) {
    super(message)
  }
}

/** POSTs `body` as JSON; the answer when its status is 2xx, otherwise a SinkCallFailed. */
export async function postJson(call: SinkCall): Promise<HttpResponse> {
  const { base, path } = split(call)
  // A webhook's whole address is its secret, its path and query too.
  const secrets = [...call.secrets, call.url, ...(call.webhook === true && path.length > 1 ? [path] : [])]
  const transport = new HttpTransport(base, { userAgent: USER_AGENT, signal: call.signal })
  let res: HttpResponse
  try {
    res = await transport.send({
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json', ...call.headers },
      body: JSON.stringify(call.body)
    })
  } catch (error) {
    // The time limit or the run's stop: the dispatcher reads its own signal's reason.
    if (call.signal.aborted) throw call.signal.reason
    const code = systemErrorCode(error)
    const why = code ?? scrub(error instanceof Error ? error.message : String(error), secrets)
    throw new SinkCallFailed(`${call.service} could not be reached (${why})`)
  } finally {
    await transport.close()
  }
  if (res.status < 200 || res.status > 299) throw answerFailed(call.service, res, secrets)
  return res
}

/** "Grafana answered 401: invalid API key": the service's own words when they are short, never an address or token. */
export function answerFailed(service: string, res: HttpResponse, secrets: readonly string[]): SinkCallFailed {
  const text = errorText(res.text)
  const shown = text === undefined ? '' : scrub(text, secrets)
  return new SinkCallFailed(`${service} answered ${res.status}${shown ? `: ${shown}` : ''}`, res.status)
}

/** The error text of an answer: a JSON body's message/error/detail (first of errors[]), or a short plain text. */
export function errorText(body: string): string | undefined {
  let text: string | undefined
  try {
    text = messageOf(JSON.parse(body))
  } catch {
    text = /^\s*</.test(body) ? undefined : body
  }
  const line = text?.replace(/\s+/g, ' ').trim()
  return line && line.length <= SHORT_TEXT ? line : undefined
}

function messageOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (Array.isArray(value)) return messageOf(value[0])
  if (value === null || typeof value !== 'object') return undefined
  const o = value as Record<string, unknown>
  for (const key of ['message', 'error', 'detail', 'title', 'errors']) {
    const found = messageOf(o[key])
    if (found) return found
  }
  return undefined
}

/** The text with every secret of this call (and every one the run registered) replaced by ***. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text
  for (const s of [...secrets].filter(Boolean).sort((a, b) => b.length - a.length)) {
    out = out.split(s).join('***').split(encodeURIComponent(s)).join('***')
  }
  return redact(out)
}

/** The transport's base (origin and path prefix, no trailing slash) and the path of this call. */
function split(call: SinkCall): { base: string; path: string } {
  let url: URL
  try {
    url = new URL(call.url)
  } catch {
    throw new SinkCallFailed(`${call.service}: its address is not a URL`)
  }
  const prefix = url.pathname.replace(/\/+$/, '')
  const path = `${prefix}${call.path}` || '/'
  return { base: url.origin, path: `${path}${url.search}` }
}
