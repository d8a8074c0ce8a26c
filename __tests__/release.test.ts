// The release's state machine, driven transition by transition with a fake platform and a fake clock:
// what the environment reports is scripted, time passes only when the code waits.
import { useTestPort } from './test-port.js'

useTestPort()

const { enter, newRelease } = await import('../src/deploy/release-state.js')
const { deployRelease, rollBack } = await import('../src/deploy/release.js')
const { followSwitch, NotApplied, Replaced, requestSwitch } = await import('../src/deploy/switch.js')
const { HealthCheckFailed } = await import('../src/health.js')
const fake = await import('./release-fake.js')
const { FakePlatform, states } = fake
type ReleaseContext = import('../src/deploy/release.js').ReleaseContext
type FakePlatform = import('./release-fake.js').FakePlatform
type Answer = import('./release-fake.js').Answer

const lines: string[] = []
const contextOf = (p: FakePlatform, over: Partial<ReleaseContext> = {}): ReleaseContext => fake.contextOf(p, lines, over)
const noWait = { waiting: () => undefined, unconfirmed: () => undefined }

beforeEach(() => {
  lines.length = 0
})

describe('requestSwitch: never a blind replay', () => {
  test('a 409 waits for the deploy in progress, looks again, then sends; what ran before is updated', async () => {
    const p = new FakePlatform('v0', 'deploying')
    p.answers = ['busy']
    p.at(3_000, () => ((p.distributionId = 'theirs'), (p.status = 'running')))
    const plan = { distributionId: 'v1', previous: 'v0', redeploy: false }
    expect(await requestSwitch(contextOf(p), plan, { at: 60_000 }, noWait)).toBe('sent')
    expect(p.requested).toEqual(['v1'])
    expect(plan.previous).toBe('theirs')
  })

  test('a lost answer: the environment shows ours, so it is adopted and not sent again', async () => {
    const p = new FakePlatform('v0')
    p.answers = ['lost']
    const plan = { distributionId: 'v1', previous: 'v0', redeploy: false }
    expect(await requestSwitch(contextOf(p), plan, { at: 60_000 }, noWait)).toBe('adopted')
    expect(p.requested).toEqual(['v1'])
  })

  test('a 500 is not replayed: looked at, then failed', async () => {
    const p = new FakePlatform('v0')
    p.answers = ['error500']
    await expect(requestSwitch(contextOf(p), { distributionId: 'v1', previous: 'v0', redeploy: false }, { at: 60_000 }, noWait)).rejects.toThrow(/HTTP 500/)
    expect(p.requested).toEqual([])
  })

  test('busy for the whole budget: NotApplied, nothing sent', async () => {
    const p = new FakePlatform('v0', 'deploying')
    p.answers = Array<Answer>(50).fill('busy')
    const error = await requestSwitch(contextOf(p), { distributionId: 'v1', previous: 'v0', redeploy: false }, { at: 10_000 }, noWait).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NotApplied)
    expect((error as InstanceType<typeof NotApplied>).busy).toBe(true)
    expect(p.requested).toEqual([])
  })
})

describe('followSwitch: evidence that fits both readings', () => {
  const plan = { distributionId: 'v1', previous: 'v0', redeploy: false }

  test('reported when done: the id changing from the previous one is the switch', async () => {
    const p = new FakePlatform('v0')
    p.switchTo('v1', 3_000)
    const seen = await followSwitch(contextOf(p), { ...plan }, { at: 60_000 }, { inProgress: () => undefined })
    expect(seen.by).toBe('switch')
    expect(seen.evidence).toMatch(/after reporting v0/)
  })

  test('reported at request with a status: the status going from deploying to running is the switch', async () => {
    const p = new FakePlatform('v0', 'running')
    p.switchTo('v1', 3_000, true)
    expect((await followSwitch(contextOf(p), { ...plan }, { at: 60_000 }, { inProgress: () => undefined })).by).toBe('switch')
  })

  test('reported at request without a status: not observed, and no time is claimed', async () => {
    const p = new FakePlatform('v0')
    p.switchTo('v1', 3_000, true)
    const seen = await followSwitch(contextOf(p), { ...plan }, { at: 60_000 }, { inProgress: () => undefined })
    expect(seen.by).toBe('not-observed')
    expect(seen.evidence).not.toMatch(/after [\d.]+/)
  })

  test('a third distribution is a replacement; no switch in time is NotApplied', async () => {
    const p = new FakePlatform('v0')
    p.switchTo('theirs', 1_000)
    await expect(followSwitch(contextOf(p), { ...plan }, { at: 60_000 }, { inProgress: () => undefined })).rejects.toBeInstanceOf(Replaced)
    const q = new FakePlatform('v0')
    await expect(followSwitch(contextOf(q), { ...plan }, { at: 5_000 }, { inProgress: () => undefined })).rejects.toBeInstanceOf(NotApplied)
  })
})

describe('the release: every state with its evidence', () => {
  test('requested -> in-progress -> applied -> healthy -> verified, with the marker', async () => {
    const p = new FakePlatform('v0')
    const release = newRelease('production', 'v1', 'v0')
    const health = { url: 'https://www.example.com/version.txt', shown: 'https://www.example.com/version.txt', expect: 'v1', timeoutMs: 60_000 }
    expect(await deployRelease(contextOf(p, { health }), release, undefined)).toBeUndefined()
    expect(states(release)).toEqual(['requested', 'in-progress', 'applied', 'healthy', 'verified'])
    expect(release.appliedBy).toBe('switch')
  })

  test('busy at start: waiting first, then requested', async () => {
    const p = new FakePlatform('v0', 'deploying')
    p.at(2_000, () => ((p.distributionId = 'theirs'), (p.status = 'running')))
    const release = newRelease('production', 'v1', 'v0')
    await deployRelease(contextOf(p), release, undefined)
    expect(states(release).slice(0, 2)).toEqual(['waiting', 'requested'])
    expect(release.previous).toBe('theirs')
  })

  test('an unhealthy release fails; the rollback goes to what ran before, followed and checked', async () => {
    const p = new FakePlatform('v0')
    const release = newRelease('production', 'v1', 'v0')
    let checks = 0
    const checkSite = async (): Promise<void> => {
      if (checks++ === 0) throw new HealthCheckFailed('site 500')
    }
    const ctx = contextOf(p, { health: { url: 'https://x.example/', shown: 'https://x.example/', expect: undefined, timeoutMs: 1 }, checkSite })
    expect((await deployRelease(ctx, release, undefined))?.message).toBe('site 500')
    await rollBack(ctx, release)
    expect(states(release)).toEqual(['requested', 'in-progress', 'applied', 'failed', 'rollback-requested', 'rollback-applied', 'rollback-healthy'])
    expect(p.requested).toEqual(['v1', 'v0'])
  })

  test('before a rollback, a third distribution is never undone', async () => {
    const p = new FakePlatform('v0')
    const release = newRelease('production', 'v1', 'v0')
    const ctx = contextOf(p, {
      health: { url: 'https://x.example/', shown: 'https://x.example/', expect: undefined, timeoutMs: 1 },
      checkSite: async () => Promise.reject(new HealthCheckFailed('down'))
    })
    await deployRelease(ctx, release, undefined)
    p.distributionId = 'theirs'
    await expect(rollBack(ctx, release)).rejects.toBeInstanceOf(Replaced)
    expect(release.state).toBe('replaced')
    expect(p.requested).toEqual(['v1'])
  })

  test('not applied, and the previous release still runs with nothing in progress: no rollback is sent', async () => {
    const p = new FakePlatform('v0', 'running')
    p.client.requestDeploy = async () => undefined // accepted, never carried out
    const release = newRelease('production', 'v1', 'v0')
    const ctx = contextOf(p, { deployTimeoutMs: 5_000 })
    expect(await deployRelease(ctx, release, undefined)).toBeInstanceOf(Error)
    await rollBack(ctx, release)
    expect(release.state).toBe('failed')
    expect(lines.join('\n')).toMatch(
      /it still reports the previous distribution, so v1 was not seen running, and a rollback is sent only over this run's own release/
    )
  })

  test('a transition the machine does not know throws', () => {
    const release = newRelease('production', 'v1', 'v0')
    expect(() => enter(release, 'verified', 'no request yet')).toThrow(/no transition from planned to verified/)
  })
})
