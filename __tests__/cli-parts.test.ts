// The command's small parts, each in its own words: the log's settings (src/cli/port.ts stderrLog), the port's
// input and identity-token refusals, the runner's files in a GitHub Actions run: step (runner-files.ts), Azure's
// and GitLab's formats (azure.ts, dotenv.ts), brcloud --help (help.ts), the process's own io (io.ts) and the
// emulator run as a child (emulator.ts). Written for the mutants the faces' Stryker run left (docs/
// reliability-and-security.md, "The faces"): each asserts what the user or the runner sees.
import { jest } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { azureEnding } from '../src/cli/azure.js'
import { dotenvOf } from '../src/cli/dotenv.js'
import { runEmulator } from '../src/cli/emulator.js'
import { EXIT } from '../src/cli/exit-codes.js'
import { commandHelp, mainHelp } from '../src/cli/help.js'
import { INPUT_DEFAULTS } from '../src/action-metadata.js'
import { parseCommandLine } from '../src/cli/args.js'
import { cliRunContext } from '../src/cli/run-context.js'
import { processIo } from '../src/cli/io.js'
import { createCliPort, stderrLog } from '../src/cli/port.js'
import { gitHubRunner } from '../src/cli/runner-files.js'
import { localRun } from '../src/github/runner-context.js'
import { memoryIo } from './cli-io.js'

const folder = (): string => mkdtempSync(join(tmpdir(), 'brcd-parts-'))

describe("the command's log", () => {
  const io = memoryIo({ tty: true }).io
  test('debug lines with --debug, or BRCLOUD_DEBUG=true alone (not 1, not yes)', () => {
    expect(stderrLog(io, {}, true).debug).toBe(true)
    expect(stderrLog(io, { BRCLOUD_DEBUG: 'true' }, false).debug).toBe(true)
    for (const value of ['1', 'yes', 'TRUE ', '']) expect(stderrLog(io, { BRCLOUD_DEBUG: value }, false).debug).toBe(false)
    expect(stderrLog(io, {}, false).debug).toBe(false)
  })

  test('colour on a terminal only, and never with NO_COLOR', () => {
    expect(stderrLog(io, {}, false).colour).toBe(true)
    expect(stderrLog(io, { NO_COLOR: '1' }, false).colour).toBe(false)
    expect(stderrLog(memoryIo().io, {}, false).colour).toBe(false)
  })
})

describe("the command's port", () => {
  const port = (values: Record<string, string>) =>
    createCliPort({
      values: new Map(Object.entries(values)),
      write: () => undefined,
      colour: false,
      debug: false,
      summaryFile: undefined,
      context: { sha: '', repository: '', workspace: '/w', runId: localRun(), runAttempt: '1', place: 'terminal' } as never
    })

  test('a required input that is empty is refused by its name; a set one is read trimmed unless asked whole', () => {
    const p = port({ environment: '  production ', password: ' pw ' })
    expect(() => p.getInput('stack', { required: true })).toThrow(new Error('Input required and not supplied: stack'))
    expect(p.getInput('stack')).toBe('')
    expect(p.getInput('environment', { required: true })).toBe('production')
    expect(p.getInput('password', { trimWhitespace: false })).toBe(' pw ')
  })

  test('no OIDC identity token outside GitHub Actions, and the refusal says which input needs one', async () => {
    await expect(port({}).getIDToken('aud')).rejects.toThrow(
      new Error('no OIDC identity token outside GitHub Actions (oidc-audience needs a GitHub Actions job)')
    )
  })
})

describe("the runner's files, in a GitHub Actions run: step only", () => {
  test('elsewhere none (GITHUB_ACTIONS must be exactly true)', async () => {
    expect(await gitHubRunner({})).toBeUndefined()
    expect(await gitHubRunner({ GITHUB_ACTIONS: 'false' })).toBeUndefined()
    expect(await gitHubRunner({ GITHUB_ACTIONS: '' })).toBeUndefined()
  })

  test("in a run: step, the outputs go to the runner's file, and without that file nowhere (never stdout)", async () => {
    const dir = folder()
    const file = join(dir, 'output')
    writeFileSync(file, '')
    const saved = process.env.GITHUB_OUTPUT
    const write = jest.spyOn(process.stdout, 'write')
    try {
      process.env.GITHUB_OUTPUT = file
      const runner = await gitHubRunner({ GITHUB_ACTIONS: 'true', GITHUB_OUTPUT: file })
      expect(runner).toBeDefined()
      runner?.setOutput('deployed', 'true')
      expect(readFileSync(file, 'utf8')).toMatch(/^deployed<<ghadelimiter_[0-9a-f-]+\ntrue\nghadelimiter_[0-9a-f-]+\n$/)
      delete process.env.GITHUB_OUTPUT
      const without = await gitHubRunner({ GITHUB_ACTIONS: 'true' })
      without?.setOutput('deployed', 'false')
      expect(write.mock.calls.map((c) => String(c[0])).filter((t) => t.includes('deployed'))).toEqual([])
    } finally {
      write.mockRestore()
      if (saved === undefined) delete process.env.GITHUB_OUTPUT
      else process.env.GITHUB_OUTPUT = saved
    }
  })
})

describe("Azure Pipelines' and GitLab's formats", () => {
  test("Azure: a variable's name escaped as a property (] and ;), its value as a message", () => {
    expect(azureEnding({ 'odd]name;x': 'a;b]c%' }, undefined)).toBe('##vso[task.setvariable variable=BRCLOUD_ODD%5DNAME%3BX;isOutput=true]a;b]c%AZP25\n')
  })

  test("GitLab's dotenv: a quote inside a value is kept as it is; only a value beginning with one is left out", () => {
    const warnings: string[] = []
    expect(dotenvOf({ summary: "it's 'fine'", quoted: '"x"' }, (m) => warnings.push(m))).toBe("BRCLOUD_SUMMARY=it's 'fine'\n")
    expect(warnings).toEqual(["--dotenv: quoted is left out of the file: GitLab's dotenv cannot hold its value, because it begins with a quote."])
  })
})

test('brcloud --help: the commands, each in its words, and where to read on', () => {
  expect(mainHelp()).toBe(
    [
      'brcloud: deploy brXM to Bloomreach Cloud from any CI or a terminal (the engine of the brcloud-deploy GitHub Action).',
      '',
      'Usage: brcloud <command> [flags]',
      '       npx brcloud-deploy <command> [flags]   (the package installs both names: brcloud and brcloud-deploy)',
      '',
      'Commands:',
      '  deploy        Deploys a brXM distribution to a Bloomreach Cloud environment (and runs the search check when search-query is set).',
      '  search-check  Checks that Bloomreach product search answers a query with results (no deployment).',
      '  status        What runs in each environment of your stacks, against the tracked branch (read-only; brcloud status --help).',
      '  emulator      Runs the local emulator of the Bloomreach Cloud API and the search API, to try everything with no account (brcloud emulator --help).',
      '',
      'brcloud <command> --help lists its flags; brcloud --version prints the version.',
      'Every input of the action is a flag --<input> or a variable BRCLOUD_<INPUT>; secrets only as a variable or a file.',
      'The log goes to stderr; --json prints the outputs as one JSON object on stdout. See docs/cli.md.',
      ''
    ].join('\n')
  )
})

describe("the process's own io", () => {
  test("stdout and stderr are the process's, looked up at each call; its terminal, its folder", async () => {
    const out = jest.spyOn(process.stdout, 'write').mockImplementation(((_: unknown, done?: () => void) => {
      done?.()
      return true
    }) as never)
    const err = jest.spyOn(process.stderr, 'write').mockImplementation((() => true) as never)
    try {
      const io = processIo()
      await io.stdout('to stdout\n')
      io.stderr('to stderr\n')
      expect(out.mock.calls.map((c) => c[0])).toEqual(['to stdout\n'])
      expect(err.mock.calls.map((c) => c[0])).toEqual(['to stderr\n'])
      expect(io.stderrIsTTY).toBe(process.stderr.isTTY === true)
      // Read at each look: a terminal is told (Jest's own stderr is none).
      const was = Object.getOwnPropertyDescriptor(process.stderr, 'isTTY')
      Object.defineProperty(process.stderr, 'isTTY', { value: true, configurable: true })
      try {
        expect(io.stderrIsTTY).toBe(true)
      } finally {
        if (was === undefined) delete (process.stderr as { isTTY?: boolean }).isTTY
        else Object.defineProperty(process.stderr, 'isTTY', was)
      }
      expect(io.cwd()).toBe(process.cwd())
      expect(io.signals).toBe(process)
    } finally {
      out.mockRestore()
      err.mockRestore()
    }
  })

  test('exit is the process.exit', () => {
    const exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never)
    try {
      processIo().exit(143)
      expect(exit).toHaveBeenCalledWith(143)
    } finally {
      exit.mockRestore()
    }
  })
})

describe('brcloud emulator: the emulator as a child of its own', () => {
  /** A stand-in for the emulator's bundle: writes its flags and face to a file, then exits or waits for a signal. */
  function fakeBundle(behaviour: 'exit 3' | 'wait'): { bundle: string; said: () => { args: string[]; face: string } } {
    const dir = folder()
    const said = join(dir, 'said.json')
    const bundle = join(dir, 'index.js')
    writeFileSync(
      bundle,
      `require('node:fs').writeFileSync(${JSON.stringify(said)}, JSON.stringify({ args: process.argv.slice(2), face: process.env.BRCLOUD_EMULATOR_FACE }))\n` +
        (behaviour === 'exit 3' ? 'process.exit(3)\n' : 'setInterval(() => {}, 1000)\n')
    )
    writeFileSync(join(dir, 'package.json'), '{"type":"commonjs"}')
    return { bundle, said: () => JSON.parse(readFileSync(said, 'utf8')) as { args: string[]; face: string } }
  }

  test("its flags, told it runs as brcloud's, its exit code", async () => {
    const { bundle, said } = fakeBundle('exit 3')
    const m = memoryIo()
    expect(await runEmulator(['--port', '0'], bundle, m.io, { PATH: process.env.PATH })).toBe(3)
    expect(said()).toEqual({ args: ['--port', '0'], face: 'brcloud' })
    expect(m.stderr()).toBe('')
  })

  test.each([
    ['SIGTERM', EXIT.sigterm],
    ['SIGINT', EXIT.sigint]
  ])('a %s sent to the command is passed on: its exit code', async (signal, code) => {
    const { bundle, said } = fakeBundle('wait')
    const m = memoryIo()
    const ended = runEmulator([], bundle, m.io, {})
    // Once the child runs (it wrote what it was given), the signal.
    for (let i = 0; i < 200; i++) {
      try {
        said()
        break
      } catch {
        await new Promise((done) => setTimeout(done, 25))
      }
    }
    m.signals.emit(signal, signal)
    expect(await ended).toBe(code)
  })

  test('no bundle beside the command: said, with what to run instead, exit 1', async () => {
    const m = memoryIo()
    expect(await runEmulator([], '/nowhere/emulator/index.js', m.io, {})).toBe(EXIT.failure)
    expect(m.stderr()).toBe(
      'error: brcloud emulator: no emulator beside this command (/nowhere/emulator/index.js). From a clone of the repository: npm run emulator.\n'
    )
  })
})

describe('brcloud <command> --help, and the command line read for a run', () => {
  const lines = commandHelp('deploy').split('\n')
  test('a secret only as its file flag or its variable; a default named; the output flags', () => {
    expect(lines).toContain(`  ${'--password-file FILE'.padEnd(36)}BRCLOUD_PASSWORD (secret: never a flag)`)
    expect(lines).toContain(`  ${'--max-attempts VALUE'.padEnd(36)}BRCLOUD_MAX_ATTEMPTS (default ${INPUT_DEFAULTS['max-attempts']})`)
    expect(lines).toContain(`  ${'--distribution VALUE'.padEnd(36)}BRCLOUD_DISTRIBUTION`)
    expect(lines).toContain('  --summary FILE                      the Markdown summary, written to FILE')
    expect(lines).toContain('  --debug                             debug lines in the log (also BRCLOUD_DEBUG=true)')
  })

  test('the words around the inputs, line for line', () => {
    const text = commandHelp('search-check')
    expect(text.slice(0, text.indexOf('Inputs ('))).toBe(
      [
        'Usage: brcloud search-check [flags]',
        '',
        'Checks that Bloomreach product search answers a query with results (no deployment).',
        '',
        'Output:',
        "  --json                              the outputs as one JSON object on stdout, keyed by the action's output names",
        '  --summary FILE                      the Markdown summary, written to FILE',
        '  --debug                             debug lines in the log (also BRCLOUD_DEBUG=true)',
        "  --dotenv FILE                       the outputs as BRCLOUD_<OUTPUT>=value lines, for GitLab's artifacts:reports:dotenv",
        '  (under Azure Pipelines, TF_BUILD=True: each output as an output variable BRCLOUD_<OUTPUT>, the failure as an issue;',
        "   in a GitHub Actions run: step: the outputs and the summary in the runner's files)",
        '',
        'The run:',
        "  --commit SHA                        the commit deployed (BRCLOUD_COMMIT; else the CI's own: GIT_COMMIT, CI_COMMIT_SHA, CIRCLE_SHA1, ... in docs/cli.md)",
        '  --repository OWNER/NAME             the GitHub repository of its GitHub Deployments, with github-token (BRCLOUD_REPOSITORY, GITHUB_REPOSITORY)',
        '',
        ''
      ].join('\n')
    )
    expect(text).toMatch(/\nInputs \(a flag wins over its variable; the meanings are the action's, in README\.md\):\n/)
    expect(
      text.endsWith(
        `\n\nExit codes: ${Object.entries(EXIT)
          .map(([w, c]) => `${c} ${w}`)
          .join(', ')} (docs/cli.md).\n`
      )
    ).toBe(true)
  })

  test("each refusal in its words; a run's flags read as given, off unless set", () => {
    expect(() => parseCommandLine(['ship'])).toThrow(new Error("Unknown command 'ship': brcloud knows deploy, search-check, status (brcloud --help)."))
    expect(() => parseCommandLine(['deploy', 'a', 'b'])).toThrow(
      new Error('brcloud deploy takes no argument besides its flags (brcloud deploy --help lists them).')
    )
    expect(parseCommandLine(['deploy'])).toMatchObject({ kind: 'run', json: false, debug: false, summaryFile: undefined, dotenvFile: undefined })
    expect(parseCommandLine(['deploy', '--version'])).toEqual({ kind: 'version' })
  })

  test("GitHub's own server for the run's page when one is given (GitHub Enterprise Server)", () => {
    const env = { GITHUB_RUN_ID: '77', GITHUB_REPOSITORY: 'acme/site', GITHUB_SERVER_URL: 'https://ghe.example' }
    expect(cliRunContext({}, env).runUrl).toBe('https://ghe.example/acme/site/actions/runs/77')
  })
})

describe("the port's debug lines and masks", () => {
  const written: string[] = []
  const port = (debug: boolean) =>
    createCliPort({
      values: new Map(),
      write: (t) => void written.push(t),
      colour: false,
      debug,
      summaryFile: undefined,
      context: { sha: '', repository: '', workspace: '/w', runId: localRun(), runAttempt: '1', place: 'terminal' } as never
    })

  test('debug lines only when asked', () => {
    written.length = 0
    port(false).debug('quiet')
    port(true).debug('loud')
    expect(written).toEqual(['debug: loud\n'])
  })

  test('an empty secret masks nothing (every line would be stars between its letters)', () => {
    written.length = 0
    const p = port(false)
    p.setSecret('')
    p.setSecret('s3cret')
    p.info('abc s3cret')
    expect(written).toEqual(['abc ***\n'])
  })
})
