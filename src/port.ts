// The engine's one door to whatever runs it (issue 30: one engine, two faces). The release code reads its
// inputs, writes its log, outputs, summary and saved state, and masks secrets through this port and
// nothing else: the GitHub Action's face (src/action/port.ts) maps it to @actions/core, a CLI face to
// argv, the environment, stdout, stderr and files. The face installs its port once, before the run,
// with usePort(); engine modules `import * as core from './port.js'` and call the same names as before.
// Signals are not here: run() takes them as its RunHost (src/main.ts), which the face passes.

/** How an input is read: trimmed unless asked otherwise (a password may begin or end with a space). */
export interface InputOptions {
  readonly required?: boolean
  readonly trimWhitespace?: boolean
}

/**
 * Where the run runs, for advice that names the way to fix something there (src/advice.ts): 'action' is the GitHub
 * Action in a workflow (its inputs under with:); the others are the brcloud command, in a GitHub Actions run: step, in
 * another CI, or in a terminal (no CI it knows).
 */
export type RunPlace =
  'action' | 'github-actions' | 'jenkins' | 'gitlab' | 'azure-pipelines' | 'circleci' | 'bitbucket' | 'buildkite' | 'teamcity' | 'drone' | 'travis' | 'terminal'

/**
 * What the run is for, as the place it runs in knows it: the runner's variables for the action, flags and the
 * CI's own variables for the CLI (src/cli/run-context.ts). Read when needed, never written to process.env.
 */
export interface RunContext {
  /** The commit this run deploys (a full SHA); '' when none is known. */
  readonly sha: string
  /** Why there is no commit, for the deploy order's message (where the face would have read one). */
  readonly noCommit: string
  /** The branch or tag this run is for (GITHUB_REF); '' when none is known. */
  readonly ref: string
  /** The GitHub repository, owner/name, for GitHub Deployments and the search check's defaults; '' when none. */
  readonly repository: string
  /** GitHub's web address, for links to commits and runs. */
  readonly serverUrl: string
  /** This run's page (a GitHub Deployment's log_url), when the face knows it. */
  readonly runUrl: string | undefined
  /** The folder a relative distribution and the build command are found in. */
  readonly workspace: string
  /** The CI's id of this run (GITHUB_RUN_ID, the pipeline or build id); a random one when the face knows none. */
  readonly runId: string
  /** This run's attempt (GITHUB_RUN_ATTEMPT, Azure's job attempt, GitLab's job id); '1' when not known. With runId, a re-run never collides. */
  readonly runAttempt: string
  /** Who started the run (GITHUB_ACTOR, the CI's user); undefined when not known. */
  readonly actor: string | undefined
  /** Where the run runs (the CLI's face sets it); absent: the action, in a GitHub Actions workflow. */
  readonly place?: RunPlace
}

export interface Port {
  /** An input by its action.yml name; '' when it is not set. */
  getInput(name: string, options?: InputOptions): string
  setOutput(name: string, value: string): void

  info(message: string): void
  /** Annotations: the face shows them apart from the log lines when it can. */
  warning(message: string): void
  error(message: string): void
  notice(message: string): void
  /** Shown only when the user asked for debug output. */
  debug(message: string): void
  isDebug(): boolean
  /** Runs `fn` with its log lines in a group named `name` (folded, where the face can fold). */
  group<T>(name: string, fn: () => Promise<T>): Promise<T>

  /** Masks `secret` in every line shown after this call. */
  setSecret(secret: string): void

  /** Writes the run's Markdown summary; false when the face has nowhere to write it (a local run). */
  writeSummary(markdown: string): Promise<boolean>

  /** Saves a value for the post step; a face with nowhere to keep it drops it. */
  saveState(name: string, value: string): void
  /** A value the main step saved; '' when none. */
  getState(name: string): string

  /** Fails the run with this message: called once, by run() in src/main.ts. */
  setFailed(message: string): void

  /** The CI's OIDC identity token for an audience (GitHub's: the job's id-token permission); throws when there is none. */
  getIDToken(audience: string): Promise<string>

  /** The run's commit, repository, run page and workspace. */
  runContext(): RunContext
}

let installed: Port | undefined

/** Installs the face's port: every engine call after this goes to it. */
export function usePort(port: Port): void {
  installed = port
}

function port(): Port {
  if (installed === undefined) throw new Error('No port is installed: the face calls usePort() before it runs the engine.')
  return installed
}

// The engine's calls, each looked up on the installed port when made, so a module may keep one (say: core.info).
export const getInput = (name: string, options?: InputOptions): string => port().getInput(name, options)
export const setOutput = (name: string, value: string): void => port().setOutput(name, value)
export const info = (message: string): void => port().info(message)
export const warning = (message: string): void => port().warning(message)
export const error = (message: string): void => port().error(message)
export const notice = (message: string): void => port().notice(message)
export const debug = (message: string): void => port().debug(message)
export const isDebug = (): boolean => port().isDebug()
export const group = <T>(name: string, fn: () => Promise<T>): Promise<T> => port().group(name, fn)
export const setSecret = (secret: string): void => port().setSecret(secret)
export const writeSummary = (markdown: string): Promise<boolean> => port().writeSummary(markdown)
export const saveState = (name: string, value: string): void => port().saveState(name, value)
export const getState = (name: string): string => port().getState(name)
export const setFailed = (message: string): void => port().setFailed(message)
export const getIDToken = (audience: string): Promise<string> => port().getIDToken(audience)
export const runContext = (): RunContext => port().runContext()
