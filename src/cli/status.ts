// `brcloud status --config FILE`, or a single stack's flags (docs/status.md): the status report's face on a terminal or a
// CI log. Its flags, the file and every stack's login are checked before any request (exit 2); Ctrl-C revokes each
// stack's refresh token, then exits 130 (status/stop.ts); the report goes to stdout (a table, or
// --json), Markdown to --summary (and the job summary in a GitHub Actions `run:` step), the log to stderr. It fails
// closed: a stack or GitHub that could not be read exits 1; drift alone exits 0, unless --fail-on names its state.
// With --otel-endpoint (or the OTEL_* variables) the run is sent as a trace once the exit code is decided (status/trace.ts).
import { parseArgs } from 'node:util'
import { InputError } from '../errors.js'
import { usePort, type RunContext } from '../port.js'
import type { CodeHostInputs } from '../inputs/code-host.js'
import { redact, registerSecret } from '../secrets.js'
import { statusCodeHost } from '../status/code-host.js'
import { driftIssuesFailure, keepDriftIssuesOf, type DriftIssueOutcome } from '../status/drift-issues.js'
import type { GitLabFileSettings } from '../status/config.js'
import { DEFAULT_PARALLEL, prepareStatus, readStatus, STATES, type PreparedStatus, type StatusReport } from '../status/index.js'
import { statusJson, statusMarkdown, statusTable } from '../status/render.js'
import { prepareSingleStack, SINGLE_STACK_INPUTS, SINGLE_STACK_SETTINGS, singleStackChosen, type SingleStackInput } from '../status/single-stack.js'
import { loadStatusConfig, parseFailOn, parseParallel, statusVerdict, type FailOn } from '../status/verdict.js'
import { StatusCancelled, stoppable } from '../status/stop.js'
import { endingOfError, readStatusTracing, traceNote, traceStatus, type StatusEnding } from '../status/trace.js'
import type { TracingInputs } from '../tracing/config.js'
import { usageOf } from './args.js'
import { EXIT, STATUS_EXIT } from './exit-codes.js'
import { envName, secretValue, UsageError } from './inputs.js'
import { createCliPort, printOut, stderrLog, type CliPort } from './port.js'
import { processIo, type CliIo } from './io.js'
import { cliRunContext } from './run-context.js'
import { gitHubRunner } from './runner-files.js'

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  config: { type: 'string' },
  json: { type: 'boolean' },
  summary: { type: 'string' },
  'fail-on': { type: 'string' },
  repository: { type: 'string' },
  'github-token-file': { type: 'string' },
  'gitlab-project': { type: 'string' },
  'gitlab-url': { type: 'string' },
  'gitlab-token-file': { type: 'string' },
  parallel: { type: 'string' },
  'drift-issues': { type: 'boolean' },
  'otel-endpoint': { type: 'string' },
  debug: { type: 'boolean' },
  // A single stack instead of a file: its settings and the login's plain parts as flags, its secrets from files.
  stack: { type: 'string' },
  'console-url': { type: 'string' },
  'api-url': { type: 'string' },
  'platform-domain': { type: 'string' },
  environments: { type: 'string' },
  track: { type: 'string' },
  'health-url': { type: 'string' },
  'health-expect': { type: 'string' },
  'deploy-freeze': { type: 'string' },
  username: { type: 'string' },
  'token-url': { type: 'string' },
  'client-id': { type: 'string' },
  audience: { type: 'string' },
  scope: { type: 'string' },
  'password-file': { type: 'string' },
  'client-secret-file': { type: 'string' },
  'access-token-file': { type: 'string' }
} as const

/** The single stack's secrets: never a flag (a command line is logged), only BRCLOUD_<NAME> or its file. */
const SECRET_LOGIN = ['password', 'client-secret', 'access-token'] as const

export function statusHelp(): string {
  return [
    'Usage: brcloud status --config FILE [flags]',
    '       brcloud status --stack NAME | --console-url URL | --api-url URL [--environments LIST] [--track REF] [flags]',
    '',
    'What runs in each environment of the stacks FILE names, and how it stands against the tracked ref: in-sync, behind,',
    'ahead, diverged, outside, deploying, empty or unknown. Read-only: it never uploads, deploys or deletes.',
    '',
    '  --config FILE                       the YAML file: track, stacks (name, stack | console-url | api-url, environments, login)',
    '  --json                              the report as one JSON object on stdout instead of the table',
    '  --summary FILE                      the report in Markdown, written to FILE',
    `  --fail-on STATES                    exit ${STATUS_EXIT.failOn} when an environment is in one of them, e.g. behind,outside (${STATES.join(', ')}; unhealthy: a failing health probe)`,
    '  --repository OWNER/NAME             the GitHub repository of the commits and Deployments (BRCLOUD_REPOSITORY, GITHUB_REPOSITORY)',
    '  --github-token-file FILE            the GitHub token, else BRCLOUD_GITHUB_TOKEN (secret: never a flag); needs deployments: read, contents: read',
    `  --parallel N                        stacks read at once (default ${DEFAULT_PARALLEL})`,
    "  --gitlab-project PATH               the code is on GitLab: its project (group/project or id; the file's gitlab:, CI_PROJECT_PATH)",
    '  --gitlab-url URL                    a self-managed GitLab (default https://gitlab.com; CI_API_V4_URL in GitLab CI)',
    '  --gitlab-token-file FILE            the GitLab token, else BRCLOUD_GITLAB_TOKEN (scope read_api; api for --drift-issues)',
    '  --drift-issues                      keep one issue per drifted environment (GitHub: issues: write; GitLab: api)',
    "  --otel-endpoint URL                 send the report's run as a trace to this OTLP/HTTP collector (BRCLOUD_OTEL_ENDPOINT; else the",
    "                                      OTEL_EXPORTER_OTLP_* variables; TRACEPARENT joins the pipeline's trace; docs/tracing.md)",
    '',
    'A single stack instead of a file (not with --config), each flag also as BRCLOUD_<NAME>:',
    '  --stack NAME, --console-url URL, --api-url URL, --platform-domain DOMAIN   the stack, as brcloud deploy takes it',
    '  --environments LIST                 comma-separated; default every environment of the stack',
    '  --track REF                         the branch or tag they should run, or a tag pattern such as v*',
    '  --health-url URL, --health-expect TEXT   a page of each environment to GET, {environment} for its name',
    '  --deploy-freeze WINDOWS             freeze windows, one a line, as brcloud deploy takes them: a freeze in force is shown',
    '  --username, --token-url, --client-id, --audience, --scope   its login, as brcloud deploy takes it; the secrets',
    '                                      from BRCLOUD_PASSWORD, BRCLOUD_CLIENT_SECRET, BRCLOUD_ACCESS_TOKEN or --<name>-file FILE',
    '  --debug                             debug lines in the log (also BRCLOUD_DEBUG=true)',
    '',
    "Logins: BRCLOUD_USERNAME and BRCLOUD_PASSWORD (or BRCLOUD_ACCESS_TOKEN), or the variables a stack's login: names.",
    `Exit codes: ${STATUS_EXIT.success} read in full, ${STATUS_EXIT.unreadable} a stack or the code's host (GitHub, GitLab) could not be read, ${STATUS_EXIT.badInput} bad flags, file or login, ${STATUS_EXIT.failOn} a --fail-on state,`,
    `${STATUS_EXIT.driftIssues} a drift issue could not be kept,`,
    `${STATUS_EXIT.sigint} or ${STATUS_EXIT.sigterm} cancelled (each stack's refresh token revoked first) (docs/status.md).`,
    ''
  ].join('\n')
}

interface StatusInvocation {
  readonly flags: Record<string, unknown>
  readonly configFile: string
  readonly failOn: readonly FailOn[]
  readonly parallel: number
}

function parseStatusArgs(args: readonly string[]): StatusInvocation | 'help' {
  let values: Record<string, unknown>
  let positionals: string[]
  try {
    ;({ values, positionals } = parseArgs({ args: [...args], options: OPTIONS, strict: true, allowPositionals: true }))
  } catch (error) {
    throw usageOf(error, Object.keys(OPTIONS), 'brcloud status --help')
  }
  if (values.help === true) return 'help'
  if (positionals.length > 1) throw new UsageError('brcloud status takes no argument besides its flags (brcloud status --help lists them).')
  const configFile = typeof values.config === 'string' ? values.config : ''
  return {
    flags: values,
    configFile,
    failOn: parseFailOn(values['fail-on'] as string | undefined, '--fail-on'),
    parallel: parseParallel(values.parallel as string | undefined, '--parallel')
  }
}

/** What the command knows once its command line is read: the settings, the run's context, the port, and tracing's settings. */
interface StatusSetup {
  readonly invocation: StatusInvocation
  readonly context: RunContext
  readonly port: CliPort
  readonly tracing: TracingInputs | undefined
}

/** How the report ended: the exit code, the trace's words for it, the report when there is one. */
interface StatusRun {
  readonly code: number
  readonly ending: StatusEnding
  readonly report?: StatusReport | undefined
  /** A second signal ended the cancel's wait: nothing more is sent. */
  readonly hurried?: boolean
}

/** Runs `brcloud status` with `args` (after the command word); resolves with the exit code. */
export async function statusMain(args: readonly string[], env: NodeJS.ProcessEnv, io: CliIo = processIo()): Promise<number> {
  const startedAt = Date.now()
  let setup: StatusSetup
  try {
    const parsed = parseStatusArgs(args)
    if (parsed === 'help') return printOut(io, statusHelp())
    setup = await setUp(parsed, env, io)
  } catch (error) {
    // A command line that cannot be read is not traced (nor is brcloud deploy's): its settings are not known.
    if (!(error instanceof InputError)) throw error
    io.stderr(`error: ${error.message}\n`)
    return STATUS_EXIT.badInput
  }
  const trace = (run: Omit<StatusRun, 'code'>): Promise<void> =>
    traceStatus(setup.tracing, run.report, { context: setup.context, startedAt, endedAt: Date.now(), ending: run.ending }, io.signals, run.hurried)
  let run: StatusRun
  try {
    run = await reportStatus(setup, env, io)
  } catch (error) {
    // Not the report's own ending: traced as a failure, then written by the command (src/cli/index.ts).
    await trace({ ending: endingOfError(error, redact(error instanceof Error ? error.message : String(error)), EXIT.failure) })
    throw error
  }
  await trace(run)
  return run.code
}

/** The run's context, the port installed, and tracing's settings (the collector's headers masked) before anything else is read. */
async function setUp(invocation: StatusInvocation, env: NodeJS.ProcessEnv, io: CliIo): Promise<StatusSetup> {
  const context = cliRunContext(invocation.flags, env, io.cwd())
  const port = createCliPort({
    values: new Map(),
    ...stderrLog(io, env, invocation.flags.debug === true),
    summaryFile: typeof invocation.flags.summary === 'string' ? invocation.flags.summary : undefined,
    context,
    runner: await gitHubRunner(env)
  })
  usePort(port)
  const flag = invocation.flags['otel-endpoint']
  const endpoint =
    typeof flag === 'string' ? { value: flag, name: '--otel-endpoint' } : { value: env[envName('otel-endpoint')] ?? '', name: envName('otel-endpoint') }
  const tracing = readStatusTracing(endpoint.value, endpoint.name, env)
  return { invocation, context, port, tracing }
}

/** The report: its settings and logins checked (exit 2), the stacks read (a cancel: 130, 143), printed, the verdict. */
async function reportStatus(setup: StatusSetup, env: NodeJS.ProcessEnv, io: CliIo): Promise<StatusRun> {
  const { invocation, context, port } = setup
  let prepared: { status: PreparedStatus; hosts: CodeHostInputs }
  try {
    prepared = await prepareReport(invocation, env, context, port)
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    io.stderr(`error: ${error.message}\n`)
    return { code: STATUS_EXIT.badInput, ending: endingOfError(error, error.message, STATUS_EXIT.badInput) }
  }
  const { status, hosts } = prepared
  let report: StatusReport
  try {
    // Ctrl-C (or SIGTERM) revokes each stack's refresh token before the command ends (stop.ts).
    report = await stoppable(io.signals, (stop) =>
      readStatus(status, {
        github: hosts.githubToken === undefined ? undefined : { token: hosts.githubToken, context },
        gitlab: hosts.gitlab === undefined ? undefined : { settings: hosts.gitlab, context },
        repository: context.repository || undefined,
        parallel: invocation.parallel,
        stop
      })
    )
  } catch (error) {
    if (!(error instanceof StatusCancelled)) throw error
    port.error(error.message)
    const code = error.stop === 'terminate' ? STATUS_EXIT.sigterm : STATUS_EXIT.sigint
    return { code, ending: endingOfError(error, error.message, code), hurried: error.hurried }
  }
  return { report, ...(await tellReport(report, setup, hosts, env, io)) }
}

/** The report on stdout, the summary, the drift issues when asked; the exit code from the verdict, and the trace's words for it. */
async function tellReport(
  report: StatusReport,
  { invocation, context, port, tracing }: StatusSetup,
  hosts: CodeHostInputs,
  env: NodeJS.ProcessEnv,
  io: CliIo
): Promise<{ code: number; ending: StatusEnding }> {
  const trace = traceNote(tracing)
  await printOut(io, invocation.flags.json === true ? statusJson(report, trace) : statusTable(report))
  if (typeof invocation.flags.summary === 'string' || env.GITHUB_ACTIONS === 'true') {
    await port.writeSummary(statusMarkdown(report, trace)).catch((error: NodeJS.ErrnoException) => {
      port.warning(`--summary: the file could not be written (${error.code ?? String(error)}).`)
    })
  }
  const issues =
    invocation.flags['drift-issues'] === true && (hosts.githubToken !== undefined || hosts.gitlab !== undefined)
      ? await keepDriftIssuesOf(report, hosts, context, invocation.failOn)
      : undefined
  let said: string | undefined
  const say = (message: string): void => {
    said = message
    port.error(message)
  }
  const code = statusExit(report, invocation.failOn, say, issues)
  if (code === STATUS_EXIT.success) return { code, ending: { result: 'success', exitCode: code } }
  return { code, ending: { result: 'failure', errorType: FAILED_BY[code], message: said, exitCode: code } }
}

/** The trace's word for each exit code of a report that was read (error.type). */
const FAILED_BY: Readonly<Record<number, string>> = {
  [STATUS_EXIT.unreadable]: 'unreadable',
  [STATUS_EXIT.failOn]: 'fail-on',
  [STATUS_EXIT.driftIssues]: 'drift-issues'
}

/** The tokens (masked), the code's host, the file or the single stack and every login, checked before any request; an InputError. */
async function prepareReport(
  invocation: StatusInvocation,
  env: NodeJS.ProcessEnv,
  context: RunContext,
  port: CliPort
): Promise<{ status: PreparedStatus; hosts: CodeHostInputs }> {
  const githubToken = secretValue('github-token', invocation.flags, env)?.trim() || undefined
  const gitlabToken = secretValue('gitlab-token', invocation.flags, env)?.trim() || undefined
  registerSecret(githubToken)
  registerSecret(gitlabToken)
  const drift = invocation.flags['drift-issues'] === true
  // The code's host is checked once the file is read (its gitlab:), before the logins are.
  let chosen: CodeHostInputs = {}
  const status = await whatToRead(invocation, env, (file) => {
    chosen = cliCodeHost(invocation.flags, env, file, githubToken, gitlabToken, (line) => port.warning(line))
    if (chosen.githubToken !== undefined && context.repository === '')
      throw new UsageError('A GitHub token is set: name its repository with --repository owner/name or BRCLOUD_REPOSITORY.')
    if (drift && chosen.githubToken === undefined && chosen.gitlab === undefined)
      throw new UsageError(
        '--drift-issues needs a GitHub token with issues: write: BRCLOUD_GITHUB_TOKEN or --github-token-file (or, for code on GitLab, BRCLOUD_GITLAB_TOKEN with scope api).'
      )
  })
  return { status, hosts: chosen }
}

/** The code's host from the flags, the variables and the file's `gitlab:` (src/status/code-host.ts). */
function cliCodeHost(
  flags: Readonly<Record<string, unknown>>,
  env: NodeJS.ProcessEnv,
  file: GitLabFileSettings | undefined,
  githubToken: string | undefined,
  gitlabToken: string | undefined,
  warn: (line: string) => void
): CodeHostInputs {
  const flag = (name: string): string | undefined => (typeof flags[name] === 'string' ? (flags[name] as string).trim() : undefined)
  return statusCodeHost(
    {
      githubToken,
      gitlabToken,
      gitlabProject: flag('gitlab-project') ?? env.BRCLOUD_GITLAB_PROJECT,
      gitlabUrl: flag('gitlab-url') ?? env.BRCLOUD_GITLAB_URL,
      file,
      env
    },
    warn
  )
}

/** The file, or the single stack of the flags and variables (the deploy command's, secrets only from the environment or a file). */
async function whatToRead(
  invocation: StatusInvocation,
  env: NodeJS.ProcessEnv,
  beforeLogins: (gitlab: GitLabFileSettings | undefined) => void
): Promise<PreparedStatus> {
  const flag = (name: string): string | undefined => (typeof invocation.flags[name] === 'string' ? (invocation.flags[name] as string) : undefined)
  const read = (name: SingleStackInput): string => {
    if ((SECRET_LOGIN as readonly string[]).includes(name)) {
      const secret = secretValue(name as (typeof SECRET_LOGIN)[number], invocation.flags, env) ?? ''
      return name === 'password' ? secret : secret.trim()
    }
    return (flag(name) ?? env[envName(name)] ?? '').trim()
  }
  // With a file, BRCLOUD_USERNAME and BRCLOUD_PASSWORD are its stacks' default login: only a flag (or a secret's file
  // flag), or a variable of the stack's settings (BRCLOUD_STACK, ...), asks for a single stack.
  const asked = (name: SingleStackInput): string | undefined => {
    if (flag(name) !== undefined) return `--${name}`
    if (flag(`${name}-file`) !== undefined) return `--${name}-file`
    // BRCLOUD_DEPLOY_FREEZE is the deploy's windows too: set for deploys, it does not ask for a single stack (the file has its own).
    if (name === 'deploy-freeze') return undefined
    return (SINGLE_STACK_SETTINGS as readonly string[]).includes(name) && read(name) !== '' ? envName(name) : undefined
  }
  const given = SINGLE_STACK_INPUTS.map(asked).filter((name): name is string => name !== undefined)
  if (singleStackChosen(invocation.configFile, given, '--config', '--stack (or --console-url, or --api-url)')) {
    beforeLogins(undefined)
    return prepareSingleStack(
      read,
      flag('track') !== undefined ? '--track' : envName('track'),
      flag('deploy-freeze') !== undefined ? '--deploy-freeze' : envName('deploy-freeze')
    )
  }
  const config = await loadStatusConfig(invocation.configFile)
  beforeLogins(config.gitlab)
  return prepareStatus(config, env)
}

/**
 * Fails closed: anything not read is 1, whatever else; then a state --fail-on names is 8 (status/verdict.ts); then a
 * drift issue not kept is 9; else 0.
 */
export function statusExit(report: StatusReport, failOn: readonly FailOn[], say: (message: string) => void, issues?: DriftIssueOutcome): number {
  const verdict = statusVerdict(report, failOn, '--fail-on')
  if (verdict.kind === 'read') {
    const failure = issues === undefined ? undefined : driftIssuesFailure(issues, '--drift-issues')
    if (failure === undefined) return STATUS_EXIT.success
    say(failure)
    return STATUS_EXIT.driftIssues
  }
  say(verdict.message)
  return verdict.kind === 'unreadable' ? STATUS_EXIT.unreadable : STATUS_EXIT.failOn
}
