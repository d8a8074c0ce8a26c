// Follows the block structure of a tar stream in step with node-tar's Parser, for one thing the
// Parser does not know: the extension blocks of an old-GNU sparse header ('S' with the isextended
// flag at offset 482; each extension block has its own flag at offset 504). GNU tar writes them
// between the header and the data when a sparse file has more than 4 data regions. The Parser takes
// them for the entry's data, so it reads the entry's last blocks as headers: it then refuses a valid
// archive as corrupt, or never sees the entries that follow. This stepper hands the Parser every byte
// except those extension blocks.
//
// To stay in step it decides every entry's data size exactly as node-tar 7's Header and ReadEntry do
// (the size field, octal or base-256; a PAX or global PAX `size` for the ordinary types only; no data
// for a directory, or for a file whose name ends in '/'), and parses PAX records the way node-tar does.
// On a header the Parser refuses (a bad checksum) the check fails anyway, so nothing depends on what
// the stepper makes of it.

const BLOCK = 512

/** Types whose header takes values from extended headers in node-tar (its `normalFsTypes`). */
const ORDINARY = new Set(['0', '', '1', '2', '3', '4', '5', '6', '7', 'D'])
/** Extended headers whose data changes how the next header is read. */
const META_KEPT = new Set(['x', 'X', 'g', 'L', 'N'])
/** Extended headers node-tar reads (the ones it keeps, plus the long link name). */
const META = new Set([...META_KEPT, 'K'])

interface Extended {
  path?: string
  size?: number
}

/** A numeric header field as node-tar reads it: base-256 when the high bit is set, else octal; undefined when unreadable. */
function numberField(block: Buffer, offset: number, length: number): number | undefined {
  const first = block[offset]!
  if (first & 0x80) {
    if (first !== 0x80) return undefined // negative or malformed: node-tar gives no size (or fails)
    let value = 0
    for (let i = offset + 1; i < offset + length; i++) value = value * 256 + block[i]!
    return Number.isSafeInteger(value) ? value : undefined
  }
  const value = parseInt(
    block
      .toString('utf8', offset, offset + length)
      .replace(/\0.*$/s, '')
      .trim(),
    8
  )
  return Number.isNaN(value) ? undefined : value
}

const textField = (block: Buffer, offset: number, length: number): string => block.toString('utf8', offset, offset + length).replace(/\0.*/s, '')

/** PAX records as node-tar 7 reads them (line by line; only path and size matter here). */
function parsePax(text: string, into: Extended | undefined): Extended {
  const result: Extended = { ...into }
  for (const line of text.replace(/\n$/, '').split('\n')) {
    const n = parseInt(line, 10)
    if (n !== Buffer.byteLength(line) + 1) continue
    const [key, ...rest] = line.slice(`${n} `.length).split('=')
    const value = rest.join('=').replace(/\0.*/s, '')
    if (key === 'path') result.path = value
    if (key === 'size' && +value >= 0) result.size = +value
  }
  return result
}

export class TarStepper {
  /** Old-GNU sparse extension blocks taken out of the stream. */
  extensionBlocks = 0

  private state: 'header' | 'data' | 'extension' | 'ended' = 'header'
  /** Bytes of the current block gathered so far (a header or an extension block split across chunks). */
  private readonly block = Buffer.alloc(BLOCK)
  private fill = 0
  /** Data bytes (with padding) left in the current entry. */
  private data = 0
  /** Data of the entry after the extension blocks. */
  private afterExtensions = 0
  private meta: { type: string; size: number; parts: Buffer[] } | undefined
  private extended: Extended | undefined
  private globalExtended: Extended | undefined

  constructor(private readonly maxMetaBytes: number) {}

  /** Splits a chunk of the tar stream into the pieces the Parser gets (in order; extension blocks left out). */
  step(chunk: Buffer, pass: (piece: Buffer) => void): void {
    let keepFrom = 0
    let i = 0
    while (i < chunk.length) {
      if (this.state === 'ended') break
      if (this.state === 'data') {
        const n = Math.min(this.data, chunk.length - i)
        if (this.meta) this.meta.parts.push(chunk.subarray(i, i + n))
        this.data -= n
        i += n
        if (this.data === 0) this.endData()
        continue
      }
      const n = Math.min(BLOCK - this.fill, chunk.length - i)
      if (this.state === 'extension' && this.fill === 0) {
        if (i > keepFrom) pass(chunk.subarray(keepFrom, i))
      }
      chunk.copy(this.block, this.fill, i, i + n)
      this.fill += n
      i += n
      if (this.state === 'extension') keepFrom = i
      if (this.fill < BLOCK) continue
      this.fill = 0
      if (this.state === 'extension') this.onExtension()
      else this.onHeader()
    }
    if (keepFrom < chunk.length) pass(chunk.subarray(keepFrom))
  }

  private endData(): void {
    this.state = 'header'
    const meta = this.meta
    if (!meta) return
    this.meta = undefined
    const text = Buffer.concat(meta.parts).toString('utf8', 0, meta.size)
    if (meta.type === 'g') this.globalExtended = parsePax(text, this.globalExtended)
    else if (meta.type === 'x' || meta.type === 'X') this.extended = parsePax(text, this.extended)
    else this.extended = { ...this.extended, path: text.replace(/\0.*/s, '') }
  }

  private startData(size: number): void {
    this.data = BLOCK * Math.ceil(size / BLOCK)
    if (this.data > 0) this.state = 'data'
    else this.endData()
  }

  private onHeader(): void {
    const block = this.block
    let sum = 256
    for (let j = 0; j < BLOCK; j++) if (j < 148 || j >= 156) sum += block[j]!
    if (sum === 256 && numberField(block, 148, 12) === undefined) {
      this.state = 'ended' // the first zero block ends the archive (TarCheck stops there too)
      return
    }
    const type = textField(block, 156, 1)
    const raw = numberField(block, 124, 12)
    if (META.has(type)) {
      const size = raw ?? 0
      if (META_KEPT.has(type) && size > 0 && size <= this.maxMetaBytes) this.meta = { type, size, parts: [] }
      this.startData(size)
      return
    }
    const ordinary = ORDINARY.has(type)
    const extended = ordinary ? this.extended : undefined
    const global = ordinary ? this.globalExtended : undefined
    let size = extended?.size ?? global?.size ?? raw
    const name = extended?.path ?? textField(block, 0, 100)
    if (type === '5' || ((type === '0' || type === '') && name.endsWith('/'))) size = 0
    this.extended = undefined
    if (type === 'S' && block[482] !== 0) {
      this.afterExtensions = size ?? 0
      this.state = 'extension'
      return
    }
    this.startData(size ?? 0)
  }

  private onExtension(): void {
    this.extensionBlocks++
    if (this.block[504] !== 0) return
    this.startData(this.afterExtensions)
  }
}
