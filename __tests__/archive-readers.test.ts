// The packed archive read by every reader issue 42 names: GNU tar, bsdtar, Python's tarfile, and Java
// (java.util.zip.GZIPInputStream under Apache Commons Compress). Each tree is packed with packDirectory,
// unpacked or listed by each reader, and every file compared with the tree (SHA-256 of its content,
// size, mode, mtime), every directory (mode) and every symlink (target). A reader that is not installed
// fails its test and names the Debian package to install; .ci/run installs them all.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { TRIAL_MIN } from '../src/archive/classify.js'
import { packDirectory } from '../src/archive/pack.js'
import { planDirectory } from '../src/archive/plan.js'

const JAVA_LIBS = '/usr/share/java'
const COMMONS_COMPRESS = `${JAVA_LIBS}/commons-compress.jar`
const JAVA_SOURCE = path.join(import.meta.dirname, 'fixtures', 'java', 'ReadTarGz.java')
/** Jars at least this large are real libraries whose bytes are nearly all deflated classes: stored, whatever the machine has. */
const BIG_JAR = 100 * 1024

let tmp: string

/** One entry as a reader shows it: files with content, directories with their mode, symlinks with their target. */
interface FileEntry {
  type: 'file'
  mode: string
  size: number
  mtime: number
  sha256: string
}
type Entry = FileEntry | { type: 'dir'; mode: string } | { type: 'symlink'; target: string } | { type: 'other'; line: string }
type Listing = Record<string, Entry>

// ---------------------------------------------------------------------------------------------------
// Readers, and the Debian package that brings each one: missing is a failure that says what to install.

function has(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

function need(what: string, present: boolean, debianPackage: string): void {
  if (!present) {
    throw new Error(
      `${what} is not installed: install Debian's ${debianPackage} (apt-get install -y --no-install-recommends ${debianPackage}); .ci/run installs it`
    )
  }
}

/**
 * The readers run in a UTF-8 locale, whatever the caller's: the tree's names are UTF-8, and in the C locale
 * bsdtar refuses to create them ("Pathname can't be converted from UTF-8 to current locale"), GNU tar's
 * archives included.
 */
const UTF8 = 'C.UTF-8'

function run(command: string, args: string[], locale = UTF8): string {
  const env = { ...process.env, LC_ALL: locale }
  return execFileSync(command, args, { encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] })
}

/** GNU tar or bsdtar: extracts into a fresh folder, which is then read like the source tree. */
function extractWith(command: 'tar' | 'bsdtar', archive: string): Listing {
  if (command === 'tar') need('GNU tar', has('tar') && /GNU tar/.test(run('tar', ['--version'])), 'tar')
  else need('bsdtar', has('bsdtar'), 'libarchive-tools')
  const dest = fs.mkdtempSync(path.join(tmp, `x-${command}-`))
  run(command, ['-xzf', archive, '-C', dest])
  const listing = listTree(dest)
  fs.rmSync(dest, { recursive: true, force: true })
  return listing
}

// Python's tarfile as most code opens a .tar.gz ('r:gz': gzip.GzipFile underneath), every member read
// through extractfile; then the rest of the gzip stream, so GzipFile checks the trailer's CRC-32 and length.
const PYTHON_READER = `
import base64, hashlib, sys, tarfile
b64 = lambda s: base64.b64encode(s.encode('utf-8', 'surrogateescape')).decode()
kinds = {tarfile.REGTYPE: 'file', tarfile.AREGTYPE: 'file', tarfile.DIRTYPE: 'dir', tarfile.SYMTYPE: 'symlink'}
with tarfile.open(sys.argv[1], 'r:gz') as tar:
    for m in tar:
        h = hashlib.sha256()
        if m.isreg():
            f = tar.extractfile(m)
            for chunk in iter(lambda: f.read(65536), b''):
                h.update(chunk)
        print('\\t'.join([kinds.get(m.type, 'other'), format(m.mode & 0o7777, 'o'), str(m.size), str(int(m.mtime)), h.hexdigest(), b64(m.name), b64(m.linkname)]))
    print('end\\t%d' % len(tar.fileobj.read()))
`

function listWithPython(archive: string): Listing {
  need('python3', has('python3'), 'python3')
  return parseListing(run('python3', ['-c', PYTHON_READER, archive]), 'python tarfile')
}

let javaClasses: string | undefined

/** Compiles ReadTarGz.java once (javac: the source launcher needs a JDK too), then runs it on the archive. */
function listWithJava(archive: string, locale = UTF8): Listing {
  need('java', has('java'), 'default-jre-headless')
  need(`Apache Commons Compress (${COMMONS_COMPRESS})`, fs.existsSync(COMMONS_COMPRESS), 'libcommons-compress-java')
  if (javaClasses === undefined) {
    need('javac (to compile __tests__/fixtures/java/ReadTarGz.java)', has('javac'), 'default-jdk-headless')
    const out = fs.mkdtempSync(path.join(tmp, 'java-'))
    run('javac', ['-d', out, '-cp', COMMONS_COMPRESS, JAVA_SOURCE])
    javaClasses = out
  }
  return parseListing(run('java', ['-cp', `${javaClasses}${path.delimiter}${COMMONS_COMPRESS}`, 'ReadTarGz', archive], locale), 'java')
}

/** The readers' lines: type, mode, size, mtime, sha256, base64 name, base64 link target; then 'end' once the gzip stream ended. */
function parseListing(output: string, reader: string): Listing {
  const lines = output.trimEnd().split('\n')
  expect({ reader, last: lines.at(-1)?.split('\t')[0] }).toEqual({ reader, last: 'end' })
  const listing: Listing = {}
  for (const line of lines.slice(0, -1)) {
    const [type, mode, size, mtime, sha256, name64, link64] = line.split('\t') as string[] as [string, string, string, string, string, string, string]
    const name = Buffer.from(name64, 'base64').toString('utf8').replace(/\/+$/, '')
    expect(listing[name]).toBeUndefined()
    if (type === 'file') listing[name] = { type, mode, size: Number(size), mtime: Number(mtime), sha256 }
    else if (type === 'dir') listing[name] = { type, mode }
    else if (type === 'symlink') listing[name] = { type, target: Buffer.from(link64, 'base64').toString('utf8') }
    else listing[name] = { type: 'other', line }
  }
  return listing
}

const sha256Of = (data: Buffer): string => createHash('sha256').update(data).digest('hex')

/** A folder as the readers are asked to show it. */
function listTree(root: string): Listing {
  const listing: Listing = {}
  const visit = (dir: string, prefix: string): void => {
    for (const name of fs.readdirSync(dir)) {
      const full = path.join(dir, name)
      const rel = prefix + name
      const st = fs.lstatSync(full)
      const mode = (st.mode & 0o7777).toString(8)
      if (st.isSymbolicLink()) listing[rel] = { type: 'symlink', target: fs.readlinkSync(full) }
      else if (st.isDirectory()) {
        listing[rel] = { type: 'dir', mode }
        visit(full, `${rel}/`)
      } else {
        const data = fs.readFileSync(full)
        listing[rel] = { type: 'file', mode, size: data.length, mtime: Math.floor(st.mtimeMs / 1000), sha256: sha256Of(data) }
      }
    }
  }
  visit(root, '')
  return listing
}

// ---------------------------------------------------------------------------------------------------
// The trees.

function write(root: string, rel: string, content: string | Buffer, mode = 0o644): void {
  const full = path.join(root, rel)
  fs.mkdirSync(path.dirname(full), { recursive: true })
  fs.writeFileSync(full, content)
  fs.chmodSync(full, mode)
}

/** Incompressible bytes, the same for the same seed: SHA-256 in counter mode. */
function noise(size: number, seed: string): Buffer {
  const out = Buffer.alloc(size)
  for (let at = 0, n = 0; at < size; at += 32, n++) createHash('sha256').update(`${seed}:${n}`).digest().copy(out, at)
  return out
}

/** Text that deflates well but is not one repeated line. */
function text(size: number, seed: string): Buffer {
  const lines: string[] = []
  for (let n = 0, bytes = 0; bytes < size; n++) {
    const line = `${seed}.property.${n} = node ${(n * 7919) % 1000} of folder /content/documents/${seed}/${n % 97}\n`
    lines.push(line)
    bytes += line.length
  }
  return Buffer.from(lines.join('')).subarray(0, size)
}

/** A zip written by Python's zipfile (no zip command needed): `entries` of [name, source file or text], deflated or stored. */
function zipFile(target: string, entries: Array<[string, string]>, method: 'ZIP_DEFLATED' | 'ZIP_STORED'): void {
  need('python3', has('python3'), 'python3')
  const script = `
import json, sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.${method}) as z:
    for name, source in json.loads(sys.argv[2]):
        info = zipfile.ZipInfo(name, (2021, 3, 4, 5, 6, 8))
        info.compress_type = zipfile.${method}
        z.writestr(info, open(source, 'rb').read())
`
  run('python3', ['-c', script, target, JSON.stringify(entries)])
}

interface Tree {
  root: string
  /** Files that levels 1-9 store as they are (the rest is deflated); level 0 stores every file. */
  stored: string[]
}

/** Every jar of at least BIG_JAR bytes in /usr/share/java (Debian's Java libraries), by name. */
function bigJars(): string[] {
  const jars = fs.existsSync(JAVA_LIBS)
    ? fs
        .readdirSync(JAVA_LIBS)
        .filter((name) => name.endsWith('.jar'))
        .sort()
        .filter((name) => {
          const st = fs.lstatSync(path.join(JAVA_LIBS, name))
          return st.isFile() && st.size >= BIG_JAR
        })
    : []
  need(`a jar of at least ${BIG_JAR} bytes in ${JAVA_LIBS}`, jars.length > 0, 'libcommons-compress-java')
  return jars
}

/**
 * A brXM distribution's layout (the benchmark's real-jar tree, ../shared/bench/real-jar-tree.py) made of
 * Debian's real jars: two wars (deflated zips of jars and XML, as Maven's war plugin makes them) holding
 * two thirds of the jars, the other third plain in shared/lib and common/lib, text configuration, and a
 * zip whose text entries are STORED: it compresses, so the trial must deflate it.
 */
function jarTree(root: string): Tree {
  const jars = bigJars()
  const stored: string[] = []
  for (let i = 0; i < 12; i++) write(root, `conf/conf-${String(i).padStart(2, '0')}.xml`, text(2000 + i * 900, `conf${i}`))
  for (const [war, first] of [
    ['cms.war', 0],
    ['site.war', 1]
  ] as const) {
    const entries: Array<[string, string]> = jars.filter((_, i) => i % 3 === first).map((jar) => [`WEB-INF/lib/${jar}`, path.join(JAVA_LIBS, jar)])
    entries.push(['WEB-INF/web.xml', path.join(root, `conf/conf-0${first}.xml`)])
    fs.mkdirSync(path.join(root, 'webapps'), { recursive: true })
    zipFile(path.join(root, 'webapps', war), entries, 'ZIP_DEFLATED')
    stored.push(`webapps/${war}`)
  }
  jars.forEach((jar, i) => {
    if (i % 3 !== 2) return
    const rel = `${i % 6 === 2 ? 'shared' : 'common'}/lib/${jar}`
    fs.mkdirSync(path.join(root, path.dirname(rel)), { recursive: true })
    fs.copyFileSync(path.join(JAVA_LIBS, jar), path.join(root, rel))
    stored.push(rel)
  })
  write(root, 'text-src/a.properties', text(90_000, 'stored-zip-a'))
  write(root, 'text-src/b.properties', text(70_000, 'stored-zip-b'))
  zipFile(
    path.join(root, 'webapps/stored-text.zip'),
    [
      ['a.properties', path.join(root, 'text-src/a.properties')],
      ['b.properties', path.join(root, 'text-src/b.properties')]
    ],
    'ZIP_STORED'
  )
  return { root, stored }
}

const LONG_UTF8_NAME = `données-${'é'.repeat(40)}-ñandú-日本語-設定ファイル.bin` // 130 bytes, over ustar's 100: a PAX path
const DEEP = Array.from({ length: 24 }, (_, i) => `level-${i}`).join('/')

/** The edges: stored-block boundaries (65,535 bytes a block), the trial's threshold, empty files, deep and long names, symlinks. */
function edgeTree(root: string): Tree {
  const stored: string[] = []
  const random = (rel: string, size: number, mode = 0o644): void => {
    write(root, rel, noise(size, rel), mode)
    if (size >= TRIAL_MIN) stored.push(rel)
  }
  random('0-first.bin', 40_000) // the first entry's content stored
  write(root, 'text/readme.txt', 'A distribution to deploy.\n')
  write(root, 'text/one-byte.txt', 'x')
  write(root, 'text/catalina.properties', text(300_000, 'catalina'), 0o600)
  write(root, 'bin/setenv.sh', '#!/bin/sh\nexport CATALINA_OPTS="-Xmx2g"\n', 0o755)
  write(root, 'empty-1.txt', '')
  write(root, 'text/empty-2.log', '')
  random('random/b16383.bin', TRIAL_MIN - 1) // below the trial: deflated
  random('random/b16384.bin', TRIAL_MIN)
  random('random/b65535.bin', 65_535) // one full stored block
  random('random/b65536.bin', 65_536) // a full block and a block of 1 byte
  random('random/b131070.bin', 131_070) // two full blocks
  random('random/b131071.bin', 131_071)
  random('random/b512000.bin', 512_000) // a multiple of 512: no tar padding after it
  random('random/b1049101.bin', 1024 * 1024 + 525) // over 1 MiB: chunks of four blocks, and a partial one
  random('random/c-after-b.bin', 20_000, 0o755) // two stored files in a row
  random(`${DEEP}/deep.bin`, 30_000)
  write(root, `${DEEP}/deep.txt`, 'deep\n')
  random(`données/${LONG_UTF8_NAME}`, 25_000)
  write(root, `données/${LONG_UTF8_NAME.replace('.bin', '.txt')}`, 'long UTF-8 name\n')
  fs.mkdirSync(path.join(root, 'empty-dir'))
  fs.symlinkSync('../text/readme.txt', path.join(root, 'bin/readme-link.txt'))
  fs.symlinkSync('level-0', path.join(root, 'deep-link'))
  fs.symlinkSync(`données/${LONG_UTF8_NAME}`, path.join(root, 'long-target-link.bin')) // a target over 100 bytes: a PAX linkpath
  fs.symlinkSync('données', path.join(root, 'données-link')) // a short non-ASCII target: a PAX linkpath too
  random('zz-last.bin', 70_000) // the last entry's content stored: the final deflated run is the tar's end alone
  return { root, stored }
}

// ---------------------------------------------------------------------------------------------------

interface Packed {
  label: string
  tree: Tree
  level: number
  file: string
}

const trees: Record<'jars' | 'edges', Tree> = {} as Record<'jars' | 'edges', Tree>
const archives: Packed[] = []
const CASES: Array<{ tree: 'jars' | 'edges'; level: number }> = [
  { tree: 'jars', level: 6 },
  { tree: 'jars', level: 0 },
  { tree: 'jars', level: 9 },
  { tree: 'edges', level: 6 },
  { tree: 'edges', level: 0 },
  { tree: 'edges', level: 9 }
]

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'archive-readers-'))
  const jarsRoot = path.join(tmp, 'jars')
  const edgesRoot = path.join(tmp, 'edges')
  fs.mkdirSync(jarsRoot)
  fs.mkdirSync(edgesRoot)
  trees.edges = edgeTree(edgesRoot)
  trees.jars = jarTree(jarsRoot)
  for (const { tree, level } of CASES) {
    const file = path.join(tmp, 'out', `${tree}-${level}.tar.gz`)
    // Level 6 is the default: packed with no level, as the action packs when compression-level is not set.
    await packDirectory(trees[tree].root, file, level === 6 ? {} : { level })
    archives.push({ label: `${tree} tree, level ${level}`, tree: trees[tree], level, file })
  }
})

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true })
})

const READERS: Array<[string, (archive: string) => Listing]> = [
  ['GNU tar -xzf', (a) => extractWith('tar', a)],
  ['bsdtar -xzf', (a) => extractWith('bsdtar', a)],
  ["Python's tarfile", listWithPython],
  ['Java GZIPInputStream + Commons Compress TarArchiveInputStream', (a) => listWithJava(a)]
]

describe.each(CASES.map(({ tree, level }) => `${tree} tree, level ${level}`))('%s', (label) => {
  const packed = (): Packed => archives.find((a) => a.label === label) as Packed

  test.each(READERS)('%s reads every file, directory and symlink as they are in the tree', (_, read) => {
    const { tree, file } = packed()
    expect(read(file)).toEqual(listTree(tree.root))
  })

  test('the plan stores exactly the already-compressed files (level 0: every non-empty file) and is the archive written', async () => {
    const { tree, level, file } = packed()
    const plan = await planDirectory(tree.root, 'plan.tar.gz', {
      level,
      spillPath: `${file}.plan-spill`
    })
    try {
      const files = Object.entries(listTree(tree.root)).filter((e): e is [string, FileEntry] => e[1].type === 'file')
      // Level 0 stores every file with content, whole; an empty file has no block to store. Levels 1-9 store a
      // zip's entries and deflate its central directory: its offset is in the end record, the zip's last 22 bytes
      // (Debian's jars carry no comment).
      const stored = level === 0 ? files.filter(([, e]) => e.size > 0) : files.filter(([name]) => tree.stored.includes(name))
      const entriesEnd = (name: string): number => {
        const bytes = fs.readFileSync(path.join(tree.root, name))
        if (bytes.readUInt32LE(0) !== 0x04034b50) return bytes.length // not a zip: stored whole
        const end = bytes.subarray(-22)
        expect(end.readUInt32LE(0)).toBe(0x06054b50)
        return end.readUInt32LE(16)
      }
      expect(plan.composition).toMatchObject({
        storedFiles: stored.length,
        storedBytes: stored.reduce((sum, [name, e]) => sum + (level === 0 ? e.size : entriesEnd(name)), 0)
      })
      expect(plan.size).toBe(fs.statSync(file).size)
    } finally {
      await plan.release()
    }
  })
})

test('the zips are what the jar tree claims: the wars deflated, the text zip STORED (so the trial must deflate it, not keep it)', () => {
  const methods = (zip: string): string =>
    run('python3', [
      '-c',
      'import sys, zipfile; print(sorted({i.compress_type for i in zipfile.ZipFile(sys.argv[1]).infolist()}))',
      path.join(trees.jars.root, zip)
    ]).trim()
  expect(methods('webapps/cms.war')).toBe('[8]') // ZIP_DEFLATED
  expect(methods('webapps/site.war')).toBe('[8]')
  expect(methods('webapps/stored-text.zip')).toBe('[0]') // ZIP_STORED
  expect(trees.jars.stored).not.toContain('webapps/stored-text.zip')
})

// The control: the readers that read the gzip stream to its end notice a wrong trailer, so a wrong CRC-32 or
// length in ours would fail the tests above. bsdtar (libarchive 3.6.2) stops at the tar's end and
// does not check it; it extracts such an archive with exit code 0.
test.each(READERS.filter(([name]) => !name.startsWith('bsdtar')))('%s refuses the archive with one bit of its CRC-32 flipped', (_, read) => {
  const good = (archives.find((a) => a.label === 'edges tree, level 6') as Packed).file
  const bad = path.join(tmp, 'bad-crc.tar.gz')
  const bytes = fs.readFileSync(good)
  bytes.writeUInt8(bytes.readUInt8(bytes.length - 8) ^ 1, bytes.length - 8)
  fs.writeFileSync(bad, bytes)
  expect(() => read(bad)).toThrow(/crc|trailer/i)
})

test('two packs of the same tree give the same bytes, at every level', async () => {
  for (const name of ['jars', 'edges'] as const) {
    for (let level = 0; level <= 9; level++) {
      const [first, second] = [path.join(tmp, 'again', `${name}-${level}-a.tar.gz`), path.join(tmp, 'again', `${name}-${level}-b.tar.gz`)]
      const a = await packDirectory(trees[name].root, first, { level })
      const b = await packDirectory(trees[name].root, second, { level })
      const onDisk = [first, second].map((f) => sha256Of(fs.readFileSync(f)))
      expect({ name, level, a: a.sha256, b: b.sha256, onDisk }).toEqual({ name, level, a: onDisk[0], b: onDisk[0], onDisk: [onDisk[0], onDisk[0]] })
      fs.rmSync(first)
      fs.rmSync(second)
    }
  }
})

// Issue 42's bound. Measured here on Debian 12's jars (the 18 of 100 KiB or more in /usr/share/java, 10.3 MB: Maven's own
// libraries): +2.43% (9,499,626 bytes against GNU tar's 9,274,178). It was +5.12% while stored jars kept their central
// directory as stored blocks too: GNU gzip -6 saves 5-15% of a jar of small classes, half of it in that directory (4-10%
// of the jar, text), which the trial's median leaves out; the packer now deflates it (classify.ts, storedPrefix). The
// wars, whose jars are deflated again inside, save 0% either way.
test('the jar tree packed at the default level is at most 5% larger than GNU tar -czf of the same tree', () => {
  need('GNU tar', has('tar'), 'tar')
  const gnu = path.join(tmp, 'gnu-jars.tar.gz')
  run('tar', ['-C', trees.jars.root, '-czf', gnu, '.'])
  const ours = fs.statSync((archives.find((a) => a.label === 'jars tree, level 6') as Packed).file).size
  const theirs = fs.statSync(gnu).size
  const overhead = `${(((ours - theirs) / theirs) * 100).toFixed(2)}% (ours ${ours} bytes, GNU tar's ${theirs})`
  expect({ overhead, within5Percent: ours <= theirs * 1.05 }).toEqual({ overhead, within5Percent: true })
})

// Java 17 decodes a ustar header's name field in its default charset, ASCII in the C or POSIX locale (LANG unset, as in
// many containers), and Commons Compress 1.22 throws MalformedInputException on a non-ASCII byte there, before the PAX
// path that replaces the name is applied. GNU tar writes the raw UTF-8 there (its archives fail the same way); our
// writer puts an ASCII stand-in in the ustar name and linkname whenever a PAX record carries the value.
test('Java under the C locale (an ASCII default charset) reads the edges tree, whose names are UTF-8', () => {
  const { tree, file } = archives.find((a) => a.label === 'edges tree, level 6') as Packed
  expect(listWithJava(file, 'C')).toEqual(listTree(tree.root))
})
