// The status report's part of a schedule (issue 41): when it reads (at a second, or right after one of the run's
// calls), the faults its calls meet (the stack's, the identity provider's, GitHub's: 5xx, rate limits with their
// headers, a 404, no answer, no connection), the file it reads (environments, a tracked ref that exists or not, a tag
// pattern, a health probe, fail-on, a login or a credential where a variable's name belongs), and GitHub for it (a token
// GitHub grants or refuses, drift issues, more than 300 Deployments). Drawn last in a schedule, and absent in most: a
// schedule without it runs as before. ./status.ts runs it, ./status-claims.ts reads what it claimed.
import fc from 'fast-check'
import type { FailOn } from '../../src/status/verdict.js'
import type { Trigger } from './world.js'

/** The kinds of the report's calls a fault can be put on. */
export type StatusCallKind =
  | 'login'
  | 'idp-token'
  | 'list-environments'
  | 'get-distribution'
  | 'site'
  | 'list-deployments'
  | 'compare'
  | 'list-statuses'
  | 'list-tags'
  | 'list-issues'
  | 'create-issue'
  | 'update-issue'
  | 'other'

/**
 * A fault on the report's calls of one kind: an error status (GitHub's body, or the platform's; `echo`: the platform's
 * error repeating the request, its credentials with it, as careless servers do), GitHub's primary rate
 * limit (403, x-ratelimit-remaining: 0) or secondary one (429 or 403 with retry-after), no answer, a closed socket, no
 * connection; `times` calls after letting `skip` through.
 */
export interface StatusFault {
  readonly on: StatusCallKind
  readonly kind: 'status' | 'echo' | 'rate-limit' | 'secondary-limit' | 'hang' | 'reset' | 'unreachable'
  readonly status: number
  readonly skip: number
  readonly times: number
}

/** One reading of the report: when, and the faults its calls meet. */
export interface StatusRead {
  readonly trigger: Trigger
  readonly faults: readonly StatusFault[]
  /** Each answer to the read comes this late: a read spans the clock while the run and the others act. */
  readonly latencyMs: number
  /** The command stopped from outside this long after it began (Ctrl-C: SIGINT, or SIGTERM); the engine's reads are not. */
  readonly stop: { readonly signal: 'SIGINT' | 'SIGTERM'; readonly afterMs: number } | undefined
}

/** GitHub for the report: its token's grant, drift issues, how many Deployments, and the world's commits when the run has no github-token. */
export interface StatusGitHub {
  readonly token: 'ok' | 'bad' | 'no-contents' | 'no-deployments'
  readonly driftIssues: boolean
  /** Deployments of other environments: none, 350 made before the world's records, or 350 after them (a record of ours in another environment beyond the newest 300). */
  readonly filler: 'none' | 'older' | 'newer'
  /** The world when the run reads no GitHub (the run's own schedule otherwise): the commit of the old release and of theirs, and who recorded what. */
  readonly old: number
  readonly theirs: readonly number[]
  readonly recordOthers: boolean
  readonly oursRecorded: boolean
  /** An earlier run left drift issues open for both environments (each is kept, or closed once in sync). */
  readonly openIssue: boolean
  /** GitHub fails the listing of the drift issues (502, every attempt): the issues cannot be kept (exit 9 when the report was read). */
  readonly issuesFail: boolean
}

export interface StatusSchedule {
  readonly reads: readonly StatusRead[]
  /** The file names the environments (production, development), or leaves them out (every one the stack lists). */
  readonly environments: 'all' | 'named'
  /** track: main, the feature branch (a commit off c1), the newest tag matching v*, a ref GitHub does not know, or none. */
  readonly track: 'main' | 'feature' | 'v*' | 'typo' | 'none'
  readonly health: boolean
  readonly failOn: readonly FailOn[]
  /**
   * The stack's login as the run's, or a credential where it does not belong, refused before any request: written where
   * a variable's name belongs in the file, or given as a flag to the command.
   */
  readonly login: 'as-run' | 'credential-in-variable'
  readonly github: StatusGitHub | undefined
  /**
   * How it is read: by the command (`brcloud status` with a single stack's flags, its secrets in BRCLOUD_* variables,
   * --json), driven through src/cli/main.ts main(argv, env, io); or by the engine with the file (prepareStatus,
   * readStatus, then what the command prints and its exit code from the same functions).
   */
  readonly face: 'command' | 'file'
}

export const PLATFORM_CALLS: StatusCallKind[] = ['login', 'idp-token', 'list-environments', 'list-environments', 'get-distribution', 'site']
export const GITHUB_CALLS: StatusCallKind[] = [
  'list-deployments',
  'list-deployments',
  'compare',
  'compare',
  'list-statuses',
  'list-tags',
  'list-issues',
  'create-issue',
  'update-issue'
]

const statusFault: fc.Arbitrary<StatusFault> = fc.oneof(
  fc.record({
    on: fc.constantFrom(...PLATFORM_CALLS),
    kind: fc.constantFrom('status' as const, 'status' as const, 'hang' as const, 'reset' as const, 'echo' as const),
    status: fc.constantFrom(500, 502, 503, 429),
    skip: fc.integer({ min: 0, max: 2 }),
    times: fc.constantFrom(1, 1, 3, 10)
  }),
  fc
    .record({
      on: fc.constantFrom(...GITHUB_CALLS),
      kind: fc.constantFrom('status' as const, 'status' as const, 'rate-limit' as const, 'secondary-limit' as const, 'hang' as const, 'unreachable' as const),
      status: fc.constantFrom(500, 502, 503, 401, 404),
      skip: fc.integer({ min: 0, max: 2 }),
      times: fc.constantFrom(1, 1, 3, 10)
    })
    // A 404 of a compare is GitHub not knowing a commit, which the report reads as that (a row unknown): a fault cannot be told from it.
    .map((f) => (f.kind === 'status' && f.status === 404 && f.on === 'compare' ? { ...f, status: 502 } : f))
)

const statusRead: fc.Arbitrary<StatusRead> = fc.record({
  // Mostly while the run acts (right after its deploy call, during a switch, a check, an upload), else at a second or after it.
  trigger: fc.oneof(
    { weight: 1, arbitrary: fc.record({ at: fc.integer({ min: 0, max: 120 }) }) },
    {
      weight: 3,
      arbitrary: fc.record({
        after: fc.constantFrom('deploy' as const, 'deploy' as const, 'list-environments' as const, 'site' as const, 'upload' as const, 'login' as const),
        nth: fc.constantFrom(0, 0, 0, 1, 1, 2, 3),
        delay: fc.constantFrom(0, 0, 1, 5, 20)
      })
    }
  ),
  faults: fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 2, arbitrary: fc.array(statusFault, { minLength: 1, maxLength: 2 }) }),
  latencyMs: fc.constantFrom(0, 0, 200, 1_000, 5_000),
  stop: fc.oneof(
    { weight: 5, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc.record({ signal: fc.constantFrom('SIGINT' as const, 'SIGTERM' as const), afterMs: fc.constantFrom(0, 100, 1_000, 3_000, 20_000) })
    }
  )
})

const statusGitHub: fc.Arbitrary<StatusGitHub> = fc.record({
  token: fc.constantFrom('ok' as const, 'ok' as const, 'ok' as const, 'ok' as const, 'bad' as const, 'no-contents' as const, 'no-deployments' as const),
  driftIssues: fc.constantFrom(false, false, true),
  filler: fc.constantFrom('none' as const, 'none' as const, 'older' as const, 'newer' as const),
  old: fc.constantFrom(0, 1, 2, 3, 4, 5, 6, 7),
  theirs: fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 2, maxLength: 2 }),
  recordOthers: fc.constantFrom(true, true, false),
  oursRecorded: fc.constantFrom(true, true, false),
  openIssue: fc.boolean(),
  issuesFail: fc.constantFrom(false, false, false, true)
})

export const statusSchedules: fc.Arbitrary<StatusSchedule> = fc.record({
  reads: fc.array(statusRead, { minLength: 1, maxLength: 2 }),
  environments: fc.constantFrom('all' as const, 'named' as const),
  track: fc.constantFrom('main' as const, 'main' as const, 'main' as const, 'feature' as const, 'v*' as const, 'typo' as const, 'none' as const),
  health: fc.boolean(),
  failOn: fc.constantFrom<FailOn[]>([], [], ['empty'], ['outside'], ['behind', 'outside'], ['deploying'], ['unhealthy'], ['diverged', 'ahead', 'empty']),
  login: fc.constantFrom(
    'as-run' as const,
    'as-run' as const,
    'as-run' as const,
    'as-run' as const,
    'as-run' as const,
    'as-run' as const,
    'credential-in-variable' as const
  ),
  github: fc.option(statusGitHub, { nil: undefined, freq: 5 }),
  face: fc.constantFrom('command' as const, 'command' as const, 'command' as const, 'file' as const)
})
