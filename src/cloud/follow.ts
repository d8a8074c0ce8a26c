// Follows a deploy until the environment reports the new distribution: the platform accepts a deploy
// request at once and switches later, and "accepted" is not "running". Only `distributionId` (the
// documented field) decides; any status field the platform adds is shown, never relied on.
import { ActionError } from '../errors.js'
import { formatDuration } from '../format.js'
import { Poll } from '../http/retry.js'
import type { CloudClient, Environment } from './client.js'

/** The environment did not report the new distribution in time. */
export class DeployNotApplied extends ActionError {
  override name = 'DeployNotApplied'
}

export interface FollowOptions {
  timeoutMs: number
  /** What the environment ran before the deploy: anything else but ours means another deploy replaced ours. */
  previous: string | undefined
  log: (line: string) => void
  /** First wait between two looks; it grows by half each time, up to maxIntervalMs. */
  intervalMs?: number
  maxIntervalMs?: number
  sleep?: (ms: number) => Promise<void>
  now?: () => number
}

function describe(env: Environment | undefined): string {
  if (env === undefined) return 'is not listed'
  const runs = env.distributionId ? `runs distribution ${env.distributionId}` : 'runs no distribution'
  return env.status ? `${runs} (status: ${env.status})` : runs
}

/** Waits until environment `name` runs `distributionId`; returns how long that took. */
export async function followDeploy(client: CloudClient, name: string, distributionId: string, options: FollowOptions): Promise<{ afterMs: number }> {
  const poll = new Poll({ ...options, intervalMs: options.intervalMs ?? 1_000, maxIntervalMs: options.maxIntervalMs ?? 10_000 })
  let last: string | undefined
  for (;;) {
    const { environment } = await client.findEnvironment(name)
    const seen = describe(environment)
    if (environment?.distributionId === distributionId) {
      const afterMs = poll.elapsed()
      options.log(`Environment '${name}' ${seen}: applied after ${formatDuration(afterMs)}.`)
      return { afterMs }
    }
    const running = environment?.distributionId ?? undefined
    if (running !== undefined && running !== options.previous) {
      throw new DeployNotApplied(
        `'${name}' now ${seen}: neither the distribution it ran before (${options.previous ?? 'none'}) nor ${distributionId}. Another deploy ` +
          'to this environment replaced this one; give the jobs that deploy to it one concurrency group, so they run one at a time.'
      )
    }
    if (seen !== last) options.log(`Environment '${name}' ${seen}; waiting for ${distributionId} (${formatDuration(poll.elapsed())} so far).`)
    last = seen
    if (!(await poll.next())) {
      throw new DeployNotApplied(
        `The deploy of ${distributionId} to '${name}' was not applied within deploy-timeout-minutes (${formatDuration(options.timeoutMs)}): ` +
          `the environment still ${seen}. Check the environment in the console; for slow starts, raise deploy-timeout-minutes.`
      )
    }
  }
}
