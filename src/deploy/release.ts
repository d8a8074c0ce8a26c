// The release's life: wait for a busy environment, request the deploy (reconciled, never replayed
// blindly), follow it, check the site, run the caller's verification, and roll back only what is ours.
// Every step enters a state of the ReleaseRecord with its evidence (./release-state.ts).
import { withinPhase } from '../http/phase.js'
import { ActionError } from '../errors.js'
import { HealthCheckFailed } from '../health.js'
import { OrderRefused, type DeployOrder } from './order.js'
import { RuleRefused } from '../rules/gate.js'
import type { HealthCheck } from '../inputs/index.js'
import type { PhaseRunner } from '../phases.js'
import { describeLook, type EnvironmentLook } from './look.js'
import { sameId, switching } from '../cloud/platform-reading.js'
import type { Deadline } from './observe.js'
import { enter, reached, type FailureKind, type ReleaseRecord, type ReleaseState } from './release-state.js'
import {
  AlreadyRuns,
  followSwitch,
  NotApplied,
  NotSent,
  Replaced,
  requestSwitch,
  Unconfirmed,
  waitWhileBusy,
  type RequestHooks,
  type SwitchContext,
  type SwitchPlan
} from './switch.js'

/** Checks that run after the deploy (the search check); resolves to why it failed, or undefined when it passed. */
export type Verification = () => Promise<string | undefined>

export interface ReleaseContext extends SwitchContext {
  readonly phase: PhaseRunner
  readonly followDeploy: boolean
  readonly deployTimeoutMs: number
  readonly health: HealthCheck | undefined
  /** Runs the health check with the run's settings; throws HealthCheckFailed. */
  readonly checkSite: (health: HealthCheck) => Promise<unknown>
  /** The deploy order (./order.ts): checked again after every wait, and who holds a busy environment. Not for rollbacks. */
  readonly order?: Pick<DeployOrder, 'recheck' | 'holder'> | undefined
}

function fail(release: ReleaseRecord, kind: FailureKind, message: string): ActionError {
  release.failure = { kind, message }
  enter(release, 'failed', message)
  return new ActionError(message)
}

function replaced(release: ReleaseRecord, error: Replaced): Replaced {
  enter(release, 'replaced', error.message, error.look.at)
  return error
}

/** Notes each wait for a busy environment (the first one as a state, the rest in the log), and a request whose outcome is unknown. */
function requestHooks(ctx: ReleaseContext, release: ReleaseRecord): RequestHooks {
  return {
    waiting: async (look, why) => {
      if (release.state !== 'planned') return ctx.log(`${why}; waiting for it to finish before deploying ${release.distributionId}.`)
      // The first wait names who holds the environment, when anything tells.
      const holder = await ctx.order?.holder(look)
      enter(release, 'waiting', `${why}; waiting for it to finish before deploying ${release.distributionId}.${holder ? ` ${holder}.` : ''}`)
    },
    unconfirmed: (evidence) => {
      // Stryker disable next-line ConditionalExpression: called at most once per request (a call that may have landed is never sent again), while planned or waiting
      if (release.state === 'planned' || release.state === 'waiting') enter(release, 'unconfirmed', evidence)
      else ctx.log(evidence)
    }
  }
}

/** Waits for a busy environment, then requests the deploy. Throws when it stayed busy (nothing of ours was sent). */
async function request(ctx: ReleaseContext, release: ReleaseRecord, plan: SwitchPlan, deadline: Deadline): Promise<ActionError | undefined> {
  const hooks = requestHooks(ctx, release)
  return ctx.phase(`Deploy to '${release.environment}'`, async () => {
    try {
      const look = await waitWhileBusy(ctx, deadline, hooks)
      // The order's check with GitHub is not the platform's time: the deadline moves by what it took.
      const before = ctx.watch.now()
      try {
        await ctx.order?.recheck(look)
      } finally {
        deadline.at += ctx.watch.now() - before
      }
      // Another deploy put this very distribution there while we waited: nothing to send.
      if (!release.redeploy && sameId(look.distributionId, release.distributionId)) throw new AlreadyRuns(release.environment, look)
      if (!release.redeploy) plan.previous = look.distributionId
      const how = await requestSwitch(ctx, plan, deadline, hooks)
      release.previous = plan.previous
      release.adopted = how === 'adopted'
      enter(
        release,
        'requested',
        how === 'sent'
          ? `the platform accepted the deploy of ${release.distributionId} (strategy ${ctx.strategy})`
          : `the deploy call's answer was lost, but '${release.environment}' showed it had been carried out: adopted, not sent again`
      )
      return undefined
    } catch (error) {
      if (error instanceof AlreadyRuns) {
        enter(release, 'already-running', error.message, error.look.at)
        return undefined
      }
      if (error instanceof OrderRefused) throw fail(release, 'older', error.message)
      if (error instanceof RuleRefused) throw fail(release, 'rule', error.message)
      if (error instanceof NotApplied) throw fail(release, 'busy', error.message)
      // It may still land: a rollback (when asked) waits for it within its own budget.
      if (error instanceof Unconfirmed) {
        release.previous = plan.previous
        return fail(release, 'unconfirmed', error.message)
      }
      if (error instanceof Replaced) throw replaced(release, error)
      throw error
    }
  })
}

/** Follows the switch; resolves to a failure when it was not seen in time. */
async function follow(ctx: ReleaseContext, release: ReleaseRecord, plan: SwitchPlan, deadline: Deadline): Promise<ActionError | undefined> {
  const inProgress = (evidence: string): void => (release.state === 'requested' ? enter(release, 'in-progress', evidence) : ctx.log(evidence))
  try {
    const seen = await ctx.phase(`Wait until '${release.environment}' runs ${release.distributionId}`, () => followSwitch(ctx, plan, deadline, { inProgress }))
    release.appliedBy = seen.by
    if (seen.by === 'switch') enter(release, 'applied', seen.evidence)
    else
      enter(
        release,
        'reported',
        `${seen.evidence}: the platform may report a new id as soon as a deploy is requested, so this does not show that the new release serves`
      )
    return undefined
  } catch (error) {
    if (error instanceof NotApplied) return fail(release, 'not-applied', error.message)
    if (error instanceof Replaced) throw replaced(release, error)
    throw error
  }
}

/** The site check: with health-expect it shows the new release serves; without, only that the site answers. */
async function checkSite(ctx: ReleaseContext, release: ReleaseRecord, health: HealthCheck): Promise<ActionError | undefined> {
  try {
    await ctx.phase(`Health check ${health.shown}`, () => ctx.checkSite(health))
  } catch (error) {
    if (error instanceof HealthCheckFailed) return fail(release, 'unhealthy', error.message)
    throw error
  }
  if (health.expect === undefined) {
    release.site = 'answers'
    enter(release, 'healthy', `${health.shown} answered 2xx; without health-expect this cannot tell the new release from the old one`)
    return undefined
  }
  release.site = 'marker'
  // A redeploy's marker is the old release's too: it shows what serves, not that the restart happened.
  if (release.appliedBy !== 'switch' && !release.redeploy) {
    release.appliedBy = 'marker'
    enter(release, 'applied', `${health.shown} answers with '${health.expect}', the new release's marker`)
  }
  enter(release, 'healthy', `${health.shown} answered 2xx with '${health.expect}'`)
  return undefined
}

/**
 * Deploys our release and checks it. Resolves to the failure a rollback may answer (a call that may have been
 * carried out, not applied in time, unhealthy, search), or undefined when every check passed and a look after
 * them showed ours still running. Throws when another deploy replaced ours or the environment stayed busy:
 * nothing of ours to roll back then.
 */
export async function deployRelease(ctx: ReleaseContext, release: ReleaseRecord, verify: Verification | undefined): Promise<ActionError | undefined> {
  const deadline: Deadline = { at: ctx.watch.now() + ctx.deployTimeoutMs }
  const order = ctx.order
  const plan: SwitchPlan = {
    distributionId: release.distributionId,
    previous: release.previous,
    redeploy: release.redeploy,
    // Before a replay after a wait (a 409), as before the first request: the order again. The rules' last word is
    // the client's, right before each deploy call goes out (ctx.beforeRequest, in requestSwitch's attempt).
    gate: order ? (look) => order.recheck(look) : undefined
  }
  const unconfirmed = await withinPhase(deadline, () => request(ctx, release, plan, deadline))
  if (unconfirmed) return unconfirmed
  // Nothing of ours was sent: the caller checks the site and search as for any run that deploys nothing.
  if (release.state === 'already-running') return undefined
  const notApplied = ctx.followDeploy ? await withinPhase(deadline, () => follow(ctx, release, plan, deadline)) : undefined
  if (notApplied) return notApplied
  const unhealthy = ctx.health ? await checkSite(ctx, release, ctx.health) : undefined
  if (unhealthy) return unhealthy
  const why = verify ? await verify() : undefined
  if (why !== undefined) return fail(release, 'search', why)
  if (release.appliedBy === 'switch' || release.appliedBy === 'marker') return confirm(ctx, release, verify !== undefined)
  return undefined
}

/**
 * The checks passed; a look after them decides whether that says anything of ours: still ours, settled, is
 * verified; another distribution means another deploy replaced ours meanwhile (the checks' answers may have
 * been its); a look that cannot be made leaves the release unverified, and says so.
 */
async function confirm(ctx: ReleaseContext, release: ReleaseRecord, searched: boolean): Promise<ActionError | undefined> {
  const deadline: Deadline = { at: ctx.watch.now() + CONFIRM_MS }
  const look = await withinPhase(deadline, async () => {
    const poll = ctx.watch.poll(deadline)
    for (;;) {
      const seen = await ctx.watch.lookAgain()
      if (seen !== undefined || !(await poll.next())) return seen
    }
  })
  if (look === undefined) {
    release.unconfirmedAfterChecks = `the checks passed, but '${release.environment}' could not be looked at after them, so it was not seen still running ${release.distributionId}`
    ctx.log(`Not verified: ${release.unconfirmedAfterChecks}.`)
    return undefined
  }
  if (sameId(look.distributionId, release.distributionId) && switching(look.status) !== true) {
    enter(release, 'verified', `${verifiedBy(release, searched)}; '${release.environment}' ${describeLook(look)} after the checks`)
    return undefined
  }
  if (sameId(look.distributionId, release.distributionId)) {
    release.unconfirmedAfterChecks = `the checks passed, but '${release.environment}' ${describeLook(look)} after them: ours, switching again, not seen settled`
    ctx.log(`Not verified: ${release.unconfirmedAfterChecks}.`)
    return undefined
  }
  // Nothing runs now (a platform that restarted, say): ours does not serve, and no other deploy is known.
  if (look.distributionId === undefined) {
    return fail(
      release,
      'not-applied',
      `The checks passed, but then '${release.environment}' ${describeLook(look)}: ${release.distributionId} no longer runs (the platform may have restarted, or the distribution was deleted).`
    )
  }
  throw replaced(
    release,
    new Replaced(
      `'${release.environment}' ${describeLook(look)} after the checks passed: not ${release.distributionId} settled, so another deploy replaced it meanwhile, and the checks may have answered for that one.`,
      look
    )
  )
}

/** How long the look after the checks may take (it is tried again after a failed look). */
const CONFIRM_MS = 30_000

function verifiedBy(release: ReleaseRecord, searched: boolean): string {
  const applied = release.appliedBy === 'marker' ? 'the site answers with the new release marker' : 'the platform reported the switch'
  const site = release.site === 'marker' ? ', the site answers with the marker' : release.site === 'answers' ? ', the site answers' : ''
  return `${applied}${release.appliedBy === 'marker' ? '' : site}${searched ? ', the search check passed' : ''}`
}

/**
 * Deploys the previous distribution back, only while the environment still runs (or switches to) ours:
 * a deploy still in progress is waited for first, another deploy that replaced ours is never undone. When
 * ours may still land (its call got no usable answer, or its switch was not seen in time), the rollback waits
 * for it within its own budget and rolls it back once it lands. Records each state; throws Replaced, or the
 * rollback's own failure. The release rules' check before a deploy call is not made for it.
 */
export async function rollBack(releaseContext: ReleaseContext, release: ReleaseRecord): Promise<void> {
  // No release rule holds a rollback: it undoes this run's own release (a freeze exists to keep production stable).
  const ctx: ReleaseContext = { ...releaseContext, beforeRequest: undefined }
  const to = release.previous
  if (to === undefined || sameId(to, release.distributionId)) return
  release.rollbackTo = to
  await ctx.phase(`Roll back '${release.environment}' to ${to}`, async () => {
    const waiting = (_l: EnvironmentLook, why: string): void => ctx.log(`${why}; waiting for it to finish before rolling back.`)
    // Whether ours may still land: its deploy call got no usable answer, or its switch was not seen in time.
    const mayLand = release.failure?.kind === 'unconfirmed' || release.failure?.kind === 'not-applied'
    const look = await lookBeforeRollback(ctx, release, mayLand, waiting)
    if (nothingToUndo(ctx, release, to, look, mayLand)) return
    await switchBack(ctx, release, to, look, waiting)
  })
}

/** The look a rollback decides on: once ours landed (or its time ran out), or once a deploy in progress finished. */
async function lookBeforeRollback(ctx: ReleaseContext, release: ReleaseRecord, mayLand: boolean, waiting: RequestHooks['waiting']): Promise<EnvironmentLook> {
  // The deploy in progress gets deploy-timeout-minutes of its own (the watchdog's budget counts it).
  const inProgress: Deadline = { at: ctx.watch.now() + ctx.deployTimeoutMs }
  return withinPhase(inProgress, () => (mayLand ? awaitLanding(ctx, release, inProgress) : waitWhileBusy(ctx, inProgress, { waiting })))
}

/**
 * Whether the environment no longer runs ours, so there is nothing this run may undo (recorded and logged); throws
 * Replaced when another distribution replaced it.
 */
function nothingToUndo(ctx: ReleaseContext, release: ReleaseRecord, to: string, look: EnvironmentLook, mayLand: boolean): boolean {
  const notOurs = stillOurs(release, to)(look)
  if (notOurs === undefined) return false
  if (another(look, release)) {
    throw replaced(release, new Replaced(notOurs, look))
  }
  // Ours never landed and nothing is in progress, or nothing tells what runs: there is nothing this run may undo.
  const why =
    look.distributionId === undefined
      ? 'it names no distribution'
      : sameId(look.distributionId, release.distributionId)
        ? `${release.distributionId} was still switching when deploy-timeout-minutes ran out; it may still land`
        : mayLand && switching(look.status) !== false
          ? `it still reports the previous distribution, so ${release.distributionId} was not seen running within deploy-timeout-minutes; it may still land`
          : `it still reports the previous distribution, so ${release.distributionId} was not seen running`
  release.rollbackNotSent = `'${release.environment}' ${describeLook(look)}: ${why}, and a rollback is sent only over this run's own release`
  ctx.log(`${release.rollbackNotSent}.`)
  return true
}

/** The rollback's switch to `to`: requested (never over another deploy), followed, and the site checked once it was seen. */
async function switchBack(ctx: ReleaseContext, release: ReleaseRecord, to: string, look: EnvironmentLook, waiting: RequestHooks['waiting']): Promise<void> {
  // The rollback's own switch gets deploy-timeout-minutes of its own, after any wait for a deploy in progress.
  const deadline: Deadline = { at: ctx.watch.now() + ctx.deployTimeoutMs }
  // Ours was seen settled: a deploy in progress now (a 409) is someone else's, and it replaces ours.
  const giveUpWhenBusy = 'another deploy is in progress, which will replace this release; this run never undoes another deploy'
  const plan: SwitchPlan = { distributionId: to, previous: look.distributionId, redeploy: false, refuse: stillOurs(release, to), giveUpWhenBusy }
  const hooks: RequestHooks = { waiting, unconfirmed: (evidence) => (release.rollbackUnconfirmed = evidence) }
  let how: 'sent' | 'adopted'
  try {
    how = await withinPhase(deadline, () => requestSwitch(ctx, plan, deadline, hooks))
  } catch (error) {
    if (!(error instanceof NotSent)) throw error
    release.rollbackRefused = error.message
    ctx.log(`No rollback: ${error.message}.`)
    return
  }
  release.rollbackUnconfirmed = undefined // answered, or seen carried out
  enter(release, 'rollback-requested', `${how === 'sent' ? 'the platform accepted' : 'after a lost answer, the environment showed'} the deploy of ${to}`)
  const seen = await withinPhase(deadline, () => followSwitch(ctx, plan, deadline, { inProgress: ctx.log }))
  // The id alone may be reported at request, before the old release serves again: applied only when the switch was seen.
  if (seen.by !== 'switch') {
    release.rollbackNotSeen = `${seen.evidence}: the platform may report an id as soon as a deploy is requested, so the switch back was not seen`
    ctx.log(`Rollback: ${release.rollbackNotSeen}.`)
    return
  }
  enter(release, 'rollback-applied', seen.evidence)
  if (ctx.health) {
    await ctx.checkSite({ ...ctx.health, expect: undefined })
    enter(release, 'rollback-healthy', `${ctx.health.shown} answered 2xx (the old release's answer; health-expect belongs to the new one)`)
  }
}

/**
 * Ours may still land (a call without a usable answer, a switch not seen in time): looks until the environment
 * shows it settled, another distribution, or (with a status field) no deploy going on; the last look when the
 * time is up. A failed look is no evidence: it looks again.
 */
async function awaitLanding(ctx: ReleaseContext, release: ReleaseRecord, deadline: Deadline): Promise<EnvironmentLook> {
  const poll = ctx.watch.poll(deadline)
  let last: EnvironmentLook | undefined
  for (;;) {
    const look = await ctx.watch.lookAgain()
    if (look !== undefined) {
      const ours = sameId(look.distributionId, release.distributionId)
      const busy = switching(look.status)
      if (ours && busy !== true) return look
      const third = another(look, release)
      // A status that says no deploy is going on: ours is not coming (or another one replaced it).
      if (third || busy === false) return look
      // Said once: the wait can take the whole budget, and the log should tell why the step is quiet.
      if (last === undefined)
        ctx.log(`'${release.environment}' ${describeLook(look)}: ${release.distributionId} may still land; waiting for it before rolling back.`)
      last = look
    }
    if (!(await poll.next())) return last ?? { distributionId: undefined, status: undefined, at: ctx.watch.now() }
  }
}

/**
 * The rule a rollback is sent by, on the look right before every request: the environment must still run
 * our release, settled. Anything else is someone else's deploy, or ours never landed:
 * the reason not to send, or undefined to send. `to`: what the rollback goes back to (what ran before ours).
 */
function stillOurs(release: ReleaseRecord, to: string): (look: EnvironmentLook) => string | undefined {
  return (look) => {
    if (sameId(look.distributionId, release.distributionId) && switching(look.status) !== true) return undefined
    const not = another(look, release) ? `neither ${release.distributionId} nor ${to}` : `not ${release.distributionId} settled`
    return `'${release.environment}' ${describeLook(look)}: ${not}, and a rollback is sent only over this run's own release. This run never undoes another deploy.`
  }
}

/** Another deploy's distribution: neither ours nor what ran before (a look that names none is not one). */
function another(look: EnvironmentLook, release: ReleaseRecord): boolean {
  return look.distributionId !== undefined && !sameId(look.distributionId, release.distributionId) && !sameId(look.distributionId, release.previous)
}

/**
 * Records a rollback that stopped part-way (the phase's error), unless a state already tells it. A rollback the
 * platform accepted and that was then not seen (the environment could not be looked at, or not in time) did not
 * fail: it may land, so it stays requested, with why it was not seen applied.
 */
export function rollbackFailed(release: ReleaseRecord, error: unknown): void {
  // rollbackTo is set before the rollback's first step: without it, none was attempted.
  if (release.rollbackTo === undefined || !ROLLING_BACK.includes(release.state)) return
  const why = error instanceof Error ? error.message : String(error)
  if (release.state === 'rollback-requested') {
    release.rollbackNotSeen ??= `it was not seen applied: ${why}`
    return
  }
  enter(release, 'rollback-failed', why)
}

/** Notes how far a rollback came when the run was stopped (watchdog, cancel) during it; returns the stop to rethrow. */
export function rollbackStopped(release: ReleaseRecord, stop: unknown): unknown {
  const why = `the run was stopped (${stop instanceof Error ? stop.name : 'stop'}) before the switch back was seen`
  if (reached(release, 'rollback-requested')) release.rollbackNotSeen ??= why
  else if (release.rollbackUnconfirmed === undefined) release.rollbackNotSent ??= 'the run was stopped (watchdog or cancel) before a rollback could be sent'
  return stop
}

/** The states a rollback can stop in part-way. */
const ROLLING_BACK: readonly ReleaseState[] = ['failed', 'rollback-requested', 'rollback-applied']
