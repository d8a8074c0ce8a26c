// The release rules' inputs (docs/release-rules.md): freeze windows, the soak gate for promotions, the backup
// rule, and the one break-glass, override-reason. Each is checked here, before any request; the rules themselves
// are applied by src/rules/gate.ts during the deploy.
import { InputError } from '../errors.js'
import { parseFreezeWindows, type FreezeWindow } from '../rules/freeze.js'
import { giveGitHubToken } from '../advice.js'
import { optional, parseDecimal, parseInteger } from './parsers.js'
import type { DistributionSource, InputReader } from './reader.js'
import type { InputName } from '../action-metadata.js'

export const RulesInput = {
  DeployFreeze: 'deploy-freeze',
  RequireVerifiedIn: 'require-verified-in',
  RequireSoakMinutes: 'require-soak-minutes',
  RequireBackupHours: 'require-backup-hours',
  OverrideReason: 'override-reason'
} as const satisfies Record<string, InputName>

export interface ReleaseRules {
  /** deploy-freeze's windows (empty: no freeze). */
  readonly freeze: readonly FreezeWindow[]
  /** require-verified-in and require-soak-minutes, for a promotion. */
  readonly soak: { readonly environment: string; readonly minutes: number } | undefined
  /** require-backup-hours: the newest backup must be younger than this. */
  readonly backupHours: number | undefined
  /** override-reason: why a rule that would refuse is overridden. */
  readonly overrideReason: string | undefined
}

/** The longest reason kept: it goes into a Deployment's payload, the summary and every event. */
export const MAX_REASON_LENGTH = 500
/** A week of soak is already more than any promotion waits; a year bounds a typo. */
const MAX_SOAK_MINUTES = 525_600
const MAX_BACKUP_HOURS = 2_160 // 90 days: backups are kept 90 days (public facts)

/** Words that say nothing about why: a reason is recorded for whoever asks later. */
// (Words only: a reason without two letters in a row is refused by its own rule.)
export const PLACEHOLDERS: ReadonlySet<string> = new Set(['na', 'none', 'null', 'tbd', 'todo', 'xxx', 'override', 'yes', 'true', 'because', 'test', 'asdf'])

/**
 * override-reason: undefined when not given. Refused when given but empty (only spaces), a placeholder, or without a
 * word: a break-glass must say why, since the reason is the record.
 */
export function parseOverrideReason(raw: string): string | undefined {
  if (raw === '') return undefined
  const reason = raw.trim().replace(/\s+/g, ' ')
  const fix = 'write why this deploy cannot wait for the rule, e.g. override-reason: "hotfix for INC-1234, approved by the release manager"'
  if (reason === '') throw new InputError(`override-reason is empty (only spaces): ${fix}, or leave it out.`)
  if (PLACEHOLDERS.has(reason.toLowerCase()) || !/\p{L}{2}/u.test(reason)) throw new InputError(`override-reason '${reason}' does not say why: ${fix}.`)
  if (reason.length > MAX_REASON_LENGTH)
    throw new InputError(`override-reason is ${reason.length} characters long: keep it to ${MAX_REASON_LENGTH} (link a ticket for the details).`)
  return reason
}

/** The soak gate's inputs: both belong to a promotion checked against this repository's GitHub Deployments. */
function readSoak(getInput: InputReader, source: DistributionSource, environment: string | undefined, githubToken: string): ReleaseRules['soak'] {
  const verifiedIn = getInput(RulesInput.RequireVerifiedIn)
  const minutesText = getInput(RulesInput.RequireSoakMinutes)
  const minutes = parseInteger(RulesInput.RequireSoakMinutes, minutesText, 0, MAX_SOAK_MINUTES)
  if (verifiedIn === '') {
    if (minutes > 0)
      throw new InputError(
        `require-soak-minutes: ${minutes} needs require-verified-in: name the environment the distribution must have been verified in (e.g. require-verified-in: acceptance).`
      )
    return undefined
  }
  if (source.kind === 'upload')
    throw new InputError(
      `require-verified-in: ${verifiedIn} holds a promotion to what was verified there, but this run uploads a new distribution, which no environment verified: ` +
        `promote with from-environment: ${verifiedIn} (or distribution-id), or remove require-verified-in.`
    )
  if (verifiedIn === environment)
    throw new InputError(
      `require-verified-in and environment are both '${verifiedIn}': name the environment the distribution is verified in before it comes here.`
    )
  if (githubToken === '' && getInput('gitlab-token') !== '')
    throw new InputError(
      `require-verified-in reads which distribution each deployment of '${verifiedIn}' recorded; GitLab's deployments carry no distribution, ` +
        'so the soak gate needs the code on GitHub (github-token). Remove require-verified-in, or see docs/gitlab.md.'
    )
  if (githubToken === '')
    throw new InputError(
      `require-verified-in reads this repository's GitHub Deployments of '${verifiedIn}', which needs github-token: ${giveGitHubToken('deployments: read')}.`
    )
  return { environment: verifiedIn, minutes }
}

/** Every rule's input, read once. `environment` is the deploy's target (undefined: an upload only, where no rule applies). */
export function readReleaseRules(getInput: InputReader, source: DistributionSource, environment: string | undefined, githubToken: string): ReleaseRules {
  const backupText = getInput(RulesInput.RequireBackupHours)
  const rules: ReleaseRules = {
    // Empty (or only blank and comment lines): no window.
    freeze: parseFreezeWindows(getInput(RulesInput.DeployFreeze), RulesInput.DeployFreeze),
    soak: readSoak(getInput, source, environment, githubToken),
    backupHours: optional(RulesInput.RequireBackupHours, backupText, (v) => parseDecimal(RulesInput.RequireBackupHours, v, 0.01, MAX_BACKUP_HOURS)),
    overrideReason: parseOverrideReason(getInput(RulesInput.OverrideReason, { trimWhitespace: false }))
  }
  if (environment === undefined) {
    const set: string[] = [
      rules.freeze.length > 0 && RulesInput.DeployFreeze,
      rules.backupHours !== undefined && RulesInput.RequireBackupHours,
      rules.overrideReason !== undefined && RulesInput.OverrideReason
    ].filter((n) => n !== false)
    if (set.length > 0)
      throw new InputError(`${set.join(', ')} ${set.length === 1 ? 'applies' : 'apply'} to a deploy: set environment to the environment to deploy to.`)
  }
  return rules
}
