// The action (dist/index.js) with the code on GitLab (issue 44), run as a runner runs it, against the emulator and the
// GitLab API stand-in over real HTTP: the inputs gitlab-token, gitlab-project and gitlab-url record the deploy as a
// GitLab deployment; a cancel while the release is followed leaves it canceled (the main step's closing call), and a
// main step killed hard leaves it to the post step, which sets it canceled and says so.
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import type { EmulatorOptions } from '../src/emulator/types.js'
import { DEFAULT_GITLAB_TOKEN, fakeSha, startGitLabStandIn, type GitLabStandIn } from '../src/emulator/gitlab/server.js'
import { RUNNER_SHA } from '../scripts/lib/run-action.js'
import { ops, release, run, runPost, sweepAndClose } from './e2e-support.js'
import { callsOf, deploymentsOf, PROJECT, writesOf } from './gitlab-e2e-support.js'

const TOKEN = DEFAULT_GITLAB_TOKEN

let emu: Emulator | undefined
let gl: GitLabStandIn | undefined

async function setUp(options: EmulatorOptions): Promise<{ e: Emulator; g: GitLabStandIn }> {
  emu = await startEmulator(options)
  gl = await startGitLabStandIn()
  // The workflow's commit (GITHUB_SHA) is main's head.
  gl.model.linear('main', [fakeSha('a'), RUNNER_SHA])
  return { e: emu, g: gl }
}

afterEach(async () => {
  try {
    if (emu) await sweepAndClose(emu, [TOKEN])
  } finally {
    await gl?.close()
    emu = undefined
    gl = undefined
  }
})

const inputs = (e: Emulator, g: GitLabStandIn, over: Record<string, string> = {}): Record<string, string> => ({
  'api-url': e.url,
  username: e.username,
  password: e.password,
  environment: 'production',
  distribution: release('v1'),
  'gitlab-token': TOKEN,
  'gitlab-project': PROJECT,
  'gitlab-url': g.url,
  ...over
})

test('gitlab-token, gitlab-project and gitlab-url: the deploy is a GitLab deployment of the workflow commit, success; the token masked', async () => {
  const { e, g } = await setUp({ deployLooks: 1 })
  const r = await run(inputs(e, g), { env: { GITHUB_REF: 'refs/heads/main' } })
  expect({ code: r.code, errors: r.errors }).toEqual({ code: 0, errors: [] })
  expect(r.outputs).toMatchObject({ deployed: 'true', 'release-state': 'verified', 'distribution-name': `site-${RUNNER_SHA.slice(0, 7)}-distribution.tar.gz` })
  expect(deploymentsOf(g)).toEqual([{ environment: 'production', sha: RUNNER_SHA, ref: 'main', tag: false, status: 'success' }])
  expect(writesOf(g)).toEqual(['POST create-deployment 201', 'PUT update-deployment 200'])
  for (const call of g.calls) expect([call.path.startsWith(`/api/v4/projects/${encodeURIComponent(PROJECT)}/`), call.token]).toEqual([true, TOKEN])
  expect(r.visible).toMatch(/^Recorded as GitLab deployment \d+ of environment 'production'\.$/m)
  expect(r.stdout).toContain(`::add-mask::${TOKEN}`)
})

test('a cancel (SIGINT) while the release is followed: the main step sets its GitLab deployment to canceled; the post step has nothing left', async () => {
  // The deploy stays in progress for as long as the test lasts: the cancel comes while it is followed.
  const { e, g } = await setUp({ deploySeconds: Infinity })
  const given = inputs(e, g)
  const main = await run(given, { cancel: { when: (stdout) => stdout.includes('Release in-progress:') } })
  expect(main.code).toBe(1)
  expect(main.errors[0]).toMatch(/The run was cancelled \(SIGINT\) during "Wait until 'production' runs/)
  expect(main.outputs).toMatchObject({ deployed: 'true', 'release-state': 'in-progress' })
  expect(ops(e, 'deploy')).toHaveLength(1)
  // No branch is known outside a push's GITHUB_REF: the project's default branch, read from GitLab.
  expect(deploymentsOf(g)).toEqual([{ environment: 'production', sha: RUNNER_SHA, ref: 'main', tag: false, status: 'canceled' }])
  expect(callsOf(g, 'get-project').map((c) => c.status)).toEqual([200])
  expect(callsOf(g, 'create-deployment', 'update-deployment').map((c) => [c.route, c.body?.status])).toEqual([
    ['create-deployment', 'running'],
    ['update-deployment', 'canceled']
  ])

  const before = g.calls.length
  const post = await runPost(given, main)
  expect(post.code).toBe(0)
  expect(post.visible).not.toMatch(/::warning::/)
  expect(post.summary).toBe('')
  expect(g.calls.slice(before)).toEqual([])
})

test('a main step killed hard while its GitLab deployment runs: the post step sets it to canceled, and says so in the summary', async () => {
  const { e, g } = await setUp({ deploySeconds: Infinity })
  const given = inputs(e, g)
  const main = await run(given, { cancel: { when: (stdout) => stdout.includes('Release in-progress:'), signal: 'SIGKILL' } })
  expect(main.signal).toBe('SIGKILL')
  expect(main.summary).toBe('')
  expect(deploymentsOf(g).map((d) => d.status)).toEqual(['running'])
  const id = g.model.deployments[0]?.id

  const before = g.calls.length
  const post = await runPost(given, main)
  expect(post.code).toBe(0)
  expect(post.visible).not.toMatch(/::warning::/)
  expect(post.visible).toContain(`Set GitLab deployment ${id} to canceled: the main step was stopped before it finished.`)
  expect(post.summary).toContain('The main step was stopped before it wrote its report; what the post step could do:')
  expect(post.summary).toContain(`- set GitLab deployment ${id} to canceled (it was left running)`)
  // It reads the deployment first: one the main step finished (its answer lost) is left as it is.
  expect(g.calls.slice(before).map((c) => [c.method, c.route, c.status, c.body, c.token])).toEqual([
    ['GET', 'get-deployment', 200, undefined, TOKEN],
    ['PUT', 'update-deployment', 200, { status: 'canceled' }, TOKEN]
  ])
  expect(deploymentsOf(g).map((d) => d.status)).toEqual(['canceled'])
  // The platform: the post step revoked the refresh token the main step left, and never deployed or rolled back.
  expect(ops(e, 'revoke-refresh').filter((q) => q.status >= 200 && q.status < 300)).toHaveLength(1)
  expect(ops(e, 'deploy')).toHaveLength(1)
})
