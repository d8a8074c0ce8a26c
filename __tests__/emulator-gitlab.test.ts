// The GitLab API stand-in (src/emulator/gitlab/), over real HTTP with fetch as a client sends it: each route's shape,
// GitLab's paging, compare and merge base on every relation of two commits, deployments and their state machine,
// issues, notes and labels, tokens and scopes, faults and the refusing and slow modes; and `--gitlab` on the
// emulator's command line, what its banner says to export working as printed.
import { spawn } from 'node:child_process'
import { parseCli } from '../src/emulator/cli-args.js'
import {
  createGitLabStandIn,
  DEFAULT_GITLAB_TOKEN,
  fakeSha,
  seedSampleHistory,
  startGitLabStandIn,
  type GitLabStandIn,
  type GitLabStandInOptions,
  type SampleHistory
} from '../src/emulator/gitlab/server.js'

const READ_API = 'glpat-readApiOnly0000000'
const REPORTER = 'glpat-reporterRole000000'
const ELSEWHERE = 'glpat-otherProject00000'
const tokens: GitLabStandInOptions['tokens'] = {
  [DEFAULT_GITLAB_TOKEN]: { scopes: ['api'] },
  [READ_API]: { scopes: ['read_api'], user: { id: 7, username: 'reader', name: 'Rea Der' } },
  [REPORTER]: { scopes: ['api'], role: 'reporter' },
  [ELSEWHERE]: { scopes: ['api'], projects: ['acme/other'] }
}
const P = `/projects/${encodeURIComponent('acme/platform/site')}`

let clock = Date.parse('2026-01-02T03:04:05.678Z')
let gl: GitLabStandIn
let history: SampleHistory
let waits: Array<{ ms: number; release: () => void }> = []
beforeEach(async () => {
  clock = Date.parse('2026-01-02T03:04:05.678Z')
  waits = []
  const sleep = (ms: number): Promise<void> => new Promise((release) => waits.push({ ms, release }))
  gl = await startGitLabStandIn({ tokens, now: () => clock, rateLimit: 50, sleep })
  history = seedSampleHistory(gl.model, clock)
})
afterEach(async () => {
  await gl.close()
})

interface Reply {
  status: number
  headers: Headers
  body: unknown
}

interface Call {
  method?: string
  token?: string | null
  json?: unknown
  form?: Record<string, string>
  headers?: Record<string, string>
  signal?: AbortSignal
}

/** One call to the stand-in's API (`path` under /api/v4, or a full URL), as a client sends it with PRIVATE-TOKEN. */
async function api(path: string, call: Call = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...call.headers }
  const token = call.token === undefined ? DEFAULT_GITLAB_TOKEN : call.token
  if (token !== null) headers['PRIVATE-TOKEN'] = token
  let body: string | undefined
  if (call.json !== undefined) [headers['content-type'], body] = ['application/json', JSON.stringify(call.json)]
  if (call.form !== undefined) [headers['content-type'], body] = ['application/x-www-form-urlencoded', new URLSearchParams(call.form).toString()]
  const res = await fetch(path.startsWith('http') ? path : `${gl.apiUrl}${path}`, {
    method: call.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    ...(body !== undefined && { body }),
    ...(call.signal && { signal: call.signal })
  })
  const text = await res.text()
  const json = (res.headers.get('content-type') ?? '').includes('json')
  return { status: res.status, headers: res.headers, body: json ? (JSON.parse(text) as unknown) : text }
}

const [m1, m2, m3] = ['sample-1', 'sample-2', 'sample-3'].map(fakeSha) as [string, string, string]
const [f1, f2] = ['sample-feature-1', 'sample-feature-2'].map(fakeSha) as [string, string]
const ids = (body: unknown): string[] => (body as Array<{ id: string }>).map((c) => c.id)

describe('the project and its repository', () => {
  test('the sample history: three commits on main, a branch off its second, a lightweight and an annotated tag', () => {
    expect(history).toEqual({
      main: [m1, m2, m3],
      branch: { name: 'feature/search', commits: [f1, f2] },
      tags: [
        { name: 'v1.0.0', commit: m1, annotated: false },
        { name: 'v1.1.0', commit: m2, annotated: true }
      ]
    })
    expect(gl.model.graph.getCommit(f1)?.parents).toEqual([m2])
  })

  test('the project by its URL-encoded path or its id; another path, an unencoded one or a project the token cannot see: 404', async () => {
    const project = await api(P)
    expect(project.status).toBe(200)
    expect(project.body).toMatchObject({
      id: 42,
      name: 'site',
      path: 'site',
      path_with_namespace: 'acme/platform/site',
      default_branch: 'main',
      web_url: `${gl.url}/acme/platform/site`
    })
    expect((await api('/projects/42')).body).toMatchObject({ path_with_namespace: 'acme/platform/site' })
    expect((await api('/projects/ACME%2Fplatform%2FSite')).status).toBe(200) // paths match without case
    expect(await api('/projects/acme%2Fother')).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } })
    expect(await api('/projects/43')).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } })
    expect(await api('/projects/acme/platform/site')).toMatchObject({ status: 404, body: { error: '404 Not Found' } })
    expect(await api(P, { token: ELSEWHERE })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } })
  })

  test('a commit by sha, short sha, branch (encoded), tag; its fields; an unknown one: 404 Commit Not Found', async () => {
    const bySha = await api(`${P}/repository/commits/${m2}`)
    expect(bySha.status).toBe(200)
    expect(bySha.body).toEqual({
      id: m2,
      short_id: m2.slice(0, 8),
      created_at: '2026-01-02T00:04:05.678+00:00',
      parent_ids: [m1],
      title: `Commit ${m2.slice(0, 7)}`,
      message: `Commit ${m2.slice(0, 7)}`,
      author_name: 'Stand-in Author',
      author_email: 'author@example.com',
      authored_date: '2026-01-02T00:04:05.678+00:00',
      committer_name: 'Stand-in Author',
      committer_email: 'author@example.com',
      committed_date: '2026-01-02T00:04:05.678+00:00',
      trailers: {},
      extended_trailers: {},
      web_url: `${gl.url}/acme/platform/site/-/commit/${m2}`,
      stats: { additions: 0, deletions: 0, total: 0 },
      status: null,
      project_id: 42,
      last_pipeline: null
    })
    expect((await api(`${P}/repository/commits/${m3.slice(0, 8)}`)).body).toMatchObject({ id: m3 })
    expect((await api(`${P}/repository/commits/main`)).body).toMatchObject({ id: m3 })
    expect((await api(`${P}/repository/commits/feature%2Fsearch`)).body).toMatchObject({ id: f2, parent_ids: [f1] })
    expect((await api(`${P}/repository/commits/v1.1.0`)).body).toMatchObject({ id: m2 })
    expect(await api(`${P}/repository/commits/${fakeSha('nowhere')}`)).toEqual(
      expect.objectContaining({ status: 404, body: { message: '404 Commit Not Found' } })
    )
  })

  test('branches by name, one by its encoded name, an unknown one 404 Branch Not Found', async () => {
    const list = await api(`${P}/repository/branches`)
    expect((list.body as Array<{ name: string }>).map((b) => b.name)).toEqual(['feature/search', 'main'])
    expect((list.body as unknown[])[1]).toMatchObject({ name: 'main', default: true, protected: true, merged: false, commit: { id: m3 } })
    const one = await api(`${P}/repository/branches/feature%2Fsearch`)
    expect(one.body).toMatchObject({
      name: 'feature/search',
      default: false,
      commit: { id: f2, short_id: f2.slice(0, 8) },
      web_url: `${gl.url}/acme/platform/site/-/tree/feature/search`
    })
    expect(await api(`${P}/repository/branches/nope`)).toMatchObject({ status: 404, body: { message: '404 Branch Not Found' } })
  })

  test('tags: the newest tagged commit first by default; an annotated tag targets its object, a lightweight one its commit', async () => {
    gl.model.tag('v0.9.0', m3) // made last, on the newest commit
    const list = await api(`${P}/repository/tags`)
    expect((list.body as Array<{ name: string }>).map((t) => t.name)).toEqual(['v0.9.0', 'v1.1.0', 'v1.0.0'])
    const [, annotated, lightweight] = list.body as Array<Record<string, unknown>>
    expect(annotated).toMatchObject({ name: 'v1.1.0', message: 'Release 1.1.0', commit: { id: m2 }, release: null, protected: false })
    expect(annotated?.target).toBe(gl.model.graph.tagObject('v1.1.0')?.sha)
    expect(annotated?.target).not.toBe(m2)
    expect(lightweight).toMatchObject({ name: 'v1.0.0', message: null, target: m1, commit: { id: m1 } })
    const byName = await api(`${P}/repository/tags?order_by=name&sort=asc`)
    expect((byName.body as Array<{ name: string }>).map((t) => t.name)).toEqual(['v0.9.0', 'v1.0.0', 'v1.1.0'])
    expect((await api(`${P}/repository/tags?search=%5Ev1`)).body).toHaveLength(2)
    expect(await api(`${P}/repository/tags?order_by=date`)).toMatchObject({ status: 400, body: { error: 'order_by does not have a valid value' } })
  })

  test('the merge requests of a commit; an unknown commit 404', async () => {
    gl.model.addMergeRequest({ title: 'Search box', commits: [f1, f2], source_branch: 'feature/search' })
    const mrs = await api(`${P}/repository/commits/${f1}/merge_requests`)
    expect(mrs.status).toBe(200)
    expect(mrs.body).toEqual([
      expect.objectContaining({
        id: 2000,
        iid: 1,
        title: 'Search box',
        state: 'merged',
        source_branch: 'feature/search',
        target_branch: 'main',
        web_url: `${gl.url}/acme/platform/site/-/merge_requests/1`
      })
    ])
    expect((await api(`${P}/repository/commits/${m3}/merge_requests`)).body).toEqual([])
    expect((await api(`${P}/repository/commits/${fakeSha('x')}/merge_requests`)).status).toBe(404)
  })
})

describe('compare and merge base', () => {
  const compare = (from: string, to: string, extra = ''): Promise<Reply> =>
    api(`${P}/repository/compare?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}${extra}`)
  const mergeBase = (...refs: string[]): Promise<Reply> => api(`${P}/repository/merge_base?${refs.map((r) => `refs[]=${encodeURIComponent(r)}`).join('&')}`)

  test('ahead: the commits of `to` that `from` lacks, oldest first; `commit` is the newest of them', async () => {
    const ahead = await compare(m1, 'main')
    expect(ahead.status).toBe(200)
    expect(ids((ahead.body as { commits: unknown }).commits)).toEqual([m2, m3])
    expect(ahead.body).toMatchObject({
      commit: { id: m3 },
      diffs: [],
      compare_timeout: false,
      compare_same_ref: false,
      web_url: `${gl.url}/acme/platform/site/-/compare/${m1}...main`
    })
    expect((await mergeBase(m1, 'main')).body).toMatchObject({ id: m1 })
  })

  test('behind: no commits, no `commit`; the merge base is `to` itself', async () => {
    const behind = await compare('main', m2, '&straight=false')
    expect(behind.body).toMatchObject({ commit: null, commits: [], compare_same_ref: false })
    expect((await mergeBase('main', m2)).body).toMatchObject({ id: m2 })
  })

  test("diverged: only the other line's commits; the merge base is where they parted", async () => {
    const diverged = await compare('main', 'feature/search')
    expect(ids((diverged.body as { commits: unknown }).commits)).toEqual([f1, f2])
    expect(ids(((await compare('feature/search', 'main')).body as { commits: unknown }).commits)).toEqual([m3])
    expect((await mergeBase('main', 'feature/search')).body).toMatchObject({ id: m2 })
    expect((await api(`${P}/repository/merge_base?refs=main,feature%2Fsearch`)).body).toMatchObject({ id: m2 }) // a comma-separated list too
  })

  test('identical: two names of one commit compare the same', async () => {
    expect((await compare('v1.1.0', m2)).body).toMatchObject({ commit: null, commits: [], compare_same_ref: true })
    expect((await mergeBase('main', m3)).body).toMatchObject({ id: m3 })
  })

  test('unknown refs: compare 404 Ref Not Found; merge base 400 naming them; fewer than two refs 400; no common history 404', async () => {
    expect(await compare('main', 'nope')).toMatchObject({ status: 404, body: { message: '404 Ref Not Found' } })
    expect(await compare('nope', 'main')).toMatchObject({ status: 404, body: { message: '404 Ref Not Found' } })
    expect(await api(`${P}/repository/compare?from=main`)).toMatchObject({ status: 400, body: { error: 'to is missing' } })
    expect(await mergeBase('main', 'nope')).toMatchObject({ status: 400, body: { message: 'Could not find ref: nope' } })
    expect(await mergeBase('gone', 'main', 'nope')).toMatchObject({ status: 400, body: { message: 'Could not find refs: gone, nope' } })
    expect(await mergeBase('main')).toMatchObject({ status: 400, body: { message: 'Provide at least 2 refs' } })
    // refs without [] is one parameter given twice: its last value, one ref (a client's classic mistake)
    expect(await api(`${P}/repository/merge_base?refs=main&refs=${m1}`)).toMatchObject({ status: 400, body: { message: 'Provide at least 2 refs' } })
    expect(await api(`${P}/repository/merge_base`)).toMatchObject({ status: 400, body: { error: 'refs is missing' } })
    const lone = gl.model.commit(fakeSha('an orphan'), [])
    expect(await mergeBase('main', lone)).toMatchObject({ status: 404, body: { message: '404 Merge Base Not Found' } })
    const orphan = await compare('main', lone)
    expect(ids((orphan.body as { commits: unknown }).commits)).toEqual([lone])
  })
})

describe('paging, as GitLab pages', () => {
  test('X-* headers and Link (prev, next, first, last) keeping the query; following next reads every item once', async () => {
    for (let i = 1; i <= 45; i++) gl.model.addIssue({ title: `drift ${i}`, labels: i % 2 === 0 ? ['drift'] : ['drift', 'odd'] })
    const first = await api(`${P}/issues?labels=drift&sort=asc`)
    expect(
      Object.fromEntries(['x-page', 'x-per-page', 'x-next-page', 'x-prev-page', 'x-total', 'x-total-pages'].map((h) => [h, first.headers.get(h)]))
    ).toEqual({
      'x-page': '1',
      'x-per-page': '20',
      'x-next-page': '2',
      'x-prev-page': '',
      'x-total': '45',
      'x-total-pages': '3'
    })
    const href = (n: number): string => `${gl.apiUrl}${P}/issues?id=acme%2Fplatform%2Fsite&labels=drift&page=${n}&per_page=20&sort=asc`
    expect(first.headers.get('link')).toBe(`<${href(2)}>; rel="next", <${href(1)}>; rel="first", <${href(3)}>; rel="last"`)
    const titles: string[] = []
    let next: string | undefined = `${P}/issues?labels=drift&sort=asc`
    let pages = 0
    while (next !== undefined) {
      const page = await api(next)
      pages++
      titles.push(...(page.body as Array<{ title: string }>).map((i) => i.title))
      next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1]
      if (pages === 2) expect(page.headers.get('link')).toMatch(/^<[^>]+page=1&[^>]+>; rel="prev", <[^>]+page=3&/)
    }
    expect(pages).toBe(3)
    expect(titles).toEqual(Array.from({ length: 45 }, (_, i) => `drift ${i + 1}`))
    expect((await api(`${P}/issues?labels=drift,odd&per_page=100`)).body).toHaveLength(23)
  })

  test('per_page at most 100; a page past the last is empty; a page that is not a number is refused', async () => {
    for (let i = 1; i <= 120; i++) gl.model.addLabel(`l${String(i).padStart(3, '0')}`, '#ff0000')
    const big = await api(`${P}/labels?per_page=500`)
    expect(big.body).toHaveLength(100)
    expect(big.headers.get('x-per-page')).toBe('100')
    const past = await api(`${P}/labels?page=9`)
    expect(past.body).toEqual([])
    expect([past.headers.get('x-next-page'), past.headers.get('x-prev-page'), past.headers.get('x-total-pages')]).toEqual(['', '', '6'])
    expect(await api(`${P}/labels?page=two`)).toMatchObject({ status: 400, body: { error: 'page is invalid' } })
    const empty = await api(`${P}/deployments`)
    expect([empty.body, empty.headers.get('x-total'), empty.headers.get('x-total-pages')]).toEqual([[], '0', '1'])
  })
})

describe('deployments and environments', () => {
  const record = (body: Record<string, unknown>): Promise<Reply> => api(`${P}/deployments`, { json: body })
  const setStatus = (id: number, status: string): Promise<Reply> => api(`${P}/deployments/${id}`, { method: 'PUT', form: { status } })

  test('create (JSON or form): 201 with the record; the environment is created when missing', async () => {
    clock += 1000
    const created = await record({ environment: 'production', sha: m3, ref: 'main', tag: false, status: 'running' })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({
      id: 500,
      iid: 1,
      ref: 'main',
      sha: m3,
      created_at: '2026-01-02T03:04:06.678Z',
      updated_at: '2026-01-02T03:04:06.678Z',
      finished_at: null,
      status: 'running',
      user: {
        id: 1,
        username: 'project_1_bot',
        name: 'Deploy bot',
        state: 'active',
        locked: false,
        avatar_url: expect.any(String),
        web_url: `${gl.url}/project_1_bot`
      },
      environment: {
        id: 10,
        name: 'production',
        slug: 'production',
        external_url: null,
        created_at: '2026-01-02T03:04:06.678Z',
        updated_at: '2026-01-02T03:04:06.678Z'
      },
      deployable: null
    })
    const byForm = await api(`${P}/deployments`, { form: { environment: 'review/feature search', sha: f2, ref: 'v1.1.0', tag: 'true', status: 'success' } })
    expect(byForm).toMatchObject({
      status: 201,
      body: { iid: 2, status: 'success', finished_at: '2026-01-02T03:04:06.678Z', environment: { name: 'review/feature search' } }
    })
    const environments = await api(`${P}/environments`)
    expect(environments.body).toEqual([
      expect.objectContaining({ id: 10, name: 'production', slug: 'production', state: 'available', tier: 'production', external_url: null }),
      expect.objectContaining({ id: 11, name: 'review/feature search', slug: expect.stringMatching(/^review-feature-se-[0-9a-f]{6}$/), tier: 'development' })
    ])
    expect((await api(`${P}/environments?name=production`)).body).toHaveLength(1)
    expect(gl.calls.at(-3)).toMatchObject({
      method: 'POST',
      route: 'create-deployment',
      body: { environment: 'review/feature search', tag: 'true' },
      token: DEFAULT_GITLAB_TOKEN
    })
  })

  test("refused as GitLab refuses: missing parameters, a status it does not take, a ref or sha that is not the project's, a bad environment name", async () => {
    expect(await record({ environment: 'production' })).toMatchObject({
      status: 400,
      body: { error: 'sha is missing, ref is missing, tag is missing, status is missing' }
    })
    expect(await record({ environment: 'production', sha: m3, ref: 'main', tag: 'maybe', status: 'created' })).toMatchObject({
      status: 400,
      body: { error: 'tag is invalid, status does not have a valid value' }
    })
    expect(await record({ environment: 'production', sha: m3, ref: 'nope', tag: false, status: 'running' })).toMatchObject({
      status: 400,
      body: { message: { ref: ['The branch or tag does not exist'] } }
    })
    expect(await record({ environment: 'production', sha: fakeSha('elsewhere'), ref: 'main', tag: false, status: 'running' })).toMatchObject({
      status: 400,
      body: { message: { sha: ['The commit does not exist'] } }
    })
    expect(await record({ environment: '/bad', sha: m3, ref: 'main', tag: false, status: 'running' })).toMatchObject({
      status: 400,
      body: { message: { name: [expect.stringContaining('cannot start or end with')] } }
    })
    expect(gl.model.deployments).toEqual([])
    expect(gl.model.environments.map((e) => e.name)).toEqual(['production']) // created before the sha was checked, as GitLab does
  })

  test("GitLab's state machine: running only from created; any other status from any but itself; finished_at set each time", async () => {
    const { id } = (await record({ environment: 'production', sha: m3, ref: 'main', tag: false, status: 'running' })).body as { id: number }
    expect(await setStatus(id, 'running')).toMatchObject({ status: 400, body: { message: { status: ['cannot transition via "run"'] } } })
    clock += 5000
    expect(await setStatus(id, 'success')).toMatchObject({ status: 200, body: { status: 'success', finished_at: '2026-01-02T03:04:10.678Z' } })
    expect(await setStatus(id, 'success')).toMatchObject({ status: 400, body: { message: { status: ['cannot transition via "succeed"'] } } })
    expect(await setStatus(id, 'running')).toMatchObject({ status: 400, body: { message: { status: ['cannot transition via "run"'] } } })
    // success is not final on GitLab: a failed or canceled may follow it (and success a failed one)
    expect(await setStatus(id, 'failed')).toMatchObject({ status: 200, body: { status: 'failed' } })
    expect(await setStatus(id, 'canceled')).toMatchObject({ status: 200, body: { status: 'canceled' } })
    expect(await setStatus(id, 'created')).toMatchObject({ status: 400, body: { error: 'status does not have a valid value' } })
    expect(await setStatus(999, 'success')).toMatchObject({ status: 404, body: { message: '404 Not found' } })
    expect(await api(`${P}/deployments/abc`)).toMatchObject({ status: 400, body: { error: 'deployment_id is invalid' } })
    expect((await api(`${P}/deployments/${id}`)).body).toMatchObject({ id, status: 'canceled' })
  })

  test("listed by environment, newest first when asked (GitLab's default is oldest first), with another job's history", async () => {
    gl.model.seedDeployment({ environment: 'production', sha: m1, status: 'success', created_at: '2025-12-01T00:00:00.000Z' })
    gl.model.seedDeployment({ environment: 'staging', sha: m2, status: 'failed' })
    gl.model.seedDeployment({
      environment: 'production',
      sha: fakeSha('force-pushed away'),
      status: 'running',
      user: { id: 9, username: 'other', name: 'Other Job' }
    })
    await record({ environment: 'production', sha: m3, ref: 'main', tag: false, status: 'running' })
    const newest = await api(`${P}/deployments?environment=production&order_by=id&sort=desc`)
    expect((newest.body as Array<{ iid: number }>).map((d) => d.iid)).toEqual([4, 3, 1])
    expect((newest.body as Array<Record<string, unknown>>)[1]).toMatchObject({ status: 'running', user: { username: 'other' }, finished_at: null })
    expect((newest.body as Array<Record<string, unknown>>)[2]).toMatchObject({
      created_at: '2025-12-01T00:00:00.000Z',
      finished_at: '2025-12-01T00:00:00.000Z'
    })
    expect(((await api(`${P}/deployments?environment=production`)).body as Array<{ iid: number }>).map((d) => d.iid)).toEqual([1, 3, 4])
    expect(((await api(`${P}/deployments?status=failed`)).body as Array<{ iid: number }>).map((d) => d.iid)).toEqual([2])
    expect((await api(`${P}/deployments?environment=nowhere`)).body).toEqual([])
    expect(await api(`${P}/deployments?sort=newest`)).toMatchObject({ status: 400, body: { error: 'sort does not have a valid value' } })
  })

  test("an environment's external URL and tier set (PUT /environments/:id); a scheme GitLab blocks 400, another id 404; a Reporter or read_api refused", async () => {
    await record({ environment: 'production', sha: m3, ref: 'main', tag: false, status: 'running' })
    clock += 1000
    const site = 'https://www.example.com/version.txt'
    expect(await api(`${P}/environments/10`, { method: 'PUT', json: { external_url: site } })).toMatchObject({
      status: 200,
      body: { id: 10, name: 'production', external_url: site, tier: 'production', updated_at: '2026-01-02T03:04:06.678Z' }
    })
    // The deployment's environment shows it.
    expect((await api(`${P}/deployments/500`)).body).toMatchObject({ environment: { id: 10, external_url: site } })
    expect(await api(`${P}/environments/10`, { method: 'PUT', form: { external_url: 'javascript:alert(1)' } })).toMatchObject({
      status: 400,
      body: { message: { external_url: ['is blocked: Only allowed schemes are http, https'] } }
    })
    expect(await api(`${P}/environments/10`, { method: 'PUT', json: { tier: 'staging', external_url: '' } })).toMatchObject({
      status: 200,
      body: { tier: 'staging', external_url: null }
    })
    expect(await api(`${P}/environments/10`, { method: 'PUT', json: { tier: 'live' } })).toMatchObject({
      status: 400,
      body: { error: 'tier does not have a valid value' }
    })
    expect(await api(`${P}/environments/99`, { method: 'PUT', json: { external_url: site } })).toMatchObject({
      status: 404,
      body: { message: '404 Not found' }
    })
    expect(await api(`${P}/environments/10`, { method: 'PUT', token: REPORTER, json: { external_url: site } })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' }
    })
    expect(await api(`${P}/environments/10`, { method: 'PUT', token: READ_API, json: { external_url: site } })).toMatchObject({
      status: 403,
      body: { error: 'insufficient_scope', scope: 'api' }
    })
    expect(gl.model.environment('production')).toMatchObject({ external_url: null, tier: 'staging' })
    expect(gl.calls.filter((c) => c.method === 'PUT').map((c) => c.route)).toEqual(Array(7).fill('update-environment'))
  })

  test("the same successful deploy recorded again is answered with the environment's last one, as GitLab's create service does", async () => {
    const input = { environment: 'production', sha: m3, ref: 'main', tag: false, status: 'success' }
    const first = (await record(input)).body as { id: number }
    const again = await record(input)
    expect(again).toMatchObject({ status: 201, body: { id: first.id } })
    expect(gl.model.deployments).toHaveLength(1)
    expect(((await record({ ...input, status: 'running' })).body as { id: number }).id).not.toBe(first.id)
  })
})

describe('issues, notes and labels', () => {
  test('create an issue (its unknown labels created), list by labels and state, close and reopen it, relabel it', async () => {
    gl.model.addIssue({ title: 'someone else', labels: ['bug'] })
    const created = await api(`${P}/issues`, { json: { title: 'Drift: production runs 72b8587', description: 'Behind main by 1', labels: 'drift,production' } })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      id: 7001,
      iid: 2,
      project_id: 42,
      title: 'Drift: production runs 72b8587',
      description: 'Behind main by 1',
      state: 'opened',
      labels: ['drift', 'production'],
      author: { username: 'project_1_bot' },
      closed_at: null,
      user_notes_count: 0,
      web_url: `${gl.url}/acme/platform/site/-/issues/2`
    })
    expect(gl.model.labels.map((l) => [l.name, l.color])).toEqual([
      ['bug', '#6699cc'],
      ['drift', '#6699cc'],
      ['production', '#6699cc']
    ])
    const iidsOf = async (query: string): Promise<number[]> => ((await api(`${P}/issues?${query}`)).body as Array<{ iid: number }>).map((i) => i.iid)
    expect(await iidsOf('labels=drift&state=opened')).toEqual([2])
    expect(await iidsOf('')).toEqual([2, 1]) // every state, newest first
    clock += 60_000
    const closed = await api(`${P}/issues/2`, { method: 'PUT', form: { state_event: 'close' } })
    expect(closed.body).toMatchObject({ state: 'closed', closed_at: '2026-01-02T03:05:05.678Z', closed_by: { username: 'project_1_bot' } })
    expect(await iidsOf('labels=drift&state=opened')).toEqual([])
    expect(await iidsOf('labels=drift&state=closed')).toEqual([2])
    const reopened = await api(`${P}/issues/2`, { method: 'PUT', json: { state_event: 'reopen', labels: 'drift,staging', title: 'Drift: staging' } })
    expect(reopened.body).toMatchObject({ state: 'opened', closed_at: null, closed_by: null, labels: ['drift', 'staging'], title: 'Drift: staging' })
    expect(await api(`${P}/issues/2`, { method: 'PUT', json: {} })).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/at least one parameter must be provided$/) }
    })
    expect(await api(`${P}/issues/2`, { method: 'PUT', json: { state_event: 'open' } })).toMatchObject({
      status: 400,
      body: { error: 'state_event does not have a valid value' }
    })
    expect(await api(`${P}/issues/99`, { method: 'PUT', json: { title: 'x' } })).toMatchObject({ status: 404, body: { message: '404 Issue Not Found' } })
    expect(await api(`${P}/issues`, { json: { description: 'no title' } })).toMatchObject({ status: 400, body: { error: 'title is missing' } })
  })

  test('notes: 201 with the note; listed newest first by default; a body is required', async () => {
    const { iid } = gl.model.addIssue({ title: 'Drift' })
    const first = await api(`${P}/issues/${iid}/notes`, { json: { body: 'Still behind.' } })
    expect(first).toMatchObject({
      status: 201,
      body: { body: 'Still behind.', author: { username: 'project_1_bot' }, noteable_type: 'Issue', noteable_iid: iid, system: false }
    })
    clock += 1000
    await api(`${P}/issues/${iid}/notes`, { form: { body: 'Caught up.' } })
    expect(((await api(`${P}/issues/${iid}/notes`)).body as Array<{ body: string }>).map((n) => n.body)).toEqual(['Caught up.', 'Still behind.'])
    expect(((await api(`${P}/issues/${iid}/notes?sort=asc`)).body as Array<{ body: string }>).map((n) => n.body)).toEqual(['Still behind.', 'Caught up.'])
    expect(await api(`${P}/issues/${iid}/notes`, { json: {} })).toMatchObject({ status: 400, body: { error: 'body is missing' } })
    expect((await api(`${P}/issues/${iid}`)).body).toMatchObject({ user_notes_count: 2 })
  })

  test('labels: one by its URL-encoded name (404 when absent), created with 201, 409 when taken, a color GitLab refuses 400', async () => {
    expect(await api(`${P}/labels/${encodeURIComponent('brcloud drift')}`)).toMatchObject({ status: 404, body: { message: '404 Label Not Found' } })
    const created = await api(`${P}/labels`, { json: { name: 'brcloud drift', color: '#d93f0b', description: 'An environment off its track' } })
    expect(created).toMatchObject({
      status: 201,
      body: { id: 30, name: 'brcloud drift', color: '#d93f0b', text_color: '#FFFFFF', description: 'An environment off its track', open_issues_count: 0 }
    })
    expect((await api(`${P}/labels/${encodeURIComponent('brcloud drift')}`)).body).toMatchObject({ id: 30 })
    expect((await api(`${P}/labels/30`)).body).toMatchObject({ name: 'brcloud drift' })
    expect(await api(`${P}/labels`, { json: { name: 'brcloud drift', color: '#000000' } })).toMatchObject({
      status: 409,
      body: { message: 'Label already exists' }
    })
    expect(await api(`${P}/labels`, { json: { name: 'x', color: 'orangeish' } })).toMatchObject({
      status: 400,
      body: { message: { color: ['must be a valid color code'] } }
    })
    expect(await api(`${P}/labels`, { json: { name: 'x' } })).toMatchObject({ status: 400, body: { error: 'color is missing' } })
    gl.model.addIssue({ title: 'Drift', labels: ['brcloud drift'] })
    expect(((await api(`${P}/labels`)).body as Array<Record<string, unknown>>)[0]).toMatchObject({ name: 'brcloud drift', open_issues_count: 1 })
  })
})

describe('tokens and scopes', () => {
  test('no token or an unknown one: 401; Bearer and private_token are taken as PRIVATE-TOKEN is', async () => {
    expect(await api(P, { token: null })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } })
    expect(await api(P, { token: 'glpat-nope' })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } })
    expect((await api(P, { token: null, headers: { authorization: `Bearer ${DEFAULT_GITLAB_TOKEN}` } })).status).toBe(200)
    expect((await api(`${P}?private_token=${DEFAULT_GITLAB_TOKEN}`, { token: null })).status).toBe(200)
    expect(gl.calls.map((c) => c.token)).toEqual([undefined, 'glpat-nope', DEFAULT_GITLAB_TOKEN, DEFAULT_GITLAB_TOKEN])
  })

  test('read_api reads and is refused every write with 403 insufficient_scope; a Reporter is refused deployments', async () => {
    expect((await api(`${P}/deployments`, { token: READ_API })).status).toBe(200)
    const refused = {
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope: 'api'
    }
    const deploy = { environment: 'production', sha: m3, ref: 'main', tag: false, status: 'running' }
    expect(await api(`${P}/deployments`, { token: READ_API, json: deploy })).toMatchObject({ status: 403, body: refused })
    expect(await api(`${P}/issues`, { token: READ_API, json: { title: 'x' } })).toMatchObject({ status: 403, body: refused })
    expect(await api(`${P}/labels`, { token: READ_API, json: { name: 'x', color: '#fff' } })).toMatchObject({ status: 403, body: refused })
    expect(await api(`${P}/deployments`, { token: REPORTER, json: deploy })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } })
    expect((await api(`${P}/issues`, { token: REPORTER, json: { title: 'a reporter may open issues' } })).status).toBe(201)
    expect(gl.model.deployments).toEqual([])
  })
})

describe('faults and modes', () => {
  test('a status after letting calls through, for a number of calls; nothing is carried out', async () => {
    gl.fail('create-deployment', { status: 502, skip: 1, times: 2 })
    const deploy = { environment: 'production', sha: m3, ref: 'main', tag: false, status: 'running' }
    const statuses: number[] = []
    for (let i = 0; i < 4; i++) statuses.push((await api(`${P}/deployments`, { json: deploy })).status)
    expect(statuses).toEqual([201, 502, 502, 201])
    expect(gl.model.deployments).toHaveLength(2)
    expect(gl.calls.map((c) => [c.route, c.status])).toEqual([
      ['create-deployment', 201],
      ['create-deployment', 502],
      ['create-deployment', 502],
      ['create-deployment', 201]
    ])
    gl.fail('list-tags', { status: 500, body: { message: 'boom' }, headers: { 'retry-after': '3' } })
    const failed = await api(`${P}/repository/tags`, { token: 'glpat-nope' }) // a fault answers before the token is looked at
    expect([failed.status, failed.body, failed.headers.get('retry-after')]).toEqual([500, { message: 'boom' }, '3'])
  })

  test('after carrying the call out: the deployment exists, the client saw a 500', async () => {
    gl.fail('create-deployment', { status: 500, afterApply: true })
    const answer = await api(`${P}/deployments`, { json: { environment: 'production', sha: m3, ref: 'main', tag: false, status: 'running' } })
    expect(answer).toMatchObject({ status: 500, body: { message: '500 Internal Server Error' } })
    expect(gl.model.deployments.map((d) => d.status)).toEqual(['running'])
  })

  test('a hang: no answer until the client gives up; a drop: the connection closes without one', async () => {
    gl.fail('get-project', { kind: 'hang' })
    const abort = new AbortController()
    const hung = api(P, { signal: abort.signal })
    while (gl.calls.length === 0) await new Promise((next) => setImmediate(next))
    abort.abort()
    await expect(hung).rejects.toThrow(/abort/i)
    expect(gl.calls[0]).toMatchObject({ route: 'get-project', status: 0 })
    gl.fail('get-project', { kind: 'drop' })
    await expect(api(P)).rejects.toThrow(/fetch failed/)
    expect(gl.calls[1]).toMatchObject({ route: 'get-project', status: 0 })
    expect((await api(P)).status).toBe(200)
  })

  test('refusing: every call 503, or 429 as GitLab throttles (Retry later, Retry-After, nothing remaining); then answered again', async () => {
    gl.refuse({ status: 503 })
    expect(await api(P)).toMatchObject({ status: 503, body: { message: '503 Service Unavailable' } })
    expect((await api(`${P}/deployments`, { json: {} })).status).toBe(503)
    gl.refuse({ status: 429, retryAfterSeconds: 30 })
    const throttled = await api(P)
    expect([throttled.status, throttled.body, throttled.headers.get('retry-after'), throttled.headers.get('ratelimit-remaining')]).toEqual([
      429,
      'Retry later\n',
      '30',
      '0'
    ])
    expect(throttled.headers.get('ratelimit-reset')).toBe(String(Date.parse('2026-01-02T03:05:00Z') / 1000))
    gl.refuse(undefined)
    expect((await api(P)).status).toBe(200)
    expect(gl.calls.map((c) => [c.route, c.status])).toEqual([
      ['get-project', 503],
      ['create-deployment', 503],
      ['get-project', 429],
      ['get-project', 200]
    ])
  })

  test('the rate limit: RateLimit-* on every answer; past the limit a 429 until the minute turns', async () => {
    const first = await api(P)
    expect(['ratelimit-limit', 'ratelimit-observed', 'ratelimit-remaining'].map((h) => first.headers.get(h))).toEqual(['50', '1', '49'])
    for (let i = 1; i < 50; i++) await api(`${P}/repository/tags`)
    const over = await api(P)
    expect([over.status, over.body, over.headers.get('ratelimit-remaining'), over.headers.get('retry-after')]).toEqual([429, 'Retry later\n', '0', '55'])
    clock += 60_000
    expect((await api(P)).status).toBe(200)
  })

  test('slow: every answer waits as long as the mode says, and comes when the wait ends', async () => {
    gl.slow(250)
    let answered = false
    const late = api(P).then((reply) => {
      answered = true
      return reply
    })
    while (waits.length === 0) await new Promise((next) => setImmediate(next))
    expect(waits.map((w) => w.ms)).toEqual([250])
    expect(answered).toBe(false)
    waits[0]?.release()
    expect((await late).status).toBe(200)
    gl.slow(0)
    expect((await api(P)).status).toBe(200)
    expect(waits).toHaveLength(1)
  })
})

test('in-process (createGitLabStandIn): the same handling without a socket, as a simulation drives it', async () => {
  const { Readable } = await import('node:stream')
  const { EventEmitter } = await import('node:events')
  const core = createGitLabStandIn({ now: () => clock })
  core.setBase('http://gitlab.sim')
  seedSampleHistory(core.model, clock)
  const res = Object.assign(new EventEmitter(), {
    status: 0,
    headers: {} as Record<string, string>,
    text: '',
    destroyed: false,
    writeHead(status: number, headers: Record<string, string>) {
      Object.assign(this, { status, headers })
    },
    end(text: string) {
      this.text = text
    }
  })
  const req = Object.assign(Readable.from([]), {
    method: 'GET',
    url: `/api/v4${P}/repository/merge_base?refs[]=main&refs[]=feature%2Fsearch`,
    headers: { 'private-token': DEFAULT_GITLAB_TOKEN }
  })
  await core.handle(req as never, res as never)
  expect([res.status, JSON.parse(res.text).id]).toEqual([200, m2])
})

describe('the emulator with --gitlab', () => {
  test('flags: --gitlab and --gitlab-port (default 4082); not with --github', () => {
    expect(parseCli([])).not.toHaveProperty('gitlab')
    expect(parseCli(['--gitlab'])).toMatchObject({ gitlab: { port: 4082 }, options: { port: 4080 } })
    expect(parseCli(['--gitlab-port', '0'])).toMatchObject({ gitlab: { port: 0 } })
    expect(() => parseCli(['--gitlab-port', 'x'])).toThrow(/--gitlab-port needs a whole number/)
    expect(() => parseCli(['--github', '--gitlab'])).toThrow('--github and --gitlab: the emulator stands in for one code host per run')
    expect(() => parseCli(['--github-port', '0', '--gitlab-port', '0'])).toThrow(/one code host per run/)
  })

  test('the banner prints what to export for brcloud; the variables work as printed', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/emulator/cli.ts', '--port', '0', '--gitlab-port', '0', '--quiet'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, BRCLOUD_EMULATOR_FACE: 'brcloud' }
    })
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve))
    try {
      let out = ''
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString()
          if (out.includes('Press Ctrl+C')) resolve()
        })
        void closed.then(() => reject(new Error(`the emulator ended before its banner:\n${out}`)))
      })
      const exported = (name: string): string => new RegExp(`^  export ${name}=(\\S+)$`, 'm').exec(out)?.[1] ?? ''
      const url = exported('BRCLOUD_GITLAB_URL')
      const project = exported('BRCLOUD_GITLAB_PROJECT')
      const token = exported('BRCLOUD_GITLAB_TOKEN')
      const tip = exported('BRCLOUD_COMMIT')
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:(?!4082$)\d+$/)
      expect([project, token, tip]).toEqual(['acme/platform/site', DEFAULT_GITLAB_TOKEN, m3])
      expect(out).toMatch(
        /^GitLab API stand-in listening on http:\/\/127\.0\.0\.1:\d+ \(REST API v4 at http:\/\/127\.0\.0\.1:\d+\/api\/v4\): project acme\/platform\/site /m
      )
      expect(out).toContain(`  after a deploy, export BRCLOUD_COMMIT=${m2} (an older commit) to see the deploy order refuse it`)
      expect(out).toContain(`  or export BRCLOUD_COMMIT=${f2} (the tip of feature/search) to deploy a commit of another line (diverged)`)
      expect(out).toContain('  track main, feature/search, or v* (the newest tag, v1.1.0)')
      expect(out).not.toContain('GitHub API stand-in')
      expect(out).not.toContain('npm run build:cli') // started as brcloud emulator: brcloud is on the path
      // What the printed variables reach: the project, and the older commit behind the tip.
      const headers = { 'PRIVATE-TOKEN': token }
      const base = `${url}/api/v4/projects/${encodeURIComponent(project)}`
      expect(((await (await fetch(base, { headers })).json()) as { default_branch: string }).default_branch).toBe('main')
      const behind = (await (await fetch(`${base}/repository/compare?from=${tip}&to=${m2}`, { headers })).json()) as { commits: unknown[] }
      expect(behind.commits).toEqual([])
      const base2 = (await (await fetch(`${base}/repository/merge_base?refs[]=${tip}&refs[]=${f2}`, { headers })).json()) as { id: string }
      expect(base2.id).toBe(m2)
    } finally {
      child.kill('SIGTERM')
      await closed
    }
  })
})
