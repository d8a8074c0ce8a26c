// The upload's "no bytes moving" limit, with an injected clock: it follows progress while the body is
// sent, then allows for the buffers to drain at the rate the upload ran.
import { BUFFERED_BOUND, FLOOR_BYTES_PER_SECOND, UploadWatch } from '../src/http/upload-watch.js'

function watch(idleMs = 5_000) {
  let t = 0
  const fired: string[] = []
  const w = new UploadWatch({ idleMs, onIdle: (m) => fired.push(m), now: () => t })
  w.stop() // the test drives the clock; no interval
  return { w, fired, advance: (ms: number) => (t += ms), at: () => t }
}

describe('UploadWatch', () => {
  test('an upload absorbed by the buffers at once: the drain allowance uses the floor rate', () => {
    const { w } = watch()
    w.progress(3_000_000)
    w.bodySent()
    expect(w.drainAllowanceMs()).toBe(Math.round((3_000_000 / FLOOR_BYTES_PER_SECOND) * 1000))
  })

  test('a long upload: the allowance uses the rate of its last seconds, and never more than the buffer bound', () => {
    const { w, advance } = watch()
    // 10 MB at once, then 300 KB/s for 20 s.
    w.progress(10_000_000)
    for (let i = 0; i < 200; i++) {
      advance(100)
      w.progress(30_000)
    }
    const allowance = w.drainAllowanceMs()
    expect(allowance).toBeGreaterThan((10_000_000 / 310_000) * 1000)
    expect(allowance).toBeLessThan((BUFFERED_BOUND / 290_000) * 1000)
  })

  test('a fast link: a small allowance', () => {
    const { w, advance } = watch()
    for (let i = 0; i < 100; i++) {
      advance(50)
      w.progress(2_000_000) // 40 MB/s
    }
    expect(w.drainAllowanceMs()).toBeLessThan(1_000)
  })
})
