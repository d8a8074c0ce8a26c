// The repository the GitHub API stand-in answers about: a commit graph, branches and tags, deployments
// and their statuses, issues with their labels and comments. No HTTP here (server.ts renders it as GitHub's JSON), so end-to-end tests can
// seed history directly, as another job or tool would have left it.
import { CommitGraph, FULL_SHA, fakeSha, isoSeconds, type Commit, type CommitAuthor, type TagObject } from '../commit-graph.js'

export { fakeSha, isoSeconds, type Commit, type CommitAuthor, type TagObject }

export const DEPLOYMENT_STATES = ['error', 'failure', 'inactive', 'in_progress', 'queued', 'pending', 'success'] as const
export type DeploymentState = (typeof DEPLOYMENT_STATES)[number]

export interface Deployment {
  id: number
  sha: string
  /** The ref as the creator gave it (a branch, a tag, a sha or a short sha). */
  ref: string
  task: string
  payload: unknown
  original_environment: string
  /** A status naming another environment moves the deployment there, as on GitHub. */
  environment: string
  description: string | null
  creator: string
  created_at: string
  updated_at: string
  transient_environment: boolean
  production_environment: boolean
}

export interface DeploymentStatus {
  id: number
  deployment_id: number
  state: DeploymentState
  description: string
  environment: string
  log_url: string
  target_url: string
  environment_url: string
  creator: string
  created_at: string
  updated_at: string
}

export interface DeploymentInput {
  ref: string
  /** Seeding only: the sha when `ref` does not resolve in the graph (a deployment of a commit the model lacks). */
  sha?: string
  environment?: string
  description?: string | null
  payload?: unknown
  task?: string
  auto_merge?: boolean
  required_contexts?: string[]
  production_environment?: boolean
  transient_environment?: boolean
  creator?: string
}

export interface StatusInput {
  state: DeploymentState
  description?: string
  log_url?: string
  /** Legacy name of log_url; GitHub keeps both equal. */
  target_url?: string
  environment_url?: string
  environment?: string
  /** Default true, as on GitHub. */
  auto_inactive?: boolean
  /** GitHub only inactivates production deployments for a client sending the flash-preview media type (see addStatus). */
  inactivateProduction?: boolean
  creator?: string
}

export type CompareStatus = 'ahead' | 'behind' | 'identical' | 'diverged'

export interface Label {
  id: number
  name: string
  /** Six hex digits, no '#', as GitHub stores it. */
  color: string
  description: string | null
  default: boolean
}

/** GitHub's reasons for an issue's state: three to close it (duplicate the newest), and reopened. */
export const ISSUE_STATE_REASONS = ['completed', 'not_planned', 'duplicate', 'reopened'] as const
export type IssueStateReason = (typeof ISSUE_STATE_REASONS)[number]

export interface IssueComment {
  id: number
  body: string
  user: string
  created_at: string
  updated_at: string
}

export interface Issue {
  id: number
  /** Shared with pull requests, as on GitHub: one sequence per repository. */
  number: number
  title: string
  body: string | null
  state: 'open' | 'closed'
  state_reason: IssueStateReason | null
  /** Label names, in the order they were set. */
  labels: string[]
  user: string
  /** A pull request: the issues list holds both, with a pull_request field. */
  pullRequest: boolean
  comments: IssueComment[]
  created_at: string
  updated_at: string
  closed_at: string | null
  closed_by: string | null
}

export interface IssueInput {
  title: string
  body?: string | null
  labels?: string[]
  user?: string
  pullRequest?: boolean
  /** Seeding only: an issue closed already. */
  state?: 'open' | 'closed'
}

export interface IssueChange {
  title?: string
  body?: string | null
  state?: 'open' | 'closed'
  state_reason?: IssueStateReason | null
  labels?: string[]
  user?: string
}

export interface Comparison {
  base: Commit
  head: Commit
  mergeBase: Commit
  status: CompareStatus
  /** Reachable from head and not from base, oldest first (parents before children). */
  commits: Commit[]
  aheadBy: number
  behindBy: number
}

/** An answer GitHub would give instead of doing the thing; server.ts renders `{message, documentation_url, ...extra}`. */
export class GitHubError extends Error {
  override name = 'GitHubError'
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {}
  ) {
    super(message)
  }
}

export const DEFAULT_CREATOR = 'github-actions[bot]'

export class GitHubModel {
  /** The repository's history (../commit-graph.ts, shared with the GitLab stand-in). */
  readonly graph: CommitGraph
  private readonly deploymentList: Deployment[] = []
  private readonly statusList = new Map<number, DeploymentStatus[]>()
  private nextDeploymentId = 1000
  private nextStatusId = 5000
  private readonly issueList: Issue[] = []
  private readonly labelList: Label[] = []
  private nextIssueNumber = 1
  private nextIssueId = 700_000
  private nextCommentId = 900_000
  private nextLabelId = 300_000
  private readonly commitPulls = new Map<string, number[]>()

  constructor(private readonly now: () => number = Date.now) {
    this.graph = new CommitGraph(now)
  }

  /** Adds a commit; its parents need not be known (a shallow boundary: the walk stops there). */
  commit(sha: string, parents: string[] = [], message = `Commit ${sha.slice(0, 7)}`, author?: CommitAuthor): string {
    return this.graph.commit(sha, parents, message, author)
  }

  /** Links a pull request (an issue added with pullRequest: true) to a commit it brought, as GitHub associates them. */
  associatePullRequest(number: number, sha: string): void {
    const pull = this.issue(number)
    if (pull === undefined || !pull.pullRequest) throw new Error(`#${number} is not a pull request of the model (addIssue({ pullRequest: true }) first)`)
    if (this.graph.getCommit(sha) === undefined) throw new Error(`Unknown commit ${sha}: add it with commit() first`)
    const list = this.commitPulls.get(sha) ?? []
    if (!list.includes(number)) list.push(number)
    this.commitPulls.set(sha, list)
  }

  /** The pull requests associated with a commit (GitHub's "List pull requests associated with a commit"); an unknown commit is not found (404). */
  pullsOf(ref: string): Issue[] {
    const commit = this.commitOf(ref)
    return (this.commitPulls.get(commit.sha) ?? []).flatMap((n) => this.issue(n) ?? [])
  }

  /** Creates or moves (force-pushes) a branch. */
  branch(name: string, sha: string): void {
    this.graph.branch(name, sha)
  }

  /** A lightweight tag: the name points at the commit itself. */
  tag(name: string, sha: string): void {
    this.graph.tag(name, sha)
  }

  /** An annotated tag: a tag object (its own sha, a message) pointing at the commit; returns the object's sha. */
  annotatedTag(name: string, sha: string, message = `Release ${name}`): string {
    return this.graph.annotatedTag(name, sha, message)
  }

  /** The object of an annotated tag; undefined for a lightweight one, or no tag. */
  tagObject(name: string): TagObject | undefined {
    return this.graph.tagObject(name)
  }

  /** The tags, the last made first (GitHub documents no order for its tag listing). */
  get tagList(): Array<{ name: string; sha: string }> {
    return this.graph.tagEntries.reverse()
  }

  branchTip(name: string): string | undefined {
    return this.graph.branchTip(name)
  }

  /** A chain of commits on `branch`, the first one's parent the branch's current tip (if any); moves the branch to the last. */
  linear(branch: string, shas: string[]): string[] {
    return this.graph.linear(branch, shas)
  }

  getCommit(sha: string): Commit | undefined {
    return this.graph.getCommit(sha)
  }

  /** A branch, a tag, `refs/heads/...`, `refs/tags/...`, a known full sha, or a unique prefix of >= 7 hex of one. */
  resolve(ref: string): string | undefined {
    return this.graph.resolve(ref)
  }

  /** Oldest first; a copy. */
  get deployments(): readonly Deployment[] {
    return [...this.deploymentList]
  }

  deployment(id: number): Deployment | undefined {
    return this.deploymentList.find((d) => d.id === id)
  }

  /** Newest first, as GitHub lists them. */
  statuses(id: number): readonly DeploymentStatus[] {
    return [...(this.statusList.get(id) ?? [])].reverse()
  }

  /** What POST .../deployments does; also seeds history (a deployment another run created). */
  addDeployment(input: DeploymentInput): Deployment {
    const sha = this.resolve(input.ref) ?? (input.sha !== undefined && FULL_SHA.test(input.sha) ? input.sha : undefined)
    if (sha === undefined) throw new GitHubError(422, `No ref found for: ${input.ref}`)
    const environment = input.environment ?? 'production'
    const time = isoSeconds(this.now())
    const deployment: Deployment = {
      id: this.nextDeploymentId++,
      sha,
      ref: input.ref,
      task: input.task ?? 'deploy',
      payload: input.payload ?? {},
      original_environment: environment,
      environment,
      description: input.description ?? null,
      creator: input.creator ?? DEFAULT_CREATOR,
      created_at: time,
      updated_at: time,
      transient_environment: input.transient_environment ?? false,
      production_environment: input.production_environment ?? environment === 'production'
    }
    this.deploymentList.push(deployment)
    this.statusList.set(deployment.id, [])
    return deployment
  }

  /**
   * What POST .../statuses does. GitHub documents auto_inactive (default true) as: adds an `inactive`
   * status to all prior non-transient, non-production deployments of the same repository and environment
   * that had a `success` state; production ones only for a client sending the flash-preview media type.
   * "Had a success state" is read as: their latest status is success (an inactive one is left alone).
   */
  addStatus(deploymentId: number, input: StatusInput): DeploymentStatus {
    const deployment = this.deployment(deploymentId)
    if (deployment === undefined) throw new GitHubError(404, 'Not Found')
    const previous = this.statusList.get(deploymentId)?.at(-1)
    const environment = input.environment ?? previous?.environment ?? deployment.environment
    const status = this.pushStatus(deployment, {
      state: input.state,
      description: input.description ?? '',
      environment,
      log_url: input.log_url ?? input.target_url ?? '',
      environment_url: input.environment_url ?? '',
      creator: input.creator ?? DEFAULT_CREATOR
    })
    if (input.environment !== undefined) deployment.environment = input.environment
    if (input.state === 'success' && (input.auto_inactive ?? true)) this.inactivatePrior(deployment, status.creator, input.inactivateProduction ?? false)
    return status
  }

  /** Oldest first; a copy of the list (the issues themselves are live). */
  get issues(): readonly Issue[] {
    return [...this.issueList]
  }

  issue(number: number): Issue | undefined {
    return this.issueList.find((i) => i.number === number)
  }

  get labels(): readonly Label[] {
    return [...this.labelList]
  }

  /** A label by name, as GitHub matches them: without case. */
  label(name: string): Label | undefined {
    return this.labelList.find((l) => l.name.toLowerCase() === name.toLowerCase())
  }

  /** What POST .../labels does; a name taken (without case) is GitHub's 422 already_exists. */
  addLabel(name: string, color = 'ededed', description: string | null = null): Label {
    if (this.label(name) !== undefined) {
      throw new GitHubError(422, 'Validation Failed', { errors: [{ resource: 'Label', code: 'already_exists', field: 'name' }] })
    }
    const label: Label = { id: this.nextLabelId++, name, color: color.toLowerCase(), description, default: false }
    this.labelList.push(label)
    return label
  }

  /** What POST .../issues does (also seeds one another user opened); an unknown label is created, as GitHub does. */
  addIssue(input: IssueInput): Issue {
    const time = isoSeconds(this.now())
    const user = input.user ?? DEFAULT_CREATOR
    const closed = input.state === 'closed'
    const issue: Issue = {
      id: this.nextIssueId++,
      number: this.nextIssueNumber++,
      title: input.title,
      body: input.body ?? null,
      state: closed ? 'closed' : 'open',
      state_reason: closed ? 'completed' : null,
      labels: this.labelNames(input.labels ?? []),
      user,
      pullRequest: input.pullRequest ?? false,
      comments: [],
      created_at: time,
      updated_at: time,
      closed_at: closed ? time : null,
      closed_by: closed ? user : null
    }
    this.issueList.push(issue)
    return issue
  }

  /** What PATCH .../issues/{number} does: the fields given; a close records when and by whom, a reopen clears it. */
  updateIssue(number: number, change: IssueChange): Issue {
    const issue = this.issue(number)
    if (issue === undefined) throw new GitHubError(404, 'Not Found')
    const time = isoSeconds(this.now())
    if (change.title !== undefined) issue.title = change.title
    if (change.body !== undefined) issue.body = change.body
    if (change.labels !== undefined) issue.labels = this.labelNames(change.labels)
    if (change.state === 'closed' && issue.state === 'open') {
      issue.state = 'closed'
      issue.closed_at = time
      issue.closed_by = change.user ?? DEFAULT_CREATOR
      issue.state_reason = change.state_reason ?? 'completed'
    } else if (change.state === 'open' && issue.state === 'closed') {
      issue.state = 'open'
      issue.closed_at = null
      issue.closed_by = null
      issue.state_reason = 'reopened'
    } else if (change.state_reason !== undefined && issue.state === 'closed') {
      issue.state_reason = change.state_reason
    }
    issue.updated_at = time
    return issue
  }

  /** What POST .../issues/{number}/comments does. */
  addComment(number: number, body: string, user: string = DEFAULT_CREATOR): IssueComment {
    const issue = this.issue(number)
    if (issue === undefined) throw new GitHubError(404, 'Not Found')
    const time = isoSeconds(this.now())
    const comment: IssueComment = { id: this.nextCommentId++, body, user, created_at: time, updated_at: time }
    issue.comments.push(comment)
    issue.updated_at = time
    return comment
  }

  /** Names as the repository spells them; an unknown one created. */
  private labelNames(names: string[]): string[] {
    const out: string[] = []
    for (const name of names) {
      const label = this.label(name) ?? this.addLabel(name)
      if (!out.includes(label.name)) out.push(label.name)
    }
    return out
  }

  /** Walks base...head like `git log base..head` and finds the merge base; throws GitHub's 404s. */
  compare(baseRef: string, headRef: string): Comparison {
    const r = this.graph.relate(this.commitOf(baseRef), this.commitOf(headRef))
    if (r.mergeBase === undefined) throw new GitHubError(404, `No common ancestor between ${baseRef} and ${headRef}.`)
    const { base, head, mergeBase, ahead, behindBy } = r
    return { base, head, mergeBase, status: compareStatus(ahead.length, behindBy), commits: ahead, aheadBy: ahead.length, behindBy }
  }

  private pushStatus(
    deployment: Deployment,
    fields: Omit<DeploymentStatus, 'id' | 'deployment_id' | 'target_url' | 'created_at' | 'updated_at'>
  ): DeploymentStatus {
    const time = isoSeconds(this.now())
    const status: DeploymentStatus = {
      id: this.nextStatusId++,
      deployment_id: deployment.id,
      ...fields,
      target_url: fields.log_url,
      created_at: time,
      updated_at: time
    }
    this.statusList.get(deployment.id)?.push(status)
    deployment.updated_at = time
    return status
  }

  private inactivatePrior(current: Deployment, creator: string, includeProduction: boolean): void {
    for (const d of this.deploymentList) {
      if (d.id >= current.id || d.environment !== current.environment || d.transient_environment) continue
      if (d.production_environment && !includeProduction) continue
      const last = this.statusList.get(d.id)?.at(-1)
      if (last?.state !== 'success') continue
      this.pushStatus(d, { state: 'inactive', description: '', environment: d.environment, log_url: '', environment_url: '', creator })
    }
  }

  private commitOf(ref: string): Commit {
    const commit = this.graph.commitOf(ref)
    if (commit === undefined) throw new GitHubError(404, 'Not Found')
    return commit
  }
}

/** The sample history: main's commits oldest first (the last is its tip), a branch off it, and tags. */
export interface SampleHistory {
  readonly main: readonly string[]
  /** A branch off main's second commit, its own commits oldest first: a deploy of it is on another line (diverged). */
  readonly branch: { readonly name: string; readonly commits: readonly string[] }
  /** The tags, oldest first: a lightweight one and an annotated one (`track: v*` stands for the newest). */
  readonly tags: ReadonlyArray<{ readonly name: string; readonly commit: string; readonly annotated: boolean }>
}

/**
 * The history `brcloud emulator --github` starts with, as a user trying the deploy order and the status report needs
 * it: three commits on main, a branch of two commits off its second (main moved on by one), v1.0.0 (lightweight) on
 * its first and v1.1.0 (annotated) on its second.
 */
export function seedSampleHistory(model: GitHubModel): SampleHistory {
  const main = model.linear('main', ['sample-1', 'sample-2', 'sample-3'].map(fakeSha))
  const [first = '', second = ''] = main
  const name = 'feature/search'
  model.branch(name, second)
  const commits = model.linear(name, ['sample-feature-1', 'sample-feature-2'].map(fakeSha))
  model.tag('v1.0.0', first)
  model.annotatedTag('v1.1.0', second, 'Release 1.1.0')
  return {
    main,
    branch: { name, commits },
    tags: [
      { name: 'v1.0.0', commit: first, annotated: false },
      { name: 'v1.1.0', commit: second, annotated: true }
    ]
  }
}

function compareStatus(aheadBy: number, behindBy: number): CompareStatus {
  if (aheadBy === 0 && behindBy === 0) return 'identical'
  if (behindBy === 0) return 'ahead'
  return aheadBy === 0 ? 'behind' : 'diverged'
}
