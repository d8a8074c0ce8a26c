// The report's claims word for word (src/report.ts): every notice, every headline, every row of the job summary's
// deployment table and every line under the headline, for each branch, built from deploy results as the steps
// leave them. What the search check adds is in report-claims-search.test.ts.
import type { OrderCheck } from '../src/deploy/order.js'
import type { DeployResult } from '../src/deploy/result.js'
import type { ReleaseRecord, ReleaseState } from '../src/deploy/release-state.js'
import { API, SHA256, deployResult, releaseOf, searchPassed, type Over } from './report-fixtures.js'
import { headline, notices, outputValues, summaryMarkdown, type RunResult } from '../src/report.js'

const OURS = 'abcdef1234567890abcdef1234567890abcdef12'
const THEIRS = '1234567890abcdef1234567890abcdef12345678'
const REPO = 'https://github.com/acme/site'

/** A deployment that got nowhere yet: nothing uploaded, no release, no look. */
const bare = (over: Partial<DeployResult> = {}): DeployResult =>
  deployResult({ upload: undefined, distributionId: undefined, release: undefined, finalLook: undefined, completed: false, ...over })

/** A dry run of the default inputs: nothing uploaded, nothing deployed. */
const dryRun = (over: Partial<DeployResult> = {}): DeployResult =>
  deployResult({ dryRun: true, upload: undefined, release: undefined, finalLook: undefined, ...over })

const runOf = (over: Partial<RunResult> = {}): RunResult => ({
  deploys: true,
  deploy: deployResult(),
  search: undefined,
  phases: [],
  error: undefined,
  ...over
})

/** The deploy order as the check leaves it: ours ahead of the commit the environment ran, both known. */
const orderOf = (over: Partial<OrderCheck> = {}): OrderCheck => ({
  order: 'ahead',
  runningDistributionId: 'dist-0',
  running: { sha: THEIRS, from: 'deployment', deployment: { id: 7, environment: 'development', by: 'octocat', runUrl: undefined, state: 'success' } },
  ours: { sha: OURS, from: 'run' },
  comparison: { status: 'ahead', aheadBy: 3, behindBy: 0 },
  repoUrl: REPO,
  ...over
})

/** The lines of the summary. */
const linesOf = (run: RunResult): string[] => summaryMarkdown(run).split('\n')

/** The deployment table's row `label`, whole; undefined when the table leaves it out. */
const row = (run: RunResult, label: string): string | undefined => linesOf(run).find((l) => l.startsWith(`| ${label} |`))

describe('outputs', () => {
  test('pruned-distributions: 0 on a dry run that counted what pruning would delete; else what pruning deleted, or none', () => {
    const pruned = (d: DeployResult): string | undefined => outputValues(runOf({ deploy: d }))['pruned-distributions']
    expect(pruned(dryRun({ wouldPrune: 2 }))).toBe('0')
    expect(pruned(dryRun({ wouldPrune: undefined }))).toBeUndefined()
    expect(pruned(dryRun({ wouldPrune: undefined, pruned: 3 }))).toBe('3')
    expect(pruned(deployResult({ pruned: 3, wouldPrune: 2 }))).toBe('3')
    expect(pruned(deployResult())).toBeUndefined()
  })

  test('rolled-back: "unknown" when a rollback was requested, or its call got no usable answer, and was not seen applied', () => {
    const rolledBack = (release: ReleaseRecord): string | undefined => outputValues(runOf({ deploy: deployResult({ release }), error: 'x' }))['rolled-back']
    expect(rolledBack(releaseOf(['requested', 'failed'], { rollbackUnconfirmed: 'the rollback call timed out' }))).toBe('unknown')
    expect(rolledBack(releaseOf(['requested', 'failed', 'rollback-requested']))).toBe('unknown')
    expect(rolledBack(releaseOf(['requested', 'failed', 'rollback-requested', 'rollback-applied']))).toBe('true')
    expect(rolledBack(releaseOf(['requested', 'failed']))).toBe('false')
    // Nothing deployed: nothing to roll back, and the output says nothing.
    expect(rolledBack(releaseOf(['waiting', 'failed'], { rollbackUnconfirmed: 'x' }))).toBeUndefined()
  })

  test('an empty value is no output', () => {
    const values = outputValues(runOf({ deploy: deployResult({ apiUrl: '' }), search: { ...searchPassed, requestId: '' } }))
    expect(values).not.toHaveProperty('cloud-api-url')
    expect(values).not.toHaveProperty('search-request-id')
    expect(values['search-num-found']).toBe('4')
  })
})

describe('notices: a dry run says what it would do, and that nothing was changed', () => {
  const notice = (d: DeployResult): string[] => notices(runOf({ deploy: d }))

  test('an archive to upload and deploy to an environment not resolved to an id; the plan pointed at, not repeated', () => {
    expect(notice(dryRun({ environmentId: undefined, plan: ['Would pack site/.', 'Would delete 2 distributions.'] }))).toEqual([
      `Dry run: would upload site.tar.gz (2.0 KB) to ${API} and deploy it to 'development' (?) with strategy stopstart. Nothing was changed. The whole plan: the log above, and the job summary.`
    ])
  })

  test('an archive to upload with no environment: no deploy named', () => {
    expect(notice(dryRun({ environmentName: undefined, environmentId: undefined }))).toEqual([
      `Dry run: would upload site.tar.gz (2.0 KB) to ${API}. Nothing was changed.`
    ])
  })

  test('a distribution given by id, named where it came from', () => {
    const byId = dryRun({ source: 'id', archive: undefined, distributionId: 'dist-7' })
    expect(notice(byId)).toEqual([
      "Dry run: would use distribution dist-7 (given by distribution-id) and deploy it to 'development' (env-1) with strategy stopstart. Nothing was changed."
    ])
    expect(notice({ ...byId, distributionId: undefined, environmentName: undefined })).toEqual([
      'Dry run: would use distribution ? (given by distribution-id). Nothing was changed.'
    ])
  })

  test("what another environment runs, named by that environment's name", () => {
    const from = dryRun({ source: 'environment', fromEnvironment: 'staging', archive: undefined, distributionId: 'dist-5', environmentName: undefined })
    expect(notice(from)).toEqual(["Dry run: would use distribution dist-5 (what 'staging' runs). Nothing was changed."])
    expect(notice({ ...from, fromEnvironment: undefined })).toEqual(["Dry run: would use distribution dist-5 (what '?' runs). Nothing was changed."])
  })

  test('an identical distribution already on the stack is used, not uploaded', () => {
    expect(notice(dryRun({ reused: true, distributionId: 'dist-3', environmentName: undefined }))).toEqual([
      'Dry run: would use distribution dist-3 (an identical one already on the stack, reused). Nothing was changed.'
    ])
  })

  test('an upload source without an archive: uploaded or not', () => {
    const noArchive = dryRun({ archive: undefined, distributionId: 'dist-4', environmentName: undefined })
    expect(notice(noArchive)).toEqual(['Dry run: would use distribution dist-4 (not uploaded). Nothing was changed.'])
    expect(notice({ ...noArchive, upload: { distributionId: 'dist-4', storedName: 'x.tar.gz', attempts: 1, adopted: false } })).toEqual([
      'Dry run: would use distribution dist-4 (uploaded). Nothing was changed.'
    ])
  })
})

describe('notices: a finished deployment', () => {
  const notice = (d: DeployResult): string[] => notices(runOf({ deploy: d }))

  test('already running: names the distribution by its name and id, once each, and how to deploy it again', () => {
    const skipped = deployResult({
      skipped: true,
      source: 'id',
      archive: undefined,
      upload: undefined,
      release: undefined,
      knownName: 'site-42.tar.gz',
      distributionId: 'dist-42'
    })
    expect(notice(skipped)).toEqual([
      "'development' already runs site-42.tar.gz (dist-42) on mystack: nothing deployed. Set force-deploy: true to deploy it again."
    ])
    expect(notice({ ...skipped, knownName: 'dist-42' })).toEqual([
      "'development' already runs dist-42 on mystack: nothing deployed. Set force-deploy: true to deploy it again."
    ])
    expect(notice({ ...skipped, distributionId: undefined })).toEqual([
      "'development' already runs site-42.tar.gz on mystack: nothing deployed. Set force-deploy: true to deploy it again."
    ])
    expect(notice({ ...skipped, knownName: undefined, distributionId: undefined, environmentName: undefined })).toEqual([
      "'' already runs the distribution on mystack: nothing deployed. Set force-deploy: true to deploy it again."
    ])
  })

  test('deployed and not verified: says what was not observed', () => {
    const release = releaseOf(['requested', 'applied'])
    expect(notice(deployResult({ release }))).toEqual([
      "Deployed site.tar.gz (dist-1) to 'development' on mystack; not verified: the site was not checked (no health-url)."
    ])
    expect(notice(deployResult({ release, environmentName: undefined }))).toEqual([
      "Deployed site.tar.gz (dist-1) to '' on mystack; not verified: the site was not checked (no health-url)."
    ])
  })

  test('the stored name when the platform stored it under another one', () => {
    const upload = { distributionId: 'dist-1', storedName: 'site_1.tar.gz', attempts: 1, adopted: false }
    expect(notice(deployResult({ upload }))).toEqual(["Deployed site_1.tar.gz (dist-1) to 'development' on mystack; verified: evidence of verified."])
  })

  test('reused: nothing uploaded, and without an environment nothing deployed', () => {
    const reused = deployResult({ reused: true, upload: undefined, release: undefined, finalLook: undefined })
    expect(notice(reused)).toEqual(['site.tar.gz (dist-1) is already on mystack: nothing uploaded.'])
    expect(notice({ ...reused, environmentName: undefined, environmentId: undefined })).toEqual([
      'site.tar.gz (dist-1) is already on mystack: nothing uploaded, and no environment given, so nothing deployed.'
    ])
  })

  test('a deployment that neither deployed, uploaded nor reused anything says nothing', () => {
    expect(notice(deployResult({ release: undefined, upload: undefined, reused: false, finalLook: undefined }))).toEqual([])
  })
})

describe('headline: a run that was cancelled or terminated', () => {
  const cancelled = (d: DeployResult | undefined, stopped: RunResult['stopped'] = 'cancel'): string =>
    headline(runOf({ deploy: d, error: 'The run was cancelled', stopped }))

  test('before anything was deployed, or after the upload', () => {
    expect(cancelled(undefined)).toBe('⏹ Cancelled before anything was deployed')
    expect(cancelled(undefined, 'terminate')).toBe('⏹ Cancelled before anything was deployed')
    expect(cancelled(bare())).toBe('⏹ Cancelled before anything was deployed')
    expect(cancelled(bare({ upload: { distributionId: 'dist-1', storedName: 'site.tar.gz', attempts: 1, adopted: false }, distributionId: 'dist-1' }))).toBe(
      '⏹ Cancelled after the upload of `dist-1`: nothing was deployed'
    )
  })

  test('a watchdog stop is a failure, not a cancel', () => {
    expect(cancelled(undefined, 'watchdog')).toBe('❌ Failed before anything was done')
  })

  test('after rolling back, and during the rollback', () => {
    const dist0 = { distributionId: 'dist-0', status: undefined, at: 1 }
    expect(cancelled(deployResult({ release: releaseOf(['requested', 'failed', 'rollback-requested', 'rollback-applied']), finalLook: dist0 }))).toBe(
      "⏹ Cancelled after rolling back: 'development' reports `dist-0` at the end"
    )
    const during = releaseOf(['requested', 'failed', 'rollback-requested'], { rollbackTo: 'dist-0' })
    expect(cancelled(deployResult({ release: during, finalLook: undefined }))).toBe(
      "⏹ Cancelled during the rollback to `dist-0`, which was not seen applied: 'development' was not looked at when the step ended"
    )
    expect(cancelled(deployResult({ release: releaseOf(['requested', 'failed', 'rollback-requested']), finalLook: undefined }))).toBe(
      "⏹ Cancelled during the rollback to `?`, which was not seen applied: 'development' was not looked at when the step ended"
    )
  })

  test('a deploy requested: whether a rollback that was asked for was applied', () => {
    const requested = releaseOf(['requested', 'failed'])
    expect(cancelled(deployResult({ rollback: true, release: requested, finalLook: { error: 'HTTP 503' } }))).toBe(
      "⏹ Cancelled: the deploy of `dist-1` was requested and not seen applied (the platform may still switch to it after the step ended), and no rollback was applied; 'development' could not be looked at when the step ended"
    )
    expect(cancelled(deployResult({ rollback: false, release: requested, finalLook: { error: 'HTTP 503' } }))).toBe(
      "⏹ Cancelled: the deploy of `dist-1` was requested and not seen applied (the platform may still switch to it after the step ended); 'development' could not be looked at when the step ended"
    )
    // Seen applied, then stopped during its checks: the switch is done, only the verdict is missing.
    const applied = releaseOf(['requested', 'applied', 'failed'])
    expect(cancelled(deployResult({ rollback: true, release: applied, finalLook: { error: 'HTTP 503' } }))).toBe(
      "⏹ Cancelled: the deploy of `dist-1` was requested and not verified, and no rollback was applied; 'development' could not be looked at when the step ended"
    )
    // Replaced by another deploy: ours will not land any more.
    const replaced = releaseOf(['requested', 'in-progress', 'replaced'])
    expect(cancelled(deployResult({ rollback: false, release: replaced, finalLook: { error: 'HTTP 503' } }))).toBe(
      "⏹ Cancelled: the deploy of `dist-1` was requested and not verified; 'development' could not be looked at when the step ended"
    )
    const verified = cancelled(deployResult({ rollback: true }))
    expect(verified).toMatch(/^⏹ Cancelled: the deploy of `dist-1` /)
    expect(verified).not.toContain('rollback')
  })

  test('a deploy that may have been carried out, and one never sent', () => {
    const dist0 = { distributionId: 'dist-0', status: undefined, at: 1 }
    expect(cancelled(deployResult({ rollback: true, release: releaseOf(['unconfirmed']), finalLook: dist0 }))).toBe(
      "⏹ Cancelled: the deploy of `dist-1` may have been carried out (no answer or look settled it), and no rollback was applied; 'development' reports `dist-0` at the end"
    )
    expect(cancelled(deployResult({ release: releaseOf(['unconfirmed']), finalLook: dist0 }))).toBe(
      "⏹ Cancelled: the deploy of `dist-1` may have been carried out (no answer or look settled it); 'development' reports `dist-0` at the end"
    )
    expect(cancelled(deployResult({ rollback: true, release: releaseOf(['waiting']), finalLook: dist0 }))).toBe(
      "⏹ Cancelled: nothing was deployed; 'development' reports `dist-0` at the end"
    )
  })
})

describe('headline: a run that failed', () => {
  const failed = (d: DeployResult | undefined, over: Partial<RunResult> = {}): string => headline(runOf({ deploy: d, error: 'it failed', ...over }))

  test('without a deployment: whether the search check passed first', () => {
    expect(failed(undefined, { search: searchPassed })).toBe('❌ Failed after the search check passed')
    expect(failed(undefined, { search: { ...searchPassed, passed: false } })).toBe('❌ Search check failed')
    expect(failed(undefined)).toBe('❌ Failed before anything was done')
  })

  test('deployed: what the environment reports at the end', () => {
    expect(failed(deployResult({ release: releaseOf(['requested', 'failed']), finalLook: { distributionId: undefined, status: undefined, at: 1 } }))).toBe(
      "❌ Failed: 'development' reports no distribution at the end"
    )
    expect(failed(deployResult({ release: releaseOf(['unconfirmed', 'failed']), finalLook: undefined }))).toBe(
      "❌ Failed: the deploy of `dist-1` may have been carried out (no answer or look settled it); 'development' was not looked at when the step ended"
    )
  })

  test('refused by the deploy order', () => {
    const release = releaseOf(['waiting', 'failed'])
    expect(failed(deployResult({ release, order: orderOf({ order: 'unknown', refused: true, why: 'GitHub answered 503' }) }))).toBe(
      "❌ Refused: the deploy order on 'development' could not be checked (GitHub could not be read); nothing was deployed"
    )
    // The host that could not be read, by its name: a GitLab run never says GitHub (found by the simulation's GitLab world).
    expect(failed(deployResult({ release, order: orderOf({ order: 'unknown', refused: true, why: 'GitLab answered 401', host: 'GitLab' }) }))).toBe(
      "❌ Refused: the deploy order on 'development' could not be checked (GitLab could not be read); nothing was deployed"
    )
    expect(
      failed(
        deployResult({ release, order: orderOf({ order: 'unknown', refused: true, why: 'its name could not be read', host: 'GitLab', failedOn: 'name' }) })
      )
    ).toBe("❌ Refused: the deploy order on 'development' could not be checked (a distribution's name could not be read); nothing was deployed")
    expect(failed(deployResult({ release, order: orderOf({ order: 'behind', refused: true }) }))).toBe(
      "❌ Refused: commit `abcdef1` is older than `1234567`, which 'development' runs; nothing was deployed"
    )
    expect(failed(deployResult({ release, order: orderOf({ order: 'behind', refused: true, ours: undefined, running: undefined }) }))).toBe(
      "❌ Refused: commit `?` is older than `?`, which 'development' runs; nothing was deployed"
    )
  })

  test('a release that never sent its request, an upload, an unconfirmed upload, nothing', () => {
    const dist0 = { distributionId: 'dist-0', status: undefined, at: 1 }
    expect(failed(deployResult({ release: releaseOf(['waiting', 'failed']), finalLook: dist0 }))).toBe(
      "❌ Failed: nothing was deployed; 'development' reports `dist-0` at the end"
    )
    expect(failed(deployResult({ environmentName: undefined, release: releaseOf(['waiting', 'failed']), finalLook: undefined }))).toBe(
      "❌ Failed: nothing was deployed; '' was not looked at when the step ended"
    )
    expect(failed(deployResult({ release: undefined, finalLook: undefined }))).toBe('❌ Failed after the upload of `dist-1`: nothing was deployed')
    expect(failed(bare({ uploadUnconfirmed: true }))).toBe('❌ Failed after sending the upload, which was not confirmed: nothing was deployed')
    expect(failed(bare())).toBe('❌ Failed before anything was deployed')
    const dist1 = { distributionId: 'dist-1', status: undefined, at: 1 }
    expect(failed(deployResult({ skipped: true, upload: undefined, release: undefined, finalLook: dist1 }))).toBe(
      "❌ Failed: nothing was deployed, as 'development' already ran `dist-1`; 'development' reports `dist-1` at the end"
    )
    expect(failed(bare({ environmentName: undefined, environmentId: undefined }))).toBe('❌ Failed before anything was uploaded')
  })
})

describe('headline: a run that passed', () => {
  const passed = (d: DeployResult | undefined, over: Partial<RunResult> = {}): string => headline(runOf({ deploy: d, ...over }))

  test('a search check alone; a dry run', () => {
    expect(passed(undefined, { deploys: false, search: searchPassed })).toBe('✅ Passed')
    expect(passed(dryRun())).toBe('🔍 Dry run: nothing was changed')
  })

  test('already running: and whether another deploy put it there while this run waited', () => {
    const skipped = deployResult({ skipped: true, upload: undefined, release: undefined })
    expect(passed(skipped)).toBe("✅ Already running: 'development' runs `dist-1`; nothing deployed")
    expect(passed({ ...skipped, distributionId: undefined })).toBe("✅ Already running: 'development' runs `?`; nothing deployed")
    expect(passed({ ...skipped, release: releaseOf(['waiting', 'already-running']) })).toBe(
      "✅ Already running: 'development' runs `dist-1` (another deploy put it there while this run waited); nothing deployed"
    )
  })

  test('verified: "runs" only when the last look showed it (ids compared without case)', () => {
    expect(passed(deployResult({ finalLook: { distributionId: 'DIST-1', status: undefined, at: 1 } }))).toBe("✅ Verified: 'development' runs `dist-1`")
    expect(passed(deployResult({ finalLook: { distributionId: 'dist-9', status: undefined, at: 1 } }))).toBe(
      "✅ Verified `dist-1` on 'development', which reports `dist-9` at the end"
    )
    expect(passed(deployResult({ finalLook: undefined }))).toBe("✅ Verified `dist-1` on 'development', which was not looked at when the step ended")
  })

  test('reused: nothing uploaded, and without an environment nothing deployed; else done', () => {
    const reused = deployResult({ reused: true, upload: undefined, release: undefined, finalLook: undefined })
    expect(passed(reused)).toBe('✅ Already on the stack as `dist-1`: nothing uploaded')
    expect(passed({ ...reused, environmentName: undefined })).toBe('✅ Already on the stack as `dist-1`: nothing uploaded or deployed')
    expect(passed({ ...reused, reused: false })).toBe('✅ Done')
    expect(passed(undefined)).toBe('✅ Done')
  })
})

describe('summary: the deployment table', () => {
  test('every row of a deploy with config files, an adopted upload, the deploy order, pruning and token renewals', () => {
    const d = deployResult({
      archive: { name: 'site.tar.gz', source: 'archive', size: 2048, sha256: SHA256 },
      upload: { distributionId: 'dist-1', storedName: 'site.tar.gz', attempts: 3, adopted: true },
      configFiles: ['a.yaml', 'b.yaml'],
      order: orderOf(),
      pruned: 1,
      tokenRenewals: 2
    })
    const lines = linesOf(runOf({ deploy: d }))
    const start = lines.indexOf('| Deployment | |')
    expect(lines.slice(start, start + 18)).toEqual([
      '| Deployment | |',
      '|---|---|',
      `| API address | ${API} |`,
      '| Distribution | `site.tar.gz` |',
      '| Upload | uploaded in 3 attempt(s) (answer lost; the stored upload was adopted, no duplicate) |',
      '| Distribution id | `dist-1` |',
      '| Size | 2.0 KB (2048 bytes) |',
      `| SHA-256 | \`${SHA256}\` |`,
      '| Environment | development (`env-1`) |',
      '| Strategy | stopstart |',
      '| Config files | `a.yaml`, `b.yaml` |',
      '| Previous distribution | `dist-0` |',
      '| Deploy order | ahead: newer by 3 commit(s) |',
      `| Commit before | [\`1234567\`](${REPO}/commit/${THEIRS}) (GitHub Deployment 7, by octocat) |`,
      `| Commit after | [\`abcdef1\`](${REPO}/commit/${OURS}) |`,
      '| Pruned distributions | 1 |',
      '| Token renewals | 2 |',
      ''
    ])
  })

  test('no deployment began: every row says so', () => {
    const md = summaryMarkdown(runOf({ deploy: undefined, error: 'bad input' }))
    expect(md).toContain(
      [
        '| Deployment | |',
        '|---|---|',
        '| API address | — |',
        '| Distribution | — |',
        '| Distribution id | — |',
        '| Size | — |',
        '| SHA-256 | — |',
        '| Environment | — (none given) |',
        '| Token renewals | 0 |'
      ].join('\n') + '\n'
    )
  })

  test('the Upload row: reused, a dry run (none), not confirmed, not uploaded, one attempt', () => {
    expect(row(runOf({ deploy: deployResult({ reused: true, upload: undefined }) }), 'Upload')).toBe(
      '| Upload | not needed: an identical distribution is on the stack |'
    )
    expect(row(runOf({ deploy: dryRun() }), 'Upload')).toBeUndefined()
    expect(row(runOf({ deploy: bare({ uploadUnconfirmed: true }), error: 'lost' }), 'Upload')).toBe(
      '| Upload | sent, not confirmed: its answer was lost and no stored copy could be looked up; the stack may hold `site.tar.gz` |'
    )
    expect(row(runOf({ deploy: bare(), error: 'HTTP 413' }), 'Upload')).toBe('| Upload | not uploaded |')
    expect(row(runOf(), 'Upload')).toBe('| Upload | uploaded in 1 attempt(s) |')
    // No archive (a distribution given by id): no Upload row.
    expect(row(runOf({ deploy: deployResult({ source: 'id', archive: undefined, upload: undefined }) }), 'Upload')).toBeUndefined()
  })

  test('without an archive: where the distribution came from; Size and SHA-256 only for an upload source', () => {
    const byId = runOf({ deploy: deployResult({ source: 'id', archive: undefined, upload: undefined }) })
    expect(row(byId, 'Distribution')).toBe('| Distribution | given by distribution-id |')
    expect(row(byId, 'Size')).toBeUndefined()
    expect(row(byId, 'SHA-256')).toBeUndefined()
    const fromEnv = runOf({ deploy: deployResult({ source: 'environment', fromEnvironment: 'staging', archive: undefined, upload: undefined }) })
    expect(row(fromEnv, 'Distribution')).toBe("| Distribution | what 'staging' runs |")
    const notPacked = runOf({ deploy: bare({ archive: undefined }), error: 'no such directory' })
    expect(row(notPacked, 'Distribution')).toBe('| Distribution | not uploaded |')
    expect(row(notPacked, 'Size')).toBe('| Size | — |')
    expect(row(notPacked, 'SHA-256')).toBe('| SHA-256 | — |')
  })

  test('an archive not yet checked has no SHA-256', () => {
    const unchecked = runOf({ deploy: bare({ archive: { name: 'site.tar.gz', source: 'archive', size: 10, sha256: undefined } }), error: 'x' })
    expect(row(unchecked, 'Distribution')).toBe('| Distribution | `site.tar.gz` |')
    expect(row(unchecked, 'Size')).toBe('| Size | 10 B (10 bytes) |')
    expect(row(unchecked, 'SHA-256')).toBe('| SHA-256 | — |')
  })

  test('Strategy only with an environment; Config files and Previous distribution only when there are', () => {
    const uploadOnly = runOf({
      deploy: deployResult({ environmentName: undefined, environmentId: undefined, release: undefined, previousDistributionId: undefined })
    })
    expect(row(uploadOnly, 'Strategy')).toBeUndefined()
    expect(row(uploadOnly, 'Config files')).toBeUndefined()
    expect(row(uploadOnly, 'Previous distribution')).toBeUndefined()
    expect(row(runOf({ deploy: deployResult({ configFiles: ['only.yaml'] }) }), 'Config files')).toBe('| Config files | `only.yaml` |')
  })

  test('Pruned distributions: what a dry run would delete, what pruning deleted, or no row', () => {
    expect(row(runOf({ deploy: dryRun({ wouldPrune: 2 }) }), 'Pruned distributions')).toBe('| Pruned distributions | would delete 2 |')
    expect(row(runOf({ deploy: dryRun({ wouldPrune: undefined, pruned: 3 }) }), 'Pruned distributions')).toBe('| Pruned distributions | 3 |')
    expect(row(runOf({ deploy: dryRun() }), 'Pruned distributions')).toBeUndefined()
    expect(row(runOf({ deploy: deployResult({ pruned: 0 }) }), 'Pruned distributions')).toBe('| Pruned distributions | 0 |')
  })
})

describe('summary: the deploy order rows', () => {
  const rows = (order: OrderCheck, over: Partial<DeployResult> = {}): string[] =>
    linesOf(runOf({ deploy: deployResult({ order, ...over }) })).filter((l) => /^\| (Deploy order|Commit before|Commit after) \|/.test(l))

  test('each order, in words', () => {
    const orderRow = (o: OrderCheck): string | undefined => rows(o)[0]
    expect(orderRow(orderOf({ order: 'unknown', why: 'no GitHub Deployment recorded it' }))).toBe(
      '| Deploy order | unknown: no GitHub Deployment recorded it |'
    )
    expect(orderRow(orderOf({ order: 'unknown', why: undefined }))).toBe('| Deploy order | unknown: no evidence |')
    expect(orderRow(orderOf({ order: 'identical' }))).toBe('| Deploy order | identical: the same commit |')
    expect(orderRow(orderOf({ order: 'ahead', comparison: undefined }))).toBe('| Deploy order | ahead: newer by ? commit(s) |')
    expect(orderRow(orderOf({ order: 'behind', comparison: { status: 'behind', aheadBy: 0, behindBy: 4 } }))).toBe(
      '| Deploy order | behind: older by 4 commit(s) |'
    )
    expect(orderRow(orderOf({ order: 'behind', comparison: undefined }))).toBe('| Deploy order | behind: older by ? commit(s) |')
    expect(orderRow(orderOf({ order: 'diverged', comparison: { status: 'diverged', aheadBy: 2, behindBy: 5 } }))).toBe(
      '| Deploy order | diverged: another branch (2 ahead, 5 behind) |'
    )
    expect(orderRow(orderOf({ order: 'diverged', comparison: undefined }))).toBe('| Deploy order | diverged: another branch (? ahead, ? behind) |')
  })

  test('Commit after: ours, the one that ran before, or not known, as the last look shows', () => {
    expect(rows(orderOf({ repoUrl: undefined }))).toEqual([
      '| Deploy order | ahead: newer by 3 commit(s) |',
      '| Commit before | `1234567` (GitHub Deployment 7, by octocat) |',
      '| Commit after | `abcdef1` |'
    ])
    const dist0 = { distributionId: 'DIST-0', status: undefined, at: 1 }
    expect(rows(orderOf({ repoUrl: undefined }), { finalLook: dist0 })[2]).toBe('| Commit after | `1234567` |')
    expect(rows(orderOf({ repoUrl: undefined }), { finalLook: { distributionId: 'dist-9', status: undefined, at: 1 } })[2]).toBe('| Commit after | not known |')
    expect(rows(orderOf(), { finalLook: { error: 'HTTP 503' } })[2]).toBe('| Commit after | not known |')
    expect(rows(orderOf(), { finalLook: { distributionId: undefined, status: undefined, at: 1 } })[2]).toBe('| Commit after | not known |')
    expect(rows(orderOf(), { finalLook: undefined })[2]).toBe('| Commit after | not known |')
  })

  test('only our commit known: no Commit before; neither known: no Commit after either', () => {
    const oursOnly = orderOf({ order: 'unknown', why: 'nothing recorded', running: undefined, runningDistributionId: undefined, repoUrl: undefined })
    expect(rows(oursOnly)).toEqual(['| Deploy order | unknown: nothing recorded |', '| Commit after | `abcdef1` |'])
    const runningOnly = orderOf({ order: 'unknown', why: 'not in a workflow', ours: undefined, repoUrl: undefined })
    expect(rows(runningOnly, { finalLook: { distributionId: 'dist-0', status: undefined, at: 1 } })).toEqual([
      '| Deploy order | unknown: not in a workflow |',
      '| Commit before | `1234567` (GitHub Deployment 7, by octocat) |',
      '| Commit after | `1234567` |'
    ])
    expect(rows(orderOf({ order: 'unknown', why: 'no evidence at all', ours: undefined, running: undefined }))).toEqual([
      '| Deploy order | unknown: no evidence at all |'
    ])
  })

  test("the evidence of the commit before: this run's, or the distribution's name", () => {
    const byName = orderOf({ running: { sha: 'abc1234', from: 'name', name: 'site-abc1234.tar.gz' }, repoUrl: undefined })
    expect(rows(byName)[1]).toBe("| Commit before | `abc1234` (from the distribution's name site-abc1234.tar.gz) |")
    const byRun = orderOf({ running: { sha: THEIRS, from: 'run' }, repoUrl: undefined })
    expect(rows(byRun)[1]).toBe("| Commit before | `1234567` (this run's commit) |")
  })
})

describe('summary: the lines under the headline', () => {
  /** The summary's lines between the headline and the first table or section. */
  const outcome = (d: DeployResult, error?: string): string[] => {
    const lines = linesOf(runOf({ deploy: d, error }))
    const end = lines.findIndex((l, i) => i > 3 && (l.startsWith('|') || l.startsWith('**Error:**')))
    return lines.slice(4, end).filter((l) => l !== '')
  }

  test('Now: what the last look showed, with its status, or why it could not look; none without an environment', () => {
    expect(outcome(deployResult({ finalLook: { distributionId: 'dist-1', status: 'running', at: 1 } }))[0]).toBe(
      "**Now:** 'development' reports distribution dist-1 (status: running) (looked at when the step ended)."
    )
    expect(outcome(deployResult({ finalLook: { error: 'HTTP 503' } }))[0]).toBe("**Now:** what 'development' runs could not be looked at (HTTP 503).")
    expect(outcome(deployResult({ environmentName: undefined, release: undefined, finalLook: { error: 'HTTP 503' } }))).toEqual([])
  })

  test('Not verified: what was not followed or checked', () => {
    const release = releaseOf(['requested'], { appliedBy: undefined })
    expect(outcome(deployResult({ release, finalLook: undefined }))).toEqual([
      '**Not verified:** the deploy was not followed (follow-deploy: false); the site was not checked (no health-url).'
    ])
  })

  test('Not verified, though everything checked passed: says nothing showed it', () => {
    const release = releaseOf(['requested', 'applied', 'healthy'], { site: 'marker' })
    expect(outcome(deployResult({ release, finalLook: undefined }))).toEqual(['**Not verified:** nothing showed that the new release serves.'])
    expect(outcome(deployResult({ release: { ...release, unconfirmedAfterChecks: 'no look after the checks showed it' }, finalLook: undefined }))).toEqual([
      '**Not verified:** no look after the checks showed it.'
    ])
  })

  test('Not verified after an end: the failure, the replacement or the stop alone, not what was never reached', () => {
    const failed = releaseOf(['requested', 'failed'], { appliedBy: undefined, failure: { kind: 'not-applied', message: 'x' } })
    expect(outcome(deployResult({ release: failed, finalLook: undefined }), 'x')).toEqual([
      '**Not verified:** the release failed: the switch was not seen in time.'
    ])
    const replaced = releaseOf(['requested', 'replaced'], { appliedBy: undefined })
    expect(outcome(deployResult({ release: replaced, finalLook: undefined }), 'x')).toEqual(['**Not verified:** another deploy replaced it.'])
    const stopped = releaseOf(['requested'], { appliedBy: undefined, stopped: 'the run was stopped while waiting for the switch' })
    expect(outcome(deployResult({ release: stopped, finalLook: undefined }), 'x')).toEqual([
      '**Not verified:** the run was stopped while waiting for the switch.'
    ])
  })

  test('no Verified or Not verified line for a release never requested; cautions after it', () => {
    expect(outcome(deployResult({ release: releaseOf(['waiting', 'failed']), finalLook: undefined, cautions: ['Something to know.'] }), 'x')).toEqual([
      '⚠️ Something to know.'
    ])
  })

  test('Rollback: each state it reached, in words, with its evidence', () => {
    const rollback = (states: ReleaseState[], over: Over<ReleaseRecord> = {}): string | undefined =>
      outcome(
        deployResult({
          release: releaseOf(['requested', 'failed', ...states], { rollbackTo: 'dist-0', failure: { kind: 'unhealthy', message: 'x' }, ...over }),
          finalLook: undefined
        }),
        'x'
      ).find((l) => l.startsWith('**Rollback'))
    expect(rollback(['rollback-requested', 'rollback-applied', 'rollback-healthy'], { rollbackNotSeen: 'not seen' })).toBe(
      '**Rollback to `dist-0`:** applied, and the site answers: evidence of rollback-healthy.'
    )
    expect(rollback(['rollback-requested', 'rollback-applied', 'rollback-failed'])).toBe('**Rollback to `dist-0`:** failed: evidence of rollback-failed.')
    expect(rollback(['rollback-requested', 'rollback-applied'], { rollbackNotSeen: 'not seen' })).toBe(
      '**Rollback to `dist-0`:** applied (the site was not checked): evidence of rollback-applied.'
    )
    expect(rollback(['rollback-requested'])).toBe('**Rollback to `dist-0`:** requested, not seen applied: evidence of rollback-requested.')
    expect(rollback(['rollback-requested'], { rollbackNotSeen: 'the environment still reported dist-1' })).toBe(
      '**Rollback to `dist-0`:** requested, not seen applied: the environment still reported dist-1.'
    )
  })

  test('Rollback: why none was sent, or what became of it', () => {
    const rollback = (states: ReleaseState[], over: Over<ReleaseRecord> = {}): string | undefined =>
      outcome(deployResult({ release: releaseOf(['requested', ...states], { rollbackTo: 'dist-0', ...over }), finalLook: undefined }), 'x').find((l) =>
        l.startsWith('**Rollback')
      )
    expect(rollback(['replaced'])).toBe('**Rollback to `dist-0`:** not sent: another deploy replaced this one.')
    expect(rollback(['failed'], { rollbackUnconfirmed: 'the call timed out' })).toBe('**Rollback to `dist-0`:** may have been carried out: the call timed out.')
    expect(rollback(['failed'], { rollbackRefused: 'HTTP 409' })).toBe('**Rollback to `dist-0`:** refused: HTTP 409.')
    expect(rollback(['failed'], { rollbackNotSent: 'the environment did not show this release' })).toBe(
      '**Rollback to `dist-0`:** not sent: the environment did not show this release.'
    )
    expect(rollback(['failed'])).toBe('**Rollback to `dist-0`:** not sent: the run stopped before it could look at the environment.')
    expect(rollback(['failed'], { rollbackTo: undefined })).toBeUndefined()
  })
})

describe('summary: the error, the release, the plan and the phases', () => {
  test('the error on one line, then the Mission Control link once the platform was reached', () => {
    const lines = linesOf(runOf({ deploy: bare(), error: 'first line\r\nsecond line\nthird line' }))
    const at = lines.indexOf('**Error:** first line second line third line')
    expect(at).toBeGreaterThan(0)
    expect(lines.slice(at, at + 5)).toEqual([
      '**Error:** first line second line third line',
      '',
      'Look at the environment in [Mission Control](https://missioncontrol.mystack.bloomreach.cloud).',
      '',
      '| Deployment | |'
    ])
    const unreached = linesOf(runOf({ deploy: bare({ platformReached: false }), error: 'login refused' }))
    const e = unreached.indexOf('**Error:** login refused')
    expect(unreached.slice(e, e + 3)).toEqual(['**Error:** login refused', '', '| Deployment | |'])
  })

  test('the release table: time since the first state, the state, the evidence (— for none, | escaped)', () => {
    const release = releaseOf(['requested', 'applied', 'verified'])
    const transitions = [
      { state: 'requested' as const, at: 5_000, evidence: 'HTTP 202' },
      { state: 'applied' as const, at: 6_500, evidence: '' },
      { state: 'verified' as const, at: 130_000, evidence: 'marker a|b' }
    ]
    const md = summaryMarkdown(runOf({ deploy: deployResult({ release: { ...release, transitions } }) }))
    expect(md).toContain(
      [
        '| Token renewals | 0 |',
        '',
        '### Release',
        '',
        '| Time | State | Evidence |',
        '|---:|---|---|',
        '| 0 ms | requested | HTTP 202 |',
        '| 1.5 s | applied | — |',
        '| 2 min 5 s | verified | marker a\\|b |',
        ''
      ].join('\n')
    )
  })

  test('a dry run lists what it would do, when it would do anything', () => {
    const md = summaryMarkdown(runOf({ deploy: dryRun({ plan: ['Pack site/.', 'Upload it.'] }) }))
    expect(md.endsWith(['| Token renewals | 0 |', '', '### What the run would do', '', '- Pack site/.', '- Upload it.'].join('\n') + '\n')).toBe(true)
    expect(summaryMarkdown(runOf({ deploy: dryRun() }))).not.toContain('### What the run would do')
    expect(summaryMarkdown(runOf({ deploy: deployResult({ plan: ['Pack site/.'] }) }))).not.toContain('### What the run would do')
  })

  test('the phases: name (escaped), time, passed or not', () => {
    const md = summaryMarkdown(
      runOf({
        deploy: deployResult({ release: undefined }),
        phases: [
          { startedAt: 0, name: 'pack', ms: 1500, ok: true },
          { startedAt: 0, name: 'a|b', ms: 20, ok: false },
          { startedAt: 0, name: '', ms: 61_000, ok: true }
        ]
      })
    )
    expect(
      md.endsWith(
        [
          '| Token renewals | 0 |',
          '',
          '### Phases',
          '',
          '| Phase | Time | |',
          '|---|---:|---|',
          '| pack | 1.5 s | ✓ |',
          '| a\\|b | 20 ms | ✗ |',
          '| — | 1 min 1 s | ✓ |'
        ].join('\n') + '\n'
      )
    ).toBe(true)
  })

  test('the heading and the headline first', () => {
    expect(linesOf(runOf()).slice(0, 4)).toEqual(['## Bloomreach Cloud deployment', '', "**✅ Verified: 'development' runs `dist-1`**", ''])
  })
})
