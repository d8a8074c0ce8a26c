// Honeycomb: a marker on the dataset (or every dataset of the environment, `__all__`), placed at the
// switch seen; when our rollback was seen, a range from the switch to the rollback. A run that tried a
// release and saw no switch gets a range over its whole attempt, of its own type. https://docs.honeycomb.io/api/markers/
// (POST /1/markers/{datasetSlug}, X-Honeycomb-Team; 201). Times in Unix seconds.
import type { ObservedRun, Sink } from '../observed.js'
import { ending, overrideText, place, releaseSeen, rollbackSeen, triedRelease, truncate } from './facts.js'
import { postJson } from './post.js'

export interface HoneycombMarker {
  message: string
  /** Markers of one type share a colour: deploy, rollback, deploy-attempt. */
  type: 'deploy' | 'rollback' | 'deploy-attempt'
  start_time: number
  end_time?: number
  url?: string
}

/** The marker of one run, or undefined when it tried no release. */
export function honeycombMarker(run: ObservedRun): HoneycombMarker | undefined {
  if (!triedRelease(run)) return undefined
  const live = releaseSeen(run)
  const back = rollbackSeen(run)
  const seconds = (ms: number): number => Math.floor(ms / 1000)
  const range =
    back !== undefined
      ? { type: 'rollback' as const, start_time: seconds(live?.at ?? back.at), end_time: seconds(back.at) }
      : live !== undefined
        ? { type: 'deploy' as const, start_time: seconds(live.at) }
        : { type: 'deploy-attempt' as const, start_time: seconds(run.startedAt), end_time: seconds(ending(run)?.at ?? run.endedAt) }
  return { message: truncate(`${run.headline} (${place(run)})${overrideText(run)}`, 500), ...range, ...(run.runUrl !== undefined && { url: run.runUrl }) }
}

export function honeycombSink(config: { readonly apiKey: string; readonly apiUrl: string; readonly dataset: string }): Sink {
  return {
    name: 'Honeycomb',
    async send(run, signal) {
      const marker = honeycombMarker(run)
      if (!marker) return false
      await postJson({
        service: 'Honeycomb',
        url: config.apiUrl,
        path: `/1/markers/${encodeURIComponent(config.dataset)}`,
        headers: { 'X-Honeycomb-Team': config.apiKey },
        body: marker,
        secrets: [config.apiKey],
        signal
      })
      return true
    }
  }
}
