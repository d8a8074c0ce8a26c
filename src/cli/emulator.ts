// `brcloud emulator [flags]`: the local emulator of both services (docs/emulator.md), so that a Jenkins, GitLab or
// Azure user can try everything with no account. It is a program of its own, bundled apart (dist-cli/emulator/:
// the emulator shares no code with the engine), run as a child so that its flags, its log and its exit are its own.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { EXIT } from './exit-codes.js'
import { processIo, type CliIo } from './io.js'

/** Where the emulator's bundle sits beside the command's (the package's dist-cli/emulator/index.js). */
export function emulatorBundle(): string {
  // A path, not new URL('./emulator/...', import.meta.url): the bundler would take that for an asset of its own.
  return join(dirname(fileURLToPath(import.meta.url)), 'emulator', 'index.js')
}

/** Runs the emulator with these flags until it ends; resolves with its exit code. */
export function runEmulator(
  args: readonly string[],
  bundle = emulatorBundle(),
  io: CliIo = processIo(),
  env: NodeJS.ProcessEnv = process.env
): Promise<number> {
  if (!existsSync(bundle)) {
    io.stderr(`error: brcloud emulator: no emulator beside this command (${bundle}). From a clone of the repository: npm run emulator.\n`)
    return Promise.resolve(EXIT.failure)
  }
  return new Promise((resolve) => {
    // Told it runs as `brcloud emulator`, its banner and --help name brcloud's commands, not a clone's npm scripts.
    const child = spawn(process.execPath, [bundle, ...args], { stdio: 'inherit', env: { ...env, BRCLOUD_EMULATOR_FACE: 'brcloud' } })
    // Ctrl-C on a terminal reaches the child too (one process group); a signal sent to this process alone is passed on.
    const pass = (signal: string): void => void child.kill(signal as NodeJS.Signals)
    io.signals.on('SIGINT', pass)
    io.signals.on('SIGTERM', pass)
    child.on('error', (error) => {
      io.stderr(`error: brcloud emulator could not start: ${error.message}\n`)
      resolve(EXIT.failure)
    })
    child.on('exit', (code, signal) => resolve(code ?? (signal === 'SIGTERM' ? EXIT.sigterm : EXIT.sigint)))
  })
}
