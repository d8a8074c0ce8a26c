// The cloud API operations the action uses. Each call goes through the session for its token.
import * as core from '@actions/core'
import { toServiceError } from '../http/errors.js'
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
}

export interface UploadFile {
  path: string
  fileName: string
  size: number
}

/** Time allowed with no upload progress, and then for the platform to answer after the last byte. */
const UPLOAD_IDLE_TIMEOUT_MS = 5 * 60_000

export class CloudClient {
  constructor(
    private readonly api: CloudApi,
    private readonly session: CloudSession
  ) {}

  async listEnvironments(): Promise<Environment[]> {
    const answer = await this.session.authorized((token) =>
      this.api.call<{ items?: Environment[]; more?: boolean }>({
        operation: 'Listing environments',
        method: 'GET',
        path: '/v3/environments',
        token,
        idempotent: true
      })
    )
    if (answer?.more) core.warning('The platform has more environments than it listed at once; only the first page was searched.')
    return Array.isArray(answer?.items) ? answer.items : []
  }

  async uploadDistribution(file: UploadFile): Promise<Distribution> {
    const body = multipartFile({ field: 'dist_file', ...file })
    return this.session.authorized(async (token) => {
      const progress = new ProgressReporter(`Uploading ${file.fileName}`, file.size, (line) => core.info(line))
      const res = await this.api.transport.send({
        method: 'POST',
        path: '/v3/distributions',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': body.contentType,
          'content-length': String(body.contentLength)
        },
        body: body.open((n) => progress.add(n)),
        idleTimeoutMs: UPLOAD_IDLE_TIMEOUT_MS
      })
      progress.finish()
      if (res.status < 200 || res.status > 299) throw toServiceError('Uploading the distribution', res)
      let record: Partial<Distribution> | undefined
      try {
        record = JSON.parse(res.text) as Partial<Distribution>
      } catch {
        record = undefined
      }
      if (!record || typeof record.id !== 'string' || record.id === '') {
        throw new Error(`Uploading the distribution: the platform answered HTTP ${res.status} without a distribution id`)
      }
      return { id: record.id, name: typeof record.name === 'string' ? record.name : undefined }
    })
  }

  async deploy(environmentId: string, distributionId: string, strategy: string): Promise<void> {
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
  }
}
