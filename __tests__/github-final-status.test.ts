// The post step's final status (src/github/final-status.ts) when GitHub does not answer: the call is ended at its
// limit and says so, so that a post step never holds the job until its timeout. A real socket that accepts the
// connection and never answers stands for the hung GitHub.
import { createServer, type Socket } from 'node:net'

const sockets: Socket[] = []
const hanging = createServer((socket) => void sockets.push(socket))
await new Promise<void>((done) => hanging.listen(0, '127.0.0.1', done))
// @actions/github reads its API address once, when it is first imported.
process.env.GITHUB_API_URL = `http://127.0.0.1:${(hanging.address() as { port: number }).port}`
const { setErrorStatus } = await import('../src/github/final-status.js')

afterAll(async () => {
  for (const s of sockets) s.destroy()
  await new Promise<void>((done) => hanging.close(() => done()))
})

test('no answer within the limit: "GitHub did not answer within N s", with the abort as its cause', async () => {
  const failure = await setErrorStatus('ghs_token', { id: 7, owner: 'acme', repo: 'site', logUrl: undefined }, 'x', 300).then(
    () => undefined,
    (e: unknown) => e as Error
  )
  expect(failure?.message).toBe('GitHub did not answer within 0.3 s')
  expect(failure?.cause).toBeDefined()
  // The request reached GitHub: the limit ended a call in flight, not one never sent.
  expect(sockets.length).toBeGreaterThan(0)
})
