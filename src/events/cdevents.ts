// The CDEvents sink (events-url): CDEvents v0.5.1 carried as CloudEvents 1.0 over HTTP in binary mode, one POST per
// observed moment, in the order seen. The CloudEvents attributes go in ce-* headers, the body is the CDEvent's
// JSON (cdevents/spec v0.5.1: cloudevents-binding.md; schemas/service*.json; custom/schema.json for dev.cdeventsx).
// The headers are written here by hand: the cloudevents package would add about 230 KB to dist/index.js
// (docs/architecture.md, "hand-written where a library exists").
import type { ObservedEvent, ObservedKind, ObservedRun, Sink } from './observed.js'
import { uuidOf } from './from-run.js'
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
 * A distribution as a package URL: pkg:generic/<name>?checksum=md5:<md5>. The name is percent-encoded (an '@' or '/'
 * in it would read as a version or a namespace); the checksum qualifier only when the MD5 is known.
 */
export function purlOf(name: string, md5: string | undefined): string {
  const checksum = md5 ? `?checksum=md5:${md5.toLowerCase()}` : ''
  return `pkg:generic/${encodeURIComponent(name)}${checksum}`
}

/** The event's id: the same run attempt, environment and moment give the same id; another attempt never does. */
export function eventId(run: ObservedRun, event: ObservedEvent, index: number): string {
  return uuidOf(`event/${run.runKey}/${run.stack}/${run.environment ?? ''}/${index}/${event.kind}`)
}

/** What the environment runs after the moment: ours, or after a rollback the previous distribution. */
function artifactOf(run: ObservedRun, event: ObservedEvent): string {
  if (event.kind === 'rolledback') return purlOf(run.previousDistributionId ?? 'unknown', undefined)
  const d = run.distribution
  return purlOf(d.name ?? d.id ?? 'unknown', d.md5)
}

/** A ce-* header's value as the HTTP binding wants it: space, '"', '%' and anything outside printable ASCII percent-encoded (UTF-8). */
export function headerValue(value: string): string {
  return value.replace(/[^\x21-\x7e]|["%]/gu, (c) => [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''))
}

/** The CloudEvent of one moment: its ce-* headers and the CDEvent as its body. */
export function cdevent(run: ObservedRun, event: ObservedEvent, index: number): CDEventMessage {
  const type = CDEVENT_TYPES[event.kind]
  const id = eventId(run, event, index)
  const source = run.runUrl ?? `/brcloud-deploy/runs/${encodeURIComponent(run.runKey)}`
  const timestamp = new Date(event.at).toISOString()
  const subjectId = `${run.stack}/${run.environment ?? ''}`
  const where = run.apiUrl ? { source: run.apiUrl } : {}
  const environment = { id: run.environment ?? '', ...((run.consoleUrl ?? run.apiUrl) ? { source: run.consoleUrl ?? run.apiUrl } : {}) }
  const service = event.kind === 'deployed' || event.kind === 'upgraded' || event.kind === 'rolledback'
  // The schemas allow no other field in a service event's content: artifactId for three of them, none for published.
  const content =
    event.kind === 'published'
      ? { environment }
      : service
        ? { environment, artifactId: artifactOf(run, event) }
        : { environment, artifactId: artifactOf(run, event), outcome: run.outcome, reason: event.evidence }
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
      headline: run.headline
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
