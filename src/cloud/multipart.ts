// A multipart/form-data body with one file part, streamed (from disk, or from the packer as it reads
// the tree) with an exact Content-Length, so the archive is never held in memory and the server knows
// the size up front.
import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import type { ArchiveBytes } from '../archive/index.js'

export interface MultipartFile {
  field: string
  fileName: string
  /** Exactly the bytes `bytes` gives: more or fewer fail the body before its closing boundary. */
  size: number
  bytes: ArchiveBytes
  /**
   * Must resolve before the body's closing boundary is sent (the archive's check, running beside the
   * upload); when it rejects, the stream fails at once with its error, so the server never receives
   * a whole request and stores nothing.
   */
  gate?: Promise<unknown> | undefined
}

export interface MultipartBody {
  contentType: string
  contentLength: number
  /** A fresh stream over the whole body; call again to replay the upload. */
  open(onBytes?: (n: number) => void): Readable
}

/** Quotes a file name for Content-Disposition (RFC 7578: escape quotes, drop line breaks). */
function quoteFileName(name: string): string {
  return name.replace(/[\r\n]/g, '').replace(/"/g, '%22')
}

export function multipartFile(file: MultipartFile): MultipartBody {
  const boundary = `----brcloud-deploy-${randomBytes(16).toString('hex')}`
  const head = Buffer.from(
    `--${boundary}\r\n` +
      `Content-Disposition: form-data; name="${file.field}"; filename="${quoteFileName(file.fileName)}"\r\n` +
      `Content-Type: application/gzip\r\n\r\n`,
    'utf8'
  )
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8')
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    contentLength: head.length + file.size + tail.length,
    open(onBytes) {
      // The gate's failure, as soon as it is known: the stream stops at the next chunk.
      let refused: { reason: unknown } | undefined
      file.gate?.catch((reason: unknown) => (refused = { reason }))
      async function* parts(): AsyncGenerator<Buffer> {
        yield head
        let sent = 0
        for await (const chunk of file.bytes()) {
          if (refused) throw refused.reason
          sent += chunk.length
          if (sent > file.size) break
          onBytes?.(chunk.length)
          yield chunk
        }
        if (sent !== file.size) {
          throw new Error(`${file.fileName} changed while it was being uploaded (expected ${file.size} bytes, read ${sent})`)
        }
        await file.gate // the closing boundary only once the archive is known to be sound
        yield tail
      }
      return Readable.from(parts(), { objectMode: false })
    }
  }
}
