// The release as a state machine, against the bundled action: the twelve ways a deploy step could
// report what did not happen (issue 15), each in both platform readings where the reading matters:
// the environment reports the new distributionId when the switch is done ('when-done'), or as soon as
// the deploy is requested while the site keeps serving the old release ('at-request').
// Where a case needs a switch seen in progress, a deploy lands after one look at it (deployLooks: 1), and where it
// needs a deploy in progress while the step does something, the deploy stays in progress until the test lands it
// (finishDeploy) on an event of the step: the order of events is the test's, whatever the machine's speed.
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import type { EmulatorOptions } from '../src/emulator/types.js'
import { archiveOf, followedFor, ops, run, start, sweepAndClose, release } from './e2e-support.js'

let emu: Emulator | undefined
afterEach(async () => {
  if (emu) await sweepAndClose(emu, [emu.search.authKey])
  emu = undefined
})

async function emulator(options: EmulatorOptions): Promise<Emulator> {
  emu = await startEmulator({ appConfigFiles: ['site.properties'], ...options })
  return emu
}

function current(): Emulator {
  if (!emu) throw new Error('no emulator')
  return emu
}
const base = (over: Record<string, string> = {}) => ({
  'api-url': current().url,
  username: current().username,
  password: current().password,
  environment: 'production',
  ...over
})
const site = (env = 'production') => `${current().url}/sites/${env}/version.txt`
const envNamed = (name = 'production') => current().environments.find((e) => e.name === name)
const history = (name = 'production') => (envNamed(name)?.deployments ?? []).map((d) => d.distributionId)
const siteText = async (env = 'production') => (await fetch(site(env))).text()

/** Deploys `version` to `env`, verified, and returns its distribution id. */
async function deployed(version: string, env = 'production'): Promise<string> {
  const r = await run(base({ distribution: release(version), environment: env, 'health-url': site(env), 'health-expect': version }))
  expect(r.errors).toEqual([])
  expect(r.code).toBe(0)
  return r.outputs['distribution-id'] as string
}

const readings = ['when-done', 'at-request'] as const

describe.each(readings)('the platform reports the new id %s', (deployReport) => {
  test('1. someone else deploys while our release is checked: the step fails at once, names what runs, never rolls back', async () => {
    await emulator({ deployReport, deployLooks: 1 })
    const v1 = await deployed('v1')
    const theirs = await current().addDistribution('theirs.tar.gz', { 'version.txt': 'v3\n' })
    // The first health check of our release: someone else's deploy starts.
    current().onRequest('site', () => current().deployAs('production', theirs, { seconds: 0.2 }), { times: 1 })
    const r = await run(
      base({ distribution: release('v2'), 'health-url': site(), 'health-expect': 'v2-never-written', 'health-timeout-minutes': '0.04', rollback: 'true' })
    )
    const v2 = r.outputs['distribution-id'] as string
    expect(r.code).toBe(1)
    expect(history()).toEqual([v1, v2, theirs])
    expect(r.errors[0]).toMatch(new RegExp(`'production' reports distribution ${theirs}.*neither ${v2} nor ${v1}`))
    expect(r.errors[0]).toContain('This run never rolls back another deploy, so nothing was rolled back.')
    expect(r.errors[0]).toContain(`At the end of the run, 'production' reports distribution ${theirs}`)
    expect(r.outputs).toMatchObject({ 'release-state': 'replaced', 'rolled-back': 'false', 'environment-distribution-id': theirs })
    expect(r.summary).toContain(`**❌ Replaced by another deploy: 'production' reports \`${theirs}\` at the end; nothing was rolled back**`)
  })

  test('2. a lost answer to the deploy call: reconciled, exactly one deploy lands, then followed and checked', async () => {
    await emulator({ deployReport, deployLooks: 1, faults: [{ operation: 'deploy', kind: 'drop-after-apply', times: 1 }] })
    const r = await run(base({ distribution: release('v1'), 'health-url': site(), 'health-expect': 'v1' }))
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const id = r.outputs['distribution-id']
    expect(history()).toEqual([id])
    // A replay that met our own deploy in progress got 409; it was never sent as a second deploy.
    expect(ops(current(), 'deploy').filter((q) => q.status === 202)).toHaveLength(0)
    expect(r.outputs).toMatchObject({ deployed: 'true', 'release-state': 'verified', 'environment-distribution-id': id })
    expect(r.visible).toMatch(/Release requested: the deploy call's answer was lost, but 'production' showed it had been carried out: adopted, not sent again/)
    expect(await siteText()).toBe('v1\n')
  })

  test("3. an environment busy with someone else's deploy: the step waits its turn, then deploys", async () => {
    await emulator({ deployReport })
    const theirs = await current().addDistribution('theirs.tar.gz', { 'version.txt': 'v0\n' })
    // Their deploy is in progress until the step says it waits for it.
    current().deployAs('production', theirs, { seconds: Infinity })
    const step = start(base({ distribution: release('v1'), 'health-url': site(), 'health-expect': 'v1' }))
    await step.logged(/Release waiting: /)
    current().finishDeploy('production')
    const r = await step.done
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const id = r.outputs['distribution-id'] as string
    expect(history()).toEqual([theirs, id])
    expect(r.visible).toMatch(/Release waiting: .*a deploy is in progress; waiting for it to finish before deploying/)
    expect(r.outputs).toMatchObject({ 'release-state': 'verified', 'previous-distribution-id': theirs })
  })

  test('4. a forced redeploy of what runs never claims an applied time it did not see', async () => {
    await emulator({ deployReport, deployLooks: 1 })
    const archive = archiveOf(release('v1'), 'site-1.0.tar.gz')
    expect((await run(base({ distribution: archive }))).code).toBe(0)
    const r = await run(base({ distribution: archive, 'force-deploy': 'true' }))
    expect(r.code).toBe(0)
    expect(history()).toHaveLength(2)
    expect(r.visible).not.toMatch(/applied after/)
    // The status field went from deploying to running: that, not the id, is the evidence.
    expect(r.visible).toMatch(
      /Release applied: 'production' reports distribution \S+ \(status: running\) after [\d.]+ (ms|s), after its status said the deploy was in progress/
    )
  })

  test('5. the id alone is not proof: with health-expect the check waits for the new release; without, it says it cannot tell', async () => {
    await emulator({ deployReport, deployLooks: 1, siteDuringDeploy: 'old' })
    await deployed('v1')
    const marked = await run(base({ distribution: release('v2'), 'health-url': site(), 'health-expect': 'v2' }))
    expect(marked.code).toBe(0)
    expect(marked.outputs['release-state']).toBe('verified')
    expect(await siteText()).toBe('v2\n')
    const unmarked = await run(base({ distribution: release('v3'), 'health-url': site() }))
    expect(unmarked.code).toBe(0)
    expect(unmarked.visible).toMatch(/::warning::The health check cannot tell the new release from the old one.*set health-expect to it/)
    expect(unmarked.summary).toContain('⚠️ The health check cannot tell the new release from the old one')
  })

  test('6. a rollback applied whose old release is unhealthy too: rolled-back is true, and the state says the rest', async () => {
    await emulator({ deployReport, deployLooks: 1 })
    const v1 = (await run(base({ distribution: release('v1', true) }))).outputs['distribution-id'] as string
    const r = await run(base({ distribution: release('v2', true), 'health-url': site(), 'health-timeout-minutes': '0.03', rollback: 'true' }))
    expect(r.code).toBe(1)
    expect(envNamed()?.distributionId).toBe(v1)
    expect(r.outputs).toMatchObject({ 'rolled-back': 'true', 'release-state': 'rollback-failed', 'environment-distribution-id': v1 })
    expect(r.errors[0]).toMatch(
      new RegExp(
        `Rolled back: 'production' reports the previous distribution ${v1} again \\(seen [\\d.]+ (ms|s) after the deploy request\\), but its site does not answer either: .*HTTP 500`
      )
    )
  })

  test('8. not applied in time, then rollback: it waits for the deploy in progress, then rolls back; no 409, nothing unchecked lands', async () => {
    await emulator({ deployReport, deployLooks: 1 })
    const v1 = await deployed('v1')
    // Our deploy stays in progress until the step has given up following it and waits to roll back; the rollback after it is quick.
    current().setDeploySeconds(Infinity)
    const step = start(base({ distribution: release('v2'), 'deploy-timeout-minutes': '0.05', rollback: 'true' }))
    await step.logged(/may still land; waiting for it before rolling back/)
    current().setDeploySeconds(0)
    current().finishDeploy('production')
    const r = await step.done
    const v2 = r.outputs['distribution-id'] as string
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(
      new RegExp(
        `The switch of 'production' to ${v2} was not seen within deploy-timeout-minutes \\((\\d+ ms|[\\d.]+ s)\\).* Rolled back: 'production' reports the previous distribution ${v1} again`
      )
    )
    // The time it followed: the 3 s budget less what the request took, which is the machine's speed.
    expect(followedFor(r.errors[0] ?? '')).toBeLessThanOrEqual(3)
    expect(ops(current(), 'deploy').map((q) => q.status)).not.toContain(409)
    expect(history()).toEqual([v1, v2, v1])
    // Nothing is switching any more, so nothing unchecked can land after the step.
    expect(envNamed()).toMatchObject({ distributionId: v1, status: 'running' })
    expect(r.outputs).toMatchObject({ 'rolled-back': 'true', 'environment-distribution-id': v1 })
  })

  test('11. a re-run with config-files deploys again what runs, since its config cannot be read back', async () => {
    await emulator({ deployReport })
    const archive = archiveOf(release('v1'), 'site-1.0.tar.gz')
    expect((await run(base({ distribution: archive }))).code).toBe(0)
    const r = await run(base({ distribution: archive, 'config-files': 'site.properties' }))
    expect(r.code).toBe(0)
    expect(history()).toHaveLength(2)
    expect(ops(current(), 'deploy').at(-1)?.json).toMatchObject({ appConfigFileRoles: [{ role: 'systemproperty' }] })
    expect(r.visible).toMatch(/already runs \S+; deploying it again because config-files are given/)
  })

  test('12. a failing search check fails the step but rolls back only with rollback-on-search', async () => {
    // A switch seen in progress, as on the platform: a rollback counts as applied only once its switch was seen.
    await emulator({ deployReport, deployLooks: 1 })
    const v1 = await deployed('v1')
    const search = {
      'search-query': 'shirt',
      'search-min-results': '500',
      'search-account-id': current().search.accountId,
      'search-auth-key': current().search.authKey,
      'search-domain-key': current().search.domainKey,
      'search-base-url': current().url
    }
    const r = await run(base({ distribution: release('v2'), rollback: 'true', ...search }))
    expect(r.code).toBe(1)
    expect(envNamed()?.distributionId).toBe(r.outputs['distribution-id'])
    expect(r.outputs).toMatchObject({ 'rolled-back': 'false', 'release-state': 'failed' })
    expect(r.errors[0]).toMatch(/The search service is a separate system, so the release was not rolled back \(set rollback-on-search: true/)
    const back = await run(base({ distribution: release('v3'), rollback: 'true', 'rollback-on-search': 'true', ...search }))
    expect(back.code).toBe(1)
    expect(back.outputs['rolled-back']).toBe('true')
    expect(envNamed()?.distributionId).not.toBe(v1)
  })
})

describe('without the status field (the platform documents none)', () => {
  test.each(readings)('3. busy at start, %s: the 409 tells, the step waits its turn', async (deployReport) => {
    await emulator({ deployReport, environmentStatus: false })
    const theirs = await current().addDistribution('theirs.tar.gz', { 'version.txt': 'v0\n' })
    // Their deploy is in progress until our deploy call met it (409).
    current().deployAs('production', theirs, { seconds: Infinity })
    current().onRequest('deploy', () => current().finishDeploy('production'))
    const r = await run(base({ distribution: release('v1'), 'health-url': site(), 'health-expect': 'v1' }))
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(history()).toEqual([theirs, r.outputs['distribution-id']])
    expect(ops(current(), 'deploy').map((q) => q.status)).toContain(409)
    expect(r.visible).toMatch(/the platform answered HTTP 409 DeploymentInProgress: a deploy is in progress on 'production'/)
  })

  test.each(readings)('4. a forced redeploy, %s: nothing shows the switch, and the step says so', async (deployReport) => {
    await emulator({ deployReport, environmentStatus: false, deploySeconds: 0.3 })
    const archive = archiveOf(release('v1'), 'site-1.0.tar.gz')
    expect((await run(base({ distribution: archive }))).code).toBe(0)
    const r = await run(base({ distribution: archive, 'force-deploy': 'true' }))
    expect(r.code).toBe(0)
    expect(r.outputs['release-state']).toBe('reported')
    expect(r.visible).toMatch(/::warning::'production' reports distribution \S+ from the first look on: .* The switch itself was not seen: set health-url/)
    expect(r.summary).toContain('**Not verified:** the switch was not seen')
  })

  test('2. a lost answer, reported when done: never sent again; followed until ours shows, and adopted', async () => {
    await emulator({
      deployReport: 'when-done',
      environmentStatus: false,
      // The call's answer is lost; its deploy lands after two looks saw it in progress (the old id, no status).
      deployLooks: 2,
      faults: [{ operation: 'deploy', kind: 'drop-after-apply', times: 1 }]
    })
    const r = await run(base({ distribution: release('v1'), 'health-url': site(), 'health-expect': 'v1' }))
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(history()).toEqual([r.outputs['distribution-id']])
    // One call: a call that may have reached the platform is never replayed (no look could show it was not carried out).
    expect(ops(current(), 'deploy')).toHaveLength(1)
    expect(r.visible).toMatch(/adopted, not sent again/)
  })
})

describe('housekeeping and budgets', () => {
  test('7. total-timeout-minutes too small for the budgets is refused before any request, with the numbers', async () => {
    await emulator({})
    const r = await run(base({ distribution: release('v1'), 'health-url': site(), rollback: 'true', 'total-timeout-minutes': '30' }))
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/total-timeout-minutes \(30\) cannot hold the run's own budgets: .* = 65 min, so the watchdog would cut a rollback short/)
    expect(current().requests).toEqual([])
  })

  test('7. a rollback whose deploy call never answers ends within its own budget, saying it may have been carried out', async () => {
    // The watchdog firing mid-rollback is a shape of the simulation (simulation.test.ts); here the call is cut at the budget's end.
    await emulator({ deployLooks: 1, faults: [{ operation: 'deploy', kind: 'hang', times: 1, skip: 2 }] })
    await deployed('v1')
    const r = await run(
      base({
        distribution: release('v2', true),
        'health-url': site(),
        'health-timeout-minutes': '0.02',
        'deploy-timeout-minutes': '0.03',
        rollback: 'true',
        'total-timeout-minutes': '0.3'
      })
    )
    expect(r.code).toBe(1)
    expect(r.errors[0]).not.toMatch(/total-timeout-minutes/)
    expect(r.errors[0]).toMatch(
      /The rollback to \S+ may have been carried out: the deploy call of \S+ got no usable answer \(.*\): it may have been carried out; it was not seen applied\./
    )
    expect(r.outputs).toMatchObject({ deployed: 'true', 'rolled-back': 'unknown', 'release-state': 'rollback-failed' })
  })

  test('9. pruning skips a distribution the platform will not delete (409) and goes on; the deploy succeeds', async () => {
    await emulator({ faults: [{ operation: 'delete-distribution', kind: 'status', status: 409, times: 1 }] })
    for (const v of ['a', 'b', 'c', 'd']) await deployed(v, 'development')
    // Earlier runs' uploads: older than the hour in which pruning keeps another job's fresh upload.
    for (const d of current().distributions) d.createdAt = new Date(Date.parse(d.createdAt) - 2 * 3600_000).toISOString()
    const r = await run(base({ distribution: release('v1'), 'max-distributions': '2' }))
    expect(r.code).toBe(0)
    // Said as it happens; the one warning comes because the refused one, with the one development runs and the one
    // stored before it (what ran there before: its likely previous), leaves the stack above 2.
    expect(r.visible).toMatch(
      /\nPruning: the platform did not delete distribution \S+ .*the platform says it is in use \(HTTP 409\)\. Pruning goes on with the next oldest\./
    )
    expect(r.visible).toMatch(
      /::warning::max-distributions=2 could not be kept: the stack holds 3 distributions \(1 deleted\), 4 with this upload\. None of the others may go: 1 runs on an environment, 1 is the previous distribution of an environment \(a likely rollback target\)\. The platform did not delete 1 \(\S+\), said above\./
    )
    expect(ops(current(), 'delete-distribution').map((q) => q.status)).toEqual([409, 204])
    expect(r.outputs['pruned-distributions']).toBe('1')
  })

  test('10. an upper-case md5hash still finds the identical stored archive (reuse, and adoption after a lost upload)', async () => {
    await emulator({ md5Case: 'upper', faults: [{ operation: 'upload', kind: 'drop-after-upload', times: 1 }] })
    const archive = archiveOf(release('v1'), 'site-1.0.tar.gz')
    const first = await run(base({ distribution: archive, environment: '' }))
    expect(first.code).toBe(0)
    expect(first.visible).toMatch(/adopting distribution/)
    const again = await run(base({ distribution: archive, environment: '' }))
    expect(again.outputs['distribution-reused']).toBe('true')
    expect(current().distributions).toHaveLength(1)
  })
})
