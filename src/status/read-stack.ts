// One stack read for the status report, through the action's own doors: a session logged in with the stack's login,
// the client's environment list and distribution lookups (GETs only: this module calls nothing that changes the
// stack), the code host's deployments (GitHub's or GitLab's) through the evidence the deploy order uses, and the refresh token revoked at the end.
import * as core from '../port.js'
import { CloudApi, type CloudRetry } from '../cloud/api.js'
import { CloudClient, type Distribution, type Environment } from '../cloud/client.js'
import { commitInName } from '../cloud/distribution-name.js'
import { loginMethodFor } from '../cloud/login/choose.js'
import { CloudSession } from '../cloud/session.js'
import { switching } from '../cloud/platform-reading.js'
import { describeError } from '../errors.js'
import {
  CodeHostCallFailed as GitHubCallFailed,
  MAX_LISTED_DEPLOYMENTS,
  MAX_TAG_PAGES,
  short,
  type CodeHost,
  type Comparison,
  type DeploymentRecord,
  type HostName,
  type Tag
} from '../code-host/port.js'
import { checkHealth, type HealthAttempt } from '../health.js'
import { DeploymentHistory, GONE_FROM_STACK, type CommitEvidence } from '../code-host/evidence.js'
import { HttpTransport } from '../http/transport.js'
import type { Login } from '../inputs/login.js'
import { freezeOf, healthOf, trackOf, trackOrigin, type StackConfig } from './config.js'
import { freezeRow, listBackupsOnce, newestBackupRow, type BackupListing } from './release-rules.js'
import { blankRow, stateOfComparison, type EnvironmentRow, type LastDeployment } from './row.js'
import type { StopControl } from './stop.js'
import { isTagPattern, newestTag } from './track.js'
import type { EnvironmentTiming } from './timing.js'

/** The code's host, when a token and a repository were given: the client, and one compare per (ref, commit) for the whole report. */
export interface CodeHostSide {
  readonly api: CodeHost
  compare(base: string, head: string): Promise<Comparison>
  /** The repository's tags, listed once for the whole report (for tracked tag patterns). */
  tags(): Promise<{ tags: Tag[]; complete: boolean }>
  /** Whether the host knows `ref` (a branch, a tag or a commit), asked once per report; throws a GitHubCallFailed when it cannot say. */
  refKnown(ref: string): Promise<boolean>
}

export interface StackReadOptions {
  readonly host: CodeHostSide | undefined
  /** owner/name, also without a token: a distribution's name carries a commit only of this repository. */
  readonly repository: string | undefined
  readonly userAgent: string
  readonly requestTimeoutMs: number
  readonly retry: CloudRetry
  /** The health probe's one attempt, redirects included. */
  readonly healthTimeoutMs: number
  readonly stop?: StopControl | undefined
  /** The report's clock (the simulation's is fake): a freeze in force, and a backup's age, are as of its now. */
  readonly now: () => number
}

export interface StackReading {
  readonly name: string
  readonly apiUrl: string
  readonly rows: EnvironmentRow[]
  /** Why the stack, or one of its environments, could not be read: the report fails closed on any. */
  readonly errors: string[]
  /** Why the code's host could not be read for it (given, and failing): fails closed too. */
  readonly githubErrors: string[]
  /** A tracked ref the host does not know, or a pattern no tag matches (a typo), with where it was written: fails closed too. */
  readonly trackErrors: string[]
  /** When the read began and ended, and each environment's read (the trace's times, ./timing.ts). */
  readonly startedAt: number
  endedAt: number
  readonly timings: EnvironmentTiming[]
}

/** Reads `stack` (logged in with `login`); never throws: what could not be read is in its rows and errors. */
export async function readStack(stack: StackConfig, login: Login, options: StackReadOptions): Promise<StackReading> {
  const { apiUrl } = stack.address
  const target = stack.address.stack ? `stack '${stack.address.stack}' (${apiUrl})` : apiUrl
  const signal = options.stop?.signal
  const transport = new HttpTransport(apiUrl, { userAgent: options.userAgent, timeoutMs: options.requestTimeoutMs, signal })
  const api = new CloudApi(transport, { retry: { ...options.retry, signal }, callTimeoutMs: options.requestTimeoutMs })
  const session = new CloudSession(api, loginMethodFor(login, target, { attempts: options.retry.attempts }), { target })
  const reading: StackReading = {
    name: stack.name,
    apiUrl,
    rows: [],
    errors: [],
    githubErrors: [],
    trackErrors: [],
    startedAt: Date.now(),
    endedAt: 0,
    timings: []
  }
  const reader = new EnvironmentReader(stack, new CloudClient(api, session), options, reading)
  try {
    const environments = await listed(reader.client, stack, reading)
    // One backup listing for the stack, read beside its environments.
    const backups = environments.some((e) => typeof e !== 'string') ? listBackupsOnce(reader.client) : undefined
    reading.rows.push(...(await Promise.all(environments.map((e) => (typeof e === 'string' ? missing(stack, e, reading) : reader.read(e, backups))))))
    // The environments are read together: their refs' failures in the order of the rows, not of the answers.
    const rowOf = (reason: string): number => reading.rows.findIndex((r) => r.reason === reason)
    reading.trackErrors.sort((a, b) => rowOf(a) - rowOf(b))
  } catch (error) {
    const reason = `the stack could not be read: ${describeError(error)}`
    reading.errors.push(reason)
    reading.rows.length = 0
    // Its rows were not read on their own: the stack's read is theirs.
    reading.timings.length = 0
    for (const environment of stack.environments ?? [null]) reading.rows.push({ ...blankRow(stack.name, environment, trackOf(stack, environment)), reason })
  } finally {
    // Nothing this report logged in with stays valid after it (a password login's refresh token lives 24 hours). After
    // a cancel, through a door of its own that the cancel does not end, with the cancel's short limit (stop.ts).
    const closing = signal?.aborted === true ? closingDoor(apiUrl, options) : undefined
    if (closing !== undefined) session.reroute(closing.api, closing.limitMs)
    const failed = await session.revoke(closing?.api ?? api)
    if (failed !== undefined)
      core.warning(`Stack '${stack.name}': could not revoke the report's refresh token (${failed}); it expires by itself within 24 hours.`)
    await Promise.all([transport.close(), closing?.transport.close()]).catch(() => undefined)
  }
  // A freeze is the configuration's and the clock's: known also for an environment that could not be read.
  const now = options.now()
  reading.rows.forEach((row, i) => {
    reading.rows[i] = { ...row, freeze: row.environment === null ? null : freezeRow(freezeOf(stack, row.environment), now) }
  })
  reading.endedAt = Date.now()
  return reading
}

/** The closing calls' door after a cancel: one attempt each, within the cancel's limit. */
function closingDoor(apiUrl: string, options: StackReadOptions): { transport: HttpTransport; api: CloudApi; limitMs: number } {
  const limitMs = options.stop?.closeLimitMs() ?? options.requestTimeoutMs
  const transport = new HttpTransport(apiUrl, { userAgent: options.userAgent, timeoutMs: limitMs })
  return { transport, api: new CloudApi(transport, { retry: { attempts: 1 } }), limitMs }
}

/** The environments to report: those the file names, in its order (a name the stack lacks stays a string), else every one listed. */
async function listed(client: CloudClient, stack: StackConfig, reading: StackReading): Promise<Array<Environment | string>> {
  const list = await client.listEnvironments()
  if (stack.environments === undefined) {
    if (!list.complete) {
      const reason = `the platform said the stack has more environments than the ${list.items.length} it listed, and would not list the rest`
      reading.errors.push(reason)
      reading.rows.push({ ...blankRow(stack.name, null, stack.track), reason })
    }
    return list.items
  }
  return Promise.all(
    stack.environments.map(async (name) => list.items.find((e) => e.name === name) ?? (await client.findEnvironment(name)).environment ?? name)
  )
}

/** A tracked ref the host does not know, in the words of the report's failure. */
function unknownRef(repository: string | undefined, host: HostName): string {
  return `is no branch, tag or commit that ${host} knows in ${repository}: correct it (a misspelt name?), or push it`
}

/** A tag pattern no tag matches, in the words of the report's failure. */
function noTagMatches(repository: string | undefined): string {
  return `matches no tag of ${repository}: correct the pattern, or tag a release`
}

function missing(stack: StackConfig, name: string, reading: StackReading): EnvironmentRow {
  const reason = `the stack has no environment named '${name}'`
  reading.errors.push(reason)
  return { ...blankRow(stack.name, name, trackOf(stack, name)), reason }
}

class EnvironmentReader {
  private readonly history: DeploymentHistory | undefined

  constructor(
    private readonly stack: StackConfig,
    readonly client: CloudClient,
    private readonly options: StackReadOptions,
    private readonly reading: StackReading
  ) {
    this.history = options.host ? new DeploymentHistory(options.host.api, stack.address.apiUrl) : undefined
  }

  /** The environment on the platform and the code's host, its health probe and its newest backup beside them. */
  async read(environment: Environment, backups: Promise<BackupListing> | undefined): Promise<EnvironmentRow> {
    const startedAt = Date.now()
    let probe: HealthAttempt | undefined
    const [row, health, listing] = await Promise.all([this.readRunning(environment), this.probe(environment.name, (a) => (probe = a)), backups])
    this.reading.timings.push({ environment: environment.name, startedAt, endedAt: Date.now(), probe })
    return listing === undefined ? { ...row, ...health } : { ...row, ...health, backup: newestBackupRow(listing, environment.id, this.options.now()) }
  }

  /** GETs the environment's health page once (src/health.ts: redirects, the expected text, a time limit); a failure is a finding, not a read error. */
  private async probe(environment: string, tried: (attempt: HealthAttempt) => void): Promise<Pick<EnvironmentRow, 'health' | 'healthReason'>> {
    const probe = healthOf(this.stack, environment)
    if (probe === undefined) return { health: 'not-checked', healthReason: null }
    try {
      await checkHealth({
        ...probe,
        once: true,
        timeoutMs: this.options.healthTimeoutMs,
        requestTimeoutMs: this.options.healthTimeoutMs,
        userAgent: this.options.userAgent,
        signal: this.options.stop?.signal,
        tried,
        log: (line) => core.debug(`${this.stack.name}/${environment}: ${line}`)
      })
      return { health: 'ok', healthReason: null }
    } catch (error) {
      return { health: 'failing', healthReason: describeError(error) }
    }
  }

  private async readRunning(environment: Environment): Promise<EnvironmentRow> {
    const running = environment.distributionId ?? undefined
    const status = environment.status
    let row: EnvironmentRow = {
      ...blankRow(this.stack.name, environment.name, trackOf(this.stack, environment.name)),
      distributionId: running ?? null,
      platformStatus: status ?? null
    }
    let distribution: Distribution | undefined
    try {
      distribution = running === undefined ? undefined : await this.client.getDistribution(running)
    } catch (error) {
      const reason = `its distribution ${running ?? ''} could not be read: ${describeError(error)}`
      this.reading.errors.push(`${environment.name}: ${reason}`)
      return { ...row, reason }
    }
    row = {
      ...row,
      distributionName: distribution?.name ?? null,
      createdAt: distribution?.createdAt ?? null,
      createdBy: distribution?.createdBy ?? null,
      md5hash: distribution?.md5hash ?? null
    }
    let evidence: CommitEvidence | undefined
    let promoted: DeploymentRecord | undefined
    let unread = false
    try {
      evidence = running === undefined ? undefined : await this.commitOf(running, environment.name, distribution)
      if (running !== undefined && evidence === undefined) promoted = (await this.history?.recordedWithoutCommit(running, environment.name))?.[0]
      // The listings that found nothing were cut at their newest Deployments: an older one may record it.
      if (running !== undefined && evidence === undefined && this.history !== undefined)
        unread = !(await this.history.complete(environment.name)) || !(await this.history.complete())
      row = { ...row, lastDeployment: await this.lastDeployment(environment.name, evidence?.deployment) }
    } catch (error) {
      if (!(error instanceof GitHubCallFailed)) throw error
      return { ...row, reason: this.gitHubFailed(error) }
    }
    if (evidence !== undefined)
      row = { ...row, commit: evidence.sha, evidence: evidence.from === 'name' ? 'name' : 'deployment', evidenceDeploymentId: evidence.deployment?.id ?? null }
    if (evidence !== undefined && switching(status) !== true) return { ...row, ...(await this.against(evidence.sha, environment.name)) }
    // No commit to compare: the tracked ref is still checked, so a misspelt one fails the report before anything runs.
    await this.checkTrack(environment.name)
    if (switching(status) === true) return { ...row, state: 'deploying', reason: `the platform's status is '${status}'` }
    if (running === undefined) return { ...row, ...noDistribution(status, row.lastDeployment, this.history?.host.deploymentNoun) }
    return { ...row, ...this.noEvidence(running, environment.name, distribution, promoted, unread) }
  }

  /** The tracked ref where no commit is compared with it: one the host does not know (or a pattern no tag matches) fails the report. */
  private async checkTrack(environment: string): Promise<void> {
    const track = trackOf(this.stack, environment)
    const github = this.options.host
    if (track === undefined || github === undefined) return
    try {
      if (!isTagPattern(track)) {
        if (!(await github.refKnown(track))) this.trackFailed(track, environment, unknownRef(this.options.repository, github.api.host))
        return
      }
      const listing = await github.tags()
      if (listing.complete && newestTag(listing.tags, track) === undefined) this.trackFailed(track, environment, noTagMatches(this.options.repository))
    } catch (error) {
      if (!(error instanceof GitHubCallFailed)) throw error
      this.gitHubFailed(error)
    }
  }

  /**
   * The newest recorded deployment of the environment on this stack, with its newest status; null when none or no host.
   * Usually it is the one that recorded the running distribution (`recorded`): its status, just read, is not read again.
   */
  private async lastDeployment(environment: string, recorded: CommitEvidence['deployment']): Promise<LastDeployment | null> {
    const newest = (await this.history?.deployments(environment))?.[0]
    if (newest === undefined || this.history === undefined) return null
    const known = recorded?.id === newest.id && recorded.state !== undefined ? { state: recorded.state, logUrl: recorded.runUrl } : undefined
    const status = known ?? (await this.history.host.latestStatus(newest.id))
    return {
      id: newest.id,
      // A promotion of a distribution no evidence named is recorded at the promoting run's commit: not the one it runs.
      commit: newest.payload.commit === 'unknown' ? null : newest.sha,
      by: newest.creator ?? null,
      at: newest.createdAt ?? null,
      state: status?.state ?? null,
      runUrl: status?.logUrl ?? null
    }
  }

  /** A deployment that recorded it (GitHub's), else its name; without a host only the name, and only with the repository known. */
  private async commitOf(id: string, environment: string, distribution: Distribution | undefined): Promise<CommitEvidence | undefined> {
    const facts = async () => ({ id, name: distribution?.name, createdBy: distribution?.createdBy, createdAt: distribution?.createdAt })
    if (this.history !== undefined) return this.history.commitOf(id, environment, facts)
    // The repository's own name: the last part of owner/name, or of GitLab's group/sub/project.
    const repo = this.options.repository?.split('/').at(-1)
    const sha = repo === undefined ? undefined : commitInName(distribution?.name, repo)
    return sha === undefined ? undefined : { sha, from: 'name', name: distribution?.name }
  }

  /**
   * No commit is known: outside when GitHub's records were read and none of this environment names it, and its name was
   * read; unknown when this action recorded it here without a commit (`promoted`: a promotion no evidence named), when
   * the records were not read, when GitHub holds more of them than a listing reads (`unread`: an older one may record
   * it), or when the platform no longer holds it (`distribution` undefined, a 404: its name was never read, so it is not
   * one without a commit).
   */
  private noEvidence(
    running: string,
    environment: string,
    distribution: Distribution | undefined,
    promoted: DeploymentRecord | undefined,
    unread: boolean
  ): Pick<EnvironmentRow, 'state' | 'reason'> {
    const uploaded = distribution?.createdBy ? ` (uploaded by ${distribution.createdBy}${distribution.createdAt ? ` at ${distribution.createdAt}` : ''})` : ''
    const what = `distribution ${running}${uploaded}`
    const repository = this.options.repository
    const gone = distribution === undefined
    const notRead = `could not be read (${GONE_FROM_STACK})`
    const host = this.history?.host
    if (host !== undefined && !host.keepsPayload)
      return {
        state: 'unknown',
        reason: `${host.host}'s deployments do not record distributions, and the name of ${what} ${gone ? notRead : `carries no commit of ${repository}`}: which commit it is cannot be told`
      }
    if (promoted?.environment === environment) {
      const by = promoted.creator === undefined ? '' : ` (by ${promoted.creator})`
      return {
        state: 'unknown',
        reason:
          `GitHub Deployment ${promoted.id}${by} recorded ${what} as promoted here by this action, of a commit no evidence names: ` +
          `no GitHub Deployment recorded its commit, and its name ${gone ? notRead : 'carries none'}`
      }
    }
    if (unread)
      return {
        state: 'unknown',
        reason:
          `no GitHub Deployment of ${repository} on this stack among the newest ${MAX_LISTED_DEPLOYMENTS} that GitHub lists recorded ${what}, and its name ` +
          `${gone ? notRead : 'carries no commit of it'}; GitHub holds older Deployments, which the report does not read: one of them may record it, so whether it was ` +
          'deployed from Mission Control or another tool cannot be told'
      }
    if (this.history !== undefined) {
      const elsewhere =
        promoted === undefined
          ? ''
          : ` for ${environment} (GitHub Deployment ${promoted.id} recorded it for ${promoted.environment}, of a commit no evidence names)`
      if (gone)
        return {
          state: 'unknown',
          reason:
            `no GitHub Deployment of ${repository} on this stack recorded ${what}${elsewhere}, and its name ${notRead}: which commit it is, ` +
            'and whether it was deployed from Mission Control or another tool, cannot be told'
        }
      return {
        state: 'outside',
        reason: `no GitHub Deployment of ${repository} on this stack recorded ${what}${elsewhere}, and its name carries no commit of it: deployed from Mission Control or another tool`
      }
    }
    if (repository === undefined) return { state: 'unknown', reason: `no repository is given (--repository), so nothing tells which commit ${what} is` }
    return {
      state: 'unknown',
      reason: `the name of ${what} ${gone ? notRead : `carries no commit of ${repository}`}, and without a GitHub token the Deployments that may record it are not read`
    }
  }

  /** The running commit against the tracked ref's head (for a tag pattern, the newest tag matching it). */
  private async against(sha: string, environment: string): Promise<Partial<EnvironmentRow> & Pick<EnvironmentRow, 'state' | 'reason'>> {
    const track = trackOf(this.stack, environment)
    if (track === undefined) return { state: 'unknown', reason: 'no track: ref in the configuration, so there is nothing to compare the commit with' }
    const github = this.options.host
    if (github === undefined)
      return { state: 'unknown', reason: `comparing commit ${short(sha)} with ${track} needs GitHub: set BRCLOUD_GITHUB_TOKEN and the repository` }
    const repository = this.options.repository
    try {
      if (!isTagPattern(track)) {
        const comparison = await notFoundAs(github.compare(track, sha))
        if (!(comparison instanceof GitHubCallFailed)) return { ...stateOfComparison(comparison), reason: null }
        // GitHub does not know one of the two: a misspelt track fails the report; a commit it does not know is missing evidence.
        if (!(await github.refKnown(track))) return this.trackFailed(track, environment, unknownRef(repository, github.api.host))
        return { state: 'unknown', reason: unknownCommit(comparison, track, sha, repository) }
      }
      const listing = await github.tags()
      if (!listing.complete)
        return { state: 'unknown', reason: `${repository} has more than ${MAX_TAG_PAGES * 100} tags: the newest matching ${track} cannot be told` }
      const tag = newestTag(listing.tags, track)
      if (tag === undefined) return this.trackFailed(track, environment, noTagMatches(repository))
      const comparison = await notFoundAs(github.compare(tag.sha, sha))
      if (comparison instanceof GitHubCallFailed)
        return { state: 'unknown', trackedRef: tag.name, reason: unknownCommit(comparison, tag.name, sha, repository) }
      return { ...stateOfComparison(comparison), trackedRef: tag.name, reason: null }
    } catch (error) {
      if (!(error instanceof GitHubCallFailed)) throw error
      return { state: 'unknown', reason: this.gitHubFailed(error) }
    }
  }

  /** The tracked ref names nothing the host knows: the row is unknown, and the report fails closed, saying where the ref was written. */
  private trackFailed(track: string, environment: string, what: string): Pick<EnvironmentRow, 'state' | 'reason'> {
    const reason = `track '${track}' (${trackOrigin(this.stack, environment)}) ${what}`
    if (!this.reading.trackErrors.includes(reason)) this.reading.trackErrors.push(reason)
    return { state: 'unknown', reason }
  }

  private gitHubFailed(error: GitHubCallFailed): string {
    const reason = `${error.host} could not be read: ${error.message} (${(error.host === 'GitLab' ? GITLAB_ADVICE : GITHUB_ADVICE)[error.failure]})`
    if (!this.reading.githubErrors.includes(reason)) this.reading.githubErrors.push(reason)
    return reason
  }
}

/** `call`'s answer, or its failure when the host answered that it knows no such thing (any other failure is thrown). */
async function notFoundAs<T>(call: Promise<T>): Promise<T | GitHubCallFailed> {
  try {
    return await call
  } catch (error) {
    if (error instanceof GitHubCallFailed && error.failure === 'not-found') return error
    throw error
  }
}

/** The tracked ref is known, the comparison is not: a commit a force-push removed, another repository's, or unrelated history. */
function unknownCommit(error: GitHubCallFailed, ref: string, sha: string, repository: string | undefined): string {
  return `${error.message}: ${ref} is known, but ${error.host} does not know commit ${short(sha)} in ${repository}, or cannot relate the two (a force-push may have removed it, or it is another repository's)`
}

/**
 * An environment that reports no distribution. Empty only when the platform's status field says it is settled: without
 * one, a platform that does not report the id while it switches looks the same as one that runs nothing.
 */
function noDistribution(status: string | undefined, last: LastDeployment | null, noun = 'GitHub Deployment'): Pick<EnvironmentRow, 'state' | 'reason'> {
  if (status !== undefined) return { state: 'empty', reason: null }
  const underWay = last !== null && last.state !== null && UNDER_WAY.includes(last.state) ? ` ${noun} ${last.id} of it is ${last.state}.` : ''
  return {
    state: 'unknown',
    reason:
      'the platform reports no distribution and shows no status field: it runs nothing, or it is being switched (a platform may not report ' +
      `the id while it switches); which one cannot be told.${underWay}`
  }
}

/** GitHub Deployment states of a deploy still under way. */
const UNDER_WAY = ['in_progress', 'queued', 'pending']

/** What to do about each kind of GitHub failure, for the report's reader. */
const GITHUB_ADVICE: Readonly<Record<GitHubCallFailed['failure'], string>> = {
  unreachable: "GitHub's API did not answer: check the network, a proxy, githubstatus.com",
  'bad-token': 'GitHub refused the token: give a valid token of the repository',
  'rate-limited': "GitHub's rate limit for the token was reached, no permission is missing: run the report again once it lifts, or less often",
  forbidden: 'the token lacks a permission: it needs deployments: read and contents: read',
  'not-found': 'GitHub does not show the repository to the token',
  failed: 'GitHub failed; try again later'
}

/** What to do about each kind of GitLab failure, for the report's reader (docs/gitlab.md). */
const GITLAB_ADVICE: Readonly<Record<GitHubCallFailed['failure'], string>> = {
  unreachable: "GitLab's API did not answer: check the GitLab address, the network, a proxy",
  'bad-token': 'GitLab refused the token: give a valid access token with the read_api scope',
  'rate-limited': "GitLab's rate limit for the token was reached, no scope is missing: run the report again once it lifts, or less often",
  forbidden: 'the token lacks a scope or role: it needs read_api (api to keep drift issues) and at least the Reporter role',
  'not-found': 'GitLab does not show the project to the token',
  failed: 'GitLab failed; try again later'
}
