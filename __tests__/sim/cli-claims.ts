// The invariants of the command's face (docs/cli.md), read against what the world gave it (its CI's variables, its
// flags and files), what it printed (stdout, stderr, its --json, --dotenv and --summary files, Azure's lines), what its
// engine handed its port (./process.ts) and the platform's history. The claims every other invariant reads (outputs,
// summary, failure) are read from the command's own output (./cli-run.ts readCliClaims), so those hold on this face too.
import { expect } from '@jest/globals'
import { existsSync } from 'node:fs'
import type { Facts } from './claims.js'
import { fileText, jsonOf, unescapeAzure, type CliRecord } from './cli-run.js'
import { variableOf } from './faces.js'
import { GITHUB_TOKEN } from './github.js'
import { GITLAB_TOKEN } from './gitlab.js'
import { shown } from './mocks.js'
import { processRecord } from './process.js'
import { ruleRefusalOf } from './rules-claims.js'
import { sinkSecrets } from './sinks.js'
import { wire } from './transport.js'
import { QUERY_SECRET, SEARCH_KEY } from './world.js'

/** What decides a run's exit code, as docs/cli.md's table names it, read from the run's claims and the world. */
interface Outcome {
  readonly failed: boolean
  readonly cancelledBy: 'SIGINT' | 'SIGTERM' | undefined
  /** Why the world's inputs were bad for this face (undefined: they were not). */
  readonly badInput: string | undefined
  readonly outputs: Readonly<Record<string, string>>
  /** Refused before any deploy: the deploy order (an older commit, or an order that could not be checked), or an environment that stayed busy. */
  readonly refused: boolean
  /** Refused by a release rule (a freeze window, the soak gate, the backup rule): nothing of ours deployed. */
  readonly ruleRefused: boolean
  readonly loginRefused: boolean
  readonly searchFailed: boolean
}

/** docs/cli.md's exit codes of deploy, written out: the first row that holds, top to bottom. */
const EXIT_TABLE: ReadonlyArray<readonly [number, string, (o: Outcome) => boolean]> = [
  [0, 'Success', (o) => !o.failed],
  [130, 'Cancelled by SIGINT', (o) => o.cancelledBy === 'SIGINT'],
  [143, 'Cancelled by SIGTERM', (o) => o.cancelledBy === 'SIGTERM'],
  [2, 'Bad input: a bad flag or value, a secret given as a flag, an unreadable secret file', (o) => o.badInput !== undefined],
  [5, 'Failed and rolled back (rolled-back: true)', (o) => o.outputs['rolled-back'] === 'true'],
  [
    6,
    'Failed with the new release possibly live: a deploy was requested (or may have been) and not rolled back',
    (o) => (o.outputs.deployed === 'true' || o.outputs.deployed === 'unknown') && o.outputs['release-state'] !== 'replaced'
  ],
  [10, 'Refused by a release rule: a freeze window, the soak gate or the backup rule', (o) => o.ruleRefused],
  [3, 'Refused before any deploy: the deploy order, or an environment that stayed busy', (o) => o.refused],
  [4, 'Login refused', (o) => o.loginRefused],
  [7, 'The search check failed, and no deploy of this run is live', (o) => o.searchFailed],
  [1, 'Any other failure', () => true]
]

/** The calls of this run's process (the platform, its identity provider, GitHub; not the status report's, nor the world's). */
function callsOf(index: number): typeof wire.calls {
  return wire.calls.filter((c) => c.run === index && (c.by === 'main' || c.by === 'post'))
}

/**
 * Why this face cannot take the world's inputs as they are (the command's own refusals, a token without a commit,
 * GitHub's OIDC token outside GitHub Actions); undefined when the world gave nothing bad. The engine refuses other
 * inputs by its own rules (a ready token that expires before the budgets end, a from-environment that runs nothing):
 * those are read from its exit code, and held to what docs/cli.md promises of a 2, that nothing was changed.
 */
export function badInputOf(f: Facts, cli: CliRecord, index: number): string | undefined {
  if (cli.command.refusal !== undefined) return cli.command.refusal
  const context = processRecord(index).context
  if (shown.inputs['github-token'] && context !== undefined && context.sha === '') return 'github-token without a commit'
  if (shown.inputs['gitlab-token'] && context !== undefined && context.sha === '') return 'gitlab-token without a commit'
  // GitHub's OIDC token is the action's to ask for (docs/cli.md): the command cannot log in with oidc-audience, in any CI.
  if (f.s.login === 'github-oidc') return 'oidc-audience, which only the action can use'
  return undefined
}

/**
 * The environment stayed busy for the whole deploy-timeout-minutes: the failure says so, or the release's own line does
 * when the watchdog then stopped the step's closing look (its message is the failure; the release's verdict came first).
 * So for the deploy order checked again in the release (fresh seed 1250452833: GitHub's 403, then the watchdog during
 * the closing look): a stop that cuts that check short is thrown as the stop, never written as a refusal.
 */
function refusedInRelease(failed: string | undefined, log: string): boolean {
  return (
    /^'[^']+' (stayed|was still) busy/.test(failed ?? '') ||
    /\bRelease failed: '[^']+' (stayed|was still) busy/.test(log) ||
    /\bRelease failed: Refused: (the deploy order on '[^']+' could not be checked|commit \w+ is older than)/.test(log)
  )
}

/** The run's outcome, read from its claims and the world. */
function outcomeOf(f: Facts, cli: CliRecord, index: number): Outcome {
  const failed = shown.failed
  const outputs = shown.outputs
  // The code's host, GitHub's or GitLab's: what allow-older-commit and allow-unchecked-order were given as.
  const gh = f.s.github ?? f.s.gitlab
  const unreadable = /^Refused: the deploy order on '[^']+' could not be checked/.test(failed ?? '')
  return {
    failed: failed !== undefined,
    cancelledBy: /^The run was cancelled \((SIGINT|SIGTERM)\)/.exec(failed ?? '')?.[1] as Outcome['cancelledBy'],
    badInput: badInputOf(f, cli, index) ?? (cli.exitCode === 2 ? 'an input the engine refused' : undefined),
    outputs,
    // Nothing of ours carried out, and the order refused it (older, or not checkable), or the environment stayed busy
    // (the release's verdict, also when a stop came after it).
    refused:
      f.release.length === 0 &&
      ((outputs.order === 'behind' && gh?.allowOlder !== true) ||
        (unreadable && gh?.allowUnchecked !== true) ||
        (outputs.deployed === 'false' && refusedInRelease(failed, f.text))),
    ruleRefused: f.release.length === 0 && ruleRefusalOf(failed ?? '') !== undefined,
    // The stack refused the password or the token, or the token endpoint answered 4xx (a 429 is its rate limit, tried again).
    loginRefused: /^Login to .* was refused|^The stack refused the token|^Getting a token from \S+ .*: HTTP 4(?!29)\d\d /.test(failed ?? ''),
    searchFailed: /^Search check failed/.test(failed ?? '')
  }
}

/** The exit code is the documented one for the outcome, and the outcome agrees with the history. */
export function checkExitCode(f: Facts, cli: CliRecord, index: number): void {
  const code = cli.exitCode
  if (code === undefined) return // killed: no code of its own
  const o = outcomeOf(f, cli, index)
  const row = EXIT_TABLE.find(([, , holds]) => holds(o))
  expect({ exitCode: code, failure: shown.failed, outputs: o.outputs }).toEqual({ exitCode: row?.[0], failure: shown.failed, outputs: o.outputs })
  if (o.cancelledBy !== undefined)
    expect({ cancelledBy: o.cancelledBy, firstSignal: f.ending.firstSignal }).toEqual({ cancelledBy: o.cancelledBy, firstSignal: o.cancelledBy })
  const changed = { deployed: f.release.length, uploaded: f.log.uploaded.length, deleted: f.log.deleted.length }
  if (code === 2)
    expect({ exitCode: 2, badInput: o.badInput, changed, oursSent: f.sentOurs }).toEqual({
      exitCode: 2,
      badInput: o.badInput,
      changed: { deployed: 0, uploaded: 0, deleted: 0 },
      oursSent: 0
    })
  // The command's own refusals come before the engine runs: not one request.
  if (cli.command.refusal !== undefined)
    expect({ refusal: cli.command.refusal, calls: callsOf(index).length }).toEqual({ refusal: cli.command.refusal, calls: 0 })
  // Refused before any deploy: a call the platform refused (409, busy) carried nothing out.
  if (code === 3 || code === 4) expect({ exitCode: code, oursCarriedOut: f.release.length }).toEqual({ exitCode: code, oursCarriedOut: 0 })
  if (code === 6) expect({ exitCode: 6, oursSent: f.sentOurs > 0 }).toEqual({ exitCode: 6, oursSent: true })
}

/** GitLab's dotenv cannot hold a value with a line break, a blank at either end or a leading quote (docs/cli.md): left out. */
function dotenvFit(value: string): boolean {
  return !/[\r\n]/.test(value) && value === value.trim() && !/^["'`]/.test(value)
}

/** --json, --dotenv and Azure's output variables carry the outputs the engine set, as the action's would be; a refusal writes them too. */
export function checkOutputFormats(f: Facts, cli: CliRecord, index: number): void {
  if (cli.exitCode === undefined) return
  const engine = processRecord(index).outputs
  expect({ json: jsonOf(cli) }).toEqual({ json: engine })
  const { dotenvFile } = cli.command
  if (dotenvFile !== undefined) {
    const lines = fileText(dotenvFile)
      .split('\n')
      .filter((l) => l !== '')
    const expected = Object.entries(engine)
      .filter(([, v]) => dotenvFit(v))
      .map(([k, v]) => `${variableOf(k)}=${v}`)
    expect({ dotenvWritten: existsSync(dotenvFile), dotenv: lines.sort() }).toEqual({ dotenvWritten: true, dotenv: expected.sort() })
  }
  if (f.s.face?.ci !== 'azure') return
  const stdout = cli.stdout.map((w) => w.text).join('')
  const variables = Object.fromEntries(
    [...stdout.matchAll(/^##vso\[task\.setvariable variable=([^;\]]+);isOutput=true\](.*)$/gm)].map((m) => [
      unescapeAzure(m[1] ?? ''),
      unescapeAzure(m[2] ?? '')
    ])
  )
  expect({ azureVariables: variables }).toEqual({ azureVariables: Object.fromEntries(Object.entries(engine).map(([k, v]) => [variableOf(k), v])) })
  const failedTask = /^##vso\[task\.complete result=Failed;\]$/m.test(stdout)
  expect({ azureTaskFailed: failedTask, exitCode: cli.exitCode }).toEqual({ azureTaskFailed: cli.exitCode !== 0, exitCode: cli.exitCode })
}

/** The run's commit is its CI's (or the one it was given), or none, and a run with a code host's token and no commit is refused before any request. */
export function checkCommit(cli: CliRecord, index: number): void {
  const context = processRecord(index).context
  if (context === undefined) return // refused before the engine asked
  const given = cli.command.commitGiven
  expect({ commit: context.sha, given }).toEqual({ commit: given?.toLowerCase() ?? '', given })
  if ((shown.inputs['github-token'] || shown.inputs['gitlab-token']) && context.sha === '')
    expect({ codeHostTokenWithoutCommit: true, exitCode: cli.exitCode, calls: callsOf(index).length }).toEqual({
      codeHostTokenWithoutCommit: true,
      exitCode: 2,
      calls: 0
    })
}

/** No secret in anything the command printed or wrote: stdout, stderr, the dotenv file, the summary file. */
export function checkCliSecrets(f: Facts, cli: CliRecord, index: number): void {
  const secrets = [
    f.stack.state.settings.password,
    QUERY_SECRET,
    SEARCH_KEY,
    GITHUB_TOKEN,
    GITLAB_TOKEN,
    'ci-secret-123456',
    ...Object.values(cli.command.secrets),
    ...sinkSecrets(f.s.events),
    ...wire.issued.filter((i) => i.run === index).map((i) => i.token),
    ...processRecord(index).masked.filter((m) => m.length >= 8)
  ].filter((s) => s.length >= 8)
  const places = {
    stdout: cli.stdout.map((w) => w.text).join(''),
    stderr: cli.stderr.map((w) => w.text).join(''),
    dotenv: fileText(cli.command.dotenvFile),
    summary: fileText(cli.command.summaryFile)
  }
  for (const [place, text] of Object.entries(places))
    for (const secret of new Set(secrets)) expect({ place, secret: text.includes(secret) ? secret : 'absent' }).toEqual({ place, secret: 'absent' })
}

/**
 * The secrets reach the services as the CI holds them (a file's LF or CRLF line ending is not part of one): the world's
 * credentials are right, so no login of the command is refused as wrong credentials (401 or 403 on the stack's
 * login, invalid_client or invalid_grant at the token endpoint; the world's faults give neither).
 */
export function checkSecretsIntact(cli: CliRecord): void {
  const wrongCredentials = /was refused \(HTTP 40[13]|: HTTP 40[013] (invalid_client|invalid_grant|unauthorized_client)/
  const refused = wrongCredentials.exec(shown.failed ?? '')?.[0]
  expect({ secrets: cli.command.refusal ?? 'as the CI gives them', refusedAsWrong: refused }).toEqual({
    secrets: cli.command.refusal ?? 'as the CI gives them',
    refusedAsWrong: undefined
  })
}

export function checkCli(f: Facts, cli: CliRecord, index: number): void {
  checkExitCode(f, cli, index)
  checkOutputFormats(f, cli, index)
  checkCommit(cli, index)
  checkCliSecrets(f, cli, index)
  checkSecretsIntact(cli)
}
