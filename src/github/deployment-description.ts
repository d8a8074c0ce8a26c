// A GitHub Deployment's description: what was deployed where, the override reason when one was given, and the commits
// of the release as far as they fit. GitHub's reference calls it a "Short description of the deployment" and states no
// maximum; the one it states for a deployment status's description is 140 characters, and a Deployment refused as too
// long would lose the record later runs read: it is held to the same 140 characters (characters, never cut inside one).
import { STATUS_DESCRIPTION_LIMIT } from './status-description.js'

export const DEPLOYMENT_DESCRIPTION_LIMIT = STATUS_DESCRIPTION_LIMIT

/** What the description tells of the release's commits (deploy/changes.ts's ReleaseChanges has these fields). */
export interface DescribedChanges {
  readonly total: number
  readonly direction: 'added' | 'removed'
  readonly commits: readonly { readonly title: string }[]
}

export interface DeploymentDescriptionParts {
  /** The distribution: its name, else its id. */
  readonly name: string
  /** The stack (or API address) it goes to. */
  readonly target: string
  readonly changes?: DescribedChanges | undefined
  /** override-reason, when given: it always shows, cut last. */
  readonly overrideReason?: string | undefined
}

/**
 * "site.tar.gz to acme; override: hotfix; 3 commits: Fix login (#12); Add search; and 1 more", within the limit. The
 * name and target come first, then the override reason (cut with an ellipsis when it alone would not fit), then as
 * many whole commit titles as fit with the count of the rest.
 */
export function deploymentDescription(parts: DeploymentDescriptionParts, limit = DEPLOYMENT_DESCRIPTION_LIMIT): string {
  const head = cut(`${parts.name} to ${parts.target}`, limit)
  const reason = parts.overrideReason?.replace(/\s+/g, ' ').trim()
  const withReason = reason ? cut(`${head}; override: ${reason}`, limit) : head
  const c = parts.changes
  if (c === undefined || c.total === 0) return withReason
  const count = `${c.total} commit${c.total === 1 ? '' : 's'}${c.direction === 'removed' ? ' taken out' : ''}`
  const base = `${withReason}; ${count}`
  if (length(base) > limit) return withReason
  let text = base
  let shown = 0
  for (const commit of c.commits) {
    const title = commit.title.replace(/\s+/g, ' ').trim()
    const next = `${text}${shown === 0 ? ': ' : '; '}${title}`
    const rest = c.total - shown - 1
    if (length(rest > 0 ? `${next}; and ${rest} more` : next) > limit) break
    text = next
    shown++
  }
  return shown === 0 || shown === c.total ? text : `${text}; and ${c.total - shown} more`
}

function length(text: string): number {
  return [...text].length
}

/** At most `max` characters, an ellipsis where it was cut. */
function cut(text: string, max: number): string {
  const characters = [...text]
  return characters.length <= max ? text : `${characters.slice(0, max - 1).join('')}…`
}

/** The most commits a Deployment's payload lists: it is read by tools and people, not a changelog. */
export const PAYLOAD_COMMITS = 20

/** The release's commits as a Deployment's payload carries them (`changes`): the count, the direction, the first commits; none when there are none. */
export interface PayloadChanges {
  readonly direction: 'added' | 'removed'
  readonly total: number
  readonly commits: { readonly sha: string; readonly title: string; readonly pullRequests: readonly number[] }[]
}

type PayloadCommit = PayloadChanges['commits'][number]

export function payloadChanges(
  c: { readonly direction: 'added' | 'removed'; readonly total: number; readonly commits: readonly PayloadCommit[] } | undefined
): PayloadChanges | undefined {
  if (c === undefined || c.total === 0) return undefined
  return {
    direction: c.direction,
    total: c.total,
    commits: c.commits.slice(0, PAYLOAD_COMMITS).map((x) => ({ sha: x.sha, title: x.title, pullRequests: [...x.pullRequests] }))
  }
}
