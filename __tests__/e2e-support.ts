// Shared by the end-to-end suites: every run has step debug logging on, and every run is swept
// for secrets (password, every token the emulator issued or saw) after each test.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Emulator, Operation, RecordedRequest } from '../src/emulator/server.js'
import { makeDistributionTree } from '../scripts/lib/sample-tree.js'
import { runAction, stateEnv, type ActionRun } from '../scripts/lib/run-action.js'

/** A run, and when it ran: the emulator's requests in that window are the ones it made. */
export const runs: Array<ActionRun & { startedAt: number; endedAt: number; inputs: Record<string, string> }> = []

export async function run(inputs: Record<string, string>, options: Parameters<typeof runAction>[1] = {}): Promise<Awaited<ReturnType<typeof runAction>>> {
  const startedAt = Date.now()
  const result = await runAction(inputs, { ...options, env: { ACTIONS_STEP_DEBUG: 'true', RUNNER_DEBUG: '1', ...options.env } })
  runs.push({ ...result, startedAt, endedAt: Date.now(), inputs })
  return result
}

/** A run under way: its end, and a wait for a line of its log. */
export interface Started {
  done: ReturnType<typeof run>
  /** Resolves once the run's log shows `pattern`; rejects when the run ends without it. */
  logged(pattern: RegExp): Promise<void>
}

/**
 * Starts a run that the test can wait on part-way: an event of that process (a line of its log) after which
 * the test lets something else happen, so that the order of events is the test's, not the machine's speed.
 */
export function start(inputs: Record<string, string>, options: Parameters<typeof runAction>[1] = {}): Started {
  let stdout = ''
  const waiting = new Set<{ pattern: RegExp; resolve: () => void }>()
  const done = run(inputs, {
    ...options,
    onStdout: (sofar) => {
      stdout = sofar
      options.onStdout?.(sofar)
      for (const w of waiting) {
        if (!w.pattern.test(stdout)) continue
        waiting.delete(w)
        w.resolve()
      }
    }
  })
  const ended = done.then(
    () => undefined,
    () => undefined
  )
  return {
    done,
    logged(pattern) {
      if (pattern.test(stdout)) return Promise.resolve()
      return new Promise((resolve, reject) => {
        const w = { pattern, resolve }
        waiting.add(w)
        void ended.then(() => {
          if (!waiting.delete(w)) return
          reject(new Error(`The run ended without logging ${String(pattern)}; the end of its log:\n${stdout.slice(-4000)}`))
        })
      })
    }
  }
}

/** Resolves with the next request of `op` once the emulator answered it (or dropped it). */
export function answered(emu: Emulator, op: Operation): Promise<RecordedRequest> {
  return new Promise((resolve) => emu.onRequest(op, resolve))
}

/** The seconds a step says it followed a switch that was not seen ("not seen within deploy-timeout-minutes (1.7 s)"). */
export function followedFor(message: string): number {
  const m = /not seen within deploy-timeout-minutes \((\d+) ms\)|not seen within deploy-timeout-minutes \(([\d.]+) s\)/.exec(message)
  if (m === null) return NaN
  return m[1] !== undefined ? Number(m[1]) / 1000 : Number(m[2])
}

/** The post step of `main`, as a runner runs it: the same inputs, and the STATE_* variables the main step saved. */
export function runPost(inputs: Record<string, string>, main: { stateFile: string }, options: Parameters<typeof runAction>[1] = {}): ReturnType<typeof run> {
  return run(inputs, { ...options, env: { ...options.env, ...stateEnv(main.stateFile) } })
}

/** Calls of `op` the platform carried out (answered 2xx, or carried out and then dropped by a fault). */
function carriedOut(requests: readonly RecordedRequest[], op: string): number {
  return requests.filter(
    (r) => r.operation === op && ((r.status >= 200 && r.status < 300) || r.fault === 'drop-after-apply' || r.fault === 'drop-after-upload')
  ).length
}

/**
 * The job summary's headline claims only what happened: checked against what the emulator received
 * from that run (uploaded or not, deployed or not, rolled back or not). Runs that overlapped another
 * (two at once) cannot be told apart by time and are skipped.
 */
export function expectSummaryTrue(emu: Emulator, list: ReadonlyArray<(typeof runs)[number]>): void {
  for (const r of list) {
    if (list.some((o) => o !== r && o.startedAt < r.endedAt && r.startedAt < o.endedAt)) continue
    const head = /^\*\*(.+)\*\*$/m.exec(r.summary)?.[1]
    if (head === undefined) continue
    const mine = emu.requests.filter((q) => q.at >= r.startedAt && q.at <= r.endedAt)
    const uploads = carriedOut(mine, 'upload')
    const deploys = carriedOut(mine, 'deploy')
    const claim = { head, uploads, deploys }
    if (/nothing was deployed|Failed before anything|Already running|Already on the stack|Dry run/.test(head)) expect(claim).toMatchObject({ deploys: 0 })
    if (/Failed before anything|Already on the stack|Dry run/.test(head)) expect(claim).toMatchObject({ uploads: 0 })
    if (/^✅ (Verified|Deployed)|^❌ Failed: '|^❌ Replaced/.test(head)) expect(claim.deploys).toBeGreaterThanOrEqual(1)
    if (/rolled back: /.test(head)) expect(claim.deploys).toBeGreaterThanOrEqual(2)
    if (/^✅ Uploaded as|Failed after the upload/.test(head)) expect(claim.uploads).toBeGreaterThanOrEqual(1)
    if (/Failed after sending the upload, which was not confirmed/.test(head)) expect(mine.some((q) => q.operation === 'upload' && q.status === 0)).toBe(true)
    // "Before anything was done" is a claim about every request: none reached the emulator (a search check's included).
    if (/Failed before anything was done/.test(head)) expect({ head, requests: mine.map((q) => q.operation) }).toMatchObject({ requests: [] })
    if (/^❌ Search check failed|^❌ Failed after the search check passed/.test(head)) expect(claim).toMatchObject({ uploads: 0, deploys: 0 })
    expectRowsTrue(emu, r, mine)
  }
}

/**
 * The summary's "Environment" row and "Now" line claim only what happened: the row names the environment the run
 * was given (never "upload only" when one was, never an id the emulator did not give it), and "Now" is said only of
 * an environment this run found (its id shown), after a look this run made.
 */
function expectRowsTrue(emu: Emulator, r: (typeof runs)[number], mine: readonly RecordedRequest[]): void {
  const given = (r.inputs.environment ?? '').trim()
  const row = /^\| Environment \| (.+) \|$/m.exec(r.summary)?.[1]
  const idInRow = row === undefined ? undefined : /\(`([^`]+)`\)$/.exec(row)?.[1]
  if (row !== undefined) {
    const claim = { given, row }
    if (given === '') expect(claim.row).toMatch(/^— \((upload only|none given)\)$/)
    else expect(claim.row.startsWith(`${given} (`)).toBe(true)
    const known = emu.environments.find((e) => e.name === given)
    if (idInRow !== undefined && known !== undefined) expect({ ...claim, id: known.id }).toMatchObject({ id: idInRow })
  }
  const now = /^\*\*Now:\*\* (.+)$/m.exec(r.summary)?.[1]
  if (now === undefined) return
  const claim = { now, row, looked: mine.some((q) => q.operation === 'list-environments') }
  expect(claim.now.startsWith(`'${given}' `) || claim.now.startsWith(`what '${given}' runs`)).toBe(true)
  expect(claim).toMatchObject({ looked: true })
  expect(idInRow).toBeDefined()
}

/** Every secret a run could leak: the password and every token the emulator saw, plus extras. */
export function secretsOf(emu: Emulator, extra: string[] = []): string[] {
  const found = new Set<string>([emu.password, ...extra])
  for (const r of emu.requests) {
    const auth = r.headers.authorization
    if (auth) found.add(auth.replace(/^Bearer /i, ''))
    const body = r.json as Record<string, unknown> | undefined
    // The stack's login and refresh bodies, and an identity provider's forms (single sign-on).
    for (const field of ['refresh_token', 'password', 'client_secret', 'client_assertion', 'token']) {
      const value = body?.[field]
      if (typeof value === 'string') found.add(value)
    }
  }
  return [...found].filter((s) => s.length >= 4)
}

/** Asserts that no secret appears in stdout (less the runner's own ::add-mask:: commands), stderr, the summary or the outputs. */
export function expectNoSecrets(list: ActionRun[], secrets: string[]): void {
  expect(secrets.length).toBeGreaterThan(0)
  for (const r of list) {
    for (const s of secrets) {
      expect(r.visible).not.toContain(s)
      expect(r.stderr).not.toContain(s)
      expect(r.summary).not.toContain(s)
      expect(JSON.stringify(r.outputs)).not.toContain(s)
    }
  }
}

/** The sweep after each test: call from afterEach with the test's emulator. */
export function sweep(emu: Emulator, extra: string[] = []): void {
  const list = runs.splice(0)
  if (list.length === 0) return
  expectNoSecrets(list, secretsOf(emu, extra))
  expectSummaryTrue(emu, list)
}

/** The teardown of every e2e suite: the sweep, then the emulator closed even when the sweep fails
 * (an open server would keep Jest from exiting). */
export async function sweepAndClose(emu: Emulator, extra: string[] = []): Promise<void> {
  try {
    sweep(emu, extra)
  } finally {
    await emu.close()
  }
}

export const ops = (emu: Emulator, op: string): RecordedRequest[] => emu.requests.filter((r) => r.operation === op)

/** The calls of `op` made before the first call of `before` (all of them when there is none). */
export function opsBefore(emu: Emulator, op: string, before: string): RecordedRequest[] {
  const end = emu.requests.findIndex((r) => r.operation === before)
  return (end < 0 ? emu.requests : emu.requests.slice(0, end)).filter((r) => r.operation === op)
}

export function extract(archive: string): string {
  const out = mkdtempSync(join(tmpdir(), 'brcd-x-'))
  execFileSync('tar', ['-xzf', archive, '-C', out])
  return out
}

/** A release: a distribution tree whose version.txt says `version`; `broken` makes its site answer 500 on the emulator. */
export function release(version: string, broken = false): string {
  const tree = makeDistributionTree(undefined, 2_000)
  writeFileSync(join(tree, 'version.txt'), `${version}\n`)
  if (broken) writeFileSync(join(tree, 'EMULATOR-SITE-FAILS'), 'this release fails\n')
  return tree
}

/** A prebuilt archive of a release, made by GNU tar (the same bytes on every run that uses it). */
export function archiveOf(tree: string, name: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'brcd-rel-')), name)
  execFileSync('tar', ['-czf', file, '-C', tree, '.'])
  return file
}
