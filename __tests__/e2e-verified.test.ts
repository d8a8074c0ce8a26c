// Verified deploys against the bundled action: followed until applied, the site checked, a bad
// release rolled back, promotion without an upload, reuse, skips, config files and a dry run. The
// emulator's switch of a deploy is seen in progress by one look and lands right after it (however slow the
// machine, the step sees every switch), and it serves each environment's distribution as a site.
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import type { DeployReport, EmulatorOptions } from '../src/emulator/types.js'
import { archiveOf, followedFor, ops, opsBefore, run, sweepAndClose, release } from './e2e-support.js'

let emu: Emulator
/** When the platform reports the new distributionId: the whole suite runs in both readings. */
let deployReport: DeployReport = 'when-done'
const start = (options: EmulatorOptions = {}): Promise<Emulator> =>
  startEmulator({ deployLooks: 1, appConfigFiles: ['site.properties', 'logging.properties'], deployReport, ...options })
afterEach(async () => {
  await sweepAndClose(emu, [emu.search.authKey])
})

const base = (over: Record<string, string> = {}) => ({
  'api-url': emu.url,
  username: emu.username,
  password: emu.password,
  environment: 'production',
  ...over
})
const site = (env: string) => `${emu.url}/sites/${env}/version.txt`
const envNamed = (name: string) => emu.environments.find((e) => e.name === name)
const history = (name: string) => (envNamed(name)?.deployments ?? []).map((d) => d.distributionId)

/** Deploys `version` to `env` and returns its distribution id. */
async function deployed(version: string, env = 'production'): Promise<string> {
  const r = await run(base({ distribution: release(version), environment: env, 'health-url': site(env), 'health-expect': version }))
  expect(r.errors).toEqual([])
  expect(r.code).toBe(0)
  return r.outputs['distribution-id'] as string
}

describe.each(['when-done', 'at-request'] as const)('the platform reports the new id %s', (reading) => {
  beforeEach(async () => {
    deployReport = reading
    emu = await start()
  })

  describe('a deploy followed until applied and healthy', () => {
    test('waits for the environment to run the new distribution, then for the site to answer with its version', async () => {
      const r = await run(base({ distribution: release('v1.0.0'), 'health-url': site('production'), 'health-expect': 'v1.0.0' }))
      expect(r.errors).toEqual([])
      expect(r.code).toBe(0)
      const id = r.outputs['distribution-id']
      expect(envNamed('production')?.distributionId).toBe(id)
      expect(envNamed('production')?.deployments[0]?.appliedAt).toBeTruthy()
      // The environment was looked at until it switched, and the site asked until it answered.
      expect(ops(emu, 'list-environments').length).toBeGreaterThanOrEqual(2)
      expect(ops(emu, 'site').at(-1)?.status).toBe(200)
      // Reported when done: the old id (none) while switching; reported at request: the new id, with a status that says it is switching.
      const during = deployReport === 'when-done' ? 'no distribution' : `distribution ${id}`
      expect(r.visible).toContain(`Release in-progress: 'production' reports ${during} (status: deploying); waiting for `)
      // In both readings the status shows the switch: no id is no evidence of one (a restarted platform reports none too).
      expect(r.visible).toMatch(
        new RegExp(
          `Release applied: 'production' reports distribution ${id} \\(status: running\\) after [\\d.]+ (ms|s), after its status said the deploy was in progress`
        )
      )
      expect(r.visible).toMatch(/Health check \d+: http:\/\/127\.0\.0\.1:\d+\/sites\/production\/version\.txt: HTTP 200, contains 'v1\.0\.0'/)
      expect(r.visible).toMatch(
        /::notice::Deployed .* to 'production' on .*; verified: the platform reported the switch, the site answers with the marker; 'production' reports distribution [0-9a-f-]+( \(status: running\))? after the checks\./
      )
      expect(r.outputs).toMatchObject({
        deployed: 'true',
        'rolled-back': 'false',
        'distribution-reused': 'false',
        'release-state': 'verified',
        'environment-distribution-id': id
      })
      expect(r.outputs['previous-distribution-id']).toBeUndefined()
      expect(r.summary).toContain(`**✅ Verified: 'production' runs \`${id}\`**`)
      expect(r.summary).toContain('### Release')
      expect(r.summary).toMatch(/\| [\d.]+ (ms|s) \| applied \| 'production' reports distribution /)
      expect(r.summary).toMatch(/\| [\d.]+ (ms|s) \| healthy \| .* answered 2xx with 'v1\.0\.0' \|/)
    })

    test('follow-deploy: false ends once the platform accepted the request', async () => {
      const r = await run(base({ distribution: release('v1'), 'follow-deploy': 'false' }))
      expect(r.code).toBe(0)
      // Found, looked at once before the request (busy?), and once more when the step ended: not followed.
      expect(opsBefore(emu, 'list-environments', 'deploy')).toHaveLength(2)
      expect(ops(emu, 'list-environments')).toHaveLength(3)
      expect(r.outputs['release-state']).toBe('requested')
      expect(r.summary).not.toContain('| applied |')
      expect(r.summary).toContain('the deploy was not followed (follow-deploy: false)')
    })

    test('a deploy that is not applied in time fails, saying what the environment still runs', async () => {
      await emu.close()
      // A deploy that stays in progress for as long as the test lasts.
      emu = await start({ deploySeconds: Infinity })
      const r = await run(base({ distribution: release('v1'), 'deploy-timeout-minutes': '0.03' }))
      expect(r.code).toBe(1)
      expect(r.errors[0]).toMatch(
        /The switch of 'production' to \S+ was not seen within deploy-timeout-minutes \((\d+ ms|[\d.]+ s)\): it still reports (no distribution|distribution \S+) \(status: deploying\)/
      )
      // The time it followed: the 1.8 s budget less what the request took, which is the machine's speed.
      expect(followedFor(r.errors[0] ?? '')).toBeLessThanOrEqual(1.8)
      expect(r.errors[0]).toMatch(/may still land: rollback is off/)
      expect(r.outputs['release-state']).toBe('failed')
    })
  })

  describe('rollback', () => {
    test('health-expect never met: the previous distribution is deployed back, and the step fails naming both', async () => {
      const v1 = await deployed('v1')
      const r = await run(
        base({
          distribution: release('v2'),
          'health-url': site('production'),
          'health-expect': 'v2-never-written',
          'health-timeout-minutes': '0.02',
          rollback: 'true'
        })
      )
      expect(r.code).toBe(1)
      const v2 = emu.distributions.at(-1)?.id as string
      expect(v2).not.toBe(v1)
      expect(r.errors).toHaveLength(1)
      expect(r.errors[0]).toMatch(
        /^::error::The health check of .* did not pass within health-timeout-minutes.* The site answers, but not with the new release/
      )
      expect(r.errors[0]).toContain(`Rolled back: 'production' runs the previous distribution ${v1} again`)
      expect(r.errors[0]).toContain(`${v2} stays on the stack for inspection`)
      expect(r.errors[0]).toContain(`At the end of the run, 'production' reports distribution ${v1}`)
      expect(envNamed('production')?.distributionId).toBe(v1)
      expect(history('production')).toEqual([v1, v2, v1])
      expect(r.outputs).toMatchObject({
        'rolled-back': 'true',
        deployed: 'true',
        'previous-distribution-id': v1,
        'distribution-id': v2,
        'release-state': 'rollback-healthy',
        'environment-distribution-id': v1
      })
      expect(r.summary).toContain(`**❌ Failed and rolled back: 'production' reports \`${v1}\` at the end**`)
      expect(r.summary).toContain(`**Rollback to \`${v1}\`:** applied, and the site answers`)
      // The site answers the old release again.
      expect(await (await fetch(site('production'))).text()).toBe('v1\n')
    })

    test('a release whose site answers 500: rolled back', async () => {
      const v1 = await deployed('v1')
      const r = await run(base({ distribution: release('v2', true), 'health-url': site('production'), 'health-timeout-minutes': '0.02', rollback: 'true' }))
      expect(r.code).toBe(1)
      expect(r.errors[0]).toMatch(/the last answer: HTTP 500.* Rolled back: 'production' runs the previous distribution/)
      // A 500 is not a missing marker: no hint about health-expect.
      expect(r.errors[0]).not.toMatch(/health-expect into that page/)
      expect(envNamed('production')?.distributionId).toBe(v1)
    })

    test('a failing search check after the deploy: rolled back', async () => {
      const v1 = await deployed('v1')
      const r = await run(
        base({
          distribution: release('v2'),
          rollback: 'true',
          'rollback-on-search': 'true',
          'search-query': 'shirt',
          'search-min-results': '500',
          'search-account-id': emu.search.accountId,
          'search-auth-key': emu.search.authKey,
          'search-domain-key': emu.search.domainKey,
          'search-base-url': emu.url
        })
      )
      expect(r.code).toBe(1)
      expect(r.errors[0]).toMatch(
        /^::error::Search check failed: .*fewer than search-min-results 500.* Rolled back: 'production' reports the previous distribution \S+ again \(seen [\d.]+ (ms|s) after the deploy request\); the site was not checked/
      )
      expect(envNamed('production')?.distributionId).toBe(v1)
      expect(ops(emu, 'search').length).toBeGreaterThanOrEqual(1)
      expect(r.summary).toContain('Search check failed')
    })

    test('with nothing deployed before, it says it cannot roll back', async () => {
      const r = await run(base({ distribution: release('v1', true), 'health-url': site('production'), 'health-timeout-minutes': '0.02', rollback: 'true' }))
      expect(r.code).toBe(1)
      expect(r.errors[0]).toMatch(/Cannot roll back: 'production' reported no other distribution before this deploy, so there is nothing to go back to/)
      expect(history('production')).toHaveLength(1)
    })

    test('without rollback, a failed health check fails the step and the new release stays', async () => {
      await deployed('v1')
      const r = await run(base({ distribution: release('v2', true), 'health-url': site('production'), 'health-timeout-minutes': '0.02' }))
      expect(r.code).toBe(1)
      expect(r.errors[0]).toMatch(/The health check of .* did not pass within health-timeout-minutes/)
      expect(r.errors[0]).toMatch(/stays deployed: rollback is off \(set rollback: true to deploy the previous distribution back when a check fails\)/)
      expect(envNamed('production')?.distributionId).toBe(emu.distributions.at(-1)?.id)
    })
  })

  describe('promotion without an upload', () => {
    test('from-environment: what acceptance runs goes to production', async () => {
      const tested = await deployed('v7', 'acceptance')
      const uploads = ops(emu, 'upload').length
      const r = await run(base({ 'from-environment': 'acceptance', 'health-url': site('production'), 'health-expect': 'v7' }))
      expect(r.errors).toEqual([])
      expect(r.code).toBe(0)
      expect(ops(emu, 'upload')).toHaveLength(uploads)
      expect(envNamed('production')?.distributionId).toBe(tested)
      expect(r.outputs['distribution-id']).toBe(tested)
      // The name is known from the stack, though nothing was uploaded.
      expect(r.outputs['distribution-name']).toBe(emu.distributions.find((d) => d.id === tested)?.name)
    })

    test('distribution-id: checked to exist, deployed, no upload', async () => {
      const id = await deployed('v3', 'development')
      const r = await run(base({ 'distribution-id': id }))
      expect(r.code).toBe(0)
      expect(ops(emu, 'upload')).toHaveLength(1)
      expect(ops(emu, 'get-distribution').map((q) => q.status)).toEqual([200])
      expect(envNamed('production')?.distributionId).toBe(id)
    })

    test('an unknown distribution-id, or an environment that runs nothing, fails before any change', async () => {
      const a = await run(base({ 'distribution-id': 'no-such-id' }))
      expect(a.code).toBe(1)
      expect(a.errors[0]).toMatch(/distribution-id 'no-such-id' does not exist on /)
      const b = await run(base({ 'from-environment': 'acceptance' }))
      expect(b.code).toBe(1)
      expect(b.errors[0]).toMatch(/from-environment 'acceptance' runs no distribution/)
      expect(ops(emu, 'deploy')).toEqual([])
    })
  })

  describe('no repeated work', () => {
    test('an identical archive is reused; the environment already running it is skipped, and force-deploy deploys it again', async () => {
      const archive = archiveOf(release('v1'), 'site-1.0.tar.gz')
      const first = await run(base({ distribution: archive, environment: 'development' }))
      expect(first.code).toBe(0)
      expect(first.outputs['distribution-reused']).toBe('false')

      const again = await run(base({ distribution: archive, environment: 'development' }))
      expect(again.code).toBe(0)
      expect(ops(emu, 'upload')).toHaveLength(1)
      expect(again.outputs).toMatchObject({ 'distribution-reused': 'true', deployed: 'false', 'distribution-id': first.outputs['distribution-id'] })
      expect(again.visible).toMatch(/::notice::'development' already runs site-1\.0\.tar\.gz .*nothing deployed\. Set force-deploy: true/)
      expect(history('development')).toHaveLength(1)

      const forced = await run(base({ distribution: archive, environment: 'development', 'force-deploy': 'true' }))
      expect(forced.code).toBe(0)
      expect(forced.outputs).toMatchObject({ 'distribution-reused': 'true', deployed: 'true' })
      expect(history('development')).toHaveLength(2)
      expect(ops(emu, 'upload')).toHaveLength(1)
    })
  })

  describe('config files', () => {
    test('known names are sent as appConfigFileRoles with role systemproperty', async () => {
      const r = await run(base({ distribution: release('v1'), 'config-files': 'site.properties\nlogging.properties' }))
      expect(r.errors).toEqual([])
      expect(r.code).toBe(0)
      const ids = ['site.properties', 'logging.properties'].map((n) => emu.appConfigFiles.find((f) => f.name === n)?.id)
      expect(ops(emu, 'deploy')[0]?.json).toMatchObject({
        appConfigFileRoles: [
          { appConfigFileId: ids[0], role: 'systemproperty' },
          { appConfigFileId: ids[1], role: 'systemproperty' }
        ]
      })
    })

    test('an unknown name fails before any change, listing the names there', async () => {
      const r = await run(base({ distribution: release('v1'), 'config-files': 'site.properties, nope.properties' }))
      expect(r.code).toBe(1)
      expect(r.errors[0]).toMatch(/config-files names 'nope\.properties', which does not exist .*'site\.properties', 'logging\.properties'/)
      expect(ops(emu, 'upload')).toEqual([])
      expect(ops(emu, 'deploy')).toEqual([])
    })
  })

  describe('dry run', () => {
    test('says what each step would do and changes nothing', async () => {
      const v1 = await deployed('v1')
      const deploys = ops(emu, 'deploy').length
      const r = await run(
        base({
          distribution: release('v2'),
          'dry-run': 'true',
          rollback: 'true',
          'config-files': 'site.properties',
          'health-url': site('production'),
          'health-expect': 'v2'
        })
      )
      expect(r.errors).toEqual([])
      expect(r.code).toBe(0)
      expect(ops(emu, 'deploy')).toHaveLength(deploys)
      expect(ops(emu, 'upload')).toHaveLength(1)
      const notice = r.visible.split('\n').find((l) => l.startsWith('::notice::Dry run')) ?? ''
      expect(notice).toMatch(
        /^::notice::Dry run: would upload .* and deploy it to 'production' .*Nothing was changed\. The whole plan: the log above, and the job summary\.$/
      )
      // The plan is said once in the log, as it is made (the notice points at it), and again in the summary.
      const plan = [
        /No distribution named .* with this MD5 on the stack: would upload it\./,
        /Would deploy the uploaded distribution to 'production' .* with config files 'site\.properties'/,
        new RegExp(`Would roll back to ${v1} if the new release fails its checks\\.`),
        /Would check .*version\.txt until it answers 2xx containing 'v2'/
      ]
      for (const line of plan) {
        expect(r.visible.split('\n').filter((l) => line.test(l))).toHaveLength(1)
        expect(r.summary).toMatch(line)
      }
      expect(r.summary).toContain('### What the run would do')
    })
  })
})
