// Which races a run met, so the default run can show that each one is common, not rare: the coverage
// report of the simulation (printed at the end; a test asks that each race occurred).
import { shown } from './mocks.js'
import type { Facts } from './claims.js'
import { cdeventsOf } from './event-claims.js'
import { countStatus, statusCoverage, statusGenerated } from './status-claims.js'
import { wire } from './transport.js'
import { ranBefore, type SinkFate } from './world.js'

const same = (a: string | undefined, b: string | undefined): boolean => a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase()

/** Each race, and how to tell from a run's facts that it occurred. */
export const RACES: ReadonlyArray<readonly [string, (f: Facts) => boolean]> = [
  ['another deploy replaced ours', () => shown.outputs['release-state'] === 'replaced'],
  ['another job deployed before our deploy call: the order checked again', (f) => /checking the deploy order again/.test(f.text)],
  ['the deploy order refused an older commit', () => shown.outputs.order === 'behind' && /Refused/.test(shown.summary)],
  ['GitHub failed or refused during the order check', (f) => /Deploy order not checked: .*(could not be reached|no answer|HTTP \d)/.test(f.text)],
  ['a rollback was sent', (f) => f.sentRollback > 0],
  ['a rollback was not sent over another deploy', (f) => /rollback is sent only over this run's own release|which will replace this release/.test(f.text)],
  ['a deploy accepted during a switch abandoned another', (f) => f.history.some((d) => d.abandonedAt !== undefined)],
  ['a deploy call got no usable answer', (f) => /got no usable answer/.test(f.text)],
  ['the access token was renewed', (f) => /Access token renewed|renewing it and trying once more/.test(f.text)],
  ['a look failed and was made again', (f) => /Looking at '[^']+' failed/.test(f.text)],
  ['the identity provider failed while the run went on', (f) => /Looking at '[^']+' failed \([^)]*(token|http:\/\/127\.0\.0\.1:9\/idp)/.test(f.text)],
  ['a cancel after the deploy request', (f) => f.ending.firstSignal === 'SIGINT' && f.sentOurs > 0],
  ['SIGTERM alone', (f) => f.ending.firstSignal === 'SIGTERM' && f.s.stop?.kind === 'sigterm'],
  ['a kill, then the post step', (f) => f.ending.killed],
  [
    'the post step revoked a token the main step left valid',
    () =>
      /revoked this run's refresh token/.test(
        shown.postSummary +
          shown.lines
            .filter((l) => l.by === 'post')
            .map((l) => l.text)
            .join('\n')
      )
  ],
  ['the watchdog fired', (f) => /total-timeout-minutes \(/.test(f.failed)],
  ['pruning deleted distributions', (f) => f.log.deleted.length > 0],
  ['pruning deleted distributions without a status field', (f) => !f.s.status && f.log.deleted.length > 0],
  ['pruning kept a distribution', (f) => /Pruning: kept distribution/.test(f.text)],
  ["pruning kept an environment's previous distribution", (f) => /Pruning: kept distribution .*(ran it earlier in this run|records it as what)/.test(f.text)],
  [
    'pruning kept the newest one stored before what an environment runs (no record names its previous)',
    (f) => /Pruning: kept distribution .*: the newest one stored before \S+, which environment/.test(f.text)
  ],
  [
    'pruning kept what a GitHub Deployment in progress or of the last hour names',
    (f) => /Pruning: kept distribution .*GitHub Deployment \d+ of .*(still (in progress|queued|pending)|within the last hour)/.test(f.text)
  ],
  ['pruning could not keep max-distributions, and said why', (f) => /::warning::max-distributions=\d+ could not be kept/.test(f.text)],
  ['an identical distribution was reused', (f) => /reusing it, no upload/.test(f.text)],
  ['an upload whose answer was lost was adopted', (f) => /adopting distribution/.test(f.text)],
  ['the environment was renamed or deleted mid-run', (f) => f.log.environmentGone !== undefined],
  [
    'someone else deployed our distribution',
    (f) => f.history.some((d) => (d.by === 'other-job' || d.by === 'mission-control') && same(d.distributionId, f.ours))
  ],
  ['the platform restarted mid-run', (f) => f.log.restarts.length > 0],
  ['the release was verified', () => shown.outputs['release-state'] === 'verified'],
  ['the release failed and was rolled back', () => shown.outputs['rolled-back'] === 'true'],
  ...(['deployed', 'upgraded', 'published', 'rolledback', 'refused', 'unconfirmed', 'cancelled', 'failed'] as const).map(
    (kind) => [`a CDEvent sent: ${kind}`, () => sent().includes(kind)] as const
  ),
  ['an upgrade, then its rollback seen, in one chain', () => sent().includes('upgraded') && sent().includes('rolledback')],
  ['a sink failed: one warning', (f) => /::warning::Events: .* was not told: it answered/.test(f.text)],
  ['a sink ran out of events-timeout-seconds', (f) => /::warning::Events: .* was not told: no answer within .* \(events-timeout-seconds\)/.test(f.text)],
  [
    'a cancel during the sends, or before them: sends within its grace',
    (f) => f.s.stop?.kind === 'cancel' && f.ending.firstSignal !== undefined && wire.sinkRequests.length > 0
  ],
  ['a sink still sending when the run was stopped', (f) => /::warning::Events: .* was not told: the run was stopped/.test(f.text)],
  ['a native sink sent', () => wire.sinkRequests.some((r) => r.key !== 'cdevents')]
]

/** The kinds of the CDEvents this run sent, in order. */
function sent(): string[] {
  return cdeventsOf(wire.sinkRequests).map((e) => e.kind)
}

const fates = (f: Facts): Array<SinkFate['kind']> => f.s.events?.sinks.map((x) => x.fate.kind) ?? []

/** What the world generates: each kind of schedule, by what it drew (the fault model's "how often"). */
export const FEATURES: ReadonlyArray<readonly [string, (f: Facts) => boolean]> = [
  ["login: the stack's password", (f) => f.s.login === 'password'],
  ['login: token-url, client secret', (f) => f.s.login === 'client-secret'],
  ['login: token-url, script account', (f) => f.s.login === 'script-account'],
  ['login: token-url, GitHub OIDC', (f) => f.s.login === 'github-oidc'],
  ['login: access-token', (f) => f.s.login === 'access-token'],
  ['source: distribution-id', (f) => f.s.source === 'id'],
  ['source: from-environment', (f) => f.s.source === 'environment'],
  ['source: an upload', (f) => f.s.source === 'upload'],
  ['source: an identical stored one', (f) => f.s.source === 'upload-identical'],
  ['max-distributions (pruning)', (f) => f.s.maxDistributions !== undefined && f.s.source.startsWith('upload')],
  ['an environment that ran an older release before (pruning meets its previous)', (f) => ranBefore(f.s)],
  ['no status field', (f) => !f.s.status],
  ['the id reported at request', (f) => f.s.reading === 'at-request'],
  ['a deploy during a switch accepted', (f) => f.s.deployWhileBusy === 'accept'],
  ['ids in upper case on one endpoint or all', (f) => f.s.idCase !== 'as-stored'],
  ['faults on platform or identity-provider calls', (f) => f.s.faults.length > 0],
  ['other actors', (f) => f.s.actors.length > 0],
  ["an actor right after one of the run's requests", (f) => f.s.actors.some((a) => 'after' in a.trigger)],
  ['github-token', (f) => f.s.github !== undefined],
  ['GitHub faults, or a token it refuses', (f) => f.s.github !== undefined && (f.s.github.faults.length > 0 || f.s.github.token !== 'ok')],
  ['a cancel (SIGINT, SIGTERM, the kill)', (f) => f.s.stop?.kind === 'cancel'],
  ['SIGTERM alone', (f) => f.s.stop?.kind === 'sigterm'],
  ['a kill', (f) => f.s.stop?.kind === 'kill'],
  ['the watchdog set to the budgets', (f) => f.s.tightWatchdog],
  ['a search check', (f) => f.s.search !== 'none'],
  ['event sinks (events-url and one or two native)', (f) => f.s.events !== undefined],
  ['a sink that answers an error', (f) => fates(f).includes('status')],
  ['a sink that never answers', (f) => fates(f).includes('hang')],
  ['a slow sink', (f) => fates(f).includes('slow')]
]

export const coverage = new Map<string, number>(RACES.map(([name]) => [name, 0]))
export const generated = new Map<string, number>(FEATURES.map(([name]) => [name, 0]))

export function countRaces(f: Facts): void {
  for (const [name, occurred] of RACES) if (occurred(f)) coverage.set(name, (coverage.get(name) ?? 0) + 1)
  for (const [name, drawn] of FEATURES) if (drawn(f)) generated.set(name, (generated.get(name) ?? 0) + 1)
  countStatus(f)
}

function rows(counts: Map<string, number>, runs: number): string[] {
  return [...counts].map(([name, n]) => `  ${String(n).padStart(6)}  ${((100 * n) / Math.max(1, runs)).toFixed(1).padStart(5)}%  ${name}`)
}

export function coverageReport(runs: number): string {
  return [
    `What the world generated in ${runs} schedules:`,
    ...rows(generated, runs),
    ...rows(statusGenerated, runs),
    `Races that occurred:`,
    ...rows(coverage, runs),
    `The status report's cases that occurred:`,
    ...rows(statusCoverage, runs)
  ].join('\n')
}
