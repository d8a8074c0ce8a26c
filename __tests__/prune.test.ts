import { planPruning } from '../src/cloud/prune.js'

const d = (id: string, day: number) => ({ id, name: `${id}.tar.gz`, createdAt: new Date(Date.UTC(2026, 0, day)).toISOString() })

describe('planPruning', () => {
  const five = [d('e', 5), d('a', 1), d('c', 3), d('b', 2), d('d', 4)]

  test('deletes the oldest until at most max-1 remain, so the upload lands at max', () => {
    expect(planPruning(five, new Set(), 3).toDelete.map((x) => x.id)).toEqual(['a', 'b', 'c'])
    expect(planPruning(five, new Set(), 5).toDelete.map((x) => x.id)).toEqual(['a'])
  })

  test('nothing to do below the limit', () => {
    expect(planPruning(five, new Set(), 6)).toEqual({ toDelete: [], fresh: [], shortBy: 0 })
    expect(planPruning([], new Set(), 1)).toEqual({ toDelete: [], fresh: [], shortBy: 0 })
  })

  test('never deletes a distribution an environment runs; takes the next oldest instead', () => {
    expect(planPruning(five, new Set(['a', 'c']), 4).toDelete.map((x) => x.id)).toEqual(['b', 'd'])
  })

  test('says how many more it could not delete because they are in use', () => {
    const plan = planPruning([d('a', 1), d('b', 2)], new Set(['a', 'b']), 1)
    expect(plan.toDelete).toEqual([])
    expect(plan.shortBy).toBe(2)
  })

  test('undated records count as the oldest', () => {
    const plan = planPruning([d('new', 9), { id: 'undated' }, d('old', 1)], new Set(), 3)
    expect(plan.toDelete.map((x) => x.id)).toEqual(['undated'])
  })

  test('an id in use in another letter case is still in use', () => {
    expect(planPruning(five, new Set(['A', 'C']), 4).toDelete.map((x) => x.id)).toEqual(['b', 'd'])
  })

  test('never deletes one created at or after freshSince; says which it kept and how many it is short', () => {
    const plan = planPruning(five, new Set(), 2, Date.UTC(2026, 0, 4))
    expect(plan.toDelete.map((x) => x.id)).toEqual(['a', 'b', 'c'])
    expect(plan.fresh.map((x) => x.id)).toEqual(['d', 'e'])
    expect(plan.shortBy).toBe(1)
  })
})
