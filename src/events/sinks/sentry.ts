// Sentry: a deploy of the release named like the distribution, to the environment, when our release was
// seen live (a rollback seen later is said in the deploy's name: Sentry's deploys have no status).
// https://docs.sentry.io/api/releases/create-a-deploy/ (201). A release Sentry does not know (404) is
// created first, for the project: https://docs.sentry.io/api/releases/create-a-new-release-for-an-organization/
import type { ObservedRun, Sink } from '../observed.js'
import { iso, place, releaseSeen, rollbackSeen, truncate } from './facts.js'
import { postJson, SinkCallFailed } from './post.js'

export interface SentryDeploy {
  environment: string
  name: string
  url?: string
  dateStarted: string
  dateFinished: string
  projects: string[]
}

export interface SentryRelease {
  version: string
  projects: string[]
  ref?: string
}

/** Sentry keeps a deploy's name in 64 characters. */
const NAME_MAX = 64

/**
 * The deploy of one run, or undefined when no release was seen live (or it has no name or environment):
 * started at the run's start, finished when the switch was seen.
 */
export function sentryDeploy(run: ObservedRun, project: string): SentryDeploy | undefined {
  const live = releaseSeen(run)
  if (!live || run.environment === undefined || run.distribution.name === undefined) return undefined
  return {
    environment: run.environment,
    name: deployName(run),
    ...(run.runUrl !== undefined && { url: run.runUrl }),
    dateStarted: iso(run.startedAt),
    dateFinished: iso(live.at),
    projects: [project]
  }
}

/**
 * The deploy's name, in Sentry's 64 characters: where it went, and when a rollback was seen. The variable parts give
 * way, each cut whole with an ellipsis: the stack first (often its API address), then the environment; the rollback's
 * words and time stay whole.
 */
export function deployName(run: ObservedRun): string {
  const back = rollbackSeen(run)
  const rolledBack = back === undefined ? '' : `, rolled back ${iso(back.at).slice(0, 19)}Z`
  return `${placeWithin(run, NAME_MAX - rolledBack.length)}${rolledBack}`
}

/** stack/environment in at most `max` characters: the stack shortened first (to "…" at the least), then the environment. */
function placeWithin(run: ObservedRun, max: number): string {
  const full = place(run)
  if (full.length <= max || run.environment === undefined) return truncate(full, max)
  const environment = truncate(run.environment, Math.max(1, max - 2))
  return `${truncate(run.stack, max - environment.length - 1)}/${environment}`
}

/** The release to create when Sentry does not know it: the distribution's name, for the project, at the commit. */
export function sentryRelease(run: ObservedRun, project: string): SentryRelease | undefined {
  if (run.distribution.name === undefined) return undefined
  return { version: run.distribution.name, projects: [project], ...(run.commit !== undefined && { ref: run.commit }) }
}

export function sentrySink(config: { readonly authToken: string; readonly url: string; readonly org: string; readonly project: string }): Sink {
  const org = encodeURIComponent(config.org)
  return {
    name: 'Sentry',
    async send(run, signal) {
      const deploy = sentryDeploy(run, config.project)
      const release = sentryRelease(run, config.project)
      if (!deploy || !release) return false
      const post = (path: string, body: unknown): ReturnType<typeof postJson> =>
        postJson({
          service: 'Sentry',
          url: config.url,
          path,
          headers: { authorization: `Bearer ${config.authToken}` },
          body,
          secrets: [config.authToken],
          signal
        })
      const deploysPath = `/api/0/organizations/${org}/releases/${encodeURIComponent(release.version)}/deploys/`
      try {
        await post(deploysPath, deploy)
      } catch (error) {
        if (!(error instanceof SinkCallFailed && error.status === 404)) throw error
        // No such release (a wrong organisation gets a 404 here too): a deploy belongs to a release, so it is created, then the deploy sent once more.
        await post(`/api/0/organizations/${org}/releases/`, release)
        await post(deploysPath, deploy)
      }
      return true
    }
  }
}
