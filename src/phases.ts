// The run's timeline: each phase in its own log group, how long it took and whether it passed. The
// steps run their phases through it; the report reads it; nothing else writes it.
import * as core from './port.js'

/** Set to `1` to log the process's memory after each phase (for the benchmark; off by default). */
export const TRACE_MEMORY_ENV = 'BRCLOUD_DEPLOY_TRACE_MEMORY'

const MiB = 1024 * 1024

/**
 * The memory trace line logged after a phase: resident set now, peak resident set so far
 * (`maxRSS`, in KiB), V8 heap in use and memory outside the V8 heap (Buffers, zlib), in MiB.
 */
export function memoryTraceLine(phase: string, usage: NodeJS.MemoryUsage, maxRssKiB: number): string {
  const m = (bytes: number): string => (bytes / MiB).toFixed(1)
  return `memory after "${phase}": rss ${m(usage.rss)} MiB, peak ${m(maxRssKiB * 1024)} MiB, heap ${m(usage.heapUsed)} MiB, external ${m(usage.external)} MiB`
}

export interface Phase {
  readonly name: string
  /** Date.now() when it began (a trace's span starts there). */
  readonly startedAt: number
  readonly ms: number
  readonly ok: boolean
}

/** Runs one phase: `fn` inside a log group named `name`, timed; `passed` tells a result that did not pass (a failed check returns, not throws). */
export type PhaseRunner = <T>(name: string, fn: () => Promise<T>, passed?: (result: T) => boolean) => Promise<T>

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

  readonly run: PhaseRunner = async (name, fn, passed) => {
    const started = Date.now()
    let ok = false
    let threw = true
    this.running = name
    try {
      const result = await core.group(name, fn)
      threw = false
      ok = passed === undefined || passed(result)
      return result
    } finally {
      this.done.push({ name, startedAt: started, ms: Date.now() - started, ok })
      if (process.env[TRACE_MEMORY_ENV] === '1') core.info(memoryTraceLine(name, process.memoryUsage(), process.resourceUsage().maxRSS))
      // A phase that threw stays current, so the failure message can say where it happened.
      if (!threw) this.running = undefined
    }
  }
}
