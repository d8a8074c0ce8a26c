// The emulated stack without a network: its state, faults, hooks, the record of every request, and
// `handle(req, res)`, which answers one request. server.ts serves it over HTTP/1.1; the release
// simulation (__tests__/sim/) calls `handle` in-process with the same objects a socket would give, so
// both run the one model of the platform (switching, 409s, the readings) and differ only in transport
// and clock.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import { backupsApi } from './backups.js'
import { cloudApi } from './cloud-api.js'
import { FaultQueue } from './faults.js'
import { codeForStatus, errorBody, HttpError, parseJson } from './http-util.js'
import { Router, type RequestContext } from './router.js'
import { newSearchState, searchApi, type SearchState } from './search-api.js'
import { sitesApi } from './sites.js'
import { createSso, type Sso } from './sso.js'
import { IDP_PATH } from './sso-idp.js'
import { OIDC_PATH } from './sso-github-oidc.js'
import { SSO_DEFAULTS } from './sso-options.js'
import { errorMarks, INVENTED_HEADER, isNotEmulated, notEmulatedBody, operationMarks } from './invented.js'
import { newAppConfigFile, newBackup, newEnvironment, platformHoursAgo, type EmulatorState } from './state.js'
import { RequestHooks } from './test-hooks.js'
import { passwordAccess, TokenService } from './tokens.js'
import type { EmulatorOptions, Operation, RecordedRequest } from './types.js'

export const DEFAULTS = {
  host: '127.0.0.1',
  username: 'deployer',
  password: 'emulator-password',
  tokenLifetimeSeconds: 600,
  refreshLifetimeSeconds: 86400,
  tokenClockSkewSeconds: 0,
  maxDistributionBytes: 650 * 1024 * 1024,
  maxDistributions: 100,
  environments: ['development', 'acceptance', 'production'],
  maxEnvironments: 4,
  /** No cap: a page holds what `max` asks (100 by default, as the API reference shows). */
  distributionPageSize: Number.MAX_SAFE_INTEGER,
  deploySeconds: 0,
  deployLooks: 0,
  appConfigFiles: [],
  sso: SSO_DEFAULTS
} as const

/** Bodies of faulted calls are kept (to record their JSON) up to this size, then only drained. */
const RECORD_LIMIT = 1024 * 1024

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return out
}

/** A body as the record keeps it: JSON, or a form (the identity provider's calls) decoded into an object. */
function recordedBody(req: IncomingMessage, body: Buffer): { ok: true; value: unknown } | { ok: false } {
  if (/^\s*application\/x-www-form-urlencoded/i.test(req.headers['content-type'] ?? '')) {
    return { ok: true, value: Object.fromEntries(new URLSearchParams(body.toString('utf8'))) }
  }
  return parseJson(body)
}

/** Reads the whole body, recording it as JSON when it parses as JSON (or a form); never leaves the stream early. */
async function consumeForRecord(req: IncomingMessage, record: RecordedRequest): Promise<void> {
  const keep = !/^\s*multipart\//i.test(req.headers['content-type'] ?? '')
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length
      if (keep && size <= RECORD_LIMIT) chunks.push(chunk)
    }
  } catch {
    return // the client went away
  }
  if (keep && size > 0 && size <= RECORD_LIMIT) {
    const parsed = recordedBody(req, Buffer.concat(chunks))
    if (parsed.ok) record.json = parsed.value
  }
}

/** Reads `afterBytes` of the body (or all of it when shorter), then destroys the connection. */
async function resetAfter(req: IncomingMessage, afterBytes: number): Promise<void> {
  const socket = req.socket
  let seen = 0
  if (afterBytes > 0) {
    try {
      for await (const chunk of req as AsyncIterable<Buffer>) {
        seen += chunk.length
        if (seen >= afterBytes) break
      }
    } catch {
      // already gone
    }
  }
  socket.destroy()
}

/** Resolves on 'drain' or 'close', removing both listeners (one pair per wait, none left behind). */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resume) => {
    const done = (): void => {
      res.off('drain', done)
      res.off('close', done)
      resume()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}

/** A request target for the log: the search auth_key (a credential sent in the query string) masked. */
export function loggedUrl(url: string): string {
  return url.replace(/([?&]auth_key=)[^&]*/gi, '$1***')
}

/** Each service's error body: the search API's, the identity provider's (RFC 6749 5.2), GitHub's, or the cloud API's. */
function errorShape(pathname: string, status: number, code: string, detail: string): unknown {
  if (pathname.startsWith('/api/')) return { status_code: status, message: detail }
  if (pathname.startsWith(`${IDP_PATH}/`)) return { error: code, error_description: detail }
  if (pathname.startsWith(`${OIDC_PATH}/`)) return { message: detail }
  return errorBody(code, detail)
}

/** A 'status' fault's code: the identity provider's for its calls (RFC 6749 has no code for a 5xx, these are the usual ones). */
function faultCode(operation: Operation, status: number): string {
  if (!operation.startsWith('idp-')) return codeForStatus(status)
  return status === 503 ? 'temporarily_unavailable' : 'server_error'
}

export interface Stack {
  readonly state: EmulatorState
  readonly faults: FaultQueue
  readonly hooks: RequestHooks
  readonly requests: RecordedRequest[]
  readonly search: SearchState
  /** Single sign-on mode's stand-ins, when on. */
  readonly sso: Sso | undefined
  /** Answers one request (or drops, hangs, resets it, as a fault says). */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>
}

/** The stack of `options`, its uploads stored in `storageDir`. Throws on more environments than the platform allows. */
export function createStack(options: EmulatorOptions, storageDir: string): Stack {
  const environmentNames = options.environments ?? DEFAULTS.environments
  const maxEnvironments = options.maxEnvironments ?? DEFAULTS.maxEnvironments
  if (environmentNames.length > maxEnvironments) {
    throw new Error(`The platform allows at most ${maxEnvironments} environments per stack, ${environmentNames.length} were asked for (raise maxEnvironments)`)
  }
  const refreshSeconds = options.refreshLifetimeSeconds ?? DEFAULTS.refreshLifetimeSeconds
  const skewSeconds = options.tokenClockSkewSeconds ?? DEFAULTS.tokenClockSkewSeconds
  const tokens = new TokenService(options.tokenLifetimeSeconds ?? DEFAULTS.tokenLifetimeSeconds, refreshSeconds, skewSeconds)
  const state: EmulatorState = {
    settings: {
      username: options.username ?? DEFAULTS.username,
      password: options.password ?? DEFAULTS.password,
      maxDistributionBytes: options.maxDistributionBytes ?? DEFAULTS.maxDistributionBytes,
      maxDistributions: options.maxDistributions ?? DEFAULTS.maxDistributions,
      keepUploads: options.keepUploads ?? true,
      storageDir,
      uploadBytesPerSecond: options.uploadBytesPerSecond,
      distributionPageSize: options.distributionPageSize ?? DEFAULTS.distributionPageSize,
      environmentPageSize: options.environmentPageSize ?? Number.MAX_SAFE_INTEGER,
      environmentOffsetIgnored: options.environmentOffsetIgnored ?? false,
      uploadAnswer: options.uploadAnswer ?? 'record',
      deploySeconds: options.deploySeconds ?? DEFAULTS.deploySeconds,
      deployWhileBusy: options.deployWhileBusy ?? 'refuse',
      deployLooks: options.deployLooks ?? DEFAULTS.deployLooks,
      deployReport: options.deployReport ?? 'when-done',
      siteDuringDeploy: options.siteDuringDeploy ?? (options.deployReport === 'at-request' ? 'old' : 'unavailable'),
      environmentStatus: options.environmentStatus ?? true,
      md5Case: options.md5Case ?? 'lower',
      clockOffsetSeconds: options.clockOffsetSeconds ?? 0,
      idCase: options.idCase ?? 'as-stored',
      idWhileDeploying: options.idWhileDeploying ?? 'reported',
      deleteInUse: options.deleteInUse ?? 'refuse',
      unknownEnvironmentByName: options.unknownEnvironmentByName ?? 'not-found',
      passwordLogin: 'enabled'
    },
    tokens,
    access: passwordAccess(tokens),
    distributions: [],
    environments: environmentNames.map(newEnvironment),
    appConfigFiles: (options.appConfigFiles ?? DEFAULTS.appConfigFiles).map(newAppConfigFile),
    backups: [],
    switches: new Set(),
    landings: new Map()
  }
  // One backup per environment, taken as the stack starts (by the platform's clock; backupAgeHours earlier), so a backup
  // tool has one to find; none with noBackups.
  const taken = platformHoursAgo(state, options.backupAgeHours ?? 0)
  if (options.noBackups !== true) state.backups.push(...state.environments.map((e) => newBackup(e, taken)))
  const faults = new FaultQueue(options.faults)
  const hooks = new RequestHooks()
  const requests: RecordedRequest[] = []
  const search = newSearchState({
    ...(options.searchAccountId !== undefined && { accountId: options.searchAccountId }),
    ...(options.searchAuthKey !== undefined && { authKey: options.searchAuthKey }),
    ...(options.searchDomainKey !== undefined && { domainKey: options.searchDomainKey }),
    ...(options.searchFacetFormat !== undefined && { facetFormat: options.searchFacetFormat }),
    ...(options.searchDelayMs !== undefined && { delayMs: options.searchDelayMs }),
    ...(options.searchEmptyAuthKey !== undefined && { emptyAuthKey: options.searchEmptyAuthKey })
  })
  const sso = options.sso === undefined ? undefined : createSso(options.sso, state.settings, refreshSeconds, skewSeconds)
  if (sso !== undefined) {
    state.settings.passwordLogin = sso.options.passwordLogin
    state.access = sso.access
  }
  const sites = sitesApi(state)
  const backups = backupsApi(state)
  const ssoRoutes = sso?.module.routes ?? []
  const router = new Router([
    cloudApi(state, [...backups.routes, ...sites.routes, ...ssoRoutes]),
    backups,
    searchApi(search),
    sites,
    ...(sso === undefined ? [] : [sso.module])
  ])
  const log = options.log

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now()
    const socket = req.socket // req.socket is cleared once the request is destroyed
    const record: RecordedRequest = {
      operation: 'unknown',
      method: req.method ?? '',
      url: req.url ?? '',
      httpVersion: req.httpVersion,
      remotePort: req.socket.remotePort,
      headers: headersOf(req),
      at: Date.now(),
      status: 0
    }
    requests.push(record)
    res.on('finish', () => (record.status = res.statusCode))
    res.on('close', () => {
      const ms = Math.round(performance.now() - started)
      const status = record.status === 0 ? 'no-answer' : String(record.status)
      const fault = record.fault === undefined ? '' : ` [fault: ${record.fault}]`
      const note = record.note === undefined ? '' : ` [warning: ${record.note}]`
      log?.(`${record.method} ${loggedUrl(record.url)} ${status} ${ms}ms${fault}${note}`)
      hooks.after(record)
    })

    let drop = false
    const invented = new Set<string>()
    /** The answer's headers, with the marks of what in it is invented. */
    const marked = <T extends Record<string, unknown>>(headers: T): T =>
      invented.size === 0 ? headers : { ...headers, [INVENTED_HEADER]: [...invented].join(', ') }
    const ctx: RequestContext = {
      req,
      res,
      url: new URL('http://emulator.invalid/'),
      params: {},
      record,
      invent(...names) {
        for (const name of names) invented.add(name)
      },
      send(status, body, headers = {}) {
        if (res.headersSent || res.writableEnded) return
        if (drop) {
          socket.destroy()
          return
        }
        const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body))
        const h: OutgoingHttpHeaders = marked({ ...headers })
        if (payload !== undefined) {
          h['content-type'] = 'application/json'
          h['content-length'] = payload.length
        }
        res.writeHead(status, h)
        res.end(payload)
      },
      sendText(status, contentType, text, headers = {}) {
        if (res.headersSent || res.writableEnded) return
        if (drop) {
          socket.destroy()
          return
        }
        const payload = Buffer.from(text)
        res.writeHead(status, marked({ ...headers, 'content-type': contentType, 'content-length': payload.length }))
        res.end(payload)
      },
      async sendStream(status, headers, length, body) {
        if (res.headersSent || res.writableEnded) return
        if (drop) {
          socket.destroy()
          return
        }
        res.writeHead(status, marked({ ...headers, 'content-length': length }))
        if (req.method === 'HEAD') {
          res.end() // the generator never started, so nothing was opened
          return
        }
        let sent = 0
        try {
          for await (const chunk of body) {
            sent += chunk.length
            // Wait for the client to read on, or for the connection to close (then stop reading the archive).
            if (!res.write(chunk)) await drainedOrClosed(res)
            if (res.destroyed) return
          }
        } catch (err) {
          // The answer has started: cut the connection so the client sees it was incomplete.
          socket.destroy()
          throw err
        }
        if (sent !== length) {
          socket.destroy()
          throw new Error(`sendStream: ${sent} bytes sent, ${length} announced`)
        }
        res.end()
      }
    }

    try {
      try {
        ctx.url = new URL(req.url ?? '/', 'http://emulator.invalid')
      } catch {
        throw new HttpError(400, 'InvalidRequest', 'The request target is not a valid path')
      }
      const match = router.match(req.method ?? '', ctx.url.pathname)
      // A real path without an emulation says so (501), rather than a 404 that looks like a genuine miss.
      if (match.kind !== 'route' && isNotEmulated(req.method ?? '', ctx.url.pathname)) {
        record.operation = 'not-emulated'
        await consumeForRecord(req, record)
        ctx.invent('not-emulated')
        ctx.send(501, notEmulatedBody(req.method ?? '', ctx.url.pathname))
        return
      }
      if (match.kind === 'trailing-slash') {
        throw new HttpError(404, 'TrailingSlash', `Paths must not end with a slash: "${ctx.url.pathname}"`)
      }
      if (match.kind === 'not-found') throw new HttpError(404, 'NotFound', `No operation at "${ctx.url.pathname}"`)
      if (match.kind === 'method-not-allowed') {
        throw new HttpError(405, 'MethodNotAllowed', `${req.method ?? ''} is not allowed on "${ctx.url.pathname}"`, {
          allow: match.allow.join(', ')
        })
      }
      record.operation = match.route.operation
      ctx.params = match.params
      ctx.invent(...operationMarks(match.route.operation))
      // A test holding this operation (a slow network): handled once it lets go.
      const held = hooks.held(match.route.operation)
      if (held !== undefined) await held

      const fault = faults.take(match.route.operation)
      if (fault !== undefined) {
        record.fault = fault.kind
        // An answer the test asked for, not the platform's.
        if (fault.kind === 'status' || fault.kind === 'apply-then-status') ctx.invent('fault')
        switch (fault.kind) {
          case 'status': {
            await consumeForRecord(req, record)
            const status = fault.status ?? 503
            const headers: Record<string, string> = {}
            if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(fault.retryAfterSeconds)
            if (fault.location !== undefined) headers.location = fault.location
            if (fault.echo !== undefined) {
              const echoed = `Request was: authorization=${req.headers.authorization ?? ''} body=${JSON.stringify(record.json ?? null)}`
              if (fault.echo === 'json') ctx.send(status, errorShape(ctx.url.pathname, status, faultCode(fault.operation, status), echoed), headers)
              else res.writeHead(status, marked({ ...headers, 'content-type': 'text/plain' })).end(echoed)
              return
            }
            ctx.send(status, errorShape(ctx.url.pathname, status, faultCode(fault.operation, status), `Emulated fault on ${fault.operation}`), headers)
            return
          }
          case 'revoke-tokens':
            // Every access token issued so far dies just before this call is handled.
            state.access.revokeAll()
            break
          case 'hang':
            await consumeForRecord(req, record) // and never answer: the socket stays open until close()
            return
          case 'reset-mid-upload':
            await resetAfter(req, fault.afterBytes ?? 0)
            return
          case 'drop-after-upload':
          case 'drop-after-apply':
            drop = true
            break
          case 'apply-then-status':
            faults.answerStatusAfterApply(ctx, fault)
            break
          case 'apply-then-delay':
            faults.answerLateAfterApply(ctx, fault)
            break
        }
      }
      await match.route.handler(ctx)
    } catch (err) {
      if (socket.destroyed || res.headersSent) return
      if (err instanceof HttpError) {
        const headers = err.closeConnection ? { ...err.headers, connection: 'close' } : err.headers
        ctx.invent(...errorMarks(ctx.url.pathname, err.status, err.code))
        // A refusal answered before the body was read (a 413 on the declared length): the rest of the body is read
        // and dropped before the connection closes, as a front end's lingering close does (nginx's default). Closed
        // with the body unread, the socket would be reset, and a client still sending would see the reset, not the answer.
        if (err.closeConnection) ctx.req.resume()
        // Each service's paths answer in its own error shape, even for a path it does not have.
        ctx.send(err.status, errorShape(ctx.url.pathname, err.status, err.code, err.detail), headers)
      } else {
        log?.(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
        ctx.invent('status-500', 'error-code')
        ctx.send(500, errorBody('InternalError', 'The emulator failed to handle the request'), { connection: 'close' })
      }
    }
  }

  return { state, faults, hooks, requests, search, sso, handle }
}
