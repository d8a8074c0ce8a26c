// Keeps a streaming process's memory flat when it churns through big buffers it cannot recycle.
//
// Node's zlib hands every compressed block back in a fresh buffer, and an upload reads its file in
// fresh chunks. Each is garbage milliseconds later, but V8 collects that garbage only when its
// outside-the-heap memory has grown by tens of MB, and the malloc heap that held it keeps the
// high-water mark as resident memory: measured on a 300 MB tree, packing then shows 45-50 MB more
// RSS than it ever holds, and an upload of 180 MB 35-40 MB more.
//
// GarbageRelief asks V8 for a young-generation collection (about half a millisecond with this
// action's small heap) once at least `every` bytes of such buffers were produced AND at least
// `interval` ms went by since the last one. The interval matters: a buffer that is still in use
// when a collection runs survives it, and one that survives two is moved to the old generation,
// whose garbage only a full collection frees; collecting more often than a block takes to compress
// does more harm than good (measured: every 10 ms, +75 MB; every 20 ms, +27 MB; none, +48 MB).
//
// The collector is V8's own, reached through its `--expose-gc` flag set at run time for a fresh
// context (what the `expose-gc` package does); when that is not available, relief does nothing.
import v8 from 'node:v8'
import vm from 'node:vm'

type Gc = (options?: { type?: 'minor' | 'major'; execution?: 'sync' | 'async' }) => void

let collector: Gc | null | undefined

/** V8's collector, or null when it cannot be had. */
export function garbageCollector(): Gc | null {
  if (collector === undefined) {
    try {
      const exposed = (globalThis as { gc?: unknown }).gc
      if (typeof exposed === 'function') {
        collector = exposed as Gc
      } else {
        v8.setFlagsFromString('--expose-gc')
        const gc = vm.runInNewContext('gc') as unknown
        collector = typeof gc === 'function' ? (gc as Gc) : null
      }
    } catch {
      collector = null
    }
  }
  return collector
}

export interface ReliefOptions {
  /** Bytes of buffers produced between two collections, at least; default 2 MiB. */
  every?: number
  /** Milliseconds between two collections, at least; default 20. */
  interval?: number
}

export class GarbageRelief {
  private readonly every: number
  private readonly interval: number
  private produced = 0
  private last = performance.now()
  /** Young-generation collections asked for. */
  collections = 0

  constructor(options: ReliefOptions = {}) {
    this.every = options.every ?? 2 * 1024 * 1024
    this.interval = options.interval ?? 20
  }

  /** Call with the size of each buffer produced that will be garbage shortly. */
  produce(bytes: number): void {
    this.produced += bytes
    if (this.produced < this.every) return
    const now = performance.now()
    if (now - this.last < this.interval) return
    const gc = garbageCollector()
    if (gc === null) return
    gc({ type: 'minor' })
    this.collections++
    this.produced = 0
    this.last = performance.now()
  }
}
