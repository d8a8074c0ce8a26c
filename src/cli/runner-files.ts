// In a GitHub Actions `run:` step the command also writes the runner's files (outputs, the job summary), through the
// action's own port: one writer of @actions/core's file-command format, loaded only there.
import type { Port } from '../port.js'

/**
 * In a GitHub Actions `run:` step, the runner's output and summary files, written by the action's own port (one
 * writer of @actions/core's file-command format); loaded only there. Elsewhere none.
 */
export async function gitHubRunner(env: NodeJS.ProcessEnv): Promise<Pick<Port, 'setOutput' | 'writeSummary'> | undefined> {
  if (env.GITHUB_ACTIONS !== 'true') return undefined
  const { actionPort } = await import('../action/port.js')
  return {
    // Without the runner's file, @actions/core would print a workflow command on stdout, where --json goes.
    setOutput: (name, value) => (env.GITHUB_OUTPUT ? actionPort.setOutput(name, value) : undefined),
    writeSummary: (markdown) => actionPort.writeSummary(markdown)
  }
}
