// The simulation replays a seed with one command only if a schedule's world is the same on every replay: the drawn
// latencies must reach the same calls whatever order real I/O gives two runs' calls within one fake instant.
import { latencyDeal } from './sim/latency.js'

/** The places dealt to `calls` (run, fake instant) in that order, by run and then by the run's own order. */
function dealt(calls: Array<[number, number]>): Record<number, number[]> {
  const deal = latencyDeal()
  const byRun: Record<number, number[]> = {}
  for (const [run, at] of calls) (byRun[run] ??= []).push(deal(run, at))
  return byRun
}

test('two runs calling within the same instant get the same places in either order', () => {
  const oneWay = dealt([
    [0, 1000],
    [0, 2000],
    [1, 2000],
    [0, 2000],
    [1, 2000],
    [1, 3000]
  ])
  const theOther = dealt([
    [0, 1000],
    [1, 2000],
    [1, 2000],
    [0, 2000],
    [0, 2000],
    [1, 3000]
  ])
  expect(oneWay).toEqual(theOther)
  expect(oneWay).toEqual({ 0: [0, 1, 2], 1: [1, 2, 3] })
})

test('a run after another goes on from where the other left the deal; a run alone counts from 0', () => {
  expect(
    dealt([
      [0, 1000],
      [0, 1000],
      [0, 5000],
      [1, 9000],
      [1, 9000]
    ])
  ).toEqual({ 0: [0, 1, 2], 1: [3, 4] })
  expect(dealt([[2, 0]])).toEqual({ 2: [0] })
})
