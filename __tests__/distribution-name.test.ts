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

describe('the edges of each rule', () => {
  const sha = '8dc29fc0123456789abcdef0123456789abcdef0'

  test('255 bytes is the most a name may have; one more is refused, with its length', () => {
    const longest = `${'x'.repeat(248)}.tar.gz`
    expect(Buffer.byteLength(longest)).toBe(255)
    expect(distributionNameProblem(longest)).toBeUndefined()
    expect(distributionNameProblem(`x${longest}`)).toBe('it is 256 bytes long (at most 255)')
    // Bytes, not characters: 'é' is two.
    expect(distributionNameProblem(`${'é'.repeat(124)}.tar.gz`)).toBeUndefined()
    expect(distributionNameProblem(`${'é'.repeat(125)}.tar.gz`)).toBe('it is 257 bytes long (at most 255)')
  })

  test.each(['site.tgz.zip', 'site.tar.gz.bak', 'site.tar.gz-old'])('the archive suffix must end the name: %s is refused', (name) => {
    expect(distributionNameProblem(name)).toBe('it must end with .tar.gz or .tgz')
  })

  test('a stored name equal to ours is the same, even when it does not decode to it', () => {
    expect(sameDistributionName('100%25.tar.gz', '100%25.tar.gz')).toBe(true)
    expect(sameDistributionName('a%zz.tar.gz', 'a%zz.tar.gz')).toBe(true)
    expect(sameDistributionName('100%25.tar.gz', '100%.tar.gz')).toBe(true)
  })

  test('defaultName: a run of unsafe characters is one hyphen; hyphens at either end go', () => {
    expect(defaultName('my  site', sha, 'dir')).toBe('my-site-8dc29fc-distribution.tar.gz')
    expect(defaultName('--site--', sha, 'dir')).toBe('site-8dc29fc-distribution.tar.gz')
    expect(defaultName('my site!!', sha, 'dir')).toBe('my-site-8dc29fc-distribution.tar.gz')
  })

  test('defaultName: with neither a repository nor a fallback that leaves anything, the name is "distribution"', () => {
    expect(defaultName('', sha, '')).toBe('distribution-8dc29fc-distribution.tar.gz')
    expect(defaultName('!!!', '', '***')).toBe('distribution-local-distribution.tar.gz')
  })

  test.each([
    ['x\nsite-8dc29fc-distribution.tar.gz', 'site', undefined],
    ['site-8dc29fc-distribution.tar.gz.old', 'site', undefined],
    ['site-8dc29fc-distribution.tar.gz', '', undefined],
    ['Stryker-was-here-8dc29fc-distribution.tar.gz', 'Stryker was here!', '8dc29fc'],
    ['site-8dc29fc0123456789abcdef0123456789abcdef0-distribution.tar.gz', 'site', sha]
  ])('commitInName(%j, %j) = %s: the whole name must be one of ours', (name, repo, commit) => {
    expect(commitInName(name, repo)).toBe(commit)
  })
})
