// THE door to GitHub's REST API: the few calls the action makes (Deployments, their statuses, a compare
// of two commits; the status report's drift issues and their label), each with a time limit and the run's stop,
// answers read into small typed records.
// Everything GitHub does for the action is best effort: callers turn a failure into a warning.
import { describeError, systemErrorCode } from '../errors.js'
import { runContext, type RunContext } from '../port.js'
import { proxyFor } from '../http/proxy.js'
import { withRetry } from '../http/retry.js'
import { timeLimit } from '../http/time-limit.js'
import {
  CALL_LIMIT_MS,
  CodeHostCallFailed as GitHubCallFailed,
  MAX_LISTED_COMMITS,
  MAX_PULL_LOOKUPS,
  MAX_TAG_PAGES,
  short,
  type CodeHost,
  type CommitListing,
  type CommitSummary,
  type Comparison,
  type DeploymentListing,
  type DeploymentPayload,
  type DeploymentRecord as GitHubDeploymentRecord,
  type DeploymentStatusRecord,
  type DeploymentUpdate,
  type IssueEdit,
  type IssueRecord,
  type Tag as GitHubTag
} from '../code-host/port.js'

export type {
  CallFailure as GitHubFailure,
  CommitListing,
  CommitSummary,
  CompareStatus,
  Comparison,
  DeploymentListing,
  DeploymentPayload,
  DeploymentRecord as GitHubDeploymentRecord,
  DeploymentStatusRecord,
  IssueEdit,
  IssueRecord,
  Tag as GitHubTag
} from '../code-host/port.js'
export {
  CodeHostCallFailed as GitHubCallFailed,
  MAX_LISTED_COMMITS,
  MAX_LISTED_DEPLOYMENTS,
  MAX_PULL_LOOKUPS,
  MAX_TAG_PAGES,
  CALL_LIMIT_MS,
  short
} from '../code-host/port.js'

interface Answer {
  data: unknown
  headers: Record<string, unknown>
}

interface Octokit {
  request(route: string, params: Record<string, unknown>): Promise<{ status: number; data: unknown; headers: Record<string, unknown> }>
}

/** Attempts of a read that failed the way a moment's outage does (no answer, a 5xx): a blip must not refuse a deploy. */
const READ_ATTEMPTS = 3
/** Pages of 100 read when looking for a Deployment: the newest 300 of an environment are plenty, and bound the cost. */
const MAX_PAGES = 3
/** Pages of 100 open issues of one label read: more than 1000 drift issues is a mistake to stop at, not to page through. */
const MAX_ISSUE_PAGES = 10
/** Commits per page of a compare. */
const COMMIT_PAGE = 100

export interface GitHubRepo {
  readonly owner: string
  readonly repo: string
}

export class GitHubApi implements CodeHost {
  readonly host = 'GitHub'
  readonly deploymentNoun = 'GitHub Deployment'
  readonly keepsPayload = true
  private constructor(
    private readonly octokit: Octokit,
    readonly repo: GitHubRepo,
    /** The web address of the repository (for commit links). */
    readonly repoUrl: string,
    /** This workflow run's page, when the runner says which run this is. */
    readonly runUrl: string | undefined,
    /** The commit this run was started for (GITHUB_SHA); empty outside a runner. */
    readonly sha: string,
    /** The branch or tag this run was started for (GITHUB_REF). */
    readonly ref: string,
    private readonly signal: AbortSignal | undefined,
    /** Where GitHub's API is (GITHUB_API_URL), for messages. */
    readonly apiUrl: string,
    private readonly limitMs: number = CALL_LIMIT_MS,
    /** Attempts of a read; one for the closing calls, which have a short limit. */
    private readonly readAttempts: number = READ_ATTEMPTS
  ) {}

  /**
   * A client for the repository this run belongs to, as the face tells it (the port's runContext: the runner's
   * GITHUB_REPOSITORY, or the CLI's --repository); GitHub's API where @actions/github finds it (GITHUB_API_URL).
   */
  static async open(token: string, signal?: AbortSignal, run: RunContext = runContext()): Promise<GitHubApi> {
    const [owner, name] = run.repository.split('/')
    if (!owner || !name) throw new Error(`github-token is set, but no GitHub repository (owner/name) is known for it: '${run.repository}'`)
    const repo = { owner, repo: name }
    const github = await import('@actions/github')
    const octokit = github.getOctokit(token) as unknown as Octokit
    const apiUrl = github.context.apiUrl || 'https://api.github.com'
    return new GitHubApi(octokit, repo, `${run.serverUrl}/${owner}/${name}`, run.runUrl, run.sha, run.ref, signal, apiUrl)
  }

  /**
   * The same client for the run's closing calls (a GitHub Deployment's final status): not ended by the run's
   * stop, which already fired after a cancel or the watchdog, and with a short limit of its own.
   */
  closing(limitMs: number): GitHubApi {
    return new GitHubApi(this.octokit, this.repo, this.repoUrl, this.runUrl, this.sha, this.ref, undefined, this.apiUrl, limitMs, 1)
  }

  /** owner/name. */
  get project(): string {
    return `${this.repo.owner}/${this.repo.repo}`
  }

  get repoName(): string {
    return this.repo.repo
  }

  commitUrl(sha: string): string {
    return `${this.repoUrl}/commit/${sha}`
  }

  /** A status of a Deployment this run made: a cancel's is GitHub's `error`; a success makes the older ones inactive. */
  async setDeploymentState(id: number, update: DeploymentUpdate): Promise<void> {
    const state = update.state === 'canceled' ? 'error' : update.state
    await this.createStatus(id, {
      state,
      description: update.description,
      ...(update.logUrl ? { log_url: update.logUrl } : {}),
      ...(update.environmentUrl && state === 'success' ? { environment_url: update.environmentUrl } : {}),
      auto_inactive: state === 'success'
    })
  }

  async createDeployment(ref: string, environment: string, description: string, payload: DeploymentPayload): Promise<number> {
    const data = await this.call('Creating a GitHub Deployment', 'POST /repos/{owner}/{repo}/deployments', {
      ref,
      environment,
      description,
      payload,
      auto_merge: false,
      required_contexts: [],
      production_environment: /prod/i.test(environment),
      transient_environment: false
    })
    const id = (data as { id?: unknown }).id
    if (typeof id !== 'number') throw new GitHubCallFailed('Creating a GitHub Deployment', undefined, 'the answer carries no deployment id', 'failed')
    return id
  }

  async createStatus(id: number, params: Record<string, unknown>): Promise<void> {
    await this.call(`Setting the status of GitHub Deployment ${id}`, 'POST /repos/{owner}/{repo}/deployments/{deployment_id}/statuses', {
      deployment_id: id,
      ...params
    })
  }

  /** Deployments of this repository, newest first (of one environment when given), up to MAX_PAGES pages. */
  async listDeployments(environment?: string): Promise<GitHubDeploymentRecord[]> {
    return (await this.listDeploymentPages(environment)).deployments
  }

  /** The same, and whether that was all of them (`complete` false: GitHub holds older ones that were not read). */
  async listDeploymentPages(environment?: string): Promise<DeploymentListing> {
    const out: GitHubDeploymentRecord[] = []
    for (let page = 1; page <= MAX_PAGES; page++) {
      const data = await this.read('Listing GitHub Deployments', 'GET /repos/{owner}/{repo}/deployments', {
        ...(environment === undefined ? {} : { environment }),
        per_page: 100,
        page
      })
      const items = Array.isArray(data) ? (data as unknown[]) : []
      for (const item of items) {
        const record = toDeployment(item)
        if (record) out.push(record)
      }
      if (items.length < 100) return { deployments: out, complete: true }
    }
    return { deployments: out, complete: false }
  }

  /** Every tag of the repository (up to MAX_TAG_PAGES pages of 100; `complete` false when there were more). */
  async listTags(): Promise<{ tags: GitHubTag[]; complete: boolean }> {
    const tags: GitHubTag[] = []
    for (let page = 1; page <= MAX_TAG_PAGES; page++) {
      const data = await this.read('Listing the tags', 'GET /repos/{owner}/{repo}/tags', { per_page: 100, page })
      const items = Array.isArray(data) ? (data as unknown[]) : []
      for (const item of items) {
        const r = (item ?? {}) as { name?: unknown; commit?: { sha?: unknown } | null }
        if (typeof r.name === 'string' && typeof r.commit?.sha === 'string') tags.push({ name: r.name, sha: r.commit.sha })
      }
      if (items.length < 100) return { tags, complete: true }
    }
    return { tags, complete: false }
  }

  /** The newest status of a Deployment, or undefined when it has none. */
  async latestStatus(id: number): Promise<DeploymentStatusRecord | undefined> {
    const data = await this.read(`Reading the status of GitHub Deployment ${id}`, 'GET /repos/{owner}/{repo}/deployments/{deployment_id}/statuses', {
      deployment_id: id,
      per_page: 1
    })
    const first = Array.isArray(data) ? (data[0] as Record<string, unknown> | undefined) : undefined
    if (first === undefined || typeof first.state !== 'string') return undefined
    return { state: first.state, logUrl: stringOr(first.log_url) ?? stringOr(first.target_url), createdAt: stringOr(first.created_at) }
  }

  /** A Deployment's statuses, newest first (one page of 100: a deploy of this action sets three or four). */
  async listStatuses(id: number): Promise<DeploymentStatusRecord[]> {
    const data = await this.read(`Reading the statuses of GitHub Deployment ${id}`, 'GET /repos/{owner}/{repo}/deployments/{deployment_id}/statuses', {
      deployment_id: id,
      per_page: 100
    })
    const items = Array.isArray(data) ? (data as Array<Record<string, unknown> | null>) : []
    return items.flatMap((r) =>
      r !== null && typeof r.state === 'string'
        ? [{ state: r.state, logUrl: stringOr(r.log_url) ?? stringOr(r.target_url), createdAt: stringOr(r.created_at), description: stringOr(r.description) }]
        : []
    )
  }

  /** How `head` relates to `base` (commits, full or abbreviated). */
  async compare(base: string, head: string): Promise<Comparison> {
    const data = (await this.read(`Comparing ${short(base)} with ${short(head)}`, 'GET /repos/{owner}/{repo}/compare/{basehead}', {
      basehead: `${base}...${head}`,
      per_page: 1
    })) as Record<string, unknown>
    const status = data.status
    if (status !== 'ahead' && status !== 'behind' && status !== 'identical' && status !== 'diverged') {
      throw new GitHubCallFailed(`Comparing ${short(base)} with ${short(head)}`, undefined, `the answer's status is ${JSON.stringify(status)}`, 'failed')
    }
    return { status, aheadBy: numberOr(data.ahead_by), behindBy: numberOr(data.behind_by) }
  }

  /**
   * The commits reachable from `head` and not from `base`, oldest first as GitHub lists them, a page of 100 at a time
   * up to MAX_LISTED_COMMITS; the total from GitHub's count. Pull requests come from each title, else (for at most
   * `pullLookups` commits, the oldest first) from GitHub's pull requests of the commit: best effort, the first refusal
   * ends the lookups and says why.
   */
  async commitsBetween(base: string, head: string, pullLookups = MAX_PULL_LOOKUPS): Promise<CommitListing> {
    const what = `Listing the commits between ${short(base)} and ${short(head)}`
    const commits: CommitSummary[] = []
    let first: Record<string, unknown> | undefined
    for (let page = 1; commits.length < MAX_LISTED_COMMITS; page++) {
      const data = (await this.read(what, 'GET /repos/{owner}/{repo}/compare/{basehead}', {
        basehead: `${base}...${head}`,
        per_page: COMMIT_PAGE,
        page
      })) as Record<string, unknown>
      first ??= data
      const items = Array.isArray(data.commits) ? (data.commits as unknown[]) : []
      for (const item of items) {
        const commit = toCommit(item)
        if (commit !== undefined) commits.push(commit)
      }
      if (items.length < COMMIT_PAGE || commits.length >= totalOf(first)) break
    }
    const status = first?.status
    if (status !== 'ahead' && status !== 'behind' && status !== 'identical' && status !== 'diverged') {
      throw new GitHubCallFailed(what, undefined, `the answer's status is ${JSON.stringify(status)}`, 'failed')
    }
    const listed = commits.slice(0, MAX_LISTED_COMMITS)
    const lookups = await this.lookUpPullRequests(listed, pullLookups)
    return {
      status,
      commits: lookups.commits,
      total: Math.max(totalOf(first), listed.length),
      aheadBy: numberOr(first?.ahead_by),
      behindBy: numberOr(first?.behind_by),
      ...(lookups.why !== undefined && { pullLookups: lookups.why })
    }
  }

  /** The pull requests GitHub associates with a commit (numbers, as listed: for a commit of the default branch, the one that merged it). */
  async pullRequestsOf(sha: string): Promise<number[]> {
    const data = await this.read(`Listing the pull requests of commit ${short(sha)}`, 'GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls', {
      commit_sha: sha,
      per_page: 10
    })
    const items = Array.isArray(data) ? (data as unknown[]) : []
    return items.flatMap((p) => {
      const n = (p as { number?: unknown } | null)?.number
      return typeof n === 'number' ? [n] : []
    })
  }

  /** Each commit whose title names no pull request, up to `max` of them, asked of GitHub; the first failure ends the asking. */
  private async lookUpPullRequests(commits: CommitSummary[], max: number): Promise<{ commits: CommitSummary[]; why?: string }> {
    const out = [...commits]
    let asked = 0
    for (const [i, commit] of out.entries()) {
      if (commit.pullRequests.length > 0) continue
      if (asked >= max) return { commits: out, why: `only ${max} commits were asked for their pull requests` }
      asked++
      try {
        out[i] = { ...commit, pullRequests: await this.pullRequestsOf(commit.sha) }
      } catch (error) {
        if (!(error instanceof GitHubCallFailed)) throw error
        return { commits: out, why: error.message }
      }
    }
    return { commits: out }
  }

  /**
   * Every open issue (not pull request) carrying `label`, oldest first, following GitHub's Link header a page of 100
   * at a time. More than MAX_ISSUE_PAGES pages is a failure: an issue not seen could be opened twice.
   */
  async listOpenIssues(label: string): Promise<IssueRecord[]> {
    const what = `Listing the open issues labelled ${label}`
    const out: IssueRecord[] = []
    for (let page = 1; ; page++) {
      if (page > MAX_ISSUE_PAGES) throw new GitHubCallFailed(what, undefined, `more than ${MAX_ISSUE_PAGES * 100} are open`, 'failed')
      const answer = await this.readAnswer(what, 'GET /repos/{owner}/{repo}/issues', {
        labels: label,
        state: 'open',
        sort: 'created',
        direction: 'asc',
        per_page: 100,
        page
      })
      const items = Array.isArray(answer.data) ? (answer.data as unknown[]) : []
      for (const item of items) {
        const issue = toIssue(item)
        if (issue !== undefined) out.push(issue)
      }
      if (!/\brel="next"/.test(String(answer.headers.link ?? ''))) return out
    }
  }

  /** Opens an issue; a write, so never tried twice (a second attempt could open a second issue). */
  async createIssue(title: string, body: string, labels: readonly string[]): Promise<IssueRecord> {
    const what = 'Opening a GitHub issue'
    const issue = toIssue(await this.call(what, 'POST /repos/{owner}/{repo}/issues', { title, body, labels: [...labels] }))
    if (issue === undefined) throw new GitHubCallFailed(what, undefined, 'the answer carries no issue number', 'failed')
    return issue
  }

  async editIssue(number: number, edit: IssueEdit): Promise<void> {
    await this.call(`Editing GitHub issue #${number}`, 'PATCH /repos/{owner}/{repo}/issues/{issue_number}', {
      issue_number: number,
      ...(edit.title === undefined ? {} : { title: edit.title }),
      ...(edit.body === undefined ? {} : { body: edit.body }),
      ...(edit.state === undefined ? {} : { state: edit.state }),
      ...(edit.stateReason === undefined ? {} : { state_reason: edit.stateReason })
    })
  }

  async commentOnIssue(number: number, body: string): Promise<void> {
    await this.call(`Commenting on GitHub issue #${number}`, 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { issue_number: number, body })
  }

  /** The label, created when the repository lacks it; one created meanwhile by another run (422) is as good. */
  async ensureLabel(name: string, color: string, description: string): Promise<void> {
    try {
      await this.read(`Reading the label ${name}`, 'GET /repos/{owner}/{repo}/labels/{name}', { name })
      return
    } catch (error) {
      if (!(error instanceof GitHubCallFailed && error.status === 404)) throw error
    }
    try {
      await this.call(`Creating the label ${name}`, 'POST /repos/{owner}/{repo}/labels', { name, color, description })
    } catch (error) {
      if (!(error instanceof GitHubCallFailed && error.status === 422)) throw error
    }
  }

  /** A read: tried again after no answer or a 5xx (a moment's outage), never after a refusal; ended at once by the run's stop. */
  private async read(what: string, route: string, params: Record<string, unknown>): Promise<unknown> {
    return (await this.readAnswer(what, route, params)).data
  }

  /** A read with the answer's headers (a Link header to the next page). */
  private readAnswer(what: string, route: string, params: Record<string, unknown>): Promise<Answer> {
    return withRetry(() => this.exchange(what, route, params), {
      attempts: this.readAttempts,
      baseDelayMs: 1_000,
      maxDelayMs: 4_000,
      retryable: (error) => error instanceof GitHubCallFailed && (error.failure === 'unreachable' || error.failure === 'failed'),
      signal: this.signal
    })
  }

  private async call(what: string, route: string, params: Record<string, unknown>): Promise<unknown> {
    return (await this.exchange(what, route, params)).data
  }

  private async exchange(what: string, route: string, params: Record<string, unknown>): Promise<Answer> {
    const limit = timeLimit(this.limitMs, this.signal)
    try {
      const answer = await this.octokit.request(route, { ...this.repo, ...params, request: { signal: limit.signal } })
      return { data: answer.data, headers: answer.headers }
    } catch (error) {
      // The run's own stop (a cancel, the watchdog) is no failure of GitHub's: octokit reports an abort as HTTP 500.
      if (this.signal?.aborted) throw this.signal.reason
      if (limit.expired()) throw new GitHubCallFailed(what, undefined, `no answer from ${this.apiUrl} within ${this.limitMs / 1000} s`)
      const status = (error as { status?: unknown }).status
      // Octokit gives HTTP 500 with no answer to a call that reached nothing (DNS, a refused connection, a proxy).
      const answered = (error as { response?: unknown }).response !== undefined
      if (typeof status === 'number' && answered) {
        const limit = rateLimit(status, error)
        throw new GitHubCallFailed(what, status, `HTTP ${status} ${githubMessage(error, limit)}`.trim(), limit === undefined ? undefined : 'rate-limited')
      }
      throw new GitHubCallFailed(what, undefined, this.unreachable(error))
    } finally {
      limit.clear()
    }
  }

  /** Why GitHub could not be reached: the connection's own code, and the proxy it went through when one is set. */
  private unreachable(error: unknown): string {
    const code = systemErrorCode(error)
    const cause = (error as { cause?: { cause?: unknown; message?: unknown } }).cause
    const text = cause?.cause instanceof Error ? cause.cause.message : describeError(error)
    const proxy = proxyFor(this.apiUrl)
    const via = proxy ? ` through the proxy ${proxy.url} (set by ${proxy.variable})` : ''
    return `${this.apiUrl} could not be reached${via} (${code !== undefined && !text.includes(code) ? `${code}: ` : ''}${text})`
  }
}

function githubMessage(error: unknown, limit?: string): string {
  const data = (error as { response?: { data?: { message?: unknown } } }).response?.data
  const message = typeof data?.message === 'string' ? (limit !== undefined ? data.message.replace(/\.$/, '') : data.message) : undefined
  const parts = [message, limit].filter((p): p is string => p !== undefined && p !== '')
  return parts.length === 0 ? '' : `(${parts.join('; ')})`
}

/**
 * When a 403 or 429 is GitHub's rate limit (its primary one: x-ratelimit-remaining 0; a secondary one: retry-after; a
 * 429 is one either way), when it lifts, in words ('' when the answer does not say); undefined for any other answer.
 */
function rateLimit(status: number, error: unknown): string | undefined {
  if (status !== 403 && status !== 429) return undefined
  const headers = (error as { response?: { headers?: Record<string, unknown> } }).response?.headers ?? {}
  const remaining = headers['x-ratelimit-remaining']
  const retryAfter = Number(headers['retry-after'])
  const reset = Number(headers['x-ratelimit-reset'])
  if (String(remaining) !== '0' && !Number.isFinite(retryAfter) && status !== 429) return undefined
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return `the rate limit lifts in ${retryAfter} s`
  if (String(remaining) === '0' && Number.isFinite(reset) && reset > 0)
    return `the rate limit lifts at ${new Date(reset * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')}`
  return ''
}

/** A compare's count of its commits: total_commits, else ahead_by. */
function totalOf(data: Record<string, unknown> | undefined): number {
  return typeof data?.total_commits === 'number' ? data.total_commits : numberOr(data?.ahead_by)
}

/** The pull requests a commit's title names: "Title (#12)" (a squash merge), "Merge pull request #12 from ..." (a merge). */
export function pullRequestsIn(title: string): number[] {
  const numbers = [...title.matchAll(/\(#(\d+)\)/g), ...title.matchAll(/^Merge pull request #(\d+)\b/g)].map((m) => Number(m[1]))
  return [...new Set(numbers)]
}

/** A commit of a compare's answer; undefined without a sha. */
function toCommit(item: unknown): CommitSummary | undefined {
  if (item === null || typeof item !== 'object') return undefined
  const r = item as { sha?: unknown; author?: { login?: unknown } | null; commit?: { message?: unknown; author?: { name?: unknown } | null } | null }
  if (typeof r.sha !== 'string') return undefined
  const message = typeof r.commit?.message === 'string' ? r.commit.message : ''
  const title = message.split(/\r?\n/, 1)[0]?.trim() ?? ''
  return { sha: r.sha, title, author: stringOr(r.author?.login) ?? stringOr(r.commit?.author?.name), pullRequests: pullRequestsIn(title) }
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

function numberOr(value: unknown): number {
  return typeof value === 'number' ? value : 0
}

/** A payload GitHub gives back as an object, or as the JSON string it was given as. */
function toPayload(value: unknown): DeploymentPayload {
  let v = value
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v)
    } catch {
      return {}
    }
  }
  if (v === null || typeof v !== 'object') return {}
  const r = v as Record<string, unknown>
  return {
    distributionId: stringOr(r.distributionId),
    distributionName: stringOr(r.distributionName),
    previousDistributionId: stringOr(r.previousDistributionId),
    apiUrl: stringOr(r.apiUrl),
    ...(r.commit === 'unknown' && { commit: 'unknown' as const })
  }
}

function toDeployment(item: unknown): GitHubDeploymentRecord | undefined {
  if (item === null || typeof item !== 'object') return undefined
  const r = item as Record<string, unknown>
  if (typeof r.id !== 'number' || typeof r.sha !== 'string') return undefined
  const creator = (r.creator as { login?: unknown } | null | undefined)?.login
  return {
    id: r.id,
    sha: r.sha,
    environment: stringOr(r.environment) ?? '',
    payload: toPayload(r.payload),
    creator: stringOr(creator),
    createdAt: stringOr(r.created_at)
  }
}

/** An issue from GitHub's answer; a pull request (the issues list holds both) or an answer without a number is none. */
function toIssue(item: unknown): IssueRecord | undefined {
  if (item === null || typeof item !== 'object') return undefined
  const r = item as Record<string, unknown>
  if (typeof r.number !== 'number' || (r.pull_request !== undefined && r.pull_request !== null)) return undefined
  const labels = Array.isArray(r.labels) ? r.labels : []
  return {
    number: r.number,
    title: typeof r.title === 'string' ? r.title : '',
    body: typeof r.body === 'string' ? r.body : '',
    labels: labels.flatMap((l: unknown) => {
      const name = typeof l === 'string' ? l : (l as { name?: unknown } | null)?.name
      return typeof name === 'string' ? [name] : []
    }),
    htmlUrl: stringOr(r.html_url)
  }
}
