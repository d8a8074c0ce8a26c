// The deal of the schedule's drawn latencies to the world's calls (./run.ts).
/**
 * Where each call stands in the deal of latencies, the same whatever order real I/O gives the runs' calls within one
 * fake instant: a run's calls count on from its start, which is the number of the other runs' calls made at earlier
 * instants than its first.
 */
export function latencyDeal(): (run: number, at: number) => number {
  const calls: Array<{ run: number; at: number }> = []
  const starts = new Map<number, { base: number; count: number }>()
  return (run, at) => {
    let mine = starts.get(run)
    if (mine === undefined) {
      mine = { base: calls.filter((c) => c.run !== run && c.at < at).length, count: 0 }
      starts.set(run, mine)
    }
    calls.push({ run, at })
    return mine.base + mine.count++
  }
}
