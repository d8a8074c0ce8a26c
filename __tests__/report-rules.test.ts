// The release rules in the summary (src/report.ts): each rule's row, override-reason with what it overrode, and the
// headline of a refusal by a rule, word for word.
import type { DeployResult } from '../src/deploy/result.js'
import type { RulesRecord } from '../src/rules/record.js'
import { deployResult, releaseOf } from './report-fixtures.js'
import { headline, summaryMarkdown, type RunResult } from '../src/report.js'

const refused = (rules: RulesRecord, over: Partial<DeployResult> = {}): RunResult => ({
  deploys: true,
  deploy: deployResult({ upload: undefined, release: undefined, finalLook: undefined, completed: false, environmentName: 'production', rules, ...over }),
  search: undefined,
  phases: [],
  error: 'Refused: ...'
})
const passed = (rules: RulesRecord): RunResult => ({ deploys: true, deploy: deployResult({ rules }), search: undefined, phases: [], error: undefined })
const row = (run: RunResult, label: string): string | undefined =>
  summaryMarkdown(run)
    .split('\n')
    .find((l) => l.startsWith(`| ${label} |`))

const FREEZE = {
  window: '0 18 * * 5; 0 7 * * 1; Europe/Amsterdam',
  line: 2,
  since: '2026-11-27T17:00:00.000Z',
  endsAt: '2026-11-30T06:00:00.000Z',
  until: 'Mon 30 Nov 2026 07:00 Europe/Amsterdam (06:00 UTC)',
  at: 'start' as const
}
const BACKUP = { requiredHours: 24, id: 'bk-7', createdAt: '2026-11-26T10:00:00Z', ageHours: 48.5, passed: false }
const SOAK = {
  environment: 'acceptance',
  requiredMinutes: 60,
  passed: false,
  verifiedSince: '2026-11-28T09:40:00.000Z',
  soakedMinutes: 20,
  allowedAt: '2026-11-28T10:40:00.000Z'
}

describe('the headline of a refusal by a rule: which rule, and that nothing was deployed', () => {
  test('a freeze window, with its end', () => {
    expect(headline(refused({ freeze: FREEZE, refusedBy: 'freeze' }))).toBe(
      "❌ Refused: 'production' is in a deploy freeze until Mon 30 Nov 2026 07:00 Europe/Amsterdam (06:00 UTC); nothing was deployed"
    )
  })
  test('a freeze that began mid-wait (the release failed before its request)', () => {
    const release = releaseOf(['waiting', 'failed'], { environment: 'production', failure: { kind: 'rule', message: 'Refused: ...' } })
    const run = refused(
      { freeze: { ...FREEZE, at: 'request' }, refusedBy: 'freeze' },
      { release, upload: { distributionId: 'dist-1', storedName: 's', attempts: 1, adopted: false } }
    )
    expect(headline(run)).toBe("❌ Refused: 'production' is in a deploy freeze until Mon 30 Nov 2026 07:00 Europe/Amsterdam (06:00 UTC); nothing was deployed")
  })
  test('the soak gate, naming the distribution and where', () => {
    expect(headline(refused({ soak: SOAK, refusedBy: 'soak' }))).toBe(
      "❌ Refused by the soak gate: `dist-1` was not verified long enough in 'acceptance'; nothing was deployed"
    )
  })
  test('the backup rule: the newest backup’s age, none, or the listing failed', () => {
    expect(headline(refused({ backup: BACKUP, refusedBy: 'backup' }))).toBe(
      "❌ Refused: the newest backup of 'production' is 48.5 hours old (require-backup-hours: 24); nothing was deployed"
    )
    expect(headline(refused({ backup: { requiredHours: 12, passed: false }, refusedBy: 'backup' }))).toBe(
      "❌ Refused: no backup of 'production' is listed (require-backup-hours: 12); nothing was deployed"
    )
    expect(headline(refused({ backup: { requiredHours: 12, passed: false, listingFailed: 'HTTP 503' }, refusedBy: 'backup' }))).toBe(
      "❌ Refused: the backups of 'production' could not be listed (require-backup-hours: 12); nothing was deployed"
    )
  })
})

describe("the rules' rows", () => {
  test('none set: no row', () => {
    const run = passed({})
    for (const label of ['Deploy freeze', 'Soak gate', 'Backup', 'Override']) expect(row(run, label)).toBeUndefined()
  })
  test('a freeze refused: the window as written (its | escaped), its line and end', () => {
    expect(row(refused({ freeze: FREEZE, refusedBy: 'freeze' }), 'Deploy freeze')).toBe(
      '| Deploy freeze | in force: 0 18 * * 5; 0 7 * * 1; Europe/Amsterdam (line 2) until Mon 30 Nov 2026 07:00 Europe/Amsterdam (06:00 UTC) |'
    )
  })
  test('the soak gate not passed: since when, how long of how long, from when', () => {
    expect(row(refused({ soak: SOAK, refusedBy: 'soak' }), 'Soak gate')).toBe(
      "| Soak gate | not passed: verified in 'acceptance' since 2026-11-28T09:40:00.000Z, 20 of 60 minute(s); allowed from 2026-11-28T10:40:00.000Z |"
    )
  })
  test('the soak gate passed on a completed soak: its words', () => {
    const soak = {
      environment: 'acceptance',
      requiredMinutes: 60,
      passed: true,
      soakedMinutes: 90,
      why: "verified in 'acceptance' for 90 minute(s) before it was replaced there"
    }
    expect(row(passed({ soak }), 'Soak gate')).toBe("| Soak gate | passed: verified in 'acceptance' for 90 minute(s) before it was replaced there |")
  })
  test('the backup: its id, when taken, its age against the rule', () => {
    expect(row(passed({ backup: { ...BACKUP, ageHours: 3, passed: true } }), 'Backup')).toBe(
      '| Backup | `bk-7`, taken 2026-11-26T10:00:00Z (3 hours old; younger than 24 required) |'
    )
    expect(row(refused({ backup: { requiredHours: 24, passed: false }, refusedBy: 'backup' }), 'Backup')).toBe(
      '| Backup | none listed, younger than 24 hours required |'
    )
    expect(row(refused({ backup: { requiredHours: 24, passed: false, listingFailed: 'HTTP 503 after 2 attempts' }, refusedBy: 'backup' }), 'Backup')).toBe(
      '| Backup | could not be listed (HTTP 503 after 2 attempts), younger than 24 hours required |'
    )
  })
  test('override-reason: every rule it overrode marked so, and the reason in its row', () => {
    const rules: RulesRecord = {
      freeze: FREEZE,
      backup: { requiredHours: 24, passed: false },
      soak: SOAK,
      override: { reason: 'hotfix INC-42 | approved by Ann', overrode: ['freeze', 'backup', 'soak'] }
    }
    const run = passed(rules)
    expect(row(run, 'Deploy freeze')).toBe(
      '| Deploy freeze | in force: 0 18 * * 5; 0 7 * * 1; Europe/Amsterdam (line 2) until Mon 30 Nov 2026 07:00 Europe/Amsterdam (06:00 UTC) (overridden by override-reason) |'
    )
    expect(row(run, 'Backup')).toBe('| Backup | none listed, younger than 24 hours required (overridden by override-reason) |')
    expect(row(run, 'Soak gate')).toMatch(/^\| Soak gate \| not passed: .+ \(overridden by override-reason\) \|$/)
    expect(row(run, 'Override')).toBe('| Override | hotfix INC-42 \\| approved by Ann (overrode the deploy freeze, the backup rule, the soak gate) |')
  })
  test('override-reason that no rule needed: said so', () => {
    expect(row(passed({ override: { reason: 'planned', overrode: [] } }), 'Override')).toBe('| Override | planned (no rule needed it) |')
  })
})
