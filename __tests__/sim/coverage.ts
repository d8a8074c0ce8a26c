// Which races a run met, so the default run can show that each one is common, not rare: the coverage
// report of the simulation (printed at the end; a test asks that each race occurred).
import { shown } from './mocks.js'
import type { Facts } from './claims.js'
import { cdeventsOf } from './event-claims.js'
import { CIS } from './faces.js'
import { placeOf } from './second-run.js'
import { RULE_CASES } from './rules-claims.js'
import { RULE_EVENT_CASES } from './rule-events.js'
import { TRACE_CASES } from './trace-claims.js'
import { countStatus, statusCoverage, statusGenerated } from './status-claims.js'
import { wire } from './transport.js'
import { gitlab } from './gitlab.js'
import { soakOnGitLab } from './rules-world.js'
import { ranBefore, type SinkFate } from './world.js'

const same = (a: string | undefined, b: string | undefined): boolean => a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase()

/** Each race, and how to tell from a run's facts that it occurred. */
export const RACES: ReadonlyArray<readonly [string, (f: Facts) => boolean]> = [
  ['another deploy replaced ours', () => shown.outputs['release-state'] === 'replaced'],
  ['another job deployed before our deploy call: the order checked again', (f) => /checking the deploy order again/.test(f.text)],
  ['the deploy order refused an older commit', () => shown.outputs.order === 'behind' && /Refused/.test(shown.summary)],
  [
    'GitHub failed or refused during the order check',
    (f) => f.s.github !== undefined && /Deploy order not checked: (?!.*its name could not be read).*(could not be reached|no answer|HTTP \d)/.test(f.text)
  ],
  ['GitLab: the deploy order read from names', (f) => f.s.gitlab !== undefined && /^Deploy order: commit \w+ \(/m.test(f.text)],
  ['GitLab: the deploy order refused an older commit', (f) => f.s.gitlab !== undefined && shown.outputs.order === 'behind' && /Refused/.test(shown.summary)],
  [
    'GitLab failed, refused, or a name could not be read during the order check: refused',
    (f) => f.s.gitlab !== undefined && /^Refused: the deploy order on '[^']+' could not be checked/.test(f.failed)
  ],
  ...(['success', 'failed', 'canceled'] as const).map((status) => [`GitLab: our deployment ended ${status}`, () => ours().includes(status)] as const),
  [
    'GitLab: the post step set our deployment',
    () =>
      /Set GitLab deployment \d+ to/.test(
        shown.lines
          .filter((l) => l.by === 'post')
          .map((l) => l.text)
          .join('\n')
      )
  ],
  [
    'GitLab: our deployment left running, and said so',
    (f) => ours().includes('running') && /GitLab deployment \d+ (to|stays)|GitLab deployment of this run may stay/.test(f.text)
  ],
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
  ['a native sink sent', () => wire.sinkRequests.some((r) => r.key !== 'cdevents')],
  ['the command refused its inputs before the engine ran (a secret as a flag, a missing secret file, a malformed commit)', (f) => commandRefused(f)],
  ['the command wrote its --dotenv file', (f) => f.s.face?.dotenv === true && f.ending.finished],
  [
    'the command reported to Azure Pipelines: output variables on stdout',
    (f) => f.s.face?.ci === 'azure' && f.ending.finished && Object.keys(shown.outputs).length > 0
  ]
]

/** The statuses of the GitLab deployments the world's first run created. */
function ours(): string[] {
  const world = gitlab.world
  if (world === undefined) return []
  return world.core.model.deployments.filter((d) => world.createdBy.get(d.id) === 0).map((d) => d.status)
}

/** The command ended at once, before any request, on a refusal the world set up. */
function commandRefused(f: Facts): boolean {
  const face = f.s.face
  return face !== undefined && (face.secrets === 'flag' || face.secrets === 'missing-file' || face.commit === 'malformed') && f.ending.finished
}

/** Each face a run can have, and each CI the command runs in: every one must run in the default run. */
export const FACES: ReadonlyArray<readonly [string, (f: Facts) => boolean]> = [
  ['the action (its main step, then its post step)', (f) => f.s.face === undefined],
  ...CIS.map(
    (ci) =>
      [
        `brcloud deploy in ${ci === 'terminal' ? 'a terminal' : ci === 'github-actions' ? 'a GitHub Actions run: step' : ci}`,
        (f: Facts) => f.s.face?.ci === ci
      ] as const
  )
]

/** The worlds of several runs (./runs.ts), by the second run's place, counted on the second run. */
export const SECOND_RUNS: ReadonlyArray<readonly [string, (f: Facts) => boolean]> = [
  ['a second job of the same CI run, on the other environment', (f) => placed(f)?.relation === 'same-run' && placed(f)?.environment === 'other'],
  ['a second job of the same CI run, on the same environment', (f) => placed(f)?.relation === 'same-run' && placed(f)?.environment === 'same'],
  ['a re-run attempt of the same job', (f) => placed(f)?.relation === 'rerun'],
  ['a job of the same CI run on a second stack', (f) => placed(f)?.relation === 'other-stack'],
  ['the two runs overlapped', (f) => placed(f)?.when !== 'after'],
  ['a second run promoted from the other environment', (f) => placed(f)?.source === 'environment'],
  ['a second run on the command face', (f) => f.s.face !== undefined]
]

const placed = (f: Facts): ReturnType<typeof placeOf> => placeOf(f.s, f.s.second)

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
  ['gitlab-token (the code on GitLab)', (f) => f.s.gitlab !== undefined],
  ['GitLab faults, or a token it refuses', (f) => f.s.gitlab !== undefined && (f.s.gitlab.faults.length > 0 || f.s.gitlab.token !== 'ok')],
  ['GitLab: names that carry no commit', (f) => f.s.gitlab?.names === false],
  ['GitLab: require-verified-in asked for (refused as bad input)', (f) => soakOnGitLab(f.s)],
  ['a cancel (SIGINT, SIGTERM, the kill)', (f) => f.s.stop?.kind === 'cancel'],
  ['SIGTERM alone', (f) => f.s.stop?.kind === 'sigterm'],
  ['a kill', (f) => f.s.stop?.kind === 'kill'],
  ['the watchdog set to the budgets', (f) => f.s.tightWatchdog],
  ['a search check', (f) => f.s.search !== 'none'],
  ['event sinks (events-url and one or two native)', (f) => f.s.events !== undefined],
  ['a sink that answers an error', (f) => fates(f).includes('status')],
  ['a sink that never answers', (f) => fates(f).includes('hang')],
  ['a slow sink', (f) => fates(f).includes('slow')],
  ['brcloud deploy: inputs as flags', (f) => f.s.face?.inputs === 'flags'],
  ['brcloud deploy: inputs as BRCLOUD_* variables', (f) => f.s.face?.inputs === 'variables'],
  ['brcloud deploy: secrets in files with CRLF line endings', (f) => f.s.face?.secrets === 'file-crlf'],
  ["brcloud deploy: the commit only in the CI's variable", (f) => f.s.face?.commit === 'ci'],
  ['a second run in the same world', (f) => f.s.second !== undefined],
  ['tracing: on by otel-endpoint', (f) => f.s.tracing?.via === 'input' && f.s.tracing.protocol !== 'grpc'],
  ['tracing: on by OTEL_EXPORTER_OTLP_ENDPOINT', (f) => f.s.tracing?.via === 'variable' && f.s.tracing.protocol !== 'grpc'],
  ['tracing: off by OTEL_EXPORTER_OTLP_PROTOCOL=grpc (a warning)', (f) => f.s.tracing?.protocol === 'grpc'],
  ['tracing: a malformed TRACEPARENT (a trace of its own)', (f) => f.s.tracing?.parent === 'malformed'],
  ["tracing: the collector's key in OTEL_EXPORTER_OTLP_HEADERS", (f) => f.s.tracing?.headers === true],
  ['tracing: a signal after the report', (f) => f.ending.afterReport !== undefined]
]

export const coverage = new Map<string, number>(
  [...RACES, ...FACES, ...SECOND_RUNS, ...RULE_CASES, ...RULE_EVENT_CASES, ...TRACE_CASES].map(([name]) => [name, 0])
)
export const generated = new Map<string, number>(FEATURES.map(([name]) => [name, 0]))

function add(counts: Map<string, number>, list: ReadonlyArray<readonly [string, (f: Facts) => boolean]>, f: Facts): void {
  for (const [name, holds] of list) if (holds(f)) counts.set(name, (counts.get(name) ?? 0) + 1)
}

/** Counts what run `index` of a world met: the first run its races, face, world and status report; a second run its place. */
export function countRaces(f: Facts, index = 0): void {
  if (index > 0) return add(coverage, SECOND_RUNS, f)
  add(coverage, RACES, f)
  add(coverage, FACES, f)
  add(coverage, RULE_CASES, f)
  add(coverage, RULE_EVENT_CASES, f)
  add(coverage, TRACE_CASES, f)
  add(generated, FEATURES, f)
  countStatus(f)
}

function rows(counts: Map<string, number>, runs: number): string[] {
  return [...counts].map(([name, n]) => `  ${String(n).padStart(6)}  ${((100 * n) / Math.max(1, runs)).toFixed(1).padStart(5)}%  ${name}`)
}

export function coverageReport(runs: number): string {
  const of = (list: ReadonlyArray<readonly [string, unknown]>): Map<string, number> => new Map(list.map(([name]) => [name, coverage.get(name) ?? 0]))
  return [
    `What the world generated in ${runs} schedules:`,
    ...rows(generated, runs),
    ...rows(statusGenerated, runs),
    `Races that occurred:`,
    ...rows(of(RACES), runs),
    'Faces that ran (the first run of each world):',
    ...rows(of(FACES), runs),
    'The release rules (./rules.ts):',
    ...rows(of(RULE_CASES), runs),
    ...rows(of(RULE_EVENT_CASES), runs),
    'Tracing (./trace-claims.ts):',
    ...rows(of(TRACE_CASES), runs),
    'Second runs (worlds of two runs):',
    ...rows(of(SECOND_RUNS), runs),
    `The status report's cases that occurred:`,
    ...rows(statusCoverage, runs)
  ].join('\n')
}
