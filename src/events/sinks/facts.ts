// What the native sinks read off an ObservedRun, in one place: which moments were observed, the
// environment's name, links to the commit and the repository, the timeline in words. Pure.
import type { ObservedEvent, ObservedKind, ObservedRun } from '../observed.js'

/** The moment our release was seen live: the first deploy into an empty environment, or the switch seen. */
export function releaseSeen(run: ObservedRun): ObservedEvent | undefined {
  return run.events.find((e) => e.kind === 'deployed' || e.kind === 'upgraded')
}

/** The moment our rollback was seen applied. */
export function rollbackSeen(run: ObservedRun): ObservedEvent | undefined {
  return run.events.find((e) => e.kind === 'rolledback')
}

/** The run's ending: the last moment observed. */
export function ending(run: ObservedRun): ObservedEvent | undefined {
  return run.events.at(-1)
}

/**
 * Whether the run tried to change the environment: a release or rollback seen, or a release begun
 * (any release state but waiting). A refusal comes before any deploy, and a run without an
 * environment deploys nothing: neither is a mark on an observability timeline.
 */
export function triedRelease(run: ObservedRun): boolean {
  if (run.environment === undefined || ending(run)?.kind === 'refused') return false
  if (releaseSeen(run) || rollbackSeen(run)) return true
  return run.releaseState !== undefined && run.releaseState !== 'waiting'
}

/** "acme/production": the environment named by its stack. */
export function place(run: ObservedRun): string {
  return run.environment === undefined ? run.stack : `${run.stack}/${run.environment}`
}

/**
 * A distribution as every event names it, the one identity a consumer matches: the platform's id, in lower case (its
 * ids are hex, and one answer may give them in another case than the next). A rollback knows the distribution it
 * restored by this id alone, so the event that deployed it names it the same way.
 */
export function distributionKey(id: string): string {
  return id.toLowerCase()
}

/** The distribution as people name it: its name, else its id. */
export function distributionLabel(run: ObservedRun): string | undefined {
  return run.distribution.name ?? run.distribution.id
}

export function shortSha(sha: string): string {
  return sha.slice(0, 7)
}

/** The repository's page: on the server the run's page is on (GitHub Enterprise), else github.com. */
export function repositoryUrl(run: ObservedRun): string | undefined {
  if (run.repository === undefined) return undefined
  const marker = `/${run.repository}/`
  const at = run.runUrl?.indexOf(marker) ?? -1
  const server = run.runUrl !== undefined && at > 0 ? run.runUrl.slice(0, at) : 'https://github.com'
  return `${server}/${run.repository}`
}

/** The commit's page, when both the repository and the commit are known. */
export function commitUrl(run: ObservedRun): string | undefined {
  const repo = repositoryUrl(run)
  return repo !== undefined && run.commit !== undefined ? `${repo}/commit/${run.commit}` : undefined
}

/** "2025-05-06 10:01:35 UTC". */
export function utc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`
}

export function iso(ms: number): string {
  return new Date(ms).toISOString()
}

const WORDS: Readonly<Record<ObservedKind, string>> = {
  deployed: 'Deployed (the environment ran nothing before)',
  upgraded: 'Switched to our release',
  published: 'Published (the health check passed)',
  rolledback: 'Rolled back',
  refused: 'Refused',
  unconfirmed: 'Not settled',
  cancelled: 'Cancelled',
  failed: 'Failed'
}

/** What the run observed, a line per moment: "2025-05-06 10:01:35 UTC · Switched to our release: <evidence>". */
export function timeline(run: ObservedRun, maxEvidence = 300): string[] {
  return run.events.map((e) => `${utc(e.at)} · ${WORDS[e.kind]}: ${truncate(e.evidence, maxEvidence)}`)
}

/** What runs now by the last look, or that it was not seen; for a rollback, that it is the previous distribution. */
export function nowRunningText(run: ObservedRun): string {
  if (run.nowRunning === undefined) return 'not seen when the run ended'
  const previous = rollbackSeen(run) && run.previousDistributionId !== undefined && sameId(run.nowRunning, run.previousDistributionId)
  return previous ? `${run.nowRunning} (the previous distribution, rolled back to)` : run.nowRunning
}

function sameId(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase()
}

/** At most `max` characters, an ellipsis where it was cut. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`
}

/** The release's commits in lines of text: what the list is, a line per commit (at most `max`), "and N more"; [] when not read. */
export function changesText(run: ObservedRun, max = 10): string[] {
  const c = run.changes
  if (c === undefined) return []
  if (c.total === 0) return [`No commits listed: ${c.why ?? 'none between the two commits'}`]
  const what = c.rolledBack ? 'taken out by the rollback' : c.direction === 'removed' ? 'taken out (an older commit deployed)' : 'in the release'
  const lines = [`${c.total} commit(s) ${what}:`]
  for (const x of c.commits.slice(0, max)) {
    const pulls = x.pullRequests.filter((n) => !x.title.includes(`#${n}`))
    lines.push(
      `${shortSha(x.sha)} ${truncate(x.title, 200)}${pulls.length > 0 ? ` (${pulls.map((n) => `#${n}`).join(', ')})` : ''}${x.author === null ? '' : ` by ${x.author}`}`
    )
  }
  const more = c.total - Math.min(max, c.commits.length)
  if (more > 0) lines.push(`and ${more} more`)
  return lines
}

/** The release rules' facts as titled values: the override reason, the backup found, the rule that refused. */
export function rulesFacts(run: ObservedRun): { title: string; value: string }[] {
  const r = run.rules
  if (r === undefined) return []
  const facts: { title: string; value: string }[] = []
  if (r.overrideReason !== undefined) {
    const overrode = r.overrode !== undefined && r.overrode.length > 0 ? ` (overrode ${r.overrode.join(', ')})` : ''
    facts.push({ title: 'Override reason', value: `${r.overrideReason}${overrode}` })
  }
  if (r.backupId !== undefined) facts.push({ title: 'Backup', value: `${r.backupId}${r.backupCreatedAt === undefined ? '' : ` (made ${r.backupCreatedAt})`}` })
  if (r.refusedBy !== undefined) facts.push({ title: 'Refused by', value: `the ${r.refusedBy} rule` })
  return facts
}

/** "; override: <reason>" for a one-line message, or '' without one. */
export function overrideText(run: ObservedRun): string {
  return run.rules?.overrideReason === undefined ? '' : `; override: ${run.rules.overrideReason}`
}
