// The deploy results the report's tests start from (report, report-claims): a verified deploy of an uploaded,
// packed archive to 'development', and a release that went through given states.
import type { ReleaseRecord, ReleaseState } from '../src/deploy/release-state.js'
import type { DeployResult } from '../src/deploy/result.js'
import type { SearchResult } from '../src/search/client.js'

export const API = 'https://api.mystack.bloomreach.cloud'
export const SHA256 = 'ab'.repeat(32)

/** Fields to set, or to leave unset with undefined (report.ts reads an unset field and an undefined one alike). */
export type Over<T> = { [K in keyof T]?: T[K] | undefined }

/** A release that went through `states`, one second apart, each with its evidence. */
export function releaseOf(states: ReleaseState[], over: Over<ReleaseRecord> = {}): ReleaseRecord {
  const transitions = states.map((state, i) => ({ state, at: 1_000_000 + i * 1000, evidence: `evidence of ${state}` }))
  return {
    environment: 'development',
    distributionId: 'dist-1',
    previous: 'dist-0',
    redeploy: false,
    state: states.at(-1) ?? 'planned',
    transitions,
    appliedBy: 'switch',
    ...over
  } as ReleaseRecord
}

/** A verified deploy of an uploaded, packed archive to 'development': each test changes what its branch needs. */
export const deployResult = (over: Partial<DeployResult> = {}): DeployResult => ({
  apiUrl: API,
  target: 'mystack',
  consoleUrl: 'https://missioncontrol.mystack.bloomreach.cloud',
  platformReached: true,
  dryRun: false,
  strategy: 'stopstart',
  rollback: false,
  rollbackOnSearch: false,
  environmentName: 'development',
  archive: { name: 'site.tar.gz', source: 'packed', size: 2048, sha256: SHA256 },
  environmentId: 'env-1',
  upload: { distributionId: 'dist-1', storedName: 'site.tar.gz', attempts: 1, adopted: false },
  distributionId: 'dist-1',
  source: 'upload',
  fromEnvironment: undefined,
  reused: false,
  previousDistributionId: 'dist-0',
  configFiles: [],
  skipped: false,
  release: releaseOf(['requested', 'applied', 'verified']),
  finalLook: { distributionId: 'dist-1', status: undefined, at: 1_003_000 },
  cautions: [],
  plan: [],
  completed: true,
  tokenRenewals: 0,
  ...over
})

/** A search check that passed: 4 products for 'shirt'. */
export const searchPassed: SearchResult = {
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
