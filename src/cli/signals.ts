// Ctrl-C at a terminal, or a CI's cancel, counted by the command: the first signal cancels the run and the second
// makes it report at once with what is known (both the engine's, src/main.ts); the third ends the process at once,
// without the report, for when even that does not end (a stdout nobody reads). Watched from just before run() until
// the process exits, so that a signal while the report is written does not kill the process half-way through it.
import { EXIT } from './exit-codes.js'
import type { SignalSource } from './io.js'

export type { SignalSource } from './io.js'

/** Counts SIGINT and SIGTERM; on the third, `end` ends the process with the first signal's exit code (130 or 143). */
export function watchSignals(source: Pick<SignalSource, 'on'>, end: (code: number, message: string) => void): void {
  let received = 0
  let first: string | undefined
  const onSignal = (signal: string): void => {
    first ??= signal
    if (++received < 3) return
    end(
      first === 'SIGTERM' ? EXIT.sigterm : EXIT.sigint,
      `A third signal (${signal}): ended at once, without the report. This run's refresh token may still be valid; it expires by itself within 24 hours.`
    )
  }
  source.on('SIGINT', onSignal)
  source.on('SIGTERM', onSignal)
}
