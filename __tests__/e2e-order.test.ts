// Newest commit wins, end to end: the bundled action against the emulator and the GitHub API stand-in
// (src/emulator/github), both over real HTTP. Each case asserts what the platform received (deploys,
// uploads), what GitHub received (Deployments with the distribution in their payload, compares), and
// what the step said (outputs, errors, notices, summary).
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { DEFAULT_GITHUB_TOKEN, fakeSha, startGitHubStandIn, type GitHubStandIn } from '../src/emulator/github/server.js'
import type { EmulatorOptions } from '../src/emulator/types.js'
import { answered, ops, release, run, start, sweepAndClose } from './e2e-support.js'

const TOKEN = DEFAULT_GITHUB_TOKEN

let emu: Emulator
let gh: GitHubStandIn
/** main: c1 <- c2 <- c3 <- c4 <- c5; feature: c2 <- f1. */
const c = ['c1', 'c2', 'c3', 'c4', 'c5'].map(fakeSha) as [string, string, string, string, string]
const f1 = fakeSha('f1')

async function setUp(options: EmulatorOptions = {}): Promise<void> {
  // A deploy is seen in progress by one look, then lands: each run sees its own switch, whatever the machine's speed.
  emu = await startEmulator({ deployLooks: 1, ...options })
  gh = await startGitHubStandIn()
  gh.model.linear('main', c)
  gh.model.commit(f1, [c[1]])
  gh.model.branch('feature', f1)
}

afterEach(async () => {
  await gh?.close()
  await sweepAndClose(emu, [TOKEN])
})

/** The inputs and runner variables of the pipeline at `sha`, deploying `version` (its own content, so its own distribution). */
function pipeline(sha: string, version: string, over: Record<string, string>, env: Record<string, string>) {
  const inputs = {
    'api-url': emu.url,
    username: emu.username,
    password: emu.password,
    distribution: release(version),
    environment: 'production',
    'github-token': TOKEN,
    ...over
  }
  return [inputs, { env: { GITHUB_API_URL: gh.url, GITHUB_SHA: sha, GITHUB_RUN_ID: String(parseInt(sha.slice(0, 6), 16)), ...env } }] as const
}

/** A run of the pipeline at `sha`, deploying `version`. */
function deployAt(sha: string, version: string, over: Record<string, string> = {}, env: Record<string, string> = {}) {
  return run(...pipeline(sha, version, over, env))
}

/** The same, started: the test waits for a line of its log before it lets another event happen. */
function startAt(sha: string, version: string) {
  return start(...pipeline(sha, version, {}, {}))
}

/** What the environment runs now, as the emulator holds it. */
const running = (name = 'production') => emu.environments.find((e) => e.name === name)?.distributionId
const distributionOf = (r: { outputs: Record<string, string> }) => r.outputs['distribution-id']
const compares = () => gh.calls.filter((x) => x.route === 'compare').map((x) => x.path.split('/compare/')[1])

describe('the deploy order', () => {
  test('a re-run of an older job fails before any change, naming both commits and the way back', async () => {
    await setUp()
    const newer = await deployAt(c[4], 'v5')
    expect(newer.code).toBe(0)
    expect(newer.outputs.order).toBe('unknown') // the first deploy: production ran nothing
    const created = gh.model.deployments[0]
    expect(created?.sha).toBe(c[4])
    expect(created?.payload).toMatchObject({ distributionId: distributionOf(newer), apiUrl: emu.url })

    const older = await deployAt(c[0], 'v1')
    expect(older.code).toBe(1)
    expect(older.errors).toHaveLength(1)
    expect(older.errors[0]).toContain(`commit ${c[0].slice(0, 7)} is older than ${c[4].slice(0, 7)}, which 'production' runs`)
    expect(older.errors[0]).toContain(`GitHub Deployment ${created?.id}`)
    expect(older.errors[0]).toContain('allow-older-commit: true')
    expect(older.outputs).toMatchObject({ order: 'behind', 'running-commit': c[4] })
    expect(compares()).toEqual([`${c[4]}...${c[0]}`])
    // Nothing changed: one upload, one deploy, one GitHub Deployment (the newer run's).
    expect(ops(emu, 'upload')).toHaveLength(1)
    expect(ops(emu, 'deploy')).toHaveLength(1)
    expect(gh.model.deployments).toHaveLength(1)
    expect(running()).toBe(distributionOf(newer))
    expect(older.summary).toContain(
      `**❌ Refused: commit \`${c[0].slice(0, 7)}\` is older than \`${c[4].slice(0, 7)}\`, which 'production' runs; nothing was deployed**`
    )
    expect(older.summary).toMatch(/\| Commit before \| \[`[0-9a-f]{7}`\]\(https:\/\/github\.com\/acme\/site\/commit\/[0-9a-f]{40}\)/)

    // The deliberate way back.
    const back = await deployAt(c[0], 'v1', { 'allow-older-commit': 'true' })
    expect(back.code).toBe(0)
    expect(back.visible).toMatch(/::warning::Deploying an older commit on purpose \(allow-older-commit: true\)/)
    expect(back.outputs.order).toBe('behind')
    expect(running()).toBe(distributionOf(back))
  })

  test('a dry run of an older commit says the deploy would be refused, and changes nothing', async () => {
    await setUp()
    expect((await deployAt(c[3], 'v4')).code).toBe(0)
    const dry = await deployAt(c[1], 'v2', { 'dry-run': 'true' })
    expect(dry.code).toBe(1)
    expect(dry.errors[0]).toMatch(/^::error::A deploy would be refused: commit [0-9a-f]{7} is older than [0-9a-f]{7}/)
    expect(dry.outputs.order).toBe('behind')
    expect(ops(emu, 'upload')).toHaveLength(1)
    expect(gh.model.deployments).toHaveLength(1)
  })

  test('a newer commit deploys, and says it is newer; the same commit again is the skip rule', async () => {
    await setUp()
    expect((await deployAt(c[1], 'v2')).code).toBe(0)
    const next = await deployAt(c[3], 'v4')
    expect(next.code).toBe(0)
    expect(next.outputs).toMatchObject({ order: 'ahead', 'running-commit': c[1] })
    expect(next.visible).toMatch(
      /Deploy order: commit [0-9a-f]{7} \(this run's commit\) and [0-9a-f]{7}, which 'production' runs \(GitHub Deployment \d+, by github-actions\[bot\] in https:\/\/github.com\/acme\/site\/actions\/runs\/\d+\): ours is newer by 2 commit\(s\)/
    )
    expect(next.summary).toMatch(/\| Deploy order \| ahead: newer by 2 commit\(s\)/)
    // The same commit built again (another archive): identical, so the skip rule decides; a new build deploys.
    const again = await deployAt(c[3], 'v4 rebuilt')
    expect(again.code).toBe(0)
    expect(again.outputs.order).toBe('identical')
    expect(again.visible).toMatch(/Deploy order: .* are the same commit\./)
    expect(ops(emu, 'deploy')).toHaveLength(3)
  })

  // Racing pipelines: the test orders the events (a deploy stays in progress until the waiting run says it waits;
  // a request is held until the other run has ended), so each case holds on a slow machine as on a fast one.
  test('two racing pipelines: the older one waits for the newer, then refuses; the newer commit runs', async () => {
    await setUp()
    expect((await deployAt(c[0], 'v1')).code).toBe(0)
    // The newer pipeline holds the environment: its deploy stays in progress until the older one waits for it.
    emu.setDeploySeconds(Infinity)
    const requested = answered(emu, 'deploy')
    const newer = deployAt(c[2], 'v3')
    await requested
    const older = startAt(c[1], 'v2')
    await older.logged(/Release waiting: /)
    emu.finishDeploy('production')
    const [newerDone, olderDone] = await Promise.all([newer, older.done])
    expect(newerDone.code).toBe(0)
    expect(olderDone.code).toBe(1)
    expect(olderDone.visible).toMatch(
      /Release waiting: .*a deploy is in progress; waiting for it to finish before deploying .*GitHub Deployment \d+ of commit [0-9a-f]{7} is in_progress/
    )
    expect(olderDone.errors[0]).toContain(`commit ${c[1].slice(0, 7)} is older than ${c[2].slice(0, 7)}`)
    expect(olderDone.outputs).toMatchObject({ order: 'behind', 'running-commit': c[2], deployed: 'false', 'release-state': 'failed' })
    expect(olderDone.summary).toMatch(/\*\*❌ Refused: commit `[0-9a-f]{7}` is older than `[0-9a-f]{7}`, which 'production' runs; nothing was deployed\*\*/)
    expect(ops(emu, 'deploy')).toHaveLength(2)
    expect(running()).toBe(distributionOf(newerDone))
  })

  test('two racing pipelines: the newer one waits for the older, then deploys; the newer commit runs', async () => {
    await setUp()
    // The older pipeline holds the environment: its deploy stays in progress until the newer one waits for it.
    emu.setDeploySeconds(Infinity)
    const requested = answered(emu, 'deploy')
    const older = deployAt(c[1], 'v2')
    await requested
    // The newer one's deploy request is handled once the older run has ended: the older sees its own switch
    // land before anything replaces it (a later look would see the newer deploy, and rightly say "replaced").
    emu.holdRequests('deploy', older)
    const newer = startAt(c[2], 'v3')
    await newer.logged(/Release waiting: /)
    emu.setDeploySeconds(0)
    emu.finishDeploy('production')
    const [olderDone, newerDone] = await Promise.all([older, newer.done])
    expect(olderDone.code).toBe(0)
    expect(olderDone.outputs).toMatchObject({ deployed: 'true', 'release-state': 'verified', 'environment-distribution-id': distributionOf(olderDone) })
    expect(newerDone.code).toBe(0)
    expect(newerDone.visible).toMatch(/Release waiting: .*a deploy is in progress; waiting for it to finish before deploying /)
    expect(newerDone.visible).toContain('checking the deploy order again')
    expect(newerDone.outputs).toMatchObject({ order: 'ahead', 'running-commit': c[1] })
    expect(ops(emu, 'deploy').map((q) => q.status)).toEqual([202, 202])
    expect(running()).toBe(distributionOf(newerDone))
  })

  test('a branch deploy to a shared environment: deploys, with a notice naming both commits', async () => {
    await setUp()
    expect((await deployAt(c[2], 'v3')).code).toBe(0)
    const branch = await deployAt(f1, 'feature', {}, { GITHUB_REF: 'refs/heads/feature' })
    expect(branch.code).toBe(0)
    expect(branch.outputs.order).toBe('diverged')
    expect(branch.visible).toMatch(
      new RegExp(`::notice::Deploy order: commit ${f1.slice(0, 7)} .* and ${c[2].slice(0, 7)}, which 'production' runs .* are on different branches`)
    )
    expect(running()).toBe(distributionOf(branch))
  })

  test('a deploy made from Mission Control in between is named, with who uploaded it', async () => {
    await setUp()
    expect((await deployAt(c[1], 'v2')).code).toBe(0)
    const theirs = await emu.addDistribution('hotfix.tar.gz', { 'version.txt': 'hotfix\n' })
    emu.deployAs('production', theirs, { seconds: 0 })
    expect(running()).toBe(theirs)
    const next = await deployAt(c[3], 'v4')
    expect(next.code).toBe(0)
    expect(next.visible).toMatch(
      new RegExp(
        `::notice::'production' runs ${theirs}, uploaded by someone-else at [0-9T:.-]+Z, which no GitHub Deployment of this repository recorded for 'production' .*deployed outside this action`
      )
    )
    expect(next.outputs.order).toBe('unknown')
    expect(next.outputs['running-commit']).toBeUndefined()
    expect(next.visible).toMatch(/Deploy order not checked: no GitHub Deployment of acme\/site recorded distribution/)
  })

  test('a Mission Control deploy of one of our own distributions: its commit from the distribution name', async () => {
    await setUp()
    // Deployed to development without a token: no GitHub Deployment names it, only its default name.
    const old = await deployAt(c[0], 'v1', { environment: 'development', 'github-token': '' })
    expect(old.outputs['distribution-name']).toBe(`site-${c[0].slice(0, 7)}-distribution.tar.gz`)
    emu.deployAs('production', distributionOf(old) ?? '', { seconds: 0 })
    expect(running()).toBe(distributionOf(old))
    const next = await deployAt(c[4], 'v5')
    expect(next.code).toBe(0)
    expect(next.outputs).toMatchObject({ order: 'ahead', 'running-commit': c[0].slice(0, 7) })
    expect(next.visible).toContain(`from the distribution's name site-${c[0].slice(0, 7)}-distribution.tar.gz`)
  })

  test('a promotion of an older release is refused; with allow-older-commit it goes', async () => {
    await setUp()
    const v1 = await deployAt(c[0], 'v1', { environment: 'acceptance' })
    const v3 = await deployAt(c[2], 'v3')
    expect([v1.code, v3.code]).toEqual([0, 0])
    const promote = { distribution: '', 'from-environment': 'acceptance' }
    const refused = await deployAt(c[4], 'ignored', promote)
    expect(refused.code).toBe(1)
    expect(refused.errors[0]).toContain(`commit ${c[0].slice(0, 7)} is older than ${c[2].slice(0, 7)}, which 'production' runs`)
    expect(refused.outputs.order).toBe('behind')
    expect(ops(emu, 'deploy')).toHaveLength(2)

    const allowed = await deployAt(c[4], 'ignored', { ...promote, 'allow-older-commit': 'true' })
    expect(allowed.code).toBe(0)
    expect(running()).toBe(distributionOf(v1))
    // The production Deployment records the promoted commit, not the run's.
    expect(gh.model.deployments.at(-1)).toMatchObject({ environment: 'production', sha: c[0] })
  })

  test('a compare that fails once is tried again; one that keeps failing refuses before any change, unless allow-unchecked-order', async () => {
    await setUp()
    expect((await deployAt(c[1], 'v2')).code).toBe(0)
    // A blip: the read is tried again, and the order is known.
    gh.fail('compare', { status: 502, times: 1 })
    const next = await deployAt(c[2], 'v3')
    expect(next.code).toBe(0)
    expect(next.outputs.order).toBe('ahead')

    // An outage: the protection asked for cannot be given, so nothing changes.
    gh.fail('compare', { status: 500, times: 3 })
    const uploads = ops(emu, 'upload').length
    const refused = await deployAt(c[3], 'v4')
    expect(refused.code).toBe(1)
    expect(refused.errors[0]).toMatch(
      /^::error::Refused: the deploy order on 'production' could not be checked: Comparing [0-9a-f]{7} with [0-9a-f]{7}: HTTP 500 .*GitHub failed; run again later.*nothing was changed. To deploy while GitHub cannot be read, set allow-unchecked-order: true\./
    )
    expect(refused.summary).toContain("**❌ Refused: the deploy order on 'production' could not be checked (GitHub could not be read); nothing was deployed**")
    expect(refused.outputs.order).toBe('unknown')
    expect(ops(emu, 'upload')).toHaveLength(uploads)
    expect(running()).toBe(distributionOf(next))

    gh.fail('compare', { status: 500, times: 3 })
    const anyway = await deployAt(c[3], 'v4', { 'allow-unchecked-order': 'true' })
    expect(anyway.code).toBe(0)
    expect(anyway.visible).toMatch(
      /::warning::Deploy order not checked: Comparing [0-9a-f]{7} with [0-9a-f]{7}: HTTP 500.*The deploy goes on \(allow-unchecked-order: true\)\./
    )
    expect(anyway.summary).toMatch(/\| Deploy order \| unknown: Comparing/)
    expect(running()).toBe(distributionOf(anyway))
  })

  test('a force-pushed commit (404) is missing evidence and deploys; a token that cannot read is refused, naming the permissions', async () => {
    await setUp()
    expect((await deployAt(c[1], 'v2')).code).toBe(0)
    // GitHub answers 404 for a commit a force-push left unreachable.
    gh.fail('compare', { status: 404, times: 1, body: { message: 'Not Found' } })
    const next = await deployAt(c[4], 'v5')
    expect(next.code).toBe(0)
    expect(next.visible).toMatch(
      /Deploy order not checked: .*HTTP 404 \(Not Found\): GitHub does not know one of the two commits \(a force-push may have removed it\)/
    )
    expect(next.visible).not.toMatch(/::warning::Deploy order not checked/)

    await gh.close()
    gh = await startGitHubStandIn({ tokens: { [TOKEN]: { deployments: 'write', contents: 'none' } } })
    gh.model.linear('main', c)
    const blind = await deployAt(c[3], 'v4')
    expect(blind.code).toBe(1)
    expect(blind.errors[0]).toMatch(
      /could not be checked: .*HTTP 403 \(Resource not accessible by integration\).*github-token lacks a permission \(403\).*deployments: write and contents: read/
    )
    const anyway = await deployAt(c[3], 'v4', { 'allow-unchecked-order': 'true' })
    expect(anyway.code).toBe(0)
    expect(anyway.visible).toMatch(/::warning::Deploy order not checked: .*HTTP 403 \(Resource not accessible by integration\)/)
  })

  test('without github-token the order is not checked, said once, and nothing is asked of GitHub', async () => {
    await setUp()
    const r = await deployAt(c[1], 'v2', { 'github-token': '' })
    expect(r.code).toBe(0)
    expect(r.visible.match(/Deploy order not checked: github-token is not set/g)).toHaveLength(1)
    expect(r.outputs.order).toBe('unknown')
    expect(gh.calls).toEqual([])
  })
})
