// The status report's settings, as both faces read them (src/status/verdict.ts): on/off switches, the parallel count
// and the configuration file that cannot be read, each refusal naming the setting and what to write.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { InputError } from '../src/errors.js'
import { DEFAULT_PARALLEL, type StatusReport } from '../src/status/index.js'
import { statusMarkdown } from '../src/status/render.js'
import { blankRow, type DriftState } from '../src/status/row.js'
import { drifted, loadStatusConfig, parseFailOn, parseParallel, parseSwitch, statusVerdict } from '../src/status/verdict.js'

test('a switch: true or false in the three spellings actions take, blanks around; off when empty or not given; anything else refused', () => {
  for (const off of [undefined, '', '  ', 'false', 'False', 'FALSE', ' false ']) expect(parseSwitch(off, 'drift-issues')).toBe(false)
  for (const on of ['true', 'True', 'TRUE', ' true\n']) expect(parseSwitch(on, 'drift-issues')).toBe(true)
  for (const bad of ['yes', 'tRUE', '1']) {
    expect(() => parseSwitch(bad, '--drift-issues')).toThrow(new InputError(`--drift-issues '${bad}' is not a boolean: write true or false.`))
  }
})

test('parallel: 1 to 32, the default when not given; anything else refused with the setting named', () => {
  expect(parseParallel(undefined, 'parallel')).toBe(DEFAULT_PARALLEL)
  expect(parseParallel('1', 'parallel')).toBe(1)
  expect(parseParallel('32', 'parallel')).toBe(32)
  for (const bad of ['0', '33', '1.5', 'x', '']) {
    expect(() => parseParallel(bad, '--parallel')).toThrow(new InputError(`--parallel '${bad}' is not a number from 1 to 32.`))
  }
})

test('a configuration file that cannot be read: named as given, with the reason', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'status-verdict-'))
  try {
    await expect(loadStatusConfig('fleet.yml', dir)).rejects.toThrow(new InputError('The configuration file fleet.yml could not be read (ENOENT).'))
    await expect(loadStatusConfig('.', dir)).rejects.toThrow(new InputError('The configuration file . could not be read (EISDIR).'))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test("drift (the action's output): any environment not in-sync, unknown and empty included; none without rows", () => {
  const report = (...states: DriftState[]): StatusReport => ({
    environments: states.map((state, i) => ({ ...blankRow('eu', `e${i}`, 'main'), state })),
    stacks: [{ name: 'eu', apiUrl: 'https://api.eu.example', errors: [] }],
    githubErrors: [],
    trackErrors: [],
    repository: 'acme/site'
  })
  expect(drifted(report('in-sync', 'in-sync'))).toBe(false)
  expect(drifted(report('in-sync', 'behind'))).toBe(true)
  expect(drifted(report('unknown'))).toBe(true)
  expect(drifted(report('empty', 'in-sync'))).toBe(true)
  expect(drifted(report())).toBe(false)
})

test('fail-on: a comma-separated list, blanks around each; none when empty; an unknown word refused, naming the words there are', () => {
  expect(parseFailOn(undefined, 'fail-on')).toEqual([])
  expect(parseFailOn('  ', 'fail-on')).toEqual([])
  expect(parseFailOn(' behind , unhealthy', 'fail-on')).toEqual(['behind', 'unhealthy'])
  expect(() => parseFailOn('behind, bogus,ahaed', '--fail-on')).toThrow(
    new InputError(
      "--fail-on names 'bogus', 'ahaed': the states are in-sync, behind, ahead, diverged, outside, deploying, empty, unknown; " +
        'unhealthy names a failing health probe.'
    )
  )
})

test('not read in full: the verdict names what was not read, GitHub alone too, before any fail-on', () => {
  const report: StatusReport = {
    environments: [{ ...blankRow('eu', 'production', 'main'), state: 'behind' }],
    stacks: [{ name: 'eu', apiUrl: 'https://api.eu.example', errors: [] }],
    githubErrors: ['GitHub could not be read: 502'],
    trackErrors: [],
    repository: 'acme/site'
  }
  expect(statusVerdict(report, ['behind'], 'fail-on')).toEqual({
    kind: 'unreadable',
    message: 'The report is not complete: GitHub could not be read (its rows read unknown).'
  })
  expect(statusVerdict({ ...report, githubErrors: [] }, ['behind'], 'fail-on')).toEqual({
    kind: 'fail-on',
    message: 'fail-on behind: eu/production is behind.'
  })
})

test("the code on GitLab: the verdict and the summary's column name GitLab, not GitHub", () => {
  const report: StatusReport = {
    environments: [{ ...blankRow('eu', 'production', 'main'), state: 'unknown' }],
    stacks: [{ name: 'eu', apiUrl: 'https://api.eu.example', errors: [] }],
    githubErrors: ['GitLab could not be read: Listing GitLab deployments: HTTP 503'],
    trackErrors: [],
    repository: 'acme/platform/site',
    host: 'GitLab'
  }
  expect(statusVerdict(report, [], 'fail-on')).toEqual({
    kind: 'unreadable',
    message: 'The report is not complete: GitLab could not be read (its rows read unknown).'
  })
  expect(statusMarkdown(report)).toContain('| Uploaded | Last GitLab deployment | Frozen |')
  expect(statusMarkdown({ ...report, host: 'GitHub' })).toContain('| Uploaded | Last GitHub Deployment | Frozen |')
})
