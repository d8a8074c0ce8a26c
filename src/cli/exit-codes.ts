// The exit code of a run, derived from how the engine ended it (src/main.ts's RunEnding): the release's states,
// the deploy order, the error's class. docs/cli.md documents the table; scripts branch on it.
import { refusesLogin, InputError } from '../errors.js'
import { rolledBack } from '../deploy/release-state.js'
import { SearchCheckFailed, type RunEnding } from '../main.js'
import { deployedWord } from '../report.js'

export const EXIT = {
  success: 0,
  failure: 1,
  badInput: 2,
  refused: 3,
  loginRefused: 4,
  rolledBack: 5,
  possiblyLive: 6,
  searchFailed: 7,
  ruleRefused: 10,
  sigint: 130,
  sigterm: 143
} as const

export type ExitCode = (typeof EXIT)[keyof typeof EXIT]

/**
 * brcloud status (docs/status.md): read in full, something not read (fails closed), bad flags or file, a state --fail-on
 * names, a drift issue --drift-issues could not keep, a cancel.
 */
export const STATUS_EXIT = {
  success: EXIT.success,
  unreadable: EXIT.failure,
  badInput: EXIT.badInput,
  failOn: 8,
  driftIssues: 9,
  sigint: EXIT.sigint,
  sigterm: EXIT.sigterm
} as const

/**
 * The first that holds, in this order: success; a cancel by signal; bad input; then what the environment runs
 * (rolled back, or our release possibly live: a failure after a deploy request outranks why it failed); a
 * refusal by a release rule; a refusal before any deploy (the order, a busy environment, a refused login); a failed search check; any other failure.
 */
export function exitCode({ result, failure }: RunEnding): ExitCode {
  if (result.error === undefined) return EXIT.success
  if (result.stopped === 'cancel') return EXIT.sigint
  if (result.stopped === 'terminate') return EXIT.sigterm
  if (failure instanceof InputError) return EXIT.badInput
  const deploy = result.deploy
  const release = deploy?.release
  if (rolledBack(release)) return EXIT.rolledBack
  const deployed = deployedWord(deploy)
  if ((deployed === 'true' || deployed === 'unknown') && release?.state !== 'replaced') return EXIT.possiblyLive
  // An environment that stayed busy fails the release as such ('busy'); one that ended still `waiting` ended for
  // another reason (the platform unreachable, the environment deleted, a login refused), whose code is its own.
  // An order "not checked" because the stop cut GitHub's answer short is the stop's, not a refusal.
  // A release rule (a freeze window, the soak gate, the backup rule) refused it: nothing of ours was deployed.
  if (deploy?.rules?.refusedBy !== undefined && release?.failure?.kind !== 'busy') return EXIT.ruleRefused
  const orderRefused = deploy?.order?.refused === true && !(deploy.order.failed === true && result.stopped !== undefined)
  if (orderRefused || release?.failure?.kind === 'busy' || release?.failure?.kind === 'older') return EXIT.refused
  if (refusesLogin(failure)) return EXIT.loginRefused
  // The deploy step runs the check itself where nothing of ours went live (already running, or replaced), and fails with its
  // words. A check the watchdog or a signal cut short reached no verdict: the stop's code, not the check's.
  if (failure instanceof SearchCheckFailed || (result.search?.passed === false && result.stopped === undefined)) return EXIT.searchFailed
  return EXIT.failure
}

/** The order exitCode() tries the codes in, the first that holds: docs/cli.md's table lists them so. */
export const EXIT_PRECEDENCE: readonly ExitCode[] = [
  EXIT.success,
  EXIT.sigint,
  EXIT.sigterm,
  EXIT.badInput,
  EXIT.rolledBack,
  EXIT.possiblyLive,
  EXIT.ruleRefused,
  EXIT.refused,
  EXIT.loginRefused,
  EXIT.searchFailed,
  EXIT.failure
]
