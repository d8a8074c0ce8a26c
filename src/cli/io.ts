// Where a command meets its process: stdout, stderr (and whether it is a terminal), SIGINT and SIGTERM, the exit, the
// current folder. src/cli/index.ts runs the command on the process's own (processIo); a test or the simulation passes
// its own, so that the whole command runs in-process, with nothing spawned and no signal of the real process touched.

export type Signal = 'SIGINT' | 'SIGTERM'

/** Where SIGINT and SIGTERM arrive: the process, or an EventEmitter a test emits them on. */
export interface SignalSource {
  on(event: Signal, fn: (signal: string) => void): unknown
  off(event: Signal, fn: (signal: string) => void): unknown
}

export interface CliIo {
  /** Writes the command's data (the report, --json, --help, Azure's lines); resolves once it is written. */
  stdout(text: string): Promise<void>
  /** Writes to the human log. */
  stderr(text: string): void
  /** Whether the log goes to a terminal (colour only there). */
  readonly stderrIsTTY: boolean
  readonly signals: SignalSource
  /** Ends the process at once: only the third signal does (./signals.ts). */
  exit(code: number): void
  /** The folder the command was started in: a relative path is read from there. */
  cwd(): string
}

/** The process's own: what the packed `brcloud` command runs with. */
export function processIo(): CliIo {
  return {
    // Looked up at each call, not kept: a test that spies on process.stdout still sees what is written.
    stdout: (text) => new Promise((resolve) => process.stdout.write(text, () => resolve())),
    stderr: (text) => void process.stderr.write(text),
    get stderrIsTTY() {
      return process.stderr.isTTY === true
    },
    signals: process,
    exit: (code) => process.exit(code),
    cwd: () => process.cwd()
  }
}
