// Entry of one run: read and validate the inputs, then run the deployment under a watchdog and
// report. This is the one place that calls core.setFailed. Only light modules load before the
// inputs are valid; the deployment pipeline (HTTP, archive) is imported after.
import * as core from '@actions/core'
import v8 from 'node:v8'
import { InputError, ServiceError } from './errors.js'
import { errorCode } from './http/errors.js'
import { readInputs } from './inputs/index.js'
import { writeSummary, type DeployReport } from './report.js'
import { redact } from './secrets.js'

/** The run took longer than timeout-minutes. */
export class WatchdogTimeout extends Error {
  override name = 'WatchdogTimeout'
}

export async function run(): Promise<void> {
  const report: DeployReport = { dryRun: false, deploys: true, tokenRenewals: 0, phases: [] }
  let watchdogFired = false
  try {
    const inputs = readInputs()
    const { deploy: deployInputs, search } = inputs
    report.deploys = deployInputs !== undefined
    const watchdog = new AbortController()
    const minutes = inputs.common.timeoutMs / 60_000
    const timer = setTimeout(() => {
      watchdogFired = true
      watchdog.abort(
        new WatchdogTimeout(
          `The deployment did not finish within timeout-minutes (${+minutes.toFixed(2)} min)` +
            `${report.currentPhase ? `; it was stopped during "${report.currentPhase}"` : ''}. The platform may be slow or not ` +
            `answering: check its status, then run again, or raise timeout-minutes for very large distributions.`
        )
      )
    }, inputs.common.timeoutMs)
    // undici parses HTTP with WebAssembly; V8's optimizing tier would compile it again in the
    // background for about 35 MB of peak memory, for no gain in a run of a few hundred calls.
    v8.setFlagsFromString('--liftoff-only')
    const steps = async (): Promise<void> => {
      if (deployInputs) {
        const { deploy } = await import('./deploy.js')
        await deploy(deployInputs, report, watchdog.signal)
      }
      if (search) {
        const { checkSearch } = await import('./search-check.js')
        await checkSearch(search, report, watchdog.signal)
      }
    }
    try {
      await Promise.race([steps(), aborted(watchdog.signal)])
    } finally {
      clearTimeout(timer)
    }
  } catch (error) {
    report.error = failureMessage(error, report)
    core.setFailed(report.error)
  } finally {
    await writeSummary(report).catch((e: unknown) => core.warning(`Could not write the job summary: ${String(e)}`))
  }
  // A hung call may still hold a socket open after the watchdog: end the process, do not wait for it.
  if (watchdogFired) process.exit(1)
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }))
}

const NETWORK_CODE = /^(E[A-Z]+|UND_ERR_\w+)$/

/** One message for the failure annotation: what went wrong and what to do; never a secret. */
export function failureMessage(error: unknown, report: DeployReport): string {
  let message: string
  if (error instanceof InputError || error instanceof ServiceError || error instanceof WatchdogTimeout || (error instanceof Error && error.name === 'SearchCheckFailed')) {
    message = error.message
  } else {
    const code = errorCode(error)
    const text = error instanceof Error ? error.message : String(error)
    if (code && NETWORK_CODE.test(code) && report.apiUrl) {
      const during = report.currentPhase ? ` during "${report.currentPhase}"` : ''
      message =
        `The connection to ${report.apiUrl} failed${during} (${code}: ${text}), and ${report.maxAttempts ?? 1} attempt(s) did not get through. ` +
        `Check the stack name or api-url and that the runner can reach the platform; if the network is flaky, raise max-attempts.`
    } else {
      message = text
    }
  }
  return redact(message)
}
