// A stand-in for a CDEvents receiver (events-url): a real HTTP server on loopback that records every request as it
// arrived (method, path, headers, parsed body) and answers each with what the test scripts: a status, or no answer.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly text: string
  /** The body as JSON (undefined when it is not JSON). */
  readonly body: Record<string, unknown> | undefined
}

/** How the stand-in answers a request: a status (202 by default), or 'hang' (never answers). */
export type Answer = number | 'hang'

export interface EventsStandIn {
  readonly url: string
  readonly received: Received[]
  /** Answers of the next requests, in order; after them, `otherwise`. */
  readonly answers: Answer[]
  otherwise: Answer
  /** Resolves once `n` requests have arrived. */
  arrived(n: number): Promise<void>
  close(): Promise<void>
}

export async function startEventsStandIn(path = '/cdevents'): Promise<EventsStandIn> {
  const received: Received[] = []
  const hanging: ServerResponse[] = []
  const waiters: Array<{ n: number; resolve: () => void }> = []
  const stand = {
    answers: [] as Answer[],
    otherwise: 202 as Answer
  }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      let body: Record<string, unknown> | undefined
      try {
        body = JSON.parse(text) as Record<string, unknown>
      } catch {
        body = undefined
      }
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, text, body })
      for (const w of waiters.filter((w) => received.length >= w.n)) w.resolve()
      const answer = stand.answers.shift() ?? stand.otherwise
      if (answer === 'hang') return void hanging.push(res)
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? '' : 'not accepted')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return Object.assign(stand, {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    arrived: (n: number) => (received.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }))),
    close: async () => {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
}
