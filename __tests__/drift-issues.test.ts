// Drift issues (src/status/drift-issues.ts) over real HTTP to the GitHub stand-in, through GitHub's door as the status
// report's faces open it: reports written by hand (the report's reading has its own tests), the issues the stand-in
// holds afterwards and every call it received. Opened, updated in place only when what they say changed, closed when
// in sync, never duplicated; unknown and deploying leave them as they are; GitHub failing is a failure per issue.
import { DEFAULT_GITHUB_TOKEN, fakeSha, startGitHubStandIn } from '../src/emulator/github/server.js'
import { runOfAcmeSite } from './github-run.js'
import { useTestPort } from './test-port.js'

const NO_PUSH = 'ghs_noPushAccess'
const standIn = await startGitHubStandIn({
  owner: 'acme',
  repo: 'site',
  tokens: {
    [DEFAULT_GITHUB_TOKEN]: { deployments: 'read', contents: 'read', issues: 'write' },
    [NO_PUSH]: { deployments: 'read', contents: 'read', issues: 'write', setsLabels: false }
  }
})
runOfAcmeSite(standIn.url, fakeSha('run'))
const { keepDriftIssues, keepDriftIssuesOf, driftIssuesFailure, driftMarker, DRIFT_LABEL } = await import('../src/status/drift-issues.js')
const { GitHubApi } = await import('../src/github/client.js')
const { blankRow } = await import('../src/status/row.js')
const { statusExit } = await import('../src/cli/status.js')
const { runnerContext } = await import('../src/github/runner-context.js')
type Row = import('../src/status/row.js').EnvironmentRow
type Report = import('../src/status/index.js').StatusReport
type DriftState = import('../src/status/row.js').DriftState

afterAll(async () => {
  await standIn.close()
})

const log: string[] = []
beforeEach(() => {
  log.length = 0
  useTestPort({ info: (m) => log.push(`info: ${m}`), warning: (m) => log.push(`warning: ${m}`) })
  standIn.calls.length = 0
  // Each test starts from a repository without drift issues: the ones left open are closed by hand.
  for (const issue of standIn.model.issues) if (issue.state === 'open') standIn.model.updateIssue(issue.number, { state: 'closed' })
})

const HEAD = fakeSha('head')
const OLD = fakeSha('old')
const RUN = 'https://github.example/acme/site/actions/runs/4242'

function row(stack: string, environment: string | null, state: DriftState, over: Partial<Row> = {}): Row {
  const runs = state === 'empty' || state === 'unknown' ? {} : { distributionId: `d-${environment}`, distributionName: `${environment}.tar.gz` }
  const commit = state === 'in-sync' ? { commit: HEAD, evidence: 'deployment' as const } : state === 'behind' ? { commit: OLD, evidence: 'name' as const } : {}
  const counts = state === 'behind' ? { behindBy: 2, aheadBy: 0 } : {}
  return { ...blankRow(stack, environment, 'main'), ...runs, ...commit, ...counts, state, ...over }
}

function report(...environments: Row[]): Report {
  return { environments, stacks: [], githubErrors: [], repository: 'acme/site' }
}

async function keep(r: Report, options: { failOn?: DriftState[]; runUrl?: string; token?: string } = {}) {
  const api = await GitHubApi.open(options.token ?? DEFAULT_GITHUB_TOKEN, undefined, runnerContext())
  return keepDriftIssues(r, api, { failOn: options.failOn ?? [], runUrl: options.runUrl ?? RUN, serverUrl: 'https://github.example' })
}

const open = () => standIn.model.issues.filter((i) => i.state === 'open')
/** What GitHub received, as method and route. */
const received = () => standIn.calls.map((c) => `${c.method} ${c.route} ${c.status}`)
const writes = () => standIn.calls.filter((c) => c.method !== 'GET')

test('a drifted environment gets one issue: the label made first, the marker, the row and the run in its body; none for in-sync, unknown, deploying', async () => {
  const outcome = await keep(
    report(
      row('eu', 'production', 'in-sync'),
      row('eu', 'acceptance', 'behind'),
      row('us', 'production', 'outside', { reason: 'deployed from Mission Control | by hand' }),
      row('us', 'development', 'empty'),
      row('us', 'test', 'unknown', { reason: 'the stack could not be read' }),
      row('us', 'acceptance', 'deploying'),
      row('down', null, 'unknown')
    )
  )
  expect(outcome).toEqual({ opened: [expect.any(Number), expect.any(Number), expect.any(Number)], updated: [], closed: [], failures: [] })
  expect(received()).toEqual([
    'GET list-issues 200',
    'GET get-label 404',
    'POST create-label 201',
    'POST create-issue 201',
    'POST create-issue 201',
    'POST create-issue 201'
  ])
  expect(Object.fromEntries(standIn.calls[0]?.query ?? [])).toEqual({
    labels: DRIFT_LABEL,
    state: 'open',
    sort: 'created',
    direction: 'asc',
    per_page: '100',
    page: '1'
  })
  expect(standIn.model.label(DRIFT_LABEL)).toMatchObject({ color: 'd93f0b' })
  expect(open().map((i) => [i.title, i.labels])).toEqual([
    ['Drift: eu/acceptance is behind (main)', [DRIFT_LABEL]],
    ['Drift: us/production is outside', [DRIFT_LABEL]],
    ['Drift: us/development is empty', [DRIFT_LABEL]]
  ])
  const body = open()[0]?.body ?? ''
  expect(body.split('\n')[0]).toBe('<!-- brcloud-drift stack=eu environment=acceptance -->')
  expect(body).toContain('**eu/acceptance** is **behind by 2** against `main`.')
  expect(body).toContain('| Runs | `acceptance.tar.gz` (id `d-acceptance`) |')
  expect(body).toContain(`| Commit | [\`${OLD.slice(0, 7)}\`](https://github.example/acme/site/commit/${OLD}) (evidence: name) |`)
  expect(body).toMatch(/<!-- brcloud-drift-run -->\nLast written by \[this run\]\(https:\/\/github\.example\/acme\/site\/actions\/runs\/4242\)\.\n$/)
  // A pipe in a reason stays in its cell.
  expect(open()[1]?.body).toContain('| Why | deployed from Mission Control \\| by hand |')
  expect(log).toEqual(
    expect.arrayContaining([
      'info: Drift issues: us/test is unknown: no issue opened (what it runs could not be told).',
      'info: Drift issues: us/acceptance is deploying: no issue opened (it is switching).',
      'info: Drift issues: 3 opened, 0 updated, 0 closed.'
    ])
  )
})

test('run again: the same content edits nothing (a new run page alone is no change); a change edits the same issue in place', async () => {
  const behind = row('eu', 'acceptance', 'behind')
  await keep(report(behind))
  const [issue] = open()
  // Renamed by hand, and its line breaks as github.com writes them after an edit: found by its marker, nothing to change.
  standIn.model.updateIssue(issue?.number ?? 0, { title: 'acceptance is stale', body: (issue?.body ?? '').replace(/\n/g, '\r\n') })
  standIn.calls.length = 0
  expect(await keep(report(behind), { runUrl: 'https://github.example/acme/site/actions/runs/5000' })).toMatchObject({ opened: [], updated: [] })
  expect(received()).toEqual(['GET list-issues 200'])

  // Two commits later, and now diverged: the body and the title rewritten, the same issue.
  const outcome = await keep(report(row('eu', 'acceptance', 'diverged', { commit: OLD, evidence: 'name', aheadBy: 1, behindBy: 4 })), {
    runUrl: 'https://github.example/acme/site/actions/runs/5001'
  })
  expect(outcome).toMatchObject({ opened: [], updated: [issue?.number], closed: [] })
  expect(writes().map((c) => [c.method, c.path])).toEqual([['PATCH', `/repos/acme/site/issues/${issue?.number}`]])
  expect(open()).toHaveLength(1)
  expect(open()[0]).toMatchObject({ number: issue?.number, title: 'Drift: eu/acceptance is diverged (main)' })
  expect(open()[0]?.body).toContain('is **diverged: 1 ahead, 4 behind**')
  expect(open()[0]?.body).toContain('[this run](https://github.example/acme/site/actions/runs/5001)')
})

test('back in sync: a comment saying what runs now, then closed; drifting again later opens a new issue', async () => {
  await keep(report(row('eu', 'acceptance', 'behind')))
  const [issue] = open()
  standIn.calls.length = 0
  const outcome = await keep(report(row('eu', 'acceptance', 'in-sync')))
  expect(outcome).toMatchObject({ opened: [], updated: [], closed: [issue?.number], failures: [] })
  expect(writes().map((c) => [c.method, c.route, c.json])).toEqual([
    [
      'POST',
      'create-issue-comment',
      {
        body:
          `eu/acceptance runs the head of \`main\` again: \`acceptance.tar.gz\` (id \`d-acceptance\`), commit ` +
          `[\`${HEAD.slice(0, 7)}\`](https://github.example/acme/site/commit/${HEAD}) (evidence: deployment). ` +
          `Closed by the brcloud status report ([the run](${RUN})).`
      }
    ],
    ['PATCH', 'update-issue', { state: 'closed', state_reason: 'completed' }]
  ])
  expect(standIn.model.issue(issue?.number ?? 0)).toMatchObject({ state: 'closed', state_reason: 'completed' })
  // Closed issues are not listed: in sync again, nothing to do; a new drift is a new issue.
  standIn.calls.length = 0
  await keep(report(row('eu', 'acceptance', 'in-sync')))
  expect(received()).toEqual(['GET list-issues 200'])
  const again = await keep(report(row('eu', 'acceptance', 'behind')))
  expect(again.opened).toHaveLength(1)
  expect(again.opened[0]).not.toBe(issue?.number)
})

test('unknown and deploying leave an open issue as it is, and say so', async () => {
  await keep(report(row('eu', 'acceptance', 'behind'), row('eu', 'production', 'outside')))
  const before = open().map((i) => ({ ...i }))
  standIn.calls.length = 0
  log.length = 0
  const outcome = await keep(report(row('eu', 'acceptance', 'unknown', { reason: 'the stack could not be read' }), row('eu', 'production', 'deploying')))
  expect(outcome).toEqual({ opened: [], updated: [], closed: [], failures: [] })
  expect(received()).toEqual(['GET list-issues 200'])
  expect(open()).toEqual(before)
  expect(log).toEqual([
    `info: Drift issues: eu/acceptance is unknown: issue #${before[0]?.number} left as it is (what it runs could not be told).`,
    `info: Drift issues: eu/production is deploying: issue #${before[1]?.number} left as it is (it is switching).`,
    'info: Drift issues: 0 opened, 0 updated, 0 closed.'
  ])
})

test('never a second issue: two runs from none open one; two open already, the oldest is kept with a warning; others left alone', async () => {
  await keep(report(row('eu', 'acceptance', 'behind')))
  await keep(report(row('eu', 'acceptance', 'behind')))
  expect(open()).toHaveLength(1)

  // Someone opened a second one by hand with the same marker; an issue of the label without a marker, and one of an
  // environment no longer in the file, are not the report's to touch.
  const [first] = open()
  const second = standIn.model.addIssue({ title: 'copy', body: `${driftMarker('eu', 'acceptance')}\nold`, labels: [DRIFT_LABEL] })
  const unmarked = standIn.model.addIssue({ title: 'a note', body: 'about drift', labels: [DRIFT_LABEL] })
  const gone = standIn.model.addIssue({ title: 'gone', body: `${driftMarker('eu', 'retired')}\nold`, labels: [DRIFT_LABEL] })
  standIn.calls.length = 0
  log.length = 0
  const outcome = await keep(report(row('eu', 'acceptance', 'behind', { behindBy: 5 })))
  expect(outcome).toMatchObject({ opened: [], updated: [first?.number], closed: [] })
  expect(writes().map((c) => c.path)).toEqual([`/repos/acme/site/issues/${first?.number}`])
  expect(log).toContainEqual(
    `warning: Drift issues: #${first?.number}, #${second.number} all track eu/acceptance; #${first?.number} (the oldest) is kept, close the others by hand.`
  )
  expect([second, unmarked, gone].map((i) => standIn.model.issue(i.number)?.body)).toEqual([
    `${driftMarker('eu', 'acceptance')}\nold`,
    'about drift',
    `${driftMarker('eu', 'retired')}\nold`
  ])
})

test('the issue is found on a later page: 150 open issues of the label, read 100 at a time through the Link header', async () => {
  for (let i = 0; i < 149; i++) standIn.model.addIssue({ title: `other ${i}`, body: driftMarker('eu', `env-${i}`), labels: [DRIFT_LABEL] })
  await keep(report(row('eu', 'acceptance', 'behind')))
  standIn.calls.length = 0
  const outcome = await keep(report(row('eu', 'acceptance', 'in-sync')))
  expect(received()).toEqual(['GET list-issues 200', 'GET list-issues 200', 'POST create-issue-comment 201', 'PATCH update-issue 200'])
  expect(outcome.closed).toHaveLength(1)
  for (const issue of open()) standIn.model.updateIssue(issue.number, { state: 'closed' })
})

test('fail-on names the states that open issues; another drift keeps an open issue current but opens none', async () => {
  await keep(report(row('eu', 'acceptance', 'outside')))
  standIn.calls.length = 0
  const outcome = await keep(report(row('eu', 'acceptance', 'behind'), row('eu', 'production', 'behind'), row('us', 'production', 'outside')), {
    failOn: ['outside', 'unknown']
  })
  expect(outcome).toMatchObject({ opened: [expect.any(Number)], updated: [expect.any(Number)], failures: [] })
  expect(open().map((i) => i.title)).toEqual(['Drift: eu/acceptance is behind (main)', 'Drift: us/production is outside'])
})

test('GitHub failing: the list refused opens, edits and closes nothing; one write failing is a failure of that issue, the rest kept', async () => {
  standIn.fail('list-issues', { status: 403 })
  const refused = await keep(report(row('eu', 'acceptance', 'behind')))
  expect(refused.failures).toEqual(['Listing the open issues labelled brcloud-drift: HTTP 403 (Forbidden); no issue was opened, edited or closed.'])
  expect(writes()).toEqual([])
  expect(log).toContainEqual(expect.stringMatching(/^warning: Drift issues: Listing the open issues/))

  standIn.fail('create-issue', { status: 502 })
  const partly = await keep(report(row('eu', 'acceptance', 'behind'), row('eu', 'production', 'outside')))
  expect(partly.failures).toEqual(['eu/acceptance: Opening a GitHub issue: HTTP 502 (Server Error)'])
  expect(partly.opened).toHaveLength(1)
  expect(open().map((i) => i.title)).toEqual(['Drift: eu/production is outside'])
  // The writes are not tried twice: a second attempt could open a second issue.
  expect(received().filter((c) => c.startsWith('POST create-issue '))).toEqual(['POST create-issue 502', 'POST create-issue 201'])

  const message = driftIssuesFailure(partly, '--drift-issues')
  expect(message).toBe(
    '--drift-issues: a drift issue could not be kept (the report itself was read): eu/acceptance: Opening a GitHub issue: HTTP 502 (Server Error)'
  )
  // The CLI's exit code: 9 for the issues, after the report's own verdict (fails closed, then --fail-on).
  const said: string[] = []
  const read = report(row('eu', 'acceptance', 'behind'))
  expect(statusExit(read, [], (m) => said.push(m), partly)).toBe(9)
  expect(statusExit(read, ['behind'], (m) => said.push(m), partly)).toBe(8)
  expect(statusExit(read, [], (m) => said.push(m), { opened: [], updated: [], closed: [], failures: [] })).toBe(0)
  expect(said).toEqual([message, '--fail-on behind: eu/acceptance is behind.'])
})

test('a token that cannot set labels: the issue opened without the label is a failure (the next run would not find it)', async () => {
  const outcome = await keep(report(row('eu', 'acceptance', 'behind')), { token: NO_PUSH })
  expect(outcome.failures).toEqual([
    expect.stringMatching(
      /^eu\/acceptance: GitHub did not set the label brcloud-drift on issue #\d+ \(the token cannot set labels\): the next run would not find it\.$/
    )
  ])
  for (const issue of open()) standIn.model.updateIssue(issue.number, { state: 'closed' })
})

test("keepDriftIssuesOf: the run's repository through GitHub's door; a repository GitHub does not know fails each call, named", async () => {
  const outcome = await keepDriftIssuesOf(report(row('eu', 'acceptance', 'behind')), DEFAULT_GITHUB_TOKEN, runnerContext(), [])
  expect(outcome.opened).toHaveLength(1)
  const other = await keepDriftIssuesOf(report(row('eu', 'acceptance', 'behind')), DEFAULT_GITHUB_TOKEN, { ...runnerContext(), repository: 'acme/other' }, [])
  expect(other.failures).toEqual([expect.stringMatching(/^Listing the open issues labelled brcloud-drift: HTTP 404/)])
  const none = await keepDriftIssuesOf(report(), DEFAULT_GITHUB_TOKEN, { ...runnerContext(), repository: '' }, [])
  expect(none.failures).toEqual([expect.stringMatching(/no GitHub repository/)])
})
