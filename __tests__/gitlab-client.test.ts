// GitLab's adapter for the code-host port (src/gitlab/client.ts) against a small scripted GitLab on 127.0.0.1, over
// real HTTP: what each call sends (method, the encoded project in the path, PRIVATE-TOKEN, the query, the JSON body),
// what the records say, how the pages and their bounds are followed, and how each failure is named.
import { jest } from '@jest/globals'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { createServer as createNetServer, type Socket } from 'node:net'
import type { RunContext } from '../src/port.js'
import { CodeHostCallFailed, MAX_LISTED_COMMITS } from '../src/code-host/port.js'
import { GitLabApi, gitlabApiUrl, isGitLabProject, type GitLabTarget } from '../src/gitlab/client.js'
import { gitlabWebUrl } from '../src/gitlab/address.js'

interface Call {
  readonly method: string
  /** The path under /api/v4 as sent (still encoded). */
  readonly path: string
  readonly query: URLSearchParams
  readonly headers: IncomingHttpHeaders
  readonly json: unknown
}
interface Reply {
  readonly status?: number
  readonly headers?: Record<string, string>
  /** JSON, or raw text when `raw` is given. */
  readonly body?: unknown
  readonly raw?: string
  /** Never answer. */
  readonly hang?: boolean
}
type Script = Reply | ((call: Call) => Reply)

const calls: Call[] = []
const routes = new Map<string, Script[]>()
const arrivals: Array<() => void> = []
const held: Array<() => void> = []

/** Scripts the answers to `method path`: each call takes the next one, the last one repeats. */
function on(method: string, path: string, ...replies: Script[]): void {
  routes.set(`${method} ${path}`, replies)
}

const server: Server = createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => {
    const url = new URL(req.url ?? '/', 'http://x')
    const raw = Buffer.concat(chunks).toString('utf8')
    const call: Call = {
      method: req.method ?? '',
      path: (req.url ?? '').split('?')[0]?.replace(/^\/api\/v4/, '') ?? '',
      query: url.searchParams,
      headers: req.headers,
      json: raw === '' ? undefined : (JSON.parse(raw) as unknown)
    }
    calls.push(call)
    arrivals.splice(0).forEach((arrived) => arrived())
    const scripts = routes.get(`${call.method} ${call.path}`)
    const script = scripts === undefined ? { status: 404, body: { message: '404 Not Found' } } : scripts.length > 1 ? scripts.shift() : scripts[0]
    const reply = typeof script === 'function' ? script(call) : (script ?? {})
    if (reply.hang) {
      held.push(() => res.destroy())
      return
    }
    const text = reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body))
    res.writeHead(reply.status ?? 200, { 'content-type': reply.raw === undefined ? 'application/json' : 'text/plain', ...reply.headers })
    res.end(text)
  })
})
await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
const web = `http://127.0.0.1:${(server.address() as { port: number }).port}`
const api = `${web}/api/v4`

afterAll(async () => {
  held.splice(0).forEach((end) => end())
  server.closeAllConnections()
  await new Promise<void>((done) => server.close(() => done()))
})
beforeEach(() => {
  calls.length = 0
  routes.clear()
})
afterEach(() => {
  jest.restoreAllMocks()
  held.splice(0).forEach((end) => end())
})

const TOKEN = 'glpat-scripted-token'
const PROJECT = 'acme/web/site'
const P = '/projects/acme%2Fweb%2Fsite'
const A = 'a'.repeat(40)
const B = 'b'.repeat(40)
const M = 'e'.repeat(40)
const RUN: RunContext = {
  sha: 'c'.repeat(40),
  noCommit: '',
  ref: 'refs/heads/main',
  repository: '',
  serverUrl: 'https://github.example',
  runUrl: 'https://gitlab.example/acme/web/site/-/jobs/7',
  workspace: '.',
  runId: '1',
  runAttempt: '1',
  actor: undefined
}

const open = (over: Partial<GitLabTarget> = {}, signal?: AbortSignal, run: RunContext = RUN): GitLabApi =>
  GitLabApi.open({ token: TOKEN, project: PROJECT, apiUrl: api, ...over }, signal, run)

async function failure(call: Promise<unknown>): Promise<CodeHostCallFailed> {
  try {
    await call
  } catch (error) {
    if (error instanceof CodeHostCallFailed) return error
    throw error
  }
  throw new Error('it did not fail')
}

/** A Link header naming page `page` of the same listing as next. */
function nextLink(call: Call, page: number, origin = web): Record<string, string> {
  const query = new URLSearchParams(call.query)
  query.set('page', String(page))
  return { link: `<${origin}/api/v4${call.path}?${query}>; rel="next", <${origin}/api/v4${call.path}?page=1>; rel="first"` }
}

const pageOf = (call: Call): number => Number(call.query.get('page') ?? '1')
const commit = (id: string, message: string, author = 'Ada'): Record<string, unknown> => ({
  id,
  title: message.split('\n')[0],
  message,
  author_name: author
})
/** Forty hex digits made of `n`. */
const sha = (n: number): string => n.toString(16).padStart(40, '0')
/** No waits between attempts: the retry's jitter is random() times the backoff. */
const noWaits = (): void => void jest.spyOn(Math, 'random').mockReturnValue(0)

describe('the door and the run it belongs to', () => {
  test("the project, its addresses, the run's page, commit and ref; no call is made to open it", () => {
    const gitlab = open()
    expect(calls).toHaveLength(0)
    expect([gitlab.host, gitlab.deploymentNoun, gitlab.keepsPayload]).toEqual(['GitLab', 'GitLab deployment', false])
    expect([gitlab.project, gitlab.repoName, gitlab.apiUrl]).toEqual([PROJECT, 'site', api])
    expect(gitlab.repoUrl).toBe(`${web}/acme/web/site`)
    expect(gitlab.commitUrl(A)).toBe(`${web}/acme/web/site/-/commit/${A}`)
    expect([gitlab.runUrl, gitlab.sha, gitlab.ref]).toEqual([RUN.runUrl, RUN.sha, RUN.ref])
    const closing = gitlab.closing(5_000)
    expect([closing.project, closing.repoUrl, closing.runUrl, closing.sha, closing.ref, closing.apiUrl]).toEqual([
      PROJECT,
      gitlab.repoUrl,
      RUN.runUrl,
      RUN.sha,
      RUN.ref,
      api
    ])
  })

  test('a project known by its id: no name, its address by id, the id encoded in paths', async () => {
    const gitlab = open({ project: '4242' })
    expect([gitlab.repoName, gitlab.repoUrl]).toEqual(['', `${web}/projects/4242`])
    on('GET', '/projects/4242/repository/tags', { body: [] })
    await gitlab.listTags()
    expect(calls.map((c) => c.path)).toEqual(['/projects/4242/repository/tags'])
  })

  test('gitlabApiUrl: the v4 API from an instance address or from the API, refusals saying what is wrong', () => {
    expect(gitlabApiUrl('https://gitlab.example.com')).toBe('https://gitlab.example.com/api/v4')
    expect(gitlabApiUrl(' https://gitlab.example.com/ ')).toBe('https://gitlab.example.com/api/v4')
    expect(gitlabApiUrl('https://gitlab.example.com/api/v4')).toBe('https://gitlab.example.com/api/v4')
    expect(gitlabApiUrl('https://gitlab.example.com/api/v4/')).toBe('https://gitlab.example.com/api/v4')
    expect(gitlabApiUrl('http://example.com:8080/gitlab')).toBe('http://example.com:8080/gitlab/api/v4')
    expect(() => gitlabApiUrl('ftp://gitlab.example.com')).toThrow(/is a ftp: address: give the instance's http\(s\) address/)
    expect(() => gitlabApiUrl('gitlab.example.com')).toThrow(/'gitlab.example.com' is not a URL: give the instance's address with its scheme/)
    expect(() => gitlabApiUrl('https://gitlab.example.com/api/v3')).toThrow(/names an API other than v4: .*https:\/\/gitlab.example.com\/api\/v4/)
    expect(() => gitlabApiUrl('https://gitlab.example.com/?x=1')).toThrow(/carries a query or a fragment/)
    const withPassword = (): string => gitlabApiUrl('https://me:hunter2@gitlab.example.com')
    expect(withPassword).toThrow(/carries a user name or password/)
    expect(withPassword).not.toThrow(/hunter2/)
    // A user name alone, or a password alone, is refused too, with the example of an address to give.
    expect(() => gitlabApiUrl('https://me@gitlab.example.com')).toThrow(
      'The GitLab address carries a user name or password: give it without them (https://gitlab.example.com); the token is given apart'
    )
    expect(() => gitlabApiUrl('https://:hunter2@gitlab.example.com')).toThrow(/carries a user name or password/)
    // The API's own address ends at v4; another version, or none, is refused with the v4 address under its root.
    for (const other of ['https://g.example/api', 'https://g.example/api/v10', 'https://g.example/root/api/v3/'])
      expect(() => gitlabApiUrl(other)).toThrow(/names an API other than v4/)
    expect(() => gitlabApiUrl('https://g.example/root/api/v3')).toThrow("give the instance's address, or https://g.example/root/api/v4")
    expect(gitlabApiUrl('https://g.example/apis')).toBe('https://g.example/apis/api/v4')
    expect(gitlabWebUrl('https://g.example/root/api/v4')).toBe('https://g.example/root')
    expect(gitlabWebUrl('https://g.example/root/api/v4/')).toBe('https://g.example/root')
    expect(gitlabWebUrl('https://g.example/api/v4x')).toBe('https://g.example/api/v4x')
  })

  test('isGitLabProject: a numeric id, or a path of two segments or more of the characters GitLab allows', () => {
    for (const good of ['42', '1007', 'acme/site', 'acme/web/site', 'a/b', 'my_group/my.project-2', '_x/.y_', 'g/abcd', 'g/a-', 'g/my.github', 'g/site.atomic'])
      expect([good, isGitLabProject(good)]).toEqual([good, true])
    for (const bad of [
      '',
      '0',
      '042',
      'site',
      'acme/',
      '/site',
      'acme//site',
      'acme/-site',
      'acme/site.',
      'acme/site.git',
      'acme/si te',
      'acme/sité',
      '-1',
      '12a',
      'a12',
      'g/$',
      'g/a$b',
      'g/.',
      'g/site.atom',
      'g/Site.GIT'
    ]) {
      expect([bad, isGitLabProject(bad)]).toEqual([bad, false])
    }
  })
})

describe('deployments', () => {
  const created = (id: number, status = 'running'): Reply => ({ status: 201, body: { id, sha: A, status, environment: { id: 9, name: 'production' } } })

  test('createDeployment posts the commit, the run branch, the token and JSON; the state it already has is not set again', async () => {
    on('POST', `${P}/deployments`, created(41))
    const gitlab = open()
    expect(await gitlab.createDeployment(A, 'production', 'Deploy d1', { distributionId: 'd1' })).toBe(41)
    expect(calls).toHaveLength(1)
    const [post] = calls
    expect(post?.headers['private-token']).toBe(TOKEN)
    expect(post?.headers['content-type']).toBe('application/json')
    expect(post?.json).toEqual({ environment: 'production', sha: A, ref: 'main', tag: false, status: 'running' })
    // GitLab refuses a move to the status a deployment has: it was created running.
    await gitlab.setDeploymentState(41, { state: 'in_progress', description: 'Deploying' })
    expect(calls).toHaveLength(1)
  })

  test("the run's tag, a bare ref as it is, else the project's default branch (read once)", async () => {
    on('POST', `${P}/deployments`, created(1))
    await open({}, undefined, { ...RUN, ref: 'refs/tags/v1.2' }).createDeployment(A, 'staging', 'd', {})
    expect(calls.at(-1)?.json).toMatchObject({ ref: 'v1.2', tag: true })
    await open({}, undefined, { ...RUN, ref: 'release' }).createDeployment(A, 'staging', 'd', {})
    expect(calls.at(-1)?.json).toMatchObject({ ref: 'release', tag: false })
    calls.length = 0
    on('GET', P, { body: { id: 7, default_branch: 'trunk' } })
    const outsideCi = open({}, undefined, { ...RUN, ref: '' })
    await outsideCi.createDeployment(A, 'staging', 'd', {})
    await outsideCi.createDeployment(A, 'staging', 'd', {})
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET ' + P, `POST ${P}/deployments`, `POST ${P}/deployments`])
    expect(calls.at(-1)?.json).toMatchObject({ ref: 'trunk', tag: false })
  })

  test('a ref that is not a full commit id is resolved to its commit first', async () => {
    on('GET', `${P}/repository/commits/feature%2Fx`, { body: { id: B } })
    on('POST', `${P}/deployments`, created(3))
    await open().createDeployment('feature/x', 'staging', 'd', {})
    expect(calls.map((c) => c.path)).toEqual([`${P}/repository/commits/feature%2Fx`, `${P}/deployments`])
    expect(calls.at(-1)?.json).toMatchObject({ sha: B })
  })

  test('an answer without a deployment id is a failure, named', async () => {
    on('POST', `${P}/deployments`, { status: 201, body: { sha: A } })
    const error = await failure(open().createDeployment(A, 'staging', 'd', {}))
    expect([error.message, error.failure, error.host]).toEqual(['Creating a GitLab deployment: the answer carries no deployment id', 'failed', 'GitLab'])
  })

  test("success sets the status, then the environment's address; a refusal of the address is no failure", async () => {
    on('POST', `${P}/deployments`, created(41))
    on('PUT', `${P}/deployments/41`, { body: { id: 41, sha: A, status: 'success', environment: { id: 9, name: 'production' } } })
    on('PUT', `${P}/environments/9`, { status: 403, body: { message: '403 Forbidden' } })
    const gitlab = open()
    await gitlab.createDeployment(A, 'production', 'd', {})
    await gitlab.setDeploymentState(41, { state: 'success', description: 'Deployed', environmentUrl: 'https://site.example' })
    expect(calls.slice(1).map((c) => [c.method, c.path, c.json])).toEqual([
      ['PUT', `${P}/deployments/41`, { status: 'success' }],
      ['PUT', `${P}/environments/9`, { external_url: 'https://site.example' }]
    ])
  })

  test("a door that did not create it (the post step's): the status set, then the address of the environment the answer names", async () => {
    on('PUT', `${P}/deployments/41`, { body: { id: 41, sha: A, status: 'success', environment: { id: 9, name: 'production' } } })
    on('PUT', `${P}/environments/9`, { body: { id: 9 } })
    await open().setDeploymentState(41, { state: 'success', description: 'Deployed', environmentUrl: 'https://site.example' })
    expect(calls.map((c) => [c.method, c.path])).toEqual([
      ['PUT', `${P}/deployments/41`],
      ['PUT', `${P}/environments/9`]
    ])
  })

  test("the run's stop while the address is set is the stop, not a refusal swallowed", async () => {
    const stop = new AbortController()
    on('PUT', `${P}/deployments/41`, { body: { id: 41, sha: A, status: 'success', environment: { id: 9, name: 'production' } } })
    on('PUT', `${P}/environments/9`, () => {
      stop.abort(new Error('cancelled by the run'))
      return { hang: true }
    })
    await expect(open({}, stop.signal).setDeploymentState(41, { state: 'success', description: 'd', environmentUrl: 'https://site.example' })).rejects.toThrow(
      'cancelled by the run'
    )
  })

  test('each state in GitLab words: failure and error are failed, canceled is canceled; a refusal is named', async () => {
    on('PUT', `${P}/deployments/5`, (call) => ({ body: { id: 5, sha: A, status: (call.json as { status: string }).status } }))
    for (const [state, status] of [
      ['failure', 'failed'],
      ['canceled', 'canceled'],
      ['in_progress', 'running'],
      ['success', 'success']
    ] as const) {
      await open().setDeploymentState(5, { state, description: 'x' })
      expect(calls.at(-1)?.json).toEqual({ status })
    }
    await open().setDeploymentState(5, { state: 'error', description: 'x' })
    expect(calls.at(-1)?.json).toEqual({ status: 'failed' })
    on('PUT', `${P}/deployments/6`, { status: 400, body: { message: { status: ['cannot transition via "run"'] } } })
    const error = await failure(open().setDeploymentState(6, { state: 'in_progress', description: 'x' }))
    expect([error.message, error.failure, error.status]).toEqual([
      'Setting the status of GitLab deployment 6: HTTP 400 (status cannot transition via "run")',
      'failed',
      400
    ])
  })

  const deployment = (id: number, status: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    id,
    iid: id,
    sha: sha(id),
    ref: 'main',
    status,
    created_at: `2026-01-0${id % 9}T10:00:00Z`,
    updated_at: `2026-01-0${id % 9}T10:05:00Z`,
    finished_at: null,
    user: { username: `dev${id}` },
    environment: { id: 9, name: 'production' },
    deployable: null,
    ...extra
  })

  test('listDeploymentPages: newest first by id, one environment, every page once by its Link, read into records', async () => {
    on('GET', `${P}/deployments`, (call) =>
      pageOf(call) === 1
        ? { body: [deployment(3, 'running'), { id: 'x' }, deployment(2, 'success')], headers: nextLink(call, 2) }
        : { body: [deployment(1, 'failed')] }
    )
    const listing = await open().listDeploymentPages('production')
    expect(calls.map((c) => Object.fromEntries(c.query))).toEqual([
      { environment: 'production', order_by: 'id', sort: 'desc', per_page: '100' },
      { environment: 'production', order_by: 'id', sort: 'desc', per_page: '100', page: '2' }
    ])
    expect(listing.complete).toBe(true)
    expect(listing.deployments).toEqual([
      { id: 3, sha: sha(3), environment: 'production', payload: {}, creator: 'dev3', createdAt: '2026-01-03T10:00:00Z' },
      { id: 2, sha: sha(2), environment: 'production', payload: {}, creator: 'dev2', createdAt: '2026-01-02T10:00:00Z' },
      { id: 1, sha: sha(1), environment: 'production', payload: {}, creator: 'dev1', createdAt: '2026-01-01T10:00:00Z' }
    ])
    calls.length = 0
    await open().listDeploymentPages()
    expect(calls[0]?.query.has('environment')).toBe(false)
  })

  test('at most 3 pages: complete false, the fourth not read', async () => {
    on('GET', `${P}/deployments`, (call) => ({ body: [deployment(pageOf(call), 'success')], headers: nextLink(call, pageOf(call) + 1) }))
    const listing = await open().listDeploymentPages('production')
    expect([listing.complete, listing.deployments.length, calls.length]).toEqual([false, 3, 3])
  })

  test('a next page on another address is asked of this one: the token goes nowhere else', async () => {
    on('GET', `${P}/deployments`, (call) =>
      pageOf(call) === 1
        ? { body: [deployment(2, 'success')], headers: nextLink(call, 2, 'https://gitlab.elsewhere.invalid') }
        : { body: [deployment(1, 'success')] }
    )
    const listing = await open().listDeploymentPages('production')
    expect([listing.deployments.length, calls.map((c) => c.query.get('page'))]).toEqual([2, [null, '2']])
  })

  test("a listed deployment's status needs no call: GitLab's states in the port's words, the job's page, the time it got it", async () => {
    const states = ['created', 'running', 'success', 'failed', 'canceled', 'blocked', 'skipped', 'canceling']
    on('GET', `${P}/deployments`, {
      body: states.map((s, i) =>
        deployment(i + 1, s, {
          finished_at: s === 'success' ? '2026-02-01T12:00:00Z' : null,
          deployable: s === 'running' ? { id: 77, web_url: 'https://gitlab.example/acme/web/site/-/jobs/77' } : null
        })
      )
    })
    const gitlab = open()
    await gitlab.listDeploymentPages()
    calls.length = 0
    const read = await Promise.all(states.map((_, i) => gitlab.latestStatus(i + 1)))
    expect(calls).toHaveLength(0)
    expect(read.map((s) => s?.state)).toEqual(['queued', 'in_progress', 'success', 'failure', 'canceled', 'pending', 'canceled', 'canceling'])
    expect(read[1]).toEqual({ state: 'in_progress', logUrl: 'https://gitlab.example/acme/web/site/-/jobs/77', createdAt: '2026-01-02T10:05:00Z' })
    expect(read[2]).toEqual({ state: 'success', logUrl: undefined, createdAt: '2026-02-01T12:00:00Z' })
    expect(await gitlab.closing(5_000).listStatuses(3)).toEqual([read[2]])
    expect(calls).toHaveLength(0)
  })

  test('a deployment not listed is read; its statuses are its one status', async () => {
    on('GET', `${P}/deployments/8`, { body: deployment(8, 'success', { finished_at: '2026-02-02T00:00:00Z' }) })
    const gitlab = open()
    expect(await gitlab.listStatuses(8)).toEqual([{ state: 'success', logUrl: undefined, createdAt: '2026-02-02T00:00:00Z' }])
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([`GET ${P}/deployments/8`])
    const unknown = await failure(gitlab.latestStatus(99))
    expect([unknown.failure, unknown.status, unknown.message]).toEqual(['not-found', 404, 'Reading GitLab deployment 99: HTTP 404 (404 Not Found)'])
  })
})

describe('tags', () => {
  test('every page read, the commit of each; at most 20 pages, complete false', async () => {
    on('GET', `${P}/repository/tags`, (call) =>
      pageOf(call) === 1
        ? { body: [{ name: 'v2', commit: { id: B } }, { name: 'broken' }], headers: nextLink(call, 2) }
        : { body: [{ name: 'v1', commit: { id: A } }] }
    )
    expect(await open().listTags()).toEqual({
      tags: [
        { name: 'v2', sha: B },
        { name: 'v1', sha: A }
      ],
      complete: true
    })
    expect(calls.map((c) => c.query.get('per_page'))).toEqual(['100', '100'])
    calls.length = 0
    on('GET', `${P}/repository/tags`, (call) => ({ body: [{ name: `v${pageOf(call)}`, commit: { id: A } }], headers: nextLink(call, pageOf(call) + 1) }))
    const bounded = await open().listTags()
    expect([bounded.complete, bounded.tags.length, calls.length]).toEqual([false, 20, 20])
  })
})

describe('compare', () => {
  const mergeBase = (id: string): Reply => ({ body: { id, title: 'base' } })
  const compared = (n: number, same = false): Reply => ({
    body: { commits: Array.from({ length: n }, (_, i) => commit(sha(i + 1), `c${i}`)), compare_same_ref: same }
  })
  const asked = (): string[] =>
    calls.map((c) =>
      c.path.endsWith('merge_base') ? `merge_base ${c.query.getAll('refs[]').join(' ')}` : `compare ${c.query.get('from')}..${c.query.get('to')}`
    )

  test('ahead: base is the merge base, so only the commits head brings are counted (two calls)', async () => {
    on('GET', `${P}/repository/merge_base`, mergeBase(A))
    on('GET', `${P}/repository/compare`, compared(2))
    expect(await open().compare(A, B)).toEqual({ status: 'ahead', aheadBy: 2, behindBy: 0 })
    expect(asked()).toEqual([`merge_base ${A} ${B}`, `compare ${A}..${B}`])
  })

  test('behind: head is the merge base, so only the commits head lacks are counted (two calls)', async () => {
    on('GET', `${P}/repository/merge_base`, mergeBase(B))
    on('GET', `${P}/repository/compare`, compared(3))
    expect(await open().compare(A, B)).toEqual({ status: 'behind', aheadBy: 0, behindBy: 3 })
    expect(asked()).toEqual([`merge_base ${A} ${B}`, `compare ${B}..${A}`])
  })

  test('diverged: both sides have commits the other lacks (three calls)', async () => {
    on('GET', `${P}/repository/merge_base`, mergeBase(M))
    on('GET', `${P}/repository/compare`, (call) => (call.query.get('from') === A ? compared(2) : compared(1)))
    expect(await open().compare(A, B)).toEqual({ status: 'diverged', aheadBy: 2, behindBy: 1 })
    expect(asked()).toEqual([`merge_base ${A} ${B}`, `compare ${A}..${B}`, `compare ${B}..${A}`])
  })

  test('identical: one ref with itself is one call; two names of one commit stop at the compare that says so', async () => {
    on('GET', `${P}/repository/merge_base`, mergeBase(A))
    expect(await open().compare(A, A.toUpperCase())).toEqual({ status: 'identical', aheadBy: 0, behindBy: 0 })
    expect(asked()).toEqual([`merge_base ${A} ${A.toUpperCase()}`])
    calls.length = 0
    on('GET', `${P}/repository/merge_base`, mergeBase(B))
    on('GET', `${P}/repository/compare`, compared(0, true))
    expect(await open().compare('main', B)).toEqual({ status: 'identical', aheadBy: 0, behindBy: 0 })
    expect(asked()).toEqual([`merge_base main ${B}`, `compare ${B}..main`])
    calls.length = 0
    on('GET', `${P}/repository/compare`, compared(0, true))
    expect(await open().compare('main', 'release')).toEqual({ status: 'identical', aheadBy: 0, behindBy: 0 })
    expect(asked()).toEqual(['merge_base main release', 'compare main..release'])
  })

  test("a ref GitLab does not know: not-found on a call named 'Comparing …', asked once", async () => {
    on('GET', `${P}/repository/merge_base`, { status: 400, body: { message: `Could not find ref: ${A}` } })
    const unknown = await failure(open().compare(A, 'main'))
    expect([unknown.failure, unknown.status, unknown.call, unknown.host]).toEqual(['not-found', 400, 'Comparing aaaaaaa with main', 'GitLab'])
    expect(unknown.message).toBe(`Comparing aaaaaaa with main: HTTP 400 (Could not find ref: ${A})`)
    expect(calls).toHaveLength(1)
    on('GET', `${P}/repository/merge_base`, { status: 404, body: { message: '404 Merge Base Not Found' } })
    expect((await failure(open().compare(A, B))).failure).toBe('not-found')
    on('GET', `${P}/repository/merge_base`, { status: 400, body: { message: 'Provide at least 2 refs' } })
    expect((await failure(open().compare(A, B))).failure).toBe('failed')
  })
})

describe('commitsBetween', () => {
  const commits = [
    commit(sha(1), 'Add search (!12)', 'Ada'),
    commit(sha(2), "Merge branch 'x' into 'main'\n\nFix login\n\nSee merge request acme/web/site!34", 'Bo'),
    commit(sha(3), 'Port the page\n\nSee merge request other/fork!5', 'Cy'),
    commit(sha(4), 'Tidy'),
    commit(sha(5), 'More')
  ]

  test('oldest first: the merge requests each message names, else GitLab’s for at most `pullLookups` commits', async () => {
    on('GET', `${P}/repository/merge_base`, { body: { id: A } })
    on('GET', `${P}/repository/compare`, { body: { commits } })
    on('GET', `${P}/repository/commits/${sha(3)}/merge_requests`, { body: [{ iid: 7 }, { iid: 7 }, { id: 1 }] })
    on('GET', `${P}/repository/commits/${sha(4)}/merge_requests`, { body: [] })
    const listing = await open().commitsBetween(A, B, 2)
    expect(listing).toEqual({
      status: 'ahead',
      aheadBy: 5,
      behindBy: 0,
      total: 5,
      commits: [
        { sha: sha(1), title: 'Add search (!12)', author: 'Ada', pullRequests: [12] },
        { sha: sha(2), title: "Merge branch 'x' into 'main'", author: 'Bo', pullRequests: [34] },
        { sha: sha(3), title: 'Port the page', author: 'Cy', pullRequests: [7] },
        { sha: sha(4), title: 'Tidy', author: 'Ada', pullRequests: [] },
        { sha: sha(5), title: 'More', author: 'Ada', pullRequests: [] }
      ],
      pullLookups: 'only 2 commits were asked for their merge requests'
    })
    expect(calls.filter((c) => c.path.endsWith('/merge_requests')).map((c) => c.path)).toEqual([
      `${P}/repository/commits/${sha(3)}/merge_requests`,
      `${P}/repository/commits/${sha(4)}/merge_requests`
    ])
  })

  test('the first refusal ends the lookups and says why; all asked: no why', async () => {
    on('GET', `${P}/repository/merge_base`, { body: { id: A } })
    on('GET', `${P}/repository/compare`, { body: { commits } })
    on('GET', `${P}/repository/commits/${sha(3)}/merge_requests`, { status: 403, body: { message: '403 Forbidden' } })
    const refused = await open().commitsBetween(A, B)
    expect(refused.pullLookups).toBe(`Listing the merge requests of commit 0000000: HTTP 403 (403 Forbidden)`)
    expect(calls.filter((c) => c.path.endsWith('/merge_requests'))).toHaveLength(1)
    calls.length = 0
    on('GET', `${P}/repository/commits/${sha(3)}/merge_requests`, { body: [] })
    on('GET', `${P}/repository/commits/${sha(4)}/merge_requests`, { body: [] })
    on('GET', `${P}/repository/commits/${sha(5)}/merge_requests`, { body: [{ iid: 9 }] })
    const all = await open().commitsBetween(A, B)
    expect(all.pullLookups).toBeUndefined()
    expect(all.commits.at(-1)?.pullRequests).toEqual([9])
  })

  test('at most MAX_LISTED_COMMITS listed, the total beside; a diverged pair counts what head lacks', async () => {
    const many = Array.from({ length: MAX_LISTED_COMMITS + 10 }, (_, i) => commit(sha(i + 1), `Change ${i} (!${i + 1})`))
    on('GET', `${P}/repository/merge_base`, { body: { id: M } })
    on('GET', `${P}/repository/compare`, (call) => ({ body: { commits: call.query.get('from') === A ? many : many.slice(0, 4) } }))
    const listing = await open().commitsBetween(A, B, 0)
    expect([listing.status, listing.commits.length, listing.total, listing.aheadBy, listing.behindBy]).toEqual(['diverged', MAX_LISTED_COMMITS, 260, 260, 4])
    expect(listing.pullLookups).toBeUndefined()
  })
})

describe('drift issues and their label', () => {
  const issue = (iid: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    id: 1000 + iid,
    iid,
    title: `Drift ${iid}`,
    description: `body ${iid}`,
    labels: ['brcloud-drift'],
    web_url: `https://gitlab.example/acme/web/site/-/issues/${iid}`,
    ...extra
  })

  test("listOpenIssues: the label's open issues, oldest first, every page; a missing description is ''", async () => {
    on('GET', `${P}/issues`, (call) =>
      pageOf(call) === 1 ? { body: [issue(1), { id: 5 }], headers: nextLink(call, 2) } : { body: [issue(2, { description: null })] }
    )
    const issues = await open().listOpenIssues('brcloud-drift')
    expect(Object.fromEntries(calls[0]?.query ?? [])).toEqual({
      labels: 'brcloud-drift',
      state: 'opened',
      order_by: 'created_at',
      sort: 'asc',
      per_page: '100'
    })
    expect(issues).toEqual([
      { number: 1, title: 'Drift 1', body: 'body 1', labels: ['brcloud-drift'], htmlUrl: 'https://gitlab.example/acme/web/site/-/issues/1' },
      { number: 2, title: 'Drift 2', body: '', labels: ['brcloud-drift'], htmlUrl: 'https://gitlab.example/acme/web/site/-/issues/2' }
    ])
  })

  test('more than 10 pages is a failure: an issue not seen could be opened twice', async () => {
    on('GET', `${P}/issues`, (call) => ({ body: [issue(pageOf(call))], headers: nextLink(call, pageOf(call) + 1) }))
    const error = await failure(open().listOpenIssues('brcloud-drift'))
    expect([error.message, error.failure, calls.length]).toEqual(['Listing the open issues labelled brcloud-drift: more than 1000 are open', 'failed', 10])
  })

  test('createIssue, editIssue and commentOnIssue send what GitLab takes; an empty edit sends nothing', async () => {
    on('POST', `${P}/issues`, { status: 201, body: issue(3) })
    on('PUT', `${P}/issues/3`, { body: issue(3) })
    on('POST', `${P}/issues/3/notes`, { status: 201, body: { id: 1 } })
    const gitlab = open()
    expect((await gitlab.createIssue('Drift 3', 'body 3', ['brcloud-drift', 'stack:acme'])).number).toBe(3)
    await gitlab.editIssue(3, { title: 'T', body: 'B', state: 'closed', stateReason: 'completed' })
    await gitlab.editIssue(3, { state: 'open', stateReason: 'reopened' })
    await gitlab.editIssue(3, { stateReason: 'not_planned' })
    await gitlab.commentOnIssue(3, 'Still drifting')
    expect(calls.map((c) => [c.method, c.path, c.json])).toEqual([
      ['POST', `${P}/issues`, { title: 'Drift 3', description: 'body 3', labels: 'brcloud-drift,stack:acme' }],
      ['PUT', `${P}/issues/3`, { title: 'T', description: 'B', state_event: 'close' }],
      ['PUT', `${P}/issues/3`, { state_event: 'reopen' }],
      ['POST', `${P}/issues/3/notes`, { body: 'Still drifting' }]
    ])
  })

  test('ensureLabel: read by its encoded name; created with a # colour when missing; one created meanwhile (409) is as good', async () => {
    const path = `${P}/labels/brcloud%20drift`
    on('GET', path, { body: { id: 1, name: 'brcloud drift' } })
    await open().ensureLabel('brcloud drift', 'd73a4a', 'Drift')
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([`GET ${path}`])
    calls.length = 0
    on('GET', path, { status: 404, body: { message: '404 Label Not Found' } })
    on('POST', `${P}/labels`, { status: 409, body: { message: 'Label already exists' } })
    await open().ensureLabel('brcloud drift', 'd73a4a', 'Drift')
    expect(calls.map((c) => [c.method, c.path, c.json])).toEqual([
      ['GET', path, undefined],
      ['POST', `${P}/labels`, { name: 'brcloud drift', color: '#d73a4a', description: 'Drift' }]
    ])
    on('POST', `${P}/labels`, { status: 403, body: { message: '403 Forbidden' } })
    expect((await failure(open().ensureLabel('brcloud drift', '#d73a4a', 'Drift'))).failure).toBe('forbidden')
    expect(calls.at(-1)?.json).toMatchObject({ color: '#d73a4a' })
  })
})

describe('failures, named for the fix they need', () => {
  test('401: GitLab refused the token, in its own words too; not tried again', async () => {
    on('GET', `${P}/deployments`, { status: 401, body: { message: '401 Unauthorized' } })
    const error = await failure(open({ token: 'glpat-wrong' }).listDeploymentPages('x'))
    expect([error.failure, error.status, error.host]).toEqual(['bad-token', 401, 'GitLab'])
    expect(error.message).toBe('Listing GitLab deployments: HTTP 401 (401 Unauthorized; GitLab refused the token: it is wrong, expired or revoked)')
    expect(calls).toHaveLength(1)
    expect(calls[0]?.headers['private-token']).toBe('glpat-wrong')
  })

  test('403 insufficient_scope names the scope: read_api to read, api to write', async () => {
    const scope = {
      status: 403,
      body: { error: 'insufficient_scope', error_description: 'The request requires higher privileges than provided by the access token.', scope: 'api' }
    }
    on('GET', `${P}/repository/tags`, scope)
    on('POST', `${P}/issues/1/notes`, scope)
    const read = await failure(open().listTags())
    expect([read.failure, read.message]).toEqual([
      'forbidden',
      'Listing the tags: HTTP 403 (The request requires higher privileges than provided by the access token; the token needs the scope read_api (or api))'
    ])
    const write = await failure(open().commentOnIssue(1, 'x'))
    expect(write.message).toBe(
      'Commenting on GitLab issue #1: HTTP 403 (The request requires higher privileges than provided by the access token; the token needs the scope api)'
    )
    on('GET', `${P}/repository/tags`, { status: 403, body: { message: '403 Forbidden' } })
    expect((await failure(open().listTags())).message).toBe('Listing the tags: HTTP 403 (403 Forbidden)')
  })

  test('a rate limit (429, or 403 with none remaining) is no missing permission: rate-limited, naming when it lifts, not tried again', async () => {
    const cases = [
      [429, { 'retry-after': '60' }, "GitLab's rate limit for the token was reached: it lifts in 60 s"],
      [429, { 'ratelimit-reset': '1795507200' }, "GitLab's rate limit for the token was reached: it lifts at 2026-11-24T08:00:00Z"],
      [403, { 'ratelimit-remaining': '0', 'ratelimit-reset': '1795507200' }, "GitLab's rate limit for the token was reached: it lifts at 2026-11-24T08:00:00Z"],
      [429, {}, "GitLab's rate limit for the token was reached"]
    ] as const
    for (const [status, headers, words] of cases) {
      calls.length = 0
      // Rack::Attack answers in plain text: never echoed.
      on('GET', `${P}/repository/tags`, { status, headers, raw: 'Retry later\n' })
      const error = await failure(open().listTags())
      expect([error.failure, error.status, error.message]).toEqual(['rate-limited', status, `Listing the tags: HTTP ${status} (${words})`])
      expect(calls).toHaveLength(1)
    }
    on('GET', `${P}/repository/tags`, { status: 403, headers: { 'ratelimit-remaining': '42' }, body: { message: '403 Forbidden' } })
    expect((await failure(open().listTags())).failure).toBe('forbidden')
  })

  test('a read is tried again after a 5xx (three attempts in all); a write, a 4xx, never', async () => {
    noWaits()
    on('GET', `${P}/repository/tags`, { status: 502, raw: '<html>bad gateway</html>' }, { status: 502 }, { body: [] })
    expect(await open().listTags()).toEqual({ tags: [], complete: true })
    expect(calls).toHaveLength(3)
    calls.length = 0
    on('GET', `${P}/repository/tags`, { status: 500, body: { message: '500 Internal Server Error' } })
    const down = await failure(open().listTags())
    expect([down.failure, down.status, down.message, calls.length]).toEqual(['failed', 500, 'Listing the tags: HTTP 500 (500 Internal Server Error)', 3])
    calls.length = 0
    on('POST', `${P}/issues`, { status: 500 }, { status: 201, body: { iid: 1 } })
    expect((await failure(open().createIssue('t', 'b', []))).status).toBe(500)
    expect(calls).toHaveLength(1)
    calls.length = 0
    on('GET', `${P}/repository/tags`, { status: 400, body: { error: 'per_page is invalid' } })
    expect((await failure(open().listTags())).message).toBe('Listing the tags: HTTP 400 (per_page is invalid)')
    expect(calls).toHaveLength(1)
  })

  test("GitLab's field errors are named; a redirect is not followed", async () => {
    on('POST', `${P}/issues`, { status: 400, body: { message: { title: ["can't be blank"], labels: ['is too long'] } } })
    const error = await failure(open().createIssue('', 'b', []))
    expect([error.failure, error.message]).toEqual(['failed', "Opening a GitLab issue: HTTP 400 (title can't be blank; labels is too long)"])
    on('GET', `${P}/repository/tags`, { status: 301, headers: { location: 'https://gitlab.example.com/api/v4/x?private_token=t' } })
    const moved = await failure(open().listTags())
    expect(moved.message).toMatch(/^Listing the tags: HTTP 301 \(a redirect to https:\/\/gitlab\.example\.com\/api\/v4\/x; redirects are not followed/)
    expect(calls.filter((c) => c.path === `${P}/repository/tags`)).toHaveLength(1)
  })

  test('the closing door tries a read once', async () => {
    on('GET', `${P}/repository/tags`, { status: 502 }, { body: [] })
    expect((await failure(open().closing(5_000).listTags())).status).toBe(502)
    expect(calls).toHaveLength(1)
  })

  test('nothing listening: unreachable, naming the address and the connection code', async () => {
    const closed = createNetServer()
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done))
    const port = (closed.address() as { port: number }).port
    await new Promise<void>((done) => closed.close(() => done()))
    const error = await failure(
      open({ apiUrl: `http://127.0.0.1:${port}/api/v4` })
        .closing(5_000)
        .compare(A, B)
    )
    expect([error.failure, error.status]).toEqual(['unreachable', undefined])
    expect(error.message).toMatch(new RegExp(`^Comparing aaaaaaa with bbbbbbb: http://127\\.0\\.0\\.1:${port}/api/v4 could not be reached \\(.*ECONNREFUSED`))
  })

  test('no answer within the limit: unreachable, "no answer from … within N s"', async () => {
    const sockets: Socket[] = []
    const hanging = createNetServer((socket) => void sockets.push(socket))
    await new Promise<void>((done) => hanging.listen(0, '127.0.0.1', done))
    const url = `http://127.0.0.1:${(hanging.address() as { port: number }).port}/api/v4`
    const error = await failure(open({ apiUrl: url }).closing(300).listTags())
    expect([error.failure, error.message]).toEqual(['unreachable', `Listing the tags: no answer from ${url} within 0.3 s`])
    for (const socket of sockets) socket.destroy()
    await new Promise<void>((done) => hanging.close(() => done()))
  })

  test("the run's own stop is no failure of GitLab's: its reason is thrown, mid-call or before one", async () => {
    on('GET', `${P}/repository/tags`, { hang: true })
    const stop = new AbortController()
    const reason = new Error('cancelled')
    const listing = open({}, stop.signal).listTags()
    await new Promise<void>((arrived) => arrivals.push(arrived))
    stop.abort(reason)
    await expect(listing).rejects.toBe(reason)
    calls.length = 0
    await expect(open({}, stop.signal).compare(A, B)).rejects.toBe(reason)
    expect(calls).toHaveLength(0)
  })

  test("a write the run's stop ends mid-call throws its reason too (no retry's wait to hide behind)", async () => {
    on('POST', `${P}/issues`, { hang: true })
    const stop = new AbortController()
    const reason = new Error('cancelled')
    const opening = open({}, stop.signal).createIssue('t', 'b', [])
    await new Promise<void>((arrived) => arrivals.push(arrived))
    stop.abort(reason)
    await expect(opening).rejects.toBe(reason)
  })

  test('a stop while waiting for another attempt throws its reason, not the 503 before it', async () => {
    const stop = new AbortController()
    const reason = new Error('watchdog')
    on('GET', `${P}/repository/tags`, { status: 503 })
    // The backoff's jitter is drawn as the wait begins: the stop comes then.
    jest.spyOn(Math, 'random').mockImplementation(() => {
      stop.abort(reason)
      return 1
    })
    await expect(open({}, stop.signal).listTags()).rejects.toBe(reason)
    expect(calls).toHaveLength(1)
  })
})

describe("the Link header's next page", () => {
  const api = 'https://g.example/api/v4'
  test('found among the others however GitLab spaces them, always on the door’s own origin', async () => {
    const { nextPage } = await import('../src/gitlab/door.js')
    const next = 'https://g.example/api/v4/projects/1/deployments?page=2&per_page=100'
    expect(nextPage(`<${next}>; rel="next", <https://g.example/api/v4/x?page=9>; rel="last"`, api)).toBe(next)
    expect(nextPage(`<https://g.example/api/v4/x?page=1>; rel="first",<${next}>; rel="next"`, api)).toBe(next)
    expect(nextPage(`<https://g.example/api/v4/x?page=1>; rel="prev",   <${next}>;rel=next`, api)).toBe(next)
    expect(nextPage(` <${next}> ;  rel = "next"`, api)).toBe(next)
    expect(nextPage(`<${next}>; rel="next last"`, api)).toBe(next)
    expect(nextPage([`<https://g.example/api/v4/x?page=1>; rel="first"`, `<${next}>; rel="next"`], api)).toBe(next)
    // A comma inside an address is not a separator of links.
    expect(nextPage(`<https://g.example/api/v4/x?labels=a,b&page=2>; rel="next"`, api)).toBe('https://g.example/api/v4/x?labels=a,b&page=2')
    expect(nextPage('<https://other.example/api/v4/x?page=2>; rel="next"', api)).toBe('https://g.example/api/v4/x?page=2')
    expect(nextPage('<https://g.example/api/v4/x?page=9>; rel="last"', api)).toBeUndefined()
    expect(nextPage('<https://g.example/api/v4/x?page=2>; rel="nextish"', api)).toBeUndefined()
    expect(nextPage(undefined, api)).toBeUndefined()
  })
})
