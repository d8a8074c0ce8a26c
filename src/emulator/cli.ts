// `npm run emulator -- [flags]`: runs the Bloomreach Cloud API emulator until SIGINT/SIGTERM.
import { rm, writeFile } from 'node:fs/promises'
import { HELP, parseCli, type CliCommand } from './cli-args.js'
import { startEmulator, type SsoHandle } from './server.js'

function printSso(sso: SsoHandle): void {
  console.log(`Single sign-on: the password login is disabled; the cloud API takes access tokens (audience ${sso.audience}) of this identity provider:`)
  console.log(`  issuer:         ${sso.issuer} (discovery: ${sso.issuer}/.well-known/openid-configuration)`)
  console.log(`  token URL:      ${sso.tokenUrl}`)
  console.log(`  client:         ${sso.clientId} / ${sso.clientSecret}`)
  console.log(`  federated:      ${sso.federatedClientId} with a GitHub OIDC token for audience ${sso.oidcAudience}`)
  console.log(`  ACTIONS_ID_TOKEN_REQUEST_URL=${sso.oidcRequestUrl}`)
  console.log(`  ACTIONS_ID_TOKEN_REQUEST_TOKEN=${sso.oidcRequestToken}`)
}

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
  let emulator
  try {
    emulator = await startEmulator(options)
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'EADDRINUSE') throw err
    const where = `${options.host ?? '127.0.0.1'}:${options.port ?? 4080}`
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
  console.log(`  sites:    ${emulator.url}/sites/<environment>/<path> (the files of the distribution it runs)`)
  if (options.deploySeconds !== undefined && options.deploySeconds > 0) console.log(`  a deploy takes ${options.deploySeconds} s`)
  if (options.deployLooks !== undefined && options.deployLooks > 0)
    console.log(`  a deploy is seen in progress by ${options.deployLooks} look(s) before it lands`)
  if (emulator.appConfigFiles.length > 0) console.log(`  app config files: ${emulator.appConfigFiles.map((f) => f.name).join(', ')}`)
  console.log(`Run the action against it, e.g.:`)
  console.log(
    `  npm run action -- api-url=${emulator.url} username=${emulator.username} password=${emulator.password} distribution=<dir or .tar.gz> environment=development`
  )
  console.log(
    `Search API: GET ${emulator.url}/api/v1/core/ (facets ${emulator.search.facetFormat}${emulator.search.delayMs > 0 ? `, ${emulator.search.delayMs} ms delay` : ''})`
  )
  console.log(`  search-base-url:   ${emulator.url}`)
  console.log(`  search-account-id: ${emulator.search.accountId}`)
  console.log(`  search-auth-key:   ${emulator.search.authKey}`)
  console.log(`  search-domain-key: ${emulator.search.domainKey}`)
  console.log(`  try search-query: shirt (keyword) or shirts (search-type: category)`)
  if (emulator.sso !== undefined) printSso(emulator.sso)
  console.log(`Press Ctrl+C to stop.`)
  if (readyFile !== undefined) await writeFile(readyFile, `${emulator.url}\n`)

  let stopping = false
  const stop = (signal: string): void => {
    if (stopping) return
    stopping = true
    console.log(`${signal}: stopping`)
    void (async () => {
      await emulator.close()
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
