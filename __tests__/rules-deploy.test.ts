// The release rules in the deploy step (src/rules/gate.ts in src/deploy/index.ts), in-process against the emulator and
// the GitHub stand-in over real HTTP: a rule that refuses changes nothing (no upload, no deploy, no Deployment), says
// why and how to go on; override-reason lets the deploy go on and is on the record (the result, the Deployment).
import { useTestPort } from './test-port.js'
import { startEmulator, type Emulator, type RecordedRequest } from '../src/emulator/server.js'
import { DEFAULT_GITHUB_TOKEN, fakeSha, startGitHubStandIn } from '../src/emulator/github/server.js'
import { runOfAcmeSite } from './github-run.js'
import { runDeploy } from './deploy-run.js'

// GitHub's clock is the test's: the soak gate reads the times of the statuses it dated.
let githubNow = Date.now()
const standIn = await startGitHubStandIn({ owner: 'acme', repo: 'site', now: () => githubNow })
const SHA = standIn.model.commit(fakeSha('rules-deploy'))
runOfAcmeSite(standIn.url, SHA, { GITHUB_RUN_ID: '91', GITHUB_STATE: '/dev/null' })

const lines: Array<{ kind: string; text: string }> = []
useTestPort({
  info: (text: string) => lines.push({ kind: 'info', text }),
  warning: (text: string) => lines.push({ kind: 'warning', text }),
  notice: (text: string) => lines.push({ kind: 'notice', text }),
  debug: () => undefined,
  setSecret: () => undefined,
  getInput: () => '',
  isDebug: () => false,
  saveState: () => undefined,
  getState: () => ''
})
const { RuleRefused } = await import('../src/rules/gate.js')
const { exitCode, EXIT } = await import('../src/cli/exit-codes.js')
const { headline, summaryMarkdown } = await import('../src/report.js')

let emu: Emulator
afterEach(async () => {
  await emu?.close()
})
afterAll(async () => {
  await standIn.close()
})
beforeEach(() => {
  lines.length = 0
  standIn.calls.length = 0
  githubNow = Date.now()
})

const ops = (op: string): RecordedRequest[] => emu.requests.filter((r) => r.operation === op)
const changes = (): string[] => emu.requests.filter((r) => ['upload', 'delete-distribution', 'deploy'].includes(r.operation)).map((r) => r.operation)
const warnings = (): string[] => lines.filter((l) => l.kind === 'warning').map((l) => l.text)
const envId = (name: string): string => emu.environments.find((e) => e.name === name)?.id ?? '?'
const HOUR = 3_600_000

/** The environment's backups: one per age in hours (none: an empty list). */
function backupsOf(environment: string, ...ages: number[]): void {
  const id = envId(environment)
  emu.backups.splice(0, emu.backups.length, ...emu.backups.filter((b) => b.environmentId !== id))
  ages.forEach((age, i) => emu.backups.push({ id: `bk-${environment}-${i}`, environmentId: id, createdAt: new Date(Date.now() - age * HOUR).toISOString() }))
}

/** A promotion from acceptance: what it runs is the distribution deployed. */
async function promotion(options?: Parameters<typeof startEmulator>[0]): Promise<string> {
  emu = await startEmulator(options)
  const id = await emu.addDistribution('accepted-2.0-distribution.tar.gz', { 'version.txt': 'a\n' })
  emu.deployAs('acceptance', id)
  return id
}

const promote = { 'from-environment': 'acceptance', environment: 'production' }
const runEnding = (outcome: Awaited<ReturnType<typeof runDeploy>>) => ({
  result: { error: String(outcome.error), deploy: outcome.result, deploys: true, phases: [] },
  failure: outcome.error
})

describe('require-backup-hours', () => {
  test('no backup at all: refused before any change, naming it, with the fix and the override', async () => {
    await promotion()
    backupsOf('production')
    const outcome = await runDeploy(emu, { ...promote, 'require-backup-hours': '24' })
    expect(outcome.error).toBeInstanceOf(RuleRefused)
    expect((outcome.error as Error).message).toBe(
      "Refused: require-backup-hours: 24: the stack lists no backup of 'production', so nothing was changed. Take a backup of 'production' in Mission Control first, " +
        'or set override-reason to say why this deploy cannot wait (the reason is recorded in the GitHub Deployment, the summary and every event).'
    )
    expect(ops('list-backups')).toHaveLength(1)
    expect(changes()).toEqual([])
    expect(outcome.result.rules).toEqual({ backup: { requiredHours: 24, passed: false }, refusedBy: 'backup' })
    expect(outcome.phases).toContain("Check the backups of 'production'")
    expect(exitCode(runEnding(outcome) as never)).toBe(EXIT.ruleRefused)
    expect(headline(runEnding(outcome).result as never)).toBe(
      "❌ Refused: no backup of 'production' is listed (require-backup-hours: 24); nothing was deployed"
    )
  })

  test('only an old one (and a newer one of another environment): refused, naming the newest and its age', async () => {
    await promotion()
    backupsOf('production', 30, 50)
    backupsOf('acceptance', 1)
    const outcome = await runDeploy(emu, { ...promote, 'require-backup-hours': '24' })
    const backup = emu.backups.find((b) => b.id === 'bk-production-0')
    expect((outcome.error as Error).message).toBe(
      `Refused: require-backup-hours: 24: the newest backup of 'production' is bk-production-0, taken ${backup?.createdAt} (30 hours ago), not younger than 24 hours, so nothing was changed. ` +
        "Take a backup of 'production' in Mission Control first, or set override-reason to say why this deploy cannot wait (the reason is recorded in the GitHub Deployment, the summary and every event)."
    )
    expect(changes()).toEqual([])
    expect(outcome.result.rules?.backup).toEqual({ requiredHours: 24, id: 'bk-production-0', createdAt: backup?.createdAt, ageHours: 30, passed: false })
  })

  test('a fresh one: deployed, the backup named in the log and the result', async () => {
    const id = await promotion()
    backupsOf('production', 2)
    const outcome = await runDeploy(emu, { ...promote, 'require-backup-hours': '24' })
    expect(outcome.error).toBeUndefined()
    expect(ops('deploy').map((d) => d.json)).toEqual([{ distributionId: id, strategy: 'stopstart' }])
    expect(outcome.result.rules?.backup).toMatchObject({ id: 'bk-production-0', ageHours: 2, passed: true })
    expect(lines).toContainEqual({
      kind: 'info',
      text: expect.stringMatching(
        /^Backup: the newest backup of 'production' is bk-production-0, taken \S+ \(2 hours ago\), within require-backup-hours: 24\.$/
      )
    })
  })

  test('the listing fails: nothing proves a backup, so refused', async () => {
    await promotion()
    emu.addFault({ operation: 'list-backups', kind: 'status', status: 503, times: 10 })
    const outcome = await runDeploy(emu, { ...promote, 'require-backup-hours': '24', 'max-attempts': '2' })
    expect((outcome.error as Error).message).toMatch(
      /^Refused: require-backup-hours: 24: the backups of 'production' could not be listed \(.+\), so nothing was changed\. Run again once the stack answers, or set override-reason/
    )
    expect(ops('list-backups')).toHaveLength(2)
    expect(changes()).toEqual([])
    // Nothing was listed, so the record, the headline and the summary say so, never "none listed".
    expect(outcome.result.rules).toEqual({
      backup: { requiredHours: 24, passed: false, listingFailed: expect.stringMatching(/503/) },
      refusedBy: 'backup'
    })
    const ending = runEnding(outcome).result as never
    expect(headline(ending)).toBe("❌ Refused: the backups of 'production' could not be listed (require-backup-hours: 24); nothing was deployed")
    const backupRow = summaryMarkdown(ending)
      .split('\n')
      .find((l) => l.startsWith('| Backup |'))
    expect(backupRow).toMatch(/^\| Backup \| could not be listed \(.*503.*\), younger than 24 hours required \|$/)
  })

  test('a listing that gets no answer in time: "could not be listed", a refusal by the rule (exit 10), or overridden', async () => {
    await promotion()
    emu.addFault({ operation: 'list-backups', kind: 'hang', times: 2 })
    const settings = { ...promote, 'require-backup-hours': '24', 'max-attempts': '1', 'request-timeout-seconds': '1' }
    const refused = await runDeploy(emu, settings)
    expect(refused.error).toBeInstanceOf(RuleRefused)
    expect((refused.error as Error).message).toMatch(
      /^Refused: require-backup-hours: 24: the backups of 'production' could not be listed \(.+\), so nothing was changed\./
    )
    expect(exitCode(runEnding(refused) as never)).toBe(EXIT.ruleRefused)
    expect(changes()).toEqual([])
    const overridden = await runDeploy(emu, { ...settings, 'override-reason': 'the backup service is down, INC-9' })
    expect(overridden.error).toBeUndefined()
    expect(overridden.result.rules).toEqual({
      backup: { requiredHours: 24, passed: false, listingFailed: expect.any(String) },
      override: { reason: 'the backup service is down, INC-9', overrode: ['backup'] }
    })
    expect(ops('deploy')).toHaveLength(1)
  })

  test('a token the stack no longer takes while listing: a failure of the login, not of the rule (found by a fresh seed)', async () => {
    await promotion()
    emu.addFault({ operation: 'list-backups', kind: 'status', status: 401, times: 5 })
    const outcome = await runDeploy(emu, { ...promote, 'require-backup-hours': '24' })
    expect(outcome.error).not.toBeInstanceOf(RuleRefused)
    expect((outcome.error as Error).message).toMatch(/Listing backups failed: HTTP 401/)
    expect(outcome.result.rules).toEqual({})
    expect(changes()).toEqual([])
  })

  test('an access-token the stack no longer takes while listing (not renewable): the login failure, not a refusal by the rule (fresh seed 512337726)', async () => {
    await promotion({ tokenLifetimeSeconds: 7_200 })
    const answer = await fetch(`${emu.url}/v3/authn/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: emu.username, password: emu.password })
    })
    const token = ((await answer.json()) as { access_token: string }).access_token
    backupsOf('production', 1)
    emu.addFault({ operation: 'list-backups', kind: 'status', status: 401, times: 5 })
    const outcome = await runDeploy(emu, { ...promote, username: '', password: '', 'access-token': token, 'require-backup-hours': '24' })
    expect(outcome.error).not.toBeInstanceOf(RuleRefused)
    expect((outcome.error as Error).message).toMatch(/^Listing backups failed: The token is refused or due, and it is not renewed\./)
    // Nothing was listed, so nothing is claimed of the backups: no finding, no refusal by the rule.
    expect(outcome.result.rules).toEqual({})
    expect(changes()).toEqual([])
  })

  test('override-reason: deployed all the same; the override is a warning, in the result and on the GitHub Deployment', async () => {
    const id = await promotion()
    backupsOf('production')
    const reason = 'hotfix for INC-42, approved by Ann'
    const outcome = await runDeploy(emu, {
      ...promote,
      'require-backup-hours': '24',
      'override-reason': reason,
      'github-token': DEFAULT_GITHUB_TOKEN,
      'allow-unchecked-order': 'true'
    })
    expect(outcome.error).toBeUndefined()
    expect(ops('deploy').map((d) => d.json)).toEqual([{ distributionId: id, strategy: 'stopstart' }])
    expect(outcome.result.rules).toEqual({ backup: { requiredHours: 24, passed: false }, override: { reason, overrode: ['backup'] } })
    expect(warnings()).toContain(
      `override-reason overrides the backup rule: require-backup-hours: 24: the stack lists no backup of 'production'. Reason given: "${reason}".`
    )
    const deployment = standIn.model.deployments.at(-1)
    expect(deployment?.payload).toMatchObject({ distributionId: id, override: { reason, overrode: ['backup'] } })
    expect(deployment?.description).toBe(`accepted-2.0-distribution.tar.gz to ${emu.url}; override: ${reason}`)
    expect(outcome.result.cautions).toContain(
      `override-reason overrides the backup rule: require-backup-hours: 24: the stack lists no backup of 'production'. Reason given: "${reason}".`
    )
  })
})

describe('the soak gate', () => {
  /** A Deployment of acceptance that recorded `distributionId`, its statuses at these minutes ago. */
  function recorded(distributionId: string, statuses: Array<[state: 'in_progress' | 'success' | 'failure', minutesAgo: number]>, previous?: string): number {
    const now = Date.now()
    githubNow = now - (statuses[0]?.[1] ?? 0) * 60_000
    const d = standIn.model.addDeployment({
      ref: SHA,
      environment: 'acceptance',
      payload: { distributionId, apiUrl: emu.url, previousDistributionId: previous }
    })
    for (const [state, ago] of statuses) {
      githubNow = now - ago * 60_000
      standIn.model.addStatus(d.id, { state })
    }
    githubNow = now
    return d.id
  }
  const gate = {
    ...promote,
    'github-token': DEFAULT_GITHUB_TOKEN,
    'allow-unchecked-order': 'true',
    'require-verified-in': 'acceptance',
    'require-soak-minutes': '60'
  }

  test('verified 20 minutes ago: refused before any change, saying from when it is allowed', async () => {
    const id = await promotion()
    const dep = recorded(id, [
      ['in_progress', 25],
      ['success', 20]
    ])
    const before = standIn.model.deployments.length
    const outcome = await runDeploy(emu, gate)
    expect(outcome.error).toBeInstanceOf(RuleRefused)
    const soak = outcome.result.rules?.soak
    expect(soak).toMatchObject({ environment: 'acceptance', requiredMinutes: 60, passed: false, soakedMinutes: 20, deploymentId: dep })
    expect((outcome.error as Error).message).toBe(
      `Refused: the soak gate (require-verified-in: acceptance, require-soak-minutes: 60): ${id} has been verified in 'acceptance' since ${soak?.verifiedSince}: 20 of the 60 minute(s) required; it is allowed from ${soak?.allowedAt}, ` +
        `so nothing was changed. Run again from ${soak?.allowedAt}, or set override-reason to say why this deploy cannot wait (the reason is recorded in the GitHub Deployment, the summary and every event).`
    )
    expect(changes()).toEqual([])
    expect(standIn.model.deployments).toHaveLength(before)
    expect(exitCode(runEnding(outcome) as never)).toBe(EXIT.ruleRefused)
  })

  test('verified 90 minutes ago: deployed, the clock in the log', async () => {
    const id = await promotion()
    recorded(id, [['success', 90]])
    const outcome = await runDeploy(emu, gate)
    expect(outcome.error).toBeUndefined()
    expect(ops('deploy').map((d) => d.json)).toEqual([{ distributionId: id, strategy: 'stopstart' }])
    expect(outcome.result.rules?.soak).toMatchObject({ passed: true, soakedMinutes: 90 })
    expect(lines).toContainEqual({
      kind: 'info',
      text: expect.stringMatching(
        new RegExp(`^Soak gate: ${id} verified in 'acceptance' since \\S+ \\(GitHub Deployment \\d+\\): 90 minute\\(s\\), 60 required\\.$`)
      )
    })
  })

  test('verified 90 minutes ago, then a failure there 10 minutes ago: the clock restarted, refused', async () => {
    const id = await promotion()
    recorded(id, [['success', 90]])
    const failed = recorded(
      'other-dist',
      [
        ['in_progress', 12],
        ['failure', 10]
      ],
      id
    )
    const outcome = await runDeploy(emu, gate)
    expect(outcome.error).toBeInstanceOf(RuleRefused)
    expect(outcome.result.rules?.soak).toMatchObject({ passed: false, soakedMinutes: 10, deploymentId: failed })
    expect((outcome.error as Error).message).toContain(`(the clock restarted at the failure of GitHub Deployment ${failed}): 10 of the 60 minute(s) required`)
    expect(changes()).toEqual([])
  })

  test('never verified there: refused, saying to deploy it there first', async () => {
    const id = await promotion()
    const outcome = await runDeploy(emu, gate)
    expect((outcome.error as Error).message).toBe(
      `Refused: the soak gate (require-verified-in: acceptance, require-soak-minutes: 60): no GitHub Deployment of this repository shows ${id} verified (success) in 'acceptance': deploy it there first, then promote it, ` +
        'so nothing was changed. Set override-reason to say why this deploy cannot wait (the reason is recorded in the GitHub Deployment, the summary and every event).'
    )
  })

  test('GitHub fails: the gate cannot be checked, refused', async () => {
    const id = await promotion()
    recorded(id, [['success', 90]])
    standIn.fail('list-statuses', { status: 500, times: 20 })
    const outcome = await runDeploy(emu, gate)
    expect(outcome.error).toBeInstanceOf(RuleRefused)
    expect((outcome.error as Error).message).toMatch(
      /^Refused: the soak gate cannot be checked: GitHub's Deployments of 'acceptance' could not be read \(.*\), so nothing was changed\. Run again once GitHub answers, or set override-reason/
    )
    expect(changes()).toEqual([])
  })

  test('override-reason: promoted all the same, the soak gate named as overridden', async () => {
    const id = await promotion()
    const outcome = await runDeploy(emu, { ...gate, 'override-reason': 'security fix, CVE-2026-1234' })
    expect(outcome.error).toBeUndefined()
    expect(ops('deploy')).toHaveLength(1)
    expect(outcome.result.rules?.override).toEqual({ reason: 'security fix, CVE-2026-1234', overrode: ['soak'] })
    expect(standIn.model.deployments.at(-1)?.payload).toMatchObject({
      distributionId: id,
      override: { reason: 'security fix, CVE-2026-1234', overrode: ['soak'] }
    })
  })
})

test('override-reason without a rule that refuses: recorded, overriding nothing', async () => {
  await promotion()
  backupsOf('production', 1)
  const outcome = await runDeploy(emu, { ...promote, 'require-backup-hours': '24', 'override-reason': 'planned release' })
  expect(outcome.error).toBeUndefined()
  expect(outcome.result.rules?.override).toEqual({ reason: 'planned release', overrode: [] })
  expect(warnings().filter((w) => w.startsWith('override-reason'))).toEqual([])
})
