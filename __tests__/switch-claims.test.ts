// The deploy call and its following (src/deploy/switch.ts), claim by claim: every branch driven with a scripted
// platform and a fake clock, and every sentence the user reads asserted word for word. Each look takes the next
// scripted report (the last one repeats); each deploy call takes the next scripted answer; time passes only when
// the code waits, by a fixed 1 s between looks.
import { useTestPort } from './test-port.js'

useTestPort()

const { ServiceError } = await import('../src/errors.js')
const { EnvironmentWatch } = await import('../src/deploy/observe.js')
const { describeLook } = await import('../src/deploy/look.js')
const { AlreadyRuns, followSwitch, NotApplied, NotSent, Replaced, requestSwitch, Unconfirmed, waitWhileBusy } = await import('../src/deploy/switch.js')
type CloudClient = import('../src/cloud/client.js').CloudClient
type SwitchContext = import('../src/deploy/switch.js').SwitchContext
type SwitchPlan = import('../src/deploy/switch.js').SwitchPlan
type EnvironmentLook = import('../src/deploy/look.js').EnvironmentLook

/** What one look finds: a report, a failed look (thrown by findEnvironment), or the environment gone from the list. */
type Report = { id?: string; status?: string } | Error | 'gone'
/** One deploy call's answer: accepted, a 409, or an error thrown after the call was (or was not) handed to the connection. */
type Answer = 'ok' | 'busy' | { error: unknown; dispatch?: 'sent' | 'refused' }

class Script {
  t: number
  reports: Report[]
  answers: Answer[]
  readonly looks: number[] = []
  readonly calls: Array<{ id: string; limitMs: number | undefined; at: number }> = []

  constructor(reports: Report[], answers: Answer[] = [], t = 0) {
    this.reports = reports
    this.answers = answers
    this.t = t
  }

  readonly now = (): number => this.t
  readonly sleep = async (ms: number): Promise<void> => {
    this.t += ms
  }

  readonly client = {
    findEnvironment: async (name: string) => {
      this.looks.push(this.t)
      const report = this.reports.length > 1 ? this.reports.shift() : this.reports[0]
      if (report instanceof Error) throw report
      if (report === 'gone' || report === undefined) return { environment: undefined, list: { items: [], complete: true } }
      return { environment: { id: 'env-1', name, distributionId: report.id ?? null, status: report.status }, list: { items: [], complete: true } }
    },
    requestDeploy: async (_env: string, id: string, _strategy: string, _files: unknown, limitMs?: number, onDispatch?: (event: 'sent' | 'refused') => void) => {
      this.calls.push({ id, limitMs, at: this.t })
      const answer = this.answers.shift() ?? 'ok'
      if (answer === 'ok') return onDispatch?.('sent')
      if (answer === 'busy') {
        onDispatch?.('sent')
        throw new ServiceError('Deploying the distribution failed: HTTP 409 (DeploymentInProgress)', 409, 'DeploymentInProgress')
      }
      if (answer.dispatch !== undefined) onDispatch?.(answer.dispatch)
      throw answer.error
    }
  } as unknown as CloudClient
}

const lines: string[] = []
const warnings: string[] = []

function contextOf(s: Script, over: Partial<SwitchContext> = {}): SwitchContext {
  return {
    client: s.client,
    watch: new EnvironmentWatch(s.client, 'production', { now: s.now, sleep: s.sleep, intervalMs: 1_000, maxIntervalMs: 1_000, log: (l) => lines.push(l) }),
    environmentId: 'env-1',
    strategy: 'stopstart',
    configFileIds: [],
    maxAttempts: 3,
    requestTimeoutMs: 60_000,
    log: (l) => lines.push(l),
    warn: (l) => warnings.push(l),
    ...over
  }
}

function planOf(over: Partial<SwitchPlan> = {}): SwitchPlan {
  return { distributionId: 'v1', previous: 'v0', redeploy: false, ...over }
}

/** Hooks that record what they were told. */
function recorder() {
  const waited: Array<{ look: EnvironmentLook; why: string }> = []
  const unconfirmed: string[] = []
  const inProgress: string[] = []
  return {
    waited,
    unconfirmed,
    inProgress,
    hooks: {
      waiting: (look: EnvironmentLook, why: string) => void waited.push({ look, why }),
      unconfirmed: (evidence: string) => void unconfirmed.push(evidence),
      inProgress: (evidence: string) => void inProgress.push(evidence)
    }
  }
}

const socketClosed = (): Error => Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })
const refusedConnection = (): Error => Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' })
const unavailable = (): Error => new ServiceError('Finding the environment failed: HTTP 503', 503)
/** A call handed to the connection whose answer was lost: it may have been carried out. */
const lost: Answer = { error: socketClosed(), dispatch: 'sent' }

async function failure(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error })
  )
  if (!('error' in outcome)) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`)
  return outcome.error as Error
}

beforeEach(() => {
  lines.length = 0
  warnings.length = 0
})

describe('what a look says', () => {
  test('describeLook, word for word', () => {
    expect(describeLook({ distributionId: 'v1', status: 'running', at: 0 })).toBe('reports distribution v1 (status: running)')
    expect(describeLook({ distributionId: undefined, status: 'running', at: 0 })).toBe('reports no distribution (status: running)')
    expect(describeLook({ distributionId: undefined, status: undefined, at: 0 })).toBe('reports no distribution')
    expect(describeLook({ distributionId: 'v1', status: undefined, at: 0 })).toBe('reports distribution v1')
  })

  test('an environment no longer listed is said so; a refusal is thrown, a failure that may pass is noted and looked at again', async () => {
    const gone = new Script(['gone'])
    const watch = contextOf(gone).watch
    await expect(watch.lookAgain()).rejects.toThrow(
      new Error("Environment 'production' is no longer listed by the platform, though it was when this run found it: it was deleted or renamed since.")
    )
    const refused = new ServiceError('Finding the environment failed: HTTP 404', 404)
    await expect(contextOf(new Script([refused])).watch.lookAgain()).rejects.toBe(refused)
    expect(await contextOf(new Script([unavailable()])).watch.lookAgain()).toBeUndefined()
    expect(lines).toEqual(["Looking at 'production' failed (Finding the environment failed: HTTP 503); looking again later."])
  })

  test('after(): the time since, from the clock', () => {
    const s = new Script([{ id: 'v0' }], [], 4_500)
    expect(contextOf(s).watch.after(1_000)).toBe('after 3.5 s')
  })

  test('following, a refused look ends it with that refusal', async () => {
    const refused = new ServiceError('Finding the environment failed: HTTP 404', 404)
    const s = new Script([{ id: 'v0' }, refused])
    await expect(followSwitch(contextOf(s), planOf(), { at: 60_000 }, recorder().hooks)).rejects.toBe(refused)
    expect(s.looks).toEqual([0, 1_000])
  })
})

describe('requestSwitch: the call and its limit', () => {
  test('accepted at once: one call, limited by the request limit when the deadline is further', async () => {
    const s = new Script([{ id: 'v0' }])
    expect(await requestSwitch(contextOf(s), planOf(), { at: 120_000 }, recorder().hooks)).toBe('sent')
    expect(s.calls).toEqual([{ id: 'v1', limitMs: 60_000, at: 0 }])
    expect(s.looks).toEqual([])
  })

  test('the call never runs past the deadline, and gets at least 1 s', async () => {
    const near = new Script([{ id: 'v0' }], [], 5_000)
    await requestSwitch(contextOf(near), planOf(), { at: 35_000 }, recorder().hooks)
    expect(near.calls[0]?.limitMs).toBe(30_000)
    const past = new Script([{ id: 'v0' }], [], 5_000)
    await requestSwitch(contextOf(past), planOf(), { at: 5_200 }, recorder().hooks)
    expect(past.calls[0]?.limitMs).toBe(1_000)
  })

  test('a refusal (4xx other than 409) is thrown as it is: nothing looked at, nothing sent again', async () => {
    const refused = new ServiceError('Deploying the distribution failed: HTTP 404', 404)
    const s = new Script([{ id: 'v0' }], [{ error: refused, dispatch: 'sent' }])
    await expect(requestSwitch(contextOf(s), planOf(), { at: 60_000 }, recorder().hooks)).rejects.toBe(refused)
    expect(s.calls).toHaveLength(1)
    expect(s.looks).toEqual([])
  })

  test('a call never handed to the connection, with an error that does not pass (a refused token renewal), is thrown at once', async () => {
    const bug = new Error('the token endpoint refused the renewal')
    const s = new Script([{ id: 'v0' }], [{ error: bug }])
    const r = recorder()
    await expect(requestSwitch(contextOf(s), planOf(), { at: 60_000 }, r.hooks)).rejects.toBe(bug)
    expect(s.calls).toHaveLength(1)
    expect(s.looks).toEqual([])
    expect(warnings).toEqual([])
    expect(r.unconfirmed).toEqual([])
  })

  test('a call answered 4xx ("refused") and then failed on the connection was not sent: looked at, then sent again', async () => {
    const s = new Script([{ id: 'v0' }], [{ error: socketClosed(), dispatch: 'refused' }])
    const r = recorder()
    expect(await requestSwitch(contextOf(s), planOf(), { at: 60_000 }, r.hooks)).toBe('sent')
    expect(warnings).toEqual(['The deploy call of v1 could not be sent (other side closed); trying again.'])
    expect(s.calls.map((c) => c.at)).toEqual([0, 1_000])
    expect(s.looks).toEqual([0, 1_000])
    expect(r.unconfirmed).toEqual([])
    expect(r.waited).toEqual([])
  })

  test('the run stopped before the call was handed over: thrown, even for an error that would pass', async () => {
    const stop = new AbortController()
    stop.abort(new Error('cancelled'))
    const error = refusedConnection()
    const s = new Script([{ id: 'v0' }], [{ error }])
    await expect(requestSwitch(contextOf(s, { signal: stop.signal }), planOf(), { at: 60_000 }, recorder().hooks)).rejects.toBe(error)
    expect(s.calls).toHaveLength(1)
    expect(s.looks).toEqual([])
  })

  test('the run stopped mid-call: said to have maybe been carried out, and thrown without a look', async () => {
    const stop = new AbortController()
    stop.abort(new Error('cancelled'))
    const error = socketClosed()
    const s = new Script([{ id: 'v0' }], [{ error, dispatch: 'sent' }])
    const r = recorder()
    await expect(requestSwitch(contextOf(s, { signal: stop.signal }), planOf(), { at: 60_000 }, r.hooks)).rejects.toBe(error)
    expect(r.unconfirmed).toEqual(['the deploy call of v1 got no usable answer (other side closed): it may have been carried out'])
    expect(s.looks).toEqual([])
  })

  test.each(['ECONNREFUSED', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT'])(
    'a connection that failed before the request was written (%s) never reached the platform: sent again',
    async (code) => {
      const s = new Script([{ id: 'v0' }], [{ error: Object.assign(new Error(`connect ${code}`), { code }), dispatch: 'sent' }])
      const r = recorder()
      expect(await requestSwitch(contextOf(s), planOf(), { at: 60_000 }, r.hooks)).toBe('sent')
      expect(s.calls).toHaveLength(2)
      expect(r.unconfirmed).toEqual([])
      expect(warnings).toEqual([`The deploy call of v1 could not be sent (connect ${code}); trying again.`])
    }
  )

  test('a host that does not resolve (ENOTFOUND) never reached the platform: thrown at once, never claimed as maybe carried out', async () => {
    const error = Object.assign(new Error('getaddrinfo ENOTFOUND api.example.com'), { code: 'ENOTFOUND' })
    const s = new Script([{ id: 'v0' }], [{ error, dispatch: 'sent' }])
    const r = recorder()
    await expect(requestSwitch(contextOf(s), planOf(), { at: 60_000 }, r.hooks)).rejects.toBe(error)
    expect(r.unconfirmed).toEqual([])
    expect(s.looks).toEqual([])
  })

  test('calls that could not be sent: tried maxAttempts times in all, then the last error is thrown', async () => {
    const last = refusedConnection()
    const s = new Script([{ id: 'v0' }], [{ error: refusedConnection() }, { error: refusedConnection() }, { error: last }, 'ok'])
    await expect(requestSwitch(contextOf(s), planOf(), { at: 60_000 }, recorder().hooks)).rejects.toBe(last)
    expect(s.calls).toHaveLength(3)
    expect(warnings).toEqual([
      'The deploy call of v1 could not be sent (connect ECONNREFUSED 10.0.0.1:443); trying again.',
      'The deploy call of v1 could not be sent (connect ECONNREFUSED 10.0.0.1:443); trying again.'
    ])
  })

  test('unsent until the deadline while a deploy goes on: the cause is that failure, not a busy environment', async () => {
    const error = refusedConnection()
    const s = new Script([{ id: 'v0', status: 'deploying' }], [{ error }])
    await expect(requestSwitch(contextOf(s, { maxAttempts: 5 }), planOf(), { at: 3_000 }, recorder().hooks)).rejects.toBe(error)
  })
})

describe('requestSwitch: a 409 waits, looks again, and only then sends', () => {
  test('the wait is told why, word for word; it lasts while the status says a deploy is going on; what ran before is updated', async () => {
    const s = new Script(
      [
        { id: 'v0', status: 'deploying' },
        { id: 'v0', status: 'deploying' },
        { id: 'theirs', status: 'running' }
      ],
      ['busy']
    )
    const r = recorder()
    const plan = planOf()
    expect(await requestSwitch(contextOf(s), plan, { at: 60_000 }, r.hooks)).toBe('sent')
    expect(r.waited).toEqual([
      {
        look: { distributionId: 'v0', status: 'deploying', at: 0 },
        why: "the platform answered HTTP 409 DeploymentInProgress: a deploy is in progress on 'production', which reports distribution v0 (status: deploying)"
      }
    ])
    expect(s.looks).toEqual([0, 1_000, 2_000])
    expect(s.calls.map((c) => c.at)).toEqual([0, 2_000])
    expect(plan.previous).toBe('theirs')
  })

  test('a look that failed: the wait gets an empty look at that moment, and is told it could not be looked at', async () => {
    const s = new Script([unavailable(), { id: 'v0' }], ['busy'], 7_000)
    const r = recorder()
    expect(await requestSwitch(contextOf(s), planOf(), { at: 60_000 }, r.hooks)).toBe('sent')
    expect(r.waited).toEqual([
      {
        look: { distributionId: undefined, status: undefined, at: 7_000 },
        why: "the platform answered HTTP 409 DeploymentInProgress: a deploy is in progress on 'production', which could not be looked at"
      }
    ])
    expect(s.calls.map((c) => c.at)).toEqual([7_000, 8_000])
  })

  test('a look that failed while waiting shows nothing either way: it keeps waiting', async () => {
    const s = new Script([{ id: 'v0', status: 'deploying' }, unavailable(), { id: 'theirs' }], ['busy'])
    const plan = planOf()
    expect(await requestSwitch(contextOf(s), plan, { at: 60_000 }, recorder().hooks)).toBe('sent')
    expect(s.calls.map((c) => c.at)).toEqual([0, 2_000])
    expect(plan.previous).toBe('theirs')
  })

  test('no id where one was reported before is a deploy going on: it keeps waiting', async () => {
    const s = new Script([{ id: 'v0', status: 'deploying' }, {}, { id: 'theirs' }], ['busy'])
    const plan = planOf()
    expect(await requestSwitch(contextOf(s), plan, { at: 60_000 }, recorder().hooks)).toBe('sent')
    expect(s.calls.map((c) => c.at)).toEqual([0, 2_000])
    expect(plan.previous).toBe('theirs')
  })

  test('no id where none was reported before is no deploy going on: sent again at the next look', async () => {
    const s = new Script([{}], ['busy'])
    const plan = planOf({ previous: undefined })
    expect(await requestSwitch(contextOf(s), plan, { at: 60_000 }, recorder().hooks)).toBe('sent')
    expect(s.calls.map((c) => c.at)).toEqual([0, 1_000])
    expect(plan.previous).toBeUndefined()
  })

  test('settled on our distribution while we waited: another deploy put it there, nothing is sent', async () => {
    const s = new Script(
      [
        { id: 'v0', status: 'deploying' },
        { id: 'v1', status: 'running' }
      ],
      ['busy']
    )
    const error = await failure(requestSwitch(contextOf(s), planOf(), { at: 60_000 }, recorder().hooks))
    expect(error).toBeInstanceOf(AlreadyRuns)
    expect(error.name).toBe('AlreadyRuns')
    expect(error.message).toBe(
      "'production' reports distribution v1 (status: running): another deploy put this distribution there while this run waited, so nothing was sent"
    )
    expect((error as InstanceType<typeof AlreadyRuns>).look).toEqual({ distributionId: 'v1', status: 'running', at: 1_000 })
    expect(s.calls).toHaveLength(1)
  })

  test('a plan that decides for itself (refuse) is asked instead: not refused, it is sent again, and what ran before stays', async () => {
    const seen: EnvironmentLook[] = []
    const s = new Script(
      [
        { id: 'v0', status: 'deploying' },
        { id: 'v1', status: 'running' }
      ],
      ['busy']
    )
    const plan = planOf({ refuse: (look) => void seen.push(look) })
    expect(await requestSwitch(contextOf(s), plan, { at: 60_000 }, recorder().hooks)).toBe('sent')
    expect(seen).toEqual([{ distributionId: 'v1', status: 'running', at: 1_000 }])
    expect(plan.previous).toBe('v0')
    expect(s.calls).toHaveLength(2)
  })

  test('refused before a replay: Replaced, with the reason and the look', async () => {
    const s = new Script(
      [
        { id: 'v0', status: 'deploying' },
        { id: 'theirs', status: 'running' }
      ],
      ['busy']
    )
    const error = await failure(requestSwitch(contextOf(s), planOf({ refuse: () => 'someone else deployed theirs' }), { at: 60_000 }, recorder().hooks))
    expect(error).toBeInstanceOf(Replaced)
    expect(error.name).toBe('Replaced')
    expect(error.message).toBe('someone else deployed theirs')
    expect((error as InstanceType<typeof Replaced>).look).toEqual({ distributionId: 'theirs', status: 'running', at: 1_000 })
    expect(s.calls).toHaveLength(1)
  })

  test('the deploy order is checked on the look before the replay; its time with GitHub moves the deadline by as much', async () => {
    const s = new Script(
      [
        { id: 'v0', status: 'deploying' },
        { id: 'theirs', status: 'running' }
      ],
      ['busy']
    )
    const checked: EnvironmentLook[] = []
    const gate = async (look: EnvironmentLook): Promise<void> => {
      checked.push(look)
      s.t += 5_000
    }
    const deadline = { at: 30_000 }
    expect(await requestSwitch(contextOf(s), planOf({ gate }), deadline, recorder().hooks)).toBe('sent')
    expect(checked).toEqual([{ distributionId: 'theirs', status: 'running', at: 1_000 }])
    expect(deadline.at).toBe(35_000)
    expect(s.calls).toEqual([
      { id: 'v1', limitMs: 30_000, at: 0 },
      { id: 'v1', limitMs: 29_000, at: 6_000 }
    ])
  })

  test('a deploy order that refuses: nothing more is sent, and the deadline still moves by its time', async () => {
    const s = new Script(
      [
        { id: 'v0', status: 'deploying' },
        { id: 'theirs', status: 'running' }
      ],
      ['busy']
    )
    const refusal = new Error('a newer run deployed since')
    const gate = async (): Promise<void> => {
      s.t += 2_000
      throw refusal
    }
    const deadline = { at: 30_000 }
    await expect(requestSwitch(contextOf(s), planOf({ gate }), deadline, recorder().hooks)).rejects.toBe(refusal)
    expect(deadline.at).toBe(32_000)
    expect(s.calls).toHaveLength(1)
  })

  test('a rollback that gives up when busy: NotSent, with the answer and the look', async () => {
    const s = new Script([{ id: 'theirs', status: 'deploying' }], ['busy'])
    const error = await failure(requestSwitch(contextOf(s), planOf({ giveUpWhenBusy: 'that deploy is someone else’s' }), { at: 60_000 }, recorder().hooks))
    expect(error).toBeInstanceOf(NotSent)
    expect(error.name).toBe('NotSent')
    expect(error.message).toBe(
      "the platform answered HTTP 409 DeploymentInProgress: that deploy is someone else’s; 'production' reports distribution theirs (status: deploying)"
    )
  })

  test('giving up when busy is for a 409 only: a call that could not be sent is sent again', async () => {
    const s = new Script([{ id: 'v0' }], [{ error: refusedConnection() }])
    expect(await requestSwitch(contextOf(s), planOf({ giveUpWhenBusy: 'not ours' }), { at: 60_000 }, recorder().hooks)).toBe('sent')
    expect(s.calls).toHaveLength(2)
  })

  test('busy for the whole time: NotApplied (busy), nothing deployed, said word for word', async () => {
    const s = new Script([{ id: 'v0', status: 'deploying' }], ['busy'])
    const error = await failure(requestSwitch(contextOf(s), planOf(), { at: 3_000 }, recorder().hooks))
    expect(error).toBeInstanceOf(NotApplied)
    expect(error.name).toBe('NotApplied')
    expect((error as InstanceType<typeof NotApplied>).busy).toBe(true)
    expect(error.message).toBe(
      "'production' stayed busy with another deploy for the whole deploy-timeout-minutes; it reports distribution v0 (status: deploying). " +
        'v1 was not deployed. Run again once that deploy is done, or raise deploy-timeout-minutes.'
    )
    expect(s.calls).toHaveLength(1)
  })
})

describe('requestSwitch: a lost answer is followed, never sent again', () => {
  test('the environment shows ours: adopted, and the lost answer was told to the hook', async () => {
    const s = new Script([{ id: 'v1' }], [lost])
    const r = recorder()
    expect(await requestSwitch(contextOf(s), planOf(), { at: 60_000 }, r.hooks)).toBe('adopted')
    expect(r.unconfirmed).toEqual(['the deploy call of v1 got no usable answer (other side closed): it may have been carried out'])
    expect(s.calls).toHaveLength(1)
  })

  test('a 5xx with an error code is named by both', async () => {
    const s = new Script([{ id: 'v1' }], [{ error: new ServiceError('Deploying the distribution failed: HTTP 502', 502, 'BadGateway'), dispatch: 'sent' }])
    const r = recorder()
    expect(await requestSwitch(contextOf(s), planOf(), { at: 60_000 }, r.hooks)).toBe('adopted')
    expect(r.unconfirmed).toEqual(['the deploy call of v1 got no usable answer (HTTP 502 BadGateway): it may have been carried out'])
  })

  test('a deploy seen going on and then settled on what ran before: another deploy may have followed ours', async () => {
    const s = new Script(
      [
        { id: 'v0', status: 'deploying' },
        { id: 'v0', status: 'running' }
      ],
      [lost]
    )
    const error = await failure(requestSwitch(contextOf(s), planOf(), { at: 60_000 }, recorder().hooks))
    expect(error).toBeInstanceOf(Unconfirmed)
    expect(error.name).toBe('Unconfirmed')
    expect(error.message).toBe(
      "The deploy of v1 to 'production' may have been carried out: the deploy call got other side closed, and another deploy may have followed it, " +
        "and 'production' reports distribution v0 (status: running), which does not tell. It was not sent again, so it is never deployed twice. " +
        'Look at the environment in the console before running again.'
    )
    expect(s.calls).toHaveLength(1)
    expect(s.looks).toEqual([0, 1_000])
  })

  test('settled on what ran before with nothing seen going on: most likely not carried out, and still not sent again', async () => {
    const s = new Script([{ id: 'v0', status: 'running' }], [lost])
    const error = await failure(requestSwitch(contextOf(s), planOf(), { at: 60_000 }, recorder().hooks))
    expect(error).toBeInstanceOf(Unconfirmed)
    expect(error.message).toBe(
      "The deploy call of v1 got no usable answer (other side closed), and 'production' reports distribution v0 (status: running), with no deploy going on and none seen since the call: " +
        'it was most likely not carried out. It was not sent again (a call that may have reached the platform never is). Look at the environment in the console, then run again.'
    )
    expect(s.looks).toEqual([0])
  })

  test('nothing reported before, no id now, and no deploy going on: most likely not carried out', async () => {
    const s = new Script([{ status: 'running' }], [lost])
    const error = await failure(requestSwitch(contextOf(s), planOf({ previous: undefined }), { at: 60_000 }, recorder().hooks))
    expect(error.message).toMatch(
      /^The deploy call of v1 got no usable answer \(other side closed\), and 'production' reports no distribution \(status: running\), with no deploy going on and none seen since the call: it was most likely not carried out\./
    )
  })

  test('a third distribution, even without a status: another deploy may have followed ours, at the first look', async () => {
    const s = new Script([{ id: 'theirs' }], [lost])
    const error = await failure(requestSwitch(contextOf(s), planOf(), { at: 60_000 }, recorder().hooks))
    expect(error).toBeInstanceOf(Unconfirmed)
    expect(error.message).toBe(
      "The deploy of v1 to 'production' may have been carried out: the deploy call got other side closed, and another deploy may have followed it, " +
        "and 'production' reports distribution theirs, which does not tell. It was not sent again, so it is never deployed twice. " +
        'Look at the environment in the console before running again.'
    )
    expect(s.looks).toEqual([0])
  })

  test('a redeploy that ended looks the same as one never made: unconfirmed, said so', async () => {
    const s = new Script([{ id: 'v1', status: 'running' }], [lost])
    const error = await failure(requestSwitch(contextOf(s), planOf({ previous: 'v1', redeploy: true }), { at: 60_000 }, recorder().hooks))
    expect(error).toBeInstanceOf(Unconfirmed)
    expect(error.message).toBe(
      "The deploy of v1 to 'production' may have been carried out: the deploy call got other side closed, and a redeploy that ended looks the same as one never made, " +
        "and 'production' reports distribution v1 (status: running), which does not tell. It was not sent again, so it is never deployed twice. " +
        'Look at the environment in the console before running again.'
    )
  })

  test('the environment could not be looked at until the deadline: unconfirmed, said so', async () => {
    const s = new Script([unavailable()], [lost])
    const error = await failure(requestSwitch(contextOf(s), planOf(), { at: 3_000 }, recorder().hooks))
    expect(error).toBeInstanceOf(Unconfirmed)
    expect(error.message).toBe(
      "The deploy of v1 to 'production' may have been carried out: the deploy call got other side closed, and 'production' could not be looked at, " +
        'which does not tell. It was not sent again, so it is never deployed twice. Look at the environment in the console before running again.'
    )
    expect(s.looks).toEqual([0, 1_000, 2_000, 3_000])
  })
})

describe('waitWhileBusy', () => {
  test('waits while the status says a deploy is going on, told why each time, and gives the settled look', async () => {
    const s = new Script([
      { id: 'v0', status: 'deploying' },
      { id: 'v0', status: 'deploying' },
      { id: 'theirs', status: 'running' }
    ])
    const r = recorder()
    expect(await waitWhileBusy(contextOf(s), { at: 60_000 }, r.hooks)).toEqual({ distributionId: 'theirs', status: 'running', at: 2_000 })
    expect(r.waited.map((w) => w.why)).toEqual([
      "'production' reports distribution v0 (status: deploying): a deploy is in progress",
      "'production' reports distribution v0 (status: deploying): a deploy is in progress"
    ])
  })

  test('a look that failed shows nothing either way: looked at again, with no wait told', async () => {
    const s = new Script([unavailable(), { id: 'theirs', status: 'running' }])
    const r = recorder()
    expect(await waitWhileBusy(contextOf(s), { at: 60_000 }, r.hooks)).toEqual({ distributionId: 'theirs', status: 'running', at: 1_000 })
    expect(r.waited).toEqual([])
  })

  test('still busy at the deadline: NotApplied (busy), word for word', async () => {
    const s = new Script([{ id: 'v0', status: 'deploying' }])
    const error = await failure(waitWhileBusy(contextOf(s), { at: 2_000 }, recorder().hooks))
    expect(error).toBeInstanceOf(NotApplied)
    expect((error as InstanceType<typeof NotApplied>).busy).toBe(true)
    expect(error.message).toBe("'production' was still busy with a deploy when deploy-timeout-minutes ran out; it reports distribution v0 (status: deploying).")
  })
})

describe('followSwitch: the evidence, word for word', () => {
  test('the id going from the previous one to ours is the switch; in progress is told once per new look, with the time so far', async () => {
    const s = new Script([{ id: 'v0' }, { id: 'v0' }, { id: 'v0', status: 'deploying' }, { id: 'v1' }], [], 10_000)
    const r = recorder()
    const seen = await followSwitch(contextOf(s), planOf(), { at: 60_000 }, r.hooks)
    expect(seen).toEqual({
      by: 'switch',
      look: { distributionId: 'v1', status: undefined, at: 13_000 },
      evidence: "'production' reports distribution v1 after 3.0 s, after reporting v0"
    })
    expect(r.inProgress).toEqual([
      "'production' reports distribution v0; waiting for v1 (0 ms so far)",
      "'production' reports distribution v0 (status: deploying); waiting for v1 (2.0 s so far)"
    ])
  })

  test('ours from the first look on: not observed', async () => {
    const s = new Script([{ id: 'v1' }])
    expect(await followSwitch(contextOf(s), planOf(), { at: 60_000 }, recorder().hooks)).toEqual({
      by: 'not-observed',
      look: { distributionId: 'v1', status: undefined, at: 0 },
      evidence: "'production' reports distribution v1 from the first look on"
    })
  })

  test('ours with a status going from in progress to settled is the switch', async () => {
    const s = new Script([
      { id: 'v1', status: 'deploying' },
      { id: 'v1', status: 'running' }
    ])
    expect((await followSwitch(contextOf(s), planOf(), { at: 60_000 }, recorder().hooks)).evidence).toBe(
      "'production' reports distribution v1 (status: running) after 1.0 s, after its status said the deploy was in progress"
    )
  })

  test('ours in progress where ours ran before too: the status is the evidence, not the id', async () => {
    const s = new Script([
      { id: 'v1', status: 'deploying' },
      { id: 'v1', status: 'running' }
    ])
    expect((await followSwitch(contextOf(s), planOf({ previous: 'v1' }), { at: 60_000 }, recorder().hooks)).evidence).toBe(
      "'production' reports distribution v1 (status: running) after 1.0 s, after its status said the deploy was in progress"
    )
  })

  // No id shows no switch: a platform that reports the id at request runs nothing after a restart, and then shows
  // another job's deploy of our distribution at once (fresh seed 1494040691).
  test('no id where one was reported before, then ours: not observed, saying it came after none', async () => {
    const s = new Script([{}, { id: 'v1' }])
    expect(await followSwitch(contextOf(s), planOf(), { at: 60_000 }, recorder().hooks)).toMatchObject({
      by: 'not-observed',
      evidence: "'production' reports distribution v1 after 1.0 s, after reporting no distribution (what a restarted platform reports too)"
    })
  })

  test('no id where none was reported before, then ours: not observed either', async () => {
    const s = new Script([{}, { id: 'v1' }])
    expect(await followSwitch(contextOf(s), planOf({ previous: undefined }), { at: 60_000 }, recorder().hooks)).toMatchObject({
      by: 'not-observed',
      evidence: "'production' reports distribution v1 after 1.0 s, after reporting no distribution (what a restarted platform reports too)"
    })
  })

  test('what ran before, then no id, then ours: the switch, after what ran before', async () => {
    const s = new Script([{ id: 'v0' }, {}, { id: 'v1' }])
    expect(await followSwitch(contextOf(s), planOf(), { at: 60_000 }, recorder().hooks)).toMatchObject({
      by: 'switch',
      evidence: "'production' reports distribution v1 after 2.0 s, after reporting v0"
    })
  })

  test('no id with a status in progress, then ours settled: the switch, by the status', async () => {
    const s = new Script([{ status: 'deploying' }, { id: 'v1', status: 'running' }])
    expect(await followSwitch(contextOf(s), planOf(), { at: 60_000 }, recorder().hooks)).toMatchObject({
      by: 'switch',
      evidence: "'production' reports distribution v1 (status: running) after 1.0 s, after its status said the deploy was in progress"
    })
  })

  test('a third distribution: Replaced, naming what ran before (or none)', async () => {
    const error = await failure(followSwitch(contextOf(new Script([{ id: 'theirs' }])), planOf(), { at: 60_000 }, recorder().hooks))
    expect(error).toBeInstanceOf(Replaced)
    expect(error.message).toBe("'production' reports distribution theirs: neither v1 nor what it reported before (v0). Another deploy replaced this one.")
    const none = await failure(followSwitch(contextOf(new Script([{ id: 'theirs' }])), planOf({ previous: undefined }), { at: 60_000 }, recorder().hooks))
    expect(none.message).toBe("'production' reports distribution theirs: neither v1 nor what it reported before (none). Another deploy replaced this one.")
  })

  test('what ran before, settled, with no deploy seen going on: not taken as the end; ours later is the switch', async () => {
    const s = new Script([
      { id: 'v0', status: 'running' },
      { id: 'v0', status: 'running' },
      { id: 'v0', status: 'running' },
      { id: 'v1', status: 'running' }
    ])
    expect(await followSwitch(contextOf(s), planOf(), { at: 60_000 }, recorder().hooks)).toMatchObject({
      by: 'switch',
      evidence: "'production' reports distribution v1 (status: running) after 3.0 s, after reporting v0"
    })
  })

  test('a deploy seen going on, then what ran before settled twice in a row: NotApplied (not busy), word for word', async () => {
    const s = new Script([
      { id: 'v0', status: 'deploying' },
      { id: 'v0', status: 'running' },
      { id: 'v0', status: 'running' },
      { id: 'v1', status: 'running' }
    ])
    const error = await failure(followSwitch(contextOf(s), planOf(), { at: 60_000 }, recorder().hooks))
    expect(error).toBeInstanceOf(NotApplied)
    expect((error as InstanceType<typeof NotApplied>).busy).toBe(false)
    expect(error.message).toBe(
      "'production' reports distribution v0 (status: running): its deploy ended without switching to v1. Look at the environment in the console, then run again."
    )
    expect(s.looks).toEqual([0, 1_000, 2_000])
  })

  test('no distribution and no deploy going on, twice in a row: the platform no longer has the deploy', async () => {
    const s = new Script([{ status: 'running' }, { status: 'running' }, { id: 'v1', status: 'running' }])
    const error = await failure(followSwitch(contextOf(s), planOf({ previous: undefined }), { at: 60_000 }, recorder().hooks))
    expect(error).toBeInstanceOf(NotApplied)
    expect(error.message).toBe(
      "'production' reports no distribution (status: running): it runs nothing and no deploy is going on: the platform no longer has this deploy " +
        '(it may have restarted, or the distribution was deleted). Look at the environment in the console, then run again.'
    )
    expect(s.looks).toEqual([0, 1_000])
  })

  test('not seen in time: NotApplied (not busy), with the time allowed and the last look', async () => {
    const s = new Script([{ id: 'v0' }], [], 1_000)
    const error = await failure(followSwitch(contextOf(s), planOf(), { at: 4_000 }, recorder().hooks))
    expect(error).toBeInstanceOf(NotApplied)
    expect((error as InstanceType<typeof NotApplied>).busy).toBe(false)
    expect(error.message).toBe("The switch of 'production' to v1 was not seen within deploy-timeout-minutes (3.0 s): it still reports distribution v0.")
  })

  test('not seen in time, and the last look failed: said so', async () => {
    const s = new Script([{ id: 'v0' }, unavailable()], [], 1_000)
    const error = await failure(followSwitch(contextOf(s), planOf(), { at: 4_000 }, recorder().hooks))
    expect(error.message).toBe("The switch of 'production' to v1 was not seen within deploy-timeout-minutes (3.0 s): it could not be looked at.")
  })

  test('a deadline already past: the time allowed reads 0, never negative', async () => {
    const s = new Script([{ id: 'v0' }], [], 5_000)
    const error = await failure(followSwitch(contextOf(s), planOf(), { at: 4_000 }, recorder().hooks))
    expect(error.message).toBe("The switch of 'production' to v1 was not seen within deploy-timeout-minutes (0 ms): it still reports distribution v0.")
  })
})
