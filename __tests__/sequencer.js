// The order the suites start in: Jest's (the slowest of the last run first; by file size when it has no times), but the
// simulation always first. Its time follows SIM_RUNS (5000 by default, in CI too; one while a schedule is replayed),
// so the last run's time can mislead: started last, behind suites that mostly wait, the one long CPU-bound suite ran
// alone at the end (a run on busy cores took 575 s where 300 s would do).
import Sequencer from '@jest/test-sequencer'

const FIRST = /[\\/]simulation\.test\.ts$/

export default class SimulationFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests)
    return [...sorted.filter((t) => FIRST.test(t.path)), ...sorted.filter((t) => !FIRST.test(t.path))]
  }
}
