// The GitHub API stand-in, driven by the client the action uses (@actions/github's Octokit) and by
// plain fetch where headers matter.
import { DEFAULT_GITHUB_TOKEN, fakeSha, startGitHubStandIn, type GitHubStandIn, type GitHubStandInOptions } from '../src/emulator/github/server.js'

const READ_ONLY = 'ghs_readDeploymentsOnly'
const NO_CONTENTS = 'ghs_noContents'
const NO_DEPLOYMENTS = 'ghs_noDeployments'
const ISSUES_READ = 'ghs_issuesRead'
const NO_PUSH = 'ghs_noPushAccess'
const tokens: GitHubStandInOptions['tokens'] = {
  [DEFAULT_GITHUB_TOKEN]: { deployments: 'write', contents: 'read', issues: 'write' },
  [ISSUES_READ]: { deployments: 'none', contents: 'none', issues: 'read' },
  [NO_PUSH]: { deployments: 'none', contents: 'none', issues: 'write', setsLabels: false, login: 'octocat' },
  [READ_ONLY]: { deployments: 'read', contents: 'read', login: 'octocat' },
  [NO_CONTENTS]: { deployments: 'write', contents: 'none' },
  [NO_DEPLOYMENTS]: { deployments: 'none', contents: 'read' }
}

let clock = Date.parse('2026-01-02T03:04:05.678Z')
let standIn: GitHubStandIn
beforeEach(async () => {
  standIn = await startGitHubStandIn({ tokens, now: () => clock })
})
afterEach(async () => {
  await standIn.close()
})

async function octokit(token = DEFAULT_GITHUB_TOKEN) {
  const github = await import('@actions/github')
  return github.getOctokit(token, { baseUrl: standIn.url })
}

/** The status and body of the error a call threw; status 0 when it answered. */
async function failure(call: Promise<unknown>): Promise<{ status: number; data: unknown }> {
  try {
    await call
    return { status: 0, data: undefined }
  } catch (error) {
    const { status, response } = error as { status: number; response?: { data: unknown } }
    return { status, data: response?.data }
  }
}

async function statusOf(call: Promise<unknown>): Promise<number> {
  return (await failure(call)).status
}

type Octokit = Awaited<ReturnType<typeof octokit>>

/** A deployment through the API; its id (GitHub's 202 auto-merge answer has none). */
async function deploy(gh: Octokit, ref: string, environment: string): Promise<number> {
  const { data } = await gh.rest.repos.createDeployment({ ...repo, ref, environment })
  if (!('id' in data)) throw new Error(`no deployment: ${JSON.stringify(data)}`)
  return data.id
}

const repo = { owner: 'acme', repo: 'site' }

describe('deployments', () => {
  test('create answers 201 with the deployment, its ref resolved to the full sha (branch, sha, short sha)', async () => {
    const [a] = standIn.model.linear('main', [fakeSha('a')])
    const gh = await octokit()
    const byBranch = await gh.rest.repos.createDeployment({
      ...repo,
      ref: 'main',
      environment: 'development',
      description: 'Deploy',
      auto_merge: false,
      required_contexts: []
    })
    expect(byBranch.status).toBe(201)
    expect(byBranch.data).toMatchObject({
      id: 1000,
      sha: a,
      ref: 'main',
      task: 'deploy',
      payload: {},
      environment: 'development',
      original_environment: 'development',
      description: 'Deploy',
      creator: { login: 'github-actions[bot]', type: 'Bot' },
      created_at: '2026-01-02T03:04:05Z',
      updated_at: '2026-01-02T03:04:05Z',
      statuses_url: `${standIn.url}/repos/acme/site/deployments/1000/statuses`,
      repository_url: `${standIn.url}/repos/acme/site`,
      transient_environment: false,
      production_environment: false
    })
    const bySha = await gh.rest.repos.createDeployment({ ...repo, ref: a as string, payload: '{"run":7}' })
    expect(bySha.data).toMatchObject({ id: 1001, sha: a, environment: 'production', production_environment: true, payload: '{"run":7}' })
    const byShort = await gh.rest.repos.createDeployment({ ...repo, ref: (a as string).slice(0, 7), payload: { run: 8 }, task: 'deploy:migrations' })
    expect(byShort.data).toMatchObject({ id: 1002, sha: a, ref: (a as string).slice(0, 7), payload: { run: 8 }, task: 'deploy:migrations' })
    expect(standIn.calls.map((c) => [c.method, c.route, c.status])).toEqual([
      ['POST', 'create-deployment', 201],
      ['POST', 'create-deployment', 201],
      ['POST', 'create-deployment', 201]
    ])
    expect(standIn.calls[0]?.json).toMatchObject({ ref: 'main', auto_merge: false, required_contexts: [] })
    expect(standIn.calls[0]?.auth).toBe(`token ${DEFAULT_GITHUB_TOKEN}`)
  })

  test('an unknown ref answers 422 No ref found; get of an unknown id answers 404', async () => {
    standIn.model.linear('main', [fakeSha('a')])
    const gh = await octokit()
    expect(await failure(gh.rest.repos.createDeployment({ ...repo, ref: 'nope' }))).toEqual({
      status: 422,
      data: { message: 'No ref found for: nope', documentation_url: 'https://docs.github.com/rest' }
    })
    expect(await statusOf(gh.rest.repos.getDeployment({ ...repo, deployment_id: 4242 }))).toBe(404)
    expect(await statusOf(gh.rest.repos.createDeployment({ ...repo, ref: fakeSha('never pushed') }))).toBe(422)
  })

  test('list filters by environment, sha and ref, newest first; get answers one', async () => {
    const [a, b] = standIn.model.linear('main', [fakeSha('a'), fakeSha('b')])
    const gh = await octokit()
    for (const [ref, environment] of [
      [a, 'development'],
      [b, 'development'],
      [b, 'production'],
      ['main', 'development']
    ] as const) {
      await gh.rest.repos.createDeployment({ ...repo, ref: ref as string, environment })
    }
    const dev = await gh.rest.repos.listDeployments({ ...repo, environment: 'development' })
    expect(dev.data.map((d) => d.id)).toEqual([1003, 1001, 1000])
    expect(dev.headers.link).toBeUndefined()
    const ofB = await gh.rest.repos.listDeployments({ ...repo, sha: b as string })
    expect(ofB.data.map((d) => d.id)).toEqual([1003, 1002, 1001])
    expect((await gh.rest.repos.listDeployments({ ...repo, ref: 'main' })).data.map((d) => d.id)).toEqual([1003])
    expect((await gh.rest.repos.getDeployment({ ...repo, deployment_id: 1002 })).data).toMatchObject({ id: 1002, environment: 'production', sha: b })
    // a read-only token lists; it cannot create
    const reader = await octokit(READ_ONLY)
    expect((await reader.rest.repos.listDeployments(repo)).data).toHaveLength(4)
    expect(await statusOf(reader.rest.repos.createDeployment({ ...repo, ref: 'main' }))).toBe(403)
  })

  test('pagination over 150 deployments: the Link header as GitHub writes it, and octokit.paginate walks it', async () => {
    const [a] = standIn.model.linear('main', [fakeSha('a')])
    for (let i = 0; i < 150; i++) standIn.model.addDeployment({ ref: a as string, environment: i % 2 === 0 ? 'development' : 'staging' })
    const gh = await octokit()
    const all = await gh.paginate(gh.rest.repos.listDeployments, { ...repo, per_page: 100 })
    expect(all).toHaveLength(150)
    expect(all[0]?.id).toBe(1149)
    expect(all.at(-1)?.id).toBe(1000)
    const dev = await gh.paginate(gh.rest.repos.listDeployments, { ...repo, environment: 'development' })
    expect(dev).toHaveLength(75)
    expect(standIn.calls.filter((c) => c.query.get('environment') === 'development').map((c) => c.query.get('page'))).toEqual([null, '2', '3'])

    const second = await fetch(`${standIn.url}/repos/acme/site/deployments?environment=development&per_page=30&page=2`, {
      headers: { authorization: `Bearer ${DEFAULT_GITHUB_TOKEN}` }
    })
    const url = (page: number): string => `${standIn.url}/repos/acme/site/deployments?environment=development&per_page=30&page=${page}`
    expect(second.headers.get('link')).toBe(`<${url(1)}>; rel="prev", <${url(3)}>; rel="next", <${url(3)}>; rel="last", <${url(1)}>; rel="first"`)
    expect(((await second.json()) as unknown[]).length).toBe(30)
    const first = await fetch(url(1), { headers: { authorization: `token ${DEFAULT_GITHUB_TOKEN}` } })
    expect(first.headers.get('link')).toBe(`<${url(2)}>; rel="next", <${url(3)}>; rel="last"`)
    const last = await fetch(url(3), { headers: { authorization: `token ${DEFAULT_GITHUB_TOKEN}` } })
    expect(last.headers.get('link')).toBe(`<${url(2)}>; rel="prev", <${url(1)}>; rel="first"`)
    expect(((await last.json()) as unknown[]).length).toBe(15)
  })
})

describe('tags', () => {
  test("listed as GitHub's List repository tags gives them, paged with the Link header; contents: read needed", async () => {
    const [a] = standIn.model.linear('main', [fakeSha('a')]) as [string]
    for (let i = 1; i <= 120; i++) standIn.model.tag(`v1.${i}.0`, a)
    const gh = await octokit()
    const all = await gh.paginate(gh.rest.repos.listTags, { ...repo, per_page: 100 })
    expect(all).toHaveLength(120)
    expect(all[0]).toEqual({
      name: 'v1.120.0',
      commit: { sha: a, url: `${standIn.url}/repos/acme/site/commits/${a}` },
      zipball_url: `${standIn.url}/repos/acme/site/zipball/refs/tags/v1.120.0`,
      tarball_url: `${standIn.url}/repos/acme/site/tarball/refs/tags/v1.120.0`,
      node_id: expect.any(String)
    })
    expect(standIn.calls.filter((c) => c.route === 'list-tags').map((c) => c.query.get('page'))).toEqual([null, '2'])
    const page = await fetch(`${standIn.url}/repos/acme/site/tags?per_page=100`, { headers: { authorization: `token ${DEFAULT_GITHUB_TOKEN}` } })
    const url = (n: number): string => `${standIn.url}/repos/acme/site/tags?per_page=100&page=${n}`
    expect(page.headers.get('link')).toBe(`<${url(2)}>; rel="next", <${url(2)}>; rel="last"`)
    expect(await statusOf((await octokit(NO_CONTENTS)).rest.repos.listTags(repo))).toBe(403)
    expect(await statusOf(gh.request('POST /repos/{owner}/{repo}/tags', repo))).toBe(404)
  })

  test('an annotated tag: listed with the commit it points to, resolved by its name and by its own object sha; a lightweight one beside it', async () => {
    const [a, b] = standIn.model.linear('main', [fakeSha('a'), fakeSha('b')]) as [string, string]
    standIn.model.tag('v1.0.0', a)
    const object = standIn.model.annotatedTag('v1.1.0', b, 'Release 1.1.0')
    expect(object).toMatch(/^[0-9a-f]{40}$/)
    expect(object).not.toBe(b)
    expect(standIn.model.tagObject('v1.1.0')).toEqual({ sha: object, name: 'v1.1.0', commit: b, message: 'Release 1.1.0' })
    expect(standIn.model.tagObject('v1.0.0')).toBeUndefined()
    const gh = await octokit()
    const { data } = await gh.rest.repos.listTags(repo)
    expect(data.map((t) => [t.name, t.commit.sha])).toEqual([
      ['v1.1.0', b],
      ['v1.0.0', a]
    ])
    const compared = await gh.rest.repos.compareCommitsWithBasehead({ ...repo, basehead: 'v1.0.0...v1.1.0' })
    expect(compared.data).toMatchObject({ status: 'ahead', ahead_by: 1 })
    expect((await gh.rest.repos.compareCommitsWithBasehead({ ...repo, basehead: `${object}...main` })).data.status).toBe('identical')
  })
})

describe('the sample history of `--github`: two lines and tags, so diverged and tag tracking can be tried by hand', () => {
  test('main of three commits, a branch off its second with two, a lightweight and an annotated tag', async () => {
    const { seedSampleHistory } = await import('../src/emulator/github/server.js')
    const history = seedSampleHistory(standIn.model)
    expect(history.main).toEqual(['sample-1', 'sample-2', 'sample-3'].map(fakeSha))
    expect(history.branch).toEqual({ name: 'feature/search', commits: ['sample-feature-1', 'sample-feature-2'].map(fakeSha) })
    expect(history.tags).toEqual([
      { name: 'v1.0.0', commit: history.main[0], annotated: false },
      { name: 'v1.1.0', commit: history.main[1], annotated: true }
    ])
    const gh = await octokit()
    const compare = async (basehead: string) => (await gh.rest.repos.compareCommitsWithBasehead({ ...repo, basehead })).data
    expect(await compare(`main...${history.branch.commits[1]}`)).toMatchObject({ status: 'diverged', ahead_by: 2, behind_by: 1 })
    expect(await compare(`feature/search...${history.main[2]}`)).toMatchObject({ status: 'diverged', ahead_by: 1, behind_by: 2 })
    expect(await compare(`v1.1.0...${history.main[2]}`)).toMatchObject({ status: 'ahead', ahead_by: 1 })
  })
})

describe('statuses', () => {
  test('created as GitHub answers them and listed newest first', async () => {
    standIn.model.linear('main', [fakeSha('a')])
    const gh = await octokit()
    const d = { id: await deploy(gh, 'main', 'development') }
    const logUrl = 'https://github.com/acme/site/actions/runs/7'
    const progress = await gh.rest.repos.createDeploymentStatus({
      ...repo,
      deployment_id: d.id,
      state: 'in_progress',
      description: 'Deploying',
      log_url: logUrl
    })
    expect(progress.status).toBe(201)
    expect(progress.data).toMatchObject({
      id: 5000,
      state: 'in_progress',
      description: 'Deploying',
      environment: 'development',
      log_url: logUrl,
      target_url: logUrl,
      environment_url: '',
      creator: { login: 'github-actions[bot]' },
      deployment_url: `${standIn.url}/repos/acme/site/deployments/${d.id}`,
      repository_url: `${standIn.url}/repos/acme/site`
    })
    clock += 60_000
    await gh.rest.repos.createDeploymentStatus({ ...repo, deployment_id: d.id, state: 'success', environment_url: 'https://site.example' })
    const list = await gh.rest.repos.listDeploymentStatuses({ ...repo, deployment_id: d.id })
    expect(list.data.map((s) => [s.id, s.state])).toEqual([
      [5001, 'success'],
      [5000, 'in_progress']
    ])
    expect((await gh.rest.repos.getDeployment({ ...repo, deployment_id: d.id })).data.updated_at).toBe('2026-01-02T03:05:05Z')
  })

  test('a description over 140 characters answers 422 and records nothing; 140 characters pass, counted as characters, not UTF-16 units', async () => {
    standIn.model.linear('main', [fakeSha('a')])
    const d = standIn.model.addDeployment({ ref: 'main' })
    const post = (description: string) =>
      fetch(`${standIn.url}/repos/acme/site/deployments/${d.id}/statuses`, {
        method: 'POST',
        headers: { authorization: `token ${DEFAULT_GITHUB_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ state: 'success', description })
      })
    const long = await post('x'.repeat(141))
    expect(long.status).toBe(422)
    expect(await long.json()).toEqual({
      message: 'Validation Failed',
      errors: [{ resource: 'DeploymentStatus', code: 'custom', field: 'description', message: 'description is too long (maximum is 140 characters)' }],
      documentation_url: 'https://docs.github.com/rest'
    })
    expect(standIn.model.statuses(d.id)).toEqual([])
    expect((await post('x'.repeat(140))).status).toBe(201)
    expect((await post('😀'.repeat(140))).status).toBe(201)
    expect((await post('😀'.repeat(141))).status).toBe(422)
  })

  test('an unknown state answers 422, an unknown deployment 404', async () => {
    standIn.model.linear('main', [fakeSha('a')])
    const d = standIn.model.addDeployment({ ref: 'main' })
    const res = await fetch(`${standIn.url}/repos/acme/site/deployments/${d.id}/statuses`, {
      method: 'POST',
      headers: { authorization: `token ${DEFAULT_GITHUB_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'done' })
    })
    expect(res.status).toBe(422)
    expect(((await res.json()) as { message: string }).message).toBe('Validation Failed')
    const gh = await octokit()
    expect(await statusOf(gh.rest.repos.createDeploymentStatus({ ...repo, deployment_id: 999, state: 'success' }))).toBe(404)
    expect(standIn.model.statuses(d.id)).toEqual([])
  })

  test('auto_inactive: a success inactivates prior successful non-transient, non-production deployments of the environment', async () => {
    const [a] = standIn.model.linear('main', [fakeSha('a')])
    const m = standIn.model
    const earlier = m.addDeployment({ ref: a as string, environment: 'development' }) // another run's, successful
    m.addStatus(earlier.id, { state: 'success', log_url: 'https://github.com/acme/site/actions/runs/1' })
    const failed = m.addDeployment({ ref: a as string, environment: 'development' })
    m.addStatus(failed.id, { state: 'failure' })
    const transient = m.addDeployment({ ref: a as string, environment: 'development', transient_environment: true })
    m.addStatus(transient.id, { state: 'success' })
    const otherEnv = m.addDeployment({ ref: a as string, environment: 'staging' })
    m.addStatus(otherEnv.id, { state: 'success' })
    const prod = m.addDeployment({ ref: a as string, environment: 'production' })
    m.addStatus(prod.id, { state: 'success' })
    const gh = await octokit()
    const d = { id: await deploy(gh, 'main', 'development') }
    await gh.rest.repos.createDeploymentStatus({ ...repo, deployment_id: d.id, state: 'success' })
    const latest = (id: number): string | undefined => m.statuses(id)[0]?.state
    expect([earlier, failed, transient, otherEnv, prod].map((x) => latest(x.id))).toEqual(['inactive', 'failure', 'success', 'success', 'success'])
    expect(latest(d.id)).toBe('success')

    // auto_inactive false leaves the prior one; production only with the flash-preview media type
    const again = await deploy(gh, 'main', 'development')
    await gh.rest.repos.createDeploymentStatus({ ...repo, deployment_id: again, state: 'success', auto_inactive: false })
    expect(latest(d.id)).toBe('success')
    const prod2 = await deploy(gh, 'main', 'production')
    await gh.rest.repos.createDeploymentStatus({ ...repo, deployment_id: prod2, state: 'success' })
    expect(latest(prod.id)).toBe('success')
    const prod3 = await deploy(gh, 'main', 'production')
    await gh.rest.repos.createDeploymentStatus({
      ...repo,
      deployment_id: prod3,
      state: 'success',
      headers: { accept: 'application/vnd.github.flash-preview+json' }
    })
    expect([prod.id, prod2].map(latest)).toEqual(['inactive', 'inactive'])
  })
})

describe('compare', () => {
  // main: r - b1 - b2 ; feature: b1 - f1 - f2 ; lone: an unrelated root
  function graph() {
    const m = standIn.model
    const [r, b1] = m.linear('main', [fakeSha('r'), fakeSha('b1')])
    m.branch('feature', b1 as string)
    const [f1, f2] = m.linear('feature', [fakeSha('f1'), fakeSha('f2')])
    const [b2] = m.linear('main', [fakeSha('b2')])
    const lone = m.commit(fakeSha('lone'))
    return { r: r as string, b1: b1 as string, b2: b2 as string, f1: f1 as string, f2: f2 as string, lone }
  }

  test('ahead, behind, identical and diverged, with branch names, full and short shas', async () => {
    const { r, b1, b2, f1, f2 } = graph()
    const gh = await octokit()
    const ahead = await gh.rest.repos.compareCommitsWithBasehead({ ...repo, basehead: `${r}...${f2.slice(0, 7)}` })
    expect(ahead.data).toMatchObject({ status: 'ahead', ahead_by: 3, behind_by: 0, total_commits: 3, files: [] })
    expect(ahead.data.base_commit.sha).toBe(r)
    expect(ahead.data.merge_base_commit.sha).toBe(r)
    expect(ahead.data.commits.map((c) => c.sha)).toEqual([b1, f1, f2])
    expect(ahead.data.commits[1]?.parents.map((p) => p.sha)).toEqual([b1])

    const behind = await gh.rest.repos.compareCommitsWithBasehead({ ...repo, basehead: `main...${b1}` })
    expect(behind.data).toMatchObject({ status: 'behind', ahead_by: 0, behind_by: 1, total_commits: 0, commits: [] })

    const identical = await gh.rest.repos.compareCommitsWithBasehead({ ...repo, basehead: `${b2.slice(0, 8)}...main` })
    expect(identical.data).toMatchObject({ status: 'identical', ahead_by: 0, behind_by: 0 })

    const diverged = await gh.rest.repos.compareCommitsWithBasehead({ ...repo, basehead: 'main...feature' })
    expect(diverged.data).toMatchObject({ status: 'diverged', ahead_by: 2, behind_by: 1 })
    expect(diverged.data.merge_base_commit.sha).toBe(b1)
    expect(diverged.data.commits.map((c) => c.sha)).toEqual([f1, f2])
    expect(diverged.data.html_url).toBe('https://github.com/acme/site/compare/main...feature')
  })

  test('an encoded branch name with a slash, and commits paginated when asked', async () => {
    const m = standIn.model
    m.linear('main', [fakeSha('root')])
    m.branch('feature/x', m.branchTip('main') as string)
    const shas = m.linear('feature/x', [fakeSha('x1'), fakeSha('x2'), fakeSha('x3')])
    const gh = await octokit()
    const page2 = await gh.rest.repos.compareCommitsWithBasehead({ ...repo, basehead: 'main...feature/x', per_page: 2, page: 2 })
    expect(page2.data.commits.map((c) => c.sha)).toEqual([shas[2]])
    expect(page2.data.total_commits).toBe(3)
    expect(page2.headers.link).toContain('rel="prev"')
    expect(standIn.calls.at(-1)?.path).toBe('/repos/acme/site/compare/main...feature%2Fx')
  })

  test('an unknown commit answers 404 Not Found; unrelated histories 404 No common ancestor', async () => {
    const { f2, lone } = graph()
    const gh = await octokit()
    expect(await failure(gh.rest.repos.compareCommitsWithBasehead({ ...repo, basehead: `${fakeSha('force-pushed away')}...main` }))).toEqual({
      status: 404,
      data: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' }
    })
    const res = await fetch(`${standIn.url}/repos/acme/site/compare/${lone}...${f2}`, { headers: { authorization: `token ${DEFAULT_GITHUB_TOKEN}` } })
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ message: `No common ancestor between ${lone} and ${f2}.`, documentation_url: 'https://docs.github.com/rest' })
  })
})

describe('issues, comments and labels', () => {
  /** The stand-in's clock as GitHub writes times (other tests move it). */
  const seconds = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')

  test('create answers 201 with the issue; an unknown label is created; get answers it, an unknown number 404', async () => {
    const gh = await octokit()
    const created = await gh.rest.issues.create({ ...repo, title: 'Drift', body: 'text', labels: ['brcloud-drift', { name: 'ops' }] as never })
    expect(created.status).toBe(201)
    expect(created.data).toMatchObject({
      number: 1,
      title: 'Drift',
      body: 'text',
      state: 'open',
      state_reason: null,
      closed_at: null,
      comments: 0,
      user: { login: 'github-actions[bot]' },
      labels: [
        { name: 'brcloud-drift', color: 'ededed', default: false },
        { name: 'ops', color: 'ededed' }
      ],
      html_url: 'https://github.com/acme/site/issues/1',
      url: `${standIn.url}/repos/acme/site/issues/1`,
      created_at: seconds(clock)
    })
    expect(created.data).not.toHaveProperty('pull_request')
    expect(standIn.model.labels.map((l) => l.name)).toEqual(['brcloud-drift', 'ops'])
    expect((await gh.rest.issues.get({ ...repo, issue_number: 1 })).data.title).toBe('Drift')
    expect(await statusOf(gh.rest.issues.get({ ...repo, issue_number: 9 }))).toBe(404)
    expect(standIn.calls.map((c) => [c.method, c.route, c.status])).toEqual([
      ['POST', 'create-issue', 201],
      ['GET', 'get-issue', 200],
      ['GET', 'get-issue', 404]
    ])
    expect(standIn.calls[0]?.json).toEqual({ title: 'Drift', body: 'text', labels: ['brcloud-drift', { name: 'ops' }] })
  })

  test('no title answers 422; a token without push access has its labels dropped, silently', async () => {
    const res = await fetch(`${standIn.url}/repos/acme/site/issues`, {
      method: 'POST',
      headers: { authorization: `token ${DEFAULT_GITHUB_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'no title' })
    })
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({ message: 'Invalid request.\n\n"title" wasn\'t supplied.', documentation_url: 'https://docs.github.com/rest' })
    const gh = await octokit(NO_PUSH)
    const created = await gh.rest.issues.create({ ...repo, title: 'T', labels: ['brcloud-drift'] })
    expect(created.data).toMatchObject({ labels: [], user: { login: 'octocat' } })
    expect(standIn.model.labels).toEqual([])
  })

  test('list: open by default, filtered by every label named, pull requests among them, sorted, paged with the Link header', async () => {
    const m = standIn.model
    for (let i = 1; i <= 120; i++) m.addIssue({ title: `drift ${i}`, labels: ['brcloud-drift'] })
    m.addIssue({ title: 'a pull request', labels: ['brcloud-drift'], pullRequest: true })
    m.addIssue({ title: 'closed', labels: ['brcloud-drift'], state: 'closed' })
    m.addIssue({ title: 'other label', labels: ['ops'] })
    const gh = await octokit(ISSUES_READ)
    const first = await gh.rest.issues.listForRepo({ ...repo, labels: 'BRCLOUD-DRIFT', state: 'open', sort: 'created', direction: 'asc', per_page: 100 })
    expect(first.data).toHaveLength(100)
    expect(first.data[0]?.title).toBe('drift 1')
    expect(first.headers.link).toBe(
      [
        `<${standIn.url}/repos/acme/site/issues?labels=BRCLOUD-DRIFT&state=open&sort=created&direction=asc&per_page=100&page=2>; rel="next"`,
        `<${standIn.url}/repos/acme/site/issues?labels=BRCLOUD-DRIFT&state=open&sort=created&direction=asc&per_page=100&page=2>; rel="last"`
      ].join(', ')
    )
    const second = await gh.rest.issues.listForRepo({ ...repo, labels: 'brcloud-drift', direction: 'asc', per_page: 100, page: 2 })
    expect(second.data.map((i) => i.title)).toEqual([...Array.from({ length: 20 }, (_, i) => `drift ${101 + i}`), 'a pull request'])
    expect(second.data.at(-1)?.pull_request).toMatchObject({ html_url: 'https://github.com/acme/site/pull/121' })
    // Newest first by default; state=all includes the closed one; every label named must be on the issue.
    expect((await gh.rest.issues.listForRepo({ ...repo, per_page: 1 })).data[0]?.title).toBe('other label')
    expect((await gh.rest.issues.listForRepo({ ...repo, state: 'all', labels: 'brcloud-drift', per_page: 1 })).data[0]?.title).toBe('closed')
    expect((await gh.rest.issues.listForRepo({ ...repo, labels: 'brcloud-drift,ops' })).data).toEqual([])
    expect(await statusOf(gh.rest.issues.listForRepo({ ...repo, state: 'gone' as never }))).toBe(422)
    expect(standIn.calls[0]?.query.get('labels')).toBe('BRCLOUD-DRIFT')
  })

  test('update: title and body in place; closed with a reason, when and by whom; reopened; an unknown state 422', async () => {
    const issue = standIn.model.addIssue({ title: 'T', body: 'old' })
    const gh = await octokit()
    const edited = await gh.rest.issues.update({ ...repo, issue_number: issue.number, title: 'T2', body: 'new' })
    expect(edited.status).toBe(200)
    expect(edited.data).toMatchObject({ title: 'T2', body: 'new', state: 'open' })
    clock += 60_000
    const closed = await gh.rest.issues.update({ ...repo, issue_number: issue.number, state: 'closed', state_reason: 'completed' })
    expect(closed.data).toMatchObject({
      state: 'closed',
      state_reason: 'completed',
      closed_at: seconds(clock),
      closed_by: { login: 'github-actions[bot]' },
      body: 'new'
    })
    const reopened = await gh.rest.issues.update({ ...repo, issue_number: issue.number, state: 'open' })
    expect(reopened.data).toMatchObject({ state: 'open', state_reason: 'reopened', closed_at: null })
    // Closed as a duplicate, GitHub's third reason, then reopened again.
    const duplicate = await gh.request('PATCH /repos/{owner}/{repo}/issues/{issue_number}', {
      ...repo,
      issue_number: issue.number,
      state: 'closed',
      state_reason: 'duplicate'
    })
    expect(duplicate.data).toMatchObject({ state: 'closed', state_reason: 'duplicate' })
    await gh.rest.issues.update({ ...repo, issue_number: issue.number, state: 'open' })
    expect(await statusOf(gh.rest.issues.update({ ...repo, issue_number: issue.number, state: 'done' as never }))).toBe(422)
    expect(await statusOf(gh.rest.issues.update({ ...repo, issue_number: 99, body: 'x' }))).toBe(404)
    expect(standIn.calls.map((c) => c.json)).toEqual([
      { title: 'T2', body: 'new' },
      { state: 'closed', state_reason: 'completed' },
      { state: 'open' },
      { state: 'closed', state_reason: 'duplicate' },
      { state: 'open' },
      { state: 'done' },
      { body: 'x' }
    ])
  })

  test('comments: created with 201 and listed; no body answers 422', async () => {
    const issue = standIn.model.addIssue({ title: 'T' })
    const gh = await octokit()
    const comment = await gh.rest.issues.createComment({ ...repo, issue_number: issue.number, body: 'in sync again' })
    expect(comment.status).toBe(201)
    expect(comment.data).toMatchObject({
      body: 'in sync again',
      user: { login: 'github-actions[bot]' },
      issue_url: `${standIn.url}/repos/acme/site/issues/1`,
      html_url: expect.stringMatching(/^https:\/\/github\.com\/acme\/site\/issues\/1#issuecomment-\d+$/)
    })
    expect((await gh.rest.issues.listComments({ ...repo, issue_number: issue.number })).data.map((c) => c.body)).toEqual(['in sync again'])
    expect((await gh.rest.issues.get({ ...repo, issue_number: issue.number })).data.comments).toBe(1)
    expect(await statusOf(gh.rest.issues.createComment({ ...repo, issue_number: issue.number, body: undefined as never }))).toBe(422)
  })

  test('labels: get answers 404 until created (201), a name taken answers 422 already_exists; a bad color 422', async () => {
    const gh = await octokit()
    expect(await statusOf(gh.rest.issues.getLabel({ ...repo, name: 'brcloud drift' }))).toBe(404)
    const created = await gh.rest.issues.createLabel({ ...repo, name: 'brcloud drift', color: 'D93F0B', description: 'Drift' })
    expect(created.status).toBe(201)
    expect(created.data).toMatchObject({
      name: 'brcloud drift',
      color: 'd93f0b',
      description: 'Drift',
      url: `${standIn.url}/repos/acme/site/labels/brcloud%20drift`
    })
    expect((await gh.rest.issues.getLabel({ ...repo, name: 'BRCLOUD DRIFT' })).data.name).toBe('brcloud drift')
    expect(await failure(gh.rest.issues.createLabel({ ...repo, name: 'Brcloud Drift' }))).toEqual({
      status: 422,
      data: {
        message: 'Validation Failed',
        errors: [{ resource: 'Label', code: 'already_exists', field: 'name' }],
        documentation_url: 'https://docs.github.com/rest'
      }
    })
    expect(await statusOf(gh.rest.issues.createLabel({ ...repo, name: 'x', color: '#fff' }))).toBe(422)
    expect(standIn.calls[0]?.path).toBe('/repos/acme/site/labels/brcloud%20drift')
  })

  test('issues: read lists but cannot write (403); deployments: write alone cannot read issues', async () => {
    const reader = await octokit(ISSUES_READ)
    expect(await statusOf(reader.rest.issues.listForRepo(repo))).toBe(0)
    expect(await statusOf(reader.rest.issues.create({ ...repo, title: 'T' }))).toBe(403)
    expect(await statusOf(reader.rest.issues.createLabel({ ...repo, name: 'x' }))).toBe(403)
    const deployer = await octokit(NO_CONTENTS)
    expect(await statusOf(deployer.rest.issues.listForRepo(repo))).toBe(403)
    expect(standIn.model.issues).toEqual([])
  })
})

test("user objects carry every URL field of GitHub's simple-user: the creator of a Deployment, a status, an issue, a comment", async () => {
  standIn.model.linear('main', [fakeSha('a')])
  const gh = await octokit(READ_ONLY)
  const d = standIn.model.addDeployment({ ref: 'main', creator: 'octocat' })
  const user = (await gh.rest.repos.getDeployment({ ...repo, deployment_id: d.id })).data.creator as Record<string, unknown>
  const api = `${standIn.url}/users/octocat`
  expect(user).toEqual({
    login: 'octocat',
    id: expect.any(Number),
    node_id: expect.any(String),
    avatar_url: expect.stringMatching(/^https:\/\/avatars\.githubusercontent\.com\/u\/\d+\?v=4$/),
    gravatar_id: '',
    url: api,
    html_url: 'https://github.com/octocat',
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type: 'User',
    user_view_type: 'public',
    site_admin: false
  })
  // A bot: its page is its app's, its API address its own login, escaped.
  standIn.model.addStatus(d.id, { state: 'success' })
  const [status] = (await gh.rest.repos.listDeploymentStatuses({ ...repo, deployment_id: d.id })).data
  expect(status?.creator).toMatchObject({
    login: 'github-actions[bot]',
    type: 'Bot',
    html_url: 'https://github.com/apps/github-actions',
    url: `${standIn.url}/users/github-actions%5Bbot%5D`,
    repos_url: `${standIn.url}/users/github-actions%5Bbot%5D/repos`
  })
  const issue = standIn.model.addIssue({ title: 'T' })
  standIn.model.addComment(issue.number, 'c', 'octocat')
  const issues = await octokit()
  expect((await issues.rest.issues.get({ ...repo, issue_number: issue.number })).data.user).toMatchObject({ followers_url: expect.any(String) })
  expect((await issues.rest.issues.listComments({ ...repo, issue_number: issue.number })).data[0]?.user).toEqual({ ...user, id: expect.any(Number) })
})

describe('auth, headers and faults', () => {
  test('a bad or missing token answers 401 Bad credentials; GitHub headers on every answer', async () => {
    const res = await fetch(`${standIn.url}/repos/acme/site/deployments`, { headers: { authorization: 'token ghs_wrong' } })
    expect(res.status).toBe(401)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('x-github-request-id')).toMatch(/^[0-9A-F]{4}:[0-9A-F]{4}:[0-9A-F]{6}:[0-9A-F]{6}:[0-9A-F]{8}$/)
    expect(await res.json()).toEqual({ message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' })
    expect((await fetch(`${standIn.url}/repos/acme/site/deployments`)).status).toBe(401)
    const gh = await octokit('ghs_unknown')
    expect(await statusOf(gh.rest.repos.listDeployments(repo))).toBe(401)
    expect(standIn.calls.map((c) => c.status)).toEqual([401, 401, 401])
  })

  test('a token without the permission answers 403 Resource not accessible by integration', async () => {
    seedMain()
    const noContents = await fetch(`${standIn.url}/repos/acme/site/compare/main...main`, { headers: { authorization: `Bearer ${NO_CONTENTS}` } })
    expect(noContents.status).toBe(403)
    expect(await noContents.json()).toEqual({ message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest' })
    const gh = await octokit(NO_DEPLOYMENTS)
    expect(await statusOf(gh.rest.repos.listDeployments(repo))).toBe(403)
    expect(await statusOf(gh.rest.repos.compareCommitsWithBasehead({ ...repo, basehead: 'main...main' }))).toBe(0)
  })

  test('unknown paths and other repositories answer 404 Not Found', async () => {
    const gh = await octokit()
    expect(await statusOf(gh.request('GET /repos/{owner}/{repo}/environments', repo))).toBe(404)
    expect(await statusOf(gh.rest.repos.listDeployments({ owner: 'acme', repo: 'other' }))).toBe(404)
    expect(standIn.calls.map((c) => c.route)).toEqual(['unknown', 'list-deployments'])
  })

  test('a fault answers its status the given number of times, then the call goes through', async () => {
    seedMain()
    standIn.fail('create-deployment', { status: 500, times: 1 })
    const gh = await octokit()
    expect(await statusOf(gh.rest.repos.createDeployment({ ...repo, ref: 'main' }))).toBe(500)
    expect(standIn.model.deployments).toHaveLength(0)
    const ok = await gh.rest.repos.createDeployment({ ...repo, ref: 'main' })
    expect(ok.status).toBe(201)
    expect(standIn.calls.map((c) => [c.route, c.status])).toEqual([
      ['create-deployment', 500],
      ['create-deployment', 201]
    ])
  })

  test("a fault's headers are the answer's: a rate limit, as GitHub says it", async () => {
    standIn.fail('list-deployments', { status: 403, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1795507200' } })
    const res = await fetch(`${standIn.url}/repos/acme/site/deployments`, { headers: { authorization: `token ${DEFAULT_GITHUB_TOKEN}` } })
    expect([res.status, res.headers.get('x-ratelimit-remaining'), res.headers.get('x-ratelimit-reset')]).toEqual([403, '0', '1795507200'])
  })

  function seedMain(): void {
    standIn.model.linear('main', [fakeSha('a')])
  }
})
