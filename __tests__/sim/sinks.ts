// The event sinks of a schedule (issue 32): CDEvents and the native sinks, all on one simulated host
// (https://events.sim, which the transports route to their recorder), each known by the first segment of its
// path; the inputs that turn them on, with secrets the invariants look for in everything the step showed;
// and what the host answers each request, from the sink's drawn fate.
import type { SinkAnswer } from './transport.js'
import type { EventsSchedule, SinkFate, SinkKey } from './world.js'

export const EVENTS_ORIGIN = 'https://events.sim'

/** The service's name as the step names it in its lines ("Events: Slack told."). */
export const SINK_NAMES: { readonly [key in SinkKey]: string } = {
  cdevents: 'CDEvents',
  slack: 'Slack',
  teams: 'Microsoft Teams',
  datadog: 'Datadog',
  sentry: 'Sentry',
  grafana: 'Grafana',
  honeycomb: 'Honeycomb',
  'new-relic': 'New Relic'
}

/** The secrets of the sinks: tokens, keys, and the webhooks' addresses (their paths and queries are their secret). */
export const SINK_SECRETS = {
  eventsToken: 'cdevents-token-6a9f31',
  slackHook: 'slack-hook-5e1f07',
  teamsSig: 'teams-sig-8a2d55',
  datadogKey: 'dd-api-key-3c7a90',
  sentryToken: 'sentry-token-91bd42',
  grafanaToken: 'grafana-token-4f0e18',
  honeycombKey: 'honeycomb-key-2b6c73',
  newRelicKey: 'newrelic-key-7d3e26'
} as const

const SLACK_URL = `${EVENTS_ORIGIN}/slack/services/T0SIM/B0SIM/${SINK_SECRETS.slackHook}`
const TEAMS_URL = `${EVENTS_ORIGIN}/teams/workflows/run?sig=${SINK_SECRETS.teamsSig}`

/** The inputs a schedule's sinks take. */
export function sinkInputs(ev: EventsSchedule | undefined): Record<string, string> {
  if (ev === undefined) return {}
  const keys = new Set(ev.sinks.map((x) => x.key))
  return {
    ...(ev.timeoutSeconds !== undefined && { 'events-timeout-seconds': String(ev.timeoutSeconds) }),
    ...(keys.has('cdevents') && { 'events-url': `${EVENTS_ORIGIN}/cdevents`, ...(ev.token && { 'events-token': SINK_SECRETS.eventsToken }) }),
    ...(keys.has('slack') && { 'slack-webhook-url': SLACK_URL }),
    ...(keys.has('teams') && { 'teams-webhook-url': TEAMS_URL }),
    ...(keys.has('datadog') && { 'datadog-api-key': SINK_SECRETS.datadogKey, 'datadog-site': `${EVENTS_ORIGIN}/datadog` }),
    ...(keys.has('sentry') && {
      'sentry-auth-token': SINK_SECRETS.sentryToken,
      'sentry-org': 'acme',
      'sentry-project': 'site',
      'sentry-url': `${EVENTS_ORIGIN}/sentry`
    }),
    ...(keys.has('grafana') && { 'grafana-url': `${EVENTS_ORIGIN}/grafana`, 'grafana-token': SINK_SECRETS.grafanaToken }),
    ...(keys.has('honeycomb') && { 'honeycomb-api-key': SINK_SECRETS.honeycombKey, 'honeycomb-api-url': `${EVENTS_ORIGIN}/honeycomb` }),
    ...(keys.has('new-relic') && {
      'new-relic-api-key': SINK_SECRETS.newRelicKey,
      'new-relic-entity-guid': 'MXxTSU18QVBQTElDQVRJT058MQ',
      'new-relic-api-url': `${EVENTS_ORIGIN}/new-relic/graphql`
    })
  }
}

/** The inputs that are secrets (src/inputs/events.ts masks them as read). */
const SECRET_INPUTS = [
  'events-token',
  'slack-webhook-url',
  'teams-webhook-url',
  'datadog-api-key',
  'sentry-auth-token',
  'grafana-token',
  'honeycomb-api-key',
  'new-relic-api-key'
]

/** Every secret of the sinks a schedule sets, and the secret parts of the webhooks' addresses: none may appear in what the step shows. */
export function sinkSecrets(ev: EventsSchedule | undefined): string[] {
  const inputs = sinkInputs(ev)
  const values = SECRET_INPUTS.map((name) => inputs[name]).filter((v): v is string => v !== undefined)
  if (inputs['slack-webhook-url'] !== undefined) values.push(SINK_SECRETS.slackHook)
  if (inputs['teams-webhook-url'] !== undefined) values.push(SINK_SECRETS.teamsSig)
  return values
}

/** The status each service answers on success (Sentry, Honeycomb: 201; Datadog, Teams: 202; the rest 200). */
const SUCCESS: { readonly [key in SinkKey]: number } = {
  cdevents: 202,
  slack: 200,
  teams: 202,
  datadog: 202,
  sentry: 201,
  grafana: 200,
  honeycomb: 201,
  'new-relic': 200
}

/** A fate's answer to the sink's nth request (undefined: it never answers). */
export function answerOf(fate: SinkFate | undefined, key: string, index: number): SinkAnswer {
  const ok = { status: SUCCESS[key as SinkKey] ?? 200, afterMs: 0 }
  if (fate === undefined || index < fate.from) return ok
  if (fate.kind === 'status') return { status: fate.status, afterMs: 0 }
  if (fate.kind === 'hang') return undefined
  if (fate.kind === 'slow') return { ...ok, afterMs: fate.seconds * 1000 }
  return ok
}

/** The host's answers for a schedule. */
export function sinkAnswers(ev: EventsSchedule | undefined): (key: string, index: number) => SinkAnswer {
  return (key, index) => answerOf(ev?.sinks.find((x) => x.key === key)?.fate, key, index)
}

/** events-timeout-seconds in ms, as the run reads it. */
export function eventsTimeoutMs(ev: EventsSchedule): number {
  return (ev.timeoutSeconds ?? 10) * 1000
}
