// The release rules' world (./rules.ts draws them): the inputs a schedule gives, the actor that keeps the environment
// busy while a window may begin, the stack's backups and the upstream environment's soak clock on GitHub.
import type { Stack } from '../../src/emulator/stack.js'
import { COMMITS, github } from './github.js'
import { OVERRIDE_REASON, freezeText } from './rules.js'
import { ENV, OTHER_ENV, OURS, THEIRS, type Schedule } from './world.js'

/** Whether the soak gate applies: a promotion (require-verified-in refuses an upload) with github-token (it reads GitHub). */
export function soakApplies(s: Schedule): boolean {
  return s.rules?.soak !== undefined && s.github !== undefined && (s.source === 'id' || s.source === 'environment')
}

/** A soak drawn for a promotion whose code is on GitLab: asked for all the same, and refused as bad input (docs/gitlab.md). */
export function soakOnGitLab(s: Schedule): boolean {
  return s.rules?.soak !== undefined && s.gitlab !== undefined && (s.source === 'id' || s.source === 'environment')
}

/** The rules' inputs a schedule gives. */
export function rulesInputs(s: Schedule): Record<string, string> {
  const r = s.rules
  if (r === undefined) return {}
  const freeze = freezeText(r)
  return {
    ...(freeze !== '' && { 'deploy-freeze': freeze }),
    ...((soakApplies(s) || soakOnGitLab(s)) && r.soak && { 'require-verified-in': OTHER_ENV, 'require-soak-minutes': String(r.soak.minutes) }),
    ...(r.backup && { 'require-backup-hours': String(r.backup.hours) }),
    ...(r.override && { 'override-reason': OVERRIDE_REASON })
  }
}

/** The stack's backups as the schedule draws them (before the run), and the listing's fault. */
export function setUpBackups(s: Schedule, stack: Stack): void {
  const b = s.rules?.backup
  if (b === undefined) return
  const { state } = stack
  const env = state.environments.find((e) => e.name === ENV)
  if (env === undefined) return
  const platformAgo = (hours: number): string => new Date(Date.now() + s.clockOffsetSeconds * 1000 - hours * 3_600_000).toISOString()
  const others = state.backups.filter((x) => x.environmentId !== env.id)
  const ours = (hours: number, n: number): { id: string; environmentId: string; createdAt: string } => ({
    id: `bk-${ENV}-${n}`,
    environmentId: env.id,
    createdAt: platformAgo(hours)
  })
  // Ages at least an hour from the boundary: a clock off ours by minutes (clockOffsetSeconds) changes no verdict.
  const fresh = b.age === 'fresh' ? [ours(b.hours / 2, 1)] : []
  const old = b.age === 'old' || (b.age === 'fresh' && b.older) ? [ours(b.hours + 2, 2)] : []
  state.backups.splice(0, state.backups.length, ...others, ...old, ...fresh)
  if (b.age === 'failing') stack.faults.add({ operation: 'list-backups', kind: 'status', status: 503, times: 50 })
}

/** The upstream environment's soak clock: GitHub Deployments of ours (and of theirs) in OTHER_ENV with statuses at drawn times. */
export function setUpSoak(s: Schedule, apiUrl: string): void {
  const soak = s.rules?.soak
  const world = github.world
  if (soak === undefined || world === undefined || !soakApplies(s) || soak.clock === 'none') return
  const { model } = world.core
  // Each distribution at the commit the world built it from (the status report reads these Deployments too).
  const shaOf = (distributionId: string): string => COMMITS[distributionId === OURS ? world.schedule.ours : (world.schedule.theirs[0] ?? 0)] ?? ''
  const at = (minutesAgo: number): string => new Date(Date.now() - minutesAgo * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z')
  const deployment = (distributionId: string, minutesAgo: number, previous?: string): number => {
    const payload = { distributionId, apiUrl, ...(previous !== undefined && { previousDistributionId: previous }) }
    const sha = shaOf(distributionId)
    const d = model.addDeployment({ ref: sha, sha, environment: OTHER_ENV, payload, creator: 'other-job' })
    Object.assign(d, { created_at: at(minutesAgo), updated_at: at(minutesAgo) })
    return d.id
  }
  const status = (id: number, state: 'success' | 'failure' | 'in_progress', minutesAgo: number): void => {
    const st = model.addStatus(id, { state, log_url: `https://github.com/acme/site/actions/runs/${id}` })
    Object.assign(st, { created_at: at(minutesAgo), updated_at: at(minutesAgo) })
  }
  const since = Math.max(soak.since, soak.reset + 1)
  const verified = deployment(OURS, since + 1)
  status(verified, 'in_progress', since + 1)
  status(verified, 'success', since)
  if (soak.clock === 'reset') {
    // Another release deployed there failed and was rolled back to ours: the clock restarts at that failure.
    const theirs = deployment(THEIRS[0] ?? '', soak.reset + 1, OURS)
    status(theirs, 'in_progress', soak.reset + 1)
    status(theirs, 'failure', soak.reset)
  }
  if (soak.clock === 'failed') {
    // Ours deployed there again and failed: no verified period of ours runs on.
    const again = deployment(OURS, soak.reset + 1, OURS)
    status(again, 'in_progress', soak.reset + 1)
    status(again, 'failure', soak.reset)
  }
}
