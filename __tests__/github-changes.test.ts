// The release's commits through the door to GitHub (src/github/client.ts commitsBetween, pullRequestsOf) against the
// GitHub stand-in over real HTTP: what each call sends, the list read back (oldest first, capped, the true total), the
// pull requests from titles and from GitHub, bounded and best effort; and the model (src/deploy/changes.ts) on top.
import { DEFAULT_GITHUB_TOKEN, fakeSha, startGitHubStandIn } from '../src/emulator/github/server.js'
import { runOfAcmeSite } from './github-run.js'

const LIMITED = 'ghs_noPullRequestsToken000000000'
const standIn = await startGitHubStandIn({
  owner: 'acme',
  repo: 'site',
  tokens: {
    [DEFAULT_GITHUB_TOKEN]: { deployments: 'write', contents: 'read', pullRequests: 'read' },
    [LIMITED]: { deployments: 'write', contents: 'read' }
  }
})
runOfAcmeSite(standIn.url, 'c'.repeat(40))
const { GitHubApi, GitHubCallFailed, MAX_LISTED_COMMITS, pullRequestsIn } = await import('../src/github/client.js')
const { readChanges, shownChanges, changesOutput, changesSection } = await import('../src/deploy/changes.js')
type OrderCheck = import('../src/deploy/order.js').OrderCheck

afterAll(async () => {
  await standIn.close()
})
beforeEach(() => {
  standIn.calls.length = 0
})

const m = standIn.model
/** A line of `n` commits on top of `from`, titled by `title(i)`; returns their shas, oldest first. */
function line(label: string, from: string, n: number, title = (i: number): string => `${label} ${i}`): string[] {
  const out: string[] = []
  let parent = from
  for (let i = 1; i <= n; i++) {
    parent = m.commit(fakeSha(`${label}/${i}`), [parent], `${title(i)}\n\nbody of ${i}`, { name: `Writer ${i}`, email: `w${i}@example.com` })
    out.push(parent)
  }
  return out
}
const root = m.commit(fakeSha('root'))
const calls = (): string[] => standIn.calls.map((c) => `${c.method} ${c.path}?${c.query.toString()}`)

test('pullRequestsIn: a squash merge names (#12), a merge commit "Merge pull request #12", each number once', () => {
  expect(pullRequestsIn('Fix the login (#12)')).toEqual([12])
  expect(pullRequestsIn('Merge pull request #34 from acme/feature')).toEqual([34])
  expect(pullRequestsIn('Revert "Fix (#12)" (#15) (#12)')).toEqual([12, 15])
  expect(pullRequestsIn('Fix #12 and PR 13')).toEqual([])
  expect(pullRequestsIn('Say Merge pull request #9')).toEqual([])
})

test('commitsBetween: oldest first, titles, authors (a login when GitHub matched one, else the git name), pull requests by title or asked', async () => {
  const base = m.commit(fakeSha('a/base'), [root], 'Base')
  const one = m.commit(fakeSha('a/1'), [base], 'Add search (#7)\n\nlong text', { name: 'Ann', email: 'ann@example.com', login: 'ann-gh' })
  const two = m.commit(fakeSha('a/2'), [one], 'Merge pull request #8 from acme/x', { name: 'Bob', email: 'bob@example.com' })
  const three = m.commit(fakeSha('a/3'), [two], 'Tidy the footer', { name: 'Cy', email: 'cy@example.com' })
  m.addIssue({ title: 'Footer', pullRequest: true, user: 'cy' })
  const pull = m.issues.at(-1)?.number ?? 0
  m.associatePullRequest(pull, three)
  const listing = await (await GitHubApi.open(DEFAULT_GITHUB_TOKEN)).commitsBetween(base, three)
  expect(listing).toEqual({
    status: 'ahead',
    aheadBy: 3,
    behindBy: 0,
    total: 3,
    commits: [
      { sha: one, title: 'Add search (#7)', author: 'ann-gh', pullRequests: [7] },
      { sha: two, title: 'Merge pull request #8 from acme/x', author: 'Bob', pullRequests: [8] },
      { sha: three, title: 'Tidy the footer', author: 'Cy', pullRequests: [pull] }
    ]
  })
  // One page of the compare, then the one commit whose title names no pull request asked about.
  expect(calls()).toEqual([`GET /repos/acme/site/compare/${base}...${three}?per_page=100&page=1`, `GET /repos/acme/site/commits/${three}/pulls?per_page=10`])
})

test('more than the cap: pages of 100 up to 250 commits, the total from GitHub; the lookups bounded', async () => {
  const base = m.commit(fakeSha('b/base'), [root], 'Base')
  const shas = line('b', base, 260)
  const listing = await (await GitHubApi.open(DEFAULT_GITHUB_TOKEN)).commitsBetween(base, shas.at(-1) ?? '', 2)
  expect(MAX_LISTED_COMMITS).toBe(250)
  expect(listing.total).toBe(260)
  expect(listing.commits).toHaveLength(250)
  expect(listing.commits[0]).toEqual({ sha: shas[0], title: 'b 1', author: 'Writer 1', pullRequests: [] })
  expect(listing.commits.at(-1)?.sha).toBe(shas[249])
  expect(listing.pullLookups).toBe('only 2 commits were asked for their pull requests')
  expect(calls()).toEqual([
    ...[1, 2, 3].map((p) => `GET /repos/acme/site/compare/${base}...${shas.at(-1)}?per_page=100&page=${p}`),
    `GET /repos/acme/site/commits/${shas[0]}/pulls?per_page=10`,
    `GET /repos/acme/site/commits/${shas[1]}/pulls?per_page=10`
  ])
})

test('a token without pull-requests: read: the first refusal ends the lookups, the list stands', async () => {
  const base = m.commit(fakeSha('c/base'), [root], 'Base')
  const shas = line('c', base, 3)
  const listing = await (await GitHubApi.open(LIMITED)).commitsBetween(base, shas[2] ?? '')
  expect(listing.commits.map((c) => c.pullRequests)).toEqual([[], [], []])
  expect(listing.pullLookups).toBe(`Listing the pull requests of commit ${shas[0]?.slice(0, 7)}: HTTP 403 (Resource not accessible by integration)`)
  expect(calls().filter((c) => c.includes('/pulls'))).toHaveLength(1)
})

test('a compare GitHub refuses is a GitHubCallFailed, named by kind', async () => {
  standIn.fail('compare', { status: 403, body: { message: 'Resource not accessible by integration' } })
  const base = m.commit(fakeSha('d/base'), [root], 'Base')
  const error = await (await GitHubApi.open(DEFAULT_GITHUB_TOKEN)).commitsBetween(base, root).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(GitHubCallFailed)
  expect((error as InstanceType<typeof GitHubCallFailed>).failure).toBe('forbidden')
  expect((error as Error).message).toBe(
    `Listing the commits between ${base.slice(0, 7)} and ${root.slice(0, 7)}: HTTP 403 (Resource not accessible by integration)`
  )
})

describe('the model: readChanges from the deploy order, shownChanges after a rollback', () => {
  const evidence = (sha: string): { sha: string; from: 'deployment' } => ({ sha, from: 'deployment' })
  const check = (order: OrderCheck['order'], running: string | undefined, ours: string | undefined, why?: string): OrderCheck => ({
    order,
    runningDistributionId: 'd-run',
    running: running === undefined ? undefined : evidence(running),
    ours: ours === undefined ? undefined : evidence(ours),
    repoUrl: 'https://github.example/acme/site',
    ...(why !== undefined && { why })
  })
  const base = m.commit(fakeSha('e/base'), [root], 'Base')
  const [e1, e2] = line('e', base, 2, (i) => (i === 1 ? 'First (#3)' : 'Second'))

  test('ahead: the commits it brings; older (behind): the commits it takes out, compared the other way', async () => {
    const github = await GitHubApi.open(DEFAULT_GITHUB_TOKEN)
    const lines: string[] = []
    const added = await readChanges(github, check('ahead', base, e2), (l) => lines.push(l))
    expect(changesOutput(added)).toBe(
      JSON.stringify([
        { sha: e1, title: 'First (#3)', author: 'Writer 1', pullRequests: [3] },
        { sha: e2, title: 'Second', author: 'Writer 2', pullRequests: [] }
      ])
    )
    expect(added).toMatchObject({ direction: 'added', total: 2, running: base, ours: e2 })
    const removed = await readChanges(github, check('behind', e2, base), (l) => lines.push(l))
    expect(removed).toMatchObject({ direction: 'removed', total: 2, running: e2, ours: base })
    expect(removed.commits.map((c) => c.sha)).toEqual([e1, e2])
    expect(lines).toEqual([
      `The release brings 2 commit(s) between ${base.slice(0, 7)} and ${e2?.slice(0, 7)}.`,
      `The release takes out 2 commit(s) between ${e2?.slice(0, 7)} and ${base.slice(0, 7)}.`
    ])
    expect(calls().filter((c) => c.includes('/compare/'))).toEqual([
      `GET /repos/acme/site/compare/${base}...${e2}?per_page=100&page=1`,
      `GET /repos/acme/site/compare/${base}...${e2}?per_page=100&page=1`
    ])
  })

  test('empty, with the reason: no token, an unknown order, the same commit, GitHub failing; nothing asked of GitHub without need', async () => {
    const github = await GitHubApi.open(DEFAULT_GITHUB_TOKEN)
    const none = (): void => undefined
    expect((await readChanges(undefined, check('ahead', base, e2), none)).why).toBe('github-token is not set')
    expect((await readChanges(github, check('unknown', undefined, e2, "'prod' runs no distribution"), none)).why).toBe(
      "the deploy order is unknown: 'prod' runs no distribution"
    )
    expect((await readChanges(github, check('identical', e2, e2), none)).why).toBe('the environment runs the same commit')
    expect(calls()).toEqual([])
    standIn.fail('compare', { status: 401, body: { message: 'Bad credentials' } })
    const failed = await readChanges(github, check('ahead', base, e2), none)
    expect(failed).toMatchObject({
      commits: [],
      total: 0,
      why: `GitHub failed: Listing the commits between ${base.slice(0, 7)} and ${e2?.slice(0, 7)}: HTTP 401 (Bad credentials)`
    })
    expect(changesOutput(failed)).toBe('[]')
    expect(changesSection(failed, 'prod')).toEqual([`No commits listed: ${failed.why}.`])
  })

  test('a rollback seen applied: the same commits, taken out; a rolled back older commit took out nothing that stays out', async () => {
    const github = await GitHubApi.open(DEFAULT_GITHUB_TOKEN)
    const added = await readChanges(github, check('ahead', base, e2), () => undefined)
    const release = { transitions: [{ state: 'rollback-applied', at: 1, evidence: 'x' }] } as never
    const back = shownChanges({ changes: added, release })
    expect(back).toMatchObject({ direction: 'removed', rolledBack: true, total: 2 })
    expect(changesOutput(back)).toBe(changesOutput(added))
    expect(changesSection(back as NonNullable<typeof back>, 'prod')[0]).toBe(
      `**2 commit(s) taken out by the rollback:** the failed release, [\`${e2?.slice(0, 7)}\`](https://github.example/acme/site/commit/${e2}), had brought them over [\`${base.slice(0, 7)}\`](https://github.example/acme/site/commit/${base}), which 'prod' ran:`
    )
    expect(shownChanges({ changes: added, release: undefined })).toBe(added)
    const older = await readChanges(github, check('behind', e2, base), () => undefined)
    expect(changesOutput(shownChanges({ changes: older, release }))).toBe('[]')
  })
})

test("on GitLab, the section links GitLab's pages (under /-/) and writes a merge request as !n", () => {
  // Found by the simulation's GitLab world: the summary linked /commit/<sha> and /pull/<n>, which GitLab 16 answers 404.
  const repoUrl = 'https://gitlab.example.com/acme/site'
  const [a, b] = [fakeSha('gl/a'), fakeSha('gl/b')]
  const section = changesSection(
    {
      commits: [
        { sha: b, title: 'Search facets', author: 'Writer', pullRequests: [7] },
        { sha: a, title: 'Fix login (!9)', author: undefined, pullRequests: [9] }
      ],
      total: 2,
      direction: 'added',
      running: a,
      ours: b,
      repoUrl,
      host: 'GitLab'
    },
    'prod'
  )
  expect(section).toEqual([
    `**2 commit(s)** from [\`${a.slice(0, 7)}\`](${repoUrl}/-/commit/${a}), which 'prod' ran, to ours, [\`${b.slice(0, 7)}\`](${repoUrl}/-/commit/${b}):`,
    '',
    `- [\`${b.slice(0, 7)}\`](${repoUrl}/-/commit/${b}) Search facets ([!7](${repoUrl}/-/merge_requests/7)) — Writer`,
    `- [\`${a.slice(0, 7)}\`](${repoUrl}/-/commit/${a}) Fix login (!9)`
  ])
})

const { deploymentDescription, payloadChanges } = await import('../src/github/deployment-description.js')

describe("the GitHub Deployment's description, within 140 characters", () => {
  const commits = (...titles: string[]): { title: string; sha: string; pullRequests: number[] }[] =>
    titles.map((title, i) => ({ title, sha: `${i}`.repeat(40), pullRequests: [] }))

  test('name and target, the override reason, then whole titles as far as they fit with the count of the rest', () => {
    expect(deploymentDescription({ name: 'site.tar.gz', target: 'acme' })).toBe('site.tar.gz to acme')
    expect(deploymentDescription({ name: 'site.tar.gz', target: 'acme', changes: { total: 0, direction: 'added', commits: [] } })).toBe('site.tar.gz to acme')
    expect(
      deploymentDescription({
        name: 'site.tar.gz',
        target: 'acme',
        overrideReason: ' hotfix\nfor INC-7 ',
        changes: { total: 3, direction: 'added', commits: commits('Fix login (#12)', 'Add search', 'Tidy') }
      })
    ).toBe('site.tar.gz to acme; override: hotfix for INC-7; 3 commits: Fix login (#12); Add search; Tidy')
    const long = deploymentDescription({
      name: 'site.tar.gz',
      target: 'acme',
      changes: { total: 9, direction: 'removed', commits: commits('A'.repeat(60), 'B'.repeat(40), 'C') }
    })
    expect(long).toBe(`site.tar.gz to acme; 9 commits taken out: ${'A'.repeat(60)}; and 8 more`)
    expect([...long].length).toBeLessThanOrEqual(140)
  })

  test('an override reason that alone is too long is cut with an ellipsis, and the commits give way', () => {
    const text = deploymentDescription({
      name: 'site.tar.gz',
      target: 'acme',
      overrideReason: '🚑'.repeat(200),
      changes: { total: 1, direction: 'added', commits: commits('One') }
    })
    expect([...text].length).toBe(140)
    expect(text).toBe(`site.tar.gz to acme; override: ${'🚑'.repeat(108)}…`)
  })

  test('the payload carries the first 20 commits and the count; nothing when there are none', () => {
    const many = commits(...Array.from({ length: 25 }, (_, i) => `T${i}`))
    const payload = payloadChanges({ total: 30, direction: 'added', commits: many })
    expect(payload?.total).toBe(30)
    expect(payload?.commits).toHaveLength(20)
    expect(payload?.commits[0]).toEqual({ sha: '0'.repeat(40), title: 'T0', pullRequests: [] })
    expect(payloadChanges({ total: 0, direction: 'added', commits: [] })).toBeUndefined()
  })
})

describe("GitLab's links in the summary's commits", () => {
  test('commits under /-/commit/, merge requests as !N under /-/merge_requests/; a title naming one is not named twice', () => {
    const sha = 'a'.repeat(40)
    const lines = changesSection(
      {
        total: 2,
        direction: 'added',
        running: 'b'.repeat(40),
        ours: sha,
        repoUrl: 'https://g.example/acme/site',
        host: 'GitLab',
        commits: [
          { sha, title: 'Fix login', author: 'dev', pullRequests: [12] },
          { sha: 'c'.repeat(40), title: 'Add search (!7)', author: undefined, pullRequests: [7] }
        ]
      },
      'prod'
    )
    expect(lines).toContain(
      `- [\`aaaaaaa\`](https://g.example/acme/site/-/commit/${sha}) Fix login ([!12](https://g.example/acme/site/-/merge_requests/12)) — dev`
    )
    expect(lines).toContain(`- [\`ccccccc\`](https://g.example/acme/site/-/commit/${'c'.repeat(40)}) Add search (!7)`)
  })
})
