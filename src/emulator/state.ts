// What the emulated stack holds: settings, tokens, distributions and environments, and their JSON shapes.
import { createHash } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { HttpError } from './http-util.js'
import type { AccessTokens, TokenService } from './tokens.js'
import type {
  Deployment,
  DeployReport,
  DeployWhileBusy,
  IdCase,
  IdWhileDeploying,
  PasswordLoginAnswer,
  SiteDuringDeploy,
  StoredAppConfigFile,
  StoredBackup,
  StoredDistribution,
  StoredEnvironment,
  UploadAnswer
} from './types.js'

export interface Settings {
  username: string
  password: string
  maxDistributionBytes: number
  maxDistributions: number
  keepUploads: boolean
  storageDir: string
  uploadBytesPerSecond: number | undefined
  distributionPageSize: number
  environmentPageSize: number
  environmentOffsetIgnored: boolean
  uploadAnswer: UploadAnswer
  /** Seconds a switch takes; Infinity: until a test lands it (finishDeploy). */
  deploySeconds: number
  deployWhileBusy: DeployWhileBusy
  /** Looks at the environment that must report a switch in progress before it lands (0: none). */
  deployLooks: number
  deployReport: DeployReport
  siteDuringDeploy: SiteDuringDeploy
  environmentStatus: boolean
  md5Case: 'lower' | 'upper'
  unknownEnvironmentByName: 'not-found' | 'no-id'
  clockOffsetSeconds: number
  idCase: IdCase
  idWhileDeploying: IdWhileDeploying
  deleteInUse: 'refuse' | 'allow'
  /** 'enabled' unless SSO disables the password login, then what it answers. */
  passwordLogin: 'enabled' | PasswordLoginAnswer
}

export interface EmulatorState {
  settings: Settings
  /** The password login's tokens. */
  tokens: TokenService
  /** The access tokens the cloud API accepts: the password login's, or in SSO mode the identity provider's. */
  access: AccessTokens
  distributions: StoredDistribution[]
  environments: StoredEnvironment[]
  appConfigFiles: StoredAppConfigFile[]
  backups: StoredBackup[]
  /** The timers of deploys still switching; close() cancels them. */
  switches: Set<NodeJS.Timeout>
  /** The switch in progress of each environment: what it still waits for, and how it lands or is abandoned. */
  landings: Map<StoredEnvironment, Landing>
}

/**
 * A switch in progress lands once its time is up and enough looks at the environment reported it in progress
 * (`deploySeconds` and `deployLooks`), or at once when a test says so (`finishDeploy`).
 */
export interface Landing {
  timeUp: boolean
  looksLeft: number
  deployment: Deployment
  /** Stops waiting: its timer cleared and out of `landings`; the deployment is never applied. */
  cancel(): void
  land(): void
}

/** The platform's clock, `clockOffsetSeconds` off the runner's: every timestamp the platform writes. */
export function platformNow(state: EmulatorState): string {
  return new Date(Date.now() + state.settings.clockOffsetSeconds * 1000).toISOString()
}

function stableId(kind: string, name: string): string {
  const h = createHash('sha1').update(`brcloud-emulator:${kind}:${name}`).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/** A stable uuid-shaped id per environment name, so ids survive restarts of the emulator. */
export function environmentId(name: string): string {
  return stableId('environment', name)
}

/** A stable uuid-shaped id per application configuration file name (like environment ids). */
export function appConfigFileId(name: string): string {
  return stableId('appconfigfile', name)
}

export function newEnvironment(name: string): StoredEnvironment {
  return { id: environmentId(name), name, distributionId: null, serving: null, status: 'empty', deployments: [] }
}

/** The backup an environment has when the emulator starts: a stable id per environment, taken at `createdAt`. */
export function newBackup(environment: StoredEnvironment, createdAt: string): StoredBackup {
  return { id: stableId('backup', environment.name), environmentId: environment.id, createdAt }
}

/** A backup a test set (setBackups): the `index`th of the environment's, taken at `createdAt`; its id stable for those. */
export function setBackup(environment: StoredEnvironment, index: number, createdAt: string): StoredBackup {
  return { id: stableId('backup', `${environment.name}#${index}@${createdAt}`), environmentId: environment.id, createdAt }
}

/** The platform's clock `hours` ago, as it writes timestamps. */
export function platformHoursAgo(state: EmulatorState, hours: number): string {
  return new Date(Date.parse(platformNow(state)) - hours * 3_600_000).toISOString()
}

export function newAppConfigFile(name: string): StoredAppConfigFile {
  return { id: appConfigFileId(name), name }
}

/** How ids are written and read in the platform's answers (the defaults: as stored, reported while deploying). */
export type IdReadings = Pick<Settings, 'idCase' | 'idWhileDeploying'>

const AS_STORED: IdReadings = { idCase: 'as-stored', idWhileDeploying: 'reported' }

/**
 * The answers that write a distribution id: a distribution record (the list, one distribution, the
 * upload's answer), an environment in the list, the one `?name=` answers, the one the deploy answers.
 */
export type IdAnswer = 'distribution' | 'environment-list' | 'environment-by-name' | 'environment-deployed'

/** The answers each reading of the case writes ids in upper case in (the others write them as stored). */
const UPPER_IN: Record<IdCase, readonly IdAnswer[]> = {
  'as-stored': [],
  upper: ['distribution', 'environment-list', 'environment-by-name', 'environment-deployed'],
  'upper-distributions': ['distribution'],
  'upper-environments': ['environment-list', 'environment-by-name', 'environment-deployed'],
  'upper-by-name': ['environment-by-name']
}

/** A distribution id as the platform writes it in `answer`. */
function writtenId(id: string, idCase: IdCase, answer: IdAnswer): string {
  return UPPER_IN[idCase].includes(answer) ? id.toUpperCase() : id
}

/**
 * The stored distribution a request names; when any answer writes ids in upper case, the platform cannot
 * expect the client to keep the case of the one it read, so an id matches in any case.
 */
export function findDistribution(state: EmulatorState, id: string): StoredDistribution | undefined {
  if (UPPER_IN[state.settings.idCase].length === 0) return state.distributions.find((d) => d.id === id)
  const wanted = id.toLowerCase()
  return state.distributions.find((d) => d.id.toLowerCase() === wanted)
}

/** A distribution's record; with the 'numeric-id' upload answer, ids are numbers (their stored strings are digits). */
export function distributionJson(
  d: StoredDistribution,
  numericId = false,
  md5Case: Settings['md5Case'] = 'lower',
  idCase: IdCase = 'as-stored'
): Record<string, unknown> {
  return {
    id: numericId ? Number(d.id) : writtenId(d.id, idCase, 'distribution'),
    name: d.name,
    createdAt: d.createdAt,
    createdBy: d.createdBy,
    modifiedAt: d.modifiedAt,
    modifiedBy: d.modifiedBy,
    md5hash: md5Case === 'upper' ? d.md5hash.toUpperCase() : d.md5hash
  }
}

/** The `distributionId` field as the platform reports it: while deploying it may be missing or null. */
function distributionIdField(e: StoredEnvironment, readings: IdReadings, answer: IdAnswer): { distributionId?: string | null } {
  if (e.status === 'deploying' && readings.idWhileDeploying === 'absent') return {}
  if (e.status === 'deploying' && readings.idWhileDeploying === 'null') return { distributionId: null }
  return { distributionId: e.distributionId === null ? null : writtenId(e.distributionId, readings.idCase, answer) }
}

/** An environment as `answer` writes it (the case of its `distributionId` may depend on the answer). */
export function environmentJson(
  e: StoredEnvironment,
  withStatus = true,
  readings: IdReadings = AS_STORED,
  answer: Exclude<IdAnswer, 'distribution'> = 'environment-list'
): Record<string, unknown> {
  // strategy and deployedAt describe what runs, so a deploy still switching does not show in them.
  const applied = e.deployments.filter((d) => d.appliedAt !== null).at(-1)
  return {
    id: e.id,
    name: e.name,
    ...distributionIdField(e, readings, answer),
    ...(withStatus && { status: e.status }),
    strategy: applied?.strategy ?? null,
    deployedAt: applied?.appliedAt ?? null
  }
}

/** Checks `Authorization: Bearer <access token>` and returns the user; 401 otherwise. */
export function authenticate(state: EmulatorState, req: IncomingMessage): string {
  const header = req.headers.authorization
  const m = header === undefined ? null : /^bearer\s+(\S+)\s*$/i.exec(header)
  const unauthorized = (detail: string): HttpError =>
    new HttpError(401, state.access.refusal, detail, { 'www-authenticate': 'Bearer realm="brcloud-emulator"' })
  if (m === null || m[1] === undefined) throw unauthorized('An "Authorization: Bearer <access token>" header is required')
  const check = state.access.check(m[1])
  if (!check.ok) throw unauthorized(check.detail)
  return check.sub
}
