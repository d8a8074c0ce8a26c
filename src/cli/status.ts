// `brcloud status --config FILE` (docs/status.md): the status report's face on a terminal or a CI log. Its flags, the
// file and every stack's login are checked before any request (exit 2); the report goes to stdout (a table, or
// --json), Markdown to --summary (and the job summary in a GitHub Actions `run:` step), the log to stderr. It fails
// closed: a stack or GitHub that could not be read exits 1; drift alone exits 0, unless --fail-on names its state.
import { parseArgs } from 'node:util'
import { InputError } from '../errors.js'
import { usePort, type RunContext } from '../port.js'
import { registerSecret } from '../secrets.js'
import { DEFAULT_PARALLEL, prepareStatus, readStatus, STATES, type DriftState, type PreparedStatus, type StatusReport } from '../status/index.js'
import { driftIssuesFailure, keepDriftIssuesOf, type DriftIssueOutcome } from '../status/drift-issues.js'
import { statusJson, statusMarkdown, statusTable } from '../status/render.js'
import { loadStatusConfig, parseFailOn, parseParallel, statusVerdict } from '../status/verdict.js'
import { STATUS_EXIT } from './exit-codes.js'
import { secretValue, UsageError } from './inputs.js'
import { createCliPort, printOut, stderrLog, type CliPort } from './port.js'
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
  parallel: { type: 'string' },
  'drift-issues': { type: 'boolean' },
  debug: { type: 'boolean' }
} as const

export function statusHelp(): string {
  return [
    'Usage: brcloud status --config FILE [flags]',
    '',
    'What runs in each environment of the stacks FILE names, and how it stands against the tracked ref: in-sync, behind,',
    'ahead, diverged, outside, deploying, empty or unknown. Read-only: it never uploads, deploys or deletes.',
    '',
    '  --config FILE                       the YAML file: track, stacks (name, stack | console-url | api-url, environments, login)',
    '  --json                              the report as one JSON object on stdout instead of the table',
    '  --summary FILE                      the report in Markdown, written to FILE',
    `  --fail-on STATES                    exit ${STATUS_EXIT.failOn} when an environment is in one of them, e.g. behind,outside (${STATES.join(', ')})`,
    '  --repository OWNER/NAME             the GitHub repository of the commits and Deployments (BRCLOUD_REPOSITORY, GITHUB_REPOSITORY)',
    '  --github-token-file FILE            the GitHub token, else BRCLOUD_GITHUB_TOKEN (secret: never a flag); needs deployments: read, contents: read',
    `  --parallel N                        stacks read at once (default ${DEFAULT_PARALLEL})`,
    '  --drift-issues                      keep one GitHub issue per drifted environment in the repository (token: issues: write)',
    '  --debug                             debug lines in the log (also BRCLOUD_DEBUG=true)',
    '',
    "Logins: BRCLOUD_USERNAME and BRCLOUD_PASSWORD (or BRCLOUD_ACCESS_TOKEN), or the variables a stack's login: names.",
    `Exit codes: ${STATUS_EXIT.success} read in full, ${STATUS_EXIT.unreadable} a stack or GitHub could not be read, ${STATUS_EXIT.badInput} bad flags, file or login, ${STATUS_EXIT.failOn} a --fail-on state,`,
    `${STATUS_EXIT.driftIssues} a drift issue could not be kept (docs/status.md).`,
    ''
  ].join('\n')
}

interface StatusInvocation {
  readonly flags: Record<string, unknown>
  readonly configFile: string
  readonly failOn: readonly DriftState[]
  readonly parallel: number
}

function parseStatusArgs(args: readonly string[]): StatusInvocation | 'help' {
  let values: Record<string, unknown>
  let positionals: string[]
  try {
    ;({ values, positionals } = parseArgs({ args: [...args], options: OPTIONS, strict: true, allowPositionals: true }))
  } catch (error) {
    throw new UsageError(`${(error as Error).message} (brcloud status --help).`)
  }
  if (values.help === true) return 'help'
  if (positionals.length > 1) throw new UsageError('brcloud status takes no argument besides its flags (brcloud status --help lists them).')
  const configFile = typeof values.config === 'string' ? values.config : ''
  if (configFile === '') throw new UsageError('brcloud status needs --config FILE: the YAML file that names the stacks (docs/status.md).')
  return {
    flags: values,
    configFile,
    failOn: parseFailOn(values['fail-on'] as string | undefined, '--fail-on'),
    parallel: parseParallel(values.parallel as string | undefined, '--parallel')
  }
}

/** Runs `brcloud status` with `args` (after the command word); resolves with the exit code. */
export async function statusMain(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  let prepared: PreparedStatus
  let invocation: StatusInvocation
  let githubToken: string | undefined
  let context: RunContext
  let port: CliPort
  try {
    const parsed = parseStatusArgs(args)
    if (parsed === 'help') return printOut(statusHelp())
    invocation = parsed
    context = cliRunContext(invocation.flags, env)
    port = createCliPort({
      values: new Map(),
      ...stderrLog(env, invocation.flags.debug === true),
      summaryFile: typeof invocation.flags.summary === 'string' ? invocation.flags.summary : undefined,
      context,
      runner: await gitHubRunner(env)
    })
    usePort(port)
    githubToken = secretValue('github-token', invocation.flags, env)?.trim() || undefined
    registerSecret(githubToken)
    if (githubToken !== undefined && context.repository === '')
      throw new UsageError('A GitHub token is set: name its repository with --repository owner/name or BRCLOUD_REPOSITORY.')
    if (invocation.flags['drift-issues'] === true && githubToken === undefined)
      throw new UsageError('--drift-issues needs a GitHub token with issues: write: BRCLOUD_GITHUB_TOKEN or --github-token-file.')
    prepared = prepareStatus(await loadStatusConfig(parsed.configFile), env)
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    process.stderr.write(`error: ${error.message}\n`)
    return STATUS_EXIT.badInput
  }
  const report = await readStatus(prepared, {
    github: githubToken === undefined ? undefined : { token: githubToken, context },
    repository: context.repository || undefined,
    parallel: invocation.parallel
  })
  await printOut(invocation.flags.json === true ? statusJson(report) : statusTable(report))
  if (typeof invocation.flags.summary === 'string' || env.GITHUB_ACTIONS === 'true') {
    await port.writeSummary(statusMarkdown(report)).catch((error: NodeJS.ErrnoException) => {
      port.warning(`--summary: the file could not be written (${error.code ?? String(error)}).`)
    })
  }
  const issues =
    invocation.flags['drift-issues'] === true && githubToken !== undefined
      ? await keepDriftIssuesOf(report, githubToken, context, invocation.failOn)
      : undefined
  return statusExit(report, invocation.failOn, (message) => port.error(message), issues)
}

/**
 * Fails closed: anything not read is 1, whatever else; then a state --fail-on names is 8 (status/verdict.ts); then a
 * drift issue not kept is 9; else 0.
 */
export function statusExit(report: StatusReport, failOn: readonly DriftState[], say: (message: string) => void, issues?: DriftIssueOutcome): number {
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
