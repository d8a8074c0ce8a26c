// The status report with the code on GitLab (issue 44), end to end: `brcloud status` as the bundle (dist-cli/) runs it,
// and the status action's bundle (status/dist/) as a runner runs it, against an emulator as the stack and the GitLab
// API stand-in over real HTTP. The file's `gitlab:` beside `track:`, per-environment tracks read in-sync, behind,
// ahead and diverged from the distributions' names; flags over the file over a GitLab CI job's own; GitLab not read
// fails the report closed, naming GitLab; drift issues kept as GitLab issues. The stack is only read.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { DEFAULT_GITLAB_TOKEN, fakeSha, startGitLabStandIn, type GitLabStandIn } from '../src/emulator/gitlab/server.js'
import { runAction, STATUS_ACTION } from '../scripts/lib/run-action.js'
import { expectNoSecrets, secretsOf } from './e2e-support.js'
import { brcloud, PROJECT, sweepRuns, writesOf, type CliRun } from './gitlab-e2e-support.js'

const TOKEN = DEFAULT_GITLAB_TOKEN
const folder = mkdtempSync(join(tmpdir(), 'brcd-gitlab-status-'))

let emu: Emulator
let gl: GitLabStandIn
/** A GitLab that no longer listens: a stand-in started and closed, so nothing answers at its address. */
let downUrl: string
/** main: a <- b <- c <- d; release: b; feature: b <- f. */
const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(fakeSha) as [string, string, string, string]
const f = fakeSha('f')
const short = (sha: string): string => sha.slice(0, 7)

/** The environment runs a distribution whose default name carries `sha` (as a deploy from the project names it). */
async function runs(environment: string, sha: string): Promise<void> {
  emu.deployAs(environment, await emu.addDistribution(`site-${short(sha)}-distribution.tar.gz`, { 'index.html': sha }), { seconds: 0 })
}

beforeAll(async () => {
  emu = await startEmulator({ environments: ['production', 'acceptance', 'development', 'test'] })
  gl = await startGitLabStandIn()
  gl.model.linear('main', [a, b, c, d])
  gl.model.branch('release', b)
  gl.model.commit(f, [b])
  gl.model.branch('feature', f)
  // production runs main's head; acceptance an older commit of main; development main's c, ahead of release (b); test a
  // commit of feature, off main's b.
  await runs('production', d)
  await runs('acceptance', b)
  await runs('development', c)
  await runs('test', f)
  const down = await startGitLabStandIn()
  downUrl = down.url
  await down.close()
}, 60_000)

afterAll(async () => {
  await Promise.all([emu?.close(), gl?.close()])
})

afterEach(() => {
  // Read-only for the stack: no upload, deploy, delete or logout.
  expect(emu.requests.filter((r) => ['upload', 'delete-distribution', 'deploy', 'logout'].includes(r.operation))).toEqual([])
  sweepRuns([emu], [gl], [TOKEN])
})

/** The file: `gitlab:` as given, main tracked, development tracking release. */
function config(name: string, gitlab: string[]): string {
  const file = join(folder, name)
  writeFileSync(
    file,
    [
      ...gitlab,
      'track: main',
      'stacks:',
      '  - name: eu',
      `    api-url: ${emu.url}`,
      '    environments:',
      '      - production',
      '      - acceptance',
      '      - name: development',
      '        track: release',
      '      - test',
      ''
    ].join('\n')
  )
  return file
}

const GITLAB = (): string[] => ['gitlab:', `  project: ${PROJECT}`, `  url: ${gl.url}`]
const LOGIN = (): Record<string, string> => ({ BRCLOUD_USERNAME: emu.username, BRCLOUD_PASSWORD: emu.password })

function status(args: string[], env: Record<string, string>): Promise<CliRun> {
  return brcloud(['status', ...args], env)
}

interface Row {
  environment: string
  state: string
  behindBy: number | null
  aheadBy: number | null
  commit: string | null
  evidence: string
  track: string
  reason: string | null
}
/** The rows of a report's JSON: `brcloud status --json`'s stdout, or the action's json output. */
const rowsOf = (r: CliRun | { outputs: Record<string, string> }): Array<Partial<Row>> => {
  const text = 'outputs' in r ? (r.outputs.json ?? '{}') : r.stdout
  return (JSON.parse(text) as { environments: Row[] }).environments.map((e) => ({
    environment: e.environment,
    state: e.state,
    behindBy: e.behindBy,
    aheadBy: e.aheadBy,
    commit: e.commit,
    evidence: e.evidence,
    track: e.track
  }))
}

const EXPECTED: Array<Partial<Row>> = [
  { environment: 'production', state: 'in-sync', behindBy: 0, aheadBy: 0, commit: short(d), evidence: 'name', track: 'main' },
  { environment: 'acceptance', state: 'behind', behindBy: 2, aheadBy: 0, commit: short(b), evidence: 'name', track: 'main' },
  { environment: 'development', state: 'ahead', behindBy: 0, aheadBy: 1, commit: short(c), evidence: 'name', track: 'release' },
  { environment: 'test', state: 'diverged', behindBy: 2, aheadBy: 1, commit: short(f), evidence: 'name', track: 'main' }
]

/** Every call GitLab received since `from` read (GET), with the token, at the project. */
function expectReadsOnly(from: number): void {
  const calls = gl.calls.slice(from)
  expect(calls.length).toBeGreaterThan(0)
  for (const call of calls) {
    expect([call.method, call.token, call.status]).toEqual(['GET', TOKEN, 200])
    expect(call.path.startsWith(`/api/v4/projects/${encodeURIComponent(PROJECT)}/`)).toBe(true)
  }
}

describe('brcloud status', () => {
  test("the file's gitlab: and per-environment tracks: in-sync, behind, ahead and diverged, from GitLab's merge base and compares", async () => {
    const from = gl.calls.length
    const r = await status(['--config', config('fleet.yml', GITLAB()), '--json'], { ...LOGIN(), BRCLOUD_GITLAB_TOKEN: TOKEN })
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
    expect(rowsOf(r)).toEqual(EXPECTED)
    expect(JSON.parse(r.stdout)).toMatchObject({ github: { repository: PROJECT, errors: [] } })
    expectReadsOnly(from)
    // Each tracked ref against each running commit: the merge base of the two, as GitLab answers it.
    // The rows are read side by side, so the calls come in any order: compared as a sorted list.
    const bases = gl.calls
      .slice(from)
      .filter((x) => x.route === 'merge-base')
      .map((x) => x.query.getAll('refs[]').join(' '))
      .sort()
    expect(bases).toEqual([`main ${short(d)}`, `main ${short(b)}`, `release ${short(c)}`, `main ${short(f)}`].sort())
    // The table: the counts, and the evidence (the name: GitLab's deployments record no distribution).
    const table = await status(['--config', config('fleet.yml', GITLAB())], { ...LOGIN(), BRCLOUD_GITLAB_TOKEN: TOKEN })
    expect(table.code).toBe(0)
    expect(table.stdout).toMatch(/^eu\s+acceptance\s+behind 2\s+-\s+main\s+[0-9a-f]{7}\s+name\s/m)
    expect(table.stdout).toMatch(/^eu\s+development\s+ahead 1\s+-\s+release\s/m)
    expect(table.stdout).toMatch(/^eu\s+test\s+diverged \+1 -2\s+-\s+main\s/m)
  })

  test("flags and variables win over the file's gitlab:, which wins over a GitLab CI job's own project and API", async () => {
    // The file names another instance and project: the flags say where the code is.
    const wrong = config('wrong.yml', ['gitlab:', '  project: acme/other/site', `  url: ${downUrl}`])
    const flags = await status(['--config', wrong, '--json', '--gitlab-project', PROJECT, '--gitlab-url', gl.url], { ...LOGIN(), BRCLOUD_GITLAB_TOKEN: TOKEN })
    expect({ code: flags.code, stderr: flags.stderr, rows: rowsOf(flags) }).toEqual({ code: 0, stderr: '', rows: EXPECTED })
    const variables = await status(['--config', wrong, '--json'], {
      ...LOGIN(),
      BRCLOUD_GITLAB_TOKEN: TOKEN,
      BRCLOUD_GITLAB_PROJECT: PROJECT,
      BRCLOUD_GITLAB_URL: gl.apiUrl
    })
    expect({ code: variables.code, rows: rowsOf(variables) }).toEqual({ code: 0, rows: EXPECTED })

    // In a GitLab CI job: the file's short form names the project, the job's CI_API_V4_URL the instance, and the
    // token comes from the variable the file names; the job's CI_PROJECT_PATH (another project) is not read.
    const job = { GITLAB_CI: 'true', CI_PROJECT_PATH: 'acme/ops/fleet-report', CI_API_V4_URL: gl.apiUrl, SITE_GITLAB_TOKEN: TOKEN }
    const shortForm = config('short.yml', ['gitlab:', `  project: ${PROJECT}`, '  token-variable: SITE_GITLAB_TOKEN'])
    const inCi = await status(['--config', shortForm, '--json'], { ...LOGIN(), ...job })
    expect({ code: inCi.code, rows: rowsOf(inCi) }).toEqual({ code: 0, rows: EXPECTED })
    // No gitlab: in the file: the job's own project.
    const bare = config('bare.yml', [])
    const own = await status(['--config', bare, '--json'], { ...LOGIN(), ...job, CI_PROJECT_PATH: PROJECT, BRCLOUD_GITLAB_TOKEN: TOKEN })
    expect({ code: own.code, rows: rowsOf(own) }).toEqual({ code: 0, rows: EXPECTED })

    // Without a token, a GitLab CI job's project and API are not taken: GitLab is not asked, the rows are unknown.
    const from = gl.calls.length
    const none = await status(['--config', bare, '--json'], { ...LOGIN(), ...job, CI_PROJECT_PATH: PROJECT, SITE_GITLAB_TOKEN: '' })
    expect(none.code).toBe(0)
    expect(rowsOf(none).map((row) => row.state)).toEqual(['unknown', 'unknown', 'unknown', 'unknown'])
    expect(gl.calls.length).toBe(from)
  })

  test('GitLab unreachable, or refusing, fails the report closed (exit 1), naming GitLab; the rows read unknown', async () => {
    const down = await status(['--config', config('down.yml', ['gitlab:', `  project: ${PROJECT}`, `  url: ${downUrl}`]), '--json'], {
      ...LOGIN(),
      BRCLOUD_GITLAB_TOKEN: TOKEN
    })
    expect({ code: down.code, stderr: down.stderr }).toEqual({
      code: 1,
      stderr: 'error: The report is not complete: GitLab could not be read (its rows read unknown).\n'
    })
    expect(rowsOf(down).map((row) => row.state)).toEqual(['unknown', 'unknown', 'unknown', 'unknown'])
    // Why, in the report: the address that did not answer, and what to check.
    const [why, ...more] = (JSON.parse(down.stdout) as { github: { errors: string[] } }).github.errors
    expect(more).toEqual([])
    expect(why?.startsWith(`GitLab could not be read: Listing GitLab deployments: ${downUrl}/api/v4 could not be reached (`)).toBe(true)
    expect(why).toMatch(/\(GitLab's API did not answer: check the GitLab address, the network, a proxy\)$/)

    gl.refuse({ status: 503 })
    try {
      const refused = await status(['--config', config('fleet.yml', GITLAB())], { ...LOGIN(), BRCLOUD_GITLAB_TOKEN: TOKEN })
      expect({ code: refused.code, stderr: refused.stderr }).toEqual({
        code: 1,
        stderr: 'error: The report is not complete: GitLab could not be read (its rows read unknown).\n'
      })
      expect(refused.stdout).toMatch(/^Not read:\n {2}GitLab could not be read: .*HTTP 503 \(503 Service Unavailable\) \(GitLab failed; try again later\)$/m)
    } finally {
      gl.refuse(undefined)
    }
  })

  test("refused before any request (exit 2): both tokens; a GitLab token without a project outside GitLab CI; a malformed project; the file's token variable not set", async () => {
    const stack = emu.requests.length
    const calls = gl.calls.length
    const bare = config('bare.yml', [])
    const both = await status(['--config', config('fleet.yml', GITLAB())], {
      ...LOGIN(),
      BRCLOUD_GITLAB_TOKEN: TOKEN,
      BRCLOUD_GITHUB_TOKEN: 'ghs_BothTokensStatus01'
    })
    expect({ code: both.code, stderr: both.stderr }).toEqual({
      code: 2,
      stderr: expect.stringMatching(/^error: github-token and gitlab-token are both set: the code lives in one place\./)
    })
    const noProject = await status(['--config', bare], { ...LOGIN(), BRCLOUD_GITLAB_TOKEN: TOKEN })
    expect(noProject.code).toBe(2)
    expect(noProject.stderr).toMatch(/^error: gitlab-token is set but gitlab-project is empty/)
    const malformed = await status(['--config', bare, '--gitlab-project', 'acme'], { ...LOGIN(), BRCLOUD_GITLAB_TOKEN: TOKEN })
    expect(malformed.code).toBe(2)
    expect(malformed.stderr).toMatch(/^error: gitlab-project is not a GitLab project: 'acme'\./)
    // The variable the file names for the token, not set in this job (and no BRCLOUD_GITLAB_TOKEN, which would win): refused, not
    // read on without GitLab.
    const unset = await status(['--config', config('unset.yml', [...GITLAB(), '  token-variable: SITE_GITLAB_TOKEN'])], LOGIN())
    expect({ code: unset.code, stderr: unset.stderr }).toEqual({
      code: 2,
      stderr:
        "error: The file's gitlab.token-variable names SITE_GITLAB_TOKEN, which is not set or empty (a CI job gets a secret only where it is passed in): " +
        'set it to a GitLab access token with scope read_api (api to keep drift issues).\n'
    })
    expect([emu.requests.length, gl.calls.length]).toEqual([stack, calls])
  })
})

describe('the status action (status/dist) with gitlab-token, gitlab-project and gitlab-url', () => {
  test('reads each row against GitLab: the outputs json and drift, the token masked, GitLab only read', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'brcd-gitlab-status-action-'))
    writeFileSync(
      join(workspace, 'fleet.yml'),
      ['track: main', 'stacks:', '  - name: eu', `    api-url: ${emu.url}`, '    environments: [production, acceptance]', ''].join('\n')
    )
    const from = gl.calls.length
    const r = await runAction(
      { config: 'fleet.yml', 'gitlab-token': TOKEN, 'gitlab-project': PROJECT, 'gitlab-url': gl.url },
      { action: STATUS_ACTION, workspace, env: LOGIN() }
    )
    expect({ code: r.code, errors: r.errors, stderr: r.stderr }).toEqual({ code: 0, errors: [], stderr: '' })
    expect(rowsOf(r)).toEqual(EXPECTED.slice(0, 2))
    expect(r.outputs.drift).toBe('true')
    expect(JSON.parse(r.outputs.json ?? '{}')).toMatchObject({ github: { repository: PROJECT, errors: [] } })
    expect(r.summary).toMatch(/^## What runs where\n\nRepository: acme\/platform\/site\n/)
    expect(r.summary).toContain('| Uploaded | Last GitLab deployment | Frozen |')
    expect(r.stdout).toContain(`::add-mask::${TOKEN}`)
    expectReadsOnly(from)
    expectNoSecrets([r], [...secretsOf(emu), TOKEN])
  })
})

// Last: the only test that writes to GitLab (its issues), and that changes what an environment runs.
describe('brcloud status --drift-issues', () => {
  test('an issue per drifted row; after a fix the in-sync one is closed with a note, the others kept, none opened twice', async () => {
    const file = config('drift.yml', GITLAB())
    const env = { ...LOGIN(), BRCLOUD_GITLAB_TOKEN: TOKEN }
    gl.calls.length = 0
    const first = await status(['--config', file, '--drift-issues'], env)
    expect(first.code).toBe(0)
    expect(first.stderr).toMatch(/^Drift issues: 3 opened, 0 updated, 0 closed\.$/m)
    expect(first.stderr).toMatch(
      new RegExp(`^Drift issues: eu/acceptance is behind: issue #1 opened \\(${gl.url.replace(/[.]/g, '\\.')}/acme/platform/site/-/issues/1\\)\\.$`, 'm')
    )
    const issues = () => gl.model.issues.map((i) => [i.iid, i.title, i.state, i.labels])
    expect(issues()).toEqual([
      [1, 'Drift: eu/acceptance is behind (main)', 'opened', ['brcloud-drift']],
      [2, 'Drift: eu/development is ahead (release)', 'opened', ['brcloud-drift']],
      [3, 'Drift: eu/test is diverged (main)', 'opened', ['brcloud-drift']]
    ])
    expect(writesOf(gl)).toEqual(['POST create-label 201', 'POST create-issue 201', 'POST create-issue 201', 'POST create-issue 201'])

    // Nothing changed: nothing written.
    gl.calls.length = 0
    const again = await status(['--config', file, '--drift-issues'], env)
    expect(again.code).toBe(0)
    expect(again.stderr).toMatch(/^Drift issues: 0 opened, 0 updated, 0 closed\.$/m)
    expect(writesOf(gl)).toEqual([])

    // acceptance runs main's head again: its issue is closed with a note; development's and test's stay open.
    await runs('acceptance', d)
    gl.calls.length = 0
    const fixed = await status(['--config', file, '--drift-issues'], env)
    expect(fixed.code).toBe(0)
    expect(fixed.stderr).toMatch(/^Drift issues: eu\/acceptance is in-sync again: issue #1 closed\.$/m)
    expect(fixed.stderr).toMatch(/^Drift issues: 0 opened, 0 updated, 1 closed\.$/m)
    expect(writesOf(gl)).toEqual(['POST create-note 201', 'PUT update-issue 200'])
    expect(issues()).toEqual([
      [1, 'Drift: eu/acceptance is behind (main)', 'closed', ['brcloud-drift']],
      [2, 'Drift: eu/development is ahead (release)', 'opened', ['brcloud-drift']],
      [3, 'Drift: eu/test is diverged (main)', 'opened', ['brcloud-drift']]
    ])
    expect(gl.model.issue(1).notes.map((n) => n.body)).toEqual([
      expect.stringMatching(
        new RegExp(`^eu/acceptance runs the head of \`main\` again: \`site-${short(d)}-distribution\\.tar\\.gz\` .*Closed by the brcloud status report\\.$`)
      )
    ])
    expect(gl.model.issue(2).notes).toEqual([])
  })
})
