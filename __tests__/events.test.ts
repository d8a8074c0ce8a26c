// What a run tells others (issue 32): the moments derived from a run's result (events/from-run.ts), the CDEvents
// v0.5.1 messages field by field (events/cdevents.ts), and the sends over real HTTP to a stand-in receiver with
// their limits and failures (events/dispatch.ts): a warning that names the service, never its address or token.
import { InputError } from '../src/errors.js'
import { observeRun, uuidOf, type RunFacts } from '../src/events/from-run.js'
import { CDEVENT_TYPES, cdevent, cdeventsSink, eventId, headerValue, purlOf } from '../src/events/cdevents.js'
import { tellOthers } from '../src/events/dispatch.js'
import { datadogDeployments } from '../src/events/sinks/datadog.js'
import { newRelicDeployments } from '../src/events/sinks/new-relic.js'
import type { DeployResult } from '../src/deploy/result.js'
import type { ObservedKind, ObservedRun, Sink } from '../src/events/observed.js'
import type { RunContext } from '../src/port.js'
import type { RunResult } from '../src/report.js'
import { registerSecret } from '../src/secrets.js'
import { deployResult, releaseOf } from './report-fixtures.js'
import { startEventsStandIn, type EventsStandIn } from './cdevents-standin.js'
import { useTestPort } from './test-port.js'

const context = (over: Partial<RunContext> = {}): RunContext => ({
  sha: 'c0ffee'.padEnd(40, '0'),
  noCommit: '',
  ref: 'refs/heads/main',
  repository: 'acme/site',
  serverUrl: 'https://github.com',
  runUrl: 'https://github.com/acme/site/actions/runs/42',
  workspace: process.cwd(),
  runId: '42',
  runAttempt: '1',
  actor: 'octocat',
  ...over
})
const facts = (over: Partial<RunFacts> = {}): RunFacts => ({ context: context(), startedAt: 999_000, endedAt: 1_010_000, failure: undefined, ...over })
const runResult = (over: Partial<RunResult> = {}): RunResult => ({
  deploys: true,
  deploy: deployResult(),
  search: undefined,
  phases: [],
  error: undefined,
  ...over
})
const md5 = 'AB'.repeat(16)
/** A verified upgrade of site.tar.gz (md5 known) over dist-0: requested at 1 000 000, applied 1 001 000, verified 1 002 000. */
const upgraded = (): RunResult =>
  runResult({ deploy: deployResult({ archive: { name: 'site.tar.gz', source: 'packed', size: 2048, sha256: 'ab'.repeat(32), md5 } }) })
const kinds = (run: ObservedRun | undefined): ObservedKind[] | undefined => run?.events.map((e) => e.kind)

describe('observeRun: the moments of a run, from its result alone', () => {
  test('an upgrade seen and verified: upgraded at the switch seen (not the request), published at the verification', () => {
    const run = observeRun(upgraded(), facts())
    expect(run?.events).toEqual([
      { kind: 'upgraded', at: 1_001_000, evidence: 'evidence of applied' },
      { kind: 'published', at: 1_002_000, evidence: 'evidence of verified' }
    ])
    expect(run).toMatchObject({
      runKey: '42-1',
      stack: 'mystack',
      environment: 'development',
      distribution: { id: 'dist-1', name: 'site.tar.gz', md5, sha256: 'ab'.repeat(32) },
      previousDistributionId: 'dist-0',
      nowRunning: 'dist-1',
      commit: 'c0ffee'.padEnd(40, '0'),
      actor: 'octocat',
      runUrl: 'https://github.com/acme/site/actions/runs/42',
      outcome: 'success',
      releaseState: 'verified',
      startedAt: 999_000,
      endedAt: 1_010_000
    })
    expect(run?.chainId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  test('an environment that ran nothing before: deployed', () => {
    const result = runResult({
      deploy: deployResult({ previousDistributionId: undefined, release: releaseOf(['requested', 'applied'], { previous: undefined }) })
    })
    expect(kinds(observeRun(result, facts()))).toEqual(['deployed'])
  })

  test('a rollback: the upgrade, the rollback seen applied, then the failed ending at the run end; one chain', () => {
    const release = releaseOf(['requested', 'applied', 'failed', 'rollback-requested', 'rollback-applied'], { failure: { kind: 'unhealthy', message: 'x' } })
    const run = observeRun(runResult({ deploy: deployResult({ release }), error: 'The health check failed.' }), facts())
    expect(run?.events).toEqual([
      { kind: 'upgraded', at: 1_001_000, evidence: 'evidence of applied' },
      { kind: 'rolledback', at: 1_004_000, evidence: 'evidence of rollback-applied' },
      { kind: 'failed', at: 1_010_000, evidence: 'The health check failed.' }
    ])
    expect(run?.outcome).toBe('failure')
  })

  test('one chain per release attempt: the run id, its attempt, the stack and the environment', () => {
    const chain = (c: Partial<RunContext>, over: Partial<RunResult> = {}) => observeRun(runResult(over), facts({ context: context(c) }))?.chainId
    expect(chain({})).toBe(chain({}))
    expect(chain({ runAttempt: '2' })).not.toBe(chain({}))
    expect(chain({ runId: '43' })).not.toBe(chain({}))
    expect(chain({}, { deploy: deployResult({ environmentName: 'production' }) })).not.toBe(chain({}))
  })

  test('exactly one ending for each failed ending: refused, unconfirmed, cancelled, failed', () => {
    const ending = (over: Partial<RunResult>, failure?: unknown) => kinds(observeRun(runResult({ error: 'why', ...over }), facts({ failure })))
    const refusedOrder = deployResult({ release: undefined, order: { refused: true, order: 'behind' } as never })
    expect(ending({ deploy: refusedOrder })).toEqual(['refused'])
    expect(ending({ deploy: deployResult({ release: releaseOf(['waiting', 'failed'], { failure: { kind: 'busy', message: 'x' } }) }) })).toEqual(['refused'])
    expect(ending({ deploy: undefined, environment: 'production' }, new InputError('bad'))).toEqual(['refused'])
    expect(
      ending({
        deploy: deployResult({ release: releaseOf(['unconfirmed', 'failed'], { failure: { kind: 'unconfirmed', message: 'x' } }), finalLook: undefined })
      })
    ).toEqual(['unconfirmed'])
    expect(ending({ stopped: 'cancel', deploy: deployResult({ release: releaseOf(['requested']) }) })).toEqual(['cancelled'])
    expect(ending({ stopped: 'watchdog', deploy: deployResult({ release: releaseOf(['requested']) }) })).toEqual(['cancelled'])
    expect(ending({ deploy: deployResult({ release: releaseOf(['requested', 'failed'], { failure: { kind: 'not-applied', message: 'x' } }) }) })).toEqual([
      'failed'
    ])
    expect(ending({ deploy: deployResult({ release: undefined, upload: undefined }) })).toEqual(['failed'])
    const cancelled = observeRun(runResult({ error: 'why', stopped: 'cancel' }), facts())
    expect(cancelled?.outcome).toBe('cancelled')
  })

  test('nothing to tell: a dry run, a search check alone, an upload with no environment, a deploy skipped (already running)', () => {
    expect(observeRun(runResult({ deploy: deployResult({ dryRun: true, release: undefined }) }), facts())).toBeUndefined()
    expect(observeRun(runResult({ deploys: false, deploy: undefined }), facts())).toBeUndefined()
    expect(observeRun(runResult({ deploy: deployResult({ environmentName: undefined, release: undefined }) }), facts())).toBeUndefined()
    expect(observeRun(runResult({ deploy: deployResult({ skipped: true, release: undefined }) }), facts())).toBeUndefined()
    // A deploy requested whose switch was not followed: a run, with nothing observed to send as CDEvents.
    expect(kinds(observeRun(runResult({ deploy: deployResult({ release: releaseOf(['requested']) }) }), facts()))).toEqual([])
  })
})

describe("observeRun: the commit a promotion names is the distribution's, never the promoting run's", () => {
  const RUN_SHA = 'c0ffee'.padEnd(40, '0')
  const BUILT = 'b111d'.padEnd(40, '7')
  const promoted = (over: Partial<RunResult['deploy'] & object> = {}) =>
    deployResult({ source: 'id', archive: undefined, knownName: 'stored.tar.gz', knownMd5: undefined, ...over })
  const evidence = (from: 'run' | 'deployment' | 'name', sha: string) => ({
    order: 'ahead',
    runningDistributionId: 'dist-0',
    running: undefined,
    ours: { sha, from }
  })
  const named = (deploy: RunResult['deploy'], f: Partial<RunFacts> = {}) => {
    const run = observeRun(runResult({ deploy }), facts(f))
    return run && { commit: run.commit, ref: run.ref, customData: cdevent(run, run.events[0] ?? { kind: 'upgraded', at: 1, evidence: '' }, 0).body.customData }
  }

  test("an upload names this run's commit and ref", () => {
    expect(named(deployResult())).toMatchObject({ commit: RUN_SHA, ref: 'refs/heads/main', customData: { commit: RUN_SHA, ref: 'refs/heads/main' } })
  })

  test('a promotion names the commit a GitHub Deployment recorded for the distribution (the deploy order found it), without a ref', () => {
    const deploy = promoted({ order: evidence('deployment', BUILT.toUpperCase()) as never })
    expect(named(deploy)).toEqual({ commit: BUILT, ref: undefined, customData: expect.objectContaining({ commit: BUILT, ref: undefined }) })
    expect(named({ ...deploy, source: 'environment', fromEnvironment: 'staging' })?.commit).toBe(BUILT)
  })

  test("a promotion's default name carries its commit: from the order's evidence, or read off the name without github-token", () => {
    expect(named(promoted({ order: evidence('name', 'b111d77') as never }))?.commit).toBe('b111d77')
    expect(named(promoted({ knownName: 'site-B111D77-distribution.tar.gz' }))?.commit).toBe('b111d77')
    // Another repository's default name carries no commit of this one.
    expect(named(promoted({ knownName: 'shop-b111d77-distribution.tar.gz' }))?.commit).toBeUndefined()
  })

  test("a promotion whose commit no evidence names: none, never the run's own", () => {
    expect(named(promoted())).toEqual({ commit: undefined, ref: undefined, customData: expect.objectContaining({ commit: undefined, ref: undefined }) })
    // The order check read the run's own commit (as for an upload): no evidence of the distribution's.
    expect(named(promoted({ order: evidence('run', RUN_SHA) as never }))?.commit).toBeUndefined()
  })

  test('a promotion refused before its deployment began (a bad input) names no commit either', () => {
    const refusedEarly = (promotion: boolean) =>
      observeRun(runResult({ error: 'bad', deploy: undefined, environment: 'production' }), facts({ failure: new InputError('bad'), promotion }))?.commit
    expect(refusedEarly(true)).toBeUndefined()
    expect(refusedEarly(false)).toBe(RUN_SHA)
  })
})

/** The fields CDEvents v0.5.1 allows in a context (schemas/service*.json, custom/schema.json). */
const CONTEXT_FIELDS = ['specversion', 'id', 'source', 'type', 'timestamp', 'schemaUri', 'chainId', 'links']
const observed = (): ObservedRun => {
  const release = releaseOf(['requested', 'applied', 'verified', 'failed', 'rollback-requested', 'rollback-applied'] as never)
  const archive = { name: 'site 1.0@x.tar.gz', source: 'packed' as const, size: 1, sha256: 'a', md5 }
  const upload = { distributionId: 'dist-1', storedName: archive.name, attempts: 1, adopted: false }
  const run = observeRun(runResult({ deploy: deployResult({ release, archive, upload }) }), facts())
  if (!run) throw new Error('no run')
  return run
}

describe('the CDEvents of a run: v0.5.1, CloudEvents 1.0 binary mode', () => {
  const run = observed()
  const byKind = (kind: ObservedKind) => {
    const event = { kind, at: 1_001_500, evidence: `seen ${kind}` }
    return cdevent(run, event, 0)
  }

  test.each(['deployed', 'upgraded', 'rolledback', 'published'] as const)('service.%s: the required context and subject fields, and no other', (kind) => {
    const { headers, body } = byKind(kind)
    const ctx = body.context as Record<string, unknown>
    expect(ctx.specversion).toBe('0.5.1')
    expect(ctx.type).toBe(`dev.cdevents.service.${kind}.0.3.0`)
    expect(ctx.id).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/))
    expect(ctx.source).toBe('https://github.com/acme/site/actions/runs/42')
    expect(ctx.timestamp).toBe(new Date(1_001_500).toISOString())
    expect(ctx.chainId).toBe(run.chainId)
    for (const field of Object.keys(ctx)) expect(CONTEXT_FIELDS).toContain(field)
    const subject = body.subject as Record<string, unknown>
    expect(Object.keys(subject).sort()).toEqual(['content', 'id', 'source'])
    expect(subject.id).toBe('mystack/development')
    expect(subject.source).toBe('https://api.mystack.bloomreach.cloud')
    const content = subject.content as Record<string, unknown>
    expect(content.environment).toEqual({ id: 'development', source: 'https://missioncontrol.mystack.bloomreach.cloud' })
    // published has no artifactId in v0.5.1; the other three require it.
    if (kind === 'published') expect(Object.keys(content)).toEqual(['environment'])
    else expect(Object.keys(content).sort()).toEqual(['artifactId', 'environment'])
    if (kind === 'rolledback') expect(content.artifactId).toBe('pkg:generic/dist-0')
    else if (kind !== 'published') expect(content.artifactId).toBe('pkg:generic/dist-1')
    // The commit, the run's link and who ran it: custom data, as the content allows no other field.
    expect(body.customDataContentType).toBe('application/json')
    expect(body.customData).toMatchObject({ commit: 'c0ffee'.padEnd(40, '0'), runUrl: run.runUrl, actor: 'octocat', evidence: `seen ${kind}` })
    expect(Object.keys(body).sort()).toEqual(['context', 'customData', 'customDataContentType', 'subject'])
    expect(headers).toEqual({
      'ce-specversion': '1.0',
      'ce-id': ctx.id,
      'ce-source': 'https://github.com/acme/site/actions/runs/42',
      'ce-type': ctx.type,
      'ce-time': ctx.timestamp,
      'ce-subject': 'mystack/development',
      'content-type': 'application/json'
    })
  })

  test.each(['refused', 'unconfirmed', 'cancelled', 'failed'] as const)(
    'the %s ending: a dev.cdeventsx.brcloud-release event the custom schema admits',
    (kind) => {
      const { headers, body } = byKind(kind)
      const ctx = body.context as Record<string, unknown>
      expect(ctx.type).toBe(`dev.cdeventsx.brcloud-release.${kind}.0.1.0`)
      // custom/schema.json of v0.5.1: dev.cdeventsx.<tool>-<subject>.<predicate>.M.m.p
      expect(ctx.type).toMatch(/^dev\.cdeventsx\.[a-zA-Z0-9]+-[a-zA-Z]+\.[a-zA-Z]+\.[0-9]\.[0-9]\.[0-9]$/)
      expect(Object.keys(ctx).sort()).toEqual(['chainId', 'id', 'source', 'specversion', 'timestamp', 'type'])
      const subject = body.subject as { id: string; content: Record<string, unknown> }
      expect(subject.id).toBe('mystack/development')
      expect(subject.content).toMatchObject({ environment: { id: 'development' }, outcome: 'success', reason: `seen ${kind}` })
      expect(headers['ce-type']).toBe(ctx.type)
    }
  )

  test('every type is one of the four service events of v0.5.1 or ours', () => {
    expect(Object.values(CDEVENT_TYPES).filter((t) => t.startsWith('dev.cdevents.'))).toEqual([
      'dev.cdevents.service.deployed.0.3.0',
      'dev.cdevents.service.upgraded.0.3.0',
      'dev.cdevents.service.published.0.3.0',
      'dev.cdevents.service.rolledback.0.3.0'
    ])
  })

  test('event ids: the same for the same attempt and moment; never shared across attempts, moments or environments', () => {
    const again = observeRun(runResult(), facts({ context: context({ runAttempt: '2' }) }))
    const first = observeRun(runResult(), facts())
    if (!again || !first) throw new Error('no run')
    const ids = (r: ObservedRun) => r.events.map((e, i) => eventId(r, e, i))
    expect(ids(first)).toEqual(ids(observeRun(runResult(), facts()) as ObservedRun))
    const all = [...ids(first), ...ids(again)]
    expect(new Set(all).size).toBe(all.length)
    const prod = observeRun(runResult({ deploy: deployResult({ environmentName: 'production' }) }), facts()) as ObservedRun
    expect(ids(prod)).not.toContain(ids(first)[0])
  })

  test('a purl: the platform id in lower case, percent-encoded; header values as the binding wants', () => {
    expect(purlOf('5F3A9C')).toBe('pkg:generic/5f3a9c')
    expect(purlOf('a/b@c d')).toBe('pkg:generic/a%2Fb%40c%20d')
    expect(headerValue('stack/env name é')).toBe('stack/env%20name%20%C3%A9')
    // A byte under 0x10 keeps its two hex digits (a tab is %09, not %9), as do '"', '%' and DEL.
    expect(headerValue('a\tb"%\u007f')).toBe('a%09b%22%25%7F')
    expect(uuidOf('x')).toBe(uuidOf('x'))
  })
})

describe('one identity for a distribution in every event: its platform id, whatever the case; the name and MD5 beside it', () => {
  const artifact = (run: ObservedRun, kind: ObservedKind) => {
    const index = run.events.findIndex((e) => e.kind === kind)
    const { body } = cdevent(run, run.events[index] as never, index)
    return { artifactId: (body.subject as { content: { artifactId?: string } }).content.artifactId, customData: body.customData as Record<string, unknown> }
  }
  const archive = { name: 'site-1.4.0.tar.gz', source: 'packed' as const, size: 1, sha256: 'a', md5 }
  /** A run that uploaded DIST-7 (the upload answered its id in upper case) over dist-6. */
  const deployedIt = observeRun(
    runResult({
      deploy: deployResult({
        archive,
        upload: { distributionId: 'DIST-7', storedName: archive.name, attempts: 1, adopted: false },
        distributionId: 'DIST-7',
        release: releaseOf(['requested', 'applied', 'verified'], { distributionId: 'DIST-7', previous: 'dist-6' })
      })
    }),
    facts()
  ) as ObservedRun
  /** A later run whose release failed, rolled back to dist-7 (its look reports the id in lower case). */
  const restoredIt = observeRun(
    runResult({
      deploy: deployResult({ release: releaseOf(['requested', 'applied', 'failed', 'rollback-requested', 'rollback-applied'], { previous: 'dist-7' }) }),
      error: 'The site failed.'
    }),
    facts({ context: context({ runId: '43' }) })
  ) as ObservedRun

  test('CDEvents: the service.upgraded that deployed it and the service.rolledback that restored it name it alike', () => {
    const deployed = artifact(deployedIt, 'upgraded')
    expect(deployed.artifactId).toBe('pkg:generic/dist-7')
    expect(artifact(restoredIt, 'rolledback').artifactId).toBe(deployed.artifactId)
    // The file name and MD5 where known: customData, beside the id.
    expect(deployed.customData.distribution).toEqual({ id: 'DIST-7', name: 'site-1.4.0.tar.gz', md5, sha256: 'a' })
  })

  test("Datadog's and New Relic's versions: the id too, the deploy's and the rollback's alike", () => {
    const ddDeployed = datadogDeployments(deployedIt, 'site')[0]?.data.attributes.version
    const ddRestored = datadogDeployments(restoredIt, 'site')[1]?.data.attributes.version
    expect([ddDeployed, ddRestored]).toEqual(['dist-7', 'dist-7'])
    const nrDeployed = newRelicDeployments(deployedIt, 'guid')[0]?.variables.deployment.version
    const nrRestored = newRelicDeployments(restoredIt, 'guid')[1]?.variables.deployment.version
    expect([nrDeployed, nrRestored]).toEqual(['dist-7', 'dist-7'])
  })

  test('an ending names a distribution only by an id: a run refused before its upload names none in artifactId, its file in customData', () => {
    const early = observeRun(
      runResult({
        error: 'older',
        deploy: deployResult({ archive, distributionId: undefined, upload: undefined, release: undefined, order: { refused: true, order: 'behind' } as never })
      }),
      facts()
    ) as ObservedRun
    const { body } = cdevent(early, early.events[0] as never, 0)
    expect((body.subject as { content: Record<string, unknown> }).content).not.toHaveProperty('artifactId')
    expect(body.customData).toMatchObject({ distribution: { name: 'site-1.4.0.tar.gz', md5 } })
  })
})

describe('ce-source: the same URI-reference as context.source, to a receiver that percent-decodes it (the binding) and to one that does not', () => {
  test.each([
    ['a GitHub run: its page', 'https://github.com/acme/site/actions/runs/42', 'https://github.com/acme/site/actions/runs/42'],
    ['an Azure project named with a blank: the run key', 'https://dev.azure.com/acme/My%20Project/_build/results?buildId=7', '/brcloud-deploy/runs/42-1'],
    ['a Jenkins job named with a blank: the run key', 'https://jenkins.example.com/job/Site%20Deploy/12/', '/brcloud-deploy/runs/42-1'],
    ['an escaped character a URI may hold plain: written plain', 'https://ci.example.com/%7Eacme/b%75ild/12', 'https://ci.example.com/~acme/build/12'],
    ['a character no URI holds plain: the run key', 'https://ci.example.com/jobs/déploi/12', '/brcloud-deploy/runs/42-1']
  ])('%s', (_name, runUrl, source) => {
    const run = observeRun(runResult(), facts({ context: context({ runUrl }) })) as ObservedRun
    const { headers, body } = cdevent(run, run.events[0] as never, 0)
    const contextSource = (body.context as { source: string }).source
    // What a receiver that takes the header as it is reads, and what one that does the binding's single round of percent-decoding reads.
    expect(headers['ce-source']).toBe(contextSource)
    expect(decodeURIComponent(headers['ce-source'] ?? '')).toBe(contextSource)
    expect(contextSource).toBe(source)
    // The run's page itself, as the CI gave it.
    expect(body.customData).toMatchObject({ runUrl })
  })
})

describe('ids no other event shares: across runs, attempts, deploys in one run, stacks and environments', () => {
  const rollback = releaseOf(['requested', 'applied', 'failed', 'rollback-requested', 'rollback-applied'], { failure: { kind: 'unhealthy', message: 'x' } })
  const runOf = (deploy: Partial<DeployResult>, over: Partial<RunFacts> = {}, error?: string): ObservedRun => {
    const run = observeRun(runResult({ deploy: deployResult(deploy), error }), facts(over))
    if (!run) throw new Error('no run')
    return run
  }
  const ceIds = (run: ObservedRun) => run.events.map((e, i) => cdevent(run, e, i).headers['ce-id'])
  const datadogIds = (run: ObservedRun) => datadogDeployments(run, 'site').map((d) => d.data.attributes.id)
  /** A staging and a production job of one run attempt, the same environment of another stack, and a rollback. */
  const oneRunAttempt = () => [
    runOf({ environmentName: 'staging' }),
    runOf({ environmentName: 'production' }),
    runOf({ environmentName: 'production', target: 'otherstack' }),
    runOf({ environmentName: 'production', target: 'thirdstack', release: rollback }, {}, 'The site failed.')
  ]

  test('Datadog: every deployment of one run attempt has its own id, whatever the stack or environment; the rollback its own', () => {
    const all = oneRunAttempt().flatMap(datadogIds)
    expect(all).toHaveLength(5)
    expect(new Set(all).size).toBe(all.length)
    for (const id of all) expect(id).toMatch(/^brcloud-deploy:42-1:[0-9a-f-]{36}(:rollback)?$/)
    // The same run told again keeps its ids.
    expect(datadogIds(runOf({ environmentName: 'staging' }))).toEqual(datadogIds(oneRunAttempt()[0] as ObservedRun))
  })

  test('CDEvents: two deploys of one environment in one CI run attempt (one Jenkins BUILD_TAG) never share an id; the same run keeps its own', () => {
    const jenkins = context({ runId: 'jenkins-site-deploy-12', runAttempt: '1', runUrl: 'https://jenkins.example.com/job/site-deploy/12/' })
    const first = runOf({}, { context: jenkins, startedAt: 999_000 })
    const second = runOf({}, { context: jenkins, startedAt: 1_200_000 })
    expect(first.chainId).not.toBe(second.chainId)
    const all = [...ceIds(first), ...ceIds(second)]
    expect(new Set(all).size).toBe(all.length)
    // The run's page is the source of both: the source names the run, the id the event.
    expect(cdevent(first, first.events[0] as never, 0).headers['ce-source']).toBe(cdevent(second, second.events[0] as never, 0).headers['ce-source'])
    expect(ceIds(runOf({}, { context: jenkins, startedAt: 999_000 }))).toEqual(ceIds(first))
  })

  test('CDEvents: unique across runs, attempts, stacks and environments, even where their names would run together', () => {
    const runs = [
      ...oneRunAttempt(),
      runOf({}, { context: context({ runAttempt: '2' }) }),
      runOf({}, { context: context({ runId: '43' }) }),
      runOf({ target: 'a/b', environmentName: 'c' }),
      runOf({ target: 'a', environmentName: 'b/c' })
    ]
    const all = runs.flatMap(ceIds)
    expect(new Set(all).size).toBe(all.length)
    expect(new Set(runs.map((r) => r.chainId)).size).toBe(runs.length)
  })
})

describe('sending: every sink at once, each within its limit, a failure a warning', () => {
  let stand: EventsStandIn
  let warnings: string[]
  let infos: string[]
  beforeEach(async () => {
    stand = await startEventsStandIn()
    warnings = []
    infos = []
    useTestPort({ warning: (m) => void warnings.push(m), info: (m) => void infos.push(m) })
  })
  afterEach(() => stand.close())

  test('one POST per event, in order, binary mode, the bearer token; the body is the CDEvent', async () => {
    const run = observed()
    await tellOthers(run, [cdeventsSink({ url: stand.url, token: 'tok-events-123' })], 10_000)
    expect(warnings).toEqual([])
    expect(stand.received.map((r) => r.headers['ce-type'])).toEqual([
      'dev.cdevents.service.upgraded.0.3.0',
      'dev.cdevents.service.published.0.3.0',
      'dev.cdevents.service.rolledback.0.3.0'
    ])
    for (const [i, r] of stand.received.entries()) {
      const expected = cdevent(run, run.events[i] as never, i)
      expect(r.method).toBe('POST')
      expect(r.path).toBe('/cdevents')
      expect(r.headers.authorization).toBe('Bearer tok-events-123')
      expect(r.headers['content-type']).toBe('application/json')
      for (const [name, value] of Object.entries(expected.headers)) expect(r.headers[name]).toBe(value)
      expect(r.body).toEqual(expected.body)
    }
    expect(stand.received.map((r) => (r.body?.context as { timestamp: string }).timestamp)).toEqual(run.events.map((e) => new Date(e.at).toISOString()))
  })

  test('a receiver that answers 500: one warning naming CDEvents and the status; never the address or the token', async () => {
    registerSecret('tok-events-500')
    stand.otherwise = 500
    await expect(tellOthers(observed(), [cdeventsSink({ url: stand.url, token: 'tok-events-500' })], 10_000)).resolves.toBeUndefined()
    expect(warnings).toEqual(["Events: CDEvents was not told: it answered 500: not accepted. The deployment's outcome is unchanged."])
    expect(stand.received).toHaveLength(1)
    expect(warnings.join('\n')).not.toMatch(/127\.0\.0\.1|cdevents|tok-events/)
  })

  test('a receiver that never answers: the limit ends it with a warning; the other sinks are told meanwhile', async () => {
    stand.otherwise = 'hang'
    const told: string[] = []
    const quick: Sink = { name: 'Quick', send: async () => void told.push('quick') }
    const began = Date.now()
    await tellOthers(observed(), [cdeventsSink({ url: stand.url, token: undefined }), quick], 300)
    expect(Date.now() - began).toBeLessThan(30_000)
    expect(told).toEqual(['quick'])
    expect(warnings).toEqual(["Events: CDEvents was not told: no answer within 0.3 s (events-timeout-seconds). The deployment's outcome is unchanged."])
    expect(infos).toContain('Events: Quick told.')
  })

  test('a sink that ignores its signal, or throws anything: ended at its limit, a warning, never a throw', async () => {
    const stuck: Sink = { name: 'Stuck', send: () => new Promise(() => undefined) }
    const broken: Sink = {
      name: 'Broken',
      send: async () => {
        throw new Error('could not post to https://hooks.example.com/T000/secret-path')
      }
    }
    await expect(tellOthers(observed(), [stuck, broken], 200)).resolves.toBeUndefined()
    expect(warnings.sort()).toEqual([
      "Events: Broken was not told: could not post to <address>. The deployment's outcome is unchanged.",
      "Events: Stuck was not told: no answer within 0.2 s (events-timeout-seconds). The deployment's outcome is unchanged."
    ])
  })

  test('a sink that throws words holding a secret of the run: the warning shows *** in its place', async () => {
    registerSecret('sk-run-secret-0451')
    const leaky: Sink = {
      name: 'Leaky',
      send: async () => {
        throw new Error('refused key sk-run-secret-0451')
      }
    }
    await tellOthers(observed(), [leaky], 10_000)
    expect(warnings).toEqual(["Events: Leaky was not told: refused key ***. The deployment's outcome is unchanged."])
  })

  test('a stop (a second signal) ends every send at once; after it nothing is sent', async () => {
    stand.otherwise = 'hang'
    const hurry = new AbortController()
    const sending = tellOthers(observed(), [cdeventsSink({ url: stand.url, token: undefined })], 60_000, hurry.signal)
    await stand.arrived(1)
    hurry.abort()
    await sending
    expect(warnings).toEqual(["Events: CDEvents was not told: the run was stopped. The deployment's outcome is unchanged."])
    await tellOthers(observed(), [cdeventsSink({ url: stand.url, token: undefined })], 60_000, hurry.signal)
    expect(stand.received).toHaveLength(1)
  })
})

describe('observeRun: each field and each ending, branch by branch (mutation testing)', () => {
  const requested = (states: Parameters<typeof releaseOf>[0], over: Parameters<typeof releaseOf>[1] = {}) => deployResult({ release: releaseOf(states, over) })
  const ending = (deploy: RunResult['deploy'], failure?: unknown) => kinds(observeRun(runResult({ error: 'why', deploy }), facts({ failure })))

  test('a skipped deploy that then failed is told (only a green skip has nothing to tell)', () => {
    const run = observeRun(runResult({ error: 'the look failed', deploy: deployResult({ skipped: true, release: undefined }) }), facts())
    expect(kinds(run)).toEqual(['failed'])
  })

  test('a run refused before its deployment: the stack from the input, else "unknown"; no API address; the previous from the deploy', () => {
    const early = (stack?: string) =>
      observeRun(runResult({ error: 'bad', deploy: undefined, environment: 'production' }), facts({ stack, failure: new InputError('bad') }))
    expect(early('acme')).toMatchObject({ stack: 'acme', environment: 'production', apiUrl: '', previousDistributionId: undefined })
    expect(early()?.stack).toBe('unknown')
    expect(early()?.apiUrl).toBe('')
    expect(observeRun(runResult({ deploy: deployResult({ release: undefined, previousDistributionId: 'dist-9' }) }), facts())?.previousDistributionId).toBe(
      'dist-9'
    )
  })

  test("the previous distribution: the release's, before the one the deploy found", () => {
    const d = deployResult({ previousDistributionId: 'dist-found', release: releaseOf(['requested', 'applied'], { previous: 'dist-release' }) })
    expect(observeRun(runResult({ deploy: d }), facts())?.previousDistributionId).toBe('dist-release')
  })

  test('the ref and the repository as the context gives them; empty ones are left out', () => {
    expect(observeRun(runResult(), facts())).toMatchObject({ ref: 'refs/heads/main', repository: 'acme/site', apiUrl: 'https://api.mystack.bloomreach.cloud' })
    const bare = observeRun(runResult(), facts({ context: context({ ref: '', repository: '', sha: '' }) }))
    expect(bare).toMatchObject({ ref: undefined, repository: undefined, commit: undefined })
  })

  test('the outcome: cancelled for a cancel or a terminate, a failure for the watchdog, a success without an error', () => {
    const outcome = (over: Partial<RunResult>) => observeRun(runResult(over), facts())?.outcome
    expect(outcome({})).toBe('success')
    expect(outcome({ error: 'why', stopped: 'cancel' })).toBe('cancelled')
    expect(outcome({ error: 'why', stopped: 'terminate' })).toBe('cancelled')
    expect(outcome({ error: 'why', stopped: 'watchdog' })).toBe('failure')
    expect(outcome({ error: 'why' })).toBe('failure')
  })

  test('deployed only when neither the release nor the first look saw a distribution; else upgraded', () => {
    const first = (found: string | undefined) =>
      kinds(
        observeRun(
          runResult({ deploy: deployResult({ foundDistributionId: found, release: releaseOf(['requested', 'applied'], { previous: undefined }) }) }),
          facts()
        )
      )
    expect(first(undefined)).toEqual(['deployed'])
    expect(first('dist-0')).toEqual(['upgraded'])
  })

  test('a rollback requested and not seen applied: unconfirmed; requested and applied, or never requested: failed', () => {
    expect(ending(requested(['requested', 'applied', 'failed', 'rollback-requested']))).toEqual(['upgraded', 'unconfirmed'])
    expect(ending(requested(['requested', 'applied', 'failed']))).toEqual(['upgraded', 'failed'])
    expect(ending(requested(['requested', 'applied', 'failed', 'rollback-requested', 'rollback-applied']))).toEqual(['upgraded', 'rolledback', 'failed'])
  })

  test('a rollback whose outcome no look settled: unconfirmed', () => {
    expect(ending(requested(['requested', 'applied', 'failed'], { rollbackUnconfirmed: 'the rollback request got no answer' }))).toEqual([
      'upgraded',
      'unconfirmed'
    ])
  })

  test('a deploy that was requested is failed, never refused, whatever the failure says', () => {
    expect(ending(requested(['requested', 'failed'], { failure: { kind: 'busy', message: 'x' } }))).toEqual(['failed'])
    expect(ending(requested(['requested', 'failed']), new InputError('late'))).toEqual(['failed'])
  })

  test('refused: an older commit than the one running, before any request', () => {
    expect(ending(requested(['waiting', 'failed'], { failure: { kind: 'older', message: 'x' } }))).toEqual(['refused'])
    expect(ending(requested(['waiting', 'failed'], { failure: { kind: 'not-applied', message: 'x' } }))).toEqual(['failed'])
  })
})
