// The event sinks' inputs (src/inputs/events.ts): each sink on by its first input, the defaults of action.yml,
// addresses https (plain http only to this machine), inputs that belong together refused in part, every webhook
// address, token and key masked before anything is refused, and their time in the run's budget. The CLI refuses them as flags.
import { useTestPort } from './test-port.js'

const secrets: string[] = []
useTestPort({ setSecret: (s: string) => void secrets.push(s) })

const { readInputs, readEventsInputs } = await import('../src/inputs/index.js')
const { InputError } = await import('../src/errors.js')
const { parseCommandLine } = await import('../src/cli/args.js')
const { UsageError } = await import('../src/cli/inputs.js')

const reader =
  (values: Record<string, string>) =>
  (name: string): string =>
    values[name] ?? ''
const read = (values: Record<string, string>, context = { repository: 'acme/site', stack: 'mystack' }) => readEventsInputs(reader(values), context)

describe('the sinks a run turns on', () => {
  test('none by default: only the time limit, 10 s', () => {
    expect(read({})).toEqual({ timeoutMs: 10_000 })
  })

  test('CDEvents: the address, and the token when set', () => {
    expect(read({ 'events-url': 'https://events.example.com/sink?x=1', 'events-token': 'tok' }).cdevents).toEqual({
      url: 'https://events.example.com/sink?x=1',
      token: 'tok'
    })
    expect(read({ 'events-url': 'http://127.0.0.1:9000/e' }).cdevents).toEqual({ url: 'http://127.0.0.1:9000/e', token: undefined })
  })

  test("each native sink with its defaults: Datadog's site and service, Sentry's and Honeycomb's addresses, New Relic's", () => {
    const all = read({
      'slack-webhook-url': 'https://hooks.slack.com/services/T0/B0/xyz',
      'teams-webhook-url': 'https://prod.westeurope.logic.azure.com/workflows/abc',
      'datadog-api-key': 'dd-key',
      'sentry-auth-token': 'sntrys_x',
      'sentry-org': 'acme',
      'sentry-project': 'site',
      'grafana-url': 'https://grafana.example.com/',
      'grafana-token': 'glsa_x',
      'honeycomb-api-key': 'hc-key',
      'new-relic-api-key': 'NRAK-x',
      'new-relic-entity-guid': 'MXxBUE18',
      'events-timeout-seconds': '3'
    })
    expect(all).toEqual({
      timeoutMs: 3000,
      slack: { webhookUrl: 'https://hooks.slack.com/services/T0/B0/xyz' },
      teams: { webhookUrl: 'https://prod.westeurope.logic.azure.com/workflows/abc' },
      datadog: { apiKey: 'dd-key', apiUrl: 'https://api.datadoghq.com', service: 'site' },
      sentry: { authToken: 'sntrys_x', url: 'https://sentry.io', org: 'acme', project: 'site' },
      grafana: { url: 'https://grafana.example.com', token: 'glsa_x' },
      honeycomb: { apiKey: 'hc-key', apiUrl: 'https://api.honeycomb.io', dataset: '__all__' },
      newRelic: { apiKey: 'NRAK-x', apiUrl: 'https://api.newrelic.com/graphql', entityGuid: 'MXxBUE18' }
    })
    expect(read({ 'datadog-api-key': 'k', 'datadog-site': 'datadoghq.eu' }).datadog?.apiUrl).toBe('https://api.datadoghq.eu')
    expect(read({ 'datadog-api-key': 'k', 'datadog-site': 'http://127.0.0.1:8126/' }).datadog?.apiUrl).toBe('http://127.0.0.1:8126')
    expect(read({ 'datadog-api-key': 'k' }, { repository: '', stack: 'mystack' } as never).datadog?.service).toBe('mystack')
    expect(read({ 'datadog-api-key': 'k', 'datadog-service': 'shop' }).datadog?.service).toBe('shop')
  })
})

describe('refused before any request, with what to fix', () => {
  test('plain http to another machine, a relative address, credentials in it; a secret address is never repeated', () => {
    expect(() => read({ 'events-url': 'http://events.example.com/sink' })).toThrow(
      "events-url 'http://events.example.com/sink' uses plain http to events.example.com: what is sent would travel unencrypted. Use https (plain http is accepted only for 127.0.0.1, localhost or [::1])."
    )
    expect(() => read({ 'events-url': 'events.example.com' })).toThrow(InputError)
    expect(() => read({ 'grafana-url': 'https://u:p@grafana.example.com', 'grafana-token': 't' })).toThrow(
      /grafana-url must not contain a user name or password/
    )
    let message = ''
    try {
      read({ 'slack-webhook-url': 'http://hooks.slack.com/services/T0/B0/very-secret' })
    } catch (e) {
      message = (e as Error).message
    }
    expect(message).toMatch(/^slack-webhook-url uses plain http to hooks\.slack\.com/)
    expect(message).not.toContain('very-secret')
  })

  test('inputs that belong together, set in part: what is set and what is missing', () => {
    expect(() => read({ 'sentry-auth-token': 'x' })).toThrow(
      'Sentry needs sentry-auth-token, sentry-org, sentry-project together: sentry-auth-token is set, sentry-org and sentry-project are missing. Set them, or leave sentry-auth-token empty to send nothing to Sentry.'
    )
    expect(() => read({ 'grafana-url': 'https://grafana.example.com' })).toThrow(/grafana-token is missing/)
    expect(() => read({ 'new-relic-api-key': 'k' })).toThrow(/new-relic-entity-guid is missing/)
    expect(() => read({ 'events-token': 't' })).toThrow(/events-token is set but events-url is empty/)
    expect(() => read({ 'events-timeout-seconds': '0' })).toThrow(/events-timeout-seconds 0 is out of range: write a number from 1 to 60/)
    expect(() => read({ 'datadog-api-key': 'k', 'datadog-site': 'not a site' })).toThrow(/datadog-site 'not a site' is not a Datadog site/)
  })

  test('every webhook address, token and key is masked the moment it is read, even when another input is refused', () => {
    secrets.length = 0
    const values = {
      'events-token': 'e-tok',
      'slack-webhook-url': 'https://hooks.slack.com/services/s',
      'teams-webhook-url': 'https://teams.example.com/t',
      'datadog-api-key': 'dd',
      'sentry-auth-token': 'st',
      'grafana-token': 'gt',
      'honeycomb-api-key': 'hk',
      'new-relic-api-key': 'nk'
    }
    expect(() => read(values)).toThrow(InputError)
    for (const value of Object.values(values)) expect(secrets).toContain(value)
  })
})

describe('each address, word for word: what is wrong and how to fix it', () => {
  const refusal = (values: Record<string, string>): string => {
    try {
      read(values)
    } catch (error) {
      expect(error).toBeInstanceOf(InputError)
      return (error as Error).message
    }
    throw new Error('not refused')
  }

  test('a relative address names the input, its value (unless a secret) and an example of a whole one', () => {
    expect(refusal({ 'events-url': 'events.example.com' })).toBe(
      "events-url 'events.example.com' is not an absolute address: write it in full, for example https://events.example.com/cdevents."
    )
    expect(refusal({ 'slack-webhook-url': 'hooks/secret' })).toBe(
      'slack-webhook-url is not an absolute address: write it in full, for example https://hooks.slack.com/services/….'
    )
    expect(refusal({ 'teams-webhook-url': 'workflows/secret' })).toBe(
      'teams-webhook-url is not an absolute address: write it in full, for example the URL of a Workflows webhook.'
    )
    expect(refusal({ 'datadog-api-key': 'k', 'datadog-site': 'https://' })).toBe(
      "datadog-site 'https://' is not an absolute address: write it in full, for example https://api.datadoghq.com."
    )
    const sentry = { 'sentry-auth-token': 't', 'sentry-org': 'o', 'sentry-project': 'p' }
    expect(refusal({ ...sentry, 'sentry-url': 'sentry' })).toBe(
      "sentry-url 'sentry' is not an absolute address: write it in full, for example https://sentry.io."
    )
    expect(refusal({ 'grafana-url': 'grafana', 'grafana-token': 't' })).toBe(
      "grafana-url 'grafana' is not an absolute address: write it in full, for example https://grafana.example.com."
    )
    expect(refusal({ 'honeycomb-api-key': 'k', 'honeycomb-api-url': 'honeycomb' })).toBe(
      "honeycomb-api-url 'honeycomb' is not an absolute address: write it in full, for example https://api.honeycomb.io."
    )
    expect(refusal({ 'new-relic-api-key': 'k', 'new-relic-entity-guid': 'g', 'new-relic-api-url': 'nr' })).toBe(
      "new-relic-api-url 'nr' is not an absolute address: write it in full, for example https://api.newrelic.com/graphql."
    )
  })

  test('plain http to another machine: the value shown for every address that is not a secret', () => {
    const http = (name: string, host: string): string =>
      `${name} 'http://${host}/' uses plain http to ${host}: what is sent would travel unencrypted. Use https (plain http is accepted only for 127.0.0.1, localhost or [::1]).`
    expect(refusal({ 'datadog-api-key': 'k', 'datadog-site': 'http://dd.example.com/' })).toBe(http('datadog-site', 'dd.example.com'))
    expect(refusal({ 'sentry-auth-token': 't', 'sentry-org': 'o', 'sentry-project': 'p', 'sentry-url': 'http://sentry.example.com/' })).toBe(
      http('sentry-url', 'sentry.example.com')
    )
    expect(refusal({ 'grafana-url': 'http://grafana.example.com/', 'grafana-token': 't' })).toBe(http('grafana-url', 'grafana.example.com'))
    expect(refusal({ 'honeycomb-api-key': 'k', 'honeycomb-api-url': 'http://hc.example.com/' })).toBe(http('honeycomb-api-url', 'hc.example.com'))
    expect(refusal({ 'new-relic-api-key': 'k', 'new-relic-entity-guid': 'g', 'new-relic-api-url': 'http://nr.example.com/' })).toBe(
      http('new-relic-api-url', 'nr.example.com')
    )
    expect(refusal({ 'teams-webhook-url': 'http://teams.example.com/secret-path' })).toBe(
      'teams-webhook-url uses plain http to teams.example.com: what is sent would travel unencrypted. Use https (plain http is accepted only for 127.0.0.1, localhost or [::1]).'
    )
  })

  test('a scheme other than http(s); a user name alone, or a password alone, in the address', () => {
    expect(refusal({ 'events-url': 'ftp://events.example.com/x' })).toBe(
      "events-url 'ftp://events.example.com/x' must start with https:// (for example https://events.example.com/cdevents)."
    )
    const credentials = "grafana-url must not contain a user name or password: the sinks' tokens and keys have inputs of their own."
    expect(refusal({ 'grafana-url': 'https://user@grafana.example.com', 'grafana-token': 't' })).toBe(credentials)
    expect(refusal({ 'grafana-url': 'https://:pw@grafana.example.com', 'grafana-token': 't' })).toBe(credentials)
  })

  test('a base address loses every trailing slash; an endpoint keeps its path as given', () => {
    const grafana = read({ 'grafana-url': 'https://grafana.example.com/g//', 'grafana-token': 't' }).grafana
    expect(grafana?.url).toBe('https://grafana.example.com/g')
    expect(read({ 'honeycomb-api-key': 'k', 'honeycomb-api-url': 'http://localhost:9/' }).honeycomb?.apiUrl).toBe('http://localhost:9')
    expect(read({ 'sentry-auth-token': 't', 'sentry-org': 'o', 'sentry-project': 'p', 'sentry-url': 'https://s.example.com//' }).sentry?.url).toBe(
      'https://s.example.com'
    )
    expect(read({ 'new-relic-api-key': 'k', 'new-relic-entity-guid': 'g', 'new-relic-api-url': 'http://[::1]:9/graphql/' }).newRelic?.apiUrl).toBe(
      'http://[::1]:9/graphql/'
    )
  })

  test('datadog-site: a domain of labels (one letter each allowed), any case; anything else refused', () => {
    const api = (site: string): string | undefined => read({ 'datadog-api-key': 'k', 'datadog-site': site }).datadog?.apiUrl
    expect(api('us3.datadoghq.com')).toBe('https://api.us3.datadoghq.com')
    expect(api('a.b.c')).toBe('https://api.a.b.c')
    expect(api('DataDogHQ.EU')).toBe('https://api.datadoghq.eu')
    expect(api('HTTPS://dd.example.com/')).toBe('https://dd.example.com')
    const notASite = (site: string): string =>
      `datadog-site '${site}' is not a Datadog site: write its domain, e.g. datadoghq.com, datadoghq.eu or us5.datadoghq.com.`
    for (const site of ['-datadoghq.com', 'datadoghq.com-', 'datadoghq', 'x.https://dd.example.com', 'datadoghq.com/'])
      expect(refusal({ 'datadog-api-key': 'k', 'datadog-site': site })).toBe(notASite(site))
  })

  test("datadog-service: the input, else the repository's name, else the stack, else brxm", () => {
    const service = (values: Record<string, string>, context: { repository: string | undefined; stack: string | undefined }) =>
      read({ 'datadog-api-key': 'k', ...values }, context as never).datadog?.service
    expect(service({}, { repository: 'acme/site', stack: 'mystack' })).toBe('site')
    expect(service({ 'datadog-service': '  shop  ' }, { repository: 'acme/site', stack: 'mystack' })).toBe('shop')
    expect(service({}, { repository: undefined, stack: 'mystack' })).toBe('mystack')
    expect(service({}, { repository: undefined, stack: undefined })).toBe('brxm')
  })

  test('values are trimmed: blanks alone leave a sink off, blanks around a value are dropped', () => {
    expect(read({ 'events-url': '   ', 'slack-webhook-url': ' \n' })).toEqual({ timeoutMs: 10_000 })
    expect(read({ 'honeycomb-api-key': ' hk ', 'honeycomb-dataset': ' deploys ' }).honeycomb).toEqual({
      apiKey: 'hk',
      apiUrl: 'https://api.honeycomb.io',
      dataset: 'deploys'
    })
  })

  test('inputs set in part, word for word: singular and plural', () => {
    expect(refusal({ 'sentry-auth-token': 't', 'sentry-org': 'o' })).toBe(
      'Sentry needs sentry-auth-token, sentry-org, sentry-project together: sentry-auth-token, sentry-org are set, sentry-project is missing. Set it, or leave sentry-auth-token and sentry-org empty to send nothing to Sentry.'
    )
    expect(refusal({ 'grafana-token': 't' })).toBe(
      'Grafana needs grafana-url, grafana-token together: grafana-token is set, grafana-url is missing. Set it, or leave grafana-token empty to send nothing to Grafana.'
    )
    expect(refusal({ 'new-relic-entity-guid': 'g' })).toBe(
      'New Relic needs new-relic-api-key, new-relic-entity-guid together: new-relic-entity-guid is set, new-relic-api-key is missing. Set it, or leave new-relic-entity-guid empty to send nothing to New Relic.'
    )
  })

  test('every secret is masked before the first refusal, which here is the time limit', () => {
    secrets.length = 0
    const values = {
      'events-token': 'm-e-tok',
      'slack-webhook-url': 'https://hooks.slack.com/services/m',
      'teams-webhook-url': 'https://teams.example.com/m',
      'datadog-api-key': 'm-dd',
      'sentry-auth-token': 'm-st',
      'grafana-token': 'm-gt',
      'honeycomb-api-key': 'm-hk',
      'new-relic-api-key': 'm-nk'
    }
    expect(() => read({ ...values, 'events-timeout-seconds': '99' })).toThrow(/events-timeout-seconds 99 is out of range/)
    for (const value of Object.values(values)) expect(secrets).toContain(value)
  })
})

describe('masked in every form a service may echo', () => {
  test('a webhook address is masked as read and percent-encoded too (a service may echo it in a query or a JSON field)', () => {
    secrets.length = 0
    const slack = 'https://hooks.slack.com/services/T0/B0/enc-secret-1'
    const teams = 'https://prod.example.logic.azure.com/workflows/w/triggers/manual/paths/invoke?api-version=1&sig=enc-sig-2'
    read({ 'slack-webhook-url': slack, 'teams-webhook-url': teams })
    for (const url of [slack, teams]) {
      expect(secrets).toContain(url)
      expect(secrets).toContain(encodeURIComponent(url))
    }
  })
})

describe("the run's budget and the CLI", () => {
  const deploy = { stack: 'mystack', username: 'u', password: 'p', 'distribution-id': 'd-1', environment: 'production' }

  test("the sends' limit counts in total-timeout-minutes: derived into it, refused when it cannot hold them", () => {
    const without = readInputs(reader(deploy)).watchdogMs
    expect(readInputs(reader({ ...deploy, 'events-url': 'https://e.example.com' })).watchdogMs).toBe(without + 10_000)
    expect(() => readInputs(reader({ ...deploy, 'events-url': 'https://e.example.com', 'total-timeout-minutes': String(without / 60_000 - 10) }))).toThrow(
      /events-timeout-seconds 0\.17/
    )
  })

  test('a sink secret given as a flag is refused, naming its variable and file flag', () => {
    expect(() => parseCommandLine(['deploy', '--slack-webhook-url', 'https://hooks.slack.com/x'])).toThrow(UsageError)
    expect(() => parseCommandLine(['deploy', '--events-token=t'])).toThrow(/--events-token \(set BRCLOUD_EVENTS_TOKEN, or --events-token-file FILE\)/)
    expect(parseCommandLine(['deploy', '--events-url', 'https://e.example.com'])).toMatchObject({ kind: 'run' })
  })
})
