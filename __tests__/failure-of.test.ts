// failureOf (src/deploy/index.ts): a release that failed and then was stopped (a cancel, the watchdog) before its
// rollback was sent. The advice must follow the inputs: with rollback-on-search already true, it must not say
// "set rollback-on-search: true" (a defect found by reading a surviving mutant).
import type { ReleaseRecord } from '../src/deploy/release-state.js'
import type { DeployResult } from '../src/deploy/result.js'
import { failureOf } from '../src/deploy/index.js'
import { ActionError, refusesLogin } from '../src/errors.js'
import { TokenEndpointError } from '../src/cloud/login/oauth.js'
import { EXIT, exitCode } from '../src/cli/exit-codes.js'
import type { RunEnding } from '../src/main.js'

const release: ReleaseRecord = {
  environment: 'production',
  distributionId: 'dist-new',
  previous: 'dist-old',
  redeploy: false,
  state: 'failed',
  transitions: [
    { state: 'requested', at: 1_000, evidence: 'requested' },
    { state: 'applied', at: 2_000, evidence: 'applied' },
    { state: 'failed', at: 3_000, evidence: 'the search check failed' }
  ],
  appliedBy: 'switch',
  rollbackTo: 'dist-old',
  failure: { kind: 'search', message: 'Search check failed' }
}

const result = (rollback: boolean, rollbackOnSearch: boolean): DeployResult =>
  ({
    apiUrl: 'https://api.acme.bloomreach.cloud',
    target: 'acme',
    consoleUrl: undefined,
    dryRun: false,
    strategy: 'stopstart',
    rollback,
    rollbackOnSearch,
    environmentName: 'production',
    source: 'upload',
    fromEnvironment: undefined,
    configFiles: [],
    skipped: false,
    cautions: [],
    plan: [],
    completed: false,
    tokenRenewals: 0,
    release,
    finalLook: { distributionId: 'dist-new', status: undefined, at: 4_000 }
  }) as DeployResult

const message = (r: DeployResult): string => (failureOf(r, new Error('Cancelled.')) as Error).message

test('rollback-on-search true: no advice to set it; what runs now is said', () => {
  const text = message(result(true, true))
  expect(text).not.toContain('set rollback-on-search: true')
  expect(text).toContain("No rollback was sent to dist-old: the run stopped before it could look at 'production'.")
  expect(text.startsWith('Cancelled.')).toBe(true)
  expect(text).toContain("At the end of the run, 'production' ")
})

test('rollback-on-search false: the advice to set it', () => {
  expect(message(result(true, false))).toContain(
    'The search service is a separate system, so the release was not rolled back (set rollback-on-search: true to roll back on a failing search check).'
  )
})

describe('a refused login during the release, said again with what runs now (fresh seed 2098856143)', () => {
  // Waiting on a busy environment when the renewal was refused: nothing of ours sent.
  const waiting: ReleaseRecord = { ...release, state: 'waiting', transitions: [{ state: 'waiting', at: 1_000, evidence: 'busy' }] }
  delete waiting.failure
  const during = { ...result(true, false), release: waiting } as unknown as DeployResult
  const refused = new TokenEndpointError("Getting a token from https://idp.example/token with the client credentials of 'ci': HTTP 400 invalid_client.", false)

  test('stays a refused login (exit 4, the events say so), with its words and what runs now', () => {
    const error = failureOf(during, refused) as Error
    expect(refusesLogin(error)).toBe(true)
    const ending = { result: { error, deploy: during }, failure: error, cutShort: false } as unknown as RunEnding
    expect(exitCode(ending)).toBe(EXIT.loginRefused)
    expect(error.message).toMatch(/^Getting a token from https:\/\/idp\.example\/token .*HTTP 400 invalid_client\. At the end of the run, 'production' /)
  })

  test('an error that is no refused login does not become one', () => {
    const busy = new TokenEndpointError('Getting a token: HTTP 503 temporarily_unavailable.', true)
    expect(refusesLogin(failureOf(during, busy))).toBe(false)
    expect(refusesLogin(failureOf(during, new ActionError('The platform answered HTTP 500.')))).toBe(false)
    // A release that failed (another reason) keeps a refused login's nature too, and no other error takes it on.
    const failed = { ...during, release } as unknown as DeployResult
    expect(refusesLogin(failureOf(failed, refused))).toBe(true)
    expect(refusesLogin(failureOf(failed, new ActionError('x')))).toBe(false)
  })
})
