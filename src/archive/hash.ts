// A pass-through that computes size, sha256 and md5 of everything that flows through it.
import { createHash } from 'node:crypto'
import { Transform, type TransformCallback } from 'node:stream'

export interface Digests {
  size: number
  sha256: string
  md5: string
}

export class HashingStream extends Transform {
  private readonly sha256 = createHash('sha256')
  private readonly md5 = createHash('md5')
  private bytes = 0
  private result: Digests | undefined

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.sha256.update(chunk)
    this.md5.update(chunk)
    this.bytes += chunk.length
    callback(null, chunk)
  }

  /** Bytes seen so far. */
  get size(): number {
    return this.bytes
  }

  /** The digests of everything seen; call once the stream has finished (the result is then fixed). */
  digests(): Digests {
    this.result ??= { size: this.bytes, sha256: this.sha256.digest('hex'), md5: this.md5.digest('hex') }
    return this.result
  }
}
