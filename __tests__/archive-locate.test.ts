// locateDistribution and the glob matcher, on a real temporary workspace.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { globFiles, hasGlobChars, segmentToRegExp, splitPattern } from '../src/archive/glob.js'
import { locateDistribution } from '../src/archive/locate.js'
import { InputError } from '../src/errors.js'

let ws: string

function touch(rel: string, content = 'x'): string {
  const full = path.join(ws, rel)
  fs.mkdirSync(path.dirname(full), { recursive: true })
  fs.writeFileSync(full, content)
  return full
}

async function refusal(input: string): Promise<string> {
  try {
    await locateDistribution(input, ws)
  } catch (err) {
    expect(err).toBeInstanceOf(InputError)
    return (err as Error).message
  }
  throw new Error(`locateDistribution accepted ${input}`)
}

beforeAll(() => {
  ws = fs.mkdtempSync(path.join(os.tmpdir(), 'archive-locate-'))
  touch('target/myproject-1.0-distribution.tar.gz')
  touch('target/myproject-1.0.jar')
  touch('other/site.tgz')
  touch('other/site.zip')
  touch('multi/a-distribution.tar.gz')
  touch('multi/b-distribution.tar.gz')
  touch('multi/c-distribution.tgz')
  touch('deep/x/y/z/app-distribution.tar.gz')
  touch('deep/.cache/old-distribution.tar.gz')
  touch('hidden/.dist.tar.gz')
  touch('versions/app-1.tar.gz')
  touch('versions/app-2.tar.gz')
  touch('versions/app-b.tar.gz')
  touch('dist/conf/context.xml')
  fs.mkdirSync(path.join(ws, 'empty'))
  for (let i = 0; i < 12; i++) touch(`many/d${String(i).padStart(2, '0')}.tar.gz`)
})

afterAll(() => {
  fs.rmSync(ws, { recursive: true, force: true })
})

describe('locateDistribution', () => {
  test('a relative .tar.gz file, resolved against the workspace', async () => {
    expect(await locateDistribution('target/myproject-1.0-distribution.tar.gz', ws)).toEqual({
      kind: 'archive',
      path: path.join(ws, 'target/myproject-1.0-distribution.tar.gz')
    })
  })

  test('a .tgz file, an absolute path, surrounding spaces', async () => {
    expect(await locateDistribution('other/site.tgz', ws)).toEqual({ kind: 'archive', path: path.join(ws, 'other/site.tgz') })
    const abs = path.join(ws, 'other/site.tgz')
    expect(await locateDistribution(`  ${abs}  `, '/somewhere/else')).toEqual({ kind: 'archive', path: abs })
  })

  test('a file with the wrong extension', async () => {
    const message = await refusal('other/site.zip')
    expect(message).toMatch(/'other\/site\.zip' is not a \.tar\.gz or \.tgz file/)
    expect(message).toMatch(/Point `distribution` at the \.tar\.gz/)
  })

  test('a directory, and an empty directory', async () => {
    expect(await locateDistribution('dist', ws)).toEqual({ kind: 'directory', path: path.join(ws, 'dist') })
    expect(await locateDistribution('dist/', ws)).toEqual({ kind: 'directory', path: path.join(ws, 'dist') })
    expect(await refusal('empty')).toMatch(/the directory 'empty' \(.*empty\) is empty; there is nothing to deploy/)
  })

  test('a glob with one match', async () => {
    expect(await locateDistribution('target/*-distribution.tar.gz', ws)).toEqual({
      kind: 'archive',
      path: path.join(ws, 'target/myproject-1.0-distribution.tar.gz')
    })
    // Non-archives matched by the pattern are ignored.
    expect(await locateDistribution('target/*', ws)).toEqual({
      kind: 'archive',
      path: path.join(ws, 'target/myproject-1.0-distribution.tar.gz')
    })
    expect(await locateDistribution('versions/app-[0-1].tar.gz', ws)).toMatchObject({ path: path.join(ws, 'versions/app-1.tar.gz') })
    expect(await locateDistribution('versions/app-[!0-9].tar.gz', ws)).toMatchObject({ path: path.join(ws, 'versions/app-b.tar.gz') })
    expect(await locateDistribution('other/site.tg?', ws)).toMatchObject({ path: path.join(ws, 'other/site.tgz') })
  })

  test('a ** pattern (any depth, not into hidden directories)', async () => {
    expect(await locateDistribution('deep/**/*-distribution.tar.gz', ws)).toEqual({
      kind: 'archive',
      path: path.join(ws, 'deep/x/y/z/app-distribution.tar.gz')
    })
    expect(await locateDistribution('**/app-distribution.tar.gz', ws)).toMatchObject({ path: path.join(ws, 'deep/x/y/z/app-distribution.tar.gz') })
    expect(await locateDistribution('deep/**', ws)).toMatchObject({ path: path.join(ws, 'deep/x/y/z/app-distribution.tar.gz') })
    expect(await locateDistribution('deep/.*/*.tar.gz', ws)).toMatchObject({ path: path.join(ws, 'deep/.cache/old-distribution.tar.gz') })
  })

  test('hidden files only when the segment starts with a dot', async () => {
    expect(await refusal('hidden/*.tar.gz')).toMatch(/matched no \.tar\.gz or \.tgz file/)
    expect(await locateDistribution('hidden/.*.tar.gz', ws)).toMatchObject({ path: path.join(ws, 'hidden/.dist.tar.gz') })
  })

  test('a glob with no match names the pattern and the directory, and hints at the build', async () => {
    const message = await refusal('target/*-dist.tar.gz')
    expect(message).toContain(`the pattern 'target/*-dist.tar.gz' matched no .tar.gz or .tgz file (searched under ${path.join(ws, 'target')})`)
    expect(message).toMatch(/build it before this action/)
    const nothing = await refusal('nope/*.tar.gz')
    expect(nothing).toContain(`searched under ${path.join(ws, 'nope')}`)
    expect(await refusal('other/*.zip')).toMatch(/It matched 1 file\(s\), none a \.tar\.gz or \.tgz: other\/site\.zip/)
  })

  test('a glob with several matches lists them (up to 10) and asks for a more specific pattern', async () => {
    const message = await refusal('multi/*')
    expect(message).toMatch(/matched 3 archives; it must match exactly one/)
    expect(message).toContain('  multi/a-distribution.tar.gz\n  multi/b-distribution.tar.gz\n  multi/c-distribution.tgz')
    expect(message).toMatch(/Make the pattern more specific/)
    const many = await refusal('many/*.tar.gz')
    expect(many).toMatch(/matched 12 archives/)
    expect(many).toContain('many/d09.tar.gz')
    expect(many).not.toContain('many/d10.tar.gz')
    expect(many).toContain('... and 2 more')
  })

  test('a missing path names the resolved path and what to point at', async () => {
    const message = await refusal('target/missing.tar.gz')
    expect(message).toContain(`'target/missing.tar.gz' does not exist (looked for ${path.join(ws, 'target/missing.tar.gz')})`)
    expect(message).toMatch(/Point `distribution` at the \.tar\.gz that your build produced/)
    expect(await refusal('   ')).toMatch(/the input is empty/)
  })
})

describe('glob matcher', () => {
  test('segment patterns', () => {
    const m = (pattern: string, name: string): boolean => segmentToRegExp(pattern).test(name)
    expect(m('*.tar.gz', 'a.tar.gz')).toBe(true)
    expect(m('*.tar.gz', 'a.tar.gzip')).toBe(false)
    expect(m('a?c', 'abc')).toBe(true)
    expect(m('a?c', 'ac')).toBe(false)
    expect(m('[abc]x', 'bx')).toBe(true)
    expect(m('[a-c]x', 'dx')).toBe(false)
    expect(m('[!a-c]x', 'dx')).toBe(true)
    expect(m('[]]x', ']x')).toBe(true)
    expect(m('[a-]x', '-x')).toBe(true)
    expect(m('[x', '[x')).toBe(true) // unterminated class: literal
    expect(m('a.(b)+', 'a.(b)+')).toBe(true)
    expect(m('a.b', 'axb')).toBe(false)
    expect(m('*', 'é-日本')).toBe(true)
    expect(segmentToRegExp('APP*', true).test('app.tgz')).toBe(true)
    expect(hasGlobChars('target/x.tar.gz')).toBe(false)
    expect(hasGlobChars('target/[ab].tar.gz')).toBe(true)
  })

  test('splitPattern with POSIX and Windows paths', () => {
    expect(splitPattern('target/*.tar.gz', '/ws', path.posix)).toEqual({ base: '/ws/target', segments: ['*.tar.gz'] })
    expect(splitPattern('/abs/./a/../b/**/**/x*', '/ws', path.posix)).toEqual({ base: '/abs/b', segments: ['**', 'x*'] })
    expect(splitPattern('a/**', '/ws', path.posix)).toEqual({ base: '/ws/a', segments: ['**', '*'] })
    expect(splitPattern('target\\*.tar.gz', 'C:\\ws', path.win32)).toEqual({ base: 'C:\\ws\\target', segments: ['*.tar.gz'] })
    expect(splitPattern('D:/build/**/app-*.tgz', 'C:\\ws', path.win32)).toEqual({ base: 'D:\\build', segments: ['**', 'app-*.tgz'] })
    expect(splitPattern('\\\\server\\share\\out\\*.tgz', 'C:\\ws', path.win32)).toEqual({ base: '\\\\server\\share\\out', segments: ['*.tgz'] })
  })

  test('globFiles returns sorted absolute paths', async () => {
    const { base, matches } = await globFiles('versions/*.tar.gz', ws)
    expect(base).toBe(path.join(ws, 'versions'))
    expect(matches).toEqual(['app-1', 'app-2', 'app-b'].map((n) => path.join(ws, `versions/${n}.tar.gz`)))
  })
})

describe('issue 23: paths and build outputs', () => {
  test('a backslash path is named as such on Linux, and accepted on Windows (where \\ separates folders)', async () => {
    touch('ws/dist-v1/index.html')
    expect(await refusal('ws\\dist-v1')).toMatch(/written with backslashes .*this runner is Linux.*forward slashes: ws\/dist-v1/)
    await expect(locateDistribution('ws\\dist-v1', ws, 'win32')).resolves.toEqual({ kind: 'directory', path: path.join(ws, 'ws/dist-v1') })
    await expect(locateDistribution('target\\*-distribution.tar.gz', ws, 'win32')).resolves.toEqual({
      kind: 'archive',
      path: path.join(ws, 'target/myproject-1.0-distribution.tar.gz')
    })
  })

  test('a build output (the archive beside classes/ or maven-archiver/) is refused, naming the archive; a distribution tree is packed', async () => {
    touch('mvn-target/site-distribution.tar.gz')
    touch('mvn-target/maven-archiver/pom.properties')
    expect(await refusal('mvn-target')).toMatch(
      /the directory 'mvn-target' looks like a build output: it holds the archive site-distribution\.tar\.gz beside maven-archiver\..*Point `distribution` at the archive itself: 'mvn-target\/site-distribution\.tar\.gz'/
    )
    touch('tree/conf/context.xml')
    touch('tree/webapps/site.war')
    touch('tree/old-backup.tar.gz')
    await expect(locateDistribution('tree', ws)).resolves.toEqual({ kind: 'directory', path: path.join(ws, 'tree') })
  })
})

describe('issue 29: what a new user points at by mistake', () => {
  test("a Windows glob on Linux gets the backslash advice, not only 'matched nothing'", async () => {
    const message = await refusal('target\\*-distribution.tar.gz')
    expect(message).toBe(
      "distribution: 'target\\*-distribution.tar.gz' matched nothing, and it is written with backslashes (\\), which separate folders only on Windows; " +
        'this runner is Linux, where a backslash is part of a name. Write the path with forward slashes: target/*-distribution.tar.gz'
    )
    await expect(locateDistribution('target\\*-distribution.tar.gz', ws, 'darwin')).rejects.toThrow(/this runner is macOS/)
  })

  test("a source tree (the project's checkout, distribution: .) is refused, naming what it found", async () => {
    touch('checkout/package.json', '{}')
    touch('checkout/node_modules/x/index.js')
    touch('checkout/.git/HEAD')
    touch('checkout/README.md')
    expect(await refusal('checkout')).toBe(
      "distribution: the directory 'checkout' looks like a source tree, not a distribution: it holds package.json, node_modules, .git and no webapps/ folder. " +
        'A brXM distribution (what mvn -P dist package makes) has webapps/ at its top, beside conf/, common/ and shared/. ' +
        'Point `distribution` at the archive your build made (e.g. target/*-distribution.tar.gz), or at the directory it unpacked into.'
    )
    touch('maven-project/pom.xml')
    touch('maven-project/src/main/java/A.java')
    expect(await refusal('maven-project')).toMatch(/it holds pom\.xml, src and no webapps\/ folder/)
  })

  test('a distribution tree with a stray pom.xml beside webapps/ is still packed', async () => {
    touch('dist-with-pom/webapps/site.war')
    touch('dist-with-pom/pom.xml')
    await expect(locateDistribution('dist-with-pom', ws)).resolves.toEqual({ kind: 'directory', path: path.join(ws, 'dist-with-pom') })
  })
})
