// What the emulator marks as its own on the wire (`X-Emulator-Invented`), and the paths that exist on
// the real services but are not emulated (501, never a 404 that looks like a genuine miss).
// docs/emulator.md lists every name and the public source each answer follows.
import type { Operation } from './types.js'
import { Router } from './router.js'

export const INVENTED_HEADER = 'x-emulator-invented'

/** Search API statuses the public error table names; any other status of a search path is the emulator's own. */
const SEARCH_STATUSES = new Set([400, 403, 414, 429, 431, 500, 504, 543])

/**
 * The marks of an error answer. Cloud API: only 401 is a public status (a bad token, wrong credentials), and
 * `AuthenticationFailed` the only public code (wrong credentials at the login). The search API's statuses
 * are its error table's; its body shape is public. GitHub's error body is not public. Every `error_detail`
 * and `message` text is the emulator's own, so the wording is never marked (docs/emulator.md says so).
 */
export function errorMarks(pathname: string, status: number, code: string): string[] {
  if (pathname.startsWith('/api/')) return SEARCH_STATUSES.has(status) ? [] : [`status-${status}`]
  if (pathname.startsWith('/github-oidc/')) return ['error-body']
  if (pathname.startsWith('/idp/')) return [] // the whole identity provider is marked sso-idp
  const marks: string[] = []
  if (status !== 401) marks.push(`status-${status}`)
  if (!(code === 'AuthenticationFailed' && status === 401 && pathname === '/v3/authn/access_token')) marks.push('error-code')
  return marks
}

/** Marks every answer of an operation carries, whatever the handler does. */
export function operationMarks(operation: Operation): string[] {
  if (operation === 'site') return ['site']
  if (operation === 'docs') return ['docs-page']
  if (operation.startsWith('idp-')) return ['sso-idp']
  return []
}

/** Real paths without an emulation: where a public source shows them, and why they are not emulated. */
export const NOT_EMULATED: ReadonlyArray<{ method: string; path: string; source: string; why: string }> = [
  {
    method: 'PUT',
    path: '/v3/environments/{id}',
    source: 'public facts: an environment is marked as Acceptance with a PUT on environments',
    why: 'its request body is not public'
  },
  {
    method: 'GET',
    path: '/api/v2/suggest/',
    source: "@bloomreach/discovery-web-sdk 2.0.1: autoSuggest's default endpoint https://suggest.dxpapi.com/api/v2/suggest/",
    why: 'another host and another API; its answer is not in the specification'
  },
  {
    method: 'OPTIONS',
    path: '/api/v1/core/',
    source:
      "a browser's CORS preflight: Bloomreach's search widget (discovery-connector-sdk) sends its search GET with Content-Type: application/json, which a browser asks about first",
    why: 'which origins, methods and headers the service allows is not public (nor are the CORS headers of its answers)'
  },
  {
    method: 'GET',
    path: '/api/v2/widgets/{type}/{id}',
    source: "@bloomreach/discovery-web-sdk 2.0.1: the recommendation widgets' endpoint https://pathways.dxpapi.com/api/v2/widgets/",
    why: 'another host and another API; its answer is not in the specification'
  }
]

const router = new Router([
  {
    name: 'not-emulated',
    routes: NOT_EMULATED.map(({ method, path }) => ({ method, path, operation: 'not-emulated' as const, handler: () => undefined }))
  }
])

/** Whether `method pathname` is a real path this emulator does not stand in for. */
export function isNotEmulated(method: string, pathname: string): boolean {
  return router.match(method, pathname).kind === 'route'
}

/** The 501 body of a path that is not emulated; it names the call. */
export function notEmulatedBody(method: string, pathname: string): { error_code: string; error_detail: string } {
  return { error_code: 'NotEmulated', error_detail: `${method} ${pathname} exists on the real service but is not emulated here` }
}
