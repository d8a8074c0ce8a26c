import { planPruning } from '../src/cloud/prune.js'
import { countKept, describeKeep, isFresh, Keeps, type KeepReason } from '../src/cloud/prune-keep.js'

const d = (id: string, day: number) => ({ id, name: `${id}.tar.gz`, createdAt: new Date(Date.UTC(2026, 0, day)).toISOString() })
const runs = (environment: string): KeepReason => ({ kind: 'runs', environment })
const none = () => undefined

describe('planPruning', () => {
  const five = [d('e', 5), d('a', 1), d('c', 3), d('b', 2), d('d', 4)]
  const keeping =
    (...ids: string[]) =>
    (x: { id: string }) =>
      ids.includes(x.id) ? runs('production') : undefined

  test('deletes the oldest until at most max-1 remain, so the upload lands at max', () => {
    expect(planPruning(five, 3, none).toDelete.map((x) => x.id)).toEqual(['a', 'b', 'c'])
    expect(planPruning(five, 5, none).toDelete.map((x) => x.id)).toEqual(['a'])
  })

  test('nothing to do below the limit', () => {
    expect(planPruning(five, 6, none)).toEqual({ toDelete: [], kept: [], shortBy: 0 })
    expect(planPruning([], 1, none)).toEqual({ toDelete: [], kept: [], shortBy: 0 })
  })

  test('never deletes one that must stay; takes the next oldest instead, and says which it kept and why', () => {
    const plan = planPruning(five, 4, keeping('a', 'c'))
    expect(plan.toDelete.map((x) => x.id)).toEqual(['b', 'd'])
    expect(plan.kept.map((k) => [k.distribution.id, k.reason])).toEqual([
      ['a', runs('production')],
      ['c', runs('production')]
    ])
  })

  test('says how many more it could not delete', () => {
    const plan = planPruning([d('a', 1), d('b', 2)], 1, keeping('a', 'b'))
    expect(plan.toDelete).toEqual([])
    expect(plan.shortBy).toBe(2)
  })

  test('undated records count as the oldest', () => {
    expect(planPruning([d('new', 9), { id: 'undated' }, d('old', 1)], 3, none).toDelete.map((x) => x.id)).toEqual(['undated'])
  })
})

describe('what must stay', () => {
  test('ids in any letter case; the strongest reason wins whichever came first', () => {
    const keeps = new Keeps()
    keeps.add('AB-1', { kind: 'fresh' })
    keeps.add('ab-1', { kind: 'ran', environment: 'development' })
    keeps.add('ab-1', { kind: 'previous', environment: 'production', deployment: 7 })
    expect(keeps.why('Ab-1')).toEqual({ kind: 'previous', environment: 'production', deployment: 7 })
    keeps.add('ab-1', { kind: 'fresh' })
    expect(keeps.why('ab-1')).toEqual({ kind: 'previous', environment: 'production', deployment: 7 })
    keeps.add(null, { kind: 'fresh' })
    keeps.add('', { kind: 'fresh' })
    expect(keeps.why('')).toBeUndefined()
  })

  test('fresh: stored within the hour before the run began, with a quarter of an hour for a platform clock off ours', () => {
    const start = Date.UTC(2026, 5, 1, 12)
    const at = (minutes: number) => ({ id: 'x', createdAt: new Date(start - minutes * 60_000).toISOString() })
    expect(isFresh(at(75), start)).toBe(true)
    expect(isFresh({ id: 'x', createdAt: new Date(start - 75 * 60_000 - 1).toISOString() }, start)).toBe(false)
    expect(isFresh(at(-20), start)).toBe(true)
    expect(isFresh({ id: 'undated' }, start)).toBe(false)
    expect(isFresh({ id: 'bad', createdAt: 'yesterday' }, start)).toBe(false)
  })

  test('each reason in the words of the log line', () => {
    expect(describeKeep(runs('production'))).toBe("environment 'production' runs it")
    expect(describeKeep({ kind: 'ran', environment: 'production' })).toBe(
      "environment 'production' ran it earlier in this run: it is that environment's previous distribution, its likely rollback target"
    )
    expect(describeKeep({ kind: 'previous', environment: 'production', deployment: 7 })).toBe(
      "GitHub Deployment 7 records it as what 'production' ran before its latest deploy: its likely rollback target"
    )
    expect(describeKeep({ kind: 'requested', environment: 'staging', deployment: 8 })).toBe(
      "GitHub Deployment 8 of 'staging' named it within the last hour: that deploy may still be switching"
    )
    expect(describeKeep({ kind: 'in-progress', environment: 'staging', deployment: 9, state: 'in_progress' })).toBe(
      "GitHub Deployment 9 of 'staging' that names it is still in progress"
    )
    expect(describeKeep({ kind: 'fresh' })).toBe("stored within the last hour: it may be another job's upload about to be deployed")
  })

  test('counted by reason, in one order, singular and plural', () => {
    const kept: KeepReason[] = [
      { kind: 'fresh' },
      runs('a'),
      { kind: 'fresh' },
      { kind: 'ran', environment: 'a' },
      { kind: 'previous', environment: 'b', deployment: 1 },
      { kind: 'in-progress', environment: 'b', deployment: 2, state: 'queued' }
    ]
    expect(countKept(kept)).toEqual([
      '1 runs on an environment',
      '2 are the previous distributions of an environment (a likely rollback target)',
      '1 is named by a GitHub Deployment in progress or requested within the last hour',
      '2 were stored within the last hour (another job may be about to deploy them)'
    ])
    expect(countKept([runs('a'), runs('b'), { kind: 'requested', environment: 'b', deployment: 3 }, { kind: 'fresh' }])).toEqual([
      '2 run on an environment',
      '1 is named by a GitHub Deployment in progress or requested within the last hour',
      '1 was stored within the last hour (another job may be about to deploy it)'
    ])
    expect(countKept([])).toEqual([])
  })
})
