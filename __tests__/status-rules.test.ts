// The release rules in the status report (docs/status.md, "Freeze windows and backups"): a freeze window in force per
// environment (the nearest deploy-freeze wins: the environment's, its stack's, the file's; a single stack's input),
// and the newest backup of each from the stack's one GET /v3/backups: found with its age, none, or unknown when the
// listing failed (never failing the report by itself). In-process over the emulator's stack under a fake clock, as
// status-in-process.test.ts drives it; then the table, the Markdown and the JSON from rows made by hand.
import { jest } from '@jest/globals'
import { createStack, type Stack } from '../src/emulator/stack.js'
import { setBackups } from '../src/emulator/test-hooks.js'
import * as simTransport from './sim/transport.js'
import { useTestPort } from './test-port.js'

jest.unstable_mockModule('../src/http/transport.js', () => simTransport)
jest.unstable_mockModule('../src/http/fetch.js', () => ({ httpFetch: simTransport.httpFetch }))
const { parseStatusConfig, prepareStatus, readStatus, readInFull } = await import('../src/status/index.js')
const { prepareSingleStack } = await import('../src/status/single-stack.js')
const { statusJson, statusMarkdown, statusTable, formatAge } = await import('../src/status/render.js')
const { newestBackupRow } = await import('../src/status/release-rules.js')
const { blankRow } = await import('../src/status/row.js')
const { InputError } = await import('../src/errors.js')
const { wire } = simTransport

type Report = Awaited<ReturnType<typeof readStatus>>
type Row = Report['environments'][number]

const API = 'https://api.sim.example'
/** Saturday 28 November 2026, noon UTC: inside the weekend window below. */
const NOW = Date.parse('2026-11-28T12:00:00Z')
const WEEKEND = '0 18 * * 5; 0 7 * * 1; Europe/Amsterdam'
const ENV = { BRCLOUD_USERNAME: 'deployer', BRCLOUD_PASSWORD: 'emulator-password' }
const QUICK = { attempts: 2, baseDelayMs: 500, maxDelayMs: 1_000, maxTotalMs: 30_000 }

beforeEach(() => {
  useTestPort({})
  jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'hrtime'], now: NOW })
})
afterEach(() => {
  jest.useRealTimers()
})

/** A stack of three environments, its backups taken now (the emulator's start), wired to the in-process transport. */
function stackOf(): Stack {
  const stack = createStack({ environments: ['production', 'acceptance', 'development'] }, '/nonexistent-status-storage')
  Object.assign(wire, { stack, github: undefined, githubFate: () => ({ kind: 'answer' }), latencyMs: () => 0, seq: 0, looks: [], deploys: [], killed: false })
  return stack
}

/** Moves the fake clock until `work` settles. */
async function drive<T>(work: Promise<T>): Promise<T> {
  let settled: { ok: true; value: T } | { ok: false; error: unknown } | undefined
  void work.then(
    (value) => (settled = { ok: true, value }),
    (error: unknown) => (settled = { ok: false, error })
  )
  for (let steps = 0; steps < 10_000; steps++) {
    for (let i = 0; i < 12; i++) await new Promise<void>((resolve) => setImmediate(resolve))
    if (settled !== undefined) {
      if (!settled.ok) throw settled.error
      return settled.value
    }
    if (jest.getTimerCount() === 0) throw new Error('the report waits on nothing the fake clock reaches')
    jest.advanceTimersToNextTimer()
  }
  throw new Error('the report did not end')
}

const FILE = (extra = ''): string =>
  [
    'deploy-freeze:',
    `  - '${WEEKEND}'`,
    'stacks:',
    '  - name: sim',
    `    api-url: ${API}`,
    '    environments:',
    '      - production',
    '      - name: acceptance',
    '        deploy-freeze: []',
    '      - name: development',
    '        deploy-freeze: |',
    '          # the month of November, in UTC',
    '          2026-11-01T00:00 .. 2026-12-01T00:00 UTC',
    extra
  ].join('\n')

function read(file = FILE()): Promise<Report> {
  return drive(readStatus(prepareStatus(parseStatusConfig(file, 'fleet.yml'), ENV), { repository: 'acme/site', retry: QUICK }))
}

const byName = (r: Report, environment: string): Row => r.environments.find((e) => e.environment === environment)!

describe('in-process, over the emulator under a fake clock', () => {
  test('a freeze in force: the nearest deploy-freeze wins (the file, an empty list lifting it, an environment of its own)', async () => {
    stackOf()
    const r = await read()
    expect(byName(r, 'production').freeze).toEqual({
      window: WEEKEND,
      line: 1,
      timeZone: 'Europe/Amsterdam',
      since: '2026-11-27T17:00:00.000Z',
      endsAt: '2026-11-30T06:00:00.000Z',
      until: "'0 18 * * 5; 0 7 * * 1; Europe/Amsterdam' (line 1) until Mon 30 Nov 2026 07:00 Europe/Amsterdam (06:00 UTC)"
    })
    expect(byName(r, 'acceptance').freeze).toBeNull()
    expect(byName(r, 'development').freeze).toEqual({
      window: '2026-11-01T00:00 .. 2026-12-01T00:00 UTC',
      line: 2,
      timeZone: 'UTC',
      since: '2026-11-01T00:00:00.000Z',
      endsAt: '2026-12-01T00:00:00.000Z',
      until: "'2026-11-01T00:00 .. 2026-12-01T00:00 UTC' (line 2) until Tue 1 Dec 2026 00:00 UTC"
    })
    expect(readInFull(r)).toBe(true)
  })

  test('the newest backup of each: its id, createdAt and age; none when the stack lists none of it; one listing per stack', async () => {
    const stack = stackOf()
    setBackups(stack.state, 'production', [30, 2.5])
    setBackups(stack.state, 'acceptance', [])
    const newest = stack.state.backups.find((b) => b.createdAt === '2026-11-28T09:30:00.000Z')
    const r = await read()
    expect(byName(r, 'production').backup).toEqual({ state: 'found', id: newest?.id, createdAt: '2026-11-28T09:30:00.000Z', ageHours: 2.5, reason: null })
    expect(byName(r, 'acceptance').backup).toEqual({ state: 'none', id: null, createdAt: null, ageHours: null, reason: null })
    // development keeps the backup the stack took as it started, now.
    expect(byName(r, 'development').backup).toMatchObject({ state: 'found', createdAt: '2026-11-28T12:00:00.000Z', ageHours: 0 })
    expect(stack.requests.filter((q) => q.operation === 'list-backups')).toHaveLength(1)
    expect(statusTable(r)).toMatch(/^sim\s+production\s+empty\s+-\s+until 2026-11-30T06:00Z\s+[0-9a-f-]{36} \(2\.5h old\)$/m)
  })

  test('no backups at all, and a platform writing ids in upper case: still matched by environment', async () => {
    const stack = stackOf()
    stack.state.backups.length = 0
    let r = await read()
    expect(r.environments.map((e) => e.backup.state)).toEqual(['none', 'none', 'none'])
    const production = stack.state.environments.find((e) => e.name === 'production')!
    stack.state.backups.push({ id: 'B-1', environmentId: production.id.toUpperCase(), createdAt: '2026-11-27T12:00:00.000Z' })
    r = await read()
    expect(byName(r, 'production').backup).toEqual({ state: 'found', id: 'B-1', createdAt: '2026-11-27T12:00:00.000Z', ageHours: 24, reason: null })
  })

  test('a listing that failed: every backup unknown, with the reason; the report is still read in full (it does not fail closed)', async () => {
    const stack = stackOf()
    stack.faults.add({ operation: 'list-backups', kind: 'status', status: 503, times: 2 })
    const r = await read()
    for (const row of r.environments) {
      expect(row.backup).toMatchObject({ state: 'unknown', id: null, ageHours: null })
      expect(row.backup.reason).toMatch(/^the stack's backups could not be listed: Listing backups failed.*503/)
    }
    expect(readInFull(r)).toBe(true)
    expect(r.stacks[0]?.errors).toEqual([])
    expect(statusTable(r)).toMatch(/^ {2}sim\/production: backup: the stack's backups could not be listed: /m)
  })

  test('a stack that cannot be read: the freeze is still shown (the file and the clock tell it), the backup unknown without a reason of its own', async () => {
    const stack = stackOf()
    stack.faults.add({ operation: 'list-environments', kind: 'status', status: 503, times: 2 })
    const r = await read()
    expect(r.environments.map((e) => [e.environment, e.freeze?.endsAt ?? null, e.backup.state, e.backup.reason])).toEqual([
      ['production', '2026-11-30T06:00:00.000Z', 'unknown', null],
      ['acceptance', null, 'unknown', null],
      ['development', '2026-12-01T00:00:00.000Z', 'unknown', null]
    ])
    expect(stack.requests.filter((q) => q.operation === 'list-backups')).toEqual([])
  })
})

describe('where the windows come from, refused before any request', () => {
  const refused = (text: string): string => {
    try {
      parseStatusConfig(text, 'fleet.yml')
    } catch (error) {
      expect(error).toBeInstanceOf(InputError)
      return (error as Error).message
    }
    throw new Error('accepted')
  }

  test("a stack's own windows over the file's; a malformed window named by its place in the file", () => {
    const config = parseStatusConfig(
      `deploy-freeze: '${WEEKEND}'\nstacks:\n  - name: a\n    api-url: ${API}\n    deploy-freeze: ['0 9 * * *; 0 10 * * *; UTC']\n  - name: b\n    api-url: https://api.b.example\n`,
      'fleet.yml'
    )
    expect(config.stacks.map((s) => s.freeze?.map((w) => w.line))).toEqual([['0 9 * * *; 0 10 * * *; UTC'], [WEEKEND]])
    expect(
      refused(
        `stacks:\n  - name: a\n    api-url: ${API}\n    environments:\n      - name: production\n        deploy-freeze: ['0 18 * * 5; Europe/Amsterdam']\n`
      )
    ).toBe(
      "fleet.yml: stacks[0] (a).environments[0] (production).deploy-freeze, line 1 ('0 18 * * 5; Europe/Amsterdam'): a cron window has 3 fields separated by ';', this line has 2. Write '<start cron>; <end cron>; <IANA time zone>', e.g. '0 18 * * 5; 0 7 * * 1; Europe/Amsterdam'."
    )
    expect(refused(`deploy-freeze: 5\nstacks:\n  - name: a\n    api-url: ${API}\n`)).toBe(
      "fleet.yml: deploy-freeze must be text, one window a line, or a list of windows, e.g. '0 18 * * 5; 0 7 * * 1; Europe/Amsterdam' (quote each window)."
    )
    expect(refused(`stacks:\n  - name: a\n    api-url: ${API}\n    deploy-freeze: '2026-12-20T00:00 .. 2027-01-04T00:00'\n`)).toMatch(
      /^fleet\.yml: stacks\[0\] \(a\)\.deploy-freeze, line 1 \('2026-12-20T00:00 \.\. 2027-01-04T00:00'\): a dated window needs the time zone/
    )
  })

  test("a single stack's deploy-freeze input (or --deploy-freeze): its windows, a malformed one named by where it was given", () => {
    const inputs: Record<string, string> = {
      'api-url': API,
      username: 'u',
      password: 'single-stack-password',
      'deploy-freeze': `${WEEKEND}\n\n2026-12-20T00:00 .. 2027-01-04T00:00 UTC`
    }
    const prepared = prepareSingleStack((name) => inputs[name] ?? '')
    expect(prepared.config.stacks[0]?.freeze).toEqual([
      { line: WEEKEND, lineNumber: 1, kind: 'cron', timeZone: 'Europe/Amsterdam' },
      { line: '2026-12-20T00:00 .. 2027-01-04T00:00 UTC', lineNumber: 3, kind: 'dated', timeZone: 'UTC' }
    ])
    inputs['deploy-freeze'] = '0 18 * * 5; 0 7 * * 1; Mars/Olympus'
    expect(() => prepareSingleStack((name) => inputs[name] ?? '', 'track', '--deploy-freeze')).toThrow(
      "--deploy-freeze, line 1 ('0 18 * * 5; 0 7 * * 1; Mars/Olympus'): 'Mars/Olympus' is not a known IANA time zone."
    )
  })
})

describe('the newest backup of a listing', () => {
  const backup = (id: string, environmentId: string, createdAt: string) => ({ id, environmentId, createdAt, createdAtMs: Date.parse(createdAt) })
  test('the newest by date whatever the order; a date in the future (a platform clock ahead) is 0 hours old; an unreadable date is unknown', () => {
    const listing = {
      backups: [
        backup('old', 'env-1', '2026-11-20T12:00:00Z'),
        backup('other', 'env-2', '2026-11-28T11:00:00Z'),
        backup('new', 'ENV-1', '2026-11-28T06:15:00Z'),
        backup('odd', 'env-1', 'yesterday')
      ]
    }
    expect(newestBackupRow(listing, 'env-1', NOW)).toEqual({ state: 'found', id: 'new', createdAt: '2026-11-28T06:15:00Z', ageHours: 5.75, reason: null })
    expect(newestBackupRow(listing, 'env-2', NOW - 2 * 3_600_000)).toMatchObject({ id: 'other', ageHours: 0 })
    expect(newestBackupRow(listing, 'env-3', NOW)).toEqual({ state: 'none', id: null, createdAt: null, ageHours: null, reason: null })
    expect(newestBackupRow({ backups: [backup('odd', 'env-1', 'yesterday')] }, 'env-1', NOW)).toEqual({
      state: 'unknown',
      id: null,
      createdAt: null,
      ageHours: null,
      reason: "the platform lists backups of it without a date it can read ('yesterday')"
    })
    expect(newestBackupRow({ failed: 'it failed' }, 'env-1', NOW)).toEqual({ state: 'unknown', id: null, createdAt: null, ageHours: null, reason: 'it failed' })
  })
})

describe('rendering', () => {
  const frozen: Row = {
    ...blankRow('eu', 'production', 'main'),
    freeze: {
      window: WEEKEND,
      line: 1,
      timeZone: 'Europe/Amsterdam',
      since: '2026-11-27T17:00:00.000Z',
      endsAt: '2026-11-30T06:00:00.000Z',
      until: "'0 18 * * 5; 0 7 * * 1; Europe/Amsterdam' (line 1) until Mon 30 Nov 2026 07:00 Europe/Amsterdam (06:00 UTC)"
    },
    backup: { state: 'found', id: 'bk-7', createdAt: '2026-11-26T12:00:00Z', ageHours: 48, reason: null }
  }
  const none: Row = { ...blankRow('eu', 'acceptance', 'main'), backup: { state: 'none', id: null, createdAt: null, ageHours: null, reason: null } }
  const failed: Row = {
    ...blankRow('eu', 'development', 'main'),
    backup: { state: 'unknown', id: null, createdAt: null, ageHours: null, reason: "the stack's backups could not be listed: HTTP 503" }
  }
  const report: Report = {
    environments: [frozen, none, failed],
    stacks: [{ name: 'eu', apiUrl: API, errors: [] }],
    githubErrors: [],
    trackErrors: [],
    repository: 'acme/site'
  }

  test('the table: FROZEN and BACKUP columns, the freeze in words and why a backup is unknown below it', () => {
    const lines = statusTable(report).split('\n')
    expect(lines[0]).toMatch(/UPLOADED {2}FROZEN {19}BACKUP$/)
    expect(lines[1]).toMatch(/^eu\s+production\s+unknown\s+-\s+main\s+until 2026-11-30T06:00Z {2}bk-7 \(2d old\)$/)
    expect(lines[2]).toMatch(/^eu\s+acceptance\s+unknown\s+-\s+main\s+none$/)
    expect(lines[3]).toMatch(/^eu\s+development\s+unknown\s+-\s+main\s+unknown$/)
    expect(lines.slice(5, 8)).toEqual([
      'Why:',
      "  eu/production: frozen: '0 18 * * 5; 0 7 * * 1; Europe/Amsterdam' (line 1) until Mon 30 Nov 2026 07:00 Europe/Amsterdam (06:00 UTC)",
      "  eu/development: backup: the stack's backups could not be listed: HTTP 503"
    ])
  })

  test('the Markdown: a Frozen column in words, the newest backup with its id, when and age', () => {
    const md = statusMarkdown(report)
    expect(md).toContain('| Last GitHub Deployment | Frozen | Newest backup | Why |')
    expect(md).toContain(
      "|  | '0 18 * * 5; 0 7 * * 1; Europe/Amsterdam' (line 1) until Mon 30 Nov 2026 07:00 Europe/Amsterdam (06:00 UTC) | `bk-7` taken 2026-11-26T12:00:00Z (2d old) |  |"
    )
    expect(md).toContain('|  |  | none |  |')
    expect(md).toContain("|  |  | unknown | backup: the stack's backups could not be listed: HTTP 503 |")
  })

  test('the JSON: freeze and backup on every row, null when unknown', () => {
    const json = JSON.parse(statusJson(report)) as { environments: Row[] }
    expect(json.environments.map((e) => [e.freeze?.endsAt ?? null, e.backup])).toEqual([
      ['2026-11-30T06:00:00.000Z', { state: 'found', id: 'bk-7', createdAt: '2026-11-26T12:00:00Z', ageHours: 48, reason: null }],
      [null, { state: 'none', id: null, createdAt: null, ageHours: null, reason: null }],
      [null, { state: 'unknown', id: null, createdAt: null, ageHours: null, reason: "the stack's backups could not be listed: HTTP 503" }]
    ])
  })

  test('an age for a person: minutes under an hour, hours under two days, then days', () => {
    expect([0, 0.25, 0.999, 1, 2.54, 47.94, 48, 75].map(formatAge)).toEqual(['0m', '15m', '60m', '1h', '2.5h', '47.9h', '2d', '3.1d'])
  })
})
