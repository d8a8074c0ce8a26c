// The invariants of a run whose code lives on GitLab (./gitlab.ts), read against GitLab's record (the stand-in's model),
// the platform's history and what the run claimed, on every face (the action's main and post steps, the command):
// - the deploy order: no deploy call of ours went out over a newer commit the look right before it showed (by the
//   distribution's name, GitLab's only evidence), unless allow-older-commit; none after GitLab could not be read,
//   refused the token or a name could not be read, unless allow-unchecked-order, and then nothing was changed before it
//   either;
// - the GitLab deployment the run created (one at most per run) is of the commit the run found for its distribution (its
//   own when it found none), and ends with the status first decided, which the outcome says: success only for a release
//   that went through, failed for a failure (each decided before any stop), canceled for a stop (a signal, a kill, the
//   watchdog); left running only where the run said so, or a command that could not finish it (killed, or its closing
//   calls cut short);
// - nothing claims GitLab evidence GitLab did not give: no commit from a GitLab deployment (they carry no distribution),
//   and GitLab, never GitHub, named as the host it read; require-verified-in (which needs GitHub's records) refused as
//   bad input before any request.
// The token is in checkSecrets (./claims.ts, ./cli-claims.ts, ./status.ts) with every other secret.
import { expect } from '@jest/globals'
import { COMMITS, GONE } from './github.js'
import { closingsLeftToExpire, reportedByMain, reported, same, type Facts } from './claims.js'
import { commitInName, gitlab, gitlabRelation, type GitLabSchedule } from './gitlab.js'
import { shown } from './mocks.js'
import { processRecord } from './process.js'
import { wire } from './transport.js'
import { OLD, OURS, PREV, THEIRS } from './world.js'
import { soakOnGitLab } from './rules-world.js'

const say = (claim: string, holds: boolean, detail: unknown = undefined): void =>
  expect({ claim, holds, ...(holds ? {} : { detail }) }).toEqual({ claim, holds: true })

/** Every GitLab invariant of run `index` (its view of the world: ./runs.ts asRun). */
export function checkGitLab(f: Facts, index: number): void {
  const gl = f.s.gitlab
  if (gl === undefined || gitlab.world === undefined) return
  checkOrderOnGitLab(f, gl, index)
  checkRecordOnGitLab(f, index)
  checkWordsOnGitLab(f)
  checkSoakOnGitLab(f, index)
}

/** The soak gate needs GitHub's records: with GitLab it is refused as bad input, before any request (docs/gitlab.md). */
function checkSoakOnGitLab(f: Facts, index: number): void {
  if (!soakOnGitLab(f.s) || index > 0) return
  const calls = wire.calls.filter((c) => c.run === index && c.by === 'main').length
  // Refused as bad input (another input the world drew wrong may be refused first: a secret as a flag, a malformed line).
  say('require-verified-in with GitLab is refused as bad input, before any request', f.failed !== '' && calls === 0, { failed: f.failed, calls })
}

/** The commit index a distribution's name carries: as stored now, or (deleted since) as the world named it. */
function nameCarries(f: Facts, gl: GitLabSchedule, id: string | undefined): number | undefined {
  if (id === undefined) return undefined
  const stored = f.stack.state.distributions.find((d) => same(d.id, id))
  if (stored !== undefined) return commitInName(stored.name)
  if (!gl.names) return undefined
  if (same(id, OLD)) return gl.old
  if (same(id, PREV)) return 0
  // Ours stored before the run (a promotion's): deleted by another actor after the run read it (fresh seed 1751298366).
  if (same(id, OURS) && !f.s.source.startsWith('upload')) return gl.ours
  const i = THEIRS.findIndex((t) => same(t, id))
  return i < 0 ? undefined : gl.theirs[i]
}

/** The commit the run knew its distribution by: its own (an upload), or the one its name carries (a promotion). */
function oursKnown(f: Facts, gl: GitLabSchedule, index: number): number | undefined {
  if (f.s.source.startsWith('upload')) {
    const sha = processRecord(index).context?.sha ?? ''
    const i = COMMITS.indexOf(sha.toLowerCase())
    return sha === '' || i < 0 ? undefined : i
  }
  return nameCarries(f, gl, f.ours)
}

/**
 * A main-step line saying the deploy order could not be checked because GitLab failed or refused, or a name (GitLab's
 * only evidence) could not be read: not missing evidence.
 */
function gitlabFailedLine(): (typeof shown.lines)[number] | undefined {
  return shown.lines.find(
    (l) =>
      l.by === 'main' &&
      /Deploy order not checked: .*(could not be reached|no answer from|HTTP \d{3}|its name could not be read)/.test(l.text) &&
      !/does not know one of the two commits/.test(l.text)
  )
}

/** Newest commit wins, by the names GitLab's world gave; a GitLab it cannot read refuses before any change unless allowed. */
function checkOrderOnGitLab(f: Facts, gl: GitLabSchedule, index: number): void {
  const order = shown.outputs.order
  say('the order output is one of the documented', ['ahead', 'identical', 'behind', 'diverged', 'unknown', undefined].includes(order), order)
  const failedAt = gitlabFailedLine()
  if (failedAt !== undefined && !gl.allowUnchecked) {
    const after = wire.deploys.filter((d) => same(d.distributionId, f.ours) && d.seq > failedAt.seq).length
    say('GitLab could not be read: no deploy call of ours after that check', after === 0, { line: failedAt.text, after })
    // The first check is before any change: no upload and no deletion after it either (a check after a wait comes after the upload).
    const recheck = shown.lines.some((l) => l.by === 'main' && l.seq <= failedAt.seq && /checking the deploy order again/.test(l.text))
    if (!recheck) say('GitLab could not be read: nothing was changed', f.log.uploaded.length + f.log.deleted.length === 0, f.log)
  }
  // A check that failed and was allowed to (allow-unchecked-order, said as such) deploys without it, as documented.
  const allowedUnchecked = failedAt !== undefined && /The deploy goes on \(allow-unchecked-order: true\)/.test(f.text)
  if (gl.allowOlder || gl.faults.length > 0 || gl.token !== 'ok' || allowedUnchecked) return
  const ours = oursKnown(f, gl, index)
  if (ours === undefined) return
  for (const call of wire.deploys.filter((d) => same(d.distributionId, f.ours))) {
    const look = wire.looks.filter((l) => l.seq < call.seq).at(-1)
    if (look === undefined) continue
    const { id } = reported(look.answer, f.log.environment?.id)
    const running = typeof id === 'string' ? nameCarries(f, gl, id) : undefined
    if (running === undefined || running === GONE) continue
    const rel = gitlabRelation(running, ours)
    say(`no deploy call over a newer commit (the look before it showed ${String(id)})`, rel !== 'behind', { running, ours, rel })
  }
  if (order === 'behind')
    say('an older commit is refused, or the run was stopped', /older than|was cancelled|total-timeout-minutes|stopped/.test(f.failed), f.failed)
}

/** The GitLab deployment this run created: one at most, of the commit the run knew, with the final status its outcome says. */
function checkRecordOnGitLab(f: Facts, index: number): void {
  const world = gitlab.world
  const gl = f.s.gitlab
  if (world === undefined || gl === undefined) return
  const mine = world.core.model.deployments.filter((d) => world.createdBy.get(d.id) === index)
  say(
    'no second GitLab deployment per run',
    mine.length <= 1,
    mine.map((d) => d.id)
  )
  // The distribution's commit as its name (or the run's own commit, for an upload) says; the run's own commit.
  const knownBy = oursKnown(f, gl, index)
  const truth = knownBy === undefined ? undefined : COMMITS[knownBy]
  const runSha = processRecord(index).context?.sha ?? ''
  // Whether the run's order check found that commit (it says so: "commit X (...)", or compared it): then it is recorded at it.
  const found =
    truth !== undefined &&
    shown.lines.some(
      (l) => l.by === 'main' && new RegExp(`Deploy order: commit ${truth.slice(0, 7)} \\(|Comparing \\w+ with ${truth.slice(0, 7)}`).test(l.text)
    )
  const stopped = f.ending.firstSignal !== undefined || f.ending.killed || /total-timeout-minutes/.test(f.failed)
  for (const d of mine) {
    // Of the commit the run found; when it found none, of the run's own (as GitLab CI records a job's: docs/gitlab.md).
    const atTruth = truth !== undefined && same(d.sha, truth)
    say(`GitLab deployment ${d.id} is of the commit the run found, or the run's own when it found none`, atTruth || (!found && same(d.sha, runSha)), {
      sha: d.sha,
      truth,
      runSha,
      found
    })
    // Only a deployment the run learned as its own gets statuses from it (a create answered too late is GitLab's orphan).
    const known = shown.lines.some((l) => l.text.startsWith(`Recorded as GitLab deployment ${d.id} `))
    if (!known) continue
    const said = new RegExp(`Could not set GitLab deployment ${d.id} to|GitLab deployment ${d.id} stays running`).test(f.text)
    // The first call setting a final status (the main step's decision; the post step's when the main step decided none),
    // and whether a signal came before it: what the status must say. A later one only repeats a decision.
    const finals = wire.gitlabCalls.filter(
      (c) => c.route === 'update-deployment' && c.path.endsWith(`/deployments/${d.id}`) && /"(success|failed|canceled)"/.test(c.body)
    )
    const decision = finals.find((c) => c.by === 'main') ?? finals[0]
    const signalFirst = f.ending.signalSeq !== undefined && decision !== undefined && f.ending.signalSeq < decision.seq
    const decided = /"(success|failed|canceled)"/.exec(decision?.body ?? '')?.[1]
    if (decided !== undefined && d.status !== 'running')
      say(`GitLab deployment ${d.id} ends with the status first decided`, d.status === decided, { status: d.status, decided })
    if (d.status === 'running' || d.status === 'created') {
      say(`GitLab deployment ${d.id} left ${d.status} only where the run said so`, said || closingsLeftToExpire(f), { text: f.failed })
      continue
    }
    const state = shown.outputs['release-state']
    if (d.status === 'success') {
      // A green run's end: verified, or as far as follow-deploy and the health check looked (docs/gitlab.md).
      const through = ['verified', 'healthy', 'applied', 'reported', 'requested', 'already-running'].includes(state ?? '')
      // Through before a stop came (a signal during the closing calls after it, fresh seed 833318941): its success stands.
      const stateSeen = shown.lines.filter((l) => l.by === 'main' && l.text.startsWith(`Release ${state ?? ''}`)).at(-1)
      const throughFirst = stateSeen !== undefined && f.ending.signalSeq !== undefined && stateSeen.seq <= f.ending.signalSeq
      if (reportedByMain())
        say(`GitLab deployment ${d.id} success only for a release that went through`, through && (!signalFirst || throughFirst), { state, signalFirst })
    }
    // The release failed before a stop came (a signal during the closing calls after it): its failure stands.
    const failing = shown.lines.find((l) => l.by === 'main' && /^Release (failed|replaced|rollback-[a-z]+):/.test(l.text))
    const failedFirst = failing !== undefined && f.ending.signalSeq !== undefined && failing.seq <= f.ending.signalSeq
    if (d.status === 'failed')
      say(`GitLab deployment ${d.id} failed only for a failure, not a stop before it`, f.failed !== '' && (!signalFirst || failedFirst), {
        failed: f.failed,
        signalFirst
      })
    if (d.status === 'canceled') say(`GitLab deployment ${d.id} canceled only after a stop (a signal, a kill, the watchdog)`, stopped, { failed: f.failed })
  }
}

/** GitLab is the host the run read: never a commit from a GitLab deployment, never GitHub named as what failed or recorded. */
function checkWordsOnGitLab(f: Facts): void {
  say(
    'no commit is evidenced by a GitLab deployment',
    !/\(GitLab deployment \d+, by /.test(f.text),
    f.text.match(/.{80}\(GitLab deployment \d+, by .{40}/)?.[0]
  )
  // (Save where GitHub is the advice: the soak gate, which needs the code on GitHub, refused as bad input with GitLab.)
  const text = f.text.replace(/the soak gate needs the code on GitHub \(github-token\)/g, '')
  const github = /GitHub could not be read|GitHub Deployment|github-token|GitHub's (API|rate limit)|GitHub refused|GitHub failed/.exec(text)
  say('GitLab, never GitHub, is named as the code host', github === null, github?.input.slice(Math.max(0, github.index - 120), github.index + 80))
}
