// Pruning's claims, word for word: every line it logs is what the user reads of what was deleted, what was kept
// and why, and the one warning (the stack could not be kept within max-distributions: how many stay, and why);
// and what reached the stack: which distributions were deleted, and in what order. Most cases script the stack
// (an incomplete listing, an aborted call, GitHub failing); the refusals come from the emulator over real HTTP.
import { useTestPort } from './test-port.js'

const logged: string[] = []
useTestPort({
  info: (line: string) => void logged.push(line),
  warning: (line: string) => void logged.push(`warning: ${line}`),
  debug: () => undefined,
  setSecret: () => undefined
})

const { pruneDistributions, showsUnnamedSwitch } = await import('../src/cloud/prune.js')
const { ServiceError } = await import('../src/errors.js')
const { GitHubCallFailed } = await import('../src/github/client.js')
const { CloudApi } = await import('../src/cloud/api.js')
const { CloudClient } = await import('../src/cloud/client.js')
const { CloudSession } = await import('../src/cloud/session.js')
const { HttpTransport } = await import('../src/http/transport.js')
const { startEmulator } = await import('../src/emulator/server.js')
type CloudClient = import('../src/cloud/client.js').CloudClient
type Environment = import('../src/cloud/client.js').Environment
type Distribution = import('../src/cloud/client.js').Distribution
type PruneRecords = import('../src/github/prune-records.js').PruneRecords

const START = Date.UTC(2026, 5, 1, 12)
const MINUTE = 60_000
const at = (msAgo: number) => new Date(START - msAgo).toISOString()
const dist = (id: string, minutesAgo: number): Distribution => ({ id, name: `${id}.tar.gz`, createdAt: at(minutesAgo * MINUTE) })
const env = (name: string, distributionId: string | null | undefined, status?: string): Environment => ({
  id: `env-${name}`,
  name,
  ...(distributionId !== undefined && { distributionId }),
  status
})
const shown = (d: Distribution) => `${d.id} (${d.name}, created ${d.createdAt})`

/** A scripted stack: every listing answers `items` (complete unless told); `refuse` makes a delete of that id throw. */
function fakeStack(items: Environment[], options: { complete?: boolean; list?: () => never; refuse?: Record<string, unknown> } = {}) {
  const attempted: string[] = []
  let listings = 0
  const client = {
    listEnvironments: async () => {
      listings++
      if (options.list) options.list()
      return { items, complete: options.complete ?? true }
    },
    deleteDistribution: async (id: string) => {
      attempted.push(id)
      if (options.refuse && id in options.refuse) throw options.refuse[id]
    }
  } as unknown as CloudClient
  return { client, attempted, listings: () => listings }
}

const idle = [env('development', null, 'empty'), env('production', 'p', 'running')]
const run = (client: CloudClient, stored: readonly Distribution[], max: number, environments: readonly Environment[] = idle, complete = true) =>
  pruneDistributions(client, stored, max, { items: [...environments], complete }, { dryRun: false, startedAt: START })

beforeEach(() => void logged.splice(0))

describe('what the log says', () => {
  test('below the limit: the count, then nothing to prune, and no look at the environments', async () => {
    const stack = fakeStack(idle)
    expect(await run(stack.client, [dist('a', 300), dist('p', 200)], 3)).toBe(0)
    expect(logged).toEqual(['The stack holds 2 distributions; max-distributions is 3.', 'Nothing to prune.'])
    expect(stack.listings()).toBe(0)
    expect(stack.attempted).toEqual([])
  })

  test('at the limit, the oldest go so that the upload lands at max: each delete is logged with its name and date, one kept on the way says why, and no warning', async () => {
    const stack = fakeStack(idle)
    const stored = [dist('c', 100), dist('a', 300), dist('p', 400), dist('b', 200)]
    expect(await run(stack.client, stored, 3)).toBe(2)
    expect(stack.attempted).toEqual(['a', 'b'])
    expect(logged).toEqual([
      'The stack holds 4 distributions; max-distributions is 3.',
      `Pruning: kept distribution ${shown(dist('p', 400))}: environment 'production' runs it.`,
      `Deleted distribution ${shown(dist('a', 300))}`,
      `Deleted distribution ${shown(dist('b', 200))}`
    ])
  })

  test('one with neither a name nor a date is told as such', async () => {
    const stack = fakeStack(idle)
    expect(await run(stack.client, [{ id: 'bare' }, dist('b', 100)], 2)).toBe(1)
    expect(stack.attempted).toEqual(['bare'])
    expect(logged.at(-1)).toBe('Deleted distribution bare (no name, created at an unknown time)')
  })

  test('every remaining one must stay: no delete, and one warning that says how many stay and why', async () => {
    const environments = [env('development', 'a', 'running'), env('production', 'b', 'running')]
    const stack = fakeStack(environments)
    expect(await run(stack.client, [dist('a', 300), dist('b', 200), dist('f', 10)], 1, environments)).toBe(0)
    expect(stack.attempted).toEqual([])
    expect(stack.listings()).toBe(0)
    expect(logged).toEqual([
      'The stack holds 3 distributions; max-distributions is 1.',
      `Pruning: kept distribution ${shown(dist('a', 300))}: environment 'development' runs it.`,
      `Pruning: kept distribution ${shown(dist('b', 200))}: environment 'production' runs it.`,
      `Pruning: kept distribution ${shown(dist('f', 10))}: stored within the last hour: it may be another job's upload about to be deployed.`,
      'warning: max-distributions=1 could not be kept: the stack holds 3 distributions (0 deleted), 4 with this upload. ' +
        'None of the others may go: 2 run on an environment, 1 was stored within the last hour (another job may be about to deploy it).'
    ])
  })

  test('a status field that shows a switch to a distribution it does not name: nothing deleted this run, and the warning says why', async () => {
    const busy = [env('production', 'c', 'deploying')]
    const stack = fakeStack(busy)
    expect(await run(stack.client, [dist('a', 300), dist('c', 100)], 1, busy)).toBe(0)
    expect(stack.attempted).toEqual([])
    expect(logged).toEqual([
      'The stack holds 2 distributions; max-distributions is 1.',
      'warning: max-distributions=1 could not be kept: the stack holds 2 distributions (0 deleted), 3 with this upload. ' +
        "None was deleted, because environment 'production' reports distribution c with status 'deploying', so it may be switching to a distribution that cannot be known."
    ])
  })

  test('environments the platform would not list in full: nothing deleted, said only when something had to go', async () => {
    const stack = fakeStack(idle)
    expect(await run(stack.client, [dist('a', 300)], 2, idle, false)).toBe(0)
    expect(logged).toEqual(['The stack holds 1 distributions; max-distributions is 2.', 'Nothing to prune.'])
    logged.splice(0)
    expect(await run(stack.client, [dist('a', 300), dist('b', 200)], 2, idle, false)).toBe(0)
    expect(stack.attempted).toEqual([])
    expect(logged.at(-1)).toBe(
      'warning: max-distributions=2 could not be kept: the stack holds 2 distributions (0 deleted), 3 with this upload. ' +
        'None was deleted, because the platform listed 2 environment(s) but said it has more and would not list them, so a distribution that an unlisted environment runs could be deleted.'
    )
  })

  test('a dry run says what it would delete and keep, and what the stack would hold', async () => {
    const said: string[] = []
    const stack = fakeStack(idle)
    const n = await pruneDistributions(
      stack.client,
      [dist('a', 400), dist('b', 300), dist('p', 200), dist('f', 5)],
      1,
      { items: idle, complete: true },
      {
        dryRun: true,
        say: (line) => said.push(line),
        startedAt: START
      }
    )
    expect(n).toBe(1)
    expect(stack.attempted).toEqual([])
    expect(stack.listings()).toBe(0)
    expect(said).toEqual([`Would delete distribution ${shown(dist('a', 400))}.`])
    expect(logged).toEqual([
      'The stack holds 4 distributions; max-distributions is 1.',
      `Pruning: kept distribution ${shown(dist('b', 300))}: the newest one stored before p, which environment 'production' reported running: likely what ran there before it, its rollback target (no record names one).`,
      `Pruning: kept distribution ${shown(dist('p', 200))}: environment 'production' runs it.`,
      `Pruning: kept distribution ${shown(dist('f', 5))}: stored within the last hour: it may be another job's upload about to be deployed.`,
      'warning: max-distributions=1 could not be kept: the stack would hold 3 distributions (1 deleted), 4 with the upload. ' +
        'None of the others may go: 1 runs on an environment, 1 is the previous distribution of an environment (a likely rollback target), ' +
        '1 was stored within the last hour (another job may be about to deploy it).'
    ])
  })
})

describe('fresh uploads: an hour and a quarter of an hour for the platform clock, to the millisecond', () => {
  test('one stored exactly 75 minutes before the run began is kept; one a millisecond older goes', async () => {
    const stack = fakeStack(idle)
    const older: Distribution = { id: 'older', name: 'older.tar.gz', createdAt: at(75 * MINUTE + 1) }
    const edge: Distribution = { id: 'edge', name: 'edge.tar.gz', createdAt: at(75 * MINUTE) }
    expect(await run(stack.client, [edge, older], 1)).toBe(1)
    expect(stack.attempted).toEqual(['older'])
    expect(logged).toEqual([
      'The stack holds 2 distributions; max-distributions is 1.',
      `Deleted distribution ${shown(older)}`,
      `Pruning: kept distribution ${shown(edge)}: stored within the last hour: it may be another job's upload about to be deployed.`,
      'warning: max-distributions=1 could not be kept: the stack holds 1 distributions (1 deleted), 2 with this upload. ' +
        'None of the others may go: 1 was stored within the last hour (another job may be about to deploy it).'
    ])
  })
})

describe('the look right before each delete', () => {
  test('a listing the platform would not give in full stops pruning before the delete', async () => {
    const stack = fakeStack(idle, { complete: false })
    expect(await run(stack.client, [dist('a', 300), dist('b', 200)], 2)).toBe(0)
    expect(stack.attempted).toEqual([])
    expect(logged.at(-1)).toBe(
      'warning: max-distributions=2 could not be kept: the stack holds 2 distributions (0 deleted), 3 with this upload. ' +
        `Pruning stopped before deleting distribution ${shown(dist('a', 300))}: the platform listed 2 environment(s) but said it has more and would not list them, so a distribution that an unlisted environment runs could be deleted.`
    )
  })

  test('a listing that fails stops pruning, and the warning says why; what was kept before is counted', async () => {
    const stack = fakeStack(idle, {
      list: () => {
        throw new ServiceError('Listing environments failed: HTTP 503 (ServiceUnavailable)', 503)
      }
    })
    expect(await run(stack.client, [dist('p', 400), dist('a', 300), dist('b', 200)], 2)).toBe(0)
    expect(logged.slice(1)).toEqual([
      `Pruning: kept distribution ${shown(dist('p', 400))}: environment 'production' runs it.`,
      'warning: max-distributions=2 could not be kept: the stack holds 3 distributions (0 deleted), 4 with this upload. ' +
        `Pruning stopped before deleting distribution ${shown(dist('a', 300))}: the environments could not be listed again right before deleting (Listing environments failed: HTTP 503 (ServiceUnavailable)). ` +
        'Kept before that: 1 runs on an environment.'
    ])
  })

  test('a status field that shows a switch at that look stops pruning', async () => {
    const stack = fakeStack([env('production', null, 'deploying')])
    expect(await run(stack.client, [dist('a', 300), dist('b', 200)], 1, [env('production', null, 'empty')])).toBe(0)
    expect(stack.attempted).toEqual([])
    expect(logged.at(-1)).toBe(
      'warning: max-distributions=1 could not be kept: the stack holds 2 distributions (0 deleted), 3 with this upload. ' +
        `Pruning stopped before deleting distribution ${shown(dist('a', 300))}: environment 'production' reports no distribution with status 'deploying', so it may be switching to a distribution that cannot be known.`
    )
  })

  test.each(['AbortError', 'WatchdogTimeout'])('a listing ended by the run (%s) ends pruning with that very error', async (name) => {
    const stop = Object.assign(new Error('the run was stopped'), { name })
    const stack = fakeStack(idle, {
      list: () => {
        throw stop
      }
    })
    await expect(run(stack.client, [dist('a', 300), dist('b', 200)], 2)).rejects.toBe(stop)
    expect(stack.attempted).toEqual([])
  })

  test.each(['AbortError', 'WatchdogTimeout'])('a delete ended by the run (%s) ends pruning with that very error', async (name) => {
    const stop = Object.assign(new Error('the run was stopped'), { name })
    const stack = fakeStack(idle, { refuse: { a: stop } })
    await expect(run(stack.client, [dist('a', 300), dist('b', 200), dist('c', 100)], 2)).rejects.toBe(stop)
    expect(stack.attempted).toEqual(['a'])
  })
})

describe("GitHub's records, read right before each delete", () => {
  /** Records that fail to be read, or name nothing; `namesPrevious` says whether they name an environment's previous. */
  const records = (read: () => Promise<never[]>, namesPrevious: (records: unknown, environment: string, runs: string) => boolean = () => false): PruneRecords =>
    ({ read, keep: () => undefined, underWay: async () => undefined, namesPrevious }) as unknown as PruneRecords

  test('records that cannot be read stop pruning before the delete: a deploy under way could not be seen', async () => {
    const stack = fakeStack(idle)
    const failed = new GitHubCallFailed('Listing GitHub Deployments', 403, 'HTTP 403 (Resource not accessible by integration)')
    const options = { dryRun: false, startedAt: START, records: records(() => Promise.reject(failed)) }
    expect(await pruneDistributions(stack.client, [dist('a', 300), dist('b', 200)], 2, { items: idle, complete: true }, options)).toBe(0)
    expect(stack.attempted).toEqual([])
    expect(stack.listings()).toBe(0)
    expect(logged.at(-1)).toBe(
      'warning: max-distributions=2 could not be kept: the stack holds 2 distributions (0 deleted), 3 with this upload. ' +
        `Pruning stopped before deleting distribution ${shown(dist('a', 300))}: GitHub's Deployments could not be read ` +
        '(Listing GitHub Deployments: HTTP 403 (Resource not accessible by integration)), so a deploy under way that needs it could not be seen.'
    )
  })

  test('the newest one stored before what an environment runs waits for the records: kept when they name no previous there, and said so', async () => {
    const order: string[] = []
    const asked: string[] = []
    const stack = fakeStack(idle)
    const read = records(
      async () => (order.push('records'), []),
      (_, environment, runs) => (asked.push(`${environment} ${runs}`), false)
    )
    const options = { dryRun: false, startedAt: START, records: read }
    expect(await pruneDistributions(stack.client, [dist('b', 300), dist('p', 200)], 1, { items: idle, complete: true }, options)).toBe(0)
    // Not kept before the records were read: its delete went to them first; then kept without another look.
    expect(order).toEqual(['records'])
    expect(asked).toEqual(['production p'])
    expect(stack.listings()).toBe(0)
    expect(logged.slice(1, 2)).toEqual([
      `Pruning: kept distribution ${shown(dist('b', 300))}: the newest one stored before p, which environment 'production' reported running: likely what ran there before it, its rollback target (no record names one).`
    ])
  })

  test('records that name what the environment ran before make the guess by date needless: it goes like any other', async () => {
    const stack = fakeStack(idle)
    const read = records(
      async () => [],
      () => true
    )
    const options = { dryRun: false, startedAt: START, records: read }
    expect(await pruneDistributions(stack.client, [dist('b', 300), dist('p', 200)], 2, { items: idle, complete: true }, options)).toBe(1)
    expect(stack.attempted).toEqual(['b'])
    // A dry run reads them once, and weighs the guess against them the same way.
    logged.splice(0)
    const said: string[] = []
    const dry = { dryRun: true, say: (line: string) => void said.push(line), startedAt: START, records: read }
    expect(await pruneDistributions(stack.client, [dist('b', 300), dist('p', 200)], 2, { items: idle, complete: true }, dry)).toBe(1)
    expect(said).toEqual([`Would delete distribution ${shown(dist('b', 300))}.`])
  })

  test('read once per delete, before the look at the environments; a stop of the run ends pruning', async () => {
    const order: string[] = []
    const stack = fakeStack(idle)
    const client = {
      listEnvironments: async () => (order.push('environments'), stack.client.listEnvironments()),
      deleteDistribution: async (id: string) => (order.push(`delete ${id}`), stack.client.deleteDistribution(id))
    } as unknown as CloudClient
    const read = records(async () => (order.push('records'), []))
    expect(
      await pruneDistributions(
        client,
        [dist('a', 300), dist('b', 200), dist('c', 100)],
        2,
        { items: idle, complete: true },
        { dryRun: false, startedAt: START, records: read }
      )
    ).toBe(2)
    expect(order).toEqual(['records', 'environments', 'delete a', 'records', 'environments', 'delete b'])
    const stop = Object.assign(new Error('the run was stopped'), { name: 'AbortError' })
    await expect(
      pruneDistributions(
        client,
        [dist('a', 300)],
        1,
        { items: idle, complete: true },
        { dryRun: false, startedAt: START, records: records(() => Promise.reject(stop)) }
      )
    ).rejects.toBe(stop)
  })
})

describe('a delete that fails is said, and pruning goes on to the next oldest', () => {
  test('any failure but a 409 is told as it is; no warning when the next oldest made room', async () => {
    const boom = new ServiceError('Deleting distribution a failed: HTTP 500 (InternalServerError: boom)', 500, 'InternalServerError', 'boom')
    const stack = fakeStack(idle, { refuse: { a: boom } })
    expect(await run(stack.client, [dist('a', 300), dist('b', 200), dist('c', 100)], 3)).toBe(1)
    expect(stack.attempted).toEqual(['a', 'b'])
    expect(logged.slice(1)).toEqual([
      `Pruning: the platform did not delete distribution ${shown(dist('a', 300))}: Deleting distribution a failed: HTTP 500 (InternalServerError: boom). Pruning goes on with the next oldest.`,
      `Deleted distribution ${shown(dist('b', 200))}`
    ])
  })

  test('an error that is not the service answering is told with its status; when none can take its place, the warning counts it', async () => {
    const odd = Object.assign(new Error('conflict'), { status: 409 })
    const stack = fakeStack(idle, { refuse: { a: odd } })
    expect(await run(stack.client, [dist('a', 300), dist('b', 250), dist('p', 200)], 2)).toBe(0)
    expect(logged.slice(1)).toEqual([
      `Pruning: the platform did not delete distribution ${shown(dist('a', 300))}: HTTP 409: conflict. Pruning goes on with the next oldest.`,
      `Pruning: kept distribution ${shown(dist('b', 250))}: the newest one stored before p, which environment 'production' reported running: likely what ran there before it, its rollback target (no record names one).`,
      `Pruning: kept distribution ${shown(dist('p', 200))}: environment 'production' runs it.`,
      'warning: max-distributions=2 could not be kept: the stack holds 3 distributions (0 deleted), 4 with this upload. ' +
        'None of the others may go: 1 runs on an environment, 1 is the previous distribution of an environment (a likely rollback target). ' +
        'The platform did not delete 1 (a), said above.'
    ])
  })
})

describe('against the emulator', () => {
  test('the platform refuses a delete (409): said, and the next oldest goes instead; one refused is not counted', async () => {
    const emu = await startEmulator()
    const transport = new HttpTransport(emu.url, { userAgent: 'test' })
    try {
      const api = new CloudApi(transport, { retry: { attempts: 1 } })
      const client = new CloudClient(api, new CloudSession(api, emu.username, emu.password, { target: 'stack test' }))
      const ids: string[] = []
      for (const [name, hoursAgo] of [
        ['a.tar.gz', 5],
        ['b.tar.gz', 4],
        ['c.tar.gz', 3]
      ] as const) {
        const id = await emu.addDistribution(name, { 'version.txt': `${name}\n` })
        const record = emu.distributions.find((d) => d.id === id)
        if (record) record.createdAt = new Date(START - hoursAgo * 3_600_000).toISOString()
        ids.push(id)
      }
      emu.addFault({ operation: 'delete-distribution', kind: 'status', status: 409, times: 1 })
      const stored = await client.listDistributions()
      const environments = await client.listEnvironments()
      logged.splice(0)
      expect(await pruneDistributions(client, stored, 3, environments, { dryRun: false, startedAt: START })).toBe(1)
      const deletes = emu.requests.filter((r) => r.operation === 'delete-distribution').map((r) => [r.url.split('/').pop(), r.status])
      expect(deletes).toEqual([
        [ids[0], 409],
        [ids[1], 204]
      ])
      expect(emu.distributions.map((d) => d.id)).toEqual([ids[0], ids[2]])
      const byId = (id: string | undefined) => shown(stored.find((d) => d.id === id) as Distribution)
      expect(logged).toEqual([
        'The stack holds 3 distributions; max-distributions is 3.',
        `Pruning: the platform did not delete distribution ${byId(ids[0])}: the platform says it is in use (HTTP 409). Pruning goes on with the next oldest.`,
        `Deleted distribution ${byId(ids[1])}`
      ])
    } finally {
      await transport.close()
      await emu.close()
    }
  })
})

describe('which status fields show a switch pruning must wait for', () => {
  test('a status saying it switches, or no id with a status other than empty (in any case); no status field shows nothing', () => {
    expect(showsUnnamedSwitch(env('a', '', 'running'))).toBe(true)
    expect(showsUnnamedSwitch(env('a', '', 'empty'))).toBe(false)
    expect(showsUnnamedSwitch(env('a', '', 'EMPTY'))).toBe(false)
    expect(showsUnnamedSwitch(env('a', null, 'Empty'))).toBe(false)
    expect(showsUnnamedSwitch(env('a', 'x', 'running'))).toBe(false)
    expect(showsUnnamedSwitch(env('a', 'x', 'deploying'))).toBe(true)
    expect(showsUnnamedSwitch(env('a', undefined, 'In Progress'))).toBe(true)
    expect(showsUnnamedSwitch(env('a', 'x'))).toBe(false)
    expect(showsUnnamedSwitch(env('a', null))).toBe(false)
  })
})
