// The run's context outside GitHub's runner (the port's runContext): the commit from --commit, BRCLOUD_COMMIT or the
// variable of the CI the job runs in (./ci.ts); the GitHub repository (for GitHub Deployments with a github-token) from
// --repository, BRCLOUD_REPOSITORY or the runner's GITHUB_REPOSITORY; the CI's page, id, attempt and user of this run;
// the place, for advice in the CI's own terms (src/advice.ts); the current folder as the workspace. Read from the
// command line and the environment it was given, never written to process.env.
import { isRepositoryName, localRun, runnerContext } from '../github/runner-context.js'
import type { RunContext } from '../port.js'
import { CIS, ciName, detectCi, type Ci } from './ci.js'
import { UsageError } from './inputs.js'

const COMMIT = /^[0-9a-f]{7,64}$/i

/** Every CI's commit variables, looked at only when no CI is found by its marker (a job's variables passed on in part). */
const ANY_COMMIT = [...new Set(CIS.flatMap((ci) => ci.commit))]

/** The run's context from the CLI's flags (--commit, --repository) and the environment; a malformed value is a UsageError. */
export function cliRunContext(flags: Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv, cwd: string = process.cwd()): RunContext {
  const ci = detectCi(env)
  const commit = firstSet([
    ['--commit', flags.commit],
    ['BRCLOUD_COMMIT', env.BRCLOUD_COMMIT],
    ...(ci?.commit ?? ANY_COMMIT).map((name) => [name, env[name]] as const)
  ])
  if (commit !== undefined && !COMMIT.test(commit.value)) {
    const instead = commit.from.startsWith('-') || commit.from === 'BRCLOUD_COMMIT' ? '' : ' Give the commit with --commit SHA or BRCLOUD_COMMIT.'
    throw new UsageError(`${commit.from} is not a commit SHA (7 to 64 hexadecimal digits, the full SHA best): '${commit.value}'.${instead}`)
  }
  const repository = firstSet([
    ['--repository', flags.repository],
    ['BRCLOUD_REPOSITORY', env.BRCLOUD_REPOSITORY],
    ['GITHUB_REPOSITORY', env.GITHUB_REPOSITORY]
  ])
  if (repository !== undefined && !isRepositoryName(repository.value))
    throw new UsageError(`${repository.from} is not a GitHub repository as owner/name: '${repository.value}'.`)
  return { ...placeContext(env, cwd), sha: commit?.value.toLowerCase() ?? '', repository: repository?.value ?? '' }
}

/**
 * The run's context without its commit and repository, which nothing here checks: the CI's page, id, attempt and user,
 * and the place. What a refused command line reports with (its --commit or --repository may be what was refused).
 */
export function placeContext(env: NodeJS.ProcessEnv, cwd: string = process.cwd()): RunContext {
  const ci = detectCi(env)
  return {
    // GitHub's server and the ref, in a GitHub Actions `run:` step; elsewhere they are absent and this is a start.
    ...runnerContext(env),
    sha: '',
    noCommit: noCommit(ci),
    repository: '',
    runUrl: ci?.runUrl(env),
    // A command works where it is started, also in a `run:` step with another working-directory.
    workspace: cwd,
    // GitLab CI's branch or tag; elsewhere the runner's GITHUB_REF (or nothing).
    ref: ci?.ref?.(env) ?? env.GITHUB_REF ?? '',
    runId: ci?.runId(env) ?? localRun(),
    runAttempt: ci?.attempt(env) ?? '1',
    actor: ci?.actor(env),
    place: ci?.place ?? 'terminal'
  }
}

/** Where the commit would have come from, for a message about a run without one. */
function noCommit(ci: Ci | undefined): string {
  if (ci === undefined) return `no --commit or BRCLOUD_COMMIT, and no CI's commit variable (${ANY_COMMIT.join(', ')})`
  return `no --commit or BRCLOUD_COMMIT, and ${ciName(ci)}'s ${ci.commit.join(' or ')} is not set`
}

/** How to give this run its commit, in the terms of the CI it runs in. */
export function giveTheCommit(env: NodeJS.ProcessEnv): string {
  const ci = detectCi(env)
  const where =
    ci === undefined
      ? 'e.g. --commit "$(git rev-parse HEAD)"'
      : `${ciName(ci)} sets ${ci.commit.join(' or ')} when it builds from a commit; it is not set in this job`
  return `give it with --commit SHA or BRCLOUD_COMMIT (${where})`
}

function firstSet(sources: ReadonlyArray<readonly [string, unknown]>): { from: string; value: string } | undefined {
  for (const [from, value] of sources) if (typeof value === 'string' && value.trim() !== '') return { from, value: value.trim() }
  return undefined
}
