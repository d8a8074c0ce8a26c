import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cachedTree, realJarTree, tail, treeStats } from '../scripts/lib/bench-real-jars.js'
import { sizeAgainstGnu } from '../scripts/lib/bench-verify.js'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bench-real-jars-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** A stand-in for real-jar-tree.py: OUT [--debs DIR]; logs its arguments, then runs `body` (Python). */
function fakeScript(body: string): string {
  const script = join(dir, 'real-jar-tree.py')
  writeFileSync(
    script,
    [
      'import os, sys',
      'out = sys.argv[1]',
      `open(${JSON.stringify(join(dir, 'calls'))}, 'a').write(' '.join(sys.argv[1:]) + '\\n')`,
      'os.makedirs(os.path.join(out, "webapps"), exist_ok=True)',
      body
    ].join('\n')
  )
  writeFileSync(join(dir, 'real-jar-packages.txt'), 'libfoo-java\n')
  return script
}
const calls = (): string[] => (existsSync(join(dir, 'calls')) ? readFileSync(join(dir, 'calls'), 'utf8').trim().split('\n') : [])
const MAKES_A_WAR =
  'open(os.path.join(out, "webapps", "cms.war"), "wb").write(b"PK" + bytes(1048574))\nopen(os.path.join(out, "a.xml"), "w").write("<a/>")\nprint("real-jar tree: 0 MiB")'

describe('the real-jar tree of the benchmark', () => {
  test('a tree is counted: its files, and how many bytes are in jars and wars', () => {
    mkdirSync(join(dir, 't/lib'), { recursive: true })
    writeFileSync(join(dir, 't/lib/a.jar'), Buffer.alloc(300))
    writeFileSync(join(dir, 't/site.WAR'), Buffer.alloc(200))
    writeFileSync(join(dir, 't/conf.xml'), 'x'.repeat(50))
    expect(treeStats(join(dir, 't'))).toEqual({ tree: { root: join(dir, 't'), files: 3, bytes: 550, binaryBytes: 500, textBytes: 50 }, archives: 2 })
  })

  test('an existing tree is used as it is; one without jars (or with empty wars only), or not a directory, is a reason', async () => {
    mkdirSync(join(dir, 'given/webapps'), { recursive: true })
    writeFileSync(join(dir, 'given/webapps/cms.war'), Buffer.alloc(1024 * 1024))
    expect(await realJarTree({ work: dir, given: join(dir, 'given') })).toMatchObject({
      tree: { files: 1, bytes: 1024 * 1024 },
      how: `given: ${join(dir, 'given')}`
    })
    writeFileSync(join(dir, 'plain.txt'), 'x')
    mkdirSync(join(dir, 'empty/webapps'), { recursive: true })
    expect(await realJarTree({ work: dir, given: join(dir, 'empty') })).toEqual({
      reason: `${join(dir, 'empty')} holds 0 .jar/.war files of 0 bytes in all (0 files; a real-jar tree has hundreds of MiB of them)`
    })
    // What the script makes when apt-get download fetched nothing: two wars with no jar in them.
    writeFileSync(join(dir, 'empty/webapps/cms.war'), Buffer.alloc(22))
    writeFileSync(join(dir, 'empty/webapps/site.war'), Buffer.alloc(22))
    expect(await realJarTree({ work: dir, given: join(dir, 'empty') })).toEqual({
      reason: `${join(dir, 'empty')} holds 2 .jar/.war files of 44 bytes in all (2 files; a real-jar tree has hundreds of MiB of them)`
    })
    expect(await realJarTree({ work: dir, given: join(dir, 'plain.txt') })).toEqual({ reason: `--real-jar-tree ${join(dir, 'plain.txt')} is not a directory` })
  })

  test('built once: the marker names the script, so the next run reuses the tree; a changed script builds again', async () => {
    const script = fakeScript(MAKES_A_WAR)
    const work = join(dir, 'work')
    mkdirSync(work)
    const first = await realJarTree({ work, script, debs: dir })
    expect(first).toMatchObject({ tree: { root: join(work, 'real-jar-tree'), files: 2, binaryBytes: 1024 * 1024, textBytes: 4 } })
    expect('how' in first && first.how).toMatch(/^built in \d+ s: real-jar tree: 0 MiB$/)
    expect(calls()).toEqual([`${join(work, 'real-jar-tree')} --debs ${dir}`])
    expect(await realJarTree({ work, script })).toMatchObject({ how: `cached in ${join(work, 'real-jar-tree')}` })
    expect(calls()).toHaveLength(1)
    writeFileSync(script, readFileSync(script, 'utf8') + '\n# changed\n')
    expect(await realJarTree({ work, script })).toMatchObject({ tree: { files: 2 } })
    expect(calls()).toHaveLength(2)
  })

  test('a build that fails, or that makes no jars, is a reason that says what to do, never a throw', async () => {
    const work = join(dir, 'work')
    mkdirSync(work)
    let script = fakeScript('sys.stderr.write("E: Unable to locate package libfoo-java\\n"); sys.exit(100)')
    expect(await realJarTree({ work, script })).toEqual({
      reason: `python3 ${script} ${join(work, 'real-jar-tree')} exited with 100: E: Unable to locate package libfoo-java`
    })
    script = fakeScript('open(os.path.join(out, "webapps", "cms.war"), "wb").write(bytes(22)); sys.stderr.write("E: no lists\\n")')
    const empty = await realJarTree({ work, script })
    expect('reason' in empty && empty.reason).toBe(
      `${join(work, 'real-jar-tree')} holds 1 .jar/.war files of 22 bytes in all (1 files; a real-jar tree has hundreds of MiB of them): apt-get download fetched nothing? Run \`apt-get update\` once, or pass --real-jar-debs DIR (already downloaded .debs) or --real-jar-tree DIR (the script said: E: no lists)`
    )
    expect(existsSync(join(work, 'real-jar-tree.json'))).toBe(false)
    expect(await realJarTree({ work, script: join(dir, 'nowhere.py') })).toEqual({
      reason: `${join(dir, 'nowhere.py')} is missing (pass an existing tree with --real-jar-tree DIR)`
    })
    expect(await realJarTree({ work, script, debs: join(dir, 'no-debs') })).toEqual({ reason: `--real-jar-debs ${join(dir, 'no-debs')} does not exist` })
  })

  test('a marker is trusted only when it parses, names the same script and counts files', () => {
    const tree = { root: '/t', files: 3, bytes: 9, binaryBytes: 6, textBytes: 3 }
    expect(cachedTree(JSON.stringify({ ...tree, key: 'k1' }), 'k1')).toEqual({ ...tree, key: 'k1' })
    expect(cachedTree(JSON.stringify({ ...tree, key: 'k1' }), 'k2')).toBeUndefined()
    expect(cachedTree(JSON.stringify({ ...tree, files: 0, key: 'k1' }), 'k1')).toBeUndefined()
    expect(cachedTree('{not json', 'k1')).toBeUndefined()
    expect(cachedTree(undefined, 'k1')).toBeUndefined()
  })

  test('a reason keeps the last lines of what a process said', () => {
    expect(tail('a\n\n b \nc\n')).toBe('b | c')
    expect(tail('a\nb\nc', 1)).toBe('c')
    expect(tail('')).toBe('')
  })
})

describe('the readback size check', () => {
  test('up to 5% over GNU gzip of the same tar passes; smaller always does', () => {
    expect(sizeAgainstGnu(105, 100)).toEqual({ percent: expect.closeTo(5, 9) as number, ok: true })
    expect(sizeAgainstGnu(106, 100).ok).toBe(false)
    expect(sizeAgainstGnu(90, 100)).toEqual({ percent: expect.closeTo(-10, 9) as number, ok: true })
  })
})
