// The status report in the simulation (issue 41, docs/status.md), read at drawn moments of a schedule while the deploy
// run and the other actors act, against the same stack and code host (GitHub's world, or GitLab's when the code lives
// there: ./gitlab.ts) under the same fake clock: by the command
// (`brcloud status`, src/cli/main.ts main(argv, env, io) in-process, a single stack's flags, its secrets in BRCLOUD_*
// variables, --json), or by the engine with the file (prepareStatus, readStatus, then the command's own rendering and
// verdict: statusTable, statusJson, statusMarkdown, statusExit), with drift issues when asked. Its calls go through the
// simulation's transports as the 'status' caller: they meet faults of their own (the stack's, the identity provider's,
// GitHub's: 5xx, rate limits with their headers, a 404, no answer, no connection), never the run's, follow no trigger
// of the run, and are recorded with the world as it was when each answer was made (./status-record.ts), which is what
// ./status-claims.ts reads the report against. Reads run one at a time (a scheduled workflow with concurrency); a read
// whose moment never came runs after the run.
import { EventEmitter } from 'node:events'
import type { Stack } from '../../src/emulator/stack.js'
import type { TokenGrant } from '../../src/emulator/github/server.js'
import { InputError } from '../../src/errors.js'
import type { CliIo } from '../../src/cli/io.js'
import { main as brcloud } from '../../src/cli/main.js'
import type { RunContext } from '../../src/port.js'
import { statusExit } from '../../src/cli/status.js'
import { keepDriftIssuesOf } from '../../src/status/drift-issues.js'
import { statusCodeHost } from '../../src/status/code-host.js'
import type { GitLabToken } from '../../src/emulator/gitlab/server.js'
import { parseStatusConfig, prepareStatus, readStatus, type StatusReport } from '../../src/status/index.js'
import { statusJson, statusMarkdown, statusTable } from '../../src/status/render.js'
import { COMMITS, GITHUB_TOKEN, github, type GitHubSchedule } from './github.js'
import { GITLAB_PROJECT, GITLAB_TOKEN, GITLAB_URL, OTHER_JOB, gitlab } from './gitlab.js'
import { statusShown } from './mocks.js'
import { resetStatusPort } from './status-port.js'
import { caller, wire } from './transport.js'
import type { StatusSchedule } from './status-schedule.js'
import { statusTap, statusWorld, type StatusReading } from './status-record.js'
import { ENV, MARKER, OTHER_ENV, QUERY_SECRET, onTrigger, type Schedule } from './world.js'

/** The status report's GitHub token (a secret: never printed). */
export const STATUS_TOKEN = 'ghs_statusreport0123456789'
/** Its GitLab token, when the code lives on GitLab (a secret too). */
export const STATUS_GITLAB_TOKEN = 'glpat-statusreport01234567'

/** The code's host the report reads: GitHub, or GitLab where the world's code lives there (one place: ./world.ts); none without a token. */
export function statusHost(s: Schedule): 'github' | 'gitlab' | undefined {
  if (s.report?.github === undefined) return undefined
  return s.gitlab !== undefined ? 'gitlab' : 'github'
}
/** The report's run page and repository. */
const CONTEXT: RunContext = {
  sha: '',
  noCommit: 'the status report deploys nothing',
  ref: '',
  repository: 'acme/site',
  serverUrl: 'https://github.com',
  runUrl: 'https://github.com/acme/site/actions/runs/91',
  workspace: process.cwd(),
  runId: '91',
  runAttempt: '1',
  actor: 'octocat'
}
const BASE = 'http://127.0.0.1:9'
/** Tags of the world's commit graph (c2, c4, c5): the newest by version order is v1.10.0, a hotfix of an old line tagged later is not. */
export const TAGS: ReadonlyArray<readonly [string, number]> = [
  ['v1.2.0', 2],
  ['v1.10.0', 4],
  ['v1.9.3', 5]
]
export const NEWEST_TAG = 'v1.10.0'
/** Deployments of other environments a "more than 300" world holds. */
const MANY = 350

/** The GitHub world of a schedule: the run's, or, when only the report reads GitHub, one with the run's commit (the name of an upload carries it). */
export function worldSchedule(s: Schedule): GitHubSchedule | undefined {
  // Code on GitLab: the report reads GitLab's world (./gitlab.ts), and there is no GitHub.
  if (s.gitlab !== undefined) return undefined
  if (s.github !== undefined) return s.report?.github?.filler === 'older' ? { ...s.github, filler: s.github.filler + MANY } : s.github
  const g = s.report?.github
  if (g === undefined) return undefined
  return {
    ours: 5,
    old: g.old,
    theirs: g.theirs,
    recordOthers: g.recordOthers,
    oursRecorded: g.oursRecorded,
    allowOlder: false,
    allowUnchecked: false,
    token: 'ok',
    filler: g.filler === 'older' ? MANY : 0,
    faults: []
  }
}

/** The report's token, as GitHub grants it (issues: write for drift issues). */
export function statusTokens(s: Schedule): Record<string, TokenGrant> {
  const g = s.report?.github
  if (g === undefined || g.token === 'bad') return {}
  const issues = g.driftIssues ? ('write' as const) : ('none' as const)
  if (g.token === 'no-contents') return { [STATUS_TOKEN]: { deployments: 'read', contents: 'none', issues } }
  if (g.token === 'no-deployments') return { [STATUS_TOKEN]: { deployments: 'none', contents: 'read', issues } }
  return { [STATUS_TOKEN]: { deployments: 'read', contents: 'read', issues } }
}

/**
 * The report's GitLab token, as GitLab grants it: read_api (api for drift issues); refused (401); a project it cannot see
 * (404, for GitHub's token without contents); no scope that reads (403, for GitHub's without deployments).
 */
export function statusGitLabTokens(s: Schedule): Record<string, GitLabToken> {
  const g = s.report?.github
  if (g === undefined || g.token === 'bad' || s.gitlab === undefined) return {}
  if (g.token === 'no-contents') return { [STATUS_GITLAB_TOKEN]: { scopes: ['read_api'], projects: ['acme/another'] } }
  if (g.token === 'no-deployments') return { [STATUS_GITLAB_TOKEN]: { scopes: [] } }
  return { [STATUS_GITLAB_TOKEN]: { scopes: g.driftIssues ? ['api'] : ['read_api'] } }
}

/** Deployments of other environments a "more than 300" world holds before the world's records (GitLab's: its filler). */
export function gitlabFiller(s: Schedule): number {
  return s.gitlab !== undefined && s.report?.github?.filler === 'older' ? MANY : 0
}

/** The file the report reads: the stack by its API address, the schedule's track, environments, health probe and login. */
export function configText(s: Schedule, r: StatusSchedule, stack: Stack): string {
  const track = { main: 'main', feature: 'feature', 'v*': "'v*'", typo: 'mian', none: undefined }[r.track]
  const login = loginLines(s, r, stack)
  return [
    ...(track === undefined ? [] : [`track: ${track}`]),
    // Code on GitLab: the project beside track:, its token in a variable of the job (docs/gitlab.md).
    ...(statusHost(s) === 'gitlab' ? ['gitlab:', `  project: ${GITLAB_PROJECT}`, `  url: ${GITLAB_URL}`, '  token-variable: SIM_GITLAB_TOKEN'] : []),
    'stacks:',
    '  - name: sim',
    `    api-url: ${BASE}`,
    ...(r.environments === 'named' ? [`    environments: [${ENV}, ${OTHER_ENV}]`] : []),
    ...(r.health ? [`    health-url: ${BASE}/sites/{environment}/version.txt?token=${QUERY_SECRET}`, `    health-expect: ${MARKER}`] : []),
    ...login.map((l) => `    ${l}`),
    ''
  ].join('\n')
}

/** The login: the run's kind where the report has it (GitHub's OIDC token it has not: a client secret instead). */
function loginLines(s: Schedule, r: StatusSchedule, stack: Stack): string[] {
  const sso = stack.sso?.handle(BASE)
  const endpoint = sso === undefined ? [] : [`  token-url: ${sso.tokenUrl}`, `  audience: ${sso.audience}`]
  if (r.login === 'credential-in-variable')
    return sso !== undefined
      ? ['login:', ...endpoint, `  client-id: ${sso.clientId}`, `  client-secret-variable: ${sso.clientSecret}`]
      : ['login:', '  username-variable: SIM_USER', `  password-variable: ${stack.state.settings.password}`]
  if (sso !== undefined && (s.login === 'client-secret' || s.login === 'github-oidc'))
    return ['login:', ...endpoint, `  client-id: ${sso.clientId}`, '  client-secret-variable: SIM_CLIENT_SECRET']
  if (s.login === 'script-account') return ['login:', ...endpoint, '  username-variable: SIM_USER', '  password-variable: SIM_PASSWORD']
  return []
}

/** The variables of the report's job. */
function variables(s: Schedule, stack: Stack): NodeJS.ProcessEnv {
  const { username, password } = stack.state.settings
  const env: NodeJS.ProcessEnv = {
    SIM_USER: username,
    SIM_PASSWORD: password,
    SIM_CLIENT_SECRET: stack.sso?.handle(BASE).clientSecret ?? '',
    ...(statusHost(s) === 'gitlab' && { SIM_GITLAB_TOKEN: STATUS_GITLAB_TOKEN })
  }
  if (s.login === 'password') return { ...env, BRCLOUD_USERNAME: username, BRCLOUD_PASSWORD: password }
  if (s.login === 'access-token' && stack.sso) return { ...env, BRCLOUD_ACCESS_TOKEN: readyToken(stack) }
  return env
}

/** The issues of the code host's model (GitLab's by iid, 'opened' as open), as the drift invariants compare them. */
function issuesNow(): StatusReading['issuesBefore'] {
  const lab = gitlab.world?.core.model.issues
  if (lab !== undefined) return lab.map((i) => ({ number: i.iid, state: i.state === 'opened' ? 'open' : i.state, body: i.description ?? '', title: i.title }))
  return (github.world?.core.model.issues ?? []).map((i) => ({ number: i.number, state: i.state, body: i.body ?? '', title: i.title }))
}

/** One reading, by the schedule's face: what it printed, the report it gave, its exit code, GitHub's issues around it. */
async function readOnce(s: Schedule, r: StatusSchedule, stack: Stack, index: number): Promise<void> {
  const reading: StatusReading = {
    index,
    face: r.face,
    startedAt: Date.now(),
    afterTheRun: statusWorld.mainEnded,
    endedAt: undefined,
    refusal: undefined,
    report: undefined,
    exit: undefined,
    printed: [],
    stoppedAt: undefined,
    driftKept: false,
    driftFailed: false,
    issuesBefore: issuesNow(),
    issuesAfter: []
  }
  statusWorld.reads.push(reading)
  statusWorld.current = index
  resetStatusPort()
  try {
    if (r.face === 'command') await byCommand(s, r, stack, reading)
    else await byEngine(s, r, stack, reading)
  } finally {
    reading.issuesAfter = issuesNow()
    statusWorld.current = undefined
    reading.endedAt = Date.now()
  }
}

/** `brcloud status` in-process: its stdout and stderr kept, no signal sent, the exit code main() resolves with. */
async function byCommand(s: Schedule, r: StatusSchedule, stack: Stack, reading: StatusReading): Promise<void> {
  const { argv, env } = commandLine(s, r, stack)
  let stdout = ''
  let stderr = ''
  const signals = new EventEmitter()
  const io: CliIo = {
    stdout: async (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    stderrIsTTY: false,
    signals,
    exit: () => undefined,
    cwd: () => process.cwd()
  }
  // Ctrl-C or a cancelled job: the signal, once, while the command still runs.
  const stop = r.reads[reading.index]?.stop
  let running = true
  const timer =
    stop === undefined
      ? undefined
      : setTimeout(() => {
          // Only while the report reads: after it, the command listens for no signal, and a real one ends the process as is.
          if (!running || signals.listenerCount(stop.signal) === 0) return
          reading.stoppedAt = Date.now()
          signals.emit(stop.signal, stop.signal)
        }, stop.afterMs)
  try {
    reading.exit = await brcloud(argv, env, io)
  } finally {
    running = false
    clearTimeout(timer)
  }
  reading.printed = [stdout, stderr]
  if (reading.stoppedAt !== undefined) return
  if (reading.exit === 2) {
    reading.refusal = stderr
    return
  }
  reading.report = reportOf(stdout)
  reading.driftKept = r.github?.driftIssues === true
  reading.driftFailed = /^error: --drift-issues: /m.test(stderr)
}

/** The report --json printed, as the engine's (a tracked ref GitHub does not know is among GitHub's errors there). */
function reportOf(json: string): StatusReport {
  const o = JSON.parse(json) as {
    environments: StatusReport['environments']
    stacks: Array<{ name: string; apiUrl: string; errors: string[] }>
    github: { repository: string | null; errors: string[] }
  }
  return {
    environments: o.environments,
    stacks: o.stacks.map((x) => ({ name: x.name, apiUrl: x.apiUrl, errors: x.errors })),
    githubErrors: o.github.errors,
    trackErrors: [],
    repository: o.github.repository
  }
}

/** The file and logins through the engine (a refusal is exit 2), the report, what the command prints of it, drift issues, its exit code. */
async function byEngine(s: Schedule, r: StatusSchedule, stack: Stack, reading: StatusReading): Promise<void> {
  let prepared
  try {
    prepared = prepareStatus(parseStatusConfig(configText(s, r, stack), 'fleet.yml'), variables(s, stack))
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    reading.refusal = error.message
    reading.exit = 2
    return
  }
  const token = statusHost(s) === 'github' ? STATUS_TOKEN : undefined
  // GitLab from the file's gitlab: and its token variable, as the status action reads them (src/action/status.ts).
  const hosts =
    statusHost(s) === 'gitlab'
      ? statusCodeHost(
          {
            githubToken: undefined,
            gitlabToken: undefined,
            gitlabProject: undefined,
            gitlabUrl: undefined,
            file: prepared.config.gitlab,
            env: variables(s, stack)
          },
          () => undefined
        )
      : { githubToken: token }
  const report = await readStatus(prepared, {
    github: token === undefined ? undefined : { token, context: CONTEXT },
    gitlab: hosts.gitlab === undefined ? undefined : { settings: hosts.gitlab, context: CONTEXT },
    repository: CONTEXT.repository,
    parallel: 1
  })
  reading.report = report
  const said: string[] = []
  const issues = statusHost(s) !== undefined && r.github?.driftIssues ? await keepDriftIssuesOf(report, hosts, CONTEXT, r.failOn) : undefined
  reading.driftKept = issues !== undefined
  reading.driftFailed = (issues?.failures.length ?? 0) > 0
  reading.exit = statusExit(report, r.failOn, (message) => said.push(message), issues)
  reading.printed = [statusTable(report), statusJson(report), statusMarkdown(report), ...said]
}

/**
 * The command line and environment of `brcloud status` for a single stack: the schedule's environments, track,
 * health probe, fail-on and drift issues as flags; the login's plain parts as flags and its secrets in BRCLOUD_*
 * variables (a ready token for an SSO stack's access-token login); GitHub's token in BRCLOUD_GITHUB_TOKEN. A
 * credential where it does not belong is the password (an SSO stack's client secret) given as a flag.
 */
function commandLine(s: Schedule, r: StatusSchedule, stack: Stack): { argv: string[]; env: NodeJS.ProcessEnv } {
  const argv = ['status', '--api-url', BASE, '--repository', CONTEXT.repository, '--json', '--parallel', '1']
  const track = { main: 'main', feature: 'feature', 'v*': 'v*', typo: 'mian', none: undefined }[r.track]
  if (track !== undefined) argv.push('--track', track)
  if (r.environments === 'named') argv.push('--environments', `${ENV},${OTHER_ENV}`)
  if (r.health) argv.push('--health-url', `${BASE}/sites/{environment}/version.txt?token=${QUERY_SECRET}`, '--health-expect', MARKER)
  if (r.failOn.length > 0) argv.push('--fail-on', r.failOn.join(','))
  if (r.github?.driftIssues === true) argv.push('--drift-issues')
  const { username, password } = stack.state.settings
  const sso = stack.sso?.handle(BASE)
  const secret = sso?.clientSecret ?? ''
  const host = statusHost(s)
  const env: NodeJS.ProcessEnv =
    host === 'github' ? { BRCLOUD_GITHUB_TOKEN: STATUS_TOKEN } : host === 'gitlab' ? { BRCLOUD_GITLAB_TOKEN: STATUS_GITLAB_TOKEN } : {}
  if (host === 'gitlab') argv.push('--gitlab-project', GITLAB_PROJECT, '--gitlab-url', GITLAB_URL)
  const tokenUrl = ['--token-url', sso?.tokenUrl ?? '', '--audience', sso?.audience ?? '']
  if (r.login === 'credential-in-variable') argv.push(s.login === 'password' ? `--password=${password}` : `--client-secret=${secret}`)
  if (s.login === 'password') return { argv: [...argv, '--username', username], env: { ...env, BRCLOUD_PASSWORD: password } }
  if (s.login === 'script-account') return { argv: [...argv, ...tokenUrl, '--username', username], env: { ...env, BRCLOUD_PASSWORD: password } }
  if (s.login === 'access-token') return { argv, env: { ...env, BRCLOUD_ACCESS_TOKEN: readyToken(stack) } }
  return { argv: [...argv, ...tokenUrl, '--client-id', sso?.clientId ?? ''], env: { ...env, BRCLOUD_CLIENT_SECRET: secret } }
}

/** A ready token of the stack's identity provider for the report (two hours), known to the world as a secret. */
function readyToken(stack: Stack): string {
  if (stack.sso === undefined) return ''
  const token = stack.sso.tokens.issueAccess({ sub: 'ci-client', clientId: 'ci-client', audience: stack.sso.options.audience }, `${BASE}/idp`, 7200).token
  statusWorld.issued.push(token)
  return token
}

/** Starts read `index` once the one before it ended (a scheduled workflow with concurrency). */
function begin(s: Schedule, r: StatusSchedule, stack: Stack, index: number): void {
  if (statusWorld.started.has(index)) return
  statusWorld.started.add(index)
  statusWorld.queue = statusWorld.queue.then(() => caller.run('status', () => readOnce(s, r, stack, index)))
}

/**
 * Sets the report's side of the world up: the tap on its calls, its calls kept out of the run's faults and triggers,
 * tags and the feature branch, Deployments of other environments, and each read at its moment.
 */
export function setUpStatus(s: Schedule, stack: Stack, afterCodeHost: Map<string, Array<{ nth: number; fn: () => void }>>): void {
  Object.assign(statusWorld, {
    schedule: s.report,
    reads: [],
    calls: [],
    current: undefined,
    started: new Set(),
    queue: Promise.resolve(),
    mainEnded: false,
    issued: []
  })
  wire.statusTap = undefined
  const r = s.report
  if (r === undefined) return
  wire.statusTap = statusTap(stack)
  // The report's calls meet none of the run's faults and count for none of its triggers.
  const take = stack.faults.take.bind(stack.faults)
  stack.faults.take = (operation) => (caller.getStore() === 'status' ? undefined : take(operation))
  const after = stack.hooks.after.bind(stack.hooks)
  stack.hooks.after = (record) => (caller.getStore() === 'status' ? undefined : after(record))
  setUpGitLabForStatus(r)
  const model = github.world?.core.model
  if (model !== undefined) {
    model.branch('feature', COMMITS[6] ?? '')
    for (const [name, commit] of TAGS) model.tag(name, COMMITS[commit] ?? '')
    // Drift issues an earlier run left open for both environments (their markers as docs/status.md shows them).
    const stackName = encodeURIComponent(r.face === 'command' ? new URL(BASE).host : 'sim')
    if (r.github?.openIssue === true)
      for (const environment of [ENV, OTHER_ENV])
        model.addIssue({
          title: `sim/${environment} is behind main`,
          body: `<!-- brcloud-drift stack=${stackName} environment=${environment} -->\n${environment} ran an older commit.\n<!-- brcloud-drift-run -->\nSeen by an earlier run.`,
          labels: ['brcloud-drift'],
          user: 'github-actions[bot]'
        })
    // Other environments deployed many times since the world's records (only when the run reads no GitHub: its own order would change).
    if (r.github?.filler === 'newer' && s.github === undefined)
      for (let i = 0; i < MANY; i++)
        model.addDeployment({
          ref: COMMITS[0] ?? '',
          environment: `review-${i}`,
          payload: { distributionId: `review-${i}`, apiUrl: BASE },
          creator: 'other-job'
        })
  }
  r.reads.forEach((read, index) => onTrigger(stack, read.trigger, () => begin(s, r, stack, index), afterCodeHost))
}

/** GitLab's side of the report's world: the feature branch, tags, drift issues an earlier run left open, other environments' deployments. */
function setUpGitLabForStatus(r: StatusSchedule): void {
  const model = gitlab.world?.core.model
  if (model === undefined) return
  model.branch('feature', COMMITS[6] ?? '')
  for (const [name, commit] of TAGS) model.tag(name, COMMITS[commit] ?? '')
  const stackName = encodeURIComponent(r.face === 'command' ? new URL(BASE).host : 'sim')
  if (r.github?.openIssue === true)
    for (const environment of [ENV, OTHER_ENV])
      model.addIssue({
        title: `sim/${environment} is behind main`,
        description: `<!-- brcloud-drift stack=${stackName} environment=${environment} -->\n${environment} ran an older commit.\n<!-- brcloud-drift-run -->\nSeen by an earlier run.`,
        labels: ['brcloud-drift'],
        author: OTHER_JOB
      })
  // Other environments deployed many times since the world's records.
  if (r.github?.filler === 'newer')
    for (let i = 0; i < MANY; i++) model.seedDeployment({ environment: `review-${i}`, sha: COMMITS[0] ?? '', status: 'success', user: OTHER_JOB })
}

/** After the run: the main step ended (reads from now are "after the run"). */
export function mainEnded(): void {
  statusWorld.mainEnded = true
}

/** Runs the reads whose moment never came, then drives the clock until every read ended. */
export async function finishStatus(s: Schedule, stack: Stack, drive: (done: () => boolean, what: string) => Promise<void>): Promise<void> {
  const r = s.report
  if (r === undefined) return
  r.reads.forEach((_, index) => begin(s, r, stack, index))
  let done = false
  void statusWorld.queue.then(
    () => (done = true),
    () => (done = true)
  )
  await drive(() => done, 'the status report')
  await statusWorld.queue
}

/** Every secret the report knows: the stack's, the identity provider's, both GitHub tokens, the health page's query, what it masked. */
export function statusSecrets(stack: Stack): string[] {
  return [
    stack.state.settings.password,
    QUERY_SECRET,
    STATUS_TOKEN,
    GITHUB_TOKEN,
    STATUS_GITLAB_TOKEN,
    GITLAB_TOKEN,
    'ci-secret-123456',
    ...(stack.sso === undefined ? [] : [stack.sso.handle(BASE).clientSecret]),
    ...statusShown.masked.filter((m) => m.length >= 8),
    ...statusWorld.issued
  ]
}
