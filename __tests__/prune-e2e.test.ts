// Pruning against the emulator, where the platform would not protect a release: deleteInUse 'allow' lets a
// delete of a distribution in use succeed, so only the action's own looks keep a running release alive.
// Runs the bundle (dist/index.js).
import { startEmulator, type Emulator, type EmulatorOptions } from '../src/emulator/server.js'
import { makeDistributionTree } from '../scripts/lib/sample-tree.js'
import { ops, run, sweepAndClose } from './e2e-support.js'

let emu: Emulator
async function emulator(options: EmulatorOptions = {}): Promise<Emulator> {
  emu = await startEmulator({ deleteInUse: 'allow', ...options })
  return emu
}
afterEach(async () => {
  await sweepAndClose(emu)
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
  expect(r.visible).toMatch(new RegExp(`Pruning: kept distribution ${a} .*environment 'acceptance' runs it now`))
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

test('an environment switching without naming its distribution: nothing is pruned this run', async () => {
  await emulator({ idWhileDeploying: 'null' })
  const a = await stored('a.tar.gz', 5)
  await stored('b.tar.gz', 4)
  // Switching for as long as the test lasts.
  emu.deployAs('acceptance', a, { seconds: Infinity })
  const r = await run(base({ 'max-distributions': '2' }))
  expect(r.code).toBe(0)
  expect(ops(emu, 'delete-distribution')).toEqual([])
  expect(r.visible).toMatch(/::warning::Not pruning this run: environment 'acceptance' reports no distribution with status 'deploying'/)
  expect(r.outputs['pruned-distributions']).toBe('0')
})
