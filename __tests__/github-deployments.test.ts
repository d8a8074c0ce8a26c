// The GitHub Deployment a run records (src/github/deployments.ts) and the post step's final status
// (src/github/final-status.ts), against the GitHub stand-in over real HTTP: what each status carries, that the
// first final one stands, what the run saves for the post step, and the warnings when GitHub refuses.
import { useTestPort } from './test-port.js'
import { DEFAULT_GITHUB_TOKEN, fakeSha, startGitHubStandIn } from '../src/emulator/github/server.js'
import { runOfAcmeSite } from './github-run.js'

const standIn = await startGitHubStandIn({ owner: 'acme', repo: 'site' })
const SHA = standIn.model.commit(fakeSha('deployments'))
runOfAcmeSite(standIn.url, SHA, { GITHUB_RUN_ID: '99', GITHUB_STATE: '/dev/null' })

const lines: Array<{ kind: 'info' | 'warning'; text: string }> = []
const saved = new Map<string, string>()
useTestPort({
  info: (text: string) => lines.push({ kind: 'info', text }),
  warning: (text: string) => lines.push({ kind: 'warning', text }),
  debug: () => undefined,
  setSecret: () => undefined,
  saveState: (name: string, value: string) => saved.set(name, value),
  getState: (name: string) => saved.get(name) ?? ''
})

const { GitHubApi } = await import('../src/github/client.js')
const { RecordedDeployment } = await import('../src/code-host/recorded-deployment.js')
const { setErrorStatus } = await import('../src/github/final-status.js')
const { readState } = await import('../src/run-state.js')

afterAll(async () => {
  await standIn.close()
})
beforeEach(() => {
  lines.length = 0
  saved.clear()
  standIn.calls.length = 0
})

const statusBodies = () => standIn.calls.filter((c) => c.route === 'create-status').map((c) => c.json)
const said = (kind: 'info' | 'warning') => lines.filter((l) => l.kind === kind).map((l) => l.text)
const RUN = 'https://github.example/acme/site/actions/runs/99'

async function started(environmentUrl?: string) {
  const github = await GitHubApi.open(DEFAULT_GITHUB_TOKEN)
  const d = await RecordedDeployment.start(github, 'production', 'Deploy d1', { distributionId: 'd1' }, SHA, environmentUrl)
  if (d === undefined) throw new Error('not started')
  return d
}

test('start: the Deployment of the commit, in progress with the run as its log, said, and saved for the post step', async () => {
  const d = await started()
  expect(standIn.model.deployment(d.id)).toMatchObject({ sha: SHA, environment: 'production' })
  expect(statusBodies()).toEqual([{ state: 'in_progress', description: 'Deploying to production', log_url: RUN, auto_inactive: false }])
  expect(said('info')).toEqual([`Recorded as GitHub Deployment ${d.id} of environment 'production'.`])
  expect(readState().githubDeployment).toEqual({ id: d.id, owner: 'acme', repo: 'site', logUrl: RUN })
  expect(readState().githubDeploymentFinal).toBe(false)
})

test('success: the environment address, auto_inactive, a description cut at 140; the first final status stands', async () => {
  const d = await started('https://www.example.com')
  standIn.calls.length = 0
  await d.set('success', 'x'.repeat(200))
  await d.set('failure', 'late')
  await d.set('in_progress', 'later')
  expect(statusBodies()).toEqual([
    { state: 'success', description: 'x'.repeat(140), log_url: RUN, environment_url: 'https://www.example.com', auto_inactive: true }
  ])
  expect(readState().githubDeploymentFinal).toBe(true)
})

test('a description cut at 140 characters, never inside one: GitHub counts characters, and half an emoji is no text', async () => {
  const d = await started()
  standIn.calls.length = 0
  await d.set('in_progress', `${'x'.repeat(139)}😀😀 and more`)
  await d.set('success', '😀'.repeat(150))
  const descriptions = statusBodies().map((b) => (b as { description: string }).description)
  expect(descriptions).toEqual([`${'x'.repeat(139)}😀`, '😀'.repeat(140)])
  // Well-formed: UTF-8 carries it as it is (half a surrogate pair would come back as U+FFFD).
  for (const text of descriptions) expect(Buffer.from(text, 'utf8').toString('utf8')).toBe(text)
  // The stand-in refuses more than 140 characters: each was recorded.
  expect(standIn.model.statuses(d.id).map((s) => s.state)).toEqual(['success', 'in_progress', 'in_progress'])
  expect(said('warning')).toEqual([])
  const saved = { id: d.id, owner: 'acme', repo: 'site', logUrl: undefined }
  await setErrorStatus(DEFAULT_GITHUB_TOKEN, saved, `${'y'.repeat(139)}😀😀`, 5_000)
  expect((statusBodies().at(-1) as { description: string }).description).toBe(`${'y'.repeat(139)}😀`)
})

test('failure: no environment address, nothing inactivated; in progress again before it is allowed', async () => {
  const d = await started('https://www.example.com')
  standIn.calls.length = 0
  await d.set('in_progress', 'still going')
  await d.set('failure', 'broken')
  expect(statusBodies()).toEqual([
    { state: 'in_progress', description: 'still going', log_url: RUN, auto_inactive: false },
    { state: 'failure', description: 'broken', log_url: RUN, auto_inactive: false }
  ])
  expect(said('warning')).toEqual([])
})

test('a status GitHub refuses: a warning naming the deployment and the state, never a throw; a final one not saved as set', async () => {
  const d = await started()
  standIn.fail('create-status', { status: 403, body: { message: 'Resource not accessible by integration' } })
  await d.set('error', 'stopped')
  expect(said('warning')).toEqual([expect.stringMatching(new RegExp(`^Could not set GitHub Deployment ${d.id} to error \\(.*HTTP 403.*\\)\\.$`))])
  expect(readState().githubDeploymentFinal).toBe(false)
  // The outcome it decided is kept for the post step (which sets it on GitLab, where "stopped" would be untrue).
  expect(readState().finalWanted).toBe('error')
})

test('a Deployment GitHub refuses to create: a warning with the permission to give, and the deploy goes on (undefined)', async () => {
  const github = await GitHubApi.open(DEFAULT_GITHUB_TOKEN)
  standIn.fail('create-deployment', { status: 403, body: { message: 'Resource not accessible by integration' } })
  expect(await RecordedDeployment.start(github, 'production', 'Deploy', {}, SHA)).toBeUndefined()
  expect(said('warning')).toEqual([
    expect.stringMatching(
      /^Creating a GitHub Deployment: HTTP 403 \(Resource not accessible by integration\): the deploy is not recorded as a GitHub Deployment, and goes on\. Give the token 'deployments: write' permission\.$/
    )
  ])
  expect(readState().githubDeployment).toBeUndefined()
})

test('a Deployment GitHub could not create for a reason no permission fixes (down, a bad token): the warning gives no permission to grant', async () => {
  const github = await GitHubApi.open(DEFAULT_GITHUB_TOKEN)
  standIn.fail('create-deployment', { status: 503, body: { message: 'Service Unavailable' } })
  expect(await RecordedDeployment.start(github, 'production', 'Deploy', {}, SHA)).toBeUndefined()
  standIn.fail('create-deployment', { status: 401, body: { message: 'Bad credentials' } })
  expect(await RecordedDeployment.start(github, 'production', 'Deploy', {}, SHA)).toBeUndefined()
  expect(said('warning')).toEqual([
    'Creating a GitHub Deployment: HTTP 503 (Service Unavailable): the deploy is not recorded as a GitHub Deployment, and goes on.',
    'Creating a GitHub Deployment: HTTP 401 (Bad credentials): the deploy is not recorded as a GitHub Deployment, and goes on.'
  ])
})

test("the post step's final status: error, the description cut at 140, the log address only when saved", async () => {
  const d = standIn.model.addDeployment({ ref: SHA, environment: 'production' })
  await setErrorStatus(DEFAULT_GITHUB_TOKEN, { id: d.id, owner: 'acme', repo: 'site', logUrl: undefined }, 'y'.repeat(150), 5_000)
  await setErrorStatus(DEFAULT_GITHUB_TOKEN, { id: d.id, owner: 'acme', repo: 'site', logUrl: RUN }, 'short', 5_000)
  expect(statusBodies()).toEqual([
    { state: 'error', description: 'y'.repeat(140), auto_inactive: false },
    { state: 'error', description: 'short', log_url: RUN, auto_inactive: false }
  ])
  standIn.fail('create-status', { status: 500 })
  await expect(setErrorStatus(DEFAULT_GITHUB_TOKEN, { id: d.id, owner: 'acme', repo: 'site', logUrl: undefined }, 'z', 5_000)).rejects.toMatchObject({
    status: 500
  })
})
