// What a test does to the emulated stack from outside the API: deploy or delete as someone else, store
// someone else's distribution, rename or delete an environment mid-run, and act right after a given
// request (e.g. deploy while the client follows).
import { execFile } from 'node:child_process'
import { createHash, randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { abandonSwitch, deleteDistribution, refusesDeployWhileBusy, startDeploy } from './cloud-api.js'
import { HttpError } from './http-util.js'
import { findDistribution, platformHoursAgo, platformNow, setBackup, type EmulatorState } from './state.js'
import type { Operation, RecordedRequest } from './types.js'

const run = promisify(execFile)

/**
 * Starts a deploy that someone else asked for, by the same rules as the API's: while the environment is
 * busy it throws (the API's 409), or with `deployWhileBusy: 'accept'` replaces the switch in progress. It
 * takes `seconds` and `looks` (startDeploy); given neither, the stack's deploySeconds and deployLooks, given
 * one, that one alone.
 */
export function deployAs(
  state: EmulatorState,
  environmentName: string,
  distributionId: string,
  options: { seconds?: number; looks?: number; by?: string } = {}
): void {
  const env = state.environments.find((e) => e.name === environmentName)
  if (env === undefined) throw new Error(`deployAs: no environment named "${environmentName}"`)
  const dist = findDistribution(state, distributionId)
  if (dist === undefined) throw new Error(`deployAs: no distribution with id "${distributionId}"`)
  if (refusesDeployWhileBusy(state, env)) throw new Error(`deployAs: environment "${environmentName}" is still deploying`)
  const deployment = {
    distributionId: dist.id,
    strategy: 'stopstart',
    appConfigFileRoles: [],
    requestedAt: platformNow(state),
    appliedAt: null,
    by: options.by ?? 'someone-else'
  }
  const own = options.seconds !== undefined || options.looks !== undefined
  startDeploy(state, env, deployment, own ? { seconds: options.seconds ?? 0, looks: options.looks ?? 0 } : {})
}

/** Lands the switch in progress on an environment now, whatever it waited for: the test decides when a deploy is done. */
export function finishDeploy(state: EmulatorState, environmentName: string): void {
  const env = state.environments.find((e) => e.name === environmentName)
  if (env === undefined) throw new Error(`finishDeploy: no environment named "${environmentName}"`)
  const landing = state.landings.get(env)
  if (landing === undefined) throw new Error(`finishDeploy: no deploy in progress on "${environmentName}"`)
  landing.land()
}

/** Someone else renames an environment (in Mission Control, say): the same id under a new name. */
export function renameEnvironment(state: EmulatorState, from: string, to: string): void {
  const env = state.environments.find((e) => e.name === from)
  if (env === undefined) throw new Error(`renameEnvironment: no environment named "${from}"`)
  if (to === '') throw new Error('renameEnvironment: the new name is empty')
  if (to !== from && state.environments.some((e) => e.name === to)) throw new Error(`renameEnvironment: an environment named "${to}" exists`)
  env.name = to
}

/**
 * Someone else deletes an environment: it leaves the lists and every lookup (by name, by id, its site), a
 * switch it was making is abandoned (its timer cleared), and what it ran is no longer in use. Its backups
 * stay listed (what the platform does with them is not public).
 */
export function deleteEnvironment(state: EmulatorState, name: string): void {
  const index = state.environments.findIndex((e) => e.name === name)
  const env = state.environments[index]
  if (env === undefined) throw new Error(`deleteEnvironment: no environment named "${name}"`)
  abandonSwitch(state, env)
  state.environments.splice(index, 1)
}

/**
 * Sets the backups the platform lists for an environment: one per age, taken that many hours ago by the platform's
 * clock (the fake one in the simulation; fractions allowed); [] lists none. The others' backups stay as they are.
 */
export function setBackups(state: EmulatorState, environmentName: string, agesInHours: readonly number[]): void {
  const env = state.environments.find((e) => e.name === environmentName)
  if (env === undefined) throw new Error(`setBackups: no environment named "${environmentName}"`)
  const bad = agesInHours.find((age) => !Number.isFinite(age) || age < 0)
  if (bad !== undefined) throw new Error(`setBackups: an age must be a number of hours, 0 or more (got ${bad})`)
  // In place: the emulator's handle shares this list.
  for (let i = state.backups.length - 1; i >= 0; i--) if (state.backups[i]!.environmentId === env.id) state.backups.splice(i, 1)
  state.backups.push(...agesInHours.map((age, i) => setBackup(env, i, platformHoursAgo(state, age))))
}

/** Someone else deletes a distribution, by the same rules as the API's DELETE (404 unknown, 409 in use unless deleteInUse allows). */
export async function deleteAs(state: EmulatorState, distributionId: string): Promise<void> {
  try {
    await deleteDistribution(state, distributionId)
  } catch (err) {
    if (err instanceof HttpError) throw new Error(`deleteAs: ${err.detail} (${err.status} ${err.code})`, { cause: err })
    throw err
  }
}

/** A real tar.gz made by GNU tar from `files`, stored as if someone else had uploaded it. */
export async function addDistribution(state: EmulatorState, name: string, files: Record<string, string>): Promise<string> {
  const tree = await mkdtemp(join(tmpdir(), 'brcloud-emulator-tree-'))
  try {
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(tree, path)), { recursive: true })
      await writeFile(join(tree, path), content)
    }
    const id = randomUUID()
    const path = join(state.settings.storageDir, `${id}.tar.gz`)
    await run('tar', ['-czf', path, '-C', tree, '.'])
    const bytes = await readFile(path)
    const now = platformNow(state)
    state.distributions.push({
      id,
      name,
      createdAt: now,
      createdBy: 'someone-else',
      modifiedAt: now,
      modifiedBy: 'someone-else',
      md5hash: createHash('md5').update(bytes).digest('hex'),
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size: bytes.length,
      path
    })
    return id
  } finally {
    await rm(tree, { recursive: true, force: true })
  }
}

interface Hook {
  operation: Operation
  fn: (record: RecordedRequest) => void
  times: number
  skip: number
}

interface Hold {
  operation: Operation
  until: Promise<unknown>
  times: number
  skip: number
  /** Told when a request is held: the other process has sent it and waits for its answer. */
  onHeld: (() => void) | undefined
}

/** Callbacks run after a request of an operation was answered or dropped, and requests held before they are handled. */
export class RequestHooks {
  private readonly hooks: Hook[] = []
  private readonly holds: Hold[] = []

  /**
   * Holds the next `times` requests of `operation` (default 1, after letting `skip` through) until `until` settles,
   * then handles them as usual: a slow network, so that a test can put another process's events first. `onHeld` is
   * called as each is held: an event of the other process (it sent the request) the test can act on.
   */
  hold(operation: Operation, until: Promise<unknown>, options: { times?: number; skip?: number; onHeld?: () => void } = {}): void {
    this.holds.push({ operation, until, times: options.times ?? 1, skip: options.skip ?? 0, onHeld: options.onHeld })
  }

  /** What a request of `operation` waits for before it is handled (using up one of a hold's times), or undefined. */
  held(operation: Operation): Promise<void> | undefined {
    const hold = this.holds.find((h) => h.operation === operation && h.times > 0)
    if (hold === undefined) return undefined
    if (hold.skip > 0) {
      hold.skip--
      return undefined
    }
    hold.times--
    hold.onHeld?.()
    return hold.until.then(
      () => undefined,
      () => undefined
    )
  }

  add(operation: Operation, fn: (record: RecordedRequest) => void, options: { times?: number; skip?: number } = {}): void {
    this.hooks.push({ operation, fn, times: options.times ?? 1, skip: options.skip ?? 0 })
  }

  /** Called once per request when its connection is done with it. */
  after(record: RecordedRequest): void {
    for (const hook of this.hooks) {
      if (hook.operation !== record.operation || hook.times <= 0) continue
      if (hook.skip > 0) {
        hook.skip--
        continue
      }
      hook.times--
      hook.fn(record)
    }
  }
}
