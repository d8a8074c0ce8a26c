// The emulated sites: GET /sites/<environment name>/<path> answers the file at <path> inside the
// distribution that environment runs, so a client can health-check a release after a deploy. A public
// site: no authorization. An emulator convenience with no counterpart in the platform's API.
import { extname } from 'node:path'
import type { ApiModule, Handler, RequestContext, Route } from './router.js'
import type { EmulatorState } from './state.js'
import { findFile, readEntry, readTarIndex, type TarIndex } from './tar-index.js'
import type { StoredDistribution } from './types.js'

/** A distribution whose archive holds this file at its root makes its site answer 500 on every path. */
export const SITE_FAILS_MARKER = 'EMULATOR-SITE-FAILS'

const TEXT = 'text/plain; charset=utf-8'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.pdf': 'application/pdf'
}

function fail(ctx: RequestContext, status: number, message: string, headers: Record<string, string> = {}): void {
  ctx.sendText(status, TEXT, `${message}\n`, headers)
}

/** A distribution held in memory: the same rules as one on disk (the failing marker, index.html, 404). */
function serveFromMemory(ctx: RequestContext, dist: StoredDistribution, files: Readonly<Record<string, string>>): void {
  if (files[SITE_FAILS_MARKER] !== undefined) return fail(ctx, 500, `Distribution ${dist.id} contains ${SITE_FAILS_MARKER}: its site fails`)
  const requested = ctx.params.path ?? ''
  const path = requested === '' || requested.endsWith('/') ? `${requested}index.html` : requested
  const text = files[path]
  if (text === undefined) return fail(ctx, 404, `No file "${path}" in distribution ${dist.id}`)
  ctx.sendText(200, CONTENT_TYPES[extname(path).toLowerCase()] ?? TEXT, text)
}

export function sitesApi(state: EmulatorState): ApiModule {
  // One read of the archive's headers per distribution (keyed by the record, so a deleted one is forgotten).
  const indexes = new WeakMap<StoredDistribution, Promise<TarIndex>>()
  const indexOf = (dist: StoredDistribution, path: string): Promise<TarIndex> => {
    let index = indexes.get(dist)
    if (index === undefined) {
      index = readTarIndex(path)
      index.catch(() => indexes.delete(dist)) // a failed read is tried again next time
      indexes.set(dist, index)
    }
    return index
  }

  const handler: Handler = async (ctx) => {
    const name = ctx.params.environment ?? ''
    const env = state.environments.find((e) => e.name === name)
    if (env === undefined) return fail(ctx, 404, `No environment named "${name}"`)
    if (env.status === 'deploying' && state.settings.siteDuringDeploy === 'unavailable') {
      return fail(ctx, 503, `Environment "${name}" is deploying`, { 'retry-after': '1' })
    }
    // What runs: the old release until the switch is done, whatever the API reports.
    if (env.serving === null) return fail(ctx, 404, `Environment "${name}" runs no distribution`)
    const dist = state.distributions.find((d) => d.id === env.serving)
    if (dist === undefined) return fail(ctx, 404, `Environment "${name}" runs no distribution`)
    if (dist.files !== undefined) return serveFromMemory(ctx, dist, dist.files)
    if (dist.path === undefined) {
      return fail(ctx, 500, 'The emulator keeps no upload contents (started with keepUploads: false / --no-keep-uploads), so it cannot serve sites')
    }
    let index: TarIndex
    try {
      index = await indexOf(dist, dist.path)
    } catch (err) {
      return fail(ctx, 500, `The emulator could not read distribution ${dist.id}: ${err instanceof Error ? err.message : String(err)}`)
    }
    if (index.has(SITE_FAILS_MARKER)) return fail(ctx, 500, `Distribution ${dist.id} contains ${SITE_FAILS_MARKER}: its site fails`)

    // No path, or one ending with '/', asks for that directory's index.html.
    const requested = ctx.params.path ?? ''
    const path = requested === '' || requested.endsWith('/') ? `${requested}index.html` : requested
    const entry = findFile(index, path)
    if (entry === undefined) return fail(ctx, 404, `No file "${path}" in distribution ${dist.id} of environment "${name}"`)
    const contentType = CONTENT_TYPES[extname(entry.name).toLowerCase()] ?? TEXT
    await ctx.sendStream(200, { 'content-type': contentType }, entry.size, readEntry(dist.path, entry))
  }

  const summary =
    "A file of the distribution the environment runs (no authorization; no path: index.html); 503 while deploying, 404 when missing or running none, 500 for every path when the distribution holds the root file 'EMULATOR-SITE-FAILS'"
  const routes: Route[] = []
  for (const method of ['GET', 'HEAD']) {
    routes.push({ method, path: '/sites/{environment}', operation: 'site', summary, handler })
    routes.push({ method, path: '/sites/{environment}/{path+}', operation: 'site', summary, handler })
  }
  return { name: 'sites', routes }
}
