// The cloud API operations the action uses. Each is one user-visible operation with its own
// attempts (CloudApi.retrying); each call inside it gets its token from the session. Operations that
// change something are replayed only once a replay is known to be safe.
import * as core from '@actions/core'
import { describeError, ServiceError } from '../errors.js'
import { formatDelay } from '../format.js'
import type { Method } from '../http/transport.js'
import { ProgressReporter } from '../progress.js'
import type { CloudApi } from './api.js'
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
    options: ClientOptions = {}
  ) {
    this.now = options.now ?? Date.now
  }

  /** One authorized JSON call, one attempt (a 401 renews the token and replays it once). */
  private call<T>(operation: string, method: Method, path: string, json?: unknown): Promise<T> {
    return this.session.authorized((token) => this.api.json<T>({ operation, method, path, token, json }))
  }

  async listEnvironments(): Promise<Environment[]> {
    const operation = 'Listing environments'
    const answer = await this.api.retrying(operation, () => this.call<{ items?: Environment[]; more?: boolean }>(operation, 'GET', '/v3/environments'))
    if (answer?.more) core.warning('The platform has more environments than it listed at once; only the first page was searched.')
    return Array.isArray(answer?.items) ? answer.items : []
  }

  /** Every distribution of the stack, page by page (one operation: a failed page retries the listing). */
  async listDistributions(): Promise<Distribution[]> {
    const operation = 'Listing distributions'
    return this.api.retrying(operation, async () => {
      const all: Distribution[] = []
      for (let offset = 0; ; offset += PAGE) {
        const page = await this.call<{ items?: Distribution[]; more?: boolean }>(operation, 'GET', `/v3/distributions?offset=${offset}&max=${PAGE}`)
        const items = Array.isArray(page?.items) ? page.items : []
        all.push(...items)
        if (!page?.more || items.length === 0) return all
      }
    })
  }

  async deleteDistribution(id: string): Promise<void> {
    const operation = `Deleting distribution ${id}`
    await this.api.retrying(operation, () => this.call<unknown>(operation, 'DELETE', `/v3/distributions/${encodeURIComponent(id)}`))
  }

  /**
   * Uploads from disk; every attempt streams the file afresh. When an attempt fails after the whole
   * body was sent (the answer was lost), the next one first looks for the stored upload, same name
   * and MD5, stored since the first attempt began, and adopts it instead of uploading a duplicate.
   */
  async uploadDistribution(file: UploadFile): Promise<UploadResult> {
    const operation = 'Uploading the distribution'
    const body = multipartFile({ field: 'dist_file', path: file.path, fileName: file.fileName, size: file.size })
    const began = this.now()
    let bodySent = false
    return this.api.retrying(
      operation,
      async (attempts) => {
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
          const res = await this.api
            .stream({
              operation,
              path: '/v3/distributions',
              token,
              contentType: body.contentType,
              contentLength: body.contentLength,
              body: body.open((n) => {
                progress.add(n)
                sent += n
                if (sent === file.size) bodySent = true
              })
            })
            .catch((error: unknown) => {
              throw error instanceof ServiceError ? withUploadHint(error) : error
            })
          progress.finish()
          return parseDistribution(res.text, res.status)
        })
        return { ...uploaded, adopted: false, attempts }
      },
      (error, attempt, delay) => ({
        level: 'warning',
        message: `Upload attempt ${attempt} failed (${describeError(error)}); trying again in ${formatDelay(delay)} from the file on disk.`
      })
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
    const operation = 'Deploying the distribution'
    return this.api.retrying(
      operation,
      async (attempts) => {
        if (attempts > 1) {
          const env = (await this.listEnvironments()).find((e) => e.id === environmentId)
          if (env?.distributionId === distributionId) {
            core.info('The environment already runs this distribution: the earlier deploy request went through.')
            return { attempts }
          }
        }
        await this.call<unknown>(operation, 'PUT', `/v3/environments/${encodeURIComponent(environmentId)}/deploy`, { distributionId, strategy })
        return { attempts }
      },
      (error, attempt, delay) => ({
        level: 'warning',
        message: `Deploy attempt ${attempt} failed (${describeError(error)}); checking the environment and trying again in ${formatDelay(delay)}.`
      })
    )
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
