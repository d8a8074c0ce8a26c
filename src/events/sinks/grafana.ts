// Grafana: an organisation annotation (shown by any dashboard whose annotation query takes its tags), a
// range from the run's start to the moment the environment was last seen changing: the rollback seen,
// else the switch seen, else the run's ending. https://grafana.com/docs/grafana/latest/developer-resources/api-reference/http-api/annotations/
// (POST /api/annotations; 200 {"message":"Annotation added","id":...}). Only for a run that tried a release.
import type { ObservedRun, Sink } from '../observed.js'
import { changesText, ending, place, releaseSeen, rollbackSeen, rulesFacts, timeline, triedRelease } from './facts.js'
import { postJson } from './post.js'

export interface GrafanaAnnotation {
  /** Epoch milliseconds. */
  time: number
  timeEnd: number
  tags: string[]
  text: string
}

/** The annotation of one run, or undefined when it tried no release (a refusal, a run without an environment). */
export function grafanaAnnotation(run: ObservedRun): GrafanaAnnotation | undefined {
  if (!triedRelease(run) || run.environment === undefined) return undefined
  const end = rollbackSeen(run)?.at ?? releaseSeen(run)?.at ?? ending(run)?.at ?? run.endedAt
  const lines = [`${run.headline} (${place(run)})`, ...rulesFacts(run).map((f) => `${f.title}: ${f.value}`), ...timeline(run), ...changesText(run)]
  if (run.runUrl !== undefined) lines.push(run.runUrl)
  return { time: run.startedAt, timeEnd: Math.max(end, run.startedAt), tags: ['brcloud', run.stack, run.environment, run.outcome], text: lines.join('\n') }
}

export function grafanaSink(config: { readonly url: string; readonly token: string }): Sink {
  return {
    name: 'Grafana',
    async send(run, signal) {
      const annotation = grafanaAnnotation(run)
      if (!annotation) return false
      await postJson({
        service: 'Grafana',
        url: config.url,
        path: '/api/annotations',
        headers: { authorization: `Bearer ${config.token}` },
        body: annotation,
        secrets: [config.token],
        signal
      })
      return true
    }
  }
}
