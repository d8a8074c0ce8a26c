// What is in the release and the release rules' facts in what a run tells others: observeRun derives them from the
// result (the changes as the summary shows them, capped; the override reason, the backup found, the rule that refused),
// CDEvents carries them in customData, and the native sinks put them in their messages, as their services receive them.
import { observeRun, type RunFacts } from '../src/events/from-run.js'
import { cdevent } from '../src/events/cdevents.js'
import type { ReleaseChanges } from '../src/deploy/changes.js'
import type { ObservedRun } from '../src/events/observed.js'
import type { RunResult } from '../src/report.js'
import { datadogDeployments } from '../src/events/sinks/datadog.js'
import { grafanaAnnotation } from '../src/events/sinks/grafana.js'
import { honeycombMarker } from '../src/events/sinks/honeycomb.js'
import { nativeSinks } from '../src/events/sinks/native.js'
import { newRelicDeployments } from '../src/events/sinks/new-relic.js'
import type { SlackMessage } from '../src/events/sinks/slack.js'
import type { TeamsMessage } from '../src/events/sinks/teams.js'
import { deployResult, releaseOf } from './report-fixtures.js'
import { SinkStandIns, verifiedUpgrade } from './sink-stand-ins.js'

const sha = (i: number): string => `${i}`.padStart(2, '0').repeat(20)
const commits = Array.from({ length: 25 }, (_, i) => ({
  sha: sha(i + 1),
  title: `Change ${i + 1}`,
  author: i === 0 ? undefined : 'ann',
  pullRequests: i === 1 ? [12] : []
}))
const changes: ReleaseChanges = { commits, total: 40, direction: 'added', running: sha(90), ours: sha(91), repoUrl: 'https://github.com/acme/site' }
const rules = {
  override: { reason: 'INC-42 hotfix', overrode: ['freeze' as const] },
  backup: { requiredHours: 24, id: 'bk-7', createdAt: '2026-11-28T10:00:00Z', ageHours: 3, passed: true }
}
const facts: RunFacts = {
  context: {
    sha: 'c'.repeat(40),
    noCommit: '',
    ref: 'refs/heads/main',
    repository: 'acme/site',
    serverUrl: 'https://github.com',
    runUrl: 'https://github.com/acme/site/actions/runs/42',
    workspace: process.cwd(),
    runId: '42',
    runAttempt: '1',
    actor: 'octocat'
  },
  startedAt: 999_000,
  endedAt: 1_010_000,
  failure: undefined
}
const runResult = (over: Partial<RunResult> = {}): RunResult => ({
  deploys: true,
  deploy: deployResult({ changes, rules }),
  search: undefined,
  phases: [],
  error: undefined,
  ...over
})

/** A verified upgrade with the first 20 of 40 commits and both rules' facts, as observeRun leaves them. */
const observed = (): ObservedRun => {
  const run = observeRun(runResult(), facts)
  if (run === undefined) throw new Error('nothing observed')
  return { ...verifiedUpgrade, changes: run.changes, rules: run.rules }
}

describe('observeRun: the changes and the rules from the result', () => {
  test('the first 20 commits as the output names them, the count, the override reason and the backup found', () => {
    const run = observeRun(runResult(), facts)
    expect(run?.changes).toEqual({
      direction: 'added',
      rolledBack: false,
      total: 40,
      commits: commits.slice(0, 20).map((c) => ({ ...c, author: c.author ?? null }))
    })
    expect(run?.rules).toEqual({ overrideReason: 'INC-42 hotfix', overrode: ['freeze'], backupId: 'bk-7', backupCreatedAt: '2026-11-28T10:00:00Z' })
  })

  test('after a rollback: what it took out; a refusal by a rule names it; none of it when the result has none', () => {
    const release = releaseOf(['requested', 'applied', 'failed', 'rollback-requested', 'rollback-applied'])
    const back = observeRun(runResult({ deploy: deployResult({ changes, release }), error: 'the health check failed' }), facts)
    expect(back?.changes).toMatchObject({ direction: 'removed', rolledBack: true, total: 40 })
    const empty = observeRun(runResult({ deploy: deployResult({ changes: { ...changes, commits: [], total: 0, why: 'github-token is not set' } }) }), facts)
    expect(empty?.changes).toEqual({ direction: 'added', rolledBack: false, total: 0, commits: [], why: 'github-token is not set' })
    const refused = observeRun(runResult({ deploy: deployResult({ release: undefined, rules: { refusedBy: 'backup' } }), error: 'Refused' }), facts)
    expect(refused?.rules).toEqual({ refusedBy: 'backup' })
    const plain = observeRun(runResult({ deploy: deployResult() }), facts)
    expect(plain).not.toHaveProperty('changes')
    expect(plain).not.toHaveProperty('rules')
  })
})

describe('where each service receives them', () => {
  const standIns = new SinkStandIns()
  beforeAll(() => standIns.start())
  afterAll(() => standIns.stop())
  beforeEach(() => standIns.reset())
  const send = async (name: string, run: ObservedRun): Promise<unknown> => {
    const sink = nativeSinks(standIns.inputs()).find((s) => s.name === name)
    await sink?.send(run, new AbortController().signal)
    return standIns.requests.at(-1)?.json
  }
  const lines = [
    '40 commit(s) in the release:',
    `${sha(1).slice(0, 7)} Change 1`,
    `${sha(2).slice(0, 7)} Change 2 (#12) by ann`,
    ...Array.from({ length: 8 }, (_, i) => `${sha(i + 3).slice(0, 7)} Change ${i + 3} by ann`),
    'and 30 more'
  ]

  test('CDEvents customData: the commits, the override reason, the rules it overrode, the backup', () => {
    const run = observed()
    const body = cdevent(run, run.events[0] ?? { kind: 'upgraded', at: 0, evidence: '' }, 0).body as { customData: Record<string, unknown> }
    expect(body.customData).toMatchObject({ changes: run.changes, overrideReason: 'INC-42 hotfix', overrode: ['freeze'], backupId: 'bk-7' })
    expect((body.customData.changes as { commits: unknown[] }).commits).toHaveLength(20)
  })

  test('Slack: a Changes section of 10 commits and "and N more"; the override reason and the backup as fields', async () => {
    const json = (await send('Slack', observed())) as SlackMessage
    expect(json.blocks).toContainEqual({ type: 'section', text: { type: 'mrkdwn', text: `*Changes*\n${lines.join('\n')}` } })
    const fields = json.blocks.flatMap((b) => ('fields' in b ? b.fields.map((f) => f.text) : []))
    expect(fields).toEqual(expect.arrayContaining(['*Override reason*\nINC-42 hotfix (overrode freeze)', '*Backup*\nbk-7 (made 2026-11-28T10:00:00Z)']))
  })

  test('Teams: the facts, and a Changes block', async () => {
    const json = (await send('Microsoft Teams', { ...observed(), rules: { refusedBy: 'soak', overrideReason: 'x' } })) as TeamsMessage
    const card = json.attachments[0]?.content
    const factSet = card?.body.find((b) => b.type === 'FactSet')
    expect(factSet && 'facts' in factSet ? factSet.facts.slice(-2) : undefined).toEqual([
      { title: 'Override reason', value: 'x' },
      { title: 'Refused by', value: 'the soak rule' }
    ])
    expect(card?.body).toContainEqual({ type: 'TextBlock', text: lines.join('\n\n'), wrap: true })
  })

  test('Grafana, Honeycomb, New Relic and Datadog: the override reason in each message (tags for Datadog), the commits where text is free', () => {
    const run = observed()
    expect(grafanaAnnotation(run)?.text.split('\n').slice(1, 3)).toEqual([
      'Override reason: INC-42 hotfix (overrode freeze)',
      'Backup: bk-7 (made 2026-11-28T10:00:00Z)'
    ])
    expect(grafanaAnnotation(run)?.text).toContain(lines.join('\n'))
    expect(honeycombMarker(run)?.message).toBe(`${run.headline} (acme/production); override: INC-42 hotfix`)
    const [live] = newRelicDeployments(run, 'GUID')
    expect(live?.variables.deployment.description).toBe(`${run.headline} (acme/production); override: INC-42 hotfix`)
    expect(live?.variables.deployment.changelog).toBe([`distribution ${run.distribution.name ?? ''}`, ...lines].join('\n'))
    expect(datadogDeployments(run, 'svc')[0]?.data.attributes.custom_tags).toEqual(expect.arrayContaining(['override_reason:INC-42_hotfix', 'backup:bk-7']))
  })
})
