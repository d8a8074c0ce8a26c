// Asking the platform for one switch of the environment (our release, or a rollback) and following it.
// A request is never replayed blindly: after a lost answer or a 409 the environment is looked at first,
// so exactly one deploy lands; following takes only evidence that fits both platform readings (the new
// id reported when the deploy is requested, or when it is done).
import { ActionError, describeError, ServiceError, systemErrorCode } from '../errors.js'
import { formatDuration } from '../format.js'
import type { CloudClient } from '../cloud/client.js'
import { describeLook, type EnvironmentLook } from './look.js'
import { sameId, switching } from '../cloud/platform-reading.js'
import { mayPass } from '../http/errors.js'
import type { Poll } from '../http/retry.js'
import type { Deadline, EnvironmentWatch } from './observe.js'

/** One switch: to `distributionId`, from what the environment reported before it. */
export interface SwitchPlan {
  readonly distributionId: string
  /** What the environment reported before the request; updated while waiting for someone else's deploy. */
  previous: string | undefined
  /** The environment reports this id already (a forced redeploy): the id cannot show the switch. */
  readonly redeploy: boolean
  /**
   * Decides again before every replay, on the look right before it: a reason not to send (a rollback
   * whose release no longer runs: someone else's deploy is never undone), thrown as Replaced.
   */
  readonly refuse?: ((look: EnvironmentLook) => string | undefined) | undefined
  /**
   * When set, a 409 (another deploy in progress) ends the request instead of a wait: a rollback decided
   * over our settled release knows that deploy is someone else's, which will replace ours. Its reason.
   */
  readonly giveUpWhenBusy?: string | undefined
  /**
   * Decides again before every replay after a wait, on the look right before it: our release's deploy
   * order (another job's deploy may have landed meanwhile) and the release rules (a freeze window may have
   * begun). Throws to refuse; nothing of ours was seen.
   */
  readonly gate?: ((look: EnvironmentLook) => Promise<void>) | undefined
}

export interface SwitchContext {
  readonly client: CloudClient
  readonly watch: EnvironmentWatch
  readonly environmentId: string
  readonly strategy: string
  readonly configFileIds: readonly string[]
  /** Attempts for a request whose outcome is unknown (no answer, 5xx). */
  readonly maxAttempts: number
  /** Each call's limit (request-timeout-seconds); a deploy call also ends with the deadline. */
  readonly requestTimeoutMs: number
  readonly log: (line: string) => void
  readonly warn: (line: string) => void
  /** The run's stop (watchdog, cancel): a call it cuts may still have been carried out. */
  readonly signal?: AbortSignal | undefined
  /**
   * The release rules' last word, right before each deploy call goes out with its token (a freeze window may have
   * begun during a wait, a replay's wait, or a token's renewal); throws RuleRefused, and nothing is sent.
   */
  readonly beforeRequest?: (() => void) | undefined
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

/** The request was not sent, on purpose: the reason says why (a rollback that would undo someone else's deploy). */
export class NotSent extends ActionError {
  override name = 'NotSent'
}

/** Before any call of ours could have landed, the environment settled on this very distribution: another deploy put it there. */
export class AlreadyRuns extends ActionError {
  override name = 'AlreadyRuns'
  constructor(
    environment: string,
    readonly look: EnvironmentLook
  ) {
    super(`'${environment}' ${describeLook(look)}: another deploy put this distribution there while this run waited, so nothing was sent`)
  }
}

/** A request went out, and neither its answer nor any look settled whether the platform carried it out. */
export class Unconfirmed extends ActionError {
  override name = 'Unconfirmed'
}

/**
 * The outcome of one deploy call: accepted, refused because a deploy is in progress, unknown (it may have been
 * carried out), or never sent (it failed before it was handed to the connection: a token that could not be renewed).
 */
type Attempt = { kind: 'sent' } | { kind: 'busy' | 'unknown' | 'unsent'; error: unknown }

/** Time for one deploy call: the request limit, never past the deadline (at least 1 s, so a call can be made at all). */
function callLimit(ctx: SwitchContext, deadline: Deadline): number {
  return Math.max(1_000, Math.min(ctx.requestTimeoutMs, deadline.at - ctx.watch.now()))
}

async function attempt(ctx: SwitchContext, plan: SwitchPlan, deadline: Deadline, hooks: RequestHooks): Promise<Attempt> {
  let dispatched = false
  try {
    // The last call made counts: a 401 answered (not carried out) and replayed with a new token is dispatched anew.
    const onDispatch = (event: 'sent' | 'refused'): void => void (dispatched = event === 'sent')
    await ctx.client.requestDeploy(
      ctx.environmentId,
      plan.distributionId,
      ctx.strategy,
      ctx.configFileIds,
      callLimit(ctx, deadline),
      onDispatch,
      ctx.beforeRequest
    )
    return { kind: 'sent' }
  } catch (error) {
    if (error instanceof ServiceError && error.status === 409) return { kind: 'busy', error }
    // Any other refusal (4xx) was not carried out.
    if (error instanceof ServiceError && error.status < 500) throw error
    // Never handed to the connection: it was not sent, whatever the error says (the run's stop, a token renewal that failed).
    if (!dispatched || neverReached(error)) {
      if (ctx.signal?.aborted || !mayPass(error)) throw error
      return { kind: 'unsent', error }
    }
    // A 5xx, no answer, or the run stopped mid-call: it may have been carried out.
    hooks.unconfirmed(`the deploy call of ${plan.distributionId} got no usable answer (${code(error)}): it may have been carried out`)
    if (ctx.signal?.aborted) throw error
    return { kind: 'unknown', error }
  }
}

/**
 * A connection failure that happens before a request is written: it never reached the platform. The code is read from
 * the error itself, not through networkFailure: ENOTFOUND is no failure worth another attempt, yet it never reached the
 * platform. The list stays inside the function: a module-level constant's mutants cannot be told apart per test.
 */
function neverReached(error: unknown): boolean {
  const failure = systemErrorCode(error)
  return failure !== undefined && ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT'].includes(failure)
}

/**
 * The environment shows our deploy was carried out: it reports our id. Never for a redeploy: in the reading
 * that reports the id when done, someone else's deploy in progress shows our id (what ran before) switching
 * too, so after a lost answer a redeploy stays unconfirmed.
 */
function showsOurs(look: EnvironmentLook, plan: SwitchPlan): boolean {
  return !plan.redeploy && sameId(look.distributionId, plan.distributionId)
}

function code(error: unknown): string {
  return error instanceof ServiceError && error.errorCode ? `HTTP ${error.status} ${error.errorCode}` : describeError(error)
}

export interface RequestHooks {
  /** The environment is busy with a deploy (a 409, or a status in progress): called (and awaited) each time we wait. */
  waiting(look: EnvironmentLook, why: string): void | Promise<void>
  /** A request went out whose outcome is unknown (a 5xx, no answer, the run stopped mid-call). */
  unconfirmed(evidence: string): void
}

function stayedBusy(ctx: SwitchContext, plan: SwitchPlan, look: EnvironmentLook | undefined, last: Attempt): NotApplied | Error {
  // Every call failed before it was sent (the token could not be renewed): that failure is the cause.
  if (last.kind === 'unsent') return last.error instanceof Error ? last.error : new Error(String(last.error))
  return new NotApplied(
    `'${ctx.watch.name}' stayed busy with another deploy for the whole deploy-timeout-minutes; it ${said(look)}. ` +
      `${plan.distributionId} was not deployed. Run again once that deploy is done, or raise deploy-timeout-minutes.`,
    true
  )
}

function unknownOutcome(ctx: SwitchContext, plan: SwitchPlan, look: EnvironmentLook | undefined, why: string): Unconfirmed {
  return new Unconfirmed(
    `The deploy of ${plan.distributionId} to '${ctx.watch.name}' may have been carried out: ${why}, and '${ctx.watch.name}' ${said(look)}, ` +
      `which does not tell. It was not sent again, so it is never deployed twice. Look at the environment in the console before running again.`
  )
}

function said(look: EnvironmentLook | undefined): string {
  return look === undefined ? 'could not be looked at' : describeLook(look)
}

/**
 * Sends the deploy until the platform accepts it or shows it carried it out ('adopted'). After a 409 (a
 * deploy in progress) it looks, waits while a deploy is going on, and sends again. A call that may have
 * reached the platform (no answer, a 5xx, a connection lost mid-call) is never sent again: it is followed
 * until the environment shows ours (adopted) or the time is up (Unconfirmed), since no look can show it was
 * not carried out. Only a call that never reached the platform (not handed to the connection, a refused
 * connection) is sent again. The environment showing our distribution adopts it only after a call of ours
 * that may have landed: after a refusal (409) it is someone else's deploy of it, never taken as ours.
 */
export async function requestSwitch(ctx: SwitchContext, plan: SwitchPlan, deadline: Deadline, hooks: RequestHooks): Promise<'sent' | 'adopted'> {
  const poll = ctx.watch.poll(deadline)
  /** Calls that never reached the platform (not handed to the connection, or refused before it was written). */
  let unsent = 0
  for (;;) {
    const outcome = await attempt(ctx, plan, deadline, hooks)
    if (outcome.kind === 'sent') return 'sent'
    if (outcome.kind === 'unsent') {
      if (++unsent >= ctx.maxAttempts) throw outcome.error
      ctx.warn(`The deploy call of ${plan.distributionId} could not be sent (${code(outcome.error)}); trying again.`)
    }
    let look = await ctx.watch.lookAgain()
    // A call that may have reached the platform is never sent again: no look can tell that it was not carried out
    // (ours may have landed and been replaced by a deploy of what ran before, between two looks); it is followed.
    // A replay below only ever follows a 409 or a call that was never sent.
    if (outcome.kind === 'unknown') return await awaitOurs(ctx, plan, poll, outcome.error, look)
    if (outcome.kind === 'busy' && plan.giveUpWhenBusy !== undefined) {
      throw new NotSent(`the platform answered ${code(outcome.error)}: ${plan.giveUpWhenBusy}; '${ctx.watch.name}' ${said(look)}`)
    }
    if (outcome.kind === 'busy') {
      await hooks.waiting(
        look ?? noLook(ctx),
        `the platform answered ${code(outcome.error)}: a deploy is in progress on '${ctx.watch.name}', which ${said(look)}`
      )
    }
    // Wait, and look again right before a replay; while a deploy is going on, keep waiting.
    do {
      if (!(await poll.next())) throw stayedBusy(ctx, plan, look, outcome)
      look = await ctx.watch.lookAgain()
    } while (look === undefined || busy(look, plan))
    const refusal = plan.refuse?.(look)
    if (refusal !== undefined) throw new Replaced(refusal, look)
    // Settled on ours with nothing of ours possibly landed: another deploy put it there while we waited
    // (showsOurs is never true for a redeploy).
    if (plan.refuse === undefined && showsOurs(look, plan)) throw new AlreadyRuns(ctx.watch.name, look)
    await gate(ctx, plan, look, deadline)
    if (!sameId(look.distributionId, plan.distributionId)) plan.previous = look.distributionId
  }
}

/** The deploy order's check before a replay; the time it took with GitHub is not the platform's, so the deadline moves by it. */
async function gate(ctx: SwitchContext, plan: SwitchPlan, look: EnvironmentLook, deadline: Deadline): Promise<void> {
  if (plan.gate === undefined) return
  const before = ctx.watch.now()
  try {
    await plan.gate(look)
  } finally {
    deadline.at += ctx.watch.now() - before
  }
}

/**
 * The environment shows a deploy going on: a status in progress, or no id at all where it reported one
 * before (a platform may show none mid-switch). A replay waits while it does: the deploy may be ours.
 */
function busy(look: EnvironmentLook, plan: SwitchPlan): boolean {
  return switching(look.status) === true || (look.distributionId === undefined && plan.previous !== undefined)
}

/** A look that could not be made, for the waiting hook. */
function noLook(ctx: SwitchContext): EnvironmentLook {
  return { distributionId: undefined, status: undefined, at: ctx.watch.now() }
}

/**
 * After a call that may have been carried out and must not be sent again: looks until the environment
 * shows ours ('adopted'). A status that says no deploy is going on, while it reports something else and
 * nothing was seen in progress since the call, shows it was not carried out (the call's own error is
 * thrown). Settling on something else after a deploy was seen in progress, or the deadline, leaves it
 * unknown (Unconfirmed): ours may have landed and been replaced between two looks.
 */
async function awaitOurs(ctx: SwitchContext, plan: SwitchPlan, poll: Poll, error: unknown, first: EnvironmentLook | undefined): Promise<'adopted'> {
  const why = `the deploy call got ${code(error)}`
  let sawBusy = false
  let look = first
  for (;;) {
    if (look !== undefined && showsOurs(look, plan)) return 'adopted'
    if (look !== undefined && busy(look, plan)) sawBusy = true
    else if (look !== undefined) {
      const settled = switching(look.status) === false
      const third = look.distributionId !== undefined && !sameId(look.distributionId, plan.previous)
      // A redeploy that ended looks the same as one never made; another id, or a deploy seen ending, may have followed ours.
      if (plan.redeploy) throw unknownOutcome(ctx, plan, look, `${why}, and a redeploy that ended looks the same as one never made`)
      if (third || (settled && sawBusy)) throw unknownOutcome(ctx, plan, look, `${why}, and another deploy may have followed it`)
      // Most likely not carried out; but a deploy of ours and then one of what ran before, both between two looks,
      // would look the same: said so, and never sent again.
      if (settled) {
        throw new Unconfirmed(
          `The deploy call of ${plan.distributionId} got no usable answer (${describeError(error)}), and '${ctx.watch.name}' ${describeLook(look)}, with no deploy going on and none seen since the call: ` +
            `it was most likely not carried out. It was not sent again (a call that may have reached the platform never is). Look at the environment in the console, then run again.`
        )
      }
      // No status: what ran before, or nothing, is all a deploy in progress shows. Look again.
    }
    if (!(await poll.next())) throw unknownOutcome(ctx, plan, look, why)
    look = await ctx.watch.lookAgain()
  }
}

/** Waits while the status field says a deploy is in progress; at once without a status field (a 409 tells then). */
export async function waitWhileBusy(ctx: SwitchContext, deadline: Deadline, hooks: Pick<RequestHooks, 'waiting'>): Promise<EnvironmentLook> {
  const poll = ctx.watch.poll(deadline)
  let look = await ctx.watch.lookAgain()
  while (look === undefined || switching(look.status) === true) {
    if (look !== undefined) await hooks.waiting(look, `'${ctx.watch.name}' ${describeLook(look)}: a deploy is in progress`)
    if (!(await poll.next())) {
      throw new NotApplied(`'${ctx.watch.name}' was still busy with a deploy when deploy-timeout-minutes ran out; it ${said(look)}.`, true)
    }
    look = await ctx.watch.lookAgain()
  }
  return look
}

export interface FollowHooks {
  /** Evidence that the switch is going on (the previous id still reported, or a status in progress). */
  inProgress(evidence: string): void
}

/** What following has seen so far. */
interface Seen {
  /** The id it reported before our request (never "no distribution": see none). */
  previous: boolean
  /** A status in progress. */
  switching: boolean
  /**
   * No id at all, with no status to tell more. It shows no switch: a platform that reports the id when a deploy is
   * requested runs nothing after a restart, and then shows another job's deploy of our distribution at once.
   */
  none: boolean
  /** Looks in a row whose status said no deploy is going on while ours was not there: the platform forgot it, or never switched. */
  settledWithout: number
}

/** Looks in a row, a pause apart, that say a deploy is over without ours before following ends (one could be a moment before the platform shows its deploy). */
const SETTLED_WITHOUT_OURS = 2

/**
 * Follows a requested switch until the environment shows it done. Resolves to 'switch' when the switch
 * was seen (the id went from the previous one to ours, or a status from in progress to settled), or to
 * 'not-observed' when ours was reported from the first look on, or after no id at all, with nothing to tell
 * more (the platform may report the id at request: no proof that it serves). Throws Replaced (a third id), or NotApplied.
 * A look that fails, or an environment that reports no id, shows nothing either way: it looks again.
 */
export async function followSwitch(
  ctx: SwitchContext,
  plan: SwitchPlan,
  deadline: Deadline,
  hooks: FollowHooks
): Promise<{ by: 'switch' | 'not-observed'; look: EnvironmentLook; evidence: string }> {
  const poll = ctx.watch.poll(deadline)
  const began = ctx.watch.now()
  const seen: Seen = { previous: false, switching: false, none: false, settledWithout: 0 }
  // Stryker disable next-line StringLiteral: what it is compared with always begins with a quote, so any other start value differs too
  let last = ''
  let look: EnvironmentLook | undefined
  for (;;) {
    look = await ctx.watch.lookAgain()
    if (look !== undefined) {
      const done = settledOn(ctx, plan, look, seen, began)
      if (done !== undefined) return done
      const what = `'${ctx.watch.name}' ${describeLook(look)}`
      if (what !== last) hooks.inProgress(`${what}; waiting for ${plan.distributionId} (${formatDuration(ctx.watch.now() - began)} so far)`)
      last = what
    }
    if (!(await poll.next())) {
      throw new NotApplied(
        `The switch of '${ctx.watch.name}' to ${plan.distributionId} was not seen within deploy-timeout-minutes (${formatDuration(Math.max(0, deadline.at - began))}): it ${look === undefined ? 'could not be looked at' : `still ${describeLook(look)}`}.`,
        false
      )
    }
  }
}

/** One look while following: the switch done (with how it was seen), in progress (undefined), or replaced (throws). */
function settledOn(
  ctx: SwitchContext,
  plan: SwitchPlan,
  look: EnvironmentLook,
  seen: Seen,
  began: number
): { by: 'switch' | 'not-observed'; look: EnvironmentLook; evidence: string } | undefined {
  const what = `'${ctx.watch.name}' ${describeLook(look)}`
  const ours = sameId(look.distributionId, plan.distributionId)
  if (ours && switching(look.status) !== true) {
    if (!seen.previous && !seen.switching) {
      const since = seen.none ? `${ctx.watch.after(began)}, after reporting no distribution (what a restarted platform reports too)` : 'from the first look on'
      return { by: 'not-observed', look, evidence: `${what} ${since}` }
    }
    const before = seen.previous ? `after reporting ${plan.previous}` : 'after its status said the deploy was in progress'
    return { by: 'switch', look, evidence: `${what} ${ctx.watch.after(began)}, ${before}` }
  }
  const absent = look.distributionId === undefined
  // No id is never "what ran before": it shows no switch either way (see Seen.none).
  const wasBefore = !absent && sameId(look.distributionId, plan.previous)
  if (!absent && !ours && !wasBefore) {
    throw new Replaced(
      `${what}: neither ${plan.distributionId} nor what it reported before (${plan.previous ?? 'none'}). Another deploy replaced this one.`,
      look
    )
  }
  // A status that says no deploy is going on, without ours: the platform ran nothing (it forgot the deploy: a restart, the
  // distribution gone), or went back after a switch was seen. Twice in a row, it ends following; waiting cannot help.
  const settled = switching(look.status) === false && (absent || (wasBefore && seen.switching))
  seen.settledWithout = settled ? seen.settledWithout + 1 : 0
  if (seen.settledWithout >= SETTLED_WITHOUT_OURS) {
    const why = absent
      ? `it runs nothing and no deploy is going on: the platform no longer has this deploy (it may have restarted, or the distribution was deleted)`
      : `its deploy ended without switching to ${plan.distributionId}`
    throw new NotApplied(`'${ctx.watch.name}' ${describeLook(look)}: ${why}. Look at the environment in the console, then run again.`, false)
  }
  // Ours while switching, what ran before, or no id at all (some platforms may show none mid-switch): in progress.
  seen.previous ||= wasBefore && !ours
  seen.switching ||= switching(look.status) === true
  seen.none ||= absent
  return undefined
}
