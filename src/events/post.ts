// One POST of a sink, through the action's one HTTP stack (http/transport.ts: undici, HTTP/1.1, the proxy rules,
// loopback never proxied). The signal is the sink's time limit joined with the run's stop (events/dispatch.ts).
import { HttpTransport } from '../http/transport.js'

export const EVENTS_USER_AGENT = 'brcloud-deploy (events)'

/** A sink's service answered, but not with a 2xx: the status only (a body may echo what was sent). */
export class SinkAnswered extends Error {
  override name = 'SinkAnswered'
  constructor(readonly status: number) {
    super(`it answered HTTP ${status}`)
  }
}

/** POSTs `body` (a string as it is, anything else as JSON) to `url`; resolves on a 2xx, else throws SinkAnswered. */
export async function post(url: string, body: unknown, headers: Record<string, string>, signal: AbortSignal): Promise<void> {
  const target = new URL(url)
  const transport = new HttpTransport(target.origin, { userAgent: EVENTS_USER_AGENT, signal })
  try {
    const res = await transport.send({
      method: 'POST',
      path: `${target.pathname}${target.search}`,
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body)
    })
    if (res.status < 200 || res.status > 299) throw new SinkAnswered(res.status)
  } finally {
    await transport.close()
  }
}
