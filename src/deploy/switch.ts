// Asking the platform for one switch of the environment (our release, or a rollback) and following it.
// A request is never replayed blindly: after a lost answer or a 409 the environment is looked at first,
// so exactly one deploy lands; following takes only evidence that fits both platform readings (the new
// id reported when the deploy is requested, or when it is done).
import { ActionError, describeError, ServiceError } from '../errors.js'
import { formatDuration } from '../format.js'
import { isTransient } from '../http/errors.js'
import type { CloudClient } from '../cloud/client.js'
import { describeLook, switching } from './look.js'
import type { EnvironmentWatch } from './observe.js'
import type { EnvironmentLook } from './result.js'

/** One switch: to `distributionId`, from what the environment reported before it. */
export interface SwitchPlan {
  readonly distributionId: string
  /** What the environment reported before the request; updated while waiting for someone else's deploy. */
  previous: string | undefined
  /** The environment reports this id already (a forced redeploy): the id cannot show the switch. */
  readonly redeploy: boolean
}

export interface SwitchContext {
  readonly client: CloudClient
  readonly watch: EnvironmentWatch
  readonly environmentId: string
  readonly strategy: string
  readonly configFileIds: readonly string[]
  /** Attempts for a request whose outcome is unknown (no answer, 5xx). */
  readonly maxAttempts: number
  readonly log: (line: string) => void
  readonly warn: (line: string) => void
}

/** Another deploy made the environment run something that is neither ours nor what it ran before. */
export class Replaced extends ActionError {
  override name = 'Replaced'
  constructor(
    message: string,
    readonly look: EnvironmentLook
  ) {
    super(message)
  }
}

/** The environment was busy, or the switch did not show, within the time allowed. */
export class NotApplied extends ActionError {
  override name = 'NotApplied'
  constructor(
    message: string,
    readonly busy: boolean
  ) {
    super(message)
  }
}

/** The outcome of one deploy call: accepted, refused because a deploy is in progress, or unknown (it may have been carried out). */
type Attempt = { kind: 'sent' } | { kind: 'busy' | 'unknown'; error: unknown }

async function attempt(ctx: SwitchContext, plan: SwitchPlan): Promise<Attempt> {
  try {
    await ctx.client.requestDeploy(ctx.environmentId, plan.distributionId, ctx.strategy, ctx.configFileIds)
    return { kind: 'sent' }
  } catch (error) {
    if (error instanceof ServiceError && error.status === 409) return { kind: 'busy', error }
    // 5xx, 429, no answer: the platform may have carried it out. Any other refusal was not.
    if (error instanceof ServiceError ? error.status >= 500 || error.status === 429 : isTransient(error) !== false) return { kind: 'unknown', error }
    throw error
  }
}

/** The environment shows our switch: it reports our id (not a redeploy), or is switching after a request of ours that may have landed. */
function showsOurs(look: EnvironmentLook, plan: SwitchPlan, mayHaveLanded: boolean): boolean {
  if (!plan.redeploy) return look.distributionId === plan.distributionId
  return mayHaveLanded && switching(look) === true && look.distributionId === plan.distributionId
}

function code(error: unknown): string {
  return error instanceof ServiceError && error.errorCode ? `HTTP ${error.status} ${error.errorCode}` : describeError(error)
}

export interface RequestHooks {
  /** The environment is busy with a deploy (a 409, or a status in progress): called each time we wait. */
  waiting(look: EnvironmentLook, why: string): void
}

function stayedBusy(ctx: SwitchContext, plan: SwitchPlan, look: EnvironmentLook): NotApplied {
  return new NotApplied(
    `'${ctx.watch.name}' stayed busy with another deploy for the whole deploy-timeout-minutes; it ${describeLook(look)}. ` +
      `${plan.distributionId} was not deployed. Run again once that deploy is done, or raise deploy-timeout-minutes.`,
    true
  )
}

/**
 * Sends the deploy until the platform accepts it or shows it carried it out ('adopted'). After a 409 (a
 * deploy in progress) or an answer that never came, it looks first, waits, and looks again right before
 * any replay: a deploy of ours that landed meanwhile is adopted, never sent twice.
 */
export async function requestSwitch(ctx: SwitchContext, plan: SwitchPlan, deadline: number, hooks: RequestHooks): Promise<'sent' | 'adopted'> {
  const poll = ctx.watch.poll(deadline)
  let mayHaveLanded = false
  for (let unknown = 0; ;) {
    const outcome = await attempt(ctx, plan)
    if (outcome.kind === 'sent') return 'sent'
    mayHaveLanded ||= outcome.kind === 'unknown'
    let look = await ctx.watch.look()
    if (showsOurs(look, plan, mayHaveLanded)) return 'adopted'
    // Not carried out: a failure that is not worth another attempt (a 500, say) fails here, after the look.
    if (outcome.kind === 'unknown' && isTransient(outcome.error) === false) throw outcome.error
    if (outcome.kind === 'busy') {
      hooks.waiting(look, `the platform answered ${code(outcome.error)}: a deploy is in progress on '${ctx.watch.name}', which ${describeLook(look)}`)
    } else {
      if (++unknown >= ctx.maxAttempts) throw outcome.error
      ctx.warn(
        `Deploy attempt ${unknown} got no usable answer (${code(outcome.error)}); '${ctx.watch.name}' ${describeLook(look)}, not ours yet: looking again before sending it again.`
      )
    }
    // Wait, and look again right before a replay; while a status says a deploy is going on, keep waiting.
    do {
      if (!(await poll.next())) throw stayedBusy(ctx, plan, look)
      look = await ctx.watch.look()
      if (showsOurs(look, plan, mayHaveLanded)) return 'adopted'
    } while (switching(look) === true)
    if (look.distributionId !== plan.distributionId) plan.previous = look.distributionId
  }
}

/** Waits while the status field says a deploy is in progress; at once without a status field (a 409 tells then). */
export async function waitWhileBusy(ctx: SwitchContext, deadline: number, hooks: RequestHooks): Promise<EnvironmentLook> {
  const poll = ctx.watch.poll(deadline)
  let look = await ctx.watch.look()
  while (switching(look) === true) {
    hooks.waiting(look, `'${ctx.watch.name}' ${describeLook(look)}: a deploy is in progress`)
    if (!(await poll.next())) {
      throw new NotApplied(`'${ctx.watch.name}' was still busy with a deploy when deploy-timeout-minutes ran out; it ${describeLook(look)}.`, true)
    }
    look = await ctx.watch.look()
  }
  return look
}

export interface FollowHooks {
  /** Evidence that the switch is going on (the previous id still reported, or a status in progress). */
  inProgress(evidence: string): void
}

/**
 * Follows a requested switch until the environment shows it done. Resolves to 'switch' when the switch
 * was seen (the id went from the previous one to ours, or a status from in progress to settled), or to
 * 'not-observed' when ours was reported from the first look on with nothing to tell more (the platform
 * may report the id at request: no proof that it serves). Throws Replaced or NotApplied.
 */
export async function followSwitch(
  ctx: SwitchContext,
  plan: SwitchPlan,
  deadline: number,
  hooks: FollowHooks
): Promise<{ by: 'switch' | 'not-observed'; look: EnvironmentLook; evidence: string }> {
  const poll = ctx.watch.poll(deadline)
  const began = ctx.watch.now()
  let sawPrevious = false
  let sawSwitching = false
  let last = ''
  for (;;) {
    const look = await ctx.watch.look()
    const said = `'${ctx.watch.name}' ${describeLook(look)}`
    if (look.distributionId === plan.distributionId && switching(look) !== true) {
      if (!sawPrevious && !sawSwitching) return { by: 'not-observed', look, evidence: `${said} from the first look on` }
      const before = sawPrevious ? `after reporting ${plan.previous ?? 'no distribution'}` : 'after its status said the deploy was in progress'
      return { by: 'switch', look, evidence: `${said} ${ctx.watch.after(began)}, ${before}` }
    }
    if (look.distributionId === plan.distributionId || look.distributionId === plan.previous) {
      sawPrevious ||= look.distributionId !== plan.distributionId
      sawSwitching ||= switching(look) === true
      if (said !== last) hooks.inProgress(`${said}; waiting for ${plan.distributionId} (${formatDuration(ctx.watch.now() - began)} so far)`)
    } else {
      throw new Replaced(
        `${said}: neither ${plan.distributionId} nor what it reported before (${plan.previous ?? 'none'}). Another deploy replaced this one.`,
        look
      )
    }
    last = said
    if (!(await poll.next())) {
      throw new NotApplied(
        `The switch of '${ctx.watch.name}' to ${plan.distributionId} was not seen within deploy-timeout-minutes (${formatDuration(deadline - began)}): it still ${describeLook(look)}.`,
        false
      )
    }
  }
}
