// The invariants: every claim the step makes (each output, each sentence family of the summary and the
// annotations, the GitHub Deployment it records, the revocation it says it made) read against the
// platform's history, GitHub's record and the world's log, never against the code's own beliefs. "The
// report is the history" (Jepsen's checker: the client's claims against what happened).
import { expect } from '@jest/globals'
import type { Stack } from '../../src/emulator/stack.js'
import type { Deployment } from '../../src/emulator/types.js'
import { DEFAULT_CREATOR } from '../../src/emulator/github/model.js'
import { COMMITS, GITHUB_TOKEN, GONE, github, relation } from './github.js'
import { GITLAB_TOKEN } from './gitlab.js'
import { shown } from './mocks.js'
import { sinkSecrets } from './sinks.js'
import { tracingSecrets } from './tracing.js'
import type { Ending } from './run.js'
import { wire } from './transport.js'
import { ENV, MARKER, QUERY_SECRET, SEARCH_KEY, commitIndexOf, ourStoredId, storedAt, type Deletion, type Schedule, type WorldLog } from './world.js'

/** Who else deploys in the world: the environment's start, other jobs, Mission Control. Anyone else is this run. */
export const OTHERS = new Set(['earlier', 'other-job', 'mission-control', 'someone-else'])

/** How many claims fell in the window no check can close (the deploy call has no compare-and-swap), for the report. */
export const windows = { count: 0 }

export const same = (a: string | null | undefined, b: string | null | undefined): boolean =>
  typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase()

/** A platform timestamp as the runner's clock reads it. */
export function runnerMs(platformIso: string, s: Schedule): number {
  return Date.parse(platformIso) - s.clockOffsetSeconds * 1000
}

/** What one look at the environment reported: its id and status, from an environments answer (a list, or the environment by name). */
export function reported(answer: Record<string, unknown>, environmentId: string | undefined): { id: unknown; status: unknown } {
  const items = Array.isArray(answer.items) ? (answer.items as Array<Record<string, unknown>>) : [answer]
  const env = items.find((e) => e.id === environmentId || e.name === ENV)
  return { id: env?.distributionId, status: env?.status }
}

/** Everything a claim is read against. */
export interface Facts {
  readonly s: Schedule
  readonly stack: Stack
  readonly log: WorldLog
  readonly ending: Ending
  /** Our distribution's id on the stack (given, reused, or stored from this run's upload). */
  readonly ours: string | undefined
  readonly history: readonly Deployment[]
  /** Deployments of our release by this run. */
  readonly release: readonly Deployment[]
  /** Deployments of another distribution by this run: rollbacks. */
  readonly rollbacks: readonly Deployment[]
  /** Our distribution was deployed after our first call: by this run, or by another deploy a lost answer cannot tell from ours. */
  readonly oursLanded: boolean
  /** Deploy calls of ours / of a rollback that reached the platform. */
  readonly sentOurs: number
  readonly sentRollback: number
  /** All the step showed: log lines of the main and the post step, the summaries, outputs, the failure. */
  readonly text: string
  readonly head: string
  readonly failed: string
}

export function factsOf(s: Schedule, stack: Stack, log: WorldLog, ending: Ending): Facts {
  // from-environment: what the other environment's answer named when the run read it (another job may have changed it).
  const read = shown.lines.map((l) => /^Environment '[^']+' runs distribution (\S+)\.$/.exec(l.text)?.[1]).find((id) => id !== undefined)
  if (s.source === 'environment') log.fromEnvironment = read
  const ours = ourStoredId(s, log)
  const history = log.environment?.deployments ?? []
  const release = history.filter((d) => !OTHERS.has(d.by) && same(d.distributionId, ours))
  const rollbacks = history.filter((d) => !OTHERS.has(d.by) && !same(d.distributionId, ours))
  const sentOurs = wire.deploys.filter((d) => same(d.distributionId, ours)).length
  const sentRollback = wire.deploys.filter((d) => !same(d.distributionId, ours)).length
  const text = [...shown.lines.map((l) => l.text), shown.summary, shown.postSummary, JSON.stringify(shown.outputs), shown.failed ?? ''].join('\n')
  const head = /^\*\*(.+)\*\*$/m.exec(shown.summary)?.[1] ?? ''
  // After a call whose answer was lost, the environment showing our distribution is all a run can see: another
  // deploy of the same distribution that had not landed when the look that justified the call was made cannot be told from ours.
  const first = wire.deploys.find((d) => same(d.distributionId, ours))
  const justified = first === undefined ? undefined : wire.looks.filter((l) => l.seq < first.seq).at(-1)
  const adoptable = history.some(
    (d) => same(d.distributionId, ours) && justified !== undefined && (d.appliedAt === null || runnerMs(d.appliedAt, s) >= justified.sentAt)
  )
  const oursLanded = release.length > 0 || adoptable
  return { s, stack, log, ending, ours, history, release, rollbacks, oursLanded, sentOurs, sentRollback, text, head, failed: shown.failed ?? '' }
}

/**
 * The distribution the environment served at runner time `t` (its site), by the platform's history; undefined: none.
 * `answeredSeq`: the sequence number of the call whose answer showed it (a restart after that call in the same millisecond
 * does not undo it).
 */
export function servingAt(f: Facts, t: number, answeredSeq?: number): string | undefined {
  let serving: { id: string; index: number } | undefined
  let at = Number.NEGATIVE_INFINITY
  f.history.forEach((d, index) => {
    if (d.appliedAt === null) return
    const applied = runnerMs(d.appliedAt, f.s)
    if (applied <= t && applied >= at) {
      serving = { id: d.distributionId, index }
      at = applied
    }
  })
  // A restart forgets what was applied before it (by the history's order: a deploy of the same instant may follow it), but
  // not what an answer made before it showed (`answeredSeq`: that call's sequence number; the restart came after it).
  for (const r of f.log.restarts) {
    const afterTheAnswer = answeredSeq !== undefined && r.seq !== undefined && r.seq >= answeredSeq
    if (r.at <= t && !afterTheAnswer && serving !== undefined && serving.index < r.length) serving = undefined
  }
  return serving?.id
}

/**
 * The environment switched back to what ran before our release, after it (by runner time `t`), and this run asked for it.
 * Another deploy of that same distribution landing first cannot be told from our rollback (with a status field or
 * without: it shows the same deploy going on, then the same id settled), so it counts, as for our release.
 */
function switchedBack(f: Facts, t = Number.POSITIVE_INFINITY): boolean {
  // Ours applied: this run's deploy, or another deploy of the same distribution a lost answer could not tell from it.
  const applied =
    f.release.find((d) => d.appliedAt !== null) ?? f.history.find((d) => d.appliedAt !== null && same(d.distributionId, f.ours) && d.by !== 'earlier')
  if (applied?.appliedAt === undefined || applied.appliedAt === null || f.sentRollback === 0) return false
  const after = runnerMs(applied.appliedAt, f.s)
  const back = f.rollbacks[0]?.distributionId ?? f.history.filter((d) => d.appliedAt !== null && runnerMs(d.appliedAt, f.s) < after).at(-1)?.distributionId
  return f.history.some((d) => d.appliedAt !== null && runnerMs(d.appliedAt, f.s) > after && runnerMs(d.appliedAt, f.s) <= t && same(d.distributionId, back))
}

/**
 * The window of the id alone (docs/verified-deploys.md, "The windows the API cannot close"). Without a status field, a
 * switch is seen as the id going from what ran before to the target after our request: the switch, in the reading that
 * reports the id when done. In the reading that reports it at request, two other deploys made after our request, one of
 * what ran before and then one of the target, give the very same answers while the target does not serve yet. No look
 * tells the two apart (only a status field, or for our release the site's health-expect marker), so a claim of the switch
 * there was justified by every answer the run got. True (and counted) when the history shows exactly that by `t`.
 */
function idAloneWindow(f: Facts, target: string | undefined, before: string | undefined, t: number): boolean {
  if (f.s.status || f.s.reading !== 'at-request' || target === undefined || before === undefined) return false
  const requested = (d: Deployment): boolean => runnerMs(d.requestedAt, f.s) <= t
  const ours = f.history.findLastIndex((d) => !OTHERS.has(d.by) && same(d.distributionId, target) && requested(d))
  if (ours < 0) return false
  const others = f.history.slice(ours + 1).filter((d) => OTHERS.has(d.by) && requested(d))
  const first = others.findIndex((d) => same(d.distributionId, before))
  const spoofed = first >= 0 && others.slice(first + 1).some((d) => same(d.distributionId, target))
  if (spoofed) windows.count++
  return spoofed
}

/** What the environment reported at the look right before our first deploy call: what ran before our release. */
function beforeOurCall(f: Facts): string | undefined {
  const call = wire.deploys.find((d) => same(d.distributionId, f.ours))
  const look = call === undefined ? undefined : wire.looks.filter((l) => l.seq < call.seq).at(-1)
  const id = look === undefined ? undefined : reported(look.answer, f.log.environment?.id).id
  return typeof id === 'string' ? id : undefined
}

/** A claim of the switch back, made by runner time `t`: the environment switched back, or the window of the id alone. */
export function rollbackSeenBy(f: Facts, t = Number.POSITIVE_INFINITY): boolean {
  return switchedBack(f, t) || rollbackIdWindow(f, t)
}

/** A claim of our rollback's switch back, made by runner time `t`: the window of the id alone. */
export function rollbackIdWindow(f: Facts, t: number): boolean {
  return idAloneWindow(f, f.rollbacks[0]?.distributionId, f.ours, t)
}

/** A claim of our release's switch, made by runner time `t`: the window of the id alone (the history is read by the caller first). */
export function releaseIdWindow(f: Facts, t: number): boolean {
  return idAloneWindow(f, f.ours, beforeOurCall(f), t)
}

/** Our rollback deployment was applied (by the platform, for this run). */
function ourRollbackApplied(f: Facts): boolean {
  return f.rollbacks.some((d) => d.appliedAt !== null)
}

/**
 * The window the deploy call cannot close: a request of ours that the last look before it justified, on an
 * environment that changed after that look was made. `justified` says what the look must have shown.
 */
function inWindow(f: Facts, distributionId: string, justified: (id: string, switching: boolean) => boolean): boolean {
  const call = wire.deploys.filter((d) => same(d.distributionId, distributionId)).at(-1)
  const look = call === undefined ? undefined : wire.looks.filter((l) => l.seq < call.seq).at(-1)
  if (look === undefined) return false
  const { id, status } = reported(look.answer, f.log.environment?.id)
  const ok = justified(typeof id === 'string' ? id.toLowerCase() : '', typeof status === 'string' && /deploying/.test(status))
  if (ok) windows.count++
  return ok
}

/** The invariants of the platform's history: one carried-out request per intent, never undoing someone else's deploy. */
export function checkHistory(f: Facts): void {
  const lives = [0, ...f.log.restarts.map((r) => r.length), f.history.length]
  for (let i = 1; i < lives.length; i++) {
    const life = f.history.slice(lives[i - 1], lives[i])
    // A second of ours only in the window: the look right before it showed the environment settled on something else.
    const again = life.filter((d) => !OTHERS.has(d.by) && same(d.distributionId, f.ours)).slice(1)
    expect({ deployedTwice: again.filter(() => !inWindow(f, f.ours ?? '', (id, switching) => id !== f.ours?.toLowerCase() && !switching)) }).toEqual({
      deployedTwice: []
    })
    const rollbacks = life.filter((d) => !OTHERS.has(d.by) && !same(d.distributionId, f.ours)).length
    expect({ rollbacksInOneLife: rollbacks <= 1 }).toEqual({ rollbacksInOneLife: true })
  }
  // Never undo someone else's deploy: a rollback directly follows our own release in the history (or the window).
  for (const rb of f.rollbacks) {
    const before = f.history[f.history.indexOf(rb) - 1]
    if (before !== undefined && OTHERS.has(before.by) && inWindow(f, rb.distributionId, (id, switching) => id === f.ours?.toLowerCase() && !switching)) continue
    expect({ rollback: rb.distributionId, before: before?.by === undefined || OTHERS.has(before.by) ? before : 'ours' }).toEqual({
      rollback: rb.distributionId,
      before: 'ours'
    })
  }
}

/** The run ends, within GitHub's grace after a signal, and leaves a summary (the action's post step's, when the main step was killed before it reported; a killed command leaves what it wrote). */
export function checkEnding(f: Facts): void {
  const { ending } = f
  expect(ending.finished || ending.killed).toBe(true)
  expect(ending.postFinished).toBe(true)
  if (ending.firstSignal !== undefined)
    expect({ killedAfterSignal: ending.killed, first: ending.firstSignal }).toEqual({ killedAfterSignal: false, first: ending.firstSignal })
  if (ending.finished) expect(shown.summary).toMatch(/^## Bloomreach Cloud deployment/)
  else if (shown.summary === '' && f.s.face === undefined) expect(shown.postSummary).toMatch(/The main step was stopped before it wrote its report/)
}

/** Whether the main step reported (its outputs and summary are its claims; a step killed before that made none). */
export function reportedByMain(): boolean {
  return shown.state.get('reported') === 'true'
}

/** Every output against the history. */
export function checkOutputs(f: Facts): void {
  if (!reportedByMain()) return
  const { outputs } = shown
  const deployed = outputs.deployed
  if (deployed === 'true') expect({ deployed, carriedOut: f.oursLanded }).toEqual({ deployed, carriedOut: true })
  if (deployed !== 'true' && deployed !== 'unknown') expect({ deployed, carriedOut: f.release.length }).toEqual({ deployed, carriedOut: 0 })
  // unknown only when a call of ours reached the platform: a call never sent is not "may have been carried out".
  if (deployed === 'unknown') expect({ deployed, sent: f.sentOurs > 0 }).toEqual({ deployed, sent: true })
  const rolledBack = outputs['rolled-back']
  if (rolledBack === 'true') expect({ rolledBack, switchedBack: rollbackSeenBy(f) }).toEqual({ rolledBack, switchedBack: true })
  if (rolledBack === 'false')
    expect({ rolledBack, ourRollbackApplied: ourRollbackApplied(f), sent: f.rollbacks.length }).toEqual({ rolledBack, ourRollbackApplied: false, sent: 0 })
  if (rolledBack === 'unknown') expect({ rolledBack, sent: f.sentRollback > 0 }).toEqual({ rolledBack, sent: true })
  const state = outputs['release-state']
  if (state === 'verified') checkVerified(f)
  if (state === 'replaced')
    expect({ state, others: f.history.some((d) => d.by === 'other-job' || d.by === 'mission-control') }).toEqual({ state, others: true })
  if (state === 'rollback-applied' || state === 'rollback-healthy') expect({ state, switchedBack: rollbackSeenBy(f) }).toEqual({ state, switchedBack: true })
  if (outputs['cloud-api-url'] !== undefined || outputs.deployed !== undefined) expect(outputs['cloud-api-url']).toBe(shown.inputs['api-url'])
  if (outputs['distribution-id'] !== undefined && f.ours !== undefined && !f.s.source.startsWith('upload'))
    expect(outputs['distribution-id'].toLowerCase()).toBe(f.ours.toLowerCase())
  const envOutput = outputs['environment-distribution-id']
  const last = lastReported(f)
  if (envOutput !== undefined) expect(envOutput.toLowerCase()).toBe(String(last).toLowerCase())
}

/**
 * `id` is another copy of our very build (the same MD5 under another name: a command with no commit names its upload
 * 'local'): the same site, which no health-expect marker tells apart.
 */
export function identicalBuild(f: Facts, id: string | undefined): boolean {
  const md5 = (of: string | undefined): string | undefined => f.stack.state.distributions.find((d) => same(d.id, of))?.md5hash
  return id !== undefined && !same(id, f.ours) && md5(id) !== undefined && md5(id) === md5(f.ours)
}

/**
 * `id` is another run's build of our commit, and the run went by health-expect: the same marker (a commit's, in every
 * build of it), which no page tells apart from ours. Two jobs deploying one commit to one environment at once; the
 * run's last look reads the ids and says which one settled.
 */
export function sameMarkerBuild(f: Facts, id: string | undefined): boolean {
  if (id === undefined || same(id, f.ours) || shown.inputs['health-expect'] !== MARKER) return false
  const files = f.stack.state.distributions.find((d) => same(d.id, id))?.files
  return files?.['version.txt']?.includes(MARKER) === true
}

/** "verified" only when ours still ran (served) after the checks passed, when the step said so. */
function checkVerified(f: Facts): void {
  const line = shown.lines.find((l) => l.by === 'main' && l.text.startsWith('Release verified:'))
  expect(line).toBeDefined()
  const at = line?.at ?? 0
  const serving = servingAt(f, at)
  if (same(serving, f.ours)) return
  if (identicalBuild(f, serving)) return
  // The window: the look right before the claim showed ours, and the platform changed (another deploy, a restart) after it was made.
  const look = wire.looks.filter((l) => l.seq <= (line?.seq ?? 0)).at(-1)
  const { id } = look === undefined ? { id: undefined } : reported(look.answer, f.log.environment?.id)
  const changedAfterLook =
    look !== undefined &&
    (f.history.some((d) => d.appliedAt !== null && runnerMs(d.appliedAt, f.s) >= look.sentAt && runnerMs(d.appliedAt, f.s) <= at) ||
      f.log.restarts.some((r) => r.at >= look.sentAt && r.at <= at))
  if (typeof id === 'string' && same(id, f.ours) && changedAfterLook) {
    windows.count++
    return
  }
  if (releaseIdWindow(f, at)) return
  if (typeof id === 'string' && same(id, f.ours) && look !== undefined && restartHiddenByOurId(f, look)) {
    windows.count++
    return
  }
  expect({ verified: true, servingWhenVerified: serving }).toEqual({ verified: true, servingWhenVerified: f.ours })
}

/**
 * The window of the id alone after the marker (fresh seed 1277064459): the site answered with
 * our marker, then the platform restarted (it runs nothing), and another job's deploy of our very distribution, reported
 * at request with no status field, made the look after the checks show our id. No answer the run got tells that from
 * ours still serving.
 */
function restartHiddenByOurId(f: Facts, look: { sentAt: number; at: number }): boolean {
  if (f.s.status || f.s.reading !== 'at-request') return false
  // Our release served (the marker was read from it), then the restart: after ours applied, before the look.
  const marker = shown.lines.some((l) => l.by === 'main' && l.text.startsWith('Release applied:') && l.text.includes('marker'))
  const applied = f.release.find((d) => d.appliedAt !== null)?.appliedAt
  if (!marker || applied === undefined || applied === null) return false
  const restarted = f.log.restarts.some((r) => r.at >= runnerMs(applied, f.s) && r.at <= look.sentAt)
  const theirsOfOurs = f.history.some(
    (d) =>
      OTHERS.has(d.by) &&
      same(d.distributionId, f.ours) &&
      runnerMs(d.requestedAt, f.s) <= look.at &&
      (d.appliedAt === null || runnerMs(d.appliedAt, f.s) > look.at)
  )
  return restarted && theirsOfOurs
}

/** The id the environment reported in the last environments answer the main step got. */
function lastReported(f: Facts): unknown {
  const answer = wire.looks.at(-1)?.answer
  return answer === undefined ? undefined : reported(answer, f.log.environment?.id).id
}

/** Each sentence family of the summary and the failure annotation, against the history. */
export function checkSentences(f: Facts): void {
  const { head, text, failed, s } = f
  const say = (family: string, holds: boolean): void => expect({ family, holds }).toEqual({ family, holds: true })
  if (/^✅ Verified: '[^']+' runs `([^`]+)`/.test(head)) {
    const id = /runs `([^`]+)`/.exec(head)?.[1]
    say('✅ Verified: runs X (X is the last look)', same(id, String(lastReported(f))) && shown.outputs['release-state'] === 'verified')
  }
  if (/nothing was deployed|Failed before anything|Nothing of this run was deployed|was not deployed\b/.test(`${head}\n${failed}`))
    say('nothing was deployed', f.release.length === 0)
  if (/Failed and rolled back/.test(head)) say('Failed and rolled back', rollbackSeenBy(f))
  if (/^Rolled back:|[.:] Rolled back:/m.test(failed)) say('Rolled back:', rollbackSeenBy(f))
  if (/Replaced by another deploy/.test(head))
    say(
      'Replaced by another deploy',
      f.history.some((d) => d.by === 'other-job' || d.by === 'mission-control')
    )
  if (/deploy of .* may have been carried out/.test(`${head}\n${failed}`)) say('the deploy may have been carried out', f.sentOurs > 0)
  if (/rollback to \S+ may have been carried out/i.test(failed)) say('the rollback may have been carried out', f.sentRollback > 0)
  if (/stays deployed/.test(failed)) say('stays deployed', f.oursLanded && !ourRollbackApplied(f))
  if (/rollback is off|set rollback: true/.test(text)) say('rollback is off (advice)', shown.inputs.rollback === 'false')
  // rollback: true alone never rolls back on a failing search check: the advice names rollback-on-search too.
  if (/^Search check failed/.test(failed)) say('a failed search check advises rollback-on-search', !/set rollback: true to /.test(failed))
  // Of our rollback: another job may have brought the old release back meanwhile (the claim is about our call, and the
  // summary's "Now" says what the environment runs, when a look saw it).
  if (/The rollback to \S+ failed/.test(failed)) say('the rollback failed', !ourRollbackApplied(f))
  if (/No rollback was sent/.test(failed)) say('No rollback was sent', f.sentRollback === 0)
  if (/may still switch (?:'[^']+' )?to it after/.test(`${head}\n${failed}`)) say('the platform may still switch to ours', f.sentOurs > 0)
  if (/The rollback to \S+ was not carried out/.test(failed)) say('the rollback was not carried out', f.rollbacks.length === 0)
  if (/nothing was changed/.test(`${head}\n${failed}`))
    say('nothing was changed', f.release.length === 0 && f.log.deleted.length === 0 && f.log.uploaded.length === 0)
  if (/Another deploy replaced this one|another deploy followed this one/.test(text))
    say(
      'another deploy replaced/followed',
      f.history.some((d) => d.by === 'other-job' || d.by === 'mission-control')
    )
  if (/^⏹ Cancelled/.test(head)) say('Cancelled', f.ending.firstSignal !== undefined)
  if (f.ending.firstSignal !== undefined && !f.ending.killed && f.ending.finished && f.ending.signalAt !== undefined && f.ending.signalAt < f.ending.endedAt)
    // (Or the watchdog's words: it fired first, and the signal came during what followed, the sends to the event sinks:
    // fresh seed 1392177328, follow-deploy false, the watchdog during the closing calls, outside any phase.)
    say('a cancelled run says so', /cancelled|stopped|^The deployment did not finish within total-timeout-minutes/i.test(failed))
  say('no negative duration', !/\(-\d|-\d+(\.\d+)? ?(ms|s|min)\b/.test(text))
  void s
}

/** No secret anywhere: the password, the client secret, every token issued (as the run masked it, and as the wire carried it), the GitHub and GitLab tokens, the search key, the health-url's query, the sinks' tokens and webhooks, the collector's key. */
export function checkSecrets(f: Facts): void {
  for (const secret of secretsOf(f)) expect(f.text.includes(secret) ? secret : 'absent').toBe('absent')
}

/** Every secret of the world a run may meet (./trace-claims.ts reads its trace for them too). */
export function secretsOf(f: Facts): string[] {
  const secrets = [
    ...wire.issued.map((i) => i.token),
    f.stack.state.settings.password,
    QUERY_SECRET,
    SEARCH_KEY,
    GITHUB_TOKEN,
    GITLAB_TOKEN,
    'ci-secret-123456',
    ...sinkSecrets(f.s.events),
    ...tracingSecrets(f.s.tracing),
    ...shown.masked.filter((m) => m.length >= 8)
  ]
  return [...new Set(secrets)]
}

/**
 * Revocation as effective: every refresh token the run received no longer works once the post step is
 * done, unless the step said why it could not be revoked (no revocation endpoint, no client, a failure).
 */
export function checkRevocation(f: Facts): void {
  // A killed command has no post step to revoke what it could not (docs/cli.md): its tokens expire by themselves.
  if (f.ending.killed && f.s.face !== undefined) return
  const { stack } = f
  const stillValid = shown.masked.filter((t) => {
    if (stack.sso !== undefined) return /^rt_/.test(t) && stack.sso.tokens.refreshGrant(t) !== undefined
    return t.split('.').length === 3 && stack.state.tokens.check('refresh', t).ok
  })
  if (stillValid.length === 0) return
  const said = /Could not revoke|nothing revoked|left to expire|expires by itself/.test(f.text)
  expect({ refreshTokensLeftValid: stillValid.length, said }).toEqual({ refreshTokensLeftValid: stillValid.length, said: true })
}

/** The environments an environments answer lists (a list, or the one environment by name). */
function itemsOf(answer: Record<string, unknown>): Array<Record<string, unknown>> {
  return Array.isArray(answer.items) ? (answer.items as Array<Record<string, unknown>>) : [answer]
}

/** A status field that shows a switch whose distribution the answer cannot name: pruning must wait for it. */
function showsUnnamedSwitch(e: Record<string, unknown>): boolean {
  if (typeof e.status !== 'string') return false
  return /deploying/.test(e.status) || ((e.distributionId === null || e.distributionId === undefined) && e.status !== 'empty')
}

/** A GitHub Deployment's payload names the run's stack, or none (read as any stack's, as src/github/evidence.ts reads it). */
function ofThisStack(apiUrl: unknown): boolean {
  const key = (url: string): string => url.replace(/\/+$/, '').toLowerCase()
  return typeof apiUrl !== 'string' || key(apiUrl) === key(shown.inputs['api-url'] ?? '')
}

/** Whether a list of GitHub Deployments the run got before `seq` names `id` for that environment of its stack (what it deploys, or what ran before it). */
function recorded(environment: string, id: string, seq: number): boolean {
  return wire.githubLists
    .filter((l) => l.seq < seq)
    .some((l) =>
      l.deployments.some((d) => {
        const payload = (d.payload ?? {}) as { distributionId?: string; previousDistributionId?: string; apiUrl?: string }
        if (d.environment !== environment || !ofThisStack(payload.apiUrl)) return false
        return same(payload.distributionId, id) || same(payload.previousDistributionId, id)
      })
    )
}

const HOUR_MS = 3_600_000

/** The stack's distributions as the run listed them before `seq` (every page, by id in any case), each with its platform time. */
function listedBefore(seq: number): Array<{ id: string; ms: number }> {
  const byId = new Map<string, { id: string; ms: number }>()
  for (const list of wire.distributionLists.filter((l) => l.seq < seq)) {
    for (const r of Array.isArray(list.answer.items) ? (list.answer.items as Array<Record<string, unknown>>) : []) {
      const id = String(r.id)
      byId.set(id.toLowerCase(), { id, ms: typeof r.createdAt === 'string' ? Date.parse(r.createdAt) : Number.NaN })
    }
  }
  return [...byId.values()]
}

/**
 * Without a token, nothing records what an environment ran before; the newest distribution stored before the one a
 * look showed it running (by the platform's createdAt, of those the run listed; ties go to the greater id) stays as
 * its likely previous. With a token the records may name it instead: not checked here.
 */
function guessedPrevious(f: Facts, d: Deletion, looks: ReadonlyArray<{ answer: Record<string, unknown> }>): string[] {
  if (f.s.github !== undefined) return []
  const stored = listedBefore(d.seq)
  const broken = looks.flatMap((l) =>
    itemsOf(l.answer).flatMap((e) => {
      const running = stored.find((x) => same(x.id, typeof e.distributionId === 'string' ? e.distributionId : undefined))
      if (running === undefined || Number.isNaN(running.ms)) return []
      const before = stored.filter((x) => !Number.isNaN(x.ms) && x.ms < running.ms)
      const newest = before.reduce<{ id: string; ms: number } | undefined>(
        (a, x) => (a === undefined || x.ms > a.ms || (x.ms === a.ms && x.id.localeCompare(a.id) > 0) ? x : a),
        undefined
      )
      return same(newest?.id, d.id)
        ? [`'${String(e.name)}' reported ${running.id} at a look of the run, and it is the newest one stored before that (no token: its likely previous)`]
        : []
    })
  )
  return [...new Set(broken)]
}

/**
 * Why this deletion broke pruning's promise, if it did: a fresh upload; one a look of the run showed an environment
 * running; any while the look before it showed a switch it could not name; one a GitHub Deployment the run had read
 * still deploys; and one an environment reported, served, switched to or ran before, unless that began after the
 * look before the delete (the window no look can close) or nothing the run could read named it (no status field,
 * no GitHub record: a deploy by hand or by a job that records none, which docs/reliability-and-security.md names);
 * without a token, the newest one stored before what a look showed an environment running.
 */
function brokenBy(f: Facts, d: Deletion): string[] {
  const broken: string[] = []
  const looks = wire.looks.filter((l) => l.seq < d.seq)
  const last = looks.at(-1)
  if (d.createdAt !== undefined && d.at - runnerMs(d.createdAt, f.s) < HOUR_MS) broken.push('stored within the hour')
  if (looks.some((l) => itemsOf(l.answer).some((e) => same(String(e.distributionId), d.id)))) broken.push('a look of the run showed it running')
  if (last !== undefined && itemsOf(last.answer).some(showsUnnamedSwitch)) broken.push('the look before it showed a switch it could not name')
  broken.push(...guessedPrevious(f, d, looks))
  const list = wire.githubLists.filter((l) => l.seq < d.seq).at(-1)
  if (f.s.github !== undefined && list === undefined) broken.push('github-token is set, but no list of GitHub Deployments was read before it')
  for (const u of d.underWay)
    if (ofThisStack(u.apiUrl) && list?.deployments.some((x) => x.id === u.deployment)) broken.push(`GitHub Deployment ${u.deployment} still deploys it`)
  for (const u of d.uses) {
    if (u.kind === 'reports' || u.since > (last?.sentAt ?? Number.NEGATIVE_INFINITY)) continue
    if (recorded(u.environment, d.id, d.seq))
      broken.push(
        `'${u.environment}' ${u.kind === 'previous' ? 'ran it before' : u.kind === 'serves' ? 'serves it' : 'switches to it'}, as GitHub's records said`
      )
  }
  return broken
}

/** After a run that pruned, the stack holds at most max-distributions, unless the run said why not (or was stopped). */
function checkWithinMax(f: Facts): void {
  const max = f.s.maxDistributions
  // A run that pruned: its phase ended well (one that failed or was stopped ends the run with that failure).
  const pruned = /^\| Prune old distributions \| [^|]+ \| ✓ \|$/m.test(shown.summary)
  if (max === undefined || !pruned || /::warning::max-distributions=\d+ could not be kept/.test(f.text)) return
  if (f.ending.firstSignal !== undefined || f.ending.killed || /total-timeout-minutes/.test(f.failed)) return
  // In a world of two runs, what the other stored after the listing this run pruned from is the other's to keep within
  // max: a later listing (a lost upload's lookup) prunes nothing, and one whose answer never came was never read
  // (a line's seq is the last call's when it was written, so the listing pruning chose from has seq <= its first line's).
  const began = shown.lines.find((l) => l.by === 'main' && /^The stack holds \d+ distributions; max-distributions is/.test(l.text))?.seq
  const listed = wire.distributionLists.filter((l) => began === undefined || l.seq <= began).at(-1)?.seq ?? Number.POSITIVE_INFINITY
  const holds = f.stack.state.distributions.filter((d) => {
    const by = storedAt.get(d.id)
    return by === undefined || f.log.uploaded.includes(d.id) || by.seq < listed
  }).length
  expect({ maxDistributions: max, stackHolds: holds <= max ? 'at most that' : holds }).toEqual({ maxDistributions: max, stackHolds: 'at most that' })
}

/** Each delete follows a look at the environments made after pruning began and after the delete before it: a look right before it. */
function lookedRightBefore(f: Facts): string[] {
  const began = shown.lines.find((l) => l.by === 'main' && /^The stack holds \d+ distributions; max-distributions is/.test(l.text))?.seq ?? 0
  return f.log.deletions.flatMap((d, i) => {
    const after = Math.max(began, f.log.deletions[i - 1]?.seq ?? 0)
    return wire.looks.some((l) => l.seq > after && l.seq < d.seq) ? [] : [`${d.id}: no look at the environments right before it`]
  })
}

/** Pruning and uploads: never what must stay (brokenBy), the stack within max-distributions, never before a refusal; no duplicate upload. */
export function checkStack(f: Facts): void {
  const broken = [...lookedRightBefore(f), ...f.log.deletions.flatMap((d) => brokenBy(f, d).map((why) => `${d.id}: ${why}`))]
  expect({ deletedWhatMustStay: broken }).toEqual({ deletedWhatMustStay: [] })
  checkWithinMax(f)
  // Never two stored copies of one upload (a copy someone else deleted before a retry looked for it does not count).
  const copies = f.log.uploaded.filter((id) => f.stack.state.distributions.some((d) => same(d.id, id))).length
  expect({ storedCopies: copies }).toEqual({ storedCopies: Math.min(1, copies) })
  // Refused by the order (an older commit), not by a rule after an older commit allowed (fresh seed 215833998: a freeze
  // that began while the run waited, after its upload).
  if (shown.outputs.order === 'behind' && /Refused: commit \S+ is older than/.test(f.head) && !/now runs/.test(f.text)) {
    expect({ refusedButChanged: f.log.deleted.length + f.log.uploaded.length }).toEqual({ refusedButChanged: 0 })
  }
}

/** GitHub's record: a Deployment of ours names the commit it deploys (or none), ends with a final status, and says success only for a deploy. */
export function checkGitHubRecord(f: Facts): void {
  const gh = f.s.github
  const world = github.world
  if (gh === undefined || world === undefined) return
  const mine = world.core.model.deployments.filter((d) => d.creator === DEFAULT_CREATOR)
  for (const d of mine) {
    const payload = d.payload as { distributionId?: string; commit?: string }
    const index = payload.distributionId === undefined ? undefined : commitIndexOf(gh, payload.distributionId, f.ours)
    const truth = index === undefined ? undefined : COMMITS[index]
    if (payload.commit !== 'unknown' && truth !== undefined) expect({ deployment: d.id, sha: d.sha }).toEqual({ deployment: d.id, sha: truth })
    const statuses = world.core.model.statuses(d.id)
    const latest = statuses[0]?.state
    // Only a Deployment whose id the run learned as its own can get a status from it (a create that answered too late is
    // GitHub's orphan). Not any line naming it: a later order check may name the orphan as the evidence of a commit
    // (fresh seed 640917826), which does not tell the run that it is its own.
    const known = shown.lines.some((l) => l.text.startsWith(`Recorded as GitHub Deployment ${d.id} `))
    const writes = known && gh.token === 'ok' && !gh.faults.some((x) => x.route === 'create-status')

    if (writes && !closingsLeftToExpire(f))
      expect({ deployment: d.id, finalStatus: latest }).toEqual({
        deployment: d.id,
        finalStatus: latest === 'in_progress' || latest === undefined ? 'final' : latest
      })
    // success: the environment runs it, deployed by this run (or, already running, put there by another deploy while it waited).
    const runs = shown.outputs.deployed === 'true' || shown.outputs['release-state'] === 'already-running'
    if (latest === 'success' && known && reportedByMain())
      expect({ success: true, deployed: shown.outputs.deployed, runs }).toEqual({ success: true, deployed: shown.outputs.deployed, runs: true })
  }
}

/**
 * A command has no post step to finish what it could not (docs/cli.md): killed, or saying its closing calls did not end
 * in a stop's time, its GitHub Deployment may stay in progress.
 */
export function closingsLeftToExpire(f: Facts): boolean {
  return f.s.face !== undefined && (f.ending.killed || /run reported before its closing calls ended/.test(f.text))
}

/** Newest commit wins: no deploy call of ours went out over a newer commit the look right before it showed, as GitHub recorded it; a GitHub it cannot read refuses unless allowed. */
export function checkOrder(f: Facts): void {
  const gh = f.s.github
  const world = github.world
  if (gh === undefined || world === undefined) return
  const order = shown.outputs.order
  expect(['ahead', 'identical', 'behind', 'diverged', 'unknown', undefined]).toContain(order)
  // GitHub could not be read (or refused the token): no deploy call of ours goes out after that check, unless allowed.
  // (A distribution's name the platform could not say is missing evidence, not GitHub failing: its own words.)
  const failedAt = shown.lines.find(
    (l) =>
      l.by === 'main' &&
      /Deploy order not checked: .*(could not be reached|no answer|HTTP (401|403|5\d\d))/.test(l.text) &&
      !/its name could not be read/.test(l.text)
  )
  if (failedAt !== undefined && !gh.allowUnchecked) {
    const after = wire.deploys.filter((d) => same(d.distributionId, f.ours) && d.seq > failedAt.seq).length
    expect({ orderUnchecked: true, deployCallsAfter: after }).toEqual({ orderUnchecked: true, deployCallsAfter: 0 })
  }
  if (gh.allowOlder || gh.faults.length > 0 || gh.token !== 'ok') return
  for (const call of wire.deploys.filter((d) => same(d.distributionId, f.ours))) {
    const look = wire.looks.filter((l) => l.seq < call.seq).at(-1)
    if (look === undefined) continue
    // What GitHub had recorded when the run's last order check read its Deployments: a record made after that check, even
    // right before the look before the call, is no evidence the run had (fresh seed 292983749). A check reads them after
    // a look; its first read is the one counted.
    const reads = wire.githubCalls.filter((c) => c.route === 'list-deployments' && c.seq < call.seq)
    const last = reads.at(-1)
    if (last === undefined) continue
    const lookBefore = wire.looks.filter((l) => l.seq < last.seq).at(-1)?.seq ?? 0
    const read = reads.find((c) => c.seq > lookBefore) ?? last
    const known = world.records.filter((r) => r.seq < read.seq)
    // A promoted distribution whose commit nothing records (no Deployment, a name without one): the order is unknown, and
    // it deploys (docs/github.md). What GitHub recorded of the distribution the run deployed is read here, not whether the
    // world's own OURS was recorded: from-environment may promote another job's unrecorded deploy, or Mission Control's
    // (fresh seed 1559731163), whose commit no run can know.
    if (!f.s.source.startsWith('upload') && !known.some((r) => same(r.distributionId, f.ours))) continue
    const { id } = reported(look.answer, f.log.environment?.id)
    if (typeof id !== 'string') continue
    // What GitHub had recorded of the distribution the look showed, by then.
    const record = known.filter((r) => same(r.distributionId, id)).at(-1)
    if (record === undefined || record.commit === GONE) continue
    const ours = commitIndexOf(gh, f.ours ?? '', f.ours)
    if (ours === undefined) continue
    const rel = relation(record.commit, ours)
    expect({ sentOver: id, relation: rel }).toEqual({ sentOver: id, relation: rel === 'behind' ? 'not behind' : rel })
  }
  if (order === 'behind' && !gh.allowOlder) expect(f.failed).toMatch(/older than|was cancelled|total-timeout-minutes|stopped/)
}

/** Each phase within its budget: a request's limit never outruns what is left of its phase. */
export function checkBudgets(f: Facts): void {
  const seconds = (name: string): number | undefined => {
    const row = shown.summary.split('\n').find((l) => l.startsWith(`| ${name}`))
    const m = row === undefined ? null : /\| ([\d.]+) (ms|s|min) \|/.exec(row)
    return m === null ? undefined : Number(m[1]) * (m[2] === 'ms' ? 0.001 : m[2] === 'min' ? 60 : 1)
  }
  const health = seconds('Health check')
  if (health !== undefined) expect({ healthPhase: health <= f.s.healthTimeoutSeconds + 1.5 }).toEqual({ healthPhase: true })
  const follow = seconds('Wait until')
  // At the deadline a last look still gets its minimum (1 s), and a token it must renew first the same.
  if (follow !== undefined) expect({ followPhase: follow <= f.s.deployTimeoutSeconds + 2.5 }).toEqual({ followPhase: true })
}

export function checkAll(f: Facts): void {
  checkEnding(f)
  checkHistory(f)
  checkOutputs(f)
  checkSentences(f)
  checkSecrets(f)
  checkRevocation(f)
  checkStack(f)
  checkGitHubRecord(f)
  checkOrder(f)
  checkBudgets(f)
}
