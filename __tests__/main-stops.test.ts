// How run() ends when it is stopped (src/main.ts): GitHub's cancel (SIGINT, then SIGTERM), SIGTERM alone, its own
// watchdog, and a signal that comes while the watchdog is already ending the run. What the user reads (the failure
// annotation), the limits the closing calls get, and that a second signal ends the run at once.
//
// The deployment is a stand-in (the deploy module is replaced): these tests drive the timing of the stop, which the
// real deployment cannot be held at; the deterministic simulation runs the real one under every stop. The clock is
// Jest's fake one: the run's waits (unwinding, closing) end only when a test moves it, so a run that ends without it
// moving ended because a signal hurried it.
import { jest } from '@jest/globals'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DeployInputs } from '../src/inputs/deploy.js'
import { newDeployResult, type DeployResult } from '../src/deploy/result.js'
import { startEventsStandIn, type EventsStandIn } from './cdevents-standin.js'

/** What the stand-in deployment does when the run is stopped. */
interface Script {
  /** It does its work inside a phase (the failure message names it), or outside any. */
  inPhase: boolean
  /** Its steps end when the stop's signal aborts (as the real ones do), or never (a hung call). */
  unwinds: boolean
  /** Its closing calls end, or never. */
  closes: boolean
}

const stand = {
  script: { inPhase: true, unwinds: true, closes: true } as Script,
  started: false,
  closeLimitMs: undefined as (() => number) | undefined,
  closings: 0
}

jest.unstable_mockModule('../src/deploy/index.js', () => ({
  startDeploy: (
    inputs: DeployInputs,
    phase: <T>(name: string, fn: () => Promise<T>) => Promise<T>,
    signal: AbortSignal,
    _verify: unknown,
    closeLimitMs: () => number
  ) => {
    stand.closeLimitMs = closeLimitMs
    const result = newDeployResult(inputs)
    const work = (): Promise<DeployResult> => {
      stand.started = true
      return new Promise((_, reject) => {
        if (!stand.script.unwinds) return
        if (signal.aborted) return reject(signal.reason as Error)
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true })
      })
    }
    return {
      result,
      done: stand.script.inPhase ? phase('Deploy the distribution', work) : work(),
      close: () => {
        stand.closings++
        return stand.script.closes ? Promise.resolve() : new Promise<void>(() => undefined)
      }
    }
  }
}))

// The action's main step (its face: @actions/core, isPost saved for the post step), around the engine's run().
const { run } = await import('../src/action/main.js')

const dir = mkdtempSync(join(tmpdir(), 'brcd-main-stops-'))

/** A process as run() sees it: signals the test sends, and the exit codes asked for. */
function processHost() {
  const listeners = new Map<string, (signal: string) => void>()
  const exits: number[] = []
  return {
    exits,
    send: (signal: 'SIGINT' | 'SIGTERM') => listeners.get(signal)?.(signal),
    listening: () => listeners.size,
    host: {
      signals: {
        on: (event: string, fn: (signal: string) => void) => listeners.set(event, fn),
        off: (event: string) => listeners.delete(event)
      },
      exit: (code: number) => exits.push(code)
    }
  }
}

const DEPLOY = {
  'api-url': 'https://api.acme.bloomreach.cloud',
  username: 'ci',
  password: 'pw-main-stops',
  environment: 'production',
  'distribution-id': 'd-123'
}

/** A deploy whose budgets fit in a total-timeout-minutes of 1 (a deploy-timeout-minutes of 0.5, no rollback). */
const SHORT = { ...DEPLOY, 'deploy-timeout-minutes': '0.5', rollback: 'false' }

/** Starts run() with these inputs; `ended()` is what it printed, once it ended. */
function start(inputs: Record<string, string>, summaryWritable = true) {
  // @actions/core keeps the summary file's path from its first write: an unwritable summary is a folder at that path.
  const summary = join(dir, 'summary.md')
  rmSync(summary, { recursive: true, force: true })
  if (!summaryWritable) mkdirSync(summary)
  for (const name of Object.keys(process.env)) if (name.startsWith('INPUT_')) delete process.env[name]
  for (const [name, value] of Object.entries(inputs)) process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value
  for (const file of summaryWritable ? ['summary.md', 'output', 'state'] : ['output', 'state']) writeFileSync(join(dir, file), '')
  Object.assign(process.env, {
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_OUTPUT: join(dir, 'output'),
    GITHUB_STATE: join(dir, 'state')
  })
  const p = processHost()
  const out: string[] = []
  const write = process.stdout.write.bind(process.stdout)
  process.stdout.write = ((chunk: string | Uint8Array) => out.push(String(chunk)) > 0) as typeof process.stdout.write
  const state = { settled: false }
  const running = run(p.host).finally(() => {
    process.stdout.write = write
    process.exitCode = 0
    state.settled = true
  })
  const ended = async () => {
    await running
    const stdout = out.join('')
    return {
      errors: [...stdout.matchAll(/^::error::(.*)$/gm)].map((m) => m[1]),
      stdout,
      exits: p.exits,
      summary: summaryWritable ? readFileSync(summary, 'utf8') : ''
    }
  }
  return { ...p, ended, state }
}

/** Lets the run go on (its imports, its promises) until the stand-in's work began; the fake clock does not move. */
async function untilStarted(r: { state: { settled: boolean }; ended: () => Promise<{ stdout: string }> }): Promise<void> {
  while (!stand.started) {
    if (r.state.settled) throw new Error(`The run ended before the deployment began:\n${(await r.ended()).stdout}`)
    await new Promise((resolve) => setImmediate(resolve))
  }
}

beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] })
  stand.script = { inPhase: true, unwinds: true, closes: true }
  stand.started = false
  stand.closeLimitMs = undefined
  stand.closings = 0
})
afterEach(() => {
  jest.useRealTimers()
})

const CANCELLED = (signal: string, during = ' during "Deploy the distribution"') =>
  `The run was cancelled (${signal})${during}: it sent no deploy or rollback after that.`

describe('a cancel', () => {
  test('SIGINT: the failure says so and where; the closing calls get the cancel limit (2.5 s); the process is ended with 1', async () => {
    const r = start(DEPLOY)
    await untilStarted(r)
    expect(stand.closeLimitMs?.()).toBe(3_000)
    r.send('SIGINT')
    expect(stand.closeLimitMs?.()).toBe(2_500)
    const { errors, exits, summary } = await r.ended()
    expect(errors).toEqual([CANCELLED('SIGINT')])
    expect(exits).toEqual([1])
    expect(stand.closings).toBe(1)
    expect(r.listening()).toBe(0)
    expect(summary).toMatch(/cancel/i)
  })

  test('SIGTERM alone: said as SIGTERM; the closing calls get 0.8 s, what fits before the kill', async () => {
    const r = start(DEPLOY)
    await untilStarted(r)
    r.send('SIGTERM')
    expect(stand.closeLimitMs?.()).toBe(800)
    const { errors, exits } = await r.ended()
    expect(errors).toEqual([CANCELLED('SIGTERM')])
    expect(exits).toEqual([1])
  })

  test('before any phase began: no "during"', async () => {
    stand.script.inPhase = false
    const r = start(DEPLOY)
    r.send('SIGINT')
    const { errors } = await r.ended()
    expect(errors).toEqual([CANCELLED('SIGINT', '')])
  })

  test('steps and closing calls that hang: SIGTERM after SIGINT ends the run at once, the clock unmoved', async () => {
    stand.script = { inPhase: true, unwinds: false, closes: false }
    const r = start(DEPLOY)
    await untilStarted(r)
    r.send('SIGINT')
    r.send('SIGTERM')
    const { errors, exits } = await r.ended()
    expect(errors).toEqual([CANCELLED('SIGINT')])
    expect(exits).toEqual([1])
  })

  test('closing calls that hang: a second SIGINT also hurries the run', async () => {
    stand.script = { inPhase: true, unwinds: true, closes: false }
    const r = start(DEPLOY)
    await untilStarted(r)
    r.send('SIGINT')
    // The steps unwind; the closing calls begin and hang.
    while (stand.closings === 0) await new Promise((resolve) => setImmediate(resolve))
    r.send('SIGINT')
    const { errors } = await r.ended()
    expect(errors).toEqual([CANCELLED('SIGINT')])
  })

  test('steps that hang, no second signal: the run waits for them 2 s, then for the closing calls at most 5 s', async () => {
    stand.script = { inPhase: true, unwinds: false, closes: false }
    const r = start(DEPLOY)
    await untilStarted(r)
    r.send('SIGINT')
    let ended = false
    const ending = r.ended().then((x) => ((ended = true), x))
    await jest.advanceTimersByTimeAsync(1_999)
    expect(stand.closings).toBe(0)
    await jest.advanceTimersByTimeAsync(1)
    expect(stand.closings).toBe(1)
    await jest.advanceTimersByTimeAsync(4_999)
    expect(ended).toBe(false)
    await jest.advanceTimersByTimeAsync(1)
    expect((await ending).errors).toEqual([CANCELLED('SIGINT')])
  })

  test('the watchdog firing while a cancel closes does not take it over', async () => {
    stand.script = { inPhase: true, unwinds: false, closes: false }
    const r = start({ ...SHORT, 'total-timeout-minutes': '1' })
    await untilStarted(r)
    await jest.advanceTimersByTimeAsync(55_000)
    r.send('SIGINT')
    // 2 s to unwind, then the closing calls (at most 5 s): the watchdog's 60 s pass among them.
    await jest.advanceTimersByTimeAsync(5_500)
    expect(stand.closings).toBe(1)
    expect(stand.closeLimitMs?.()).toBe(2_500)
    await jest.advanceTimersByTimeAsync(1_500)
    const { errors } = await r.ended()
    expect(errors).toEqual([CANCELLED('SIGINT')])
  })
})

const WATCHDOG = (minutes: string, during = '; it was stopped during "Deploy the distribution"') =>
  `The deployment did not finish within total-timeout-minutes (${minutes})${during}. The platform may be slow or not ` +
  `answering: check its status, then run again, or raise total-timeout-minutes for very large distributions.`

describe('the watchdog', () => {
  test('total-timeout-minutes passed: the limit as set, where it stopped; the closing calls get 3 s; the process is ended with 1', async () => {
    const r = start({ ...SHORT, 'total-timeout-minutes': '1.5' })
    await untilStarted(r)
    await jest.advanceTimersByTimeAsync(89_999)
    expect(stand.closings).toBe(0)
    await jest.advanceTimersByTimeAsync(1)
    expect(stand.closeLimitMs?.()).toBe(3_000)
    const { errors, exits } = await r.ended()
    expect(errors).toEqual([WATCHDOG('1.5 min')])
    expect(exits).toEqual([1])
    expect(stand.closings).toBe(1)
  })

  test('with no total-timeout-minutes: the limit derived from the other budgets, said so; outside a phase, no "during"', async () => {
    stand.script.inPhase = false
    const { readInputs } = await import('../src/inputs/index.js')
    const r = start(DEPLOY)
    const minutes = +(readInputs().watchdogMs / 60_000).toFixed(2)
    await untilStarted(r)
    await jest.advanceTimersByTimeAsync(minutes * 60_000)
    const { errors } = await r.ended()
    expect(errors).toEqual([WATCHDOG(`${minutes} min, derived from the other budgets`, '')])
  })

  test('SIGINT while it ends the run: still the watchdog, not hurried (its closing calls fit before SIGTERM)', async () => {
    stand.script = { inPhase: true, unwinds: false, closes: false }
    const r = start({ ...SHORT, 'total-timeout-minutes': '1' })
    await untilStarted(r)
    await jest.advanceTimersByTimeAsync(60_000)
    r.send('SIGINT')
    let ended = false
    const ending = r.ended().then((x) => ((ended = true), x))
    await jest.advanceTimersByTimeAsync(4_999)
    expect(ended).toBe(false)
    expect(stand.closings).toBe(0)
    // The watchdog's 5 s to unwind, then its 6 s for the closing calls.
    await jest.advanceTimersByTimeAsync(1 + 6_000)
    expect((await ending).errors).toEqual([WATCHDOG('1 min')])
    expect(stand.closings).toBe(1)
  })

  test('SIGTERM while it ends the run: reported at once, the clock unmoved', async () => {
    stand.script = { inPhase: true, unwinds: false, closes: false }
    const r = start({ ...SHORT, 'total-timeout-minutes': '1' })
    await untilStarted(r)
    await jest.advanceTimersByTimeAsync(60_000)
    r.send('SIGTERM')
    const { errors, exits } = await r.ended()
    expect(errors).toEqual([WATCHDOG('1 min')])
    expect(exits).toEqual([1])
  })
})

describe("the event sinks after a stop (docs/events.md): what fits in GitHub's grace", () => {
  let receiver: EventsStandIn
  beforeEach(async () => {
    receiver = await startEventsStandIn()
    receiver.otherwise = 'hang'
  })
  afterEach(() => receiver.close())
  const warned = (stdout: string) => [...stdout.matchAll(/^::warning::(Events: .*)$/gm)].map((m) => m[1])

  test('after a cancel: the cancelled event is sent, and a receiver that hangs gets 1.5 s, not events-timeout-seconds', async () => {
    const r = start({ ...DEPLOY, 'events-url': receiver.url })
    await untilStarted(r)
    r.send('SIGINT')
    await receiver.arrived(1)
    expect(receiver.received[0]?.headers['ce-type']).toBe('dev.cdeventsx.brcloud-release.cancelled.0.1.0')
    await jest.advanceTimersByTimeAsync(1_499)
    expect(r.state.settled).toBe(false)
    await jest.advanceTimersByTimeAsync(1)
    const { errors, exits, stdout } = await r.ended()
    expect(errors).toEqual([CANCELLED('SIGINT')])
    expect(exits).toEqual([1])
    expect(warned(stdout)).toEqual([
      "Events: CDEvents was not told: no answer within 1.5 s (what a cancel leaves the sinks). The deployment's outcome is unchanged."
    ])
    expect(r.listening()).toBe(0)
  })

  test('SIGTERM after the cancel ends the sends at once, the clock unmoved', async () => {
    const r = start({ ...DEPLOY, 'events-url': receiver.url })
    await untilStarted(r)
    r.send('SIGINT')
    await receiver.arrived(1)
    r.send('SIGTERM')
    const { exits, stdout } = await r.ended()
    expect(exits).toEqual([1])
    expect(warned(stdout)).toEqual(["Events: CDEvents was not told: the run was stopped. The deployment's outcome is unchanged."])
  })

  test('SIGTERM alone: nothing is sent', async () => {
    const r = start({ ...DEPLOY, 'events-url': receiver.url })
    await untilStarted(r)
    r.send('SIGTERM')
    const { exits, stdout } = await r.ended()
    expect(exits).toEqual([1])
    expect(receiver.received).toEqual([])
    expect(warned(stdout)).toEqual([])
  })
})

describe('the trace after a stop (docs/tracing.md): the summary names it, the log says it was not sent', () => {
  const traced = { ...DEPLOY, 'otel-endpoint': 'http://127.0.0.1:9' }
  const warned = (stdout: string) => [...stdout.matchAll(/^::warning::(Tracing: .*)$/gm)].map((m) => m[1])

  test('SIGTERM alone: nothing is sent, and one warning says why', async () => {
    const r = start(traced)
    await untilStarted(r)
    r.send('SIGTERM')
    const { exits, stdout, summary } = await r.ended()
    expect(exits).toEqual([1])
    expect(summary).toMatch(/^Trace `[0-9a-f]{32}`: its spans are sent to http:\/\/127\.0\.0\.1:9 after this summary; the log says if they were not\.$/m)
    expect(warned(stdout)).toEqual([
      "Tracing: the trace was not sent to http://127.0.0.1:9 (SIGTERM leaves no time to send it). The deployment's outcome is unchanged."
    ])
  })
})

describe('a run that ends by itself', () => {
  test('the post step is told to run (isPost); no exit is forced; the signals are let go', async () => {
    stand.script = { inPhase: true, unwinds: true, closes: true }
    const r = start({ ...DEPLOY, 'distribution-id': '' })
    const { errors, exits } = await r.ended()
    expect(errors).toHaveLength(1)
    expect(exits).toEqual([])
    expect(r.listening()).toBe(0)
    expect(readFileSync(join(dir, 'state'), 'utf8')).toMatch(/^isPost<<(ghadelimiter_[\w-]+)\ntrue\n\1$/m)
  })

  test('a job summary that cannot be written: a warning that says so, the failure still reported', async () => {
    const r = start({ ...DEPLOY, 'distribution-id': '' }, false)
    const { errors, stdout } = await r.ended()
    expect(errors).toHaveLength(1)
    expect(stdout).toMatch(/^::warning::Could not write the job summary: Error: EISDIR: illegal operation on a directory/m)
  })
})

describe('a search check alone', () => {
  test('that does not pass: the failure says why, and no exit is forced', async () => {
    jest.useRealTimers()
    const { startEmulator } = await import('../src/emulator/server.js')
    const emu = await startEmulator()
    try {
      const r = start({
        'search-query': 'gift-cards',
        'search-account-id': emu.search.accountId,
        'search-auth-key': emu.search.authKey,
        'search-domain-key': emu.search.domainKey,
        'search-base-url': emu.url,
        'max-attempts': '1'
      })
      const { errors, exits } = await r.ended()
      expect(errors).toEqual([
        "Search check failed: The search for 'gift-cards' found 0 product(s), fewer than search-min-results 1. Check that search-query matches products of search-domain-key's catalogue, lower search-min-results, or set search-wait-seconds (e.g. 120) if the catalogue fills only after a deploy."
      ])
      expect(exits).toEqual([])
      expect(stand.started).toBe(false)
    } finally {
      await emu.close()
    }
  })
})
