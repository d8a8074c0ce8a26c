// A simulated world for one run of the action: the emulator's stack (the one platform model) in-process,
// a fake clock, other actors (another job deploying or promoting, a deploy from Mission Control, a
// deletion), faults on any call, tokens that fall due, slow answers, and a cancel. Every choice comes from
// a Schedule that fast-check generates from a seed, so a failing seed replays exactly.
import fc from 'fast-check'
import { createStack, type Stack } from '../../src/emulator/stack.js'
import { startDeploy } from '../../src/emulator/cloud-api.js'
import { deleteAs } from '../../src/emulator/test-hooks.js'
import type { Fault, Operation, StoredDistribution } from '../../src/emulator/types.js'
import { COMMITS, github, type GitHubSchedule } from './github.js'

export const ENV = 'production'
export const OURS = '0a0a0a0a-0000-4000-8000-00000000000a'
export const OLD = '0b0b0b0b-0000-4000-8000-00000000000b'
export const THEIRS = ['0c0c0c0c-0000-4000-8000-00000000000c', '0d0d0d0d-0000-4000-8000-00000000000d']
export const MARKER = 'release-ours-7f3e'
/** A token in the health-url's query string: it must never be printed. */
export const QUERY_SECRET = 'q-secret-5d1c'

export interface Actor {
  /** Seconds after the run starts. */
  readonly at: number
  readonly kind: 'deploy' | 'mission-control' | 'delete' | 'restart'
  /** For a deploy: which distribution (index into THEIRS, or -1 for the old release) and how long its switch takes. */
  readonly which: number
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

export interface Schedule {
  readonly reading: 'when-done' | 'at-request'
  readonly status: boolean
  /** The readings the public sources do not settle: ids in upper case, no id while deploying, a clock off ours, deleting what runs. */
  readonly idCase: 'as-stored' | 'upper'
  readonly idWhileDeploying: 'reported' | 'absent' | 'null'
  readonly clockOffsetSeconds: number
  readonly deleteInUse: 'refuse' | 'allow'
  /** Seconds a deploy of the platform takes. */
  readonly deploySeconds: number
  /** What the environment runs when the run starts. */
  readonly start: 'old' | 'ours' | 'none'
  readonly ourSiteFails: boolean
  readonly rollback: boolean
  readonly health: boolean
  readonly followDeploy: boolean
  readonly maxAttempts: number
  readonly deployTimeoutSeconds: number
  readonly requestTimeoutSeconds: number
  /** total-timeout-minutes: empty (derived) or exactly the budgets (so the watchdog fires mid-run). */
  readonly tightWatchdog: boolean
  readonly tokenSeconds: number
  readonly faults: readonly CallFault[]
  readonly actors: readonly Actor[]
  /** Seconds of latency for each answer, cycled. */
  readonly latency: readonly number[]
  /** SIGINT at this second, when set. */
  readonly cancelAt: number | undefined
  /** With github-token: the deploy order is checked against GitHub's record (./github.ts); absent: no token. */
  readonly github?: GitHubSchedule | undefined
}

const operations: Operation[] = ['deploy', 'list-environments', 'get-distribution', 'login', 'refresh', 'site', 'revoke-refresh']

export const schedules: fc.Arbitrary<Schedule> = fc.record({
  reading: fc.constantFrom('when-done' as const, 'at-request' as const),
  status: fc.boolean(),
  idCase: fc.constantFrom('as-stored' as const, 'upper' as const),
  idWhileDeploying: fc.constantFrom('reported' as const, 'reported' as const, 'absent' as const, 'null' as const),
  clockOffsetSeconds: fc.constantFrom(0, 0, -600, 600),
  deleteInUse: fc.constantFrom('refuse' as const, 'refuse' as const, 'allow' as const),
  deploySeconds: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 150 })),
  start: fc.constantFrom('old' as const, 'old' as const, 'ours' as const, 'none' as const),
  ourSiteFails: fc.boolean(),
  rollback: fc.boolean(),
  health: fc.boolean(),
  followDeploy: fc.constantFrom(true, true, true, false),
  maxAttempts: fc.integer({ min: 1, max: 4 }),
  deployTimeoutSeconds: fc.constantFrom(30, 60, 120, 180),
  requestTimeoutSeconds: fc.constantFrom(10, 30, 60),
  tightWatchdog: fc.boolean(),
  tokenSeconds: fc.constantFrom(20, 45, 120, 600),
  faults: fc.array(
    fc
      .record({
        operation: fc.constantFrom(...operations),
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
    { maxLength: 4 }
  ),
  actors: fc.array(
    fc.record({
      at: fc.integer({ min: 0, max: 400 }),
      kind: fc.constantFrom('deploy' as const, 'deploy' as const, 'mission-control' as const, 'delete' as const, 'restart' as const),
      which: fc.integer({ min: -1, max: THEIRS.length - 1 }),
      seconds: fc.integer({ min: 0, max: 90 })
    }),
    { maxLength: 3 }
  ),
  latency: fc.array(fc.constantFrom(0, 0, 0, 1, 5, 20), { minLength: 1, maxLength: 5 }),
  cancelAt: fc.option(fc.integer({ min: 0, max: 300 }), { nil: undefined }),
  github: fc.option(
    fc.record({
      ours: fc.integer({ min: 0, max: COMMITS.length - 1 }),
      old: fc.integer({ min: 0, max: COMMITS.length - 1 }),
      theirs: fc.array(fc.integer({ min: 0, max: COMMITS.length - 1 }), { minLength: THEIRS.length, maxLength: THEIRS.length }),
      recordOthers: fc.boolean(),
      allowOlder: fc.constantFrom(false, false, false, true),
      fault: fc.constantFrom('none' as const, 'none' as const, 'none' as const, 'list-500' as const, 'compare-500' as const)
    }),
    { nil: undefined, freq: 2 }
  )
})

function distribution(id: string, name: string, files: Record<string, string>): StoredDistribution {
  const at = new Date().toISOString()
  return {
    id,
    name,
    createdAt: at,
    createdBy: 'someone',
    modifiedAt: at,
    modifiedBy: 'someone',
    md5hash: id.replace(/-/g, '').slice(0, 32),
    sha256: '',
    size: 100,
    files
  }
}

/** The stack a schedule starts from: four distributions, the environment running what the schedule says. */
export function makeStack(s: Schedule): Stack {
  const stack = createStack(
    {
      environments: ['development', ENV],
      deploySeconds: s.deploySeconds,
      deployReport: s.reading,
      environmentStatus: s.status,
      tokenLifetimeSeconds: s.tokenSeconds,
      keepUploads: false,
      idCase: s.idCase,
      idWhileDeploying: s.idWhileDeploying,
      clockOffsetSeconds: s.clockOffsetSeconds,
      deleteInUse: s.deleteInUse
    },
    '/nonexistent-simulation-storage'
  )
  const { state } = stack
  const ours = { 'version.txt': `${MARKER}\n`, ...(s.ourSiteFails && { 'EMULATOR-SITE-FAILS': 'x' }) }
  state.distributions.push(distribution(OLD, 'old.tar.gz', { 'version.txt': 'old release\n' }), distribution(OURS, 'ours.tar.gz', ours))
  THEIRS.forEach((id, i) => state.distributions.push(distribution(id, `theirs-${i}.tar.gz`, { 'version.txt': `theirs ${i}\n` })))
  const env = state.environments.find((e) => e.name === ENV)
  const first = s.start === 'old' ? OLD : s.start === 'ours' ? OURS : undefined
  if (env && first)
    startDeploy(state, env, { distributionId: first, strategy: 'stopstart', appConfigFileRoles: [], requestedAt: '', appliedAt: null, by: 'earlier' }, 0)
  return stack
}

/** Puts the schedule's faults in the stack's queue (each applies once, after `skip` calls of its operation). */
export function addFaults(stack: Stack, s: Schedule): void {
  for (const f of s.faults) stack.faults.add({ operation: f.operation, kind: f.kind, status: f.status, times: 1, skip: f.skip, delayMs: f.delaySeconds * 1000 })
}

/** Where the platform restarted: the length of the environment's deploy history at each restart (it forgot what ran before). */
export const restarts: number[] = []

/** Starts the other actors' timers (fake time): their deploys follow the platform's rules; a busy environment makes them try again later. */
export function startActors(stack: Stack, s: Schedule, log: (line: string) => void): void {
  const { state } = stack
  restarts.length = 0
  for (const actor of s.actors) {
    const act = (tries: number): void => {
      const env = state.environments.find((e) => e.name === ENV)
      if (env === undefined) return
      if (actor.kind === 'restart') {
        // The platform (an emulator restarted mid-run) forgets what the environment runs, and every token.
        restarts.push(env.deployments.length)
        for (const timer of state.switches) clearTimeout(timer)
        state.switches.clear()
        state.landings.clear()
        Object.assign(env, { distributionId: null, serving: null, status: 'empty' })
        state.tokens.revokeAccessTokens()
        log('actor: the platform restarted: the environment runs nothing')
        return
      }
      if (actor.kind === 'delete') {
        const id = actor.which < 0 ? OLD : (THEIRS[actor.which] ?? OLD)
        deleteAs(state, id).then(
          () => log(`actor: deleted ${id}`),
          () => undefined // in use (refused), or gone already
        )
        return
      }
      const id = actor.which < 0 ? OLD : (THEIRS[actor.which] ?? OLD)
      if (!state.distributions.some((d) => d.id === id)) return
      if (env.status === 'deploying') {
        if (tries < 5) setTimeout(() => act(tries + 1), 5_000)
        return
      }
      const by = actor.kind === 'mission-control' ? 'mission-control' : 'other-job'
      // Another job of this repository records its deploy as a GitHub Deployment; Mission Control records nothing.
      const gh = github.world
      if (gh && by === 'other-job' && gh.schedule.recordOthers)
        gh.recordOther(ENV, id, actor.which < 0 ? gh.schedule.old : (gh.schedule.theirs[actor.which] ?? 0))
      startDeploy(
        state,
        env,
        { distributionId: id, strategy: 'stopstart', appConfigFileRoles: [], requestedAt: new Date().toISOString(), appliedAt: null, by },
        actor.seconds
      )
      log(`actor: ${by} deployed ${id} (${actor.seconds} s)`)
    }
    setTimeout(() => act(0), actor.at * 1000)
  }
}
