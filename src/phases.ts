// The run's timeline: each phase in its own log group, how long it took and whether it passed. The
// steps run their phases through it; the report reads it; nothing else writes it.
import * as core from '@actions/core'

export interface Phase {
  readonly name: string
  readonly ms: number
  readonly ok: boolean
}

/** Runs one phase: `fn` inside a log group named `name`, timed. */
export type PhaseRunner = <T>(name: string, fn: () => Promise<T>) => Promise<T>

export class Timeline {
  private readonly done: Phase[] = []
  private running: string | undefined

  /** The phases that ended, in order. */
  get phases(): readonly Phase[] {
    return this.done
  }

  /** The phase running now, or the one that failed: for failure messages. */
  get current(): string | undefined {
    return this.running
  }

  readonly run: PhaseRunner = async (name, fn) => {
    const started = Date.now()
    let ok = false
    this.running = name
    try {
      const result = await core.group(name, fn)
      ok = true
      return result
    } finally {
      this.done.push({ name, ms: Date.now() - started, ok })
      // A failed phase stays current, so the failure message can say where it happened.
      if (ok) this.running = undefined
    }
  }
}
