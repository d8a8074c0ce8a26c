// Public types of the local emulator of the Bloomreach Cloud deployment management API.
// server.ts re-exports all of them; the other emulator modules import them from here.

export type Operation =
  | 'login'
  | 'refresh'
  | 'revoke-refresh'
  | 'verify'
  | 'logout'
  | 'list-distributions'
  | 'get-distribution'
  | 'upload'
  | 'delete-distribution'
  | 'list-environments'
  | 'deploy'
  | 'list-appconfigfiles'
  | 'docs'

export interface Fault {
  operation: Operation
  kind: 'status' | 'reset-mid-upload' | 'drop-after-upload' | 'hang'
  /** For kind 'status' (e.g. 503, 429, 500). */
  status?: number
  /** Sent as Retry-After with a 'status' fault. */
  retryAfterSeconds?: number
  /** Applies to the first N matching calls, then stops. */
  times: number
  /** For 'reset-mid-upload': destroy the socket after this many body bytes were read. */
  afterBytes?: number
}

export interface EmulatorOptions {
  host?: string
  port?: number
  username?: string
  password?: string
  tokenLifetimeSeconds?: number
  refreshLifetimeSeconds?: number
  storageDir?: string
  keepUploads?: boolean
  maxDistributionBytes?: number
  maxDistributions?: number
  environments?: string[]
  faults?: Fault[]
  uploadBytesPerSecond?: number
  log?: (line: string) => void
}

export interface RecordedPart {
  name: string
  filename?: string
  contentType?: string
  size: number
  sha256: string
  md5: string
  path?: string
}

export interface RecordedRequest {
  operation: Operation | 'unknown'
  method: string
  url: string
  httpVersion: string
  headers: Record<string, string>
  json?: unknown
  parts?: RecordedPart[]
  /** Status answered; 0 while unanswered or when the connection was reset/dropped. */
  status: number
  /** The kind of the injected fault that applied to this call, if any. */
  fault?: Fault['kind']
}

export interface StoredDistribution {
  id: string
  name: string
  createdAt: string
  createdBy: string
  modifiedAt: string
  modifiedBy: string
  md5hash: string
  sha256: string
  size: number
  path?: string
}

export interface StoredEnvironment {
  id: string
  name: string
  distributionId: string | null
  deployments: Array<{ distributionId: string; strategy: string; at: string }>
}

export interface Emulator {
  url: string
  username: string
  password: string
  requests: RecordedRequest[]
  distributions: StoredDistribution[]
  environments: StoredEnvironment[]
  revokeAccessTokens(): void
  addFault(f: Fault): void
  close(): Promise<void>
}
