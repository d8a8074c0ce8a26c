// Advice that names the way to fix something where the run runs (issue 41): the action reads its inputs from a
// workflow's with: and its secrets from ${{ secrets.* }}; the brcloud command reads BRCLOUD_* variables and files, and
// each CI keeps secrets its own way. The engine learns the place from the port's run context (RunContext.place, set
// by the CLI's face from the CI it finds: src/cli/ci.ts) and words every such hint here, in one table, so that no
// message tells a Jenkins user to write ${{ secrets.BRC_PASSWORD }}.
import * as core from './port.js'
import type { RunPlace } from './port.js'

/** Where this run runs: the action unless the face said otherwise. */
export function runPlace(): RunPlace {
  return core.runContext().place ?? 'action'
}

/** The variable the brcloud command reads an input from: BRCLOUD_ and its name in upper case, '-' as '_'. */
export function inputVariable(name: string): string {
  return `BRCLOUD_${name.toUpperCase().replace(/-/g, '_')}`
}

interface Place {
  /** The place as its users call it. */
  readonly name: string
  /** How a secret reaches the brcloud command there, as the variable `variable`. */
  readonly secret: (variable: string) => string
}

/** Every place the brcloud command knows, with how a secret is set there (each CI's own documented way). */
export const PLACES: { readonly [p in Exclude<RunPlace, 'action'>]: Place } = {
  'github-actions': {
    name: 'GitHub Actions',
    secret: (v) => `a repository or environment secret, mapped in the run: step's env: (${v}: \${{ secrets.NAME }})`
  },
  jenkins: { name: 'Jenkins', secret: (v) => `a Jenkins credential (environment { ${v} = credentials('ID') }, or withCredentials)` },
  gitlab: { name: 'GitLab CI', secret: (v) => `a masked CI/CD variable ${v} of the project or group (Settings > CI/CD > Variables)` },
  'azure-pipelines': { name: 'Azure Pipelines', secret: (v) => `a secret variable of the pipeline, mapped in the step's env: (${v}: $(${v}))` },
  circleci: { name: 'CircleCI', secret: (v) => `a project environment variable or a context holding ${v}` },
  bitbucket: { name: 'Bitbucket Pipelines', secret: (v) => `a secured repository, workspace or deployment variable ${v}` },
  buildkite: { name: 'Buildkite', secret: (v) => `Buildkite secrets or the agent's environment hook (export ${v})` },
  teamcity: { name: 'TeamCity', secret: (v) => `a build parameter env.${v} of type password` },
  drone: { name: 'Drone', secret: (v) => `a Drone secret (environment: ${v}: from_secret: NAME)` },
  travis: { name: 'Travis CI', secret: (v) => `an encrypted variable ${v} (the repository's settings, or travis encrypt)` },
  terminal: { name: 'a terminal', secret: (v) => `the environment (export ${v}, from your password manager)` }
}

/** How the brcloud command gets a secret input here: its variable from the CI's secret store, or its file. */
function cliSecret(place: Exclude<RunPlace, 'action'>, input: string): string {
  const variable = inputVariable(input)
  return `${variable} from ${PLACES[place].secret(variable)}, or --${input}-file FILE`
}

/** A required secret left empty: the end of the "Input X is required: ..." message. */
export function missingSecret(input: 'password' | 'search-auth-key'): string {
  const place = runPlace()
  if (place !== 'action') {
    return `set ${cliSecret(place, input)}; if ${inputVariable(input)} is set and still empty, the secret did not reach this job.`
  }
  return input === 'password'
    ? 'set it from a secret (password: ${{ secrets.BRC_PASSWORD }}); if it is set and still empty, the secret is not available to this workflow (forks and Dependabot runs get no secrets).'
    : 'set it from a secret (search-auth-key: ${{ secrets.BR_SEARCH_AUTH_KEY }}); if it is set and still empty, the secret is not available to this workflow.'
}

/** A required secret, in a list of several missing inputs: where it comes from. */
export function secretSource(input: 'password' | 'search-auth-key'): string {
  const place = runPlace()
  if (place !== 'action') return cliSecret(place, input)
  return input === 'password'
    ? 'from a secret (forks and Dependabot runs get no secrets)'
    : 'from a secret: ${{ secrets.BR_SEARCH_AUTH_KEY }}; if it is set and still empty, the secret is not available to this workflow'
}

/** The user name left empty: the end of its "is required" message. */
export function missingUsername(): string {
  return runPlace() === 'action'
    ? 'set it to the Bloomreach Cloud user that deploys, from a secret (username: ${{ secrets.BRC_USERNAME }}); on a stack with single sign-on, set token-url instead (see docs/single-sign-on.md).'
    : 'set it to the Bloomreach Cloud user that deploys (--username or BRCLOUD_USERNAME); on a stack with single sign-on, set token-url instead (see docs/single-sign-on.md).'
}

/** The user name in a list of several missing inputs. */
export function usernameSource(): string {
  return runPlace() === 'action'
    ? 'the Bloomreach Cloud user that deploys, from a secret'
    : 'the Bloomreach Cloud user that deploys (--username or BRCLOUD_USERNAME)'
}

/**
 * Why oidc-audience cannot log in here, or undefined when it can: only the action asks GitHub for its OIDC token, and
 * only in a job with id-token: write (GitHub then sets ACTIONS_ID_TOKEN_REQUEST_URL and _TOKEN in `env`).
 */
export function oidcUnavailable(env: NodeJS.ProcessEnv): string | undefined {
  const place = runPlace()
  if (place === 'action') {
    if (env.ACTIONS_ID_TOKEN_REQUEST_URL && env.ACTIONS_ID_TOKEN_REQUEST_TOKEN) return undefined
    return (
      "oidc-audience is set, but GitHub gives this job no OIDC token: add 'permissions: id-token: write' to the job (or the workflow). " +
      '(A workflow run from a fork never gets one.)'
    )
  }
  const instead = `log in with client-id and client-secret (${cliSecret(place, 'client-secret')}), or with a script account's username and password (docs/single-sign-on.md)`
  if (place === 'github-actions')
    return `oidc-audience logs in with GitHub's OIDC token, which only the brcloud-deploy action asks for (uses:, with permissions: id-token: write); the brcloud command cannot. Use the action, or ${instead}.`
  return `oidc-audience logs in with the OIDC token GitHub gives a GitHub Actions job, and this run is in ${PLACES[place].name}, where there is none: ${instead}.`
}

/** Why GitHub gave the login no OIDC token, when the job may not ask for one. */
export function noOidcToken(): string {
  return runPlace() === 'action'
    ? "The job needs 'permissions: id-token: write'; a run from a fork gets none."
    : 'Only the brcloud-deploy GitHub Action gets one: log in with client-id and client-secret instead (docs/single-sign-on.md).'
}

/** How to give the GitHub token here (a token of the repository with `permissions`). */
export function giveGitHubToken(permissions: string): string {
  const place = runPlace()
  if (place === 'action') return 'github-token: ${{ github.token }}'
  if (place === 'github-actions') return `BRCLOUD_GITHUB_TOKEN: \${{ github.token }} in the run: step's env:, with ${permissions} in the job's permissions`
  return `BRCLOUD_GITHUB_TOKEN from ${PLACES[place].secret('BRCLOUD_GITHUB_TOKEN')}: a token of the repository with ${permissions}`
}

/** GitHub refused the token for a missing permission (403): what to grant, and where. */
export function grantGitHubPermissions(permissions: string): string {
  const place = runPlace()
  if (place === 'action' || place === 'github-actions') return `give the job permissions with ${permissions}`
  return `give the token ${permissions} on the repository (a fine-grained token's Deployments and Contents permissions)`
}

/** How to set health-expect to the commit this run deploys. */
export function healthExpectCommit(): string {
  const place = runPlace()
  if (place === 'action') return 'health-expect: ${{ github.sha }}'
  if (place === 'github-actions') return '--health-expect "$GITHUB_SHA"'
  return '--health-expect or BRCLOUD_HEALTH_EXPECT set to the commit SHA this run deploys'
}

/** Where the log of this run is, for a GitHub Deployment's status. */
export function seeTheRun(): string {
  const place = runPlace()
  if (place === 'action' || place === 'github-actions') return 'see the workflow run'
  return place === 'terminal' ? "see the run's log" : `see the ${PLACES[place].name} run`
}
