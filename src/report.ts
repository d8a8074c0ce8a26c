// What the user sees at the end, derived from the results of the run's steps and nothing else: the
// outputs (one table, OUTPUTS), the notices, and the job summary.
import * as core from './port.js'
import type { OutputName } from './action-metadata.js'
import { mayHaveBeenRequested, mayStillSwitch, reached, rolledBack, wasRequested } from './deploy/release-state.js'
import { sameId } from './cloud/platform-reading.js'
import type { DeployResult } from './deploy/result.js'
import { evidence } from './deploy/order.js'
import { changesOutput, changesSection, shownChanges } from './deploy/changes.js'
import { commitPage, short } from './code-host/port.js'
import { describeLook } from './deploy/look.js'
import { formatBytes, formatDuration } from './format.js'
import type { Phase } from './phases.js'
import type { SearchResult } from './search/client.js'
import { noteReported } from './run-state.js'
import { RULE_WORDS, type RuleName, type RulesRecord } from './rules/record.js'
import type { TraceNote } from './tracing/config.js'

/** Everything one run did: what report.ts turns into outputs, notices and the summary. */
export interface RunResult {
  /** Whether the run deploys (false: a search check only). */
  readonly deploys: boolean
  /** What the deployment did, also when it stopped part-way; undefined when it never began. */
  readonly deploy: DeployResult | undefined
  readonly search: SearchResult | undefined
  readonly phases: readonly Phase[]
  /** The failure message, when the run failed. */
  readonly error: string | undefined
  /** The environment input as given (also when the inputs were refused and no deployment began): the summary never names another. */
  readonly environment?: string | undefined
  /** The run was stopped from outside: GitHub's cancel (SIGINT), SIGTERM alone, or its own watchdog. */
  readonly stopped?: 'cancel' | 'terminate' | 'watchdog' | undefined
  /** With tracing on: the run's trace (docs/tracing.md), sent after the report. */
  readonly trace?: TraceNote | undefined
}

type OutputValue = string | number | undefined

/**
 * Every output of action.yml and how it is derived (undefined: not set). The type makes this table
 * name each output exactly once; a test checks it against action.yml. Workflows depend on the names.
 */
export const OUTPUTS: { readonly [name in OutputName]: (run: RunResult) => OutputValue } = {
  'cloud-api-url': ({ deploy }) => deploy?.apiUrl,
  'distribution-id': ({ deploy }) => (deploy?.dryRun ? undefined : deploy?.distributionId),
  'distribution-name': ({ deploy }) => deploy?.upload?.storedName ?? acceptedArchive(deploy)?.name ?? deploy?.knownName,
  'distribution-size': ({ deploy }) => acceptedArchive(deploy)?.size,
  'distribution-sha256': ({ deploy }) => acceptedArchive(deploy)?.sha256,
  'environment-id': ({ deploy }) => (deployedWord(deploy) === 'false' || deployedWord(deploy) === undefined ? undefined : deploy?.environmentId),
  'pruned-distributions': ({ deploy }) => (deploy?.dryRun && deploy.wouldPrune !== undefined ? 0 : deploy?.pruned),
  'distribution-reused': ({ deploy }) => (deploy?.reused === undefined ? undefined : String(deploy.reused)),
  'previous-distribution-id': ({ deploy }) => deploy?.previousDistributionId,
  deployed: ({ deploy }) => deployedWord(deploy),
  'rolled-back': ({ deploy }) => (deployedWord(deploy) === 'true' || deployedWord(deploy) === 'unknown' ? rolledBackWord(deploy?.release) : undefined),
  'release-state': ({ deploy }) => deploy?.release?.state,
  'environment-distribution-id': ({ deploy }) => (deploy?.finalLook && !('error' in deploy.finalLook) ? deploy.finalLook.distributionId : undefined),
  'running-commit': ({ deploy }) => deploy?.order?.running?.sha,
  order: ({ deploy }) => deploy?.order?.order,
  // What is in the release (deploy/changes.ts): after a rollback, what it took out; [] once the order was checked without a list.
  changes: ({ deploy }) => (deploy?.changes !== undefined || deploy?.order !== undefined ? changesOutput(shownChanges(deploy)) : undefined),
  'site-url': ({ deploy }) => deploy?.siteUrl,
  'search-num-found': ({ search }) => search?.numFound,
  'search-latency-ms': ({ search }) => search?.latencyMs,
  'search-request-id': ({ search }) => search?.requestId,
  'trace-id': ({ trace }) => trace?.id
}

/**
 * The archive, when the outputs may describe it: the platform accepted its upload, an identical one was reused,
 * or a dry run says what it would upload. Never for an upload that was refused, unconfirmed or not reached.
 */
function acceptedArchive(deploy: DeployResult | undefined): DeployResult['archive'] {
  return deploy?.upload || deploy?.reused || deploy?.dryRun ? deploy.archive : undefined
}

/**
 * Whether this run's deploy was carried out, as observed: 'true' once the platform accepted it (or a look
 * showed it), 'unknown' when a request went out that no answer or look settled, 'false' when none went out.
 */
export function deployedWord(deploy: DeployResult | undefined): 'true' | 'false' | 'unknown' | undefined {
  const release = deploy?.release
  if (wasRequested(release)) return 'true'
  if (mayHaveBeenRequested(release)) return release && !release.redeploy && lastLookShows(deploy, release.distributionId) ? 'true' : 'unknown'
  return deploy?.skipped || release ? 'false' : undefined
}

/** 'true' once the rollback was seen applied; 'unknown' when one was requested (or may have been) but not seen applied; else 'false'. */
function rolledBackWord(release: DeployResult['release']): 'true' | 'false' | 'unknown' {
  if (rolledBack(release)) return 'true'
  return release && (reached(release, 'rollback-requested') || release.rollbackUnconfirmed !== undefined) ? 'unknown' : 'false'
}

/** The last look at the environment reported that id. */
function lastLookShows(deploy: DeployResult | undefined, id: string): boolean {
  const look = deploy?.finalLook
  return look !== undefined && !('error' in look) && sameId(look.distributionId, id)
}

export function outputValues(run: RunResult): Partial<Record<OutputName, string>> {
  const values: Partial<Record<OutputName, string>> = {}
  for (const [name, derive] of Object.entries(OUTPUTS) as Array<[OutputName, (run: RunResult) => OutputValue]>) {
    const value = derive(run)
    if (value !== undefined && value !== '') values[name] = String(value)
  }
  return values
}

/** How the summary and the notice name the search query. */
export function searchLabel(search: Pick<SearchResult, 'type' | 'originalQuery'>): string {
  return search.type === 'category' ? `category '${search.originalQuery}'` : `'${search.originalQuery}'`
}

/** The notices of a run: one for each step that finished. */
export function notices(run: RunResult): string[] {
  const lines: string[] = []
  const d = run.deploy
  if (d?.completed) {
    const what = named(d)
    if (d.dryRun) {
      const then = d.environmentName ? ` and deploy it to '${d.environmentName}' (${d.environmentId ?? '?'}) with strategy ${d.strategy}` : ''
      const head =
        d.archive && !d.reused
          ? `Dry run: would upload ${d.archive.name} (${formatBytes(d.archive.size)}) to ${d.apiUrl}${then}.`
          : `Dry run: would use distribution ${d.distributionId ?? '?'} (${sourceText(d)})${then}.`
      // The plan is in the log as it was made, and in the summary: the notice points there, not a third copy.
      lines.push(`${head} Nothing was changed.${d.plan.length > 0 ? ' The whole plan: the log above, and the job summary.' : ''}`)
    } else if (d.skipped) {
      lines.push(`'${d.environmentName ?? ''}' already runs ${what} on ${d.target}: nothing deployed. Set force-deploy: true to deploy it again.`)
    } else if (d.release) {
      const verified = reached(d.release, 'verified')
      const how = verified ? `verified: ${verified.evidence}` : `not verified: ${unobserved(d).join('; ')}`
      lines.push(`Deployed ${what} to '${d.environmentName ?? ''}' on ${d.target}; ${how}.`)
    } else if (d.upload) {
      lines.push(`Uploaded ${what} to ${d.target}; no environment given, so nothing was deployed.`)
    } else if (d.reused) {
      lines.push(`${what} is already on ${d.target}: nothing uploaded${d.environmentName ? '' : ', and no environment given, so nothing deployed'}.`)
    }
  }
  const s = run.search
  if (s?.passed) lines.push(`Search check passed: ${searchLabel(s)} found ${s.numFound ?? 0} result(s) in ${s.latencyMs ?? '?'} ms.`)
  return lines
}

/** "name.tar.gz (id)", or just the id when the name is not known: never the same thing twice. */
function named(d: DeployResult): string {
  const name = d.upload?.storedName ?? d.archive?.name ?? d.knownName
  const id = d.distributionId
  if (name === undefined || name === id) return id ?? 'the distribution'
  return id === undefined ? name : `${name} (${id})`
}

/** Where the deployed distribution came from, in words. */
function sourceText(d: DeployResult): string {
  if (d.source === 'id') return 'given by distribution-id'
  if (d.source === 'environment') return `what '${d.fromEnvironment ?? '?'}' runs`
  if (d.reused) return 'an identical one already on the stack, reused'
  return d.upload ? 'uploaded' : 'not uploaded'
}

function cell(value: string | undefined): string {
  return value === undefined || value === '' ? '—' : value.replace(/\|/g, '\\|')
}

function table(rows: Array<[string, string | undefined]>, heading: string): string[] {
  const lines = [`| ${heading} | |`, '|---|---|']
  for (const [k, v] of rows) if (v !== undefined) lines.push(`| ${k} | ${cell(v)} |`)
  return lines
}

/** ", stored as `x`" when the platform stored the distribution under another name than ours. */
function storedAs(d: DeployResult | undefined): string {
  const stored = d?.upload?.storedName
  return stored !== undefined && stored !== d?.archive?.name ? `, stored as \`${stored}\`` : ''
}

/**
 * The environment, as far as the run got: its id once the platform listed it, the name alone when it was given but
 * never resolved (refused inputs, an address that failed, a name the stack does not list), "upload only" only for a
 * deployment that ran without one.
 */
function environmentCell(d: DeployResult | undefined, given: string | undefined): string {
  const name = d?.environmentName ?? given
  if (name) return d?.environmentId ? `${name} (\`${d.environmentId}\`)` : `${name} (not resolved to an id)`
  return d ? '— (upload only)' : '— (none given)'
}

function deploymentRows(d: DeployResult | undefined, given: string | undefined): Array<[string, string | undefined]> {
  const archive = d?.archive
  const uploadText = d?.upload
    ? `uploaded in ${d.upload.attempts} attempt(s)${d.upload.adopted ? ' (answer lost; the stored upload was adopted, no duplicate)' : ''}`
    : d?.reused
      ? 'not needed: an identical distribution is on the stack'
      : d?.dryRun
        ? undefined
        : d?.uploadUnconfirmed
          ? `sent, not confirmed: its answer was lost and no stored copy could be looked up; the stack may hold \`${archive?.name ?? ''}\``
          : 'not uploaded'
  return [
    ['API address', d?.apiUrl ?? '—'],
    ['Distribution', archive ? `\`${archive.name}\`${archive.source === 'packed' ? ' (packed from a directory)' : ''}${storedAs(d)}` : d ? sourceText(d) : '—'],
    ['Upload', archive ? uploadText : undefined],
    ['Distribution id', d?.distributionId ? `\`${d.distributionId}\`` : '—'],
    ['Size', archive ? `${formatBytes(archive.size)} (${archive.size} bytes)` : d?.source === 'upload' || !d ? '—' : undefined],
    ['SHA-256', archive?.sha256 ? `\`${archive.sha256}\`` : d?.source === 'upload' || !d ? '—' : undefined],
    ['Environment', environmentCell(d, given)],
    ['Strategy', d?.environmentName ? d.strategy : undefined],
    ['Config files', d?.configFiles.length ? d.configFiles.map((n) => `\`${n}\``).join(', ') : undefined],
    ['Previous distribution', d?.previousDistributionId ? `\`${d.previousDistributionId}\`` : undefined],
    ...orderRows(d),
    ...ruleRows(d),
    ['Pruned distributions', d?.dryRun && d.wouldPrune !== undefined ? `would delete ${d.wouldPrune}` : d?.pruned === undefined ? undefined : String(d.pruned)],
    ['Token renewals', String(d?.tokenRenewals ?? 0)]
  ]
}

/** The deploy order: how our commit relates to the one the environment ran, and the commit before and after, linked. */
function orderRows(d: DeployResult | undefined): Array<[string, string | undefined]> {
  const check = d?.order
  if (d === undefined || check === undefined) return []
  const link = (sha: string | undefined): string | undefined =>
    sha === undefined ? undefined : check.repoUrl ? `[\`${short(sha)}\`](${commitPage(check.host ?? 'GitHub', check.repoUrl, sha)})` : `\`${short(sha)}\``
  const look = d.finalLook
  const after =
    look === undefined || 'error' in look || look.distributionId === undefined
      ? undefined
      : sameId(look.distributionId, d.distributionId)
        ? check.ours?.sha
        : sameId(look.distributionId, check.runningDistributionId)
          ? check.running?.sha
          : undefined
  const before = check.running ? `${link(check.running.sha) ?? ''} (${evidence(check.running)})` : undefined
  return [
    ['Deploy order', `${check.order}: ${orderText(check)}`],
    ['Commit before', before],
    ['Commit after', check.ours || check.running ? (link(after) ?? 'not known') : undefined]
  ]
}

/** The release rules (docs/release-rules.md): what each found, and override-reason with what it overrode. */
function ruleRows(d: DeployResult | undefined): Array<[string, string | undefined]> {
  const rules = d?.rules
  if (rules === undefined) return []
  const { freeze, soak, backup, override } = rules
  const overridden = (rule: RuleName): string => (override?.overrode.includes(rule) ? ' (overridden by override-reason)' : '')
  const backupText = backup === undefined ? undefined : `${backupFound(backup)}${backup.passed ? '' : overridden('backup')}`
  return [
    ['Deploy freeze', freeze ? `in force: ${freeze.window} (line ${freeze.line}) until ${freeze.until}${overridden('freeze')}` : undefined],
    ['Soak gate', soak ? `${soak.passed ? 'passed' : 'not passed'}: ${soakText(soak)}${soak.passed ? '' : overridden('soak')}` : undefined],
    ['Backup', backupText],
    [
      'Override',
      override
        ? `${override.reason}${override.overrode.length > 0 ? ` (overrode ${override.overrode.map((r) => RULE_WORDS[r]).join(', ')})` : ' (no rule needed it)'}`
        : undefined
    ]
  ]
}

/** The backup rule's finding: the newest backup and its age, none listed, or why the listing failed (nothing seen). */
function backupFound(backup: NonNullable<RulesRecord['backup']>): string {
  const required = backup.requiredHours === undefined ? '' : `, younger than ${backup.requiredHours} hours required`
  if (backup.listingFailed !== undefined) return `could not be listed (${backup.listingFailed})${required}`
  if (backup.id === undefined) return `none listed${required}`
  return `\`${backup.id}\`, taken ${backup.createdAt ?? '?'} (${backup.ageHours ?? '?'} hours old; younger than ${backup.requiredHours ?? '?'} required)`
}

function soakText(soak: NonNullable<RulesRecord['soak']>): string {
  if (soak.verifiedSince !== undefined)
    return `verified in '${soak.environment}' since ${soak.verifiedSince}, ${soak.soakedMinutes ?? 0} of ${soak.requiredMinutes} minute(s)${soak.allowedAt ? `; allowed from ${soak.allowedAt}` : ''}`
  return soak.why ?? `'${soak.environment}'`
}

/** A refusal by a release rule, in the headline's words. */
function refusedByRule(d: DeployResult, env: string): string | undefined {
  const rules = d.rules
  switch (rules?.refusedBy) {
    case 'freeze':
      return `❌ Refused: ${env} is in a deploy freeze until ${rules.freeze?.until ?? '?'}; nothing was deployed`
    case 'soak':
      return `❌ Refused by the soak gate: \`${d.distributionId ?? '?'}\` was not verified long enough in '${rules.soak?.environment ?? '?'}'; nothing was deployed`
    case 'backup':
      return `❌ Refused: ${backupRefusal(rules.backup, env)} (require-backup-hours: ${rules.backup?.requiredHours ?? '?'}); nothing was deployed`
    default:
      return undefined
  }
}

/** What the backup rule saw, in the headline's words: a failed listing saw nothing, so it claims no backup absent. */
function backupRefusal(backup: RulesRecord['backup'], env: string): string {
  if (backup?.listingFailed !== undefined) return `the backups of ${env} could not be listed`
  if (backup?.id === undefined) return `no backup of ${env} is listed`
  return `the newest backup of ${env} is ${backup.ageHours ?? '?'} hours old`
}

function orderText(check: NonNullable<DeployResult['order']>): string {
  const c = check.comparison
  if (check.order === 'unknown') return check.why ?? 'no evidence'
  if (check.order === 'identical') return 'the same commit'
  if (check.order === 'ahead') return `newer by ${c?.aheadBy ?? '?'} commit(s)`
  if (check.order === 'behind') return `older by ${c?.behindBy ?? '?'} commit(s)`
  return `another branch (${c?.aheadBy ?? '?'} ahead, ${c?.behindBy ?? '?'} behind)`
}

function searchRows(s: SearchResult): Array<[string, string | undefined]> {
  const query = s.query === s.originalQuery ? `\`${s.query}\`` : `\`${s.query}\` (written as \`${s.originalQuery}\`)`
  return [
    ['Result', s.passed ? '✅ Passed' : `❌ ${s.failure ?? 'Failed'}`],
    ['Query', `${query}, ${s.type} search`],
    ['Endpoint', s.endpoint],
    ['Results found', s.numFound === undefined ? '—' : `${s.numFound} (at least ${s.minResults} wanted)`],
    ['Latency', s.latencyMs === undefined ? '—' : `${s.latencyMs} ms`],
    ['Attempts', String(s.attempts)],
    ['Request id', s.requestId ? `\`${s.requestId}\`` : '—'],
    [
      'Facet format',
      s.facetFormat === 'none'
        ? 'none returned'
        : `${s.facetFormat === 'v3' ? 'V3 (facet_counts.facets)' : 'legacy (facet_fields/facet_ranges)'}${s.facetNames.length ? `: ${s.facetNames.join(', ')}` : ''}`
    ],
    ['Keyword redirect', s.keywordRedirect ? (s.keywordRedirect.redirectedUrl ?? s.keywordRedirect.redirectedQuery ?? 'yes') : undefined],
    ['First results', s.titles.length ? s.titles.join('<br>') : undefined]
  ]
}

/** What the environment reported at the last look, in the summary's words. */
function atTheEnd(d: DeployResult): string {
  const look = d.finalLook
  if (look === undefined) return 'was not looked at when the step ended'
  if ('error' in look) return 'could not be looked at when the step ended'
  return look.distributionId ? `reports \`${look.distributionId}\` at the end` : 'reports no distribution at the end'
}

/** "commit `abc1234` is older than `def5678`": a refusal by the deploy order, in the headline's words. */
function olderThan(check: NonNullable<DeployResult['order']>): string {
  const sha = (c: { sha: string } | undefined): string => `\`${short(c?.sha ?? '?')}\``
  return `commit ${sha(check.ours)} is older than ${sha(check.running)}`
}

/** The outcome in one line, as observed. */
export function headline(r: RunResult): string {
  const d = r.deploy
  const release = d?.release
  const env = `'${d?.environmentName ?? ''}'`
  const id = `\`${d?.distributionId ?? '?'}\``
  if (r.error && (r.stopped === 'cancel' || r.stopped === 'terminate')) return cancelled(d, env, id)
  if (r.error) {
    if (d === undefined) {
      // No deployment began; a search check may still have sent its requests.
      if (r.search) return r.search.passed ? '❌ Failed after the search check passed' : '❌ Search check failed'
      return '❌ Failed before anything was done'
    }
    if (release?.state === 'replaced') return `❌ Replaced by another deploy: ${env} ${atTheEnd(d)}; nothing was rolled back`
    if (rolledBack(release)) return `❌ Failed and rolled back: ${env} ${atTheEnd(d)}`
    if (deployedWord(d) === 'true') return `❌ Failed: ${env} ${atTheEnd(d)}`
    if (deployedWord(d) === 'unknown') return `❌ Failed: the deploy of ${id} may have been carried out (no answer or look settled it); ${env} ${atTheEnd(d)}`
    const byRule = refusedByRule(d, env)
    if (byRule !== undefined) return byRule
    if (d.order?.refused && d.order.order === 'unknown')
      return `❌ Refused: the deploy order on ${env} could not be checked (${d.order.failedOn === 'name' ? "a distribution's name could not be read" : `${d.order.host ?? 'GitHub'} could not be read`}); nothing was deployed`
    if (d.order?.refused) return `❌ Refused: ${olderThan(d.order)}, which ${env} runs; nothing was deployed`
    // The environment already ran the distribution (no deploy was needed), and a check of it failed: say which it runs.
    if (d.skipped) return `❌ Failed: nothing was deployed, as ${env} already ran ${id}; ${env} ${atTheEnd(d)}`
    if (release) return `❌ Failed: nothing was deployed; ${env} ${atTheEnd(d)}`
    if (d.upload) return `❌ Failed after the upload of ${id}: nothing was deployed`
    if (d.uploadUnconfirmed) return `❌ Failed after sending the upload, which was not confirmed: nothing was deployed`
    return `❌ Failed before anything was ${d.environmentName ? 'deployed' : 'uploaded'}`
  }
  if (!r.deploys) return '✅ Passed'
  if (d?.dryRun) return '🔍 Dry run: nothing was changed'
  if (d?.skipped) {
    const why = release?.state === 'already-running' ? ' (another deploy put it there while this run waited)' : ''
    return `✅ Already running: ${env} runs ${id}${why}; nothing deployed`
  }
  if (release?.state === 'verified') {
    // "runs X" is a claim about now: only the last look makes it.
    return d && lastLookShows(d, d.distributionId ?? '')
      ? `✅ Verified: ${env} runs ${id}`
      : `✅ Verified ${id} on ${env}, which ${atTheEnd(d as DeployResult)}`
  }
  if (release) return `✅ Deployed, not verified: ${env} ${atTheEnd(d)}`
  if (d?.upload) return `✅ Uploaded as ${id}: no environment given, so nothing was deployed`
  if (d?.reused) return `✅ Already on the stack as ${id}: nothing uploaded${d.environmentName ? '' : ' or deployed'}`
  return '✅ Done'
}

/** A cancelled run's headline: that it was cancelled, how far the release came, and what the environment reports now. */
function cancelled(d: DeployResult | undefined, env: string, id: string): string {
  const release = d?.release
  if (d === undefined || release === undefined)
    return d?.upload ? `⏹ Cancelled after the upload of ${id}: nothing was deployed` : '⏹ Cancelled before anything was deployed'
  const now = atTheEnd(d)
  if (rolledBack(release)) return `⏹ Cancelled after rolling back: ${env} ${now}`
  if (reached(release, 'rollback-requested'))
    return `⏹ Cancelled during the rollback to \`${release.rollbackTo ?? '?'}\`, which was not seen applied: ${env} ${now}`
  const rollback = d.rollback && release.state !== 'verified' ? ', and no rollback was applied' : ''
  if (deployedWord(d) === 'true' && mayStillSwitch(release))
    return `⏹ Cancelled: the deploy of ${id} was requested and not seen applied (the platform may still switch to it after the step ended)${rollback}; ${env} ${now}`
  if (deployedWord(d) === 'true') return `⏹ Cancelled: the deploy of ${id} was requested and not verified${rollback}; ${env} ${now}`
  if (deployedWord(d) === 'unknown')
    return `⏹ Cancelled: the deploy of ${id} may have been carried out (no answer or look settled it)${rollback}; ${env} ${now}`
  return `⏹ Cancelled: nothing was deployed; ${env} ${now}`
}

/** What was and was not observed of the release: the lines under the headline. */
function outcomeLines(d: DeployResult): string[] {
  const release = d.release
  const lines: string[] = []
  const look = d.finalLook
  if (look !== undefined && d.environmentName) {
    lines.push(
      `**Now:** ${'error' in look ? `what '${d.environmentName}' runs could not be looked at (${look.error})` : `'${d.environmentName}' ${describeLook(look)} (looked at when the step ended)`}.`
    )
  }
  if (release) {
    const verified = reached(release, 'verified')
    if (verified) lines.push(`**Verified by:** ${verified.evidence}.`)
    else if (wasRequested(release)) lines.push(`**Not verified:** ${unobserved(d).join('; ')}.`)
    if (release.rollbackTo !== undefined) lines.push(`**Rollback to \`${release.rollbackTo}\`:** ${rollbackState(release)}.`)
  }
  for (const c of d.cautions) lines.push(`⚠️ ${c}`)
  return lines
}

/** What the checks could not show. */
function unobserved(d: DeployResult): string[] {
  const release = d.release
  const out: string[] = []
  if (release === undefined) return out
  if (release.state === 'replaced') out.push('another deploy replaced it')
  else if (release.failure) out.push(`the release failed: ${FAILED_BY[release.failure.kind]}`)
  if (release.stopped !== undefined) out.push(release.stopped)
  if (release.unconfirmedAfterChecks !== undefined) out.push(release.unconfirmedAfterChecks)
  const ended = release.failure !== undefined || release.state === 'replaced' || release.stopped !== undefined
  if (release.appliedBy === undefined && !ended) out.push('the deploy was not followed (follow-deploy: false)')
  if (release.appliedBy === 'not-observed')
    out.push('the switch was not seen (the platform reported the new id with no previous id or deploy status before it)')
  if (release.site === 'answers') out.push('the site answers, but without health-expect that cannot tell the new release from the old')
  if (release.site === undefined && !ended) out.push('the site was not checked (no health-url)')
  return out.length > 0 ? out : ['nothing showed that the new release serves']
}

/** What stopped a release, in the words of the summary's "Not verified" line. */
const FAILED_BY: { readonly [kind in NonNullable<NonNullable<DeployResult['release']>['failure']>['kind']]: string } = {
  search: 'the search check',
  unhealthy: 'the health check',
  busy: 'the environment stayed busy',
  older: 'the environment ran a newer commit (deploy order)',
  rule: 'a deploy freeze began while the run waited (deploy-freeze)',
  unconfirmed: 'no answer or look settled whether the deploy was carried out',
  'not-applied': 'the switch was not seen in time'
}

function rollbackState(release: NonNullable<DeployResult['release']>): string {
  for (const [state, text] of [
    ['rollback-healthy', 'applied, and the site answers'],
    ['rollback-failed', 'failed'],
    ['rollback-applied', 'applied (the site was not checked)'],
    ['rollback-requested', 'requested, not seen applied']
  ] as const) {
    const t = reached(release, state)
    if (t) return `${text}: ${state === 'rollback-requested' && release.rollbackNotSeen !== undefined ? release.rollbackNotSeen : t.evidence}`
  }
  if (release.state === 'replaced') return 'not sent: another deploy replaced this one'
  if (release.rollbackUnconfirmed !== undefined) return `may have been carried out: ${release.rollbackUnconfirmed}`
  if (release.rollbackRefused !== undefined) return `refused: ${release.rollbackRefused}`
  if (release.rollbackNotSent !== undefined) return `not sent: ${release.rollbackNotSent}`
  return 'not sent: the run stopped before it could look at the environment'
}

export function summaryMarkdown(r: RunResult): string {
  const d = r.deploy
  const lines = [r.deploys ? '## Bloomreach Cloud deployment' : '## Bloomreach search check', '', `**${headline(r)}**`, '']
  if (d) lines.push(...outcomeLines(d).flatMap((l) => [l, '']))
  if (r.error) {
    lines.push(`**Error:** ${r.error.replace(/\r?\n/g, ' ')}`, '')
    if (d?.consoleUrl && d.platformReached) lines.push(`Look at the environment in [Mission Control](${d.consoleUrl}).`, '')
  }
  if (r.deploys) lines.push(...table(deploymentRows(d, r.environment), 'Deployment'))
  const changes = d ? shownChanges(d) : undefined
  // Without github-token the deploy order row already says why nothing is listed.
  if (changes !== undefined && !changes.withoutToken) lines.push('', '### Changes', '', ...changesSection(changes, d?.environmentName ?? ''))
  const transitions = d?.release?.transitions ?? []
  if (transitions.length > 0) {
    const start = transitions[0]?.at ?? 0
    lines.push('', '### Release', '', '| Time | State | Evidence |', '|---:|---|---|')
    for (const t of transitions) lines.push(`| ${formatDuration(t.at - start)} | ${t.state} | ${cell(t.evidence)} |`)
  }
  if (d?.dryRun && d.plan.length > 0) lines.push('', '### What the run would do', '', ...d.plan.map((p) => `- ${p}`))
  if (r.search) lines.push('', '### Search check', '', ...table(searchRows(r.search), 'Search'))
  if (r.phases.length > 0) {
    lines.push('', '### Phases', '', '| Phase | Time | |', '|---|---:|---|')
    for (const p of r.phases) lines.push(`| ${cell(p.name)} | ${formatDuration(p.ms)} | ${p.ok ? '✓' : '✗'} |`)
  }
  if (r.trace) lines.push('', traceLine(r.trace))
  return lines.join('\n') + '\n'
}

/** The trace's line: its id, and that it is sent after this summary (a warning in the log says when it was not). */
function traceLine(trace: NonNullable<RunResult['trace']>): string {
  const joined = trace.joined ? ", in the pipeline's trace (TRACEPARENT)" : ''
  return `Trace \`${trace.id}\`${joined}: its spans are sent to ${trace.collector} after this summary; the log says if they were not.`
}

/** Sets the outputs, shows the notices and writes the job summary of a run. */
export async function report(run: RunResult): Promise<void> {
  for (const [name, value] of Object.entries(outputValues(run))) core.setOutput(name, value)
  for (const line of notices(run)) core.notice(line)
  // A face with nowhere to write it (a local run) skips it quietly, and the post step has nothing to read.
  if (await core.writeSummary(summaryMarkdown(run))) noteReported()
}
