// checkHealth against a real HTTP server on this machine: what the step says when the page never passes, by the
// last answer (a fake clock, so no test waits on the machine's speed).
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { checkHealth, HealthCheckFailed } from '../src/health.js'

let server: Server
let status = 200
let body = 'ok'
const seen: string[] = []
let base = ''

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`)
    // A moved page: the site's address is where it leads.
    if (req.url?.startsWith('/moved')) return void res.writeHead(302, { location: '/site/home?lang=en' }).end()
    res.writeHead(status, { 'content-type': 'text/plain' }).end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
})
beforeEach(() => {
  seen.length = 0
  status = 200
  body = 'ok'
})

/** Three attempts of fake time (the sleep moves the clock), then why the check failed, or undefined when it passed. */
async function failure(marker?: string): Promise<string | undefined> {
  let clock = 0
  const log: string[] = []
  try {
    await checkHealth({
      url: `${base}/version.txt?token=secret`,
      expect: marker,
      timeoutMs: 4_000,
      requestTimeoutMs: 10_000,
      userAgent: 'test',
      log: (line) => log.push(line),
      now: () => clock,
      sleep: async (ms) => void (clock += ms)
    })
    return undefined
  } catch (error) {
    expect(error).toBeInstanceOf(HealthCheckFailed)
    expect(log).toHaveLength(3)
    return (error as Error).message
  }
}
const head = (last: string): string =>
  `The health check of ${base}/version.txt did not pass within health-timeout-minutes (4.0 s, 3 attempt(s)); the last answer: ${last}. `

test('a 404: the page does not exist, so the path and where the build writes it are what to check', async () => {
  status = 404
  expect(await failure()).toBe(
    head('HTTP 404') +
      "The page does not exist: check the health-url path and where your build writes it (a file of the site webapp is served at the site's root)."
  )
  expect(seen).toEqual(Array(3).fill('GET /version.txt?token=secret'))
})

test('a 401 or 403: the check sends no credentials, so a public page is needed', async () => {
  for (const code of [401, 403]) {
    status = code
    expect(await failure()).toBe(head(`HTTP ${code}`) + 'The page asks for credentials, which the check never sends: point health-url at a public page.')
  }
})

test('a 500: the site and its logs', async () => {
  status = 500
  expect(await failure()).toBe(head('HTTP 500') + 'Check the site and its logs.')
})

test('a 2xx without the marker: the build and the switch', async () => {
  body = 'old release'
  expect(await failure('abc123')).toBe(
    head("HTTP 200, but the page does not contain 'abc123'") +
      'The site answers, but not with the new release: check that the build writes health-expect into that page, and that the deploy really switched.'
  )
})

test('a 2xx with the marker passes', async () => {
  body = 'release abc123'
  expect(await failure('abc123')).toBeUndefined()
})

test('the page that answered is told, redirects followed and without its query (site-url), whatever its status', async () => {
  const answered: string[] = []
  const check = (path: string) =>
    checkHealth({
      url: `${base}${path}`,
      expect: undefined,
      timeoutMs: 0,
      requestTimeoutMs: 10_000,
      userAgent: 'test',
      log: () => undefined,
      answered: (a) => answered.push(a)
    })
  await check('/moved?token=secret')
  expect(answered).toEqual([`${base}/moved`, `${base}/site/home`])
  answered.length = 0
  status = 500
  await expect(check('/version.txt?token=secret')).rejects.toBeInstanceOf(HealthCheckFailed)
  expect(answered).toEqual([`${base}/version.txt`])
})

test("once (the status report's probe): one GET, no wait for the site to come up, and no budget named in the message", async () => {
  status = 503
  let slept = false
  const error = await checkHealth({
    url: `${base}/version.txt`,
    expect: undefined,
    once: true,
    timeoutMs: 10_000,
    requestTimeoutMs: 10_000,
    userAgent: 'test',
    log: () => undefined,
    sleep: async () => void (slept = true)
  }).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(HealthCheckFailed)
  expect((error as Error).message).toBe(`The health check of ${base}/version.txt did not pass; the last answer: HTTP 503. Check the site and its logs.`)
  expect({ seen, slept }).toEqual({ seen: ['GET /version.txt'], slept: false })
})
