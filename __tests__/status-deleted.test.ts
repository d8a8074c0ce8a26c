// The status report over a distribution the platform no longer holds (deleted while an environment runs it): its lookup
// answers 404, so its name was never read. The report said "its name carries no commit" of it, and on GitHub, with no
// Deployment naming it, called it `outside` (a deploy from Mission Control) on a name it never saw. An emulator as the
// stack, the GitHub and GitLab stand-ins over HTTP.
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { DEFAULT_GITHUB_TOKEN, fakeSha, startGitHubStandIn } from '../src/emulator/github/server.js'
import { DEFAULT_GITLAB_PROJECT, DEFAULT_GITLAB_TOKEN, startGitLabStandIn } from '../src/emulator/gitlab/server.js'
import { runOfAcmeSite } from './github-run.js'
import { useTestPort } from './test-port.js'

const github = await startGitHubStandIn({ owner: 'acme', repo: 'site' })
const gitlab = await startGitLabStandIn()
runOfAcmeSite(github.url, fakeSha('run'))
const { parseStatusConfig, prepareStatus, readStatus } = await import('../src/status/index.js')
const { statusExit } = await import('../src/cli/status.js')
const { runnerContext } = await import('../src/github/runner-context.js')

const [, B] = github.model.linear('main', ['a', 'b', 'c'].map(fakeSha)) as [string, string, string]
gitlab.model.linear('main', ['a', 'b', 'c'].map(fakeSha))
let emulator: Emulator
/** What production runs: a distribution deleted while it runs it (the platform answers 404 for it). */
let gone: string

beforeAll(async () => {
  useTestPort()
  emulator = await startEmulator({ environments: ['production'], deleteInUse: 'allow' })
  gone = await emulator.addDistribution('site-1234567-distribution.tar.gz', { 'webapps/site.war': 'site' })
  emulator.deployAs('production', gone, { seconds: 0, by: 'someone' })
  await emulator.deleteAs(gone)
}, 30_000)

afterAll(async () => {
  await Promise.all([emulator?.close(), github.close(), gitlab.close()])
})

async function production(host: 'github' | 'gitlab'): Promise<{ state: string; reason: string | null; exit: number; name: string | null }> {
  const file = `track: main\nstacks:\n  - name: eu\n    api-url: ${emulator.url}\n    environments: [production]\n`
  const prepared = prepareStatus(parseStatusConfig(file, 'fleet.yml'), { BRCLOUD_USERNAME: emulator.username, BRCLOUD_PASSWORD: emulator.password })
  const context = { ...runnerContext(), repository: host === 'github' ? 'acme/site' : DEFAULT_GITLAB_PROJECT }
  const report = await readStatus(prepared, {
    ...(host === 'github'
      ? { github: { token: DEFAULT_GITHUB_TOKEN, context }, repository: 'acme/site' }
      : {
          gitlab: { settings: { token: DEFAULT_GITLAB_TOKEN, project: DEFAULT_GITLAB_PROJECT, apiUrl: gitlab.apiUrl }, context },
          repository: DEFAULT_GITLAB_PROJECT
        }),
    retry: { attempts: 2, baseDelayMs: 10, maxDelayMs: 20, maxTotalMs: 1_000 }
  })
  const row = report.environments.find((r) => r.environment === 'production')
  return { state: row?.state ?? '', reason: row?.reason ?? null, exit: statusExit(report, ['outside'], () => undefined), name: row?.distributionName ?? null }
}

test('on GitHub, no Deployment names it: unknown, its name not read, never outside', async () => {
  const read = await production('github')
  expect(read).toMatchObject({ state: 'unknown', name: null, exit: 0 })
  expect(read.reason).toBe(
    `no GitHub Deployment of acme/site on this stack recorded distribution ${gone}, and its name could not be read ` +
      '(the platform holds no distribution of that id now): which commit it is, and whether it was deployed from Mission Control or another tool, cannot be told'
  )
})

test('on GitLab: unknown, its name not read (not one that carries no commit)', async () => {
  const read = await production('gitlab')
  expect(read).toMatchObject({ state: 'unknown', name: null, exit: 0 })
  expect(read.reason).toBe(
    `GitLab's deployments do not record distributions, and the name of distribution ${gone} could not be read ` +
      '(the platform holds no distribution of that id now): which commit it is cannot be told'
  )
})

test('on GitHub, a Deployment that names it is its evidence, as before', async () => {
  github.model.addDeployment({ ref: B, environment: 'production', payload: { distributionId: gone, apiUrl: emulator.url }, creator: 'octocat' })
  expect(await production('github')).toMatchObject({ state: 'behind', reason: null, exit: 0 })
})
