// The faces a run can have in the world: the action (its main step, then its post step), or the `brcloud deploy`
// command in a CI or a terminal (docs/cli.md). Each CI comes with the variables it sets in a job, written out here from
// each CI's own public documentation (never read from the command's code): its commit, its build and job ids, its page
// of the run. The world also draws how the command is given its inputs (flags, BRCLOUD_* variables, or both) and its
// secrets (variables, files with LF or CRLF line endings, a missing file, or a flag, which the command refuses), where
// its commit and its GitHub repository come from, and which outputs it writes (--dotenv; --json and --summary always:
// they are what the invariants read).
import fc from 'fast-check'

/** Where the command runs. */
export type CiKey = 'github-actions' | 'jenkins' | 'gitlab' | 'azure' | 'circleci' | 'bitbucket' | 'buildkite' | 'teamcity' | 'drone' | 'travis' | 'terminal'

export const CIS: readonly CiKey[] = [
  'github-actions',
  'jenkins',
  'gitlab',
  'azure',
  'circleci',
  'bitbucket',
  'buildkite',
  'teamcity',
  'drone',
  'travis',
  'terminal'
]

/** The command's face in a schedule (absent: the action's). */
export interface CliFace {
  readonly ci: CiKey
  /** Each plain input as its flag, as its BRCLOUD_* variable, or every other one as a flag. */
  readonly inputs: 'flags' | 'variables' | 'mixed'
  /** The secrets: as variables, as files (--<name>-file or BRCLOUD_<NAME>_FILE) ending in LF or CRLF, one file missing, or one as a flag (refused). */
  readonly secrets: 'variables' | 'file-lf' | 'file-crlf' | 'missing-file' | 'flag'
  /**
   * The run's commit: the CI's own variable only (a terminal has none), also given as --commit or BRCLOUD_COMMIT, a
   * malformed --commit (refused), or none at all (Jenkins without the Git plugin sets no GIT_COMMIT).
   */
  readonly commit: 'ci' | 'flag' | 'variable' | 'malformed' | 'none'
  /** The GitHub repository (needed with github-token): --repository, BRCLOUD_REPOSITORY, or neither (a run: step has GITHUB_REPOSITORY). */
  readonly repository: 'flag' | 'variable' | 'none'
  readonly dotenv: boolean
  /** --debug: the debug lines too (checked for secrets like every other line). */
  readonly debug: boolean
}

/** Weighted choices: the usual way a CI passes things is common, each refusal rarer (they end before any request). */
const weighted = <T>(...choices: Array<readonly [number, T]>): fc.Arbitrary<T> =>
  fc.oneof(...choices.map(([weight, value]) => ({ weight, arbitrary: fc.constant(value) })))

export const cliFaces: fc.Arbitrary<CliFace> = fc.record({
  ci: fc.constantFrom(...CIS),
  inputs: fc.constantFrom('flags' as const, 'variables' as const, 'mixed' as const),
  secrets: weighted<CliFace['secrets']>([8, 'variables'], [3, 'file-lf'], [3, 'file-crlf'], [1, 'missing-file'], [1, 'flag']),
  commit: weighted<CliFace['commit']>([10, 'ci'], [2, 'flag'], [2, 'variable'], [1, 'malformed'], [2, 'none']),
  repository: weighted<CliFace['repository']>([5, 'flag'], [3, 'variable'], [1, 'none']),
  dotenv: fc.boolean(),
  debug: fc.constantFrom(false, false, true)
})

/** One job of a CI run, as the world knows it: the commit it builds, its build (pipeline, workflow) and job, the attempt. */
export interface CiJob {
  /** The commit the CI checked out (a full SHA); undefined where the CI sets none (see CliFace.commit). */
  readonly commit: string | undefined
  /** The build, pipeline or workflow run: shared by the jobs of one run. */
  readonly build: number
  /** The job (or stage, step) within it: 0, 1, ... */
  readonly job: number
  /** The attempt of this job: 1, then 2 for a re-run. */
  readonly attempt: number
}

/** A stable UUID-shaped id from a few numbers (the CIs that name builds and jobs by UUID). */
function uuid(...parts: number[]): string {
  const hex = parts
    .map((p) => p.toString(16).padStart(4, '0'))
    .join('')
    .padEnd(32, '0')
    .slice(0, 32)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

const JOBS = ['deploy-production', 'deploy-staging', 'deploy-again']

/**
 * The variables each CI sets in a job, from its documentation: GitHub Actions' "Variables" reference, Jenkins' "Building
 * a software project" (and the Git plugin's GIT_COMMIT), GitLab's "Predefined CI/CD variables", Azure Pipelines'
 * "Predefined variables" (names upper-cased, dots as underscores), CircleCI's "Project values and variables",
 * Bitbucket Pipelines' "Variables and secrets", Buildkite's "Environment variables", TeamCity's "Predefined build
 * parameters" (env.*), Drone's "Environment reference", Travis CI's "Default environment variables". A re-run is each
 * CI's own: a new attempt of the same run (GitHub, Azure, Buildkite), a new job in the same pipeline (GitLab), a new
 * build (Jenkins, CircleCI, Bitbucket, TeamCity, Drone).
 */
export function ciVariables(ci: CiKey, job: CiJob, cwd: string): Record<string, string> {
  const sha = job.commit
  const name = JOBS[job.job] ?? `job-${job.job}`
  const rerunBuild = job.build + 1000 * (job.attempt - 1)
  const set = (vars: Record<string, string | undefined>): Record<string, string> =>
    Object.fromEntries(Object.entries(vars).filter((e): e is [string, string] => e[1] !== undefined))
  switch (ci) {
    case 'github-actions':
      // A `run:` step: the runner's variables (its output and summary files are @actions/core's, which reads the process's own).
      return set({
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_SHA: sha,
        GITHUB_REF: 'refs/heads/main',
        GITHUB_REPOSITORY: 'acme/site',
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_RUN_ID: String(job.build),
        GITHUB_RUN_NUMBER: String(job.build % 100),
        GITHUB_RUN_ATTEMPT: String(job.attempt),
        GITHUB_JOB: name,
        GITHUB_ACTOR: 'octocat',
        GITHUB_WORKSPACE: cwd
      })
    case 'jenkins': {
      const build = rerunBuild
      const url = `https://jenkins.example.com/job/site/job/main/${build}/`
      return set({
        JENKINS_URL: 'https://jenkins.example.com/',
        JOB_NAME: 'site/main',
        JOB_URL: 'https://jenkins.example.com/job/site/job/main/',
        BUILD_NUMBER: String(build),
        BUILD_ID: String(build),
        BUILD_TAG: `jenkins-site-main-${build}`,
        BUILD_URL: url,
        STAGE_NAME: name,
        NODE_NAME: 'built-in',
        EXECUTOR_NUMBER: '0',
        WORKSPACE: cwd,
        GIT_COMMIT: sha,
        GIT_BRANCH: 'origin/main'
      })
    }
    case 'gitlab': {
      const jobId = job.build * 10 + job.job + 100 * (job.attempt - 1)
      return set({
        CI: 'true',
        GITLAB_CI: 'true',
        CI_SERVER_URL: 'https://gitlab.example.com',
        CI_API_V4_URL: 'https://gitlab.example.com/api/v4',
        CI_PROJECT_PATH: 'acme/site',
        CI_PROJECT_URL: 'https://gitlab.example.com/acme/site',
        CI_PROJECT_DIR: cwd,
        CI_COMMIT_SHA: sha,
        CI_COMMIT_SHORT_SHA: sha?.slice(0, 8),
        CI_COMMIT_REF_NAME: 'main',
        CI_PIPELINE_ID: String(job.build),
        CI_PIPELINE_IID: String(job.build % 100),
        CI_PIPELINE_URL: `https://gitlab.example.com/acme/site/-/pipelines/${job.build}`,
        CI_JOB_ID: String(jobId),
        CI_JOB_NAME: name,
        CI_JOB_URL: `https://gitlab.example.com/acme/site/-/jobs/${jobId}`,
        GITLAB_USER_LOGIN: 'octocat'
      })
    }
    case 'azure':
      return set({
        TF_BUILD: 'True',
        SYSTEM_COLLECTIONURI: 'https://dev.azure.com/acme/',
        SYSTEM_TEAMPROJECT: 'Site Team',
        SYSTEM_DEFINITIONID: '7',
        SYSTEM_STAGENAME: name,
        SYSTEM_JOBID: uuid(job.build, job.job),
        SYSTEM_JOBATTEMPT: String(job.attempt),
        AGENT_JOBNAME: name,
        BUILD_BUILDID: String(job.build),
        BUILD_BUILDNUMBER: `20261124.${job.build % 100}`,
        BUILD_SOURCEVERSION: sha,
        BUILD_SOURCEBRANCH: 'refs/heads/main',
        BUILD_REPOSITORY_NAME: 'acme/site',
        BUILD_REQUESTEDFOR: 'Octo Cat',
        BUILD_SOURCESDIRECTORY: cwd
      })
    case 'circleci': {
      const num = rerunBuild * 10 + job.job
      return set({
        CI: 'true',
        CIRCLECI: 'true',
        CIRCLE_SHA1: sha,
        CIRCLE_BRANCH: 'main',
        CIRCLE_BUILD_NUM: String(num),
        CIRCLE_BUILD_URL: `https://circleci.com/gh/acme/site/${num}`,
        CIRCLE_JOB: name,
        CIRCLE_WORKFLOW_ID: uuid(rerunBuild),
        CIRCLE_WORKFLOW_JOB_ID: uuid(rerunBuild, job.job),
        CIRCLE_PROJECT_USERNAME: 'acme',
        CIRCLE_PROJECT_REPONAME: 'site',
        CIRCLE_REPOSITORY_URL: 'git@github.com:acme/site.git',
        CIRCLE_USERNAME: 'octocat',
        CIRCLE_WORKING_DIRECTORY: cwd
      })
    }
    case 'bitbucket':
      return set({
        CI: 'true',
        BITBUCKET_COMMIT: sha,
        BITBUCKET_BRANCH: 'main',
        BITBUCKET_BUILD_NUMBER: String(rerunBuild),
        BITBUCKET_PIPELINE_UUID: `{${uuid(rerunBuild)}}`,
        BITBUCKET_STEP_UUID: `{${uuid(rerunBuild, job.job)}}`,
        BITBUCKET_STEP_TRIGGERER_UUID: `{${uuid(7)}}`,
        BITBUCKET_WORKSPACE: 'acme',
        BITBUCKET_REPO_SLUG: 'site',
        BITBUCKET_REPO_FULL_NAME: 'acme/site',
        BITBUCKET_GIT_HTTP_ORIGIN: 'http://bitbucket.org/acme/site',
        BITBUCKET_CLONE_DIR: cwd
      })
    case 'buildkite':
      return set({
        CI: 'true',
        BUILDKITE: 'true',
        BUILDKITE_COMMIT: sha,
        BUILDKITE_BRANCH: 'main',
        BUILDKITE_BUILD_ID: uuid(job.build),
        BUILDKITE_BUILD_NUMBER: String(job.build),
        BUILDKITE_BUILD_URL: `https://buildkite.com/acme/site/builds/${job.build}`,
        BUILDKITE_JOB_ID: uuid(job.build, job.job, job.attempt),
        BUILDKITE_LABEL: name,
        BUILDKITE_RETRY_COUNT: String(job.attempt - 1),
        BUILDKITE_PIPELINE_SLUG: 'site',
        BUILDKITE_ORGANIZATION_SLUG: 'acme',
        BUILDKITE_REPO: 'git@github.com:acme/site.git',
        BUILDKITE_BUILD_CREATOR: 'Octo Cat',
        BUILDKITE_BUILD_CHECKOUT_PATH: cwd
      })
    case 'teamcity':
      // Each build configuration of a chain is a build of its own, numbered by its own counter.
      return set({
        TEAMCITY_VERSION: '2025.07 (build 197398)',
        TEAMCITY_PROJECT_NAME: 'Site',
        TEAMCITY_BUILDCONF_NAME: name,
        BUILD_NUMBER: String(rerunBuild + job.job),
        BUILD_VCS_NUMBER: sha
      })
    case 'drone':
      return set({
        CI: 'true',
        DRONE: 'true',
        DRONE_COMMIT: sha,
        DRONE_COMMIT_SHA: sha,
        DRONE_BRANCH: 'main',
        DRONE_REPO: 'acme/site',
        DRONE_BUILD_NUMBER: String(rerunBuild),
        DRONE_BUILD_PARENT: job.attempt > 1 ? String(job.build) : undefined,
        DRONE_BUILD_LINK: `https://drone.example.com/acme/site/${rerunBuild}`,
        DRONE_STAGE_NAME: name,
        DRONE_STAGE_NUMBER: String(job.job + 1),
        DRONE_SYSTEM_HOST: 'drone.example.com',
        DRONE_COMMIT_AUTHOR: 'octocat'
      })
    case 'travis': {
      const jobId = job.build * 10 + job.job
      return set({
        CI: 'true',
        TRAVIS: 'true',
        TRAVIS_COMMIT: sha,
        TRAVIS_BRANCH: 'main',
        TRAVIS_REPO_SLUG: 'acme/site',
        TRAVIS_BUILD_ID: String(job.build),
        TRAVIS_BUILD_NUMBER: String(job.build % 100),
        TRAVIS_BUILD_WEB_URL: `https://app.travis-ci.com/acme/site/builds/${job.build}`,
        TRAVIS_JOB_ID: String(jobId),
        TRAVIS_JOB_NUMBER: `${job.build % 100}.${job.job + 1}`,
        TRAVIS_JOB_WEB_URL: `https://app.travis-ci.com/acme/site/jobs/${jobId}`,
        TRAVIS_BUILD_DIR: cwd
      })
    }
    case 'terminal':
      return {}
  }
}

/** The CI's variable that holds the commit (none on a terminal). */
export const COMMIT_VARIABLE: { readonly [ci in CiKey]: string | undefined } = {
  'github-actions': 'GITHUB_SHA',
  jenkins: 'GIT_COMMIT',
  gitlab: 'CI_COMMIT_SHA',
  azure: 'BUILD_SOURCEVERSION',
  circleci: 'CIRCLE_SHA1',
  bitbucket: 'BITBUCKET_COMMIT',
  buildkite: 'BUILDKITE_COMMIT',
  teamcity: 'BUILD_VCS_NUMBER',
  drone: 'DRONE_COMMIT_SHA',
  travis: 'TRAVIS_COMMIT',
  terminal: undefined
}

/** A re-run of a job keeps every id the CI gives it on Travis CI (a restarted job keeps its job id): the world does not draw one there. */
export const RERUN_KEEPS_IDS: readonly CiKey[] = ['travis']

/** The secrets docs/cli.md names: never a flag, only a variable or a file. */
export const SECRETS = [
  'password',
  'client-secret',
  'access-token',
  'github-token',
  'gitlab-token',
  'search-auth-key',
  'events-token',
  'slack-webhook-url',
  'teams-webhook-url',
  'datadog-api-key',
  'sentry-auth-token',
  'grafana-token',
  'honeycomb-api-key',
  'new-relic-api-key'
] as const

/** An input's variable, as docs/cli.md spells it: BRCLOUD_ and its name in upper case, '-' as '_'. */
export function variableOf(input: string): string {
  return `BRCLOUD_${input.toUpperCase().replace(/-/g, '_')}`
}
