// The claims of the events code a user or a receiver can see, one by one (found missing by mutation testing):
// what postJson sends (user-agent, content-type, the address split into base, path prefix and query) and what its
// failures say (the status, the service's own short words, every secret scrubbed); the dispatcher's warning for each
// kind of failure; the CDEvents fields when the run lacks a field.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { CDEVENT_TYPES, cdevent, cdeventsSink } from '../src/events/cdevents.js'
import { uuidOf } from '../src/events/from-run.js'
import { tellOthers } from '../src/events/dispatch.js'
import type { ObservedRun, Sink } from '../src/events/observed.js'
import { errorText, postJson, scrub, SinkCallFailed, type SinkCall } from '../src/events/sinks/post.js'
import { CallTimeoutError } from '../src/http/transport.js'
import { rolledBack, verifiedUpgrade } from './sink-stand-ins.js'
import { registerSecret } from '../src/secrets.js'
import { useTestPort } from './test-port.js'

interface Got {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly text: string
}
type Reply = { status: number; body?: string; headers?: Record<string, string> } | 'hang'

/** A receiver on loopback: records each request, answers with the scripted reply (204 by default). */
class Receiver {
  readonly got: Got[] = []
  reply: Reply = { status: 204 }
  readonly sockets = new Set<Socket>()
  private readonly server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      this.got.push({ path: req.url ?? '', headers: req.headers, text: Buffer.concat(chunks).toString('utf8') })
      const reply = this.reply
      if (reply === 'hang') return
      res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers }).end(reply.body ?? '')
    })
  })
  base = ''
  async start(): Promise<void> {
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s)
      s.on('close', () => this.sockets.delete(s))
    })
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }
  async stop(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}

const receiver = new Receiver()
beforeAll(() => receiver.start())
afterAll(() => receiver.stop())
beforeEach(() => {
  receiver.got.length = 0
  receiver.reply = { status: 204 }
})

const call = (over: Partial<SinkCall> = {}): SinkCall => ({
  service: 'Svc',
  url: receiver.base,
  path: '/api/things',
  body: { a: 1 },
  secrets: [],
  signal: new AbortController().signal,
  ...over
})
const failureOf = async (c: SinkCall): Promise<SinkCallFailed> => {
  const error = await postJson(c).then(
    () => undefined,
    (e: unknown) => e
  )
  if (!(error instanceof SinkCallFailed)) throw new Error(`not a SinkCallFailed: ${String(error)}`)
  return error
}

describe('postJson: what the service receives', () => {
  test('a JSON POST with our user-agent and content-type; the header given wins over none', async () => {
    await postJson(call({ headers: { 'x-key': 'k' } }))
    const [got] = receiver.got
    expect(got?.headers['user-agent']).toBe('brcloud-deploy (events)')
    expect(got?.headers['content-type']).toBe('application/json')
    expect(got?.headers['x-key']).toBe('k')
    expect(got?.text).toBe('{"a":1}')
  })

  test("the address's path is a prefix (trailing slashes dropped), its query follows the call's path; no path at all is '/'", async () => {
    await postJson(call({ url: `${receiver.base}/grafana//`, path: '/api/annotations' }))
    await postJson(call({ url: `${receiver.base}/hooks/T000/B111?key=abc`, path: '' }))
    await postJson(call({ url: receiver.base, path: '' }))
    expect(receiver.got.map((g) => g.path)).toEqual(['/grafana/api/annotations', '/hooks/T000/B111?key=abc', '/'])
  })

  test('an address that is not a URL: a SinkCallFailed naming the service, and nothing sent', async () => {
    const error = await failureOf(call({ url: 'hooks.example.com/x' }))
    expect(error.message).toBe('Svc: its address is not a URL')
    expect(error.name).toBe('SinkCallFailed')
    expect(receiver.got).toEqual([])
  })

  test('the connection is closed once the call is done (no socket left to the service)', async () => {
    // The receiver offers a long keep-alive: only our close ends the connection.
    receiver.reply = { status: 204, headers: { connection: 'keep-alive', 'keep-alive': 'timeout=600' } }
    await postJson(call())
    await new Promise<void>((resolve) => {
      const watch = (): void => (receiver.sockets.size === 0 ? resolve() : void setTimeout(watch, 10))
      watch()
    })
  })
})

describe('postJson: what a failure says', () => {
  test('any status outside 2xx fails with the status and the short text; 299 is a success', async () => {
    receiver.reply = { status: 500, body: 'boom' }
    const error = await failureOf(call())
    expect(error.message).toBe('Svc answered 500: boom')
    expect(error.status).toBe(500)
    receiver.reply = { status: 299 }
    await expect(postJson(call())).resolves.toMatchObject({ status: 299 })
  })

  test('a page of HTML is not quoted', async () => {
    receiver.reply = { status: 502, body: '  <html><body>Bad gateway</body></html>' }
    expect((await failureOf(call())).message).toBe('Svc answered 502')
  })

  test("a webhook's path and query are secret: scrubbed when the service echoes them; an API's path is not", async () => {
    receiver.reply = { status: 404, body: 'no hook at /hooks/T000/B111?key=abc' }
    expect((await failureOf(call({ url: `${receiver.base}/hooks/T000/B111?key=abc`, path: '', webhook: true }))).message).toBe(
      'Svc answered 404: no hook at ***'
    )
    receiver.reply = { status: 404, body: 'no route /api/things' }
    expect((await failureOf(call()))?.message).toBe('Svc answered 404: no route /api/things')
    // A webhook at the bare origin: its path '/' is no secret (every '/' of the text would go).
    receiver.reply = { status: 400, body: 'bad text/plain payload' }
    expect((await failureOf(call({ path: '', webhook: true }))).message).toBe('Svc answered 400: bad text/plain payload')
  })

  test("a service that echoes the whole address: all of it scrubbed, a webhook's and an API's (the origin too, never a part left)", async () => {
    const hook = `${receiver.base}/hooks/T000/B222?key=whole`
    receiver.reply = { status: 404, body: `no hook at ${hook}` }
    expect((await failureOf(call({ url: hook, path: '', webhook: true }))).message).toBe('Svc answered 404: no hook at ***')
    receiver.reply = { status: 400, body: `bad request to ${receiver.base}/api/things` }
    expect((await failureOf(call())).message).toBe('Svc answered 400: bad request to ***/api/things')
  })

  test('a call stopped by its signal rejects with the signal\'s reason, not as "could not be reached"', async () => {
    receiver.reply = 'hang'
    const stop = new AbortController()
    const reason = new DOMException('stopped by the test', 'AbortError')
    const posting = postJson(call({ signal: stop.signal })).then(
      () => undefined,
      (e: unknown) => e
    )
    while (receiver.got.length === 0) await new Promise((r) => setTimeout(r, 5))
    stop.abort(reason)
    expect(await posting).toBe(reason)
  })

  test('a refused connection: "could not be reached" with the code, no status', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as AddressInfo
        s.close(() => resolve(port))
      })
    })
    const error = await failureOf(call({ url: `http://127.0.0.1:${closedPort}` }))
    expect(error.message).toBe('Svc could not be reached (ECONNREFUSED)')
    expect(error.status).toBeUndefined()
  })
})

describe("errorText and scrub: the service's words, never a secret", () => {
  test('the first of message, error, detail, title, errors; a JSON null or number says nothing', () => {
    expect(errorText('{"message":"m","error":"e"}')).toBe('m')
    expect(errorText('{"error":"e","detail":"d"}')).toBe('e')
    expect(errorText('{"detail":"d","title":"t"}')).toBe('d')
    expect(errorText('{"title":"t","errors":["x"]}')).toBe('t')
    expect(errorText('{"errors":[{"message":"first"},{"message":"second"}]}')).toBe('first')
    expect(errorText('null')).toBeUndefined()
    expect(errorText('42')).toBeUndefined()
  })

  test('plain text: whitespace folded and trimmed; a "<" inside is text; 200 characters quoted, 201 not', () => {
    expect(errorText('  token\n\n  expired  ')).toBe('token expired')
    expect(errorText('a < b')).toBe('a < b')
    expect(errorText('x'.repeat(200))).toBe('x'.repeat(200))
    expect(errorText('x'.repeat(201))).toBeUndefined()
  })

  test('the longest secret first, its URL-encoded form too, an empty one ignored', () => {
    expect(scrub('key abcdef here', ['abc', 'abcdef'])).toBe('key *** here')
    expect(scrub('see a%20b%2Fc', ['a b/c'])).toBe('see ***')
    expect(scrub('plain text', [''])).toBe('plain text')
  })

  test("every secret the run registered too (the stack's password a service might echo), not only the call's own", () => {
    useTestPort({})
    registerSecret('run-password-scrub-41')
    expect(scrub('login run-password-scrub-41 refused', [])).toBe('login *** refused')
  })
})

describe("the dispatcher's warning, per kind of failure", () => {
  let warnings: string[]
  let infos: string[]
  beforeEach(() => {
    warnings = []
    infos = []
    useTestPort({ warning: (m) => void warnings.push(m), info: (m) => void infos.push(m) })
  })
  const failing = (name: string, error: unknown): Sink => ({
    name,
    send: async () => {
      throw error
    }
  })
  const warningFor = async (error: unknown, name = 'Svc'): Promise<string | undefined> => {
    await tellOthers(verifiedUpgrade, [failing(name, error)], 60_000)
    return warnings.pop()
  }
  const said = (why: string, name = 'Svc') => `Events: ${name} was not told: ${why}. The deployment's outcome is unchanged.`

  test('a SinkCallFailed that starts with the service: "it ..."; one that doesn\'t: as it is', async () => {
    expect(await warningFor(new SinkCallFailed('Slack answered 404: no_service'), 'Slack')).toBe(said('it answered 404: no_service', 'Slack'))
    expect(await warningFor(new SinkCallFailed('Slack: its address is not a URL'), 'Slack')).toBe(said('Slack: its address is not a URL', 'Slack'))
  })

  test('a call that ran out of its own time (TimeoutError, CallTimeoutError): "its call ran out of time"', async () => {
    expect(await warningFor(new DOMException('late', 'TimeoutError'))).toBe(said('its call ran out of time'))
    expect(await warningFor(new CallTimeoutError('no answer within 60 s'))).toBe(said('its call ran out of time'))
  })

  test('a connection error: its code', async () => {
    const error = Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:443'), { code: 'ECONNREFUSED' })
    expect(await warningFor(error)).toBe(said('the connection failed (ECONNREFUSED)'))
  })

  test('an AbortError (a plain Error so named, or any DOMException): "the run was stopped"', async () => {
    expect(await warningFor(Object.assign(new Error('aborted'), { name: 'AbortError' }))).toBe(said('the run was stopped'))
    expect(await warningFor(new DOMException('gone', 'NotFoundError'))).toBe(said('the run was stopped'))
  })

  test('a real refused connection through the CDEvents sink: "it could not be reached (ECONNREFUSED)"', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as AddressInfo
        s.close(() => resolve(port))
      })
    })
    await tellOthers(verifiedUpgrade, [cdeventsSink({ url: `http://127.0.0.1:${closedPort}/ce`, token: undefined })], 60_000)
    expect(warnings).toEqual([said('it could not be reached (ECONNREFUSED)', 'CDEvents')])
  })

  test('any other failure: its words with every secret the run registered masked, and no address', async () => {
    registerSecret('dispatch-secret-31')
    expect(await warningFor(new Error('token dispatch-secret-31 refused by https://hooks.example.com/x'))).toBe(said('token *** refused by <address>'))
  })

  test('no limit left, or a stop already given: no sink is called', async () => {
    const called: string[] = []
    const sink: Sink = { name: 'Svc', send: async () => void called.push('sent') }
    await tellOthers(verifiedUpgrade, [sink], 0)
    const stop = new AbortController()
    stop.abort()
    await tellOthers(verifiedUpgrade, [sink], 60_000, stop.signal)
    expect(called).toEqual([])
    expect(warnings).toEqual([])
  })

  test('a stop given while the sends begin ends a sink that ignores its signal', async () => {
    const stop = new AbortController()
    const stuck: Sink = {
      name: 'Stuck',
      send: () => {
        stop.abort()
        return new Promise(() => undefined)
      }
    }
    await tellOthers(verifiedUpgrade, [stuck], 60_000, stop.signal)
    expect(warnings).toEqual([said('the run was stopped', 'Stuck')])
  })

  test('once a sink is done, a later stop no longer reaches its signal (its limit is cleared)', async () => {
    const stop = new AbortController()
    let seen: AbortSignal | undefined
    const quick: Sink = { name: 'Quick', send: async (_run, signal) => void (seen = signal) }
    await tellOthers(verifiedUpgrade, [quick], 60_000, stop.signal)
    stop.abort()
    expect(seen?.aborted).toBe(false)
    expect(infos).toEqual(['Events: Quick told.'])
  })
})

describe('CDEvents: the spec version and the type of each moment', () => {
  test('v0.5.1; the four service events 0.3.0 and our four endings 0.1.0, in ce-type and in the context', () => {
    expect(CDEVENT_TYPES).toEqual({
      deployed: 'dev.cdevents.service.deployed.0.3.0',
      upgraded: 'dev.cdevents.service.upgraded.0.3.0',
      published: 'dev.cdevents.service.published.0.3.0',
      rolledback: 'dev.cdevents.service.rolledback.0.3.0',
      refused: 'dev.cdeventsx.brcloud-release.refused.0.1.0',
      unconfirmed: 'dev.cdeventsx.brcloud-release.unconfirmed.0.1.0',
      cancelled: 'dev.cdeventsx.brcloud-release.cancelled.0.1.0',
      failed: 'dev.cdeventsx.brcloud-release.failed.0.1.0'
    })
    const { headers, body } = cdevent(verifiedUpgrade, { kind: 'refused', at: 0, evidence: 'e' }, 0)
    expect(body.context).toMatchObject({ specversion: '0.5.1', type: 'dev.cdeventsx.brcloud-release.refused.0.1.0' })
    expect(headers['ce-type']).toBe('dev.cdeventsx.brcloud-release.refused.0.1.0')
  })
})

describe('CDEvents when the run lacks a field', () => {
  const bare: ObservedRun = {
    ...rolledBack,
    runKey: 'run 7',
    runUrl: undefined,
    environment: undefined,
    previousDistributionId: undefined,
    consoleUrl: undefined,
    distribution: { id: undefined, name: undefined, md5: undefined, sha256: undefined }
  }
  const content = (run: ObservedRun, kind: 'rolledback' | 'upgraded' = 'upgraded') => {
    const body = cdevent(run, { kind, at: 0, evidence: 'e' }, 0).body as { subject: { id: string; content: Record<string, unknown> } }
    return { subjectId: body.subject.id, ...body.subject.content } as Record<string, unknown>
  }

  test("no run URL: the source is the run's key under /brcloud-deploy/runs/, a UUID of it when it holds what a URI must encode", () => {
    const source = (run: ObservedRun) => {
      const { headers, body } = cdevent(run, { kind: 'failed', at: 0, evidence: 'e' }, 0)
      expect(headers['ce-source']).toBe((body.context as { source: string }).source)
      return headers['ce-source']
    }
    expect(source({ ...bare, runKey: '4242-1' })).toBe('/brcloud-deploy/runs/4242-1')
    expect(source({ ...bare, runKey: 'a-Z_0.9~' })).toBe('/brcloud-deploy/runs/a-Z_0.9~')
    expect(source(bare)).toBe(`/brcloud-deploy/runs/${uuidOf('run/run 7')}`)
    expect(source({ ...bare, runKey: '' })).toBe(`/brcloud-deploy/runs/${uuidOf('run/')}`)
  })

  test('no environment: an empty id; no console: the API as its source; no distribution known: "unknown"', () => {
    expect(content(bare)).toEqual({ subjectId: `${bare.stack}/`, environment: { id: '', source: bare.apiUrl }, artifactId: 'pkg:generic/unknown' })
    expect(content(bare, 'rolledback').artifactId).toBe('pkg:generic/unknown')
    const consoleOnly = { ...bare, consoleUrl: 'https://console.example', apiUrl: '' }
    expect(content(consoleOnly).environment).toEqual({ id: '', source: 'https://console.example' })
  })

  test("events differ by their release attempt's chain (the run, its start, the stack, the environment), moment and kind", () => {
    const id = (run: ObservedRun, index = 0, kind: 'upgraded' | 'published' = 'upgraded') =>
      cdevent(run, { kind, at: 0, evidence: 'e' }, index).headers['ce-id']
    expect(id({ ...bare, chainId: 'a' })).not.toBe(id({ ...bare, chainId: 'b' }))
    expect(id(bare, 1)).not.toBe(id(bare))
    expect(id(bare, 0, 'published')).not.toBe(id(bare))
    expect(id({ ...bare, environment: 'other', runKey: 'other' })).toBe(id(bare))
  })

  test('a receiver that echoes the token: scrubbed, even when the run never registered it', async () => {
    receiver.reply = { status: 401, body: 'bad token tok-unregistered-77' }
    const error = await cdeventsSink({ url: `${receiver.base}/ce`, token: 'tok-unregistered-77' })
      .send(verifiedUpgrade, new AbortController().signal)
      .then(
        () => undefined,
        (e: unknown) => e as Error
      )
    expect(error?.message).toBe('CDEvents answered 401: bad token ***')
    expect(receiver.got[0]?.headers.authorization).toBe('Bearer tok-unregistered-77')
  })
})
