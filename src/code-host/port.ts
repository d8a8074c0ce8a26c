// THE port for the code's host: what the deploy order, the evidence, the recorded deployments, the soak gate, the
// changes of a release and the status report (its drift issues included) ask of the place the code lives. GitHub's
// adapter (src/github/client.ts) and GitLab's (src/gitlab/client.ts) answer it; nothing above them names either.
// The records are in the port's words (GitHub's, where both have one): each adapter maps its host's answers to them.
import type { PayloadChanges } from '../github/deployment-description.js'

/** Which host a door speaks to: in messages, and for the advice a failure needs. */
export type HostName = 'GitHub' | 'GitLab'

/** What a recorded deployment carries so a later run can tell which distribution it recorded (GitLab keeps none). */
export interface DeploymentPayload {
  readonly distributionId?: string | undefined
  readonly distributionName?: string | undefined
  /** What the environment ran before this deploy (its rollback target): pruning keeps it. */
  readonly previousDistributionId?: string | undefined
  /** The stack's API address: one repository may deploy to environments of the same name on several stacks. */
  readonly apiUrl?: string | undefined
  /** 'unknown': the deployment's commit is the promoting run's, not the distribution's (which no evidence named). */
  readonly commit?: 'unknown' | undefined
  /** override-reason, when the run was given one: the break-glass is on the record, with the rules it overrode. */
  readonly override?: { readonly reason: string; readonly overrode: readonly string[] } | undefined
  /** The newest backup of the environment the backup rule found: the one to restore. */
  readonly backupId?: string | undefined
  /** The release's commits (payloadChanges): written, never read back. */
  readonly changes?: PayloadChanges | undefined
}

export interface DeploymentRecord {
  readonly id: number
  readonly sha: string
  readonly environment: string
  readonly payload: DeploymentPayload
  readonly creator: string | undefined
  readonly createdAt: string | undefined
}

/** A listing of deployments, newest first, and whether it holds all of them (a listing reads at most MAX_LISTED_DEPLOYMENTS). */
export interface DeploymentListing {
  readonly deployments: DeploymentRecord[]
  readonly complete: boolean
}

/**
 * A deployment's state in the port's words: GitHub's, and `canceled` (a run stopped by a cancel or its watchdog: GitHub
 * shows it as `error`). GitLab's adapter maps `created` to queued, `running` to in_progress, `failed` to failure,
 * `blocked` to pending and `canceled`/`skipped` to canceled.
 */
export type DeploymentState = 'in_progress' | 'success' | 'failure' | 'error' | 'canceled' | 'queued' | 'pending' | 'inactive'

export interface DeploymentStatusRecord {
  readonly state: string
  readonly logUrl: string | undefined
  readonly createdAt: string | undefined
  readonly description?: string | undefined
}

/** A state set on a deployment this run recorded. */
export interface DeploymentUpdate {
  readonly state: 'in_progress' | 'success' | 'failure' | 'error' | 'canceled'
  /** One line (GitHub shows 140 characters; GitLab shows none). */
  readonly description: string
  readonly logUrl?: string | undefined
  /** The site's address, shown with a success. */
  readonly environmentUrl?: string | undefined
}

/** An issue as the drift issues need it (src/status/drift-issues.ts): `number` is GitLab's iid. */
export interface IssueRecord {
  readonly number: number
  readonly title: string
  readonly body: string
  readonly labels: readonly string[]
  readonly htmlUrl: string | undefined
}

/** What an edit of an issue changes: only the fields given. */
export interface IssueEdit {
  readonly title?: string
  readonly body?: string
  readonly state?: 'open' | 'closed'
  readonly stateReason?: 'completed' | 'not_planned' | 'reopened'
}

export type CompareStatus = 'ahead' | 'behind' | 'identical' | 'diverged'

export interface Comparison {
  /** How head relates to base. */
  readonly status: CompareStatus
  readonly aheadBy: number
  readonly behindBy: number
}

/** One commit of a release's changes. */
export interface CommitSummary {
  readonly sha: string
  /** The first line of its message. */
  readonly title: string
  /** The host's account matched to its author, else the git author's name; undefined when neither is given. */
  readonly author: string | undefined
  /** The pull (merge) requests its title names, else those the host associates with it (when looked up). */
  readonly pullRequests: readonly number[]
}

/** The commits reachable from head and not from base, oldest first (at most MAX_LISTED_COMMITS), and how many there are. */
export interface CommitListing {
  readonly status: CompareStatus
  readonly commits: readonly CommitSummary[]
  /** The host's count of them: more than `commits` holds when the list was capped. */
  readonly total: number
  readonly aheadBy: number
  readonly behindBy: number
  /** Why the pull requests of some commits were not looked up (a refusal, the bound of calls); undefined when all were. */
  readonly pullLookups?: string | undefined
}

/** A tag of the repository: its name and the commit it points at. */
export interface Tag {
  readonly name: string
  readonly sha: string
}

/**
 * Why a call to the host failed, in the terms a fix needs: it could not be reached (no answer), refused the token (401),
 * refused the permission (403), held the token to its rate limit (no permission is missing), does not know what was
 * asked for (404, 422), or failed itself (5xx, another answer).
 */
export type CallFailure = 'unreachable' | 'bad-token' | 'forbidden' | 'rate-limited' | 'not-found' | 'failed'

/** A refusal or failure of a call to the host, with the status when there was an answer. */
export class CodeHostCallFailed extends Error {
  override name = 'CodeHostCallFailed'
  readonly failure: CallFailure
  constructor(
    readonly call: string,
    readonly status: number | undefined,
    detail: string,
    failure?: CallFailure,
    readonly host: HostName = 'GitHub'
  ) {
    super(`${call}: ${detail}`)
    this.failure = failure ?? failureOf(status)
  }
}

function failureOf(status: number | undefined): CallFailure {
  if (status === undefined) return 'unreachable'
  if (status === 401) return 'bad-token'
  if (status === 403) return 'forbidden'
  if (status === 404 || status === 422) return 'not-found'
  return 'failed'
}

/** The most deployments one listing reads (3 pages of 100). */
export const MAX_LISTED_DEPLOYMENTS = 300
/** The most tags read (20 pages of 100): no host lists them in an order a pattern's newest can rely on. */
export const MAX_TAG_PAGES = 20
/** The most commits a release's changes list; the true count travels beside. */
export const MAX_LISTED_COMMITS = 250
/** Calls asking which pull (merge) requests brought a commit whose title names none: a courtesy, bounded. */
export const MAX_PULL_LOOKUPS = 20
/** Each call's own limit: a host answers these in well under a second; a hang must not hold the deploy. */
export const CALL_LIMIT_MS = 15_000

/** The code's host, as the engine asks it. Every call throws CodeHostCallFailed for the host's failures. */
export interface CodeHost {
  readonly host: HostName
  /** The project as its host names it: owner/name on GitHub, group/sub/project (or a numeric id) on GitLab. */
  readonly project: string
  /** The repository's own name (the path's last part): a distribution's default name carries it. */
  readonly repoName: string
  /** The repository's web address (for commit links). */
  readonly repoUrl: string
  /** This run's page, when known. */
  readonly runUrl: string | undefined
  /** The commit this run was started for; empty outside CI. */
  readonly sha: string
  /** The branch or tag this run was started for. */
  readonly ref: string
  /** Where the host's API is, for messages. */
  readonly apiUrl: string
  /** How the host calls a recorded deployment: "GitHub Deployment", "GitLab deployment". */
  readonly deploymentNoun: string
  /** Whether the host keeps a deployment's payload: GitLab's deployments carry none, so no evidence is read from them. */
  readonly keepsPayload: boolean

  /** The same door for the run's closing calls: not ended by the run's stop, with a short limit of its own. */
  closing(limitMs: number): CodeHost
  commitUrl(sha: string): string

  /** Records a deploy of `ref` (a commit) to `environment`; its id. A write: never tried twice. */
  createDeployment(ref: string, environment: string, description: string, payload: DeploymentPayload): Promise<number>
  setDeploymentState(id: number, update: DeploymentUpdate): Promise<void>
  /** Deployments newest first (of one environment when given), up to MAX_LISTED_DEPLOYMENTS. */
  listDeploymentPages(environment?: string): Promise<DeploymentListing>
  /** The newest status of a deployment, or undefined when it has none. */
  latestStatus(id: number): Promise<DeploymentStatusRecord | undefined>
  /** A deployment's statuses, newest first. */
  listStatuses(id: number): Promise<DeploymentStatusRecord[]>

  listTags(): Promise<{ tags: Tag[]; complete: boolean }>
  /** How `head` relates to `base` (commits, branches or tags). A ref the host does not know is a 'not-found' failure. */
  compare(base: string, head: string): Promise<Comparison>
  commitsBetween(base: string, head: string, pullLookups?: number): Promise<CommitListing>

  listOpenIssues(label: string): Promise<IssueRecord[]>
  createIssue(title: string, body: string, labels: readonly string[]): Promise<IssueRecord>
  editIssue(number: number, edit: IssueEdit): Promise<void>
  commentOnIssue(number: number, body: string): Promise<void>
  ensureLabel(name: string, color: string, description: string): Promise<void>
}

/** A commit's web page on its host: GitLab's project pages are under /-/ (its older paths answer 404 since GitLab 16.0). */
export function commitPage(host: HostName, repoUrl: string, sha: string): string {
  return host === 'GitLab' ? `${repoUrl}/-/commit/${sha}` : `${repoUrl}/commit/${sha}`
}

/** A pull (merge) request as its host writes it (GitHub's #12, GitLab's !12), and its web page. */
export function pullPage(host: HostName, repoUrl: string, n: number): { readonly label: string; readonly url: string } {
  return host === 'GitLab' ? { label: `!${n}`, url: `${repoUrl}/-/merge_requests/${n}` } : { label: `#${n}`, url: `${repoUrl}/pull/${n}` }
}

/** The first 7 characters of a commit, as both hosts show it. */
export function short(sha: string): string {
  return /^[0-9a-f]{8,40}$/i.test(sha) ? sha.slice(0, 7) : sha
}
