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
const { keepDriftIssues, keepDriftIssuesOf, driftIssuesFailure, driftMarker, markerOf, issueStates, DRIFT_LABEL } =
  await import('../src/status/drift-issues.js')
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
  return { environments, stacks: [], githubErrors: [], trackErrors: [], repository: 'acme/site' }
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
  expect(standIn.calls.find((c) => c.route === 'create-label')?.json).toEqual({
    name: DRIFT_LABEL,
    color: 'd93f0b',
    description: 'An environment that does not run its tracked ref (brcloud status, drift issues)'
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
  expect(log).toContainEqual(`info: Drift issues: eu/acceptance is diverged: issue #${issue?.number} updated.`)
})

test('names with a blank and a slash: the marker is read back decoded, so a second run edits the same issue instead of opening another', async () => {
  const first = await keep(report(row('eu west', 'blue green', 'behind'), row('eu west', 'team/prod', 'behind')))
  expect(first.opened).toHaveLength(2)
  const [blue, team] = open()
  expect(blue?.body?.split('\n')[0]).toBe('<!-- brcloud-drift stack=eu%20west environment=blue%20green -->')
  expect(team?.body?.split('\n')[0]).toBe('<!-- brcloud-drift stack=eu%20west environment=team%2Fprod -->')
  const again = await keep(report(row('eu west', 'blue green', 'behind', { behindBy: 3 }), row('eu west', 'team/prod', 'behind', { behindBy: 5 })))
  expect(again).toEqual({ opened: [], updated: [blue?.number, team?.number], closed: [], failures: [] })
  expect(open().map((i) => i.number)).toEqual([blue?.number, team?.number])
  // Back in sync: the issue found by its decoded marker is the one closed.
  const synced = await keep(report(row('eu west', 'blue green', 'in-sync'), row('eu west', 'team/prod', 'in-sync')))
  expect(synced.closed).toEqual([blue?.number, team?.number])
  expect(open()).toEqual([])
})

test('the marker round-trips every character a stack or environment name may hold', () => {
  const chars: string[] = []
  for (let c = 0; c <= 0xffff; c++) if (c < 0xd800 || c > 0xdfff) chars.push(String.fromCharCode(c))
  chars.push('😀', '\u{10ffff}', '-->', '<!--', ' stack=x environment=y ')
  const failed = chars.filter((c) => {
    const [stack, environment] = [`s${c}t`, `e${c}v`]
    const body = `${driftMarker(stack, environment)}\nrest of the body`
    const read = markerOf(body)
    return read?.stack !== stack || read.environment !== environment
  })
  expect(failed).toEqual([])
  // What the marker cannot be read as: none, or a malformed escape, is no key.
  expect(markerOf('no marker here')).toBeUndefined()
  expect(markerOf('<!-- brcloud-drift stack=%E0%A4%A environment=x -->')).toBeUndefined()
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
  expect(log).toContainEqual(`info: Drift issues: eu/acceptance is in-sync again: issue #${issue?.number} closed.`)
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
  expect(log).toEqual(['warning: Drift issues: Listing the open issues labelled brcloud-drift: HTTP 403 (Forbidden); no issue was opened, edited or closed.'])

  standIn.fail('create-issue', { status: 502 })
  const partly = await keep(report(row('eu', 'acceptance', 'behind'), row('eu', 'production', 'outside')))
  expect(partly.failures).toEqual(['eu/acceptance: Opening a GitHub issue: HTTP 502 (Server Error)'])
  expect(partly.opened).toHaveLength(1)
  expect(open().map((i) => i.title)).toEqual(['Drift: eu/production is outside'])
  // The writes are not tried twice: a second attempt could open a second issue.
  expect(received().filter((c) => c.startsWith('POST create-issue '))).toEqual(['POST create-issue 502', 'POST create-issue 201'])
  expect(log).toContainEqual('warning: Drift issues: eu/acceptance: Opening a GitHub issue: HTTP 502 (Server Error)')
  expect(log.at(-1)).toBe('info: Drift issues: 1 opened, 0 updated, 0 closed, 1 failed.')

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
  expect(driftIssuesFailure({ opened: [], updated: [], closed: [], failures: ['eu/a: down', 'eu/b: down'] }, 'drift-issues')).toBe(
    'drift-issues: 2 drift issues could not be kept (the report itself was read): eu/a: down; eu/b: down'
  )
})

test('a secret of the run in what GitHub is sent or answers: *** in the issue, its closing comment and the failure', async () => {
  const { registerSecret } = await import('../src/secrets.js')
  registerSecret('tok-drift-0451')
  standIn.fail('create-issue', { status: 500, body: { message: 'upstream echoed tok-drift-0451' } })
  const failed = await keep(report(row('eu', 'acceptance', 'behind')))
  expect(failed.failures).toHaveLength(1)
  expect(failed.failures[0]).toContain('upstream echoed ***')
  expect(log.join('\n')).not.toContain('tok-drift-0451')

  const opened = await keep(report(row('eu', 'acceptance', 'behind', { reason: 'the stack said tok-drift-0451' })))
  const issue = standIn.model.issue(opened.opened[0] ?? 0)
  expect(issue?.body).toContain('| Why | the stack said *** |')
  expect(issue?.body).not.toContain('tok-drift-0451')

  standIn.calls.length = 0
  await keep(report(row('eu', 'acceptance', 'in-sync', { distributionName: 'tok-drift-0451.tar.gz' })))
  const comment = writes().find((c) => c.route === 'create-issue-comment')?.json as { body: string } | undefined
  expect(comment?.body).toContain('`***.tar.gz`')
  expect(comment?.body).not.toContain('tok-drift-0451')
})

test('a token that cannot set labels: the issue opened without the label is a failure (the next run would not find it)', async () => {
  const outcome = await keep(report(row('eu', 'acceptance', 'behind')), { token: NO_PUSH })
  expect(outcome.failures).toEqual([
    expect.stringMatching(
      /^eu\/acceptance: GitHub did not set the label brcloud-drift on issue #\d+ \(the token cannot set labels\): the next run would not find it\.$/
    )
  ])
  expect(log).toContainEqual(`warning: Drift issues: ${outcome.failures[0]}`)
  for (const issue of open()) standIn.model.updateIssue(issue.number, { state: 'closed' })
})

test("keepDriftIssuesOf: the run's repository through GitHub's door; a repository GitHub does not know fails each call, named", async () => {
  const outcome = await keepDriftIssuesOf(report(row('eu', 'acceptance', 'behind')), { githubToken: DEFAULT_GITHUB_TOKEN }, runnerContext(), [])
  expect(outcome.opened).toHaveLength(1)
  const other = await keepDriftIssuesOf(
    report(row('eu', 'acceptance', 'behind')),
    { githubToken: DEFAULT_GITHUB_TOKEN },
    { ...runnerContext(), repository: 'acme/other' },
    []
  )
  expect(other.failures).toEqual([expect.stringMatching(/^Listing the open issues labelled brcloud-drift: HTTP 404/)])
  const none = await keepDriftIssuesOf(report(), { githubToken: DEFAULT_GITHUB_TOKEN }, { ...runnerContext(), repository: '' }, [])
  expect(none.failures).toEqual([expect.stringMatching(/no GitHub repository/)])
  expect(log.at(-1)).toBe(`warning: Drift issues: ${none.failures[0]}`)
})

/** The stand-in behind the tracker's seam: GitHub listing the newest first, or answering no html_url. */
async function trackerOf(change: { newestFirst?: boolean; noHtmlUrl?: boolean } = {}) {
  const api = await GitHubApi.open(DEFAULT_GITHUB_TOKEN, undefined, runnerContext())
  return {
    listOpenIssues: async (label: string) => {
      const issues = await api.listOpenIssues(label)
      return change.newestFirst === true ? [...issues].reverse() : issues
    },
    createIssue: async (...a: Parameters<typeof api.createIssue>) => {
      const created = await api.createIssue(...a)
      return change.noHtmlUrl === true ? { ...created, htmlUrl: undefined } : created
    },
    editIssue: (...a: Parameters<typeof api.editIssue>) => api.editIssue(...a),
    commentOnIssue: (...a: Parameters<typeof api.commentOnIssue>) => api.commentOnIssue(...a),
    ensureLabel: (...a: Parameters<typeof api.ensureLabel>) => api.ensureLabel(...a)
  }
}

const FOOTER = [
  '',
  'Kept by the brcloud status report (drift issues): updated while this environment drifts, closed once it runs the',
  "tracked ref's head again. An edit above the line below is written over by the next run that sees a change.",
  '',
  '<!-- brcloud-drift-run -->',
  'Last written by brcloud status.',
  ''
]

test('the issues word for word: titles, every row of the table, what is left out when not known; no run: no link; the log', async () => {
  const deployRun = 'https://github.example/acme/site/actions/runs/77'
  const r = report(
    row('eu', 'acceptance', 'ahead', {
      aheadBy: 3,
      behindBy: 0,
      createdAt: '2026-11-20T10:00:00Z',
      createdBy: 'ana',
      commit: HEAD,
      evidence: 'deployment',
      evidenceDeploymentId: 77,
      lastDeployment: { id: 77, commit: HEAD, by: 'ana', at: '2026-11-20T10:01:00Z', state: 'success', runUrl: deployRun },
      reason: 'line one\nline two',
      platformStatus: 'Running'
    }),
    row('us', 'production', 'outside', {
      track: null,
      trackedRef: null,
      distributionName: null,
      createdBy: 'bob',
      commit: 'v1.2.3',
      evidence: 'name',
      lastDeployment: { id: 1, commit: '1234567890abcdef', by: null, at: null, state: null, runUrl: null }
    }),
    row('eu', 'production', 'behind', { track: null, trackedRef: null, behindBy: null, commit: null, createdAt: '2026-11-19T08:00:00Z' }),
    row('us', 'development', 'empty'),
    // Its last Deployment a promotion whose commit is unknown: GitHub holds the promoting run's commit, which is not shown.
    row('us', 'acceptance', 'diverged', {
      aheadBy: null,
      behindBy: 2,
      lastDeployment: { id: 5, commit: null, by: 'bot', at: null, state: 'success', runUrl: null }
    })
  )
  const api = await trackerOf({ noHtmlUrl: true })
  const outcome = await keepDriftIssues(r, await trackerOf(), { failOn: [], runUrl: undefined, serverUrl: 'https://github.example' })
  expect(outcome.opened).toHaveLength(5)
  const issues = open()
  expect(issues.map((i) => i.title)).toEqual([
    'Drift: eu/acceptance is ahead (main)',
    'Drift: us/production is outside',
    'Drift: eu/production is behind',
    'Drift: us/development is empty',
    'Drift: us/acceptance is diverged (main)'
  ])
  const short = HEAD.slice(0, 7)
  expect(issues[0]?.body).toBe(
    [
      '<!-- brcloud-drift stack=eu environment=acceptance -->',
      '**eu/acceptance** is **ahead by 3** against `main`.',
      '',
      '| | |',
      '|---|---|',
      '| State | ahead by 3 |',
      '| Tracked ref | `main` |',
      '| Runs | `acceptance.tar.gz` (id `d-acceptance`), uploaded 2026-11-20T10:00:00Z by ana |',
      `| Commit | [\`${short}\`](https://github.example/acme/site/commit/${HEAD}) (evidence: deployment, GitHub Deployment 77) |`,
      `| Last GitHub Deployment | [${short} success by ana at 2026-11-20T10:01:00Z](${deployRun}) |`,
      '| Why | line one line two |',
      '| Platform status | Running |',
      ...FOOTER
    ].join('\n')
  )
  expect(issues[1]?.body).toBe(
    [
      '<!-- brcloud-drift stack=us environment=production -->',
      '**us/production** is **outside**.',
      '',
      '| | |',
      '|---|---|',
      '| State | outside |',
      '| Tracked ref | none |',
      '| Runs | (id `d-production`), uploaded by bob |',
      '| Commit | `v1.2.3` (evidence: name) |',
      '| Last GitHub Deployment | 1234567 |',
      ...FOOTER
    ].join('\n')
  )
  expect(issues[2]?.body).toContain('**eu/production** is **behind by ?**.\n')
  expect(issues[2]?.body).toContain('| Runs | `production.tar.gz` (id `d-production`), uploaded 2026-11-19T08:00:00Z |\n| Commit | not known |')
  expect(issues[3]?.body).toContain(
    '| State | empty |\n| Tracked ref | `main` |\n| Runs | nothing |\n| Commit | not known |\n| Last GitHub Deployment | none |\n\nKept by'
  )
  expect(issues[4]?.body).toContain(
    '| State | diverged: ? ahead, 2 behind |\n| Tracked ref | `main` |\n| Runs | `acceptance.tar.gz` (id `d-acceptance`) |\n| Commit | not known |\n' +
      '| Last GitHub Deployment | commit unknown success by bot |\n'
  )
  expect(log).toEqual([
    `info: Drift issues: eu/acceptance is ahead: issue #${issues[0]?.number} opened (https://github.com/acme/site/issues/${issues[0]?.number}).`,
    `info: Drift issues: us/production is outside: issue #${issues[1]?.number} opened (https://github.com/acme/site/issues/${issues[1]?.number}).`,
    `info: Drift issues: eu/production is behind: issue #${issues[2]?.number} opened (https://github.com/acme/site/issues/${issues[2]?.number}).`,
    `info: Drift issues: us/development is empty: issue #${issues[3]?.number} opened (https://github.com/acme/site/issues/${issues[3]?.number}).`,
    `info: Drift issues: us/acceptance is diverged: issue #${issues[4]?.number} opened (https://github.com/acme/site/issues/${issues[4]?.number}).`,
    'info: Drift issues: 5 opened, 0 updated, 0 closed.'
  ])

  // GitHub answering no page address: the log names the issue alone.
  log.length = 0
  await keepDriftIssues(report(row('eu', 'test', 'empty')), api, { failOn: [], runUrl: undefined, serverUrl: 'https://github.example' })
  expect(log[0]).toBe(`info: Drift issues: eu/test is empty: issue #${open().at(-1)?.number} opened.`)

  // Back in sync with nothing running and no run page: the comment says only what it can.
  standIn.calls.length = 0
  await keepDriftIssues(report(row('us', 'production', 'in-sync', { track: null, trackedRef: null, distributionId: null, distributionName: null })), api, {
    failOn: [],
    runUrl: undefined,
    serverUrl: 'https://github.example'
  })
  expect(standIn.calls.find((c) => c.route === 'create-issue-comment')?.json).toEqual({
    body: 'us/production runs the head of `?` again. Closed by the brcloud status report.'
  })
})

test('a commit is linked only when it is a whole sha and the report knows its repository', async () => {
  const rows = [
    row('eu', 'a', 'behind', { commit: `${HEAD}0` }),
    row('eu', 'b', 'behind', { commit: `0${HEAD}` }),
    row('eu', 'c', 'behind', { commit: 'main~2' })
  ]
  await keep(report(...rows))
  await keep({ ...report(row('eu', 'd', 'behind', { commit: HEAD })), repository: null })
  const commits = open().map((i) => /\| Commit \| (.*) \|/.exec(i.body ?? '')?.[1])
  expect(commits).toEqual([
    `\`${HEAD}0\` (evidence: name)`,
    `\`0${HEAD}\` (evidence: name)`,
    '`main~2` (evidence: name)',
    `\`${HEAD.slice(0, 7)}\` (evidence: name)`
  ])
})

test('two issues of one environment listed newest first: still the oldest is kept', async () => {
  const first = standIn.model.addIssue({ title: 'first', body: `${driftMarker('eu', 'acceptance')}\nold`, labels: [DRIFT_LABEL] })
  const second = standIn.model.addIssue({ title: 'second', body: `${driftMarker('eu', 'acceptance')}\nold`, labels: [DRIFT_LABEL] })
  const outcome = await keepDriftIssues(report(row('eu', 'acceptance', 'behind')), await trackerOf({ newestFirst: true }), {
    failOn: [],
    runUrl: RUN,
    serverUrl: 'https://github.example'
  })
  expect(outcome.updated).toEqual([first.number])
  expect(log[0]).toBe(
    `warning: Drift issues: #${first.number}, #${second.number} all track eu/acceptance; #${first.number} (the oldest) is kept, close the others by hand.`
  )
})

test('fail-on unhealthy opens no issue and is no drift state: alone, the default states; with others, only theirs', async () => {
  const alone = await keepDriftIssuesOf(report(row('eu', 'acceptance', 'behind')), { githubToken: DEFAULT_GITHUB_TOKEN }, runnerContext(), ['unhealthy'])
  expect(alone.opened).toHaveLength(1)
  const withOutside = await keepDriftIssuesOf(report(row('eu', 'production', 'behind')), { githubToken: DEFAULT_GITHUB_TOKEN }, runnerContext(), [
    'unhealthy',
    'outside'
  ])
  expect(withOutside).toEqual({ opened: [], updated: [], closed: [], failures: [] })
  // The states that never open one are dropped from a fail-on list; an empty one is the default.
  expect(issueStates(['in-sync', 'unknown', 'deploying', 'behind'])).toEqual(['behind'])
  expect(issueStates(['unknown'])).toEqual([])
  expect(issueStates([])).toEqual(['behind', 'ahead', 'diverged', 'outside', 'empty'])
})
