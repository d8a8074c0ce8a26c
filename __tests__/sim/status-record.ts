// The status report's side of the wire (./status.ts runs the reads): what one schedule's reads did and every call they
// made, and the tap on those calls (./transport.ts's, for the 'status' caller). Each call meets the faults its read drew
// for its kind (by how many of that kind the read made before), never the run's; each is recorded with the status and
// body the service made, the world as it was at that very moment (the environments' true state for a listing of them,
// the Deployments GitHub held for a listing of those), and how the call ended for the report. ./status-claims.ts reads
// the report's claims against this record.
import type { Stack } from '../../src/emulator/stack.js'
import type { StatusReport } from '../../src/status/index.js'
import { match as gitlabMatch } from '../../src/emulator/gitlab/routes.js'
import { github } from './github.js'
import { gitlab } from './gitlab.js'
import type { StatusCallKind, StatusFault, StatusSchedule } from './status-schedule.js'
import { wire, type Tap, type TapCall, type TapFate } from './transport.js'

/** The service a call of the report reaches: the stack (with its identity provider and sites), or the code's host. */
export type Service = 'stack' | 'github' | 'gitlab'

/** One call of the report, as it went: its fault, the answer the service made and the world when it was made, how it ended. */
export interface StatusCall {
  readonly read: number
  readonly seq: number
  readonly kind: StatusCallKind
  readonly service: Service
  readonly method: string
  /** Path and query. */
  readonly path: string
  readonly fate: TapFate['kind']
  /** The status and body the service (or the fault) answered with, as it was made. */
  answer: { status: number; text: string } | undefined
  /** For an environments answer: the environments as they truly were when it was made. */
  truth: Array<{ id: string; name: string; status: string; distributionId: string | null; switchingTo: string | undefined }> | undefined
  /** For a Deployments listing: how many Deployments the code's host held when it answered. */
  deployments: number | undefined
  /** How the call ended for the report: the status it got, undefined for none (no answer, a closed socket, no connection); pending while open. */
  settled: number | undefined | 'pending'
}

/** One reading of the report and what it showed. */
export interface StatusReading {
  readonly index: number
  readonly face: StatusSchedule['face']
  readonly startedAt: number
  /** Whether the run's main step had ended when the read began. */
  readonly afterTheRun: boolean
  endedAt: number | undefined
  /** The refusal before any request (exit 2), when the file, a login or the command line was refused. */
  refusal: string | undefined
  /** The report as the face gave it: the command's --json read back, or the engine's own. */
  report: StatusReport | undefined
  exit: number | undefined
  /** What the face printed: the command's stdout and stderr; the engine's table, --json, Markdown summary and error lines. */
  printed: string[]
  /** When the command was sent its stop signal (SIGINT or SIGTERM) while it still ran; undefined: never. */
  stoppedAt: number | undefined
  /** Drift issues were kept (asked for, with a report read), and whether keeping them failed. */
  driftKept: boolean
  driftFailed: boolean
  /** GitHub's issues before and after the read. */
  issuesBefore: Array<{ number: number; state: string; body: string; title: string }>
  issuesAfter: Array<{ number: number; state: string; body: string; title: string }>
}

/** The report's side of one schedule: its reads and every call they made. */
export const statusWorld: {
  schedule: StatusSchedule | undefined
  reads: StatusReading[]
  calls: StatusCall[]
  /** The read under way (reads run one at a time). */
  current: number | undefined
  /** Reads whose moment came (or came after the run), in order. */
  started: Set<number>
  queue: Promise<void>
  /** When the main step ended (or undefined while it runs). */
  mainEnded: boolean
  /** Every token the report was handed (its ready token, and each one an answer that reached it gave it): secrets, masked or not. */
  issued: string[]
} = { schedule: undefined, reads: [], calls: [], current: undefined, started: new Set(), queue: Promise.resolve(), mainEnded: false, issued: [] }

/** The kind of one of the report's calls, by its service, method and path. */
export function callKind(service: Service, method: string, path: string): StatusCallKind {
  if (service === 'stack') {
    if (path.startsWith('/v3/environments')) return 'list-environments'
    if (method === 'GET' && path.startsWith('/v3/distributions/')) return 'get-distribution'
    if (path.startsWith('/v3/authn/access_token')) return 'login'
    if (path.startsWith('/idp/') && path.endsWith('/token')) return 'idp-token'
    if (path.startsWith('/sites/')) return 'site'
    return 'other'
  }
  if (service === 'gitlab') return gitlabKind(method, path)
  if (path.includes('/compare/')) return 'compare'
  if (/\/statuses(\?|$)/.test(path)) return 'list-statuses'
  if (/\/deployments(\?|$)/.test(path)) return 'list-deployments'
  if (/\/tags(\?|$)/.test(path)) return 'list-tags'
  if (/\/issues(\?|$)/.test(path)) return method === 'POST' ? 'create-issue' : 'list-issues'
  if (/\/issues\/\d+(\?|$)/.test(path) && method === 'PATCH') return 'update-issue'
  return 'other'
}

/** A GitLab call's kind by its route: the merge base is one half of its compare. */
function gitlabKind(method: string, path: string): StatusCallKind {
  const route = gitlabMatch(method, path.split('?')[0] ?? '')?.route
  if (route === 'merge-base' || route === 'compare') return 'compare'
  if (route === 'list-deployments' || route === 'list-tags' || route === 'list-issues' || route === 'create-issue' || route === 'update-issue') return route
  return 'other'
}

/** What a fault answers: the code host's error body and headers (a rate limit's), or the platform's (the identity provider's for its token call). */
function faultFate(f: StatusFault, service: Service): TapFate {
  if (f.kind === 'hang') return { kind: 'hang' }
  if (f.kind === 'reset') return service === 'stack' ? { kind: 'reset' } : { kind: 'unreachable', code: 'ECONNRESET' }
  if (f.kind === 'unreachable') return { kind: 'unreachable', code: 'ECONNREFUSED' }
  const reset = String(Math.floor(Date.now() / 1000) + 600)
  if (service === 'gitlab') return gitlabFaultFate(f, reset)
  if (f.kind === 'rate-limit')
    return {
      kind: 'respond',
      status: 403,
      headers: {
        'x-ratelimit-limit': '5000',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-used': '5000',
        'x-ratelimit-reset': reset,
        'x-ratelimit-resource': 'core'
      },
      body: JSON.stringify({
        message: 'API rate limit exceeded for installation ID 4242.',
        documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api'
      })
    }
  if (f.kind === 'secondary-limit')
    return {
      kind: 'respond',
      status: f.status === 429 ? 429 : 403,
      headers: { 'retry-after': '60' },
      body: JSON.stringify({
        message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits'
      })
    }
  if (service === 'github')
    return {
      kind: 'respond',
      status: f.status,
      headers: {},
      body: JSON.stringify({
        message: f.status >= 500 ? 'Server Error' : f.status === 401 ? 'Bad credentials' : 'Not Found',
        documentation_url: 'https://docs.github.com/rest'
      })
    }
  const status = f.status < 500 && f.status !== 429 ? 503 : f.status
  if (f.on === 'idp-token')
    return {
      kind: 'respond',
      status,
      headers: {},
      body: JSON.stringify({ error: 'temporarily_unavailable', error_description: 'Emulated fault' }),
      echo: f.kind === 'echo'
    }
  const headers: Record<string, string> = status === 429 ? { 'retry-after': '1' } : {}
  return { kind: 'respond', status, headers, body: JSON.stringify({ code: 'Fault', message: 'Emulated fault' }), echo: f.kind === 'echo' }
}

/** GitLab's answer to a fault: its throttle's 429 (Retry after, nothing remaining), or its `{"message": ...}` error. */
function gitlabFaultFate(f: StatusFault, reset: string): TapFate {
  if (f.kind === 'rate-limit' || f.kind === 'secondary-limit')
    return {
      kind: 'respond',
      status: 429,
      headers: { 'retry-after': '60', 'ratelimit-remaining': '0', 'ratelimit-reset': reset, 'content-type': 'text/plain' },
      body: 'Retry later\n'
    }
  const said = f.status >= 500 ? `${f.status} Internal Server Error` : f.status === 401 ? '401 Unauthorized' : '404 Project Not Found'
  return { kind: 'respond', status: f.status, headers: {}, body: JSON.stringify({ message: said }) }
}

/** GitHub failing every attempt to list the drift issues. */
const LISTING_ISSUES_FAILS: StatusFault = { on: 'list-issues', kind: 'status', status: 502, skip: 0, times: 3 }

/** The tap on the report's calls: each kind's faults by its count in the read; every call recorded with the world at its answer. */
export function statusTap(stack: Stack): Tap {
  const seen = new Map<string, number>()
  return {
    begin(service, method, url) {
      const read = statusWorld.current ?? -1
      const path = `${url.pathname}${url.search}`
      const kind = callKind(service, method, path)
      const key = `${read}\u0000${kind}`
      const n = seen.get(key) ?? 0
      seen.set(key, n + 1)
      const schedule = statusWorld.schedule
      const issuesFail = schedule?.github?.driftIssues === true && schedule.github.issuesFail
      const faults = [...(schedule?.reads[read]?.faults ?? []), ...(issuesFail ? [LISTING_ISSUES_FAILS] : [])]
      const fault = faults.find((f) => f.on === kind && n >= f.skip && n < f.skip + f.times)
      const fate: TapFate = fault === undefined ? { kind: 'answer' } : faultFate(fault, service)
      const call: StatusCall = {
        read,
        seq: wire.seq + 1,
        kind,
        service,
        method,
        path,
        fate: fate.kind,
        answer: undefined,
        truth: undefined,
        deployments: undefined,
        settled: 'pending'
      }
      statusWorld.calls.push(call)
      const tapCall: TapCall = {
        fate,
        latencyMs: schedule?.reads[read]?.latencyMs ?? 0,
        answered(status, text) {
          call.answer = { status, text }
          if (kind === 'list-environments' && fate.kind === 'answer')
            call.truth = stack.state.environments.map((e) => ({
              id: e.id,
              name: e.name,
              status: e.status,
              distributionId: e.distributionId,
              switchingTo: e.status === 'deploying' ? e.deployments.at(-1)?.distributionId : undefined
            }))
          if (kind === 'list-deployments' && fate.kind === 'answer')
            call.deployments = service === 'gitlab' ? gitlab.world?.core.model.deployments.length : github.world?.core.model.deployments.length
        },
        settled(status) {
          call.settled = status
          // A token is the report's once its answer reached it (one a stop made it abandon, it never had).
          if (service === 'stack' && status !== undefined) statusWorld.issued.push(...tokensIn(call.answer?.text ?? ''))
        }
      }
      return tapCall
    }
  }
}

/** The tokens an answer hands the caller (a login's, a refresh's, a token endpoint's). */
function tokensIn(text: string): string[] {
  if (!/token"/.test(text)) return []
  try {
    const body = JSON.parse(text) as Record<string, unknown>
    return Object.entries(body)
      .filter(([key, value]) => /token$/i.test(key) && typeof value === 'string' && value.length >= 16)
      .map(([, value]) => value as string)
  } catch {
    return []
  }
}
