// checkArchive against archives made by GNU tar and gzip, and against broken or unsafe ones.
import { execFileSync } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { checkArchive } from '../src/archive/check.js'
import { formatMb } from '../src/format.js'
import { encodeUstarHeader } from '../src/archive/tar-writer.js'
import { InputError } from '../src/errors.js'

let tmp: string
let tree: string
let good: string

const MB = 1024 * 1024

function tar(args: string[], cwd = tree): void {
  execFileSync('tar', args, { cwd, stdio: 'pipe' })
}

/** A tar built from hand-made headers (each followed by its content). */
function crafted(entries: Array<{ name: string; typeflag?: string; linkname?: string; data?: Buffer }>): Buffer {
  const blocks: Buffer[] = []
  for (const e of entries) {
    const data = e.data ?? Buffer.alloc(0)
    blocks.push(
      encodeUstarHeader({
        name: Buffer.from(e.name),
        mode: 0o644,
        size: data.length,
        mtime: 1_600_000_000,
        typeflag: e.typeflag ?? '0',
        linkname: e.linkname === undefined ? undefined : Buffer.from(e.linkname)
      }),
      data,
      Buffer.alloc((512 - (data.length % 512)) % 512)
    )
  }
  blocks.push(Buffer.alloc(1024))
  return Buffer.concat(blocks)
}

function put(name: string, content: Buffer | string): string {
  const file = path.join(tmp, name)
  fs.writeFileSync(file, content)
  return file
}

async function refusal(file: string, options?: { maxBytes?: number }): Promise<string> {
  try {
    await checkArchive(file, options)
  } catch (err) {
    expect(err).toBeInstanceOf(InputError)
    return (err as Error).message
  }
  throw new Error(`checkArchive accepted ${file}`)
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'archive-check-'))
  tree = path.join(tmp, 'tree')
  fs.mkdirSync(path.join(tree, 'bin'), { recursive: true })
  fs.mkdirSync(path.join(tree, 'webapps'))
  fs.writeFileSync(path.join(tree, 'bin/setenv.sh'), '#!/bin/sh\n', { mode: 0o755 })
  fs.writeFileSync(path.join(tree, 'webapps/cms.war'), randomBytes(300_000))
  fs.writeFileSync(path.join(tree, `webapps/${'n'.repeat(130)}.jar`), 'long name')
  fs.writeFileSync(path.join(tree, 'webapps/é-ü.txt'), 'non-ascii')
  fs.symlinkSync(`${'t'.repeat(120)}.war`, path.join(tree, 'webapps/long-link'))
  fs.linkSync(path.join(tree, 'bin/setenv.sh'), path.join(tree, 'bin/hardlink.sh'))
  good = path.join(tmp, 'good.tar.gz')
  tar(['czf', good, 'bin', 'webapps'])
})

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
})

describe('accepts', () => {
  test('an archive made by GNU tar czf (GNU long names, hard link), with the digests of the file', async () => {
    const info = await checkArchive(good)
    const bytes = fs.readFileSync(good)
    expect(info).toEqual({
      path: good,
      fileName: 'good.tar.gz',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      md5: createHash('md5').update(bytes).digest('hex'),
      entries: 8,
      packed: false
    })
  })

  test.each(['pax', 'ustar', 'gnu', 'v7'])('GNU tar --format=%s', async (format) => {
    const file = path.join(tmp, `${format}.tar.gz`)
    const members = format === 'pax' || format === 'gnu' ? ['bin', 'webapps'] : ['bin']
    tar(['czf', file, `--format=${format}`, ...members])
    const listed = execFileSync('tar', ['tzf', file], { encoding: 'utf8' }).trim().split('\n').length
    expect((await checkArchive(file)).entries).toBe(listed)
  })

  test('an archive with a ./ prefix, and one made by gzip over a plain tar', async () => {
    const dotted = path.join(tmp, 'dotted.tgz')
    tar(['czf', dotted, '.'], path.join(tree, 'bin'))
    expect((await checkArchive(dotted)).entries).toBe(3)
    const plain = path.join(tmp, 'plain2.tar')
    tar(['cf', plain, 'bin'])
    execFileSync('gzip', ['-9', plain])
    expect((await checkArchive(`${plain}.gz`)).entries).toBe(3)
  })

  test('a file that fits maxBytes exactly', async () => {
    const size = fs.statSync(good).size
    expect((await checkArchive(good, { maxBytes: size })).size).toBe(size)
  })
})

describe('refuses', () => {
  test('an empty file', async () => {
    expect(await refusal(put('empty.tar.gz', ''))).toMatch(/'.*empty\.tar\.gz' is an empty file \(0 bytes\)\. Rebuild/)
  })

  test('a zip', async () => {
    const zip = put('dist.zip.tar.gz', Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(100)]))
    const message = await refusal(zip)
    expect(message).toMatch(/is not a gzip file \(it starts with 'PK', a zip/)
    expect(message).toMatch(/Point `distribution` at the \.tar\.gz that your build produced/)
  })

  test('a text file and an HTML error page', async () => {
    expect(await refusal(put('text.tar.gz', 'hello world, this is not an archive\n'))).toMatch(/is not a gzip file \(it is text starting with 'hello world,'\)/)
    expect(await refusal(put('page.tar.gz', '<!DOCTYPE html><html>Not found</html>'))).toMatch(/HTML or XML/)
  })

  test('a plain (uncompressed) tar', async () => {
    const plain = path.join(tmp, 'plain.tar.gz')
    tar(['cf', plain, 'bin'])
    const message = await refusal(plain)
    expect(message).toMatch(/is not a gzip file \(a plain, uncompressed tar\)/)
    expect(message).toMatch(/gzip/)
  })

  test('a gzip that is not a tar', async () => {
    expect(await refusal(put('text.gz', gzipSync('just some text\n'.repeat(100))))).toMatch(/is a gzip file but not a tar archive \(.*bad header checksum\)/)
    expect(await refusal(put('short.gz', gzipSync('tiny')))).toMatch(/is a gzip file but not a tar archive \(.*only 4 bytes/)
  })

  test('a truncated gzip', async () => {
    const bytes = fs.readFileSync(good)
    const message = await refusal(put('cut.tar.gz', bytes.subarray(0, Math.floor(bytes.length / 2))))
    expect(message).toMatch(/is truncated: the gzip stream ends early/)
    expect(message).toMatch(/Rebuild the distribution/)
  })

  test('a corrupt gzip', async () => {
    const bytes = Buffer.from(fs.readFileSync(good))
    for (let i = 2000; i < 2100; i++) bytes[i] = (bytes[i] ?? 0) ^ 0x5a
    expect(await refusal(put('corrupt.tar.gz', bytes))).toMatch(/is (a corrupt gzip file|corrupt|truncated)/)
  })

  test('a tar cut inside an entry (valid gzip)', async () => {
    const tarBytes = crafted([{ name: 'a.bin', data: randomBytes(4000) }])
    expect(await refusal(put('cut-tar.tar.gz', gzipSync(tarBytes.subarray(0, 2048))))).toMatch(
      /is truncated: the tar stream ends in the middle of an entry after the entry 'a\.bin'/
    )
  })

  test('a damaged tar header after the first one', async () => {
    const tarBytes = crafted([
      { name: 'a.txt', data: Buffer.from('a') },
      { name: 'b.txt', data: Buffer.from('b') }
    ])
    tarBytes[1024 + 10] = 0x41 // inside the second header's name
    expect(await refusal(put('bad-header.tar.gz', gzipSync(tarBytes)))).toMatch(
      /is corrupt: a tar header after the entry 'a\.txt' is damaged \(bad header checksum\)/
    )
  })

  test('checks node-tar does not make: a cut header block, an oversize extended header; the first zero block ends it', async () => {
    const one = crafted([{ name: 'a.txt', data: Buffer.from('a') }]).subarray(0, 1024) // header + content, no end blocks
    const header = crafted([{ name: 'b.txt' }]).subarray(0, 512)
    expect(await refusal(put('cut-header.tar.gz', gzipSync(Buffer.concat([one, header.subarray(0, 300)]))))).toMatch(
      /is truncated: the tar stream ends in the middle of an entry after the entry 'a\.txt'/
    )
    const big = encodeUstarHeader({ name: Buffer.from('PaxHeaders/x'), mode: 0o644, size: 2 * MB, mtime: 0, typeflag: 'x' })
    expect(await refusal(put('big-pax.tar.gz', gzipSync(Buffer.concat([big, Buffer.alloc(2 * MB), one, Buffer.alloc(1024)]))))).toMatch(
      /is corrupt: an extended header at the start of the archive claims 2097152 bytes/
    )
    // Without end blocks it is still whole; after a zero block, anything is padding (as for GNU tar).
    expect((await checkArchive(put('no-end.tar.gz', gzipSync(one)))).entries).toBe(1)
    expect((await checkArchive(put('lone-zero.tar.gz', gzipSync(Buffer.concat([one, Buffer.alloc(512), randomBytes(1024)]))))).entries).toBe(1)
  })

  test('an archive with no entries', async () => {
    expect(await refusal(put('no-entries.tar.gz', gzipSync(Buffer.alloc(10240))))).toMatch(/is an empty archive \(no entries at all\)/)
    expect(await refusal(put('nothing.tar.gz', gzipSync(Buffer.alloc(0))))).toMatch(/is an empty archive/)
  })

  test('an absolute entry made by tar czfP', async () => {
    const abs = path.join(tmp, 'absolute.tar.gz')
    tar(['czfP', abs, path.join(tree, 'bin/setenv.sh')])
    const message = await refusal(abs)
    expect(message).toContain(`contains an entry '${path.join(tree, 'bin/setenv.sh')}' that is an absolute path`)
    expect(message).toMatch(/Repack the distribution with relative paths/)
  })

  test("a '../' entry made by GNU tar --transform", async () => {
    const up = path.join(tmp, 'up.tar.gz')
    tar(['czf', up, '--transform', 's,^,../,', 'bin/setenv.sh'])
    expect(await refusal(up)).toMatch(/contains an entry '\.\.\/bin\/setenv\.sh' that has a '\.\.' segment/)
  })

  test('crafted unsafe names: inner .., Windows drives, hard-link targets', async () => {
    const cases: Array<[Parameters<typeof crafted>[0], RegExp]> = [
      [[{ name: 'ok.txt' }, { name: 'webapps/../../etc/x' }], /entry 'webapps\/\.\.\/\.\.\/etc\/x' that has a '\.\.' segment/],
      [[{ name: 'C:\\Windows\\x' }], /entry 'C:\\Windows\\x' that starts with a Windows drive/],
      [[{ name: 'C:/x' }], /starts with a Windows drive/],
      [[{ name: 'a\\..\\b' }], /has a '\.\.' segment/],
      [
        [{ name: 'ok.txt' }, { name: 'link', typeflag: '1', linkname: '../../etc/passwd' }],
        /a hard link 'link' whose target '\.\.\/\.\.\/etc\/passwd' has a '\.\.' segment/
      ],
      [[{ name: 'link', typeflag: '1', linkname: '/etc/passwd' }], /hard link 'link' whose target '\/etc\/passwd' is an absolute path/]
    ]
    for (const [entries, expected] of cases) {
      const file = put('crafted.tar.gz', gzipSync(crafted(entries)))
      expect(await refusal(file)).toMatch(expected)
    }
    // A symlink may point anywhere inside the archive root ('..' in its target is fine while it stays inside); '..' inside a name (not a segment) is fine.
    const fine = put('fine.tar.gz', gzipSync(crafted([{ name: 'a..b' }, { name: 'dir/l', typeflag: '2', linkname: '../x' }])))
    expect((await checkArchive(fine)).entries).toBe(2)
    // One that leads outside it is refused (hardening: link targets are checked).
    const outside = put('outside.tar.gz', gzipSync(crafted([{ name: 'a..b' }, { name: 'l', typeflag: '2', linkname: '../x' }])))
    expect(await refusal(outside)).toMatch(/a symlink 'l' -> '\.\.\/x' that points outside the archive root/)
  })

  test('a file over maxBytes, before reading it', async () => {
    // Not even gzip: the size check must come first.
    const big = put('big.tar.gz', Buffer.alloc(3 * MB + 300 * 1024, 0x41))
    const message = await refusal(big, { maxBytes: 3 * MB })
    expect(message).toMatch(/'.*big\.tar\.gz' is 3\.3 MB, over the limit of 3 MB per distribution/)
    expect(message).toMatch(/at most 650 MB per distribution by default/)
    expect(message).toMatch(/`max-distribution-mb`/)
    const barely = put('barely.tar.gz', Buffer.alloc(3 * MB + 1))
    expect(await refusal(barely, { maxBytes: 3 * MB })).toMatch(/is 3 MB \(3145729 bytes\), over the limit of 3 MB \(3145728 bytes\)/)
    expect(formatMb(650 * MB)).toBe('650 MB')
  })

  test('a missing path and a directory', async () => {
    expect(await refusal(path.join(tmp, 'missing.tar.gz'))).toMatch(/does not exist/)
    expect(await refusal(tree)).toMatch(/is not a file/)
  })
})
