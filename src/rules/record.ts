// What the release rules (docs/release-rules.md) found, as data: the deploy step fills it in as each rule is
// checked; report.ts, the GitHub Deployment and the events read it. A rule that refused names itself in `refusedBy`.

/** The rules a run may be held to; override-reason overrides any of them. */
export type RuleName = 'freeze' | 'soak' | 'backup'

/** Each rule in the words of a sentence ("override-reason overrides the soak gate"). */
export const RULE_WORDS: Readonly<Record<RuleName, string>> = {
  freeze: 'the deploy freeze',
  soak: 'the soak gate',
  backup: 'the backup rule'
}

/** A freeze window in force at a check: the line as written and when this occurrence ends. */
export interface FreezeFinding {
  /** The window as written in deploy-freeze (trimmed), and its line number there. */
  readonly window: string
  readonly line: number
  /** ISO 8601 (UTC) instants of this occurrence. */
  readonly since: string
  readonly endsAt: string
  /** The end in the window's zone for a reader, e.g. "Mon 30 Nov 2026 07:00 Europe/Amsterdam (06:00 UTC)". */
  readonly until: string
  /** When it was found: 'start' (before any change) or 'request' (right before the deploy request). */
  readonly at: 'start' | 'request'
}

/** The soak gate: where the distribution had to be verified, and what this repository's Deployments showed. */
export interface SoakFinding {
  readonly environment: string
  readonly requiredMinutes: number
  /** When its verified period began (ISO 8601), when one was found. */
  readonly verifiedSince?: string | undefined
  /** How long it was (or has been) verified there without a failure or rollback, in minutes. */
  readonly soakedMinutes?: number | undefined
  /** When it would be allowed (ISO 8601), when a clock runs; undefined when it is not verified there at all. */
  readonly allowedAt?: string | undefined
  /** The GitHub Deployment whose success started the clock. */
  readonly deploymentId?: number | undefined
  readonly passed: boolean
  /** Why it did not pass, in words. */
  readonly why?: string | undefined
}

/** The newest backup of the target environment (undefined fields: none listed, or the listing failed). */
export interface BackupFinding {
  readonly requiredHours: number | undefined
  readonly id?: string | undefined
  readonly createdAt?: string | undefined
  readonly ageHours?: number | undefined
  readonly passed: boolean
  /** Why the backups could not be listed: nothing was listed, so nothing is known of them (not "none listed"). */
  readonly listingFailed?: string | undefined
}

export interface RulesRecord {
  freeze?: FreezeFinding | undefined
  soak?: SoakFinding | undefined
  backup?: BackupFinding | undefined
  /** override-reason, when given: the reason and the rules it overrode (empty: none would have refused). */
  override?: { readonly reason: string; readonly overrode: RuleName[] } | undefined
  /** The rule that refused the run (nothing was deployed). */
  refusedBy?: RuleName | undefined
}
