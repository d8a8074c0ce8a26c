// The report is derived from the results alone: every output of action.yml has exactly one entry in
// the OUTPUTS table, and each derivation reads the result it names.
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { OUTPUT_NAMES } from '../src/action-metadata.js'
import { deployResult, releaseOf, searchPassed } from './report-fixtures.js'
import { notices, OUTPUTS, outputValues, summaryMarkdown, type RunResult } from '../src/report.js'
import type { SearchResult } from '../src/search/client.js'

const declared = Object.keys((parse(readFileSync(new URL('../action.yml', import.meta.url), 'utf8')) as { outputs: Record<string, unknown> }).outputs)

const searchResult = searchPassed

const runOf = (over: Partial<RunResult> = {}): RunResult => ({
  deploys: true,
  deploy: deployResult(),
  search: undefined,
  phases: [],
  error: undefined,
  ...over
})

describe('outputs', () => {
  test('the OUTPUTS table names every output of action.yml once, and nothing else', () => {
    expect(Object.keys(OUTPUTS).sort()).toEqual([...declared].sort())
    expect([...OUTPUT_NAMES].sort()).toEqual([...declared].sort())
  })

  test('a deployed run sets the deployment outputs from its result', () => {
    expect(outputValues(runOf({ search: searchResult }))).toEqual({
      'cloud-api-url': 'https://api.mystack.bloomreach.cloud',
      'distribution-id': 'dist-1',
      'distribution-name': 'site.tar.gz',
      'distribution-size': '2048',
      'distribution-sha256': 'ab'.repeat(32),
      'environment-id': 'env-1',
      'distribution-reused': 'false',
      'previous-distribution-id': 'dist-0',
      deployed: 'true',
      'rolled-back': 'false',
      'release-state': 'verified',
      'environment-distribution-id': 'dist-1',
      'search-num-found': '4',
      'search-latency-ms': '12',
      'search-request-id': '1234567890123'
    })
  })

  test('environment-id only once the deploy call went through; pruned-distributions only when pruning ran', () => {
    const values = outputValues(runOf({ deploy: deployResult({ release: releaseOf(['waiting', 'failed']), completed: false }) }))
    expect(values.deployed).toBe('false')
    expect(values['environment-id']).toBeUndefined()
    expect(values['pruned-distributions']).toBeUndefined()
    expect(outputValues(runOf({ deploy: deployResult({ pruned: 0 }) }))['pruned-distributions']).toBe('0')
  })

  test('distribution-name is the name the platform stored, when it says so', () => {
    const stored = deployResult({ upload: { distributionId: 'dist-1', storedName: 'site_1.tar.gz', attempts: 1, adopted: false } })
    expect(outputValues(runOf({ deploy: stored }))['distribution-name']).toBe('site_1.tar.gz')
    expect(summaryMarkdown(runOf({ deploy: stored }))).toContain('`site.tar.gz` (packed from a directory), stored as `site_1.tar.gz`')
  })

  test('a run that failed before the deployment began sets no output', () => {
    expect(outputValues(runOf({ deploy: undefined, error: 'bad input' }))).toEqual({})
  })
})

describe('notices', () => {
  test('one notice per finished step', () => {
    expect(notices(runOf({ search: searchResult }))).toEqual([
      "Deployed site.tar.gz (dist-1) to 'development' on mystack; verified: evidence of verified.",
      "Search check passed: 'shirt' found 4 result(s) in 12 ms."
    ])
    expect(
      notices(runOf({ deploy: deployResult({ environmentName: undefined, environmentId: undefined, release: undefined, finalLook: undefined }) }))
    ).toEqual(['Uploaded site.tar.gz (dist-1) to mystack; no environment given, so nothing was deployed.'])
  })

  test('a dry run says what it would have done', () => {
    const dry = deployResult({ dryRun: true, upload: undefined, release: undefined, finalLook: undefined })
    expect(notices(runOf({ deploy: dry }))).toEqual([
      "Dry run: would upload site.tar.gz (2.0 KB) to https://api.mystack.bloomreach.cloud and deploy it to 'development' (env-1) with strategy stopstart. Nothing was changed."
    ])
  })

  test('no notice for a step that stopped part-way, or a search check that failed', () => {
    expect(notices(runOf({ deploy: deployResult({ completed: false, release: undefined }), search: { ...searchResult, passed: false } }))).toEqual([])
  })
})

describe('summary', () => {
  test('shows what a failed deployment had done before it stopped', () => {
    const md = summaryMarkdown(
      runOf({
        deploy: deployResult({ upload: undefined, distributionId: undefined, release: undefined, finalLook: undefined, completed: false }),
        error: 'Upload failed'
      })
    )
    expect(md).toContain('**❌ Failed before anything was deployed**')
    expect(md).toContain('`site.tar.gz` (packed from a directory)')
    expect(md).toMatch(/\| Upload \| not uploaded \|/)
    expect(md).toMatch(/\| Distribution id \| — \|/)
    expect(md.match(/Upload failed/g)).toHaveLength(1)
    expect(md).toContain('[Mission Control](https://missioncontrol.mystack.bloomreach.cloud)')
  })

  test('the first lines state the outcome as observed: what runs at the end, how it was verified, what was rolled back', () => {
    const ok = summaryMarkdown(runOf())
    expect(ok.split('\n').slice(0, 7)).toEqual([
      '## Bloomreach Cloud deployment',
      '',
      "**✅ Verified: 'development' runs `dist-1`**",
      '',
      "**Now:** 'development' reports distribution dist-1 (looked at when the step ended).",
      '',
      '**Verified by:** evidence of verified.'
    ])
    const rolled = summaryMarkdown(
      runOf({
        deploy: deployResult({
          release: releaseOf(['requested', 'applied', 'failed', 'rollback-requested', 'rollback-applied', 'rollback-healthy'], {
            rollbackTo: 'dist-0',
            failure: { kind: 'unhealthy', message: 'site 500' }
          }),
          finalLook: { distributionId: 'dist-0', status: 'running', at: 1 }
        }),
        error: 'site 500'
      })
    )
    expect(rolled).toContain("**❌ Failed and rolled back: 'development' reports `dist-0` at the end**")
    expect(rolled).toContain('**Rollback to `dist-0`:** applied, and the site answers: evidence of rollback-healthy.')
    expect(rolled).toContain('| 0 ms | requested | evidence of requested |')
    const replaced = summaryMarkdown(
      runOf({
        deploy: deployResult({ release: releaseOf(['requested', 'replaced']), finalLook: { distributionId: 'dist-9', status: undefined, at: 1 } }),
        error: 'replaced'
      })
    )
    expect(replaced).toContain("**❌ Replaced by another deploy: 'development' reports `dist-9` at the end; nothing was rolled back**")
  })

  test('a release that passed without evidence says what was not observed', () => {
    const md = summaryMarkdown(
      runOf({ deploy: deployResult({ release: releaseOf(['requested', 'healthy'], { appliedBy: 'not-observed', site: 'answers' }) }) })
    )
    expect(md).toContain("**✅ Deployed, not verified: 'development' reports `dist-1` at the end**")
    expect(md).toContain('the switch was not seen (the platform reported the new id with no previous id or deploy status before it)')
    expect(md).toContain('the site answers, but without health-expect that cannot tell the new release from the old')
  })

  test('an upload without an environment does not claim a deploy; a dry run says what pruning would delete', () => {
    const upload = summaryMarkdown(
      runOf({ deploy: deployResult({ environmentName: undefined, environmentId: undefined, release: undefined, finalLook: undefined }) })
    )
    expect(upload).toContain('**✅ Uploaded as `dist-1`: no environment given, so nothing was deployed**')
    const dry = summaryMarkdown(runOf({ deploy: deployResult({ dryRun: true, upload: undefined, release: undefined, finalLook: undefined, wouldPrune: 2 }) }))
    expect(dry).toMatch(/\| Pruned distributions \| would delete 2 \|/)
  })
})

describe('issue 23: the summary and the outputs say only what happened', () => {
  test('an upload the platform refused sets no distribution-name, -size or -sha256; an accepted, a reused one and a dry run do', () => {
    const refused = deployResult({ upload: undefined, distributionId: undefined, release: undefined, finalLook: undefined, completed: false })
    const values = outputValues(runOf({ deploy: refused, error: 'Uploading the distribution failed: HTTP 413' }))
    for (const name of ['distribution-name', 'distribution-size', 'distribution-sha256', 'distribution-id'] as const) expect(values[name]).toBeUndefined()
    const unconfirmed = deployResult({ upload: undefined, uploadUnconfirmed: true, release: undefined, completed: false })
    expect(outputValues(runOf({ deploy: unconfirmed, error: 'lost' }))['distribution-sha256']).toBeUndefined()
    expect(outputValues(runOf())['distribution-size']).toBe('2048')
    expect(outputValues(runOf({ deploy: deployResult({ upload: undefined, reused: true }) }))['distribution-size']).toBe('2048')
    expect(outputValues(runOf({ deploy: deployResult({ upload: undefined, dryRun: true, release: undefined }) }))['distribution-sha256']).toBe('ab'.repeat(32))
  })

  test('the Environment row names the environment given, even when the inputs were refused; "upload only" only for a deployment without one', () => {
    expect(summaryMarkdown(runOf({ deploy: undefined, error: 'bad stack', environment: 'production' }))).toContain(
      '| Environment | production (not resolved to an id) |'
    )
    expect(summaryMarkdown(runOf({ deploy: undefined, error: 'bad stack' }))).toContain('| Environment | — (none given) |')
    const notFound = deployResult({ environmentName: 'Production', environmentId: undefined, release: undefined, upload: undefined, finalLook: undefined })
    expect(summaryMarkdown(runOf({ deploy: notFound, error: 'no such environment' }))).toContain('| Environment | Production (not resolved to an id) |')
    expect(summaryMarkdown(runOf({ deploy: deployResult({ environmentName: undefined, environmentId: undefined, release: undefined }) }))).toContain(
      '| Environment | — (upload only) |'
    )
  })

  test('a search check alone that sent its request and failed says so, never "before anything was done"', () => {
    const { numFound: _unused, ...unanswered } = searchResult
    const failed: SearchResult = { ...unanswered, passed: false, failure: 'HTTP 403' }
    const summary = summaryMarkdown(runOf({ deploys: false, deploy: undefined, search: failed, error: 'Search check failed: HTTP 403' }))
    expect(summary).toMatch(/^## Bloomreach search check\n\n\*\*❌ Search check failed\*\*$/m)
    expect(summary).not.toContain('| Environment |')
    expect(summaryMarkdown(runOf({ deploys: false, deploy: undefined, error: 'search-query refused' }))).toContain('**❌ Failed before anything was done**')
  })
})
