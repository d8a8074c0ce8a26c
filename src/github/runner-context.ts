// The run as GitHub's runner describes it, in its variables, read as @actions/github's context reads them: the
// action's face gives this to the engine (src/action/port.ts), and the CLI's starts from it in a `run:` step.
import { randomUUID } from 'node:crypto'
import type { RunContext } from '../port.js'

/** A GitHub repository as owner/name, in the characters GitHub allows in both. */
export function isRepositoryName(value: string): boolean {
  return /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(value)
}

/** One random id per process: a run outside any CI still names its events consistently. */
let localRunId: string | undefined
export function localRun(): string {
  localRunId ??= `local-${randomUUID()}`
  return localRunId
}

export function runnerContext(env: NodeJS.ProcessEnv = process.env): RunContext {
  const repository = env.GITHUB_REPOSITORY ?? ''
  const serverUrl = env.GITHUB_SERVER_URL ?? 'https://github.com'
  const runId = Number.parseInt(env.GITHUB_RUN_ID ?? '', 10)
  return {
    sha: env.GITHUB_SHA ?? '',
    noCommit: 'GITHUB_SHA is not set: not on a runner',
    ref: env.GITHUB_REF ?? '',
    repository,
    serverUrl,
    runUrl: runId && repository ? `${serverUrl}/${repository}/actions/runs/${runId}` : undefined,
    workspace: env.GITHUB_WORKSPACE || process.cwd(),
    runId: runId ? String(runId) : localRun(),
    runAttempt: env.GITHUB_RUN_ATTEMPT || '1',
    actor: env.GITHUB_ACTOR || undefined
  }
}
