// The release rules' inputs (src/inputs/rules.ts): each refusal before any request, with what to write instead.
import { useTestPort } from './test-port.js'

useTestPort({ getInput: () => '' })

const { readInputs } = await import('../src/inputs/index.js')
const { parseOverrideReason, MAX_REASON_LENGTH, PLACEHOLDERS } = await import('../src/inputs/rules.js')
const { InputError } = await import('../src/errors.js')

const base: Record<string, string> = {
  stack: 'mystack',
  username: 'deployer',
  password: 'secret',
  'from-environment': 'acceptance',
  environment: 'production',
  'github-token': 'ghs_token'
}

function reader(values: Record<string, string>) {
  return (name: string, options?: { trimWhitespace?: boolean }): string => {
    const v = values[name] ?? ''
    return options?.trimWhitespace === false ? v : v.trim()
  }
}

function rules(over: Record<string, string | undefined> = {}) {
  const values = { ...base, ...over }
  for (const [k, v] of Object.entries(values)) if (v === undefined) delete values[k]
  const deploy = readInputs(reader(values as Record<string, string>)).deploy
  if (deploy === undefined) throw new Error('no deploy inputs')
  return deploy.rules
}

function refusal(over: Record<string, string | undefined>): string {
  try {
    rules(over)
  } catch (error) {
    expect(error).toBeInstanceOf(InputError)
    return (error as Error).message
  }
  throw new Error('not refused')
}

describe('override-reason', () => {
  test('not given: no override', () => {
    expect(parseOverrideReason('')).toBeUndefined()
    expect(rules().overrideReason).toBeUndefined()
  })
  test('kept with its spaces folded, so it reads as one line wherever it is recorded', () => {
    expect(parseOverrideReason('  hotfix for INC-42,\n  approved by Ann ')).toBe('hotfix for INC-42, approved by Ann')
    expect(rules({ 'override-reason': 'hotfix for INC-42' }).overrideReason).toBe('hotfix for INC-42')
  })
  test('given but empty (only spaces) is refused, saying what to write', () => {
    expect(() => parseOverrideReason('   ')).toThrow(InputError)
    expect(refusal({ 'override-reason': ' \n ' })).toBe(
      'override-reason is empty (only spaces): write why this deploy cannot wait for the rule, e.g. override-reason: "hotfix for INC-1234, approved by the release manager", or leave it out.'
    )
  })
  test.each(['-', 'n/a', 'x', '...', '123', '#42'])('no word at all (%p) says nothing and is refused', (reason) => {
    expect(() => parseOverrideReason(reason)).toThrow(`override-reason '${reason}' does not say why:`)
  })
  test.each([...PLACEHOLDERS].flatMap((w) => [w, w.toUpperCase()]))('a placeholder %p says nothing and is refused, in any case', (reason) => {
    expect(() => parseOverrideReason(reason)).toThrow(`override-reason '${reason}' does not say why:`)
    expect(parseOverrideReason(`${reason} for INC-1`)).toBe(`${reason} for INC-1`)
  })
  test('the placeholders', () => {
    expect([...PLACEHOLDERS]).toEqual(['na', 'none', 'null', 'tbd', 'todo', 'xxx', 'override', 'yes', 'true', 'because', 'test', 'asdf'])
  })
  test('a reason of two letters or more is taken', () => {
    expect(parseOverrideReason('ok')).toBe('ok')
    expect(parseOverrideReason('Ärger')).toBe('Ärger')
  })
  test('too long is refused; the longest is taken', () => {
    expect(parseOverrideReason('a'.repeat(MAX_REASON_LENGTH))).toHaveLength(MAX_REASON_LENGTH)
    expect(() => parseOverrideReason('a'.repeat(MAX_REASON_LENGTH + 1))).toThrow(
      `override-reason is ${MAX_REASON_LENGTH + 1} characters long: keep it to ${MAX_REASON_LENGTH} (link a ticket for the details).`
    )
  })
})

describe('the soak gate', () => {
  test('read for a promotion with a token', () => {
    expect(rules({ 'require-verified-in': 'acceptance', 'require-soak-minutes': '90' }).soak).toEqual({ environment: 'acceptance', minutes: 90 })
    expect(rules({ 'require-verified-in': 'staging' }).soak).toEqual({ environment: 'staging', minutes: 0 })
    expect(rules().soak).toBeUndefined()
  })
  test('minutes without an environment are refused', () => {
    expect(refusal({ 'require-soak-minutes': '30' })).toBe(
      'require-soak-minutes: 30 needs require-verified-in: name the environment the distribution must have been verified in (e.g. require-verified-in: acceptance).'
    )
  })
  test('0 minutes without an environment is no rule', () => {
    expect(rules({ 'require-soak-minutes': '0' }).soak).toBeUndefined()
  })
  test('an upload is refused: no environment verified a new distribution', () => {
    expect(refusal({ 'from-environment': undefined, distribution: 'dist.tar.gz', 'require-verified-in': 'acceptance' })).toBe(
      'require-verified-in: acceptance holds a promotion to what was verified there, but this run uploads a new distribution, which no environment verified: ' +
        'promote with from-environment: acceptance (or distribution-id), or remove require-verified-in.'
    )
  })
  test('the target itself is refused', () => {
    expect(refusal({ 'require-verified-in': 'production' })).toBe(
      "require-verified-in and environment are both 'production': name the environment the distribution is verified in before it comes here."
    )
  })
  test('without github-token it is refused: the records are GitHub’s', () => {
    expect(refusal({ 'github-token': undefined, 'require-verified-in': 'acceptance' })).toMatch(
      /^require-verified-in reads this repository's GitHub Deployments of 'acceptance', which needs github-token: github-token: \$\{\{ github\.token \}\}/
    )
  })
  test('minutes are a whole number within a year', () => {
    expect(refusal({ 'require-verified-in': 'acceptance', 'require-soak-minutes': '1.5' })).toBe(
      "require-soak-minutes '1.5' is not a whole number: write a number from 0 to 525600."
    )
    expect(rules({ 'require-verified-in': 'acceptance', 'require-soak-minutes': '525600' }).soak?.minutes).toBe(525600)
    expect(refusal({ 'require-verified-in': 'acceptance', 'require-soak-minutes': '525601' })).toBe(
      'require-soak-minutes 525601 is out of range: write a number from 0 to 525600.'
    )
  })
})

describe('require-backup-hours', () => {
  test('empty: no rule; a number of hours, fractions too', () => {
    expect(rules().backupHours).toBeUndefined()
    expect(rules({ 'require-backup-hours': '24' }).backupHours).toBe(24)
    expect(rules({ 'require-backup-hours': '0.5' }).backupHours).toBe(0.5)
  })
  test('out of range or not a number is refused', () => {
    expect(refusal({ 'require-backup-hours': '0' })).toBe('require-backup-hours 0 is out of range: write a number from 0.01 to 2160.')
    expect(refusal({ 'require-backup-hours': '2161' })).toBe('require-backup-hours 2161 is out of range: write a number from 0.01 to 2160.')
    expect(refusal({ 'require-backup-hours': 'a day' })).toBe("require-backup-hours 'a day' is not a number: write a number from 0.01 to 2160, e.g. 30 or 2.5.")
  })
})

describe('the rules need an environment to deploy to', () => {
  const uploadOnly = { 'from-environment': undefined, environment: undefined, distribution: 'dist.tar.gz' }
  test('each rule set on an upload alone is named', () => {
    expect(refusal({ ...uploadOnly, 'require-backup-hours': '24' })).toBe(
      'require-backup-hours applies to a deploy: set environment to the environment to deploy to.'
    )
    expect(refusal({ ...uploadOnly, 'override-reason': 'hotfix now', 'require-backup-hours': '24' })).toBe(
      'require-backup-hours, override-reason apply to a deploy: set environment to the environment to deploy to.'
    )
  })
  test('none set: an upload alone is fine', () => {
    expect(rules(uploadOnly)).toEqual({ freeze: [], soak: undefined, backupHours: undefined, overrideReason: undefined })
  })
})
