// The status report's evidence at GitHub's edges, found by the simulation (issue 41): a repository with more
// Deployments than a listing reads (300) never makes a distribution one of them records read `outside`, and GitHub's
// rate limit is named as such, never as a permission the token lacks. An emulator as the stack, the GitHub stand-in
// over HTTP.
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { DEFAULT_GITHUB_TOKEN, fakeSha, startGitHubStandIn } from '../src/emulator/github/server.js'
import { runOfAcmeSite } from './github-run.js'
import { useTestPort } from './test-port.js'

const standIn = await startGitHubStandIn({ owner: 'acme', repo: 'site' })
runOfAcmeSite(standIn.url, fakeSha('run'))
const { parseStatusConfig, prepareStatus, readStatus } = await import('../src/status/index.js')
const { statusExit } = await import('../src/cli/status.js')
const { runnerContext } = await import('../src/github/runner-context.js')

const [, B, C] = standIn.model.linear('main', ['a', 'b', 'c'].map(fakeSha)) as [string, string, string]
let emulator: Emulator
/** The distribution production runs: a hotfix name that carries no commit, recorded by a Deployment of development at B. */
let hotfix: string

beforeAll(async () => {
  useTestPort()
  emulator = await startEmulator({ environments: ['development', 'production'] })
  hotfix = await emulator.addDistribution('hotfix.tar.gz', { 'webapps/site.war': 'site' })
  emulator.deployAs('production', hotfix, { seconds: 0, by: 'someone' })
  standIn.model.addDeployment({ ref: B, environment: 'development', payload: { distributionId: hotfix, apiUrl: emulator.url }, creator: 'octocat' })
}, 30_000)

afterAll(async () => {
  await Promise.all([emulator?.close(), standIn.close()])
})

async function production(): Promise<{ state: string; reason: string | null; exit: number; errors: readonly string[] }> {
  const file = `track: main\nstacks:\n  - name: eu\n    api-url: ${emulator.url}\n    environments: [production]\n`
  const prepared = prepareStatus(parseStatusConfig(file, 'fleet.yml'), { BRCLOUD_USERNAME: emulator.username, BRCLOUD_PASSWORD: emulator.password })
  const report = await readStatus(prepared, {
    github: { token: DEFAULT_GITHUB_TOKEN, context: { ...runnerContext(), repository: 'acme/site' } },
    repository: 'acme/site',
    retry: { attempts: 2, baseDelayMs: 10, maxDelayMs: 20, maxTotalMs: 1_000 }
  })
  const row = report.environments.find((r) => r.environment === 'production')
  return { state: row?.state ?? '', reason: row?.reason ?? null, exit: statusExit(report, [], () => undefined), errors: report.githubErrors }
}

/** Deployments of other environments, made after the one that recorded the hotfix. */
function others(count: number, from: number): void {
  for (let i = from; i < from + count; i++)
    standIn.model.addDeployment({ ref: C, environment: `review-${i}`, payload: { distributionId: `review-${i}`, apiUrl: emulator.url }, creator: 'octocat' })
}

test('a Deployment among the newest 300 that records the distribution is its evidence', async () => {
  others(298, 0)
  expect(await production()).toMatchObject({ state: 'behind', exit: 0 })
})

test('more Deployments than a listing reads: unknown, saying the older ones were not read, never outside', async () => {
  others(10, 298)
  const read = await production()
  expect(read.state).toBe('unknown')
  expect(read.reason).toBe(
    `no GitHub Deployment of acme/site on this stack among the newest 300 that GitHub lists recorded distribution ${hotfix} ` +
      `(uploaded by someone-else at ${emulator.distributions.find((d) => d.id === hotfix)?.createdAt ?? '?'}), and its name carries no commit of it; ` +
      'GitHub holds older Deployments, which the report does not read: one of them may record it, so whether it was deployed from Mission Control ' +
      'or another tool cannot be told'
  )
  expect(read.exit).toBe(0)
})

test("GitHub's rate limit fails the report closed, named as a rate limit, never as a permission the token lacks", async () => {
  standIn.fail('list-deployments', {
    status: 403,
    headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1795507200' },
    body: { message: 'API rate limit exceeded for installation ID 4242.' }
  })
  const read = await production()
  expect(read.exit).toBe(1)
  expect(read.state).toBe('unknown')
  expect(read.errors).toEqual([
    'GitHub could not be read: Listing GitHub Deployments: HTTP 403 (API rate limit exceeded for installation ID 4242; the rate limit lifts at 2026-11-24T08:00:00Z) ' +
      "(GitHub's rate limit for the token was reached, no permission is missing: run the report again once it lifts, or less often)"
  ])
})
