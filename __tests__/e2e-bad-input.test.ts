// The bad-input table of docs/reliability-and-security.md, row by row, against the bundled action: exit code 1, one error
// annotation that says what is wrong and how to fix it, and not one request sent.
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, symlinkSync, writeFileSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { makeDistributionTree } from '../scripts/lib/sample-tree.js'
import { run, sweepAndClose } from './e2e-support.js'

let emu: Emulator
beforeAll(async () => {
  emu = await startEmulator()
})
afterAll(async () => {
  await sweepAndClose(emu)
})

const workspace = mkdtempSync(join(tmpdir(), 'brcd-bad-'))
const file = (name: string, content: string | Buffer): string => {
  const path = join(workspace, name)
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, content)
  return path
}
const tar = (args: string[], cwd: string): void => void execFileSync('tar', args, { cwd })

// Fixtures: real files of each wrong kind.
const tree = makeDistributionTree()
mkdirSync(join(workspace, 'empty'))
file('several/a-distribution.tar.gz', gzipSync('a'))
file('several/b-distribution.tar.gz', gzipSync('b'))
file('zip.tar.gz', Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(100)]))
file('notar.tar.gz', gzipSync('just some text, not a tar archive\n'.repeat(40)))
tar(['-czf', join(workspace, 'whole.tar.gz'), '.'], tree)
const whole = execFileSync('cat', [join(workspace, 'whole.tar.gz')])
file('truncated.tar.gz', whole.subarray(0, Math.floor(whole.length / 2)))
file('abs-src/etc-passwd', 'x')
tar(['-czPf', join(workspace, 'absolute.tar.gz'), join(workspace, 'abs-src/etc-passwd')], workspace)
mkdirSync(join(workspace, 'dotdot/inner'), { recursive: true })
file('dotdot/escape.txt', 'x')
tar(['-czPf', join(workspace, 'dotdot.tar.gz'), '../escape.txt'], join(workspace, 'dotdot/inner'))
file('big/site.tar.gz', Buffer.alloc(0))
file('out/myproject-1.0-distribution.tar.gz', whole)
tar(['-czf', join(workspace, 'big/site.tar.gz'), '-C', workspace, 'abs-src'], workspace)
const big = mkdtempSync(join(tmpdir(), 'brcd-big-'))
writeFileSync(join(big, 'random.bin'), randomBytes(1_200_000))
tar(['-czf', join(workspace, 'big/over-limit.tar.gz'), '.'], big)
tar(['-czf', join(workspace, 'my"site.tar.gz'), '.'], tree)

mkdirSync(join(workspace, 'sparse-src'))
{
  // A sparse file of 8 data regions (holes between them): GNU tar writes an old-GNU sparse header with an extension block.
  const fd = openSync(join(workspace, 'sparse-src/sparse.bin'), 'w')
  for (let i = 0; i < 8; i++) writeSync(fd, Buffer.alloc(100, 0x78), 0, 100, i * 1024 * 1024)
  ftruncateSync(fd, 9 * 1024 * 1024)
  closeSync(fd)
}
tar(['--format=gnu', '-S', '-czf', join(workspace, 'sparse.tar.gz'), 'sparse.bin'], join(workspace, 'sparse-src'))

mkdirSync(join(workspace, 'link-src'))
symlinkSync('../../etc/passwd', join(workspace, 'link-src/link'))
tar(['-czf', join(workspace, 'symlink.tar.gz'), 'link'], join(workspace, 'link-src'))
const linkDir = mkdtempSync(join(tmpdir(), 'brcd-link-'))
writeFileSync(join(linkDir, 'index.html'), 'x')
symlinkSync('../../etc', join(linkDir, 'etc'))
const latin1Dir = mkdtempSync(join(tmpdir(), 'brcd-latin1-'))
writeFileSync(Buffer.from(`${latin1Dir}/caf\xe9.txt`, 'latin1'), 'x')
file('trailing.tar.gz', Buffer.concat([whole, Buffer.from('garbage appended by a copy step\n')]))
// Maven's target/: the archive beside the build's leftovers.
file('mvn/target/site-1.0-distribution.tar.gz', whole)
file('mvn/target/site-1.0.jar', 'jar')
file('mvn/target/maven-archiver/pom.properties', 'version=1.0\n')
mkdirSync(join(workspace, 'mvn/target/classes'))
mkdirSync(join(workspace, 'ws/dist-v1'), { recursive: true })
file('ws/dist-v1/index.html', 'x')

const search = {
  'search-query': 'shirt',
  'search-account-id': '6001',
  'search-auth-key': 'emulator-auth-key',
  'search-domain-key': 'emulator_domain',
  'search-base-url': 'http://127.0.0.1:9'
}

const rows: Array<[string, Record<string, string>, RegExp]> = [
  ['no stack, console-url or api-url', { 'api-url': '' }, /No Bloomreach Cloud stack given\. Set `stack`/],
  ['a stack with a dot', { 'api-url': '', stack: 'my.stack' }, /stack 'my\.stack' is not a valid stack name: it contains a dot/],
  ['a stack with a slash', { 'api-url': '', stack: 'my/stack' }, /it contains a slash/],
  ['a stack with a space', { 'api-url': '', stack: 'my stack' }, /it contains white space/],
  ['a stack with a scheme', { 'api-url': '', stack: 'https://mystack' }, /it looks like an address/],
  ['a stack given as the console address', { 'api-url': '', stack: 'https://missioncontrol.acme-prod.bloomreach.cloud/' }, /use stack: acme-prod/],
  ['a console-url of another form', { 'api-url': '', 'console-url': 'https://console.mystack.bloomreach.cloud' }, /is not a management console address/],
  ['plain http to a non-loopback host', { 'api-url': 'http://api.mystack.bloomreach.cloud' }, /uses plain http to api\.mystack\.bloomreach\.cloud.*Use https/],
  ['a missing username', { username: '' }, /Input username is required/],
  [
    'token-url without credentials for it',
    { username: '', password: '', 'token-url': 'https://idp.example.com/oauth/token' },
    /token-url is set without credentials for it: set client-id and client-secret/
  ],
  [
    'client-id and client-secret without token-url',
    { 'client-id': 'ci', 'client-secret': 'shh-1234' },
    /client-id, client-secret are set, but token-url is empty/
  ],
  [
    'token-url over plain http to another host',
    { 'token-url': 'http://idp.example.com/token' },
    /token-url 'http:\/\/idp\.example\.com\/token' uses plain http/
  ],
  ['access-token with other credentials', { 'access-token': 'opaque-token-1234' }, /username, password are set, but access-token is used as it is/],
  [
    'oidc-audience without id-token: write',
    { username: '', password: '', 'token-url': 'https://idp.example.com/oauth/token', 'oidc-audience': 'api://brcloud' },
    /add 'permissions: id-token: write' to the job/
  ],
  [
    'every missing required input at once',
    { 'api-url': '', username: '', password: '', distribution: '' },
    /4 required inputs are missing: stack \(or console-url, or api-url\).*; username: .*; password: .*; distribution \(or distribution-id, or from-environment\)/
  ],
  [
    'a build output directory holding the archive',
    { distribution: 'mvn/target' },
    /the directory 'mvn\/target' looks like a build output: it holds the archive site-1\.0-distribution\.tar\.gz beside .*classes.*maven-archiver.*Point `distribution` at the archive itself: 'mvn\/target\/site-1\.0-distribution\.tar\.gz'/
  ],
  [
    'a Windows-style path on Linux',
    { distribution: 'ws\\dist-v1' },
    /'ws\\dist-v1' does not exist, and it is written with backslashes .*Write the path with forward slashes: ws\/dist-v1/
  ],
  [
    'a file name given as distribution-id',
    { distribution: '', 'distribution-id': 'site-1.0-distribution.tar.gz', environment: 'production' },
    /distribution-id 'site-1\.0-distribution\.tar\.gz' looks like a file name, not a distribution id.*set distribution: site-1\.0-distribution\.tar\.gz instead/
  ],
  [
    'a deploy-strategy that is a near miss',
    { environment: 'production', 'deploy-strategy': 'stop-start' },
    /deploy-strategy 'stop-start' is not a strategy the platform is known to take: did you mean stopstart\?/
  ],
  ['a missing password', { password: '' }, /Input password is required/],
  ['a path that does not exist', { distribution: 'target/site.tar.gz' }, /'target\/site\.tar\.gz' does not exist .*Point `distribution` at/],
  [
    'a glob with no match',
    { distribution: 'target/*-distribution.tar.gz' },
    /the pattern 'target\/\*-distribution\.tar\.gz' matched no \.tar\.gz or \.tgz file .*build it before this action: a `run: mvn -B -P dist package` step, or build-command: mvn -B -P dist package \(build-command runs without a shell/
  ],
  [
    'a glob with several matches',
    { distribution: 'several/*-distribution.tar.gz' },
    /matched 2 archives; it must match exactly one:.*a-distribution\.tar\.gz.*b-distribution\.tar\.gz.*Make the pattern more specific/
  ],
  ['an empty directory', { distribution: 'empty' }, /the directory 'empty' .* is empty; there is nothing to deploy/],
  [
    'a directory that holds only the archive',
    { distribution: 'out' },
    /the directory 'out' holds only an archive \(myproject-1\.0-distribution\.tar\.gz\): packing it would deploy a tar of tarballs\. Point `distribution` at the archive itself: 'out\/myproject-1\.0-distribution\.tar\.gz'/
  ],
  ['a file that is not gzip', { distribution: 'zip.tar.gz' }, /is not a gzip file \(it starts with 'PK', a zip/],
  ['a gzip that is not a tar', { distribution: 'notar.tar.gz' }, /is a gzip file but not a tar archive/],
  ['a truncated archive', { distribution: 'truncated.tar.gz' }, /is truncated: the gzip stream ends early .*Rebuild the distribution/],
  ['a tar with an absolute entry', { distribution: 'absolute.tar.gz' }, /contains an entry '\/.*etc-passwd' that is an absolute path.*Repack/],
  ['a tar with a .. entry', { distribution: 'dotdot.tar.gz' }, /contains an entry '\.\.\/escape\.txt' that has a '\.\.' segment/],
  [
    'a tar with a symlink that leads outside',
    { distribution: 'symlink.tar.gz' },
    /contains a symlink 'link' -> '\.\.\/\.\.\/etc\/passwd' that points outside the archive root.*Replace the link by the file/
  ],
  [
    'a directory with a symlink that leads outside',
    { distribution: linkDir },
    /the symlink 'etc' -> '\.\.\/\.\.\/etc' points outside the directory being packed.*Replace the link by the file/
  ],
  ['a directory with a name that is not UTF-8', { distribution: latin1Dir }, /the name of 'caf\\xe9\.txt' is not valid UTF-8.*Rename it to a UTF-8 name/],
  [
    'bytes after the gzip stream',
    { distribution: 'trailing.tar.gz' },
    /has data after the end of its gzip stream: bytes that are not gzip follow the complete archive.*gzip -dc trailing\.tar\.gz \| gzip > fixed\.tar\.gz/
  ],
  [
    'a tar with a sparse file',
    { distribution: 'sparse.tar.gz' },
    /contains a sparse file 'sparse\.bin' \(written by `tar --sparse`\).*Repack it without `--sparse`/
  ],
  [
    'an archive over the limit',
    { distribution: 'big/over-limit.tar.gz', 'max-distribution-mb': '1' },
    /is 1\.1 MB, over the limit of 1 MB per distribution .*650 MB.*max-distribution-mb/
  ],
  [
    'a packed directory over the limit',
    { distribution: big, 'max-distribution-mb': '1' },
    /the archive packed from '.*' is 1\.1 MB, over the limit of 1 MB per distribution .*max-distribution-mb/
  ],
  ['a number that is not a number', { 'max-attempts': 'four' }, /max-attempts 'four' is not a whole number/],
  ['a number out of range', { ...search, 'search-rows': '500' }, /search-rows 500 is out of range: write a number from 1 to 200/],
  ['an unknown search-type', { ...search, 'search-type': 'fuzzy' }, /search-type 'fuzzy' is not a search type: write keyword .* or category/],
  ['a boolean that is neither true nor false', { 'dry-run': 'maybe' }, /dry-run 'maybe' is not a boolean: write true or false/],
  [
    'a boolean written as yes',
    { environment: 'production', rollback: 'yes' },
    /rollback 'yes' is not a boolean: write true or false \(also True, TRUE, False or FALSE/
  ],
  [
    'an archive whose own file name cannot be a distribution name',
    { distribution: 'my"site.tar.gz' },
    /the archive's file name 'my"site\.tar\.gz' cannot be the name it is stored under: it contains '"'.*Rename the file, or set distribution-name/
  ],
  [
    'a distribution-name Windows cannot name',
    { 'distribution-name': 'CON.tar.gz' },
    /distribution-name 'CON\.tar\.gz' must be a plain file name: 'CON' is a device name on Windows/
  ],
  [
    'two sources of the distribution at once',
    { 'distribution-id': 'abc', environment: 'production' },
    /distribution and distribution-id are both set, but they are alternatives: keep distribution to upload a build, or distribution-id to deploy a distribution already on the stack, and remove the other\./
  ],
  [
    'promotion without an environment to deploy to',
    { distribution: '', 'from-environment': 'acceptance' },
    /from-environment needs an environment to act on: set environment/
  ],
  [
    'from-environment the same as environment',
    { distribution: '', 'from-environment': 'production', environment: 'production' },
    /from-environment and environment are both 'production'/
  ],
  ['rollback without an environment', { rollback: 'true' }, /rollback: true needs an environment to act on/],
  [
    'allow-unchecked-order without an environment',
    { 'allow-unchecked-order': 'true', 'github-token': 'ghs_abc123456789' },
    /allow-unchecked-order: true needs an environment to act on/
  ],
  ['health-expect without health-url', { environment: 'production', 'health-expect': 'abc123' }, /health-expect is set but health-url is empty/],
  [
    'health-url with a user name and password',
    { environment: 'production', 'health-url': 'https://admin:secret@www.example.com/version.txt' },
    /health-url must not contain a user name or password\. The health check sends no credentials: point it at a public page\./
  ],
  [
    'events-url with plain http to another machine',
    { environment: 'production', 'events-url': 'http://events.example.com/cdevents' },
    /events-url 'http:\/\/events\.example\.com\/cdevents' uses plain http to events\.example\.com: what is sent would travel unencrypted\. Use https/
  ],
  [
    'sentry-auth-token without sentry-org and sentry-project',
    { environment: 'production', 'sentry-auth-token': 'sntrys_e2e_bad_input' },
    /Sentry needs sentry-auth-token, sentry-org, sentry-project together: sentry-auth-token is set, sentry-org and sentry-project are missing/
  ],
  [
    'github-token and gitlab-token',
    { 'github-token': 'ghs_e2eBadInputBoth', 'gitlab-token': 'glpat-e2eBadInputBoth', 'gitlab-project': 'acme/site' },
    /^::error::github-token and gitlab-token are both set: the code lives in one place\. Keep github-token for a repository on GitHub, or gitlab-token \(with gitlab-project\) for a project on GitLab, and remove the other\.$/
  ],
  [
    'gitlab-token without gitlab-project',
    { 'gitlab-token': 'glpat-e2eBadInputNoProject' },
    /gitlab-token is set but gitlab-project is empty: name the project as its path \(group\/project, or group\/sub\/project\) or its numeric id/
  ],
  [
    'a gitlab-project that names no GitLab project',
    { 'gitlab-token': 'glpat-e2eBadInputProject', 'gitlab-project': 'acme/site.git' },
    /gitlab-project is not a GitLab project: 'acme\/site\.git'\. Give its path as GitLab shows it/
  ],
  [
    'a gitlab-url that is not http(s)',
    { 'gitlab-token': 'glpat-e2eBadInputUrl', 'gitlab-project': 'acme/site', 'gitlab-url': 'ftp://gitlab.example.com' },
    /gitlab-url: The GitLab address 'ftp:\/\/gitlab\.example\.com' is a ftp: address: give the instance's http\(s\) address/
  ],
  [
    'require-verified-in with gitlab-token',
    {
      environment: 'production',
      distribution: '',
      'from-environment': 'acceptance',
      'require-verified-in': 'acceptance',
      'gitlab-token': 'glpat-e2eBadInputSoak',
      'gitlab-project': 'acme/site'
    },
    /require-verified-in reads which distribution each deployment of 'acceptance' recorded; GitLab's deployments carry no distribution, so the soak gate needs the code on GitHub/
  ],
  [
    'a deploy-timeout-minutes that is not a number',
    { environment: 'production', 'deploy-timeout-minutes': 'soon' },
    /deploy-timeout-minutes 'soon' is not a number/
  ]
]

describe('bad input: refused before any request', () => {
  test.each(rows)('%s', async (_name, over, why) => {
    const before = emu.requests.length
    const r = await run({ 'api-url': emu.url, username: emu.username, password: emu.password, distribution: tree, ...over }, { workspace })
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(why)
    expect(r.stderr).toBe('')
    expect(emu.requests.length).toBe(before)
    expect(r.summary).toMatch(/\*\*❌ Failed before anything was (done|uploaded|deployed)\*\*/)
    // The environment given is named, never "upload only"; nothing was looked up.
    const env = /^\| Environment \| (.+) \|$/m.exec(r.summary)?.[1]
    if (over.environment) expect(env).toBe(`${over.environment} (not resolved to an id)`)
    else expect(env).toMatch(/^— \((none given|upload only)\)$/)
  })
})
