// The deploy order's claims word for word (src/deploy/order.ts with github/evidence.ts): what it finds, says and
// refuses, against the GitHub stand-in over real HTTP (through @actions/github's octokit) and the platform's facts
// of a distribution as a scripted client gives them.
import { DEFAULT_GITHUB_TOKEN, fakeSha, startGitHubStandIn } from '../src/emulator/github/server.js'
import { runOfAcmeSite } from './github-run.js'

const standIn = await startGitHubStandIn({ owner: 'acme', repo: 'site' })
const [C1, C2, C3] = standIn.model.linear('main', [fakeSha('o1'), fakeSha('o2'), fakeSha('o3')]) as [string, string, string]
const B1 = standIn.model.commit(fakeSha('b1'), [C1])
runOfAcmeSite(standIn.url, C2, { GITHUB_RUN_ID: '77' })
const { GitHubApi } = await import('../src/github/client.js')
const { DeployOrder, OrderRefused, evidence } = await import('../src/deploy/order.js')
type OrderCheck = import('../src/deploy/order.js').OrderCheck
type OrderOptions = import('../src/deploy/order.js').OrderOptions
type CloudClient = import('../src/cloud/client.js').CloudClient

const API = 'https://api.acme.example'
const s = (sha: string): string => sha.slice(0, 7)

afterAll(async () => {
  await standIn.close()
})

interface Said {
  log: string[]
  warn: string[]
  notice: string[]
  records: OrderCheck[]
}

/** A distribution the platform knows: its name and who uploaded it. */
const stored: Record<string, { name: string; createdBy?: string; createdAt?: string }> = {}
const client = {
  getDistribution: async (id: string) => {
    const d = stored[id]
    if (d === undefined) throw new Error(`no distribution ${id}`)
    return { id, ...d }
  }
} as unknown as CloudClient

async function order(
  over: Partial<OrderOptions> = {},
  token: string | null = DEFAULT_GITHUB_TOKEN
): Promise<{ order: InstanceType<typeof DeployOrder>; said: Said }> {
  const said: Said = { log: [], warn: [], notice: [], records: [] }
  const github = token === null ? undefined : await GitHubApi.open(token)
  const o = new DeployOrder({
    host: github,
    client,
    apiUrl: API,
    environment: 'production',
    allowOlder: false,
    allowUnchecked: false,
    promoted: undefined,
    dryRun: false,
    log: (l) => said.log.push(l),
    warn: (l) => said.warn.push(l),
    notice: (l) => said.notice.push(l),
    record: (c) => said.records.push(c),
    ...over
  })
  return { order: o, said }
}

/** A GitHub Deployment this action made: it recorded `distributionId` at `sha`, with a status naming its run. */
function recorded(environment: string, distributionId: string, sha: string, state = 'success', extra: Record<string, unknown> = {}): number {
  const d = standIn.model.addDeployment({ ref: sha, environment, payload: { distributionId, apiUrl: API, ...extra } })
  standIn.model.addStatus(d.id, { state: state as 'success', log_url: `https://github.example/acme/site/actions/runs/${d.id}` })
  return d.id
}

async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call
  } catch (error) {
    if (error instanceof OrderRefused) return error.message
    throw error
  }
  throw new Error('not refused')
}

let env = 0
/** A fresh environment name per test: the stand-in keeps every Deployment. */
function fresh(): string {
  return `production-${++env}`
}

describe('the order, as found and said', () => {
  test('ours newer: an info line with both commits, their evidence, and by how many', async () => {
    const environment = fresh()
    const id = recorded(environment, 'd-old', C1)
    const { order: o, said } = await order({ environment })
    const check = await o.check('D-OLD')
    expect(check).toMatchObject({ order: 'ahead', runningDistributionId: 'D-OLD', repoUrl: 'https://github.example/acme/site' })
    expect(said.log).toEqual([
      `Deploy order: commit ${s(C2)} (this run's commit) and ${s(C1)}, which '${environment}' runs (GitHub Deployment ${id}, by github-actions[bot] in https://github.example/acme/site/actions/runs/${id}): ours is newer by 1 commit(s).`
    ])
    expect([said.warn, said.notice]).toEqual([[], []])
    expect(said.records).toEqual([check])
    expect(o.last).toBe(check)
  })

  test('the same commit: said so', async () => {
    const environment = fresh()
    recorded(environment, 'd-same', C2)
    const { order: o, said } = await order({ environment })
    expect((await o.check('d-same')).order).toBe('identical')
    expect(said.log[0]).toMatch(new RegExp(`^Deploy order: commit ${s(C2)} \\(this run's commit\\) and ${s(C2)}, .* are the same commit\\.$`))
  })

  test('another branch: a notice, with how far ahead and behind, and that ours replaces it', async () => {
    const environment = fresh()
    recorded(environment, 'd-branch', B1)
    const { order: o, said } = await order({ environment })
    expect((await o.check('d-branch')).order).toBe('diverged')
    expect(said.notice).toEqual([expect.stringMatching(/ are on different branches \(ours is 1 ahead and 1 behind\): deploying ours replaces it\.$/)])
  })

  test('older: refused before any change, naming both commits, the evidence, how many newer, and the two ways on', async () => {
    const environment = fresh()
    const id = recorded(environment, 'd-new', C3)
    const { order: o, said } = await order({ environment })
    expect(await refusal(o.check('d-new'))).toBe(
      `Refused: commit ${s(C2)} is older than ${s(C3)}, which '${environment}' runs (GitHub Deployment ${id}, by github-actions[bot] in https://github.example/acme/site/actions/runs/${id}; 1 commit(s) newer). ` +
        `Deploying it would replace a newer release, so nothing was changed. To go back to an older release on purpose, set allow-older-commit: true (with distribution-id or from-environment to restore a release already on the stack without a rebuild).`
    )
    expect(said.records[0]).toMatchObject({ order: 'behind', refused: true })
    expect([said.log, said.warn]).toEqual([[], []])
  })

  test('older in a dry run: "A deploy would be refused"; older after a wait: what was not deployed', async () => {
    const environment = fresh()
    recorded(environment, 'd-new2', C3)
    expect(await refusal((await order({ environment, dryRun: true })).order.check('d-new2'))).toMatch(/^A deploy would be refused: commit /)
    recorded('staging', 'd-promoted', C2)
    const after = await refusal((await order({ environment, promoted: 'd-promoted' })).order.check('d-new2', true))
    expect(after).toMatch(/so d-promoted was not deployed\. /)
  })

  test("older than a commit only another environment's Deployment recorded (promoted there by hand): refused, naming that Deployment", async () => {
    const environment = fresh()
    // Production's own Deployments recorded another distribution; staging's recorded the one production runs now.
    recorded(environment, 'd-before', C1)
    const id = recorded('staging', 'D-FROM-STAGING', C3)
    stored['d-from-staging'] = { name: 'hand-made.tar.gz', createdBy: 'ops@example.com' }
    const { order: o, said } = await order({ environment })
    expect(await refusal(o.check('d-from-staging'))).toBe(
      `Refused: commit ${s(C2)} is older than ${s(C3)}, which '${environment}' runs (GitHub Deployment ${id}, by github-actions[bot] in https://github.example/acme/site/actions/runs/${id}; 1 commit(s) newer). ` +
        `Deploying it would replace a newer release, so nothing was changed. To go back to an older release on purpose, set allow-older-commit: true (with distribution-id or from-environment to restore a release already on the stack without a rebuild).`
    )
    expect(said.records[0]).toMatchObject({
      order: 'behind',
      refused: true,
      running: { sha: C3, from: 'deployment', deployment: { id, environment: 'staging' } }
    })
  })

  test('older on purpose (allow-older-commit): a warning with how far behind, and the deploy goes on', async () => {
    const environment = fresh()
    recorded(environment, 'd-new3', C3)
    const { order: o, said } = await order({ environment, allowOlder: true })
    const check = await o.check('d-new3')
    expect(check.refused).toBeUndefined()
    expect(said.warn).toEqual([
      expect.stringMatching(/^Deploying an older commit on purpose \(allow-older-commit: true\): commit .*; ours is 1 commit\(s\) behind\.$/)
    ])
  })

  test("the commit from the distribution's name when no Deployment recorded it; the uploader named as outside this action", async () => {
    const environment = fresh()
    recorded(environment, 'd-recorded', C1)
    stored['d-named'] = { name: `site-${s(C1)}-distribution.tar.gz`, createdBy: 'alice', createdAt: '2026-11-01T10:00:00Z' }
    const { order: o, said } = await order({ environment })
    const check = await o.check('d-named')
    expect(check.running).toEqual({ sha: s(C1), from: 'name', name: `site-${s(C1)}-distribution.tar.gz` })
    expect(said.log[0]).toContain(`which '${environment}' runs (from the distribution's name site-${s(C1)}-distribution.tar.gz)`)
    expect(said.notice[0]).toMatch(
      new RegExp(
        `^'${environment}' runs d-named, uploaded by alice at 2026-11-01T10:00:00Z, which no GitHub Deployment of this repository recorded for '${environment}' \\(the last one, \\d+, recorded d-recorded of commit ${s(C1)}\\): it was deployed outside this action \\(from Mission Control, or from another repository\\)\\.$`
      )
    )
  })

  test('outside this action, by an uploader the platform does not name: no "uploaded by", no stray comma', async () => {
    const environment = fresh()
    recorded(environment, 'd-recorded', C1)
    stored['d-anon'] = { name: `site-${s(C1)}-distribution.tar.gz` }
    const { order: o, said } = await order({ environment })
    await o.check('d-anon')
    expect(said.notice[0]).toMatch(
      new RegExp(`^'${environment}' runs d-anon, which no GitHub Deployment of this repository recorded for '${environment}' \\(the last one`)
    )
  })
})

describe('when the order stays unknown, and why', () => {
  test('no github-token: not checked, with the permissions it needs; an info line, never a refusal', async () => {
    const { order: o, said } = await order({}, null)
    expect(await o.check('x')).toMatchObject({
      order: 'unknown',
      why: 'github-token is not set (the check needs a token with deployments: read and contents: read)'
    })
    expect(said.log).toEqual(['Deploy order not checked: github-token is not set (the check needs a token with deployments: read and contents: read).'])
  })

  test('nothing running: no commit to compare with', async () => {
    const environment = fresh()
    const { order: o, said } = await order({ environment })
    await o.check(undefined)
    expect(said.log).toEqual([`Deploy order not checked: '${environment}' runs no distribution, so there is no commit to compare with.`])
  })

  test('a running distribution nothing records and whose name carries no commit', async () => {
    const environment = fresh()
    stored['d-anon'] = { name: 'custom.tar.gz' }
    const { order: o, said } = await order({ environment })
    await o.check('d-anon')
    expect(said.log).toEqual([
      `Deploy order not checked: no GitHub Deployment of acme/site recorded distribution d-anon, which '${environment}' runs, and its name carries no commit of this repository.`
    ])
  })

  test('a promoted distribution nothing records: no commit of ours', async () => {
    const environment = fresh()
    stored['d-prom'] = { name: 'custom.tar.gz' }
    const { order: o, said } = await order({ environment, promoted: 'd-prom' })
    await o.check('d-x')
    expect(said.log).toEqual([
      'Deploy order not checked: no GitHub Deployment of this repository recorded distribution d-prom, and its name carries no commit of this repository.'
    ])
  })

  test('a name the platform could not say (its lookup failed) is said unread, never "no commit" (found by the simulation)', async () => {
    // On GitLab a name is the only evidence: "its name carries no commit" was said of site-<commit>-distribution.tar.gz.
    const environment = fresh()
    const { order: o, said } = await order({ environment, promoted: 'd-gone' })
    await o.check('d-x')
    expect(said.log).toEqual([
      'Deploy order not checked: no GitHub Deployment of this repository recorded distribution d-gone, and its name could not be read (no distribution d-gone).'
    ])
    const running = await order({ environment })
    await running.order.check('d-lost')
    expect(running.said.log).toEqual([
      `Deploy order not checked: no GitHub Deployment of acme/site recorded distribution d-lost, which '${environment}' runs, and its name could not be read (no distribution d-lost).`
    ])
  })

  test("a Deployment that marked its commit unknown is no evidence of one; a promoted one's commit comes from its record", async () => {
    const environment = fresh()
    recorded(environment, 'd-unk', C3, 'success', { commit: 'unknown' })
    stored['d-unk'] = { name: 'custom.tar.gz' }
    const { order: o } = await order({ environment })
    expect((await o.check('d-unk')).order).toBe('unknown')
    recorded('staging', 'd-from-staging', C3)
    const promoted = await order({ environment, promoted: 'd-from-staging' })
    expect(await promoted.order.ours()).toMatchObject({ sha: C3, from: 'deployment' })
  })

  test('a commit GitHub does not know (404 on compare): missing evidence, not a failure; the deploy goes on', async () => {
    const environment = fresh()
    recorded(environment, 'd-gone', C1)
    standIn.fail('compare', { status: 404, body: { message: 'No commit found' } })
    const { order: o, said } = await order({ environment })
    const check = await o.check('d-gone')
    expect(check.failed).toBeUndefined()
    expect(said.log).toEqual([
      `Deploy order not checked: Comparing ${s(C1)} with ${s(C2)}: HTTP 404 (No commit found): GitHub does not know one of the two commits (a force-push may have removed it), so they cannot be compared.`
    ])
  })

  test.each([
    [401, 'GitHub refused github-token (401): pass a valid token of this repository, e.g. github-token: ${{ github.token }}'],
    [
      403,
      'github-token lacks a permission (403): give the job permissions with deployments: write and contents: read (the check needs deployments: read and contents: read)'
    ],
    [404, 'GitHub does not show this repository to github-token (404): use a token of this repository']
  ])('GitHub refuses (%i): refused before any change, naming the cause, its fix and allow-unchecked-order', async (status, advice) => {
    const environment = fresh()
    standIn.fail('list-deployments', { status, body: { message: 'no' } })
    const { order: o, said } = await order({ environment })
    expect(await refusal(o.check('d'))).toBe(
      `Refused: the deploy order on '${environment}' could not be checked: Listing GitHub Deployments: HTTP ${status} (no); ${advice}. ` +
        `github-token asks for the check, and it cannot be made, so nothing was changed. To deploy while GitHub cannot be read, set allow-unchecked-order: true.`
    )
    expect(said.log).toEqual([expect.stringMatching(/^Deploy order not checked: Listing GitHub Deployments: HTTP \d+ \(no\); /)])
    expect(said.records[0]).toMatchObject({ order: 'unknown', failed: true, refused: true })
  })

  test("GitHub's rate limit: refused before any change, naming the limit, never a missing permission", async () => {
    const environment = fresh()
    standIn.fail('list-deployments', {
      status: 403,
      headers: { 'retry-after': '60' },
      body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' }
    })
    const { order: o } = await order({ environment })
    const said = await refusal(o.check('d'))
    expect(said).toBe(
      `Refused: the deploy order on '${environment}' could not be checked: Listing GitHub Deployments: HTTP 403 (You have exceeded a secondary rate limit. ` +
        `Please wait a few minutes before you try again; the rate limit lifts in 60 s); GitHub's rate limit for github-token was reached (no permission is missing): ` +
        `run again once it lifts. github-token asks for the check, and it cannot be made, so nothing was changed. To deploy while GitHub cannot be read, set allow-unchecked-order: true.`
    )
    expect(said).not.toMatch(/lacks a permission/)
  })

  test('GitHub failing (5xx) with allow-unchecked-order: a warning, and the deploy goes on', async () => {
    const environment = fresh()
    standIn.fail('list-deployments', { status: 500, times: 3 })
    const { order: o, said } = await order({ environment, allowUnchecked: true })
    const check = await o.check('d')
    expect(check).toMatchObject({ order: 'unknown', failed: true })
    expect(check.refused).toBeUndefined()
    expect(said.warn).toEqual([
      'Deploy order not checked: Listing GitHub Deployments: HTTP 500 (Server Error); GitHub failed; run again later. The deploy goes on (allow-unchecked-order: true).'
    ])
  }, 20_000)
})

describe('one commit, full or abbreviated, in any case', () => {
  const compares = (): number => standIn.calls.filter((c) => c.route === 'compare').length

  test('the same commit is identical without asking GitHub to compare: ours full, the running one from its name (abbreviated)', async () => {
    const environment = fresh()
    stored['d-short'] = { name: `site-${s(C2)}-distribution.tar.gz` }
    const { order: o } = await order({ environment })
    const before = compares()
    expect((await o.check('d-short')).order).toBe('identical')
    expect(compares() - before).toBe(0)
  })

  test('ours abbreviated (a promoted distribution named by its commit), the running one full', async () => {
    const environment = fresh()
    recorded(environment, 'd-full', C2)
    stored['d-promoted'] = { name: `site-${s(C2)}-distribution.tar.gz` }
    const { order: o } = await order({ environment, promoted: 'd-promoted' })
    const before = compares()
    expect((await o.check('d-full')).order).toBe('identical')
    expect(compares() - before).toBe(0)
  })

  test("this run's commit in upper case is still the one a Deployment recorded", async () => {
    const environment = fresh()
    recorded(environment, 'd-lower', C2)
    const { order: o } = await order({ environment })
    const github = (o as unknown as { o: { host: { sha: string } } }).o.host
    Object.defineProperty(github, 'sha', { value: C2.toUpperCase() })
    const before = compares()
    expect((await o.check('d-lower')).order).toBe('identical')
    expect(compares() - before).toBe(0)
  })

  test('GITHUB_SHA not set (not on a runner): not checked, said why', async () => {
    const environment = fresh()
    const { order: o, said } = await order({ environment })
    Object.defineProperty((o as unknown as { o: { host: object } }).o.host, 'sha', { value: '' })
    expect(await o.check('anything')).toMatchObject({ order: 'unknown', why: 'this run has no commit (GITHUB_SHA is not set: not on a runner)' })
    expect(said.log).toEqual(['Deploy order not checked: this run has no commit (GITHUB_SHA is not set: not on a runner).'])
  })

  test("the platform is asked once per check for a distribution's facts, however many times they are read", async () => {
    const environment = fresh()
    recorded(environment, 'd-rec', C1)
    let asked = 0
    stored['d-facts'] = { name: 'hand.tar.gz', createdBy: 'dave' }
    const counting = { getDistribution: async (id: string) => (asked++, client.getDistribution(id)) } as unknown as CloudClient
    const { order: o, said } = await order({ environment, client: counting })
    await o.check('d-facts')
    expect(asked).toBe(1)
    expect(said.notice[0]).toMatch(/^'production-\d+' runs d-facts, uploaded by dave, which no GitHub Deployment/)
    await o.check('d-facts')
    expect(asked).toBe(2)
  })

  test('after a check that saw nothing running: "not nothing" when the environment runs something now', async () => {
    const environment = fresh()
    recorded(environment, 'd-new', C1)
    const { order: o, said } = await order({ environment })
    await o.check(undefined)
    await o.recheck({ distributionId: 'd-new', status: undefined, at: 0 })
    expect(said.log).toContain(`'${environment}' now runs d-new, not nothing: checking the deploy order again.`)
  })
})

describe('after a wait, and who holds a busy environment', () => {
  test('recheck: only when the environment runs another distribution than the last check saw', async () => {
    const environment = fresh()
    recorded(environment, 'd-a', C1)
    const { order: o, said } = await order({ environment })
    await o.recheck({ distributionId: 'd-a', status: undefined, at: 0 }) // no check yet: nothing
    expect(said.records).toHaveLength(0)
    await o.check('d-a')
    await o.recheck({ distributionId: 'D-A', status: undefined, at: 0 })
    await o.recheck({ distributionId: undefined, status: undefined, at: 0 })
    expect(said.records).toHaveLength(1)
    recorded(environment, 'd-b', C3)
    const message = await refusal(o.recheck({ distributionId: 'd-b', status: undefined, at: 0 }))
    expect(said.log).toContain(`'${environment}' now runs d-b, not d-a: checking the deploy order again.`)
    expect(said.records[1]).toMatchObject({ order: 'behind', recheck: true, refused: true })
    expect(message).toMatch(/so it was not deployed\. /)
  })

  test('holder: a GitHub Deployment under way (not our own), and who uploaded what the environment reports', async () => {
    const environment = fresh()
    // Ours is the newest under way: only noteOwnDeployment keeps it from being named.
    const theirs = recorded(environment, 'd-theirs', C1, 'queued')
    const ours = recorded(environment, 'd-ours', C2, 'in_progress')
    stored['d-theirs'] = { name: 'x.tar.gz', createdBy: 'bob' }
    const { order: o } = await order({ environment })
    o.noteOwnDeployment(ours)
    expect(await o.holder({ distributionId: 'd-theirs', status: undefined, at: 0 })).toBe(
      `GitHub Deployment ${theirs} of commit ${s(C1)} is queued (by github-actions[bot] in https://github.example/acme/site/actions/runs/${theirs}); Distribution d-theirs was uploaded by bob`
    )
    expect(await o.holder({ distributionId: undefined, status: undefined, at: 0 })).toMatch(/^GitHub Deployment \d+ of commit /)
  })

  test("holder: nothing known is undefined; a GitHub that fails leaves the platform's facts", async () => {
    const environment = fresh()
    stored['d-known'] = { name: 'k.tar.gz', createdBy: 'carol', createdAt: '2026-01-01T00:00:00Z' }
    const { order: o } = await order({ environment })
    expect(await o.holder({ distributionId: undefined, status: undefined, at: 0 })).toBeUndefined()
    expect(await o.holder({ distributionId: 'd-unknown', status: undefined, at: 0 })).toBeUndefined()
    standIn.fail('list-deployments', { status: 401 })
    expect(await o.holder({ distributionId: 'd-known', status: undefined, at: 0 })).toBe('Distribution d-known was uploaded by carol at 2026-01-01T00:00:00Z')
  })
})

test('evidence, in words: the run, a name, a Deployment (by someone, in no run when unknown)', () => {
  expect(evidence({ sha: 'a', from: 'run' })).toBe("this run's commit")
  expect(evidence({ sha: 'a', from: 'name', name: 'n.tar.gz' })).toBe("from the distribution's name n.tar.gz")
  expect(evidence({ sha: 'a', from: 'name' })).toBe("from the distribution's name")
  expect(evidence({ sha: 'a', from: 'deployment' })).toBe('GitHub Deployment ?, by someone')
  expect(evidence({ sha: 'a', from: 'deployment', deployment: { id: 5, environment: 'e', by: 'x', runUrl: undefined, state: undefined } })).toBe(
    'GitHub Deployment 5, by x'
  )
})

const { startGitLabStandIn, DEFAULT_GITLAB_TOKEN, DEFAULT_GITLAB_PROJECT } = await import('../src/emulator/gitlab/server.js')
const { GitLabApi } = await import('../src/gitlab/client.js')
const { startEmulator } = await import('../src/emulator/server.js')
const { HttpTransport } = await import('../src/http/transport.js')
const { CloudApi } = await import('../src/cloud/api.js')
const { CloudSession } = await import('../src/cloud/session.js')
const { CloudClient } = await import('../src/cloud/client.js')
const gitlab = await startGitLabStandIn()

describe('on GitLab, where a name is the only evidence', () => {
  afterAll(async () => {
    await gitlab.close()
  })
  const onGitLab = (over: Partial<OrderOptions>): ReturnType<typeof order> =>
    order({ host: GitLabApi.open({ token: DEFAULT_GITLAB_TOKEN, project: DEFAULT_GITLAB_PROJECT, apiUrl: gitlab.apiUrl }), ...over })

  test('a name the platform could not say refuses the deploy unless allow-unchecked-order (found by the simulation)', async () => {
    // The lookup of our promoted distribution failed, the order stayed "unknown" and the deploy went out over a newer commit.
    const { order: o, said } = await onGitLab({ promoted: 'd-lost' })
    expect(await refusal(o.check('d-x'))).toBe(
      "Refused: the deploy order on 'production' could not be checked: GitLab's deployments do not record distributions (so none names d-lost), and its name " +
        'could not be read (no distribution d-lost). gitlab-token asks for the check, and it cannot be made, so nothing was changed. To deploy while the ' +
        'commits cannot be read, set allow-unchecked-order: true.'
    )
    expect(said.records[0]).toMatchObject({ order: 'unknown', failed: true, failedOn: 'name', refused: true, host: 'GitLab' })
    const allowed = await onGitLab({ promoted: 'd-lost', allowUnchecked: true })
    expect((await allowed.order.check('d-x')).refused).toBeUndefined()
    expect(allowed.said.warn).toEqual([
      expect.stringMatching(/its name could not be read \(no distribution d-lost\)\. The deploy goes on \(allow-unchecked-order: true\)\.$/)
    ])
  })

  test('a running distribution the platform no longer holds (404): its name unread, refused unless allow-unchecked-order (fresh seed 1959754712)', async () => {
    // The real client answers a deleted distribution's 404 with none: the check said "its name carries no commit" (of
    // site-<newer commit>-distribution.tar.gz, deleted while production ran it) and deployed an older commit over it.
    const platform = await startEmulator()
    const transport = new HttpTransport(platform.url, { userAgent: 'order-claims' })
    try {
      const api = new CloudApi(transport, { retry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 } })
      const real = new CloudClient(api, new CloudSession(api, platform.username, platform.password, { target: 'stack test' }))
      const { order: o, said } = await onGitLab({ client: real })
      expect(await refusal(o.check('d-deleted'))).toBe(
        "Refused: the deploy order on 'production' could not be checked: GitLab's deployments do not record distributions (so none names d-deleted), " +
          "which 'production' runs, and its name could not be read (the platform holds no distribution of that id now). gitlab-token asks for the " +
          'check, and it cannot be made, so nothing was changed. To deploy while the commits cannot be read, set allow-unchecked-order: true.'
      )
      expect(said.records[0]).toMatchObject({ order: 'unknown', failed: true, failedOn: 'name', refused: true })
      const allowed = await onGitLab({ client: real, allowUnchecked: true })
      expect((await allowed.order.check('d-deleted')).refused).toBeUndefined()
      expect(allowed.said.warn).toEqual([
        expect.stringMatching(/its name could not be read \(the platform holds no distribution of that id now\)\. The deploy goes on/)
      ])
    } finally {
      await transport.close()
      await platform.close()
    }
  })

  test('a name read that carries no commit is no evidence: unknown, and the deploy goes on', async () => {
    stored['d-plain'] = { name: 'custom.tar.gz' }
    const { order: o } = await onGitLab({ promoted: 'd-plain' })
    expect(await o.check('d-x')).toMatchObject({ order: 'unknown', why: expect.stringMatching(/its name carries no commit of this repository$/) })
  })
})
