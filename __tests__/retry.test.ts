import { createRetrier, Poll, withRetry } from '../src/http/retry.js'
import { isTransient, toServiceError, retryAfterMs } from '../src/http/errors.js'
import { ServiceError } from '../src/errors.js'
import { forgetSecrets, registerSecret } from '../src/secrets.js'

function failing(errors: unknown[], value = 'ok') {
  let calls = 0
  const fn = async (): Promise<string> => {
    const e = errors[calls++]
    if (e) throw e
    return value
  }
  return { fn, calls: () => calls }
}

const netError = (code: string) => Object.assign(new Error(code), { code })
const status = (n: number, retryAfterMs?: number) => new ServiceError(`HTTP ${n}`, n, undefined, undefined, retryAfterMs)

describe('withRetry', () => {
  test('retries transient failures with growing, jittered delays, then succeeds', async () => {
    const delays: number[] = []
    const f = failing([netError('ECONNRESET'), status(503), status(502)])
    const result = await withRetry(f.fn, {
      attempts: 4,
      baseDelayMs: 100,
      retryable: isTransient,
      sleep: async (ms) => void delays.push(ms),
      random: () => 1
    })
    expect(result).toBe('ok')
    expect(f.calls()).toBe(4)
    expect(delays).toEqual([100, 200, 400])
  })

  test('gives up after the attempts and throws the last error', async () => {
    const f = failing([status(503), status(503), status(504)])
    await expect(withRetry(f.fn, { attempts: 3, retryable: isTransient, sleep: async () => {} })).rejects.toMatchObject({ status: 504 })
    expect(f.calls()).toBe(3)
  })

  test('never retries other 4xx (401 included)', async () => {
    for (const code of [400, 401, 403, 404, 409, 413]) {
      const f = failing([status(code)])
      await expect(withRetry(f.fn, { attempts: 4, retryable: isTransient, sleep: async () => {} })).rejects.toMatchObject({ status: code })
      expect(f.calls()).toBe(1)
    }
  })

  test('honours Retry-After on 429', async () => {
    const delays: number[] = []
    const f = failing([status(429, 3000)])
    await withRetry(f.fn, { attempts: 2, retryable: isTransient, sleep: async (ms) => void delays.push(ms), random: () => 0 })
    expect(delays).toEqual([3000])
  })

  test('stops when the total time would be exceeded', async () => {
    let t = 0
    const f = failing([status(503), status(503)])
    await expect(
      withRetry(f.fn, {
        attempts: 5,
        baseDelayMs: 1000,
        maxTotalMs: 1500,
        retryable: isTransient,
        random: () => 1,
        now: () => t,
        sleep: async (ms) => void (t += ms)
      })
    ).rejects.toMatchObject({ status: 503 })
    expect(f.calls()).toBe(2)
  })

  test('an unknown error is not retried', async () => {
    const f = failing([new Error('bug')])
    await expect(withRetry(f.fn, { attempts: 4, retryable: isTransient, sleep: async () => {} })).rejects.toThrow('bug')
    expect(f.calls()).toBe(1)
  })
})

describe('service errors', () => {
  test('read error_code and error_detail', () => {
    const e = toServiceError('Login', { status: 401, headers: {}, text: '{"error_code":"AuthenticationFailed","error_detail":"Bad credentials"}' })
    expect(e.message).toBe('Login failed: HTTP 401 (AuthenticationFailed: Bad credentials)')
    expect(e.errorCode).toBe('AuthenticationFailed')
  })

  test('a body that is not JSON is never echoed', () => {
    const e = toServiceError('Upload', { status: 502, headers: {}, text: '<html>password=hunter2</html>' })
    expect(e.message).toBe('Upload failed: HTTP 502 (the answer was not a JSON error body)')
  })

  test('Retry-After in seconds and as a date', () => {
    expect(retryAfterMs({ headers: { 'retry-after': '7' } })).toBe(7000)
    expect(retryAfterMs({ headers: {} })).toBeUndefined()
    const later = new Date(Date.now() + 60_000).toUTCString()
    expect(retryAfterMs({ headers: { 'retry-after': later } })).toBeGreaterThan(50_000)
  })
})

describe('createRetrier', () => {
  const quiet = () => undefined
  test('an operation inside another gets one attempt: the attempts never multiply', async () => {
    const retrier = createRetrier({ attempts: 3, retryable: isTransient, sleep: async () => {} }, quiet)
    let inner = 0
    let outer = 0
    await expect(
      retrier.retrying('Upload', async () => {
        outer++
        await retrier.retrying('Listing', async () => {
          inner++
          throw status(503)
        })
      })
    ).rejects.toMatchObject({ status: 503 })
    expect(outer).toBe(3)
    expect(inner).toBe(3)
  })

  test("a retry's line never repeats a secret the failure echoes (an identity provider's 429 quoting the request)", async () => {
    // Found by the simulation once a 429 from a token endpoint was tried again: its error quoted the password grant's body.
    const lines: string[] = []
    registerSecret('pa ss&word')
    try {
      const retrier = createRetrier(
        { attempts: 2, retryable: isTransient, sleep: async () => {}, random: () => 0 },
        (_level, message) => void lines.push(message)
      )
      const echo = failing([new ServiceError('HTTP 429: Request was: body=username=deployer&password=pa+ss%26word, pa%20ss%26word and pa ss&word', 429)])
      await retrier.retrying('Getting a token', echo.fn)
    } finally {
      forgetSecrets()
    }
    expect(lines).toEqual(['Getting a token: attempt 1 failed (HTTP 429: Request was: body=username=deployer&password=***, *** and ***); retrying in 0.0 s'])
  })

  test('operations one after another each get their attempts; the notice names the operation', async () => {
    const lines: string[] = []
    const retrier = createRetrier(
      { attempts: 2, retryable: isTransient, sleep: async () => {}, random: () => 0 },
      (level, message) => void lines.push(`${level}: ${message}`)
    )
    const first = failing([status(503)])
    const second = failing([status(503)])
    await retrier.retrying('Listing environments', first.fn)
    await retrier.retrying('Deleting', second.fn)
    expect([first.calls(), second.calls()]).toEqual([2, 2])
    expect(lines).toEqual([
      'info: Listing environments: attempt 1 failed (HTTP 503); retrying in 0.0 s',
      'info: Deleting: attempt 1 failed (HTTP 503); retrying in 0.0 s'
    ])
  })
})

describe('Poll', () => {
  test('pauses half as long again each time, up to the cap, never past the time limit, then says the time is up', async () => {
    let t = 0
    const waits: number[] = []
    const poll = new Poll({ timeoutMs: 6_000, intervalMs: 1_000, maxIntervalMs: 2_000, now: () => t, sleep: async (ms) => void (waits.push(ms), (t += ms)) })
    const results: boolean[] = []
    for (let i = 0; i < 6; i++) results.push(await poll.next())
    expect(waits).toEqual([1_000, 1_500, 2_000, 1_500])
    expect(results).toEqual([true, true, true, true, false, false])
    expect(poll.elapsed()).toBe(6_000)
  })
})
