// Repository backups as a public backup tool (cloneRemote2Local) uses them: `GET /v3/backups` lists
// `{id, environmentId, createdAt}` as a JSON array (the tool iterates the answer itself), and
// `GET /v3/backups/{id}/repositorydownloadlink` answers 202 `{url}`, valid 15 minutes (public facts).
// The real URL is a signed link to a storage service; here it points at `/backup-files/{token}` on the
// emulator itself, which answers a small stand-in dump (both marked invented on the wire).
import { randomUUID } from 'node:crypto'
import { HttpError } from './http-util.js'
import type { ApiModule, RequestContext } from './router.js'
import { authenticate, type EmulatorState } from './state.js'

/** How long a download link is valid (public facts: 15 minutes). */
export const BACKUP_LINK_SECONDS = 15 * 60

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
        summary: 'Lists repository backups: [{id, environmentId, createdAt}] (one per environment, taken when the emulator started)',
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
        summary: 'The stand-in dump a download link points at (no authorization: the link is the credential; 403 once expired)',
        handler: (ctx) => {
          ctx.invent('backup-file')
          const link = links.get(ctx.params.token ?? '')
          const backup = link === undefined || Date.now() >= link.expiresAtMs ? undefined : state.backups.find((b) => b.id === link.backupId)
          if (backup === undefined) throw new HttpError(403, 'AccessDenied', 'The download link is unknown or has expired')
          const env = state.environments.find((e) => e.id === backup.environmentId)
          const dump = `-- brcloud emulator: a stand-in repository dump\n-- backup ${backup.id} of environment ${env?.name ?? backup.environmentId}, taken ${backup.createdAt}\n`
          ctx.sendText(200, 'application/sql', dump, { 'content-disposition': `attachment; filename="${backup.id}.sql"` })
        }
      }
    ]
  }
}
