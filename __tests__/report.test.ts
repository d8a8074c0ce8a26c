// The report is derived from the results alone: every output of action.yml has exactly one entry in
// the OUTPUTS table, and each derivation reads the result it names.
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { OUTPUT_NAMES } from '../src/action-metadata.js'
import type { DeployResult } from '../src/deploy.js'
import { notices, OUTPUTS, outputValues, summaryMarkdown, type RunResult } from '../src/report.js'
import type { SearchResult } from '../src/search/client.js'

const declared = Object.keys((parse(readFileSync(new URL('../action.yml', import.meta.url), 'utf8')) as { outputs: Record<string, unknown> }).outputs)

const deployResult = (over: Partial<DeployResult> = {}): DeployResult => ({
  apiUrl: 'https://api.mystack.bloomreach.cloud',
  target: 'mystack',
  dryRun: false,
  strategy: 'stopstart',
  environmentName: 'development',
  archive: { name: 'site.tar.gz', source: 'packed', size: 2048, sha256: 'ab'.repeat(32) },
  environmentId: 'env-1',
  upload: { distributionId: 'dist-1', storedName: 'site.tar.gz', attempts: 1, adopted: false },
  distributionId: 'dist-1',
  source: 'upload',
  fromEnvironment: undefined,
  reused: false,
  previousDistributionId: 'dist-0',
  configFiles: [],
  skipped: false,
  deployed: true,
  timeline: [],
  plan: [],
  completed: true,
  tokenRenewals: 0,
  ...over
})

const searchResult: SearchResult = {
  passed: true,
  query: 'shirt',
  originalQuery: 'shirt',
  type: 'keyword',
  endpoint: 'https://core.dxpapi.com/api/v1/core/',
  minResults: 1,
  numFound: 4,
  latencyMs: 12,
  requestId: '1234567890123',
  titles: [],
  facetFormat: 'none',
  facetNames: [],
  attempts: 1,
  warnings: []
}

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
      'search-num-found': '4',
      'search-latency-ms': '12',
      'search-request-id': '1234567890123'
    })
  })

  test('environment-id only once the deploy call went through; pruned-distributions only when pruning ran', () => {
    const values = outputValues(runOf({ deploy: deployResult({ deployed: false, completed: false }) }))
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
      "Deployed site.tar.gz (dist-1) to 'development' on mystack.",
      "Search check passed: 'shirt' found 4 result(s) in 12 ms."
    ])
    expect(notices(runOf({ deploy: deployResult({ environmentName: undefined, environmentId: undefined, deployed: false }) }))).toEqual([
      'Uploaded site.tar.gz as distribution dist-1 to mystack.'
    ])
  })

  test('a dry run says what it would have done', () => {
    const dry = deployResult({ dryRun: true, upload: undefined, deployed: false })
    expect(notices(runOf({ deploy: dry }))).toEqual([
      "Dry run: would upload site.tar.gz (2.0 KB) to https://api.mystack.bloomreach.cloud and deploy it to 'development' (env-1) with strategy stopstart. Nothing was changed."
    ])
  })

  test('no notice for a step that stopped part-way, or a search check that failed', () => {
    expect(notices(runOf({ deploy: deployResult({ completed: false, deployed: false }), search: { ...searchResult, passed: false } }))).toEqual([])
  })
})

describe('summary', () => {
  test('shows what a failed deployment had done before it stopped', () => {
    const md = summaryMarkdown(
      runOf({ deploy: deployResult({ upload: undefined, distributionId: undefined, deployed: false, completed: false }), error: 'Upload failed' })
    )
    expect(md).toContain('❌ Failed')
    expect(md).toContain('`site.tar.gz` (packed from a directory)')
    expect(md).toMatch(/\| Distribution id \| — \|/)
    expect(md).toContain('**Error:** Upload failed')
  })
})
