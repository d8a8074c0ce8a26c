// The code on GitLab, end to end (issue 44): `brcloud deploy` as the bundle (dist-cli/) runs it in a GitLab CI job and
// in a Jenkins job, against the emulator and the GitLab API stand-in (src/emulator/gitlab) over real HTTP. Each case
// asserts what GitLab received (its calls, the deployments of the environment's history), what the platform received,
// and what the user sees (the exit code, the lines on stderr, the outputs). docs/gitlab.md says what is proved here.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { DEFAULT_GITLAB_TOKEN, fakeSha, startGitLabStandIn, type GitLabStandIn, type GitLabStandInOptions } from '../src/emulator/gitlab/server.js'
import { ops, release } from './e2e-support.js'
import { brcloud, callsOf, deploymentsOf, gitLabCiJob, jenkinsJob, PROJECT, sweepRuns, writesOf, type CliRun } from './gitlab-e2e-support.js'

const TOKEN = DEFAULT_GITLAB_TOKEN
const READ_ONLY = 'glpat-ReadApiOnly0123456789'
const GITHUB_TOKEN = 'ghs_BothTokens0123456789'

let emu: Emulator | undefined
let gl: GitLabStandIn | undefined
/** main: c1 <- c2 <- c3 <- c4 <- c5; feature: c2 <- f1. */
const c = ['c1', 'c2', 'c3', 'c4', 'c5'].map(fakeSha) as [string, string, string, string, string]
const f1 = fakeSha('f1')
const short = (sha: string): string => sha.slice(0, 7)

async function setUp(options: GitLabStandInOptions = {}): Promise<{ emu: Emulator; gl: GitLabStandIn }> {
  // A deploy is seen in progress by one look, then lands: each run sees its own switch, whatever the machine's speed.
  emu = await startEmulator({ deployLooks: 1 })
  gl = await startGitLabStandIn({ tokens: { [TOKEN]: { scopes: ['api'] }, [READ_ONLY]: { scopes: ['read_api'] } }, ...options })
  const branch = gl.model.project.defaultBranch
  gl.model.linear(branch, c)
  gl.model.commit(f1, [c[1]])
  gl.model.branch('feature', f1)
  return { emu, gl }
}

afterEach(async () => {
  try {
    sweepRuns([emu], [gl], [TOKEN, READ_ONLY, GITHUB_TOKEN])
  } finally {
    await Promise.all([emu?.close(), gl?.close()])
    emu = undefined
    gl = undefined
  }
})

/** `brcloud deploy` to production with the platform's password in the environment, as a CI job gives it. */
function deploy(e: Emulator, flags: string[], env: Record<string, string>): Promise<CliRun> {
  return brcloud(['deploy', '--api-url', e.url, '--username', e.username, '--environment', 'production', '--json', ...flags], {
    BRCLOUD_PASSWORD: e.password,
    ...env
  })
}

/** A GitLab CI job at `sha` with the token as its one setting (a masked CI/CD variable). */
const ciJob = (g: GitLabStandIn, sha: string, over: Record<string, string> = {}) => ({ ...gitLabCiJob(g, sha, over), BRCLOUD_GITLAB_TOKEN: TOKEN })

const outputs = (r: CliRun): Record<string, string> => JSON.parse(r.stdout) as Record<string, string>
const running = (e: Emulator): string | null | undefined => e.environments.find((x) => x.name === 'production')?.distributionId
const lines = (r: CliRun, kind: 'warning' | 'error' | 'notice'): string[] => r.stderr.split('\n').filter((l) => l.startsWith(`${kind}: `))

describe('in a GitLab CI job (only BRCLOUD_GITLAB_TOKEN set)', () => {
  test('a deploy is a GitLab deployment: success, the commit, the branch; an older commit is refused (exit 3); allow-older-commit deploys it with a warning', async () => {
    const { emu: e, gl: g } = await setUp()
    const first = await deploy(e, ['--distribution', release('v3')], ciJob(g, c[2]))
    expect({ code: first.code, warnings: lines(first, 'warning') }).toEqual({ code: 0, warnings: [] })
    expect(outputs(first)).toMatchObject({ deployed: 'true', 'release-state': 'verified', 'distribution-name': `site-${short(c[2])}-distribution.tar.gz` })
    expect(deploymentsOf(g)).toEqual([{ environment: 'production', sha: c[2], ref: 'main', tag: false, status: 'success' }])
    // Created running (GitLab takes no other status for one under way), then set to success: nothing else written.
    expect(writesOf(g)).toEqual(['POST create-deployment 201', 'PUT update-deployment 200'])
    expect(callsOf(g, 'create-deployment')[0]?.body).toEqual({ environment: 'production', sha: c[2], ref: 'main', tag: false, status: 'running' })
    expect(callsOf(g, 'update-deployment')[0]?.body).toEqual({ status: 'success' })
    // The job's own project and API (CI_PROJECT_PATH, CI_API_V4_URL), the token as PRIVATE-TOKEN.
    for (const call of g.calls) expect([call.path.startsWith(`/api/v4/projects/${encodeURIComponent(PROJECT)}/`), call.token]).toEqual([true, TOKEN])
    expect(first.stderr).toMatch(/^Recorded as GitLab deployment \d+ of environment 'production'\.$/m)

    const asked = g.calls.length
    const older = await deploy(e, ['--distribution', release('v1')], ciJob(g, c[0]))
    expect(older.code).toBe(3)
    expect(lines(older, 'error')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^error: Refused: commit ${short(c[0])} is older than ${short(c[2])}, which 'production' runs \\(from the distribution's name site-${short(c[2])}-distribution\\.tar\\.gz; 2 commit\\(s\\) newer\\)\\. .*nothing was changed\\. To go back to an older release on purpose, set allow-older-commit: true`
        )
      )
    ])
    expect(outputs(older)).toMatchObject({ order: 'behind', 'running-commit': short(c[2]) })
    expect(outputs(older)).not.toHaveProperty('deployed')
    // Nothing deployed, nothing uploaded, no deployment created: GitLab was only read (the merge base and a compare).
    expect([ops(e, 'upload').length, ops(e, 'deploy').length]).toEqual([1, 1])
    expect(deploymentsOf(g)).toHaveLength(1)
    const reads = g.calls.slice(asked)
    expect(reads.filter((x) => x.method !== 'GET')).toEqual([])
    expect(reads.filter((x) => x.route === 'merge-base').map((x) => x.query.getAll('refs[]'))).toEqual([[short(c[2]), c[0]]])
    expect(reads.some((x) => x.route === 'compare')).toBe(true)

    const back = await deploy(e, ['--distribution', release('v1'), '--allow-older-commit', 'true'], ciJob(g, c[0]))
    expect(back.code).toBe(0)
    expect(lines(back, 'warning')).toEqual([expect.stringMatching(/^warning: Deploying an older commit on purpose \(allow-older-commit: true\)/)])
    expect(outputs(back)).toMatchObject({ order: 'behind', deployed: 'true', 'release-state': 'verified' })
    expect(running(e)).toBe(outputs(back)['distribution-id'])
    expect(deploymentsOf(g)).toEqual([
      { environment: 'production', sha: c[2], ref: 'main', tag: false, status: 'success' },
      { environment: 'production', sha: c[0], ref: 'main', tag: false, status: 'success' }
    ])
  })

  test("environment-url: the deployment's success also sets the GitLab environment's external URL", async () => {
    const { emu: e, gl: g } = await setUp()
    const site = 'https://www.example.com/'
    const r = await deploy(e, ['--distribution', release('v3'), '--environment-url', site], ciJob(g, c[2]))
    expect({ code: r.code, warnings: lines(r, 'warning') }).toEqual({ code: 0, warnings: [] })
    expect(writesOf(g)).toEqual(['POST create-deployment 201', 'PUT update-deployment 200', 'PUT update-environment 200'])
    expect(callsOf(g, 'update-environment')[0]?.body).toEqual({ external_url: site })
    expect(g.model.environment('production')?.external_url).toBe(site)
    expect(deploymentsOf(g)).toEqual([{ environment: 'production', sha: c[2], ref: 'main', tag: false, status: 'success' }])
  })

  test('a commit of another branch deploys, with a notice that the two are on different lines; the deployment names that branch', async () => {
    const { emu: e, gl: g } = await setUp()
    expect((await deploy(e, ['--distribution', release('v3')], ciJob(g, c[2]))).code).toBe(0)
    const branch = await deploy(e, ['--distribution', release('feature')], ciJob(g, f1, { CI_COMMIT_BRANCH: 'feature' }))
    expect(branch.code).toBe(0)
    expect(outputs(branch)).toMatchObject({ order: 'diverged', deployed: 'true', 'running-commit': short(c[2]) })
    expect(lines(branch, 'notice')).toContainEqual(
      expect.stringMatching(
        new RegExp(`^notice: Deploy order: commit ${short(f1)} .* and ${short(c[2])}, which 'production' runs .* are on different branches`)
      )
    )
    expect(deploymentsOf(g).at(-1)).toEqual({ environment: 'production', sha: f1, ref: 'feature', tag: false, status: 'success' })
  })

  test('a release that fails its health check and is rolled back: exit 5, its GitLab deployment ends failed', async () => {
    const { emu: e, gl: g } = await setUp()
    expect((await deploy(e, ['--distribution', release('v1')], ciJob(g, c[0]))).code).toBe(0)
    const before = running(e)
    const site = `${e.url}/sites/production/version.txt`
    const broken = ['--distribution', release('v2', true), '--health-url', site, '--health-timeout-minutes', '0.03', '--rollback', 'true']
    const r = await deploy(e, broken, ciJob(g, c[1]))
    expect(r.code).toBe(5)
    expect(outputs(r)).toMatchObject({ deployed: 'true', 'rolled-back': 'true', 'environment-distribution-id': before })
    expect(lines(r, 'error')).toEqual([expect.stringMatching(/Rolled back/)])
    expect(deploymentsOf(g)).toEqual([
      { environment: 'production', sha: c[0], ref: 'main', tag: false, status: 'success' },
      { environment: 'production', sha: c[1], ref: 'main', tag: false, status: 'failed' }
    ])
    expect(callsOf(g, 'update-deployment').map((x) => x.body?.status)).toEqual(['success', 'failed'])
  })

  test('a tag pipeline (CI_COMMIT_TAG, no branch): the deployment names the tag, tag true', async () => {
    const { emu: e, gl: g } = await setUp()
    g.model.tag('v1.3.0', c[3])
    const job = ciJob(g, c[3], { CI_COMMIT_TAG: 'v1.3.0' })
    delete (job as Record<string, string | undefined>).CI_COMMIT_BRANCH
    const r = await deploy(e, ['--distribution', release('v1.3.0')], job)
    expect(r.code).toBe(0)
    expect(deploymentsOf(g)).toEqual([{ environment: 'production', sha: c[3], ref: 'v1.3.0', tag: true, status: 'success' }])
    expect(callsOf(g, 'create-deployment')[0]?.body).toMatchObject({ ref: 'v1.3.0', tag: true })
  })

  test("without a token nothing is asked of GitLab: the job's project and API are not taken, and nothing says they were", async () => {
    const { emu: e, gl: g } = await setUp()
    const job = gitLabCiJob(g, c[1])
    expect((await deploy(e, ['--distribution', release('v2')], job)).code).toBe(0)
    const r = await deploy(e, ['--distribution', release('v3')], gitLabCiJob(g, c[2]))
    expect(r.code).toBe(0)
    expect(outputs(r)).toMatchObject({ order: 'unknown', deployed: 'true' })
    expect(r.stderr).not.toMatch(/gitlab-project|gitlab-url/)
    expect(lines(r, 'warning')).toEqual([])
    expect(g.calls).toEqual([])
  })
})

describe('in a Jenkins job (BRCLOUD_GITLAB_URL, BRCLOUD_GITLAB_PROJECT, BRCLOUD_GITLAB_TOKEN; the commit from GIT_COMMIT)', () => {
  test("the deployment names the project's default branch, read from GitLab; an older commit is refused", async () => {
    // A default branch other than main: the ref comes from the project, not from a guess.
    const { emu: e, gl: g } = await setUp({ defaultBranch: 'trunk' })
    const first = await deploy(e, ['--distribution', release('v4')], jenkinsJob(g, c[3], TOKEN))
    expect(first.code).toBe(0)
    expect(deploymentsOf(g)).toEqual([{ environment: 'production', sha: c[3], ref: 'trunk', tag: false, status: 'success' }])
    expect(g.calls.map((x) => `${x.method} ${x.route} ${x.status}`)).toEqual(['GET get-project 200', 'POST create-deployment 201', 'PUT update-deployment 200'])

    const older = await deploy(e, ['--distribution', release('v2')], jenkinsJob(g, c[1], TOKEN))
    expect(older.code).toBe(3)
    expect(lines(older, 'error')).toEqual([
      expect.stringMatching(new RegExp(`^error: Refused: commit ${short(c[1])} is older than ${short(c[3])}, which 'production' runs`))
    ])
    expect(outputs(older)).toMatchObject({ order: 'behind', 'running-commit': short(c[3]) })
    expect([ops(e, 'upload').length, ops(e, 'deploy').length, deploymentsOf(g).length]).toEqual([1, 1, 1])
  })
})

describe('GitLab failing: the deploy fails closed', () => {
  /** production runs c2, deployed and recorded while GitLab answered. */
  async function deployed(): Promise<{ e: Emulator; g: GitLabStandIn; before: string | null | undefined }> {
    const { emu: e, gl: g } = await setUp()
    expect((await deploy(e, ['--distribution', release('v2')], ciJob(g, c[1]))).code).toBe(0)
    g.calls.length = 0
    return { e, g, before: running(e) }
  }

  test('503 on every call: refused before any change (exit 3), the read tried three times; with --allow-unchecked-order a warning, and the deploy goes on', async () => {
    const { e, g, before } = await deployed()
    g.refuse({ status: 503 })
    const summary = join(mkdtempSync(join(tmpdir(), 'brcd-gitlab-')), 'summary.md')
    const refused = await deploy(e, ['--distribution', release('v3'), '--summary', summary], ciJob(g, c[2]))
    expect(refused.code).toBe(3)
    expect(readFileSync(summary, 'utf8')).toContain(
      "**❌ Refused: the deploy order on 'production' could not be checked (GitLab could not be read); nothing was deployed**"
    )
    expect(lines(refused, 'error')).toEqual([
      expect.stringMatching(
        /^error: Refused: the deploy order on 'production' could not be checked: Listing GitLab deployments: HTTP 503 \(503 Service Unavailable\); GitLab failed; run again later\. gitlab-token asks for the check, and it cannot be made, so nothing was changed\. To deploy while GitLab cannot be read, set allow-unchecked-order: true\.$/
      )
    ])
    expect(outputs(refused)).toMatchObject({ order: 'unknown' })
    // A read after a 5xx is tried again (three attempts), then the order is given up, before any upload.
    expect(g.calls.map((x) => `${x.method} ${x.route} ${x.status}`)).toEqual(Array(3).fill('GET list-deployments 503'))
    expect([ops(e, 'upload').length, ops(e, 'deploy').length, running(e)]).toEqual([1, 1, before])

    g.calls.length = 0
    const anyway = await deploy(e, ['--distribution', release('v3'), '--allow-unchecked-order', 'true'], ciJob(g, c[2]))
    expect(anyway.code).toBe(0)
    expect(lines(anyway, 'warning')).toEqual([
      expect.stringMatching(
        /^warning: Deploy order not checked: Listing GitLab deployments: HTTP 503 \(503 Service Unavailable\); GitLab failed; run again later\. The deploy goes on \(allow-unchecked-order: true\)\.$/
      ),
      // GitLab down: no scope or role to give.
      'warning: Creating a GitLab deployment: HTTP 503 (503 Service Unavailable): the deploy is not recorded as a GitLab deployment, and goes on.'
    ])
    expect(outputs(anyway)).toMatchObject({ order: 'unknown', deployed: 'true', 'release-state': 'verified' })
    expect(running(e)).toBe(outputs(anyway)['distribution-id'])
    // The deployment was asked for once (a write is never sent twice), and none was recorded.
    expect(callsOf(g, 'create-deployment').map((x) => x.status)).toEqual([503])
    expect(deploymentsOf(g)).toHaveLength(1)
  })

  test('429 with Retry-After: refused before any change, naming the rate limit and when it lifts; the read is not tried again', async () => {
    const { e, g } = await deployed()
    g.refuse({ status: 429, retryAfterSeconds: 42 })
    const r = await deploy(e, ['--distribution', release('v3')], ciJob(g, c[2]))
    expect(r.code).toBe(3)
    expect(lines(r, 'error')).toEqual([
      expect.stringMatching(
        /^error: Refused: the deploy order on 'production' could not be checked: Listing GitLab deployments: HTTP 429 \(GitLab's rate limit for the token was reached: it lifts in 42 s\); GitLab's rate limit for gitlab-token was reached \(no scope is missing\): run again once it lifts\. .*nothing was changed/
      )
    ])
    expect(g.calls.map((x) => `${x.method} ${x.route} ${x.status}`)).toEqual(['GET list-deployments 429'])
    expect([ops(e, 'upload').length, ops(e, 'deploy').length]).toEqual([1, 1])
  })

  test('a token GitLab refuses (401): named as GitLab refusing the token; nothing changed', async () => {
    const { e, g } = await deployed()
    const wrong = 'glpat-NotKnownToGitLab0000'
    const r = await deploy(e, ['--distribution', release('v3')], { ...gitLabCiJob(g, c[2]), BRCLOUD_GITLAB_TOKEN: wrong })
    expect(r.code).toBe(3)
    expect(lines(r, 'error')).toEqual([
      expect.stringMatching(
        /^error: Refused: the deploy order on 'production' could not be checked: Listing GitLab deployments: HTTP 401 \(401 Unauthorized; GitLab refused the token: it is wrong, expired or revoked\); GitLab refused gitlab-token \(401\): pass a valid project or personal access token/
      )
    ])
    expect(g.calls.map((x) => [x.route, x.status, x.token])).toEqual([['list-deployments', 401, wrong]])
    expect([ops(e, 'upload').length, ops(e, 'deploy').length]).toEqual([1, 1])
    expect(r.stdout + r.stderr).not.toContain(wrong)
  })

  test('a read_api token: the order is checked; recording the deployment is refused with a warning naming the scope api; the deploy succeeds', async () => {
    const { e, g } = await deployed()
    const r = await deploy(e, ['--distribution', release('v3')], { ...gitLabCiJob(g, c[2]), BRCLOUD_GITLAB_TOKEN: READ_ONLY })
    expect(r.code).toBe(0)
    expect(outputs(r)).toMatchObject({ order: 'ahead', 'running-commit': short(c[1]), deployed: 'true', 'release-state': 'verified' })
    expect(lines(r, 'warning')).toEqual([
      'warning: Creating a GitLab deployment: HTTP 403 (The request requires higher privileges than provided by the access token; the token needs the scope api): ' +
        'the deploy is not recorded as a GitLab deployment, and goes on. Give the token the api scope and at least the Developer role (docs/gitlab.md).'
    ])
    expect(g.calls.filter((x) => x.method !== 'GET').map((x) => [x.route, x.status])).toEqual([['create-deployment', 403]])
    expect(g.calls.filter((x) => x.method === 'GET').every((x) => x.status === 200)).toBe(true)
    expect(deploymentsOf(g)).toHaveLength(1)
    expect(running(e)).toBe(outputs(r)['distribution-id'])
  })

  test('a slow GitLab (every answer late, well within the call limit) changes nothing but the time', async () => {
    const { e, g } = await deployed()
    g.slow(300)
    const r = await deploy(e, ['--distribution', release('v3')], ciJob(g, c[2]))
    expect({ code: r.code, warnings: lines(r, 'warning') }).toEqual({ code: 0, warnings: [] })
    expect(outputs(r)).toMatchObject({ order: 'ahead', deployed: 'true', 'release-state': 'verified' })
    expect(g.calls.every((x) => x.status >= 200 && x.status < 300)).toBe(true)
    expect(deploymentsOf(g).at(-1)).toEqual({ environment: 'production', sha: c[2], ref: 'main', tag: false, status: 'success' })
  })
})

describe('bad input: refused before any request (exit 2)', () => {
  test.each<[string, (g: GitLabStandIn) => Record<string, string>, string[], RegExp]>([
    [
      'a GitHub token and a GitLab token',
      (g) => ({ ...ciJob(g, c[2]), BRCLOUD_GITHUB_TOKEN: GITHUB_TOKEN, BRCLOUD_REPOSITORY: 'acme/site' }),
      [],
      /^error: github-token and gitlab-token are both set: the code lives in one place\. Keep github-token for a repository on GitHub, or gitlab-token \(with gitlab-project\) for a project on GitLab, and remove the other\.$/
    ],
    [
      'a GitHub token and a GitLab token, no repository named',
      (g) => ({ ...ciJob(g, c[2]), BRCLOUD_GITHUB_TOKEN: GITHUB_TOKEN }),
      [],
      /^error: github-token and gitlab-token are both set: the code lives in one place\./
    ],
    [
      'a GitLab token without a project outside GitLab CI',
      (g) => ({ ...jenkinsJob(g, c[2], TOKEN), BRCLOUD_GITLAB_PROJECT: '' }),
      [],
      /^error: gitlab-token is set but gitlab-project is empty: name the project as its path \(group\/project, or group\/sub\/project\) or its numeric id\./
    ],
    [
      'a malformed project',
      (g) => jenkinsJob(g, c[2], TOKEN),
      ['--gitlab-project', 'acme/site.git'],
      /^error: gitlab-project is not a GitLab project: 'acme\/site\.git'\. Give its path as GitLab shows it \(group\/project, or group\/sub\/project\) or its numeric id/
    ],
    [
      'a gitlab-url that is not http(s)',
      (g) => ({ ...jenkinsJob(g, c[2], TOKEN), BRCLOUD_GITLAB_URL: 'ftp://gitlab.example.com' }),
      [],
      /^error: gitlab-url: The GitLab address 'ftp:\/\/gitlab\.example\.com' is a ftp: address: give the instance's http\(s\) address, e\.g\. https:\/\/gitlab\.example\.com\.$/
    ],
    [
      'a GitLab token without a commit',
      (g) => ({ ...jenkinsJob(g, c[2], TOKEN), GIT_COMMIT: '' }),
      [],
      /^error: gitlab-token is set, so the run checks the deploy order against the commit the environment runs and records a GitLab deployment of this run's commit, and this run has no commit: give it with --commit SHA or BRCLOUD_COMMIT \(Jenkins sets GIT_COMMIT when it builds from a commit; it is not set in this job\)\.$/
    ]
  ])('%s', async (_, env, flags, message) => {
    const { emu: e, gl: g } = await setUp()
    const r = await deploy(e, ['--distribution', release('v3'), ...flags], env(g))
    expect(r.code).toBe(2)
    expect(r.stderr.split('\n').filter(Boolean)).toEqual([expect.stringMatching(message)])
    expect(r.stdout).toBe('{}\n')
    expect(g.calls).toEqual([])
    expect(e.requests).toEqual([])
  })
})
