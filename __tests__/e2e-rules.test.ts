// The release rules end to end: the bundled action against the emulator (and the GitHub stand-in), as a runner runs it.
// A rule that refuses fails the step before any request to the platform (a freeze) or before any change (a backup), with
// the summary's headline naming the rule; override-reason deploys all the same and is on the record everywhere it shows.
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { DEFAULT_GITHUB_TOKEN, fakeSha, startGitHubStandIn, type GitHubStandIn } from '../src/emulator/github/server.js'
import { ops, release, run, sweepAndClose } from './e2e-support.js'

let emu: Emulator
let gh: GitHubStandIn | undefined
afterEach(async () => {
  await gh?.close()
  gh = undefined
  await sweepAndClose(emu, [DEFAULT_GITHUB_TOKEN])
})

/** A dated window around now, in UTC. */
const NOW_FROZEN = `${new Date(Date.now() - 3_600_000).toISOString().slice(0, 16)} .. ${new Date(Date.now() + 3_600_000).toISOString().slice(0, 16)} UTC`
const changesOf = (): string[] => emu.requests.filter((r) => ['upload', 'delete-distribution', 'deploy'].includes(r.operation)).map((r) => r.operation)

function deploy(over: Record<string, string> = {}, env: Record<string, string> = {}) {
  return run({ 'api-url': emu.url, username: emu.username, password: emu.password, distribution: release('v1'), environment: 'production', ...over }, { env })
}

test('a freeze window in force: the step fails before any request, the headline names the freeze and its end', async () => {
  emu = await startEmulator()
  const r = await deploy({ 'deploy-freeze': `# the release freeze\n${NOW_FROZEN}` })
  expect(r.code).toBe(1)
  expect(emu.requests).toEqual([])
  expect(r.summary).toMatch(/\*\*❌ Refused: 'production' is in a deploy freeze until [^;]+ UTC; nothing was deployed\*\*/)
  expect(r.summary).toContain(`| Deploy freeze | in force: ${NOW_FROZEN} (line 2) until `)
  expect(r.stdout).toMatch(/::error::Refused: 'production' is in a deploy freeze: /)
  expect(r.outputs.deployed).toBeUndefined()
})

test('a malformed freeze line: bad input, before any request, naming the line', async () => {
  emu = await startEmulator()
  const r = await deploy({ 'deploy-freeze': '0 18 * * 5; 0 7 * * 1' })
  expect(r.code).toBe(1)
  expect(emu.requests).toEqual([])
  expect(r.stdout).toContain("::error::deploy-freeze, line 1 ('0 18 * * 5; 0 7 * * 1'): a cron window has 3 fields separated by ';', this line has 2.")
})

test('no backup of the environment: refused after looking, before any change; the summary says none is listed', async () => {
  emu = await startEmulator({ noBackups: true })
  const r = await deploy({ 'require-backup-hours': '24' })
  expect(r.code).toBe(1)
  expect(ops(emu, 'list-backups')).toHaveLength(1)
  expect(changesOf()).toEqual([])
  expect(r.summary).toContain("**❌ Refused: no backup of 'production' is listed (require-backup-hours: 24); nothing was deployed**")
  expect(r.summary).toContain('| Backup | none listed, younger than 24 hours required |')
})

test('override-reason in a freeze with an old backup: deployed, the reason in the summary, the GitHub Deployment and a warning', async () => {
  emu = await startEmulator({ backupAgeHours: 30 })
  gh = await startGitHubStandIn()
  const sha = gh.model.commit(fakeSha('rules-e2e'))
  gh.model.branch('main', sha)
  const reason = 'hotfix for INC-77, approved by the release manager'
  const r = await deploy(
    { 'deploy-freeze': NOW_FROZEN, 'require-backup-hours': '24', 'override-reason': reason, 'github-token': DEFAULT_GITHUB_TOKEN },
    { GITHUB_API_URL: gh.url, GITHUB_SHA: sha, GITHUB_RUN_ID: '4301' }
  )
  expect(r.code).toBe(0)
  expect(ops(emu, 'deploy')).toHaveLength(1)
  expect(r.summary).toContain(`| Override | ${reason} (overrode the deploy freeze, the backup rule) |`)
  expect(r.summary).toMatch(/\| Backup \| `[^`]+`, taken \S+ \(30 hours old; younger than 24 required\) \(overridden by override-reason\) \|/)
  expect(r.stdout).toContain(`::warning::override-reason overrides the deploy freeze: 'production' is in a deploy freeze: '${NOW_FROZEN}' (line 1) until `)
  const deployment = gh.model.deployments.at(-1)
  expect(deployment?.payload).toMatchObject({ override: { reason, overrode: ['freeze', 'backup'] }, backupId: expect.any(String) })
  expect(deployment?.description).toContain(reason.slice(0, 20))
})
