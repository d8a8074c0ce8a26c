// What the step says about the environment when it ends, derived from the release's states and the
// last look alone: what was requested, what was rolled back, what the environment runs now. Never a
// claim that was not observed.
import { formatDuration } from '../format.js'
import { describeLook } from './look.js'
import { mayStillSwitch, reached, type ReleaseRecord } from './release-state.js'
import type { DeployResult } from './result.js'

/** "'production' reports distribution X (status: running) at the end of the run", or why it could not be looked at. */
export function nowRuns(result: DeployResult): string | undefined {
  const look = result.finalLook
  const env = result.environmentName
  if (look === undefined || env === undefined) return undefined
  if ('error' in look) return `What '${env}' runs now could not be looked at (${look.error}): check it in the console.`
  return `At the end of the run, '${env}' ${describeLook(look)}.`
}

/** When a state was entered, after the deploy request. */
function when(release: ReleaseRecord, at: number): string {
  const requested = reached(release, 'requested') ?? release.transitions[0]
  return requested === undefined ? '' : ` (seen ${formatDuration(at - requested.at)} after the deploy request)`
}

/** What happened to the rollback, in one sentence; undefined when none was asked for. */
function rollbackText(release: ReleaseRecord, rollbackOn: boolean, searchRollsBack: boolean): string {
  const env = `'${release.environment}'`
  const failure = release.failure
  if (failure === undefined) return ''
  // Refused before its deploy call (busy all along, an older commit or a freeze after a wait): nothing of ours to stay or roll back.
  if (failure.kind === 'busy' || failure.kind === 'older' || failure.kind === 'rule') return `Nothing of this run was deployed to ${env}.`
  if (failure.kind === 'unconfirmed' && release.rollbackTo === undefined && release.rollbackNotSent === undefined) {
    return rollbackOn ? `No rollback was sent: ${env} did not show this run's release, and a rollback is sent only over it.` : ''
  }
  if (failure.kind === 'search' && rollbackOn && !searchRollsBack) {
    return `The search service is a separate system, so the release was not rolled back (set rollback-on-search: true to roll back on a failing search check).`
  }
  if (!rollbackOn) {
    const stays = failure.kind === 'not-applied' ? `The deploy of ${release.distributionId} may still land` : `${release.distributionId} stays deployed`
    // rollback: true alone never rolls back on a failing search check: the advice names what would have.
    const set =
      failure.kind === 'search'
        ? 'set rollback: true and rollback-on-search: true to deploy the previous distribution back when the search check fails'
        : 'set rollback: true to deploy the previous distribution back when a check fails'
    return `${stays}: rollback is off (${set}).`
  }
  const to = release.rollbackTo
  if (to === undefined) {
    return `Cannot roll back: ${env} reported no other distribution before this deploy${release.previous === release.distributionId ? ' than this one' : ''}, so there is nothing to go back to.`
  }
  const healthy = reached(release, 'rollback-healthy')
  const applied = reached(release, 'rollback-applied')
  const failed = reached(release, 'rollback-failed')
  const kept = `${release.distributionId} stays on the stack for inspection.`
  if (healthy && applied) return `Rolled back: ${env} runs the previous distribution ${to} again${when(release, applied.at)}, and the site answers. ${kept}`
  if (applied && failed)
    return `Rolled back: ${env} reports the previous distribution ${to} again${when(release, applied.at)}, but its site does not answer either: ${failed.evidence}`
  if (release.rollbackUnconfirmed !== undefined)
    return `The rollback to ${to} may have been carried out: ${release.rollbackUnconfirmed}; it was not seen applied.`
  if (failed) return `The rollback to ${to} failed: ${failed.evidence}`
  if (applied)
    return `Rolled back: ${env} reports the previous distribution ${to} again${when(release, applied.at)}; the site was not checked (no health-url). ${kept}`
  if (release.rollbackNotSeen !== undefined) return `A rollback to ${to} was requested; ${release.rollbackNotSeen}.`
  if (reached(release, 'rollback-requested')) return `A rollback to ${to} was requested, but it was not seen applied.`
  if (release.rollbackRefused !== undefined) return `The rollback to ${to} was not carried out: ${release.rollbackRefused}.`
  if (release.rollbackNotSent !== undefined) return `No rollback was sent: ${release.rollbackNotSent}.`
  return `No rollback was sent to ${to}: the run stopped before it could look at ${env}.`
}

/** The step's failure message when the release did not pass: the cause, the rollback, what runs now. */
export function releaseFailure(result: DeployResult, cause: string, rollbackOn: boolean, searchRollsBack: boolean): string {
  const release = result.release
  const parts = [cause.trim()]
  if (release?.state === 'replaced') {
    const replaced = reached(release, 'replaced')
    if (replaced && !cause.includes(replaced.evidence)) parts.push(`Then another deploy replaced this one: ${replaced.evidence}`)
    parts.push(
      `This run never rolls back another deploy, so nothing was rolled back. If both deploys were yours, give the jobs that deploy to '${release.environment}' one concurrency group so they run one at a time.`
    )
  } else if (release !== undefined) {
    const text = rollbackText(release, rollbackOn, searchRollsBack)
    if (text) parts.push(text)
  }
  const now = nowRuns(result)
  if (now) parts.push(now)
  return parts.join(' ')
}

/** For the watchdog: what was requested and how far it came, and what runs now. */
export function whereItStands(result: DeployResult | undefined): string {
  const release = result?.release
  if (result === undefined || release === undefined) return ''
  const parts: string[] = []
  if (mayStillSwitch(release))
    parts.push(
      `The deploy of ${release.distributionId} to '${release.environment}' was requested (last state: ${release.state}) and not seen applied: the platform may still switch '${release.environment}' to it after this step ended.`
    )
  else if (reached(release, 'requested'))
    parts.push(`The deploy of ${release.distributionId} to '${release.environment}' was requested (last state: ${release.state}).`)
  else if (reached(release, 'unconfirmed'))
    parts.push(`A deploy of ${release.distributionId} to '${release.environment}' was sent, but no answer or look confirmed it: it may have been carried out.`)
  else parts.push(`No deploy of ${release.distributionId} to '${release.environment}' was sent.`)
  if (reached(release, 'rollback-requested'))
    parts.push(
      `A rollback to ${release.rollbackTo ?? '?'} was requested${reached(release, 'rollback-applied') ? ' and applied' : release.rollbackNotSeen !== undefined ? `; ${release.rollbackNotSeen}` : ''}.`
    )
  else if (release.rollbackTo !== undefined) parts.push(`A rollback to ${release.rollbackTo} was under way; the platform had not confirmed its request.`)
  const now = nowRuns(result)
  if (now) parts.push(now)
  return ` ${parts.join(' ')}`
}
