// One real HTTP server on 127.0.0.1 that stands in for the seven services of the native sinks, each
// under its own prefix, answering as each documents (statuses, bodies, the auth it checks), and
// recording every request. Also the observed runs the tests (and docs/events.md) use.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { EventsInputs, ObservedRun } from '../src/events/observed.js'

export interface Recorded {
  service: Service
  method: string
  /** The raw request target, as sent (percent-encoding kept). */
  url: string
  headers: IncomingMessage['headers']
  body: string
  json: unknown
}

export type Service = 'slack' | 'teams' | 'datadog' | 'sentry' | 'grafana' | 'honeycomb' | 'newrelic'

/** The credentials the stand-ins accept. */
export const SECRETS = {
  slackPath: '/services/T0001/B0002/slackSecret0123456789',
  teamsSig: 'teamsSig0123456789abcdef',
  datadogKey: 'dd-key-0123456789abcdef',
  sentryToken: 'sntrys_token0123456789',
  grafanaToken: 'glsa_token0123456789',
  honeycombKey: 'hcaik_key0123456789',
  newRelicKey: 'NRAK-KEY0123456789'
}

export const ORG = 'acme org'
export const PROJECT = 'site'
export const DATASET = 'brxm site'
export const ENTITY = 'MXxBUE18QVBQTElDQVRJT058MQ'

type Answer = { status: number; body: string; type?: string }

export class SinkStandIns {
  readonly requests: Recorded[] = []
  /** Release versions Sentry knows. */
  readonly sentryReleases = new Set<string>()
  /** Services that take the request and never answer. */
  readonly hanging = new Set<Service>()
  /** The next answer of a service, instead of its documented one. */
  readonly next = new Map<Service, Answer>()
  private readonly waiters: { service: Service; resolve: () => void }[] = []
  private server!: Server
  base = ''

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => this.handle(req, Buffer.concat(chunks).toString('utf8'), res))
    })
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  reset(): void {
    this.requests.length = 0
    this.sentryReleases.clear()
    this.hanging.clear()
    this.next.clear()
  }

  /** Resolves once a request of `service` has been recorded. */
  received(service: Service): Promise<void> {
    if (this.requests.some((r) => r.service === service)) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push({ service, resolve }))
  }

  of(service: Service): Recorded[] {
    return this.requests.filter((r) => r.service === service)
  }

  /** Every input of the seven sinks, pointed at this server. */
  inputs(overrides: Partial<Record<'slack' | 'teams' | 'datadog' | 'sentry' | 'grafana' | 'honeycomb' | 'newRelic', object>> = {}): EventsInputs {
    const b = this.base
    return {
      slack: { webhookUrl: `${b}/slack${SECRETS.slackPath}`, ...overrides.slack },
      teams: { webhookUrl: `${b}/teams/workflows/4f1c/triggers/manual/paths/invoke?api-version=2016-06-01&sig=${SECRETS.teamsSig}`, ...overrides.teams },
      datadog: { apiKey: SECRETS.datadogKey, apiUrl: `${b}/datadog`, service: 'acme-site', ...overrides.datadog },
      sentry: { authToken: SECRETS.sentryToken, url: `${b}/sentry`, org: ORG, project: PROJECT, ...overrides.sentry },
      grafana: { url: `${b}/grafana`, token: SECRETS.grafanaToken, ...overrides.grafana },
      honeycomb: { apiKey: SECRETS.honeycombKey, apiUrl: `${b}/honeycomb`, dataset: DATASET, ...overrides.honeycomb },
      newRelic: { apiKey: SECRETS.newRelicKey, apiUrl: `${b}/newrelic/graphql`, entityGuid: ENTITY, ...overrides.newRelic },
      timeoutMs: 10_000
    }
  }

  private handle(req: IncomingMessage, body: string, res: ServerResponse): void {
    const url = req.url ?? ''
    const service = url.split('/')[1] as Service
    let json: unknown
    try {
      json = JSON.parse(body)
    } catch {
      json = undefined
    }
    this.requests.push({ service, method: req.method ?? '', url, headers: req.headers, body, json })
    for (const w of this.waiters.filter((x) => x.service === service)) {
      this.waiters.splice(this.waiters.indexOf(w), 1)
      w.resolve()
    }
    if (this.hanging.has(service)) return
    const override = this.next.get(service)
    this.next.delete(service)
    const answer = override ?? this.answer(service, req, url.slice(service.length + 1), json)
    res.writeHead(answer.status, { 'content-type': answer.type ?? 'application/json' }).end(answer.body)
  }

  private answer(service: Service, req: IncomingMessage, path: string, json: unknown): Answer {
    const h = req.headers
    const j = (status: number, value: unknown): Answer => ({ status, body: JSON.stringify(value) })
    const text = (status: number, body: string): Answer => ({ status, body, type: 'text/plain' })
    if (req.method !== 'POST') return text(405, 'method not allowed')
    switch (service) {
      // Slack answers in plain text: "ok", or the error's name (api.slack.com/messaging/webhooks#handling_errors).
      case 'slack':
        if (path !== SECRETS.slackPath) return text(404, 'no_service')
        if (json === undefined) return text(400, 'invalid_payload')
        if (typeof (json as { text?: unknown }).text !== 'string' && !Array.isArray((json as { blocks?: unknown }).blocks)) return text(400, 'no_text')
        return text(200, 'ok')
      // A Workflows trigger checks the sig of its URL and accepts the message for its flow.
      case 'teams': {
        const sig = new URL(path, 'http://x').searchParams.get('sig')
        if (sig !== SECRETS.teamsSig) return j(401, { error: { code: 'InvalidSignature', message: 'The signature of this trigger is not valid.' } })
        if ((json as { type?: unknown } | undefined)?.type !== 'message') return j(400, { error: { code: 'InvalidRequest', message: 'type must be message' } })
        return { status: 202, body: '' }
      }
      case 'datadog': {
        if (path !== '/api/v2/dora/deployment') return j(404, { errors: ['Not found'] })
        if (h['dd-api-key'] !== SECRETS.datadogKey) return j(403, { errors: ['Forbidden'] })
        const a = (json as { data?: { attributes?: Record<string, unknown> } } | undefined)?.data?.attributes
        for (const field of ['service', 'started_at', 'finished_at'])
          if (a?.[field] === undefined) return j(400, { errors: [`missing required attribute: ${field}`] })
        return j(202, { data: { id: `dd-${this.of('datadog').length}`, type: 'dora_deployment' } })
      }
      case 'sentry': {
        if (h.authorization !== `Bearer ${SECRETS.sentryToken}`) return j(401, { detail: 'Invalid token' })
        const org = `/api/0/organizations/${encodeURIComponent(ORG)}/releases/`
        if (!path.startsWith(org)) return j(404, { detail: 'The requested resource does not exist' })
        const rest = path.slice(org.length)
        if (rest === '') {
          const r = json as { version?: string; projects?: string[] }
          if (!r.version || !r.projects?.length) return j(400, { projects: ['This field is required.'] })
          const existed = this.sentryReleases.has(r.version)
          this.sentryReleases.add(r.version)
          return j(existed ? 208 : 201, { version: r.version, projects: r.projects.map((slug) => ({ slug })) })
        }
        const deploys = /^([^/]+)\/deploys\/$/.exec(rest)
        if (!deploys) return j(404, { detail: 'The requested resource does not exist' })
        if (!this.sentryReleases.has(decodeURIComponent(deploys[1] as string))) return j(404, { detail: 'The requested resource does not exist' })
        const d = json as Record<string, unknown>
        if (!d.environment) return j(400, { environment: ['This field is required.'] })
        return j(201, {
          id: '1234567',
          environment: d.environment,
          name: d.name ?? null,
          url: d.url ?? null,
          dateStarted: d.dateStarted ?? null,
          dateFinished: d.dateFinished
        })
      }
      case 'grafana':
        if (path !== '/api/annotations') return j(404, { message: 'Not found' })
        if (h.authorization !== `Bearer ${SECRETS.grafanaToken}`) return j(401, { message: 'invalid API key' })
        return j(200, { message: 'Annotation added', id: this.of('grafana').length })
      case 'honeycomb': {
        if (h['x-honeycomb-team'] !== SECRETS.honeycombKey) return j(401, { error: 'unknown API key - check your credentials' })
        if (path !== `/1/markers/${encodeURIComponent(DATASET)}` && path !== '/1/markers/__all__') return j(404, { error: 'dataset not found' })
        const m = json as Record<string, unknown>
        return j(201, { id: 'a1b2c3', created_at: '2025-05-06T10:05:00Z', updated_at: '2025-05-06T10:05:00Z', ...m })
      }
      case 'newrelic': {
        if (path !== '/graphql') return j(404, { errors: [{ message: 'Not found' }] })
        if (h['api-key'] !== SECRETS.newRelicKey)
          return j(401, { errors: [{ message: 'Bad API Key or no API Key provided', extensions: { error_code: 'BAD_API_KEY' } }] })
        const v = (json as { variables?: { deployment?: { entityGuid?: string } } }).variables?.deployment
        if (v?.entityGuid !== ENTITY)
          return j(200, {
            data: { changeTrackingCreateDeployment: null },
            errors: [{ message: 'Entity not found or not accessible', path: ['changeTrackingCreateDeployment'] }]
          })
        return j(200, { data: { changeTrackingCreateDeployment: { deploymentId: 'f00d-0001', entityGuid: ENTITY } } })
      }
    }
    return text(404, 'no such service')
  }
}

// The observed runs. Times from one start, so each moment's offset is plain to read.
export const T0 = Date.UTC(2025, 4, 6, 10, 0, 0)
const S = 1000
const COMMIT = '3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39'

const base = {
  chainId: '9001:1:acme/production',
  runKey: '9001-1',
  stack: 'acme',
  environment: 'production',
  apiUrl: 'https://api.acme.bloomreach.cloud',
  consoleUrl: 'https://mission-control.acme.bloomreach.cloud',
  distribution: {
    id: 'd-0002',
    name: 'acme-site-1.4.0.tar.gz',
    md5: '9e107d9d372bb6826bd81d3542a419d6',
    sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
  },
  previousDistributionId: 'd-0001',
  commit: COMMIT,
  ref: 'refs/heads/main',
  repository: 'acme/site',
  runUrl: 'https://github.com/acme/site/actions/runs/9001/attempts/1',
  actor: 'octocat',
  startedAt: T0,
  error: undefined
} satisfies Partial<ObservedRun>

/** Our release replaced d-0001, the site answered: verified. */
export const verifiedUpgrade: ObservedRun = {
  ...base,
  nowRunning: 'd-0002',
  endedAt: T0 + 140 * S,
  outcome: 'success',
  headline: "✅ Verified: 'production' runs `d-0002`",
  releaseState: 'verified',
  events: [
    { kind: 'upgraded', at: T0 + 95 * S, evidence: 'the environment reported d-0002 where it ran d-0001' },
    { kind: 'published', at: T0 + 120 * S, evidence: 'the site answered 200 with the expected text' }
  ]
}

/** The switch was seen, the health check failed, our rollback to d-0001 was seen. */
export const rolledBack: ObservedRun = {
  ...base,
  nowRunning: 'd-0001',
  endedAt: T0 + 230 * S,
  outcome: 'failure',
  headline: "❌ Failed and rolled back: 'production' runs `d-0001` (looked at when the step ended)",
  releaseState: 'rollback-applied',
  error: 'The site did not answer 200 within 60 s (last: 503)',
  events: [
    { kind: 'upgraded', at: T0 + 90 * S, evidence: 'the environment reported d-0002 where it ran d-0001' },
    { kind: 'rolledback', at: T0 + 200 * S, evidence: 'the environment reported d-0001 again' },
    { kind: 'failed', at: T0 + 210 * S, evidence: 'The site did not answer 200 within 60 s (last: 503)' }
  ]
}

/** Refused by the deploy order before any deploy. */
export const refused: ObservedRun = {
  ...base,
  nowRunning: 'd-0001',
  endedAt: T0 + 6 * S,
  outcome: 'failure',
  headline: "❌ Refused: commit `3f2a9c1` is older than `77aa001`, which 'production' runs; nothing was deployed",
  releaseState: undefined,
  error: 'commit 3f2a9c1 is older than 77aa001',
  events: [{ kind: 'refused', at: T0 + 5 * S, evidence: 'commit 3f2a9c1 is older than 77aa001, which production runs' }]
}

/** Cancelled while the deploy was followed: the switch was never seen. */
export const cancelled: ObservedRun = {
  ...base,
  nowRunning: undefined,
  endedAt: T0 + 61 * S,
  outcome: 'cancelled',
  headline:
    "⏹ Cancelled: the deploy of `d-0002` was requested and not seen applied (the platform may still switch to it after the step ended); what 'production' runs was not seen",
  releaseState: 'in-progress',
  error: 'The run was cancelled (SIGTERM)',
  events: [{ kind: 'cancelled', at: T0 + 60 * S, evidence: 'SIGTERM while the switch was followed' }]
}

/** The first deploy into an empty environment, then the site answered. */
export const firstDeploy: ObservedRun = {
  ...base,
  chainId: '9002:1:acme/staging',
  runKey: '9002-1',
  environment: 'staging',
  previousDistributionId: undefined,
  runUrl: 'https://github.com/acme/site/actions/runs/9002/attempts/1',
  nowRunning: 'd-0002',
  endedAt: T0 + 110 * S,
  outcome: 'success',
  headline: "✅ Verified: 'staging' runs `d-0002`",
  releaseState: 'verified',
  events: [
    { kind: 'deployed', at: T0 + 80 * S, evidence: 'the environment reported d-0002 where it ran nothing' },
    { kind: 'published', at: T0 + 100 * S, evidence: 'the site answered 200 with the expected text' }
  ]
}
