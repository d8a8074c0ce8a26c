// The CDEvents sink (events-url): CDEvents v0.5.1 carried as CloudEvents 1.0 over HTTP in binary mode, one POST per
// observed moment, in the order seen. The CloudEvents attributes go in ce-* headers, the body is the CDEvent's
// JSON (cdevents/spec v0.5.1: cloudevents-binding.md; schemas/service*.json; custom/schema.json for dev.cdeventsx).
// The headers are written here by hand: the cloudevents package would add about 230 KB to dist/index.js
// (docs/decisions/0021-cloudevents-headers-by-hand.md).
import type { ObservedEvent, ObservedKind, ObservedRun, Sink } from './observed.js'
import { uuidOf } from './from-run.js'
import { distributionKey } from './sinks/facts.js'
import { postJson } from './sinks/post.js'

export const CDEVENTS_SPEC_VERSION = '0.5.1'

/** The event type of each moment: the spec's service events, and our own (dev.cdeventsx.<tool>-<subject>) for the endings. */
export const CDEVENT_TYPES: { readonly [kind in ObservedKind]: string } = {
  deployed: 'dev.cdevents.service.deployed.0.3.0',
  upgraded: 'dev.cdevents.service.upgraded.0.3.0',
  published: 'dev.cdevents.service.published.0.3.0',
  rolledback: 'dev.cdevents.service.rolledback.0.3.0',
  refused: 'dev.cdeventsx.brcloud-release.refused.0.1.0',
  unconfirmed: 'dev.cdeventsx.brcloud-release.unconfirmed.0.1.0',
  cancelled: 'dev.cdeventsx.brcloud-release.cancelled.0.1.0',
  failed: 'dev.cdeventsx.brcloud-release.failed.0.1.0'
}

export interface CDEventMessage {
  readonly headers: Record<string, string>
  readonly body: Record<string, unknown>
}

/**
 * A distribution as a package URL, by the platform's id: pkg:generic/<id> (distributionKey: in lower case). Every
 * event names a distribution this way, the one a run deployed and the one a rollback restored alike, so a consumer
 * matches them; the file name and MD5, known only for what this run uploaded or promoted, travel in customData.
 */
export function purlOf(id: string): string {
  return `pkg:generic/${encodeURIComponent(distributionKey(id))}`
}

/** The event's id: from the release attempt's chain and the moment; the same event keeps it, no other event shares it. */
export function eventId(run: ObservedRun, event: ObservedEvent, index: number): string {
  return uuidOf(`event/${run.chainId}/${index}/${event.kind}`)
}

/** The distribution the moment is about: ours, or after a rollback the previous one; undefined when its id is not known. */
function artifactOf(run: ObservedRun, event: ObservedEvent): string | undefined {
  const id = event.kind === 'rolledback' ? run.previousDistributionId : run.distribution.id
  return id === undefined ? undefined : purlOf(id)
}

/** What RFC 3986 lets a URI hold unencoded, without '%': a value of these needs no header encoding at all. */
const PLAIN_URI = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]+$/
const UNRESERVED = /^[A-Za-z0-9\-._~]$/

/**
 * The events' source: the run's page when, once what RFC 3986 lets be written plain is decoded (%7E is ~), it holds
 * no '%' at all; else /brcloud-deploy/runs/<run>: the run's key when it is plain, else a UUID of it. A '%' in a source
 * would read differently in ce-source to a receiver that percent-decodes it, as the HTTP binding asks (3.1.3.2), and to
 * one that does not (some SDKs); a source without one reads the same to both, and is the CDEvent's context.source.
 */
export function sourceOf(run: Pick<ObservedRun, 'runUrl' | 'runKey'>): string {
  const page = run.runUrl?.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const c = String.fromCharCode(Number.parseInt(hex, 16))
    return UNRESERVED.test(c) ? c : escape
  })
  if (page !== undefined && PLAIN_URI.test(page)) return page
  return `/brcloud-deploy/runs/${/^[A-Za-z0-9\-._~]+$/.test(run.runKey) ? run.runKey : uuidOf(`run/${run.runKey}`)}`
}

/** A ce-* header's value as the HTTP binding wants it: space, '"', '%' and anything outside printable ASCII percent-encoded (UTF-8). */
export function headerValue(value: string): string {
  return value.replace(/[^\x21-\x7e]|["%]/gu, (c) => [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''))
}

/** The CloudEvent of one moment: its ce-* headers and the CDEvent as its body. */
export function cdevent(run: ObservedRun, event: ObservedEvent, index: number): CDEventMessage {
  const type = CDEVENT_TYPES[event.kind]
  const id = eventId(run, event, index)
  const source = sourceOf(run)
  const timestamp = new Date(event.at).toISOString()
  const subjectId = `${run.stack}/${run.environment ?? ''}`
  const where = run.apiUrl ? { source: run.apiUrl } : {}
  const environment = { id: run.environment ?? '', ...((run.consoleUrl ?? run.apiUrl) ? { source: run.consoleUrl ?? run.apiUrl } : {}) }
  const service = event.kind === 'deployed' || event.kind === 'upgraded' || event.kind === 'rolledback'
  // The schemas allow no other field in a service event's content: artifactId for three of them, none for published.
  // A service event requires artifactId (seen running, so its id is known); an ending names one only when it has an id.
  const artifact = artifactOf(run, event)
  const content =
    event.kind === 'published'
      ? { environment }
      : service
        ? { environment, artifactId: artifact ?? purlOf('unknown') }
        : { environment, ...(artifact !== undefined && { artifactId: artifact }), outcome: run.outcome, reason: event.evidence }
  const body = {
    context: { specversion: CDEVENTS_SPEC_VERSION, id, source, type, timestamp, chainId: run.chainId },
    subject: { id: subjectId, ...where, content },
    // What the spec's content has no field for: the commit, the run and who ran it, the distribution, the evidence.
    customData: {
      evidence: event.evidence,
      commit: run.commit,
      ref: run.ref,
      repository: run.repository,
      runUrl: run.runUrl,
      runKey: run.runKey,
      actor: run.actor,
      stack: run.stack,
      distribution: run.distribution,
      previousDistributionId: run.previousDistributionId,
      releaseState: run.releaseState,
      headline: run.headline,
      // What is in the release (capped at EVENT_COMMITS, with the count), and the release rules' facts.
      changes: run.changes,
      overrideReason: run.rules?.overrideReason,
      overrode: run.rules?.overrode,
      backupId: run.rules?.backupId,
      refusedBy: run.rules?.refusedBy
    },
    customDataContentType: 'application/json'
  }
  const headers = {
    'ce-specversion': '1.0',
    'ce-id': id,
    'ce-source': headerValue(source),
    'ce-type': type,
    'ce-time': timestamp,
    'ce-subject': headerValue(subjectId),
    'content-type': 'application/json'
  }
  return { headers, body }
}

/** The sink: every moment of the run, one POST each, in order; a bearer token when events-token is set. */
export function cdeventsSink(options: { readonly url: string; readonly token: string | undefined }): Sink {
  return {
    name: 'CDEvents',
    async send(run, signal) {
      if (run.events.length === 0) return false
      const auth: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {}
      for (const [index, event] of run.events.entries()) {
        const { headers, body } = cdevent(run, event, index)
        await postJson({
          service: 'CDEvents',
          url: options.url,
          path: '',
          headers: { ...headers, ...auth },
          body,
          secrets: options.token ? [options.token] : [],
          signal
        })
      }
      return true
    }
  }
}
