// Repository backups as a public backup tool (cloneRemote2Local) uses them: `GET /v3/backups` lists
// `{id, environmentId, createdAt}` as a JSON array (the tool iterates the answer itself), and
// `GET /v3/backups/{id}/repositorydownloadlink` answers 202 `{url}`, valid 15 minutes (public facts).
// The real URL is a signed link to a storage service; here it points at `/backup-files/{token}` on the
// emulator itself, which answers a small stand-in dump (both marked invented on the wire). The file is
// gzip, as Mission Control's `.gz` is: the public tool gunzips what it downloaded before loading it.
import { randomUUID } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { HttpError } from './http-util.js'
import type { ApiModule, RequestContext } from './router.js'
import { authenticate, type EmulatorState } from './state.js'
import type { StoredBackup } from './types.js'

/** One buffer as the stream sendStream takes. */
async function* asStream(bytes: Buffer): AsyncIterable<Buffer> {
  yield bytes
}

/** How long a download link is valid (public facts: 15 minutes). */
export const BACKUP_LINK_SECONDS = 15 * 60

/**
 * The stand-in repository dump, gzipped. Its name, content type and contents are the emulator's own: no
 * public source shows the storage service's headers. `application/gzip` (RFC 6713) and no
 * `Content-Encoding`: the body is the `.gz` file itself, so a client that decodes encodings keeps it whole.
 */
function backupFile(backup: StoredBackup, environmentName: string): { name: string; contentType: string; body: Buffer } {
  const dump = [
    '-- brcloud emulator: a stand-in repository dump (SQL)',
    `-- backup ${backup.id} of environment ${environmentName}, taken ${backup.createdAt}`,
    ''
  ].join('\n')
  return { name: `${backup.id}.sql.gz`, contentType: 'application/gzip', body: gzipSync(dump) }
}

export function backupsApi(state: EmulatorState): ApiModule {
  /** Download links: token -> the backup and when the link stops working. Links may be used again until then (a tool retries). */
  const links = new Map<string, { backupId: string; expiresAtMs: number }>()
  // In-process (the simulation) there is no listening address: the request's Host stands for it.
  const baseOf = (ctx: RequestContext): string => `http://${ctx.req.headers.host ?? '127.0.0.1'}`
  return {
    name: 'backups',
    routes: [
      {
        method: 'GET',
        path: '/v3/backups',
        operation: 'list-backups',
        summary: 'Lists repository backups: [{id, environmentId, createdAt}] (one per environment, taken when the emulator started, unless told otherwise)',
        handler: (ctx) => {
          authenticate(state, ctx.req)
          ctx.send(
            200,
            state.backups.map(({ id, environmentId, createdAt }) => ({ id, environmentId, createdAt }))
          )
        }
      },
      {
        method: 'GET',
        path: '/v3/backups/{id}/repositorydownloadlink',
        operation: 'backup-download-link',
        summary: "202 {url}: a link to the backup's repository dump, valid 15 minutes",
        handler: (ctx) => {
          authenticate(state, ctx.req)
          const id = ctx.params.id ?? ''
          if (!state.backups.some((b) => b.id === id)) throw new HttpError(404, 'BackupNotFound', `No backup with id "${id}"`)
          const now = Date.now()
          for (const [token, link] of links) if (now >= link.expiresAtMs) links.delete(token)
          const token = randomUUID()
          links.set(token, { backupId: id, expiresAtMs: now + BACKUP_LINK_SECONDS * 1000 })
          ctx.invent('download-url')
          ctx.send(202, { url: `${baseOf(ctx)}/backup-files/${token}` })
        }
      },
      {
        method: 'GET',
        path: '/backup-files/{token}',
        operation: 'backup-file',
        summary: 'The stand-in dump a download link points at, gzipped (a .sql.gz; no authorization: the link is the credential; 403 once expired)',
        handler: async (ctx) => {
          ctx.invent('backup-file')
          const link = links.get(ctx.params.token ?? '')
          const backup = link === undefined || Date.now() >= link.expiresAtMs ? undefined : state.backups.find((b) => b.id === link.backupId)
          if (backup === undefined) throw new HttpError(403, 'AccessDenied', 'The download link is unknown or has expired')
          const env = state.environments.find((e) => e.id === backup.environmentId)
          const file = backupFile(backup, env?.name ?? backup.environmentId)
          const headers = { 'content-type': file.contentType, 'content-disposition': `attachment; filename="${file.name}"` }
          await ctx.sendStream(200, headers, file.body.length, asStream(file.body))
        }
      }
    ]
  }
}
