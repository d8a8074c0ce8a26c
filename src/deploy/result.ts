// What a deployment did, as data: the step fills it in as it goes, report.ts derives outputs, notices
// and the summary from it and nothing else. The release's states live in ./release-state.ts, a look at the
// environment in ./look.ts.
import type { DeployInputs } from '../inputs/index.js'
import type { OrderCheck } from './order.js'
import type { ReleaseRecord } from './release-state.js'
import type { RulesRecord } from '../rules/record.js'
import type { ReleaseChanges } from './changes.js'
import type { HealthAttempt } from '../health.js'
import type { EnvironmentLook } from './look.js'

/** What a deployment did; each field is set once the step that learns it has passed. */
export interface DeployResult {
  /** The API base address used. */
  readonly apiUrl: string
  /** The stack name when known, else the API address: how notices name the target. */
  readonly target: string
  /** The stack's Mission Control address, when the stack is known. */
  readonly consoleUrl: string | undefined
  readonly dryRun: boolean
  readonly strategy: string
  /** rollback: true was asked for. */
  readonly rollback: boolean
  /** rollback-on-search: true was asked for. */
  readonly rollbackOnSearch: boolean
  /** The environment input (undefined: upload only). */
  readonly environmentName: string | undefined
  /** Where the distribution comes from: an upload (or a reused identical one), distribution-id, or from-environment. */
  readonly source: DeployInputs['source']['kind']
  readonly fromEnvironment: string | undefined
  archive?:
    | {
        readonly name: string
        /** 'packed' from a directory, or 'archive' uploaded as it is. */
        readonly source: 'packed' | 'archive'
        readonly size: number
        /** Known once the archive's check is done (a given archive is checked beside its upload). */
        sha256: string | undefined
        /** Hex, known with sha256 (the events' artifact id, issue 32). */
        md5?: string | undefined
      }
    | undefined
  /** The run logged in: the platform was reached (the summary then links its console). */
  platformReached?: boolean
  /** The environment's id, once it was found by name. */
  environmentId?: string | undefined
  /** What the environment ran before this run changed anything (undefined: nothing, or not known). */
  previousDistributionId?: string | undefined
  /**
   * What the environment reported when the run found it, kept as it was: a look right before the deploy call may
   * report no id while another deploy switches (no status field), which is no evidence that it ran nothing.
   */
  foundDistributionId?: string | undefined
  /** The stored name of a distribution given by id or taken from another environment, when the platform says it. */
  knownName?: string | undefined
  /** The MD5 the platform lists for a distribution given by id or taken from another environment, when it says. */
  knownMd5?: string | undefined
  /** Distributions deleted by max-distributions (undefined when pruning is off). */
  pruned?: number | undefined
  /** On a dry run: the distributions pruning would delete. */
  wouldPrune?: number | undefined
  /** How many distributions the stack held before the upload (after pruning), when they were listed. */
  storedBefore?: number | undefined
  /** The ids of the distributions listed before the upload: a stored copy found after a lost answer is not one of them. */
  listedBefore?: readonly string[] | undefined
  /** With an upload source: true when an identical stored distribution was used instead. */
  reused?: boolean | undefined
  upload?:
    | {
        readonly distributionId: string
        /** The name the platform stored it under, as its answer says (ours when it does not say). */
        readonly storedName: string
        readonly attempts: number
        /** The upload's answer was lost and the stored copy was adopted. */
        readonly adopted: boolean
      }
    | undefined
  /** A whole upload body was sent but no answer or stored copy confirmed it: the stack may hold it. */
  uploadUnconfirmed?: boolean | undefined
  /** The distribution deployed (or, on a dry run or a skip, the one that would be). */
  distributionId?: string | undefined
  /** Names of the config files deployed with it. */
  readonly configFiles: readonly string[]
  /** The environment already ran the distribution, so no deploy was made. */
  skipped: boolean
  /** The deploy order: the commit the environment ran, ours, and how they relate (the last check made). */
  order?: OrderCheck | undefined
  /** What is in the release: the commits between the running commit and ours (./changes.ts; shownChanges after a rollback). */
  changes?: ReleaseChanges | undefined
  /** The release rules: a freeze window, the soak gate, the backup, override-reason (docs/release-rules.md). */
  rules?: RulesRecord | undefined
  /** The release: its states with the evidence for each (undefined: no deploy was asked for). */
  release?: ReleaseRecord | undefined
  /** The page the health check last saw answering (origin and path, after redirects): the site's address. */
  siteUrl?: string | undefined
  /** Each look at the environment while the release was followed, in order (the first MAX_READINGS): a trace's span events. */
  looks?: EnvironmentLook[] | undefined
  /** Each health check attempt, the release's and a rollback's, in order (the first MAX_READINGS): a trace's spans. */
  healthAttempts?: HealthAttempt[] | undefined
  /** The last look at the environment when the step ended (success or failure). */
  finalLook?: EnvironmentLook | { readonly error: string } | undefined
  /** Warnings the summary repeats (the log has them too). */
  readonly cautions: string[]
  /** On a dry run: what each step would do. */
  readonly plan: string[]
  /** Every step passed (for a dry run: everything it checks). */
  completed: boolean
  tokenRenewals: number
}

/** The most looks and health attempts a result keeps: a deploy followed for hours stays small. */
export const MAX_READINGS = 1_000

/** Keeps one more reading (a look, a health attempt) in `list`, up to MAX_READINGS. */
export function keepReading<T>(list: T[] | undefined, reading: T): T[] {
  const kept = list ?? []
  if (kept.length < MAX_READINGS) kept.push(reading)
  return kept
}

/** The result of a deployment that has just begun: what the inputs say, nothing done yet. */
export function newDeployResult(inputs: DeployInputs): DeployResult {
  const { address } = inputs
  return {
    apiUrl: address.apiUrl,
    target: address.stack ?? address.apiUrl,
    consoleUrl: address.consoleUrl,
    dryRun: inputs.dryRun,
    strategy: inputs.deployStrategy,
    rollback: inputs.rollback,
    rollbackOnSearch: inputs.rollbackOnSearch,
    environmentName: inputs.environment,
    source: inputs.source.kind,
    fromEnvironment: inputs.source.kind === 'environment' ? inputs.source.name : undefined,
    configFiles: inputs.configFiles,
    skipped: false,
    rules: {},
    cautions: [],
    plan: [],
    completed: false,
    tokenRenewals: 0
  }
}
