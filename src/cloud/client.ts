// The cloud API operations the action uses. Each is one user-visible operation with its own
// attempts (CloudApi.retrying); each call inside it gets its token from the session. Operations that
// change something are replayed only once a replay is known to be safe.
import * as core from '../port.js'
import { sameId } from './platform-reading.js'
import type { ArchiveBytes } from '../archive/index.js'
import { describeError, InputError, ServiceError } from '../errors.js'
import { formatDelay } from '../format.js'
import type { Method } from '../http/transport.js'
import { ProgressReporter } from '../progress.js'
import type { CloudApi } from './api.js'
import { sameDistributionName } from './distribution-name.js'
import { multipartFile, type MultipartBody } from './multipart.js'
import type { CloudSession } from './session.js'

export interface Environment {
  id: string
  name: string
  distributionId?: string | null
  /** Status fields the platform answers with (status, state, ...), shown to the user; nothing depends on them. */
  status?: string | undefined
}

/** A repository backup of an environment, as `GET /v3/backups` lists it (public facts: `{id, environmentId, createdAt}`). */
export interface Backup {
  readonly id: string
  readonly environmentId: string
  /** When it was taken: the platform's ISO 8601 text, and its instant (NaN when the text is no date). */
  readonly createdAt: string
  readonly createdAtMs: number
}

/** An application configuration file of the stack. */
export interface AppConfigFile {
  id: string
  name: string
}

/** The stack's environments, and whether that is all of them (a platform may page the list, or fail to). */
export interface EnvironmentList {
  items: Environment[]
  /** False when the platform said there were more but would not list them: never act on what is missing. */
  complete: boolean
}

export interface Distribution {
  id: string
  name?: string
  createdAt?: string
  /** Who uploaded it, as the platform names them. */
  createdBy?: string
  md5hash?: string
}

export interface UploadFile {
  /** The archive's bytes, read again for each attempt. */
  bytes: ArchiveBytes
  fileName: string
  size: number
  /**
   * A given archive's check: the upload sends its closing boundary only once this resolved, and stops
   * at once when it rejects (see multipart.ts). Absent for a packed directory, whose bytes check
   * themselves as they are read (a file changed since it was listed fails the read with an InputError).
   */
  gate?: Promise<unknown> | undefined
  /** The MD5 of the bytes sent, asked only once a whole body was: it finds a stored copy after a lost answer. */
  md5(): Promise<string>
  /**
   * Whether the platform may hold an upload nobody confirmed: true once a whole body was sent, false
   * again when an answer came (stored, or refused: either way it is known).
   */
  onUnconfirmed?: ((unconfirmed: boolean) => void) | undefined
  /** How many distributions the stack held before this upload, when they were listed: tells a full stack whatever the refusal's wording. */
  storedBefore?: number | undefined
  /**
   * The ids of the distributions listed before this upload: a stored copy of it is one not among them. Without
   * it, one dated since the upload began (less the clock skew allowed) is taken, which a platform clock further off misses.
   */
  knownBefore?: ReadonlySet<string> | undefined
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
/** A bound on paging, against a platform that says "more" forever. */
const MAX_PAGES = 1000

interface Page {
  items?: unknown
  more?: boolean
}

/** An id as the platform sends it: a string, or a number (read as its decimal string). */
function idOf(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value)
  return undefined
}

/**
 * A backup's createdAt: ISO 8601 text as the public tool reads it, or (a reading no public source rules out) a number of
 * milliseconds or seconds since 1970; its instant is NaN when the text is no date, so the rule never trusts it.
 */
function backupTime(value: unknown): { createdAt: string; createdAtMs: number } | undefined {
  if (typeof value === 'string' && value !== '') return { createdAt: value, createdAtMs: Date.parse(value) }
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined
  const ms = value < 1e11 ? value * 1000 : value
  return { createdAt: new Date(ms).toISOString(), createdAtMs: ms }
}

function records(items: unknown): Array<Record<string, unknown>> {
  return Array.isArray(items) ? items.filter((i): i is Record<string, unknown> => typeof i === 'object' && i !== null) : []
}

/** Fields that may tell how a deployment is going; the public API documents none of them. */
const STATUS_FIELDS = ['status', 'state', 'deploymentStatus', 'deployStatus'] as const

function toEnvironment(r: Record<string, unknown>): Environment | undefined {
  const id = idOf(r.id)
  if (id === undefined || typeof r.name !== 'string') return undefined
  const status = STATUS_FIELDS.map((f) => r[f]).find((v): v is string => typeof v === 'string' && v !== '')
  return { id, name: r.name, distributionId: idOf(r.distributionId) ?? null, status }
}

function toDistribution(r: Record<string, unknown>): Distribution | undefined {
  const id = idOf(r.id)
  if (id === undefined) return undefined
  const d: Distribution = { id }
  if (typeof r.name === 'string') d.name = r.name
  if (typeof r.createdAt === 'string') d.createdAt = r.createdAt
  if (typeof r.createdBy === 'string') d.createdBy = r.createdBy
  if (typeof r.md5hash === 'string') d.md5hash = r.md5hash
  return d
}

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
  private call<T>(
    operation: string,
    method: Method,
    path: string,
    json?: unknown,
    timeoutMs?: number,
    onDispatch?: (event: 'sent' | 'refused') => void,
    beforeSend?: () => void
  ): Promise<T> {
    return this.session.authorized((token) => {
      // Once the token is in hand (a renewal may have taken time), right before the call goes out.
      beforeSend?.()
      return this.api.json<T>({
        operation,
        method,
        path,
        token,
        json,
        ...(timeoutMs !== undefined && { timeoutMs }),
        ...(onDispatch !== undefined && { onDispatch })
      })
    })
  }

  /**
   * Every page of a list (one operation: a failed page retries the listing). The next offset
   * advances by the items received, which may be fewer than asked for. `first` is the path of the
   * first page; `next(offset)` of the later ones. Incomplete when the platform says there are more
   * but a page brings nothing new (it ignores the offset, or answers empty).
   */
  private listAll<T extends { id: string }>(
    operation: string,
    first: string,
    next: (offset: number) => string,
    read: (r: Record<string, unknown>) => T | undefined
  ): Promise<{ items: T[]; complete: boolean }> {
    return this.api.retrying(operation, async () => {
      const seen = new Map<string, T>()
      let offset = 0
      for (let path = first, page = 0; page < MAX_PAGES; page++, path = next(offset)) {
        const answer = await this.call<Page | undefined>(operation, 'GET', path)
        const raw = records(answer?.items)
        const before = seen.size
        for (const item of raw.map(read)) if (item !== undefined) seen.set(item.id, item)
        offset += raw.length
        if (answer?.more !== true) return { items: [...seen.values()], complete: true }
        if (seen.size === before) break
      }
      return { items: [...seen.values()], complete: false }
    })
  }

  /** The stack's environments. The first page is asked for as the platform documents it; later ones with offset and max, as distributions are. */
  async listEnvironments(): Promise<EnvironmentList> {
    return this.listAll('Listing environments', '/v3/environments', (offset) => `/v3/environments?offset=${offset}&max=${PAGE}`, toEnvironment)
  }

  /**
   * The environment of that exact name, or undefined. When the list is incomplete, asks the
   * platform for that one name (`?name=`, which answers the environment itself) before saying no.
   */
  async findEnvironment(name: string): Promise<{ environment: Environment | undefined; list: EnvironmentList }> {
    const list = await this.listEnvironments()
    const listed = list.items.find((e) => e.name === name)
    if (listed !== undefined || list.complete) return { environment: listed, list }
    const answer = await this.lookUp(`Looking up environment '${name}'`, `/v3/environments?name=${encodeURIComponent(name)}`)
    const found = answer === undefined ? undefined : toEnvironment(answer)
    return { environment: found?.name === name ? found : undefined, list }
  }

  /** Every distribution of the stack, page by page; throws when the platform would not list them all. */
  async listDistributions(): Promise<Distribution[]> {
    const { items, complete } = await this.listAll(
      'Listing distributions',
      `/v3/distributions?offset=0&max=${PAGE}`,
      (offset) => `/v3/distributions?offset=${offset}&max=${PAGE}`,
      toDistribution
    )
    if (!complete) throw new Error(`Listing distributions: the platform said it holds more than the ${items.length} it listed, but would not list the rest`)
    return items
  }

  /** One record by its path, or undefined when the platform answers 404. */
  private lookUp(operation: string, path: string): Promise<Record<string, unknown> | undefined> {
    return this.api.retrying(operation, () =>
      this.call<Record<string, unknown> | undefined>(operation, 'GET', path).catch((error: unknown) => {
        if (error instanceof ServiceError && error.status === 404) return undefined
        throw error
      })
    )
  }

  /** The distribution with that id, or undefined when the stack has none. */
  async getDistribution(id: string): Promise<Distribution | undefined> {
    const record = await this.lookUp(`Looking up distribution ${id}`, `/v3/distributions/${encodeURIComponent(id)}`)
    return record === undefined ? undefined : toDistribution(record)
  }

  /** A listing the platform answers in one call: an array, or a page of items; its records, one operation with its attempts. */
  private async listOnce(operation: string, path: string): Promise<Array<Record<string, unknown>>> {
    const answer = await this.api.retrying(operation, () => this.call<unknown>(operation, 'GET', path))
    return records(Array.isArray(answer) ? answer : (answer as Page | undefined)?.items)
  }

  /** The stack's application configuration files (an array, or a page of items). */
  async listAppConfigFiles(): Promise<AppConfigFile[]> {
    return (await this.listOnce('Listing application configuration files', '/v3/appconfigfiles')).flatMap((r) => {
      const id = idOf(r.id)
      return id !== undefined && typeof r.name === 'string' ? [{ id, name: r.name }] : []
    })
  }

  /** The stack's repository backups (an array, or a page of items); entries without an id, environment or date are left out. */
  async listBackups(): Promise<Backup[]> {
    return (await this.listOnce('Listing backups', '/v3/backups')).flatMap((r) => {
      const id = idOf(r.id)
      const environmentId = idOf(r.environmentId)
      const createdAt = backupTime(r.createdAt)
      if (id === undefined || environmentId === undefined || createdAt === undefined) return []
      return [{ id, environmentId, ...createdAt }]
    })
  }

  async deleteDistribution(id: string): Promise<void> {
    const operation = `Deleting distribution ${id}`
    await this.api.retrying(operation, () => this.call<unknown>(operation, 'DELETE', `/v3/distributions/${encodeURIComponent(id)}`))
  }

  /**
   * Uploads from disk; every attempt streams the file afresh. When an attempt fails after the whole
   * body was sent (the answer was lost), the next one first looks for the stored upload, same name
   * and MD5, not listed before the upload (see UploadFile.knownBefore), and adopts it instead of uploading a duplicate.
   */
  async uploadDistribution(file: UploadFile): Promise<UploadResult> {
    const operation = 'Uploading the distribution'
    const body = multipartFile({ field: 'dist_file', bytes: file.bytes, fileName: file.fileName, size: file.size, gate: file.gate })
    const began = this.now()
    let bodySent = false
    return this.api.retrying(
      operation,
      async (attempts) => {
        if (bodySent) {
          const adopted = await this.adoptLostUpload(file, began, attempts)
          if (adopted) return adopted
        }
        bodySent = false
        const uploaded = await this.sendUpload(operation, file, body, () => (bodySent = true))
        return this.uploadedDistribution(uploaded, file, began, attempts)
      },
      (error, attempt, delay) => ({
        level: 'warning',
        message: `Upload attempt ${attempt} failed (${describeError(error)}); trying again in ${formatDelay(delay)} with the same bytes.`
      })
    )
  }

  /** After an attempt whose whole body was sent but whose answer was lost: the upload the platform stored, adopted, if it did. */
  private async adoptLostUpload(file: UploadFile, began: number, attempts: number): Promise<UploadResult | undefined> {
    const stored = await this.findStoredUpload(file, began)
    if (stored) {
      core.info(`The platform had stored the upload before its answer was lost: adopting distribution ${stored.id} instead of uploading a duplicate.`)
      return { ...stored, adopted: true, attempts }
    }
    core.info('No stored copy of the previous attempt was found; uploading again.')
    return undefined
  }

  /**
   * One attempt's request: the body streamed with its progress. `wholeBodySent` is told (and the file's
   * onUnconfirmed) when its last byte went out before any answer: from then on, a lost answer may hide a stored upload.
   */
  private sendUpload(operation: string, file: UploadFile, body: MultipartBody, wholeBodySent: () => void): Promise<UploadAnswer> {
    return this.session.authorized(async (token) => {
      const progress = new ProgressReporter(`Uploading ${file.fileName}`, file.size, (line) => core.info(line))
      let sent = 0
      // A refusal can come before the platform read the whole body (a 413 on the first megabytes); the
      // stream may still drain after it: bytes sent after an answer are not an upload awaiting one.
      let answered = false
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
            if (sent === file.size && !answered) {
              wholeBodySent()
              file.onUnconfirmed?.(true)
            }
          })
        })
        .catch((error: unknown) => uploadFailure(error, file, () => (answered = true)))
      progress.finish()
      return { record: readRecord(res.text), status: res.status }
    })
  }

  /** The distribution an answered upload stored: named by the answer, or, when the answer names no id, found by name and MD5. */
  private async uploadedDistribution(uploaded: UploadAnswer, file: UploadFile, began: number, attempts: number): Promise<UploadResult> {
    const stored = uploaded.record === undefined ? undefined : toDistribution(uploaded.record)
    if (stored !== undefined) return { ...stored, adopted: false, attempts }
    // Stored, but the answer names no id (an empty body, another shape): find it as after a lost answer.
    const found = await this.findStoredUpload(file, began)
    if (found === undefined) {
      throw new Error(
        `Uploading the distribution: the platform answered HTTP ${uploaded.status} without a distribution id, and no distribution named ` +
          `${file.fileName} with this MD5 was found on the stack afterwards`
      )
    }
    core.info(`The platform answered HTTP ${uploaded.status} without a distribution id; found the upload by its name and MD5: distribution ${found.id}.`)
    return { ...found, adopted: false, attempts }
  }

  private async findStoredUpload(file: UploadFile, began: number): Promise<Distribution | undefined> {
    const isNew = newSince(file.knownBefore, began - CLOCK_SKEW_MS)
    const md5 = await file.md5()
    const matches = (await this.listDistributions()).filter((d) => sameDistributionName(d.name, file.fileName) && sameMd5(d.md5hash, md5) && isNew(d))
    matches.sort((a, b) => Date.parse(b.createdAt ?? '') - Date.parse(a.createdAt ?? ''))
    return matches[0]
  }

  /**
   * One deploy request, one attempt, never replayed here: whether a replay is safe depends on what the
   * environment shows (a lost answer may have been carried out), which the release decides (deploy/switch.ts).
   */
  async requestDeploy(
    environmentId: string,
    distributionId: string,
    strategy: string,
    configFileIds: readonly string[] = [],
    timeoutMs?: number,
    onDispatch?: (event: 'sent' | 'refused') => void,
    beforeSend?: () => void
  ): Promise<void> {
    const roles = configFileIds.map((appConfigFileId) => ({ appConfigFileId, role: 'systemproperty' }))
    const body = roles.length > 0 ? { distributionId, strategy, appConfigFileRoles: roles } : { distributionId, strategy }
    await this.call<unknown>(
      'Deploying the distribution',
      'PUT',
      `/v3/environments/${encodeURIComponent(environmentId)}/deploy`,
      body,
      timeoutMs,
      onDispatch,
      beforeSend
    )
  }
}

/** What the platform answered an upload with: its record, when the body was one, and the HTTP status. */
interface UploadAnswer {
  readonly record: Record<string, unknown> | undefined
  readonly status: number
}

/**
 * Why an upload's request failed, as the operation reports it. A refused archive stopped the stream: its reason, not
 * the connection's, is the failure. An answer from the platform (`answered`) means the body was not an upload awaiting one.
 */
async function uploadFailure(error: unknown, file: UploadFile, answered: () => void): Promise<never> {
  if (error instanceof InputError) throw error
  const refused = await file.gate?.then(
    () => undefined,
    (reason: unknown) => reason
  )
  if (refused !== undefined) throw refused
  if (error instanceof ServiceError) {
    answered()
    file.onUnconfirmed?.(false)
  }
  throw error instanceof ServiceError ? withUploadHint(error, file.storedBefore) : error
}

/**
 * Whether a listed distribution appeared since the upload began: not among the ids listed before it (in any
 * letter case), or, when those are not known, not dated before `since` (an undated one counts as new).
 */
function newSince(knownBefore: ReadonlySet<string> | undefined, since: number): (d: Distribution) => boolean {
  if (knownBefore !== undefined) return (d) => ![...knownBefore].some((id) => sameId(id, d.id))
  return (d) => !((d.createdAt ? Date.parse(d.createdAt) : Number.NaN) < since)
}

/** MD5s compare as hex, whatever case the platform writes them in. */
export function sameMd5(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase()
}

/** The platform's documented default limit of distributions per stack. */
export const DEFAULT_MAX_DISTRIBUTIONS = 100

/**
 * Adds what to do when the platform refuses an upload that a full stack explains: keyed on the status
 * (409 or 422: the stack's state refuses it) and on how many distributions it held, never on the
 * answer's wording, which is not public (the emulator's own text is invented).
 */
function withUploadHint(error: ServiceError, storedBefore: number | undefined): ServiceError {
  const full = storedBefore !== undefined && storedBefore >= DEFAULT_MAX_DISTRIBUTIONS
  const refusedByState = error.status === 409 || error.status === 422
  if (!(refusedByState || (full && error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 413))) return error
  const held = storedBefore === undefined ? '' : ` It held ${storedBefore} before this upload.`
  return new ServiceError(
    `${error.message}. The stack may hold as many distributions as the platform allows (${DEFAULT_MAX_DISTRIBUTIONS} by default).${held} Set max-distributions ` +
      `(e.g. 50) to delete the oldest ones that no environment runs before each upload, or delete some in the console.`,
    error.status,
    error.errorCode,
    error.errorDetail,
    error.retryAfterMs
  )
}

/** The JSON object of an answer, or undefined when the body is empty or not an object. */
function readRecord(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}
