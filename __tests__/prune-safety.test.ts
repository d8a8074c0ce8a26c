// Pruning deletes nothing it cannot prove unused at the moment of the delete: a look at the environments
// right before each one, never a fresh upload, never while an environment may be switching, ids in any case.
import { useTestPort } from './test-port.js'

const logged: string[] = []
useTestPort({
  info: (line: string) => void logged.push(line),
  warning: (line: string) => void logged.push(`warning: ${line}`),
  debug: () => undefined
})

const { pruneDistributions } = await import('../src/cloud/prune.js')
type CloudClient = import('../src/cloud/client.js').CloudClient
type Environment = import('../src/cloud/client.js').Environment

const START = Date.UTC(2026, 5, 1, 12)
const minutesAgo = (m: number) => new Date(START - m * 60_000).toISOString()
const dist = (id: string, ageMinutes?: number) => ({ id, name: `${id}.tar.gz`, ...(ageMinutes !== undefined && { createdAt: minutesAgo(ageMinutes) }) })
const env = (name: string, distributionId: string | null, status?: string): Environment => ({ id: `env-${name}`, name, distributionId, status })

/** A stack whose environment list a test scripts: `looks` answers one listing each, the last one repeats. */
function fakeStack(looks: Environment[][]) {
  const deleted: string[] = []
  let listings = 0
  const client = {
    listEnvironments: async () => ({ items: looks[Math.min(listings++, looks.length - 1)] ?? [], complete: true }),
    deleteDistribution: async (id: string) => void deleted.push(id)
  } as unknown as CloudClient
  return { client, deleted, listings: () => listings }
}

beforeEach(() => void logged.splice(0))

describe('a fresh look before each delete', () => {
  test('lists the environments again before every delete, not only at the start', async () => {
    const stack = fakeStack([[env('development', null, 'empty')]])
    const n = await pruneDistributions(stack.client, [dist('a', 300), dist('b', 200), dist('c', 100)], 2, [env('development', null, 'empty')], {
      dryRun: false,
      startedAt: START
    })
    expect(n).toBe(2)
    expect(stack.deleted).toEqual(['a', 'b'])
    expect(stack.listings()).toBe(2)
  })

  test('keeps a distribution another job promoted after the start; the next oldest goes in its place', async () => {
    const atStart = [env('production', 'd', 'running')]
    // Right before the second delete, production switched to 'b'.
    const stack = fakeStack([atStart, [env('production', 'b', 'running')]])
    const stored = [dist('a', 400), dist('b', 300), dist('c', 200), dist('d', 100)]
    const n = await pruneDistributions(stack.client, stored, 3, atStart, { dryRun: false, startedAt: START })
    expect(stack.deleted).toEqual(['a', 'c'])
    expect(n).toBe(2)
    expect(stack.listings()).toBe(3)
    expect(logged).toContainEqual(expect.stringMatching(/^Pruning: kept distribution b .*environment 'production' runs it now/))
  })

  test('stops when the look before a delete shows an environment switching to what it does not name', async () => {
    const stack = fakeStack([[env('production', null, 'deploying')]])
    const n = await pruneDistributions(stack.client, [dist('a', 300), dist('b', 200)], 1, [env('production', null, 'empty')], {
      dryRun: false,
      startedAt: START
    })
    expect(n).toBe(0)
    expect(stack.deleted).toEqual([])
    expect(logged).toContainEqual(
      expect.stringMatching(/^warning: Pruning stopped before deleting distribution a .*environment 'production' reports no distribution/)
    )
  })

  test('stops when the environments cannot be listed again', async () => {
    const client = {
      listEnvironments: async () => {
        throw new Error('HTTP 503')
      },
      deleteDistribution: async () => {
        throw new Error('must not be called')
      }
    } as unknown as CloudClient
    expect(await pruneDistributions(client, [dist('a', 300)], 1, [], { dryRun: false, startedAt: START })).toBe(0)
    expect(logged).toContainEqual(expect.stringMatching(/^warning: Pruning stopped .*could not be listed again/))
  })
})

describe('fresh uploads', () => {
  test('one stored within the last hour (with 5 minutes of clock skew) is kept, and the log says why', async () => {
    const stack = fakeStack([[]])
    const stored = [dist('old', 66), dist('recent', 64), dist('new', 10), dist('ahead', -10)]
    const n = await pruneDistributions(stack.client, stored, 1, [], { dryRun: false, startedAt: START })
    expect(stack.deleted).toEqual(['old'])
    expect(n).toBe(1)
    for (const id of ['recent', 'new', 'ahead']) {
      expect(logged).toContainEqual(expect.stringMatching(new RegExp(`^Pruning: kept distribution ${id} .*stored within the last hour`)))
    }
    expect(logged).toContainEqual(expect.stringMatching(/^warning: 3 more distribution\(s\) .* or was stored within the last hour/))
  })

  test('an undated record counts as old', async () => {
    const stack = fakeStack([[]])
    await pruneDistributions(stack.client, [dist('undated'), dist('new', 1)], 2, [], { dryRun: false, startedAt: START })
    expect(stack.deleted).toEqual(['undated'])
  })

  test('the dry run keeps them too', async () => {
    const said: string[] = []
    const n = await pruneDistributions(fakeStack([[]]).client, [dist('old', 120), dist('new', 5)], 1, [], {
      dryRun: true,
      say: (l) => said.push(l),
      startedAt: START
    })
    expect(n).toBe(1)
    expect(said).toEqual([expect.stringMatching(/^Would delete distribution old /)])
  })
})

describe('an environment that may be switching: no pruning this run', () => {
  test.each([
    ['no distributionId, status deploying', env('production', null, 'deploying')],
    ['no distributionId, status In Progress', env('production', null, 'In Progress')],
    ['no distributionId, a status other than empty', env('production', null, 'running')],
    ['an old distributionId, status deploying (what it switches to is not named)', env('production', 'c', 'deploying')]
  ])('%s', async (_label, busy) => {
    const stack = fakeStack([[busy]])
    const n = await pruneDistributions(stack.client, [dist('a', 300), dist('b', 200), dist('c', 100)], 1, [busy], { dryRun: false, startedAt: START })
    expect(n).toBe(0)
    expect(stack.deleted).toEqual([])
    expect(stack.listings()).toBe(0)
    expect(logged).toContainEqual(
      expect.stringMatching(/^warning: Not pruning this run: environment 'production' .* may be switching to a distribution that cannot be known/)
    )
  })

  test('no distributionId with status empty runs nothing: pruning goes on', async () => {
    const idle = env('development', null, 'empty')
    const stack = fakeStack([[idle]])
    expect(await pruneDistributions(stack.client, [dist('a', 300)], 1, [idle], { dryRun: false, startedAt: START })).toBe(1)
  })

  test.each([
    ['no distributionId', env('development', null)],
    ['a distributionId', env('development', 'c')]
  ])('no status field at all (%s): a deploy in progress cannot be seen, so nothing is deleted', async (_label, blind) => {
    const stack = fakeStack([[blind]])
    const n = await pruneDistributions(stack.client, [dist('a', 300), dist('b', 200), dist('c', 100)], 1, [blind], { dryRun: false, startedAt: START })
    expect(n).toBe(0)
    expect(stack.deleted).toEqual([])
    expect(logged).toContainEqual(
      expect.stringMatching(/^warning: Not pruning this run: environment 'development' .* with no status field, so a deploy in progress there cannot be seen/)
    )
  })

  test('an environment that shows no status at the look before a delete stops pruning', async () => {
    const stack = fakeStack([[env('development', 'x')]])
    const n = await pruneDistributions(stack.client, [dist('a', 300), dist('b', 200)], 1, [env('development', 'x', 'running')], {
      dryRun: false,
      startedAt: START
    })
    expect(n).toBe(0)
    expect(stack.deleted).toEqual([])
    expect(logged).toContainEqual(expect.stringMatching(/^warning: Pruning stopped before deleting distribution a .*with no status field/))
  })
})

describe('ids in another letter case', () => {
  test('an environment reporting an id in upper case keeps that distribution, at the start and at the look before a delete', async () => {
    const id = 'a1b2c3d4-0000-4000-8000-00000000000a'
    const other = 'a1b2c3d4-0000-4000-8000-00000000000b'
    const atStart = [env('production', id.toUpperCase(), 'running')]
    const stack = fakeStack([[env('production', id.toUpperCase(), 'running'), env('staging', other.toUpperCase(), 'running')]])
    const n = await pruneDistributions(stack.client, [dist(id, 300), dist(other, 200), dist('c', 100)], 1, atStart, { dryRun: false, startedAt: START })
    expect(stack.deleted).toEqual(['c'])
    expect(n).toBe(1)
    expect(logged).toContainEqual(expect.stringMatching(new RegExp(`^Pruning: kept distribution ${other} .*environment 'staging' runs it now`)))
  })
})
