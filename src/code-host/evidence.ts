// Which commit a distribution was built from, with the evidence for it: a deployment this action recorded on the code's
// host with the distribution's id in its payload (GitHub keeps one; GitLab's deployments carry none), or else the
// distribution's own name when it is the default name, which carries the commit.
import { commitInName } from '../cloud/distribution-name.js'
import type { CodeHost, DeploymentListing, DeploymentRecord } from './port.js'

/** A distribution as the platform describes it: the facts that name where it came from. */
/** Why the name of a distribution the platform does not find (404: deleted while an environment runs it) cannot be read. */
export const GONE_FROM_STACK = 'the platform holds no distribution of that id now'

export interface DistributionFacts {
  readonly id: string
  readonly name?: string | undefined
  readonly createdBy?: string | undefined
  readonly createdAt?: string | undefined
  /** Why the platform could not say (its lookup failed): the name is then not known, not without a commit. */
  readonly unread?: string | undefined
}

export interface CommitEvidence {
  /** The commit, full, or abbreviated when only a name carries it. */
  readonly sha: string
  /** 'run': this run's own commit; 'deployment': a recorded deployment (GitHub's) named it; 'name': the distribution's name carries it. */
  readonly from: 'run' | 'deployment' | 'name'
  /** The deployment that recorded it, with who made it and the run that did. */
  readonly deployment?:
    | {
        readonly id: number
        readonly environment: string
        readonly by: string | undefined
        readonly runUrl: string | undefined
        readonly state: string | undefined
        /** How its host calls it ("GitLab deployment"); GitHub's when absent. */
        readonly noun?: string | undefined
      }
    | undefined
  /** The distribution's name, when the evidence is the name. */
  readonly name?: string | undefined
}

/** States (the port's words) of a deployment still under way. */
const UNDER_WAY = new Set(['in_progress', 'queued', 'pending'])

/** The same distribution id (the platform's ids are hex; a platform may change their case). */
function sameDistribution(a: string | undefined, b: string): boolean {
  return a !== undefined && a.toLowerCase() === b.toLowerCase()
}

/** An address without a trailing slash and in lower case: the stack a payload names. */
function stackKey(url: string): string {
  return url.replace(/\/+$/, '').toLowerCase()
}

/** Reads this repository's recorded deployments for one stack, once per look (a new look lists again). */
export class DeploymentHistory {
  private readonly cache = new Map<string, Promise<DeploymentListing>>()

  constructor(
    readonly host: CodeHost,
    private readonly apiUrl: string
  ) {}

  /** A fresh read: another job may have recorded a deploy since the last one. */
  refresh(): void {
    this.cache.clear()
  }

  /** Deployments of one environment (or all), newest first, that belong to this stack (a payload naming no stack may). */
  async deployments(environment?: string): Promise<DeploymentRecord[]> {
    const mine = stackKey(this.apiUrl)
    return (await this.listing(environment)).deployments.filter((d) => d.payload.apiUrl === undefined || stackKey(d.payload.apiUrl) === mine)
  }

  /** Whether the listing of one environment (or all) held every deployment: false when the host holds older ones it did not read. */
  async complete(environment?: string): Promise<boolean> {
    return (await this.listing(environment)).complete
  }

  private listing(environment: string | undefined): Promise<DeploymentListing> {
    const key = environment ?? '\u0000all'
    let list = this.cache.get(key)
    if (list === undefined) {
      list = this.host.listDeploymentPages(environment)
      this.cache.set(key, list)
      list.catch(() => this.cache.delete(key))
    }
    return list
  }

  /**
   * The commit of distribution `id`: from the newest Deployment that recorded it (this environment's
   * first), else from its name (`facts`, asked only then: a call to the platform).
   */
  async commitOf(id: string, environment: string | undefined, facts: () => Promise<DistributionFacts>): Promise<CommitEvidence | undefined> {
    // A Deployment that says its commit is unknown (a promotion of a distribution no evidence named) is no evidence of one.
    const names = (d: DeploymentRecord): boolean => sameDistribution(d.payload.distributionId, id) && d.payload.commit !== 'unknown'
    const here = environment === undefined ? [] : await this.deployments(environment)
    let found = here.find(names)
    found ??= (await this.deployments()).find(names)
    if (found) {
      const status = await this.host.latestStatus(found.id).catch(() => undefined)
      return {
        sha: found.sha,
        from: 'deployment',
        deployment: {
          id: found.id,
          environment: found.environment,
          by: found.creator,
          runUrl: status?.logUrl,
          state: status?.state,
          noun: this.host.deploymentNoun
        }
      }
    }
    const name = (await facts()).name
    const sha = commitInName(name, this.host.repoName)
    return sha === undefined ? undefined : { sha, from: 'name', name }
  }

  /**
   * Deployments of this stack that recorded distribution `id` with its commit unknown (a promotion of a distribution no
   * evidence named), `environment`'s first, each newest first: it was deployed by this action, of a commit not known.
   */
  async recordedWithoutCommit(id: string, environment: string): Promise<DeploymentRecord[]> {
    const all = (await this.deployments()).filter((d) => sameDistribution(d.payload.distributionId, id) && d.payload.commit === 'unknown')
    return [...all.filter((d) => d.environment === environment), ...all.filter((d) => d.environment !== environment)]
  }

  /**
   * The newest Deployment of this environment that recorded another distribution than `runningId`,
   * when none recorded `runningId`: the environment was then changed outside this action.
   */
  async recordedOther(environment: string, runningId: string): Promise<DeploymentRecord | undefined> {
    const here = (await this.deployments(environment)).filter((d) => d.payload.distributionId !== undefined)
    if (here.some((d) => sameDistribution(d.payload.distributionId, runningId))) return undefined
    return here[0]
  }

  /** A Deployment of this environment still under way (not `exceptId`), with the run that makes it: who holds the environment. */
  async underWay(environment: string, exceptId: number | undefined): Promise<CommitEvidence | undefined> {
    for (const d of (await this.deployments(environment)).slice(0, 5)) {
      if (d.id === exceptId) continue
      const status = await this.host.latestStatus(d.id).catch(() => undefined)
      if (status && UNDER_WAY.has(status.state)) {
        return {
          sha: d.sha,
          from: 'deployment',
          deployment: { id: d.id, environment: d.environment, by: d.creator, runUrl: status.logUrl, state: status.state, noun: this.host.deploymentNoun }
        }
      }
    }
    return undefined
  }
}
