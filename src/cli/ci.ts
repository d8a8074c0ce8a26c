// The CI systems the brcloud command knows (docs/cli.md, "The CIs it knows"): how each is told apart (a variable it sets
// in every job), and where it puts the commit it builds, its page of the run, its id of the run, the attempt and who
// started it. One row per CI, read from each CI's public documentation; the wording of advice for each (how a secret is
// set there) is the engine's, keyed by the row's place (src/advice.ts).
import { PLACES } from '../advice.js'
import type { RunPlace } from '../port.js'

type Env = NodeJS.ProcessEnv

/** A CI system, as the command reads it from the environment of a job. */
export interface Ci {
  /** Its key in the engine's advice and the run context (RunContext.place). */
  readonly place: Exclude<RunPlace, 'action' | 'terminal'>
  /** The variable that tells it apart, as docs/cli.md names it. */
  readonly marker: string
  readonly detect: (env: Env) => boolean
  /** Where its commit is, the first set wins. */
  readonly commit: readonly string[]
  /** Its page of this run: a GitHub Deployment's log and the events' source. */
  readonly runUrl: (env: Env) => string | undefined
  /** Its id of this run; with the attempt, distinct for every run and re-run (the events' ids). */
  readonly runId: (env: Env) => string | undefined
  readonly attempt: (env: Env) => string | undefined
  /** Who started the run. */
  readonly actor: (env: Env) => string | undefined
  /** The branch or tag it builds, as refs/heads/… or refs/tags/… (a deployment on the code's host names it). */
  readonly ref?: (env: Env) => string | undefined
}

/** A variable's value, blanks trimmed; undefined when empty. */
export function read(env: Env, name: string): string | undefined {
  return env[name]?.trim() || undefined
}

const first =
  (...names: string[]) =>
  (env: Env): string | undefined => {
    for (const name of names) {
      const value = read(env, name)
      if (value !== undefined) return value
    }
    return undefined
  }

const isTrue = (name: string) => (env: Env) => read(env, name)?.toLowerCase() === 'true'

/** Bitbucket writes its UUIDs in braces: {1b2c...}. */
const unbraced = (name: string) => (env: Env) => read(env, name)?.replace(/^\{(.*)\}$/, '$1')

/** The parts joined by `separator` when every one is set. */
const joined =
  (separator: string, ...names: string[]) =>
  (env: Env): string | undefined => {
    const parts = names.map((name) => read(env, name))
    return parts.every((p) => p !== undefined) ? parts.join(separator) : undefined
  }

const none = (): undefined => undefined

/** In the order they are looked for: GitHub Actions first (a run: step may also hold another CI's variables it was given). */
export const CIS: readonly Ci[] = [
  {
    place: 'github-actions',
    marker: 'GITHUB_ACTIONS=true',
    detect: (env) => isTrue('GITHUB_ACTIONS')(env) || read(env, 'GITHUB_RUN_ID') !== undefined,
    commit: ['GITHUB_SHA'],
    runUrl: (env) => {
      const [server, repository, id] = [read(env, 'GITHUB_SERVER_URL') ?? 'https://github.com', read(env, 'GITHUB_REPOSITORY'), read(env, 'GITHUB_RUN_ID')]
      return repository && id ? `${server}/${repository}/actions/runs/${id}` : undefined
    },
    runId: first('GITHUB_RUN_ID'),
    attempt: first('GITHUB_RUN_ATTEMPT'),
    actor: first('GITHUB_ACTOR')
  },
  {
    place: 'jenkins',
    marker: 'JENKINS_URL (or JENKINS_HOME, or a BUILD_TAG jenkins-...)',
    detect: (env) => read(env, 'JENKINS_URL') !== undefined || read(env, 'JENKINS_HOME') !== undefined || /^jenkins-/.test(read(env, 'BUILD_TAG') ?? ''),
    // The Git plugin's; a rebuild is a new build number, so the attempt is always the first.
    commit: ['GIT_COMMIT'],
    runUrl: first('BUILD_URL'),
    runId: first('BUILD_TAG', 'BUILD_NUMBER'),
    attempt: none,
    // The Build User Vars plugin's.
    actor: first('BUILD_USER_ID')
  },
  {
    place: 'gitlab',
    marker: 'GITLAB_CI=true',
    detect: isTrue('GITLAB_CI'),
    commit: ['CI_COMMIT_SHA'],
    runUrl: first('CI_JOB_URL'),
    // A retried job keeps its pipeline and gets a new job id: the attempt.
    runId: first('CI_PIPELINE_ID'),
    attempt: first('CI_JOB_ID'),
    actor: first('GITLAB_USER_LOGIN'),
    ref: (env) => {
      const tag = read(env, 'CI_COMMIT_TAG')
      if (tag !== undefined) return `refs/tags/${tag}`
      const branch = read(env, 'CI_COMMIT_BRANCH') ?? read(env, 'CI_COMMIT_REF_NAME')
      return branch === undefined ? undefined : `refs/heads/${branch}`
    }
  },
  {
    place: 'azure-pipelines',
    marker: 'TF_BUILD=True',
    detect: isTrue('TF_BUILD'),
    commit: ['BUILD_SOURCEVERSION'],
    runUrl: (env) => {
      const [collection, project, build] = [read(env, 'SYSTEM_COLLECTIONURI'), read(env, 'SYSTEM_TEAMPROJECT'), read(env, 'BUILD_BUILDID')]
      return collection && project && build ? `${collection}${encodeURIComponent(project)}/_build/results?buildId=${build}` : undefined
    },
    runId: first('BUILD_BUILDID'),
    attempt: first('SYSTEM_JOBATTEMPT'),
    actor: first('BUILD_REQUESTEDFOR')
  },
  {
    place: 'circleci',
    marker: 'CIRCLECI=true',
    detect: isTrue('CIRCLECI'),
    commit: ['CIRCLE_SHA1'],
    runUrl: first('CIRCLE_BUILD_URL'),
    // A re-run is a new workflow; the job number is unique to each job.
    runId: first('CIRCLE_WORKFLOW_ID'),
    attempt: first('CIRCLE_BUILD_NUM'),
    actor: first('CIRCLE_USERNAME')
  },
  {
    place: 'bitbucket',
    marker: 'BITBUCKET_BUILD_NUMBER',
    detect: (env) => read(env, 'BITBUCKET_BUILD_NUMBER') !== undefined,
    commit: ['BITBUCKET_COMMIT'],
    runUrl: (env) => {
      const [repository, build] = [read(env, 'BITBUCKET_REPO_FULL_NAME'), read(env, 'BITBUCKET_BUILD_NUMBER')]
      return repository && build ? `https://bitbucket.org/${repository}/pipelines/results/${build}` : undefined
    },
    // A step run again keeps its pipeline and gets a new step UUID: the attempt.
    runId: unbraced('BITBUCKET_PIPELINE_UUID'),
    attempt: unbraced('BITBUCKET_STEP_UUID'),
    actor: unbraced('BITBUCKET_STEP_TRIGGERER_UUID')
  },
  {
    place: 'buildkite',
    marker: 'BUILDKITE=true',
    detect: isTrue('BUILDKITE'),
    commit: ['BUILDKITE_COMMIT'],
    runUrl: first('BUILDKITE_BUILD_URL'),
    // A retried job keeps its build and gets a new job id: the attempt.
    runId: first('BUILDKITE_BUILD_ID'),
    attempt: first('BUILDKITE_JOB_ID'),
    actor: first('BUILDKITE_BUILD_CREATOR')
  },
  {
    place: 'teamcity',
    marker: 'TEAMCITY_VERSION',
    detect: (env) => read(env, 'TEAMCITY_VERSION') !== undefined,
    // TeamCity hands a build its page, its internal id and who triggered it only as configuration parameters, not
    // variables: the build configuration and its build number name the run.
    commit: ['BUILD_VCS_NUMBER'],
    runUrl: none,
    runId: joined('/', 'TEAMCITY_PROJECT_NAME', 'TEAMCITY_BUILDCONF_NAME', 'BUILD_NUMBER'),
    attempt: none,
    actor: none
  },
  {
    place: 'drone',
    marker: 'DRONE=true',
    detect: isTrue('DRONE'),
    // A restart is a new build (its number), so the attempt is always the first.
    commit: ['DRONE_COMMIT_SHA', 'DRONE_COMMIT'],
    runUrl: first('DRONE_BUILD_LINK'),
    runId: joined('/', 'DRONE_REPO', 'DRONE_BUILD_NUMBER'),
    attempt: none,
    actor: first('DRONE_BUILD_TRIGGER')
  },
  {
    place: 'travis',
    marker: 'TRAVIS=true',
    detect: isTrue('TRAVIS'),
    commit: ['TRAVIS_COMMIT'],
    runUrl: first('TRAVIS_JOB_WEB_URL', 'TRAVIS_BUILD_WEB_URL'),
    // A restarted job keeps both ids: Travis gives no count of restarts.
    runId: first('TRAVIS_BUILD_ID'),
    attempt: first('TRAVIS_JOB_ID'),
    actor: none
  }
]

/** The CI this job runs in, by its marker; undefined in a terminal or a CI the command does not know. */
export function detectCi(env: Env): Ci | undefined {
  return CIS.find((ci) => ci.detect(env))
}

/** The CI's name as its users call it. */
export function ciName(ci: Ci | undefined): string {
  return ci === undefined ? PLACES.terminal.name : PLACES[ci.place].name
}
