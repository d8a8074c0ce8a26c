// The status report's GitHub face (status/action.yml, issue 31; bundled into status/dist/ by npm run build:status):
// `brcloud status` as a step. Through the action's port only: the inputs (config, or a single stack's inputs; repository,
// github-token, fail-on, parallel, drift-issues) from INPUT_*, the logins from the variables the file names (the step's env:) or the
// single stack's login inputs, a cancel revoking each stack's refresh token (status/stop.ts), the table in the log, the
// Markdown in the job summary, the outputs json and drift. The verdict is the command's (status/verdict.ts): fails
// closed, then fail-on; the step fails once, here, with core.setFailed through the port.
import { InputError } from '../errors.js'
import { isRepositoryName } from '../github/runner-context.js'
import * as core from '../port.js'
import { redact, registerSecret } from '../secrets.js'
import { statusCodeHost } from '../status/code-host.js'
import { driftIssuesFailure, keepDriftIssuesOf } from '../status/drift-issues.js'
import { prepareStatus, readStatus, type PreparedStatus } from '../status/index.js'
import { statusJson, statusMarkdown, statusTable } from '../status/render.js'
import { maskedReader, prepareSingleStack, SINGLE_STACK_INPUTS, singleStackChosen } from '../status/single-stack.js'
import { drifted, loadStatusConfig, parseFailOn, parseParallel, parseSwitch, statusVerdict } from '../status/verdict.js'
import { StatusCancelled, stoppable } from '../status/stop.js'
import { actionPort } from './port.js'

/** The step: the report, the summary and the outputs; resolves with why the step fails, or undefined. */
async function statusStep(): Promise<string | undefined> {
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
  const report = await stoppable(process, (stop) =>
    readStatus(prepared, {
      github: hosts.githubToken === undefined ? undefined : { token: hosts.githubToken, context },
      gitlab: hosts.gitlab === undefined ? undefined : { settings: hosts.gitlab, context },
      repository: repository || undefined,
      parallel,
      stop
    })
  )
  core.info(statusTable(report).trimEnd())
  await core.writeSummary(statusMarkdown(report)).catch((error: NodeJS.ErrnoException) => {
    core.warning(`The job summary could not be written (${error.code ?? String(error)}).`)
  })
  core.setOutput('json', statusJson(report).trimEnd())
  core.setOutput('drift', String(drifted(report)))
  const verdict = statusVerdict(report, failOn, 'fail-on')
  const issues = driftIssues ? await keepDriftIssuesOf(report, hosts, runner, failOn) : undefined
  // The report's verdict first; issues that could not be kept fail the step too, as the user asked for them.
  if (verdict.kind !== 'read') return verdict.message
  return issues === undefined ? undefined : driftIssuesFailure(issues, 'drift-issues')
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
  let cancelled = false
  const failure = await statusStep().catch((error: unknown) => {
    cancelled = error instanceof StatusCancelled
    return error instanceof InputError || cancelled
      ? (error as Error).message
      : `The status report failed: ${redact(error instanceof Error ? error.message : String(error))}`
  })
  // The one failure of the step (the runner's exit code 1 and an error annotation).
  if (failure !== undefined) core.setFailed(failure)
  // After a cancel, a call the stop abandoned may still hold a socket open: end now, as the deploy's run() does.
  if (cancelled) process.exit(1)
}

void runStatus()
