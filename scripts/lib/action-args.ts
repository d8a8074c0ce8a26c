// What `npm run action -- name=value ...` makes of its command line and its shell: the inputs (action.yml's
// names, and the old names of renamed inputs, which a runner passes on with a warning), the workspace (the
// directory the command was typed in: npm itself runs scripts from the package root and says where the
// caller was in INIT_CWD), and the variables of the caller's shell that the action reads (proxies, CAs, and
// the runner's variables a user sets to stand in for a job: GitHub's address and the run's commit, the OIDC token service).
import { INPUT_DEFAULTS } from '../../src/action-metadata.js'
import { RENAMED } from '../../src/inputs/index.js'

/** The network's variables the action needs: a proxy, the hosts that bypass it, extra CAs. */
export const NETWORK_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy', 'NODE_EXTRA_CA_CERTS'] as const

/**
 * The runner's variables the action reads (itself, or through @actions/github's context and @actions/core), which
 * a user sets to try GitHub's calls and its OIDC token by hand (the emulator's banner prints them): where GitHub's
 * API and site are, the repository, the run's commit and ref, the run's id (its link), the OIDC token service of a
 * job with `id-token: write`, and the runner's debug switch. When unset, run-action.ts's defaults apply
 * (GITHUB_REPOSITORY acme/site, GITHUB_SHA RUNNER_SHA), or none, as on a runner without them.
 */
export const RUNNER_VARIABLES = [
  'GITHUB_API_URL',
  'GITHUB_SERVER_URL',
  'GITHUB_REPOSITORY',
  'GITHUB_SHA',
  'GITHUB_REF',
  'GITHUB_RUN_ID',
  'ACTIONS_ID_TOKEN_REQUEST_URL',
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
  'RUNNER_DEBUG'
] as const

/** Every variable of the caller's shell the action gets; nothing else of it does (not GITHUB_TOKEN: the token is an input). */
export const PASSED_THROUGH = [...NETWORK_VARIABLES, ...RUNNER_VARIABLES] as const

export interface ActionArgs {
  inputs: Record<string, string>
  /** Passed to the action's process on top of what a runner sets. */
  env: Record<string, string>
  /** GITHUB_WORKSPACE: relative paths (distribution, a glob) are taken from here. */
  workspace: string
  /** What a runner prints before the step: an input action.yml does not declare (a renamed input's old name). */
  warnings: string[]
}

export class ArgsError extends Error {
  override name = 'ArgsError'
}

export function parseActionArgs(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): ActionArgs {
  const declared = Object.keys(INPUT_DEFAULTS)
  const known = new Set([...declared, ...Object.keys(RENAMED)])
  const inputs: Record<string, string> = {}
  const unexpected: string[] = []
  for (const arg of args) {
    const eq = arg.indexOf('=')
    if (eq <= 0) throw new ArgsError(`'${arg}' is not name=value.`)
    const name = arg.slice(0, eq)
    if (!known.has(name)) throw new ArgsError(`'${name}' is not an input of action.yml (see the inputs table in the README).`)
    if (!(name in INPUT_DEFAULTS)) unexpected.push(name)
    inputs[name] = arg.slice(eq + 1)
  }
  const passed: Record<string, string> = {}
  for (const name of PASSED_THROUGH) {
    const value = env[name]
    if (value !== undefined) passed[name] = value
  }
  // The runner's own words for an input the action does not declare; the action then warns about the rename itself.
  const warnings = unexpected.length > 0 ? [`Unexpected input(s) '${unexpected.join("', '")}', valid inputs are ['${declared.join("', '")}']`] : []
  return { inputs, env: passed, workspace: env.INIT_CWD || cwd, warnings }
}
