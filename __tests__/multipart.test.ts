import { randomBytes } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileBytes } from '../src/archive/bytes.js'
import { multipartFile } from '../src/cloud/multipart.js'
import { ProgressReporter } from '../src/progress.js'

async function collect(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const c of stream) chunks.push(c)
  return Buffer.concat(chunks)
}

describe('multipart body', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mp-'))
  const data = randomBytes(700_000)
  const file = join(dir, 'site.tar.gz')
  writeFileSync(file, data)

  test('one dist_file part with the file bytes and an exact Content-Length; replayable', async () => {
    const body = multipartFile({ field: 'dist_file', bytes: fileBytes(file), fileName: 'site "v1".tar.gz', size: data.length })
    const boundary = /boundary=(.+)$/.exec(body.contentType)?.[1]
    expect(boundary).toMatch(/^----brcloud-deploy-[0-9a-f]{32}$/)
    let counted = 0
    const bytes = await collect(body.open((n) => (counted += n)))
    expect(bytes.length).toBe(body.contentLength)
    expect(counted).toBe(data.length)
    const text = bytes.toString('latin1')
    expect(text.startsWith(`--${boundary}\r\nContent-Disposition: form-data; name="dist_file"; filename="site %22v1%22.tar.gz"\r\n`)).toBe(true)
    const start = bytes.indexOf('\r\n\r\n') + 4
    expect(bytes.subarray(start, start + data.length).equals(data)).toBe(true)
    expect(text.endsWith(`\r\n--${boundary}--\r\n`)).toBe(true)
    expect((await collect(body.open())).equals(bytes)).toBe(true)
  })

  test('fails when the file changed size', async () => {
    const body = multipartFile({ field: 'dist_file', bytes: fileBytes(file), fileName: 'x.tar.gz', size: data.length - 10 })
    await expect(collect(body.open())).rejects.toThrow(/changed while it was being uploaded/)
  })
})

describe('progress lines', () => {
  test('at most one line per interval, then a final one', () => {
    let t = 0
    const lines: string[] = []
    const p = new ProgressReporter(
      'Uploading x',
      10 * 1024 * 1024,
      (l) => lines.push(l),
      5000,
      () => t
    )
    t = 1000
    p.add(1024 * 1024)
    expect(lines).toEqual([])
    t = 5000
    p.add(4 * 1024 * 1024)
    expect(lines).toEqual(['Uploading x: 5.0 MB of 10.0 MB (50%), 1.0 MB/s'])
    t = 10000
    p.add(5 * 1024 * 1024)
    p.finish()
    expect(lines[lines.length - 1]).toBe('Uploading x: 10.0 MB of 10.0 MB (100%), 1.0 MB/s')
  })
})
