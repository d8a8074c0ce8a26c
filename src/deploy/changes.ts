// What is in the release (issue 43): the commits between the one the environment ran and ours, from the code host's
// compare, read once the deploy order is known (./order.ts) and before the deployment is recorded. Never fails
// the run: without a token, a commit, or an answer from GitHub the list is empty and says why. A rollback seen
// applied turns the list into what was taken out again (shownChanges), so every reader tells the same story.
import { CodeHostCallFailed, commitPage, pullPage, short, type CodeHost, type CommitSummary, type HostName } from '../code-host/port.js'
import { rolledBack, type ReleaseRecord } from './release-state.js'
import type { OrderCheck } from './order.js'

export type { CommitSummary } from '../code-host/port.js'

/** 'added': running commit -> ours (the normal case); 'removed': what the release takes out (an older commit, a rollback). */
export type ChangesDirection = 'added' | 'removed'

export interface ReleaseChanges {
  /** Oldest first, at most MAX_LISTED_COMMITS (github/client.ts). */
  readonly commits: readonly CommitSummary[]
  /** How many there are: more than `commits` holds when GitHub's list was capped. */
  readonly total: number
  readonly direction: ChangesDirection
  /** The commit the environment ran and ours, as compared (undefined when not known). */
  readonly running?: string | undefined
  readonly ours?: string | undefined
  /** Another branch: the commits of the running one that ours lacks, taken out by the deploy (counted, not listed). */
  readonly alsoTakenOut?: number | undefined
  /** Why the list is empty: no github-token, a commit not known, the same commit, GitHub failed. */
  readonly why?: string | undefined
  /** Why the pull requests of some commits were not looked up. */
  readonly pullLookups?: string | undefined
  /** The release was rolled back: `commits` are what the failed release brought, taken out again. */
  readonly rolledBack?: boolean | undefined
  /** The repository's web address, for links. */
  readonly repoUrl?: string | undefined
  /** The code's host: the form of its pages in links, and how it writes a pull (merge) request. */
  readonly host?: HostName | undefined
  /** No github-token: nothing could be asked (the summary's deploy order row already says so). */
  readonly withoutToken?: boolean | undefined
}

/** The entries of the `changes` output: exactly these fields, in this order. */
export interface ChangeEntry {
  readonly sha: string
  readonly title: string
  readonly author: string | null
  readonly pullRequests: number[]
}

/**
 * The commits of the release, from the deploy order's last check: GitHub's compare of the running commit with ours
 * (for an older commit, ours with the running one: what it takes out). A failure of GitHub's is logged and becomes the
 * list's `why`; anything else (the run's stop) is thrown.
 */
export async function readChanges(github: CodeHost | undefined, check: OrderCheck, log: (line: string) => void): Promise<ReleaseChanges> {
  const empty = (why: string): ReleaseChanges => ({ commits: [], total: 0, direction: 'added', why, ...pair(check) })
  if (github === undefined) return { ...empty('github-token is not set'), withoutToken: true }
  const running = check.running?.sha
  const ours = check.ours?.sha
  if (check.order === 'unknown' || running === undefined || ours === undefined) return empty(`the deploy order is unknown: ${check.why ?? 'no evidence'}`)
  if (check.order === 'identical') return empty('the environment runs the same commit')
  const removed = check.order === 'behind'
  try {
    const listing = removed ? await github.commitsBetween(ours, running) : await github.commitsBetween(running, ours)
    const changes: ReleaseChanges = {
      commits: listing.commits,
      total: listing.total,
      direction: removed ? 'removed' : 'added',
      ...pair(check),
      ...(check.order === 'diverged' && { alsoTakenOut: listing.behindBy }),
      ...(listing.pullLookups !== undefined && { pullLookups: listing.pullLookups })
    }
    log(changesLine(changes))
    return changes
  } catch (error) {
    if (!(error instanceof CodeHostCallFailed)) throw error
    log(`The commits of the release were not listed: ${error.message}.`)
    return empty(`${error.host} failed: ${error.message}`)
  }
}

function pair(check: OrderCheck): Pick<ReleaseChanges, 'running' | 'ours' | 'repoUrl' | 'host'> {
  return {
    running: check.running?.sha,
    ours: check.ours?.sha,
    ...(check.repoUrl !== undefined && { repoUrl: check.repoUrl }),
    ...(check.host !== undefined && { host: check.host })
  }
}

/** The log's line for a list read. */
function changesLine(c: ReleaseChanges): string {
  const between = `${short(c.running ?? '?')} and ${short(c.ours ?? '?')}`
  const listed = c.commits.length < c.total ? ` (the first ${c.commits.length} listed)` : ''
  return c.direction === 'removed'
    ? `The release takes out ${c.total} commit(s) between ${between}${listed}.`
    : `The release brings ${c.total} commit(s) between ${between}${listed}.`
}

/**
 * The changes as every reader shows them (the output, the summary, the events): after a rollback seen applied, the
 * commits the failed release brought, taken out again; a rolled back older commit took out nothing that stays out.
 */
export function shownChanges(d: { readonly changes?: ReleaseChanges | undefined; readonly release?: ReleaseRecord | undefined }): ReleaseChanges | undefined {
  const c = d.changes
  if (c === undefined || !rolledBack(d.release)) return c
  if (c.direction === 'added') return { ...c, direction: 'removed', rolledBack: true, alsoTakenOut: undefined }
  return {
    ...c,
    commits: [],
    total: 0,
    direction: 'removed',
    rolledBack: true,
    alsoTakenOut: undefined,
    why: 'the rollback put back what the older release had taken out: the environment runs the commit it ran before'
  }
}

/** The `changes` output's entries, oldest first. */
export function changeEntries(c: ReleaseChanges | undefined): ChangeEntry[] {
  return (c?.commits ?? []).map((x) => ({ sha: x.sha, title: x.title, author: x.author ?? null, pullRequests: [...x.pullRequests] }))
}

/** The `changes` output: JSON of the entries ([] when unknown). */
export function changesOutput(c: ReleaseChanges | undefined): string {
  return JSON.stringify(changeEntries(c))
}

/** How many commits the first `shown` leave out of the total. */
export function moreThan(c: ReleaseChanges, shown: number): number {
  return Math.max(0, c.total - Math.min(shown, c.commits.length))
}

/** One commit in a line of text: "abc1234 Title (#12) by octocat"; pull requests the title does not name are added. */
export function commitLine(x: CommitSummary): string {
  const named = x.pullRequests.filter((n) => !x.title.includes(`#${n}`))
  const pulls = named.length > 0 ? ` (${named.map((n) => `#${n}`).join(', ')})` : ''
  return `${short(x.sha)} ${x.title}${pulls}${x.author === undefined ? '' : ` by ${x.author}`}`
}

/** What the list is, in a few words: "3 commit(s) brought", "2 commit(s) taken out by the rollback". */
export function changesHeading(c: ReleaseChanges): string {
  if (c.rolledBack) return `${c.total} commit(s) taken out by the rollback`
  if (c.direction === 'removed') return `${c.total} commit(s) taken out (an older commit deployed)`
  return `${c.total} commit(s) brought`
}

/** The most commits the job summary lists; the rest are counted. */
export const SUMMARY_COMMITS = 20

/** The job summary's section (Markdown lines): what the list is, the commits linked, "and N more", or why it is empty. */
export function changesSection(c: ReleaseChanges, environment: string, max = SUMMARY_COMMITS): string[] {
  const host = c.host ?? 'GitHub'
  const link = (sha: string): string => (c.repoUrl ? `[\`${short(sha)}\`](${commitPage(host, c.repoUrl, sha)})` : `\`${short(sha)}\``)
  const pull = (n: number): string => {
    const page = pullPage(host, c.repoUrl ?? '', n)
    return c.repoUrl ? `[${page.label}](${page.url})` : page.label
  }
  const env = `'${environment}'`
  if (c.total === 0) return [`No commits listed: ${c.why ?? 'none between the two commits'}.`]
  const lines = [sectionIntro(c, env, link)]
  if (c.commits.length > 0) lines.push('')
  for (const x of c.commits.slice(0, max)) {
    // One the title names already is not named again (as the host writes it: #12 or !12).
    const pulls = x.pullRequests.filter((n) => !x.title.includes(pullPage(host, '', n).label))
    const named = pulls.map(pull).join(', ')
    lines.push(`- ${link(x.sha)} ${markdownText(x.title)}${named ? ` (${named})` : ''}${x.author === undefined ? '' : ` — ${markdownText(x.author)}`}`)
  }
  const more = moreThan(c, max)
  if (more > 0) lines.push(`- and ${more} more`)
  if (c.alsoTakenOut)
    lines.push('', `Ours is on another branch: the deploy also takes out ${c.alsoTakenOut} commit(s) of ${link(c.running ?? '?')} that ours lacks.`)
  if (c.pullLookups !== undefined) lines.push('', `Not every commit was asked for its pull requests: ${c.pullLookups}.`)
  return lines
}

function sectionIntro(c: ReleaseChanges, env: string, link: (sha: string) => string): string {
  const running = link(c.running ?? '?')
  const ours = link(c.ours ?? '?')
  if (c.rolledBack)
    return `**${c.total} commit(s) taken out by the rollback:** the failed release, ${ours}, had brought them over ${running}, which ${env} ran:`
  if (c.direction === 'removed') return `**${c.total} commit(s) taken out:** ${env} ran ${running}; ours, ${ours}, is older and lacks them.`
  return `**${c.total} commit(s)** from ${running}, which ${env} ran, to ours, ${ours}:`
}

/** Text as Markdown shows it literally: its control characters escaped. */
function markdownText(text: string): string {
  return text.replace(/[\\`*_[\]<>|]/g, (ch) => `\\${ch}`)
}
