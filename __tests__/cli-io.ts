// A command's process in memory (src/cli/io.ts): what it wrote on stdout and stderr, the exits it asked for, and an
// EventEmitter to send it SIGINT and SIGTERM. With it, main() (src/cli/main.ts) runs in-process: no child, no signal
// of the test's own process, no spy on process.stdout.
import { EventEmitter } from 'node:events'
import type { CliIo } from '../src/cli/io.js'

export interface MemoryIo {
  readonly io: CliIo
  /** Everything written on stdout so far. */
  stdout(): string
  /** Everything written on stderr so far. */
  stderr(): string
  /** The codes io.exit was called with. */
  readonly exits: number[]
  /** Emits SIGINT or SIGTERM to the command's listeners. */
  readonly signals: EventEmitter
}

export function memoryIo(options: { tty?: boolean; cwd?: string; onStderr?: (sofar: string) => void } = {}): MemoryIo {
  let out = ''
  let err = ''
  const exits: number[] = []
  const signals = new EventEmitter()
  const io: CliIo = {
    stdout: async (text) => {
      out += text
    },
    stderr: (text) => {
      err += text
      options.onStderr?.(err)
    },
    stderrIsTTY: options.tty ?? false,
    signals,
    exit: (code) => void exits.push(code),
    cwd: () => options.cwd ?? process.cwd()
  }
  return { io, stdout: () => out, stderr: () => err, exits, signals }
}
