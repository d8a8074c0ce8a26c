// Method + path router over API modules. A module (the cloud deployment API, later the product search
// API) is a list of routes; a path pattern is literal segments and `{param}` segments. A pattern may end
// with `/` (the search API's `/api/v1/core/`): only a path with no route that ends with `/` is refused.
// A last segment `{name+}` takes the rest of the path, one or more segments, decoded and joined with `/`
// (a site's file path).
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Operation, RecordedRequest } from './types.js'

export interface RequestContext {
  req: IncomingMessage
  res: ServerResponse
  url: URL
  params: Record<string, string>
  record: RecordedRequest
  /**
   * Names what in this answer no public source shows (`status-201`, `field-strategy`, ...): sent as the
   * `X-Emulator-Invented` header, so a captured exchange tells what to trust. See docs/emulator.md.
   */
  invent(...names: string[]): void
  /** Answers JSON (no body when `body` is undefined). A 'drop-after-upload' fault destroys the socket instead. */
  send(status: number, body?: unknown, headers?: Record<string, string>): void
  sendText(status: number, contentType: string, text: string, headers?: Record<string, string>): void
  /** Answers `length` bytes read from `body` (a file of a stored distribution); cuts the connection if they fall short. */
  sendStream(status: number, headers: Record<string, string>, length: number, body: AsyncIterable<Buffer>): Promise<void>
}

export type Handler = (ctx: RequestContext) => Promise<void> | void

export interface Route {
  method: string
  path: string
  operation: Operation
  handler: Handler
  /** One line for the docs page. */
  summary?: string
}

export interface ApiModule {
  name: string
  routes: Route[]
}

export type RouteMatch =
  | { kind: 'route'; route: Route; params: Record<string, string> }
  | { kind: 'trailing-slash' }
  | { kind: 'not-found' }
  | { kind: 'method-not-allowed'; allow: string[] }

interface Entry {
  route: Route
  segments: string[]
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
  const last = pattern[pattern.length - 1] ?? ''
  if (last.startsWith('{') && last.endsWith('+}')) {
    if (actual.length < pattern.length) return undefined
    const params = matchSegments(pattern.slice(0, -1), actual.slice(0, pattern.length - 1))
    if (params === undefined) return undefined
    try {
      params[last.slice(1, -2)] = actual
        .slice(pattern.length - 1)
        .map((a) => decodeURIComponent(a))
        .join('/')
    } catch {
      return undefined
    }
    return params
  }
  if (pattern.length !== actual.length) return undefined
  const params: Record<string, string> = {}
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] ?? ''
    const a = actual[i] ?? ''
    if (p.startsWith('{') && p.endsWith('}')) {
      if (a === '') return undefined
      try {
        params[p.slice(1, -1)] = decodeURIComponent(a)
      } catch {
        return undefined
      }
    } else if (p !== a) {
      return undefined
    }
  }
  return params
}

export class Router {
  private readonly entries: Entry[]

  constructor(readonly modules: ApiModule[]) {
    this.entries = modules.flatMap((m) => m.routes.map((route) => ({ route, segments: route.path.split('/') })))
  }

  match(method: string, pathname: string): RouteMatch {
    const actual = pathname.split('/')
    const allow: string[] = []
    for (const { route, segments } of this.entries) {
      const params = matchSegments(segments, actual)
      if (params === undefined) continue
      if (route.method === method) return { kind: 'route', route, params }
      allow.push(route.method)
    }
    if (allow.length > 0) return { kind: 'method-not-allowed', allow }
    if (pathname.length > 1 && pathname.endsWith('/')) return { kind: 'trailing-slash' }
    return { kind: 'not-found' }
  }
}
