// Newest commit wins: before a deploy request, and again after every wait, the commit the environment
// runs is compared with ours (the code host's compare: GitHub's or GitLab's). An older commit is refused before any change,
// unless allow-older-commit; another branch deploys with a notice. The evidence for each commit, and
// why the order stays unknown when it does, travel with the result (docs/verified-deploys.md, "Deploy order").
import type { CloudClient } from '../cloud/client.js'
import { ActionError, describeError } from '../errors.js'
import * as core from '../port.js'
import { giveGitHubToken, grantGitHubPermissions } from '../advice.js'
import { CodeHostCallFailed, short, type CodeHost, type Comparison, type HostName } from '../code-host/port.js'
import { DeploymentHistory, GONE_FROM_STACK, type CommitEvidence, type DistributionFacts } from '../code-host/evidence.js'
import { sameId } from '../cloud/platform-reading.js'
import type { EnvironmentLook } from './look.js'

export type Order = 'ahead' | 'identical' | 'behind' | 'diverged' | 'unknown'

export interface OrderCheck {
  readonly order: Order
  /** The distribution the environment ran when it was checked. */
  readonly runningDistributionId: string | undefined
  readonly running: CommitEvidence | undefined
  readonly ours: CommitEvidence | undefined
  readonly comparison?: Comparison | undefined
  /** Why the order is unknown. */
  readonly why?: string | undefined
  /** The code's host could not be read or refused the token (the deploy is refused unless allow-unchecked-order), rather than no evidence existing. */
  readonly failed?: boolean | undefined
  /**
   * What could not be read when `failed`: the code's host, or the platform's name of a distribution where a name is the
   * only evidence there is (GitLab's deployments record no distribution).
   */
  readonly failedOn?: 'host' | 'name' | undefined
  /** The environment runs a distribution this action did not deploy there: what is known of it. */
  readonly outside?: string | undefined
  /** The repository's web address, for commit links. */
  readonly repoUrl?: string | undefined
  /** The code's host that was asked (its name in what the check says, its pages' form in links). */
  readonly host?: HostName | undefined
  /** The deploy was refused for it (behind, without allow-older-commit; or not checked, without allow-unchecked-order). */
  readonly refused?: boolean | undefined
  /** Made again after a wait: the upload (if any) was made, and nothing was deployed. */
  readonly recheck?: boolean | undefined
}

/** The deploy was refused: the environment runs a newer commit, or the order could not be checked. Nothing was deployed. */
export class OrderRefused extends ActionError {
  override name = 'OrderRefused'
}

export interface OrderOptions {
  /** The code's host (GitHub or GitLab), when its token is set. */
  readonly host: CodeHost | undefined
  readonly client: CloudClient
  readonly apiUrl: string
  readonly environment: string
  readonly allowOlder: boolean
  /** Deploy when the code's host cannot be read (allow-unchecked-order); refused otherwise. */
  readonly allowUnchecked: boolean
  /** The distribution deployed when it is promoted (distribution-id, from-environment); undefined for this run's upload. */
  readonly promoted: string | undefined
  /** Whether a refusal is what this run would do (a dry run) rather than does. */
  readonly dryRun: boolean
  readonly log: (line: string) => void
  readonly warn: (line: string) => void
  readonly notice: (line: string) => void
  /** Keeps each check's outcome (the result's order field): the last one made is what the step reports. */
  readonly record: (check: OrderCheck) => void
}

const PERMISSIONS = 'deployments: read and contents: read'

export class DeployOrder {
  private readonly history: DeploymentHistory | undefined
  private ownDeployment: number | undefined
  private readonly known = new Map<string, Promise<DistributionFacts>>()
  /** The last check: its running distribution tells whether a look after a wait needs another. */
  last: OrderCheck | undefined
  /** The last check found no record of the promoted distribution's commit: one made since is looked for before each call. */
  private oursUnrecorded = false
  /** Our commit as the last check found it, also when that check then ended unknown (the host failed, or did not know the running commit). */
  private oursSeen: CommitEvidence | undefined

  constructor(private readonly o: OrderOptions) {
    this.history = o.host ? new DeploymentHistory(o.host, o.apiUrl) : undefined
  }

  /** This run's own recorded deployment: never named as the one holding the environment. */
  noteOwnDeployment(id: number | undefined): void {
    this.ownDeployment = id
  }

  /** The commit this run deploys, with its evidence, as the last check found it (whatever its order): what the deploy is recorded at. */
  get oursEvidence(): CommitEvidence | undefined {
    return this.last?.ours ?? this.oursSeen
  }

  /** The commit this run deploys: a promoted distribution's, or this run's own. */
  async ours(): Promise<CommitEvidence | undefined> {
    if (this.o.promoted === undefined) return this.o.host?.sha ? { sha: this.o.host.sha, from: 'run' } : undefined
    const id = this.o.promoted
    return this.history?.commitOf(id, undefined, () => this.facts(id))
  }

  /** Checks the order against what the environment runs; throws OrderRefused when ours is older, or the code's host cannot be read (unless allowed). */
  async check(runningId: string | undefined, recheck = false): Promise<OrderCheck> {
    const evaluated = { ...(await this.evaluate(runningId)), ...(recheck && { recheck }) }
    const refused = (evaluated.order === 'behind' && !this.o.allowOlder) || (evaluated.failed === true && !this.o.allowUnchecked)
    const check = refused ? { ...evaluated, refused: true } : evaluated
    this.last = check
    this.o.record(check)
    this.tell(check)
    if (check.refused) throw new OrderRefused(this.refusal(check))
    return check
  }

  /** After a wait: the environment may run another distribution now (another job's): checked again before our request. */
  async recheck(look: EnvironmentLook): Promise<void> {
    const last = this.last
    if (last === undefined || look.distributionId === undefined) return
    if (!sameId(look.distributionId, last.runningDistributionId)) {
      this.o.log(`'${this.o.environment}' now runs ${look.distributionId}, not ${last.runningDistributionId ?? 'nothing'}: checking the deploy order again.`)
      await this.check(look.distributionId, true)
      return
    }
    const ours = await this.oursRecordedSince(last)
    if (ours === undefined) return
    this.o.log(`A ${this.noun} now records ${this.o.promoted ?? 'the distribution'} as commit ${short(ours.sha)}: checking the deploy order again.`)
    await this.check(look.distributionId, true)
  }

  /**
   * A promoted distribution whose commit no record named at the last check, now recorded (another job deploying the same
   * distribution records it while we wait): its commit, or undefined when still unknown or the host cannot say now (the
   * last check stands).
   */
  private async oursRecordedSince(last: OrderCheck): Promise<CommitEvidence | undefined> {
    if (!this.oursUnrecorded || last.failed === true || this.history === undefined) return undefined
    this.history.refresh()
    try {
      return await this.ours()
    } catch (error) {
      if (!(error instanceof CodeHostCallFailed)) throw error
      return undefined
    }
  }

  /** Who holds the busy environment: a recorded deployment under way (with its run), or the distribution it reports and who uploaded it. */
  async holder(look: EnvironmentLook): Promise<string | undefined> {
    const parts: string[] = []
    try {
      const underWay = await this.history?.underWay(this.o.environment, this.ownDeployment)
      if (underWay?.deployment) {
        parts.push(
          `${this.noun} ${underWay.deployment.id} of commit ${short(underWay.sha)} is ${underWay.deployment.state ?? 'under way'} (${madeBy(underWay)})`
        )
      }
    } catch {
      // Naming the holder is a courtesy: a failed read leaves it to the platform's facts.
    }
    if (look.distributionId !== undefined) {
      const facts = await this.facts(look.distributionId)
      const by = uploadedBy(facts)
      if (by !== undefined) parts.push(`Distribution ${look.distributionId} was ${by}`)
    }
    return parts.length > 0 ? parts.join('; ') : undefined
  }

  /** How the host calls a recorded deployment, for what the check says. */
  private get noun(): string {
    return this.o.host?.deploymentNoun ?? 'GitHub Deployment'
  }

  /** No record names the distribution: GitHub's Deployments were read; GitLab's keep no distribution to read. */
  private noRecordOf(id: string, project: string): string {
    if (this.o.host?.keepsPayload === false) return `${this.o.host.host}'s deployments do not record distributions (so none names ${id})`
    return `no ${this.noun} of ${project} recorded distribution ${id}`
  }

  private async evaluate(runningId: string | undefined): Promise<OrderCheck> {
    const base = { runningDistributionId: runningId, running: undefined, ours: undefined, repoUrl: this.o.host?.repoUrl, host: this.o.host?.host }
    const history = this.history
    if (history === undefined) return { ...base, order: 'unknown', why: `github-token is not set (the check needs a token with ${PERMISSIONS})` }
    history.refresh()
    this.known.clear()
    try {
      const ours = await this.ours()
      this.oursSeen = ours
      this.oursUnrecorded = ours === undefined && this.o.promoted !== undefined
      if (ours === undefined) return { ...base, order: 'unknown', why: await this.noCommitOfOurs(), ...(await this.nameUnread(this.o.promoted)) }
      if (runningId === undefined)
        return { ...base, ours, order: 'unknown', why: `'${this.o.environment}' runs no distribution, so there is no commit to compare with` }
      const facts = (): Promise<DistributionFacts> => this.facts(runningId)
      const running = await history.commitOf(runningId, this.o.environment, facts)
      const outside = await this.outside(history, runningId, facts)
      if (running === undefined) {
        const why = `${this.noRecordOf(runningId, history.host.project)}, which '${this.o.environment}' runs, and ${await this.nameClause(runningId)}`
        return { ...base, ours, outside, order: 'unknown', why, ...(await this.nameUnread(runningId)) }
      }
      if (sameCommit(running.sha, ours.sha)) return { ...base, ours, running, outside, order: 'identical' }
      const comparison = await history.host.compare(running.sha, ours.sha)
      return { ...base, ours, running, outside, comparison, order: comparison.status }
    } catch (error) {
      // The run's stop (a cancel, the watchdog), or a bug: not the host's failure.
      if (!(error instanceof CodeHostCallFailed)) throw error
      // A commit the host does not know (a force-push removed it, or another repository's) is missing evidence, not a failure.
      if (error.failure === 'not-found' && error.call.startsWith('Comparing ')) {
        return {
          ...base,
          order: 'unknown',
          why: `${error.message}: ${error.host} does not know one of the two commits (a force-push may have removed it), so they cannot be compared`
        }
      }
      return { ...base, order: 'unknown', failed: true, failedOn: 'host', why: `${error.message}; ${hostAdvice(error, this.o.host?.project ?? '')}` }
    }
  }

  /**
   * The platform's facts of a distribution (its name, who uploaded it), asked once per check; only the id when it cannot
   * say. A distribution the stack no longer holds (deleted while an environment runs it: 404) has a name no one can read
   * now, not one without a commit.
   */
  private facts(id: string): Promise<DistributionFacts> {
    let known = this.known.get(id)
    if (known === undefined) {
      known = this.o.client.getDistribution(id).then(
        (d): DistributionFacts => (d === undefined ? { id, unread: GONE_FROM_STACK } : { id, name: d.name, createdBy: d.createdBy, createdAt: d.createdAt }),
        (error: unknown): DistributionFacts => ({ id, unread: describeError(error) })
      )
      this.known.set(id, known)
    }
    return known
  }

  private async noCommitOfOurs(): Promise<string> {
    if (this.o.promoted === undefined) return `this run has no commit (${core.runContext().noCommit})`
    return `${this.noRecordOf(this.o.promoted, 'this repository')}, and ${await this.nameClause(this.o.promoted)}`
  }

  /**
   * A name the platform could not say, where names are the only evidence (the host keeps no payload: GitLab): the commit
   * may well be known, just not read, so the check failed (refused unless allow-unchecked-order), as when the host fails.
   * On GitHub a distribution no Deployment recorded is one deployed outside this action: its order stays unknown.
   */
  private async nameUnread(id: string | undefined): Promise<Pick<OrderCheck, 'failed' | 'failedOn'>> {
    if (id === undefined || this.o.host?.keepsPayload !== false || (await this.facts(id)).unread === undefined) return {}
    return { failed: true, failedOn: 'name' }
  }

  /** What the name told of the commit: none of this repository, or nothing at all when the platform could not say it. */
  private async nameClause(id: string): Promise<string> {
    const unread = (await this.facts(id)).unread
    return unread === undefined ? 'its name carries no commit of this repository' : `its name could not be read (${unread})`
  }

  /** The environment runs what no Deployment of it recorded, while others were: it was changed outside this action. */
  private async outside(history: DeploymentHistory, runningId: string, facts: () => Promise<DistributionFacts>): Promise<string | undefined> {
    const other = await history.recordedOther(this.o.environment, runningId)
    if (other === undefined) return undefined
    return (
      `'${this.o.environment}' runs ${runningId}${uploaded(await facts())}, which no ${this.noun} of this repository recorded for '${this.o.environment}' ` +
      `(the last one, ${other.id}, recorded ${other.payload.distributionId ?? '?'} of commit ${short(other.sha)}): it was deployed outside this action ` +
      `(from Mission Control, or from another repository)`
    )
  }

  /** Says what the check found, once: an info line, a notice for another branch, a warning for a failed check or an older commit allowed. */
  private tell(check: OrderCheck): void {
    const env = `'${this.o.environment}'`
    if (check.outside !== undefined) this.o.notice(`${check.outside}.`)
    const running = check.running
    const ours = check.ours
    if (check.order === 'unknown') {
      const line = `Deploy order not checked: ${check.why ?? 'no evidence'}.`
      if (check.failed && check.refused) this.o.log(line)
      else if (check.failed) this.o.warn(`${line} The deploy goes on (allow-unchecked-order: true).`)
      else this.o.log(line)
      return
    }
    if (running === undefined || ours === undefined) return
    const pair = `commit ${short(ours.sha)} (${evidence(ours)}) and ${short(running.sha)}, which ${env} runs (${evidence(running)})`
    if (check.order === 'identical') this.o.log(`Deploy order: ${pair} are the same commit.`)
    else if (check.order === 'ahead') this.o.log(`Deploy order: ${pair}: ours is newer by ${check.comparison?.aheadBy ?? '?'} commit(s).`)
    else if (check.order === 'diverged')
      this.o.notice(
        `Deploy order: ${pair} are on different branches (ours is ${check.comparison?.aheadBy ?? '?'} ahead and ${check.comparison?.behindBy ?? '?'} behind): deploying ours replaces it.`
      )
    else if (this.o.allowOlder)
      this.o.warn(`Deploying an older commit on purpose (allow-older-commit: true): ${pair}; ours is ${check.comparison?.behindBy ?? '?'} commit(s) behind.`)
  }

  private refusal(check: OrderCheck): string {
    const running = check.running
    const ours = check.ours
    const would = this.o.dryRun ? 'A deploy would be refused' : 'Refused'
    const nothing = check.recheck ? `so ${this.o.promoted ?? 'it'} was not deployed` : 'so nothing was changed'
    const host = this.o.host?.host ?? 'GitHub'
    if (check.order === 'unknown') {
      return (
        `${would}: the deploy order on '${this.o.environment}' could not be checked: ${check.why ?? `${host} failed`}. ` +
        `${host === 'GitLab' ? 'gitlab-token' : 'github-token'} asks for the check, and it cannot be made, ${nothing}. ` +
        `To deploy while ${check.failedOn === 'name' ? 'the commits cannot be read' : `${host} cannot be read`}, set allow-unchecked-order: true.`
      )
    }
    return (
      `${would}: commit ${short(ours?.sha ?? '?')} is older than ${short(running?.sha ?? '?')}, which '${this.o.environment}' runs ` +
      `(${running ? evidence(running) : '?'}; ${check.comparison?.behindBy ?? '?'} commit(s) newer). Deploying it would replace a newer release, ${nothing}. ` +
      `To go back to an older release on purpose, set allow-older-commit: true (with distribution-id or from-environment to restore a release already on the stack without a rebuild).`
    )
  }
}

/** What to do about a call to the code's host that failed, by how it failed and which host it was. */
function hostAdvice(error: CodeHostCallFailed, project: string): string {
  return error.host === 'GitLab' ? gitLabAdvice(error, project) : gitHubAdvice(error)
}

function gitHubAdvice(error: CodeHostCallFailed): string {
  switch (error.failure) {
    case 'unreachable':
      return "GitHub's API did not answer: check the runner's network (and its proxy, when one is set) and githubstatus.com"
    case 'bad-token':
      return `GitHub refused github-token (401): pass a valid token of this repository, e.g. ${giveGitHubToken('deployments: write and contents: read')}`
    case 'forbidden':
      return `github-token lacks a permission (403): ${grantGitHubPermissions('deployments: write and contents: read')} (the check needs ${PERMISSIONS})`
    case 'rate-limited':
      return "GitHub's rate limit for github-token was reached (no permission is missing): run again once it lifts"
    case 'not-found':
      return 'GitHub does not show this repository to github-token (404): use a token of this repository'
    default:
      return 'GitHub failed; run again later'
  }
}

function gitLabAdvice(error: CodeHostCallFailed, project: string): string {
  switch (error.failure) {
    case 'unreachable':
      return "GitLab's API did not answer: check gitlab-url, the network (and its proxy, when one is set) and the instance's status"
    case 'bad-token':
      return 'GitLab refused gitlab-token (401): pass a valid project or personal access token (scope read_api to check the order, api to record deployments; docs/gitlab.md)'
    case 'forbidden':
      return 'gitlab-token lacks a scope or role (403): read_api reads the order; api and the Developer role record deployments (docs/gitlab.md)'
    case 'rate-limited':
      return "GitLab's rate limit for gitlab-token was reached (no scope is missing): run again once it lifts"
    case 'not-found':
      return `GitLab does not show project ${project} to gitlab-token (404): check gitlab-project, and use a token that can read it`
    default:
      return 'GitLab failed; run again later'
  }
}

/** One commit, full or abbreviated, is the other. */
function sameCommit(a: string, b: string): boolean {
  const x = a.toLowerCase()
  const y = b.toLowerCase()
  return x.startsWith(y) || y.startsWith(x)
}

/** Where a commit was learned from, in words. */
export function evidence(c: CommitEvidence): string {
  if (c.from === 'run') return "this run's commit"
  if (c.from === 'name') return `from the distribution's name ${c.name ?? ''}`.trim()
  return `${c.deployment?.noun ?? 'GitHub Deployment'} ${c.deployment?.id ?? '?'}, ${madeBy(c)}`
}

function madeBy(c: CommitEvidence): string {
  const d = c.deployment
  const by = d?.by ? `by ${d.by}` : 'by someone'
  return d?.runUrl ? `${by} in ${d.runUrl}` : by
}

/** Who uploaded a distribution, and when, as the platform says; undefined when it does not say. */
function uploadedBy(facts: DistributionFacts): string | undefined {
  if (facts.createdBy === undefined) return undefined
  return `uploaded by ${facts.createdBy}${facts.createdAt ? ` at ${facts.createdAt}` : ''}`
}

function uploaded(facts: DistributionFacts): string {
  const by = uploadedBy(facts)
  return by === undefined ? '' : `, ${by}`
}
