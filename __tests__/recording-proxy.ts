// A proxy in front of a server of the emulator that passes every call on as it is and records the tokens its JSON
// answers held: what a client received, read off the wire (guard-masks, and the revocations of deploy-index).
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

const TOKEN_FIELD = /^(access_token|refresh_token|id_token)$/

export interface Recorder {
  url: string
  /** Every token a JSON answer held, in the order they came. */
  answered: Array<{ field: string; token: string }>
  close(): Promise<void>
}

export async function recordingProxy(target: string): Promise<Recorder> {
  const answered: Recorder['answered'] = []
  const to = new URL(target)
  const server: Server = createServer((req, res) => {
    const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = []
      answer.on('data', (c: Buffer) => chunks.push(c))
      answer.on('end', () => {
        const body = Buffer.concat(chunks)
        try {
          const json = JSON.parse(body.toString('utf8')) as Record<string, unknown>
          for (const [field, token] of Object.entries(json)) if (TOKEN_FIELD.test(field) && typeof token === 'string') answered.push({ field, token })
        } catch {
          // Not JSON: no token in it.
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers).end(body)
      })
    })
    req.pipe(upstream)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answered,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((done) => server.close(() => done()))
    }
  }
}
