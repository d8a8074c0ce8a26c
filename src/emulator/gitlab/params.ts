// A request's parameters as GitLab's API framework reads them: the query (`refs[]=a&refs[]=b` an array, a name given
// twice its last value), then a JSON or form body over it; each endpoint declares what it requires, of which type and
// values, and the framework refuses the rest before the endpoint runs (400 `{"error": "sha is missing, tag is invalid"}`).
// And offset pagination: `page`, `per_page` (default 20, at most 100), the Link and X-* headers GitLab writes.
import { GitLabError } from './errors.js'

export type Params = Record<string, unknown>

/** The query's parameters: a name ending in [] collects an array, any other name keeps its last value. */
export function queryParams(query: URLSearchParams): Params {
  const out: Params = {}
  for (const [key, value] of query) {
    if (key.endsWith('[]')) {
      const name = key.slice(0, -2)
      const list = Array.isArray(out[name]) ? (out[name] as unknown[]) : []
      out[name] = [...list, value]
    } else out[key] = value
  }
  return out
}

/** A body as GitLab takes it: JSON (an object), or a form; undefined for a body it cannot read. */
export function bodyParams(raw: Buffer, contentType: string | undefined): Params | undefined {
  if (raw.length === 0) return {}
  const text = raw.toString('utf8')
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  if (type === 'application/x-www-form-urlencoded') return queryParams(new URLSearchParams(text))
  try {
    const json = JSON.parse(text) as unknown
    return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Params) : undefined
  } catch {
    return type === 'application/json' ? undefined : queryParams(new URLSearchParams(text))
  }
}

const TRUE = ['true', '1', 't', 'yes', 'y', 'on']
const FALSE = ['false', '0', 'f', 'no', 'n', 'off']

/** Reads declared parameters, collecting the framework's refusals; `done()` throws them all at once, as GitLab answers. */
export class ParamReader {
  private readonly problems: string[] = []

  constructor(readonly params: Params) {}

  string(name: string, required = false): string | undefined {
    const value = this.params[name]
    if (value === undefined || value === null) return this.missing(name, required)
    if (typeof value === 'string' || typeof value === 'number') return String(value)
    return this.invalid(name)
  }

  boolean(name: string, required = false): boolean | undefined {
    const value = this.params[name]
    if (value === undefined || value === null) return this.missing(name, required)
    if (typeof value === 'boolean') return value
    const word = String(value).toLowerCase()
    if (TRUE.includes(word)) return true
    if (FALSE.includes(word)) return false
    return this.invalid(name)
  }

  /** One of `values`, else the framework's "does not have a valid value"; `fallback` when absent. */
  oneOf<T extends string>(name: string, values: readonly T[], fallback?: T, required = false): T | undefined {
    const value = this.string(name, required)
    if (value === undefined) return fallback
    if ((values as readonly string[]).includes(value)) return value as T
    this.problems.push(`${name} does not have a valid value`)
    return undefined
  }

  integer(name: string, required = false): number | undefined {
    const value = this.params[name]
    if (value === undefined || value === null) return this.missing(name, required)
    if (/^-?\d+$/.test(String(value))) return Number(value)
    return this.invalid(name)
  }

  /** A list given as an array, or as one comma-separated string (labels=a,b). */
  list(name: string, required = false): string[] | undefined {
    const value = this.params[name]
    if (value === undefined || value === null) return this.missing(name, required)
    const items = Array.isArray(value) ? value.map(String) : String(value).split(',')
    return items.map((i) => i.trim()).filter((i) => i !== '')
  }

  date(name: string): number | undefined {
    const value = this.string(name)
    if (value === undefined) return undefined
    const ms = Date.parse(value)
    return Number.isNaN(ms) ? this.invalid(name) : ms
  }

  done(): void {
    if (this.problems.length > 0) throw GitLabError.params(this.problems)
  }

  private missing(name: string, required: boolean): undefined {
    if (required) this.problems.push(`${name} is missing`)
    return undefined
  }

  private invalid(name: string): undefined {
    this.problems.push(`${name} is invalid`)
    return undefined
  }
}

export interface Paged<T> {
  items: T[]
  headers: Record<string, string>
}

export const DEFAULT_PER_PAGE = 20
export const MAX_PER_PAGE = 100

/**
 * One page of `items` and GitLab's headers: X-Page, X-Per-Page, X-Next-Page and X-Prev-Page (empty when none), X-Total,
 * X-Total-Pages, and Link (prev and next when they exist, first and last always), each link the request's address with
 * its parameters, the project's `id` among them, and page and per_page, sorted by name as GitLab writes them.
 */
export function paginate<T>(items: readonly T[], reader: ParamReader, self: { base: string; path: string; query: URLSearchParams; id: string }): Paged<T> {
  const askedPerPage = reader.integer('per_page')
  const askedPage = reader.integer('page')
  reader.done()
  const perPage = askedPerPage === undefined || askedPerPage < 1 ? DEFAULT_PER_PAGE : Math.min(askedPerPage, MAX_PER_PAGE)
  const page = askedPage === undefined || askedPage < 1 ? 1 : askedPage
  const totalPages = Math.max(1, Math.ceil(items.length / perPage))
  const next = page < totalPages ? page + 1 : undefined
  const prev = page > 1 && page <= totalPages ? page - 1 : undefined
  const href = (n: number): string => {
    const q = new URLSearchParams(self.query)
    q.set('id', self.id)
    q.set('page', String(n))
    q.set('per_page', String(perPage))
    q.sort()
    return `${self.base}${self.path}?${q.toString()}`
  }
  const links = [
    ...(prev !== undefined ? [`<${href(prev)}>; rel="prev"`] : []),
    ...(next !== undefined ? [`<${href(next)}>; rel="next"`] : []),
    `<${href(1)}>; rel="first"`,
    `<${href(totalPages)}>; rel="last"`
  ]
  return {
    items: items.slice((page - 1) * perPage, page * perPage),
    headers: {
      'x-per-page': String(perPage),
      'x-page': String(page),
      'x-next-page': next === undefined ? '' : String(next),
      'x-prev-page': prev === undefined ? '' : String(prev),
      link: links.join(', '),
      'x-total': String(items.length),
      'x-total-pages': String(totalPages)
    }
  }
}
