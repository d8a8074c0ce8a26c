// The release rules and the release's commits in the deploy events (issue 43, docs/events.md "The release's commits and
// the release rules"), read against the world the schedule drew and the run's outputs, never against the code's beliefs:
// - override-reason, once the deploy began, is in every CDEvent's customData and every native sink's message that has a
//   place for it (Slack, Teams, Grafana, Honeycomb, New Relic, Datadog), exactly or as the sink documents cutting it;
//   Sentry carries none. Without it, no event names one.
// - The newest backup of the environment, when the backup rule listed it, is named by id in every CDEvent and in the
//   sinks that carry it (Slack, Teams, Grafana, Datadog); no other id is ever named.
// - A rule that refused the run is named (refusedBy) in every CDEvent, Slack and Teams; none is named otherwise.
// - The commits in CDEvents customData are the `changes` output's, the same entries in the same order, within the cap of
//   20; Slack's and Teams' Changes list their first 10 by short sha, then "and N more".
import { expect } from '@jest/globals'
import type { Facts } from './claims.js'
import { cdeventsOf } from './event-claims.js'
import { shown } from './mocks.js'
import { OVERRIDE_REASON } from './rules.js'
import { newestBackup, ruleRefusalOf } from './rules-claims.js'
import { wire, type SinkRequest } from './transport.js'

/** The most commits a CDEvent carries, and a chat message lists (docs/events.md). */
const CDEVENT_COMMITS = 20
const CHAT_COMMITS = 10

interface ChangeEntry {
  readonly sha: string
  readonly title: string
  readonly author: string | null
  readonly pullRequests: readonly number[]
}

interface CustomData {
  readonly overrideReason?: string
  readonly overrode?: readonly string[]
  readonly backupId?: string
  readonly refusedBy?: string
  readonly changes?: {
    readonly direction: string
    readonly rolledBack: boolean
    readonly total: number
    readonly commits: readonly ChangeEntry[]
    readonly why?: string
  }
}

/** What the events must say of the rules, by the world and the run's own refusal. */
interface Expected {
  /** override-reason is in every event: the deploy began (the run made a request; refused inputs record nothing, as the summary). */
  readonly override: boolean
  /** It is set, but the run made no request: an event may carry it (exactly) or not. */
  readonly overrideMayBe: boolean
  /** The backup's id every event names; undefined: none is named, but for `backupMayBe` where the listing's fate is not known (a stop). */
  readonly backupId: string | undefined
  /** The newest backup the world holds, where a stop cut the listing short: named or not. */
  readonly backupMayBe: string | undefined
  readonly refusedBy: string | undefined
  /** Under a stop the run's failure is the stop's: a rule the world justifies may still have refused first, and be named. */
  readonly refusedByMayBe: readonly string[]
}

/** The run's calls (its main step or its command). */
const callsOfRun = (): typeof wire.calls => wire.calls.filter((c) => c.run === 0 && c.by !== 'post' && c.by !== 'world' && c.by !== 'status')

function expectedOf(f: Facts): Expected {
  const r = f.s.rules
  const began = r !== undefined && r.malformed === 'none'
  const b = began ? r.backup : undefined
  const newest = b !== undefined && (b.age === 'fresh' || b.age === 'old') ? newestBackup(f)?.id : undefined
  const listed = callsOfRun().some((c) => c.method === 'GET' && c.path === '/v3/backups')
  // The listing's answer is known when the run went on past it, or said it could not list: a stop may cut it short.
  const stopped = f.ending.firstSignal !== undefined || /did not finish within total-timeout-minutes/.test(f.failed)
  // The listing got no usable answer: the rule said so, or the run failed on it (a token the stack no longer takes).
  // (The backups' own words: pruning's "the environments could not be listed again" is another listing.)
  const unlisted = /the backups of '[^']+' could not be listed|Listing backups failed/.test(f.text)
  const requested = callsOfRun().length > 0
  return {
    override: began && r.override && requested,
    overrideMayBe: began && r.override && !requested,
    backupId: newest !== undefined && listed && !stopped && !unlisted ? newest : undefined,
    backupMayBe: newest !== undefined && listed && stopped ? newest : undefined,
    refusedBy: began && !r.override ? ruleRefusalOf(shown.failed ?? '') : undefined,
    refusedByMayBe: began && !r.override && stopped ? justifiedRules(r) : []
  }
}

/** The rules whose drawn world could refuse a run: a freeze drawn, a soak clock drawn, a backup old, absent or failing. */
function justifiedRules(r: NonNullable<Facts['s']['rules']>): string[] {
  const backup = r.backup !== undefined && r.backup.age !== 'fresh'
  return [...(r.freeze.length > 0 || (r.cron?.length ?? 0) > 0 ? ['freeze'] : []), ...(r.soak !== undefined ? ['soak'] : []), ...(backup ? ['backup'] : [])]
}

/** The rule an event names, where the expectation allows it under a stop, read as the expected one. */
const refusedAs = (named: string | undefined, want: Expected): string | undefined =>
  want.refusedBy === undefined && named !== undefined && want.refusedByMayBe.includes(named) ? undefined : named

/** Every invariant of the rules and the commits in what the sinks received (each run of the world: a second has no rules). */
export function checkRuleEvents(f: Facts): void {
  if (f.s.events === undefined) return
  const requests = wire.sinkRequests
  const want = expectedOf(f)
  const reason = want.override ? OVERRIDE_REASON : undefined
  for (const { request, kind } of cdeventsOf(requests)) {
    const data = (JSON.parse(request.body) as { customData?: CustomData }).customData ?? {}
    const backupId = data.backupId === want.backupMayBe && want.backupId === undefined ? undefined : data.backupId
    const overrideReason = want.overrideMayBe && data.overrideReason === OVERRIDE_REASON ? undefined : data.overrideReason
    expect({ cdevent: kind, overrideReason, backupId, refusedBy: refusedAs(data.refusedBy, want) }).toEqual({
      cdevent: kind,
      overrideReason: reason,
      backupId: want.backupId,
      refusedBy: want.refusedBy
    })
    checkOverrode(kind, data)
    checkChanges(kind, data)
  }
  // A run that made no request: whether its events name the reason is not checked in the native sinks' words.
  for (const r of requests) if (!want.overrideMayBe) checkNative(r, want)
}

/** The rules override-reason overrode are the ones the run said it overrode, and no other. */
function checkOverrode(kind: string, data: CustomData): void {
  if (data.overrideReason === undefined) return
  const words: Record<string, string> = { freeze: 'the deploy freeze', soak: 'the soak gate', backup: 'the backup rule' }
  const said = Object.keys(words).filter((rule) => shown.lines.some((l) => l.text.includes(`override-reason overrides ${words[rule] ?? '?'}`)))
  expect({ cdevent: kind, overrode: [...(data.overrode ?? [])].sort() }).toEqual({ cdevent: kind, overrode: said.sort() })
}

/** The `changes` output, as entries ([] when unset). */
function changesOutput(): ChangeEntry[] {
  const text = shown.outputs.changes
  return text === undefined || text === '' ? [] : (JSON.parse(text) as ChangeEntry[])
}

/** customData.changes: the output's entries, same order, within the cap; a rollback seen says they were taken out. */
function checkChanges(kind: string, data: CustomData): void {
  const output = changesOutput()
  const c = data.changes
  if (c === undefined) {
    // Not read (no github-token, or no order checked): the output lists nothing either.
    expect({ cdevent: kind, changesOutput: output.length }).toEqual({ cdevent: kind, changesOutput: 0 })
    return
  }
  expect({
    cdevent: kind,
    commits: c.commits,
    totalCountsThem: c.total >= output.length,
    rolledBack: c.rolledBack,
    whyWhenNone: c.total === 0 ? typeof c.why : 'listed'
  }).toEqual({
    cdevent: kind,
    commits: output.slice(0, CDEVENT_COMMITS),
    totalCountsThem: true,
    rolledBack: shown.outputs['rolled-back'] === 'true',
    whyWhenNone: c.total === 0 ? 'string' : 'listed'
  })
}

/** A chat's Changes lines (after its heading): the short shas listed, and "and N more" when it is cut. */
function checkChatChanges(sink: string, lines: readonly string[]): void {
  const output = changesOutput()
  const heading = lines.findIndex((l) => /^\d+ commit\(s\) /.test(l))
  if (heading < 0) {
    // None listed (or the list not read): the output lists none either.
    expect({ sink, changesLines: lines.length === 0 || /^No commits listed: /.test(lines[0] ?? ''), output: output.length }).toEqual({
      sink,
      changesLines: true,
      output: 0
    })
    return
  }
  const total = Number(/^(\d+)/.exec(lines[heading] ?? '')?.[1])
  const listed = output.slice(0, CHAT_COMMITS)
  const more = total - listed.length
  expect({ sink, shas: lines.slice(heading + 1, heading + 1 + listed.length).map((l) => l.slice(0, 7)), more: lines.at(-1) }).toEqual({
    sink,
    shas: listed.map((x) => x.sha.slice(0, 7)),
    more: more > 0 ? `and ${more} more` : lines.at(-1)
  })
}

/** A one-line message's override: "; override: <reason>" whole, or cut at the message's limit with an ellipsis. */
function overrideInLine(text: string, max: number): boolean {
  const at = text.indexOf('; override: ')
  if (at >= 0 && text.includes(`; override: ${OVERRIDE_REASON}`)) return true
  if (text.length !== max || !text.endsWith('…')) return false
  return at < 0 || OVERRIDE_REASON.startsWith(text.slice(at + '; override: '.length, -1))
}

/** A Datadog tag's value as docs/events.md says it is written: characters a tag does not keep become '_'. */
const tagValue = (value: string): string => value.replace(/[^A-Za-z0-9_\-:./]/g, '_')

/** Each native sink's place for the rules' facts, as docs/events.md's table gives it. */
function checkNative(r: SinkRequest, want: Expected): void {
  const body = JSON.parse(r.body) as Record<string, unknown>
  if (r.key === 'slack') {
    const blocks = (body.blocks ?? []) as Array<{ fields?: Array<{ text: string }>; text?: { text: string } }>
    const fields = blocks.flatMap((b) => b.fields ?? []).map((x) => x.text)
    checkFacts('slack', (title) => fields.find((x) => x.startsWith(`*${title}*\n`))?.slice(title.length + 3), want)
    const changes = blocks.map((b) => b.text?.text ?? '').find((t) => t.startsWith('*Changes*\n'))
    checkChatChanges('slack', changes === undefined ? [] : changes.split('\n').slice(1))
  }
  if (r.key === 'teams') {
    type Item = { type: string; text?: string; facts?: Array<{ title: string; value: string }> }
    const items = (body.attachments as Array<{ content: { body: Item[] } }>)[0]?.content.body ?? []
    const facts = items.flatMap((b) => b.facts ?? [])
    checkFacts('teams', (title) => facts.find((x) => x.title === title)?.value, want)
    const at = items.findIndex((b) => b.type === 'TextBlock' && b.text === 'Changes')
    checkChatChanges('teams', at < 0 ? [] : (items[at + 1]?.text ?? '').split('\n\n'))
  }
  if (r.key === 'grafana') {
    const lines = String(body.text).split('\n')
    checkFacts('grafana', (title) => lines.find((l) => l.startsWith(`${title}: `))?.slice(title.length + 2), want)
  }
  if (r.key === 'honeycomb') checkLine('honeycomb', String(body.message), 500, want)
  if (r.key === 'new-relic') checkLine('new-relic', (body.variables as { deployment: { description: string } }).deployment.description, 1000, want)
  if (r.key === 'datadog') checkDatadog(body, want)
  // Sentry's deploy has a name of 64 characters and no text: it carries none of them.
  if (r.key === 'sentry') expect({ sink: 'sentry', reasonInBody: r.body.includes(OVERRIDE_REASON) }).toEqual({ sink: 'sentry', reasonInBody: false })
}

/** A one-line message (Honeycomb's marker, New Relic's description): the reason after the headline, whole or cut at `max`. */
function checkLine(sink: string, text: string, max: number, want: Expected): void {
  expect({ sink, override: want.override ? overrideInLine(text, max) : text.includes('; override: ') }).toEqual({ sink, override: want.override })
}

/** Datadog's tags: override_reason and backup, their values in the characters a tag keeps. */
function checkDatadog(body: Record<string, unknown>, want: Expected): void {
  const tags = (body.data as { attributes: { custom_tags?: string[] } }).attributes.custom_tags ?? []
  const tagged = (key: string): string[] => tags.filter((t) => t.startsWith(`${key}:`))
  const backup = want.backupId
  const backupTags = tagged('backup').filter((t) => !(backup === undefined && t === `backup:${tagValue(want.backupMayBe ?? '')}`))
  expect({ sink: 'datadog', override: tagged('override_reason'), backup: backupTags }).toEqual({
    sink: 'datadog',
    override: want.override ? [`override_reason:${tagValue(OVERRIDE_REASON)}`] : [],
    backup: backup === undefined ? [] : [`backup:${tagValue(backup)}`]
  })
}

/** A chat's or Grafana's titled facts: "Override reason" (the reason, then the rules it overrode), "Backup" (the id first), "Refused by". */
function checkFacts(sink: string, value: (title: string) => string | undefined, want: Expected): void {
  const reason = value('Override reason')
  const backupId = value('Backup')?.split(' ')[0]
  expect({
    sink,
    overrideReason: reason === undefined ? undefined : reason === OVERRIDE_REASON || reason.startsWith(`${OVERRIDE_REASON} (overrode `),
    backup: backupId === want.backupMayBe && want.backupId === undefined ? undefined : backupId,
    refusedBy:
      value('Refused by')?.replace(/^the (\w+) rule$/, (_m, rule: string) => {
        const as = refusedAs(rule, want)
        return as === undefined ? '' : `the ${as} rule`
      }) || undefined
  }).toEqual({
    sink,
    overrideReason: want.override ? true : undefined,
    backup: want.backupId,
    refusedBy: want.refusedBy === undefined ? undefined : `the ${want.refusedBy} rule`
  })
}

/** The CDEvents' customData of the run, in order. */
const customData = (): CustomData[] =>
  cdeventsOf(wire.sinkRequests).map(({ request }) => (JSON.parse(request.body) as { customData?: CustomData }).customData ?? {})

/** One of these sinks was sent something. */
const sentTo = (keys: readonly string[]): boolean => wire.sinkRequests.some((r) => keys.includes(r.key))

/** Which of the rules' cases in the events a run met (./coverage.ts). */
export const RULE_EVENT_CASES: ReadonlyArray<readonly [string, (f: Facts) => boolean]> = [
  [
    'rules: override-reason in the events (CDEvents and a native sink with a place for it)',
    () => customData().some((d) => d.overrideReason !== undefined) && sentTo(['honeycomb', 'new-relic', 'datadog', 'grafana'])
  ],
  ['rules: the backup found named in the events', () => customData().some((d) => d.backupId !== undefined)],
  [
    'rules: the rule that refused named in the events (CDEvents, and Slack or Teams)',
    () => customData().some((d) => d.refusedBy !== undefined) && sentTo(['slack', 'teams'])
  ],
  ['events: the commits of the release in CDEvents', () => customData().some((d) => (d.changes?.commits.length ?? 0) > 0)],
  ['events: the changes of a release rolled back in CDEvents (what it took out)', () => customData().some((d) => d.changes?.rolledBack === true)]
]
