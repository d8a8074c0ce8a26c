// The cloud API operations the action uses. Each call goes through the session for its token and
// through the one retry helper; calls that change something are replayed only when that is safe.
import * as core from '@actions/core'
import { ServiceError } from '../errors.js'
import { isTransient, toServiceError } from '../http/errors.js'
import { withRetry } from '../http/retry.js'
import { ProgressReporter } from '../progress.js'
import { describe, type CloudApi, type RetryPolicy } from './api.js'
import { multipartFile } from './multipart.js'
import type { CloudSession } from './session.js'

export interface Environment {
  id: string
  name: string
  distributionId?: string | null
}

export interface Distribution {
  id: string
  name?: string
  createdAt?: string
  md5hash?: string
}

export interface UploadFile {
  path: string
  fileName: string
  size: number
  md5: string
}

export interface UploadResult extends Distribution {
  /** True when a lost answer was recovered by finding the stored upload instead of sending it again. */
  adopted: boolean
  attempts: number
}

export interface ClientOptions {
  retry: RetryPolicy
  /** Time allowed with no upload progress, and then for the platform to answer after the last byte. */
  uploadIdleTimeoutMs: number
  now?: () => number
}

/** How far the platform's clock may run behind ours when we ask "was this stored after we began?". */
const CLOCK_SKEW_MS = 5 * 60_000
const PAGE = 100

export class CloudClient {
  private readonly now: () => number

  constructor(
    private readonly api: CloudApi,
    private readonly session: CloudSession,
    private readonly options: ClientOptions
  ) {
    this.now = options.now ?? Date.now
  }

  async listEnvironments(): Promise<Environment[]> {
    const answer = await this.session.authorized((token) =>
      this.api.call<{ items?: Environment[]; more?: boolean }>({ operation: 'Listing environments', method: 'GET', path: '/v3/environments', token, idempotent: true })
    )
    if (answer?.more) core.warning('The platform has more environments than it listed at once; only the first page was searched.')
    return Array.isArray(answer?.items) ? answer.items : []
  }

  /** Every distribution of the stack, page by page. */
  async listDistributions(): Promise<Distribution[]> {
    const all: Distribution[] = []
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.session.authorized((token) =>
        this.api.call<{ items?: Distribution[]; more?: boolean }>({
          operation: 'Listing distributions',
          method: 'GET',
          path: `/v3/distributions?offset=${offset}&max=${PAGE}`,
          token,
          idempotent: true
        })
      )
      const items = Array.isArray(page?.items) ? page.items : []
      all.push(...items)
      if (!page?.more || items.length === 0) return all
    }
  }

  async deleteDistribution(id: string): Promise<void> {
    await this.session.authorized((token) =>
      this.api.call<unknown>({ operation: `Deleting distribution ${id}`, method: 'DELETE', path: `/v3/distributions/${encodeURIComponent(id)}`, token, idempotent: true })
    )
  }

  /**
   * Uploads from disk; every attempt streams the file afresh. When an attempt fails after the whole
   * body was sent (the answer was lost), the next one first looks for the stored upload, same name
   * and MD5, stored since the first attempt began, and adopts it instead of uploading a duplicate.
   */
  async uploadDistribution(file: UploadFile): Promise<UploadResult> {
    const body = multipartFile({ field: 'dist_file', path: file.path, fileName: file.fileName, size: file.size })
    const began = this.now()
    let bodySent = false
    let attempts = 0
    return withRetry(
      async (attempt) => {
        attempts = attempt
        if (bodySent) {
          const stored = await this.findStoredUpload(file, began)
          if (stored) {
            core.info(`The platform had stored the upload before its answer was lost: adopting distribution ${stored.id} instead of uploading a duplicate.`)
            return { ...stored, adopted: true, attempts }
          }
          core.info('No stored copy of the previous attempt was found; uploading again.')
        }
        bodySent = false
        const uploaded = await this.session.authorized(async (token) => {
          const progress = new ProgressReporter(`Uploading ${file.fileName}`, file.size, (line) => core.info(line))
          let sent = 0
          const res = await this.api.transport.send({
            method: 'POST',
            path: '/v3/distributions',
            headers: { authorization: `Bearer ${token}`, 'content-type': body.contentType, 'content-length': String(body.contentLength) },
            body: body.open((n) => {
              progress.add(n)
              sent += n
              if (sent === file.size) bodySent = true
            }),
            idleTimeoutMs: this.options.uploadIdleTimeoutMs
          })
          progress.finish()
          if (res.status < 200 || res.status > 299) throw withUploadHint(toServiceError('Uploading the distribution', res))
          return parseDistribution(res.text, res.status)
        })
        return { ...uploaded, adopted: false, attempts }
      },
      {
        ...this.options.retry,
        retryable: isTransient,
        onRetry: (error, attempt, delay) =>
          core.warning(`Upload attempt ${attempt} failed (${describe(error)}); trying again in ${(delay / 1000).toFixed(1)} s from the file on disk.`)
      }
    )
  }

  private async findStoredUpload(file: UploadFile, began: number): Promise<Distribution | undefined> {
    const since = began - CLOCK_SKEW_MS
    const matches = (await this.listDistributions()).filter((d) => {
      const created = d.createdAt ? Date.parse(d.createdAt) : Number.NaN
      return d.name === file.fileName && d.md5hash === file.md5 && !(created < since)
    })
    matches.sort((a, b) => Date.parse(b.createdAt ?? '') - Date.parse(a.createdAt ?? ''))
    return matches[0]
  }

  /**
   * Asks for the deployment. Replayed after a transient failure only once the environment is seen
   * not to run the distribution already, so a lost answer never restarts the environment twice.
   */
  async deploy(environmentId: string, distributionId: string, strategy: string): Promise<{ attempts: number }> {
    let attempts = 0
    await withRetry(
      async (attempt) => {
        attempts = attempt
        if (attempt > 1) {
          const env = (await this.listEnvironments()).find((e) => e.id === environmentId)
          if (env?.distributionId === distributionId) {
            core.info('The environment already runs this distribution: the earlier deploy request went through.')
            return
          }
        }
        await this.session.authorized((token) =>
          this.api.call<unknown>({
            operation: 'Deploying the distribution',
            method: 'PUT',
            path: `/v3/environments/${encodeURIComponent(environmentId)}/deploy`,
            json: { distributionId, strategy },
            token,
            idempotent: false
          })
        )
      },
      {
        ...this.options.retry,
        retryable: isTransient,
        onRetry: (error, attempt, delay) => core.warning(`Deploy attempt ${attempt} failed (${describe(error)}); checking the environment and trying again in ${(delay / 1000).toFixed(1)} s.`)
      }
    )
    return { attempts }
  }
}

/** Adds what to do when the platform refuses an upload because the stack is full. */
function withUploadHint(error: ServiceError): ServiceError {
  if (!/limit|too ?many|maximum/i.test(`${error.errorCode ?? ''} ${error.errorDetail ?? ''}`) || error.status === 413) return error
  return new ServiceError(
    `${error.message}. The stack holds as many distributions as the platform allows (100 by default): set max-distributions ` +
      `(e.g. 50) to delete the oldest ones that no environment runs before each upload, or delete some in the console.`,
    error.status,
    error.errorCode,
    error.errorDetail,
    error.retryAfterMs
  )
}

function parseDistribution(text: string, status: number): Distribution {
  let record: Partial<Distribution> | undefined
  try {
    record = JSON.parse(text) as Partial<Distribution>
  } catch {
    record = undefined
  }
  if (!record || typeof record.id !== 'string' || record.id === '') {
    throw new Error(`Uploading the distribution: the platform answered HTTP ${status} without a distribution id`)
  }
  return { id: record.id, name: typeof record.name === 'string' ? record.name : undefined }
}
