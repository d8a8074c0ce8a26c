// The invariants of the status report (issue 41, docs/status.md): every claim of a row read against what the report's
// own calls were answered and what the world truly was when each answer was made (./status.ts records both), never
// against the report's beliefs. A state claims only what was read: `empty` only when the environment truly ran nothing
// and nothing was switching; `deploying` only during a switch; a commit only the distribution's own; in-sync, behind,
// ahead and diverged only with the compare GitHub answered, in this read, for the tracked ref and that commit; `outside`
// only when no Deployment GitHub held as the report began listing them names the distribution. The report fails closed:
// a read that failed in the end exits 1, whatever fail-on says, and a 1 is never said when nothing failed. Drift issues follow read drift only; no
// secret is printed; every refresh token of the report is revoked, or a warning says why not.
import { expect } from '@jest/globals'
import type { EnvironmentRow } from '../../src/status/row.js'
import type { Facts } from './claims.js'
import { same } from './claims.js'
import { COMMITS, github } from './github.js'
import { gitlab } from './gitlab.js'
import { statusShown } from './mocks.js'
import type { StatusSchedule } from './status-schedule.js'
import { statusWorld, type StatusCall, type StatusReading } from './status-record.js'
import { NEWEST_TAG, TAGS, statusHost, statusSecrets } from './status.js'
import { ENV, MARKER, OTHER_ENV, commitIndexOf } from './world.js'

const BASE = 'http://127.0.0.1:9'
const say = (claim: string, holds: boolean, detail: unknown = undefined): void =>
  expect({ claim, holds, ...(holds ? {} : { detail }) }).toEqual({ claim, holds: true })

export function checkStatus(f: Facts): void {
  const r = f.s.report
  if (r === undefined) {
    expect({ statusCalls: statusWorld.calls.length }).toEqual({ statusCalls: 0 })
    return
  }
  expect({ reads: statusWorld.reads.length }).toEqual({ reads: r.reads.length })
  for (const reading of statusWorld.reads) {
    const calls = statusWorld.calls.filter((c) => c.read === reading.index)
    expect({ read: reading.index, ended: reading.endedAt !== undefined, exit: typeof reading.exit }).toEqual({
      read: reading.index,
      ended: true,
      exit: 'number'
    })
    checkSecrets(f, reading)
    if (reading.refusal !== undefined) {
      // Refused before any request (exit 2): only a file or login this schedule drew wrong.
      say('a refusal is a bad file or login, before any request', r.login === 'credential-in-variable' && calls.length === 0 && reading.exit === 2, {
        refusal: reading.refusal,
        calls: calls.length
      })
      continue
    }
    say('the file and login are refused when they are wrong', r.login === 'as-run', reading.exit)
    if (reading.stoppedAt !== undefined) {
      checkStopped(r, reading)
      continue
    }
    checkVerdict(r, reading, calls)
    for (const row of reading.report?.environments ?? []) checkRow(f, r, row, calls)
    checkReasons(reading, calls)
    checkDriftIssues(r, reading)
  }
  checkRevoked(f)
}

/**
 * A cancel (SIGINT) or SIGTERM: nothing is reported, the exit is 130 or 143 with the one error line, and the command ends
 * within its closing limits (5 s after SIGINT, 1.6 s after SIGTERM; docs/status.md "A cancel"). Its refresh tokens: checkRevoked.
 */
function checkStopped(r: StatusSchedule, reading: StatusReading): void {
  const signal = r.reads[reading.index]?.stop?.signal
  const [stdout, stderr] = reading.printed
  say('a stopped report exits 130 (SIGINT) or 143 (SIGTERM)', reading.exit === (signal === 'SIGTERM' ? 143 : 130), { signal, exit: reading.exit })
  say('a stopped report reports nothing', stdout === '', stdout)
  say('a stopped report says it was cancelled', /^error: The status report was cancelled \(SIG(INT|TERM)\): nothing was reported\./m.test(stderr ?? ''), stderr)
  const took = (reading.endedAt ?? 0) - (reading.stoppedAt ?? 0)
  say('a stopped report ends within its closing limits', took <= (signal === 'SIGTERM' ? 1_600 : 5_000), { signal, took })
}

/** A call that ended without a 2xx answer. */
function failed(c: StatusCall): boolean {
  return c.settled === undefined || c.settled === 'pending' || c.settled < 200 || c.settled > 299
}

/** The commit the code's host knows by this ref (a branch, a tag, a sha or its prefix), or undefined. */
function known(ref: string): string | undefined {
  return gitlab.world?.core.model.graph.resolve(ref) ?? github.world?.core.model.resolve(ref)
}

/** What a compare call compared: [base, head], decoded (GitHub's base...head; GitLab's merge base of two refs, or from and to). */
function basehead(c: StatusCall): [string, string] | undefined {
  if (c.service === 'gitlab') {
    const query = new URLSearchParams(c.path.split('?')[1] ?? '')
    const refs = query.getAll('refs[]')
    if (refs.length === 2) return [refs[0] ?? '', refs[1] ?? '']
    const [from, to] = [query.get('from'), query.get('to')]
    return from !== null && to !== null ? [from, to] : undefined
  }
  const raw = c.path.split('/compare/')[1]?.split('?')[0]
  const parts = raw === undefined ? [] : decodeURIComponent(raw).split('...')
  return parts.length === 2 ? [parts[0] ?? '', parts[1] ?? ''] : undefined
}

/**
 * The reads that failed in the end: the last call of a path the report needs (the environments, a distribution, a
 * Deployments page, a compare, the tags) ended without a usable answer; or no listing of the environments was ever
 * answered. A distribution or a named environment that is not there (404) is an answer; so is a compare of a commit
 * GitHub does not know (a force-push: documented `unknown`), but not of a tracked ref it does not know.
 */
export function failedReads(calls: readonly StatusCall[]): string[] {
  const last = new Map<string, StatusCall>()
  for (const c of calls) last.set(`${c.method} ${c.path}`, c)
  const out: string[] = []
  for (const [key, c] of last) {
    if (!failed(c)) continue
    if (c.kind === 'list-environments' || c.kind === 'get-distribution') {
      if (c.settled === 404 && (c.kind === 'get-distribution' || c.path.includes('?name='))) continue
      out.push(key)
    }
    if (c.kind === 'list-deployments' || c.kind === 'list-tags') out.push(key)
    if (c.kind === 'compare') {
      const [base, head] = basehead(c) ?? ['', '']
      // GitLab's merge base answers a ref it does not know 400 (Could not find ref); GitHub's compare 404.
      const notKnown = c.service === 'gitlab' ? c.settled === 400 || c.settled === 404 : c.settled === 404
      if (notKnown && c.fate === 'answer' && known(base) !== undefined && known(head) === undefined) continue
      out.push(key)
    }
  }
  const listed = calls.some((c) => c.kind === 'list-environments' && !c.path.includes('?name=') && c.settled === 200)
  if (!listed) out.push('no listing of the environments was answered')
  return out
}

/** The items of the environments answers of this read that were answered (200), with the world when each was made. */
function listings(calls: readonly StatusCall[]): Array<{ items: Array<Record<string, unknown>>; call: StatusCall }> {
  return calls
    .filter((c) => c.kind === 'list-environments' && c.settled === 200 && c.answer !== undefined && c.answer.status === 200)
    .map((call) => {
      const body = JSON.parse(call.answer?.text ?? '{}') as Record<string, unknown>
      return { items: Array.isArray(body.items) ? (body.items as Array<Record<string, unknown>>) : [body], call }
    })
}

/** The documented exit code, from the world: fails closed first (1), then fail-on (8), then drift issues (9), else 0. */
function checkVerdict(r: StatusSchedule, reading: StatusReading, calls: readonly StatusCall[]): void {
  const failures = failedReads(calls)
  const rows = reading.report?.environments ?? []
  const named = r.environments === 'named' ? [ENV, OTHER_ENV] : []
  const missing = named.filter((name) => !listings(calls).some((l) => l.items.some((e) => e.name === name)))
  const exit = reading.exit
  if (failures.length > 0) say('fails closed: a read that failed exits 1', exit === 1, { exit, failures })
  if (exit === 1) say('exit 1 only when something was not read', calls.some(failed) || missing.length > 0, { rows: rows.map((x) => x.state) })
  if (failures.length > 0 || exit === 1) return
  const failOn = r.failOn
  const hit = rows.some((x) => (failOn as readonly string[]).includes(x.state) || (failOn.includes('unhealthy') && x.health === 'failing'))
  const driftFailed = reading.driftFailed
  const expected = hit ? 8 : driftFailed ? 9 : 0
  say('the exit code is the documented one', exit === expected, { exit, expected, states: rows.map((x) => x.state) })
}

/** The commit a distribution was truly built from (the world's), when the world knows it. */
function truthOf(f: Facts, id: string | null): string | undefined {
  const schedule = github.world?.schedule ?? gitlab.world?.schedule
  if (schedule === undefined || id === null) return undefined
  const index = commitIndexOf(schedule, id, f.ours)
  return index === undefined ? undefined : COMMITS[index]
}

/** Each claim of one row against what this read was answered and what the world was then. */
function checkRow(f: Facts, r: StatusSchedule, row: EnvironmentRow, calls: readonly StatusCall[]): void {
  const where = `${row.stack}/${row.environment ?? '(all)'}`
  const answers = listings(calls).flatMap(({ items, call }) =>
    items.filter((e) => e.name === row.environment).map((item) => ({ item, truth: call.truth?.find((t) => t.id === item.id) }))
  )
  if (row.state !== 'unknown') say(`${where}: a state only from a listing that was answered`, answers.length > 0, row.state)
  // A row of a stack that could not be read claims nothing but that (a listing answered first may have been cut short).
  if (row.reason?.startsWith('the stack could not be read') === true) say(`${where}: a stack not read reads unknown`, row.state === 'unknown', row.state)
  if (answers.length === 0 || row.reason?.startsWith('the stack could not be read') === true) return
  // The running id is what the platform reported during the read (in any letter case); its status field as given.
  const matching = answers.filter(({ item }) =>
    row.distributionId === null ? typeof item.distributionId !== 'string' : same(String(item.distributionId), row.distributionId)
  )
  say(`${where}: the running id is what the platform reported`, matching.length > 0, {
    row: row.distributionId,
    reported: answers.map((a) => a.item.distributionId)
  })
  if (matching.length > 0)
    say(
      `${where}: platformStatus is the status field as given`,
      matching.some(({ item }) => (typeof item.status === 'string' ? item.status : null) === row.platformStatus),
      { row: row.platformStatus, reported: matching.map((a) => a.item.status) }
    )
  if (row.state === 'empty')
    say(
      `${where}: empty only when it ran nothing and nothing switched`,
      matching.some(({ truth }) => truth?.status === 'empty'),
      {
        truth: matching.map((m) => m.truth)
      }
    )
  if (row.state === 'deploying')
    say(
      `${where}: deploying only during a switch`,
      matching.some(({ truth }) => truth?.status === 'deploying'),
      { truth: matching.map((m) => m.truth) }
    )
  checkHealth(row, calls, where)
  checkCommit(f, row, where)
  if (statusHost(f.s) === 'gitlab') return checkGitLabRow(r, row, calls, where)
  if (['in-sync', 'behind', 'ahead', 'diverged'].includes(row.state)) checkCompared(r, row, calls, where)
  if (row.state === 'outside') checkOutside(row, calls, where)
  checkLastDeployment(f, row, calls, where)
}

/**
 * A row read against GitLab: a commit only from the distribution's name (GitLab's deployments carry no distribution, so
 * never `evidence: deployment`, never `outside`); a state against the tracked ref only with GitLab's merge base answered
 * in this read for that ref and commit, and as the history is; the last deployment GitLab's newest, as GitLab recorded it.
 */
function checkGitLabRow(r: StatusSchedule, row: EnvironmentRow, calls: readonly StatusCall[], where: string): void {
  say(`${where}: no commit evidenced by a GitLab deployment`, row.evidence !== 'deployment' && row.evidenceDeploymentId === null, {
    evidence: row.evidence,
    deployment: row.evidenceDeploymentId
  })
  say(`${where}: never outside on GitLab (its deployments name no distribution)`, row.state !== 'outside', row.reason)
  if (['in-sync', 'behind', 'ahead', 'diverged'].includes(row.state)) checkComparedOnGitLab(r, row, calls, where)
  const last = row.lastDeployment
  if (last === null || row.environment === null) return
  const held = visibleOnGitLab(calls, row.environment).filter((d) => d.environment === row.environment)
  const newest = held.at(-1)
  say(`${where}: the last deployment is the newest GitLab held`, newest?.id === last.id, { row: last.id, newest: newest?.id })
  if (newest !== undefined)
    say(`${where}: the last deployment's commit is GitLab's record of it`, same(last.commit, newest.sha), { row: last.commit, sha: newest.sha })
}

/** in-sync, behind, ahead or diverged: GitLab answered this read's merge base of the tracked ref and that commit, and the history says so. */
function checkComparedOnGitLab(r: StatusSchedule, row: EnvironmentRow, calls: readonly StatusCall[], where: string): void {
  const base = r.track === 'v*' ? (COMMITS[TAGS.find(([name]) => name === NEWEST_TAG)?.[1] ?? 0] ?? '') : (row.track ?? '')
  if (r.track === 'v*') say(`${where}: the tag a pattern stands for is the newest by version order`, row.trackedRef === NEWEST_TAG, row.trackedRef)
  const answered = calls.some((c) => {
    const bh = basehead(c)
    return c.kind === 'compare' && c.settled === 200 && bh !== undefined && bh[0] === base && same(bh[1], row.commit)
  })
  const graph = gitlab.world?.core.model.graph
  const from = graph?.commitOf(base)
  const to = graph?.commitOf(row.commit ?? '')
  const relation = graph === undefined || from === undefined || to === undefined ? undefined : graph.relate(from, to)
  const aheadBy = relation?.ahead.length ?? 0
  const behindBy = relation?.behindBy ?? 0
  const truth = aheadBy > 0 && behindBy > 0 ? 'diverged' : aheadBy > 0 ? 'ahead' : behindBy > 0 ? 'behind' : 'in-sync'
  say(
    `${where}: ${row.state} only with the merge base GitLab answered for ${base} and ${row.commit ?? '?'}, as the history is`,
    answered && relation !== undefined && truth === row.state && (row.aheadBy ?? 0) === aheadBy && (row.behindBy ?? 0) === behindBy,
    { row: [row.state, row.behindBy, row.aheadBy], answered, truth: [truth, behindBy, aheadBy] }
  )
}

/** GitLab's deployments of that environment that this read's listings of them were sure to show (listingsBegun). */
function visibleOnGitLab(calls: readonly StatusCall[], environment: string): ReadonlyArray<{ id: number; environment: string; sha: string }> {
  const model = gitlab.world?.core.model
  if (model === undefined) return []
  const begun = listingsBegun(calls, environment)
  return model.deployments
    .map((d) => ({ id: d.id, environment: model.environmentOf(d).name, sha: d.sha }))
    .filter((d, index) => shownBy(begun, index, d.environment))
}

/** The health probe's verdict is what its page answered in this read: ok only with a 2xx holding the expected text. */
function checkHealth(row: EnvironmentRow, calls: readonly StatusCall[], where: string): void {
  if (row.health === 'not-checked' || row.environment === null) return
  const page = `/sites/${encodeURIComponent(row.environment)}/`
  const passed = calls.some(
    (c) =>
      c.kind === 'site' &&
      c.path.startsWith(page) &&
      typeof c.settled === 'number' &&
      c.settled >= 200 &&
      c.settled <= 299 &&
      c.answer?.text.includes(MARKER) === true
  )
  say(`${where}: health ${row.health} is what its page answered`, (row.health === 'ok') === passed, { health: row.health, reason: row.healthReason })
}

/** The commit a row names is its distribution's own (in full from a Deployment, a prefix from a name). */
function checkCommit(f: Facts, row: EnvironmentRow, where: string): void {
  if (row.commit === null) return
  const truth = truthOf(f, row.distributionId)
  if (truth === undefined) return
  const holds = row.evidence === 'name' ? truth.startsWith(row.commit.toLowerCase()) : truth === row.commit.toLowerCase()
  say(`${where}: the commit is the distribution's own`, holds, { row: row.commit, evidence: row.evidence, truth, distribution: row.distributionId })
}

/** in-sync, behind, ahead or diverged: GitHub answered this read's compare of the tracked ref with that commit, and said so. */
function checkCompared(r: StatusSchedule, row: EnvironmentRow, calls: readonly StatusCall[], where: string): void {
  const base = r.track === 'v*' ? (COMMITS[TAGS.find(([name]) => name === NEWEST_TAG)?.[1] ?? 0] ?? '') : row.track
  if (r.track === 'v*') say(`${where}: the tag a pattern stands for is the newest by version order`, row.trackedRef === NEWEST_TAG, row.trackedRef)
  const answered = calls.filter((c) => {
    const bh = basehead(c)
    return c.kind === 'compare' && c.settled === 200 && bh !== undefined && bh[0] === base && same(bh[1], row.commit)
  })
  const said = answered.map((c) => JSON.parse(c.answer?.text ?? '{}') as { status?: string; ahead_by?: number; behind_by?: number })
  const state = { identical: 'in-sync', behind: 'behind', ahead: 'ahead', diverged: 'diverged' } as Record<string, string>
  say(
    `${where}: ${row.state} only with the compare GitHub answered for ${base}...${row.commit}`,
    said.some((a) => state[a.status ?? ''] === row.state && (a.behind_by ?? 0) === (row.behindBy ?? 0) && (a.ahead_by ?? 0) === (row.aheadBy ?? 0)),
    { row: [row.state, row.behindBy, row.aheadBy], answered: said.map((a) => [a.status, a.behind_by, a.ahead_by]) }
  )
}

/**
 * The listings of deployments this read began (their first page answered; of one environment, when given): how many
 * Deployments the code's host held then, and which environment each listing asked for (null: the whole repository's).
 * A listing is newest first and the host only adds to it, so it shows every one held when it began, while one recorded
 * as it read on lands on a page already read: what a later page's answer held is not what the report could see
 * (fresh seed 637176174: the run's Deployment, recorded between the first and second page, read as held).
 */
function listingsBegun(calls: readonly StatusCall[], environment?: string): Array<{ held: number; environment: string | null }> {
  return calls
    .filter((c) => c.kind === 'list-deployments' && c.settled === 200)
    .map((c) => ({ query: new URLSearchParams(c.path.split('?')[1] ?? ''), held: c.deployments ?? 0 }))
    .filter(({ query }) => (query.get('page') ?? '1') === '1') // GitLab's first page has no page=; its next ones follow its Link header
    .map(({ query, held }) => ({ held, environment: query.get('environment') }))
    .filter((l) => environment === undefined || l.environment === environment)
}

/** Whether the host's index-th deployment (recorded for `environment`) was held when one of these listings of it began. */
function shownBy(begun: ReadonlyArray<{ held: number; environment: string | null }>, index: number, environment: string): boolean {
  return begun.some((l) => index < l.held && (l.environment === null || l.environment === environment))
}

/** Deployments of this stack (of one environment, when given) that this read's listings of them were sure to show (listingsBegun). */
function visibleDeployments(
  calls: readonly StatusCall[],
  environment?: string
): ReadonlyArray<{ id: number; environment: string; sha: string; payload: unknown }> {
  const begun = listingsBegun(calls, environment)
  return (github.world?.core.model.deployments ?? []).filter((d, index) => {
    const apiUrl = (d.payload as { apiUrl?: unknown } | null)?.apiUrl
    return shownBy(begun, index, d.environment) && (apiUrl === undefined || apiUrl === BASE)
  })
}

/**
 * outside: GitHub's Deployments were read, and none GitHub held when the report began listing them names the
 * distribution with its commit (which would be evidence of it), nor names it for this environment at all (a promotion
 * of unknown commit here is this action's; one made for another environment is not how it came here, docs/status.md);
 * and the platform answered the distribution's lookup, so its name was read (one it no longer holds, a 404, has a name
 * not read, not one without a commit).
 */
function checkOutside(row: EnvironmentRow, calls: readonly StatusCall[], where: string): void {
  const id = encodeURIComponent(row.distributionId ?? '').toLowerCase()
  say(
    `${where}: outside only when the platform answered the lookup of ${row.distributionId} (its name read)`,
    calls.some((c) => c.kind === 'get-distribution' && c.settled === 200 && c.path.toLowerCase().endsWith(`/${id}`)),
    { lookups: calls.filter((c) => c.kind === 'get-distribution').map((c) => ({ path: c.path, settled: c.settled })) }
  )
  const read = calls.some((c) => c.kind === 'list-deployments' && c.settled === 200)
  const naming = visibleDeployments(calls).filter((d) => {
    const payload = (d.payload ?? {}) as { distributionId?: unknown; commit?: unknown }
    return same(String(payload.distributionId), row.distributionId) && (payload.commit !== 'unknown' || d.environment === row.environment)
  })
  say(
    `${where}: outside only when no Deployment GitHub held names ${row.distributionId} (with its commit, or for this environment)`,
    read && naming.length === 0,
    {
      read,
      naming: naming.map((d) => ({ id: d.id, environment: d.environment, payload: d.payload }))
    }
  )
}

/** The last Deployment is the environment's newest GitHub held, and its commit is the one it deployed, never a promoting run's. */
function checkLastDeployment(f: Facts, row: EnvironmentRow, calls: readonly StatusCall[], where: string): void {
  const last = row.lastDeployment
  if (last === null || row.environment === null) return
  const newest = visibleDeployments(calls, row.environment)
    .filter((d) => d.environment === row.environment)
    .at(-1)
  say(`${where}: the last Deployment is the newest GitHub held`, newest?.id === last.id, { row: last.id, newest: newest?.id })
  const payload = (newest?.payload ?? {}) as { distributionId?: string; commit?: string }
  const truth = payload.distributionId === undefined ? undefined : truthOf(f, payload.distributionId)
  if (last.commit !== null && truth !== undefined)
    say(`${where}: the last Deployment's commit is what it deployed`, last.commit.toLowerCase() === truth, {
      row: last.commit,
      truth,
      payload
    })
}

/** What a reason says of GitHub is what GitHub answered: a permission only after a 403 of its own, the token only after a 401. */
function checkReasons(reading: StatusReading, calls: readonly StatusCall[]): void {
  const report = reading.report
  if (report === undefined) return
  const text = [...report.githubErrors, ...report.environments.map((x) => x.reason ?? '')].join('\n')
  const gh = calls.filter((c) => c.service === 'github' || c.service === 'gitlab')
  if (/lacks a permission/.test(text))
    say(
      'a missing permission only after GitHub refused one (403, not a rate limit)',
      gh.some((c) => c.settled === 403 && c.fate === 'answer'),
      text
    )
  if (/refused the token/.test(text))
    say(
      'a refused token only after a 401',
      gh.some((c) => c.settled === 401),
      text
    )
  if (/rate limit/i.test(text))
    say(
      'a rate limit only after GitHub said one',
      gh.some((c) => c.fate === 'respond' && [403, 429].includes(Number(c.settled))),
      text
    )
}

/** The issues opened follow drift that was read; closed only for in-sync; none touched for unknown or deploying. */
function checkDriftIssues(r: StatusSchedule, reading: StatusReading): void {
  if (!reading.driftKept || reading.report === undefined) return
  const before = new Map(reading.issuesBefore.map((i) => [i.number, i]))
  const states = r.failOn.filter((s) => s !== 'unhealthy' && s !== 'in-sync' && s !== 'unknown' && s !== 'deploying')
  const opening = r.failOn.filter((s) => s !== 'unhealthy').length > 0 ? states : ['behind', 'ahead', 'diverged', 'outside', 'empty']
  for (const issue of reading.issuesAfter) {
    const m = /<!-- brcloud-drift stack=(\S+) environment=(\S+) -->/.exec(issue.body)
    const row = reading.report.environments.find(
      (x) => m !== null && x.stack === decodeURIComponent(m[1] ?? '') && x.environment === decodeURIComponent(m[2] ?? '')
    )
    const was = before.get(issue.number)
    if (was === undefined) say(`issue #${issue.number} opened only for drift read`, row !== undefined && opening.includes(row.state), row?.state)
    else if (was.state === 'open' && issue.state === 'closed') say(`issue #${issue.number} closed only when in-sync`, row?.state === 'in-sync', row?.state)
    else if (was.body !== issue.body || was.title !== issue.title)
      say(`issue #${issue.number} rewritten only for a state read`, row !== undefined && row.state !== 'unknown' && row.state !== 'deploying', row?.state)
  }
}

/** No secret in what the face printed, in the refusal, or in the report's log. */
function checkSecrets(f: Facts, reading: StatusReading): void {
  const text = [...reading.printed, reading.refusal ?? '', ...statusShown.lines].join('\n')
  for (const secret of new Set(statusSecrets(f.stack))) expect(text.includes(secret) ? secret : 'absent').toBe('absent')
}

/** Every refresh token the report was handed no longer works at the end, unless a warning said why. */
function checkRevoked(f: Facts): void {
  const { stack } = f
  const valid = [...new Set([...statusShown.masked, ...statusWorld.issued])].filter((t) =>
    stack.sso !== undefined
      ? /^rt_/.test(t) && stack.sso.tokens.refreshGrant(t) !== undefined
      : t.split('.').length === 3 && stack.state.tokens.check('refresh', t).ok
  )
  if (valid.length === 0) return
  const said = [...statusShown.lines, ...statusWorld.reads.flatMap((x) => x.printed)].join('\n')
  // Why not: a failure it warned of, an endpoint with no way to revoke, a login without the client a revocation needs.
  say(
    "the report's refresh tokens are revoked, or it says why not",
    /could not revoke the report's refresh token|nothing revoked|left to expire|expires by itself/i.test(said),
    valid.length
  )
}

/** What the report's side of the world drew, and which of its cases occurred (the coverage report). */
export const STATUS_FEATURES: ReadonlyArray<readonly [string, (f: Facts) => boolean]> = [
  ['status report: read', (f) => f.s.report !== undefined],
  ['status report: read during the run', () => statusWorld.reads.some((x) => !x.afterTheRun)],
  ['status report: with GitHub', (f) => statusHost(f.s) === 'github'],
  ['status report: with GitLab', (f) => statusHost(f.s) === 'gitlab'],
  ['status report: faults on its calls', (f) => (f.s.report?.reads ?? []).some((x) => x.faults.length > 0)],
  [
    'status report: a GitHub rate limit',
    (f) => (f.s.report?.reads ?? []).some((x) => x.faults.some((y) => y.kind === 'rate-limit' || y.kind === 'secondary-limit'))
  ],
  ['status report: a token GitHub refuses, or a permission missing', (f) => f.s.report?.github !== undefined && f.s.report.github.token !== 'ok'],
  ['status report: more than 300 Deployments', (f) => (f.s.report?.github?.filler ?? 'none') !== 'none'],
  ['status report: a tracked ref GitHub does not know', (f) => f.s.report?.track === 'typo'],
  ['status report: a tag pattern tracked', (f) => f.s.report?.track === 'v*'],
  ['status report: drift issues', (f) => f.s.report?.github?.driftIssues === true],
  ['status report: a credential where it does not belong (a variable name, a flag)', (f) => f.s.report?.login === 'credential-in-variable']
]

const rows = (): EnvironmentRow[] => statusWorld.reads.flatMap((x) => x.report?.environments ?? [])
const truths = (): Array<{ status: string; distributionId: string | null }> => statusWorld.calls.flatMap((c) => c.truth?.filter((t) => t.name === ENV) ?? [])

export const STATUS_CASES: ReadonlyArray<readonly [string, (f: Facts) => boolean]> = [
  ...(['in-sync', 'behind', 'ahead', 'diverged', 'outside', 'deploying', 'empty', 'unknown'] as const).map(
    (state) => [`status report: a row ${state}`, () => rows().some((x) => x.state === state)] as const
  ),
  ['status report: a health probe ok', () => rows().some((x) => x.health === 'ok')],
  ['status report: a health probe failing', () => rows().some((x) => x.health === 'failing')],
  ['status report: read while the environment switched', () => truths().some((t) => t.status === 'deploying')],
  ['status report: switching, without a status field', (f) => !f.s.status && truths().some((t) => t.status === 'deploying')],
  [
    'status report: a promotion of unknown commit read',
    () =>
      rows().some((x) =>
        (github.world?.core.model.deployments ?? []).some((d) => {
          const payload = (d.payload ?? {}) as { distributionId?: unknown; commit?: unknown }
          return payload.commit === 'unknown' && same(String(payload.distributionId), x.distributionId)
        })
      )
  ],
  ...([0, 1, 2, 8, 9] as const).map((code) => [`status report: exit ${code}`, () => statusWorld.reads.some((x) => x.exit === code)] as const),
  [
    'status report: on GitLab, a row compared with the tracked ref',
    (f) => statusHost(f.s) === 'gitlab' && rows().some((x) => ['in-sync', 'behind', 'ahead', 'diverged'].includes(x.state))
  ],
  ['status report: on GitLab, its last deployment read', (f) => statusHost(f.s) === 'gitlab' && rows().some((x) => x.lastDeployment !== null)],
  ['status report: a drift issue opened', () => statusWorld.reads.some((x) => x.issuesAfter.some((i) => !x.issuesBefore.some((b) => b.number === i.number)))],
  [
    'status report: a drift issue closed',
    () =>
      statusWorld.reads.some((x) => x.issuesAfter.some((i) => i.state === 'closed' && x.issuesBefore.some((b) => b.number === i.number && b.state === 'open')))
  ],
  ['status report: the command stopped by a signal', () => statusWorld.reads.some((x) => x.stoppedAt !== undefined)],
  ...(['command', 'file'] as const).map(
    (face) => [`status report: read by the ${face}`, () => statusWorld.reads.some((x) => x.face === face && x.report !== undefined)] as const
  )
]

export const statusGenerated = new Map<string, number>(STATUS_FEATURES.map(([name]) => [name, 0]))
export const statusCoverage = new Map<string, number>(STATUS_CASES.map(([name]) => [name, 0]))

export function countStatus(f: Facts): void {
  for (const [name, drawn] of STATUS_FEATURES) if (drawn(f)) statusGenerated.set(name, (statusGenerated.get(name) ?? 0) + 1)
  for (const [name, occurred] of STATUS_CASES) if (occurred(f)) statusCoverage.set(name, (statusCoverage.get(name) ?? 0) + 1)
}

/** What the report's reads showed and every call they made (SIM_VERBOSE prints it when a claim fails). */
export function statusLog(): string {
  const out: string[] = []
  for (const x of statusWorld.reads) {
    out.push(`--- status read ${x.index} at ${new Date(x.startedAt).toISOString().slice(11, 23)}, exit ${x.exit}${x.afterTheRun ? ' (after the run)' : ''}`)
    if (x.refusal !== undefined) out.push(`refused: ${x.refusal}`)
    out.push(x.printed[0] ?? '', ...x.printed.slice(3))
    for (const c of statusWorld.calls.filter((y) => y.read === x.index))
      out.push(
        `  #${c.seq} ${c.method} ${c.path} [${c.fate}] -> ${String(c.settled)}${c.truth ? ` truth ${JSON.stringify(c.truth.map((t) => [t.name, t.status, t.distributionId]))}` : ''}${c.deployments !== undefined ? ` (${c.deployments} deployments)` : ''}`
      )
  }
  return [...out, ...statusShown.lines].join('\n')
}
