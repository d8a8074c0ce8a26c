// A simulated world for one run of the action, as wide as its inputs: the emulator's stack (the one
// platform model) in-process under a fake clock, in every reading the public sources leave open; every
// login (the stack's password, a token endpoint with a secret, a script account or GitHub's OIDC token, a
// ready token); every source (an id, another environment, an upload, an identical stored one, pruning);
// other actors (another job deploying, promoting our distribution, acting on another environment, Mission
// Control, a deletion, a restart, a rename), drawn in the run's own time (right after one of its requests)
// as well as the clock's; faults on any call of the platform, the identity provider and GitHub; tokens
// that fall due; slow answers; a cancel (SIGINT, SIGTERM 7.5 s later, the kill 2.5 s after), SIGTERM alone,
// or a kill; the event sinks (CDEvents and native ones on a simulated host, each answering, failing,
// hanging or slow); tracing (./tracing.ts: a collector that takes, refuses, drops or never answers the trace,
// the pipeline's TRACEPARENT, a signal during the sends); and the post step after the main step. Every choice
// comes from a Schedule that fast-check generates from a seed, so a failing seed replays exactly.
import fc from 'fast-check'
import { createHash } from 'node:crypto'
import { createStack, type Stack } from '../../src/emulator/stack.js'
import { startDeploy } from '../../src/emulator/cloud-api.js'
import { deleteAs, deleteEnvironment, deployAs, renameEnvironment } from '../../src/emulator/test-hooks.js'
import type { RouteName } from '../../src/emulator/github/server.js'
import type { RouteName as GitLabRoute } from '../../src/emulator/gitlab/server.js'
import type { Fault, IdCase, Operation, StoredDistribution, StoredEnvironment } from '../../src/emulator/types.js'
import { cliFaces, type CliFace } from './faces.js'
import { secondRuns, type SecondRun } from './second-run.js'
import { busyActor, rulesSchedules, type RulesSchedule } from './rules.js'
import { COMMITS, GONE, github, type GitHubFault, type GitHubSchedule } from './github.js'
import { defaultNameOf, gitlab, type GitLabFault, type GitLabSchedule } from './gitlab.js'
import { processOf, runIndex } from './process.js'
import { statusSchedules, type StatusSchedule } from './status-schedule.js'
import { wire } from './transport.js'
import { tracingSchedules, type TracingSchedule } from './tracing.js'

export const ENV = 'production'
export const OTHER_ENV = 'development'
export const OURS = '0a0a0a0a-0000-4000-8000-00000000000a'
export const OLD = '0b0b0b0b-0000-4000-8000-00000000000b'
export const THEIRS = ['0c0c0c0c-0000-4000-8000-00000000000c', '0d0d0d0d-0000-4000-8000-00000000000d']
/** What the environment ran before the old release, when a schedule draws that history (Schedule.history). */
export const PREV = '09090909-0000-4000-8000-000000000009'
/** Old releases nobody runs: what pruning may delete. */
export const STALE = ['0e0e0e0e-0000-4000-8000-00000000000e', '0f0f0f0f-0000-4000-8000-00000000000f']
export const MARKER = 'release-ours-7f3e'
/** A token in the health-url's query string: it must never be printed. */
export const QUERY_SECRET = 'q-secret-5d1c'
/** The search auth key: a secret. */
export const SEARCH_KEY = 'search-key-9c2b41'

/** How the run logs in. */
export type LoginKind = 'password' | 'client-secret' | 'script-account' | 'github-oidc' | 'access-token'

/** Where the distribution comes from: distribution-id, from-environment, or an upload (new, identical to a stored one). */
export type SourceKind = 'id' | 'environment' | 'upload' | 'upload-identical'

/** The operations of the platform, the identity provider and GitHub that a request-relative trigger can follow. */
export type TriggerOperation = Operation | RouteName

/** When something happens: at a second of the clock, or a few seconds after the run's nth call of an operation. */
export type Trigger = { readonly at: number } | { readonly after: TriggerOperation; readonly nth: number; readonly delay: number }

export interface Actor {
  readonly trigger: Trigger
  readonly kind: 'deploy' | 'mission-control' | 'delete' | 'restart' | 'rename' | 'delete-environment'
  /** Which distribution: -1 the old release, 0..1 theirs, 2 ours (someone promotes our distribution). */
  readonly which: number
  /** Which environment: ours, or the other one. */
  readonly other: boolean
  /** How long its switch takes. */
  readonly seconds: number
}

export interface CallFault {
  readonly operation: Operation
  readonly kind: Fault['kind']
  readonly status: number
  readonly skip: number
  /** For 'apply-then-delay': seconds the answer is held back. */
  readonly delaySeconds: number
}

/** How the run is stopped from outside: GitHub's cancel (SIGINT, SIGTERM 7.5 s later, the kill 2.5 s after), SIGTERM alone (the kill 2.5 s after), or a kill. */
export interface Stop {
  readonly kind: 'cancel' | 'sigterm' | 'kill'
  readonly trigger: Trigger
}

export interface Schedule {
  readonly reading: 'when-done' | 'at-request'
  readonly status: boolean
  /** The readings the public sources do not settle: ids in upper case (everywhere, or on one endpoint), no id while deploying, a clock off ours, deleting what runs. */
  readonly idCase: IdCase
  readonly idWhileDeploying: 'reported' | 'absent' | 'null'
  readonly clockOffsetSeconds: number
  readonly deleteInUse: 'refuse' | 'allow'
  /** A deploy asked for while the environment switches: refused (409), or accepted (it replaces the switch). */
  readonly deployWhileBusy: 'refuse' | 'accept'
  /** Seconds a deploy of the platform takes. */
  readonly deploySeconds: number
  /** What the environment runs when the run starts. */
  readonly start: 'old' | 'ours' | 'none'
  readonly login: LoginKind
  /** The identity provider: which grants answer a refresh token, whether it can revoke one. */
  readonly idpRefresh: 'password' | 'all' | 'none'
  readonly idpRevocation: boolean
  readonly source: SourceKind
  /** max-distributions (pruning before an upload), when set. */
  readonly maxDistributions: number | undefined
  readonly ourSiteFails: boolean
  readonly rollback: boolean
  readonly rollbackOnSearch: boolean
  readonly health: boolean
  /** health-expect (the release marker) with health-url; without it any 2xx passes, whichever release answers. */
  readonly healthExpect: boolean
  /** The search check after the deploy: none, one that passes, one that finds nothing. */
  readonly search: 'none' | 'pass' | 'fail'
  readonly followDeploy: boolean
  readonly maxAttempts: number
  readonly deployTimeoutSeconds: number
  readonly requestTimeoutSeconds: number
  readonly healthTimeoutSeconds: number
  /** total-timeout-minutes: empty (derived) or exactly the budgets (so the watchdog fires mid-run). */
  readonly tightWatchdog: boolean
  readonly tokenSeconds: number
  readonly faults: readonly CallFault[]
  readonly actors: readonly Actor[]
  /** Seconds of latency for each answer, cycled. */
  readonly latency: readonly number[]
  readonly stop: Stop | undefined
  /**
   * One race set up on purpose, beside the drawn actors: another job's (recorded) deploy right after the run's
   * first compare (the order's re-check), right after its deploy call (a replacement), or right after the first
   * answer of its health check.
   */
  readonly race: 'none' | 'recheck' | 'replace' | 'health'
  /** With github-token: the deploy order is checked against GitHub's record (./github.ts); absent: no token. */
  readonly github?: GitHubSchedule | undefined
  /** The event sinks (events-url and native ones) on the simulated host, each with its fate (./events.ts); absent: none. */
  readonly events?: EventsSchedule | undefined
  /**
   * With max-distributions and the old release running: the environment ran PREV (four days old) before it, which is
   * then its previous distribution, the likely rollback target pruning must keep when anything it can read names it
   * (built before the old release, as in a pipeline that builds forward, it is also what pruning keeps without a
   * token); and, with github-token, a run killed yesterday left its Deployment of STALE[0] (to an environment the
   * stack no longer has) in progress for good.
   */
  readonly history?: boolean | undefined
  /** The status report, read at drawn moments while the run and the others act (./status.ts); absent: never read. */
  readonly report?: StatusSchedule | undefined
  /** The face: `brcloud deploy` in a CI or a terminal (./faces.ts); absent: the action (its main step, then its post step). */
  readonly face?: CliFace | undefined
  /** A second run in the same world, on the same face (./runs.ts); absent: the world holds this run alone. */
  readonly second?: SecondRun | undefined
  /** The release rules (./rules.ts): freeze windows, a soak clock, the newest backup, override-reason; absent: none. */
  readonly rules?: RulesSchedule | undefined
  /**
   * With gitlab-token: the code lives on GitLab (./gitlab.ts), which the deploy order reads and the run records its deploy
   * in; absent: not GitLab. Never beside `github` (the code lives in one place).
   */
  readonly gitlab?: GitLabSchedule | undefined
  /** Tracing (./tracing.ts): the collector, TRACEPARENT, a signal during the sends; absent: off, nothing loaded or sent. */
  readonly tracing?: TracingSchedule | undefined
}

/** The commit each of the world's distributions was built from, by index into COMMITS: the code host's schedule's, either host's. */
export interface CommitsOfWorld {
  readonly ours: number
  readonly old: number
  readonly theirs: readonly number[]
}

/** The world's commits: GitHub's or GitLab's schedule (undefined without a code host). */
export function commitsOf(s: Pick<Schedule, 'github' | 'gitlab'>): CommitsOfWorld | undefined {
  return s.github ?? s.gitlab
}

/** A sink of the run: CDEvents (events-url), or a native one. */
export type SinkKey = 'cdevents' | 'slack' | 'teams' | 'datadog' | 'sentry' | 'grafana' | 'honeycomb' | 'new-relic'

/** What the sink's service does with a request: answers 2xx, answers an error, never answers, or answers after `seconds`. */
export interface SinkFate {
  readonly kind: 'answer' | 'status' | 'hang' | 'slow'
  readonly status: number
  readonly seconds: number
  /** The fate applies from this request of the sink on (the ones before are answered 2xx at once). */
  readonly from: number
}

export interface EventsSchedule {
  /** events-token set. */
  readonly token: boolean
  /** events-timeout-seconds; undefined: the default (10). */
  readonly timeoutSeconds: number | undefined
  /** CDEvents first, then one or two native sinks. */
  readonly sinks: ReadonlyArray<{ readonly key: SinkKey; readonly fate: SinkFate }>
}

/** The cloud operations the run makes, for faults. */
const OPERATIONS: Operation[] = [
  'deploy',
  'list-environments',
  'get-distribution',
  'list-distributions',
  'upload',
  'delete-distribution',
  'login',
  'refresh',
  'revoke-refresh',
  'verify',
  'site',
  'search',
  'idp-token',
  'idp-revoke',
  'oidc-token'
]

/** The operations a request-relative trigger follows: the ones every kind of run makes, and the ones of the races that matter. */
const TRIGGERS: TriggerOperation[] = [
  'list-environments',
  'list-environments',
  'deploy',
  'get-distribution',
  'site',
  'login',
  'refresh',
  'idp-token',
  'upload',
  'compare',
  'list-deployments',
  'search'
]

/**
 * The races that matter, right where they happen: between the order's compare and the deploy call, right after
 * the deploy call, during the health check, before a rollback's look; then any call, and any second.
 */
const RACE_POINTS: Array<[TriggerOperation, number]> = [
  ['compare', 0],
  ['list-deployments', 0],
  ['deploy', 0],
  ['deploy', 1],
  ['site', 0],
  ['site', 1],
  ['list-environments', 2],
  ['list-environments', 3]
]

const trigger: fc.Arbitrary<Trigger> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ at: fc.integer({ min: 0, max: 150 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      after: fc.constantFrom(...TRIGGERS),
      nth: fc.integer({ min: 0, max: 4 }),
      delay: fc.constantFrom(0, 0, 1, 3, 10)
    })
  },
  {
    weight: 2,
    arbitrary: fc
      .record({ point: fc.constantFrom(...RACE_POINTS), delay: fc.constantFrom(0, 0, 1, 5) })
      .map(({ point: [after, nth], delay }) => ({ after, nth, delay }))
  }
)

const githubFault: fc.Arbitrary<GitHubFault> = fc.record({
  route: fc.constantFrom<RouteName>('list-deployments', 'list-deployments', 'compare', 'compare', 'create-deployment', 'create-status', 'list-statuses'),
  kind: fc.constantFrom('status' as const, 'status' as const, 'hang' as const, 'unreachable' as const, 'slow' as const),
  status: fc.constantFrom(500, 502, 401, 403, 404),
  skip: fc.integer({ min: 0, max: 3 }),
  times: fc.constantFrom(1, 1, 3, 50),
  seconds: fc.constantFrom(5, 14, 40)
})

export const githubSchedules: fc.Arbitrary<GitHubSchedule> = fc.record({
  ours: fc.integer({ min: 0, max: 6 }),
  old: fc.constantFrom(0, 1, 2, 3, 4, 5, 6, GONE),
  theirs: fc.array(fc.integer({ min: 0, max: 6 }), { minLength: THEIRS.length, maxLength: THEIRS.length }),
  recordOthers: fc.constantFrom(true, true, false),
  oursRecorded: fc.constantFrom(true, true, false),
  allowOlder: fc.constantFrom(false, false, false, true),
  allowUnchecked: fc.constantFrom(false, false, true),
  token: fc.constantFrom(
    'ok' as const,
    'ok' as const,
    'ok' as const,
    'ok' as const,
    'bad' as const,
    'no-contents' as const,
    'no-deployments' as const,
    'read-only' as const
  ),
  filler: fc.constantFrom(0, 0, 0, 150),
  faults: fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 2, arbitrary: fc.array(githubFault, { maxLength: 2 }) })
})

const gitlabFault: fc.Arbitrary<GitLabFault> = fc.record({
  route: fc.constantFrom<GitLabRoute>(
    'list-deployments',
    'list-deployments',
    'merge-base',
    'compare',
    'get-commit',
    'create-deployment',
    'update-deployment',
    'update-deployment'
  ),
  kind: fc.constantFrom('status' as const, 'status' as const, 'hang' as const, 'drop' as const, 'rate-limit' as const, 'unreachable' as const, 'slow' as const),
  status: fc.constantFrom(500, 502, 503, 401, 403, 404),
  skip: fc.integer({ min: 0, max: 3 }),
  times: fc.constantFrom(1, 1, 3, 50),
  seconds: fc.constantFrom(5, 14, 40),
  afterApply: fc.constantFrom(false, false, true)
})

export const gitlabSchedules: fc.Arbitrary<GitLabSchedule> = fc.record({
  ours: fc.integer({ min: 0, max: 6 }),
  old: fc.constantFrom(0, 1, 2, 3, 4, 5, 6, GONE),
  theirs: fc.array(fc.integer({ min: 0, max: 6 }), { minLength: THEIRS.length, maxLength: THEIRS.length }),
  recordOthers: fc.constantFrom(true, true, false),
  names: fc.constantFrom(true, true, true, false),
  allowOlder: fc.constantFrom(false, false, false, true),
  allowUnchecked: fc.constantFrom(false, false, true),
  token: fc.constantFrom('ok' as const, 'ok' as const, 'ok' as const, 'ok' as const, 'bad' as const, 'read-api' as const, 'no-project' as const),
  faults: fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 2, arbitrary: fc.array(gitlabFault, { maxLength: 2 }) }),
  fromJob: fc.boolean()
})

const sinkFate: fc.Arbitrary<SinkFate> = fc.record({
  kind: fc.constantFrom('answer' as const, 'answer' as const, 'answer' as const, 'status' as const, 'hang' as const, 'slow' as const),
  status: fc.constantFrom(500, 503, 404, 401),
  seconds: fc.constantFrom(1, 4, 15, 70),
  from: fc.constantFrom(0, 0, 1)
})

const NATIVE: SinkKey[] = ['slack', 'teams', 'datadog', 'sentry', 'grafana', 'honeycomb', 'new-relic']

export const eventsSchedules: fc.Arbitrary<EventsSchedule> = fc.record({
  token: fc.boolean(),
  timeoutSeconds: fc.constantFrom(undefined, undefined, 2, 5, 30),
  sinks: fc
    .tuple(sinkFate, fc.subarray(NATIVE, { minLength: 1, maxLength: 2 }), fc.array(sinkFate, { minLength: 2, maxLength: 2 }))
    .map(([cdevents, natives, fates]) => [{ key: 'cdevents' as const, fate: cdevents }, ...natives.map((key, i) => ({ key, fate: fates[i] ?? cdevents }))])
})

const drawn: fc.Arbitrary<Schedule> = fc.record({
  reading: fc.constantFrom('when-done' as const, 'at-request' as const),
  status: fc.boolean(),
  idCase: fc.constantFrom<IdCase>('as-stored', 'as-stored', 'as-stored', 'upper', 'upper-distributions', 'upper-environments', 'upper-by-name'),
  idWhileDeploying: fc.constantFrom('reported' as const, 'reported' as const, 'absent' as const, 'null' as const),
  clockOffsetSeconds: fc.constantFrom(0, 0, -600, 600),
  deleteInUse: fc.constantFrom('refuse' as const, 'allow' as const),
  deployWhileBusy: fc.constantFrom('refuse' as const, 'refuse' as const, 'accept' as const),
  deploySeconds: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 150 })),
  start: fc.constantFrom('old' as const, 'old' as const, 'ours' as const, 'none' as const),
  login: fc.constantFrom<LoginKind>('password', 'password', 'password', 'client-secret', 'script-account', 'github-oidc', 'access-token'),
  idpRefresh: fc.constantFrom('password' as const, 'all' as const, 'none' as const),
  idpRevocation: fc.constantFrom(true, true, false),
  source: fc.constantFrom<SourceKind>('id', 'id', 'environment', 'upload', 'upload', 'upload-identical'),
  maxDistributions: fc.constantFrom(undefined, undefined, 3, 5),
  ourSiteFails: fc.constantFrom(false, false, false, true, true),
  rollback: fc.constantFrom(true, true, false),
  rollbackOnSearch: fc.boolean(),
  health: fc.constantFrom(true, true, false),
  healthExpect: fc.constantFrom(true, true, true, false),
  search: fc.constantFrom('none' as const, 'none' as const, 'pass' as const, 'fail' as const),
  followDeploy: fc.constantFrom(true, true, true, false),
  maxAttempts: fc.integer({ min: 1, max: 4 }),
  deployTimeoutSeconds: fc.constantFrom(30, 60, 120, 180),
  requestTimeoutSeconds: fc.constantFrom(10, 30, 60),
  healthTimeoutSeconds: fc.constantFrom(12, 60),
  tightWatchdog: fc.constantFrom(false, false, false, true),
  tokenSeconds: fc.constantFrom(20, 45, 120, 600),
  // Half the runs meet no fault, so a release that succeeds (and every claim it makes) is as common as one that fails.
  faults: fc.oneof(
    { weight: 1, arbitrary: fc.constant([]) },
    {
      weight: 1,
      arbitrary: fc.array(
        fc
          .record({
            operation: fc.constantFrom(...OPERATIONS),
            kind: fc.constantFrom(
              'status' as const,
              'status' as const,
              'drop-after-apply' as const,
              'hang' as const,
              'revoke-tokens' as const,
              'apply-then-status' as const,
              'apply-then-delay' as const
            ),
            status: fc.constantFrom(500, 502, 503, 409, 429),
            skip: fc.integer({ min: 0, max: 6 }),
            delaySeconds: fc.constantFrom(5, 40, 90)
          })
          // A call carried out and then answered with an error is a server or proxy failing after the work (5xx);
          // a 409 or 429 is a refusal before any work, as a rate limiter or the platform's busy rule gives it.
          .map((f) => (f.kind === 'apply-then-status' && f.status < 500 ? { ...f, status: 502 } : f)),
        { minLength: 1, maxLength: 4 }
      )
    }
  ),
  actors: fc.oneof(
    { weight: 1, arbitrary: fc.constant([]) },
    {
      weight: 2,
      arbitrary: fc.array(
        fc.record({
          trigger,
          kind: fc.constantFrom(
            'deploy' as const,
            'deploy' as const,
            'deploy' as const,
            'mission-control' as const,
            'delete' as const,
            'restart' as const,
            'rename' as const,
            'delete-environment' as const
          ),
          which: fc.integer({ min: -1, max: THEIRS.length }),
          other: fc.constantFrom(false, false, false, true),
          seconds: fc.integer({ min: 0, max: 90 })
        }),
        { minLength: 1, maxLength: 3 }
      )
    }
  ),
  latency: fc.array(fc.constantFrom(0, 0, 0, 1, 5, 20), { minLength: 1, maxLength: 5 }),
  stop: fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('cancel' as const, 'cancel' as const, 'sigterm' as const, 'kill' as const), trigger }) }
  ),
  github: fc.option(githubSchedules, { nil: undefined, freq: 2 }),
  race: fc.constantFrom('none' as const, 'none' as const, 'none' as const, 'recheck' as const, 'replace' as const, 'health' as const),
  // Drawn last, so every other field of a schedule is what the same seed drew before the sinks existed.
  events: fc.option(eventsSchedules, { nil: undefined, freq: 2 }),
  // After the sinks, for the same reason.
  history: fc.boolean(),
  // Drawn last too, for the same reason: the status report, read at moments of the run (a third of the schedules).
  report: fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: statusSchedules }),
  // After them, for the same reason: a schedule without it (every fixed one) is the action's face.
  face: fc.option(cliFaces, { nil: undefined, freq: 2 }),
  // And last: a world of one run unless drawn (one schedule in five holds a second run).
  second: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: secondRuns }),
  // After it, for the same reason: the release rules (a third of the schedules).
  rules: fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: rulesSchedules }),
  // And after them: GitLab as the code's host, in half the schedules that draw no GitHub (every schedule with GitHub stays as it was).
  gitlab: fc.option(gitlabSchedules, { nil: undefined, freq: 2 }),
  // And last, for the same reason: tracing, on in a quarter of the schedules.
  tracing: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: tracingSchedules })
})

/**
 * Inputs a user would give together (rollback-on-search needs rollback: a refusal of that is the inputs' own test), and
 * one code host: GitLab only where GitHub was not drawn.
 */
export const schedules: fc.Arbitrary<Schedule> = drawn.map((s) => ({
  ...s,
  rollbackOnSearch: s.rollback && s.rollbackOnSearch,
  gitlab: s.github === undefined ? s.gitlab : undefined
}))

/** The actor a schedule's `race` adds: another job of this repository deploying theirs at that moment. */
export function raceActor(s: Schedule): Actor | undefined {
  if (s.race === 'recheck') return { trigger: { after: 'compare', nth: 0, delay: 0 }, kind: 'deploy', which: 0, other: false, seconds: 20 }
  if (s.race === 'replace') return { trigger: { after: 'deploy', nth: 0, delay: 1 }, kind: 'deploy', which: 1, other: false, seconds: 10 }
  if (s.race === 'health') return { trigger: { after: 'site', nth: 0, delay: 0 }, kind: 'deploy', which: 0, other: false, seconds: 5 }
  return undefined
}

/** The run's commit: an upload is built from it; a promotion deploys what another run built. */
export function runCommit(s: Schedule): string {
  return s.source === 'upload' || s.source === 'upload-identical' ? (COMMITS[commitsOf(s)?.ours ?? 5] ?? '') : (COMMITS[5] ?? '')
}

/** Our archive's name: the default one, which carries the run's commit. */
export function archiveName(s: Schedule): string {
  return `site-${runCommit(s).slice(0, 7)}-distribution.tar.gz`
}

/** Our archive: a real tar.gz on disk (./archive.ts makes it), uploaded as the action would. */
export interface SimArchive {
  readonly path: string
  readonly size: number
  readonly md5: string
  readonly sha256: string
}

function distribution(id: string, name: string, files: Record<string, string>, createdAt: string, md5?: string): StoredDistribution {
  return {
    id,
    name,
    createdAt,
    createdBy: 'someone',
    modifiedAt: createdAt,
    modifiedBy: 'someone',
    md5hash: md5 ?? createHash('md5').update(id).digest('hex'),
    sha256: '',
    size: 100,
    files
  }
}

/** What our release serves: the marker, or a site that fails. */
export function ourFiles(s: Schedule): Record<string, string> {
  return { 'version.txt': `${MARKER}\n`, ...(s.ourSiteFails && { 'EMULATOR-SITE-FAILS': 'x' }) }
}

/** Whether the stack uses single sign-on (a token endpoint, or a ready token of its identity provider). */
export function ssoStack(s: Schedule): boolean {
  return s.login !== 'password'
}

/**
 * The stack a schedule starts from: the old release, ours (unless this run uploads it), theirs, two stale
 * ones; the environment running what the schedule says, the other environment running ours (for
 * from-environment). The old release is two days old; one stale one was stored a day ago (built after it, never
 * deployed), the other and theirs minutes ago.
 */
export function makeStack(s: Schedule, archive: SimArchive): Stack {
  const stack = createStack(
    {
      environments: [OTHER_ENV, ENV],
      deploySeconds: s.deploySeconds,
      deployReport: s.reading,
      environmentStatus: s.status,
      tokenLifetimeSeconds: s.tokenSeconds,
      keepUploads: false,
      idCase: s.idCase,
      idWhileDeploying: s.idWhileDeploying,
      clockOffsetSeconds: s.clockOffsetSeconds,
      deleteInUse: s.deleteInUse,
      deployWhileBusy: s.deployWhileBusy,
      ...(ssoStack(s) && {
        sso: { sharedKeys: true, refreshTokens: s.idpRefresh, revocation: s.idpRevocation, accessTokenSeconds: s.tokenSeconds }
      })
    },
    '/nonexistent-simulation-storage'
  )
  const { state } = stack
  const platformAgo = (minutes: number): string => new Date(Date.now() + s.clockOffsetSeconds * 1000 - minutes * 60_000).toISOString()
  const old = platformAgo(48 * 60)
  // On GitLab a distribution's default name is the only evidence of its commit: a world may name them so.
  const gl = s.gitlab?.names === true ? s.gitlab : undefined
  const named = (plain: string, commit: number | undefined): string => (gl === undefined || commit === undefined ? plain : defaultNameOf(commit))
  state.distributions.push(distribution(OLD, named('old.tar.gz', gl?.old), { 'version.txt': 'old release\n' }, old))
  if (s.source === 'id' || s.source === 'environment')
    state.distributions.push(distribution(OURS, named('ours.tar.gz', gl?.ours), ourFiles(s), platformAgo(30)))
  if (s.source === 'upload-identical') state.distributions.push(distribution(OURS, archiveName(s), ourFiles(s), platformAgo(30), archive.md5))
  THEIRS.forEach((id, i) =>
    state.distributions.push(distribution(id, named(`theirs-${i}.tar.gz`, gl?.theirs[i]), { 'version.txt': `theirs ${i}\n` }, platformAgo(20 + i)))
  )
  state.distributions.push(distribution(STALE[0] ?? '', 'stale-0.tar.gz', {}, platformAgo(24 * 60)))
  state.distributions.push(distribution(STALE[1] ?? '', 'stale-1.tar.gz', {}, platformAgo(5)))
  const env = state.environments.find((e) => e.name === ENV)
  if (env && ranBefore(s)) {
    state.distributions.push(distribution(PREV, named('prev.tar.gz', 0), { 'version.txt': 'previous release\n' }, platformAgo(96 * 60)))
    startDeploy(state, env, deployment(PREV, 'earlier'), 0)
  }
  const first = s.start === 'old' ? OLD : s.start === 'ours' && state.distributions.some((d) => d.id === OURS) ? OURS : undefined
  if (env && first) startDeploy(state, env, deployment(first, 'earlier'), 0)
  const other = state.environments.find((e) => e.name === OTHER_ENV)
  if (other && state.distributions.some((d) => d.id === OURS)) startDeploy(state, other, deployment(OURS, 'earlier'), 0)
  return stack
}

/** Whether the environment ran PREV before the old release (only where pruning may meet it: the world stays as it was elsewhere). */
export function ranBefore(s: Schedule): boolean {
  return s.history === true && s.start === 'old' && s.maxDistributions !== undefined
}

function deployment(distributionId: string, by: string): Parameters<typeof startDeploy>[2] {
  return { distributionId, strategy: 'stopstart', appConfigFileRoles: [], requestedAt: new Date().toISOString(), appliedAt: null, by }
}

/** Puts the schedule's faults in the stack's queue (each applies once, after `skip` calls of its operation). */
export function addFaults(stack: Stack, s: Schedule): void {
  for (const f of s.faults) stack.faults.add({ operation: f.operation, kind: f.kind, status: f.status, times: 1, skip: f.skip, delayMs: f.delaySeconds * 1000 })
}

/** What the world did, for the invariants and the coverage report. */
export interface WorldLog {
  /**
   * Each restart (the platform forgot what ran before): the length of the environment's deploy history then, and when;
   * and every environment's, by id (a second run's environment, ./runs.ts); the wire's sequence number then.
   */
  readonly restarts: Array<{ length: number; at: number; lengths?: Readonly<Record<string, number>>; seq?: number }>
  /** The environment was renamed or deleted (at this sequence number of the wire). */
  environmentGone: number | undefined
  /** The environment's record (kept when it is deleted: its history stays readable). */
  environment: StoredEnvironment | undefined
  /** Deletions the run made, each with what the world needed of it at that moment (./claims.ts checkStack reads them). */
  readonly deletions: Deletion[]
  /** Deletions the run made, by id. */
  readonly deleted: string[]
  /** Distributions stored from this run's uploads. */
  readonly uploaded: string[]
  /** What the other environment reported when the run looked at it (from-environment). */
  fromEnvironment?: string | undefined
  readonly lines: string[]
}

/** Calls `fn` when the trigger fires: a timer, or a hook after the run's nth call of an operation (as the world, never as that run). */
export function onTrigger(stack: Stack, t: Trigger, act: () => void, afterCodeHost: Map<string, Array<{ nth: number; fn: () => void }>>): void {
  const fn = (): void => processOf.exit(act)
  if ('at' in t) {
    setTimeout(fn, t.at * 1000)
    return
  }
  const later = (): void => void (t.delay > 0 ? setTimeout(fn, t.delay * 1000) : fn())
  if (isCodeHostRoute(t.after)) {
    const list = afterCodeHost.get(t.after) ?? []
    list.push({ nth: t.nth, fn: later })
    afterCodeHost.set(t.after, list)
  } else stack.hooks.add(t.after, later, { skip: t.nth })
}

function isCodeHostRoute(op: TriggerOperation): op is RouteName {
  return ['compare', 'list-deployments', 'create-deployment', 'create-status', 'list-statuses', 'get-deployment'].includes(op)
}

/** Starts the other actors (fake time): their deploys follow the platform's rules; a busy environment makes them try again later. */
export function startActors(stack: Stack, s: Schedule, log: WorldLog, afterCodeHost: Map<string, Array<{ nth: number; fn: () => void }>>): void {
  const { state } = stack
  const added = [raceActor(s), busyActor(s)].filter((a) => a !== undefined)
  for (const actor of [...s.actors, ...added]) {
    const name = actor.other ? OTHER_ENV : ENV
    const act = (tries: number): void => {
      const env = state.environments.find((e) => e.id === environmentIdOf(stack, name))
      if (env === undefined) return
      if (actor.kind === 'restart') {
        // The platform (an emulator restarted mid-run) forgets what every environment runs, and every access token.
        const lengths = Object.fromEntries(state.environments.map((e) => [e.id, e.deployments.length]))
        log.restarts.push({ length: log.environment?.deployments.length ?? 0, at: Date.now(), lengths, seq: wire.seq })
        for (const timer of state.switches) clearTimeout(timer)
        state.switches.clear()
        state.landings.clear()
        for (const e of state.environments) Object.assign(e, { distributionId: null, serving: null, status: 'empty' })
        state.access.revokeAll()
        log.lines.push('actor: the platform restarted: the environment runs nothing')
        return
      }
      if (actor.kind === 'rename' || actor.kind === 'delete-environment') {
        if (log.environmentGone !== undefined || actor.other) return
        log.environmentGone = wire.seq
        if (actor.kind === 'rename') renameEnvironment(state, env.name, `${ENV}-renamed`)
        else deleteEnvironment(state, env.name)
        log.lines.push(`actor: environment '${ENV}' ${actor.kind === 'rename' ? 'renamed' : 'deleted'}`)
        return
      }
      // Ours is the world's first run's (a second run's deploys are not what "ours" names).
      const ours = (): string | undefined =>
        ourStoredId(
          s,
          log,
          wire.deploys.filter((d) => d.run === 0)
        )
      const id = actor.which < 0 ? OLD : actor.which >= THEIRS.length ? (ours() ?? OLD) : (THEIRS[actor.which] ?? OLD)
      if (actor.kind === 'delete') {
        deleteAs(state, id).then(
          () => log.lines.push(`actor: deleted ${id}`),
          () => undefined // in use (refused), or gone already
        )
        return
      }
      if (!state.distributions.some((d) => d.id === id)) return
      const by = actor.kind === 'mission-control' ? 'mission-control' : 'other-job'
      // What the other job's run found there: what it records as its rollback target.
      const previous = env.distributionId
      try {
        deployAs(state, env.name, id, { seconds: actor.seconds, by })
      } catch {
        // Busy (the platform's 409): that job tries again a little later.
        if (tries < 5) setTimeout(() => act(tries + 1), 5_000)
        return
      }
      // Another job of this repository records its deploy as a GitHub Deployment; Mission Control records nothing.
      const gh = github.world
      const deployment = env.deployments.at(-1)
      const landed = (): boolean => deployment?.appliedAt !== null && deployment?.appliedAt !== undefined
      // By what it deployed: "ours" before this run stored it is the old release (the fallback above), recorded as that.
      if (gh && by === 'other-job' && gh.schedule.recordOthers)
        gh.recordOther(name, id, commitOf(gh.schedule, id === OLD ? -1 : actor.which), { previous, seconds: actor.seconds, landed })
      // On GitLab: a deployment of its commit, running until its switch ends (GitLab keeps no distribution).
      const gl = gitlab.world
      if (gl && by === 'other-job' && gl.schedule.recordOthers)
        gl.recordOther(name, commitOf(gl.schedule, id === OLD ? -1 : actor.which), { seconds: actor.seconds, landed })
      log.lines.push(`actor: ${by} deployed ${id} to '${env.name}' (${actor.seconds} s)`)
    }
    onTrigger(stack, actor.trigger, () => act(0), afterCodeHost)
  }
}

/** The environment's id by its name at the start (a rename keeps the id). */
function environmentIdOf(stack: Stack, name: string): string | undefined {
  return stack.state.environments.find((e) => e.name === name || e.name === `${name}-renamed`)?.id
}

function commitOf(gh: CommitsOfWorld, which: number): number {
  if (which < 0) return gh.old
  if (which >= THEIRS.length) return gh.ours
  return gh.theirs[which] ?? 0
}

/** The id our distribution has (or had: it may have been deleted since) on the stack: given, found identical, or stored from this run's upload. */
export function ourStoredId(s: Schedule, log: WorldLog, deploys: typeof wire.deploys = wire.deploys): string | undefined {
  // The copy the run deployed (a copy deleted by someone else before an attempt found it is uploaded again).
  if (s.source === 'upload') return deploys[0]?.distributionId ?? log.uploaded.at(-1)
  // The identical one (ours, or another run's upload of the same build) may have been deleted before the run looked: then it uploads its own.
  if (s.source === 'upload-identical') return deploys[0]?.distributionId ?? log.uploaded.at(-1) ?? OURS
  // from-environment deploys what the other environment ran when the run looked (another job may have changed it).
  if (s.source === 'environment') return log.fromEnvironment ?? deploys[0]?.distributionId ?? OURS
  return OURS
}

/** How an environment needed a distribution at the moment the run deleted it. */
export interface Use {
  readonly environment: string
  /**
   * reports: its distributionId names it; serves: its site runs it (hidden while a switch is reported at request, or
   * while no id shows); switches: a switch to it is under way; previous: what it served before what it serves now,
   * with no switch under way.
   */
  readonly kind: 'reports' | 'serves' | 'switches' | 'previous'
  /** When that began, by the runner's clock: a switch when requested, the rest when applied. */
  readonly since: number
}

/** A deletion the run made, with what the world needed of that distribution right before the platform deleted it. */
export interface Deletion {
  readonly id: string
  /** The wire's sequence number when the delete arrived: a look with a smaller one was made before it. */
  readonly seq: number
  readonly at: number
  /** As the platform wrote it (its clock). */
  readonly createdAt: string | undefined
  readonly uses: readonly Use[]
  /** GitHub Deployments of it still under way (latest status queued, pending, in progress, or none yet), and when each was created. */
  readonly underWay: ReadonlyArray<{ deployment: number; environment: string; createdAt: number; apiUrl: string | undefined }>
}

const sameId = (a: string | null | undefined, b: string | null | undefined): boolean =>
  typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase()

/** Every way an environment needs distribution `id` now, by the platform's own state and history. */
function usesOf(state: Stack['state'], id: string, s: Schedule): Use[] {
  const runner = (iso: string | null | undefined): number => (iso ? Date.parse(iso) - s.clockOffsetSeconds * 1000 : Number.NEGATIVE_INFINITY)
  const uses: Use[] = []
  for (const e of state.environments) {
    const environment = e.name
    const applied = e.deployments.filter((d) => d.appliedAt !== null)
    const ofIt = e.deployments.filter((d) => sameId(d.distributionId, id)).at(-1)
    if (sameId(e.distributionId, id)) uses.push({ environment, kind: 'reports', since: runner(ofIt?.requestedAt) })
    if (sameId(e.serving, id)) uses.push({ environment, kind: 'serves', since: runner(applied.filter((d) => sameId(d.distributionId, id)).at(-1)?.appliedAt) })
    const pending = e.status === 'deploying' ? e.deployments.filter((d) => d.appliedAt === null && d.abandonedAt === undefined).at(-1) : undefined
    if (pending !== undefined && sameId(pending.distributionId, id)) uses.push({ environment, kind: 'switches', since: runner(pending.requestedAt) })
    // During a switch, what it serves is the rollback target ('serves'); what ran before that is two deploys back.
    if (e.serving === null || pending !== undefined) continue
    let i = applied.length - 1
    while (i >= 0 && sameId(applied[i]?.distributionId, e.serving)) i--
    if (sameId(applied[i]?.distributionId, id)) uses.push({ environment, kind: 'previous', since: runner(applied[i + 1]?.appliedAt) })
  }
  return uses
}

/** GitHub Deployments of `id` whose latest status says they are not done. */
function underWayOf(id: string): Deletion['underWay'] {
  const model = github.world?.core.model
  if (model === undefined) return []
  return model.deployments
    .filter((d) => sameId((d.payload as { distributionId?: string }).distributionId, id))
    .filter((d) => ['queued', 'pending', 'in_progress', undefined].includes(model.statuses(d.id)[0]?.state))
    .map((d) => ({ deployment: d.id, environment: d.environment, createdAt: Date.parse(d.created_at), apiUrl: (d.payload as { apiUrl?: string }).apiUrl }))
}

/** The logs of a world's other runs, by run (./runs.ts): each upload, deletion and deploy is noted in the log of the run that made it. */
export const runLogs = new Map<number, WorldLog>()

/** Who stored each distribution of the world, and the wire's sequence number then (./claims.ts checkWithinMax). */
export const storedAt = new Map<string, { run: number; seq: number }>()

/**
 * The wire's sequence number when each deploy of an environment was requested, by environment id and index in its
 * history: what orders a deploy against a look in the same millisecond (./event-claims.ts). A deploy requested while
 * a call was handled, or after it, has that call's number or a later one; one requested before it, a smaller one.
 */
export const requestedSeq = new WeakMap<Stack['state'], Map<string, Map<number, number>>>()

/**
 * Watches the run's uploads and deletions: an upload stored gets our release's files (the emulator keeps no
 * upload contents here, its sites serve from memory); each deletion is noted with what the world needed of it then.
 * In a world of several runs each is noted in its own run's log, and a deploy of another run than the first is
 * recorded as by `run-<n>` (they all log in as the same user).
 */
export function watchTheRun(stack: Stack, s: Schedule, log: WorldLog, known: ReadonlySet<string>): void {
  const { state } = stack
  const logOf = (run: number): WorldLog => runLogs.get(run) ?? log
  // Who stored each distribution: the run whose request the platform was handling then.
  const push = state.distributions.push.bind(state.distributions)
  state.distributions.push = (...items) => {
    for (const d of items) storedAt.set(d.id, { run: runIndex(), seq: wire.seq })
    return push(...items)
  }
  // A deploy another run than the first asked for (the platform handles it in that run's request) is recorded as its.
  for (const env of state.environments) {
    const pushDeploy = env.deployments.push.bind(env.deployments)
    const byEnvironment = requestedSeq.get(state) ?? new Map<string, Map<number, number>>()
    requestedSeq.set(state, byEnvironment)
    const seqs = byEnvironment.get(env.id) ?? new Map<number, number>()
    byEnvironment.set(env.id, seqs)
    env.deployments.push = (...items) => {
      const run = runIndex()
      if (run > 0) for (const d of items) d.by = `run-${run}`
      items.forEach((_, i) => seqs.set(env.deployments.length + i, wire.seq))
      return pushDeploy(...items)
    }
  }
  const before = new Set(known)
  // Stored once its handler is done (its answer may come much later, or never).
  const noteUploads = (): void => {
    for (const d of state.distributions) {
      if (before.has(d.id)) continue
      before.add(d.id)
      d.files = ourFiles(s)
      logOf(storedAt.get(d.id)?.run ?? runIndex()).uploaded.push(d.id)
    }
  }
  // Read as the request arrives, before the platform deletes: what the world needs of it at that moment.
  const original = stack.handle
  Object.assign(stack, {
    handle: async (req: Parameters<Stack['handle']>[0], res: Parameters<Stack['handle']>[1]) => {
      const m = req.method === 'DELETE' ? /^\/v3\/distributions\/([^/?]+)$/.exec(req.url ?? '') : null
      const id = m?.[1] === undefined ? undefined : decodeURIComponent(m[1])
      const find = (): StoredDistribution | undefined => (id === undefined ? undefined : state.distributions.find((d) => sameId(d.id, id)))
      const there = find()
      const deletion: Deletion | undefined =
        id === undefined || there === undefined
          ? undefined
          : { id, seq: wire.seq, at: Date.now(), createdAt: there.createdAt, uses: usesOf(state, there.id, s), underWay: underWayOf(there.id) }
      const run = runIndex()
      await original(req, res)
      if (req.method === 'POST') noteUploads()
      // Counted only when the platform did delete it (a refusal, 409, deleted nothing).
      if (deletion !== undefined && find() === undefined) {
        logOf(run).deleted.push(deletion.id)
        logOf(run).deletions.push(deletion)
      }
    }
  })
}

/** The commit index each of the world's distributions was built from (for the deploy order's invariant). */
export function commitIndexOf(gh: CommitsOfWorld, id: string, ours: string | undefined): number | undefined {
  const lower = id.toLowerCase()
  if (lower === OLD) return gh.old
  const i = THEIRS.indexOf(lower)
  if (i >= 0) return gh.theirs[i]
  if (ours !== undefined && lower === ours.toLowerCase()) return gh.ours
  return undefined
}
