// Deploy events through the bundled action (issue 32): a verified upgrade on the emulator tells a CDEvents
// receiver (a real HTTP stand-in) service.upgraded at the switch seen and service.published once verified, with
// ids keyed on the run and its attempt; a receiver that fails or never answers costs a warning, never the outcome.
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { DEFAULT_GITHUB_TOKEN, fakeSha, startGitHubStandIn } from '../src/emulator/github/server.js'
import { eventId } from '../src/events/cdevents.js'
import type { ObservedRun } from '../src/events/observed.js'
import { startEventsStandIn, type EventsStandIn } from './cdevents-standin.js'
import { ops, release, run, sweepAndClose } from './e2e-support.js'

const TOKEN = 'evt-token-e2e-5f1c'
const RUN = { GITHUB_RUN_ID: '4242', GITHUB_RUN_ATTEMPT: '2', GITHUB_ACTOR: 'octocat' }

let emu: Emulator
let stand: EventsStandIn
beforeEach(async () => {
  emu = await startEmulator({ deployLooks: 1 })
  stand = await startEventsStandIn()
})
afterEach(async () => {
  await stand.close()
  await sweepAndClose(emu, [TOKEN])
})

const deploy = (version: string, over: Record<string, string> = {}) => ({
  'api-url': emu.url,
  username: emu.username,
  password: emu.password,
  environment: 'production',
  distribution: release(version),
  'health-url': `${emu.url}/sites/production/version.txt`,
  'health-expect': version,
  ...over
})
const time = (iso: unknown): number => Date.parse(String(iso))

test('a verified upgrade: service.upgraded at the switch seen, service.published once verified, ids of this run attempt', async () => {
  const first = await run(deploy('v1.0.0'))
  expect(first.code).toBe(0)
  const before = emu.requests.length
  const r = await run(deploy('v1.0.1', { 'events-url': stand.url, 'events-token': TOKEN }), { env: RUN })
  expect(r.errors).toEqual([])
  expect(r.code).toBe(0)
  expect(r.visible).not.toMatch(/::warning::Events/)
  expect(r.visible).toContain('Events: CDEvents told.')

  expect(stand.received.map((e) => e.headers['ce-type'])).toEqual(['dev.cdevents.service.upgraded.0.3.0', 'dev.cdevents.service.published.0.3.0'])
  const [upgraded, published] = stand.received
  if (!upgraded?.body || !published?.body) throw new Error('no events')
  const id = r.outputs['distribution-id'] as string
  for (const e of stand.received) {
    expect(e.headers.authorization).toBe(`Bearer ${TOKEN}`)
    expect(e.headers['ce-specversion']).toBe('1.0')
    expect(e.headers['ce-source']).toBe('https://github.com/acme/site/actions/runs/4242')
    // With api-url and no stack, the stack is named by its API address.
    expect(e.headers['ce-subject']).toBe(`${emu.url}/production`)
    expect((e.body?.context as { chainId: string }).chainId).toBe((upgraded.body.context as { chainId: string }).chainId)
    expect(e.body?.customData).toMatchObject({ commit: '0123456789abcdef0123456789abcdef01234567', actor: 'octocat', runKey: '4242-2' })
  }
  // The ids: derived from the release attempt's chain (the run id and attempt, the run's start, the stack and environment) and the moment.
  const observed = { chainId: (upgraded.body.context as { chainId: string }).chainId } as ObservedRun
  expect(upgraded.headers['ce-id']).toBe(eventId(observed, { kind: 'upgraded', at: 0, evidence: '' }, 0))
  expect(published.headers['ce-id']).toBe(eventId(observed, { kind: 'published', at: 0, evidence: '' }, 1))
  expect(upgraded.headers['ce-id']).not.toBe(published.headers['ce-id'])
  expect(upgraded.body.subject).toMatchObject({ id: `${emu.url}/production`, content: { environment: { id: 'production' } } })
  // The distribution by its platform id; its file name and MD5 beside it.
  expect((upgraded.body.subject as { content: { artifactId: string } }).content.artifactId).toBe(`pkg:generic/${id.toLowerCase()}`)
  expect(upgraded.body.customData).toMatchObject({
    previousDistributionId: first.outputs['distribution-id'],
    distribution: { id, name: expect.stringMatching(/\.tar\.gz$/), md5: expect.stringMatching(/^[0-9a-f]{32}$/) }
  })

  // The times observed: the switch seen after the request, before the health check; published after the checks.
  const mine = emu.requests.slice(before)
  const request = mine.find((q) => q.operation === 'deploy')
  const looks = mine.filter((q) => q.operation === 'list-environments' && q.at > (request?.at ?? 0))
  const firstSite = mine.find((q) => q.operation === 'site')
  const lastSite = mine.filter((q) => q.operation === 'site').at(-1)
  const upgradedAt = time(upgraded.headers['ce-time'])
  const publishedAt = time(published.headers['ce-time'])
  expect((upgraded.body.context as { timestamp: string }).timestamp).toBe(upgraded.headers['ce-time'])
  expect(upgradedAt).toBeGreaterThan(request?.at ?? Infinity)
  expect(upgradedAt).toBeGreaterThanOrEqual(looks[1]?.at ?? Infinity)
  expect(upgradedAt).toBeLessThanOrEqual(firstSite?.at ?? 0)
  expect(publishedAt).toBeGreaterThanOrEqual(lastSite?.at ?? Infinity)
  expect(publishedAt).toBeGreaterThan(upgradedAt)
  expect(ops(emu, 'deploy').length).toBe(2)
})

test('two deploys of one environment in one run attempt: distinct ids and chains, the same source (the run)', async () => {
  const first = await run(deploy('v1.0.0', { 'events-url': stand.url }), { env: RUN })
  const second = await run(deploy('v1.0.1', { 'events-url': stand.url }), { env: RUN })
  expect([first.code, second.code]).toEqual([0, 0])
  expect(stand.received.map((e) => e.headers['ce-type'])).toEqual([
    'dev.cdevents.service.deployed.0.3.0',
    'dev.cdevents.service.published.0.3.0',
    'dev.cdevents.service.upgraded.0.3.0',
    'dev.cdevents.service.published.0.3.0'
  ])
  const ids = stand.received.map((e) => e.headers['ce-id'])
  expect(new Set(ids).size).toBe(4)
  expect(new Set(stand.received.map((e) => (e.body?.context as { chainId: string }).chainId)).size).toBe(2)
  expect(new Set(stand.received.map((e) => e.headers['ce-source']))).toEqual(new Set(['https://github.com/acme/site/actions/runs/4242']))
})

test('a receiver that answers 500: a warning naming CDEvents, the same outcome, outputs and exit code', async () => {
  stand.otherwise = 500
  const r = await run(deploy('v1.0.0', { 'events-url': stand.url, 'events-token': TOKEN }), { env: RUN })
  expect(r.code).toBe(0)
  expect(r.errors).toEqual([])
  expect(r.visible).toContain("::warning::Events: CDEvents was not told: it answered 500: not accepted. The deployment's outcome is unchanged.")
  expect(r.outputs['release-state']).toBe('verified')
  expect(stand.received.map((e) => e.headers['ce-type'])).toEqual(['dev.cdevents.service.deployed.0.3.0'])
})

test('a receiver that never answers: the run ends at events-timeout-seconds with a warning; the outcome is unchanged', async () => {
  stand.otherwise = 'hang'
  const began = Date.now()
  const r = await run(deploy('v1.0.0', { 'events-url': stand.url, 'events-timeout-seconds': '1' }))
  expect(r.code).toBe(0)
  expect(r.visible).toContain("::warning::Events: CDEvents was not told: no answer within 1 s (events-timeout-seconds). The deployment's outcome is unchanged.")
  expect(r.outputs['release-state']).toBe('verified')
  expect(stand.received).toHaveLength(1)
  // Generous: the run did not wait for the receiver beyond its limit (a hang would last the test's whole timeout).
  expect(Date.now() - began).toBeLessThan(60_000)
})

test('a run refused for a bad input still tells the receiver: one refused event, the failure its reason', async () => {
  const before = emu.requests.length
  const r = await run(deploy('v1.0.0', { 'health-url': '', 'events-url': stand.url }), { env: RUN })
  expect(r.code).toBe(1)
  expect(emu.requests.length).toBe(before)
  expect(stand.received.map((e) => e.headers['ce-type'])).toEqual(['dev.cdeventsx.brcloud-release.refused.0.1.0'])
  const subject = stand.received[0]?.body?.subject as { id: string; content: Record<string, unknown> }
  expect(subject.content).toMatchObject({ environment: { id: 'production' }, outcome: 'failure', reason: r.errors[0]?.replace(/^::error::/, '') })
})

test("a promotion's events name the commit the distribution was built from, never the promoting run's", async () => {
  const gh = await startGitHubStandIn()
  try {
    const [built, , promoting] = ['c1', 'c2', 'c3'].map(fakeSha) as [string, string, string]
    gh.model.linear('main', [built, fakeSha('c2'), promoting])
    const at = (sha: string) => ({ env: { ...RUN, GITHUB_API_URL: gh.url, GITHUB_SHA: sha } })
    const github = { 'github-token': DEFAULT_GITHUB_TOKEN }
    const acceptance = { environment: 'acceptance', 'health-url': `${emu.url}/sites/acceptance/version.txt`, ...github }
    expect((await run(deploy('v1.0.0', acceptance), at(built))).code).toBe(0)
    const r = await run(deploy('v1.0.0', { distribution: '', 'from-environment': 'acceptance', ...github, 'events-url': stand.url }), at(promoting))
    expect(r.code).toBe(0)
    expect(stand.received.map((e) => e.headers['ce-type'])).toEqual(['dev.cdevents.service.deployed.0.3.0', 'dev.cdevents.service.published.0.3.0'])
    for (const e of stand.received) {
      expect(e.body?.customData).toMatchObject({ commit: built })
      expect(e.body?.customData).not.toHaveProperty('ref')
    }
  } finally {
    await gh.close()
  }
})

test("a promotion refused for a bad input names no commit: the promoting run's is not what it meant to deploy", async () => {
  const r = await run(deploy('v1.0.0', { distribution: '', 'distribution-id': 'abcdef012345', 'health-url': '', 'events-url': stand.url }), { env: RUN })
  expect(r.code).toBe(1)
  expect(stand.received.map((e) => e.headers['ce-type'])).toEqual(['dev.cdeventsx.brcloud-release.refused.0.1.0'])
  expect(stand.received[0]?.body?.customData).not.toHaveProperty('commit')
})
