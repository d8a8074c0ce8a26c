// `npm run emulator -- [flags]` from a clone, or `brcloud emulator [flags]` from the package: runs the Bloomreach Cloud
// API emulator until SIGINT/SIGTERM; with --github, the GitHub API stand-in beside it, or with --gitlab, GitLab's.
// Its banner and --help name the commands of how it was started (./banner.ts).
import { rm, writeFile } from 'node:fs/promises'
import { deployLines, faceOf, gitHubLines, gitLabLines, ssoLines, type GitHubSide } from './banner.js'
import { helpText, parseCli, type CliCommand, type GitHubCli, type GitLabCli } from './cli-args.js'
import { DEFAULT_GITHUB_TOKEN, seedSampleHistory, startGitHubStandIn, type GitHubStandIn, type SampleHistory } from './github/server.js'
import * as gitlab from './gitlab/server.js'
import { DEFAULTS, startEmulator, type Emulator, type EmulatorOptions } from './server.js'

/** Starts the GitHub API stand-in with its sample history; the SSO job the OIDC stand-in signs for is then of its repository, at its tip. */
async function startGitHub(cli: GitHubCli, options: EmulatorOptions): Promise<{ standIn: GitHubStandIn; repository: string; history: SampleHistory }> {
  const repository = options.sso?.githubJob?.repository ?? DEFAULTS.sso.githubJob.repository
  const [owner = '', repo = ''] = repository.split('/')
  const standIn = await startGitHubStandIn({ owner, repo, port: cli.port, host: options.host ?? DEFAULTS.host })
  const history = seedSampleHistory(standIn.model)
  if (options.sso !== undefined) options.sso = { ...options.sso, githubJob: { ...options.sso.githubJob, sha: history.main.at(-1) ?? '' } }
  return { standIn, repository, history }
}

/** Starts the GitLab API stand-in with its sample history, for project acme/platform/site. */
async function startGitLab(cli: GitLabCli, options: EmulatorOptions): Promise<{ standIn: gitlab.GitLabStandIn; history: gitlab.SampleHistory }> {
  const standIn = await gitlab.startGitLabStandIn({ port: cli.port, host: options.host ?? DEFAULTS.host })
  return { standIn, history: gitlab.seedSampleHistory(standIn.model) }
}

const inUse = (err: unknown): boolean => (err as { code?: unknown }).code === 'EADDRINUSE'

/** A code host's stand-in started, or (its port taken) undefined after saying which flag chooses another, exit code 1. */
async function orSayInUse<T>(host: 'GitHub' | 'GitLab', flag: string, where: string, start: () => Promise<T>): Promise<T | undefined> {
  try {
    return await start()
  } catch (err) {
    if (!inUse(err)) throw err
    console.error(
      `Another program already listens on ${where}. Choose another port for the ${host} API stand-in with --${flag}-port N, or --${flag}-port 0 to take any free one.`
    )
    process.exitCode = 1
    return undefined
  }
}

async function main(): Promise<void> {
  const face = faceOf(process.env)
  let parsed: CliCommand
  try {
    parsed = parseCli(process.argv.slice(2))
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n\n${helpText(face)}`)
    process.exitCode = 2
    return
  }
  if (parsed.help) {
    process.stdout.write(helpText(face))
    return
  }
  const { options, readyFile, quiet } = parsed
  if (!quiet) options.log = (line) => console.log(`${new Date().toISOString()} ${line}`)
  if (readyFile !== undefined) await rm(readyFile, { force: true })
  const host = options.host ?? DEFAULTS.host
  let github: Awaited<ReturnType<typeof startGitHub>> | undefined
  if (parsed.github !== undefined) {
    const cli = parsed.github
    github = await orSayInUse('GitHub', 'github', `${host}:${cli.port}`, () => startGitHub(cli, options))
    if (github === undefined) return
  }
  let gitLab: Awaited<ReturnType<typeof startGitLab>> | undefined
  if (parsed.gitlab !== undefined) {
    const cli = parsed.gitlab
    gitLab = await orSayInUse('GitLab', 'gitlab', `${host}:${cli.port}`, () => startGitLab(cli, options))
    if (gitLab === undefined) return
  }
  let emulator: Emulator
  try {
    emulator = await startEmulator(options)
  } catch (err) {
    await Promise.all([github?.standIn.close(), gitLab?.standIn.close()])
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
  const side: GitHubSide | undefined = github && {
    url: github.standIn.url,
    repository: github.repository,
    tip: github.history.main.at(-1) ?? '',
    older: github.history.main.at(-2) ?? '',
    token: DEFAULT_GITHUB_TOKEN
  }
  for (const line of deployLines(emulator, side, face)) console.log(line)
  console.log(
    `Search API: GET ${emulator.url}/api/v1/core/ (facets ${emulator.search.facetFormat}${emulator.search.delayMs > 0 ? `, ${emulator.search.delayMs} ms delay` : ''})`
  )
  console.log(`  search-base-url:   ${emulator.url}`)
  console.log(`  search-account-id: ${emulator.search.accountId}`)
  console.log(`  search-auth-key:   ${emulator.search.authKey}`)
  console.log(`  search-domain-key: ${emulator.search.domainKey}`)
  console.log(`  try search-query: shirt (keyword) or shirts (search-type: category)`)
  if (emulator.sso !== undefined) for (const line of ssoLines(emulator.sso, face)) console.log(line)
  if (github !== undefined && side !== undefined) for (const line of gitHubLines(side, github.history, face)) console.log(line)
  if (gitLab !== undefined) {
    const gitLabSide = { url: gitLab.standIn.url, project: gitlab.DEFAULT_GITLAB_PROJECT, token: gitlab.DEFAULT_GITLAB_TOKEN }
    for (const line of gitLabLines(gitLabSide, gitLab.history, face)) console.log(line)
  }
  console.log(`Press Ctrl+C to stop.`)
  if (readyFile !== undefined) await writeFile(readyFile, `${emulator.url}\n`)

  let stopping = false
  const stop = (signal: string): void => {
    if (stopping) return
    stopping = true
    console.log(`${signal}: stopping`)
    void (async () => {
      await Promise.all([emulator.close(), github?.standIn.close(), gitLab?.standIn.close()])
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
