// The hardening cases: archives built by GNU tar (and Python's tarfile) that once slipped past the
// check or were refused for the wrong reason, and directories the packer once mis-explained.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { gunzipSync } from 'node:zlib'
import { checkArchive } from '../src/archive/check.js'
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
