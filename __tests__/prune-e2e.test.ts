// Pruning against the emulator, where the platform would not protect a release: deleteInUse 'allow' lets a
// delete of a distribution in use succeed, so only the action's own looks and GitHub's records keep a running
// release, a switch under way and a rollback target alive. Runs the bundle (dist/index.js).
import { startEmulator, type Emulator, type EmulatorOptions } from '../src/emulator/server.js'
import { DEFAULT_GITHUB_TOKEN, startGitHubStandIn } from '../src/emulator/github/server.js'
import { makeDistributionTree } from '../scripts/lib/sample-tree.js'
import { RUNNER_SHA } from '../scripts/lib/run-action.js'
import { ops, run, sweepAndClose } from './e2e-support.js'

let emu: Emulator
async function emulator(options: EmulatorOptions = {}): Promise<Emulator> {
  emu = await startEmulator({ deleteInUse: 'allow', ...options })
  return emu
}
afterEach(async () => {
  await sweepAndClose(emu, [DEFAULT_GITHUB_TOKEN])
})

const tree = makeDistributionTree(undefined, 50_000)
const base = (over: Record<string, string> = {}) => ({
  'api-url': emu.url,
  username: emu.username,
  password: emu.password,
  distribution: tree,
  environment: 'development',
  ...over
})

/** Someone else's distribution, stored `hoursAgo` hours ago (oldest first when added in order). */
async function stored(name: string, hoursAgo: number): Promise<string> {
  const id = await emu.addDistribution(name, { 'version.txt': `${name}\n` })
  const record = emu.distributions.find((d) => d.id === id)
  if (record) record.createdAt = new Date(Date.now() - hoursAgo * 3_600_000).toISOString()
  return id
}

const deletedIds = () => ops(emu, 'delete-distribution').map((q) => q.url.split('/').pop())

test('an environment promoted to an old distribution after the run began keeps it, although the platform would delete it', async () => {
  await emulator()
  const a = await stored('a.tar.gz', 5)
  const b = await stored('b.tar.gz', 4)
  await stored('c.tar.gz', 3)
  // Another job promotes 'a' to acceptance right after this run listed the distributions (and long after it listed the environments).
  emu.onRequest('list-distributions', () => emu.deployAs('acceptance', a))
  const r = await run(base({ 'max-distributions': '3' }))
  expect(r.errors).toEqual([])
  expect(r.code).toBe(0)
  expect(emu.environments.find((e) => e.name === 'acceptance')?.distributionId).toBe(a)
  expect(emu.distributions.map((d) => d.id)).toContain(a)
  expect(deletedIds()).toEqual([b])
  expect(r.visible).toMatch(new RegExp(`Pruning: kept distribution ${a} .*environment 'acceptance' runs it\\.`))
})

test('an environment that runs an old distribution from the start keeps it, in upper-case ids too', async () => {
  await emulator({ idCase: 'upper' })
  const a = await stored('a.tar.gz', 5)
  const b = await stored('b.tar.gz', 4)
  emu.deployAs('acceptance', a)
  const r = await run(base({ 'max-distributions': '2' }))
  expect(r.code).toBe(0)
  expect(emu.distributions.map((d) => d.id)).toContain(a)
  expect(deletedIds().map((id) => id?.toLowerCase())).toEqual([b])
})

test("another job's fresh upload is kept, and the log says why", async () => {
  await emulator()
  const old = await stored('old.tar.gz', 3)
  const fresh = await stored('fresh.tar.gz', 0.2)
  const r = await run(base({ 'max-distributions': '1' }))
  expect(r.code).toBe(0)
  expect(deletedIds()).toEqual([old])
  expect(emu.distributions.map((d) => d.id)).toContain(fresh)
  expect(r.visible).toMatch(new RegExp(`Pruning: kept distribution ${fresh} .*stored within the last hour`))
})

test('a status field that shows a switch to a distribution it does not name: nothing is deleted this run, and the one warning says why', async () => {
  await emulator({ idWhileDeploying: 'null' })
  const a = await stored('a.tar.gz', 5)
  await stored('b.tar.gz', 4)
  // Switching for as long as the test lasts.
  emu.deployAs('acceptance', a, { seconds: Infinity })
  const r = await run(base({ 'max-distributions': '2' }))
  expect(r.code).toBe(0)
  expect(ops(emu, 'delete-distribution')).toEqual([])
  expect(r.visible).toMatch(
    /::warning::max-distributions=2 could not be kept: the stack holds 2 distributions \(0 deleted\), 3 with this upload\. None was deleted, because environment 'acceptance' reports no distribution with status 'deploying'/
  )
  expect(r.outputs['pruned-distributions']).toBe('0')
})

// Issue 41: without a status field (the documented API) pruning deleted nothing, and every run warned so.
test("no status field: the stack is kept within max-distributions, what a GitHub Deployment in progress deploys and the environment's previous stay, and nothing is warned", async () => {
  await emulator({ environmentStatus: false })
  const gh = await startGitHubStandIn()
  try {
    gh.model.linear('main', [RUNNER_SHA])
    const prev = await stored('prev.tar.gz', 10)
    const a = await stored('a.tar.gz', 9)
    const target = await stored('target.tar.gz', 8)
    const before = await stored('before.tar.gz', 7)
    const runs = await stored('runs.tar.gz', 6)
    const b = await stored('b.tar.gz', 5)
    emu.deployAs('acceptance', runs)
    // Another run deploys the old 'target' to production over 'prev'; no field shows the switch, its Deployment does.
    emu.deployAs('production', prev)
    emu.deployAs('production', target, { seconds: Infinity })
    const other = gh.model.addDeployment({
      ref: RUNNER_SHA,
      environment: 'production',
      payload: { distributionId: target, previousDistributionId: prev, apiUrl: emu.url }
    })
    gh.model.addStatus(other.id, { state: 'in_progress' })
    const r = await run(base({ environment: 'acceptance', 'max-distributions': '5', 'github-token': DEFAULT_GITHUB_TOKEN }), {
      env: { GITHUB_API_URL: gh.url }
    })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    // Six stored, at most four may stay before the upload: the two nothing needs go. No Deployment says what acceptance
    // ran before 'runs': the newest one stored before it stays as its likely previous.
    expect(deletedIds()).toEqual([a, b])
    expect(emu.distributions.map((d) => d.id)).toEqual([prev, target, before, runs, r.outputs['distribution-id']])
    expect(r.outputs['pruned-distributions']).toBe('2')
    expect(r.visible).toMatch(
      new RegExp(
        `Pruning: kept distribution ${before} \\(before\\.tar\\.gz, [^)]+\\): the newest one stored before ${runs}, which environment 'acceptance' reported running`
      )
    )
    // The one warning is the release's own (no status field and no health check: the switch was not seen), none of pruning's.
    const warnings = r.visible.split('\n').filter((l) => l.startsWith('::warning::'))
    expect(warnings).toEqual([expect.stringMatching(/The switch itself was not seen/)])
    // Its own Deployment names what acceptance ran before: the previous another run's pruning keeps.
    const mine = gh.model.deployments.find((d) => d.id !== other.id)
    expect(mine?.payload).toMatchObject({ distributionId: r.outputs['distribution-id'], previousDistributionId: runs })
  } finally {
    await gh.close()
  }
})
