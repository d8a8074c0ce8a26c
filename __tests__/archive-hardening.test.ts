// The hardening cases: archives built by GNU tar (and Python's tarfile) that once slipped past the
// check or were refused for the wrong reason, and directories the packer once mis-explained.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { gunzipSync } from 'node:zlib'
import { checkArchive } from '../src/archive/check.js'
import { packDirectory } from '../src/archive/pack.js'
import { writeTar, type TarEntry, type TarSink } from '../src/archive/tar-writer.js'
import { walkDirectory } from '../src/archive/walk.js'
import { SparseEntry, TarCheck } from '../src/archive/tar-check.js'
import { InputError } from '../src/errors.js'

let tmp: string

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'brcd-harden-'))
})
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
})

function tar(args: string[], cwd: string): void {
  execFileSync('tar', args, { cwd, stdio: 'pipe' })
}

/** The entries GNU tar lists. */
function listed(file: string): string[] {
  return execFileSync('tar', ['-tzf', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
    .split('\n')
    .filter((line) => line !== '')
}

async function refusal(file: string): Promise<string> {
  try {
    await checkArchive(file)
  } catch (err) {
    expect(err).toBeInstanceOf(InputError)
    return (err as Error).message
  }
  throw new Error(`checkArchive accepted ${file}`)
}

/** A directory with a sparse file of 8 data regions (more than the 4 an old-GNU header holds) and a small file. */
function sparseTree(name: string, regions = 8): string {
  const dir = path.join(tmp, name)
  fs.mkdirSync(dir, { recursive: true })
  const fd = fs.openSync(path.join(dir, 'sparse.bin'), 'w')
  for (let i = 0; i < regions; i++) fs.writeSync(fd, Buffer.alloc(100, 0x78), 0, 100, i * 1024 * 1024)
  fs.ftruncateSync(fd, (regions + 1) * 1024 * 1024)
  fs.closeSync(fd)
  fs.writeFileSync(path.join(dir, 'x'), 'after the sparse file\n')
  return dir
}

describe('sparse files', () => {
  test("old GNU sparse with extension headers: the entry '../../x' after it is seen and refused", async () => {
    const dir = sparseTree('sparse-escape')
    const file = path.join(tmp, 'sparse-escape.tar.gz')
    tar(['--format=gnu', '-S', '-czf', file, '--transform=s,^x$,../../x,', 'sparse.bin', 'x'], dir)
    expect(listed(file)).toEqual(['sparse.bin', '../../x'])
    expect(await refusal(file)).toMatch(/contains an entry '\.\.\/\.\.\/x' that has a '\.\.' segment/)
  })

  test('old GNU sparse with extension headers, otherwise valid: every entry GNU tar lists is seen, and the sparse file is refused by name', async () => {
    const dir = sparseTree('sparse-valid')
    const file = path.join(tmp, 'sparse-valid.tar.gz')
    tar(['--format=gnu', '-S', '-czf', file, 'sparse.bin', 'x'], dir)
    expect(listed(file)).toEqual(['sparse.bin', 'x'])
    const message = await refusal(file)
    expect(message).toMatch(/contains a sparse file 'sparse\.bin' \(written by `tar --sparse`\)/)
    expect(message).toMatch(/Repack it without `--sparse`/)
  })

  test.each(['0.0', '0.1', '1.0'])('PAX sparse %s: refused by its real name; GNU.sparse.name is checked', async (version) => {
    const dir = sparseTree(`sparse-pax-${version}`)
    const file = path.join(tmp, `sparse-pax-${version}.tar.gz`)
    tar(['--format=pax', `--sparse-version=${version}`, '-S', '-czf', file, 'sparse.bin', 'x'], dir)
    expect(listed(file)).toEqual(['sparse.bin', 'x'])
    expect(await refusal(file)).toMatch(/contains a sparse file '(\.\/GNUSparseFile\.\d+\/)?sparse\.bin'/)
    const escape = path.join(tmp, `sparse-pax-${version}-escape.tar.gz`)
    tar(['--format=pax', `--sparse-version=${version}`, '-S', '-czf', escape, '--transform=s,^sparse,../../sparse,', 'sparse.bin', 'x'], dir)
    if (version !== '0.0') expect(await refusal(escape)).toMatch(/contains an entry '\.\.\/\.\.\/sparse\.bin' that has a '\.\.' segment/)
  })
})

/** Feeds a gunzipped tar to TarCheck in pieces of the given size; returns what it counted and how it ended. */
async function feedTar(tarBytes: Buffer, piece: number): Promise<{ entries: number; error: unknown }> {
  const check = new TarCheck()
  const done = new Promise<unknown>((resolve) => {
    check.on('finish', () => resolve(undefined))
    check.on('error', (err) => resolve(err))
  })
  for (let at = 0; at < tarBytes.length; at += piece) check.write(tarBytes.subarray(at, at + piece))
  check.end()
  return { entries: check.entries, error: await done }
}

test('old GNU sparse with several extension blocks, entries after it, fed in pieces of any size: the count matches tar -tzf', async () => {
  const dir = sparseTree('sparse-many', 60) // 4 regions in the header, 21 per extension block: 3 extension blocks
  for (let i = 0; i < 5; i++) fs.writeFileSync(path.join(dir, `after-${i}.txt`), 'x'.repeat(i * 300))
  const file = path.join(tmp, 'sparse-many.tar.gz')
  tar(['--format=gnu', '-S', '-czf', file, '.'], dir)
  const names = listed(file)
  expect(names).toHaveLength(8) // ./, five files, sparse.bin, x
  const tarBytes = gunzipSync(fs.readFileSync(file))
  for (const piece of [1, 7, 511, 512, 513, 4096, tarBytes.length]) {
    const { entries, error } = await feedTar(tarBytes, piece)
    expect(entries).toBe(names.length)
    expect(error).toBeInstanceOf(SparseEntry)
  }
})

describe('links', () => {
  /** A directory with the given symlinks (name -> target) and files, packed by GNU tar in the order given. */
  function linkArchive(name: string, links: Array<[string, string]>, files: string[] = [], extra: string[] = []): string {
    const dir = path.join(tmp, `links-${name}`)
    fs.mkdirSync(dir, { recursive: true })
    const order: string[] = []
    for (const f of files) {
      fs.mkdirSync(path.join(dir, path.dirname(f)), { recursive: true })
      fs.writeFileSync(path.join(dir, f), 'x')
      order.push(f)
    }
    for (const [link, target] of links) {
      fs.mkdirSync(path.join(dir, path.dirname(link)), { recursive: true })
      fs.symlinkSync(target, path.join(dir, link))
      order.push(link)
    }
    const file = path.join(tmp, `links-${name}.tar.gz`)
    tar(['-czf', file, '--no-recursion', ...extra, ...order], dir)
    return file
  }

  test('symlinks that stay inside are accepted', async () => {
    const file = linkArchive(
      'inside',
      [
        ['webapps/ROOT', 'site'],
        ['lib/current', '../lib-1.2'],
        ['conf/dangling', 'does-not-exist']
      ],
      ['webapps/site/index.html', 'lib-1.2/a.jar']
    )
    expect((await checkArchive(file)).entries).toBe(listed(file).length)
  })

  test("a symlink to '../../etc/passwd', to '..', to an absolute path: refused by name", async () => {
    expect(await refusal(linkArchive('passwd', [['link', '../../etc/passwd']]))).toMatch(
      /contains a symlink 'link' -> '\.\.\/\.\.\/etc\/passwd' that points outside the archive root;.*Replace the link by the file or directory it points to/
    )
    expect(await refusal(linkArchive('up', [['up', '..']], ['file'], ['--transform=s,^file$,up/file,']))).toMatch(
      /a symlink 'up' -> '\.\.' that points outside/
    )
    expect(await refusal(linkArchive('deep-up', [['a/b/up', '../../..']]))).toMatch(/a symlink 'a\/b\/up' -> '\.\.\/\.\.\/\.\.' that points outside/)
    expect(await refusal(linkArchive('absolute', [['abs', '/etc/passwd']]))).toMatch(/a symlink 'abs' -> '\/etc\/passwd' that points to an absolute path/)
  })

  test('an entry written through a symlinked directory, and a link that leads out through a later one (Python tarfile)', async () => {
    const script = `
import io, sys, tarfile
def add(t, name, kind, target=None):
    i = tarfile.TarInfo(name)
    if kind == 'dir': i.type = tarfile.DIRTYPE
    elif kind == 'sym': i.type = tarfile.SYMTYPE; i.linkname = target
    elif kind == 'hard': i.type = tarfile.LNKTYPE; i.linkname = target
    t.addfile(i, io.BytesIO(b'') if kind == 'file' else None)
with tarfile.open(sys.argv[1], 'w:gz') as t:
    add(t, 'lnk', 'dir')
    add(t, 'x', 'sym', 'lnk/..')
    add(t, 'lnk', 'sym', '.')
    add(t, 'x/file', 'file')
with tarfile.open(sys.argv[2], 'w:gz') as t:
    add(t, 'lnk', 'dir')
    add(t, 'x', 'sym', 'lnk/..')
    add(t, 'lnk', 'sym', '.')
with tarfile.open(sys.argv[3], 'w:gz') as t:
    add(t, 'etc', 'sym', '../../etc')
    add(t, 'passwd', 'hard', 'etc/passwd')
`
    const through = path.join(tmp, 'through.tar.gz')
    const late = path.join(tmp, 'late.tar.gz')
    const hard = path.join(tmp, 'hard.tar.gz')
    execFileSync('python3', ['-c', script, through, late, hard])
    expect(await refusal(through)).toMatch(/contains an entry 'x\/file' that is written through the symlink 'x' \(-> 'lnk\/\.\.'\), which leads outside/)
    expect(await refusal(late)).toMatch(/contains a symlink 'x' -> 'lnk\/\.\.' that points outside the archive root/)
    expect(await refusal(hard)).toMatch(/contains a symlink 'etc' -> '\.\.\/\.\.\/etc'/)
  })
})

async function packRefusal(dir: string): Promise<string> {
  const out = path.join(tmp, `${path.basename(dir)}.out.tar.gz`)
  try {
    await packDirectory(dir, out)
  } catch (err) {
    expect(err).toBeInstanceOf(InputError)
    expect(fs.existsSync(out)).toBe(false)
    return (err as Error).message
  }
  throw new Error(`packDirectory accepted ${dir}`)
}

describe('packing symlinks', () => {
  test('a symlink that leads outside the directory is refused, naming it and how to fix it; ones that stay inside are packed', async () => {
    const dir = path.join(tmp, 'pack-links')
    fs.mkdirSync(path.join(dir, 'lib'), { recursive: true })
    fs.mkdirSync(path.join(dir, 'lib-1.2'))
    fs.writeFileSync(path.join(dir, 'lib-1.2/a.jar'), 'x')
    fs.symlinkSync('../lib-1.2', path.join(dir, 'lib/current'))
    const info = await packDirectory(dir, path.join(tmp, 'pack-links.tar.gz'))
    expect(info.entries).toBe(4) // lib/, lib/current, lib-1.2/, lib-1.2/a.jar
    fs.symlinkSync('../../etc', path.join(dir, 'lib/etc'))
    expect(await packRefusal(dir)).toMatch(
      /the symlink 'lib\/etc' -> '\.\.\/\.\.\/etc' points outside the directory being packed;.*Replace the link by the file or directory it points to .*or make it point inside/
    )
    fs.unlinkSync(path.join(dir, 'lib/etc'))
    fs.symlinkSync('/etc/passwd', path.join(dir, 'passwd'))
    expect(await packRefusal(dir)).toMatch(/the symlink 'passwd' -> '\/etc\/passwd' points to an absolute path/)
    fs.unlinkSync(path.join(dir, 'passwd'))
    // a -> b/.. is inside while b is a directory; b -> . (listed after a) makes it lead out.
    fs.symlinkSync('zz/..', path.join(dir, 'aa'))
    fs.symlinkSync('.', path.join(dir, 'zz'))
    expect(await packRefusal(dir)).toMatch(/the symlink 'aa' -> 'zz\/\.\.' points outside the directory being packed/)
  })
})

test('a name that is not valid UTF-8 is refused, shown escaped, with the real cause', async () => {
  const dir = path.join(tmp, 'latin1')
  fs.mkdirSync(path.join(dir, 'conf'), { recursive: true })
  fs.writeFileSync(path.join(dir, 'conf/ok.txt'), 'x')
  fs.writeFileSync(Buffer.concat([Buffer.from(`${dir}/conf/caf`), Buffer.from([0xe9]), Buffer.from('.txt')]), 'x')
  const message = await packRefusal(dir)
  expect(message).toMatch(/the name of 'conf\/caf\\xe9\.txt' is not valid UTF-8/)
  expect(message).toMatch(/Rename it to a UTF-8 name/)
  expect(message).not.toMatch(/could not be read/)
})

describe('after the gzip stream', () => {
  let plain: Buffer
  beforeAll(() => {
    const dir = path.join(tmp, 'gz-tree')
    fs.mkdirSync(path.join(dir, 'webapps'), { recursive: true })
    for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(dir, `webapps/f${i}.txt`), `file ${i}\n`.repeat(200))
    plain = execFileSync('tar', ['-cf', '-', '-C', dir, '.'])
  })
  const gzip = (bytes: Buffer): Buffer => execFileSync('gzip', ['-c'], { input: bytes })

  test('bytes that are not gzip after a complete archive: named as trailing data, not as a corrupt gzip', async () => {
    const file = path.join(tmp, 'trailing.tar.gz')
    fs.writeFileSync(file, Buffer.concat([gzip(plain), Buffer.from('garbage appended by a copy step\n')]))
    const message = await refusal(file)
    expect(message).toMatch(/has data after the end of its gzip stream: bytes that are not gzip follow the complete archive/)
    expect(message).toMatch(/gzip -dc .* \| gzip > /)
    expect(message).not.toMatch(/corrupt gzip/)
  })

  test('a second gzip member (concatenated gzip) is valid gzip and accepted; zero padding too', async () => {
    const half = Math.floor(plain.length / 2)
    const two = path.join(tmp, 'two-members.tar.gz')
    fs.writeFileSync(two, Buffer.concat([gzip(plain.subarray(0, half)), gzip(plain.subarray(half))]))
    expect((await checkArchive(two)).entries).toBe(listed(two).length)
    const padded = path.join(tmp, 'padded.tar.gz')
    fs.writeFileSync(padded, Buffer.concat([gzip(plain), Buffer.alloc(4096)]))
    expect((await checkArchive(padded)).entries).toBe(listed(padded).length)
  })
})

test('a file rewritten at the same size while it is packed is refused (size and modification time after reading, against the listing)', async () => {
  const dir = path.join(tmp, 'rewrite')
  fs.mkdirSync(dir, { recursive: true })
  const file = path.join(dir, 'same.bin')
  fs.writeFileSync(file, Buffer.alloc(1024 * 1024, 0x61))
  const entries: TarEntry[] = []
  for await (const entry of walkDirectory(dir)) entries.push(entry)
  let rewritten = false
  const room = Buffer.alloc(64 * 1024)
  const sink: TarSink = {
    write: () => undefined,
    reserve: () => room,
    commit: () => {
      if (rewritten) return
      rewritten = true
      fs.writeFileSync(file, Buffer.alloc(1024 * 1024, 0x62)) // same size, other content
      const later = new Date(Date.now() + 10_000)
      fs.utimesSync(file, later, later)
    }
  }
  await expect(writeTar(entries, sink)).rejects.toThrow(/'same\.bin' changed while it was being packed \(it was rewritten while it was read/)
  // Untouched, the same entries pack.
  rewritten = true
  const listedAgain: TarEntry[] = []
  for await (const entry of walkDirectory(dir)) listedAgain.push(entry)
  await expect(writeTar(listedAgain, sink)).resolves.toBeUndefined()
})

describe('warnings: what was odd', () => {
  test('an archive whose entries all sit under one top-level folder: named, with the -C to repack', async () => {
    const dir = path.join(tmp, 'nested')
    fs.mkdirSync(path.join(dir, 'mydist/webapps'), { recursive: true })
    fs.mkdirSync(path.join(dir, 'mydist/conf'), { recursive: true })
    fs.writeFileSync(path.join(dir, 'mydist/webapps/site.war'), 'x')
    const file = path.join(tmp, 'nested.tar.gz')
    tar(['-czf', file, 'mydist'], dir)
    const info = await checkArchive(file)
    expect(info.warnings).toHaveLength(1)
    expect(info.warnings?.[0]).toMatch(/all 4 entries sit under one top-level folder 'mydist\/'.*unpacks at its root.*`tar -czf nested\.tar\.gz -C mydist \.`/)
    // At its root (with or without './'), or only webapps/: nothing to say.
    const flat = path.join(tmp, 'flat.tar.gz')
    tar(['-czf', flat, '-C', path.join(dir, 'mydist'), '.'], dir)
    expect((await checkArchive(flat)).warnings).toBeUndefined()
    const webapps = path.join(tmp, 'webapps-only.tar.gz')
    tar(['-czf', webapps, 'webapps'], path.join(dir, 'mydist'))
    expect((await checkArchive(webapps)).warnings).toBeUndefined()
  })

  test('an archive with device entries (Python tarfile): one is named', async () => {
    const file = path.join(tmp, 'devices.tar.gz')
    const script = `
import io, sys, tarfile
with tarfile.open(sys.argv[1], 'w:gz') as t:
    for name, kind in [('webapps/', tarfile.DIRTYPE), ('dev/null', tarfile.CHRTYPE), ('dev/sda', tarfile.BLKTYPE)]:
        i = tarfile.TarInfo(name.rstrip('/')); i.type = kind; i.devmajor = 1; i.devminor = 3
        t.addfile(i)
    i = tarfile.TarInfo('webapps/site.war'); i.size = 1; t.addfile(i, io.BytesIO(b'x'))
`
    execFileSync('python3', ['-c', script, file])
    const info = await checkArchive(file)
    expect(info.warnings).toEqual([expect.stringMatching(/holds 2 device or FIFO entries \(e\.g\. 'dev\/null', a character device\).*Leave them out/)])
  })

  test('packing: FIFOs and sockets left out are named; a directory with everything under one folder is pointed at', async () => {
    const dir = path.join(tmp, 'special')
    fs.mkdirSync(path.join(dir, 'mydist/webapps'), { recursive: true })
    fs.writeFileSync(path.join(dir, 'mydist/webapps/site.war'), 'x')
    execFileSync('mkfifo', [path.join(dir, 'mydist/pipe')])
    execFileSync('python3', ['-c', 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])', path.join(dir, 'mydist/app.sock')])
    const info = await packDirectory(dir, path.join(tmp, 'special.tar.gz'), { input: 'special' })
    expect(info.entries).toBe(3)
    expect(info.warnings).toEqual([
      "distribution: left out of the archive what cannot be deployed from 'special': 'mydist/app.sock' (a socket), 'mydist/pipe' (a FIFO); only files, directories and symlinks are packed.",
      expect.stringMatching(/everything in 'special' sits under one folder 'mydist\/'.*Point `distribution` at 'special\/mydist' instead/)
    ])
    const plain = await packDirectory(path.join(dir, 'mydist/webapps'), path.join(tmp, 'plain.tar.gz'))
    expect(plain.warnings).toBeUndefined()
  })
})
