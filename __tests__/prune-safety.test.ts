// max-distributions keeps its promise on every platform reading: against the emulator's stack (a status field or
// none; the new id reported at request or when done; no id, or null, while switching; ids in upper case; a clock off
// ours) and the GitHub stand-in, through the real clients over HTTP, pruning keeps the stack within N and never
// deletes what an environment runs (looked at again right before each delete), an environment's previous
// distribution (this run's looks, GitHub's records), what a GitHub Deployment under way or of the last hour names,
// or an upload of the last hour. A status field that shows a switch it cannot name holds pruning back for the run.
import { DEFAULT_GITHUB_TOKEN, fakeSha, startGitHubStandIn } from '../src/emulator/github/server.js'
import { runOfAcmeSite } from './github-run.js'
import { useTestPort } from './test-port.js'

const standIn = await startGitHubStandIn({ owner: 'acme', repo: 'site' })
runOfAcmeSite(standIn.url, fakeSha('run'))
const logged: string[] = []
useTestPort({
  info: (line: string) => void logged.push(line),
  warning: (line: string) => void logged.push(`warning: ${line}`),
  debug: () => undefined
})

const { pruneDistributions } = await import('../src/cloud/prune.js')
const { PruneRecords } = await import('../src/github/prune-records.js')
const { GitHubApi } = await import('../src/github/client.js')
const { CloudApi } = await import('../src/cloud/api.js')
const { CloudClient } = await import('../src/cloud/client.js')
const { CloudSession } = await import('../src/cloud/session.js')
const { HttpTransport } = await import('../src/http/transport.js')
const { startEmulator } = await import('../src/emulator/server.js')
type Emulator = import('../src/emulator/server.js').Emulator
type EmulatorOptions = import('../src/emulator/server.js').EmulatorOptions
type CloudClient = import('../src/cloud/client.js').CloudClient

const [COMMIT] = standIn.model.linear('main', [fakeSha('c0')]) as [string]
const HOUR = 3_600_000

/** A reading of the platform the public sources leave open (the emulator's modes). */
interface Reading {
  environmentStatus: boolean
  deployReport: 'when-done' | 'at-request'
  idWhileDeploying: 'reported' | 'absent' | 'null'
  idCase: 'as-stored' | 'upper'
  clockOffsetSeconds: number
}

/** Every combination of a status field, when the id is reported and what it is while switching; the case and the clock vary among them. */
const READINGS: Reading[] = [true, false].flatMap((environmentStatus) =>
  (['when-done', 'at-request'] as const).flatMap((deployReport) =>
    (['reported', 'absent', 'null'] as const).map((idWhileDeploying, i) => ({
      environmentStatus,
      deployReport,
      idWhileDeploying,
      idCase: i % 2 === 0 ? ('upper' as const) : ('as-stored' as const),
      clockOffsetSeconds: [0, -600, 600][i] ?? 0
    }))
  )
)
const BLIND = READINGS.filter((r) => !r.environmentStatus)
const label = (r: Reading) =>
  `${r.environmentStatus ? 'a status field' : 'no status field'}, id ${r.deployReport}, ${r.idWhileDeploying} while switching, ids ${r.idCase}, clock ${r.clockOffsetSeconds} s`

let emu: Emulator
let transport: InstanceType<typeof HttpTransport>
let client: CloudClient
/** Each test gets environments of its own in GitHub's records: the stand-in's history is shared by the file. */
let stackNo = 0
let apiUrl = ''

async function platform(reading: Reading, options: EmulatorOptions = {}): Promise<void> {
  emu = await startEmulator({ ...reading, deleteInUse: 'allow', ...options })
  transport = new HttpTransport(emu.url, { userAgent: 'test' })
  const api = new CloudApi(transport, { retry: { attempts: 1 } })
  client = new CloudClient(api, new CloudSession(api, emu.username, emu.password, { target: 'stack test' }))
  apiUrl = `https://api.stack-${++stackNo}.bloomreach.cloud`
  logged.splice(0)
}

afterEach(async () => {
  await transport.close()
  await emu.close()
})
afterAll(async () => {
  await standIn.close()
})

/** A distribution stored `hoursAgo` by the runner's clock, dated by the platform's (which is off by the reading's offset). */
async function stored(name: string, hoursAgo: number, reading: Reading): Promise<string> {
  const id = await emu.addDistribution(name, { 'version.txt': `${name}\n` })
  const record = emu.distributions.find((d) => d.id === id)
  if (record) record.createdAt = new Date(Date.now() + reading.clockOffsetSeconds * 1000 - hoursAgo * HOUR).toISOString()
  return id
}

/** Old distributions a..e, oldest first. */
async function oldOnes(reading: Reading, n = 5): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < n; i++) ids.push(await stored(`${'abcdefgh'[i]}.tar.gz`, 48 - i, reading))
  return ids
}

/** A GitHub Deployment another run of this action made on this stack, `minutesAgo`, with its latest status. */
function recorded(environment: string, payload: Record<string, unknown>, state: string, minutesAgo = 0): number {
  const d = standIn.model.addDeployment({ ref: COMMIT, environment, payload: { apiUrl, ...payload }, creator: 'octocat' })
  const at = new Date(Date.now() - minutesAgo * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z')
  Object.assign(d, { created_at: at, updated_at: at })
  standIn.model.addStatus(d.id, { state: state as 'success', log_url: 'https://github.example/acme/site/actions/runs/1', auto_inactive: false })
  return d.id
}

/** Prunes as a run does: the environments as first listed, GitHub's records when `github`. */
async function prune(max: number, github = false): Promise<number> {
  const distributions = await client.listDistributions()
  const environments = await client.listEnvironments()
  const records = github ? new PruneRecords(await GitHubApi.open(DEFAULT_GITHUB_TOKEN), apiUrl) : undefined
  return pruneDistributions(client, distributions, max, environments, { dryRun: false, records })
}

/** An id as the environments report it: 'upper' writes ids in upper case on every endpoint. */
const reported = (reading: Reading, id: string | undefined) => (reading.idCase === 'upper' ? (id ?? '').toUpperCase() : (id ?? ''))
/** "b: <why>": each distribution kept on the way, by its name's letter (oldOnes names them a, b, c, ...). */
const keptLines = () =>
  logged.filter((l) => l.startsWith('Pruning: kept')).map((l) => l.replace(/^Pruning: kept distribution \S+ \((\w)\.tar\.gz, [^)]+\): /, '$1: '))
const left = () => emu.distributions.map((d) => d.id.toLowerCase())
const deleted = () => emu.requests.filter((r) => r.operation === 'delete-distribution' && r.status === 204).map((r) => r.url.split('/').pop()?.toLowerCase())
const warnings = () => logged.filter((l) => l.startsWith('warning: '))

describe.each(READINGS)('%s', (reading) => {
  test(`${label(reading)}: the stack is kept within max-distributions; what the environments run stays, and the newest one stored before each (its likely previous); no warning`, async () => {
    await platform(reading)
    const [a, b, c, d, e, f, g] = await oldOnes(reading, 7)
    emu.deployAs('production', c ?? '')
    emu.deployAs('development', f ?? '')
    // No token: nothing records what they ran before; in a pipeline that builds forward, b and e did.
    expect(await prune(5)).toBe(3)
    expect(deleted()).toEqual([a, d, g])
    expect(left()).toEqual([b, c, e, f])
    expect(warnings()).toEqual([])
    expect(keptLines()).toEqual([
      `b: the newest one stored before ${reported(reading, c)}, which environment 'production' reported running: likely what ran there before it, its rollback target (no record names one).`,
      "c: environment 'production' runs it.",
      `e: the newest one stored before ${reported(reading, f)}, which environment 'development' reported running: likely what ran there before it, its rollback target (no record names one).`,
      "f: environment 'development' runs it."
    ])
  })

  test(`${label(reading)}: one promoted after the first look is kept at the look right before its delete, and stays kept`, async () => {
    await platform(reading)
    const [a, b, c] = await oldOnes(reading, 3)
    // Another job promotes 'a' right after this run's first look at the environments, which the delete of 'a' follows.
    emu.onRequest('list-environments', () => emu.deployAs('acceptance', a ?? ''), { times: 1 })
    expect(await prune(2)).toBe(2)
    expect(deleted()).toEqual([b, c])
    expect(left()).toEqual([a])
    expect(logged).toContainEqual(expect.stringMatching(/^Pruning: kept distribution \S+ \(a\.tar\.gz, created [^)]+\): environment 'acceptance' runs it\.$/))
  })

  test(`${label(reading)}: an upload of the last hour stays whatever the platform's clock; one of two hours ago goes`, async () => {
    await platform(reading)
    const old = await stored('old.tar.gz', 2, reading)
    const fresh = await stored('fresh.tar.gz', 55 / 60, reading)
    expect(await prune(1)).toBe(1)
    expect(deleted()).toEqual([old])
    expect(left()).toEqual([fresh])
    expect(warnings()).toEqual([
      'warning: max-distributions=1 could not be kept: the stack holds 1 distributions (1 deleted), 2 with this upload. ' +
        'None of the others may go: 1 was stored within the last hour (another job may be about to deploy it).'
    ])
  })

  test(`${label(reading)}: what an environment ran before (GitHub's records, with or without the previous in the payload) stays`, async () => {
    await platform(reading)
    const [p, q, x, y] = await oldOnes(reading, 4)
    emu.deployAs('production', x ?? '')
    emu.deployAs('development', y ?? '')
    // production: this action recorded its previous; development: an older version recorded none, but the order tells.
    recorded('production', { distributionId: x, previousDistributionId: p }, 'success', 90)
    recorded('development', { distributionId: q }, 'success', 300)
    recorded('development', { distributionId: y }, 'success', 120)
    expect(await prune(2, true)).toBe(0)
    expect(left()).toEqual([p, q, x, y])
    expect(warnings()).toEqual([
      'warning: max-distributions=2 could not be kept: the stack holds 4 distributions (0 deleted), 5 with this upload. ' +
        'None of the others may go: 2 run on an environment, 2 are the previous distributions of an environment (a likely rollback target).'
    ])
  })

  test(`${label(reading)}: with github-token, a Deployment that names what the environment ran before keeps that one, and the one stored just before what it runs may go`, async () => {
    await platform(reading)
    const [a, p, b, x] = await oldOnes(reading, 4)
    emu.deployAs('production', x ?? '')
    // Another run of this action put 'x' there over 'p': the record says so, no guess by date is needed ('b' never ran there).
    recorded('production', { distributionId: x, previousDistributionId: p }, 'success', 90)
    expect(await prune(3, true)).toBe(2)
    expect(deleted()).toEqual([a, b])
    expect(left()).toEqual([p, x])
    expect(warnings()).toEqual([])
  })

  test(`${label(reading)}: with github-token, an environment whose distribution no Deployment covers (Mission Control) keeps the newest one stored before it too`, async () => {
    await platform(reading)
    const [a, r, b, m] = await oldOnes(reading, 4)
    // This action recorded 'r' on production; then someone deployed 'm' from Mission Control, over 'b' (also by hand).
    recorded('production', { distributionId: r, previousDistributionId: a }, 'success', 300)
    emu.deployAs('production', m ?? '')
    expect(await prune(2, true)).toBe(1)
    expect(deleted()).toEqual([a])
    expect(left()).toEqual([r, b, m])
    expect(keptLines()).toEqual([
      expect.stringMatching(/^b: GitHub Deployment \d+ records it as what 'production' ran before its latest deploy: its likely rollback target\.$/),
      `c: the newest one stored before ${reported(reading, m)}, which environment 'production' reported running: likely what ran there before it, its rollback target (no record names one).`,
      "d: environment 'production' runs it."
    ])
    expect(warnings()).toEqual([
      'warning: max-distributions=2 could not be kept: the stack holds 3 distributions (1 deleted), 4 with this upload. ' +
        'None of the others may go: 1 runs on an environment, 2 are the previous distributions of an environment (a likely rollback target).'
    ])
  })

  test(`${label(reading)}: what a GitHub Deployment under way names stays, however old; one of the last hour too, done or not`, async () => {
    await platform(reading)
    const [a, b, c, d] = await oldOnes(reading, 4)
    // Of an environment the stack no longer lists (renamed since): only the Deployments' own states keep these.
    recorded('staging', { distributionId: a }, 'in_progress', 180)
    recorded('staging', { distributionId: b }, 'queued', 240)
    recorded('development', { distributionId: c }, 'success', 20)
    expect(await prune(1, true)).toBe(1)
    expect(deleted()).toEqual([d])
    expect(left()).toEqual([a, b, c])
    const kept = logged
      .filter((l) => l.startsWith('Pruning: kept'))
      .map((l) => l.replace(/^Pruning: kept distribution \S+ \((\w)\.tar\.gz, [^)]+\): GitHub Deployment \d+/, '$1:'))
    expect(kept).toEqual([
      "a: of 'staging' that names it is still in progress.",
      "b: of 'staging' that names it is still queued.",
      "c: of 'development' named it within the last hour: that deploy may still be switching."
    ])
  })
})

describe.each(READINGS.filter((r) => r.environmentStatus))('%s', (reading) => {
  test(`${label(reading)}: a switch the status field shows, to what it does not name: nothing deleted this run, and the warning says why`, async () => {
    await platform(reading)
    const [a, b] = await oldOnes(reading, 2)
    emu.deployAs('production', a ?? '', { seconds: Infinity })
    expect(await prune(1)).toBe(0)
    expect(deleted()).toEqual([])
    expect(left()).toEqual([a, b])
    expect(warnings()).toEqual([expect.stringMatching(/could not be kept: .* None was deleted, because environment 'production' reports .*status 'deploying'/)])
  })
})

describe.each(BLIND)('%s', (reading) => {
  test(`${label(reading)}: a switch no field shows keeps its target when another run's GitHub Deployment names it, and its previous`, async () => {
    await platform(reading)
    const [prev, a, b, target] = await oldOnes(reading, 4)
    emu.deployAs('production', prev ?? '')
    // Another run of this action deploys an old 'target' (a rollback, a promotion): recorded in progress, switching for as long as the test lasts.
    emu.deployAs('production', target ?? '', { seconds: Infinity })
    recorded('production', { distributionId: target, previousDistributionId: prev }, 'in_progress', 2)
    expect(await prune(2, true)).toBe(2)
    expect(deleted()).toEqual([a, b])
    expect(left()).toEqual([prev, target])
  })

  test(`${label(reading)}: an environment switched during the run: what it ran at the first look stays (its previous), and so does the newest one stored before what it runs now`, async () => {
    await platform(reading)
    const [a, b, c, d, e] = await oldOnes(reading, 5)
    emu.deployAs('production', c ?? '')
    // Another deploy lands on production right after the first look: it no longer reports 'c', which is its previous now.
    emu.onRequest('list-environments', () => emu.deployAs('production', e ?? ''), { times: 1 })
    expect(await prune(1)).toBe(1)
    expect(deleted()).toEqual([a])
    expect(left()).toEqual([b, c, d, e])
    const guess = (runs: string | undefined) =>
      `the newest one stored before ${reported(reading, runs)}, which environment 'production' reported running: likely what ran there before it, its rollback target (no record names one).`
    expect(keptLines()).toEqual([
      `b: ${guess(c)}`,
      "c: environment 'production' ran it earlier in this run: it is that environment's previous distribution, its likely rollback target.",
      `d: ${guess(e)}`,
      "e: environment 'production' runs it."
    ])
  })
})
