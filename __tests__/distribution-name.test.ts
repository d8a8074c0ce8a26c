// One rule for every name a distribution is stored under (distribution-name, or the archive's own).
import { distributionNameProblem, sameDistributionName } from '../src/cloud/distribution-name.js'

describe('distributionNameProblem', () => {
  test.each(['site-1.0.tar.gz', 'mysite-0123abc-distribution.tgz', 'café-1.0.tar.gz', 'CONSOLE.tar.gz', 'con-1.tar.gz'])('accepts %s', (name) => {
    expect(distributionNameProblem(name)).toBeUndefined()
  })

  test.each([
    ['my"site.tar.gz', /contains '"'/],
    ['a\\b.tar.gz', /contains '\\'/],
    ['a/b.tar.gz', /contains '\/'/],
    ['what?.tar.gz', /contains '\?'/],
    ['a:b.tar.gz', /contains ':'/],
    ['a|b.tar.gz', /contains '\|'/],
    ['<a>.tar.gz', /contains '<'/],
    ['a*.tar.gz', /contains '\*'/],
    ['line\nbreak.tar.gz', /a control character \(U\+000A\)/],
    ['CON.tar.gz', /'CON' is a device name on Windows/],
    ['nul.tgz', /'nul' is a device name/],
    ['LPT1.tar.gz', /device name/],
    ['site.tar.gz.', /ends with a dot or a space/],
    ['site.zip', /must end with .tar.gz or .tgz/],
    ['', /empty/],
    [`${'x'.repeat(250)}.tar.gz`, /257 bytes long \(at most 255\)/]
  ])('refuses %j', (name, why) => {
    expect(distributionNameProblem(name)).toMatch(why)
  })
})

describe('sameDistributionName', () => {
  test('the same name, also when the platform gives it back percent-encoded', () => {
    expect(sameDistributionName('site 1.tar.gz', 'site 1.tar.gz')).toBe(true)
    expect(sameDistributionName('site%201.tar.gz', 'site 1.tar.gz')).toBe(true)
    expect(sameDistributionName('other.tar.gz', 'site.tar.gz')).toBe(false)
    expect(sameDistributionName(undefined, 'site.tar.gz')).toBe(false)
    expect(sameDistributionName('%E0%A4%A.tar.gz', 'x.tar.gz')).toBe(false)
  })
})
