// One simulated run: the main step (src/main.ts run()) and then the post step (src/post.ts runPost()),
// against the world of a schedule, driven by a fake clock that moves only when nothing else can. The
// module mocks (the runner's @actions/core, the transports, GitHub's octokit, the archive on disk) are set
// up by the test file before it imports this one: ./mocks.ts holds what they show and save.
import { jest } from '@jest/globals'
import { EventEmitter } from 'node:events'
import type { Stack } from '../../src/emulator/stack.js'
import { forgetSecrets } from '../../src/secrets.js'
import { GITHUB_API, GITHUB_TOKEN, github, makeGitHubWorld } from './github.js'
import { GITLAB_PROJECT, GITLAB_TOKEN, GITLAB_URL, gitlab, makeGitLabWorld } from './gitlab.js'
import { cliCommand, readCliClaims, startCli, type CliRecord } from './cli-run.js'
import { shown, simContext } from './mocks.js'
import { handOvers, resetProcesses, runIndex } from './process.js'
import { latencyDeal } from './latency.js'
import { resetCollector } from './collector.js'
import { traceTimeoutMs, tracingEnv, tracingInputs } from './tracing.js'
import { BASE2, prepareSecond, type WorldRun } from './runs.js'
import { eventsTimeoutMs, sinkAnswers, sinkInputs } from './sinks.js'
import { rulesInputs, setUpBackups, setUpSoak } from './rules-world.js'
import { finishStatus, gitlabFiller, mainEnded, setUpStatus, statusGitLabTokens, statusTokens, worldSchedule } from './status.js'
import { caller, inFlight, wire } from './transport.js'
import {
  ENV,
  MARKER,
  OLD,
  OTHER_ENV,
  OURS,
  PREV,
  QUERY_SECRET,
  SEARCH_KEY,
  STALE,
  addFaults,
  makeStack,
  ranBefore,
  runCommit,
  runLogs,
  storedAt,
  onTrigger,
  startActors,
  watchTheRun,
  type Schedule,
  type SimArchive,
  type WorldLog
} from './world.js'

export const BASE = 'http://127.0.0.1:9'
const MAX_STEPS = 8_000
const HORIZON_MS = 4 * 3600_000

/** What happened to the run from outside: when it ended, how, and when it was stopped. */
export interface Ending {
  /** Fake Date.now() when the run began. */
  readonly startedAt: number
  finished: boolean
  /** Fake ms from the start when run() ended (or the kill came). */
  endedAt: number
  exitCode: number | undefined
  /** When the first signal came, and which. */
  signalAt: number | undefined
  firstSignal: 'SIGINT' | 'SIGTERM' | undefined
  /** The wire's sequence number when the first signal came: what was sent before it, in the same millisecond too. */
  signalSeq: number | undefined
  /** The wire's sequence number when SIGTERM came (the first or GitHub's after SIGINT): what was sent before it, in the same millisecond too. */
  sigtermSeq: number | undefined
  /** The main step's process was killed before it ended. */
  killed: boolean
  killAt: number | undefined
  postFinished: boolean
  /** A signal that came after the run's report, during its sends (Schedule.tracing.signal): it hurries them; not a stop. */
  afterReport?: { readonly signal: 'SIGINT' | 'SIGTERM'; readonly at: number; readonly seq: number } | undefined
}

export interface Simulated {
  readonly stack: Stack
  readonly ending: Ending
  readonly log: WorldLog
  /** Fake Date.now() when the run began. */
  readonly start: number
  /** The command's face (s.face): what it was given and what it printed; undefined for the action's. */
  readonly cli: CliRecord | undefined
  /** Every run of the world, the schedule's own first (./runs.ts). */
  readonly runs: readonly WorldRun[]
}

/** The steps a world runs: the action's main and post steps, and the command's main(). */
export interface Steps {
  readonly run: typeof import('../../src/main.js').run
  readonly runPost: typeof import('../../src/post.js').runPost
  readonly cli: typeof import('../../src/cli/main.js').main
}

/** Where a run deploys: its stack's address and its environment (the world's first run: the first stack's production). */
export interface Target {
  readonly base: string
  readonly environment: string
}

/** The inputs a schedule gives the action (promoting from the target's other environment). */
export function inputsOf(s: Schedule, stack: Stack, accessToken: string | undefined, where: Target = { base: BASE, environment: ENV }): Record<string, string> {
  const { base, environment } = where
  const deployTimeout = s.deployTimeoutSeconds / 60
  const health = s.healthTimeoutSeconds / 60
  const searchSeconds = s.search === 'none' ? 0 : 5
  // The event sinks' time counts in total-timeout-minutes (src/inputs/budget.ts): the watchdog then cuts the steps that much earlier.
  // The trace is sent beside them (docs/tracing.md): the longer of the two is kept.
  const eventsMinutes = Math.max(s.events === undefined ? 0 : eventsTimeoutMs(s.events), traceTimeoutMs(s.tracing)) / 60_000
  const budgets = deployTimeout * (s.rollback ? 3 : 1) + (s.health ? health * (s.rollback ? 2 : 1) : 0) + searchSeconds / 60 + eventsMinutes
  const sso = stack.sso?.handle(base)
  const { settings } = stack.state
  const login: Record<string, string> =
    s.login === 'password'
      ? { username: settings.username, password: settings.password }
      : s.login === 'client-secret'
        ? { 'token-url': sso?.tokenUrl ?? '', 'client-id': sso?.clientId ?? '', 'client-secret': sso?.clientSecret ?? '', audience: sso?.audience ?? '' }
        : s.login === 'script-account'
          ? { 'token-url': sso?.tokenUrl ?? '', username: settings.username, password: settings.password, audience: sso?.audience ?? '' }
          : s.login === 'github-oidc'
            ? {
                'token-url': sso?.tokenUrl ?? '',
                'client-id': sso?.federatedClientId ?? '',
                'oidc-audience': sso?.oidcAudience ?? '',
                audience: sso?.audience ?? ''
              }
            : { 'access-token': accessToken ?? '' }
  const source: Record<string, string> =
    s.source === 'id'
      ? { 'distribution-id': OURS }
      : s.source === 'environment'
        ? { 'from-environment': environment === ENV ? OTHER_ENV : ENV }
        : { distribution: 'build/site.tar.gz' }
  return {
    'api-url': base,
    ...login,
    ...source,
    environment,
    'deploy-timeout-minutes': String(deployTimeout),
    'follow-deploy': String(s.followDeploy),
    'force-deploy': s.start === 'ours' ? 'true' : 'false',
    rollback: String(s.rollback),
    'rollback-on-search': String(s.rollbackOnSearch),
    'max-attempts': String(s.maxAttempts),
    'request-timeout-seconds': String(s.requestTimeoutSeconds),
    'platform-domain': 'bloomreach.cloud',
    'deploy-strategy': 'stopstart',
    'health-timeout-minutes': String(health),
    'total-timeout-minutes': s.tightWatchdog ? String(budgets) : '',
    ...(s.maxDistributions !== undefined && { 'max-distributions': String(s.maxDistributions) }),
    ...(s.github && {
      'github-token': GITHUB_TOKEN,
      'allow-older-commit': String(s.github.allowOlder),
      'allow-unchecked-order': String(s.github.allowUnchecked)
    }),
    ...(s.gitlab && {
      'gitlab-token': GITLAB_TOKEN,
      // In a GitLab CI job the command may take the project and the API from the job (CI_PROJECT_PATH, CI_API_V4_URL).
      ...(!(s.gitlab.fromJob && s.face?.ci === 'gitlab') && { 'gitlab-project': GITLAB_PROJECT, 'gitlab-url': GITLAB_URL }),
      'allow-older-commit': String(s.gitlab.allowOlder),
      'allow-unchecked-order': String(s.gitlab.allowUnchecked)
    }),
    ...(s.health && { 'health-url': `${base}/sites/${environment}/version.txt?token=${QUERY_SECRET}`, ...(s.healthExpect && { 'health-expect': MARKER }) }),
    ...(s.search !== 'none' && {
      'search-query': s.search === 'pass' ? 'shirt' : 'nothing-matches-xq',
      'search-account-id': stack.search.settings.accountId,
      'search-auth-key': SEARCH_KEY,
      'search-domain-key': stack.search.settings.domainKey,
      'search-base-url': base,
      'search-timeout-seconds': '5'
    }),
    ...sinkInputs(s.events),
    ...rulesInputs(s),
    // Last: a command given its inputs alternately as flags and variables gives every other one as before.
    ...tracingInputs(s.tracing)
  }
}

async function flush(): Promise<void> {
  for (let i = 0; i < 12; i++) await new Promise<void>((resolve) => setImmediate(resolve))
  // Real I/O (an upload body read from disk) ends before the clock moves.
  while (wire.io.size > 0) {
    await Promise.allSettled([...wire.io])
    for (let i = 0; i < 12; i++) await new Promise<void>((resolve) => setImmediate(resolve))
  }
}

/** Moves the fake clock until `done()`; throws on a run that waits on nothing, loops, or never ends. */
async function drive(done: () => boolean, start: number, what: string): Promise<void> {
  for (let steps = 0; ; steps++) {
    await flush()
    if (done()) return
    if (jest.getTimerCount() === 0) throw new Error(`${what} waits on nothing: a promise that never settles`)
    if (Date.now() > start + HORIZON_MS) throw new Error(`${what} did not end within 4 simulated hours`)
    // A run makes a few hundred steps; far more is a loop that never waits (a livelock), not a slow platform.
    if (steps > MAX_STEPS) throw new Error(`${what} took more than ${MAX_STEPS} steps of the clock (${Math.round((Date.now() - start) / 1000)} simulated s)`)
    jest.advanceTimersToNextTimer()
  }
}

/** A small seeded generator (mulberry32): the run's randomness (retry jitter) is an edge too, so a schedule replays exactly. */
function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Every run starts at the same moment of the fake clock, with randomness seeded by its schedule, knowing no secret. */
function freshStart(s: Schedule): void {
  forgetSecrets()
  jest.clearAllTimers()
  jest.setSystemTime(new Date('2026-11-24T08:00:00Z'))
  let h = 2166136261
  for (const c of JSON.stringify(s)) h = Math.imul(h ^ c.charCodeAt(0), 16777619)
  Math.random = seeded(h)
}

/** Runs the main step through one schedule, then the post step, as the runner does. */
export async function simulate(drawn: Schedule, archive: SimArchive, steps: Steps, options: { untraced?: boolean } = {}): Promise<Simulated> {
  freshStart(drawn)
  // The untraced twin (./trace-claims.ts): the same world, randomness, collector and signals, without tracing's input and variables.
  const s: Schedule = options.untraced === true ? { ...drawn, tracing: undefined } : drawn
  resetCollector(drawn.tracing?.collector)
  const stack = makeStack(s, archive)
  stack.search.settings.authKey = SEARCH_KEY
  addFaults(stack, s)
  const log: WorldLog = {
    restarts: [],
    environmentGone: undefined,
    environment: stack.state.environments.find((e) => e.name === ENV),
    deletions: [],
    deleted: [],
    uploaded: [],
    lines: []
  }
  resetProcesses()
  Object.assign(wire, {
    stack,
    stacks: new Map(),
    github: undefined,
    looks: [],
    distributionLists: [],
    githubLists: [],
    deploys: [],
    issued: [],
    calls: [],
    githubCalls: [],
    gitlab: undefined,
    gitlabCalls: [],
    seq: 0,
    killed: false,
    exited: new Set(),
    inFlight: new Map(),
    afterCodeHost: () => undefined,
    sinkRequests: [],
    sinkAnswer: sinkAnswers(s.events)
  })
  wire.io.clear()
  // The drawn latencies are dealt in the order of the calls, each run's in its own order: two runs of the world call
  // at the same fake instant in an order real I/O decides (packing, reading an archive), and one counter for both
  // dealt a traced run and its untraced twin different latencies (fresh seed 1433997720, one replay in six). A run
  // starts where the others' calls before its first instant left the deal, so a run after another goes on from it.
  const dealt = latencyDeal()
  wire.latencyMs = () => (s.latency[dealt(runIndex(), Date.now()) % s.latency.length] ?? 0) * 1000
  github.world = undefined
  gitlab.world = undefined
  const afterCodeHost = new Map<string, Array<{ nth: number; fn: () => void }>>()
  const counts = new Map<string, number>()
  wire.afterCodeHost = (route) => {
    const n = counts.get(route) ?? 0
    counts.set(route, n + 1)
    for (const h of afterCodeHost.get(route) ?? []) if (h.nth === n) h.fn()
  }
  // GitHub's world: the run's (github-token), or the status report's alone.
  const gh = worldSchedule(s)
  if (gh) {
    const seeds: Parameters<typeof makeGitHubWorld>[2] = gh.oursRecorded
      ? [{ environment: OTHER_ENV, distributionId: OURS, commit: gh.ours, minutesAgo: 30 }]
      : []
    // An earlier version of this action recorded no previousDistributionId: pruning reads it from the order of the records.
    if (ranBefore(s)) {
      // That history also holds a run killed yesterday, whose Deployment of a stale release to an environment the
      // stack no longer has stays in progress: only its state keeps that release.
      seeds.push({ environment: 'staging', distributionId: STALE[0] ?? '', commit: 0, minutesAgo: 20 * 60, killed: true })
      seeds.push({ environment: ENV, distributionId: PREV, commit: 0, minutesAgo: 96 * 60 })
    }
    if (s.start === 'old') seeds.push({ environment: ENV, distributionId: OLD, commit: gh.old, minutesAgo: 48 * 60 })
    makeGitHubWorld(gh, BASE, seeds, statusTokens(s))
    setUpSoak(s, BASE)
  }
  // GitLab's world: other jobs' deployments of the old release here and of ours in the other environment, when they record theirs.
  if (s.gitlab) {
    const gl = s.gitlab
    const seeds = !gl.recordOthers
      ? []
      : [{ environment: OTHER_ENV, commit: gl.ours, minutesAgo: 30 }, ...(s.start === 'old' ? [{ environment: ENV, commit: gl.old, minutesAgo: 48 * 60 }] : [])]
    makeGitLabWorld(gl, seeds, statusGitLabTokens(s), gitlabFiller(s))
  }
  setUpBackups(s, stack)
  watchTheRun(stack, s, log, new Set(stack.state.distributions.map((d) => d.id)))
  // A ready token (access-token), made before the run by "an earlier step": the identity provider's, for the stack's API.
  // Most live long enough for the run's budgets (a shorter one is refused before any request, a path of its own).
  const accessTokenOf = (on: Stack, base: string): string | undefined =>
    s.login === 'access-token' && on.sso
      ? on.sso.tokens.issueAccess(
          { sub: 'ci-client', clientId: 'ci-client', audience: on.sso.options.audience },
          `${base}/idp`,
          s.tokenSeconds === 20 ? undefined : 7200
        ).token
      : undefined
  const accessToken = accessTokenOf(stack, BASE)
  const sso = stack.sso?.handle(BASE)
  if (sso) {
    process.env.ACTIONS_ID_TOKEN_REQUEST_URL = sso.oidcRequestUrl
    process.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN = sso.oidcRequestToken
  } else {
    delete process.env.ACTIONS_ID_TOKEN_REQUEST_URL
    delete process.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN
  }
  const inputs = inputsOf(s, stack, accessToken)
  simContext.reset(s, stack, inputs, runCommit(s))
  simContext.archive = archive
  runLogs.clear()
  storedAt.clear()
  const second = prepareSecond(s, { stack, log, archive }, steps, (on) => accessTokenOf(on, on === stack ? BASE : BASE2))
  const start = Date.now()
  if (second !== undefined && second.place.when !== 'after') setTimeout(() => second.start(), second.place.when * 1000)
  startActors(stack, s, log, afterCodeHost)
  setUpStatus(s, stack, afterCodeHost)
  const ending: Ending = {
    startedAt: start,
    finished: false,
    endedAt: 0,
    exitCode: undefined,
    signalAt: undefined,
    firstSignal: undefined,
    signalSeq: undefined,
    sigtermSeq: undefined,
    killed: false,
    killAt: undefined,
    postFinished: false
  }
  const signals = new EventEmitter()
  const kill = (): void => {
    if (ending.finished || ending.killed) return
    ending.killed = true
    ending.killAt = Date.now() - start
    ending.endedAt = ending.killAt
    wire.killed = true
  }
  const signal = (name: 'SIGINT' | 'SIGTERM'): void => {
    if (ending.finished || ending.killed) return
    if (ending.firstSignal === undefined) {
      ending.firstSignal = name
      ending.signalAt = Date.now() - start
      ending.signalSeq = wire.seq
    }
    if (name === 'SIGTERM') ending.sigtermSeq ??= wire.seq
    caller.run('world', () => signals.emit(name, name))
  }
  // A signal after the report, while the run sends (its trace, its events): no stop, a hurry. GitHub's cancel still
  // sends SIGTERM 7.5 s after SIGINT, and the kill follows; a run that ended by then meets neither.
  const late = drawn.tracing?.signal
  const afterReport = (name: 'SIGINT' | 'SIGTERM'): void => {
    if (ending.finished || ending.killed) return
    ending.afterReport ??= { signal: name, at: Date.now(), seq: wire.seq }
    caller.run('world', () => signals.emit(name, name))
  }
  handOvers.summaryWritten = (index) => {
    if (index !== 0 || late === undefined || ending.afterReport !== undefined || ending.firstSignal !== undefined) return
    handOvers.summaryWritten = undefined
    setTimeout(() => {
      if (ending.firstSignal !== undefined) return
      if (late.kind === 'sigterm') {
        afterReport('SIGTERM')
        setTimeout(kill, 2_500)
        return
      }
      afterReport('SIGINT')
      setTimeout(() => afterReport('SIGTERM'), 7_500)
      setTimeout(kill, 10_000)
    }, late.afterMs)
  }
  if (s.stop) {
    const stopKind = s.stop.kind
    onTrigger(
      stack,
      s.stop.trigger,
      () => {
        if (stopKind === 'kill') return kill()
        if (stopKind === 'sigterm') {
          signal('SIGTERM')
          setTimeout(kill, 2_500)
          return
        }
        signal('SIGINT')
        setTimeout(() => signal('SIGTERM'), 7_500)
        setTimeout(kill, 10_000)
      },
      afterCodeHost
    )
  }
  const ended = (): void => {
    if (ending.killed) return
    ending.finished = true
    ending.endedAt = Date.now() - start
  }
  let cli: CliRecord | undefined
  if (s.face) {
    // The command: its CI's job at the run's commit; its exit code is its own.
    const command = cliCommand(s.face, inputs, { commit: runCommit(s), build: 77, job: 0, attempt: 1 }, 0)
    // The CI's OpenTelemetry setup exports its variables to every step (./tracing.ts).
    Object.assign(command.env, tracingEnv(s.tracing))
    cli = startCli(steps.cli, command, 0, signals, (code) => {
      ending.exitCode = code
      ended()
      // src/cli/index.ts ends the process with the code at once: an answer still on its way is never read.
      wire.exited.add(0)
    })
  } else {
    const host = { signals, exit: (code: number) => void (ending.exitCode = code), env: tracingEnv(s.tracing) }
    void caller.run('main', () => steps.run(host).then(ended))
  }
  await drive(() => ending.finished || ending.killed, start, 'the main step')
  mainEnded()
  if (cli) {
    // No post step follows a command.
    ending.postFinished = true
    readCliClaims(shown, cli, 0)
  } else {
    // The post step (post-if: always()): after the main step's process ended (its last calls answered), or was killed.
    // A call nothing will ever answer (GitHub's OIDC token service hanging: @actions/core's client has no limit) would
    // hold the process until the job's timeout; the post step then follows all the same.
    await drive(() => ending.killed || inFlight(0, 'main') === 0 || jest.getTimerCount() === 0, start, "the main step's last calls")
    void caller.run('post', () => steps.runPost().then(() => void (ending.postFinished = true)))
    await drive(() => ending.postFinished, start, 'the post step')
  }
  const first: WorldRun = { index: 0, s, stack, log, ending, cli, environment: ENV, commit: runCommit(s) }
  if (second !== undefined) {
    // Once the first has ended, the second starts a second later (a re-run, a later stage: never in the same instant).
    if (second.place.when === 'after') setTimeout(() => second.start(), 1_000)
    await drive(() => second.mainDone(), start, 'the second run')
    second.startPost()
    await drive(() => second.done(), start, "the second run's post step")
    second.finish()
  }
  // The status report's reads still under way, and those whose moment never came, to their end.
  await finishStatus(s, stack, (done, what) => drive(done, start, what))
  return { stack, ending, log, start, cli, runs: second === undefined ? [first] : [first, second.run] }
}

export { GITHUB_API }
