// The status report's GitHub face (status/action.yml, issue 31; bundled into status/dist/ by npm run build:status):
// `brcloud status` as a step. Through the action's port only: the inputs (config, or a single stack's inputs; repository,
// github-token, fail-on, parallel, drift-issues) from INPUT_*, the logins from the variables the file names (the step's env:) or the
// single stack's login inputs, a cancel revoking each stack's refresh token (status/stop.ts), the table in the log, the
// Markdown in the job summary, the outputs json and drift. The verdict is the command's (status/verdict.ts): fails
// closed, then fail-on; the step fails once, here, with core.setFailed through the port. With otel-endpoint (or the
// OTEL_* variables) the output trace-id, and the report's trace sent after the failure (status/trace.ts).
import { InputError } from '../errors.js'
import { isRepositoryName } from '../github/runner-context.js'
import * as core from '../port.js'
import { redact, registerSecret } from '../secrets.js'
import { statusCodeHost } from '../status/code-host.js'
import { driftIssuesFailure, keepDriftIssuesOf } from '../status/drift-issues.js'
import { prepareStatus, readStatus, type PreparedStatus } from '../status/index.js'
import { statusJson, statusMarkdown, statusTable } from '../status/render.js'
import { maskedReader, prepareSingleStack, SINGLE_STACK_INPUTS, singleStackChosen } from '../status/single-stack.js'
import { drifted, loadStatusConfig, parseFailOn, parseParallel, parseSwitch, statusVerdict, type FailOn } from '../status/verdict.js'
import { StatusCancelled, stoppable } from '../status/stop.js'
import { endingOfError, readStatusTracing, traceNote, traceStatus, type StatusEnding } from '../status/trace.js'
import type { StatusReport } from '../status/index.js'
import type { CodeHostInputs } from '../inputs/code-host.js'
import { OTEL_ENDPOINT_INPUT } from '../inputs/tracing.js'
import type { TracingInputs } from '../tracing/config.js'
import type { RunContext } from '../port.js'
import { actionPort } from './port.js'

/** What the step saw as it went, for its trace: tracing's settings, the report, and what its failure was. */
interface Seen {
  tracing?: TracingInputs | undefined
  report?: StatusReport | undefined
  failedBy?: string | undefined
}

/** The step: the report, the summary and the outputs; resolves with why the step fails, or undefined. */
async function statusStep(seen: Seen): Promise<string | undefined> {
  // Tracing first: the collector's headers are masked before anything else is read, and a refusal after it is traced.
  seen.tracing = readStatusTracing(core.getInput(OTEL_ENDPOINT_INPUT), OTEL_ENDPOINT_INPUT, process.env)
  if (seen.tracing !== undefined) core.setOutput('trace-id', seen.tracing.traceId)
  const runner = core.runContext()
  const githubToken = core.getInput('github-token') || undefined
  const gitlabToken = core.getInput('gitlab-token') || undefined
  registerSecret(githubToken)
  registerSecret(gitlabToken)
  const configFile = core.getInput('config')
  const failOn = parseFailOn(core.getInput('fail-on'), 'fail-on')
  const parallel = parseParallel(core.getInput('parallel') || undefined, 'parallel')
  const repository = core.getInput('repository') || runner.repository
  if (githubToken !== undefined && !isRepositoryName(repository)) throw new InputError(`github-token is set, but repository '${repository}' is not owner/name.`)
  const context = { ...runner, repository }
  const prepared = await whatToRead(configFile, context.workspace)
  const hosts = statusCodeHost(
    {
      githubToken,
      gitlabToken,
      gitlabProject: core.getInput('gitlab-project'),
      gitlabUrl: core.getInput('gitlab-url'),
      file: prepared.config.gitlab,
      env: process.env
    },
    (line) => core.warning(line)
  )
  // Drift issues live in the run's own repository (issues: write), or the GitLab project (scope api), kept with the same token.
  const driftIssues = parseSwitch(core.getInput('drift-issues'), 'drift-issues')
  if (driftIssues && hosts.githubToken === undefined && hosts.gitlab === undefined)
    throw new InputError('drift-issues is true, but no token is set: give github-token a token with issues: write (or gitlab-token one with scope api).')
  if (driftIssues && hosts.gitlab === undefined && !isRepositoryName(runner.repository))
    throw new InputError(`drift-issues is true, but the run's repository '${runner.repository}' is not owner/name.`)
  // A cancel of the workflow (SIGINT, then SIGTERM) revokes each stack's refresh token before the step ends (stop.ts).
  seen.report = await stoppable(process, (stop) =>
    readStatus(prepared, {
      github: hosts.githubToken === undefined ? undefined : { token: hosts.githubToken, context },
      gitlab: hosts.gitlab === undefined ? undefined : { settings: hosts.gitlab, context },
      repository: repository || undefined,
      parallel,
      stop
    })
  )
  return tellReport(seen.report, seen, failOn, driftIssues ? { hosts, runner } : undefined)
}

/** The table in the log, the summary, the outputs json and drift, the drift issues when asked; why the step fails, or undefined. */
async function tellReport(
  report: StatusReport,
  seen: Seen,
  failOn: readonly FailOn[],
  driftIssues: { hosts: CodeHostInputs; runner: RunContext } | undefined
): Promise<string | undefined> {
  const trace = traceNote(seen.tracing)
  core.info(statusTable(report).trimEnd())
  await core.writeSummary(statusMarkdown(report, trace)).catch((error: NodeJS.ErrnoException) => {
    core.warning(`The job summary could not be written (${error.code ?? String(error)}).`)
  })
  core.setOutput('json', statusJson(report, trace).trimEnd())
  core.setOutput('drift', String(drifted(report)))
  const verdict = statusVerdict(report, failOn, 'fail-on')
  const issues = driftIssues ? await keepDriftIssuesOf(report, driftIssues.hosts, driftIssues.runner, failOn) : undefined
  // The report's verdict first; issues that could not be kept fail the step too, as the user asked for them.
  if (verdict.kind !== 'read') {
    seen.failedBy = verdict.kind
    return verdict.message
  }
  const failure = issues === undefined ? undefined : driftIssuesFailure(issues, 'drift-issues')
  if (failure !== undefined) seen.failedBy = 'drift-issues'
  return failure
}

/** The file (relative to the workspace, as the deploy action reads its paths; the logins from the step's env:), or one stack's inputs. */
async function whatToRead(configFile: string, workspace: string): Promise<PreparedStatus> {
  // A single stack's inputs, as the deploy action names them; the password untrimmed (it may begin or end with a blank).
  const single = maskedReader((name) => core.getInput(name, { trimWhitespace: name !== 'password' }))
  const given = SINGLE_STACK_INPUTS.filter((name) => single(name) !== '')
  if (singleStackChosen(configFile, given, 'config', 'stack (or console-url, or api-url)')) return prepareSingleStack(single)
  return prepareStatus(await loadStatusConfig(configFile, workspace), process.env)
}

export async function runStatus(): Promise<void> {
  core.usePort(actionPort)
  const startedAt = Date.now()
  const seen: Seen = {}
  let ending: StatusEnding | undefined
  let hurried = false
  const failure = await statusStep(seen).catch((error: unknown) => {
    const message =
      error instanceof InputError || error instanceof StatusCancelled
        ? error.message
        : `The status report failed: ${redact(error instanceof Error ? error.message : String(error))}`
    ending = endingOfError(error, message)
    hurried = error instanceof StatusCancelled && error.hurried
    return message
  })
  // The one failure of the step (the runner's exit code 1 and an error annotation).
  if (failure !== undefined) core.setFailed(failure)
  ending ??= failure === undefined ? { result: 'success' } : { result: 'failure', errorType: seen.failedBy, message: failure }
  await traceStatus(seen.tracing, seen.report, { context: core.runContext(), startedAt, endedAt: Date.now(), ending }, process, hurried)
  // After a cancel, a call the stop abandoned may still hold a socket open: end now, as the deploy's run() does.
  if (ending.result === 'cancellation') process.exit(1)
}

void runStatus()
