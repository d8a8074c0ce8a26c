// What the step says about the environment when it ends, word for word: the failure message (the cause, what
// happened to the rollback, what runs now) and the watchdog's "where it stands", each built from a release
// whose states are entered one by one with their times, as the release machine enters them.
import { useTestPort } from './test-port.js'

useTestPort()

const { releaseFailure, whereItStands } = await import('../src/deploy/outcome.js')
const { enter, newRelease } = await import('../src/deploy/release-state.js')
const { EnvironmentWatch } = await import('../src/deploy/observe.js')
const { ServiceError } = await import('../src/errors.js')
type ReleaseRecord = import('../src/deploy/release-state.js').ReleaseRecord
type ReleaseState = import('../src/deploy/release-state.js').ReleaseState
type DeployResult = import('../src/deploy/result.js').DeployResult
type FailureKind = NonNullable<ReleaseRecord['failure']>['kind']
type CloudClient = import('../src/cloud/client.js').CloudClient

const T0 = Date.UTC(2026, 5, 1, 12)
const NOW = "At the end of the run, 'production' reports distribution v0 (status: running)."

/** A release of v1 over v0 through `steps` ([state, seconds after T0, evidence]); failed with `kind` when given. */
function release(steps: Array<[ReleaseState, number, string?]>, kind?: FailureKind, previous: string | undefined = 'v0'): ReleaseRecord {
  const r = newRelease('production', 'v1', previous)
  for (const [state, s, evidence] of steps) enter(r, state, evidence ?? state, T0 + s * 1000)
  if (kind !== undefined) r.failure = { kind, message: 'the check failed' }
  return r
}

function resultOf(r: ReleaseRecord | undefined, finalLook: DeployResult['finalLook'] = { distributionId: 'v0', status: 'running', at: T0 }): DeployResult {
  return {
    apiUrl: 'https://api.example.com',
    target: 'stack test',
    consoleUrl: undefined,
    dryRun: false,
    strategy: 'stopstart',
    rollback: true,
    rollbackOnSearch: false,
    environmentName: 'production',
    source: 'upload',
    fromEnvironment: undefined,
    configFiles: [],
    skipped: false,
    cautions: [],
    plan: [],
    completed: false,
    tokenRenewals: 0,
    release: r,
    finalLook
  }
}

/** The release failed its health check after the deploy was requested at 10 s; a rollback to v0 was then due. */
const unhealthy = (more: Array<[ReleaseState, number, string?]> = []) =>
  release([['waiting', 0], ['requested', 10], ['applied', 20], ['failed', 30, 'site 500'], ...more], 'unhealthy')

const failure = (r: ReleaseRecord, rollbackOn = true, searchRollsBack = false) =>
  releaseFailure(resultOf(r), 'Health check failed.', rollbackOn, searchRollsBack)

describe('releaseFailure', () => {
  test('the cause is trimmed; a release that did not fail adds nothing but what runs now', () => {
    const r = release([['requested', 0]])
    expect(releaseFailure(resultOf(r), '  Deploy timed out.\n', true, false)).toBe(`Deploy timed out. ${NOW}`)
    expect(releaseFailure({ ...resultOf(undefined), finalLook: undefined }, '  Upload failed. ', true, false)).toBe('Upload failed.')
  })

  test('rollback off: ours stays deployed, or may still land when it was not seen applied', () => {
    const off = 'rollback is off (set rollback: true to deploy the previous distribution back when a check fails).'
    expect(failure(unhealthy(), false)).toBe(`Health check failed. v1 stays deployed: ${off} ${NOW}`)
    const notApplied = release(
      [
        ['requested', 0],
        ['failed', 30]
      ],
      'not-applied'
    )
    expect(failure(notApplied, false)).toBe(`Health check failed. The deploy of v1 may still land: ${off} ${NOW}`)
  })

  test('rollback off and the search check failed: the advice names rollback-on-search too, since rollback: true alone never rolls back for it', () => {
    const search = release(
      [
        ['requested', 0],
        ['applied', 20],
        ['failed', 30]
      ],
      'search'
    )
    expect(releaseFailure(resultOf(search), 'Search check failed.', false, false)).toBe(
      `Search check failed. v1 stays deployed: rollback is off (set rollback: true and rollback-on-search: true to deploy the previous distribution back when the search check fails). ${NOW}`
    )
  })

  test('nothing to go back to: said so, and whether what ran before was this very distribution', () => {
    const first = release(
      [
        ['requested', 0],
        ['failed', 30]
      ],
      'unhealthy',
      undefined
    )
    expect(failure(first)).toBe(
      `Health check failed. Cannot roll back: 'production' reported no other distribution before this deploy, so there is nothing to go back to. ${NOW}`
    )
    const redeploy = release(
      [
        ['requested', 0],
        ['failed', 30]
      ],
      'unhealthy',
      'v1'
    )
    expect(failure(redeploy)).toBe(
      `Health check failed. Cannot roll back: 'production' reported no other distribution before this deploy than this one, so there is nothing to go back to. ${NOW}`
    )
  })

  test('an unconfirmed deploy: no rollback is sent over it, unless the run already said why not', () => {
    const unconfirmed = () =>
      release(
        [
          ['unconfirmed', 0],
          ['failed', 30]
        ],
        'unconfirmed',
        undefined
      )
    expect(failure(unconfirmed())).toBe(
      `Health check failed. No rollback was sent: 'production' did not show this run's release, and a rollback is sent only over it. ${NOW}`
    )
    expect(failure(unconfirmed(), false)).toBe(`Health check failed. ${NOW}`)
    const told = unconfirmed()
    told.rollbackNotSent = 'it was stopped'
    expect(failure(told)).toBe(
      `Health check failed. Cannot roll back: 'production' reported no other distribution before this deploy, so there is nothing to go back to. ${NOW}`
    )
  })

  test('rolled back, the site not checked: the time is counted from the deploy request, not from the wait before it', () => {
    const r = unhealthy([
      ['rollback-requested', 35],
      ['rollback-applied', 40]
    ])
    r.rollbackTo = 'v0'
    expect(failure(r)).toBe(
      "Health check failed. Rolled back: 'production' reports the previous distribution v0 again (seen 30.0 s after the deploy request); the site was not checked (no health-url). v1 stays on the stack for inspection. " +
        NOW
    )
  })

  test('rolled back after a deploy that was never confirmed: the time is counted from the first state', () => {
    const r = release(
      [
        ['unconfirmed', 3],
        ['failed', 10],
        ['rollback-requested', 12],
        ['rollback-applied', 15]
      ],
      'not-applied'
    )
    r.rollbackTo = 'v0'
    expect(failure(r)).toBe(
      "Health check failed. Rolled back: 'production' reports the previous distribution v0 again (seen 12.0 s after the deploy request); the site was not checked (no health-url). v1 stays on the stack for inspection. " +
        NOW
    )
  })

  test('a rollback that may have been carried out is said so, even when it then failed', () => {
    const r = unhealthy()
    r.rollbackTo = 'v0'
    r.rollbackUnconfirmed = 'the deploy call of v0 got no usable answer'
    const text = 'The rollback to v0 may have been carried out: the deploy call of v0 got no usable answer; it was not seen applied.'
    expect(failure(r)).toBe(`Health check failed. ${text} ${NOW}`)
    enter(r, 'rollback-failed', 'connection reset', T0 + 50_000)
    expect(failure(r)).toBe(`Health check failed. ${text} ${NOW}`)
  })

  test('a rollback that failed', () => {
    const r = unhealthy([['rollback-failed', 40, 'HTTP 500']])
    r.rollbackTo = 'v0'
    expect(failure(r)).toBe(`Health check failed. The rollback to v0 failed: HTTP 500 ${NOW}`)
  })

  test('a rollback requested and not seen applied', () => {
    const r = unhealthy([['rollback-requested', 40]])
    r.rollbackTo = 'v0'
    expect(failure(r)).toBe(`Health check failed. A rollback to v0 was requested, but it was not seen applied. ${NOW}`)
  })

  test('no rollback sent: why, or that the run stopped before it could look', () => {
    const r = unhealthy()
    r.rollbackTo = 'v0'
    expect(failure(r)).toBe(`Health check failed. No rollback was sent to v0: the run stopped before it could look at 'production'. ${NOW}`)
    r.rollbackNotSent = 'the run was stopped'
    expect(failure(r)).toBe(`Health check failed. No rollback was sent: the run was stopped. ${NOW}`)
  })
})

describe('whereItStands', () => {
  const tail = " At the end of the run, 'production' reports distribution v0 (status: running)."

  test('nothing to say without a result or a release', () => {
    expect(whereItStands(undefined)).toBe('')
    expect(whereItStands(resultOf(undefined))).toBe('')
  })

  test('a rollback requested and applied', () => {
    const r = unhealthy([
      ['rollback-requested', 35],
      ['rollback-applied', 40]
    ])
    r.rollbackTo = 'v0'
    expect(whereItStands(resultOf(r))).toBe(
      " The deploy of v1 to 'production' was requested (last state: rollback-applied). A rollback to v0 was requested and applied." + tail
    )
  })

  test('a rollback requested: not seen applied, with why, or without a word more', () => {
    const r = unhealthy([['rollback-requested', 35]])
    r.rollbackTo = 'v0'
    expect(whereItStands(resultOf(r))).toBe(
      " The deploy of v1 to 'production' was requested (last state: rollback-requested). A rollback to v0 was requested." + tail
    )
    r.rollbackNotSeen = 'it was not seen applied: boom'
    expect(whereItStands(resultOf(r))).toBe(
      " The deploy of v1 to 'production' was requested (last state: rollback-requested). A rollback to v0 was requested; it was not seen applied: boom." + tail
    )
  })

  test('a rollback requested whose target is not known is told with a question mark', () => {
    const r = unhealthy([['rollback-requested', 35]])
    expect(whereItStands(resultOf(r))).toBe(
      " The deploy of v1 to 'production' was requested (last state: rollback-requested). A rollback to ? was requested." + tail
    )
  })

  test('a deploy requested and not seen applied may still switch after the step ended; one seen applied, or replaced, is only requested', () => {
    const following = release([
      ['requested', 10],
      ['in-progress', 15]
    ])
    expect(whereItStands(resultOf(following))).toBe(
      " The deploy of v1 to 'production' was requested (last state: in-progress) and not seen applied: the platform may still switch 'production' to it after this step ended." +
        tail
    )
    const reported = release([
      ['requested', 10],
      ['reported', 15]
    ])
    expect(whereItStands(resultOf(reported))).toMatch(/\(last state: reported\) and not seen applied: the platform may still switch 'production' to it/)
    const applied = release([
      ['requested', 10],
      ['applied', 15],
      ['healthy', 20]
    ])
    expect(whereItStands(resultOf(applied))).toBe(" The deploy of v1 to 'production' was requested (last state: healthy)." + tail)
    const replaced = release([
      ['requested', 10],
      ['in-progress', 15],
      ['replaced', 20]
    ])
    expect(whereItStands(resultOf(replaced))).toBe(" The deploy of v1 to 'production' was requested (last state: replaced)." + tail)
  })

  test('a rollback under way that the platform had not confirmed', () => {
    const r = unhealthy()
    r.rollbackTo = 'v0'
    expect(whereItStands(resultOf(r))).toBe(
      " The deploy of v1 to 'production' was requested (last state: failed). A rollback to v0 was under way; the platform had not confirmed its request." + tail
    )
  })
})

describe('a look while waiting, when the run was stopped', () => {
  test('a failure that may pass is not noted as one to look again after: the run stopped, so it is thrown', async () => {
    const unavailable = new ServiceError('Listing environments failed: HTTP 503', 503)
    const client = {
      findEnvironment: async () => {
        throw unavailable
      }
    } as unknown as CloudClient
    const lines: string[] = []
    const stopped = new AbortController()
    stopped.abort(new Error('cancelled'))
    await expect(new EnvironmentWatch(client, 'production', { signal: stopped.signal, log: (l) => lines.push(l) }).lookAgain()).rejects.toBe(unavailable)
    expect(lines).toEqual([])
    expect(await new EnvironmentWatch(client, 'production', { signal: new AbortController().signal, log: (l) => lines.push(l) }).lookAgain()).toBeUndefined()
    expect(lines).toEqual(["Looking at 'production' failed (Listing environments failed: HTTP 503); looking again later."])
  })
})
