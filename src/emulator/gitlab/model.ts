// The project the GitLab API stand-in answers about: its repository (../commit-graph.ts), environments and their
// deployments, issues with their labels and notes, merge requests. GitLab's rules live here (a deployment's state
// machine, the validations of a new deployment, a label taken); no HTTP (server.ts renders it as GitLab's JSON), so
// tests and the simulation can seed history directly, as another job or person would have left it.
import { CommitGraph, fakeSha, type Commit, type CommitAuthor, type Relation } from '../commit-graph.js'
import { GitLabError } from './errors.js'

export { fakeSha, type Commit, type CommitAuthor }

/** A deployment's statuses (GitLab's enum); a client may create or set only running, success, failed and canceled. */
export const DEPLOYMENT_STATUSES = ['created', 'running', 'success', 'failed', 'canceled', 'skipped', 'blocked'] as const
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number]
export const SETTABLE_STATUSES = ['running', 'success', 'failed', 'canceled'] as const
export type SettableStatus = (typeof SETTABLE_STATUSES)[number]
const FINISHED: readonly DeploymentStatus[] = ['success', 'failed', 'canceled']

export interface GitLabUser {
  id: number
  username: string
  name: string
}

export const ENVIRONMENT_TIERS = ['production', 'staging', 'testing', 'development', 'other'] as const

export interface Environment {
  id: number
  name: string
  slug: string
  external_url: string | null
  state: 'available' | 'stopping' | 'stopped'
  tier: (typeof ENVIRONMENT_TIERS)[number]
  created_at: string
  updated_at: string
}

export interface Deployment {
  id: number
  /** Per project, from 1. */
  iid: number
  ref: string
  sha: string
  tag: boolean
  status: DeploymentStatus
  created_at: string
  updated_at: string
  /** Set when it reaches success, failed or canceled. */
  finished_at: string | null
  user: GitLabUser
  environment_id: number
}

export interface DeploymentInput {
  environment: string
  sha: string
  ref: string
  tag: boolean
  status: SettableStatus
}

/** A deployment another job or tool left: any status and times; its sha need not be a commit the model holds. */
export interface SeededDeployment {
  environment: string
  sha: string
  ref?: string
  tag?: boolean
  status: DeploymentStatus
  user?: GitLabUser
  created_at?: string
  updated_at?: string
  finished_at?: string | null
}

export interface Label {
  id: number
  name: string
  /** `#rrggbb` (or `#rgb`), as given. */
  color: string
  description: string | null
}

export interface Note {
  id: number
  body: string
  author: GitLabUser
  created_at: string
  updated_at: string
}

export interface Issue {
  id: number
  iid: number
  title: string
  description: string | null
  state: 'opened' | 'closed'
  /** Label names, in the order they were set. */
  labels: string[]
  author: GitLabUser
  notes: Note[]
  created_at: string
  updated_at: string
  closed_at: string | null
  closed_by: GitLabUser | null
}

export interface IssueInput {
  title: string
  description?: string | null
  labels?: string[]
  author?: GitLabUser
  /** Seeding only: an issue closed already. */
  state?: 'opened' | 'closed'
}

export interface IssueChange {
  title?: string
  description?: string | null
  stateEvent?: 'close' | 'reopen'
  labels?: string[]
  addLabels?: string[]
  removeLabels?: string[]
  user?: GitLabUser
}

export interface MergeRequest {
  id: number
  iid: number
  title: string
  state: 'opened' | 'closed' | 'merged' | 'locked'
  source_branch: string
  target_branch: string
  author: GitLabUser
  /** The commits it brought. */
  commits: string[]
  created_at: string
  updated_at: string
  merged_at: string | null
}

export interface MergeRequestInput {
  title: string
  commits: string[]
  state?: MergeRequest['state']
  source_branch?: string
  target_branch?: string
  author?: GitLabUser
}

export interface GitLabComparison {
  from: Commit
  to: Commit
  /** Reachable from `to` and not from `from`, oldest first. */
  commits: Commit[]
  /** Both refs name the same commit. */
  same: boolean
}

export const DEFAULT_USER: GitLabUser = { id: 1, username: 'project_1_bot', name: 'Deploy bot' }
/** The color GitLab gives a label it creates for an issue that names it. */
const DEFAULT_LABEL_COLOR = '#6699cc'
const ENVIRONMENT_NAME = /^[a-zA-Z0-9 _/${}.-]+$/
const ENVIRONMENT_NAME_RULE = "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'"

export interface ProjectInfo {
  id: number
  /** group/subgroup/name. */
  path: string
  defaultBranch: string
}

export class GitLabModel {
  readonly graph: CommitGraph
  private readonly environmentList: Environment[] = []
  private readonly deploymentList: Deployment[] = []
  private readonly issueList: Issue[] = []
  private readonly labelList: Label[] = []
  private readonly mergeRequestList: MergeRequest[] = []
  private nextId = { environment: 10, deployment: 500, issue: 7000, note: 90_000, label: 30, mergeRequest: 2000 }
  private nextIid = { deployment: 1, issue: 1, mergeRequest: 1 }

  constructor(
    readonly project: ProjectInfo,
    private readonly now: () => number = Date.now
  ) {
    this.graph = new CommitGraph(now)
  }

  // --- the repository ---

  /** Adds a commit (dated now unless `date` says); its parents need not be known. */
  commit(sha: string, parents: string[] = [], message?: string, author?: CommitAuthor, date?: string): string {
    return this.graph.commit(sha, parents, message, author, date)
  }

  linear(branch: string, shas: string[], dates?: string[]): string[] {
    return this.graph.linear(branch, shas, dates)
  }

  branch(name: string, sha: string): void {
    this.graph.branch(name, sha)
  }

  tag(name: string, sha: string): void {
    this.graph.tag(name, sha)
  }

  annotatedTag(name: string, sha: string, message?: string): string {
    return this.graph.annotatedTag(name, sha, message)
  }

  /** A sha, a short sha, a branch or a tag, as GitLab's commit lookup takes it; 404 Commit Not Found. */
  commitOf(ref: string): Commit {
    const commit = this.graph.commitOf(ref)
    if (commit === undefined) throw GitLabError.notFound('Commit')
    return commit
  }

  /** GitLab's compare: the commits of `to` that `from` lacks; an unknown ref is 404 Ref Not Found. */
  compare(fromRef: string, toRef: string): GitLabComparison {
    const from = this.graph.commitOf(fromRef)
    const to = this.graph.commitOf(toRef)
    if (from === undefined || to === undefined) throw GitLabError.notFound('Ref')
    if (from.sha === to.sha) return { from, to, commits: [], same: true }
    return { from, to, commits: this.graph.relate(from, to).ahead, same: false }
  }

  /** GitLab's merge base of two or more refs: 400 for fewer than two or an unknown one, 404 when they share no history. */
  mergeBase(refs: string[]): Commit {
    if (refs.length < 2) throw GitLabError.message(400, 'Provide at least 2 refs')
    const unknown = refs.filter((r) => this.graph.commitOf(r) === undefined)
    if (unknown.length > 0) throw GitLabError.message(400, `Could not find ${unknown.length === 1 ? 'ref' : 'refs'}: ${unknown.join(', ')}`)
    const [first, ...rest] = refs.map((r) => this.graph.commitOf(r) as Commit)
    let base: Commit | undefined = first
    for (const next of rest) {
      if (base === undefined) break
      base = (this.graph.relate(base, next) as Relation).mergeBase
    }
    if (base === undefined) throw GitLabError.notFound('Merge Base')
    return base
  }

  /** The branches by name, as GitLab lists them. */
  get branches(): Array<{ name: string; sha: string }> {
    return this.graph.branchEntries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }

  branchNamed(name: string): { name: string; sha: string } {
    const sha = this.graph.branchTip(name)
    if (sha === undefined) throw GitLabError.notFound('Branch')
    return { name, sha }
  }

  /** The tags, the last made first; the server orders them as asked. */
  get tags(): Array<{ name: string; sha: string }> {
    return this.graph.tagEntries.reverse()
  }

  // --- environments and deployments ---

  get environments(): readonly Environment[] {
    return [...this.environmentList]
  }

  environment(name: string): Environment | undefined {
    return this.environmentList.find((e) => e.name === name)
  }

  environmentOf(deployment: Deployment): Environment {
    return this.environmentList.find((e) => e.id === deployment.environment_id) as Environment
  }

  /** The environment of that name, created when missing as GitLab does for a new deployment; 400 for a name GitLab refuses. */
  ensureEnvironment(name: string, externalUrl: string | null = null): Environment {
    const existing = this.environment(name)
    if (existing !== undefined) return existing
    if (name === '' || name.length > 255 || !ENVIRONMENT_NAME.test(name) || name.startsWith('/') || name.endsWith('/')) {
      throw GitLabError.validation({ name: [ENVIRONMENT_NAME_RULE] })
    }
    const time = this.time()
    const environment: Environment = {
      id: this.nextId.environment++,
      name,
      slug: slugOf(name),
      external_url: externalUrl,
      state: 'available',
      tier: tierOf(name),
      created_at: time,
      updated_at: time
    }
    this.environmentList.push(environment)
    return environment
  }

  /**
   * What PUT /environments/:id does: the external URL (null clears it; GitLab takes only an http(s) address) and the
   * tier; another id is 404 Not found.
   */
  updateEnvironment(id: number, change: { externalUrl?: string | null; tier?: Environment['tier'] }): Environment {
    const environment = this.environmentList.find((e) => e.id === id)
    if (environment === undefined) throw GitLabError.message(404, '404 Not found')
    if (change.externalUrl !== undefined && change.externalUrl !== null && !isHttpUrl(change.externalUrl))
      throw GitLabError.validation({ external_url: ['is blocked: Only allowed schemes are http, https'] })
    if (change.externalUrl !== undefined) environment.external_url = change.externalUrl
    if (change.tier !== undefined) environment.tier = change.tier
    environment.updated_at = this.time()
    return environment
  }

  /** Oldest first; a copy of the list (the deployments themselves are live). */
  get deployments(): readonly Deployment[] {
    return [...this.deploymentList]
  }

  deployment(id: number): Deployment {
    const deployment = this.deploymentList.find((d) => d.id === id)
    if (deployment === undefined) throw GitLabError.message(404, '404 Not found')
    return deployment
  }

  /**
   * What POST /deployments does: the ref must name a commit (checked first), the environment is created when missing,
   * the sha must be a commit of the project; the same deploy as the environment's last successful one is answered with
   * that one (GitLab's create service), else a new deployment starts at created and moves to the status given.
   */
  createDeployment(input: DeploymentInput, user: GitLabUser = DEFAULT_USER): Deployment {
    if (this.graph.commitOf(input.ref) === undefined) throw GitLabError.message(400, { ref: ['The branch or tag does not exist'] })
    const environment = this.ensureEnvironment(input.environment)
    const last = this.lastSuccessful(environment)
    if (last !== undefined && last.ref === input.ref && last.tag === input.tag && last.sha === input.sha && last.status === input.status) return last
    if (this.graph.commitOf(input.sha) === undefined) throw GitLabError.validation({ sha: ['The commit does not exist'] })
    const deployment = this.push({ environment, sha: input.sha, ref: input.ref, tag: input.tag, status: 'created', user })
    this.transition(deployment, input.status)
    return deployment
  }

  /** What PUT /deployments/:id does, by GitLab's state machine: running only from created (or blocked); any other status from any but itself. */
  updateDeployment(id: number, status: SettableStatus): Deployment {
    const deployment = this.deployment(id)
    this.transition(deployment, status)
    return deployment
  }

  /** A deployment as another job or tool left it: any status and times, no check. */
  seedDeployment(seed: SeededDeployment): Deployment {
    const environment = this.ensureEnvironment(seed.environment)
    const deployment = this.push({
      environment,
      sha: seed.sha,
      ref: seed.ref ?? this.project.defaultBranch,
      tag: seed.tag ?? false,
      status: seed.status,
      user: seed.user ?? DEFAULT_USER
    })
    if (seed.created_at !== undefined) deployment.created_at = seed.created_at
    deployment.updated_at = seed.updated_at ?? deployment.created_at
    deployment.finished_at = seed.finished_at !== undefined ? seed.finished_at : FINISHED.includes(seed.status) ? deployment.updated_at : null
    return deployment
  }

  // --- issues, notes, labels ---

  /** Oldest first; a copy of the list (the issues themselves are live). */
  get issues(): readonly Issue[] {
    return [...this.issueList]
  }

  issue(iid: number): Issue {
    const issue = this.issueList.find((i) => i.iid === iid)
    if (issue === undefined) throw GitLabError.notFound('Issue')
    return issue
  }

  /** What POST /issues does (also seeds one someone else opened); a label it names that the project lacks is created. */
  addIssue(input: IssueInput): Issue {
    const time = this.time()
    const author = input.author ?? DEFAULT_USER
    const closed = input.state === 'closed'
    const issue: Issue = {
      id: this.nextId.issue++,
      iid: this.nextIid.issue++,
      title: input.title,
      description: input.description ?? null,
      state: closed ? 'closed' : 'opened',
      labels: this.labelNames(input.labels ?? []),
      author,
      notes: [],
      created_at: time,
      updated_at: time,
      closed_at: closed ? time : null,
      closed_by: closed ? author : null
    }
    this.issueList.push(issue)
    return issue
  }

  /** What PUT /issues/:iid does: the fields given; close records when and by whom, reopen clears it. */
  updateIssue(iid: number, change: IssueChange): Issue {
    const issue = this.issue(iid)
    const time = this.time()
    if (change.title !== undefined) issue.title = change.title
    if (change.description !== undefined) issue.description = change.description
    if (change.labels !== undefined) issue.labels = this.labelNames(change.labels)
    if (change.addLabels !== undefined) issue.labels = this.labelNames([...issue.labels, ...change.addLabels])
    if (change.removeLabels !== undefined) issue.labels = issue.labels.filter((l) => !change.removeLabels?.includes(l))
    if (change.stateEvent === 'close' && issue.state === 'opened') {
      Object.assign(issue, { state: 'closed', closed_at: time, closed_by: change.user ?? DEFAULT_USER })
    } else if (change.stateEvent === 'reopen' && issue.state === 'closed') {
      Object.assign(issue, { state: 'opened', closed_at: null, closed_by: null })
    }
    issue.updated_at = time
    return issue
  }

  /** What POST /issues/:iid/notes does. */
  addNote(iid: number, body: string, author: GitLabUser = DEFAULT_USER): Note {
    const issue = this.issue(iid)
    const time = this.time()
    const note: Note = { id: this.nextId.note++, body, author, created_at: time, updated_at: time }
    issue.notes.push(note)
    issue.updated_at = time
    return note
  }

  get labels(): readonly Label[] {
    return [...this.labelList]
  }

  /** A label by its id or its name (GitLab's `label_id`); names match with case, as GitLab stores them. */
  label(idOrName: string): Label | undefined {
    return this.labelList.find((l) => String(l.id) === idOrName) ?? this.labelList.find((l) => l.name === idOrName)
  }

  /** What POST /labels does: a name taken is 409 Label already exists. */
  addLabel(name: string, color: string = DEFAULT_LABEL_COLOR, description: string | null = null): Label {
    if (this.labelList.some((l) => l.name === name)) throw GitLabError.message(409, 'Label already exists')
    const label: Label = { id: this.nextId.label++, name, color, description }
    this.labelList.push(label)
    return label
  }

  // --- merge requests ---

  get mergeRequests(): readonly MergeRequest[] {
    return [...this.mergeRequestList]
  }

  /** A merge request that brought these commits (for GET .../commits/:sha/merge_requests). */
  addMergeRequest(input: MergeRequestInput): MergeRequest {
    for (const sha of input.commits) if (this.graph.getCommit(sha) === undefined) throw new Error(`Unknown commit ${sha}: add it with commit() first`)
    const time = this.time()
    const state = input.state ?? 'merged'
    const mr: MergeRequest = {
      id: this.nextId.mergeRequest++,
      iid: this.nextIid.mergeRequest++,
      title: input.title,
      state,
      source_branch: input.source_branch ?? `feature-${this.nextIid.mergeRequest - 1}`,
      target_branch: input.target_branch ?? this.project.defaultBranch,
      author: input.author ?? DEFAULT_USER,
      commits: [...input.commits],
      created_at: time,
      updated_at: time,
      merged_at: state === 'merged' ? time : null
    }
    this.mergeRequestList.push(mr)
    return mr
  }

  /** The merge requests that brought a commit; an unknown commit is 404 Commit Not Found. */
  mergeRequestsOf(ref: string): MergeRequest[] {
    const { sha } = this.commitOf(ref)
    return this.mergeRequestList.filter((mr) => mr.commits.includes(sha))
  }

  // --- inside ---

  private time(): string {
    return new Date(this.now()).toISOString()
  }

  private push(fields: { environment: Environment; sha: string; ref: string; tag: boolean; status: DeploymentStatus; user: GitLabUser }): Deployment {
    const time = this.time()
    const deployment: Deployment = {
      id: this.nextId.deployment++,
      iid: this.nextIid.deployment++,
      ref: fields.ref,
      sha: fields.sha,
      tag: fields.tag,
      status: fields.status,
      created_at: time,
      updated_at: time,
      finished_at: null,
      user: fields.user,
      environment_id: fields.environment.id
    }
    this.deploymentList.push(deployment)
    return deployment
  }

  /** GitLab's deployment state machine; a transition it refuses is 400 with the event named, as GitLab reports it. */
  private transition(deployment: Deployment, to: SettableStatus): void {
    const event = { running: 'run', success: 'succeed', failed: 'drop', canceled: 'cancel' }[to]
    const allowed = to === 'running' ? deployment.status === 'created' || deployment.status === 'blocked' : deployment.status !== to
    if (!allowed) throw GitLabError.validation({ status: [`cannot transition via "${event}"`] })
    const time = this.time()
    deployment.status = to
    deployment.updated_at = time
    if (FINISHED.includes(to)) deployment.finished_at = time
  }

  /** The environment's last successful deployment: the latest finished. */
  private lastSuccessful(environment: Environment): Deployment | undefined {
    return this.deploymentList
      .filter((d) => d.environment_id === environment.id && d.status === 'success')
      .sort((a, b) => (a.finished_at ?? '').localeCompare(b.finished_at ?? '') || a.id - b.id)
      .at(-1)
  }

  /** Names as given; one the project lacks is created with GitLab's default color. */
  private labelNames(names: string[]): string[] {
    const out: string[] = []
    for (const raw of names) {
      const name = raw.trim()
      if (name === '' || out.includes(name)) continue
      if (this.label(name) === undefined) this.addLabel(name)
      out.push(name)
    }
    return out
  }
}

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol)
  } catch {
    return false
  }
}

/** GitLab's slug of an environment: lower case, other characters '-', at most 24; a suffix when the name had to change. */
function slugOf(name: string): string {
  const plain = name
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '-')
    .replace(/^[^a-z]+/, '')
  if (plain === name && plain.length <= 24 && !plain.endsWith('-')) return plain
  const base = (plain === '' ? 'env' : plain).slice(0, 17).replace(/-+$/, '')
  return `${base}-${fakeSha(name).slice(0, 6)}`
}

/** The tier GitLab guesses from an environment's name. */
function tierOf(name: string): Environment['tier'] {
  if (/(dev|review|trunk)/i.test(name)) return 'development'
  if (/(test|tst|int|ac(ce|)pt|qa|qc|control|quality)/i.test(name)) return 'testing'
  if (/(st(a|)g|mod(e|)l|pre|demo|non)/i.test(name)) return 'staging'
  if (/(pr(o|)d|live)/i.test(name)) return 'production'
  return 'other'
}

/** The sample history: main's commits oldest first (the last is its tip), a branch off it, and tags. */
export interface SampleHistory {
  readonly main: readonly string[]
  /** A branch off main's second commit, its own commits oldest first: a deploy of it is on another line (diverged). */
  readonly branch: { readonly name: string; readonly commits: readonly string[] }
  /** The tags, oldest first: a lightweight one and an annotated one. */
  readonly tags: ReadonlyArray<{ readonly name: string; readonly commit: string; readonly annotated: boolean }>
}

/**
 * The history `brcloud emulator --gitlab` starts with: three commits on main, a branch of two commits off its second
 * (main moved on by one), v1.0.0 (lightweight) on its first and v1.1.0 (annotated) on its second; the commits an hour
 * apart (main's, then the branch's), the last now, so GitLab's tag order (by the tagged commit's date) has something to order.
 */
export function seedSampleHistory(model: GitLabModel, now: number = Date.now()): SampleHistory {
  const at = (hoursAgo: number): string => new Date(now - hoursAgo * 3_600_000).toISOString()
  const main = model.linear(model.project.defaultBranch, ['sample-1', 'sample-2', 'sample-3'].map(fakeSha), [at(4), at(3), at(2)])
  const [first = '', second = ''] = main
  const name = 'feature/search'
  model.branch(name, second)
  const commits = model.linear(name, ['sample-feature-1', 'sample-feature-2'].map(fakeSha), [at(2), at(1)])
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
