// POST /v3/distributions: streams the multipart body, writes the `dist_file` part to disk while hashing it
// and checking that it is a gzip tar. Memory stays flat whatever the file size.
import { createHash, randomUUID, type Hash } from 'node:crypto'
import { once } from 'node:events'
import { createWriteStream, type WriteStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { HttpError } from './http-util.js'
import { boundaryOf, MultipartError, MultipartParser, type MultipartEvent } from './multipart.js'
import type { Handler, RequestContext } from './router.js'
import { authenticate, distributionJson, platformNow, type EmulatorState } from './state.js'
import { GzipTarSniffer } from './tar-sniffer.js'
import { Throttle } from './throttle.js'
import type { RecordedPart, StoredDistribution } from './types.js'

/** Room for the multipart framing and small extra parts on top of the file size limit. */

/** Ids of the 'numeric-id' upload answer: counted across emulators, so no two stacks of one test run share one. */
let nextNumericId = 1000

export const MULTIPART_OVERHEAD = 64 * 1024

interface PartSink {
  record: RecordedPart
  md5: Hash
  sha256: Hash
  /** Set on the one `dist_file` part. */
  file?: { stream: WriteStream | undefined; sniffer: GzipTarSniffer }
}

class Upload {
  readonly parts: RecordedPart[] = []
  private current: PartSink | undefined
  private dist: PartSink | undefined
  private failure: HttpError | undefined
  private bodyBytes = 0
  private readonly id: string
  private readonly parser: MultipartParser

  constructor(
    private readonly state: EmulatorState,
    boundary: string
  ) {
    this.parser = new MultipartParser(boundary)
    // Digits only when the platform is set to answer numeric ids, so the stored string reads as a number.
    this.id = state.settings.uploadAnswer === 'numeric-id' ? String(nextNumericId++) : randomUUID()
  }

  private get max(): number {
    return this.state.settings.maxDistributionBytes
  }

  private fail(error: HttpError): void {
    this.failure ??= error
    this.dist?.file?.sniffer.dispose()
    this.dist?.file?.stream?.destroy()
  }

  /** Feeds one chunk of the body. After a failure the rest of the body is read and discarded. */
  async write(chunk: Buffer): Promise<void> {
    this.bodyBytes += chunk.length
    if (this.failure !== undefined) return
    if (this.bodyBytes > this.max + MULTIPART_OVERHEAD) {
      return this.fail(new HttpError(413, 'DistributionTooLarge', `A distribution may be at most ${this.max} bytes`))
    }
    let events: MultipartEvent[]
    try {
      events = this.parser.write(chunk)
    } catch (err) {
      if (!(err instanceof MultipartError)) throw err
      return this.fail(new HttpError(400, 'InvalidMultipart', err.message))
    }
    for (const event of events) {
      await this.handle(event)
      if (this.failure !== undefined) return
    }
  }

  private async handle(event: MultipartEvent): Promise<void> {
    switch (event.type) {
      case 'part': {
        const record: RecordedPart = { name: event.name ?? '', size: 0, sha256: '', md5: '' }
        if (event.filename !== undefined) record.filename = event.filename
        if (event.contentType !== undefined) record.contentType = event.contentType
        this.parts.push(record)
        const sink: PartSink = { record, md5: createHash('md5'), sha256: createHash('sha256') }
        if (event.name === 'dist_file') {
          if (this.dist !== undefined) {
            return this.fail(new HttpError(400, 'InvalidRequest', 'Exactly one part named "dist_file" is allowed'))
          }
          if (event.filename === undefined || event.filename === '') {
            return this.fail(new HttpError(400, 'InvalidRequest', 'The "dist_file" part must be a file (with a filename)'))
          }
          let stream: WriteStream | undefined
          if (this.state.settings.keepUploads) {
            record.path = join(this.state.settings.storageDir, `${this.id}.tar.gz`)
            stream = createWriteStream(record.path, { flags: 'wx' })
            stream.on('error', (err) => this.fail(new HttpError(500, 'StorageError', err.message)))
          }
          sink.file = { stream, sniffer: new GzipTarSniffer() }
          this.dist = sink
        }
        this.current = sink
        return
      }
      case 'data': {
        const sink = this.current
        if (sink === undefined) return
        const { data } = event
        sink.record.size += data.length
        sink.md5.update(data)
        sink.sha256.update(data)
        if (sink.file === undefined) return
        if (sink.record.size > this.max) {
          return this.fail(new HttpError(413, 'DistributionTooLarge', `A distribution may be at most ${this.max} bytes`))
        }
        const { sniffer, stream } = sink.file
        sniffer.push(data)
        if (sniffer.result?.ok === false) return this.fail(invalidDistribution(sniffer.result.reason))
        if (stream !== undefined && !stream.write(data)) await drained(stream)
        return
      }
      case 'part-end': {
        const sink = this.current
        if (sink === undefined) return
        sink.record.md5 = sink.md5.digest('hex')
        sink.record.sha256 = sink.sha256.digest('hex')
        this.current = undefined
        return
      }
      case 'end':
        return
    }
  }

  /** Call once the body ended: validates and returns the stored distribution, or throws the failure. */
  async finish(user: string): Promise<StoredDistribution> {
    if (this.failure === undefined) {
      try {
        this.parser.end()
      } catch (err) {
        if (!(err instanceof MultipartError)) throw err
        this.fail(new HttpError(400, 'InvalidMultipart', err.message))
      }
    }
    const dist = this.dist
    if (this.failure === undefined && dist?.file === undefined) {
      this.fail(new HttpError(400, 'InvalidRequest', 'A file part named "dist_file" is required'))
    }
    if (this.failure !== undefined || dist?.file === undefined) return this.abort()
    const { stream, sniffer } = dist.file
    if (stream !== undefined) {
      stream.end()
      await once(stream, 'close').catch(() => undefined)
    }
    const sniff = await sniffer.finish()
    if (!sniff.ok) this.fail(invalidDistribution(sniff.reason))
    if (this.failure === undefined && this.state.distributions.length >= this.state.settings.maxDistributions) {
      this.fail(limitReached(this.state.settings.maxDistributions))
    }
    if (this.failure !== undefined) return this.abort()
    const now = platformNow(this.state)
    const stored: StoredDistribution = {
      id: this.id,
      name: dist.record.filename ?? 'distribution.tar.gz',
      createdAt: now,
      createdBy: user,
      modifiedAt: now,
      modifiedBy: user,
      md5hash: dist.record.md5,
      sha256: dist.record.sha256,
      size: dist.record.size
    }
    if (dist.record.path !== undefined) stored.path = dist.record.path
    return stored
  }

  /** Removes whatever was written and throws the failure (or 'aborted' when there is none). */
  async abort(): Promise<never> {
    const failure = this.failure ?? new HttpError(400, 'UploadAborted', 'The upload was aborted')
    this.fail(failure)
    const path = this.dist?.record.path
    if (path !== undefined) {
      // The file is opened asynchronously: remove it only once its stream is closed, or the open may land after the rm.
      const stream = this.dist?.file?.stream
      if (stream !== undefined && !stream.closed) await once(stream, 'close').catch(() => undefined)
      await rm(path, { force: true })
      delete this.dist?.record.path
    }
    throw failure
  }
}

/** Resolves on 'drain', or when the stream closed or failed (its 'error' listener records the failure). */
function drained(stream: WriteStream): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done)
      stream.off('close', done)
      resolve()
    }
    stream.on('drain', done)
    stream.on('close', done)
  })
}

function invalidDistribution(reason: string): HttpError {
  return new HttpError(400, 'InvalidDistribution', `${reason}; a distribution must be a .tar.gz file`)
}

function limitReached(max: number): HttpError {
  return new HttpError(409, 'DistributionLimitReached', `At most ${max} distributions can be stored; delete one first`)
}

export function uploadHandler(state: EmulatorState): Handler {
  return async (ctx: RequestContext) => {
    const { req } = ctx
    const user = authenticate(state, req)
    const contentType = req.headers['content-type']
    const boundary = boundaryOf(contentType)
    if (boundary === undefined) {
      if (contentType !== undefined && /^\s*multipart\/form-data\s*(;|$)/i.test(contentType)) {
        throw new HttpError(400, 'InvalidMultipart', 'The multipart/form-data content type has no valid boundary')
      }
      throw new HttpError(415, 'UnsupportedMediaType', 'A distribution is uploaded as multipart/form-data')
    }
    const max = state.settings.maxDistributionBytes
    const declared = Number(req.headers['content-length'] ?? '0')
    if (Number.isFinite(declared) && declared > max + MULTIPART_OVERHEAD) {
      throw new HttpError(413, 'DistributionTooLarge', `A distribution may be at most ${max} bytes`, {}, true)
    }
    if (state.distributions.length >= state.settings.maxDistributions) throw limitReached(state.settings.maxDistributions)

    const upload = new Upload(state, boundary)
    ctx.record.parts = upload.parts
    const rate = state.settings.uploadBytesPerSecond
    const throttle = rate !== undefined && rate > 0 ? new Throttle(rate) : undefined
    try {
      // Never leave this loop early: that would destroy the socket before an answer could be sent.
      for await (const chunk of req as AsyncIterable<Buffer>) {
        if (throttle !== undefined) await throttle.take(chunk.length)
        await upload.write(chunk)
      }
    } catch (err) {
      await upload.abort().catch(() => undefined)
      throw err
    }
    const stored = await upload.finish(user)
    state.distributions.push(stored)
    const record = distributionJson(stored, state.settings.uploadAnswer === 'numeric-id', state.settings.md5Case, state.settings.idCase)
    const location = { location: `/v3/distributions/${stored.id}` }
    // Public clients accept 200 or 201 and read the record; the status and Location are the emulator's own.
    ctx.invent('status-201', 'location-header')
    switch (state.settings.uploadAnswer) {
      case 'no-id': {
        const { id: _id, ...withoutId } = record
        ctx.send(201, withoutId, location)
        return
      }
      case 'empty':
        ctx.send(201, undefined, location)
        return
      default:
        ctx.send(201, record, location)
    }
  }
}
