// `npm run emulator -- [flags]`: runs the Bloomreach Cloud API emulator until SIGINT/SIGTERM; with --github,
// the GitHub API stand-in beside it.
import { rm, writeFile } from 'node:fs/promises'
import { HELP, parseCli, type CliCommand, type GitHubCli } from './cli-args.js'
import { DEFAULT_GITHUB_TOKEN, seedSampleHistory, startGitHubStandIn, type GitHubStandIn, type SampleHistory } from './github/server.js'
import { DEFAULTS, startEmulator, type Emulator, type EmulatorOptions, type SsoHandle } from './server.js'

function printSso(sso: SsoHandle): void {
  console.log(`Single sign-on: the password login is disabled; the cloud API takes access tokens (audience ${sso.audience}) of this identity provider:`)
  console.log(`  issuer:         ${sso.issuer} (discovery: ${sso.issuer}/.well-known/openid-configuration)`)
  console.log(`  token URL:      ${sso.tokenUrl}`)
  console.log(`  client:         ${sso.clientId} / ${sso.clientSecret}`)
  console.log(`  federated:      ${sso.federatedClientId} with a GitHub OIDC token for audience ${sso.oidcAudience}, subject ${sso.federationSubject}`)
  console.log(`  GitHub OIDC:    issuer ${sso.oidcIssuer} (its keys served here), subject ${sso.oidcSubject}`)
  console.log(`Export these where you run npm run action, as a job with permissions: id-token: write has them:`)
  console.log(`  export ACTIONS_ID_TOKEN_REQUEST_URL='${sso.oidcRequestUrl}'`)
  console.log(`  export ACTIONS_ID_TOKEN_REQUEST_TOKEN='${sso.oidcRequestToken}'`)
}

function printGitHub(github: GitHubStandIn, repository: string, history: SampleHistory): void {
  const [older, tip] = [history.main.at(-2) ?? '', history.main.at(-1) ?? '']
  const { branch } = history
  const newest = history.tags.at(-1)
  console.log(`GitHub API stand-in listening on ${github.url}: repository ${repository} (Deployments, their statuses, compare, tags, issues)`)
  console.log(`  commits on main, oldest first: ${history.main.join(' ')}`)
  console.log(`  branch ${branch.name}, off the second commit of main: ${branch.commits.join(' ')}`)
  console.log(`  tags: ${history.tags.map((t) => `${t.name} (${t.annotated ? 'annotated, ' : ''}${t.commit.slice(0, 7)})`).join(', ')}`)
  console.log(`Export these where you run npm run action (the runner's variables of a job of ${repository} at the tip of main):`)
  console.log(`  export GITHUB_API_URL='${github.url}'`)
  console.log(`  export GITHUB_REPOSITORY=${repository}`)
  console.log(`  export GITHUB_SHA=${tip}`)
  console.log(`  and give the action github-token=${DEFAULT_GITHUB_TOKEN}`)
  console.log(`  after a deploy, export GITHUB_SHA=${older} (an older commit) to see the deploy order refuse it`)
  console.log(`  or export GITHUB_SHA=${branch.commits.at(-1) ?? ''} (the tip of ${branch.name}) to deploy a commit of another line (diverged)`)
  console.log(`For brcloud status, also export BRCLOUD_GITHUB_TOKEN=${DEFAULT_GITHUB_TOKEN} and BRCLOUD_REPOSITORY=${repository}:`)
  console.log(`  track main, ${branch.name}, or v* (the newest tag, ${newest?.name ?? ''})`)
}

/** The command that runs the action against this emulator as the banner prints it: the password login, or the GitHub OIDC federation in SSO mode. */
function actionCommand(emulator: Emulator, github: boolean): string {
  const { sso } = emulator
  const login =
    sso === undefined
      ? `username=${emulator.username} password=${emulator.password}`
      : `token-url=${sso.tokenUrl} client-id=${sso.federatedClientId} oidc-audience=${sso.oidcAudience} audience=${sso.audience}`
  const token = github ? ` github-token=${DEFAULT_GITHUB_TOKEN}` : ''
  return `npm run action -- api-url=${emulator.url} ${login} distribution=sample-distribution environment=development${token}`
}

/** Starts the GitHub API stand-in with its sample history; the SSO job the OIDC stand-in signs for is then of its repository, at its tip. */
async function startGitHub(cli: GitHubCli, options: EmulatorOptions): Promise<{ standIn: GitHubStandIn; repository: string; history: SampleHistory }> {
  const repository = options.sso?.githubJob?.repository ?? DEFAULTS.sso.githubJob.repository
  const [owner = '', repo = ''] = repository.split('/')
  const standIn = await startGitHubStandIn({ owner, repo, port: cli.port, host: options.host ?? DEFAULTS.host })
  const history = seedSampleHistory(standIn.model)
  if (options.sso !== undefined) options.sso = { ...options.sso, githubJob: { ...options.sso.githubJob, sha: history.main.at(-1) ?? '' } }
  return { standIn, repository, history }
}

const inUse = (err: unknown): boolean => (err as { code?: unknown }).code === 'EADDRINUSE'

async function main(): Promise<void> {
  let parsed: CliCommand
  try {
    parsed = parseCli(process.argv.slice(2))
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n\n${HELP}`)
    process.exitCode = 2
    return
  }
  if (parsed.help) {
    process.stdout.write(HELP)
    return
  }
  const { options, readyFile, quiet } = parsed
  if (!quiet) options.log = (line) => console.log(`${new Date().toISOString()} ${line}`)
  if (readyFile !== undefined) await rm(readyFile, { force: true })
  let github: Awaited<ReturnType<typeof startGitHub>> | undefined
  if (parsed.github !== undefined) {
    try {
      github = await startGitHub(parsed.github, options)
    } catch (err) {
      if (!inUse(err)) throw err
      const where = `${options.host ?? DEFAULTS.host}:${parsed.github.port}`
      console.error(
        `Another program already listens on ${where}. Choose another port for the GitHub API stand-in with --github-port N, or --github-port 0 to take any free one.`
      )
      process.exitCode = 1
      return
    }
  }
  let emulator: Emulator
  try {
    emulator = await startEmulator(options)
  } catch (err) {
    await github?.standIn.close()
    if (!inUse(err)) throw err
    const where = `${options.host ?? DEFAULTS.host}:${options.port ?? 4080}`
    console.error(`Another program already listens on ${where}. Choose another port with --port N, or --port 0 to take any free one (its address is printed).`)
    process.exitCode = 1
    return
  }
  console.log(`Bloomreach Cloud API and search API emulator listening on ${emulator.url}`)
  console.log(`  username: ${emulator.username}`)
  console.log(`  password: ${emulator.password}`)
  console.log(`  docs:     ${emulator.url}/v3/docs`)
  console.log(
    `  storage:  ${options.keepUploads === false ? '(uploads are hashed, not kept)' : (options.storageDir ?? 'a temporary directory, removed on exit')}`
  )
  console.log(
    `  sites:    ${emulator.url}/sites/<environment>/<path> (the site webapp, webapps/site.war, of the distribution it runs; also under /site/; files at the distribution's root as an emulator convenience)`
  )
  if (options.deploySeconds !== undefined && options.deploySeconds > 0) console.log(`  a deploy takes ${options.deploySeconds} s`)
  if (options.deployLooks !== undefined && options.deployLooks > 0)
    console.log(`  a deploy is seen in progress by ${options.deployLooks} look(s) before it lands`)
  if (emulator.appConfigFiles.length > 0) console.log(`  app config files: ${emulator.appConfigFiles.map((f) => f.name).join(', ')}`)
  console.log(`Run the action against it, e.g. with the sample distribution (npm run sample -- sample-distribution):`)
  console.log(`  ${actionCommand(emulator, github !== undefined)}`)
  console.log(
    `Search API: GET ${emulator.url}/api/v1/core/ (facets ${emulator.search.facetFormat}${emulator.search.delayMs > 0 ? `, ${emulator.search.delayMs} ms delay` : ''})`
  )
  console.log(`  search-base-url:   ${emulator.url}`)
  console.log(`  search-account-id: ${emulator.search.accountId}`)
  console.log(`  search-auth-key:   ${emulator.search.authKey}`)
  console.log(`  search-domain-key: ${emulator.search.domainKey}`)
  console.log(`  try search-query: shirt (keyword) or shirts (search-type: category)`)
  if (emulator.sso !== undefined) printSso(emulator.sso)
  if (github !== undefined) printGitHub(github.standIn, github.repository, github.history)
  console.log(`Press Ctrl+C to stop.`)
  if (readyFile !== undefined) await writeFile(readyFile, `${emulator.url}\n`)

  let stopping = false
  const stop = (signal: string): void => {
    if (stopping) return
    stopping = true
    console.log(`${signal}: stopping`)
    void (async () => {
      await Promise.all([emulator.close(), github?.standIn.close()])
      if (readyFile !== undefined) await rm(readyFile, { force: true })
      process.exit(0)
    })()
  }
  process.once('SIGINT', () => stop('SIGINT'))
  process.once('SIGTERM', () => stop('SIGTERM'))
}

void main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err))
  process.exitCode = 1
})
