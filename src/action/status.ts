// The status report's GitHub face (status/action.yml, issue 31; bundled into status/dist/ by npm run build:status):
// `brcloud status` as a step. Through the action's port only: the inputs (config, repository, github-token, fail-on,
// parallel) from INPUT_*, the logins from the variables the file names (the step's env:), the table in the log, the
// Markdown in the job summary, the outputs json and drift. The verdict is the command's (status/verdict.ts): fails
// closed, then fail-on; the step fails once, here, with core.setFailed through the port.
import { InputError } from '../errors.js'
import { isRepositoryName } from '../github/runner-context.js'
import * as core from '../port.js'
import { redact, registerSecret } from '../secrets.js'
import { prepareStatus, readStatus } from '../status/index.js'
import { driftIssuesFailure, keepDriftIssuesOf } from '../status/drift-issues.js'
import { statusJson, statusMarkdown, statusTable } from '../status/render.js'
import { drifted, loadStatusConfig, parseFailOn, parseParallel, parseSwitch, statusVerdict } from '../status/verdict.js'
import { actionPort } from './port.js'

/** The step: the report, the summary and the outputs; resolves with why the step fails, or undefined. */
async function statusStep(): Promise<string | undefined> {
  const runner = core.runContext()
  const githubToken = core.getInput('github-token') || undefined
  registerSecret(githubToken)
  const configFile = core.getInput('config')
  if (configFile === '') throw new InputError('The input config is required: the YAML file that names the stacks (docs/status.md).')
  const failOn = parseFailOn(core.getInput('fail-on'), 'fail-on')
  const parallel = parseParallel(core.getInput('parallel') || undefined, 'parallel')
  const repository = core.getInput('repository') || runner.repository
  if (githubToken !== undefined && !isRepositoryName(repository)) throw new InputError(`github-token is set, but repository '${repository}' is not owner/name.`)
  const context = { ...runner, repository }
  // Drift issues live in the run's own repository, kept with the same token (issues: write).
  const driftIssues = parseSwitch(core.getInput('drift-issues'), 'drift-issues')
  if (driftIssues && githubToken === undefined) throw new InputError('drift-issues is true, but github-token is not set: give it a token with issues: write.')
  if (driftIssues && !isRepositoryName(runner.repository))
    throw new InputError(`drift-issues is true, but the run's repository '${runner.repository}' is not owner/name.`)
  // Relative to the workspace, as the deploy action reads its paths; the logins from the step's env:.
  const prepared = prepareStatus(await loadStatusConfig(configFile, context.workspace), process.env)
  const report = await readStatus(prepared, {
    github: githubToken === undefined ? undefined : { token: githubToken, context },
    repository: repository || undefined,
    parallel
  })
  core.info(statusTable(report).trimEnd())
  await core.writeSummary(statusMarkdown(report)).catch((error: NodeJS.ErrnoException) => {
    core.warning(`The job summary could not be written (${error.code ?? String(error)}).`)
  })
  core.setOutput('json', statusJson(report).trimEnd())
  core.setOutput('drift', String(drifted(report)))
  const verdict = statusVerdict(report, failOn, 'fail-on')
  const issues = driftIssues && githubToken !== undefined ? await keepDriftIssuesOf(report, githubToken, runner, failOn) : undefined
  // The report's verdict first; issues that could not be kept fail the step too, as the user asked for them.
  if (verdict.kind !== 'read') return verdict.message
  return issues === undefined ? undefined : driftIssuesFailure(issues, 'drift-issues')
}

export async function runStatus(): Promise<void> {
  core.usePort(actionPort)
  const failure = await statusStep().catch((error: unknown) =>
    error instanceof InputError ? error.message : `The status report failed: ${redact(error instanceof Error ? error.message : String(error))}`
  )
  // The one failure of the step (the runner's exit code 1 and an error annotation).
  if (failure !== undefined) core.setFailed(failure)
}

void runStatus()
