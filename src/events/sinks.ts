// The sinks a run's inputs turn on: CDEvents (events-url) here; the native sinks (Slack, Teams, Datadog, Sentry,
// Grafana, Honeycomb, New Relic) join from events/sinks/native.ts.
import { cdeventsSink } from './cdevents.js'
import type { EventsInputs, Sink } from './observed.js'

export function sinksFor(inputs: EventsInputs): Sink[] {
  const sinks: Sink[] = []
  if (inputs.cdevents) sinks.push(cdeventsSink(inputs.cdevents))
  return sinks
}
