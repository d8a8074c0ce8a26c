// Entry of one run: read and validate the inputs, run the steps (deploy, search check) under a
// watchdog, then report what they did. This is the one place that calls core.setFailed. Only light
// modules load before the inputs are valid; the steps (HTTP, archive, search) are imported after.
import * as core from '@actions/core'
import v8 from 'node:v8'
import type { DeployResult } from './deploy/result.js'
import { whereItStands } from './deploy/outcome.js'
import { ActionError, StepFailed, systemErrorCode } from './errors.js'
import { readInputs, type ActionInputs } from './inputs/index.js'
import { Timeline } from './phases.js'
import { report } from './report.js'
import type { SearchResult } from './search/client.js'
import { networkFailure } from './http/errors.js'
import { redact } from './secrets.js'

/** The run took longer than total-timeout-minutes. */
export class WatchdogTimeout extends ActionError {
  override name = 'WatchdogTimeout'
}

/** The search check ran and did not pass. */
export class SearchCheckFailed extends ActionError {
  override name = 'SearchCheckFailed'
}

/** How long the steps get to unwind after the watchdog aborted them (a last look at the environment included), so the report can show how far they came. */
const UNWIND_MS = 5_000

export async function run(): Promise<void> {
  const timeline = new Timeline()
  let inputs: ActionInputs | undefined
  let deployed: DeployResult | undefined
  let searched: SearchResult | undefined
  let error: string | undefined
  let watchdogFired = false
  try {
    inputs = readInputs()
    const { deploy: deployInputs, search } = inputs
    const watchdog = new AbortController()
    const minutes = +(inputs.watchdogMs / 60_000).toFixed(2)
    const derived = inputs.common.timeoutMs === undefined ? ', derived from the other budgets' : ''
    const timer = setTimeout(() => {
      watchdogFired = true
      watchdog.abort(
        new WatchdogTimeout(
          `The deployment did not finish within total-timeout-minutes (${minutes} min${derived})` +
            `${timeline.current ? `; it was stopped during "${timeline.current}"` : ''}. The platform may be slow or not ` +
            `answering: check its status, then run again, or raise total-timeout-minutes for very large distributions.`
        )
      )
    }, inputs.watchdogMs)
    // undici parses HTTP with WebAssembly; V8's optimizing tier would compile it again in the
    // background for about 35 MB of peak memory, for no gain in a run of a few hundred calls.
    v8.setFlagsFromString('--liftoff-only')
    // The search check, after the deploy (which may roll back when it fails) or on its own.
    const checkSearchOnce = async (): Promise<string | undefined> => {
      if (!search) return undefined
      const { checkSearch } = await import('./search-check.js')
      searched = await checkSearch(search, timeline.run, watchdog.signal)
      return searched.passed ? undefined : `Search check failed: ${searched.failure ?? 'no passing answer'}`
    }
    const steps = async (): Promise<void> => {
      if (deployInputs) {
        const { deploy } = await import('./deploy/index.js')
        try {
          deployed = await deploy(deployInputs, timeline.run, watchdog.signal, search ? checkSearchOnce : undefined)
        } catch (failure) {
          if (!(failure instanceof StepFailed)) throw failure
          deployed = failure.result as DeployResult
          throw failure.cause
        }
      } else {
        await checkSearchOnce()
      }
      if (searched && !searched.passed) throw new SearchCheckFailed(`Search check failed: ${searched.failure ?? 'no passing answer'}`)
    }
    const running = steps()
    try {
      await Promise.race([running, aborted(watchdog.signal)])
    } catch (failure) {
      // The watchdog aborted every call in flight: let the steps unwind (and clean up) briefly.
      if (!watchdogFired) throw failure
      await Promise.race([running.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, UNWIND_MS).unref())])
      throw new WatchdogTimeout(`${(failure as Error).message}${whereItStands(deployed)}`)
    } finally {
      clearTimeout(timer)
    }
  } catch (failure) {
    error = failureMessage(failure, inputs, timeline.current)
    core.setFailed(error)
  } finally {
    const result = { deploys: inputs === undefined || inputs.deploy !== undefined, deploy: deployed, search: searched, phases: timeline.phases, error }
    await report(result).catch((e: unknown) => core.warning(`Could not write the job summary: ${String(e)}`))
  }
  // A hung call may still hold a socket open after the watchdog: end the process, do not wait for it.
  if (watchdogFired) process.exit(1)
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }))
}

/** A code of the operating system or undici: the connection failed. */
const NETWORK_CODE = /^(E[A-Z]+|UND_ERR_\w+)$/

/** What a failed connection means, honestly counted: a name that does not resolve is tried once; the rest up to max-attempts. */
function connectionMessage(code: string, text: string, apiUrl: string, maxAttempts: number, phase: string | undefined): string {
  const during = phase ? ` during "${phase}"` : ''
  const host = new URL(apiUrl).host
  if (code === 'ENOTFOUND') {
    return (
      `The host ${host} does not exist${during} (ENOTFOUND): the stack name is probably wrong. It was tried once and is not retried. ` +
      `Copy the word after "missioncontrol." from your console address into stack (or set console-url to that address).`
    )
  }
  const retried = networkFailure({ code }) !== undefined
  return retried
    ? `The connection to ${apiUrl} failed${during} (${code}: ${text}), on each of up to ${maxAttempts} attempt(s) (max-attempts). ` +
        `Check that the runner can reach the platform; if the network is flaky, raise max-attempts.`
    : `The connection to ${apiUrl} failed${during} (${code}: ${text}); this failure is not retried. Check the stack name or api-url and that the runner can reach the platform.`
}

/** One message for the failure annotation: what went wrong and what to do; never a secret. */
export function failureMessage(error: unknown, inputs: ActionInputs | undefined, phase: string | undefined): string {
  let message: string
  if (error instanceof ActionError) {
    message = error.message
  } else {
    const code = systemErrorCode(error)
    const text = error instanceof Error ? error.message : String(error)
    const deploy = inputs?.deploy
    if (code && NETWORK_CODE.test(code) && deploy) {
      message = connectionMessage(code, text, deploy.address.apiUrl, deploy.maxAttempts, phase)
    } else {
      message = text
    }
  }
  return redact(message)
}
