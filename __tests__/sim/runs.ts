// A world of several runs: besides the schedule's own run, a second one in the same world, with its own inputs and
// process (./process.ts): a job of the same CI run (the same run id and attempt) deploying the other environment or the
// same one again, a re-run attempt of the first's job, or a job of the same CI run on another stack; started a few
// seconds after the first (they overlap) or once the first has ended. The per-run invariants hold for each run, read
// against a view of the world as that run sees it (`asRun`: its own looks, calls and events; the other run's deploys as
// another job's); and across them (`checkAcrossRuns`): every event id is unique across runs, attempts, stacks and
// environments, and every commit an event names is the one its distribution was built from (or none).
import { EventEmitter } from 'node:events'
import { expect, jest } from '@jest/globals'
import type { Stack } from '../../src/emulator/stack.js'
import type { Deployment, StoredEnvironment } from '../../src/emulator/types.js'
import { OTHERS } from './claims.js'
import { cliCommand, readCliClaims, startCli, type CliRecord } from './cli-run.js'
import { placeOf, type SecondRun } from './second-run.js'
import { COMMITS, github } from './github.js'
import { shown, shownOf, simContext } from './mocks.js'
import { collector } from './collector.js'
import { processOf } from './process.js'
import { tracingEnv } from './tracing.js'
import type { Ending, Steps } from './run.js'
import { BASE, inputsOf } from './run.js'
import { caller, inFlight, wire, type SinkRequest } from './transport.js'
import {
  ENV,
  OLD,
  commitsOf,
  OTHER_ENV,
  OURS,
  THEIRS,
  makeStack,
  runCommit,
  runLogs,
  ourStoredId,
  watchTheRun,
  type Schedule,
  type SimArchive,
  type SourceKind,
  type WorldLog
} from './world.js'

/** The second stack's address: another host, so the transports route to it (./transport.ts). */
export const BASE2 = 'http://127.0.0.2:9'

/** One run of a world and what the invariants read of it. */
export interface WorldRun {
  readonly index: number
  /** Its schedule: the world's, with its own inputs (the source, the rollback) and no stop of its own. */
  readonly s: Schedule
  readonly stack: Stack
  readonly log: WorldLog
  readonly ending: Ending
  /** The command's record, on the command's face. */
  cli: CliRecord | undefined
  readonly environment: string
  /** The commit its CI checked out (what an upload of it is built from). */
  readonly commit: string
}

/**
 * The second run's schedule: the same world and inputs, its own source and rollback, no stop, no forced redeploy, and
 * no health-expect: the world's one release marker is in every build of ours, so it would tell neither the first run's
 * release from the second's nor a promotion of another distribution (a 2xx passes; a switch seen is the evidence).
 */
export function scheduleOf(s: Schedule, second: SecondRun): Schedule {
  const source: SourceKind = second.source
  return {
    ...s,
    source,
    rollback: second.rollback,
    rollbackOnSearch: second.rollback && s.rollbackOnSearch,
    start: 'old',
    stop: undefined,
    healthExpect: false,
    // The release rules are the first run's (./rules.ts): the second deploys without them.
    rules: undefined
  }
}

function emptyLog(environment: StoredEnvironment | undefined, shared: WorldLog | undefined): WorldLog {
  return {
    restarts: shared?.restarts ?? [],
    environmentGone: undefined,
    environment,
    deletions: [],
    deleted: [],
    uploaded: [],
    lines: []
  }
}

function newEnding(startedAt: number): Ending {
  return {
    startedAt,
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
}

/** The second run, ready in the world from its start (its stack exists from the beginning); `start` launches it. */
export interface Second {
  readonly run: WorldRun
  readonly place: SecondRun
  start(): void
  mainDone(): boolean
  startPost(): void
  done(): boolean
  /** After it ended: its claims read (the command's, from what it printed). */
  finish(): void
}

export function prepareSecond(
  s: Schedule,
  first: { stack: Stack; log: WorldLog; archive: SimArchive },
  steps: Steps,
  accessTokenOf: (stack: Stack) => string | undefined
): Second | undefined {
  const place = placeOf(s, s.second)
  if (place === undefined) return undefined
  const s2 = scheduleOf(s, place)
  const other = place.relation === 'other-stack'
  const stack = other ? makeStack(s2, first.archive) : first.stack
  const environment = place.environment === 'other' && !other ? OTHER_ENV : ENV
  const log = emptyLog(
    stack.state.environments.find((e) => e.name === environment),
    other ? undefined : first.log
  )
  runLogs.set(1, log)
  if (other) {
    wire.stacks.set(new URL(BASE2).host, stack)
    stack.search.settings.authKey = first.stack.search.settings.authKey
    watchTheRun(stack, s2, log, new Set(stack.state.distributions.map((d) => d.id)))
  }
  const commit = runCommit(s2)
  const run: WorldRun = { index: 1, s: s2, stack, log, ending: newEnding(0), cli: undefined, environment, commit }
  const inputs = inputsOf(s2, stack, accessTokenOf(stack), { base: other ? BASE2 : BASE, environment })
  const attempt = place.relation === 'rerun' ? 2 : 1
  simContext.addRun(1, inputs, { sha: commit, runAttempt: String(attempt) })
  return {
    run,
    place,
    start() {
      Object.assign(run.ending, { startedAt: Date.now() })
      const ended = (): void => {
        run.ending.finished = true
        run.ending.endedAt = Date.now() - run.ending.startedAt
      }
      const signals = new EventEmitter()
      if (s.face !== undefined) {
        const job = { commit, build: 77, job: place.relation === 'rerun' ? 0 : 1, attempt }
        const command = cliCommand(s.face, inputs, job, 1)
        // The same CI run: the same OpenTelemetry variables (./tracing.ts).
        Object.assign(command.env, tracingEnv(s.tracing))
        run.cli = startCli(steps.cli, command, 1, signals, (code) => {
          run.ending.exitCode = code
          ended()
          run.ending.postFinished = true
          wire.exited.add(1)
        })
        return
      }
      const host = { signals, exit: (code: number) => void (run.ending.exitCode = code), env: tracingEnv(s.tracing) }
      void processOf.run(1, () => caller.run('main', () => steps.run(host).then(ended)))
    },
    // Its main step's process ended: the command once main() resolved, the action's once its last calls were answered.
    mainDone: () => run.ending.finished && (s.face !== undefined || inFlight(1, 'main') === 0 || jest.getTimerCount() === 0),
    // Its post step, as the runner runs it then (a command has none).
    startPost() {
      if (s.face !== undefined) return
      void processOf.run(1, () => caller.run('post', () => steps.runPost().then(() => void (run.ending.postFinished = true))))
    },
    done: () => run.ending.postFinished,
    finish() {
      if (run.cli !== undefined) readCliClaims(shownOf(1), run.cli, 1)
    }
  }
}

/** A deployment as run `index` sees it: its own as this run's, the other run's as another job's. */
function seenBy(index: number, d: Deployment): Deployment {
  if (d.by.startsWith('run-')) return d.by === `run-${index}` ? d : { ...d, by: 'other-job' }
  if (OTHERS.has(d.by) || index === 0) return d
  return { ...d, by: 'other-job' }
}

/** The log a run's invariants read: its environment's history as that run sees it, and each restart's length of it. */
function logSeenBy(index: number, log: WorldLog): WorldLog {
  const env = log.environment
  if (env === undefined) return log
  return {
    ...log,
    restarts: log.restarts.map((r) => ({ ...r, length: r.lengths?.[env.id] ?? r.length })),
    environment: { ...env, deployments: env.deployments.map((d) => seenBy(index, d)) }
  }
}

/**
 * Runs `fn` with the world as run `index` saw it: its own looks, deploy calls, calls, tokens and sink requests on the
 * wire, its own trace sent, what it showed in `shown`, and its environment's history with the other run's deploys as another job's.
 */
export function asRun<T>(index: number, runs: readonly WorldRun[], fn: (log: WorldLog) => T): T {
  if (runs.length === 1) return fn(runs[0]?.log ?? emptyLog(undefined, undefined))
  const saved = {
    looks: wire.looks,
    deploys: wire.deploys,
    calls: wire.calls,
    issued: wire.issued,
    sinkRequests: wire.sinkRequests,
    githubLists: wire.githubLists,
    distributionLists: wire.distributionLists,
    githubCalls: wire.githubCalls
  }
  const savedSends = collector.sends
  const savedShown = { ...shown }
  const mine = <R extends { run: number }>(list: readonly R[]): R[] => list.filter((r) => r.run === index)
  Object.assign(wire, {
    looks: mine(saved.looks),
    deploys: mine(saved.deploys),
    calls: mine(saved.calls),
    issued: mine(saved.issued),
    sinkRequests: mine(saved.sinkRequests),
    githubLists: mine(saved.githubLists),
    distributionLists: mine(saved.distributionLists),
    githubCalls: mine(saved.githubCalls)
  })
  collector.sends = mine(savedSends)
  if (index !== 0) Object.assign(shown, shownOf(index))
  // GitHub's record of other jobs' deploys is the first stack's (their payloads name its address): none on another stack.
  const run = runs[index]
  const world = github.world
  const records = world?.records
  if (world !== undefined && run !== undefined && run.stack !== runs[0]?.stack) Object.assign(world, { records: [] })
  try {
    return fn(logSeenBy(index, run?.log ?? emptyLog(undefined, undefined)))
  } finally {
    Object.assign(wire, saved)
    collector.sends = savedSends
    Object.assign(shown, savedShown)
    if (world !== undefined) Object.assign(world, { records })
  }
}

/** The commit each distribution of the world was built from, as the world knows it (undefined: not one of the world's). */
export function builtFrom(runs: readonly WorldRun[], id: string | undefined): string | undefined {
  if (id === undefined) return undefined
  const first = runs[0]
  if (first === undefined) return undefined
  const gh = commitsOf(first.s)
  const lower = id.toLowerCase()
  if (lower === OLD) return COMMITS[gh?.old ?? 1]
  const i = THEIRS.indexOf(lower)
  if (i >= 0) return COMMITS[gh?.theirs[i] ?? 4 + i]
  // Ours, stored by an earlier run: an identical one was built from this run's commit; else from its own (c3 without a code host).
  if (lower === OURS) return first.s.source === 'upload-identical' ? first.commit : COMMITS[gh?.ours ?? 3]
  return runs.find((r) => r.log.uploaded.some((u) => u.toLowerCase() === lower))?.commit
}

/** The distribution run `index` deployed or meant to (./world.ts ourStoredId, from its own view). */
function distributionOf(index: number, runs: readonly WorldRun[]): string | undefined {
  const run = runs[index]
  if (run === undefined) return undefined
  return asRun(index, runs, (log) => {
    if (run.s.source === 'environment') {
      const read = shown.lines.map((l) => /^Environment '[^']+' runs distribution (\S+)\.$/.exec(l.text)?.[1]).find((x) => x !== undefined)
      return read ?? wire.deploys[0]?.distributionId
    }
    return ourStoredId(run.s, log)
  })
}

/** The ids of one run's events: CDEvents' ce-id and chain, Datadog's deployment ids, New Relic's group. */
function idsOf(requests: readonly SinkRequest[]): { ceIds: Array<[string, string]>; chains: Set<string>; datadog: Set<string>; newRelic: Set<string> } {
  const ceIds: Array<[string, string]> = []
  const chains = new Set<string>()
  const datadog = new Set<string>()
  const newRelic = new Set<string>()
  for (const r of requests) {
    if (r.key === 'cdevents') {
      ceIds.push([r.headers['ce-id'] ?? '', r.body])
      chains.add(String((JSON.parse(r.body) as { context?: { chainId?: unknown } }).context?.chainId))
    }
    if (r.key === 'datadog') datadog.add((JSON.parse(r.body) as { data: { attributes: { id: string } } }).data.attributes.id)
    if (r.key === 'new-relic') {
      const group = /"groupId"\s*:\s*"([^"]+)"/.exec(r.body)?.[1]
      if (group !== undefined) newRelic.add(group)
    }
  }
  return { ceIds, chains, datadog, newRelic }
}

/**
 * The commit a sink's request names in the field each service gives it (CDEvents' customData.commit, Datadog's
 * git.commit_sha, Sentry's release ref, New Relic's commit; Slack's and Teams' "Commit", 7 characters); undefined when it
 * names none. Prose (a refusal's evidence naming the running commit) is not a commit field.
 */
function commitNamed(r: SinkRequest): string | undefined {
  const body = JSON.parse(r.body) as Record<string, unknown>
  const at = (...path: string[]): unknown =>
    path.reduce<unknown>((o, k) => (typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[k] : undefined), body)
  const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
  if (r.key === 'cdevents') return text(at('customData', 'commit'))
  if (r.key === 'datadog') return text(at('data', 'attributes', 'git', 'commit_sha'))
  if (r.key === 'sentry') return text(at('ref'))
  if (r.key === 'new-relic') return text(at('variables', 'deployment', 'commit'))
  if (r.key === 'slack') return /"\*Commit\*\\n[^"]*?([0-9a-f]{7})/.exec(r.body)?.[1]
  if (r.key === 'teams') return /\{"title":"Commit","value":"([0-9a-f]{7})"\}/.exec(r.body)?.[1]
  return undefined
}

/**
 * Across the runs of a world: each CDEvent's ce-id unique (two distinct moments never share one), and no chain,
 * Datadog deployment or New Relic group shared by two runs; each event names the commit its distribution was built
 * from, or none, never another (a promoting run's own commit is not the distribution's).
 */
export function checkAcrossRuns(runs: readonly WorldRun[]): void {
  const all = wire.sinkRequests
  const perRun = runs.map((r) => idsOf(all.filter((x) => x.run === r.index)))
  // A retried delivery of one event keeps its id (docs/events.md); two events with one id are two bodies under it.
  const bodies = new Map<string, Set<string>>()
  for (const [id, body] of perRun.flatMap((p) => p.ceIds)) bodies.set(id, (bodies.get(id) ?? new Set()).add(body))
  expect({ ceIdsOfTwoEvents: [...bodies].filter(([, b]) => b.size > 1).map(([id]) => id) }).toEqual({ ceIdsOfTwoEvents: [] })
  for (const kind of ['chains', 'datadog', 'newRelic'] as const) {
    const [a, b] = perRun
    if (a === undefined || b === undefined) continue
    const shared = [...a[kind]].filter((id) => b[kind].has(id))
    expect({ idsSharedByTwoRuns: kind, shared }).toEqual({ idsSharedByTwoRuns: kind, shared: [] })
  }
  for (const run of runs) {
    const truth = builtFrom(runs, distributionOf(run.index, runs))
    if (truth === undefined) continue
    for (const r of all.filter((x) => x.run === run.index)) {
      const named = commitNamed(r)
      if (named === undefined) continue
      expect({ run: run.index, sink: r.key, commit: named }).toEqual({ run: run.index, sink: r.key, commit: named.length === 7 ? truth.slice(0, 7) : truth })
    }
  }
}
