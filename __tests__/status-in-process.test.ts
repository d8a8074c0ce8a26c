// The status report driven as the deterministic simulation drives the deploy (issue 41): in-process, under a fake clock,
// with the simulation's transports (./sim/transport.ts: HttpTransport and the OAuth door's fetch answered by the
// emulator's stack `handle`, octokit's fetch by the GitHub stand-in's core) and no socket. A report that waited on a
// real-time timer (AbortSignal.timeout, a real socket's limit) would wait on nothing the fake clock reaches: `drive`
// fails it. How to call it: prepareStatus(config, env) -> readStatus(prepared, { github, repository, retry, stop }),
// with @actions/github, src/http/transport.js and src/http/fetch.js mocked as below and `wire` set to the stack and GitHub.
import { jest } from '@jest/globals'
import { EventEmitter } from 'node:events'
import { GitHub, getOctokitOptions } from '@actions/github/lib/utils'
import { createStack, type Stack } from '../src/emulator/stack.js'
import { createGitHubStandIn, DEFAULT_GITHUB_TOKEN, fakeSha, type GitHubCore } from '../src/emulator/github/server.js'
import type { StoredDistribution } from '../src/emulator/types.js'
import { deployAs } from '../src/emulator/test-hooks.js'
import * as simTransport from './sim/transport.js'
import { useTestPort } from './test-port.js'

const GITHUB_API = 'http://github.sim'
jest.unstable_mockModule('@actions/github', () => ({
  context: { apiUrl: GITHUB_API },
  getOctokit: (token: string) => new GitHub(getOctokitOptions(token, { baseUrl: GITHUB_API, request: { fetch: simTransport.httpFetch } }))
}))
jest.unstable_mockModule('../src/http/transport.js', () => simTransport)
jest.unstable_mockModule('../src/http/fetch.js', () => ({ httpFetch: simTransport.httpFetch }))
const { parseStatusConfig, prepareStatus, readStatus } = await import('../src/status/index.js')
const { stoppable, StatusCancelled } = await import('../src/status/stop.js')
const { runnerContext } = await import('../src/github/runner-context.js')
const { wire } = simTransport

const API = 'https://api.sim.example'
const [A, B] = ['a', 'b'].map(fakeSha) as [string, string]
const warnings: string[] = []

beforeEach(() => {
  warnings.length = 0
  useTestPort({ warning: (m) => warnings.push(m) })
  jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'hrtime'], now: new Date('2026-11-24T08:00:00Z') })
})
afterEach(() => {
  jest.useRealTimers()
})

function distribution(id: string, name: string): StoredDistribution {
  const at = new Date(Date.now() - 3_600_000).toISOString()
  return {
    id,
    name,
    createdAt: at,
    createdBy: 'ci',
    modifiedAt: at,
    modifiedBy: 'ci',
    md5hash: 'f'.repeat(32),
    sha256: '',
    size: 1,
    files: { 'version.txt': 'ok\n' }
  }
}

/** A stack whose production runs a release a GitHub Deployment recorded at main's head, acceptance nothing; GitHub with main a-b. */
function world(options: { environmentStatus?: boolean } = {}): { stack: Stack; github: GitHubCore } {
  const stack = createStack({ environments: ['production', 'acceptance'], environmentStatus: options.environmentStatus ?? true }, '/nonexistent-status-storage')
  const id = '6f1c1d9e-0000-4000-8000-000000000001'
  stack.state.distributions.push(distribution(id, 'release.tar.gz'))
  deployAs(stack.state, 'production', id, { seconds: 0 })
  const github = createGitHubStandIn({ now: () => Date.now() })
  github.setApi(GITHUB_API)
  github.model.linear('main', [A, B])
  const d = github.model.addDeployment({ ref: B, environment: 'production', payload: { distributionId: id, apiUrl: API } })
  github.model.addStatus(d.id, { state: 'success' })
  Object.assign(wire, { stack, github, githubFate: () => ({ kind: 'answer' }), latencyMs: () => 0, seq: 0, looks: [], deploys: [], killed: false })
  return { stack, github }
}

const FILE = `track: main\nstacks:\n  - name: sim\n    api-url: ${API}\n    health-url: ${API}/sites/{environment}/version.txt\n`
const ENV = { BRCLOUD_USERNAME: 'deployer', BRCLOUD_PASSWORD: 'emulator-password' }
const QUICK = { attempts: 2, baseDelayMs: 500, maxDelayMs: 1_000, maxTotalMs: 30_000 }

function read(stop?: NonNullable<Parameters<typeof readStatus>[1]>['stop']): ReturnType<typeof readStatus> {
  return readStatus(prepareStatus(parseStatusConfig(FILE, 'sim.yml'), ENV), {
    github: { token: DEFAULT_GITHUB_TOKEN, context: { ...runnerContext(), repository: 'acme/site' } },
    repository: 'acme/site',
    retry: QUICK,
    stop
  })
}

/** Moves the fake clock until `work` settles; fails when it waits on nothing the clock reaches (a real-time wait). */
async function drive<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const start = Date.now()
  let settled: { ok: true; value: T } | { ok: false; error: unknown } | undefined
  void work.then(
    (value) => (settled = { ok: true, value }),
    (error: unknown) => (settled = { ok: false, error })
  )
  for (let steps = 0; steps < 10_000; steps++) {
    for (let i = 0; i < 12; i++) await new Promise<void>((resolve) => setImmediate(resolve))
    if (settled !== undefined) {
      if (!settled.ok) throw settled.error
      return { value: settled.value, ms: Date.now() - start }
    }
    if (jest.getTimerCount() === 0) throw new Error('the report waits on nothing the fake clock reaches (a real-time wait)')
    jest.advanceTimersToNextTimer()
  }
  throw new Error('the report did not end within 10,000 steps of the clock')
}

test('read in full in-process: the stack, its health probe and GitHub, every call answered without a socket', async () => {
  const { stack } = world()
  const { value: r } = await drive(read())
  expect(r.environments.map((e) => [e.environment, e.state, e.evidence, e.health])).toEqual([
    ['production', 'in-sync', 'deployment', 'ok'],
    ['acceptance', 'empty', 'unknown', 'failing']
  ])
  expect(r.stacks[0]?.errors).toEqual([])
  expect(stack.requests.map((q) => q.operation)).toEqual(expect.arrayContaining(['login', 'list-environments', 'get-distribution', 'site', 'revoke-refresh']))
})

test('every call limit runs on the fake clock: a stack that never answers, GitHub that never answers; the report ends and fails closed', async () => {
  const { stack } = world()
  stack.faults.add({ operation: 'list-environments', kind: 'hang', times: 5 })
  wire.githubFate = () => ({ kind: 'hang' })
  const { value: r, ms } = await drive(read())
  expect(r.stacks[0]?.errors).toEqual([expect.stringMatching(/^the stack could not be read: .*no answer within 30 s/)])
  // The call's 30 s limit (the retries' 30 s budget spent by it), in fake time: never real seconds.
  expect(ms).toBeGreaterThanOrEqual(30_000)
  expect(ms).toBeLessThan(40_000)
  expect(stack.requests.filter((q) => q.operation === 'revoke-refresh').map((q) => q.status)).toEqual([200])
})

test('GitHub that never answers: its 15 s limit and retries on the fake clock; the rows unknown, GitHub named', async () => {
  world()
  wire.githubFate = () => ({ kind: 'hang' })
  const { value: r } = await drive(read())
  // Even acceptance: its last Deployment could not be read, so nothing of it is claimed.
  expect(r.environments.map((e) => e.state)).toEqual(['unknown', 'unknown'])
  expect(r.githubErrors).toEqual([expect.stringMatching(/^GitHub could not be read: .*(no answer|did not answer)/)])
  expect(r.githubErrors[0]).toMatch(/ \(GitHub's API did not answer: check the network, a proxy, githubstatus\.com\)$/)
})

test('a cancel: every call aborted, the refresh token revoked on a closing door, StatusCancelled; the waits on the fake clock', async () => {
  const { stack } = world()
  stack.faults.add({ operation: 'list-environments', kind: 'hang', times: 1 })
  const signals = new EventEmitter()
  const reading = stoppable(signals, (stop) => read(stop))
  // The order forced: the listing is held by the stack before the cancel.
  while (!stack.requests.some((q) => q.operation === 'list-environments')) await new Promise<void>((resolve) => setImmediate(resolve))
  signals.emit('SIGINT', 'SIGINT')
  await expect(drive(reading)).rejects.toBeInstanceOf(StatusCancelled)
  expect(stack.requests.map((q) => `${q.operation} ${q.status}`)).toEqual(['login 200', 'list-environments 0', 'revoke-refresh 200'])
})

test('no status field, no id while switching: unknown, in-process as in the simulation', async () => {
  const { stack } = world({ environmentStatus: false })
  stack.state.settings.idWhileDeploying = 'absent'
  const next = '6f1c1d9e-0000-4000-8000-000000000002'
  stack.state.distributions.push(distribution(next, 'next.tar.gz'))
  deployAs(stack.state, 'production', next, { seconds: Number.POSITIVE_INFINITY })
  const { value: r } = await drive(read())
  expect(r.environments.map((e) => [e.environment, e.state])).toEqual([
    ['production', 'unknown'],
    ['acceptance', 'unknown']
  ])
  expect(warnings).toEqual([])
})
