// Azure Pipelines' logging commands (https://learn.microsoft.com/azure/devops/pipelines/scripts/logging-commands),
// written on stdout, where the agent reads them: each output as an output variable, warnings and errors as issues,
// and a failed run marked failed. Escaped as the agent's own task library escapes them (azure-pipelines-task-lib,
// node/taskcommand.ts): in a property, % \r \n ] ; ; in the message, % \r \n.
import { envName } from './inputs.js'

/** Under Azure Pipelines: the agent sets TF_BUILD=True in every step. */
export function underAzure(env: NodeJS.ProcessEnv): boolean {
  return env.TF_BUILD?.toLowerCase() === 'true'
}

function escapeMessage(text: string): string {
  return text.replace(/%/g, '%AZP25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

function escapeProperty(text: string): string {
  return escapeMessage(text).replace(/]/g, '%5D').replace(/;/g, '%3B')
}

/** A warning or an error, shown in the log and the run's summary. */
export function azureIssue(type: 'warning' | 'error', message: string): string {
  return `##vso[task.logissue type=${type}]${escapeMessage(message)}\n`
}

/**
 * The end of a run: every output as an output variable BRCLOUD_<OUTPUT> (a later step reads $(<step>.BRCLOUD_DEPLOYED),
 * a later job or stage through its dependencies), then, when the run failed, its error and the task marked failed.
 */
export function azureEnding(outputs: Readonly<Record<string, string>>, failure: string | undefined): string {
  const lines = Object.entries(outputs).map(
    ([name, value]) => `##vso[task.setvariable variable=${escapeProperty(envName(name))};isOutput=true]${escapeMessage(value)}\n`
  )
  if (failure !== undefined) lines.push(azureIssue('error', failure), '##vso[task.complete result=Failed;]\n')
  return lines.join('')
}
