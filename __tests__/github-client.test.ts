// The door to GitHub (src/github/client.ts) against the GitHub stand-in over real HTTP, through @actions/github's
// octokit as the action uses it: what each call sends, what it reads back, and how each failure is named.
import { createServer, type Server, type Socket } from 'node:net'
import { DEFAULT_GITHUB_TOKEN, fakeSha, startGitHubStandIn } from '../src/emulator/github/server.js'
import { runOfAcmeSite } from './github-run.js'

const standIn = await startGitHubStandIn({ owner: 'acme', repo: 'site' })
runOfAcmeSite(standIn.url, 'c'.repeat(40))
const { GitHubApi, GitHubCallFailed, short, CALL_LIMIT_MS } = await import('../src/github/client.js')
type GitHubApi = import('../src/github/client.js').GitHubApi

afterAll(async () => {
  await standIn.close()
})
beforeEach(() => {
  standIn.calls.length = 0
})

const open = (token = DEFAULT_GITHUB_TOKEN, signal?: AbortSignal): Promise<GitHubApi> => GitHubApi.open(token, signal)

async function failure(call: Promise<unknown>): Promise<InstanceType<typeof GitHubCallFailed>> {
  try {
    await call
  } catch (error) {
    if (error instanceof GitHubCallFailed) return error
    throw error
  }
  throw new Error('it did not fail')
}

describe('the run it belongs to', () => {
  test("the repository, its address, the run's page, commit, ref and API address, from the runner's variables", async () => {
    const api = await open()
    expect(api.repo).toEqual({ owner: 'acme', repo: 'site' })
    expect(api.repoUrl).toBe('https://github.example/acme/site')
    expect(api.runUrl).toBe('https://github.example/acme/site/actions/runs/4242')
    expect(api.sha).toBe('c'.repeat(40))
    expect(api.ref).toBe('refs/heads/main')
    expect(api.apiUrl).toBe(standIn.url)
    expect(api.commitUrl('abc')).toBe('https://github.example/acme/site/commit/abc')
    expect(CALL_LIMIT_MS).toBe(15_000)
  })

  test('short: the first 7 characters of a commit of 8 to 40 hex digits, anything else as it is', () => {
    expect(short('0123456789abcdef0123456789abcdef01234567')).toBe('0123456')
    expect(short('ABCDEF12')).toBe('ABCDEF1')
    expect(short('abcdef1')).toBe('abcdef1')
    expect(short('main')).toBe('main')
    expect(short(`${'a'.repeat(40)}0`)).toBe(`${'a'.repeat(40)}0`)
    expect(short(`x${'a'.repeat(39)}`)).toBe(`x${'a'.repeat(39)}`)
  })
})

describe('Deployments and their statuses', () => {
  test('createDeployment sends every field (production_environment from the name) and answers the id', async () => {
    const sha = standIn.model.commit(fakeSha('create'))
    const api = await open()
    const id = await api.createDeployment(sha, 'Production-EU', 'Deploy d1', { distributionId: 'd1', apiUrl: 'https://api.x' })
    expect(standIn.model.deployment(id)?.sha).toBe(sha)
    expect(standIn.calls.at(-1)?.json).toEqual({
      ref: sha,
      environment: 'Production-EU',
      description: 'Deploy d1',
      payload: { distributionId: 'd1', apiUrl: 'https://api.x' },
      auto_merge: false,
      required_contexts: [],
      production_environment: true,
      transient_environment: false
    })
    await api.createDeployment(sha, 'staging', 'Deploy d2', {})
    expect((standIn.calls.at(-1)?.json as Record<string, unknown>).production_environment).toBe(false)
  })

  test('an answer without a deployment id is a failure, named', async () => {
    standIn.fail('create-deployment', { status: 201, body: { url: 'x' } })
    const error = await failure((await open()).createDeployment(standIn.model.commit(fakeSha('noid')), 'staging', 'd', {}))
    expect(error.message).toBe('Creating a GitHub Deployment: the answer carries no deployment id')
    expect(error.failure).toBe('failed')
    expect(error.status).toBeUndefined()
  })

  test('createStatus posts the given fields to that deployment', async () => {
    const d = standIn.model.addDeployment({ ref: standIn.model.commit(fakeSha('status')), environment: 'staging' })
    await (await open()).createStatus(d.id, { state: 'success', description: 'ok', auto_inactive: false })
    expect(standIn.calls.at(-1)?.path).toBe(`/repos/acme/site/deployments/${d.id}/statuses`)
    expect(standIn.calls.at(-1)?.json).toEqual({ state: 'success', description: 'ok', auto_inactive: false })
    expect(standIn.model.statuses(d.id)[0]?.state).toBe('success')
  })

  test('latestStatus: the newest, its log address (or target_url), its time; none without statuses', async () => {
    const api = await open()
    const d = standIn.model.addDeployment({ ref: standIn.model.commit(fakeSha('latest')), environment: 'qa' })
    expect(await api.latestStatus(d.id)).toBeUndefined()
    expect(standIn.calls.at(-1)?.query.get('per_page')).toBe('1')
    standIn.model.addStatus(d.id, { state: 'in_progress' })
    standIn.model.addStatus(d.id, { state: 'failure', log_url: 'https://log/1' })
    const latest = await api.latestStatus(d.id)
    expect(latest).toEqual({ state: 'failure', logUrl: 'https://log/1', createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) })
    standIn.fail('list-statuses', { status: 200, body: [{ state: 'success', target_url: 'https://target/2', log_url: '' }] })
    expect(await api.latestStatus(d.id)).toEqual({ state: 'success', logUrl: 'https://target/2', createdAt: undefined })
    standIn.fail('list-statuses', { status: 200, body: [{ state: 7 }] })
    expect(await api.latestStatus(d.id)).toBeUndefined()
    standIn.fail('list-statuses', { status: 200, body: { not: 'a list' } })
    expect(await api.latestStatus(d.id)).toBeUndefined()
  })
})

describe('listDeployments', () => {
  test("one environment's, newest first, read into records: payload as an object or JSON text, the creator, the time", async () => {
    const env = 'list-one'
    const sha = standIn.model.commit(fakeSha('list'))
    standIn.model.addDeployment({
      ref: sha,
      environment: env,
      payload: { distributionId: 'd1', distributionName: 'n1.tar.gz', apiUrl: 'https://a', commit: 'unknown', extra: 1 }
    })
    standIn.model.addDeployment({ ref: sha, environment: env, payload: JSON.stringify({ distributionId: 'd2', commit: 'known' }) })
    standIn.model.addDeployment({ ref: sha, environment: env, payload: 'not json {' })
    standIn.model.addDeployment({ ref: sha, environment: 'elsewhere' })
    const records = await (await open()).listDeployments(env)
    expect(standIn.calls.at(-1)?.query.get('environment')).toBe(env)
    expect(standIn.calls.at(-1)?.query.get('per_page')).toBe('100')
    expect(standIn.calls.at(-1)?.query.get('page')).toBe('1')
    expect(records.map((r) => r.payload)).toEqual([
      {},
      { distributionId: 'd2', distributionName: undefined, apiUrl: undefined },
      { distributionId: 'd1', distributionName: 'n1.tar.gz', apiUrl: 'https://a', commit: 'unknown' }
    ])
    expect(records[0]).toMatchObject({ sha, environment: env, creator: 'github-actions[bot]', createdAt: expect.stringMatching(/^\d{4}-/) })
    expect(typeof records[0]?.id).toBe('number')
  })

  test('every environment when none is given', async () => {
    await (await open()).listDeployments()
    expect(standIn.calls.at(-1)?.query.has('environment')).toBe(false)
  })

  test('pages of 100 until one is short, at most 3', async () => {
    const sha = standIn.model.commit(fakeSha('pages'))
    for (let i = 0; i < 150; i++) standIn.model.addDeployment({ ref: sha, environment: 'paged' })
    expect(await (await open()).listDeployments('paged')).toHaveLength(150)
    expect(standIn.calls.map((c) => c.query.get('page'))).toEqual(['1', '2'])
    standIn.calls.length = 0
    for (let i = 0; i < 250; i++) standIn.model.addDeployment({ ref: sha, environment: 'paged' })
    expect(await (await open()).listDeployments('paged')).toHaveLength(300)
    expect(standIn.calls.map((c) => c.query.get('page'))).toEqual(['1', '2', '3'])
  })

  test('items that are not deployments are skipped (no number id, no sha, not an object); a creator without login is none', async () => {
    standIn.fail('list-deployments', {
      status: 200,
      body: [null, 'x', { id: '1', sha: 'a' }, { id: 1 }, { id: 2, sha: 'b', creator: null, environment: '', created_at: '' }]
    })
    expect(await (await open()).listDeployments('weird')).toEqual([{ id: 2, sha: 'b', environment: '', payload: {}, creator: undefined, createdAt: undefined }])
    standIn.fail('list-deployments', { status: 200, body: { message: 'not a list' } })
    expect(await (await open()).listDeployments('weird')).toEqual([])
  })
})

describe('compare', () => {
  test("how head relates to base, with the counts; the route's basehead", async () => {
    const [a, b, c] = standIn.model.linear('cmp', [fakeSha('c1'), fakeSha('c2'), fakeSha('c3')]) as [string, string, string]
    const api = await open()
    expect(await api.compare(a, c)).toEqual({ status: 'ahead', aheadBy: 2, behindBy: 0 })
    expect(standIn.calls.at(-1)?.path).toBe(`/repos/acme/site/compare/${a}...${c}`)
    expect(await api.compare(c, b)).toEqual({ status: 'behind', aheadBy: 0, behindBy: 1 })
    expect(await api.compare(b, b)).toEqual({ status: 'identical', aheadBy: 0, behindBy: 0 })
  })

  test('an answer with another status is a failure naming it; missing counts are 0', async () => {
    const api = await open()
    standIn.fail('compare', { status: 200, body: { status: 'sideways' } })
    const error = await failure(api.compare('0123456789abcdef', 'main'))
    expect(error.message).toBe('Comparing 0123456 with main: the answer\'s status is "sideways"')
    expect(error.failure).toBe('failed')
    standIn.fail('compare', { status: 200, body: { status: 'diverged' } })
    expect(await api.compare('a', 'b')).toEqual({ status: 'diverged', aheadBy: 0, behindBy: 0 })
  })
})

describe('failures, named for the fix they need', () => {
  test("401: the token, not tried again; the message carries GitHub's words", async () => {
    const error = await failure((await open('ghs_wrong')).listDeployments('x'))
    expect([error.failure, error.status, error.message]).toEqual(['bad-token', 401, 'Listing GitHub Deployments: HTTP 401 (Bad credentials)'])
    expect(standIn.calls).toHaveLength(1)
  })

  test('403 forbidden, 404 and 422 not found, each once; 500 failed', async () => {
    const api = await open()
    for (const [status, failureKind] of [
      [403, 'forbidden'],
      [404, 'not-found'],
      [422, 'not-found']
    ] as const) {
      standIn.calls.length = 0
      standIn.fail('compare', { status, body: { message: 'no' } })
      const error = await failure(api.compare('a', 'b'))
      expect([error.failure, error.status, error.message]).toEqual([failureKind, status, `Comparing a with b: HTTP ${status} (no)`])
      expect(standIn.calls).toHaveLength(1)
    }
    const unknown = await failure(api.createStatus(1, { state: 'success' }))
    expect([unknown.failure, unknown.status]).toEqual(['not-found', 404])
    standIn.fail('create-status', { status: 503, body: 'down' })
    const down = await failure(api.createStatus(1, { state: 'success' }))
    expect([down.failure, down.status, down.message]).toEqual(['failed', 503, 'Setting the status of GitHub Deployment 1: HTTP 503'])
    standIn.fail('list-statuses', { status: 403, body: { message: 'no' } })
    const status = await failure(api.latestStatus(7))
    expect([status.failure, status.status, status.message]).toEqual(['forbidden', 403, 'Reading the status of GitHub Deployment 7: HTTP 403 (no)'])
  })

  test('a rate limit (403 or 429 saying so) is no missing permission: rate-limited, naming when it lifts, not tried again', async () => {
    const api = await open()
    const primary = { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1795507200' }
    const cases = [
      [403, primary, 'HTTP 403 (API rate limit exceeded for installation ID 1; the rate limit lifts at 2026-11-24T08:00:00Z)'],
      [403, { 'retry-after': '60' }, 'HTTP 403 (API rate limit exceeded for installation ID 1; the rate limit lifts in 60 s)'],
      [429, {}, 'HTTP 429 (API rate limit exceeded for installation ID 1)']
    ] as const
    for (const [status, headers, words] of cases) {
      standIn.calls.length = 0
      standIn.fail('list-deployments', { status, headers, body: { message: 'API rate limit exceeded for installation ID 1.' } })
      const error = await failure(api.listDeployments('limited'))
      expect([error.failure, error.status, error.message]).toEqual(['rate-limited', status, `Listing GitHub Deployments: ${words}`])
      expect(standIn.calls).toHaveLength(1)
    }
    // A 403 whose headers say requests remain is a permission refused.
    standIn.fail('list-deployments', { status: 403, headers: { 'x-ratelimit-remaining': '4999' }, body: { message: 'Resource not accessible by integration' } })
    expect((await failure(api.listDeployments('limited'))).failure).toBe('forbidden')
  })

  test('a read is tried again after a 5xx (three attempts in all), a write never', async () => {
    const api = await open()
    standIn.fail('list-deployments', { status: 502, times: 2 })
    expect(await api.listDeployments('retried')).toEqual([])
    expect(standIn.calls.map((c) => c.status)).toEqual([502, 502, 200])
    standIn.calls.length = 0
    standIn.fail('list-deployments', { status: 500, times: 3 })
    expect((await failure(api.listDeployments('retried'))).status).toBe(500)
    expect(standIn.calls).toHaveLength(3)
    standIn.calls.length = 0
    standIn.fail('create-deployment', { status: 500, times: 2 })
    expect((await failure(api.createDeployment('main', 'x', 'd', {}))).status).toBe(500)
    expect(standIn.calls).toHaveLength(1)
  }, 20_000)

  test('the closing client tries a read once', async () => {
    const api = (await open()).closing(5_000)
    standIn.fail('list-deployments', { status: 502 })
    expect((await failure(api.listDeployments('once'))).status).toBe(502)
    expect(standIn.calls).toHaveLength(1)
    expect(api.runUrl).toBe('https://github.example/acme/site/actions/runs/4242')
  })

  test('nothing listening: unreachable, naming the address and the connection code', async () => {
    const server = createServer()
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    const port = (server.address() as { port: number }).port
    await new Promise<void>((done) => server.close(() => done()))
    const api = await open()
    const moved = Object.assign(Object.create(Object.getPrototypeOf(api) as object) as GitHubApi, api, { apiUrl: `http://127.0.0.1:${port}` })
    const octokit = (await import('@actions/github')).getOctokit(DEFAULT_GITHUB_TOKEN, { baseUrl: `http://127.0.0.1:${port}` })
    Object.assign(moved, { octokit, readAttempts: 1 })
    const error = await failure(moved.compare('a', 'b'))
    expect(error.failure).toBe('unreachable')
    expect(error.status).toBeUndefined()
    expect(error.message).toMatch(new RegExp(`^Comparing a with b: http://127\\.0\\.0\\.1:${port} could not be reached \\(ECONNREFUSED`))
  })

  test('no answer within the limit: unreachable, "no answer from … within N s"', async () => {
    const sockets: Socket[] = []
    const hanging: Server = createServer((socket) => void sockets.push(socket))
    await new Promise<void>((done) => hanging.listen(0, '127.0.0.1', done))
    const url = `http://127.0.0.1:${(hanging.address() as { port: number }).port}`
    const api = (await open()).closing(300)
    const octokit = (await import('@actions/github')).getOctokit(DEFAULT_GITHUB_TOKEN, { baseUrl: url })
    Object.assign(api, { octokit, apiUrl: url })
    const error = await failure(api.compare('a', 'b'))
    expect([error.failure, error.message]).toEqual(['unreachable', `Comparing a with b: no answer from ${url} within 0.3 s`])
    for (const socket of sockets) socket.destroy()
    await new Promise<void>((done) => hanging.close(() => done()))
  })

  test("the run's own stop is no failure of GitHub's: its reason is thrown, not HTTP 500", async () => {
    const stop = new AbortController()
    const api = await open(DEFAULT_GITHUB_TOKEN, stop.signal)
    const reason = new Error('cancelled')
    stop.abort(reason)
    await expect(api.compare('a', 'b')).rejects.toBe(reason)
  })
})
