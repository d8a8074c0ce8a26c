// The model rendered as GitLab's REST API v4 writes its objects (its API entities): a project, a commit (and its
// detail), a compare, a branch, a tag, a deployment and its environment, an issue, a note, a label, a merge request,
// a user. Web addresses are the instance's own (`base`), as GitLab writes them: <base>/<project>/-/commit/<sha>.
import type { Commit } from '../commit-graph.js'
import type { Deployment, Environment, GitLabComparison, GitLabModel, GitLabUser, Issue, Label, MergeRequest, Note } from './model.js'

export interface View {
  /** The instance's address, e.g. http://127.0.0.1:4082 (the API is at <base>/api/v4). */
  base: string
  model: GitLabModel
}

type Json = Record<string, unknown>

export function projectWeb(v: View): string {
  return `${v.base}/${v.model.project.path}`
}

/** Git's dates as GitLab gives a commit's: milliseconds and an offset. */
function gitDate(iso: string): string {
  return new Date(iso).toISOString().replace(/Z$/, '+00:00')
}

export function userJson(v: View, user: GitLabUser): Json {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: 'active',
    locked: false,
    avatar_url: `https://www.gravatar.com/avatar/${user.id}?s=80&d=identicon`,
    web_url: `${v.base}/${user.username}`
  }
}

export function projectJson(v: View): Json {
  const { id, path, defaultBranch } = v.model.project
  const parts = path.split('/')
  const name = parts.at(-1) ?? path
  const namespace = parts.slice(0, -1).join('/')
  return {
    id,
    description: null,
    name,
    name_with_namespace: parts.join(' / '),
    path: name,
    path_with_namespace: path,
    created_at: '2024-01-01T00:00:00.000Z',
    default_branch: defaultBranch,
    visibility: 'private',
    archived: false,
    empty_repo: false,
    web_url: projectWeb(v),
    http_url_to_repo: `${projectWeb(v)}.git`,
    ssh_url_to_repo: `git@${new URL(v.base).hostname}:${path}.git`,
    readme_url: null,
    namespace: { id: id + 100, name: parts.at(-2) ?? namespace, path: parts.at(-2) ?? namespace, kind: 'group', full_path: namespace }
  }
}

export function commitJson(v: View, c: Commit): Json {
  const [title = ''] = c.message.split('\n')
  const date = gitDate(c.date)
  const name = c.author?.name ?? 'Stand-in Author'
  const email = c.author?.email ?? 'author@example.com'
  return {
    id: c.sha,
    short_id: c.sha.slice(0, 8),
    created_at: date,
    parent_ids: [...c.parents],
    title,
    message: c.message,
    author_name: name,
    author_email: email,
    authored_date: date,
    committer_name: name,
    committer_email: email,
    committed_date: date,
    trailers: {},
    extended_trailers: {},
    web_url: `${projectWeb(v)}/-/commit/${c.sha}`
  }
}

/** A single commit: the commit and what GitLab adds to it alone (its project, no pipeline here). */
export function commitDetailJson(v: View, c: Commit): Json {
  return { ...commitJson(v, c), stats: { additions: 0, deletions: 0, total: 0 }, status: null, project_id: v.model.project.id, last_pipeline: null }
}

export function compareJson(v: View, c: GitLabComparison, from: string, to: string): Json {
  return {
    commit: c.commits.length === 0 ? null : commitJson(v, c.commits.at(-1) as Commit),
    commits: c.commits.map((x) => commitJson(v, x)),
    diffs: [],
    compare_timeout: false,
    compare_same_ref: c.same,
    web_url: `${projectWeb(v)}/-/compare/${from}...${to}`
  }
}

export function branchJson(v: View, b: { name: string; sha: string }): Json {
  const commit = v.model.graph.getCommit(b.sha) as Commit
  const isDefault = b.name === v.model.project.defaultBranch
  return {
    name: b.name,
    merged: false,
    protected: isDefault,
    default: isDefault,
    developers_can_push: false,
    developers_can_merge: false,
    can_push: true,
    web_url: `${projectWeb(v)}/-/tree/${b.name}`,
    commit: commitJson(v, commit)
  }
}

/** A tag: `target` is the tag object's sha for an annotated tag, the commit's for a lightweight one (whose message is null). */
export function tagJson(v: View, t: { name: string; sha: string }): Json {
  const object = v.model.graph.tagObject(t.name)
  const commit = v.model.graph.getCommit(t.sha) as Commit
  return {
    name: t.name,
    message: object?.message ?? null,
    target: object?.sha ?? t.sha,
    commit: commitJson(v, commit),
    release: null,
    protected: false,
    created_at: object === undefined ? null : gitDate(commit.date)
  }
}

export function environmentJson(e: Environment): Json {
  return {
    id: e.id,
    name: e.name,
    slug: e.slug,
    external_url: e.external_url,
    state: e.state,
    tier: e.tier,
    created_at: e.created_at,
    updated_at: e.updated_at,
    auto_stop_at: null
  }
}

/** A deployment; its environment as GitLab's basic environment entity (no state there). A deployment made by the API has no job (deployable null). */
export function deploymentJson(v: View, d: Deployment): Json {
  const e = v.model.environmentOf(d)
  return {
    id: d.id,
    iid: d.iid,
    ref: d.ref,
    sha: d.sha,
    created_at: d.created_at,
    updated_at: d.updated_at,
    finished_at: d.finished_at,
    status: d.status,
    user: userJson(v, d.user),
    environment: { id: e.id, name: e.name, slug: e.slug, external_url: e.external_url, created_at: e.created_at, updated_at: e.updated_at },
    deployable: null
  }
}

export function issueJson(v: View, i: Issue): Json {
  const web = `${projectWeb(v)}/-/issues/${i.iid}`
  return {
    id: i.id,
    iid: i.iid,
    project_id: v.model.project.id,
    title: i.title,
    description: i.description,
    state: i.state,
    created_at: i.created_at,
    updated_at: i.updated_at,
    closed_at: i.closed_at,
    closed_by: i.closed_by === null ? null : userJson(v, i.closed_by),
    labels: [...i.labels],
    milestone: null,
    assignees: [],
    assignee: null,
    author: userJson(v, i.author),
    type: 'ISSUE',
    issue_type: 'issue',
    user_notes_count: i.notes.length,
    merge_requests_count: 0,
    upvotes: 0,
    downvotes: 0,
    confidential: false,
    discussion_locked: null,
    web_url: web,
    references: { short: `#${i.iid}`, relative: `#${i.iid}`, full: `${v.model.project.path}#${i.iid}` }
  }
}

export function noteJson(v: View, issue: Issue, n: Note): Json {
  return {
    id: n.id,
    type: null,
    body: n.body,
    author: userJson(v, n.author),
    created_at: n.created_at,
    updated_at: n.updated_at,
    system: false,
    noteable_id: issue.id,
    noteable_type: 'Issue',
    noteable_iid: issue.iid,
    project_id: v.model.project.id,
    resolvable: false,
    confidential: false,
    internal: false
  }
}

export function labelJson(v: View, l: Label): Json {
  const count = (state: Issue['state']): number => v.model.issues.filter((i) => i.state === state && i.labels.includes(l.name)).length
  return {
    id: l.id,
    name: l.name,
    description: l.description,
    description_html: l.description ?? '',
    text_color: textColor(l.color),
    color: l.color,
    subscribed: false,
    priority: null,
    is_project_label: true,
    open_issues_count: count('opened'),
    closed_issues_count: count('closed'),
    open_merge_requests_count: 0
  }
}

/** White on a dark label, dark on a light one, as GitLab picks the text's color. */
function textColor(color: string): string {
  const hex = color.length === 4 ? [...color.slice(1)].map((c) => c + c).join('') : color.slice(1)
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number]
  return r * 0.299 + g * 0.587 + b * 0.114 > 186 ? '#333333' : '#FFFFFF'
}

export function mergeRequestJson(v: View, mr: MergeRequest): Json {
  return {
    id: mr.id,
    iid: mr.iid,
    project_id: v.model.project.id,
    title: mr.title,
    description: null,
    state: mr.state,
    created_at: mr.created_at,
    updated_at: mr.updated_at,
    merged_at: mr.merged_at,
    closed_at: null,
    target_branch: mr.target_branch,
    source_branch: mr.source_branch,
    author: userJson(v, mr.author),
    labels: [],
    draft: false,
    sha: mr.commits.at(-1) ?? null,
    merge_commit_sha: null,
    references: { short: `!${mr.iid}`, relative: `!${mr.iid}`, full: `${v.model.project.path}!${mr.iid}` },
    web_url: `${projectWeb(v)}/-/merge_requests/${mr.iid}`
  }
}
