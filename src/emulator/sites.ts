// The emulated sites: GET /sites/<environment name>/<path> answers the file at <path> of the release that
// environment runs, so a client can health-check a release after a deploy. As on brXM, the environment's
// host serves the site webapp: the files inside webapps/site.war (a zip), also under its context path
// (/site/...). A file at the distribution's root is served too, after the webapp's: a convenience of the
// emulator's own. A public site: no authorization. No counterpart in the platform's API.
import { extname } from 'node:path'
import type { ApiModule, Handler, RequestContext, Route } from './router.js'
import type { EmulatorState } from './state.js'
import { findFile, readEntry, readEntryPart, readTarIndex, type TarIndex } from './tar-index.js'
import type { StoredDistribution } from './types.js'
import { findZipFile, readZipEntry, readZipIndex, whyUnreadable, type ZipEntry, type ZipIndex, type ZipSource } from './zip-reader.js'

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

/** `fail`, for the steps that return what they found: undefined, the answer already sent. */
function refused(ctx: RequestContext, status: number, message: string, headers: Record<string, string> = {}): undefined {
  fail(ctx, status, message, headers)
  return undefined
}

/** A path names a file; no path, or one ending with '/', names that directory's index.html. */
const fileOf = (path: string): string => (path === '' || path.endsWith('/') ? `${path}index.html` : path)

/** The site webapp's archive, and its context path: brXM serves it at /site/ as well as at the host's root. */
const SITE_WAR = 'webapps/site.war'
const SITE_CONTEXT = 'site'

/** A distribution held in memory (the simulation's): its root files only, by the same rules (the failing marker, index.html, 404). */
function serveFromMemory(ctx: RequestContext, dist: StoredDistribution, files: Readonly<Record<string, string>>): void {
  if (files[SITE_FAILS_MARKER] !== undefined) return fail(ctx, 500, `Distribution ${dist.id} contains ${SITE_FAILS_MARKER}: its site fails`)
  const path = fileOf(ctx.params.path ?? '')
  const text = files[path]
  if (text === undefined) return fail(ctx, 404, `No file "${path}" in distribution ${dist.id}`)
  ctx.sendText(200, contentTypeOf(path), text)
}

const contentTypeOf = (name: string): string => CONTENT_TYPES[extname(name).toLowerCase()] ?? TEXT

const reasonOf = (err: unknown): string => (err instanceof Error ? err.message : String(err))

/** The site webapp of a stored distribution: its site.war, read as a zip from inside the stored tar. */
interface SiteWebapp {
  source: ZipSource
  index: ZipIndex
}

/** webapps/site.war read as the zip it is (its central directory only); undefined when the distribution has none. */
async function openSiteWebapp(tarPath: string, tar: TarIndex): Promise<SiteWebapp | undefined> {
  const war = findFile(tar, SITE_WAR)
  if (war === undefined) return undefined
  const source: ZipSource = { size: war.size, stream: (offset, length) => readEntryPart(tarPath, war, offset, length) }
  return { source, index: await readZipIndex(source) }
}

/** The webapp's file a request names: at the host's root first, then under the context path (/site/...). */
function webappFile(webapp: SiteWebapp | undefined, requested: string): { source: ZipSource; entry: ZipEntry } | undefined {
  if (webapp === undefined) return undefined
  const underContext = requested === SITE_CONTEXT || requested.startsWith(`${SITE_CONTEXT}/`)
  const entry =
    findZipFile(webapp.index, fileOf(requested)) ?? (underContext ? findZipFile(webapp.index, fileOf(requested.slice(SITE_CONTEXT.length + 1))) : undefined)
  return entry === undefined ? undefined : { source: webapp.source, entry }
}

async function sendWebappFile(ctx: RequestContext, file: { source: ZipSource; entry: ZipEntry }, dist: StoredDistribution): Promise<void> {
  const why = whyUnreadable(file.entry)
  if (why !== undefined) return fail(ctx, 500, `The emulator cannot read ${SITE_WAR} of distribution ${dist.id}: ${why}`)
  await ctx.sendStream(200, { 'content-type': contentTypeOf(file.entry.name) }, file.entry.size, readZipEntry(file.source, file.entry))
}

/** The value made once per distribution (keyed by the record, so a deleted one is forgotten); a failed one is made again next time. */
function once<T>(cache: WeakMap<StoredDistribution, Promise<T>>, dist: StoredDistribution, make: () => Promise<T>): Promise<T> {
  let value = cache.get(dist)
  if (value === undefined) {
    value = make()
    value.catch(() => cache.delete(dist))
    cache.set(dist, value)
  }
  return value
}

/** A stored release as its site reads it: the tar's entries and, when it has one, its site webapp. */
interface Release {
  tarPath: string
  tar: TarIndex
  webapp: SiteWebapp | undefined
}

/** The emulator's convenience: a file at the distribution's root, when the site webapp has none of that name. */
async function sendRootFile(ctx: RequestContext, dist: StoredDistribution, release: Release): Promise<void> {
  const path = fileOf(ctx.params.path ?? '')
  const entry = findFile(release.tar, path)
  if (entry === undefined) {
    const where = release.webapp === undefined ? 'in distribution' : `in ${SITE_WAR} or at the root of distribution`
    return fail(ctx, 404, `No file "${path}" ${where} ${dist.id} of environment "${ctx.params.environment ?? ''}"`)
  }
  await ctx.sendStream(200, { 'content-type': contentTypeOf(entry.name) }, entry.size, readEntry(release.tarPath, entry))
}

export function sitesApi(state: EmulatorState): ApiModule {
  // One read of the archive's headers, and of site.war's central directory, per distribution.
  const tarIndexes = new WeakMap<StoredDistribution, Promise<TarIndex>>()
  const webapps = new WeakMap<StoredDistribution, Promise<SiteWebapp | undefined>>()

  /** The distribution the environment serves now, or undefined once the answer was sent. */
  const servedBy = (ctx: RequestContext): StoredDistribution | undefined => {
    const name = ctx.params.environment ?? ''
    const env = state.environments.find((e) => e.name === name)
    if (env === undefined) return refused(ctx, 404, `No environment named "${name}"`)
    if (env.status === 'deploying' && state.settings.siteDuringDeploy === 'unavailable') {
      return refused(ctx, 503, `Environment "${name}" is deploying`, { 'retry-after': '1' })
    }
    // What runs: the old release until the switch is done, whatever the API reports.
    const dist = env.serving === null ? undefined : state.distributions.find((d) => d.id === env.serving)
    return dist ?? refused(ctx, 404, `Environment "${name}" runs no distribution`)
  }

  /** Reads (once) what the site of a stored distribution needs, or undefined once a 500 was sent. */
  const readRelease = async (ctx: RequestContext, dist: StoredDistribution, tarPath: string): Promise<Release | undefined> => {
    let tar: TarIndex
    try {
      tar = await once(tarIndexes, dist, () => readTarIndex(tarPath))
    } catch (err) {
      return refused(ctx, 500, `The emulator could not read distribution ${dist.id}: ${reasonOf(err)}`)
    }
    if (tar.has(SITE_FAILS_MARKER)) return refused(ctx, 500, `Distribution ${dist.id} contains ${SITE_FAILS_MARKER}: its site fails`)
    try {
      return { tarPath, tar, webapp: await once(webapps, dist, () => openSiteWebapp(tarPath, tar)) }
    } catch (err) {
      // Tomcat would not deploy such a war: the site fails rather than fall back to the root files.
      const problem = `${SITE_WAR} of distribution ${dist.id} is not a zip the emulator can read (${reasonOf(err)}): its site webapp would not start`
      return refused(ctx, 500, problem)
    }
  }

  const handler: Handler = async (ctx) => {
    const dist = servedBy(ctx)
    if (dist === undefined) return
    if (dist.files !== undefined) return serveFromMemory(ctx, dist, dist.files)
    if (dist.path === undefined) {
      return fail(ctx, 500, 'The emulator keeps no upload contents (started with keepUploads: false / --no-keep-uploads), so it cannot serve sites')
    }
    const release = await readRelease(ctx, dist, dist.path)
    if (release === undefined) return
    const inWebapp = webappFile(release.webapp, ctx.params.path ?? '')
    if (inWebapp !== undefined) return sendWebappFile(ctx, inWebapp, dist)
    await sendRootFile(ctx, dist, release)
  }

  const summary =
    "A file of the release the environment runs: inside webapps/site.war (also under /site/), else at the distribution's root (no authorization; no path: index.html); 503 while deploying, 404 when missing or running none, 500 for every path when the distribution holds the root file 'EMULATOR-SITE-FAILS' or a site.war that is not a readable zip"
  const routes: Route[] = []
  for (const method of ['GET', 'HEAD']) {
    routes.push({ method, path: '/sites/{environment}', operation: 'site', summary, handler })
    routes.push({ method, path: '/sites/{environment}/{path+}', operation: 'site', summary, handler })
  }
  return { name: 'sites', routes }
}
