// Pulls exact byte counts out of a stream of chunks: the tar index reads headers with it, the zip
// reader a local file header followed by its data.

export class ByteReader {
  private chunks: Buffer[] = []
  private buffered = 0
  /** Bytes consumed so far. */
  position = 0

  constructor(private readonly source: AsyncIterator<Buffer>) {}

  private async fill(n: number): Promise<boolean> {
    while (this.buffered < n) {
      const next = await this.source.next()
      if (next.done === true) return false
      this.chunks.push(next.value)
      this.buffered += next.value.length
    }
    return true
  }

  /** Exactly `n` bytes, or undefined when the stream ends first. */
  async read(n: number): Promise<Buffer | undefined> {
    if (!(await this.fill(n))) return undefined
    const all = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks)
    const rest = all.subarray(n)
    this.chunks = rest.length > 0 ? [rest] : []
    this.buffered = rest.length
    this.position += n
    return all.subarray(0, n)
  }

  /** Yields the next `n` bytes as they come, without holding them all; throws when the stream ends first. */
  async *take(n: number): AsyncGenerator<Buffer> {
    let left = n
    while (left > 0) {
      if (this.buffered === 0 && !(await this.fill(1))) throw new Error('The archive ends inside an entry')
      const chunk = this.chunks.shift() as Buffer
      const part = chunk.subarray(0, left)
      if (chunk.length > left) this.chunks.unshift(chunk.subarray(left))
      this.buffered -= part.length
      this.position += part.length
      left -= part.length
      yield part
    }
  }

  async skip(n: number): Promise<void> {
    for await (const _ of this.take(n)) {
      // discarded
    }
  }
}
