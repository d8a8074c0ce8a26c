// Pruning's claims, word for word: every line it logs is what the user reads of what was kept and why, so
// each is asserted whole; and what reached the stack: which distributions were deleted, and in what order.
// Most cases script the stack (an incomplete listing, an aborted call); the refusals come from the emulator
// over real HTTP, through the real client.
import { useTestPort } from './test-port.js'

const logged: string[] = []
useTestPort({
  info: (line: string) => void logged.push(line),
  warning: (line: string) => void logged.push(`warning: ${line}`),
  debug: () => undefined,
  setSecret: () => undefined
})

const { inUseBy, mayBeSwitching, pruneDistributions } = await import('../src/cloud/prune.js')
const { ServiceError } = await import('../src/errors.js')
const { CloudApi } = await import('../src/cloud/api.js')
const { CloudClient } = await import('../src/cloud/client.js')
const { CloudSession } = await import('../src/cloud/session.js')
const { HttpTransport } = await import('../src/http/transport.js')
const { startEmulator } = await import('../src/emulator/server.js')
type CloudClient = import('../src/cloud/client.js').CloudClient
type Environment = import('../src/cloud/client.js').Environment
type Distribution = import('../src/cloud/client.js').Distribution

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
const run = (client: CloudClient, stored: readonly Distribution[], max: number, environments: readonly Environment[] = idle) =>
  pruneDistributions(client, stored, max, environments, { dryRun: false, startedAt: START })

beforeEach(() => void logged.splice(0))

describe('what the log says', () => {
  test('below the limit: the count, then nothing to prune, and no look at the environments', async () => {
    const stack = fakeStack(idle)
    expect(await run(stack.client, [dist('a', 300), dist('p', 200)], 3)).toBe(0)
    expect(logged).toEqual(['The stack holds 2 distributions (1 in use by an environment); max-distributions is 3.', 'Nothing to prune.'])
    expect(stack.listings()).toBe(0)
    expect(stack.attempted).toEqual([])
  })

  test('at the limit, one goes so that the upload lands at max: each delete is logged with its name and date, and nothing else is said', async () => {
    const stack = fakeStack(idle)
    const stored = [dist('c', 100), dist('a', 300), dist('p', 400), dist('b', 200)]
    expect(await run(stack.client, stored, 3)).toBe(2)
    expect(stack.attempted).toEqual(['a', 'b'])
    expect(logged).toEqual([
      'The stack holds 4 distributions (1 in use by an environment); max-distributions is 3.',
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

  test('every remaining one in use: no delete, not "nothing to prune", but how many more would have to go', async () => {
    const environments = [env('development', 'a', 'running'), env('production', 'b', 'running')]
    const stack = fakeStack(environments)
    expect(await run(stack.client, [dist('a', 300), dist('b', 200)], 1, environments)).toBe(0)
    expect(stack.attempted).toEqual([])
    expect(stack.listings()).toBe(0)
    expect(logged).toEqual([
      'The stack holds 2 distributions (2 in use by an environment); max-distributions is 1.',
      'warning: 2 more distribution(s) would have to go to stay within max-distributions=1, but every remaining one is in use by an environment.'
    ])
  })

  test('an environment switching from a distribution it names: no pruning, and the warning names it', async () => {
    const busy = [env('production', 'c', 'deploying')]
    const stack = fakeStack(busy)
    expect(await run(stack.client, [dist('a', 300), dist('c', 100)], 1, busy)).toBe(0)
    expect(stack.attempted).toEqual([])
    expect(logged).toEqual([
      "warning: Not pruning this run: environment 'production' reports distribution c with status 'deploying', so it may be switching to a distribution that cannot be known, and deleting it would break that release. Old distributions stay until a later run."
    ])
  })
})

describe('fresh uploads: an hour and five minutes of clock skew, to the millisecond', () => {
  test('one stored exactly 65 minutes before the run began is kept; one a millisecond older goes', async () => {
    const stack = fakeStack(idle)
    const older: Distribution = { id: 'older', name: 'older.tar.gz', createdAt: at(65 * MINUTE + 1) }
    const edge: Distribution = { id: 'edge', name: 'edge.tar.gz', createdAt: at(65 * MINUTE) }
    expect(await run(stack.client, [edge, older], 1)).toBe(1)
    expect(stack.attempted).toEqual(['older'])
    expect(logged).toEqual([
      'The stack holds 2 distributions (1 in use by an environment); max-distributions is 1.',
      `Pruning: kept distribution ${shown(edge)}: stored within the last hour, it may be another job's upload about to be deployed.`,
      `Deleted distribution ${shown(older)}`,
      'warning: 1 more distribution(s) would have to go to stay within max-distributions=1, but every remaining one is in use by an environment or was stored within the last hour.'
    ])
  })
})

describe('the look right before each delete', () => {
  test('a listing the platform would not give in full stops pruning before the first delete', async () => {
    const stack = fakeStack(idle, { complete: false })
    expect(await run(stack.client, [dist('a', 300), dist('b', 200)], 2)).toBe(0)
    expect(stack.attempted).toEqual([])
    expect(logged.at(-1)).toBe(
      `warning: Pruning stopped before deleting distribution ${shown(dist('a', 300))}: the platform would not list every environment right before deleting. 0 deleted so far; the rest stay.`
    )
  })

  test('a listing that fails stops pruning, and the warning says why', async () => {
    const stack = fakeStack(idle, {
      list: () => {
        throw new ServiceError('Listing environments failed: HTTP 503 (ServiceUnavailable)', 503)
      }
    })
    expect(await run(stack.client, [dist('a', 300), dist('b', 200)], 2)).toBe(0)
    expect(logged.at(-1)).toBe(
      `warning: Pruning stopped before deleting distribution ${shown(dist('a', 300))}: the environments could not be listed again right before deleting (Listing environments failed: HTTP 503 (ServiceUnavailable)). 0 deleted so far; the rest stay.`
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

describe('a delete that fails is a warning, and pruning goes on to the next oldest', () => {
  test('any failure but a 409 is told as it is', async () => {
    const boom = new ServiceError('Deleting distribution a failed: HTTP 500 (InternalServerError: boom)', 500, 'InternalServerError', 'boom')
    const stack = fakeStack(idle, { refuse: { a: boom } })
    expect(await run(stack.client, [dist('a', 300), dist('b', 200), dist('c', 100)], 3)).toBe(1)
    expect(stack.attempted).toEqual(['a', 'b'])
    expect(logged.slice(1)).toEqual([
      `warning: Pruning: kept distribution ${shown(dist('a', 300))}: Deleting distribution a failed: HTTP 500 (InternalServerError: boom). Pruning goes on; delete it later in the console if it is no longer needed.`,
      `Deleted distribution ${shown(dist('b', 200))}`
    ])
  })

  test('an error that is not the service answering is told with its status', async () => {
    const odd = Object.assign(new Error('conflict'), { status: 409 })
    const stack = fakeStack(idle, { refuse: { a: odd } })
    expect(await run(stack.client, [dist('a', 300), dist('b', 200), dist('c', 100)], 3)).toBe(1)
    expect(logged[1]).toBe(
      `warning: Pruning: kept distribution ${shown(dist('a', 300))}: HTTP 409: conflict. Pruning goes on; delete it later in the console if it is no longer needed.`
    )
  })
})

describe('against the emulator', () => {
  test('the platform refuses a delete (409): kept, said so, and the next oldest goes instead; one refused is not counted', async () => {
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
      const environments = (await client.listEnvironments()).items
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
        'The stack holds 3 distributions (0 in use by an environment); max-distributions is 3.',
        `warning: Pruning: kept distribution ${byId(ids[0])}: the platform says it is in use (HTTP 409). Pruning goes on; delete it later in the console if it is no longer needed.`,
        `Deleted distribution ${byId(ids[1])}`
      ])
    } finally {
      await transport.close()
      await emu.close()
    }
  })
})

describe('which environments hold a distribution, and which may be switching', () => {
  test('inUseBy: only the ids an environment names, never null, undefined or empty', () => {
    expect(
      inUseBy([env('a', 'x', 'running'), env('b', null, 'empty'), env('c', '', 'running'), env('d', undefined, 'empty'), env('e', 'y', 'running')])
    ).toEqual(new Set(['x', 'y']))
    expect(inUseBy([])).toEqual(new Set())
  })

  test('mayBeSwitching: an empty id counts as none; only the status empty (in any case) says it runs nothing', () => {
    expect(mayBeSwitching(env('a', '', 'running'))).toBe(true)
    expect(mayBeSwitching(env('a', '', 'empty'))).toBe(false)
    expect(mayBeSwitching(env('a', '', 'EMPTY'))).toBe(false)
    expect(mayBeSwitching(env('a', null, 'Empty'))).toBe(false)
    expect(mayBeSwitching(env('a', 'x', 'running'))).toBe(false)
    expect(mayBeSwitching(env('a', 'x', 'deploying'))).toBe(true)
    expect(mayBeSwitching(env('a', 'x'))).toBe(true)
  })
})
