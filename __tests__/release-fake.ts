// A scripted platform and a fake clock for the release's state machine (release.test.ts, release-claims.test.ts):
// what the environment reports is scripted, time passes only when the code waits. The suites install a quiet
// port first (test-port.ts): the release's log lines are asserted through contextOf's lines.
import { ServiceError } from '../src/errors.js'
import { EnvironmentWatch } from '../src/deploy/observe.js'
import type { ReleaseContext } from '../src/deploy/release.js'
import type { CloudClient } from '../src/cloud/client.js'

/**
 * How the platform answers one deploy call: accepted and carried out ('ok'), refused while a deploy is in progress
 * ('busy'), a 500 not carried out ('error500'), carried out with the answer lost ('lost'), or a call that is
 * accepted ('accepted-unseen') or loses its answer ('lost-unseen') and is never carried out.
 */
export type Answer = 'ok' | 'busy' | 'lost' | 'error500' | 'accepted-unseen' | 'lost-unseen'

/** One environment whose reports and deploy answers a test scripts; `at(ms, fn)` changes it later. */
export class FakePlatform {
  t = 0
  distributionId: string | undefined
  status: string | undefined
  readonly requested: string[] = []
  answers: Answer[] = []
  /** How long a deploy the platform carries out takes. */
  switchMs = 2_000
  /** The platform reports the new id as soon as a deploy is requested (with a status while it switches). */
  reportAtRequest = false
  /** The next this many looks fail with a 503 (a look may fail for a moment). */
  failingLooks = 0
  private readonly timers: Array<{ at: number; fn: () => void }> = []

  constructor(distributionId?: string, status?: string) {
    this.distributionId = distributionId
    this.status = status
  }

  at(ms: number, fn: () => void): void {
    this.timers.push({ at: ms, fn })
  }

  readonly now = (): number => this.t

  readonly sleep = async (ms: number): Promise<void> => {
    this.t += ms
    for (const timer of this.timers.filter((x) => x.at <= this.t)) {
      this.timers.splice(this.timers.indexOf(timer), 1)
      timer.fn()
    }
  }

  /** A deploy the platform carries out: reported when done after `ms`, with a status while it switches. */
  switchTo(id: string, ms: number, reportAtRequest = false): void {
    if (this.status !== undefined) this.status = 'deploying'
    if (reportAtRequest) this.distributionId = id
    this.at(this.t + ms, () => {
      this.distributionId = id
      if (this.status !== undefined) this.status = 'running'
    })
  }

  readonly client = {
    findEnvironment: async (name: string) => {
      if (this.failingLooks > 0) {
        this.failingLooks--
        throw new ServiceError('Looking: HTTP 503', 503)
      }
      return {
        environment: { id: 'env-1', name, distributionId: this.distributionId ?? null, status: this.status },
        list: { items: [], complete: true }
      }
    },
    requestDeploy: async (
      _env: string,
      id: string,
      _strategy?: string,
      _files?: unknown,
      _limit?: number,
      onDispatch?: (event: 'sent') => void,
      beforeSend?: () => void
    ) => {
      beforeSend?.()
      onDispatch?.('sent')
      // Like the emulator: a deploy while another one switches is refused.
      const answer = this.timers.length > 0 ? 'busy' : (this.answers.shift() ?? 'ok')
      if (answer === 'busy') throw new ServiceError('Deploying: HTTP 409', 409, 'DeploymentInProgress')
      if (answer === 'error500') throw new ServiceError('Deploying: HTTP 500', 500)
      this.requested.push(id)
      if (answer !== 'accepted-unseen' && answer !== 'lost-unseen') this.switchTo(id, this.switchMs, this.reportAtRequest)
      if (answer === 'lost' || answer === 'lost-unseen') throw Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })
    }
  } as unknown as CloudClient
}

/** The release's context over `p`: log and warning lines go to `lines`; `over` replaces any part. */
export function contextOf(p: FakePlatform, lines: string[], over: Partial<ReleaseContext> = {}): ReleaseContext {
  return {
    client: p.client,
    watch: new EnvironmentWatch(p.client, 'production', { now: p.now, sleep: p.sleep }),
    environmentId: 'env-1',
    strategy: 'stopstart',
    configFileIds: [],
    maxAttempts: 3,
    requestTimeoutMs: 60_000,
    log: (l) => lines.push(l),
    warn: (l) => lines.push(l),
    phase: (_name, fn) => fn(),
    followDeploy: true,
    deployTimeoutMs: 60_000,
    health: undefined,
    checkSite: async () => undefined,
    ...over
  }
}

/** The states a release went through, in order. */
export const states = (r: { transitions: Array<{ state: string }> }): string[] => r.transitions.map((t) => t.state)
