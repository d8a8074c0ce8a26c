// The release's claims, word for word: the evidence of each state, the log lines, and why a rollback was not
// sent or not seen are what the step tells its user, so each is asserted whole. Every branch of the machine
// (waiting, adopted or sent, the look after the checks, waiting for ours to land, what a rollback may undo,
// a rollback stopped part-way) is driven with the scripted platform and fake clock of release-fake.ts.
import { jest } from '@jest/globals'
import { useTestPort } from './test-port.js'

useTestPort()

const { enter, newRelease } = await import('../src/deploy/release-state.js')
const { deployRelease, rollBack, rollbackFailed, rollbackStopped } = await import('../src/deploy/release.js')
const { Replaced } = await import('../src/deploy/switch.js')
const { HealthCheckFailed } = await import('../src/health.js')
const fake = await import('./release-fake.js')
const { FakePlatform, states } = fake
type ReleaseContext = import('../src/deploy/release.js').ReleaseContext
type ReleaseRecord = import('../src/deploy/release-state.js').ReleaseRecord
type FakePlatform = import('./release-fake.js').FakePlatform
type HealthCheck = import('../src/inputs/index.js').HealthCheck

const lines: string[] = []
const phases: string[] = []
function contextOf(p: FakePlatform, over: Partial<ReleaseContext> = {}): ReleaseContext {
  const phase = <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    phases.push(name)
    return fn()
  }
  return fake.contextOf(p, lines, { phase, ...over })
}

/** Each state with its evidence, in order. */
const evidence = (r: ReleaseRecord): Array<[string, string]> => r.transitions.map((t) => [t.state, t.evidence])

const site = 'https://www.example.com/version.txt'
const health = (expect?: string): HealthCheck => ({ url: site, shown: site, expect, timeoutMs: 60_000 })

/** A health check that fails the first time (the new release) and passes after (the rollback's). */
function failsFirst(before?: () => void): { checks: HealthCheck[]; checkSite: (h: HealthCheck) => Promise<void> } {
  const checks: HealthCheck[] = []
  return {
    checks,
    checkSite: async (h) => {
      checks.push(h)
      if (checks.length === 1) {
        before?.()
        throw new HealthCheckFailed('site 500')
      }
    }
  }
}

/** Deploys v1 over v0 and fails its health check: a release a rollback answers, settled on v1. */
async function unhealthy(p: FakePlatform, over: Partial<ReleaseContext> = {}): Promise<{ release: ReleaseRecord; ctx: ReleaseContext }> {
  const release = newRelease('production', 'v1', 'v0')
  const ctx = contextOf(p, { health: health(), ...failsFirst(), ...over })
  expect((await deployRelease(ctx, release, undefined))?.message).toBe('site 500')
  lines.length = 0
  phases.length = 0
  return { release, ctx }
}

beforeEach(() => {
  lines.length = 0
  phases.length = 0
})

describe('the deploy request: waiting, sent or adopted', () => {
  test('sent and seen switching: each state says what showed it; no health check, no search', async () => {
    const p = new FakePlatform('v0')
    const release = newRelease('production', 'v1', 'v0')
    expect(await deployRelease(contextOf(p), release, undefined)).toBeUndefined()
    expect(evidence(release)).toEqual([
      ['requested', 'the platform accepted the deploy of v1 (strategy stopstart)'],
      ['in-progress', "'production' reports distribution v0; waiting for v1 (0 ms so far)"],
      ['applied', "'production' reports distribution v1 after 2.5 s, after reporting v0"],
      ['verified', "the platform reported the switch; 'production' reports distribution v1 after the checks"]
    ])
    expect(release.adopted).toBe(false)
    expect(phases).toEqual(["Deploy to 'production'", "Wait until 'production' runs v1"])
    expect(lines).toEqual([])
  })

  test('a lost answer, then ours reported: adopted, not sent again; an id reported from the first look is no switch', async () => {
    const p = new FakePlatform('v0')
    p.answers = ['lost']
    const release = newRelease('production', 'v1', 'v0')
    expect(await deployRelease(contextOf(p), release, undefined)).toBeUndefined()
    expect(evidence(release)).toEqual([
      ['unconfirmed', 'the deploy call of v1 got no usable answer (other side closed): it may have been carried out'],
      ['requested', "the deploy call's answer was lost, but 'production' showed it had been carried out: adopted, not sent again"],
      [
        'reported',
        "'production' reports distribution v1 from the first look on: the platform may report a new id as soon as a deploy is requested, so this does not show that the new release serves"
      ]
    ])
    expect(release.adopted).toBe(true)
    expect(release.appliedBy).toBe('not-observed')
    expect(p.requested).toEqual(['v1'])
  })

  test('busy: the first wait is a state naming who holds the environment, the next ones are log lines', async () => {
    const p = new FakePlatform('v0', 'deploying')
    p.at(4_000, () => ((p.distributionId = 'theirs'), (p.status = 'running')))
    const order = { recheck: async () => undefined, holder: async () => 'Job 7 of run 42 deploys there' }
    const release = newRelease('production', 'v1', 'v0')
    await deployRelease(contextOf(p, { order, followDeploy: false }), release, undefined)
    const why = "'production' reports distribution v0 (status: deploying): a deploy is in progress; waiting for it to finish before deploying v1."
    expect(evidence(release)).toEqual([
      ['waiting', `${why} Job 7 of run 42 deploys there.`],
      ['requested', 'the platform accepted the deploy of v1 (strategy stopstart)']
    ])
    expect(lines).toEqual([why, why])
    expect(release.previous).toBe('theirs')
  })

  test('busy, and nothing names the holder: the wait says only what the platform showed', async () => {
    const p = new FakePlatform('v0', 'deploying')
    p.at(500, () => (p.status = 'running'))
    const release = newRelease('production', 'v1', 'v0')
    await deployRelease(contextOf(p, { followDeploy: false }), release, undefined)
    expect(evidence(release)[0]).toEqual([
      'waiting',
      "'production' reports distribution v0 (status: deploying): a deploy is in progress; waiting for it to finish before deploying v1."
    ])
  })

  test('a call without a usable answer after a wait: unconfirmed is a state of its own, then the failure', async () => {
    const p = new FakePlatform('v0', 'deploying')
    p.at(1_500, () => (p.status = 'running'))
    p.answers = ['error500']
    const release = newRelease('production', 'v1', 'v0')
    const failure = await deployRelease(contextOf(p), release, undefined)
    expect(states(release)).toEqual(['waiting', 'unconfirmed', 'failed'])
    expect(evidence(release)[1]).toEqual(['unconfirmed', 'the deploy call of v1 got no usable answer (Deploying: HTTP 500): it may have been carried out'])
    expect(release.failure).toEqual({ kind: 'unconfirmed', message: failure?.message })
    expect(p.requested).toEqual([])
  })

  test('another deploy put this very distribution there while we waited: nothing is sent, followed or checked', async () => {
    const p = new FakePlatform('v0', 'deploying')
    p.at(1_500, () => ((p.distributionId = 'v1'), (p.status = 'running')))
    const release = newRelease('production', 'v1', 'v0')
    const checkSite = jest.fn(async () => undefined)
    expect(await deployRelease(contextOf(p, { health: health('v1'), checkSite }), release, undefined)).toBeUndefined()
    expect(evidence(release)).toEqual([
      ['waiting', "'production' reports distribution v0 (status: deploying): a deploy is in progress; waiting for it to finish before deploying v1."],
      [
        'already-running',
        "'production' reports distribution v1 (status: running): another deploy put this distribution there while this run waited, so nothing was sent"
      ]
    ])
    expect(p.requested).toEqual([])
    expect(checkSite).not.toHaveBeenCalled()
  })

  test('a redeploy keeps what it redeploys as what ran before, even when the wait ended on another id: it is never rolled back', async () => {
    const p = new FakePlatform('v1', 'deploying')
    p.at(1_500, () => ((p.distributionId = 'theirs'), (p.status = 'running')))
    const release = newRelease('production', 'v1', 'v1')
    const ctx = contextOf(p, { followDeploy: false, health: health(), ...failsFirst() })
    expect((await deployRelease(ctx, release, undefined))?.message).toBe('site 500')
    expect(release.previous).toBe('v1')
    await rollBack(ctx, release)
    expect(release.rollbackTo).toBeUndefined()
    expect(p.requested).toEqual(['v1'])
  })
})

describe('the checks: what the site and the search showed, and the look after them', () => {
  test('health check without health-expect and a search check: the site only answers', async () => {
    const p = new FakePlatform('v0')
    const release = newRelease('production', 'v1', 'v0')
    expect(await deployRelease(contextOf(p, { health: health() }), release, async () => undefined)).toBeUndefined()
    expect(evidence(release).slice(3)).toEqual([
      ['healthy', `${site} answered 2xx; without health-expect this cannot tell the new release from the old one`],
      ['verified', `the platform reported the switch, the site answers, the search check passed; 'production' reports distribution v1 after the checks`]
    ])
    expect(release.site).toBe('answers')
  })

  test('health-expect after a seen switch: the marker is the site check, the switch stays how it was applied', async () => {
    const p = new FakePlatform('v0')
    const release = newRelease('production', 'v1', 'v0')
    expect(await deployRelease(contextOf(p, { health: health('v1') }), release, undefined)).toBeUndefined()
    expect(evidence(release).slice(3)).toEqual([
      ['healthy', `${site} answered 2xx with 'v1'`],
      ['verified', `the platform reported the switch, the site answers with the marker; 'production' reports distribution v1 after the checks`]
    ])
  })

  test('a search check after a seen switch, no health check', async () => {
    const p = new FakePlatform('v0')
    const release = newRelease('production', 'v1', 'v0')
    expect(await deployRelease(contextOf(p), release, async () => undefined)).toBeUndefined()
    expect(evidence(release).at(-1)).toEqual([
      'verified',
      `the platform reported the switch, the search check passed; 'production' reports distribution v1 after the checks`
    ])
  })

  test('not followed: the marker shows it applied, once', async () => {
    const p = new FakePlatform('v0')
    const release = newRelease('production', 'v1', 'v0')
    const checkSite = async (): Promise<void> => p.sleep(3_000)
    expect(await deployRelease(contextOf(p, { followDeploy: false, health: health('v1'), checkSite }), release, undefined)).toBeUndefined()
    expect(evidence(release)).toEqual([
      ['requested', 'the platform accepted the deploy of v1 (strategy stopstart)'],
      ['applied', `${site} answers with 'v1', the new release's marker`],
      ['healthy', `${site} answered 2xx with 'v1'`],
      ['verified', `the site answers with the new release marker; 'production' reports distribution v1 after the checks`]
    ])
    expect(release.appliedBy).toBe('marker')
  })

  test('not followed, marker and search', async () => {
    const p = new FakePlatform('v0')
    const release = newRelease('production', 'v1', 'v0')
    const checkSite = async (): Promise<void> => p.sleep(3_000)
    expect(await deployRelease(contextOf(p, { followDeploy: false, health: health('v1'), checkSite }), release, async () => undefined)).toBeUndefined()
    expect(evidence(release).at(-1)).toEqual([
      'verified',
      `the site answers with the new release marker, the search check passed; 'production' reports distribution v1 after the checks`
    ])
  })

  test('not followed and no marker: nothing showed it applied, so nothing is verified', async () => {
    const p = new FakePlatform('v0')
    const release = newRelease('production', 'v1', 'v0')
    expect(await deployRelease(contextOf(p, { followDeploy: false }), release, async () => undefined)).toBeUndefined()
    expect(states(release)).toEqual(['requested'])
  })

  test('the look after the checks fails once: it is tried again within its own time', async () => {
    const p = new FakePlatform('v0')
    const release = newRelease('production', 'v1', 'v0')
    const verify = async (): Promise<undefined> => void (p.failingLooks = 1)
    expect(await deployRelease(contextOf(p), release, verify)).toBeUndefined()
    expect(release.state).toBe('verified')
    expect(release.unconfirmedAfterChecks).toBeUndefined()
  })

  test('the look after the checks is the first one that answers: a change after it is not waited for', async () => {
    const p = new FakePlatform('v0')
    const release = newRelease('production', 'v1', 'v0')
    const verify = async (): Promise<undefined> => void p.at(p.t + 500, () => (p.distributionId = 'theirs'))
    expect(await deployRelease(contextOf(p), release, verify)).toBeUndefined()
    expect(release.state).toBe('verified')
  })

  test('no look after the checks answers in time: not verified, and it says why', async () => {
    const p = new FakePlatform('v0')
    const release = newRelease('production', 'v1', 'v0')
    let checked = 0
    const verify = async (): Promise<undefined> => void ((checked = p.t), (p.failingLooks = 1_000))
    expect(await deployRelease(contextOf(p), release, verify)).toBeUndefined()
    const why = "the checks passed, but 'production' could not be looked at after them, so it was not seen still running v1"
    expect(release.unconfirmedAfterChecks).toBe(why)
    expect(lines).toEqual([`Not verified: ${why}.`])
    expect(release.state).toBe('applied')
    // The look after the checks has 30 s of its own.
    expect(p.t - checked).toBe(30_000)
  })

  test('ours switching again after the checks: not verified', async () => {
    const p = new FakePlatform('v0', 'running')
    const release = newRelease('production', 'v1', 'v0')
    const verify = async (): Promise<undefined> => void (p.status = 'deploying')
    expect(await deployRelease(contextOf(p), release, verify)).toBeUndefined()
    const why = "the checks passed, but 'production' reports distribution v1 (status: deploying) after them: ours, switching again, not seen settled"
    expect(release.unconfirmedAfterChecks).toBe(why)
    expect(lines).toEqual([`Not verified: ${why}.`])
    expect(release.state).toBe('applied')
  })

  test('nothing runs after the checks: ours no longer runs, a failure a rollback answers', async () => {
    const p = new FakePlatform('v0')
    const release = newRelease('production', 'v1', 'v0')
    const verify = async (): Promise<undefined> => void (p.distributionId = undefined)
    const failure = await deployRelease(contextOf(p), release, verify)
    const message =
      "The checks passed, but then 'production' reports no distribution: v1 no longer runs (the platform may have restarted, or the distribution was deleted)."
    expect(failure?.message).toBe(message)
    expect(release.failure).toEqual({ kind: 'not-applied', message })
    expect(evidence(release).at(-1)).toEqual(['failed', message])
  })

  test('another distribution after the checks: replaced, and the checks may have answered for it', async () => {
    const p = new FakePlatform('v0')
    const release = newRelease('production', 'v1', 'v0')
    const verify = async (): Promise<undefined> => void (p.distributionId = 'theirs')
    const message =
      "'production' reports distribution theirs after the checks passed: not v1 settled, so another deploy replaced it meanwhile, and the checks may have answered for that one."
    await expect(deployRelease(contextOf(p), release, verify)).rejects.toThrow(message)
    expect(evidence(release).at(-1)).toEqual(['replaced', message])
  })
})

describe('the rollback: what it waits for, what it sends, what it says', () => {
  test('after a failed check, a deploy in progress over ours is waited for, then the rollback is sent, followed and checked', async () => {
    const p = new FakePlatform('v0', 'running')
    const release = newRelease('production', 'v1', 'v0')
    const { checks, checkSite } = failsFirst(() => {
      p.status = 'deploying'
      p.at(p.t + 2_000, () => (p.status = 'running'))
    })
    const ctx = contextOf(p, { health: health('v1'), checkSite })
    expect((await deployRelease(ctx, release, undefined))?.message).toBe('site 500')
    lines.length = 0
    phases.length = 0
    await rollBack(ctx, release)
    expect(phases).toEqual(["Roll back 'production' to v0"])
    const busy = "'production' reports distribution v1 (status: deploying): a deploy is in progress; waiting for it to finish before rolling back."
    expect(lines).toEqual([busy, busy, "'production' reports distribution v1 (status: deploying); waiting for v0 (0 ms so far)"])
    expect(evidence(release).slice(-3)).toEqual([
      ['rollback-requested', 'the platform accepted the deploy of v0'],
      ['rollback-applied', "'production' reports distribution v0 (status: running) after 2.5 s, after reporting v1"],
      ['rollback-healthy', `${site} answered 2xx (the old release's answer; health-expect belongs to the new one)`]
    ])
    expect(checks.map((h) => h.expect)).toEqual(['v1', undefined])
    expect(release.rollbackTo).toBe('v0')
    expect(p.requested).toEqual(['v1', 'v0'])
  })

  test('not applied in time, no status: the rollback waits for ours to land (said once), then sends', async () => {
    const p = new FakePlatform('v0')
    p.switchMs = 8_000
    const release = newRelease('production', 'v1', 'v0')
    const ctx = contextOf(p, { deployTimeoutMs: 5_000 })
    expect(await deployRelease(ctx, release, undefined)).toBeInstanceOf(Error)
    expect(release.failure?.kind).toBe('not-applied')
    p.switchMs = 2_000
    lines.length = 0
    await rollBack(ctx, release)
    expect(lines[0]).toBe("'production' reports distribution v0: v1 may still land; waiting for it before rolling back.")
    expect(lines.filter((l) => l.includes('may still land'))).toHaveLength(1)
    expect(states(release).slice(-2)).toEqual(['rollback-requested', 'rollback-applied'])
    expect(p.requested).toEqual(['v1', 'v0'])
  })

  test('not applied in time, and the environment names no distribution while ours lands: waited for, then rolled back', async () => {
    const p = new FakePlatform('v0')
    p.switchMs = 8_000
    const release = newRelease('production', 'v1', 'v0')
    const ctx = contextOf(p, { deployTimeoutMs: 5_000 })
    expect(await deployRelease(ctx, release, undefined)).toBeInstanceOf(Error)
    p.distributionId = undefined
    p.switchMs = 2_000
    lines.length = 0
    await rollBack(ctx, release)
    expect(lines[0]).toBe("'production' reports no distribution: v1 may still land; waiting for it before rolling back.")
    expect(states(release).slice(-2)).toEqual(['rollback-requested', 'rollback-applied'])
  })

  test('not applied, and the previous release runs with no deploy going on: nothing to wait for, no rollback', async () => {
    const p = new FakePlatform('v0', 'running')
    p.answers = ['accepted-unseen']
    const release = newRelease('production', 'v1', 'v0')
    const ctx = contextOf(p, { deployTimeoutMs: 5_000 })
    expect(await deployRelease(ctx, release, undefined)).toBeInstanceOf(Error)
    lines.length = 0
    const before = p.t
    await rollBack(ctx, release)
    const why =
      "'production' reports distribution v0 (status: running): it still reports the previous distribution, so v1 was not seen running, and a rollback is sent only over this run's own release"
    expect(release.rollbackNotSent).toBe(why)
    expect(lines).toEqual([`${why}.`])
    expect(p.t).toBe(before)
    expect(release.state).toBe('failed')
  })

  test('not applied, no status, and ours never shows: it may still land, and no rollback is sent', async () => {
    const p = new FakePlatform('v0')
    p.answers = ['accepted-unseen']
    const release = newRelease('production', 'v1', 'v0')
    const ctx = contextOf(p, { deployTimeoutMs: 5_000 })
    expect(await deployRelease(ctx, release, undefined)).toBeInstanceOf(Error)
    lines.length = 0
    await rollBack(ctx, release)
    const why =
      "'production' reports distribution v0: it still reports the previous distribution, so v1 was not seen running within deploy-timeout-minutes; it may still land, and a rollback is sent only over this run's own release"
    expect(release.rollbackNotSent).toBe(why)
    expect(lines).toEqual(["'production' reports distribution v0: v1 may still land; waiting for it before rolling back.", `${why}.`])
    expect(p.requested).toEqual(['v1'])
  })

  test('ours still switching when the rollback budget ran out: it may still land, and no rollback is sent', async () => {
    const p = new FakePlatform('v0', 'running')
    p.reportAtRequest = true
    p.switchMs = 60_000
    const release = newRelease('production', 'v1', 'v0')
    const ctx = contextOf(p, { deployTimeoutMs: 5_000 })
    expect(await deployRelease(ctx, release, undefined)).toBeInstanceOf(Error)
    lines.length = 0
    await rollBack(ctx, release)
    const why =
      "'production' reports distribution v1 (status: deploying): v1 was still switching when deploy-timeout-minutes ran out; it may still land, and a rollback is sent only over this run's own release"
    expect(release.rollbackNotSent).toBe(why)
    expect(lines).toEqual(["'production' reports distribution v1 (status: deploying): v1 may still land; waiting for it before rolling back.", `${why}.`])
    expect(p.requested).toEqual(['v1'])
  })

  test('ours seen switching, then settled: the rollback waits for it to settle, then sends', async () => {
    const p = new FakePlatform('v0', 'running')
    p.reportAtRequest = true
    p.switchMs = 8_000
    const release = newRelease('production', 'v1', 'v0')
    const ctx = contextOf(p, { deployTimeoutMs: 5_000 })
    expect(await deployRelease(ctx, release, undefined)).toBeInstanceOf(Error)
    p.switchMs = 2_000
    p.reportAtRequest = false
    await rollBack(ctx, release)
    expect(states(release).slice(-2)).toEqual(['rollback-requested', 'rollback-applied'])
    expect(p.requested).toEqual(['v1', 'v0'])
  })

  test('unconfirmed, and ours already landed at the first look: rolled back at once, with no wait said', async () => {
    const p = new FakePlatform('v0')
    p.answers = ['lost']
    p.switchMs = 7_000
    const release = newRelease('production', 'v1', 'v0')
    const ctx = contextOf(p, { deployTimeoutMs: 5_000 })
    expect(await deployRelease(ctx, release, undefined)).toBeInstanceOf(Error)
    expect(release.failure?.kind).toBe('unconfirmed')
    await p.sleep(3_000)
    p.switchMs = 2_000
    lines.length = 0
    await rollBack(ctx, release)
    expect(lines).toEqual(["'production' reports distribution v1; waiting for v0 (0 ms so far)"])
    expect(states(release).slice(-2)).toEqual(['rollback-requested', 'rollback-applied'])
  })

  test('another distribution while ours may land: replaced at once, never undone', async () => {
    const p = new FakePlatform('v0')
    p.answers = ['accepted-unseen']
    const release = newRelease('production', 'v1', 'v0')
    const ctx = contextOf(p, { deployTimeoutMs: 5_000 })
    expect(await deployRelease(ctx, release, undefined)).toBeInstanceOf(Error)
    p.distributionId = 'theirs'
    lines.length = 0
    const before = p.t
    const message =
      "'production' reports distribution theirs: neither v1 nor v0, and a rollback is sent only over this run's own release. This run never undoes another deploy."
    await expect(rollBack(ctx, release)).rejects.toThrow(message)
    expect(evidence(release).at(-1)).toEqual(['replaced', message])
    expect(lines).toEqual([])
    expect(p.t).toBe(before)
  })

  test('the environment names no distribution after a failed check: no rollback, and it says why', async () => {
    const p = new FakePlatform('v0')
    const { release, ctx } = await unhealthy(p)
    p.distributionId = undefined
    await rollBack(ctx, release)
    const why = "'production' reports no distribution: it names no distribution, and a rollback is sent only over this run's own release"
    expect(release.rollbackNotSent).toBe(why)
    expect(lines).toEqual([`${why}.`])
    expect(p.requested).toEqual(['v1'])
  })

  test('the rollback call answered 409: another deploy will replace ours, so none is sent', async () => {
    const p = new FakePlatform('v0')
    p.answers = ['ok', 'busy']
    const { release, ctx } = await unhealthy(p)
    await rollBack(ctx, release)
    const why =
      "the platform answered HTTP 409 DeploymentInProgress: another deploy is in progress, which will replace this release; this run never undoes another deploy; 'production' reports distribution v1"
    expect(release.rollbackRefused).toBe(why)
    expect(lines).toEqual([`No rollback: ${why}.`])
    expect(release.state).toBe('failed')
  })

  test("the rollback call's answer was lost and the environment showed it: adopted; its id from the first look is no switch back", async () => {
    const p = new FakePlatform('v0')
    p.answers = ['ok', 'lost']
    const { release, ctx } = await unhealthy(p)
    await rollBack(ctx, release)
    expect(evidence(release).at(-1)).toEqual(['rollback-requested', 'after a lost answer, the environment showed the deploy of v0'])
    expect(release.rollbackUnconfirmed).toBeUndefined()
    const why =
      "'production' reports distribution v0 from the first look on: the platform may report an id as soon as a deploy is requested, so the switch back was not seen"
    expect(release.rollbackNotSeen).toBe(why)
    expect(lines).toEqual([`Rollback: ${why}.`])
    expect(p.requested).toEqual(['v1', 'v0'])
  })

  test("the rollback call's answer was lost and it never showed: unconfirmed, then failed", async () => {
    const p = new FakePlatform('v0')
    p.answers = ['ok', 'lost-unseen']
    const { release, ctx } = await unhealthy(p)
    const error = await rollBack(ctx, release).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect(release.rollbackUnconfirmed).toBe('the deploy call of v0 got no usable answer (other side closed): it may have been carried out')
    rollbackFailed(release, error)
    expect(evidence(release).at(-1)).toEqual(['rollback-failed', (error as Error).message])
    rollbackStopped(release, new Error('stopped'))
    expect(release.rollbackNotSent).toBeUndefined()
  })

  /** The rollback's call never reaches the platform (a refused connection), and meanwhile the environment shows `id`. */
  function rollbackUnsentWhile(p: FakePlatform, id: string): void {
    const send = p.client.requestDeploy.bind(p.client)
    p.client.requestDeploy = async (...args: Parameters<typeof send>) => {
      if (args[1] !== 'v0') return send(...args)
      p.distributionId = id
      throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' })
    }
  }

  test('the rollback call was not sent, and before sending it again the previous release runs: not ours, never undone', async () => {
    const p = new FakePlatform('v0')
    const { release, ctx } = await unhealthy(p)
    rollbackUnsentWhile(p, 'v0')
    await expect(rollBack(ctx, release)).rejects.toThrow(
      "'production' reports distribution v0: not v1 settled, and a rollback is sent only over this run's own release. This run never undoes another deploy."
    )
    expect(p.requested).toEqual(['v1'])
  })

  test('the rollback call was not sent, and before sending it again another distribution runs: never undone', async () => {
    const p = new FakePlatform('v0')
    const { release, ctx } = await unhealthy(p)
    rollbackUnsentWhile(p, 'theirs')
    await expect(rollBack(ctx, release)).rejects.toThrow(
      "'production' reports distribution theirs: neither v1 nor v0, and a rollback is sent only over this run's own release. This run never undoes another deploy."
    )
    expect(p.requested).toEqual(['v1'])
  })

  test('another deploy after a failed check is never undone', async () => {
    const p = new FakePlatform('v0')
    const { release, ctx } = await unhealthy(p)
    p.distributionId = 'theirs'
    await expect(rollBack(ctx, release)).rejects.toBeInstanceOf(Replaced)
    expect(release.state).toBe('replaced')
  })
})

describe('a rollback stopped part-way', () => {
  function failed(): ReleaseRecord {
    const release = newRelease('production', 'v1', 'v0')
    enter(release, 'requested', 'sent')
    enter(release, 'failed', 'site 500')
    return release
  }
  const boom = new Error('boom')

  test('none attempted (no rollbackTo): nothing is recorded', () => {
    const release = failed()
    rollbackFailed(release, boom)
    expect(states(release)).toEqual(['requested', 'failed'])
  })

  test('after failed or applied, it failed; a reason that is not an Error is told as it is', () => {
    const release = failed()
    release.rollbackTo = 'v0'
    rollbackFailed(release, boom)
    expect(evidence(release).at(-1)).toEqual(['rollback-failed', 'boom'])
    const applied = failed()
    applied.rollbackTo = 'v0'
    enter(applied, 'rollback-requested', 'accepted')
    enter(applied, 'rollback-applied', 'switched')
    rollbackFailed(applied, 'cut')
    expect(evidence(applied).at(-1)).toEqual(['rollback-failed', 'cut'])
  })

  test('a state that already tells it is left as it is', () => {
    const release = failed()
    release.rollbackTo = 'v0'
    enter(release, 'replaced', 'theirs')
    expect(() => rollbackFailed(release, boom)).not.toThrow()
    expect(states(release)).toEqual(['requested', 'failed', 'replaced'])
  })

  test('requested: it may land, so it stays requested with why it was not seen; an earlier reason stays', () => {
    const release = failed()
    release.rollbackTo = 'v0'
    enter(release, 'rollback-requested', 'accepted')
    rollbackFailed(release, boom)
    expect(release.state).toBe('rollback-requested')
    expect(release.rollbackNotSeen).toBe('it was not seen applied: boom')
    rollbackFailed(release, new Error('later'))
    expect(release.rollbackNotSeen).toBe('it was not seen applied: boom')
  })

  test('stopped after the rollback was requested: not seen, with the stop named; an earlier reason stays', () => {
    const release = failed()
    enter(release, 'rollback-requested', 'accepted')
    const stop = Object.assign(new Error('watchdog'), { name: 'Watchdog' })
    expect(rollbackStopped(release, stop)).toBe(stop)
    expect(release.rollbackNotSeen).toBe('the run was stopped (Watchdog) before the switch back was seen')
    expect(release.rollbackNotSent).toBeUndefined()
    rollbackStopped(release, 'cancel')
    expect(release.rollbackNotSeen).toBe('the run was stopped (Watchdog) before the switch back was seen')
    const other = failed()
    enter(other, 'rollback-requested', 'accepted')
    expect(rollbackStopped(other, 'cancel')).toBe('cancel')
    expect(other.rollbackNotSeen).toBe('the run was stopped (stop) before the switch back was seen')
  })

  test('stopped before a rollback was sent: said so, unless a call may have been carried out; an earlier reason stays', () => {
    const release = failed()
    rollbackStopped(release, boom)
    expect(release.rollbackNotSent).toBe('the run was stopped (watchdog or cancel) before a rollback could be sent')
    expect(release.rollbackNotSeen).toBeUndefined()
    const earlier = failed()
    earlier.rollbackNotSent = 'it names no distribution'
    rollbackStopped(earlier, boom)
    expect(earlier.rollbackNotSent).toBe('it names no distribution')
    const mayHaveLanded = failed()
    mayHaveLanded.rollbackUnconfirmed = 'the deploy call of v0 got no usable answer'
    rollbackStopped(mayHaveLanded, boom)
    expect(mayHaveLanded.rollbackNotSent).toBeUndefined()
  })
})
