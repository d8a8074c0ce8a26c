// What the simulation replaces, as the runner and the machine would give them: the engine's port (the
// inputs, the log, the outputs, the summary, the saved state, GitHub's OIDC token), @actions/github (the
// run's context and a real octokit whose fetch answers in-process), and the archive on disk. What the
// main step and the post step show is kept apart, with the fake time of each line; a killed main step
// shows nothing more.
import { GitHub, getOctokitOptions } from '@actions/github/lib/utils'
import type { Stack } from '../../src/emulator/stack.js'
import { fileBytes, type ReadyArchive } from '../../src/archive/index.js'
import type { Port, RunContext } from '../../src/port.js'
import { defaultName } from '../../src/cloud/distribution-name.js'
import { GITHUB_API } from './github.js'
import { routedPort, runIndex } from './process.js'
import { caller, dead, httpFetch, wire } from './transport.js'
import type { Schedule, SimArchive } from './world.js'

/** One line of the log: who wrote it, when (fake ms since the epoch), and the text (with its workflow-command prefix). */
export interface Line {
  readonly by: 'main' | 'post'
  readonly at: number
  /** The wire's sequence number when it was written: which answers came before it. */
  readonly seq: number
  readonly text: string
}

/** What the run showed the user: every log line, the outputs, the summaries, the failure; and what it masked. */
export interface Shown {
  inputs: Record<string, string>
  lines: Line[]
  outputs: Record<string, string>
  masked: string[]
  summary: string
  postSummary: string
  failed: string | undefined
  /** What the main step saved for the post step (the port's saveState). */
  state: Map<string, string>
  /** The wire's sequence number when the main step last set an output, its failure or its summary: its outcome decided by then. */
  decided: number
}

export const shown: Shown = { inputs: {}, lines: [], outputs: {}, masked: [], summary: '', postSummary: '', failed: undefined, state: new Map(), decided: 0 }

function emptyShown(inputs: Record<string, string> = {}): Shown {
  return { inputs, lines: [], outputs: {}, masked: [], summary: '', postSummary: '', failed: undefined, state: new Map(), decided: 0 }
}

/** What the other runs of a world showed (./runs.ts), each as the first run's is in `shown`. */
const others = new Map<number, Shown>()

/** What run `index` showed: `shown` for the world's first run. */
export function shownOf(index: number): Shown {
  if (index === 0) return shown
  let view = others.get(index)
  if (view === undefined) {
    view = emptyShown()
    others.set(index, view)
  }
  return view
}

/** What the calling run shows. */
function view(): Shown {
  return shownOf(runIndex())
}

/** The run's world, as the mocks need it: the schedule, the stack, the archive, the run's commit. */
export const simContext: {
  schedule: Schedule | undefined
  stack: Stack | undefined
  archive: SimArchive | undefined
  sha: string
  /** The other runs' contexts (./runs.ts): their commit, job and attempt, as their runner gives them. */
  contexts: Map<number, Partial<RunContext>>
  reset(s: Schedule, stack: Stack, inputs: Record<string, string>, sha: string): void
  /** Another run of the world, with its own inputs and context. */
  addRun(index: number, inputs: Record<string, string>, context: Partial<RunContext>): void
} = {
  schedule: undefined,
  stack: undefined,
  archive: undefined,
  sha: '',
  contexts: new Map(),
  reset(s, stack, inputs, sha) {
    this.schedule = s
    this.stack = stack
    this.sha = sha
    this.contexts.clear()
    others.clear()
    Object.assign(shown, emptyShown(inputs))
    Object.assign(statusShown, { lines: [], masked: [] })
  },
  addRun(index, inputs, context) {
    this.contexts.set(index, context)
    others.set(index, emptyShown(inputs))
  }
}

/** What the status report (./status.ts) logged and masked through the port: its own, apart from the run's. */
export const statusShown: { lines: string[]; masked: string[] } = { lines: [], masked: [] }

function who(): 'main' | 'post' | 'status' | undefined {
  if (dead()) return undefined
  const c = caller.getStore()
  return c === 'post' ? 'post' : c === 'status' ? 'status' : 'main'
}

function say(prefix: string): (line: unknown) => void {
  return (line) => {
    const by = who()
    if (by === 'status') statusShown.lines.push(`${prefix}${String(line)}`)
    else if (by !== undefined) view().lines.push({ by, at: Date.now(), seq: wire.seq, text: `${prefix}${String(line)}` })
  }
}

/** The engine's port as the runner's @actions/core gives it (src/action/port.ts), recorded by who wrote and when. */
export const port: Port = {
  getInput: (name: string) => view().inputs[name] ?? '',
  getState: (name: string) => view().state.get(name) ?? '',
  saveState: (name: string, value: string) => {
    if (who() === 'main') view().state.set(name, value)
  },
  setSecret: (s: string) => {
    const by = who()
    if (by === 'status') statusShown.masked.push(s)
    else if (by !== undefined) view().masked.push(s)
  },
  info: say(''),
  debug: say('::debug::'),
  warning: say('::warning::'),
  notice: say('::notice::'),
  error: say('::error::'),
  isDebug: () => false,
  setOutput: (name: string, value: string) => {
    if (who() !== 'main') return
    const v = view()
    v.outputs[name] = value
    v.decided = wire.seq
  },
  setFailed: (message: string) => {
    if (who() !== 'main') return
    const v = view()
    v.failed = message
    v.decided = wire.seq
    v.lines.push({ by: 'main', at: Date.now(), seq: wire.seq, text: `::error::${message}` })
  },
  group: async <T>(name: string, fn: () => Promise<T>) => {
    say('::group::')(name)
    return fn()
  },
  /** GitHub's OIDC token service (the stack's stand-in), as the runner's ACTIONS_ID_TOKEN_REQUEST_URL answers. */
  getIDToken: async (audience: string): Promise<string> => {
    const url = process.env.ACTIONS_ID_TOKEN_REQUEST_URL
    const token = process.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN
    if (!url || !token) throw new Error('Unable to get ACTIONS_ID_TOKEN_REQUEST_URL env variable')
    const res = await httpFetch(`${url}&audience=${encodeURIComponent(audience)}`, { headers: { authorization: `Bearer ${token}` } })
    if (!res.ok) throw new Error(`Failed to get ID Token. Error Code : ${res.status}`)
    const body = (await res.json()) as { value?: string }
    if (!body.value) throw new Error('Response json body do not have ID Token field')
    port.setSecret(body.value)
    return body.value
  },
  /** A workflow run of acme/site at the schedule's commit (another run of the world: its own commit, job and attempt). */
  runContext: () => ({
    sha: simContext.sha,
    noCommit: 'GITHUB_SHA is not set: not on a runner',
    ref: 'refs/heads/main',
    repository: 'acme/site',
    serverUrl: 'https://github.com',
    runUrl: 'https://github.com/acme/site/actions/runs/77',
    workspace: process.cwd(),
    runId: '77',
    runAttempt: '1',
    actor: 'octocat',
    ...simContext.contexts.get(runIndex())
  }),
  /** The job summary of the step that writes it; a killed main step writes none. */
  writeSummary: async (markdown: string) => {
    const by = who()
    const v = view()
    if (by === 'post') v.postSummary += markdown
    else if (by === 'main') {
      v.summary += markdown
      v.decided = wire.seq
    }
    return true
  }
}

/** @actions/github: its API address (the run's repository and commit come through the port), and a real octokit whose fetch is the simulation's. */
export const github = {
  context: { apiUrl: GITHUB_API },
  getOctokit: (token: string) => new GitHub(getOctokitOptions(token, { baseUrl: GITHUB_API, request: { fetch: httpFetch } }))
}

/**
 * The archive on disk, ready to upload (src/distribution.ts's prepareArchive), under the default name a run packing
 * the repository's folder gives it: from the run's context as its face gave it (the repository, the commit).
 */
export async function prepareArchive(): Promise<ReadyArchive> {
  const archive = simContext.archive
  if (archive === undefined) throw new Error('simulation: no archive')
  const run = routedPort.runContext()
  const fileName = defaultName(run.repository.split('/')[1] ?? '', run.sha, 'site')
  const info = { path: archive.path, fileName, size: archive.size, sha256: archive.sha256, md5: archive.md5, entries: 2, packed: false }
  const verified = Promise.resolve(info)
  return { bytes: fileBytes(archive.path), fileName, size: archive.size, packed: false, verified, hashes: () => verified }
}
