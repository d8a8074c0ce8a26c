// The status report (issue 31, docs/status.md): what runs where across stacks and environments, and how it stands
// against the tracked ref. Read-only by construction: it lists environments, looks distributions up, and reads
// the code host's deployments and compares (GitHub's or GitLab's); nothing here uploads, deploys or deletes. The face reads the file and the logins
// first (prepareStatus, every mistake before any request), then readStatus reads the stacks, a few at a time.
import type { CloudRetry } from '../cloud/api.js'
import { openCodeHost } from '../code-host/open.js'
import { CodeHostCallFailed, type CodeHost, type Comparison, type HostName } from '../code-host/port.js'
import type { GitLabSettings } from '../inputs/code-host.js'
import type { Login } from '../inputs/login.js'
import type { RunContext } from '../port.js'
import type { StatusConfig } from './config.js'
import { stackLogin } from './credentials.js'
import { readStack, type CodeHostSide, type StackReading } from './read-stack.js'
import type { EnvironmentRow } from './row.js'
import type { StopControl } from './stop.js'
import { timedHost, type HostRead, type StackTiming } from './timing.js'

export { parseStatusConfig, type StatusConfig, type StackConfig } from './config.js'
export { STATES, type DriftState, type EnvironmentRow } from './row.js'

/** Stacks read at once by default: each is its own host, so this bounds the connections and the logins in flight. */
export const DEFAULT_PARALLEL = 4

export interface StatusOptions {
  /** GitHub, when a token was given: the repository and server come from the run's context. */
  readonly github?: { readonly token: string; readonly context: RunContext } | undefined
  /** GitLab instead, when its token and project were given (never both: the face refuses that). */
  readonly gitlab?: { readonly settings: GitLabSettings; readonly context: RunContext } | undefined
  /** owner/name: the repository whose Deployments and commits are read (also without a token, for the names). */
  readonly repository?: string | undefined
  readonly parallel?: number | undefined
  readonly requestTimeoutMs?: number | undefined
  readonly retry?: CloudRetry | undefined
  /** Each health probe's one attempt (default 10 s). */
  readonly healthTimeoutMs?: number | undefined
  /** A cancel (stop.ts): every call aborted, no stack begun after it, each refresh token revoked on a closing door. */
  readonly stop?: StopControl | undefined
  /** The clock a freeze in force and a backup's age are read by (default Date.now). */
  readonly now?: (() => number) | undefined
}

export interface StackOutcome {
  readonly name: string
  readonly apiUrl: string
  /** Why it (or some of its environments) could not be read; empty when it was. */
  readonly errors: readonly string[]
  /** When it and each of its environments were read (the trace's times, ./timing.ts); not in --json. */
  readonly timing?: StackTiming | undefined
}

export interface StatusReport {
  readonly environments: readonly EnvironmentRow[]
  readonly stacks: readonly StackOutcome[]
  /** Why the code's host could not be read, when it was given (GitHub's or GitLab's, as `host` says). */
  readonly githubErrors: readonly string[]
  /** The code's host read, when one was given. */
  readonly host?: HostName | undefined
  /** Tracked refs GitHub does not know, or patterns no tag matches, each with where it was written: the report fails closed. */
  readonly trackErrors: readonly string[]
  readonly repository: string | null
  /** Each call to the code's host, timed (the trace's client spans, ./timing.ts); not in --json. */
  readonly hostReads?: readonly HostRead[] | undefined
}

export interface PreparedStatus {
  readonly config: StatusConfig
  readonly logins: readonly Login[]
}

/** Every stack's login from `env`, checked (and its secrets masked) before any request; throws an InputError. */
export function prepareStatus(config: StatusConfig, env: NodeJS.ProcessEnv): PreparedStatus {
  return { config, logins: config.stacks.map((stack) => stackLogin(stack, env)) }
}

/** Short limits: a report that waits minutes on one stack is read by nobody. */
const STATUS_RETRY: CloudRetry = { attempts: 3, baseDelayMs: 500, maxDelayMs: 4_000, maxTotalMs: 30_000 }
const REQUEST_TIMEOUT_MS = 30_000
/** A site that takes longer than this to answer one GET is not healthy, for a report. */
const HEALTH_TIMEOUT_MS = 10_000
const USER_AGENT = 'brcloud-deploy (status)'

/** Reads every stack, at most `parallel` at once; never throws for a stack or GitHub that fails (the report says it). */
export async function readStatus({ config, logins }: PreparedStatus, options: StatusOptions = {}): Promise<StatusReport> {
  const repository = options.gitlab?.settings.project || options.github?.context.repository || options.repository || undefined
  const api = await openHost(options)
  const hostReads: HostRead[] = []
  const host = api === undefined ? undefined : hostSide(timedHost(api, hostReads))
  const read = (i: number): Promise<StackReading> =>
    readStack(config.stacks[i]!, logins[i]!, {
      host,
      repository,
      userAgent: USER_AGENT,
      requestTimeoutMs: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
      retry: options.retry ?? STATUS_RETRY,
      healthTimeoutMs: options.healthTimeoutMs ?? HEALTH_TIMEOUT_MS,
      stop: options.stop,
      now: options.now ?? (() => Date.now())
    })
  const readings = await inTurn(config.stacks.length, options.parallel ?? DEFAULT_PARALLEL, read, options.stop?.signal)
  return {
    environments: readings.flatMap((r) => r.rows),
    stacks: readings.map((r) => ({
      name: r.name,
      apiUrl: r.apiUrl,
      errors: r.errors,
      timing: { startedAt: r.startedAt, endedAt: r.endedAt, environments: r.timings }
    })),
    githubErrors: [...new Set(readings.flatMap((r) => r.githubErrors))],
    trackErrors: [...new Set(readings.flatMap((r) => r.trackErrors))],
    repository: repository ?? null,
    ...(api !== undefined && { host: api.host, hostReads })
  }
}

/** Whether the report read everything it was asked for: every stack, the code's host when it was given, and every tracked ref. */
export function readInFull(report: StatusReport): boolean {
  return report.stacks.every((s) => s.errors.length === 0) && report.githubErrors.length === 0 && report.trackErrors.length === 0
}

/** The door to the code's host the options name, if any. */
function openHost(options: StatusOptions): Promise<CodeHost | undefined> {
  const signal = options.stop?.signal
  if (options.gitlab !== undefined) return openCodeHost({ gitlab: options.gitlab.settings }, signal, options.gitlab.context)
  if (options.github !== undefined) return openCodeHost({ githubToken: options.github.token }, signal, options.github.context)
  return Promise.resolve(undefined)
}

function hostSide(api: CodeHost): CodeHostSide {
  // Environments of one fleet mostly run a few commits: each is compared with the ref once.
  const compares = new Map<string, Promise<Comparison>>()
  let tags: ReturnType<CodeHostSide['tags']> | undefined
  const refs = new Map<string, Promise<boolean>>()
  return {
    api,
    tags: () => (tags ??= api.listTags()),
    refKnown(ref) {
      let known = refs.get(ref)
      if (known === undefined) {
        // The ref compared with itself: the host resolves it as it resolves every compare of the report (branch, tag, commit).
        known = api.compare(ref, ref).then(
          () => true,
          (error: unknown) => {
            if (error instanceof CodeHostCallFailed && error.failure === 'not-found') return false
            throw error
          }
        )
        refs.set(ref, known)
      }
      return known
    },
    compare(base, head) {
      const key = `${base}\u0000${head.toLowerCase()}`
      let answer = compares.get(key)
      if (answer === undefined) {
        answer = api.compare(base, head)
        compares.set(key, answer)
      }
      return answer
    }
  }
}

/** `work(0..count-1)`, at most `limit` running at once, none begun after `signal` fired; the results in index order. */
async function inTurn<T>(count: number, limit: number, work: (i: number) => Promise<T>, signal?: AbortSignal): Promise<T[]> {
  const results = new Array<T>(count)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < count && signal?.aborted !== true) {
      const i = next++
      results[i] = await work(i)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, count)) }, worker))
  return results
}
