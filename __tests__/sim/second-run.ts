// The second run a world may hold (./runs.ts runs it): drawn last in a schedule, so a schedule without one (every fixed
// one) is a world of one run. Apart from ./runs.ts so that ./world.ts can draw it without importing the runs' machinery.
import fc from 'fast-check'
import { RERUN_KEEPS_IDS } from './faces.js'
import type { Schedule } from './world.js'

/** The second run of a world. */
export interface SecondRun {
  /** A job of the same CI run (its run id and attempt), a re-run attempt of the first's job, or a job of the same CI run on another stack. */
  readonly relation: 'same-run' | 'rerun' | 'other-stack'
  /** The other environment of the stack (a staging job beside a production job), or the same one (a later stage deploying again). */
  readonly environment: 'other' | 'same'
  /** Seconds after the first began (the two overlap), or once the first has ended. */
  readonly when: number | 'after'
  /** Our distribution by id, a promotion from the other environment, or an upload of the same build. */
  readonly source: 'id' | 'environment' | 'upload'
  readonly rollback: boolean
}

export const secondRuns: fc.Arbitrary<SecondRun> = fc.record({
  relation: fc.constantFrom('same-run' as const, 'same-run' as const, 'rerun' as const, 'other-stack' as const),
  environment: fc.constantFrom('other' as const, 'other' as const, 'same' as const),
  when: fc.constantFrom<SecondRun['when']>('after', 'after', 1, 10, 45),
  source: fc.constantFrom('id' as const, 'environment' as const, 'upload' as const, 'upload' as const),
  rollback: fc.boolean()
})

/**
 * Where the second run goes and when, as the world can hold it: a re-run is of the same job, after it; GitHub's OIDC
 * token is one stack's. None beside a terminal run: it has no CI run to share, and its random run id is one per
 * process, which the simulation's one process cannot give two runs.
 */
export function placeOf(s: Schedule, second: SecondRun | undefined): SecondRun | undefined {
  if (second === undefined || s.face?.ci === 'terminal') return undefined
  let relation = second.relation
  if (relation === 'rerun' && s.face !== undefined && RERUN_KEEPS_IDS.includes(s.face.ci)) relation = 'same-run'
  if (relation === 'other-stack' && s.login === 'github-oidc') relation = 'same-run'
  if (relation === 'rerun') return { ...second, relation, environment: 'same', when: 'after' }
  return { ...second, relation }
}
