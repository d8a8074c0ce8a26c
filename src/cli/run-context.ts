// The run's context outside GitHub's runner (the port's runContext): the commit from --commit, BRCLOUD_COMMIT or
// the CI's own variable; the GitHub repository (for GitHub Deployments with a github-token) from --repository,
// BRCLOUD_REPOSITORY or the runner's GITHUB_REPOSITORY; the CI's page of this run; the current folder as the
// workspace. Read from the command line and the environment it was given, never written to process.env.
import { isRepositoryName, localRun, runnerContext } from '../github/runner-context.js'
import type { RunContext } from '../port.js'
import { UsageError } from './inputs.js'

/** Where a CI puts the commit it builds, after --commit and BRCLOUD_COMMIT: each CI sets only its own. */
const COMMIT_VARIABLES = ['GIT_COMMIT', 'CI_COMMIT_SHA', 'BUILD_SOURCEVERSION', 'GITHUB_SHA'] as const

const COMMIT = /^[0-9a-f]{7,64}$/i

/** The run's context from the CLI's flags (--commit, --repository) and the environment; a malformed value is a UsageError. */
export function cliRunContext(flags: Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv, cwd: string = process.cwd()): RunContext {
  // In a GitHub Actions `run:` step the runner's variables say it all; elsewhere they are absent and this is a start.
  const runner = runnerContext(env)
  const commit = firstSet([['--commit', flags.commit], ['BRCLOUD_COMMIT', env.BRCLOUD_COMMIT], ...COMMIT_VARIABLES.map((name) => [name, env[name]] as const)])
  if (commit !== undefined && !COMMIT.test(commit.value))
    throw new UsageError(`${commit.from} is not a commit SHA (7 to 64 hexadecimal digits, the full SHA best): '${commit.value}'.`)
  const repository = firstSet([
    ['--repository', flags.repository],
    ['BRCLOUD_REPOSITORY', env.BRCLOUD_REPOSITORY],
    ['GITHUB_REPOSITORY', env.GITHUB_REPOSITORY]
  ])
  if (repository !== undefined && !isRepositoryName(repository.value))
    throw new UsageError(`${repository.from} is not a GitHub repository as owner/name: '${repository.value}'.`)
  return {
    ...runner,
    sha: commit?.value.toLowerCase() ?? '',
    noCommit: `no --commit, BRCLOUD_COMMIT or ${COMMIT_VARIABLES.join(', ')}`,
    repository: repository?.value ?? '',
    runUrl: runner.runUrl ?? ciRunUrl(env),
    // A command works where it is started, also in a `run:` step with another working-directory.
    workspace: cwd,
    ...(env.GITHUB_RUN_ID ? {} : ciRun(env))
  }
}

/**
 * The CI's id of this run, its attempt and who started it (the events' ids and "who ran it", issue 32): Jenkins'
 * build tag, GitLab's pipeline (a retried job has a new job id: the attempt), Azure's build and job attempt; a
 * random id elsewhere.
 */
function ciRun(env: NodeJS.ProcessEnv): Pick<RunContext, 'runId' | 'runAttempt' | 'actor'> {
  const set = (name: string): string | undefined => env[name]?.trim() || undefined
  const jenkins = set('BUILD_TAG') ?? (set('JENKINS_URL') && set('BUILD_NUMBER'))
  if (jenkins) return { runId: jenkins, runAttempt: '1', actor: set('BUILD_USER_ID') }
  const pipeline = set('CI_PIPELINE_ID')
  if (pipeline) return { runId: pipeline, runAttempt: set('CI_JOB_ID') ?? '1', actor: set('GITLAB_USER_LOGIN') }
  const build = set('BUILD_BUILDID')
  if (build) return { runId: build, runAttempt: set('SYSTEM_JOBATTEMPT') ?? '1', actor: set('BUILD_REQUESTEDFOR') }
  return { runId: localRun(), runAttempt: '1', actor: undefined }
}

/** The CI's page of this run, for a GitHub Deployment's log: Jenkins' build, GitLab's job, Azure's build. */
function ciRunUrl(env: NodeJS.ProcessEnv): string | undefined {
  if (env.BUILD_URL) return env.BUILD_URL
  if (env.CI_JOB_URL) return env.CI_JOB_URL
  if (env.SYSTEM_COLLECTIONURI && env.SYSTEM_TEAMPROJECT && env.BUILD_BUILDID)
    return `${env.SYSTEM_COLLECTIONURI}${encodeURIComponent(env.SYSTEM_TEAMPROJECT)}/_build/results?buildId=${env.BUILD_BUILDID}`
  return undefined
}

function firstSet(sources: ReadonlyArray<readonly [string, unknown]>): { from: string; value: string } | undefined {
  for (const [from, value] of sources) if (typeof value === 'string' && value.trim() !== '') return { from, value: value.trim() }
  return undefined
}
