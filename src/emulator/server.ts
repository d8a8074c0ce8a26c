// Local emulator of both services the action talks to, on one port: the Bloomreach Cloud deployment
// management API (/v3/..., cloud-api.ts) and the product search API (/api/v1/core/, search-api.ts).
// A real HTTP/1.1 server (node:http) that records every request, stores uploads, and can inject
// faults. Used by `npm run emulator`, the demo and the tests. It shares no code with the action.
// What the stack does is stack.ts; this file only listens, keeps the sockets and closes.
import { createServer, type Server } from 'node:http'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo, Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createStack, DEFAULTS, type Stack } from './stack.js'
import { addDistribution, deleteAs, deleteEnvironment, deployAs, finishDeploy, renameEnvironment, setBackups } from './test-hooks.js'
import type { Emulator, EmulatorOptions, Fault } from './types.js'
import { urlHost } from './listen.js'

export { DEFAULTS, loggedUrl } from './stack.js'
export type {
  AppConfigFileRole,
  Deployment,
  DeployWhileBusy,
  Emulator,
  EmulatorOptions,
  EnvironmentStatus,
  Fault,
  GitHubJob,
  IdCase,
  IdWhileDeploying,
  Operation,
  PasswordLoginAnswer,
  RecordedPart,
  RecordedRequest,
  SearchFacetFormat,
  SearchEmptyAuthKey,
  SearchSettings,
  SsoClient,
  SsoHandle,
  SsoOptions,
  StoredAppConfigFile,
  StoredBackup,
  StoredDistribution,
  StoredEnvironment,
  UploadAnswer
} from './types.js'

/** Where uploads are kept: the folder asked for (made if missing), else a temporary one the emulator owns and removes. */
async function storageOf(options: EmulatorOptions): Promise<{ storageDir: string; ownsStorage: boolean }> {
  const ownsStorage = options.storageDir === undefined
  const storageDir = options.storageDir === undefined ? await mkdtemp(join(tmpdir(), 'brcloud-emulator-')) : resolve(options.storageDir)
  if (!ownsStorage) await mkdir(storageDir, { recursive: true })
  return { storageDir, ownsStorage }
}

/** The stack's handler served over HTTP/1.1, listening; `sockets` are its open connections (close() ends them). */
async function listen(handle: Stack['handle'], options: EmulatorOptions): Promise<{ server: Server; sockets: Set<Socket>; url: string }> {
  // maxHeaderSize above Node's 16 KB: the search API answers its own 414 to a request over 16 KB.
  const server = createServer({ requestTimeout: 0, headersTimeout: 120_000, keepAliveTimeout: 65_000, maxHeaderSize: 64 * 1024 }, (req, res) => {
    const socket = req.socket
    void handle(req, res).catch(() => socket.destroy())
  })
  server.requestTimeout = 0 // long uploads must not be cut after Node's default 300 s
  server.headersTimeout = 120_000
  server.timeout = 0
  const sockets = new Set<Socket>()
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
    else socket.destroy()
  })

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? DEFAULTS.host, () => {
      server.off('error', reject)
      resolveListen()
    })
  })
  const address = server.address() as AddressInfo
  return { server, sockets, url: `http://${urlHost(address.address)}:${address.port}` }
}

/** Stops once, however often called: switches cancelled, held calls let go, every connection ended, owned storage removed. */
function closerOf(
  { state, faults }: Stack,
  { server, sockets }: { server: Server; sockets: Set<Socket> },
  { storageDir, ownsStorage }: { storageDir: string; ownsStorage: boolean }
): () => Promise<void> {
  let closing: Promise<void> | undefined
  return () => {
    closing ??= (async () => {
      for (const timer of state.switches) clearTimeout(timer)
      state.switches.clear()
      state.landings.clear()
      faults.cancelHeld()
      const closed = new Promise<void>((done) => server.close(() => done()))
      server.closeAllConnections()
      for (const socket of sockets) socket.destroy()
      await closed
      if (ownsStorage) await rm(storageDir, { recursive: true, force: true })
    })()
    return closing
  }
}

/** What a test holds of the running emulator: its address and account, the record, the stored state, and its hooks. */
function emulatorOf({ state, faults, hooks, requests, search, sso }: Stack, url: string, close: () => Promise<void>): Emulator {
  return {
    url,
    username: state.settings.username,
    password: state.settings.password,
    requests,
    distributions: state.distributions,
    environments: state.environments,
    appConfigFiles: state.appConfigFiles,
    backups: state.backups,
    search: search.settings,
    ...(sso !== undefined && { sso: sso.handle(url) }),
    revokeAccessTokens: () => state.access.revokeAll(),
    addFault: (f: Fault) => faults.add(f),
    deployAs: (environmentName, distributionId, deployOptions) => deployAs(state, environmentName, distributionId, deployOptions),
    deleteAs: (distributionId) => deleteAs(state, distributionId),
    renameEnvironment: (from, to) => renameEnvironment(state, from, to),
    deleteEnvironment: (name) => deleteEnvironment(state, name),
    addDistribution: (name, files) => addDistribution(state, name, files),
    onRequest: (operation, fn, hookOptions) => hooks.add(operation, fn, hookOptions),
    holdRequests: (operation, until, holdOptions) => hooks.hold(operation, until, holdOptions),
    finishDeploy: (environmentName) => finishDeploy(state, environmentName),
    setDeploySeconds: (seconds) => void (state.settings.deploySeconds = seconds),
    setBackups: (environmentName, agesInHours) => setBackups(state, environmentName, agesInHours),
    close
  }
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const storage = await storageOf(options)
  let stack: Stack
  try {
    stack = createStack(options, storage.storageDir)
  } catch (error) {
    if (storage.ownsStorage) await rm(storage.storageDir, { recursive: true, force: true })
    throw error
  }
  const listening = await listen(stack.handle, options)
  stack.sso?.setBaseUrl(listening.url)
  return emulatorOf(stack, listening.url, closerOf(stack, listening, storage))
}
