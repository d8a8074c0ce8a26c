// What the emulator's banner and --help tell a user to run against it, in the terms of how it was started: from a clone
// of the repository (npm run emulator; the action through npm run action), or as `brcloud emulator` from the installed
// package, which has no npm scripts (the brcloud command's deploy). brcloud's launcher says which (BRCLOUD_EMULATOR_FACE,
// set by src/cli/emulator.ts): the emulator shares no code with the command, so it is told, not imported.
import type { SampleHistory } from './github/server.js'
import type { SampleHistory as GitLabHistory } from './gitlab/server.js'
import type { Emulator, SsoHandle } from './server.js'

export type Face = 'clone' | 'brcloud'

/** The variable brcloud's launcher sets for the emulator it runs. */
export const FACE_VARIABLE = 'BRCLOUD_EMULATOR_FACE'

export function faceOf(env: NodeJS.ProcessEnv): Face {
  return env[FACE_VARIABLE] === 'brcloud' ? 'brcloud' : 'clone'
}

/** --help's usage line. */
export function usageLine(face: Face): string {
  return face === 'brcloud' ? 'Usage: brcloud emulator [flags]' : 'Usage: npm run emulator -- [flags]      (or: npx tsx src/emulator/cli.ts [flags])'
}

/** What --github prints for, in --help. */
export function gitHubFor(face: Face): string {
  return face === 'brcloud'
    ? 'for brcloud deploy (GITHUB_API_URL, BRCLOUD_GITHUB_TOKEN, --repository, --commit)'
    : 'for npm run action (GITHUB_API_URL, GITHUB_REPOSITORY, GITHUB_SHA) and its github-token'
}

/** The GitHub stand-in's side of a run: its repository, the tip of main, and its token. */
export interface GitHubSide {
  readonly url: string
  readonly repository: string
  readonly tip: string
  readonly older: string
  readonly token: string
}

/** The lines that say how to deploy to this emulator: the action from a clone, or the brcloud command. */
export function deployLines(emulator: Emulator, github: GitHubSide | undefined, face: Face): string[] {
  const { sso } = emulator
  if (face === 'clone') {
    const login =
      sso === undefined
        ? `username=${emulator.username} password=${emulator.password}`
        : `token-url=${sso.tokenUrl} client-id=${sso.federatedClientId} oidc-audience=${sso.oidcAudience} audience=${sso.audience}`
    const token = github ? ` github-token=${github.token}` : ''
    return [
      'Run the action against it, e.g. with the sample distribution (npm run sample -- sample-distribution):',
      `  npm run action -- api-url=${emulator.url} ${login} distribution=sample-distribution environment=development${token}`
    ]
  }
  // A secret is never a flag of brcloud: it goes in the environment. The OIDC login is the action's alone: brcloud logs in as the client.
  const [secret, login] =
    sso === undefined
      ? [`BRCLOUD_PASSWORD=${emulator.password}`, `--username ${emulator.username}`]
      : [`BRCLOUD_CLIENT_SECRET=${sso.clientSecret}`, `--token-url ${sso.tokenUrl} --client-id ${sso.clientId} --audience ${sso.audience}`]
  const order = github ? ` --repository ${github.repository} --commit ${github.tip}` : ''
  return [
    "Deploy to it with brcloud (--distribution: your build's .tar.gz, or a folder to pack), from another terminal:",
    `  export ${secret}`,
    `  brcloud deploy --api-url ${emulator.url} ${login} --environment development --distribution PATH${order}`
  ]
}

/** The single sign-on mode's lines: the identity provider, and how a run gets GitHub's OIDC token here. */
export function ssoLines(sso: SsoHandle, face: Face): string[] {
  const lines = [
    `Single sign-on: the password login is disabled; the cloud API takes access tokens (audience ${sso.audience}) of this identity provider:`,
    `  issuer:         ${sso.issuer} (discovery: ${sso.issuer}/.well-known/openid-configuration)`,
    `  token URL:      ${sso.tokenUrl}`,
    `  client:         ${sso.clientId} / ${sso.clientSecret}`,
    `  federated:      ${sso.federatedClientId} with a GitHub OIDC token for audience ${sso.oidcAudience}, subject ${sso.federationSubject}`,
    `  GitHub OIDC:    issuer ${sso.oidcIssuer} (its keys served here), subject ${sso.oidcSubject}`
  ]
  if (face === 'brcloud')
    return [...lines, "GitHub's OIDC token is the GitHub Action's alone: brcloud deploy logs in as the client above (client credentials)."]
  return [
    ...lines,
    `Export these where you run npm run action, as a job with permissions: id-token: write has them:`,
    `  export ACTIONS_ID_TOKEN_REQUEST_URL='${sso.oidcRequestUrl}'`,
    `  export ACTIONS_ID_TOKEN_REQUEST_TOKEN='${sso.oidcRequestToken}'`
  ]
}

/** The GitHub stand-in's lines: its repository, commits, branch and tags, and what to export for a run of a job at the tip of main. */
export function gitHubLines(github: GitHubSide, history: SampleHistory, face: Face): string[] {
  const { branch } = history
  const branchTip = branch.commits.at(-1) ?? ''
  const head = [
    `GitHub API stand-in listening on ${github.url}: repository ${github.repository} (Deployments, their statuses, compare, tags, issues)`,
    `  commits on main, oldest first: ${history.main.join(' ')}`,
    `  branch ${branch.name}, off the second commit of main: ${branch.commits.join(' ')}`,
    `  tags: ${history.tags.map((t) => `${t.name} (${t.annotated ? 'annotated, ' : ''}${t.commit.slice(0, 7)})`).join(', ')}`
  ]
  const tracks = `  track main, ${branch.name}, or v* (the newest tag, ${history.tags.at(-1)?.name ?? ''})`
  // The command's lines export the token already: brcloud status needs only the repository besides.
  const status = (also: string): string[] => [`For brcloud status, also export ${also}:`, tracks]
  if (face === 'brcloud') {
    return [
      ...head,
      `Export these where you run brcloud deploy (it then checks the deploy order and records GitHub Deployments of ${github.repository}):`,
      `  export GITHUB_API_URL='${github.url}'`,
      `  export BRCLOUD_GITHUB_TOKEN=${github.token}`,
      `  after a deploy, --commit ${github.older} (an older commit) to see the deploy order refuse it`,
      `  or --commit ${branchTip} (the tip of ${branch.name}) to deploy a commit of another line (diverged)`,
      ...status(`BRCLOUD_REPOSITORY=${github.repository}`)
    ]
  }
  return [
    ...head,
    `Export these where you run npm run action (the runner's variables of a job of ${github.repository} at the tip of main):`,
    `  export GITHUB_API_URL='${github.url}'`,
    `  export GITHUB_REPOSITORY=${github.repository}`,
    `  export GITHUB_SHA=${github.tip}`,
    `  and give the action github-token=${github.token}`,
    `  after a deploy, export GITHUB_SHA=${github.older} (an older commit) to see the deploy order refuse it`,
    `  or export GITHUB_SHA=${branchTip} (the tip of ${branch.name}) to deploy a commit of another line (diverged)`,
    ...status(`BRCLOUD_GITHUB_TOKEN=${github.token} and BRCLOUD_REPOSITORY=${github.repository}`)
  ]
}

/** The GitLab stand-in's side of a run: the instance's address, its project, and its token. */
export interface GitLabSide {
  readonly url: string
  readonly project: string
  readonly token: string
}

/** The GitLab stand-in's lines: its project, commits, branch and tags, and what brcloud needs exported to deploy the tip of main. */
export function gitLabLines(gitlab: GitLabSide, history: GitLabHistory, face: Face): string[] {
  const { branch } = history
  const tip = history.main.at(-1) ?? ''
  const older = history.main.at(-2) ?? ''
  const branchTip = branch.commits.at(-1) ?? ''
  // From a clone there is no brcloud on the path: the bundle the package would install is built here.
  const clone = face === 'clone' ? ['  (brcloud from this clone: npm run build:cli, then node dist-cli/index.js deploy ...)'] : []
  return [
    `GitLab API stand-in listening on ${gitlab.url} (REST API v4 at ${gitlab.url}/api/v4): project ${gitlab.project} (deployments, environments, compare, merge base, tags, issues)`,
    `  commits on main, oldest first: ${history.main.join(' ')}`,
    `  branch ${branch.name}, off the second commit of main: ${branch.commits.join(' ')}`,
    `  tags: ${history.tags.map((t) => `${t.name} (${t.annotated ? 'annotated, ' : ''}${t.commit.slice(0, 7)})`).join(', ')}`,
    `Export these where you run brcloud deploy (it then checks the deploy order and records GitLab deployments of ${gitlab.project}):`,
    ...clone,
    `  export BRCLOUD_GITLAB_URL=${gitlab.url}`,
    `  export BRCLOUD_GITLAB_PROJECT=${gitlab.project}`,
    `  export BRCLOUD_GITLAB_TOKEN=${gitlab.token}`,
    `  export BRCLOUD_COMMIT=${tip}`,
    `  after a deploy, export BRCLOUD_COMMIT=${older} (an older commit) to see the deploy order refuse it`,
    `  or export BRCLOUD_COMMIT=${branchTip} (the tip of ${branch.name}) to deploy a commit of another line (diverged)`,
    `For brcloud status, the same BRCLOUD_GITLAB_* exports:`,
    `  track main, ${branch.name}, or v* (the newest tag, ${history.tags.at(-1)?.name ?? ''})`
  ]
}
