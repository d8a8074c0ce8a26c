// The endpoints the GitLab stand-in answers, under /api/v4/projects/:id (a numeric id or the URL-encoded path):
// matched by method and path, their parameters read as GitLab declares them, answered from the model.
import type { SettableStatus } from './model.js'
import {
  DEPLOYMENT_STATUSES,
  ENVIRONMENT_TIERS,
  SETTABLE_STATUSES,
  type Deployment,
  type Environment,
  type GitLabUser,
  type Issue,
  type IssueChange,
  type Label
} from './model.js'
import { GitLabError } from './errors.js'
import {
  branchJson,
  commitDetailJson,
  commitJson,
  compareJson,
  deploymentJson,
  environmentJson,
  issueJson,
  labelJson,
  mergeRequestJson,
  noteJson,
  projectJson,
  tagJson,
  type View
} from './json.js'
import { paginate, ParamReader, type Params } from './params.js'

export type RouteName =
  | 'get-project'
  | 'get-commit'
  | 'commit-merge-requests'
  | 'compare'
  | 'merge-base'
  | 'list-branches'
  | 'get-branch'
  | 'list-tags'
  | 'list-deployments'
  | 'get-deployment'
  | 'create-deployment'
  | 'update-deployment'
  | 'list-environments'
  | 'update-environment'
  | 'list-issues'
  | 'get-issue'
  | 'create-issue'
  | 'update-issue'
  | 'list-notes'
  | 'create-note'
  | 'list-labels'
  | 'get-label'
  | 'create-label'

/** The routes that change something: a token with only read_api is refused them. */
export const WRITE_ROUTES: readonly RouteName[] = [
  'create-deployment',
  'update-deployment',
  'update-environment',
  'create-issue',
  'update-issue',
  'create-note',
  'create-label'
]
/** Those a Reporter may not do (GitLab's create_deployment, update_deployment and update_environment need a Developer). */
export const DEVELOPER_ROUTES: readonly RouteName[] = ['create-deployment', 'update-deployment', 'update-environment']

export interface Matched {
  route: RouteName
  /** The project's id as the path gave it, decoded (a number or group/sub/name). */
  project: string
  /** The path's last variable part, decoded (a ref, a branch, an id, a label). */
  arg?: string
}

export interface Answer {
  status: number
  body: unknown
  headers?: Record<string, string>
}

export interface RouteContext {
  view: View
  params: Params
  user: GitLabUser
  /** The request's path (as sent) and query, for the Link header. */
  path: string
  query: URLSearchParams
}

/** A path segment decoded; a malformed escape names nothing. */
function decoded(part: string | undefined): string | undefined {
  if (part === undefined || part === '') return undefined
  try {
    return decodeURIComponent(part)
  } catch {
    return undefined
  }
}

/** The route of a method and path; undefined is GitLab's 404 `{"error": "404 Not Found"}`. */
export function match(method: string, pathname: string): Matched | undefined {
  const parts = pathname.split('/').slice(1)
  const [api, version, projects, id, ...rest] = parts
  const project = decoded(id)
  if (api !== 'api' || version !== 'v4' || projects !== 'projects' || project === undefined) return undefined
  const key = `${method} ${rest.map((p, i) => (i === 0 || (rest[0] === 'repository' && i === 1) ? p : ':')).join('/')}`
  const route = ROUTES[key]
  if (route === undefined) return undefined
  const variable = rest.length > 1 && ROUTES_WITH_ARG.has(route) ? decoded(rest[rest[0] === 'repository' ? 2 : 1]) : undefined
  if (ROUTES_WITH_ARG.has(route) && variable === undefined) return undefined
  const tail = TAILS[route]
  if (tail !== undefined && rest.at(-1) !== tail) return undefined // issues/1/comments names nothing
  return { route, project, ...(variable !== undefined && { arg: variable }) }
}

const ROUTES: Record<string, RouteName> = {
  'GET ': 'get-project',
  'GET repository/commits/:': 'get-commit',
  'GET repository/commits/:/:': 'commit-merge-requests',
  'GET repository/compare': 'compare',
  'GET repository/merge_base': 'merge-base',
  'GET repository/branches': 'list-branches',
  'GET repository/branches/:': 'get-branch',
  'GET repository/tags': 'list-tags',
  'GET deployments': 'list-deployments',
  'POST deployments': 'create-deployment',
  'GET deployments/:': 'get-deployment',
  'PUT deployments/:': 'update-deployment',
  'GET environments': 'list-environments',
  'PUT environments/:': 'update-environment',
  'GET issues': 'list-issues',
  'POST issues': 'create-issue',
  'GET issues/:': 'get-issue',
  'PUT issues/:': 'update-issue',
  'GET issues/:/:': 'list-notes',
  'POST issues/:/:': 'create-note',
  'GET labels': 'list-labels',
  'POST labels': 'create-label',
  'GET labels/:': 'get-label'
}
const ROUTES_WITH_ARG = new Set<RouteName>([
  'get-commit',
  'commit-merge-requests',
  'get-branch',
  'get-deployment',
  'update-deployment',
  'update-environment',
  'get-issue',
  'update-issue',
  'list-notes',
  'create-note',
  'get-label'
])
/** The fixed last part of the routes whose path ends after their variable. */
const TAILS: Partial<Record<RouteName, string>> = { 'commit-merge-requests': 'merge_requests', 'list-notes': 'notes', 'create-note': 'notes' }

const ok = (body: unknown, headers?: Record<string, string>): Answer => ({ status: 200, body, ...(headers && { headers }) })
const created = (body: unknown): Answer => ({ status: 201, body })

export function answer(m: Matched, c: RouteContext): Answer {
  const v = c.view
  const r = new ParamReader(c.params)
  const page = <T>(items: readonly T[], render: (item: T) => unknown): Answer => {
    const paged = paginate(items, r, { base: v.base, path: c.path, query: c.query, id: m.project })
    return ok(paged.items.map(render), paged.headers)
  }
  const arg = m.arg ?? ''
  switch (m.route) {
    case 'get-project':
      return ok(projectJson(v))
    case 'get-commit':
      return ok(commitDetailJson(v, v.model.commitOf(arg)))
    case 'commit-merge-requests':
      return page(v.model.mergeRequestsOf(arg), (mr) => mergeRequestJson(v, mr))
    case 'compare':
      return compare(v, r)
    case 'merge-base':
      return mergeBase(v, r)
    case 'list-branches': {
      const search = r.string('search')?.toLowerCase()
      return page(
        v.model.branches.filter((b) => search === undefined || b.name.toLowerCase().includes(search)),
        (b) => branchJson(v, b)
      )
    }
    case 'get-branch':
      return ok(branchJson(v, v.model.branchNamed(arg)))
    case 'list-tags':
      return page(listTags(v, r), (t) => tagJson(v, t))
    case 'list-deployments':
      return page(listDeployments(v, r), (d) => deploymentJson(v, d))
    case 'get-deployment':
      return ok(deploymentJson(v, v.model.deployment(idOf('deployment_id', arg))))
    case 'create-deployment':
      return created(deploymentJson(v, createDeployment(v, r, c.user)))
    case 'update-deployment': {
      const id = idOf('deployment_id', arg)
      const status = r.oneOf('status', SETTABLE_STATUSES, undefined, true) as SettableStatus
      r.done()
      return ok(deploymentJson(v, v.model.updateDeployment(id, status)))
    }
    case 'list-environments':
      return page(listEnvironments(v, r), (e) => environmentJson(e))
    case 'update-environment':
      return ok(environmentJson(updateEnvironment(v, r, idOf('environment_id', arg))))
    default:
      return issueRoutes(m, c, r, page)
  }
}

function issueRoutes(m: Matched, c: RouteContext, r: ParamReader, page: <T>(items: readonly T[], render: (item: T) => unknown) => Answer): Answer {
  const v = c.view
  const arg = m.arg ?? ''
  switch (m.route) {
    case 'list-issues':
      return page(listIssues(v, r), (i) => issueJson(v, i))
    case 'get-issue':
      return ok(issueJson(v, v.model.issue(idOf('issue_iid', arg))))
    case 'create-issue':
      return created(issueJson(v, createIssue(v, r, c.user)))
    case 'update-issue': {
      const iid = idOf('issue_iid', arg)
      return ok(issueJson(v, v.model.updateIssue(iid, issueChange(r, c.user))))
    }
    case 'list-notes': {
      const issue = v.model.issue(idOf('issue_iid', arg))
      return page(sortNotes(issue, r), (n) => noteJson(v, issue, n))
    }
    case 'create-note': {
      const issue = v.model.issue(idOf('issue_iid', arg))
      const body = r.string('body', true) ?? ''
      r.done()
      if (body.trim() === '') throw GitLabError.validation({ note: ["can't be blank"] })
      return created(noteJson(v, issue, v.model.addNote(issue.iid, body, c.user)))
    }
    case 'list-labels':
      return page(
        [...v.model.labels].sort((a, b) => a.name.localeCompare(b.name)),
        (l) => labelJson(v, l)
      )
    case 'get-label': {
      const label = v.model.label(arg)
      if (label === undefined) throw GitLabError.notFound('Label')
      return ok(labelJson(v, label))
    }
    case 'create-label':
      return created(labelJson(v, createLabel(v, r)))
    default:
      throw GitLabError.params([`no route ${m.route}`])
  }
}

/** A numeric path variable, as GitLab's framework declares it (Integer): anything else is "<name> is invalid". */
function idOf(name: string, value: string): number {
  const id = new ParamReader({ [name]: value }).integer(name)
  if (id === undefined) throw GitLabError.params([`${name} is invalid`])
  return id
}

function compare(v: View, r: ParamReader): Answer {
  const from = r.string('from', true)
  const to = r.string('to', true)
  r.boolean('straight') // a diff's base only: the commits are the same either way, and there are no diffs here
  r.done()
  return ok(compareJson(v, v.model.compare(from ?? '', to ?? ''), from ?? '', to ?? ''))
}

function mergeBase(v: View, r: ParamReader): Answer {
  const refs = r.list('refs', true)
  r.done()
  return ok(commitJson(v, v.model.mergeBase(refs ?? [])))
}

/** GitLab's tag listing: ordered by `updated` (the tagged commit's date; ties, the last made first), `name` or `version`; desc by default. */
function listTags(v: View, r: ParamReader): Array<{ name: string; sha: string }> {
  const orderBy = r.oneOf('order_by', ['name', 'updated', 'version'] as const, 'updated')
  const sort = r.oneOf('sort', ['asc', 'desc'] as const, 'desc')
  const search = r.string('search')
  r.done()
  const made = v.model.tags // the last made first
  const dateOf = (sha: string): number => Date.parse(v.model.graph.getCommit(sha)?.date ?? '')
  const key = (a: { name: string; sha: string }, b: { name: string; sha: string }): number => {
    if (orderBy === 'name') return a.name.localeCompare(b.name)
    if (orderBy === 'version') return compareVersions(a.name, b.name)
    return dateOf(a.sha) - dateOf(b.sha) || made.indexOf(b) - made.indexOf(a)
  }
  const sorted = made.filter((t) => matchesSearch(t.name, search)).sort(key)
  return sort === 'desc' ? sorted.reverse() : sorted
}

/** GitLab's tag search: ^term a prefix, term$ a suffix, else a part of the name. */
function matchesSearch(name: string, search: string | undefined): boolean {
  if (search === undefined || search === '') return true
  if (search.startsWith('^')) return name.startsWith(search.slice(1))
  if (search.endsWith('$')) return name.endsWith(search.slice(0, -1))
  return name.includes(search)
}

function compareVersions(a: string, b: string): number {
  const parts = (s: string): number[] => (s.match(/\d+/g) ?? []).map(Number)
  const [x, y] = [parts(a), parts(b)]
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? -1) !== (y[i] ?? -1)) return (x[i] ?? -1) - (y[i] ?? -1)
  return a.localeCompare(b)
}

const DEPLOYMENT_ORDERS = ['id', 'iid', 'created_at', 'updated_at', 'finished_at', 'ref'] as const

/** GitLab's deployment listing: by environment name and status; ordered by id ascending unless asked otherwise. */
function listDeployments(v: View, r: ParamReader): Deployment[] {
  const orderBy = r.oneOf('order_by', DEPLOYMENT_ORDERS, 'id') ?? 'id'
  const sort = r.oneOf('sort', ['asc', 'desc'] as const, 'asc')
  const environment = r.string('environment')
  const status = r.oneOf('status', DEPLOYMENT_STATUSES)
  const [updatedAfter, updatedBefore, finishedAfter, finishedBefore] = ['updated_after', 'updated_before', 'finished_after', 'finished_before'].map((n) =>
    r.date(n)
  )
  r.done()
  const envId = environment === undefined ? undefined : (v.model.environment(environment)?.id ?? -1)
  const time = (s: string | null): number => (s === null ? NaN : Date.parse(s))
  const list = v.model.deployments.filter(
    (d) =>
      (envId === undefined || d.environment_id === envId) &&
      (status === undefined || d.status === status) &&
      !(time(d.updated_at) <= (updatedAfter ?? -Infinity)) &&
      !(time(d.updated_at) >= (updatedBefore ?? Infinity)) &&
      (finishedAfter === undefined || time(d.finished_at) >= finishedAfter) &&
      (finishedBefore === undefined || time(d.finished_at) < finishedBefore)
  )
  const value = (d: Deployment): string | number => (orderBy === 'id' || orderBy === 'iid' ? d[orderBy] : (d[orderBy] ?? ''))
  list.sort((a, b) => {
    const [x, y] = [value(a), value(b)]
    return (x < y ? -1 : x > y ? 1 : 0) || a.id - b.id
  })
  return sort === 'desc' ? list.reverse() : list
}

function createDeployment(v: View, r: ParamReader, user: GitLabUser): Deployment {
  const environment = r.string('environment', true)
  const sha = r.string('sha', true)
  const ref = r.string('ref', true)
  const tag = r.boolean('tag', true)
  const status = r.oneOf('status', SETTABLE_STATUSES, undefined, true)
  r.done()
  return v.model.createDeployment({ environment: environment ?? '', sha: sha ?? '', ref: ref ?? '', tag: tag ?? false, status: status as SettableStatus }, user)
}

function listEnvironments(v: View, r: ParamReader): Environment[] {
  const name = r.string('name')
  const search = r.string('search')
  const states = r.oneOf('states', ['available', 'stopping', 'stopped'] as const)
  r.done()
  return v.model.environments.filter(
    (e) => (name === undefined || e.name === name) && (search === undefined || e.name.includes(search)) && (states === undefined || e.state === states)
  )
}

/** What PUT /environments/:id changes: its external URL (an http(s) address, or empty to clear it) and its tier. */
function updateEnvironment(v: View, r: ParamReader, id: number): Environment {
  const externalUrl = r.string('external_url')
  const tier = r.oneOf('tier', ENVIRONMENT_TIERS)
  r.string('description')
  r.done()
  return v.model.updateEnvironment(id, {
    ...(externalUrl !== undefined && { externalUrl: externalUrl === '' ? null : externalUrl }),
    ...(tier !== undefined && { tier })
  })
}

/** GitLab's issue listing: every state unless asked, all the labels given, newest created first unless asked otherwise. */
function listIssues(v: View, r: ParamReader): Issue[] {
  const state = r.oneOf('state', ['opened', 'closed', 'all'] as const, 'all')
  const labels = r.list('labels') ?? []
  const orderBy = r.oneOf('order_by', ['created_at', 'updated_at', 'title'] as const, 'created_at') ?? 'created_at'
  const sort = r.oneOf('sort', ['asc', 'desc'] as const, 'desc')
  r.done()
  const list = v.model.issues
    .filter((i) => state === 'all' || i.state === state)
    .filter((i) => labels.every((l) => i.labels.includes(l)))
    .sort((a, b) => a[orderBy].localeCompare(b[orderBy]) || a.iid - b.iid)
  return sort === 'desc' ? list.reverse() : list
}

function createIssue(v: View, r: ParamReader, user: GitLabUser): Issue {
  const title = r.string('title', true)
  const description = r.string('description')
  const labels = r.list('labels')
  r.done()
  if ((title ?? '').trim() === '') throw GitLabError.validation({ title: ["can't be blank"] })
  return v.model.addIssue({ title: title ?? '', ...(description !== undefined && { description }), ...(labels !== undefined && { labels }), author: user })
}

const ISSUE_EDITS = ['title', 'description', 'state_event', 'labels', 'add_labels', 'remove_labels']

function issueChange(r: ParamReader, user: GitLabUser): IssueChange {
  if (ISSUE_EDITS.every((name) => r.params[name] === undefined)) {
    throw GitLabError.params([`${ISSUE_EDITS.join(', ')} are missing, at least one parameter must be provided`])
  }
  const change: IssueChange = { user }
  const title = r.string('title')
  const description = r.string('description')
  const stateEvent = r.oneOf('state_event', ['close', 'reopen'] as const)
  const [labels, add, remove] = [r.list('labels'), r.list('add_labels'), r.list('remove_labels')]
  r.done()
  if (title !== undefined) change.title = title
  if (description !== undefined) change.description = description
  if (stateEvent !== undefined) change.stateEvent = stateEvent
  if (labels !== undefined) change.labels = labels
  if (add !== undefined) change.addLabels = add
  if (remove !== undefined) change.removeLabels = remove
  return change
}

/** An issue's notes, newest first unless asked otherwise (GitLab's default). */
function sortNotes(issue: Issue, r: ParamReader): Issue['notes'] {
  const orderBy = r.oneOf('order_by', ['created_at', 'updated_at'] as const, 'created_at') ?? 'created_at'
  const sort = r.oneOf('sort', ['asc', 'desc'] as const, 'desc')
  r.done()
  const list = [...issue.notes].sort((a, b) => a[orderBy].localeCompare(b[orderBy]) || a.id - b.id)
  return sort === 'desc' ? list.reverse() : list
}

function createLabel(v: View, r: ParamReader): Label {
  const name = r.string('name', true)
  const color = r.string('color', true)
  const description = r.string('description')
  r.done()
  if ((name ?? '').trim() === '') throw GitLabError.validation({ title: ["can't be blank"] })
  if (!/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(color ?? '')) throw GitLabError.validation({ color: ['must be a valid color code'] })
  return v.model.addLabel((name ?? '').trim(), color, description ?? null)
}
