// The soak gate's judgement over a timeline of GitHub Deployment statuses, and the backup rule's (src/rules/soak.ts,
// src/rules/backup.ts): pure, every instant given.
const { judgeSoak, soakTimeline, describeSoak } = await import('../src/rules/soak.js')
const { judgeBackup, newestBackup, ageHours, describeBackup } = await import('../src/rules/backup.js')
import type { SoakEvent } from '../src/rules/soak.js'
import type { Backup } from '../src/cloud/client.js'

const T0 = Date.parse('2026-11-28T10:00:00Z')
const min = (m: number): number => T0 + m * 60_000
const at = (m: number): string => new Date(min(m)).toISOString()

let nextId = 1
function event(minute: number, distributionId: string, state: string, previousDistributionId?: string, deploymentId = nextId++): SoakEvent {
  return { atMs: min(minute), deploymentId, distributionId, previousDistributionId, state }
}

describe('the soak gate', () => {
  test('verified since long enough: passed, with the clock and the Deployment that started it', () => {
    const events = [event(0, 'd1', 'in_progress', 'd0', 7), event(2, 'd1', 'success', 'd0', 7)]
    expect(judgeSoak(events, 'D1', 'acceptance', 60, min(62))).toEqual({
      environment: 'acceptance',
      requiredMinutes: 60,
      passed: true,
      verifiedSince: at(2),
      soakedMinutes: 60,
      deploymentId: 7
    })
  })
  test('verified, not long enough: refused, saying when it would be allowed', () => {
    const f = judgeSoak([event(2, 'd1', 'success', 'd0', 7)], 'd1', 'acceptance', 60, min(61.5))
    expect(f).toEqual({
      environment: 'acceptance',
      requiredMinutes: 60,
      passed: false,
      verifiedSince: at(2),
      soakedMinutes: 59,
      allowedAt: at(62),
      deploymentId: 7,
      why: `d1 has been verified in 'acceptance' since ${at(2)}: 59 of the 60 minute(s) required; it is allowed from ${at(62)}`
    })
  })
  test('a later failure of another deploy there, rolled back to ours, restarts the clock at the failure', () => {
    const events = [event(0, 'd1', 'success', 'd0', 1), event(100, 'd2', 'in_progress', 'd1', 2), event(110, 'd2', 'failure', 'd1', 2)]
    const f = judgeSoak(events, 'd1', 'acceptance', 60, min(150))
    expect(f.passed).toBe(false)
    expect(f.verifiedSince).toBe(at(110))
    expect(f.allowedAt).toBe(at(170))
    expect(f.soakedMinutes).toBe(40)
    expect(f.deploymentId).toBe(2)
    expect(f.why).toBe(
      `d1 has been verified in 'acceptance' since ${at(110)} (the clock restarted at the failure of GitHub Deployment 2): 40 of the 60 minute(s) required; it is allowed from ${at(170)}`
    )
    expect(judgeSoak(events, 'd1', 'acceptance', 60, min(170)).passed).toBe(true)
  })
  test('a later failure of ours there: not verified since, however long it ran before', () => {
    const events = [event(0, 'd1', 'success', 'd0', 1), event(500, 'd1', 'failure', 'd1', 2)]
    const f = judgeSoak(events, 'd1', 'acceptance', 60, min(600))
    expect(f).toEqual({
      environment: 'acceptance',
      requiredMinutes: 60,
      passed: false,
      why: `d1 was verified in 'acceptance', but GitHub Deployment 2 failed there at ${at(500)} and 'acceptance' has not run it verified since: deploy it there again and let it soak`
    })
  })
  test('an error status restarts it too, and is named so', () => {
    const events = [event(0, 'd1', 'success', 'd0', 1), event(30, 'd3', 'error', 'd9', 2)]
    expect(judgeSoak(events, 'd1', 'acceptance', 10, min(60)).why).toBe(
      `d1 was verified in 'acceptance', but GitHub Deployment 2 ended in an error there at ${at(30)} and 'acceptance' has not run it verified since: deploy it there again and let it soak`
    )
  })
  test('verified again after the failure: the clock runs from the new success', () => {
    const events = [event(0, 'd1', 'success', 'd0', 1), event(10, 'd1', 'failure', 'd1', 2), event(20, 'd1', 'success', 'd0', 3)]
    const f = judgeSoak(events, 'd1', 'acceptance', 30, min(45))
    expect(f.why).toBe(`d1 has been verified in 'acceptance' since ${at(20)}: 25 of the 30 minute(s) required; it is allowed from ${at(50)}`)
    expect(f.verifiedSince).toBe(at(20))
    expect(f.allowedAt).toBe(at(50))
    expect(f.passed).toBe(false)
  })
  test('replaced there after a long enough soak: a completed soak counts', () => {
    const events = [event(0, 'd1', 'success', 'd0', 1), event(90, 'd2', 'success', 'd1', 2)]
    expect(judgeSoak(events, 'd1', 'acceptance', 60, min(300))).toEqual({
      environment: 'acceptance',
      requiredMinutes: 60,
      passed: true,
      soakedMinutes: 90,
      why: "verified in 'acceptance' for 90 minute(s) before it was replaced there"
    })
  })
  test('replaced there too soon: refused, with how long it soaked', () => {
    const events = [event(0, 'd1', 'success', 'd0', 1), event(30, 'd2', 'success', 'd1', 2)]
    const f = judgeSoak(events, 'd1', 'acceptance', 60, min(300))
    expect(f).toEqual({
      environment: 'acceptance',
      requiredMinutes: 60,
      passed: false,
      soakedMinutes: 30,
      why: "d1 was verified in 'acceptance' for only 30 minute(s) before it was replaced there, less than the 60 required: deploy it there again and let it soak"
    })
  })
  test('never verified there (in progress, failed or another distribution): refused, nothing to wait for', () => {
    const events = [event(0, 'd1', 'in_progress', 'd0', 1), event(5, 'd2', 'success', 'd0', 2)]
    const f = judgeSoak(events, 'd1', 'acceptance', 0, min(60))
    expect(f).toEqual({
      environment: 'acceptance',
      requiredMinutes: 0,
      passed: false,
      why: "no GitHub Deployment of this repository shows d1 verified (success) in 'acceptance': deploy it there first, then promote it"
    })
    expect(judgeSoak([], 'd1', 'acceptance', 0, min(60)).passed).toBe(false)
  })
  test('0 minutes: verified is enough', () => {
    expect(judgeSoak([event(0, 'd1', 'success', 'd0')], 'd1', 'acceptance', 0, min(0)).passed).toBe(true)
  })
  test('a second success of ours does not restart a running clock', () => {
    const events = [event(0, 'd1', 'success', 'd0', 1), event(50, 'd1', 'success', 'd1', 2)]
    expect(judgeSoak(events, 'd1', 'acceptance', 60, min(61))).toMatchObject({ passed: true, verifiedSince: at(0), deploymentId: 1 })
  })
  test('inactive statuses (GitHub marks older Deployments so) change nothing', () => {
    const events = [event(0, 'd1', 'success', 'd0', 1), event(10, 'd1', 'inactive', 'd0', 1)]
    expect(judgeSoak(events, 'd1', 'acceptance', 5, min(20)).passed).toBe(true)
  })
  test('the timeline: statuses of every Deployment in time order, those without a time left out', () => {
    const d = (id: number, distributionId: string) => ({
      id,
      sha: 'a'.repeat(40),
      environment: 'acceptance',
      payload: { distributionId, previousDistributionId: 'd0' },
      creator: undefined,
      createdAt: undefined
    })
    const statuses = new Map([
      [2, [{ state: 'success', logUrl: undefined, createdAt: at(20) }]],
      [
        1,
        [
          { state: 'failure', logUrl: undefined, createdAt: at(30) },
          { state: 'success', logUrl: undefined, createdAt: undefined },
          { state: 'in_progress', logUrl: undefined, createdAt: at(10) }
        ]
      ]
    ])
    expect(soakTimeline([d(2, 'd2'), d(1, 'd1')], statuses)).toEqual([
      { atMs: min(10), deploymentId: 1, distributionId: 'd1', previousDistributionId: 'd0', state: 'in_progress' },
      { atMs: min(20), deploymentId: 2, distributionId: 'd2', previousDistributionId: 'd0', state: 'success' },
      { atMs: min(30), deploymentId: 1, distributionId: 'd1', previousDistributionId: 'd0', state: 'failure' }
    ])
  })
  test('described for the log', () => {
    expect(describeSoak(judgeSoak([event(0, 'd1', 'success', 'd0', 4)], 'd1', 'acceptance', 30, min(45)))).toBe(
      `verified in 'acceptance' since ${at(0)} (GitHub Deployment 4): 45 minute(s), 30 required`
    )
  })
})

describe('the backup rule', () => {
  const backup = (id: string, environmentId: string, createdAt: string): Backup => ({ id, environmentId, createdAt, createdAtMs: Date.parse(createdAt) })
  const list = [
    backup('b-old', 'env-1', '2026-11-27T10:00:00Z'),
    backup('b-new', 'ENV-1', '2026-11-28T04:00:00Z'),
    backup('b-other', 'env-2', '2026-11-28T09:59:00Z'),
    backup('b-bad', 'env-1', 'yesterday')
  ]
  test('the newest of the environment (ids without case), a date that is no date left out', () => {
    expect(newestBackup(list, 'env-1')?.id).toBe('b-new')
    expect(newestBackup(list, 'env-3')).toBeUndefined()
  })
  test('younger than required: passed, with its id, date and age', () => {
    expect(judgeBackup(list, 'env-1', 24, T0)).toEqual({ requiredHours: 24, id: 'b-new', createdAt: '2026-11-28T04:00:00Z', ageHours: 6, passed: true })
  })
  test('exactly as old as allowed is too old', () => {
    expect(judgeBackup(list, 'env-1', 6, T0).passed).toBe(false)
    expect(judgeBackup(list, 'env-1', 6.01, T0).passed).toBe(true)
  })
  test('two taken at the same instant: the first listed is named', () => {
    const same = [backup('first', 'env-1', '2026-11-28T04:00:00Z'), backup('second', 'env-1', '2026-11-28T04:00:00Z')]
    expect(newestBackup(same, 'env-1')?.id).toBe('first')
  })
  test('no backup at all: not passed, nothing named', () => {
    expect(judgeBackup([], 'env-1', 24, T0)).toEqual({ requiredHours: 24, passed: false })
    expect(describeBackup(judgeBackup([], 'env-1', 24, T0), 'production')).toBe("the stack lists no backup of 'production'")
  })
  test('age to a tenth of an hour; a backup dated ahead of our clock is 0 hours old', () => {
    expect(ageHours(T0 - 90 * 60_000, T0)).toBe(1.5)
    expect(ageHours(T0 + 60_000, T0)).toBe(0)
    expect(describeBackup(judgeBackup(list, 'env-1', 1, T0), 'production')).toBe(
      "the newest backup of 'production' is b-new, taken 2026-11-28T04:00:00Z (6 hours ago)"
    )
  })
})

describe('the soak gate: the edges mutation testing asked for', () => {
  test('a completed soak exactly as long as required passes; a minute less does not', () => {
    const exactly = [event(0, 'd1', 'success', 'd0', 1), event(60, 'd2', 'success', 'd1', 2)]
    expect(judgeSoak(exactly, 'd1', 'acceptance', 60, min(300))).toMatchObject({ passed: true, soakedMinutes: 60 })
    const short = [event(0, 'd1', 'success', 'd0', 1), event(59, 'd2', 'success', 'd1', 2)]
    expect(judgeSoak(short, 'd1', 'acceptance', 60, min(300))).toMatchObject({ passed: false, soakedMinutes: 59 })
  })
  test('0 minutes: verified and replaced at once is still verified', () => {
    const atOnce = [event(0, 'd1', 'success', 'd0', 1), event(0, 'd2', 'success', 'd1', 2)]
    expect(judgeSoak(atOnce, 'd1', 'acceptance', 0, min(300))).toMatchObject({ passed: true, soakedMinutes: 0 })
  })
  test('statuses at the same instant: in the order of their Deployments', () => {
    const d = (id: number, distributionId: string) => ({
      id,
      sha: 'a'.repeat(40),
      environment: 'acceptance',
      payload: { distributionId },
      creator: undefined,
      createdAt: undefined
    })
    const statuses = new Map([
      [9, [{ state: 'success', logUrl: undefined, createdAt: at(5) }]],
      [3, [{ state: 'failure', logUrl: undefined, createdAt: at(5) }]]
    ])
    expect(soakTimeline([d(9, 'd9'), d(3, 'd3')], statuses).map((e) => e.deploymentId)).toEqual([3, 9])
  })
  test('described for the log: not passed (its why, or "not verified"), passed on a completed soak (its why)', () => {
    expect(describeSoak({ environment: 'a', requiredMinutes: 1, passed: false, why: 'the reason' })).toBe('the reason')
    expect(describeSoak({ environment: 'a', requiredMinutes: 1, passed: false })).toBe('not verified')
    expect(describeSoak({ environment: 'a', requiredMinutes: 1, passed: true, why: 'soaked before' })).toBe('soaked before')
    expect(describeSoak({ environment: 'a', requiredMinutes: 1, passed: true })).toBe("verified in 'a'")
    expect(describeSoak({ environment: 'a', requiredMinutes: 1, passed: true, verifiedSince: at(0), soakedMinutes: 5 })).toBe(
      `verified in 'a' since ${at(0)}: 5 minute(s), 1 required`
    )
  })
})

test('a completed soak, then a later failure there (of another release): the clock restarted, the soak no longer counts', () => {
  const events = [event(0, 'd1', 'success', 'd0', 1), event(90, 'd2', 'success', 'd1', 2), event(100, 'd3', 'failure', 'd2', 3)]
  const f = judgeSoak(events, 'd1', 'acceptance', 60, min(300))
  expect(f.passed).toBe(false)
  expect(f.why).toBe(
    `d1 was verified in 'acceptance', but GitHub Deployment 3 failed there at ${at(100)} and 'acceptance' has not run it verified since: deploy it there again and let it soak`
  )
})

test('a failure there before ours was ever verified changes nothing', () => {
  const events = [event(0, 'd2', 'failure', 'd0', 1), event(10, 'd1', 'success', 'd0', 2)]
  expect(judgeSoak(events, 'd1', 'acceptance', 30, min(45))).toMatchObject({ passed: true, verifiedSince: at(10), deploymentId: 2 })
})

describe('checkSoak: what it reads of GitHub', () => {
  test('the newest 30 Deployments of the upstream environment on this stack, and each one’s statuses', async () => {
    const { checkSoak, SOAK_DEPLOYMENTS_READ } = await import('../src/rules/soak.js')
    const deployments = Array.from({ length: 35 }, (_, i) => ({
      id: 100 - i,
      sha: 'a'.repeat(40),
      environment: 'acceptance',
      payload: { distributionId: i === 0 ? 'd1' : `old-${i}`, apiUrl: i === 1 ? 'https://other.example' : 'https://api.example/' },
      creator: undefined,
      createdAt: undefined
    }))
    const asked: number[] = []
    const github = {
      listDeploymentPages: async (environment?: string) => {
        expect(environment).toBe('acceptance')
        return { deployments, complete: true }
      },
      listStatuses: async (id: number) => {
        asked.push(id)
        return id === 100 ? [{ state: 'success', logUrl: undefined, createdAt: at(0) }] : []
      }
    } as unknown as import('../src/github/client.js').GitHubApi
    const found = await checkSoak(github, 'https://API.example', 'd1', { environment: 'acceptance', minutes: 10 }, () => min(20))
    expect(SOAK_DEPLOYMENTS_READ).toBe(30)
    // The other stack's Deployment (id 99) is not this stack's: left out before the 30 are taken.
    expect(asked).toEqual([100, ...Array.from({ length: 29 }, (_, i) => 98 - i)])
    expect(found).toMatchObject({ passed: true, verifiedSince: at(0), soakedMinutes: 20, deploymentId: 100 })
  })
})
