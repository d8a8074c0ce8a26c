// When each read of the status report began and ended (Date.now() values), kept beside the report for its trace
// (issue 45, src/tracing/status-plan.ts). The rows stay what --json prints; these are the reads' own times, observed
// as they happened: a stack's read, each environment's (its health probe's one attempt within it), and each call to
// the code's host.
import { CodeHostCallFailed, type CallFailure, type CodeHost, type HostName } from '../code-host/port.js'
import type { HealthAttempt } from '../health.js'

export interface Timed {
  readonly startedAt: number
  readonly endedAt: number
}

/** One environment's read: the platform's answers, the code host's evidence and compare, its probe and its backup. */
export interface EnvironmentTiming extends Timed {
  readonly environment: string
  /** The health probe's one attempt, when it made one. */
  readonly probe?: HealthAttempt | undefined
}

/** One stack's read, from its login to its refresh token's revocation. */
export interface StackTiming extends Timed {
  readonly environments: readonly EnvironmentTiming[]
}

/** One call to the code's host (shared by the report's rows: a compare is asked once per ref and commit). */
export interface HostRead extends Timed {
  readonly host: HostName
  /** What was read, in words: compare, list tags, list deployments, deployment status. */
  readonly call: string
  /** How it failed, when it did. */
  readonly failure?: CallFailure | undefined
}

/** The most calls kept: a trace of a large fleet stays within what a collector takes in one export. */
export const MAX_HOST_READS = 1_000

/** The reads the report makes of the code's host, by the port's method names. */
const READS: Readonly<Record<string, string>> = {
  compare: 'compare',
  listTags: 'list tags',
  listDeploymentPages: 'list deployments',
  latestStatus: 'deployment status'
}

/** `api`, each read of it timed into `reads` as it ends (its answer or failure passed on unchanged); every other member as it is. */
export function timedHost(api: CodeHost, reads: HostRead[]): CodeHost {
  return new Proxy(api, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target)
      if (typeof value !== 'function') return value
      const method = value as (...args: unknown[]) => unknown
      const call = typeof name === 'string' ? READS[name] : undefined
      if (call === undefined) return method.bind(target)
      return async (...args: unknown[]): Promise<unknown> => {
        const startedAt = Date.now()
        let failure: CallFailure | undefined
        try {
          return await method.apply(target, args)
        } catch (error) {
          failure = error instanceof CodeHostCallFailed ? error.failure : 'failed'
          throw error
        } finally {
          if (reads.length < MAX_HOST_READS) reads.push({ host: target.host, call, startedAt, endedAt: Date.now(), ...(failure && { failure }) })
        }
      }
    }
  })
}
