// The optional build-command: run before packing, in the workspace, its output streamed into its
// own log group. Run through @actions/exec, which splits arguments itself (quotes respected) and
// uses no shell, so the same command works on Linux, macOS and Windows runners. A command that
// needs shell syntax can say so: `bash -c "mvn -B package && cp ..."`.
import * as core from './port.js'
import * as exec from '@actions/exec'
import { InputError } from './errors.js'

export async function runBuildCommand(command: string, cwd: string): Promise<void> {
  let code: number
  try {
    code = await exec.exec(command, [], { cwd, ignoreReturnCode: true })
  } catch (error) {
    // @actions/exec throws when the program cannot be found or started.
    const why = error instanceof Error ? error.message : String(error)
    throw new InputError(
      `build-command '${command}' could not be started (${why}). Check the program name and that the job installs it (e.g. actions/setup-java for mvn).`
    )
  }
  if (code !== 0) {
    throw new InputError(`build-command '${command}' exited with code ${code}; nothing was uploaded. Its output is in the "Build" log group above.`)
  }
  core.info(`build-command finished (exit code 0).`)
}
