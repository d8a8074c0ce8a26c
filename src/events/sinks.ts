// The sinks a run's inputs turn on: CDEvents (events-url), then the native sinks (Slack, Teams, Datadog, Sentry,
// Grafana, Honeycomb, New Relic) of events/sinks/native.ts, each on when its first input is set.
import { cdeventsSink } from './cdevents.js'
import type { EventsInputs, Sink } from './observed.js'
import { nativeSinks } from './sinks/native.js'

export function sinksFor(inputs: EventsInputs): Sink[] {
  return [...(inputs.cdevents ? [cdeventsSink(inputs.cdevents)] : []), ...nativeSinks(inputs)]
}
