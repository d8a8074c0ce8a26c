// A request handler served over HTTP/1.1: what the platform emulator and the code hosts' stand-ins share to listen,
// to name their own address, and to close with every connection (a keep-alive socket, or a call held by a hang,
// would hold close() open).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Served {
  /** http://host:port, a wildcard address named as loopback. */
  readonly url: string
  close(): Promise<void>
}

/** The host of a server's own URL: a wildcard address is reached on loopback, an IPv6 one in brackets. */
export function urlHost(address: string): string {
  if (address === '0.0.0.0') return '127.0.0.1'
  if (address === '::') return '[::1]'
  return address.includes(':') ? `[${address}]` : address
}

/** Listens on `host:port` (0: any free port); a handler that throws ends its connection. */
export async function serve(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>, port = 0, host = '127.0.0.1'): Promise<Served> {
  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy())
  })
  await new Promise<void>((listening, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      listening()
    })
  })
  const address = server.address() as AddressInfo
  let closing: Promise<void> | undefined
  return {
    url: `http://${urlHost(address.address)}:${address.port}`,
    close() {
      closing ??= new Promise<void>((done) => {
        server.close(() => done())
        server.closeAllConnections()
      })
      return closing
    }
  }
}
