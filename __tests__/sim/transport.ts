// The simulation's one replaced edge on the action's side: HttpTransport, answering in-process from the
// emulator's own stack (stack.ts `handle`) with the objects a socket would give it. No sockets, no real
// time: every wait is a fake timer, so a schedule replays exactly. A dropped or held answer becomes what
// undici would throw (a closed socket, a call past its time limit).
import { EventEmitter } from 'node:events'
import { Readable } from 'node:stream'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { HttpRequest, HttpResponse, TransportOptions } from '../../src/http/transport.js'
import type { Stack } from '../../src/emulator/stack.js'

/** The world the transports of one simulated run talk to (set by the world before the run starts). */
export const wire: {
  stack: Stack | undefined
  latencyMs: (path: string) => number
  /** Every environments answer the action got, in order, with when the platform made it: what each look could have seen. */
  looks: Array<{ seq: number; answer: Record<string, unknown> }>
  /** Every deploy call the action made, in order, by the sequence number of its call. */
  deploys: Array<{ seq: number; distributionId: string }>
  seq: number
} = { stack: undefined, latencyMs: () => 0, looks: [], deploys: [], seq: 0 }

export class CallTimeoutError extends Error {
  override name = 'CallTimeoutError'
  readonly code = 'ETIMEDOUT'
}

class SocketClosed extends Error {
  override name = 'SocketError'
  readonly code = 'UND_ERR_SOCKET'
}

/** What node:http's ServerResponse is to stack.ts: status, headers, body, and the finish/close events. */
class FakeResponse extends EventEmitter {
  statusCode = 200
  headersSent = false
  writableEnded = false
  destroyed = false
  headers: Record<string, unknown> = {}
  readonly chunks: Buffer[] = []

  writeHead(status: number, headers: Record<string, unknown> = {}): this {
    this.statusCode = status
    this.headers = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))
    this.headersSent = true
    return this
  }

  write(chunk: Buffer | string): boolean {
    this.chunks.push(Buffer.from(chunk))
    return true
  }

  end(chunk?: Buffer | string): this {
    if (chunk !== undefined) this.write(chunk)
    this.writableEnded = true
    this.emit('finish')
    this.emit('close')
    return this
  }
}

export class HttpTransport {
  private closed = false

  constructor(
    readonly baseUrl: string,
    private readonly options: TransportOptions
  ) {}

  async send(req: HttpRequest): Promise<HttpResponse> {
    const stack = wire.stack
    if (stack === undefined || this.closed) throw new SocketClosed('no simulated stack')
    const signal = this.options.signal
    if (signal?.aborted) throw signal.reason
    const limit = req.timeoutMs ?? this.options.timeoutMs ?? 60_000
    const answer = this.exchange(stack, req)
    return new Promise<HttpResponse>((resolve, reject) => {
      const timer = setTimeout(() => finish(() => reject(new CallTimeoutError(`no answer within ${Math.round(limit / 1000)} s`))), limit)
      const onAbort = (): void => finish(() => reject(signal?.reason as Error))
      signal?.addEventListener('abort', onAbort, { once: true })
      let settled = false
      function finish(then: () => void): void {
        if (settled) return
        settled = true
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        then()
      }
      answer.then(
        (res) =>
          finish(() => {
            // Only an answer the action received counts as something it could have seen.
            if (req.method === 'GET' && req.path.startsWith('/v3/environments') && res.status === 200)
              wire.looks.push({ seq: res.seq, answer: JSON.parse(res.text) as Record<string, unknown> })
            resolve(res)
          }),
        (error: unknown) => finish(() => reject(error as Error))
      )
    })
  }

  /** One request through the stack, answered after the world's latency for that path; never settles when the stack holds it (a hang). */
  private async exchange(stack: Stack, req: HttpRequest): Promise<HttpResponse & { seq: number }> {
    const seq = ++wire.seq
    if (req.method === 'PUT' && req.path.endsWith('/deploy') && typeof req.body === 'string') {
      wire.deploys.push({ seq, distributionId: String((JSON.parse(req.body) as { distributionId?: unknown }).distributionId) })
    }
    const url = new URL(req.path, this.baseUrl)
    const body = typeof req.body === 'string' ? Buffer.from(req.body) : Buffer.alloc(0)
    const headers: Record<string, string> = { host: url.host, 'user-agent': this.options.userAgent }
    for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v
    if (body.length > 0) headers['content-length'] = String(body.length)
    const res = new FakeResponse()
    const socket = {
      remotePort: 0,
      destroyed: false,
      destroy(): void {
        if (this.destroyed) return
        this.destroyed = true
        res.destroyed = true
        res.emit('close')
      }
    }
    const incoming = Object.assign(Readable.from(body.length > 0 ? [body] : []), {
      method: req.method,
      url: `${url.pathname}${url.search}`,
      httpVersion: '1.1',
      headers,
      socket
    })
    const closed = new Promise<void>((done) => res.once('close', () => done()))
    await stack.handle(incoming as unknown as IncomingMessage, res as unknown as ServerResponse)
    await closed
    const latency = wire.latencyMs(url.pathname)
    if (latency > 0) await new Promise((done) => setTimeout(done, latency))
    if (!res.writableEnded) throw new SocketClosed('other side closed')
    const out: Record<string, string | string[] | undefined> = {}
    for (const [k, v] of Object.entries(res.headers)) out[k] = Array.isArray(v) ? v.map(String) : v === undefined ? undefined : String(v as string)
    return { status: res.statusCode, headers: out, text: Buffer.concat(res.chunks).toString('utf8'), seq }
  }

  async close(): Promise<void> {
    this.closed = true
  }
}
