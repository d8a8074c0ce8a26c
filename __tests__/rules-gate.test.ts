// The release gate's freeze (src/rules/gate.ts with src/rules/freeze.ts) on a clock the test drives: at the start,
// and right before the deploy request after a wait for a busy environment (the release of src/deploy/release.ts over
// the scripted platform of release-fake.ts): a window that begins mid-wait refuses the request, nothing is sent.
import { useTestPort } from './test-port.js'

useTestPort()

const { ReleaseGate, RuleRefused } = await import('../src/rules/gate.js')
const { parseFreezeWindows } = await import('../src/rules/freeze.js')
const { newRelease } = await import('../src/deploy/release-state.js')
const { deployRelease, rollBack } = await import('../src/deploy/release.js')
const { HealthCheckFailed } = await import('../src/health.js')
const { releaseFailure } = await import('../src/deploy/outcome.js')
const fake = await import('./release-fake.js')
type RulesRecord = import('../src/rules/record.js').RulesRecord
type ReleaseRules = import('../src/inputs/rules.js').ReleaseRules

const T0 = Date.parse('2026-12-19T22:59:56Z') // 23:59:56 in Amsterdam (UTC+1 in winter)
const HOLIDAYS = '2026-12-20T00:00 .. 2027-01-04T00:00 Europe/Amsterdam'

function gateAt(now: () => number, over: Partial<ReleaseRules> = {}, dryRun = false, gitlab = false) {
  const record: RulesRecord = {}
  const lines: string[] = []
  const cautions: string[] = []
  const rules: ReleaseRules = { freeze: parseFreezeWindows(HOLIDAYS), soak: undefined, backupHours: undefined, overrideReason: undefined, ...over }
  const gate = new ReleaseGate({
    rules,
    record,
    environment: 'production',
    dryRun,
    now,
    signal: undefined,
    log: (l) => lines.push(l),
    caution: (l) => cautions.push(l),
    gitlab
  })
  return { gate, record, lines, cautions }
}

function refusal(fn: () => void): InstanceType<typeof RuleRefused> {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(RuleRefused)
    return error as InstanceType<typeof RuleRefused>
  }
  throw new Error('not refused')
}

describe('at the start', () => {
  test('outside a window: passes, and a window within the hour is said', () => {
    const { gate, record, lines } = gateAt(() => T0)
    gate.freeze('start')
    expect(record).toEqual({})
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      /^A deploy freeze begins at .+ \('2026-12-20T00:00 \.\. 2027-01-04T00:00 Europe\/Amsterdam', line 1\): a deploy request after it is refused\.$/
    )
  })

  test('on GitLab: the override reason is said to be recorded where it is, never in a deployment (GitLab keeps no description)', () => {
    // Found by the simulation's GitLab world: the refusal promised the reason "in the GitHub Deployment".
    const { gate } = gateAt(() => T0 + 10_000, {}, false, true)
    const error = refusal(() => gate.freeze('start'))
    expect(error.message).toMatch(
      /Deploy once it ends, or set override-reason to say why this deploy cannot wait \(the reason is recorded in the summary and every event\)\.$/
    )
  })

  test('in a window: refused, nothing changed, naming the window and when it ends, and how to override', () => {
    const { gate, record } = gateAt(() => T0 + 10_000)
    const error = refusal(() => gate.freeze('start'))
    expect(error.rule).toBe('freeze')
    expect(error.message).toMatch(
      /^Refused: 'production' is in a deploy freeze: '2026-12-20T00:00 \.\. 2027-01-04T00:00 Europe\/Amsterdam' \(line 1\) until .+, so nothing was changed\. Deploy once it ends, or set override-reason to say why this deploy cannot wait \(the reason is recorded in the GitHub Deployment, the summary and every event\)\.$/
    )
    expect(record).toEqual({
      freeze: {
        window: HOLIDAYS,
        line: 1,
        since: '2026-12-19T23:00:00.000Z',
        endsAt: '2027-01-03T23:00:00.000Z',
        until: 'Mon 4 Jan 2027 00:00 Europe/Amsterdam (Sun 3 Jan 2027 23:00 UTC)',
        at: 'start'
      },
      refusedBy: 'freeze'
    })
  })

  test('a dry run says it would be refused', () => {
    const { gate } = gateAt(() => T0 + 10_000, {}, true)
    expect(refusal(() => gate.freeze('start')).message).toMatch(/^A deploy would be refused: 'production' is in a deploy freeze: /)
  })

  test('override-reason: goes on, the window noted and overridden, a caution with the reason', () => {
    const { gate, record, cautions } = gateAt(() => T0 + 10_000, { overrideReason: 'payment outage fix' })
    gate.freeze('start')
    expect(record.override).toEqual({ reason: 'payment outage fix', overrode: ['freeze'] })
    expect(record.refusedBy).toBeUndefined()
    expect(record.freeze?.endsAt).toBe('2027-01-03T23:00:00.000Z')
    expect(cautions).toEqual([
      expect.stringMatching(/^override-reason overrides the deploy freeze: 'production' is in a deploy freeze: .+\. Reason given: "payment outage fix"\.$/)
    ])
  })

  test('right before a request, with nothing named: "the distribution" was not deployed', () => {
    const { gate } = gateAt(() => T0 + 10_000)
    expect(refusal(() => gate.freeze('request')).message).toMatch(/, so the distribution was not deployed \(it stays on the stack\)\. Deploy once it ends/)
  })

  test('no windows: nothing read, nothing said', () => {
    const { gate, record, lines } = gateAt(() => T0 + 10_000, { freeze: [] })
    gate.freeze('start')
    gate.freeze('request')
    expect(record).toEqual({})
    expect(lines).toEqual([])
  })
})

describe('right before the deploy request, after a wait', () => {
  test('a window that began while the run waited for a busy environment: refused, no request sent', async () => {
    const p = new fake.FakePlatform('v0', 'deploying')
    p.at(8_000, () => ((p.distributionId = 'theirs'), (p.status = 'running')))
    const { gate, record } = gateAt(() => T0 + p.t)
    gate.freeze('start') // 23:59:56: not yet
    const release = newRelease('production', 'v1', 'v0')
    const ctx = fake.contextOf(p, [], { followDeploy: false, beforeRequest: () => gate.freeze('request', 'v1, uploaded by this run,') })
    await expect(deployRelease(ctx, release, undefined)).rejects.toThrow(
      /^Refused: a deploy freeze of 'production' began while this run waited: '2026-12-20T00:00 \.\. 2027-01-04T00:00 Europe\/Amsterdam' \(line 1\) until .+, so v1, uploaded by this run, was not deployed \(it stays on the stack\)\. Deploy once it ends, or set override-reason/
    )
    expect(p.requested).toEqual([])
    expect(release.state).toBe('failed')
    expect(release.failure?.kind).toBe('rule')
    expect(record.freeze?.at).toBe('request')
    expect(record.refusedBy).toBe('freeze')
    expect(releaseFailure({ release } as never, 'x', true, false)).toContain("Nothing of this run was deployed to 'production'.")
  })

  test('the wait ends before the window: the request is sent', async () => {
    const p = new fake.FakePlatform('v0', 'deploying')
    p.at(2_000, () => ((p.distributionId = 'theirs'), (p.status = 'running')))
    const { gate, record } = gateAt(() => T0 + p.t)
    const release = newRelease('production', 'v1', 'v0')
    const ctx = fake.contextOf(p, [], { followDeploy: false, beforeRequest: () => gate.freeze('request') })
    await deployRelease(ctx, release, undefined)
    expect(p.requested).toEqual(['v1'])
    expect(record).toEqual({})
  })
})

test('a rollback is never held by a freeze: the window began after our request, the rollback is sent all the same', async () => {
  const p = new fake.FakePlatform('v0')
  const start = Date.parse('2026-12-19T22:59:59Z') // a second before the holidays begin in Amsterdam
  const { gate, record } = gateAt(() => start + p.t)
  const release = newRelease('production', 'v1', 'v0')
  const checks: string[] = []
  const ctx = fake.contextOf(p, [], {
    beforeRequest: () => gate.freeze('request'),
    health: { url: 'https://www.example.com/', shown: 'https://www.example.com/', expect: undefined, timeoutMs: 60_000 },
    checkSite: async () => {
      checks.push(`at ${p.t} ms`)
      if (checks.length === 1) throw new HealthCheckFailed('site 500')
    }
  })
  expect((await deployRelease(ctx, release, undefined))?.message).toBe('site 500')
  expect(p.t).toBeGreaterThan(1_000) // the window is in force now
  await rollBack(ctx, release)
  expect(p.requested).toEqual(['v1', 'v0'])
  expect(release.state).toBe('rollback-healthy')
  expect(record).toEqual({})
})

test('the soak gate without GitHub (the inputs never allow it): refused, saying github-token is not set', async () => {
  const { gate, record } = gateAt(() => T0, { freeze: [], soak: { environment: 'acceptance', minutes: 5 } })
  await expect(gate.soak(undefined, 'https://api.example', 'd1')).rejects.toThrow(
    "Refused: the soak gate cannot be checked: GitHub's Deployments of 'acceptance' could not be read (Reading GitHub Deployments: github-token is not set), so nothing was changed."
  )
  expect(record.soak).toEqual({
    environment: 'acceptance',
    requiredMinutes: 5,
    passed: false,
    why: "GitHub's Deployments of 'acceptance' could not be read (Reading GitHub Deployments: github-token is not set)"
  })
})

describe('what mutation testing asked of the gate', () => {
  test('a window ahead is announced at the start only, not again right before the request', () => {
    const { gate, lines } = gateAt(() => T0)
    gate.freeze('request')
    expect(lines).toEqual([])
    gate.freeze('start')
    expect(lines).toHaveLength(1)
  })

  test('a freeze overridden at the start and again at the request is named once', () => {
    const { gate, record, cautions } = gateAt(() => T0 + 10_000, { overrideReason: 'payment outage fix' })
    gate.freeze('start')
    gate.freeze('request', 'v1')
    expect(record.override).toEqual({ reason: 'payment outage fix', overrode: ['freeze'] })
    expect(cautions).toHaveLength(2)
  })

  test("GitHub's failure after the run was stopped is the stop's: passed on, no refusal recorded", async () => {
    const stop = new AbortController()
    stop.abort(new Error('cancelled'))
    const record: RulesRecord = {}
    const gate = new ReleaseGate({
      rules: { freeze: [], soak: { environment: 'acceptance', minutes: 5 }, backupHours: undefined, overrideReason: undefined },
      record,
      environment: 'production',
      dryRun: false,
      now: () => T0,
      signal: stop.signal,
      log: () => undefined,
      caution: () => undefined
    })
    const error = await gate.soak(undefined, 'https://api.example', 'd1').catch((e: unknown) => e)
    expect(error).not.toBeInstanceOf(RuleRefused)
    expect((error as Error).message).toBe('Reading GitHub Deployments: github-token is not set')
    expect(record).toEqual({})
  })
})
