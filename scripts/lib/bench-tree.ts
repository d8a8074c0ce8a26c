// A brXM-like distribution tree of a given size for the benchmark: about half incompressible
// archives (jars and wars, like a Maven "dist" build's shared/lib, common/lib and webapps) and half
// text (configuration, YAML content, web resources). Deterministic: the same size gives the same
// files, byte for byte, so runs on different days compare. Generated once and reused (a marker file
// next to it records the size it was made for).
import { createCipheriv } from 'node:crypto'
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { chmod } from 'node:fs/promises'
import { once } from 'node:events'
import { dirname, join } from 'node:path'

/** A small, fast, seeded PRNG (xorshift32). */
class Rng {
  private s: number
  constructor(seed: number) {
    this.s = seed >>> 0 || 1
  }
  next(): number {
    let x = this.s
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    this.s = x >>> 0
    return this.s / 4294967296
  }
  int(n: number): number {
    return Math.floor(this.next() * n)
  }
  /** Log-uniform between lo and hi. */
  logUniform(lo: number, hi: number): number {
    return Math.round(Math.exp(Math.log(lo) + this.next() * (Math.log(hi) - Math.log(lo))))
  }
}

/** Incompressible bytes (AES-CTR keystream), deterministic per seed. */
function noise(seed: number, bytes: number): Buffer {
  const key = Buffer.alloc(16)
  key.writeUInt32LE(seed >>> 0, 0)
  const cipher = createCipheriv('aes-128-ctr', key, Buffer.alloc(16))
  return cipher.update(Buffer.alloc(bytes))
}

const WORDS = (
  'hippo brxm jcr node property content document folder channel mount sitemap component template ' +
  'workspace configuration definitions namespace primary type mixin translation locale title summary ' +
  'body image link reference author publication date modified created state published unpublished ' +
  'draft live preview handle variant container item menu banner news event article product catalog ' +
  'price currency category tag search query filter order limit offset page size result value name ' +
  'label description enabled disabled true false null default parameter attribute class resource ' +
  'bundle message key locale country language version revision group user role permission domain ' +
  'authorization privilege read write delete create module service listener scheduler job trigger ' +
  'cron interval timeout cache region entry memory disk store index lucene analyzer field boost'
).split(' ')

/** Made-up identifiers from syllables: a vocabulary of a few thousand words, like real code and content. */
function vocabulary(rng: Rng, count: number): string[] {
  const syllables =
    'ba be bi bo bu ca co cu da de di do fa fe fi fo ga ge go ha he hi ho ja jo ka ke ki ko la le li lo lu ma me mi mo mu na ne ni no nu pa pe pi po pu ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo xa ze zi zo'.split(
      ' '
    )
  const words = [...WORDS]
  while (words.length < count) {
    let word = ''
    for (let k = 2 + rng.int(3); k > 0; k--) word += syllables[rng.int(syllables.length)]
    words.push(word)
  }
  return words
}

/** A pool of distinct text lines (XML, YAML, properties, JSON, HTML), built once. */
function linePool(rng: Rng, count: number): string[] {
  const vocab = vocabulary(rng, 1500)
  // Common words (the first ones) come up far more often than rare ones, as in real text.
  const w = (): string => vocab[Math.floor(vocab.length * rng.next() ** 4)] ?? 'x'
  const ident = (): string => {
    const second = w()
    return rng.next() < 0.5 ? w() : `${w()}${second.charAt(0).toUpperCase()}${second.slice(1)}`
  }
  const num = (): string => String(rng.int(rng.next() < 0.5 ? 100 : 1_000_000))
  const hex = (n: number): string => {
    let out = ''
    for (let i = 0; i < n; i++) out += '0123456789abcdef'[rng.int(16)]
    return out
  }
  const uuid = (): string => `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`
  const pad = (): string => ' '.repeat(2 * rng.int(6))
  const makers = [
    () => `${pad()}<${ident()} name="${w()}.${w()}" value="${w()}-${num()}"/>`,
    () => `${pad()}<property name="${ident()}" type="${w()}">${w()} ${w()} ${w()}</property>`,
    () => `${pad()}${ident()}: ${w()} ${w()}`,
    () => `${pad()}/${w()}/${w()}-${num()}:`,
    () => `${pad()}jcr:uuid: ${uuid()}`,
    () => `${pad()}hippo:docbase: ${uuid()}`,
    () => `${pad()}jcr:primaryType: ${w()}:${ident()}`,
    () => `${w()}.${w()}.${ident()}=${w()} ${w()} ${num()}`,
    () => `${pad()}"${ident()}": "${w()} ${w()} ${w()}", "${w()}": ${num()},`,
    () => `${pad()}<div class="${w()}-${w()}"><a href="/${w()}/${w()}.html">${w()} ${w()}</a></div>`,
    () => `${pad()}${w()} ${w()} ${w()} ${w()} ${w()} ${w()} ${w()} ${w()} ${w()}.`
  ]
  const lines: string[] = []
  for (let i = 0; i < count; i++) {
    // Identifiers (the two uuid makers) on one line in twenty; the other kinds equally often.
    const pick = rng.next() < 0.05 ? 4 + rng.int(2) : [0, 1, 2, 3, 6, 7, 8, 9, 10][rng.int(9)]!
    lines.push(makers[pick]!())
  }
  return lines
}

/**
 * Text of about `bytes` bytes: random lines from a window of the pool, a few hundred to a few
 * thousand lines wide, so that a file repeats its own constructs the way real configuration does.
 */
function text(rng: Rng, pool: string[], bytes: number): Buffer {
  const width = rng.logUniform(300, 3000)
  const start = rng.int(pool.length - width)
  const out: string[] = []
  let n = 0
  while (n < bytes) {
    const line = pool[start + rng.int(width)] ?? ''
    out.push(line)
    n += line.length + 1
  }
  return Buffer.from(out.join('\n') + '\n', 'utf8').subarray(0, Math.max(bytes, 1))
}

async function writeBig(path: string, parts: () => Generator<Buffer>): Promise<void> {
  mkdirSync(dirname(path), { recursive: true })
  const out = createWriteStream(path)
  for (const chunk of parts()) if (!out.write(chunk)) await once(out, 'drain')
  out.end()
  await once(out, 'finish')
}

export interface BenchTree {
  root: string
  files: number
  bytes: number
  binaryBytes: number
  textBytes: number
}

/** Parses "300M", "1G", "512MiB", "1000000" into bytes (M = MiB, G = GiB). */
export function parseSize(s: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]?)(i?b)?$/i.exec(s.trim())
  if (!m) throw new Error(`not a size: ${s} (write e.g. 300M or 1G)`)
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(m[2] ?? '').toLowerCase() as '' | 'k' | 'm' | 'g']
  return Math.round(Number(m[1]) * unit)
}

/**
 * Makes (or reuses) a tree of about `totalBytes` under `root`: half jars/wars, half text.
 */
export async function makeBenchTree(root: string, totalBytes: number): Promise<BenchTree> {
  // The marker sits next to the tree (not in it, or it would be packed) and names the size it was made for.
  const markerPath = `${root}.json`
  if (existsSync(markerPath) && existsSync(root)) {
    const made = JSON.parse(readFileSync(markerPath, 'utf8')) as BenchTree & { requested?: number }
    if (made.requested === totalBytes) return made
  }
  rmSync(markerPath, { force: true })
  rmSync(root, { recursive: true, force: true })
  mkdirSync(root, { recursive: true })
  const rng = new Rng(20240611)
  const pool = linePool(rng, 50_000)
  let files = 0
  let binaryBytes = 0
  let textBytes = 0
  const put = (rel: string, data: Buffer | string): void => {
    const p = join(root, rel)
    mkdirSync(dirname(p), { recursive: true })
    writeFileSync(p, data)
    files++
  }

  // Tomcat-like skeleton.
  put('bin/setenv.sh', '#!/bin/sh\nCATALINA_OPTS="-Xmx2g -Drepo.path=$CATALINA_BASE/repository"\n')
  put('bin/catalina.sh', text(rng, pool, 24_000))
  await chmod(join(root, 'bin/setenv.sh'), 0o755)
  await chmod(join(root, 'bin/catalina.sh'), 0o755)
  for (const name of ['context.xml', 'server.xml', 'web.xml', 'log4j2.xml', 'catalina.properties', 'repository.xml']) {
    const n = rng.logUniform(2_000, 200_000)
    put(`conf/${name}`, text(rng, pool, n))
    textBytes += n
  }
  mkdirSync(join(root, 'logs'), { recursive: true })
  mkdirSync(join(root, 'temp'), { recursive: true })

  // Binary half: jars in shared/lib and common/lib (20 KB - 4 MB), then two or three large wars.
  const binaryTarget = Math.round(totalBytes / 2)
  const jarShare = Math.round(binaryTarget * 0.35)
  let seed = 1
  for (let i = 0; binaryBytes < jarShare; i++) {
    const n = Math.min(rng.logUniform(20_000, 4_000_000), jarShare - binaryBytes + 1)
    const dir = i % 4 === 0 ? 'common/lib' : 'shared/lib'
    put(`${dir}/${WORDS[rng.int(WORDS.length)]}-${WORDS[rng.int(WORDS.length)]}-${1 + (i % 9)}.${i % 13}.${i}.jar`, noise(seed++, n))
    binaryBytes += n
  }
  const wars = ['cms.war', 'site.war', 'platform.war']
  const warTotal = binaryTarget - binaryBytes
  for (let k = 0; k < wars.length; k++) {
    const n = Math.round(warTotal * [0.45, 0.35, 0.2][k]!)
    const s = seed++
    await writeBig(join(root, 'webapps', wars[k]!), function* () {
      const step = 4 * 1024 * 1024
      for (let off = 0; off < n; off += step) yield noise(s * 100_000 + off / step, Math.min(step, n - off))
    })
    files++
    binaryBytes += n
  }

  // Text half: repository content as YAML, exploded web resources and a few big logs/exports.
  const textTarget = totalBytes - binaryBytes
  for (let i = 0; textBytes < textTarget; i++) {
    const left = textTarget - textBytes
    const n = Math.min(i % 50 === 49 ? rng.logUniform(1_000_000, 8_000_000) : rng.logUniform(500, 300_000), left)
    const area = ['repository/content', 'webapps/site/WEB-INF/hst', 'webapps/ROOT/static', 'repository/config'][i % 4]!
    const sub = `${WORDS[rng.int(WORDS.length)]}/${WORDS[rng.int(WORDS.length)]}`
    const ext = ['yaml', 'xml', 'html', 'properties', 'json', 'js', 'css'][rng.int(7)]!
    put(`${area}/${sub}/${WORDS[rng.int(WORDS.length)]}-${i}.${ext}`, text(rng, pool, n))
    textBytes += n
  }

  const tree: BenchTree = { root, files, bytes: binaryBytes + textBytes, binaryBytes, textBytes }
  writeFileSync(markerPath, JSON.stringify({ ...tree, requested: totalBytes }))
  return tree
}
