import { planPruning } from '../src/cloud/prune.js'
import { builtBefore, countKept, describeKeep, isFresh, Keeps, type KeepReason } from '../src/cloud/prune-keep.js'
import { PruneRecords } from '../src/github/prune-records.js'
import type { GitHubApi, GitHubDeploymentRecord } from '../src/github/client.js'

const d = (id: string, day: number) => ({ id, name: `${id}.tar.gz`, createdAt: new Date(Date.UTC(2026, 0, day)).toISOString() })
const runs = (environment: string): KeepReason => ({ kind: 'runs', environment })
const none = () => undefined

describe('planPruning', () => {
  const five = [d('e', 5), d('a', 1), d('c', 3), d('b', 2), d('d', 4)]
  const keeping =
    (...ids: string[]) =>
    (x: { id: string }) =>
      ids.includes(x.id) ? runs('production') : undefined

  test('deletes the oldest until at most max-1 remain, so the upload lands at max', () => {
    expect(planPruning(five, 3, none).toDelete.map((x) => x.id)).toEqual(['a', 'b', 'c'])
    expect(planPruning(five, 5, none).toDelete.map((x) => x.id)).toEqual(['a'])
  })

  test('nothing to do below the limit', () => {
    expect(planPruning(five, 6, none)).toEqual({ toDelete: [], kept: [], shortBy: 0 })
    expect(planPruning([], 1, none)).toEqual({ toDelete: [], kept: [], shortBy: 0 })
  })

  test('never deletes one that must stay; takes the next oldest instead, and says which it kept and why', () => {
    const plan = planPruning(five, 4, keeping('a', 'c'))
    expect(plan.toDelete.map((x) => x.id)).toEqual(['b', 'd'])
    expect(plan.kept.map((k) => [k.distribution.id, k.reason])).toEqual([
      ['a', runs('production')],
      ['c', runs('production')]
    ])
  })

  test('says how many more it could not delete', () => {
    const plan = planPruning([d('a', 1), d('b', 2)], 1, keeping('a', 'b'))
    expect(plan.toDelete).toEqual([])
    expect(plan.shortBy).toBe(2)
  })

  test('undated records count as the oldest', () => {
    expect(planPruning([d('new', 9), { id: 'undated' }, d('old', 1)], 3, none).toDelete.map((x) => x.id)).toEqual(['undated'])
  })
})

describe('what must stay', () => {
  test('ids in any letter case; the strongest reason wins whichever came first', () => {
    const keeps = new Keeps()
    keeps.add('AB-1', { kind: 'fresh' })
    keeps.add('ab-1', { kind: 'ran', environment: 'development' })
    keeps.add('ab-1', { kind: 'previous', environment: 'production', deployment: 7 })
    expect(keeps.why('Ab-1')).toEqual({ kind: 'previous', environment: 'production', deployment: 7 })
    keeps.add('ab-1', { kind: 'fresh' })
    expect(keeps.why('ab-1')).toEqual({ kind: 'previous', environment: 'production', deployment: 7 })
    keeps.add(null, { kind: 'fresh' })
    keeps.add('', { kind: 'fresh' })
    expect(keeps.why('')).toBeUndefined()
  })

  test('fresh: stored within the hour before the run began, with a quarter of an hour for a platform clock off ours', () => {
    const start = Date.UTC(2026, 5, 1, 12)
    const at = (minutes: number) => ({ id: 'x', createdAt: new Date(start - minutes * 60_000).toISOString() })
    expect(isFresh(at(75), start)).toBe(true)
    expect(isFresh({ id: 'x', createdAt: new Date(start - 75 * 60_000 - 1).toISOString() }, start)).toBe(false)
    expect(isFresh(at(-20), start)).toBe(true)
    expect(isFresh({ id: 'undated' }, start)).toBe(false)
    expect(isFresh({ id: 'bad', createdAt: 'yesterday' }, start)).toBe(false)
  })

  test('each reason in the words of the log line', () => {
    expect(describeKeep(runs('production'))).toBe("environment 'production' runs it")
    expect(describeKeep({ kind: 'ran', environment: 'production' })).toBe(
      "environment 'production' ran it earlier in this run: it is that environment's previous distribution, its likely rollback target"
    )
    expect(describeKeep({ kind: 'previous', environment: 'production', deployment: 7 })).toBe(
      "GitHub Deployment 7 records it as what 'production' ran before its latest deploy: its likely rollback target"
    )
    expect(describeKeep({ kind: 'requested', environment: 'staging', deployment: 8 })).toBe(
      "GitHub Deployment 8 of 'staging' named it within the last hour: that deploy may still be switching"
    )
    expect(describeKeep({ kind: 'in-progress', environment: 'staging', deployment: 9, state: 'in_progress' })).toBe(
      "GitHub Deployment 9 of 'staging' that names it is still in progress"
    )
    expect(describeKeep({ kind: 'built-before', environment: 'production', runs: 'X' })).toBe(
      "the newest one stored before X, which environment 'production' reported running: likely what ran there before it, its rollback target (no record names one)"
    )
    expect(describeKeep({ kind: 'fresh' })).toBe("stored within the last hour: it may be another job's upload about to be deployed")
  })

  test('built-before: the newest one stored before what runs, by createdAt (ids in any case); none when that one is undated or not listed', () => {
    const undated = { id: 'u' }
    const stack = [d('c', 3), d('a', 1), undated, d('run', 5), d('b', 2), d('new', 9)]
    expect(builtBefore(stack, 'RUN')?.id).toBe('c')
    expect(builtBefore(stack, 'a')).toBeUndefined()
    expect(builtBefore(stack, 'u')).toBeUndefined()
    expect(builtBefore(stack, 'gone')).toBeUndefined()
    expect(builtBefore([{ id: 'bad', createdAt: 'yesterday' }, d('run', 5)], 'run')).toBeUndefined()
    // One stored at the same moment is not before it; of two at one moment, the one pruning would delete last.
    expect(builtBefore([d('twin', 5), d('run', 5)], 'run')).toBeUndefined()
    expect(builtBefore([d('y', 2), d('x', 2), d('run', 5)], 'run')?.id).toBe('y')
  })

  test('ranked after what GitHub records, and after what an environment reported in this run', () => {
    const keeps = new Keeps()
    const guess: KeepReason = { kind: 'built-before', environment: 'production', runs: 'x' }
    keeps.add('a', guess)
    keeps.add('a', { kind: 'fresh' })
    expect(keeps.why('a')).toEqual(guess)
    keeps.add('a', { kind: 'ran', environment: 'production' })
    expect(keeps.why('a')).toEqual({ kind: 'ran', environment: 'production' })
    keeps.add('b', guess)
    keeps.add('b', { kind: 'previous', environment: 'production', deployment: 7 })
    expect(keeps.why('b')?.kind).toBe('previous')
  })

  test('counted by reason, in one order, singular and plural', () => {
    const kept: KeepReason[] = [
      { kind: 'fresh' },
      runs('a'),
      { kind: 'fresh' },
      { kind: 'ran', environment: 'a' },
      { kind: 'previous', environment: 'b', deployment: 1 },
      { kind: 'built-before', environment: 'c', runs: 'x' },
      { kind: 'in-progress', environment: 'b', deployment: 2, state: 'queued' }
    ]
    expect(countKept(kept)).toEqual([
      '1 runs on an environment',
      '3 are the previous distributions of an environment (a likely rollback target)',
      '1 is named by a GitHub Deployment in progress or requested within the last hour',
      '2 were stored within the last hour (another job may be about to deploy them)'
    ])
    expect(countKept([runs('a'), runs('b'), { kind: 'requested', environment: 'b', deployment: 3 }, { kind: 'fresh' }])).toEqual([
      '2 run on an environment',
      '1 is named by a GitHub Deployment in progress or requested within the last hour',
      '1 was stored within the last hour (another job may be about to deploy it)'
    ])
    expect(countKept([])).toEqual([])
  })
})

describe("what GitHub's records say must stay (PruneRecords.keep)", () => {
  const NOW = Date.UTC(2026, 5, 1, 12)
  /** Each Deployment's latest status, as GitHub would answer it (none: pending); every one done unless a test says. */
  const statuses = new Map<number, string>()
  const github = { latestStatus: async (id: number) => ({ state: statuses.get(id) ?? 'success' }) }
  const records = new PruneRecords(github as unknown as GitHubApi, 'https://api.acme.bloomreach.cloud', () => NOW)
  let id = 0
  /** A Deployment of `environment`, newest first in the list as GitHub gives them, `hoursAgo`. */
  const rec = (environment: string, distributionId: string, previousDistributionId?: string, hoursAgo = 5): GitHubDeploymentRecord => ({
    id: ++id,
    sha: 'a'.repeat(40),
    environment,
    payload: { distributionId, previousDistributionId },
    creator: 'octocat',
    createdAt: new Date(NOW - hoursAgo * 3_600_000).toISOString()
  })
  const env = (name: string, distributionId: string | null) => ({ id: `env-${name}`, name, distributionId })
  const kept = async (list: GitHubDeploymentRecord[], environments: Array<ReturnType<typeof env>>, ids: string[]) => {
    const keeps = new Keeps()
    await records.keep(list, environments, keeps)
    return ids.map((x) => keeps.why(x)?.kind ?? 'may go')
  }

  test('the previous the payload names, for what the environment runs (ids in any case); none of another environment', async () => {
    const list = [rec('production', 'X', 'P'), rec('staging', 'S', 'Q')]
    expect(await kept(list, [env('production', 'x')], ['p', 'X', 'S', 'Q'])).toEqual(['previous', 'previous', 'may go', 'may go'])
  })

  test('a redeploy that names itself as its previous: the one before it; an older version wrote none: the one recorded before', async () => {
    expect(await kept([rec('production', 'X', 'X'), rec('production', 'X', 'O'), rec('production', 'O')], [env('production', 'X')], ['O'])).toEqual([
      'previous'
    ])
    expect(
      await kept([rec('production', 'X'), rec('production', 'X'), rec('production', 'Y'), rec('production', 'Z')], [env('production', 'X')], ['Y', 'Z'])
    ).toEqual(['previous', 'may go'])
  })

  test('back on what it ran before another (a rollback, or a deploy abandoned after its id was reported): the one before that stays too', async () => {
    // Newest first: B over X (its payload names X, reported at request), X over B (abandoned), B, and V before it.
    const list = [rec('production', 'B', 'X'), rec('production', 'X', 'B'), rec('production', 'B'), rec('production', 'V')]
    expect(await kept(list, [env('production', 'B')], ['X', 'V'])).toEqual(['previous', 'previous'])
    // Named only as a payload's previous, never recorded as deployed here (fresh seed 1951830756): the one before stays.
    expect(await kept([rec('production', 'C', 'A'), rec('production', 'B')], [env('production', 'C')], ['A', 'B'])).toEqual(['previous', 'previous'])
    // An ordinary chain keeps one: X ran before B, W before X.
    expect(await kept([rec('production', 'B', 'X'), rec('production', 'X', 'W'), rec('production', 'W', 'V')], [env('production', 'B')], ['X', 'W'])).toEqual([
      'previous',
      'may go'
    ])
  })

  test('an environment that runs what no record names: the latest one recorded ran before it; with no id shown, also the one before that', async () => {
    const list = [rec('production', 'X', 'P'), rec('production', 'P', 'Q')]
    expect(await kept(list, [env('production', 'H')], ['X', 'P', 'Q'])).toEqual(['previous', 'may go', 'may go'])
    expect(await kept(list, [env('production', null)], ['X', 'P', 'Q'])).toEqual(['previous', 'previous', 'may go'])
    expect(await kept([], [env('production', 'H')], ['H'])).toEqual(['may go'])
  })

  test.each(['in_progress', 'pending', 'queued', 'failure', 'error'])(
    'the latest one recorded not done (%s): it may never have served, so what ran before it stays too',
    async (state) => {
      // Fresh seed 410796983: our promotion still waiting on a busy production (its record the latest), while another
      // job's unrecorded deploys landed; what served before them was the one recorded before ours.
      const list = [rec('production', 'X', 'P'), rec('production', 'P', 'Q')]
      statuses.set(list[0]?.id ?? 0, state)
      expect(await kept(list, [env('production', 'H')], ['X', 'P', 'Q'])).toEqual(['previous', 'previous', 'may go'])
      expect(await kept([rec('production', 'A'), rec('production', 'B')], [env('production', 'H')], ['A', 'B'])).toEqual(['previous', 'may go'])
    }
  )

  test('namesPrevious: only a payload that names what ran before what the environment runs (through redeploys), in that environment', () => {
    const names = (list: GitHubDeploymentRecord[], runs: string, environment = 'production') => records.namesPrevious(list, environment, runs)
    expect(names([rec('production', 'X', 'P')], 'x')).toBe(true)
    expect(names([rec('production', 'X', 'X'), rec('production', 'X', 'O')], 'X')).toBe(true)
    // Covered, but an earlier version wrote no previous (the order of records is no proof), or a redeploy over an unrecorded one.
    expect(names([rec('production', 'X'), rec('production', 'O')], 'X')).toBe(false)
    expect(names([rec('production', 'X', 'X'), rec('production', 'O', 'N')], 'X')).toBe(false)
    // Not covered: deployed from Mission Control after the latest record; or recorded in another environment only.
    expect(names([rec('production', 'R', 'P')], 'M')).toBe(false)
    expect(names([rec('staging', 'X', 'P')], 'X')).toBe(false)
    expect(names([], 'X')).toBe(false)
  })

  test('what a Deployment of the last hour and a quarter names stays, whatever its environment; an older one does not', async () => {
    const list = [rec('gone', 'R', 'S', 1.2), rec('gone', 'T', 'U', 1.3)]
    expect(await kept(list, [], ['R', 'S', 'T', 'U'])).toEqual(['requested', 'requested', 'may go', 'may go'])
  })
})
