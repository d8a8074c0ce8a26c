// `npm run emulator -- [flags]` from a clone, or `brcloud emulator [flags]` from the package: runs the Bloomreach Cloud
// API emulator until SIGINT/SIGTERM; with --github, the GitHub API stand-in beside it, or with --gitlab, GitLab's.
// Its banner and --help name the commands of how it was started (./banner.ts).
import { rm, writeFile } from 'node:fs/promises'
import { deployLines, faceOf, gitHubLines, gitLabLines, ssoLines, type Face, type GitHubSide } from './banner.js'
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

type GitHubStarted = Awaited<ReturnType<typeof startGitHub>>
type GitLabStarted = Awaited<ReturnType<typeof startGitLab>>

/** The code host's stand-in a run has beside the emulator, if any. */
interface CodeHosts {
  github?: GitHubStarted | undefined
  gitLab?: GitLabStarted | undefined
}

type StartCommand = Extract<CliCommand, { help: false }>

/** The command to run, or undefined once --help was printed or a bad flag was named with the help (exit code 2). */
function commandOf(face: Face): StartCommand | undefined {
  let parsed: CliCommand
  try {
    parsed = parseCli(process.argv.slice(2))
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n\n${helpText(face)}`)
    process.exitCode = 2
    return undefined
  }
  if (parsed.help) {
    process.stdout.write(helpText(face))
    return undefined
  }
  return parsed
}

/** The stand-in --github or --gitlab asks for, or undefined when its port is taken (said, exit code 1). */
async function startCodeHosts(command: StartCommand): Promise<CodeHosts | undefined> {
  const { options } = command
  const host = options.host ?? DEFAULTS.host
  const hosts: CodeHosts = {}
  if (command.github !== undefined) {
    const cli = command.github
    hosts.github = await orSayInUse('GitHub', 'github', `${host}:${cli.port}`, () => startGitHub(cli, options))
    if (hosts.github === undefined) return undefined
  }
  if (command.gitlab !== undefined) {
    const cli = command.gitlab
    hosts.gitLab = await orSayInUse('GitLab', 'gitlab', `${host}:${cli.port}`, () => startGitLab(cli, options))
    if (hosts.gitLab === undefined) return undefined
  }
  return hosts
}

/** The emulator started, or undefined when its port is taken (said, exit code 1; the code host's stand-in closed). */
async function startOrSayInUse(options: EmulatorOptions, hosts: CodeHosts): Promise<Emulator | undefined> {
  try {
    return await startEmulator(options)
  } catch (err) {
    await Promise.all([hosts.github?.standIn.close(), hosts.gitLab?.standIn.close()])
    if (!inUse(err)) throw err
    const where = `${options.host ?? DEFAULTS.host}:${options.port ?? 4080}`
    console.error(`Another program already listens on ${where}. Choose another port with --port N, or --port 0 to take any free one (its address is printed).`)
    process.exitCode = 1
    return undefined
  }
}

/** The cloud API's part of the banner: where it listens, the account, the docs, the storage, the sites, the deploy time. */
function printCloud(emulator: Emulator, options: EmulatorOptions): void {
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
}

/** The search API's part of the banner: its address, keys and a query to try. */
function printSearch(emulator: Emulator): void {
  console.log(
    `Search API: GET ${emulator.url}/api/v1/core/ (facets ${emulator.search.facetFormat}${emulator.search.delayMs > 0 ? `, ${emulator.search.delayMs} ms delay` : ''})`
  )
  console.log(`  search-base-url:   ${emulator.url}`)
  console.log(`  search-account-id: ${emulator.search.accountId}`)
  console.log(`  search-auth-key:   ${emulator.search.authKey}`)
  console.log(`  search-domain-key: ${emulator.search.domainKey}`)
  console.log(`  try search-query: shirt (keyword) or shirts (search-type: category)`)
}

/** The banner: what runs where, and what to run against it (./banner.ts). */
function printBanner(emulator: Emulator, options: EmulatorOptions, { github, gitLab }: CodeHosts, face: Face): void {
  printCloud(emulator, options)
  const side: GitHubSide | undefined = github && {
    url: github.standIn.url,
    repository: github.repository,
    tip: github.history.main.at(-1) ?? '',
    older: github.history.main.at(-2) ?? '',
    token: DEFAULT_GITHUB_TOKEN
  }
  for (const line of deployLines(emulator, side, face)) console.log(line)
  printSearch(emulator)
  if (emulator.sso !== undefined) for (const line of ssoLines(emulator.sso, face)) console.log(line)
  if (github !== undefined && side !== undefined) for (const line of gitHubLines(side, github.history, face)) console.log(line)
  if (gitLab !== undefined) {
    const gitLabSide = { url: gitLab.standIn.url, project: gitlab.DEFAULT_GITLAB_PROJECT, token: gitlab.DEFAULT_GITLAB_TOKEN }
    for (const line of gitLabLines(gitLabSide, gitLab.history, face)) console.log(line)
  }
  console.log(`Press Ctrl+C to stop.`)
}

/** On SIGINT or SIGTERM (the first one): everything closed, the ready file removed, exit 0. */
function stopOnSignal(emulator: Emulator, { github, gitLab }: CodeHosts, readyFile: string | undefined): void {
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

async function main(): Promise<void> {
  const face = faceOf(process.env)
  const command = commandOf(face)
  if (command === undefined) return
  const { options, readyFile, quiet } = command
  if (!quiet) options.log = (line) => console.log(`${new Date().toISOString()} ${line}`)
  if (readyFile !== undefined) await rm(readyFile, { force: true })
  const hosts = await startCodeHosts(command)
  if (hosts === undefined) return
  const emulator = await startOrSayInUse(options, hosts)
  if (emulator === undefined) return
  printBanner(emulator, options, hosts, face)
  if (readyFile !== undefined) await writeFile(readyFile, `${emulator.url}\n`)
  stopOnSignal(emulator, hosts, readyFile)
}

void main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err))
  process.exitCode = 1
})
