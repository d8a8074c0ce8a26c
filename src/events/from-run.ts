// What a run tells others (issue 32), derived from its result alone: no new look, no new request. The moments come
// from the release's transitions with the times they were seen (the switch seen, not the request; the rollback seen
// applied), and a failed run adds one ending. docs/events.md has the table of which event when.
import { createHash } from 'node:crypto'
import { commitInName } from '../cloud/distribution-name.js'
import { InputError, refusesLogin } from '../errors.js'
import { reached, type ReleaseRecord } from '../deploy/release-state.js'
import type { DeployResult } from '../deploy/result.js'
import type { RunContext } from '../port.js'
import { deployedWord, headline, type RunResult } from '../report.js'
import { changeEntries, shownChanges } from '../deploy/changes.js'
import type { RulesRecord } from '../rules/record.js'
import { EVENT_COMMITS, type ObservedChanges, type ObservedEvent, type ObservedKind, type ObservedRules, type ObservedRun } from './observed.js'

/** What the run knew beside its result: where it ran, when it began and ended, and what ended it. */
export interface RunFacts {
  readonly context: RunContext
  readonly startedAt: number
  readonly endedAt: number
  /** The failure the run ended with (RunEnding.failure): tells a refusal from a failure. */
  readonly failure: unknown
  /** The stack input, for a run refused before its deployment began (its result names no stack). */
  readonly stack?: string | undefined
  /** distribution-id or from-environment was set: for a run refused before its deployment began, a promotion. */
  readonly promotion?: boolean | undefined
}

/**
 * The run as the sinks see it; undefined when it has nothing to tell: a dry run (nothing changed), a search check
 * alone or an upload with no environment (no environment to speak of), a deploy skipped because the environment
 * already ran the distribution (nothing changed). A run that deployed and saw nothing (follow-deploy: false, green)
 * gives a run with no events: the CDEvents sink sends none, a chat sink may still post its headline.
 */
export function observeRun(result: RunResult, facts: RunFacts): ObservedRun | undefined {
  const d = result.deploy
  const environment = d?.environmentName ?? result.environment
  if (!result.deploys || d?.dryRun || environment === undefined) return undefined
  if (result.error === undefined && d?.skipped) return undefined
  const { context } = facts
  const stack = d?.target ?? facts.stack ?? 'unknown'
  const events = [...moments(d?.release, d?.foundDistributionId), ...ending(result, facts)]
  return {
    chainId: uuidOf(`chain/${attemptName(context, facts.startedAt, stack, environment)}`),
    runKey: `${context.runId}-${context.runAttempt}`,
    stack,
    environment,
    apiUrl: d?.apiUrl ?? '',
    consoleUrl: d?.consoleUrl,
    distribution: distributionOf(d),
    previousDistributionId: d?.release?.previous ?? d?.previousDistributionId,
    nowRunning: d?.finalLook && !('error' in d.finalLook) ? d.finalLook.distributionId : undefined,
    ...commitOf(d, facts),
    repository: context.repository || undefined,
    runUrl: context.runUrl,
    actor: context.actor,
    startedAt: facts.startedAt,
    endedAt: facts.endedAt,
    outcome: result.error === undefined ? 'success' : result.stopped === 'cancel' || result.stopped === 'terminate' ? 'cancelled' : 'failure',
    headline: headline(result),
    releaseState: d?.release?.state,
    error: result.error,
    ...(d !== undefined && changesOf(d)),
    ...rulesOf(d?.rules),
    events
  }
}

/** The release's commits, as the summary shows them (after a rollback, what it took out), capped; none without github-token. */
function changesOf(d: DeployResult): { changes?: ObservedChanges } {
  const c = shownChanges(d)
  // Without github-token nothing could be asked: no list to speak of.
  if (c === undefined || c.withoutToken) return {}
  return {
    changes: {
      direction: c.direction,
      rolledBack: c.rolledBack === true,
      total: c.total,
      commits: changeEntries(c).slice(0, EVENT_COMMITS),
      ...(c.total === 0 && c.why !== undefined && { why: c.why })
    }
  }
}

/** The rules' facts: the override reason, the backup found, the rule that refused; nothing when none applies. */
function rulesOf(rules: RulesRecord | undefined): { rules?: ObservedRules } {
  const found: ObservedRules = {
    ...(rules?.override !== undefined && { overrideReason: rules.override.reason, overrode: [...rules.override.overrode] }),
    ...(rules?.backup?.id !== undefined && { backupId: rules.backup.id, backupCreatedAt: rules.backup.createdAt }),
    ...(rules?.refusedBy !== undefined && { refusedBy: rules.refusedBy })
  }
  return Object.keys(found).length === 0 ? {} : { rules: found }
}

/**
 * The release's moments, each at the time its evidence was seen: ours seen running ('applied': the switch, or the
 * new release's marker), deployed when the environment ran nothing before (neither when the run found it nor right
 * before its deploy call: a look that reports no id while another deploy switches says nothing of what ran), else
 * upgraded (a redeploy of the same distribution too); published once verified (every check passed and a look after
 * them still showed ours: our reading of "published"); rolled back once the rollback was seen applied.
 */
function moments(release: ReleaseRecord | undefined, found: string | undefined): ObservedEvent[] {
  const events: ObservedEvent[] = []
  const add = (kind: ObservedKind, state: Parameters<typeof reached>[1]): void => {
    const t = reached(release, state)
    if (t) events.push({ kind, at: t.at, evidence: t.evidence })
  }
  add(release?.previous === undefined && found === undefined ? 'deployed' : 'upgraded', 'applied')
  add('published', 'verified')
  add('rolledback', 'rollback-applied')
  return events
}

/** A failed run's one ending, at the run's end: cancelled, refused, unconfirmed or failed (the first that holds). */
function ending(result: RunResult, facts: RunFacts): ObservedEvent[] {
  if (result.error === undefined) return []
  return [{ kind: endingKind(result, facts.failure), at: facts.endedAt, evidence: result.error }]
}

function endingKind(result: RunResult, failure: unknown): ObservedKind {
  if (result.stopped !== undefined) return 'cancelled'
  const d = result.deploy
  const release = d?.release
  const deployed = deployedWord(d)
  const rollbackUnsettled = release !== undefined && reached(release, 'rollback-requested') !== undefined && !reached(release, 'rollback-applied')
  if (deployed === 'unknown' || rollbackUnsettled || release?.rollbackUnconfirmed !== undefined) return 'unconfirmed'
  if (deployed === 'true') return 'failed'
  const refused =
    failure instanceof InputError ||
    refusesLogin(failure) ||
    d?.order?.refused === true ||
    d?.rules?.refusedBy !== undefined ||
    release?.failure?.kind === 'busy' ||
    release?.failure?.kind === 'older'
  return refused ? 'refused' : 'failed'
}

/**
 * The commit the events name, with the ref it was built for: this run's own for an upload. A promotion
 * (distribution-id, from-environment) deploys what another run built: the distribution's commit as the deploy order's
 * evidence found it (a GitHub Deployment that recorded it, or its default name), else the name alone (without
 * github-token), else none; never the promoting run's commit, and no ref (which branch built it is not known).
 */
function commitOf(d: DeployResult | undefined, facts: RunFacts): Pick<ObservedRun, 'commit' | 'ref'> {
  const { context } = facts
  const promotion = d === undefined ? facts.promotion === true : d.source !== 'upload'
  if (!promotion) return { commit: context.sha || undefined, ref: context.ref || undefined }
  const ours = d?.order?.ours
  if (ours !== undefined && ours.from !== 'run') return { commit: ours.sha.toLowerCase(), ref: undefined }
  const repository = context.repository.split('/')[1] ?? ''
  return { commit: commitInName(d?.knownName, repository), ref: undefined }
}

/** The distribution the run deployed (or meant to: a refused run names the archive it did not upload). */
function distributionOf(d: DeployResult | undefined): ObservedRun['distribution'] {
  const archive = d?.archive
  return {
    id: d?.distributionId,
    name: d?.upload?.storedName ?? archive?.name ?? d?.knownName,
    md5: archive?.md5 ?? d?.knownMd5,
    sha256: archive?.sha256
  }
}

/**
 * One release attempt, written so that no two read alike: the CI's run and its attempt, the moment this run began
 * (two deploys in one CI run attempt, such as two `brcloud deploy` in one Jenkins build, are two attempts), the stack
 * and the environment. Every event id is derived from it: the same event keeps its id, no other event shares it.
 */
function attemptName(context: RunContext, startedAt: number, stack: string, environment: string): string {
  return JSON.stringify([context.runId, context.runAttempt, startedAt, stack, environment])
}

/** A stable id in the form of a UUID (version 4 bits, RFC 4122 variant), from a name: the same name, the same id. */
export function uuidOf(name: string): string {
  const b = createHash('sha256').update(name).digest().subarray(0, 16)
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80
  const h = b.toString('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}
