// The native sinks the inputs turn on: one per configured service, in a fixed order.
import type { EventsInputs, Sink } from '../observed.js'
import { datadogSink } from './datadog.js'
import { grafanaSink } from './grafana.js'
import { honeycombSink } from './honeycomb.js'
import { newRelicSink } from './new-relic.js'
import { sentrySink } from './sentry.js'
import { slackSink } from './slack.js'
import { teamsSink } from './teams.js'

export function nativeSinks(inputs: EventsInputs): Sink[] {
  const sinks: Sink[] = []
  if (inputs.slack) sinks.push(slackSink(inputs.slack))
  if (inputs.teams) sinks.push(teamsSink(inputs.teams))
  if (inputs.datadog) sinks.push(datadogSink(inputs.datadog))
  if (inputs.sentry) sinks.push(sentrySink(inputs.sentry))
  if (inputs.grafana) sinks.push(grafanaSink(inputs.grafana))
  if (inputs.honeycomb) sinks.push(honeycombSink(inputs.honeycomb))
  if (inputs.newRelic) sinks.push(newRelicSink(inputs.newRelic))
  return sinks
}
