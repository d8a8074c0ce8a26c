// Datadog DORA Metrics: a deployment event for each release seen live, and one for the previous
// distribution when our rollback was seen (Datadog reads a redeploy of an earlier version of the same
// service and env as a rollback, that is a change failure). Nothing for a run that put nothing live.
// https://docs.datadoghq.com/api/latest/dora-metrics/#send-a-deployment-event (202 Accepted)
import type { ObservedRun, Sink } from '../observed.js'
import { distributionKey, distributionLabel, releaseSeen, repositoryUrl, rollbackSeen } from './facts.js'
import { postJson } from './post.js'

export interface DatadogDeployment {
  data: {
    attributes: {
      service: string
      env?: string
      version?: string
      /** Unix time in nanoseconds (the API takes seconds, milliseconds or nanoseconds). */
      started_at: number
      finished_at: number
      git?: { commit_sha: string; repository_url: string }
      id: string
      custom_tags: string[]
    }
  }
}

const NS_PER_MS = 1_000_000

/**
 * The deployment events of one run, in order: ours when it was seen live (started at the run's start,
 * finished when the switch was seen), then the previous distribution's when our rollback was seen.
 * The version is the distribution's id (distributionKey): the platform's name for what runs, which a rollback names too.
 */
export function datadogDeployments(run: ObservedRun, service: string): DatadogDeployment[] {
  const live = releaseSeen(run)
  const back = rollbackSeen(run)
  const base = eventId(run)
  const tags = [`stack:${run.stack}`, ...ruleTags(run)]
  const events: DatadogDeployment[] = []
  if (live) {
    const name = run.distribution.name
    const version = run.distribution.id === undefined ? undefined : distributionKey(run.distribution.id)
    events.push(
      deployment({
        service,
        ...(run.environment !== undefined && { env: run.environment }),
        ...(version !== undefined && { version }),
        started_at: run.startedAt * NS_PER_MS,
        finished_at: live.at * NS_PER_MS,
        ...git(run),
        id: base,
        custom_tags: name !== undefined ? [...tags, `distribution:${name}`] : tags
      })
    )
  }
  if (back && run.previousDistributionId !== undefined) {
    // The rollback's request is not an observation: it began after the last moment seen before it.
    const before = run.events.filter((e) => e.at <= back.at && e !== back).at(-1)
    const ours = distributionLabel(run)
    events.push(
      deployment({
        service,
        ...(run.environment !== undefined && { env: run.environment }),
        version: distributionKey(run.previousDistributionId),
        started_at: (before?.at ?? run.startedAt) * NS_PER_MS,
        finished_at: back.at * NS_PER_MS,
        id: `${base}:rollback`,
        custom_tags: ours !== undefined ? [...tags, `rolled_back:${ours}`] : tags
      })
    )
  }
  return events
}

/**
 * The release rules' facts as tags (Datadog's deployment events have no text but tags): the override reason and the
 * backup found, each in the characters a tag keeps (others become '_') and within its 200.
 */
function ruleTags(run: ObservedRun): string[] {
  const tag = (key: string, value: string): string => `${key}:${value.replace(/[^A-Za-z0-9_\-:./]/g, '_')}`.slice(0, 200)
  const r = run.rules
  return [
    ...(r?.overrideReason !== undefined ? [tag('override_reason', r.overrideReason)] : []),
    ...(r?.backupId !== undefined ? [tag('backup', r.backupId)] : [])
  ]
}

function deployment(attributes: DatadogDeployment['data']['attributes']): DatadogDeployment {
  return { data: { attributes } }
}

/**
 * The commit, when both it and the repository are known (the API requires both), and in full: a promotion's commit
 * read off a default name is abbreviated, which Datadog cannot match to the repository's history.
 */
function git(run: ObservedRun): { git?: { commit_sha: string; repository_url: string } } {
  const repository = repositoryUrl(run)
  const full = run.commit !== undefined && /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i.test(run.commit)
  return full && run.commit !== undefined && repository !== undefined ? { git: { commit_sha: run.commit, repository_url: repository } } : {}
}

/**
 * A deployment id as the API takes it (16 to 128 of a-z, A-Z, 0-9, '-', '_', '.', ':'): the run for people to read,
 * then the release attempt's chain (the CI's run and attempt, the run's start, the stack, the environment), so a
 * staging and a production job of one run attempt never share one. At most 119 characters: room for ':rollback'.
 */
export function eventId(run: Pick<ObservedRun, 'runKey' | 'chainId'>): string {
  return `brcloud-deploy:${run.runKey.slice(0, 64)}:${run.chainId}`.replace(/[^A-Za-z0-9\-_.:]/g, '-').slice(0, 119)
}

export function datadogSink(config: { readonly apiKey: string; readonly apiUrl: string; readonly service: string }): Sink {
  return {
    name: 'Datadog',
    async send(run, signal) {
      const deployments = datadogDeployments(run, config.service)
      if (deployments.length === 0) return false
      for (const body of deployments)
        await postJson({
          service: 'Datadog',
          url: config.apiUrl,
          path: '/api/v2/dora/deployment',
          headers: { 'DD-API-KEY': config.apiKey },
          body,
          secrets: [config.apiKey],
          signal
        })
      return true
    }
  }
}
