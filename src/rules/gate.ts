// The release rules applied (docs/release-rules.md): a freeze window (before any change, and again right before the
// deploy request), the soak gate of a promotion and the backup rule (before any change). A rule that would refuse
// either refuses (RuleRefused: nothing of the environment changed) or, with override-reason, is overridden on the
// record. Every finding is kept in the result's RulesRecord, which the summary, the Deployment and the events read.
import { ActionError, describeError, refusesLogin, ServiceError, TokenNotRenewed } from '../errors.js'
import type { CloudClient } from '../cloud/client.js'
import { CodeHostCallFailed, type CodeHost } from '../code-host/port.js'
import type { ReleaseRules } from '../inputs/rules.js'
import { describeBackup, judgeBackup } from './backup.js'
import { describeUntil, formatInZone, freezeAhead, freezeAt } from './freeze.js'
import { RULE_WORDS, type RuleName, type RulesRecord } from './record.js'
import { checkSoak, describeSoak } from './soak.js'

/** A rule refused the deploy. Nothing of the environment was changed. */
export class RuleRefused extends ActionError {
  override name = 'RuleRefused'
  constructor(
    readonly rule: RuleName,
    message: string
  ) {
    super(message)
  }
}

export interface GateOptions {
  readonly rules: ReleaseRules
  /** The result's record, filled in as the rules are checked. */
  readonly record: RulesRecord
  /** The environment deployed to. */
  readonly environment: string
  readonly dryRun: boolean
  readonly now: () => number
  /** The run's stop: a call it ended is the stop's, not a failure of the service. */
  readonly signal: AbortSignal | undefined
  readonly log: (line: string) => void
  /** A warning the summary repeats. */
  readonly caution: (line: string) => void
  /** The code lives on GitLab: its deployments have no description, so the override reason is not recorded there. */
  readonly gitlab?: boolean | undefined
}

/** How far ahead a freeze window is announced: a wait for a busy environment may cross into it. */
const AHEAD_MS = 60 * 60_000

const OVERRIDE_HINT = 'or set override-reason to say why this deploy cannot wait (the reason is recorded in the GitHub Deployment, the summary and every event)'
/** On GitLab: a deployment there has no description (docs/gitlab.md), so the reason is kept where it can be. */
const OVERRIDE_HINT_GITLAB = 'or set override-reason to say why this deploy cannot wait (the reason is recorded in the summary and every event)'

export class ReleaseGate {
  constructor(private readonly o: GateOptions) {
    if (o.rules.overrideReason !== undefined) o.record.override = { reason: o.rules.overrideReason, overrode: [] }
  }

  /** How a refusal says override-reason may be given, and where the reason is then recorded. */
  private get hint(): string {
    return this.o.gitlab === true ? OVERRIDE_HINT_GITLAB : OVERRIDE_HINT
  }

  /**
   * The freeze windows at this moment. `at` 'start': before any change; 'request': right before the deploy request,
   * after the waits (what `uploaded` names stays on the stack).
   */
  freeze(at: 'start' | 'request', uploaded?: string): void {
    const windows = this.o.rules.freeze
    if (windows.length === 0) return
    const now = new Date(this.o.now())
    const hit = freezeAt(windows, now)
    if (hit === undefined) {
      if (at === 'start') this.announceAhead(now)
      return
    }
    this.o.record.freeze = {
      window: hit.window.line,
      line: hit.window.lineNumber,
      since: hit.since.toISOString(),
      endsAt: hit.endsAt.toISOString(),
      until: formatInZone(hit.endsAt, hit.window.timeZone),
      at
    }
    const env = `'${this.o.environment}'`
    const when = at === 'start' ? `${env} is in a deploy freeze` : `a deploy freeze of ${env} began while this run waited`
    const what = `${when}: ${describeUntil(hit)}`
    const nothing = at === 'start' ? 'so nothing was changed' : `so ${uploaded ?? 'the distribution'} was not deployed (it stays on the stack)`
    this.refuseOrOverride('freeze', what, `${nothing}. Deploy once it ends, ${this.hint}.`)
  }

  /** The soak gate of a promotion: GitHub's records of the upstream environment. A GitHub that cannot be read proves nothing: refused. */
  async soak(github: CodeHost | undefined, apiUrl: string, distributionId: string): Promise<void> {
    const gate = this.o.rules.soak
    if (gate === undefined) return
    let finding
    try {
      if (github === undefined) throw new CodeHostCallFailed('Reading GitHub Deployments', undefined, 'github-token is not set', 'failed')
      finding = await checkSoak(github, apiUrl, distributionId, gate, this.o.now)
    } catch (error) {
      if (!(error instanceof CodeHostCallFailed) || this.o.signal?.aborted) throw error
      const why = `GitHub's Deployments of '${gate.environment}' could not be read (${describeError(error)})`
      this.o.record.soak = { environment: gate.environment, requiredMinutes: gate.minutes, passed: false, why }
      this.refuseOrOverride('soak', `the soak gate cannot be checked: ${why}`, `so nothing was changed. Run again once GitHub answers, ${this.hint}.`)
      return
    }
    this.o.record.soak = finding
    if (finding.passed) return this.o.log(`Soak gate: ${distributionId} ${describeSoak(finding)}.`)
    const wait = finding.allowedAt === undefined ? '' : `Run again from ${finding.allowedAt}, `
    this.refuseOrOverride(
      'soak',
      `the soak gate (require-verified-in: ${gate.environment}, require-soak-minutes: ${gate.minutes}): ${describeSoak(finding)}`,
      `so nothing was changed. ${wait}${wait === '' ? this.hint.replace(/^or s/, 'S') : this.hint}.`
    )
  }

  /** The backup rule: the environment's newest backup, from the stack's listing. A listing that fails proves nothing: refused. */
  async backup(client: CloudClient, environmentId: string): Promise<void> {
    const hours = this.o.rules.backupHours
    if (hours === undefined) return
    const env = this.o.environment
    let backups
    try {
      backups = await client.listBackups()
    } catch (error) {
      // Any failure of the listing (an answer refused, no answer in time) proves no backup; the run's stop is the stop's,
      // and a token the stack no longer takes (401, a refused login) is the login's failure, not the rule's. A ready
      // access-token is not renewed: its refusal names no call, so it is said to be the listing's (fresh seed 512337726).
      if (error instanceof TokenNotRenewed) throw new TokenNotRenewed(`Listing backups failed: ${error.message}`)
      if (this.o.signal?.aborted || !(error instanceof Error) || refusesLogin(error) || (error instanceof ServiceError && error.status === 401)) throw error
      const why = describeError(error)
      this.o.record.backup = { requiredHours: hours, passed: false, listingFailed: why }
      this.refuseOrOverride(
        'backup',
        `require-backup-hours: ${hours}: the backups of '${env}' could not be listed (${why})`,
        `so nothing was changed. Run again once the stack answers, ${this.hint}.`
      )
      return
    }
    const finding = judgeBackup(backups, environmentId, hours, this.o.now())
    this.o.record.backup = finding
    const found = describeBackup(finding, env)
    if (finding.passed) return this.o.log(`Backup: ${found}, within require-backup-hours: ${hours}.`)
    const why = finding.id === undefined ? found : `${found}, not younger than ${hours} hours`
    this.refuseOrOverride(
      'backup',
      `require-backup-hours: ${hours}: ${why}`,
      `so nothing was changed. Take a backup of '${env}' in Mission Control first, ${this.hint}.`
    )
  }

  /** Refuses (RuleRefused), or with override-reason notes the rule as overridden and goes on. */
  private refuseOrOverride(rule: RuleName, what: string, then: string): void {
    const override = this.o.record.override
    if (override !== undefined) {
      if (!override.overrode.includes(rule)) override.overrode.push(rule)
      this.o.caution(`override-reason overrides ${RULE_WORDS[rule]}: ${what}. Reason given: "${override.reason}".`)
      return
    }
    this.o.record.refusedBy = rule
    const would = this.o.dryRun ? 'A deploy would be refused' : 'Refused'
    throw new RuleRefused(rule, `${would}: ${what}, ${then}`)
  }

  private announceAhead(now: Date): void {
    const ahead = freezeAhead(this.o.rules.freeze, now, AHEAD_MS)
    if (ahead === undefined) return
    const tz = ahead.window.timeZone
    this.o.log(
      `A deploy freeze begins at ${formatInZone(ahead.startsAt, tz)} ('${ahead.window.line}', line ${ahead.window.lineNumber}): a deploy request after it is refused.`
    )
  }
}
