// A deploy recorded as a GitLab deployment (src/code-host/recorded-deployment.ts through GitLab's adapter), against
// the GitLab stand-in over real HTTP: its statuses through the run, the first final one standing, a cancel as
// canceled, what the run saves for the post step, and the warning naming the scope when GitLab refuses the write.
import { useTestPort } from './test-port.js'
import { DEFAULT_GITLAB_TOKEN, seedSampleHistory, startGitLabStandIn } from '../src/emulator/gitlab/server.js'

const standIn = await startGitLabStandIn({ tokens: { [DEFAULT_GITLAB_TOKEN]: { scopes: ['api'] }, 'glpat-readonly': { scopes: ['read_api'] } } })
const SHA = seedSampleHistory(standIn.model).main.at(-1) ?? ''

const lines: Array<{ kind: 'info' | 'warning'; text: string }> = []
const saved = new Map<string, string>()
useTestPort({
  info: (text: string) => lines.push({ kind: 'info', text }),
  warning: (text: string) => lines.push({ kind: 'warning', text }),
  debug: () => undefined,
  saveState: (name: string, value: string) => saved.set(name, value),
  getState: (name: string) => saved.get(name) ?? '',
  runContext: () => ({
    sha: SHA,
    noCommit: '',
    ref: 'refs/heads/main',
    repository: '',
    serverUrl: 'https://github.com',
    runUrl: 'https://gitlab.example/acme/platform/site/-/jobs/7',
    workspace: process.cwd(),
    runId: '7',
    runAttempt: '1',
    actor: undefined
  })
})

const { GitLabApi } = await import('../src/gitlab/client.js')
const { RecordedDeployment } = await import('../src/code-host/recorded-deployment.js')
const { readState } = await import('../src/run-state.js')

afterAll(async () => {
  await standIn.close()
})
beforeEach(() => {
  lines.length = 0
  saved.clear()
  standIn.calls.length = 0
})

const said = (kind: 'info' | 'warning') => lines.filter((l) => l.kind === kind).map((l) => l.text)
const statusesSent = () => standIn.calls.filter((c) => c.route === 'update-deployment').map((c) => (c.body as { status: string }).status)

function door(token = DEFAULT_GITLAB_TOKEN) {
  return GitLabApi.open({ token, project: 'acme/platform/site', apiUrl: standIn.apiUrl })
}

async function started() {
  const d = await RecordedDeployment.start(door(), 'production', 'Deploy d1', { distributionId: 'd1' }, SHA)
  if (d === undefined) throw new Error('not started')
  return d
}

test("created running at the run's commit and branch, said once, saved for the post step; success ends it, and the first final status stands", async () => {
  const d = await started()
  const record = standIn.model.deployments.find((x) => x.id === d.id)
  expect(record).toMatchObject({ sha: SHA, ref: 'main', tag: false, status: 'running' })
  expect(said('info')).toEqual([`Recorded as GitLab deployment ${d.id} of environment 'production'.`])
  expect(readState((name) => saved.get(name) ?? '').gitlabDeployment).toEqual({ id: d.id, project: 'acme/platform/site', apiUrl: standIn.apiUrl })
  expect(readState((name) => saved.get(name) ?? '').githubDeploymentFinal).toBe(false)
  await d.set('success', 'Deployed d1')
  await d.set('failure', 'too late')
  expect(statusesSent()).toEqual(['success'])
  expect(standIn.model.deployments.find((x) => x.id === d.id)?.status).toBe('success')
  expect(readState((name) => saved.get(name) ?? '').githubDeploymentFinal).toBe(true)
})

test('a failure ends it failed; a cancel (or the watchdog) ends it canceled', async () => {
  const failed = await started()
  await failed.set('failure', 'Rolled back')
  const cancelled = await started()
  await cancelled.set('canceled', 'Cancelled')
  expect(standIn.model.deployments.find((x) => x.id === failed.id)?.status).toBe('failed')
  expect(standIn.model.deployments.find((x) => x.id === cancelled.id)?.status).toBe('canceled')
})

test('a token with read_api only: not recorded, a warning naming the scope and role, and the deploy goes on', async () => {
  const d = await RecordedDeployment.start(door('glpat-readonly'), 'production', 'Deploy d1', {}, SHA)
  expect(d).toBeUndefined()
  expect(standIn.model.deployments.filter((x) => x.sha === SHA && x.status === 'running')).toHaveLength(0)
  expect(said('warning')).toHaveLength(1)
  expect(said('warning')[0]).toMatch(
    /^Creating a GitLab deployment: .*: the deploy is not recorded as a GitLab deployment, and goes on\. Give the token the api scope/
  )
  expect(saved.has('gitlabDeploymentId')).toBe(false)
})
