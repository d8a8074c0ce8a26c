// The Bloomreach Cloud deployment management API (`/v3/...`) as an emulator module.
import { randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { docsPage } from './docs-page.js'
import { HttpError, isJsonContentType, parseJson, readBody } from './http-util.js'
import type { ApiModule, RequestContext, Route } from './router.js'
import { authenticate, distributionJson, environmentJson, findDistribution, platformNow, type EmulatorState, type Landing } from './state.js'
import type { AppConfigFileRole, Deployment, StoredDistribution, StoredEnvironment } from './types.js'
import { uploadHandler } from './upload.js'

const JSON_LIMIT = 64 * 1024

/**
 * Reads a JSON object body (recorded on the request); 400 when malformed. A JSON body is accepted
 * whatever its content type: a public client posts login and refresh bodies with none and gets past
 * the real service (public-facts.md). The log says so.
 */
async function readJsonObject(ctx: RequestContext): Promise<Record<string, unknown>> {
  const body = await readBody(ctx.req, JSON_LIMIT)
  const parsed = body.length === 0 ? { ok: false as const } : parseJson(body)
  if (parsed.ok) ctx.record.json = parsed.value
  const type = ctx.req.headers['content-type']
  if (!isJsonContentType(type)) ctx.record.note = `a JSON body sent ${type === undefined ? 'without a Content-Type' : `as ${type}`}, accepted`
  if (!parsed.ok) throw new HttpError(400, 'InvalidRequest', 'The request body is not valid JSON')
  if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
    throw new HttpError(400, 'InvalidRequest', 'The request body must be a JSON object')
  }
  return parsed.value as Record<string, unknown>
}

function requireString(body: Record<string, unknown>, field: string): string {
  const value = body[field]
  if (typeof value !== 'string' || value === '') {
    throw new HttpError(400, 'InvalidRequest', `The field "${field}" is required and must be a non-empty string`)
  }
  return value
}

function queryInt(ctx: RequestContext, name: string, fallback: number, min: number, max: number): number {
  const raw = ctx.url.searchParams.get(name)
  if (raw === null) return fallback
  const value = Number(raw)
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new HttpError(400, 'InvalidRequest', `The query parameter "${name}" must be an integer from ${min} to ${max}`)
  }
  return value
}

function refreshTokenOf(body: Record<string, unknown>, grantRequired: boolean): string {
  const grant = body.grant_type
  if ((grantRequired || grant !== undefined) && grant !== 'refresh_token') {
    throw new HttpError(400, 'InvalidGrantType', 'The field "grant_type" must be "refresh_token"')
  }
  return requireString(body, 'refresh_token')
}

/**
 * On an SSO stack the password login and its refresh endpoints are disabled; what they answer is not
 * public, so it is a mode. The body is read (and recorded) first, as any other call's.
 */
async function refuseWhenSso(ctx: RequestContext, settings: EmulatorState['settings']): Promise<void> {
  if (settings.passwordLogin === 'enabled') return
  ctx.invent('sso-password-login')
  const parsed = parseJson(await readBody(ctx.req, JSON_LIMIT))
  if (parsed.ok) ctx.record.json = parsed.value
  if (settings.passwordLogin === '401') throw new HttpError(401, 'AuthenticationFailed', 'Invalid username or password')
  if (settings.passwordLogin === '404') throw new HttpError(404, 'NotFound', `No operation at "${ctx.url.pathname}"`)
  throw new HttpError(403, 'SsoEnabled', 'Password login is disabled: this stack uses single sign-on')
}

/** An environment's fields no public source shows: the emulator's status, and strategy/deployedAt. */
function inventEnvironmentFields(ctx: RequestContext, state: EmulatorState): void {
  if (state.settings.environmentStatus) ctx.invent('field-status')
  ctx.invent('field-strategy', 'field-deployedAt')
}

function distributionOr404(state: EmulatorState, id: string): StoredDistribution {
  const found = findDistribution(state, id)
  if (found === undefined) throw new HttpError(404, 'DistributionNotFound', `No distribution with id "${id}"`)
  return found
}

/** The deploy call's optional `appConfigFileRoles`: each entry names a known file with the role "systemproperty". */
function appConfigFileRolesOf(state: EmulatorState, roles: unknown): AppConfigFileRole[] {
  if (roles === undefined) return []
  if (!Array.isArray(roles)) throw new HttpError(400, 'InvalidRequest', 'The field "appConfigFileRoles" must be an array')
  return roles.map((entry: unknown, i) => {
    const field = `appConfigFileRoles[${i}]`
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new HttpError(400, 'InvalidRequest', `${field} must be an object {appConfigFileId, role}`)
    }
    const { appConfigFileId, role } = entry as Record<string, unknown>
    if (typeof appConfigFileId !== 'string' || appConfigFileId === '' || typeof role !== 'string' || role === '') {
      throw new HttpError(400, 'InvalidRequest', `${field} needs the non-empty strings "appConfigFileId" and "role"`)
    }
    if (!state.appConfigFiles.some((f) => f.id === appConfigFileId)) {
      throw new HttpError(400, 'AppConfigFileNotFound', `${field}: no application configuration file with id "${appConfigFileId}"`)
    }
    if (role !== 'systemproperty') throw new HttpError(400, 'InvalidAppConfigFileRole', `${field}: the role must be "systemproperty", got "${role}"`)
    return { appConfigFileId, role }
  })
}

/** How long a switch takes: seconds of time (Infinity: until a test lands it), and looks that must see it in progress. */
export interface SwitchTime {
  seconds?: number | undefined
  looks?: number | undefined
}

/**
/**
 * Abandons the switch an environment is making, if any: its timer cleared, taken out of `state.landings`,
 * its deployment marked `abandonedAt` and never applied. Returns that deployment.
 */
export function abandonSwitch(state: EmulatorState, env: StoredEnvironment): Deployment | undefined {
  const landing = state.landings.get(env)
  if (landing === undefined) return undefined
  landing.cancel()
  landing.deployment.abandonedAt = platformNow(state)
  return landing.deployment
}

/**
 * Whether a deploy to `env` is refused now: while it switches, unless the platform is read as accepting
 * one meanwhile (`deployWhileBusy: 'accept'`; how the platform treats it is not public).
 */
export function refusesDeployWhileBusy(state: EmulatorState, env: StoredEnvironment): boolean {
  return env.status === 'deploying' && state.settings.deployWhileBusy === 'refuse'
}

/**
 * Records the deployment and switches the environment to it: at once with no deploy time, else once
 * `seconds` have passed (a timer that does not keep the process alive; close() cancels it) and `looks`
 * looks at the environment have reported the switch in progress, whichever comes last, or when a test
 * lands it (finishDeploy). Looks make "seen in progress" certain however slow the client is. When the
 * new id is reported at request, the API shows it at once while the site keeps serving the old release
 * until the switch. A switch still in progress on the environment is abandoned for this one (the callers
 * decide whether a deploy while busy is accepted at all: `refusesDeployWhileBusy`).
 */
export function startDeploy(state: EmulatorState, env: StoredEnvironment, deployment: Deployment, time: SwitchTime | number = {}): void {
  const { seconds = state.settings.deploySeconds, looks = state.settings.deployLooks } = typeof time === 'number' ? { seconds: time, looks: 0 } : time
  abandonSwitch(state, env)
  env.deployments.push(deployment)
  const apply = (): void => {
    env.distributionId = deployment.distributionId
    env.serving = deployment.distributionId
    env.status = 'running'
    deployment.appliedAt = platformNow(state)
  }
  if (seconds <= 0 && looks <= 0) return apply()
  env.status = 'deploying'
  if (state.settings.deployReport === 'at-request') env.distributionId = deployment.distributionId
  let timer: NodeJS.Timeout | undefined
  const landing: Landing = {
    timeUp: seconds <= 0,
    looksLeft: Math.max(0, looks),
    deployment,
    cancel() {
      if (timer !== undefined) {
        clearTimeout(timer)
        state.switches.delete(timer)
      }
      if (state.landings.get(env) === landing) state.landings.delete(env)
    },
    land() {
      landing.cancel()
      apply()
    }
  }
  state.landings.set(env, landing)
  if (landing.timeUp || !Number.isFinite(seconds)) return
  timer = setTimeout(() => {
    state.switches.delete(timer as NodeJS.Timeout)
    timer = undefined
    landing.timeUp = true
    if (landing.looksLeft <= 0) landing.land()
  }, seconds * 1000)
  timer.unref()
  state.switches.add(timer)
}

/** A look at these environments was answered: a switch that waited for it may land now (after the answer was made). */
function looked(state: EmulatorState, environments: readonly StoredEnvironment[]): void {
  for (const env of environments) {
    const landing = state.landings.get(env)
    if (landing === undefined || landing.looksLeft <= 0) continue
    landing.looksLeft -= 1
    if (landing.looksLeft === 0 && landing.timeUp) landing.land()
  }
}

/**
 * Deletes a stored distribution: 404 when unknown, 409 while an environment runs, serves or switches to
 * it, unless `deleteInUse` is 'allow' (then the environment keeps naming an id that is gone).
 */
export async function deleteDistribution(state: EmulatorState, id: string): Promise<void> {
  const dist = distributionOr404(state, id)
  const inUse = state.environments.find(
    (e) => e.distributionId === dist.id || e.serving === dist.id || (e.status === 'deploying' && e.deployments.at(-1)?.distributionId === dist.id)
  )
  if (inUse !== undefined && state.settings.deleteInUse === 'refuse') {
    throw new HttpError(409, 'DistributionInUse', `The distribution is deployed to environment "${inUse.name}"`)
  }
  state.distributions.splice(state.distributions.indexOf(dist), 1)
  if (dist.path !== undefined) await rm(dist.path, { force: true })
}

/** GET /v3/environments: one page of them, or with ?name= that one environment (a look at each: a switch may land). */
function listEnvironments(state: EmulatorState, ctx: RequestContext): void {
  authenticate(state, ctx.req)
  const name = ctx.url.searchParams.get('name')
  if (name !== null) {
    const env = state.environments.find((e) => e.name === name)
    if (env === undefined && state.settings.unknownEnvironmentByName === 'no-id') return ctx.send(200, {})
    if (env === undefined) throw new HttpError(404, 'EnvironmentNotFound', `No environment named "${name}"`)
    inventEnvironmentFields(ctx, state)
    ctx.send(200, environmentJson(env, state.settings.environmentStatus, state.settings, 'environment-by-name'))
    looked(state, [env])
    return
  }
  const { environmentPageSize, environmentOffsetIgnored } = state.settings
  const offset = environmentOffsetIgnored ? 0 : queryInt(ctx, 'offset', 0, 0, Number.MAX_SAFE_INTEGER)
  const max = Math.min(queryInt(ctx, 'max', 100, 1, 1000), environmentPageSize)
  const page = state.environments.slice(offset, offset + max)
  const items = page.map((e) => environmentJson(e, state.settings.environmentStatus, state.settings, 'environment-list'))
  const total = state.environments.length
  // The public list shows {items, more, total, count}: offset and max are the emulator's own.
  ctx.invent('field-offset', 'field-max')
  if (items.length > 0) inventEnvironmentFields(ctx, state)
  ctx.send(200, { offset, max, items, more: offset + items.length < total, total, count: items.length })
  looked(state, page)
}

/** PUT /v3/environments/{id}/deploy: the deployment recorded and the switch started; 202 with the environment at once. */
async function deploy(state: EmulatorState, ctx: RequestContext): Promise<void> {
  const user = authenticate(state, ctx.req)
  const id = ctx.params.id ?? ''
  const env = state.environments.find((e) => e.id === id)
  if (env === undefined) throw new HttpError(404, 'EnvironmentNotFound', `No environment with id "${id}"`)
  const body = await readJsonObject(ctx)
  const named = requireString(body, 'distributionId')
  const strategy = requireString(body, 'strategy')
  const appConfigFileRoles = appConfigFileRolesOf(state, body.appConfigFileRoles)
  // The history keeps the stored id, whatever case the client sent it in.
  const distributionId = findDistribution(state, named)?.id
  if (distributionId === undefined) throw new HttpError(400, 'DistributionNotFound', `No distribution with id "${named}"`)
  // How the platform treats a second deploy to an environment that is still switching is not
  // public; by default the emulator refuses it, so a client that follows its deploys can be tested,
  // and with deployWhileBusy 'accept' the new deploy replaces the switch in progress (startDeploy).
  if (refusesDeployWhileBusy(state, env)) {
    throw new HttpError(409, 'DeploymentInProgress', `Environment "${env.name}" is still deploying; wait until it reports its new distributionId`)
  }
  startDeploy(state, env, { distributionId, strategy, appConfigFileRoles, requestedAt: platformNow(state), appliedAt: null, by: user })
  // The answer's status and body are not public (public clients accept any 2xx and read nothing).
  ctx.invent('status-202', 'deploy-body')
  ctx.send(202, environmentJson(env, state.settings.environmentStatus, state.settings, 'environment-deployed'))
}

/** One-time download tokens: token -> distribution id. */
type DownloadTokens = Map<string, string>

export function cloudApi(state: EmulatorState, documented: Route[] = []): ApiModule {
  return { name: 'cloud-deployment-api', routes: cloudRoutes(state, new Map(), documented) }
}

/** The cloud API's endpoints; its docs page lists them with `documented`, the other modules' cloud paths. */
// eslint-disable-next-line max-lines-per-function -- a route table: one entry per endpoint (method, path, operation, summary, handler), read top to bottom as the API reference lists them and as the docs page shows them; split, the endpoints would be scattered
function cloudRoutes(state: EmulatorState, downloads: DownloadTokens, documented: Route[]): Route[] {
  const routes: Route[] = [
    {
      method: 'POST',
      path: '/v3/authn/access_token',
      operation: 'login',
      summary: 'Log in with JSON {username, password}; answers {token_type, access_token, refresh_token}',
      handler: async (ctx) => {
        await refuseWhenSso(ctx, state.settings)
        const body = await readJsonObject(ctx)
        const username = requireString(body, 'username')
        const password = requireString(body, 'password')
        if (username !== state.settings.username || password !== state.settings.password) {
          throw new HttpError(401, 'AuthenticationFailed', 'Invalid username or password')
        }
        ctx.send(200, {
          token_type: 'bearer',
          access_token: state.tokens.issue('access', username),
          refresh_token: state.tokens.issue('refresh', username)
        })
      }
    },
    {
      method: 'POST',
      path: '/v3/authn/refresh_token',
      operation: 'refresh',
      summary: 'New access token from JSON {grant_type: "refresh_token", refresh_token}; no new refresh token',
      handler: async (ctx) => {
        await refuseWhenSso(ctx, state.settings)
        const check = state.tokens.check('refresh', refreshTokenOf(await readJsonObject(ctx), true))
        if (!check.ok) throw new HttpError(401, 'Unauthorized', check.detail)
        ctx.send(200, { token_type: 'bearer', access_token: state.tokens.issue('access', check.sub) })
      }
    },
    {
      method: 'DELETE',
      path: '/v3/authn/refresh_token',
      operation: 'revoke-refresh',
      summary: 'Revoke the refresh token given in the same JSON body',
      handler: async (ctx) => {
        await refuseWhenSso(ctx, state.settings)
        const check = state.tokens.check('refresh', refreshTokenOf(await readJsonObject(ctx), false))
        if (!check.ok) throw new HttpError(401, 'Unauthorized', check.detail)
        state.tokens.revoke('refresh', check.jti)
        // The API reference shows 200 (no body is shown).
        ctx.send(200)
      }
    },
    {
      method: 'GET',
      path: '/v3/authn/verify_token',
      operation: 'verify',
      summary: 'Answers 200 while the bearer access token is valid (headers X-User-Id, X-User-Role), 401 otherwise',
      handler: (ctx) => {
        const user = authenticate(state, ctx.req)
        // The API reference shows 200 with the two headers; the body and the role's values are not public.
        ctx.invent('verify-body', 'user-role-value')
        ctx.send(200, { username: user, valid: true }, { 'x-user-id': user, 'x-user-role': 'deployer' })
      }
    },
    {
      method: 'POST',
      path: '/v3/authn/logout',
      operation: 'logout',
      summary: 'Invalidates ALL access tokens of the user (in every job using the account)',
      handler: (ctx) => {
        state.access.revokeAll(authenticate(state, ctx.req))
        // The API reference shows 200 (no body is shown).
        ctx.send(200)
      }
    },
    {
      method: 'GET',
      path: '/v3/distributions',
      operation: 'list-distributions',
      summary: 'Lists distributions: {offset, max, count, more, total, items}; query offset, max',
      handler: (ctx) => {
        authenticate(state, ctx.req)
        const offset = queryInt(ctx, 'offset', 0, 0, Number.MAX_SAFE_INTEGER)
        const max = queryInt(ctx, 'max', 100, 1, 1000)
        // A page holds up to 100 by default; a test's cap makes it hold fewer, and `max` says so (it tells the truth).
        const size = Math.min(max, state.settings.distributionPageSize)
        const numeric = state.settings.uploadAnswer === 'numeric-id'
        const items = state.distributions.slice(offset, offset + size).map((d) => distributionJson(d, numeric, state.settings.md5Case, state.settings.idCase))
        const total = state.distributions.length
        ctx.send(200, { offset, max: size, count: items.length, more: offset + items.length < total, total, items })
      }
    },
    {
      method: 'POST',
      path: '/v3/distributions',
      operation: 'upload',
      summary: 'Uploads a distribution (.tar.gz) as multipart/form-data part "dist_file"; answers 201 with its record',
      handler: uploadHandler(state)
    },
    {
      method: 'GET',
      path: '/v3/distributions/{id}',
      operation: 'get-distribution',
      summary: 'One distribution record',
      handler: (ctx) => {
        authenticate(state, ctx.req)
        ctx.send(200, distributionJson(distributionOr404(state, ctx.params.id ?? ''), false, state.settings.md5Case, state.settings.idCase))
      }
    },
    {
      method: 'POST',
      path: '/v3/distributions/{id}/download-token',
      operation: 'download-token',
      summary: 'A one-time token to download the distribution: {token} (seen in a public backup tool)',
      handler: (ctx) => {
        authenticate(state, ctx.req)
        const dist = distributionOr404(state, ctx.params.id ?? '')
        const token = randomUUID()
        downloads.set(token, dist.id)
        ctx.send(200, { token })
      }
    },
    {
      method: 'GET',
      path: '/v3/distributions/download/{token}',
      operation: 'download',
      summary: 'The distribution file for a download token (no bearer header: the token is the credential; used once)',
      handler: async (ctx) => {
        const id = downloads.get(ctx.params.token ?? '')
        if (id === undefined) throw new HttpError(404, 'DownloadTokenNotFound', 'Unknown or used download token')
        downloads.delete(ctx.params.token ?? '')
        const dist = distributionOr404(state, id)
        if (dist.path === undefined) throw new HttpError(404, 'DistributionNotKept', 'The emulator keeps no upload contents (--no-keep-uploads)')
        await ctx.sendStream(
          200,
          { 'content-type': 'application/gzip', 'content-disposition': `attachment; filename="${dist.name}"` },
          dist.size,
          createReadStream(dist.path)
        )
      }
    },
    {
      method: 'DELETE',
      path: '/v3/distributions/{id}',
      operation: 'delete-distribution',
      summary: 'Deletes a distribution (409 while an environment runs it or is deploying it, unless deleteInUse is allow)',
      handler: async (ctx) => {
        authenticate(state, ctx.req)
        await deleteDistribution(state, ctx.params.id ?? '')
        ctx.invent('status-204')
        ctx.send(204)
      }
    },
    {
      method: 'GET',
      path: '/v3/environments',
      operation: 'list-environments',
      summary:
        "Lists environments: {items: [{id, name, distributionId, status, strategy, deployedAt}], more, total, count}; query offset, max; ?name= answers that one environment. distributionId is what runs (the old one while deploying); status ('empty', 'deploying', 'running') is the emulator's own field",
      handler: (ctx) => listEnvironments(state, ctx)
    },
    {
      method: 'PUT',
      path: '/v3/environments/{id}/deploy',
      operation: 'deploy',
      summary:
        'Deploys JSON {distributionId, strategy, appConfigFileRoles?: [{appConfigFileId, role: "systemproperty"}]}; answers 202 with the environment at once, which switches after the deploy time (409 DeploymentInProgress meanwhile, or with deployWhileBusy accept a new deploy replaces the switch in progress)',
      handler: (ctx) => deploy(state, ctx)
    },
    {
      method: 'GET',
      path: '/v3/appconfigfiles',
      operation: 'list-appconfigfiles',
      summary: "Lists the stack's application configuration files: [{id, name}] (the emulator's appConfigFiles option)",
      handler: (ctx) => {
        authenticate(state, ctx.req)
        ctx.send(
          200,
          state.appConfigFiles.map((f) => ({ id: f.id, name: f.name }))
        )
      }
    },
    {
      method: 'GET',
      path: '/v3/docs',
      operation: 'docs',
      summary: 'This page',
      handler: (ctx) => ctx.sendText(200, 'text/html; charset=utf-8', docsPage([...routes, ...documented]))
    }
  ]
  return routes
}
