// The event sinks' inputs (issue 32, docs/events.md): read once into EventsInputs, each webhook address, token and
// key registered as a secret the moment it is read. A sink is on when its first input is set; an input that belongs
// with another one left empty is an InputError naming what is missing. A secret's value is never repeated in a message.
import type { InputName } from '../action-metadata.js'
import { InputError } from '../errors.js'
import type { EventsInputs } from '../events/observed.js'
import { registerSecret } from '../secrets.js'
import { isLoopbackHost } from './address.js'
import type { InputReader } from './reader.js'
import { orDefault, parseInteger } from './parsers.js'

/** Input names, as in action.yml. Workflows depend on them: never rename one. */
export const EventsInput = {
  EventsUrl: 'events-url',
  EventsToken: 'events-token',
  SlackWebhookUrl: 'slack-webhook-url',
  TeamsWebhookUrl: 'teams-webhook-url',
  DatadogApiKey: 'datadog-api-key',
  DatadogSite: 'datadog-site',
  DatadogService: 'datadog-service',
  SentryAuthToken: 'sentry-auth-token',
  SentryOrg: 'sentry-org',
  SentryProject: 'sentry-project',
  SentryUrl: 'sentry-url',
  GrafanaUrl: 'grafana-url',
  GrafanaToken: 'grafana-token',
  HoneycombApiKey: 'honeycomb-api-key',
  HoneycombDataset: 'honeycomb-dataset',
  HoneycombApiUrl: 'honeycomb-api-url',
  NewRelicApiKey: 'new-relic-api-key',
  NewRelicEntityGuid: 'new-relic-entity-guid',
  NewRelicApiUrl: 'new-relic-api-url',
  EventsTimeoutSeconds: 'events-timeout-seconds'
} as const satisfies Record<string, InputName>

/** The sinks' secrets: masked when read, and never a flag of the CLI (cli/inputs.ts). */
export const EVENTS_SECRETS: readonly InputName[] = [
  EventsInput.EventsToken,
  EventsInput.SlackWebhookUrl,
  EventsInput.TeamsWebhookUrl,
  EventsInput.DatadogApiKey,
  EventsInput.SentryAuthToken,
  EventsInput.GrafanaToken,
  EventsInput.HoneycombApiKey,
  EventsInput.NewRelicApiKey
]

export interface EventsContext {
  /** The GitHub repository (owner/name), for datadog-service's default. */
  readonly repository: string | undefined
  /** The stack input, for datadog-service's default outside a repository. */
  readonly stack: string | undefined
}

/**
 * An address a sink sends to: absolute, no user or password in it, https (plain http only to this machine). A secret
 * address (a webhook) is named by its input only, never repeated. `base`: without a trailing slash.
 */
function sinkUrl(name: InputName, value: string, how: { secret: boolean; example: string; base?: boolean }): string {
  const shown = how.secret ? '' : ` '${value}'`
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InputError(`${name}${shown} is not an absolute address: write it in full, for example ${how.example}.`)
  }
  if (url.username || url.password)
    throw new InputError(`${name} must not contain a user name or password: the sinks' tokens and keys have inputs of their own.`)
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    throw new InputError(
      `${name}${shown} uses plain http to ${url.hostname}: what is sent would travel unencrypted. Use https (plain http is accepted only for 127.0.0.1, localhost or [::1]).`
    )
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new InputError(`${name}${shown} must start with https:// (for example ${how.example}).`)
  return how.base ? url.href.replace(/\/+$/, '') : url.href
}

/** The inputs named, every one empty: what a sink that is on still needs. */
function missing(get: (name: InputName) => string, names: readonly InputName[]): InputName[] {
  return names.filter((name) => get(name) === '')
}

/** Refuses a sink whose inputs are set in part: names the ones set and the ones missing. */
function together(get: (name: InputName) => string, sink: string, names: readonly InputName[]): boolean {
  const absent = missing(get, names)
  if (absent.length === names.length) return false
  if (absent.length > 0) {
    const set = names.filter((n) => !absent.includes(n))
    throw new InputError(
      `${sink} needs ${names.join(', ')} together: ${set.join(', ')} ${set.length > 1 ? 'are' : 'is'} set, ${absent.join(' and ')} ${absent.length > 1 ? 'are' : 'is'} missing. ` +
        `Set ${absent.length > 1 ? 'them' : 'it'}, or leave ${set.join(' and ')} empty to send nothing to ${sink}.`
    )
  }
  return true
}

/** datadog-site: a site (datadoghq.com, datadoghq.eu, us3.datadoghq.com) -> https://api.<site>; or a whole address (a stand-in). */
function datadogApiUrl(value: string): string {
  const site = orDefault(EventsInput.DatadogSite, value)
  if (/^https?:\/\//i.test(site)) return sinkUrl(EventsInput.DatadogSite, site, { secret: false, example: 'https://api.datadoghq.com', base: true })
  if (!/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/i.test(site))
    throw new InputError(`datadog-site '${site}' is not a Datadog site: write its domain, e.g. datadoghq.com, datadoghq.eu or us5.datadoghq.com.`)
  return `https://api.${site.toLowerCase()}`
}

export function readEventsInputs(getInput: InputReader, context: EventsContext): EventsInputs {
  const get = (name: InputName): string => getInput(name).trim()
  // Every secret first, masked before anything else is read or refused.
  for (const name of EVENTS_SECRETS) registerSecret(get(name))
  const timeoutMs = parseInteger(EventsInput.EventsTimeoutSeconds, get(EventsInput.EventsTimeoutSeconds), 1, 60) * 1000
  const base = (name: InputName): string => orDefault(name, get(name))
  const events: { -readonly [K in keyof EventsInputs]: EventsInputs[K] } = { timeoutMs }

  const eventsUrl = get(EventsInput.EventsUrl)
  if (eventsUrl === '' && get(EventsInput.EventsToken) !== '')
    throw new InputError('events-token is set but events-url is empty: set events-url to the CDEvents endpoint, or leave events-token empty.')
  if (eventsUrl !== '')
    events.cdevents = {
      url: sinkUrl(EventsInput.EventsUrl, eventsUrl, { secret: false, example: 'https://events.example.com/cdevents' }),
      token: get(EventsInput.EventsToken) || undefined
    }
  if (get(EventsInput.SlackWebhookUrl) !== '')
    events.slack = {
      webhookUrl: sinkUrl(EventsInput.SlackWebhookUrl, get(EventsInput.SlackWebhookUrl), { secret: true, example: 'https://hooks.slack.com/services/…' })
    }
  if (get(EventsInput.TeamsWebhookUrl) !== '')
    events.teams = {
      webhookUrl: sinkUrl(EventsInput.TeamsWebhookUrl, get(EventsInput.TeamsWebhookUrl), { secret: true, example: 'the URL of a Workflows webhook' })
    }
  if (get(EventsInput.DatadogApiKey) !== '') {
    const service = get(EventsInput.DatadogService) || context.repository?.split('/')[1] || context.stack || 'brxm'
    events.datadog = { apiKey: get(EventsInput.DatadogApiKey), apiUrl: datadogApiUrl(get(EventsInput.DatadogSite)), service }
  }
  if (together(get, 'Sentry', [EventsInput.SentryAuthToken, EventsInput.SentryOrg, EventsInput.SentryProject])) {
    const url = sinkUrl(EventsInput.SentryUrl, base(EventsInput.SentryUrl), { secret: false, example: 'https://sentry.io', base: true })
    events.sentry = { authToken: get(EventsInput.SentryAuthToken), url, org: get(EventsInput.SentryOrg), project: get(EventsInput.SentryProject) }
  }
  if (together(get, 'Grafana', [EventsInput.GrafanaUrl, EventsInput.GrafanaToken])) {
    const url = sinkUrl(EventsInput.GrafanaUrl, get(EventsInput.GrafanaUrl), { secret: false, example: 'https://grafana.example.com', base: true })
    events.grafana = { url, token: get(EventsInput.GrafanaToken) }
  }
  if (get(EventsInput.HoneycombApiKey) !== '') {
    const apiUrl = sinkUrl(EventsInput.HoneycombApiUrl, base(EventsInput.HoneycombApiUrl), { secret: false, example: 'https://api.honeycomb.io', base: true })
    events.honeycomb = { apiKey: get(EventsInput.HoneycombApiKey), apiUrl, dataset: base(EventsInput.HoneycombDataset) }
  }
  if (together(get, 'New Relic', [EventsInput.NewRelicApiKey, EventsInput.NewRelicEntityGuid])) {
    const apiUrl = sinkUrl(EventsInput.NewRelicApiUrl, base(EventsInput.NewRelicApiUrl), { secret: false, example: 'https://api.newrelic.com/graphql' })
    events.newRelic = { apiKey: get(EventsInput.NewRelicApiKey), apiUrl, entityGuid: get(EventsInput.NewRelicEntityGuid) }
  }
  return events
}

/** Whether any sink is on: the run then keeps events-timeout-seconds of its budget for the sends. */
export function anySink(events: EventsInputs | undefined): boolean {
  return events !== undefined && Object.keys(events).some((k) => k !== 'timeoutMs')
}
