// GitLab's answers read into the code-host port's records (src/code-host/port.ts): deployments and their one status,
// tags, commits with the merge requests they name, issues. Pure: what is not in an answer stays undefined.
import type { CommitSummary, DeploymentRecord, DeploymentStatusRecord, DeploymentUpdate, IssueRecord, Tag } from '../code-host/port.js'
import { isProjectId } from './address.js'

/** A deployment's status in the port's words (src/code-host/port.ts DeploymentState); another one is kept as GitLab says it. */
const PORT_STATE: Readonly<Record<string, string>> = {
  created: 'queued',
  running: 'in_progress',
  success: 'success',
  failed: 'failure',
  canceled: 'canceled',
  blocked: 'pending',
  skipped: 'canceled'
}

/** The status GitLab is given for each state the engine sets: GitLab has no 'error', a failure either way. */
export const GITLAB_STATUS: Readonly<Record<DeploymentUpdate['state'], string>> = {
  in_progress: 'running',
  success: 'success',
  failure: 'failed',
  error: 'failed',
  canceled: 'canceled'
}

/** A deployment as listed or answered: its record, its one status (GitLab keeps no history of them) and its environment. */
export interface GitLabDeployment {
  readonly record: DeploymentRecord
  /** GitLab's own word for its status ('running', ...), to tell whether a change is one. */
  readonly status: string | undefined
  readonly statusRecord: DeploymentStatusRecord | undefined
  readonly environmentId: number | undefined
}

export function toDeployment(item: unknown): GitLabDeployment | undefined {
  const r = objectOr(item)
  if (r === undefined || typeof r.id !== 'number' || typeof r.sha !== 'string') return undefined
  const environment = objectOr(r.environment)
  const status = stringOr(r.status)
  return {
    record: {
      id: r.id,
      sha: r.sha,
      environment: stringOr(environment?.name) ?? '',
      // GitLab's deployments carry no payload: nothing a later run could read back is recorded on them.
      payload: {},
      creator: stringOr(objectOr(r.user)?.username),
      createdAt: stringOr(r.created_at)
    },
    status,
    statusRecord:
      status === undefined
        ? undefined
        : {
            state: PORT_STATE[status] ?? status,
            logUrl: stringOr(objectOr(r.deployable)?.web_url),
            // When it got the status it has: it finished then, or was last changed (a deployment under way).
            createdAt: stringOr(r.finished_at) ?? stringOr(r.updated_at) ?? stringOr(r.created_at)
          },
    environmentId: typeof environment?.id === 'number' ? environment.id : undefined
  }
}

export function toTag(item: unknown): Tag | undefined {
  const r = objectOr(item)
  const sha = objectOr(r?.commit)?.id
  return typeof r?.name === 'string' && typeof sha === 'string' ? { name: r.name, sha } : undefined
}

/**
 * The merge requests a commit's message names: a title ending "(!12)", or the line GitLab's merge commits end with,
 * "See merge request group/project!12" (this project's path, or none; any path when the project is known by its id).
 */
export function mergeRequestsIn(message: string, project: string): number[] {
  const title = firstLine(message)
  const numbers: number[] = []
  const inTitle = /\(!(\d+)\)\s*$/.exec(title)
  if (inTitle) numbers.push(Number(inTitle[1]))
  for (const m of message.matchAll(/^See merge request (\S*?)!(\d+)\s*$/gm)) {
    const path = m[1] ?? ''
    if (path === '' || isProjectId(project) || path.toLowerCase() === project.toLowerCase()) numbers.push(Number(m[2]))
  }
  return [...new Set(numbers)]
}

/** A commit of a compare's answer; undefined without an id. GitLab matches no account to a commit: its author's name. */
export function toCommit(item: unknown, project: string): CommitSummary | undefined {
  const r = objectOr(item)
  if (r === undefined || typeof r.id !== 'string') return undefined
  const message = typeof r.message === 'string' ? r.message : ''
  const title = stringOr(r.title) ?? firstLine(message)
  return { sha: r.id, title, author: stringOr(r.author_name), pullRequests: mergeRequestsIn(message === '' ? title : message, project) }
}

/** The iids of a list of merge requests. */
export function iidsOf(data: unknown): number[] {
  const items = Array.isArray(data) ? (data as unknown[]) : []
  const iids = items.flatMap((m) => {
    const iid = objectOr(m)?.iid
    return typeof iid === 'number' ? [iid] : []
  })
  return [...new Set(iids)]
}

/** An issue: GitLab's iid is the number its people and its web pages use. */
export function toIssue(item: unknown): IssueRecord | undefined {
  const r = objectOr(item)
  if (r === undefined || typeof r.iid !== 'number') return undefined
  const labels = Array.isArray(r.labels) ? (r.labels as unknown[]) : []
  return {
    number: r.iid,
    title: typeof r.title === 'string' ? r.title : '',
    body: typeof r.description === 'string' ? r.description : '',
    labels: labels.flatMap((l) => {
      const name = typeof l === 'string' ? l : objectOr(l)?.name
      return typeof name === 'string' ? [name] : []
    }),
    htmlUrl: stringOr(r.web_url)
  }
}

function firstLine(text: string): string {
  return text.split(/\r?\n/, 1)[0]?.trim() ?? ''
}

export function objectOr(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
}

export function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}
