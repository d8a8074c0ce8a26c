// New Relic change tracking: a deployment on the entity (NerdGraph's changeTrackingCreateDeployment,
// which takes the entity's GUID; the newer changeTrackingCreateEvent finds its entity by a search
// query instead) when our release was seen live, at the switch seen; and one for the previous
// distribution when our rollback was seen, at the rollback seen. Both share the release attempt's
// group id, and name what ran by the distribution's id (as the rollback must: it knows the previous one
// by its id alone). https://docs.newrelic.com/docs/change-tracking/change-tracking-graphql/
// GraphQL answers 200 with `errors` for a refused mutation: that is a failure too.
import type { ObservedRun, Sink } from '../observed.js'
import { changesText, distributionKey, distributionLabel, overrideText, place, releaseSeen, rollbackSeen, truncate } from './facts.js'
import { postJson, scrub, SinkCallFailed } from './post.js'

export const CREATE_DEPLOYMENT =
  'mutation BrcloudDeployment($deployment: ChangeTrackingDeploymentInput!) { changeTrackingCreateDeployment(deployment: $deployment) { deploymentId entityGuid } }'

export interface NewRelicDeploymentInput {
  entityGuid: string
  version: string
  /** Epoch milliseconds. */
  timestamp: number
  deploymentType: 'BASIC'
  description: string
  groupId: string
  commit?: string
  changelog?: string
  user?: string
  deepLink?: string
}

export interface NewRelicRequest {
  query: string
  variables: { deployment: NewRelicDeploymentInput }
}

/** The change-tracking requests of one run, in order: ours seen live, then the rollback seen. */
export function newRelicDeployments(run: ObservedRun, entityGuid: string): NewRelicRequest[] {
  const live = releaseSeen(run)
  const back = rollbackSeen(run)
  const ours = run.distribution.id === undefined ? undefined : distributionKey(run.distribution.id)
  const name = run.distribution.name
  const label = distributionLabel(run)
  const common = {
    entityGuid,
    deploymentType: 'BASIC' as const,
    groupId: run.chainId,
    ...(run.actor !== undefined && { user: run.actor }),
    ...(run.runUrl !== undefined && { deepLink: run.runUrl })
  }
  const requests: NewRelicRequest[] = []
  if (live && ours !== undefined)
    requests.push(
      request({
        ...common,
        version: ours,
        timestamp: live.at,
        description: truncate(`${run.headline} (${place(run)})${overrideText(run)}`, 1000),
        ...(run.commit !== undefined && { commit: run.commit }),
        ...changelogOf(run, name)
      })
    )
  if (back && run.previousDistributionId !== undefined)
    requests.push(
      request({
        ...common,
        version: distributionKey(run.previousDistributionId),
        timestamp: back.at,
        description: truncate(
          `Rolled back to ${run.previousDistributionId}${label !== undefined ? ` from ${label}` : ''} on ${place(run)}: ${back.evidence}${overrideText(run)}`,
          1000
        )
      })
    )
  return requests
}

/** The changelog: the distribution, then the release's commits (capped), within 1000 characters like the description. */
function changelogOf(run: ObservedRun, name: string | undefined): { changelog?: string } {
  const lines = [...(name !== undefined ? [`distribution ${name}`] : []), ...changesText(run)]
  return lines.length === 0 ? {} : { changelog: truncate(lines.join('\n'), 1000) }
}

function request(deployment: NewRelicDeploymentInput): NewRelicRequest {
  return { query: CREATE_DEPLOYMENT, variables: { deployment } }
}

export function newRelicSink(config: { readonly apiKey: string; readonly apiUrl: string; readonly entityGuid: string }): Sink {
  return {
    name: 'New Relic',
    async send(run, signal) {
      const deployments = newRelicDeployments(run, config.entityGuid)
      if (deployments.length === 0) return false
      for (const body of deployments) {
        const res = await postJson({
          service: 'New Relic',
          url: config.apiUrl,
          path: '',
          body,
          headers: { 'API-Key': config.apiKey },
          secrets: [config.apiKey],
          signal
        })
        const error = graphqlError(res.text)
        if (error !== undefined)
          throw new SinkCallFailed(`New Relic answered ${res.status} with an error: ${scrub(truncate(error, 200), [config.apiKey])}`, res.status)
      }
      return true
    }
  }
}

/** The first error of a GraphQL answer, or undefined when it has none. */
function graphqlError(text: string): string | undefined {
  let body: { errors?: { message?: unknown }[] }
  try {
    body = JSON.parse(text) as typeof body
  } catch {
    return 'its answer was not JSON'
  }
  if (!Array.isArray(body.errors) || body.errors.length === 0) return undefined
  const message = body.errors[0]?.message
  return typeof message === 'string' ? message : 'errors without a message'
}
