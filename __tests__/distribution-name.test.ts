// One rule for every name a distribution is stored under (distribution-name, or the archive's own).
import { commitInName, defaultName, distributionNameProblem, sameDistributionName } from '../src/cloud/distribution-name.js'

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

describe('the default name and the commit it carries', () => {
  const sha = '8dc29fc0123456789abcdef0123456789abcdef0'
  test('defaultName: <repository>-<short sha>-distribution.tar.gz, made safe', () => {
    expect(defaultName('site', sha, 'dir')).toBe('site-8dc29fc-distribution.tar.gz')
    expect(defaultName('my site!', '', 'dir')).toBe('my-site-local-distribution.tar.gz')
    expect(defaultName('', sha, 'target dir')).toBe('target-dir-8dc29fc-distribution.tar.gz')
  })

  test.each([
    ['site-8dc29fc-distribution.tar.gz', 'site', '8dc29fc'],
    ['site-8DC29FC-distribution.tar.gz', 'site', '8dc29fc'],
    ['my-site-8dc29fc-distribution.tar.gz', 'my site', '8dc29fc'],
    ['other-8dc29fc-distribution.tar.gz', 'site', undefined],
    ['site-local-distribution.tar.gz', 'site', undefined],
    ['site-1.2.0-distribution.tar.gz', 'site', undefined],
    ['hotfix.tar.gz', 'site', undefined],
    [undefined, 'site', undefined]
  ])('commitInName(%s, %s) = %s', (name, repo, commit) => {
    expect(commitInName(name, repo)).toBe(commit)
  })
})
