// What the GitHub Deployments of this repository say about a stack (src/github/evidence.ts), read through the real
// client from the GitHub stand-in over HTTP: which ones belong to this stack, when they are listed again, the commit
// a distribution was built from and its evidence, a deploy made outside the action, and who holds an environment.
import { DEFAULT_GITHUB_TOKEN, fakeSha, startGitHubStandIn } from '../src/emulator/github/server.js'
import { runOfAcmeSite } from './github-run.js'

const standIn = await startGitHubStandIn({ owner: 'acme', repo: 'site' })
runOfAcmeSite(standIn.url, fakeSha('run'))
const { GitHubApi } = await import('../src/github/client.js')
const { DeploymentHistory } = await import('../src/code-host/evidence.js')

afterAll(async () => {
  await standIn.close()
})

const STACK = 'https://api.acme.bloomreach.cloud'
const [A, B, C, D, E, F, G] = standIn.model.linear('main', ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map(fakeSha)) as [
  string,
  string,
  string,
  string,
  string,
  string,
  string
]

/** Each test gets environments of its own: the stand-in's history is shared by the file. */
let envNo = 0
const env = (name: string): string => `${name}-${++envNo}`

/** A Deployment another run made, recording `payload`, with a status when given. */
function recorded(
  environment: string,
  sha: string,
  payload: Record<string, unknown>,
  state?: 'in_progress' | 'queued' | 'pending' | 'success' | 'failure'
): number {
  const d = standIn.model.addDeployment({ ref: sha, environment, payload, creator: 'octocat' })
  if (state) standIn.model.addStatus(d.id, { state, log_url: `https://github.example/acme/site/actions/runs/${d.id}`, auto_inactive: false })
  return d.id
}

async function history(apiUrl = STACK) {
  return new DeploymentHistory(await GitHubApi.open(DEFAULT_GITHUB_TOKEN), apiUrl)
}

const lists = (): number => standIn.calls.filter((c) => c.route === 'list-deployments').length
const noFacts = async (): Promise<never> => {
  throw new Error('the distribution was not to be asked for')
}

describe('the Deployments of this stack', () => {
  test('one naming this stack, also with trailing slashes or in another case; one naming no stack; not another stack', async () => {
    const prod = env('production')
    const plain = recorded(prod, A, { distributionId: 'd1', apiUrl: STACK })
    const slashes = recorded(prod, B, { distributionId: 'd2', apiUrl: `${STACK}//` })
    const upper = recorded(prod, C, { distributionId: 'd3', apiUrl: STACK.toUpperCase() })
    const none = recorded(prod, D, { distributionId: 'd4' })
    recorded(prod, E, { distributionId: 'd5', apiUrl: 'https://api.other.bloomreach.cloud' })
    const ids = (await (await history()).deployments(prod)).map((d) => d.id)
    expect(ids).toEqual([none, upper, slashes, plain])
    // The stack as the run names it may end in a slash too.
    expect((await (await history(`${STACK}/`)).deployments(prod)).map((d) => d.id)).toEqual([none, upper, slashes, plain])
  })

  test('listed once per look, per environment; all of them apart; a new look lists again', async () => {
    const prod = env('production')
    recorded(prod, A, { distributionId: 'd1' })
    const h = await history()
    const before = lists()
    await h.deployments(prod)
    await h.deployments(prod)
    expect(lists() - before).toBe(1)
    await h.deployments()
    await h.deployments()
    expect(lists() - before).toBe(2)
    const first = recorded(prod, B, { distributionId: 'd2' })
    expect((await h.deployments(prod)).map((d) => d.id)).not.toContain(first)
    h.refresh()
    expect((await h.deployments(prod)).map((d) => d.id)).toContain(first)
    expect(lists() - before).toBe(3)
  })

  test('a list that failed is not kept: the next read asks again', async () => {
    const prod = env('production')
    const id = recorded(prod, A, { distributionId: 'd1' })
    const h = await history()
    standIn.fail('list-deployments', { status: 404, times: 1 })
    await expect(h.deployments(prod)).rejects.toThrow(/Listing GitHub Deployments/)
    expect((await h.deployments(prod)).map((d) => d.id)).toEqual([id])
  })
})

describe('the commit a distribution was built from', () => {
  test("this environment's Deployment first, though another environment recorded the id since; its run and state", async () => {
    const prod = env('production')
    const staging = env('staging')
    const here = recorded(prod, A, { distributionId: 'ABC1' }, 'success')
    recorded(staging, B, { distributionId: 'abc1' }, 'success')
    expect(await (await history()).commitOf('abc1', prod, noFacts)).toEqual({
      sha: A,
      from: 'deployment',
      deployment: {
        id: here,
        environment: prod,
        by: 'octocat',
        runUrl: `https://github.example/acme/site/actions/runs/${here}`,
        state: 'success',
        noun: 'GitHub Deployment'
      }
    })
  })

  test('no environment given, or none recorded it here: the newest Deployment of any environment that did', async () => {
    const prod = env('production')
    const staging = env('staging')
    recorded(prod, A, { distributionId: 'other' })
    recorded(staging, B, { distributionId: 'id-2' })
    const newest = recorded(env('qa'), C, { distributionId: 'id-2' })
    const h = await history()
    expect(await h.commitOf('id-2', prod, noFacts)).toMatchObject({ sha: C, deployment: { id: newest, runUrl: undefined, state: undefined } })
    expect(await h.commitOf('id-2', undefined, noFacts)).toMatchObject({ sha: C, deployment: { id: newest } })
  })

  test("a Deployment that marked its commit unknown is skipped; then the distribution's name; none: no evidence", async () => {
    const prod = env('production')
    recorded(prod, A, { distributionId: 'id-3', commit: 'unknown' })
    const h = await history()
    const name = `site-${D.slice(0, 7)}-distribution.tar.gz`
    expect(await h.commitOf('id-3', prod, async () => ({ id: 'id-3', name }))).toEqual({ sha: D.slice(0, 7), from: 'name', name })
    expect(await h.commitOf('id-3', prod, async () => ({ id: 'id-3', name: 'hand-made.tar.gz' }))).toBeUndefined()
  })
})

describe('a deploy made outside the action', () => {
  test('the newest Deployment that recorded an id, when none recorded the one running (in any case); a Deployment with no id is passed over', async () => {
    const prod = env('production')
    const other = recorded(prod, A, { distributionId: 'other' })
    recorded(prod, B, { note: 'a deploy by another tool' })
    const h = await history()
    expect((await h.recordedOther(prod, 'running'))?.id).toBe(other)
    recorded(prod, C, { distributionId: 'newer' })
    h.refresh()
    expect((await h.recordedOther(prod, 'running'))?.payload.distributionId).toBe('newer')
  })

  test('none when any of them recorded the one running, newest or not, in another case', async () => {
    const prod = env('production')
    recorded(prod, A, { distributionId: 'RUNNING' })
    recorded(prod, B, { distributionId: 'other' })
    expect(await (await history()).recordedOther(prod, 'running')).toBeUndefined()
    expect(await (await history()).recordedOther(env('empty'), 'running')).toBeUndefined()
  })
})

describe('who holds the environment', () => {
  test('a Deployment under way (in progress, queued, pending), not the one excepted; a final one holds nothing', async () => {
    const prod = env('production')
    const queued = recorded(prod, A, { distributionId: 'q' }, 'queued')
    recorded(prod, B, { distributionId: 'done' }, 'failure')
    const mine = recorded(prod, C, { distributionId: 'mine' }, 'in_progress')
    const h = await history()
    expect(await h.underWay(prod, mine)).toEqual({
      sha: A,
      from: 'deployment',
      deployment: {
        id: queued,
        environment: prod,
        by: 'octocat',
        runUrl: `https://github.example/acme/site/actions/runs/${queued}`,
        state: 'queued',
        noun: 'GitHub Deployment'
      }
    })
    expect((await h.underWay(prod, undefined))?.deployment?.id).toBe(mine)
    const pending = env('production')
    recorded(pending, D, {}, 'pending')
    expect((await h.underWay(pending, undefined))?.deployment?.state).toBe('pending')
    const settled = env('production')
    recorded(settled, E, {}, 'success')
    recorded(settled, F, {})
    expect(await h.underWay(settled, undefined)).toBeUndefined()
  })

  test('only the five newest are read: an older one under way is history, not a holder', async () => {
    const prod = env('production')
    recorded(prod, G, {}, 'in_progress')
    for (const sha of [A, B, C, D, E]) recorded(prod, sha, {}, 'success')
    const h = await history()
    const before = standIn.calls.filter((c) => c.route === 'list-statuses').length
    expect(await h.underWay(prod, undefined)).toBeUndefined()
    expect(standIn.calls.filter((c) => c.route === 'list-statuses').length - before).toBe(5)
  })

  test('a status that cannot be read is passed over: the next one under way holds it', async () => {
    const prod = env('production')
    const older = recorded(prod, A, {}, 'in_progress')
    recorded(prod, B, {}, 'queued')
    const h = await history()
    standIn.fail('list-statuses', { status: 404, times: 1 })
    expect((await h.underWay(prod, undefined))?.deployment?.id).toBe(older)
  })
})
