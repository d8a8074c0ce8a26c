// The brcloud command in-process: the command line and the environment read into the inputs (flags win, secrets
// only from the environment or a file), the port's log masked, and the exit code derived from how a run ended.
import { EventEmitter } from 'node:events'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'yaml'
import { parseCommandLine, type Invocation } from '../src/cli/args.js'
import { EXIT, EXIT_PRECEDENCE, exitCode } from '../src/cli/exit-codes.js'
import { closest, editDistance } from '../src/cli/did-you-mean.js'
import { commandHelp } from '../src/cli/help.js'
import { collectInputs, envName, inputsOf, SECRET_INPUTS, UsageError } from '../src/cli/inputs.js'
import { createCliPort } from '../src/cli/port.js'
import { cliRunContext, giveTheCommit, placeContext } from '../src/cli/run-context.js'
import { CIS, detectCi } from '../src/cli/ci.js'
import { PLACES } from '../src/advice.js'
import { watchSignals } from '../src/cli/signals.js'
import { azureEnding, azureIssue, underAzure } from '../src/cli/azure.js'
import { dotenvOf } from '../src/cli/dotenv.js'
import { emulatorBundle, runEmulator } from '../src/cli/emulator.js'
import { actionPort } from '../src/action/port.js'
import { usePort } from '../src/port.js'
import { INPUT_DEFAULTS } from '../src/action-metadata.js'
import { InputError, LoginRefused, TokenRefused, ActionError } from '../src/errors.js'
import { SearchCheckFailed, type RunEnding } from '../src/main.js'
import { deployedWord, type RunResult } from '../src/report.js'
import { deployResult, releaseOf, searchPassed } from './report-fixtures.js'
import { memoryIo } from './cli-io.js'

const runOf = (args: string[]): Extract<Invocation, { kind: 'run' }> => {
  const invocation = parseCommandLine(args)
  if (invocation.kind !== 'run') throw new Error(`not a run: ${invocation.kind}`)
  return invocation
}

describe('the command line', () => {
  test('every input of action.yml is a flag of deploy and a BRCLOUD_ variable; search-check takes the search inputs', () => {
    expect(inputsOf('deploy')).toEqual(Object.keys(INPUT_DEFAULTS))
    expect(inputsOf('search-check').every((n) => n.startsWith('search-') || n === 'total-timeout-minutes')).toBe(true)
    expect(inputsOf('search-check')).toContain('search-query')
    expect(envName('max-distribution-mb')).toBe('BRCLOUD_MAX_DISTRIBUTION_MB')
  })

  test('a flag wins over its variable; a variable fills what no flag gives', () => {
    const { flags } = runOf(['deploy', '--stack', 'flagged', '--environment=production'])
    const values = collectInputs('deploy', flags, { BRCLOUD_STACK: 'from-env', BRCLOUD_USERNAME: 'ci', BRCLOUD_PASSWORD: 'pw' })
    expect(Object.fromEntries(values)).toMatchObject({ stack: 'flagged', environment: 'production', username: 'ci', password: 'pw' })
  })

  test('--override-reason given empty is refused (a reason left out); an empty variable is no input', () => {
    expect(() => collectInputs('deploy', runOf(['deploy', '--override-reason', '']).flags, {})).toThrow(
      new UsageError('--override-reason is empty: write why this deploy cannot wait for the rule (it is recorded), or leave the flag out.')
    )
    expect(collectInputs('deploy', runOf(['deploy']).flags, { BRCLOUD_OVERRIDE_REASON: '' }).get('override-reason')).toBe('')
    expect(collectInputs('deploy', runOf(['deploy', '--override-reason=hotfix INC-9']).flags, {}).get('override-reason')).toBe('hotfix INC-9')
  })

  test('search-check ignores the deployment variables a shared environment may hold', () => {
    const values = collectInputs('search-check', runOf(['search-check', '--search-query', 'shirt']).flags, { BRCLOUD_DISTRIBUTION: 'x.tar.gz' })
    expect(Object.fromEntries(values)).toEqual({ 'search-query': 'shirt' })
  })

  test('a secret as a flag is refused, naming its variable and its file flag, in any position and form', () => {
    for (const args of [
      ['deploy', '--password', 'pw'],
      ['deploy', '--password=pw'],
      ['--github-token', 't', 'deploy'],
      ['search-check', '--search-auth-key', 'k']
    ]) {
      expect(() => parseCommandLine(args)).toThrow(UsageError)
    }
    expect(() => parseCommandLine(['deploy', '--password=pw'])).toThrow(/--password \(set BRCLOUD_PASSWORD, or --password-file FILE\)/)
    expect(() => parseCommandLine(['deploy', '--password=pw'])).not.toThrow(/pw\b.*pw/)
  })

  test("every input action.yml takes from a secret is a secret of the CLI (the event sinks' too), and docs/cli.md names each", () => {
    const action = parse(readFileSync(new URL('../action.yml', import.meta.url), 'utf8')) as { inputs: Record<string, { description: string }> }
    // The user name is "passed from a secret" in a workflow, yet no secret on a command line: --username stays a flag.
    const fromSecret = Object.entries(action.inputs)
      .filter(([name, spec]) => /from a secret/i.test(spec.description) && name !== 'username')
      .map(([name]) => name)
    expect(fromSecret).toEqual(expect.arrayContaining(['events-token', 'slack-webhook-url', 'new-relic-api-key']))
    expect(SECRET_INPUTS).toEqual(expect.arrayContaining(fromSecret))
    const cliDoc = readFileSync(new URL('../docs/cli.md', import.meta.url), 'utf8')
    const secretsParagraph = /\*\*Secrets\*\*[^]*?\n\n/.exec(cliDoc)?.[0] ?? ''
    for (const name of SECRET_INPUTS) expect(secretsParagraph).toContain(`\`${name}\``)
    for (const name of SECRET_INPUTS) expect(() => parseCommandLine(['deploy', `--${name}=x`])).toThrow(`set ${envName(name)}`)
  })

  test('a secret from its file, the flag over the variable, only the final line break dropped', () => {
    const dir = mkdtempSync(join(tmpdir(), 'brcd-cli-'))
    writeFileSync(join(dir, 'a'), ' secret one \n')
    writeFileSync(join(dir, 'b'), 'secret two')
    const flags = runOf(['deploy', '--password-file', join(dir, 'a')]).flags
    expect(collectInputs('deploy', flags, { BRCLOUD_PASSWORD_FILE: join(dir, 'b'), BRCLOUD_PASSWORD: 'three' }).get('password')).toBe(' secret one ')
    expect(collectInputs('deploy', {}, { BRCLOUD_PASSWORD_FILE: join(dir, 'b') }).get('password')).toBe('secret two')
    expect(() => collectInputs('deploy', {}, { BRCLOUD_PASSWORD_FILE: join(dir, 'missing') })).toThrow(/The password file .* could not be read \(ENOENT\)/)
  })

  test('a secret file written on Windows: its final CRLF is not part of it, for every secret; a CR inside stays', () => {
    const dir = mkdtempSync(join(tmpdir(), 'brcd-cli-'))
    for (const name of SECRET_INPUTS) {
      const file = join(dir, name)
      writeFileSync(file, `${name}-value\r\n`)
      expect(collectInputs('deploy', runOf(['deploy', `--${name}-file`, file]).flags, {}).get(name)).toBe(`${name}-value`)
      expect(collectInputs('deploy', {}, { [`${envName(name)}_FILE`]: file }).get(name)).toBe(`${name}-value`)
    }
    writeFileSync(join(dir, 'inner'), 'a\rb\r\n')
    expect(collectInputs('deploy', {}, { BRCLOUD_PASSWORD_FILE: join(dir, 'inner') }).get('password')).toBe('a\rb')
  })

  test('a mistyped flag: the flag it most likely meant, by edit distance; none when nothing is near', () => {
    const refused = (args: string[]): string => {
      try {
        parseCommandLine(args)
      } catch (error) {
        return (error as Error).message
      }
      throw new Error('not refused')
    }
    expect(refused(['deploy', '--enviroment', 'production'])).toBe(
      'unknown flag --enviroment: did you mean --environment? (brcloud deploy --help lists the flags)'
    )
    expect(refused(['deploy', '--helth-url=https://x/'])).toMatch(/^unknown flag --helth-url: did you mean --health-url\?/)
    expect(refused(['deploy', '--disrtibution', 'x'])).toMatch(/did you mean --distribution\?/)
    expect(refused(['search-check', '--search-qeury', 'x'])).toMatch(
      /^unknown flag --search-qeury: did you mean --search-query\? \(brcloud search-check --help/
    )
    expect(refused(['deploy', '--githubtoken', 'x'])).toMatch(/did you mean --github-token-file FILE \(or BRCLOUD_GITHUB_TOKEN\)\?/)
    expect(refused(['deploy', '--frobnicate'])).toBe('unknown flag --frobnicate (brcloud deploy --help lists the flags).')
    expect(refused(['--jsno'])).toMatch(/^unknown flag --jsno: did you mean --json\? \(brcloud --help/)
    expect(editDistance('enviroment', 'environment')).toBe(1)
    expect(editDistance('ab', 'ba')).toBe(1)
    expect(closest('stak', ['stack', 'state'])).toBe('stack')
    expect(closest('x', ['stack'])).toBeUndefined()
  })

  test('unknown flags and commands, and stray words, are usage errors that repeat no value', () => {
    expect(() => parseCommandLine(['deploy', '--pasword=hunter2'])).toThrow(
      'unknown flag --pasword: did you mean --password-file FILE (or BRCLOUD_PASSWORD)? (brcloud deploy --help lists the flags)'
    )
    expect(() => parseCommandLine(['deploy', '--pasword=hunter2'])).not.toThrow(/hunter2/)
    expect(() => parseCommandLine(['ship'])).toThrow(/Unknown command 'ship'/)
    expect(() => parseCommandLine(['deploy', 'hunter2'])).not.toThrow(/hunter2/)
    expect(() => parseCommandLine(['deploy', 'hunter2'])).toThrow(UsageError)
    expect(new UsageError('x')).toBeInstanceOf(InputError)
  })

  test("only a secret has a file flag; a flag without its value is refused in parseArgs' words, with where the flags are", () => {
    expect(() => parseCommandLine(['deploy', '--environment-file', 'env.txt'])).toThrow(/^unknown flag --environment-file/)
    expect(runOf(['deploy', '--password-file', 'pw.txt']).flags['password-file']).toBe('pw.txt')
    expect(() => parseCommandLine(['deploy', '--environment'])).toThrow(
      new UsageError("Option '--environment <value>' argument missing (brcloud deploy --help).")
    )
  })

  test("help, version, and the CLI's own flags", () => {
    expect(parseCommandLine([])).toEqual({ kind: 'help', command: undefined })
    expect(parseCommandLine(['--version'])).toEqual({ kind: 'version' })
    expect(parseCommandLine(['search-check', '-h'])).toEqual({ kind: 'help', command: 'search-check' })
    expect(runOf(['deploy', '--json', '--summary', 's.md', '--debug'])).toMatchObject({ json: true, summaryFile: 's.md', debug: true })
  })
})

describe('the port', () => {
  const port = (over: Partial<Parameters<typeof createCliPort>[0]> = {}) => {
    const written: string[] = []
    const p = createCliPort({
      values: new Map([['password', ' pw ']]),
      write: (t) => written.push(t),
      colour: false,
      debug: false,
      summaryFile: undefined,
      context: cliRunContext({}, {}),
      ...over
    })
    return { p, written }
  }

  test('every line masked, groups as a heading, annotations labelled, no workflow command', async () => {
    const { p, written } = port()
    p.setSecret('s3cr3t')
    p.info('token s3cr3t here')
    p.warning('careful s3cr3t')
    await p.group('Log in', async () => p.error('refused'))
    p.debug('hidden without --debug')
    expect(written.join('')).toBe('token *** here\nwarning: careful ***\n== Log in\nerror: refused\n')
  })

  test("--summary's file is masked like every line", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'brcd-summary-')), 's.md')
    const { p } = port({ summaryFile: file })
    p.setSecret('s3cr3t')
    expect(await p.writeSummary('## Deployed with s3cr3t\n')).toBe(true)
    expect(readFileSync(file, 'utf8')).toBe('## Deployed with ***\n')
  })

  test('with no --summary and no runner to take it, the summary is not written, and the run is told so', async () => {
    const { p, written } = port()
    expect(await p.writeSummary('## Deployed\n')).toBe(false)
    expect(written).toEqual([])
  })

  test('inputs trimmed unless asked otherwise; outputs kept for --json; colour only when asked', () => {
    const { p, written } = port({ colour: true })
    expect(p.getInput('password')).toBe('pw')
    expect(p.getInput('password', { trimWhitespace: false })).toBe(' pw ')
    expect(p.getInput('stack')).toBe('')
    p.setOutput('deployed', 'true')
    expect(p.outputs).toEqual({ deployed: 'true' })
    p.warning('w')
    p.error('e')
    expect(written).toEqual(['\u001b[33mwarning: w\u001b[0m\n', '\u001b[31merror: e\u001b[0m\n'])
  })

  test('a secret inside another is masked whole: the longest first, whatever order they came in', () => {
    const { p, written } = port()
    p.setSecret('abc')
    p.setSecret('abcdef')
    p.info('refresh abcdef, access abc')
    expect(written).toEqual(['refresh ***, access ***\n'])
  })
})

describe('the exit code, from how the run ended', () => {
  const result = (over: Partial<RunResult> = {}): RunResult => ({
    deploys: true,
    deploy: deployResult(),
    search: undefined,
    phases: [],
    error: 'failed',
    ...over
  })
  const code = (over: Partial<RunResult>, failure: unknown = new ActionError('failed')): number => exitCode({ result: result(over), failure } as RunEnding)
  const failedRelease = (states: Parameters<typeof releaseOf>[0], over: Parameters<typeof releaseOf>[1] = {}) =>
    deployResult({ release: releaseOf(states, over) })

  test('success, and the stops by signal', () => {
    expect(code({ error: undefined }, undefined)).toBe(EXIT.success)
    expect(code({ stopped: 'cancel' })).toBe(130)
    expect(code({ stopped: 'terminate' })).toBe(143)
    expect(code({ stopped: 'watchdog', deploy: deployResult({ release: undefined }) })).toBe(EXIT.failure)
  })

  test('bad input', () => {
    expect(code({ deploy: undefined }, new InputError('bad'))).toBe(2)
  })

  test('what the environment runs first: rolled back, or our release possibly live', () => {
    expect(code({ deploy: failedRelease(['requested', 'applied', 'failed', 'rollback-requested', 'rollback-applied', 'rollback-healthy']) })).toBe(5)
    expect(code({ deploy: failedRelease(['requested', 'applied', 'failed']) })).toBe(6)
    expect(code({ deploy: failedRelease(['unconfirmed', 'failed']), search: { ...searchPassed, passed: false } }, new SearchCheckFailed('x'))).toBe(6)
    expect(code({ deploy: failedRelease(['requested', 'replaced']) })).toBe(EXIT.failure)
  })

  test('a deploy whose outcome is unknown (the call got no answer, no look settled it): it may be live, exit 6, whatever failed', () => {
    // The last look still shows the previous distribution: nothing settles whether ours went out (deployed: unknown).
    const unconfirmed = deployResult({
      release: releaseOf(['unconfirmed', 'failed'], { failure: { kind: 'unconfirmed', message: 'no answer' } }),
      finalLook: { distributionId: 'dist-0', status: undefined, at: 1_003_000 }
    })
    expect(deployedWord(unconfirmed)).toBe('unknown')
    expect(code({ deploy: unconfirmed })).toBe(EXIT.possiblyLive)
    expect(code({ deploy: unconfirmed, stopped: 'watchdog' })).toBe(EXIT.possiblyLive)
    expect(code({ deploy: unconfirmed }, new LoginRefused('renewal refused', 401))).toBe(EXIT.possiblyLive)
  })

  test('an environment that stayed busy is exit 3; a release that ended still waiting for another reason is not (found by the simulation)', () => {
    expect(code({ deploy: failedRelease(['waiting', 'failed'], { failure: { kind: 'busy', message: 'busy' } }) })).toBe(EXIT.refused)
    // The environment deleted, or the platform unreachable, while the release waited: any other failure (it was 3).
    expect(code({ deploy: failedRelease(['waiting']) })).toBe(EXIT.failure)
    expect(code({ deploy: failedRelease(['waiting']) }, new LoginRefused('renewal refused', 401))).toBe(EXIT.loginRefused)
    expect(code({ deploy: failedRelease(['waiting']), stopped: 'watchdog' })).toBe(EXIT.failure)
  })

  test("docs/cli.md's table: every code of EXIT, in the order exitCode() tries them; --help lists each", () => {
    const doc = readFileSync(new URL('../docs/cli.md', import.meta.url), 'utf8')
    const table = /## Exit codes\n[^]*?\n(\| Code \| Meaning \|\n\|[^\n]*\n(?:\|[^\n]*\n)+)/.exec(doc)?.[1] ?? ''
    const rows = [...table.matchAll(/^\| (\d+) \|/gm)].map((m) => Number(m[1]))
    expect(rows).toEqual(EXIT_PRECEDENCE)
    expect([...EXIT_PRECEDENCE].sort((a, b) => a - b)).toEqual(Object.values(EXIT).sort((a, b) => a - b))
    for (const [what, value] of Object.entries(EXIT)) expect(commandHelp('deploy')).toContain(`${value} ${what}`)
  })

  test('refusals before any deploy: the order, a busy environment, the login', () => {
    const order = { order: 'behind', refused: true } as unknown as NonNullable<Parameters<typeof deployResult>[0]>['order']
    expect(code({ deploy: deployResult({ release: undefined, order }) })).toBe(3)
    // Found by a fresh seed (335533158): the watchdog cut the order's GitHub call short; "not checked" is the stop's: 1.
    const cut = { order: 'unknown', failed: true, refused: true } as unknown as NonNullable<Parameters<typeof deployResult>[0]>['order']
    expect(code({ deploy: deployResult({ release: undefined, order: cut }), stopped: 'watchdog' })).toBe(EXIT.failure)
    expect(code({ deploy: deployResult({ release: undefined, order: cut }) })).toBe(3)
    // An order refused as older (it was read whole): a refusal, whatever stopped the run after it.
    expect(code({ deploy: deployResult({ release: undefined, order }), stopped: 'watchdog' })).toBe(3)
    // Checked again in the release and refused there (fresh seed 1250452833): 3, also when the watchdog came after.
    const olderInRelease = failedRelease(['waiting', 'failed'], { failure: { kind: 'older', message: 'Refused: older' } })
    expect(code({ deploy: olderInRelease })).toBe(3)
    expect(code({ deploy: olderInRelease, stopped: 'watchdog' })).toBe(3)
    expect(code({ deploy: failedRelease(['waiting', 'failed'], { failure: { kind: 'busy', message: 'busy' } }) })).toBe(3)
    expect(code({ deploy: deployResult({ release: undefined, platformReached: false }) }, new LoginRefused('refused', 401))).toBe(4)
    expect(code({ deploy: deployResult({ release: undefined }) }, new TokenRefused('refused'))).toBe(4)
    expect(code({ deploy: deployResult({ release: undefined }) }, Object.assign(new ActionError('endpoint'), { loginRefused: true }))).toBe(4)
  })

  test('a failed search check without a deployment, and any other failure', () => {
    expect(code({ deploys: false, deploy: undefined, search: { ...searchPassed, passed: false } }, new SearchCheckFailed('x'))).toBe(7)
    // Found by the simulation: the deploy step checks the search itself when the environment already ran the
    // distribution, or after another deploy replaced ours, and fails with its message: still 7, as docs/cli.md says.
    const searchFailed = { ...searchPassed, passed: false }
    const failure = new ActionError('Search check failed: no result')
    expect(code({ deploy: deployResult({ release: releaseOf(['already-running']), skipped: true }), search: searchFailed }, failure)).toBe(7)
    expect(code({ deploy: failedRelease(['requested', 'applied', 'replaced']), search: searchFailed }, failure)).toBe(7)
    // Found by a fresh seed (1474245754): a search check the watchdog cut short reached no verdict: the watchdog's 1.
    const watchdog = new ActionError('The deployment did not finish within total-timeout-minutes (1.28 min).')
    expect(
      code({ deploy: deployResult({ release: releaseOf(['already-running']), skipped: true }), search: searchFailed, stopped: 'watchdog' }, watchdog)
    ).toBe(EXIT.failure)
    expect(code({ deploy: deployResult({ release: undefined }) }, new Error('ECONNRESET'))).toBe(EXIT.failure)
  })
})

describe('signals: the third ends the command at once', () => {
  test("the first two are the run's (cancel, then report at once); the third ends with the first one's code", () => {
    const source = new EventEmitter()
    const ends: Array<[number, string]> = []
    watchSignals(source as Parameters<typeof watchSignals>[0], (code, message) => ends.push([code, message]))
    source.emit('SIGTERM', 'SIGTERM')
    source.emit('SIGINT', 'SIGINT')
    expect(ends).toEqual([])
    source.emit('SIGINT', 'SIGINT')
    expect(ends).toEqual([[143, expect.stringMatching(/^A third signal \(SIGINT\): ended at once, without the report\. .*within 24 hours\.$/)]])
    const ctrlC = new EventEmitter()
    const codes: number[] = []
    watchSignals(ctrlC as Parameters<typeof watchSignals>[0], (code) => codes.push(code))
    for (let i = 0; i < 3; i++) ctrlC.emit('SIGINT', 'SIGINT')
    expect(codes).toEqual([130])
  })
})

describe("the run's context: the commit and the repository outside GitHub's runner", () => {
  const sha = 'a'.repeat(40)
  const context = (flags: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) => cliRunContext(flags, env)

  test('--commit, then BRCLOUD_COMMIT, then the variable of the CI the job runs in', () => {
    const jenkins = { JENKINS_URL: 'https://ci.example/', GIT_COMMIT: 'c'.repeat(40) }
    expect(context({ commit: sha.toUpperCase() }, { BRCLOUD_COMMIT: 'b'.repeat(40), ...jenkins }).sha).toBe(sha)
    expect(context({}, { BRCLOUD_COMMIT: 'b'.repeat(40), ...jenkins }).sha).toBe('b'.repeat(40))
    expect(context({}, jenkins).sha).toBe('c'.repeat(40))
    // The CI's own variable only: another CI's, left in a job's environment, is not read.
    expect(context({}, { GITLAB_CI: 'true', GIT_COMMIT: sha }).sha).toBe('')
    const none = context({})
    expect(none).toMatchObject({ sha: '', repository: '', workspace: process.cwd(), place: 'terminal' })
    expect(none.noCommit).toMatch(/^no --commit or BRCLOUD_COMMIT, and no CI's commit variable \(GITHUB_SHA, GIT_COMMIT, CI_COMMIT_SHA, .*TRAVIS_COMMIT\)$/)
    expect(context({}, { CIRCLECI: 'true' }).noCommit).toBe("no --commit or BRCLOUD_COMMIT, and CircleCI's CIRCLE_SHA1 is not set")
    // No CI found by its marker (a job's variables passed on in part, into a container): any CI's commit variable.
    for (const name of ['GIT_COMMIT', 'CI_COMMIT_SHA', 'BUILD_SOURCEVERSION', 'GITHUB_SHA', 'CIRCLE_SHA1', 'TRAVIS_COMMIT'])
      expect(context({}, { [name]: sha }).sha).toBe(sha)
    expect(cliRunContext({}, {}, '/work/site').workspace).toBe('/work/site')
  })

  test('a commit or a repository of the wrong form is a usage error naming where it came from', () => {
    expect(() => context({ commit: 'main' })).toThrow(UsageError)
    expect(() => context({}, { GITLAB_CI: 'true', CI_COMMIT_SHA: 'not-a-sha' })).toThrow(
      "CI_COMMIT_SHA is not a commit SHA (7 to 64 hexadecimal digits, the full SHA best): 'not-a-sha'. Give the commit with --commit SHA or BRCLOUD_COMMIT."
    )
    // Buildkite's may be HEAD, for a build started without a commit.
    expect(() => context({}, { BUILDKITE: 'true', BUILDKITE_COMMIT: 'HEAD' })).toThrow(
      /^BUILDKITE_COMMIT is not a commit SHA .*'HEAD'\. Give the commit with --commit/
    )
    expect(() => context({ commit: 'HEAD' })).toThrow(/^--commit is not a commit SHA .*'HEAD'\.$/)
    expect(() => context({ repository: 'acme' })).toThrow(/--repository is not a GitHub repository as owner\/name/)
  })

  test('each refusal and each advice in its exact words, naming the variable it read', () => {
    // A malformed BRCLOUD_COMMIT is already what the advice names: no advice added.
    expect(() => context({}, { BRCLOUD_COMMIT: 'xyz' })).toThrow(
      new UsageError("BRCLOUD_COMMIT is not a commit SHA (7 to 64 hexadecimal digits, the full SHA best): 'xyz'.")
    )
    expect(() => context({ commit: 'xyz' })).toThrow(new UsageError("--commit is not a commit SHA (7 to 64 hexadecimal digits, the full SHA best): 'xyz'."))
    expect(() => context({}, { BRCLOUD_REPOSITORY: 'acme' })).toThrow(new UsageError("BRCLOUD_REPOSITORY is not a GitHub repository as owner/name: 'acme'."))
    expect(() => context({}, { GITHUB_REPOSITORY: 'acme' })).toThrow(new UsageError("GITHUB_REPOSITORY is not a GitHub repository as owner/name: 'acme'."))
    // A CI with two commit variables names both.
    expect(context({}, { DRONE: 'true' }).noCommit).toBe("no --commit or BRCLOUD_COMMIT, and Drone's DRONE_COMMIT_SHA or DRONE_COMMIT is not set")
    expect(giveTheCommit({})).toBe('give it with --commit SHA or BRCLOUD_COMMIT (e.g. --commit "$(git rev-parse HEAD)")')
    expect(giveTheCommit({ DRONE: 'true' })).toBe(
      'give it with --commit SHA or BRCLOUD_COMMIT (Drone sets DRONE_COMMIT_SHA or DRONE_COMMIT when it builds from a commit; it is not set in this job)'
    )
  })

  test('a blank flag or variable is not set: the next one is read, and a value is read without its blanks', () => {
    expect(context({ commit: '   ' }, { BRCLOUD_COMMIT: sha }).sha).toBe(sha)
    expect(context({ commit: '' }, { BRCLOUD_COMMIT: sha }).sha).toBe(sha)
    expect(context({}, { BRCLOUD_COMMIT: ` ${sha}\n` }).sha).toBe(sha)
    expect(context({ repository: ' ' }, { BRCLOUD_REPOSITORY: ' acme/site ' }).repository).toBe('acme/site')
  })

  test('the place alone (what a refused command line reports with) has no commit and no repository, whatever was given', () => {
    const place = placeContext({ BRCLOUD_COMMIT: sha, BRCLOUD_REPOSITORY: 'acme/site', GITHUB_REPOSITORY: 'acme/site', CIRCLECI: 'true' }, '/w')
    expect(place).toMatchObject({ sha: '', repository: '', workspace: '/w', place: expect.any(String) })
  })

  test("--repository, then BRCLOUD_REPOSITORY, then the runner's", () => {
    expect(context({ repository: 'acme/site' }, { BRCLOUD_REPOSITORY: 'other/x' }).repository).toBe('acme/site')
    expect(context({}, { BRCLOUD_REPOSITORY: 'other/x', GITHUB_REPOSITORY: 'gh/y' }).repository).toBe('other/x')
    expect(context({}, { GITHUB_REPOSITORY: 'gh/y' }).repository).toBe('gh/y')
  })

  // Each CI as its documentation names its variables (docs/cli.md, "The CIs it knows").
  const CI_JOBS: Array<[string, NodeJS.ProcessEnv, Partial<ReturnType<typeof cliRunContext>>]> = [
    [
      'GitHub Actions (a run: step)',
      {
        GITHUB_ACTIONS: 'true',
        GITHUB_SHA: sha,
        GITHUB_REPOSITORY: 'acme/site',
        GITHUB_RUN_ID: '42',
        GITHUB_RUN_ATTEMPT: '3',
        GITHUB_ACTOR: 'octocat',
        CI_PIPELINE_ID: '9',
        BUILD_URL: 'https://jenkins.example/1/'
      },
      {
        place: 'github-actions',
        sha,
        repository: 'acme/site',
        runUrl: 'https://github.com/acme/site/actions/runs/42',
        runId: '42',
        runAttempt: '3',
        actor: 'octocat'
      }
    ],
    [
      'Jenkins',
      {
        JENKINS_URL: 'https://jenkins.example/',
        GIT_COMMIT: sha,
        BUILD_URL: 'https://jenkins.example/job/site/7/',
        BUILD_TAG: 'jenkins-site-7',
        BUILD_NUMBER: '7',
        BUILD_USER_ID: 'ann'
      },
      { place: 'jenkins', sha, runUrl: 'https://jenkins.example/job/site/7/', runId: 'jenkins-site-7', runAttempt: '1', actor: 'ann' }
    ],
    [
      'Jenkins, by its BUILD_TAG alone',
      { BUILD_TAG: 'jenkins-site-7', BUILD_NUMBER: '7' },
      { place: 'jenkins', runId: 'jenkins-site-7', runAttempt: '1', actor: undefined }
    ],
    [
      'GitLab CI',
      {
        GITLAB_CI: 'true',
        CI_COMMIT_SHA: sha,
        CI_JOB_URL: 'https://gitlab.example/acme/site/-/jobs/901',
        CI_PIPELINE_ID: '900',
        CI_JOB_ID: '901',
        GITLAB_USER_LOGIN: 'bob'
      },
      { place: 'gitlab', sha, runUrl: 'https://gitlab.example/acme/site/-/jobs/901', runId: '900', runAttempt: '901', actor: 'bob' }
    ],
    [
      'Azure Pipelines',
      {
        TF_BUILD: 'True',
        BUILD_SOURCEVERSION: sha,
        SYSTEM_COLLECTIONURI: 'https://dev.azure.com/acme/',
        SYSTEM_TEAMPROJECT: 'web site',
        BUILD_BUILDID: '12',
        SYSTEM_JOBATTEMPT: '2',
        BUILD_REQUESTEDFOR: 'Carol'
      },
      { place: 'azure-pipelines', sha, runUrl: 'https://dev.azure.com/acme/web%20site/_build/results?buildId=12', runId: '12', runAttempt: '2', actor: 'Carol' }
    ],
    [
      'CircleCI',
      {
        CIRCLECI: 'true',
        CIRCLE_SHA1: sha,
        CIRCLE_BUILD_URL: 'https://circleci.com/gh/acme/site/77',
        CIRCLE_WORKFLOW_ID: 'wf-1',
        CIRCLE_BUILD_NUM: '77',
        CIRCLE_USERNAME: 'dave'
      },
      { place: 'circleci', sha, runUrl: 'https://circleci.com/gh/acme/site/77', runId: 'wf-1', runAttempt: '77', actor: 'dave' }
    ],
    [
      'Bitbucket Pipelines',
      {
        CI: 'true',
        BITBUCKET_BUILD_NUMBER: '31',
        BITBUCKET_COMMIT: sha,
        BITBUCKET_REPO_FULL_NAME: 'acme/site',
        BITBUCKET_PIPELINE_UUID: '{p-uuid}',
        BITBUCKET_STEP_UUID: '{s-uuid}',
        BITBUCKET_STEP_TRIGGERER_UUID: '{u-uuid}'
      },
      { place: 'bitbucket', sha, runUrl: 'https://bitbucket.org/acme/site/pipelines/results/31', runId: 'p-uuid', runAttempt: 's-uuid', actor: 'u-uuid' }
    ],
    [
      'Buildkite',
      {
        BUILDKITE: 'true',
        BUILDKITE_COMMIT: sha,
        BUILDKITE_BUILD_URL: 'https://buildkite.com/acme/site/builds/5',
        BUILDKITE_BUILD_ID: 'b-1',
        BUILDKITE_JOB_ID: 'j-2',
        BUILDKITE_BUILD_CREATOR: 'Erin'
      },
      { place: 'buildkite', sha, runUrl: 'https://buildkite.com/acme/site/builds/5', runId: 'b-1', runAttempt: 'j-2', actor: 'Erin' }
    ],
    [
      'TeamCity',
      { TEAMCITY_VERSION: '2025.07', BUILD_VCS_NUMBER: sha, TEAMCITY_PROJECT_NAME: 'Site', TEAMCITY_BUILDCONF_NAME: 'Deploy', BUILD_NUMBER: '8' },
      { place: 'teamcity', sha, runUrl: undefined, runId: 'Site/Deploy/8', runAttempt: '1', actor: undefined }
    ],
    [
      'Drone',
      {
        DRONE: 'true',
        DRONE_COMMIT_SHA: sha,
        DRONE_BUILD_LINK: 'https://drone.example/acme/site/12',
        DRONE_REPO: 'acme/site',
        DRONE_BUILD_NUMBER: '12',
        DRONE_BUILD_TRIGGER: 'frank'
      },
      { place: 'drone', sha, runUrl: 'https://drone.example/acme/site/12', runId: 'acme/site/12', runAttempt: '1', actor: 'frank' }
    ],
    [
      'Travis CI',
      {
        TRAVIS: 'true',
        TRAVIS_COMMIT: sha,
        TRAVIS_BUILD_WEB_URL: 'https://app.travis-ci.com/acme/site/builds/3',
        TRAVIS_JOB_WEB_URL: 'https://app.travis-ci.com/acme/site/jobs/4',
        TRAVIS_BUILD_ID: '3',
        TRAVIS_JOB_ID: '4'
      },
      { place: 'travis', sha, runUrl: 'https://app.travis-ci.com/acme/site/jobs/4', runId: '3', runAttempt: '4', actor: undefined }
    ]
  ]

  test.each(CI_JOBS)("%s: its commit, its page of the run, its run's id, attempt and user, and the place for advice", (_, env, expected) => {
    expect(context({}, env)).toMatchObject(expected)
  })

  test("a CI's variables with blanks around them: trimmed; a blank one is not set", () => {
    const env = {
      GITLAB_CI: ' true ',
      CI_JOB_URL: ' https://gitlab.example/acme/site/-/jobs/7 \n',
      CI_PIPELINE_ID: ' 41 ',
      CI_JOB_ID: '7 ',
      GITLAB_USER_LOGIN: '  '
    }
    expect(context({}, env)).toMatchObject({
      place: 'gitlab',
      runUrl: 'https://gitlab.example/acme/site/-/jobs/7',
      runId: '41',
      runAttempt: '7',
      actor: undefined
    })
  })

  test("Bitbucket's braces come off only a value wholly in them", () => {
    const env = { BITBUCKET_BUILD_NUMBER: '9', BITBUCKET_PIPELINE_UUID: '{p-1}', BITBUCKET_STEP_UUID: 'x{s-1}', BITBUCKET_STEP_TRIGGERER_UUID: '{u-1}x' }
    expect(context({}, env)).toMatchObject({ place: 'bitbucket', runId: 'p-1', runAttempt: 'x{s-1}', actor: '{u-1}x' })
  })

  test("an id made of parts (Drone, TeamCity) only when every part is set; else the process's own", () => {
    expect(context({}, { DRONE: 'true', DRONE_REPO: 'acme/site', DRONE_BUILD_NUMBER: '12' }).runId).toBe('acme/site/12')
    expect(context({}, { DRONE: 'true', DRONE_REPO: 'acme/site' }).runId).toMatch(/^local-/)
    expect(context({}, { TEAMCITY_VERSION: '2024.1', TEAMCITY_PROJECT_NAME: 'Site', BUILD_NUMBER: '3' }).runId).toMatch(/^local-/)
  })

  test('GitHub Actions told by its run id too, without GITHUB_ACTIONS (a job passing its variables on in part)', () => {
    expect(context({}, { GITHUB_RUN_ID: '77', GITHUB_REPOSITORY: 'acme/site' })).toMatchObject({
      place: 'github-actions',
      runId: '77',
      // github.com when no server is given; the run's page needs both the repository and the run.
      runUrl: 'https://github.com/acme/site/actions/runs/77'
    })
    expect(context({}, { GITHUB_RUN_ID: '77' }).runUrl).toBeUndefined()
  })

  test('Jenkins told by JENKINS_HOME, or a BUILD_TAG that begins jenkins-; a Bitbucket page only with its repository', () => {
    expect(context({}, { JENKINS_HOME: '/var/jenkins_home' }).place).toBe('jenkins')
    expect(context({}, { BUILD_TAG: 'jenkins-site-3' }).place).toBe('jenkins')
    expect(context({}, { BUILD_TAG: 'x-jenkins-3' }).place).toBe('terminal')
    expect(context({}, { BITBUCKET_BUILD_NUMBER: '9' }).runUrl).toBeUndefined()
  })

  test('a terminal: a random id of the process, the first attempt, nobody', () => {
    const local = context({})
    expect(local).toMatchObject({ runAttempt: '1', actor: undefined, runUrl: undefined, place: 'terminal' })
    expect(local.runId).toMatch(/^local-[0-9a-f-]{36}$/)
    expect(context({}).runId).toBe(local.runId)
  })

  test('docs/cli.md names every CI the command knows, with its marker and variables', () => {
    const doc = readFileSync(new URL('../docs/cli.md', import.meta.url), 'utf8')
    const table = /## The CIs it knows\n[^]*?\n\n(\|[^]*?)\n\n/.exec(doc)?.[1] ?? ''
    for (const ci of CIS) {
      const row = table.split('\n').find((line) => line.includes(`| ${PLACES[ci.place].name} |`)) ?? ''
      expect(row).toContain(ci.marker.split(' ')[0] ?? '')
      for (const variable of ci.commit) expect(row).toContain(`\`${variable}\``)
    }
    expect(CI_JOBS.map(([, env]) => detectCi(env)?.place)).toEqual(expect.arrayContaining(CIS.map((ci) => ci.place)))
  })

  test('the engine learns them through the port: the default name, and the GitHub client of a Deployment', async () => {
    const { defaultDistributionName } = await import('../src/distribution.js')
    const { GitHubApi } = await import('../src/github/client.js')
    const run = context({ commit: sha, repository: 'acme/site' }, { JENKINS_URL: 'https://jenkins.example/', BUILD_URL: 'https://jenkins.example/job/site/7/' })
    usePort(createCliPort({ values: new Map(), write: () => undefined, colour: false, debug: false, summaryFile: undefined, context: run }))
    try {
      expect(await defaultDistributionName('/work/anything')).toBe('site-aaaaaaa-distribution.tar.gz')
      const github = await GitHubApi.open('token')
      expect(github).toMatchObject({
        repo: { owner: 'acme', repo: 'site' },
        sha,
        runUrl: 'https://jenkins.example/job/site/7/',
        repoUrl: 'https://github.com/acme/site'
      })
    } finally {
      usePort(actionPort)
    }
  })
})

describe('the output formats of CI systems', () => {
  const outputs = { deployed: 'true', 'distribution-id': 'abc', 'release-state': 'verified' }

  test("--dotenv: BRCLOUD_<OUTPUT>=value lines; a value GitLab's dotenv cannot hold is left out with a warning", () => {
    const warnings: string[] = []
    const text = dotenvOf({ ...outputs, 'distribution-name': 'two\nlines', order: ' padded', 'running-commit': '"quoted' }, (m) => warnings.push(m))
    expect(text).toBe('BRCLOUD_DEPLOYED=true\nBRCLOUD_DISTRIBUTION_ID=abc\nBRCLOUD_RELEASE_STATE=verified\n')
    expect(warnings).toEqual([
      "--dotenv: distribution-name is left out of the file: GitLab's dotenv cannot hold its value, because it holds a line break.",
      "--dotenv: order is left out of the file: GitLab's dotenv cannot hold its value, because it begins or ends with a blank.",
      "--dotenv: running-commit is left out of the file: GitLab's dotenv cannot hold its value, because it begins with a quote."
    ])
  })

  test("Azure Pipelines: output variables, escaped as the agent's task library does; the failure as an issue, the task failed", () => {
    expect(underAzure({ TF_BUILD: 'True' })).toBe(true)
    expect(underAzure({})).toBe(false)
    expect(azureEnding(outputs, undefined)).toBe(
      '##vso[task.setvariable variable=BRCLOUD_DEPLOYED;isOutput=true]true\n' +
        '##vso[task.setvariable variable=BRCLOUD_DISTRIBUTION_ID;isOutput=true]abc\n' +
        '##vso[task.setvariable variable=BRCLOUD_RELEASE_STATE;isOutput=true]verified\n'
    )
    expect(azureEnding({ order: '100%;]\r\nx' }, 'Failed: 50% done;\nsee [log]')).toBe(
      '##vso[task.setvariable variable=BRCLOUD_ORDER;isOutput=true]100%AZP25;]%0D%0Ax\n' +
        '##vso[task.logissue type=error]Failed: 50%AZP25 done;%0Asee [log]\n' +
        '##vso[task.complete result=Failed;]\n'
    )
    expect(azureIssue('warning', 'w')).toBe('##vso[task.logissue type=warning]w\n')
  })

  test('under Azure, warnings and errors go to its issues, masked; the failure is kept for the end, not printed twice', () => {
    const issues: string[] = []
    const written: string[] = []
    const p = createCliPort({
      values: new Map(),
      write: (t) => written.push(t),
      colour: false,
      debug: false,
      summaryFile: undefined,
      context: cliRunContext({}, {}),
      issue: (type, message) => issues.push(azureIssue(type, message))
    })
    p.setSecret('s3cr3t')
    p.warning('careful s3cr3t')
    p.error('odd')
    p.setFailed('failed with s3cr3t')
    p.setOutput('order', 'x s3cr3t')
    expect(issues).toEqual(['##vso[task.logissue type=warning]careful ***\n', '##vso[task.logissue type=error]odd\n'])
    expect(written).toEqual([])
    expect(p.failure).toBe('failed with ***')
    expect(p.outputs).toEqual({ order: 'x ***' })
  })

  test("in a GitHub Actions run: step, the outputs and the summary also go to the runner's files, masked", async () => {
    const set: string[] = []
    const summaries: string[] = []
    const p = createCliPort({
      values: new Map(),
      write: () => undefined,
      colour: false,
      debug: false,
      summaryFile: undefined,
      context: cliRunContext({}, {}),
      runner: { setOutput: (n, v) => set.push(`${n}=${v}`), writeSummary: async (m) => (summaries.push(m), true) }
    })
    p.setSecret('s3cr3t')
    p.setOutput('deployed', 'true')
    expect(await p.writeSummary('## s3cr3t')).toBe(true)
    expect(set).toEqual(['deployed=true'])
    expect(summaries).toEqual(['## ***'])
  })
})

describe('brcloud emulator', () => {
  test("its bundle sits beside the command's, in emulator/", () => {
    expect(emulatorBundle()).toMatch(/[/\\]src[/\\]cli[/\\]emulator[/\\]index\.js$/)
  })

  test('without the bundle beside the command (a run from the sources): exit 1, saying where the emulator is', async () => {
    const m = memoryIo()
    expect(await runEmulator(['--port', '0'], '/nowhere/emulator/index.js', m.io)).toBe(EXIT.failure)
    expect(m.stderr()).toBe(
      'error: brcloud emulator: no emulator beside this command (/nowhere/emulator/index.js). From a clone of the repository: npm run emulator.\n'
    )
  })
})
