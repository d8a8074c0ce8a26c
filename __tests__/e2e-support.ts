// Shared by the end-to-end suites: every run has step debug logging on, and every run is swept
// for secrets (password, every token the emulator issued or saw) after each test.
import { execFileSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Emulator, RecordedRequest } from '../src/emulator/server.js'
import { runAction, type ActionRun } from '../scripts/lib/run-action.js'

export const runs: ActionRun[] = []

export async function run(inputs: Record<string, string>, options: Parameters<typeof runAction>[1] = {}): Promise<ActionRun> {
  const result = await runAction(inputs, { ...options, env: { ACTIONS_STEP_DEBUG: 'true', RUNNER_DEBUG: '1', ...options.env } })
  runs.push(result)
  return result
}

/** Every secret a run could leak: the password and every token the emulator saw, plus extras. */
export function secretsOf(emu: Emulator, extra: string[] = []): string[] {
  const found = new Set<string>([emu.password, ...extra])
  for (const r of emu.requests) {
    const auth = r.headers.authorization
    if (auth) found.add(auth.replace(/^Bearer /i, ''))
    const body = r.json as { refresh_token?: string; password?: string } | undefined
    if (body?.refresh_token) found.add(body.refresh_token)
    if (body?.password) found.add(body.password)
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
  if (list.length > 0) expectNoSecrets(list, secretsOf(emu, extra))
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
