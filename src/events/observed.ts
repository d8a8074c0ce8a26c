// What a run tells chat and observability tools (issue 32): only what it observed, as data. events/from-run.ts
// derives an ObservedRun from the run's result; each sink (events/sinks/*.ts) turns it into its service's payload.
// Nothing here knows a service or the runner.

/** One moment the run observed, in the order seen. */
export type ObservedKind =
  /** Our release was seen running where the environment ran nothing before. */
  | 'deployed'
  /** Our release was seen replacing another (the switch observed, not the request). */
  | 'upgraded'
  /** The site answered the health check (or the release was verified) with our release running: our reading of "published". */
  | 'published'
  /** Our rollback was seen applied: the environment runs the previous distribution again. */
  | 'rolledback'
  /** Refused before any deploy: the deploy order, a busy environment given up on, a login refused, a bad input. */
  | 'refused'
  /** A deploy was requested (or may have been) and what runs now was not settled. */
  | 'unconfirmed'
  /** The run was cancelled (SIGINT, SIGTERM) or stopped by its watchdog. */
  | 'cancelled'
  /** Any other failed ending (a failed check, a failed upload, the platform unreachable). */
  | 'failed'

export interface ObservedEvent {
  readonly kind: ObservedKind
  /** Date.now() when it was observed (the switch, the health answer, the rollback seen, the run's end). */
  readonly at: number
  /** What showed it, one sentence (the release's evidence, or the failure's message; never a secret). */
  readonly evidence: string
}

export interface ObservedDistribution {
  readonly id: string | undefined
  readonly name: string | undefined
  readonly md5: string | undefined
  readonly sha256: string | undefined
}

/** One run, as the sinks see it. Every field is what the run knew; undefined when it did not. */
export interface ObservedRun {
  /**
   * One per release attempt (the CI's run id and attempt, the moment the run began, the stack, the environment), as a
   * UUID: shared by an upgrade, its rollback and the ending; the base of every event id, which no other attempt shares.
   */
  readonly chainId: string
  /** The CI's run id and attempt ("4242-2"): names the run, shared by every deploy in that run attempt. */
  readonly runKey: string
  readonly stack: string
  readonly environment: string | undefined
  readonly apiUrl: string
  readonly consoleUrl: string | undefined
  readonly distribution: ObservedDistribution
  /** What the environment ran before (undefined: nothing, or not known). */
  readonly previousDistributionId: string | undefined
  /** What the environment runs now, by the last look (undefined: not seen). */
  readonly nowRunning: string | undefined
  /**
   * The commit the distribution was built from: this run's for an upload; for a promotion the distribution's (a
   * GitHub Deployment that recorded it, or its default name; maybe abbreviated), undefined when unknown.
   */
  readonly commit: string | undefined
  /** The branch or tag the commit was built for (this run's GITHUB_REF); undefined for a promotion and when unknown. */
  readonly ref: string | undefined
  readonly repository: string | undefined
  readonly runUrl: string | undefined
  /** Who ran it (GITHUB_ACTOR, or the CI's user); undefined when not known. */
  readonly actor: string | undefined
  readonly startedAt: number
  readonly endedAt: number
  /** The step's outcome in one word. */
  readonly outcome: 'success' | 'failure' | 'cancelled'
  /** The summary's headline, e.g. "✅ Verified". */
  readonly headline: string
  /** The release-state output. */
  readonly releaseState: string | undefined
  /** The failure's message, when the run failed (already free of secrets). */
  readonly error: string | undefined
  /** What is in the release (deploy/changes.ts, after a rollback what it took out); undefined when not read. */
  readonly changes?: ObservedChanges | undefined
  /** What the release rules found (rules/record.ts): the override reason, the backup found, the rule that refused. */
  readonly rules?: ObservedRules | undefined
  /**
   * What was observed, in order; a failed run's last one is its ending. Empty when the run deployed and observed
   * nothing (follow-deploy: false, green): a chat sink may still post the headline; CDEvents sends none.
   */
  readonly events: readonly ObservedEvent[]
}

/** The release's commits as the events carry them: the first EVENT_COMMITS (oldest first) and the count. */
export interface ObservedChanges {
  /** 'added': what the release brings; 'removed': what it took out (an older commit, or a rollback: rolledBack). */
  readonly direction: 'added' | 'removed'
  readonly rolledBack: boolean
  readonly total: number
  readonly commits: readonly { readonly sha: string; readonly title: string; readonly author: string | null; readonly pullRequests: readonly number[] }[]
  /** Why none are listed. */
  readonly why?: string | undefined
}

/** The release rules' facts the events carry; each undefined when there is none. */
export interface ObservedRules {
  /** override-reason, when given, and the rules it overrode (empty: none would have refused). */
  readonly overrideReason?: string | undefined
  readonly overrode?: readonly string[] | undefined
  /** The newest backup of the environment found by require-backup-hours: whoever has to restore knows which. */
  readonly backupId?: string | undefined
  readonly backupCreatedAt?: string | undefined
  /** The rule that refused the run (nothing was deployed). */
  readonly refusedBy?: string | undefined
}

/** The most commits an event carries. */
export const EVENT_COMMITS = 20

/** A chat or observability tool the run tells. A sink never throws past dispatch (events/dispatch.ts) and never changes the outcome. */
export interface Sink {
  /** The service's name, for the warning when it fails ("Slack", "Datadog"). */
  readonly name: string
  /**
   * Sends what this service takes about the run; the signal ends the call at its time limit. Resolves to false when
   * the service takes nothing about this run (no call made: the step must not say it was told).
   */
  send(run: ObservedRun, signal: AbortSignal): Promise<boolean | void>
}

/** The sinks' inputs, read once (inputs/events.ts); a sink is on when its first field is set. */
export interface EventsInputs {
  /** CDEvents over CloudEvents 1.0, binary mode. */
  readonly cdevents?: { readonly url: string; readonly token: string | undefined }
  readonly slack?: { readonly webhookUrl: string }
  readonly teams?: { readonly webhookUrl: string }
  /** Datadog's DORA deployment API; apiUrl from datadog-site (datadoghq.com -> https://api.datadoghq.com). */
  readonly datadog?: { readonly apiKey: string; readonly apiUrl: string; readonly service: string }
  /** Sentry release deploys; the release name is the distribution's. */
  readonly sentry?: { readonly authToken: string; readonly url: string; readonly org: string; readonly project: string }
  /** Grafana annotations (a range from start to the observed end). */
  readonly grafana?: { readonly url: string; readonly token: string }
  /** Honeycomb markers. */
  readonly honeycomb?: { readonly apiKey: string; readonly apiUrl: string; readonly dataset: string }
  /** New Relic change tracking (NerdGraph). */
  readonly newRelic?: { readonly apiKey: string; readonly apiUrl: string; readonly entityGuid: string }
  /** Each send's time limit. */
  readonly timeoutMs: number
}
