// GitLab's adapter for the code-host port (src/code-host/port.ts): the deploy order, recorded deployments, a release's
// commits, tags and the status report's drift issues, asked of GitLab's REST API v4 (./door.ts makes the calls).
// Everything the code's host does for a run is best effort: callers turn a failure into a warning.
import { runContext, type RunContext } from '../port.js'
import {
  CodeHostCallFailed,
  MAX_LISTED_COMMITS,
  MAX_LISTED_DEPLOYMENTS,
  MAX_PULL_LOOKUPS,
  MAX_TAG_PAGES,
  CALL_LIMIT_MS,
  commitPage,
  short,
  type CodeHost,
  type CommitListing,
  type CommitSummary,
  type Comparison,
  type CompareStatus,
  type DeploymentListing,
  type DeploymentPayload,
  type DeploymentRecord,
  type DeploymentStatusRecord,
  type DeploymentUpdate,
  type IssueEdit,
  type IssueRecord,
  type Tag
} from '../code-host/port.js'
import { proxyAwareDispatcher } from '../http/dispatcher.js'
import { gitlabWebUrl, isProjectId } from './address.js'
import { GitLabDoor } from './door.js'
import { GITLAB_STATUS, iidsOf, objectOr, toCommit, toDeployment, toIssue, toTag, type GitLabDeployment } from './records.js'

export { gitlabApiUrl, isGitLabProject } from './address.js'
export { GITLAB_STATUS } from './records.js'

export interface GitLabTarget {
  /** A personal, project or group access token, sent as PRIVATE-TOKEN. */
  readonly token: string
  /** 'group/sub/project', or the project's numeric id. */
  readonly project: string
  /** The instance's REST API v4 (gitlabApiUrl's answer), e.g. https://gitlab.com/api/v4. */
  readonly apiUrl: string
}

/** Pages of 100 open issues of one label read: more than 1000 drift issues is a mistake to stop at, not to page through. */
const MAX_ISSUE_PAGES = 10
/** Attempts of a read that failed the way a moment's outage does (no answer, a 5xx). */
const READ_ATTEMPTS = 3

/** What a door and its closing twin share: what was learned of the project and its deployments. */
interface Shared {
  /** Each deployment's status as last seen (listed, read, created or set): GitLab keeps one, not a history. */
  readonly deployments: Map<number, GitLabDeployment>
  defaultBranch: Promise<string> | undefined
}

interface Relation {
  readonly comparison: Comparison
  /** The commits reachable from head and not from base (compare's answer, oldest first). */
  readonly forward: readonly unknown[]
}

export class GitLabApi implements CodeHost {
  readonly host = 'GitLab' as const
  readonly deploymentNoun = 'GitLab deployment'
  /** GitLab's deployments carry no payload: `payload` is {} on every record, and nothing is read back from one. */
  readonly keepsPayload = false
  readonly project: string
  readonly repoName: string
  readonly repoUrl: string
  readonly apiUrl: string
  readonly runUrl: string | undefined
  readonly sha: string
  readonly ref: string
  /** The project in a path: its path or id, encoded as one segment. */
  private readonly at: string

  private constructor(
    target: Omit<GitLabTarget, 'token'>,
    run: Pick<RunContext, 'runUrl' | 'sha' | 'ref'>,
    private readonly door: GitLabDoor,
    private readonly shared: Shared
  ) {
    this.project = target.project
    this.apiUrl = target.apiUrl
    // A project known by its id has no name until read: nothing here needs one enough to spend a call.
    this.repoName = isProjectId(target.project) ? '' : (target.project.split('/').at(-1) ?? '')
    const web = gitlabWebUrl(target.apiUrl)
    this.repoUrl = isProjectId(target.project) ? `${web}/projects/${target.project}` : `${web}/${target.project}`
    this.runUrl = run.runUrl
    this.sha = run.sha
    this.ref = run.ref
    this.at = `/projects/${encodeURIComponent(target.project)}`
  }

  /** A door to `target`'s project for this run (its commit, ref and page from the face's run context); no call is made. */
  static open(target: GitLabTarget, signal?: AbortSignal, run: RunContext = runContext()): GitLabApi {
    const door = new GitLabDoor({
      apiUrl: target.apiUrl,
      token: target.token,
      dispatcher: proxyAwareDispatcher(target.apiUrl),
      signal,
      limitMs: CALL_LIMIT_MS,
      readAttempts: READ_ATTEMPTS
    })
    return new GitLabApi(target, run, door, { deployments: new Map(), defaultBranch: undefined })
  }

  /** The same door for the run's closing calls: not ended by the run's stop, one attempt, a short limit of its own. */
  closing(limitMs: number): GitLabApi {
    return new GitLabApi(this, this, this.door.closing(limitMs), this.shared)
  }

  commitUrl(sha: string): string {
    return commitPage('GitLab', this.repoUrl, sha)
  }

  /**
   * Records a deploy of commit `ref` to `environment` (GitLab creates the environment when it has none), under way.
   * GitLab's deployment has no description and no payload: both have nowhere to go, and are dropped. Its ref is the
   * branch or tag the run is for, its sha the commit (a ref name given instead is resolved first).
   */
  async createDeployment(ref: string, environment: string, _description: string, _payload: DeploymentPayload): Promise<number> {
    const what = 'Creating a GitLab deployment'
    const sha = isFullSha(ref) ? ref : await this.commitOf(ref)
    const run = await this.runRef()
    // 'running': GitLab takes no other status for a deployment under way when one is created ('created' is refused).
    const data = await this.door.write(what, 'POST', `${this.at}/deployments`, { environment, sha, ref: run.name, tag: run.tag, status: 'running' })
    const created = this.remember(data)
    if (created === undefined) throw new CodeHostCallFailed(what, undefined, 'the answer carries no deployment id', 'failed', 'GitLab')
    return created.record.id
  }

  /**
   * Sets a deployment's status. GitLab refuses a move to the status a deployment already has, so none is asked for
   * then (a deployment is created running). GitLab keeps no description or log address on a deployment: both are dropped.
   */
  async setDeploymentState(id: number, update: DeploymentUpdate): Promise<void> {
    const status = GITLAB_STATUS[update.state]
    let known = this.shared.deployments.get(id)
    if (known?.status !== status) {
      const data = await this.door.write(`Setting the status of GitLab deployment ${id}`, 'PUT', `${this.at}/deployments/${id}`, { status })
      known = this.remember(data) ?? known
    }
    if (update.state === 'success' && update.environmentUrl !== undefined && known?.environmentId !== undefined) {
      await this.showSite(known.environmentId, update.environmentUrl)
    }
  }

  /**
   * The site's address on the environment's page, best effort: the deployment's success is recorded already, and a
   * token that may record deployments but not edit environments must not turn it into a warning.
   */
  private async showSite(environmentId: number, url: string): Promise<void> {
    try {
      await this.door.write(`Setting the address of GitLab environment ${environmentId}`, 'PUT', `${this.at}/environments/${environmentId}`, {
        external_url: url
      })
    } catch (error) {
      if (!(error instanceof CodeHostCallFailed)) throw error
    }
  }

  /** Deployments newest first (of one environment when given), following GitLab's pages up to MAX_LISTED_DEPLOYMENTS. */
  async listDeploymentPages(environment?: string): Promise<DeploymentListing> {
    const query = new URLSearchParams({ ...(environment !== undefined && { environment }), order_by: 'id', sort: 'desc', per_page: '100' })
    const deployments: DeploymentRecord[] = []
    const complete = await this.door.pages('Listing GitLab deployments', `${this.at}/deployments?${query}`, MAX_LISTED_DEPLOYMENTS / 100, (items) => {
      for (const item of items) {
        const listed = this.remember(item)
        if (listed !== undefined) deployments.push(listed.record)
      }
    })
    return { deployments: deployments.slice(0, MAX_LISTED_DEPLOYMENTS), complete: complete && deployments.length <= MAX_LISTED_DEPLOYMENTS }
  }

  /**
   * A deployment's status: GitLab keeps only the current one. A deployment listed (or created, or set) by this door is
   * not asked for again: its status is as fresh as the listing the engine just read it from.
   */
  async latestStatus(id: number): Promise<DeploymentStatusRecord | undefined> {
    const known =
      this.shared.deployments.get(id) ?? this.remember((await this.door.read(`Reading GitLab deployment ${id}`, `${this.at}/deployments/${id}`)).data)
    return known?.statusRecord
  }

  async listStatuses(id: number): Promise<DeploymentStatusRecord[]> {
    const status = await this.latestStatus(id)
    return status === undefined ? [] : [status]
  }

  /** Every tag of the repository (up to MAX_TAG_PAGES pages of 100; `complete` false when there were more). */
  async listTags(): Promise<{ tags: Tag[]; complete: boolean }> {
    const tags: Tag[] = []
    const complete = await this.door.pages('Listing the tags', `${this.at}/repository/tags?per_page=100`, MAX_TAG_PAGES, (items) => {
      for (const item of items) {
        const tag = toTag(item)
        if (tag !== undefined) tags.push(tag)
      }
    })
    return { tags, complete }
  }

  /** How `head` relates to `base` (commits, branches or tags); a ref GitLab does not know is a 'not-found' failure. */
  async compare(base: string, head: string): Promise<Comparison> {
    return (await this.relate(`Comparing ${short(base)} with ${short(head)}`, base, head)).comparison
  }

  /**
   * The commits reachable from `head` and not from `base`, oldest first, up to MAX_LISTED_COMMITS (the total beside).
   * Merge requests come from each message, else (for at most `pullLookups` commits, the oldest first) from GitLab's
   * merge requests of the commit: best effort, the first refusal ends the lookups and says why.
   */
  async commitsBetween(base: string, head: string, pullLookups = MAX_PULL_LOOKUPS): Promise<CommitListing> {
    const relation = await this.relate(`Listing the commits between ${short(base)} and ${short(head)}`, base, head)
    const all = relation.forward.flatMap((item) => toCommit(item, this.project) ?? [])
    const lookups = await this.lookUpMergeRequests(all.slice(0, MAX_LISTED_COMMITS), pullLookups)
    return { ...relation.comparison, commits: lookups.commits, total: all.length, ...(lookups.why !== undefined && { pullLookups: lookups.why }) }
  }

  /**
   * The merge base first: it is how GitLab says a ref is unknown (compare answers an unknown `from` with no commits).
   * Then the commits each side has that the other lacks, each compare skipped when the merge base already tells its
   * answer (that side is the merge base itself: nothing is on it).
   */
  private async relate(what: string, base: string, head: string): Promise<Relation> {
    const identical: Relation = { comparison: { status: 'identical', aheadBy: 0, behindBy: 0 }, forward: [] }
    const mergeBase = await this.mergeBase(what, base, head)
    if (sameRef(base, head)) return identical
    let forward: readonly unknown[] = []
    if (!sameRef(head, mergeBase)) {
      const ahead = await this.commitsFrom(what, base, head)
      if (ahead.same) return identical
      forward = ahead.commits
    }
    let behindBy = 0
    if (!sameRef(base, mergeBase)) {
      const behind = await this.commitsFrom(what, head, base)
      if (behind.same) return identical
      behindBy = behind.commits.length
    }
    return { comparison: { status: statusOf(forward.length, behindBy), aheadBy: forward.length, behindBy }, forward }
  }

  private async mergeBase(what: string, base: string, head: string): Promise<string> {
    const query = new URLSearchParams([
      ['refs[]', base],
      ['refs[]', head]
    ])
    const id = objectOr((await this.door.read(what, `${this.at}/repository/merge_base?${query}`)).data)?.id
    if (typeof id !== 'string') throw new CodeHostCallFailed(what, undefined, 'the answer carries no merge base commit', 'failed', 'GitLab')
    return id
  }

  /** Compare's answer: the commits reachable from `to` and not from `from` (through their merge base), and whether both are one commit. */
  private async commitsFrom(what: string, from: string, to: string): Promise<{ same: boolean; commits: readonly unknown[] }> {
    const data = objectOr((await this.door.read(what, `${this.at}/repository/compare?${new URLSearchParams({ from, to })}`)).data)
    return { same: data?.compare_same_ref === true, commits: Array.isArray(data?.commits) ? (data.commits as unknown[]) : [] }
  }

  /** The merge requests GitLab relates to a commit (iids). */
  async mergeRequestsOf(sha: string): Promise<number[]> {
    const answer = await this.door.read(
      `Listing the merge requests of commit ${short(sha)}`,
      `${this.at}/repository/commits/${encodeURIComponent(sha)}/merge_requests`
    )
    return iidsOf(answer.data)
  }

  /** Each commit whose message names no merge request, up to `max` of them, asked of GitLab; the first failure ends the asking. */
  private async lookUpMergeRequests(commits: CommitSummary[], max: number): Promise<{ commits: CommitSummary[]; why?: string }> {
    const out = [...commits]
    let asked = 0
    for (const [i, commit] of out.entries()) {
      if (commit.pullRequests.length > 0) continue
      if (asked >= max) return { commits: out, why: `only ${max} commits were asked for their merge requests` }
      asked++
      try {
        out[i] = { ...commit, pullRequests: await this.mergeRequestsOf(commit.sha) }
      } catch (error) {
        if (!(error instanceof CodeHostCallFailed)) throw error
        return { commits: out, why: error.message }
      }
    }
    return { commits: out }
  }

  /**
   * Every open issue carrying `label`, oldest first, following GitLab's pages of 100. More than MAX_ISSUE_PAGES pages
   * is a failure: an issue not seen could be opened twice.
   */
  async listOpenIssues(label: string): Promise<IssueRecord[]> {
    const what = `Listing the open issues labelled ${label}`
    const query = new URLSearchParams({ labels: label, state: 'opened', order_by: 'created_at', sort: 'asc', per_page: '100' })
    const issues: IssueRecord[] = []
    const all = await this.door.pages(what, `${this.at}/issues?${query}`, MAX_ISSUE_PAGES, (items) => {
      for (const item of items) {
        const issue = toIssue(item)
        if (issue !== undefined) issues.push(issue)
      }
    })
    if (!all) throw new CodeHostCallFailed(what, undefined, `more than ${MAX_ISSUE_PAGES * 100} are open`, 'failed', 'GitLab')
    return issues
  }

  /** Opens an issue; a write, so never tried twice (a second attempt could open a second issue). */
  async createIssue(title: string, body: string, labels: readonly string[]): Promise<IssueRecord> {
    const what = 'Opening a GitLab issue'
    const issue = toIssue(await this.door.write(what, 'POST', `${this.at}/issues`, { title, description: body, labels: labels.join(',') }))
    if (issue === undefined) throw new CodeHostCallFailed(what, undefined, 'the answer carries no issue number', 'failed', 'GitLab')
    return issue
  }

  /** Changes the fields given; GitLab keeps no reason for a state, so stateReason is dropped. Nothing to change: no call. */
  async editIssue(number: number, edit: IssueEdit): Promise<void> {
    const fields = {
      ...(edit.title !== undefined && { title: edit.title }),
      ...(edit.body !== undefined && { description: edit.body }),
      ...(edit.state !== undefined && { state_event: edit.state === 'closed' ? 'close' : 'reopen' })
    }
    if (Object.keys(fields).length === 0) return
    await this.door.write(`Editing GitLab issue #${number}`, 'PUT', `${this.at}/issues/${number}`, fields)
  }

  async commentOnIssue(number: number, body: string): Promise<void> {
    await this.door.write(`Commenting on GitLab issue #${number}`, 'POST', `${this.at}/issues/${number}/notes`, { body })
  }

  /** The label, created when the project lacks it; one created meanwhile by another run (409) is as good. */
  async ensureLabel(name: string, color: string, description: string): Promise<void> {
    try {
      await this.door.read(`Reading the label ${name}`, `${this.at}/labels/${encodeURIComponent(name)}`)
      return
    } catch (error) {
      if (!(error instanceof CodeHostCallFailed && error.status === 404)) throw error
    }
    try {
      const hex = color.startsWith('#') ? color : `#${color}`
      await this.door.write(`Creating the label ${name}`, 'POST', `${this.at}/labels`, { name, color: hex, description })
    } catch (error) {
      if (!(error instanceof CodeHostCallFailed && error.status === 409)) throw error
    }
  }

  /** The commit a ref name (a branch, a tag, an abbreviated sha) is now. */
  private async commitOf(ref: string): Promise<string> {
    const what = `Reading the commit ${ref}`
    const id = objectOr((await this.door.read(what, `${this.at}/repository/commits/${encodeURIComponent(ref)}`)).data)?.id
    if (typeof id !== 'string') throw new CodeHostCallFailed(what, undefined, 'the answer carries no commit id', 'failed', 'GitLab')
    return id
  }

  /** The branch or tag this run is for (refs/heads/x, refs/tags/v1, or a bare name); the project's default branch when none is known. */
  private async runRef(): Promise<{ name: string; tag: boolean }> {
    if (this.ref.startsWith('refs/heads/')) return { name: this.ref.slice('refs/heads/'.length), tag: false }
    if (this.ref.startsWith('refs/tags/')) return { name: this.ref.slice('refs/tags/'.length), tag: true }
    if (this.ref !== '') return { name: this.ref, tag: false }
    return { name: await this.defaultBranch(), tag: false }
  }

  private defaultBranch(): Promise<string> {
    const what = `Reading the GitLab project ${this.project}`
    const read = (this.shared.defaultBranch ??= this.door.read(what, this.at).then(({ data }) => {
      const branch = objectOr(data)?.default_branch
      if (typeof branch !== 'string' || branch === '') throw new CodeHostCallFailed(what, undefined, 'the project has no default branch', 'failed', 'GitLab')
      return branch
    }))
    read.catch(() => {
      if (this.shared.defaultBranch === read) this.shared.defaultBranch = undefined
    })
    return read
  }

  /** A deployment from an answer, kept as last seen; undefined when the answer is none. */
  private remember(item: unknown): GitLabDeployment | undefined {
    const deployment = toDeployment(item)
    if (deployment !== undefined) this.shared.deployments.set(deployment.record.id, deployment)
    return deployment
  }
}

/** A full commit id (SHA-1 or SHA-256). */
function isFullSha(ref: string): boolean {
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i.test(ref)
}

/** Two refs that are one commit for sure: the same text, or the same full commit id in another case. */
function sameRef(a: string, b: string): boolean {
  return a === b || (isFullSha(a) && isFullSha(b) && a.toLowerCase() === b.toLowerCase())
}

function statusOf(aheadBy: number, behindBy: number): CompareStatus {
  if (aheadBy > 0 && behindBy > 0) return 'diverged'
  if (aheadBy > 0) return 'ahead'
  if (behindBy > 0) return 'behind'
  return 'identical'
}
