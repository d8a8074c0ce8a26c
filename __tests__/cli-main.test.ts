// brcloud's main() in-process, through an io of its own (src/cli/io.ts): the command line and the environment in,
// what it wrote on stdout and stderr and its exit code out, as the packed command would, with nothing spawned.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { actionPort } from '../src/action/port.js'
import { main } from '../src/cli/main.js'
import { usePort } from '../src/port.js'
import { memoryIo } from './cli-io.js'

afterEach(() => usePort(actionPort))

describe('main() through an io of its own', () => {
  test('--help and --version: written to its stdout, exit 0, nothing on stderr', async () => {
    const help = memoryIo()
    expect(await main(['deploy', '--help'], {}, help.io)).toBe(0)
    expect(help.stdout()).toMatch(/^Usage: brcloud deploy \[flags\]\n/)
    expect(help.stdout()).toContain('--password-file FILE')
    expect(help.stderr()).toBe('')
    const version = memoryIo()
    expect(await main(['--version'], {}, version.io)).toBe(0)
    expect(version.stdout()).toMatch(/^\d+\.\d+\.\d+\n$/)
    const status = memoryIo()
    expect(await main(['status', '--help'], {}, status.io)).toBe(0)
    expect(status.stdout()).toMatch(/^Usage: brcloud status --config FILE/)
  })

  test("a run the engine refuses: the action's message on its stderr, {} on its stdout with --json, exit 2, no exit called", async () => {
    const m = memoryIo()
    const env = { BRCLOUD_PASSWORD: 'pw-in-memory-1', BRCLOUD_MAX_ATTEMPTS: 'zero' }
    const code = await main(['deploy', '--stack', 'acme', '--username', 'ci', '--environment', 'production', '--distribution', 'x.tar.gz', '--json'], env, m.io)
    expect(code).toBe(2)
    expect(m.stderr()).toMatch(/^error: .*max-attempts/m)
    expect(m.stdout()).toBe('{}\n')
    expect(m.exits).toEqual([])
    // The run listened for signals on the io, and stopped listening once it ended (the third-signal watch stays).
    expect(m.signals.listenerCount('SIGINT')).toBe(1)
    expect(m.stdout() + m.stderr()).not.toContain('pw-in-memory-1')
  })

  test("the command line's own refusal (a secret as a flag): exit 2, on its stderr", async () => {
    const m = memoryIo()
    expect(await main(['deploy', '--password', 'hunter2-x'], {}, m.io)).toBe(2)
    expect(m.stderr()).toMatch(/^error: A secret is refused as a flag.*--password \(set BRCLOUD_PASSWORD, or --password-file FILE\)/)
    expect(m.stderr()).not.toContain('hunter2-x')
  })

  test("a third signal ends the command through io.exit, with the first signal's code", async () => {
    const m = memoryIo()
    const env = { BRCLOUD_PASSWORD: 'pw', BRCLOUD_MAX_ATTEMPTS: 'zero' }
    await main(['deploy', '--stack', 'acme', '--username', 'ci', '--environment', 'production', '--distribution', 'x.tar.gz'], env, m.io)
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGINT']) m.signals.emit(signal, signal)
    expect(m.exits).toEqual([143])
    expect(m.stderr()).toMatch(/^error: A third signal \(SIGINT\): ended at once, without the report\./m)
  })

  test('colour only when its stderr is a terminal, and never with NO_COLOR', async () => {
    const args = ['deploy', '--stack', 'acme', '--username', 'ci', '--environment', 'production', '--distribution', 'x.tar.gz']
    const env = { BRCLOUD_PASSWORD: 'pw', BRCLOUD_MAX_ATTEMPTS: 'zero' }
    const tty = memoryIo({ tty: true })
    await main(args, env, tty.io)
    expect(tty.stderr()).toContain('\u001b[31merror: ')
    const noColour = memoryIo({ tty: true })
    await main(args, { ...env, NO_COLOR: '1' }, noColour.io)
    expect(noColour.stderr()).not.toContain('\u001b[')
  })
})

/** A deploy's command line that gets as far as the engine's inputs, with nothing to reach. */
const DEPLOY = ['deploy', '--stack', 'acme', '--username', 'ci', '--environment', 'production', '--distribution', 'x.tar.gz']

describe("the command line's own refusals write what the engine's refusals write", () => {
  const folder = (): string => mkdtempSync(join(tmpdir(), 'brcd-main-'))
  const REFUSALS: Array<[string, string[], NodeJS.ProcessEnv, RegExp]> = [
    ['a secret as a flag', [...DEPLOY, '--password', 'hunter2-flag'], {}, /^A secret is refused as a flag/],
    [
      'an unreadable secret file',
      DEPLOY,
      { BRCLOUD_PASSWORD_FILE: '/nowhere/password' },
      /^The password file \/nowhere\/password could not be read \(ENOENT\)\.$/
    ],
    ['a malformed --commit', [...DEPLOY, '--commit', 'main'], { BRCLOUD_PASSWORD: 'pw' }, /^--commit is not a commit SHA/],
    [
      'a github-token without a repository',
      DEPLOY,
      { BRCLOUD_PASSWORD: 'pw', BRCLOUD_GITHUB_TOKEN: 'ghp_x1', BRCLOUD_COMMIT: 'a'.repeat(40) },
      /name their repository/
    ],
    [
      'a github-token without a commit',
      DEPLOY,
      { BRCLOUD_PASSWORD: 'pw', BRCLOUD_GITHUB_TOKEN: 'ghp_x1', BRCLOUD_REPOSITORY: 'acme/site' },
      /this run has no commit/
    ],
    [
      'a gitlab-token without a commit',
      DEPLOY,
      { BRCLOUD_PASSWORD: 'pw', BRCLOUD_GITLAB_TOKEN: 'glpat-x1', BRCLOUD_GITLAB_PROJECT: 'acme/site' },
      /^gitlab-token is set, so the run checks the deploy order .* records a GitLab deployment of this run's commit, and this run has no commit: give it with --commit SHA/
    ],
    [
      'a github-token and a gitlab-token, no repository named: refused as both, not as a GitHub token without its repository',
      DEPLOY,
      { BRCLOUD_PASSWORD: 'pw', BRCLOUD_GITHUB_TOKEN: 'ghp_x1', BRCLOUD_GITLAB_TOKEN: 'glpat-x1', BRCLOUD_COMMIT: 'a'.repeat(40) },
      /^github-token and gitlab-token are both set: the code lives in one place\./
    ],
    ['an unknown flag', [...DEPLOY, '--enviroment', 'staging'], { BRCLOUD_PASSWORD: 'pw' }, /^unknown flag --enviroment: did you mean --environment\?/]
  ]

  test.each(REFUSALS)('%s: the error line, {} on stdout with --json, the --dotenv file and the --summary file, exit 2', async (_, args, env, message) => {
    const dir = folder()
    const m = memoryIo()
    const code = await main([...args, '--json', '--dotenv', join(dir, 'brcloud.env'), '--summary', join(dir, 'summary.md')], env, m.io)
    expect(code).toBe(2)
    expect(m.stderr().split('\n').filter(Boolean)).toEqual([expect.stringMatching(/^error: /)])
    expect(m.stderr().slice('error: '.length).trimEnd()).toMatch(message)
    expect(m.stdout()).toBe('{}\n')
    expect(readFileSync(join(dir, 'brcloud.env'), 'utf8')).toBe('')
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toMatch(
      /^## Bloomreach Cloud deployment\n\n\*\*❌ Failed before anything was done\*\*\n\n\*\*Error:\*\* /
    )
    expect(m.stdout() + m.stderr()).not.toMatch(/hunter2-flag|ghp_x1/)
  })

  test.each(REFUSALS)("%s, under Azure Pipelines: the error as its issue and the task failed, as the engine's refusals end", async (_, args, env, message) => {
    const m = memoryIo()
    expect(await main(args, { ...env, TF_BUILD: 'True' }, m.io)).toBe(2)
    const lines = m.stdout().split('\n').filter(Boolean)
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^##vso\[task\.logissue type=error\]/)
    expect(lines[0]?.slice('##vso[task.logissue type=error]'.length)).toMatch(message)
    expect(lines[1]).toBe('##vso[task.complete result=Failed;]')
    expect(m.stderr()).toBe('')
  })

  test('brcloud status keeps its own formats: a secret as its flag is its error line alone, exit 2', async () => {
    const m = memoryIo()
    expect(await main(['status', '--config', 'fleet.yml', '--password', 'hunter2-status', '--json'], {}, m.io)).toBe(2)
    expect(m.stderr()).toMatch(/^error: A secret is refused as a flag.*--password \(set BRCLOUD_PASSWORD, or --password-file FILE\)\.\n$/)
    expect(m.stdout()).toBe('')
  })

  test("the same as the engine's own refusal of an input, format for format", async () => {
    const dir = folder()
    const engine = memoryIo()
    await main(
      [...DEPLOY, '--json', '--dotenv', join(dir, 'engine.env')],
      { BRCLOUD_PASSWORD: 'pw', BRCLOUD_MAX_ATTEMPTS: 'zero', TF_BUILD: 'True' },
      engine.io
    )
    const own = memoryIo()
    await main([...DEPLOY, '--json', '--dotenv', join(dir, 'own.env'), '--enviroment', 'x'], { BRCLOUD_PASSWORD: 'pw', TF_BUILD: 'True' }, own.io)
    const shape = (text: string): string => text.replace(/\](.*)$/gm, ']')
    expect(shape(own.stdout())).toBe(shape(engine.stdout()))
    expect(readFileSync(join(dir, 'own.env'), 'utf8')).toBe(readFileSync(join(dir, 'engine.env'), 'utf8'))
  })
})

describe("advice names the way to fix it in the CI the run is in, never a workflow's", () => {
  const refusal = async (args: string[], env: NodeJS.ProcessEnv): Promise<string> => {
    const m = memoryIo()
    expect(await main(args, env, m.io)).toBe(2)
    return m.stderr() + m.stdout()
  }
  const WORKFLOW_ONLY = /\$\{\{|permissions:|secrets\.[A-Z]/

  test('a missing password on Jenkins: BRCLOUD_PASSWORD from a Jenkins credential, or --password-file', async () => {
    const said = await refusal(DEPLOY, { JENKINS_URL: 'https://jenkins.example/', GIT_COMMIT: 'a'.repeat(40) })
    expect(said).toContain(
      "error: Input password is required: set BRCLOUD_PASSWORD from a Jenkins credential (environment { BRCLOUD_PASSWORD = credentials('ID') }, or withCredentials), or --password-file FILE; if BRCLOUD_PASSWORD is set and still empty, the secret did not reach this job."
    )
    expect(said).not.toMatch(WORKFLOW_ONLY)
  })

  test('a missing password on GitLab: a masked CI/CD variable; a missing search key under Azure: a secret variable mapped in env:', async () => {
    expect(await refusal(DEPLOY, { GITLAB_CI: 'true' })).toMatch(/BRCLOUD_PASSWORD from a masked CI\/CD variable BRCLOUD_PASSWORD of the project or group/)
    const azure = await refusal(['search-check', '--search-query', 'shirt', '--search-account-id', '6001', '--search-domain-key', 'shop'], { TF_BUILD: 'True' })
    expect(azure).toContain(
      "BRCLOUD_SEARCH_AUTH_KEY from a secret variable of the pipeline, mapped in the step's env: (BRCLOUD_SEARCH_AUTH_KEY: $(BRCLOUD_SEARCH_AUTH_KEY))"
    )
    expect(azure).not.toMatch(WORKFLOW_ONLY)
  })

  test('several missing inputs in a terminal: the user and the password as the command takes them', async () => {
    const said = await refusal(['deploy', '--stack', 'acme', '--distribution', 'x.tar.gz'], {})
    expect(said).toMatch(/username: the Bloomreach Cloud user that deploys \(--username or BRCLOUD_USERNAME\); password: BRCLOUD_PASSWORD from the environment/)
    expect(said).not.toMatch(WORKFLOW_ONLY)
  })

  test("oidc-audience outside the action: refused before any request, saying it is the action's and what to use instead", async () => {
    const sso = ['deploy', '--stack', 'acme', '--environment', 'production', '--distribution', 'x.tar.gz']
    const oidc = ['--token-url', 'https://login.example.com/oauth/token', '--client-id', 'ci', '--oidc-audience', 'brcloud']
    const gitlab = await refusal([...sso, ...oidc], { GITLAB_CI: 'true' })
    expect(gitlab).toMatch(
      /oidc-audience logs in with the OIDC token GitHub gives a GitHub Actions job, and this run is in GitLab CI, where there is none: log in with client-id and client-secret \(BRCLOUD_CLIENT_SECRET from a masked CI\/CD variable/
    )
    expect(gitlab).not.toMatch(WORKFLOW_ONLY)
    // In a run: step, even with the job's id-token permission: the command cannot ask for the token.
    const step = await refusal([...sso, ...oidc], {
      GITHUB_ACTIONS: 'true',
      GITHUB_SHA: 'a'.repeat(40),
      ACTIONS_ID_TOKEN_REQUEST_URL: 'https://x/',
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: 't'
    })
    expect(step).toMatch(
      /oidc-audience logs in with GitHub's OIDC token, which only the brcloud-deploy action asks for .*the brcloud command cannot\. Use the action, or log in/
    )
  })

  test('no engine message carries advice only a GitHub workflow can follow, outside src/advice.ts', () => {
    const root = fileURLToPath(new URL('../src/', import.meta.url))
    const faces = /^(action|cli|emulator)\/|^index\.ts$|^advice\.ts$/
    const engine = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && !faces.test(f.replace(/\\/g, '/')))
    expect(engine.length).toBeGreaterThan(50)
    const offending = engine.filter((f) => {
      const code = readFileSync(join(root, f), 'utf8').replace(/^\s*(\/\/|\*|\/\*\*).*$/gm, '')
      return WORKFLOW_ONLY.test(code)
    })
    expect(offending).toEqual([])
  })
})

describe("main()'s own paths", () => {
  test('brcloud emulator goes to the emulator, with its own flags (from the sources there is no bundle beside it: said, exit 1)', async () => {
    const m = memoryIo()
    expect(await main(['emulator', '--port', '0'], {}, m.io)).toBe(1)
    expect(m.stderr()).toMatch(
      /^error: brcloud emulator: no emulator beside this command \(.*emulator\/index\.js\)\. From a clone of the repository: npm run emulator\.\n$/
    )
  })

  test('a command without what it needs: each refusal in its words', async () => {
    const refusal = async (args: string[]): Promise<string> => {
      const m = memoryIo()
      expect(await main(args, { BRCLOUD_PASSWORD: 'pw' }, m.io)).toBe(2)
      return m.stderr()
    }
    expect(await refusal(['deploy', '--stack', 'acme', '--username', 'ci', '--environment', 'production', '--search-query', 'shirt'])).toBe(
      'error: brcloud deploy needs distribution, distribution-id or from-environment; to run only the search check, use brcloud search-check.\n'
    )
    expect(await refusal(['search-check', '--search-account-id', '6001'])).toBe(
      'error: brcloud search-check needs search-query (--search-query or BRCLOUD_SEARCH_QUERY).\n'
    )
  })

  test("tracing from the command's own environment (OTEL_EXPORTER_OTLP_ENDPOINT, TRACEPARENT), not the process's: its trace id, and nothing sent when the pipeline's trace is not sampled", async () => {
    const m = memoryIo()
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
    const env = {
      BRCLOUD_PASSWORD: 'pw',
      BRCLOUD_MAX_ATTEMPTS: 'zero',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
      TRACEPARENT: `00-${traceId}-00f067aa0ba902b7-00`
    }
    expect(await main([...DEPLOY, '--json'], env, m.io)).toBe(2)
    expect(JSON.parse(m.stdout().trim().split('\n').at(-1) ?? '')).toEqual({ 'trace-id': traceId })
    expect(m.stderr()).toContain("Tracing: nothing sent: TRACEPARENT says the pipeline's trace is not sampled.")
  })

  test('--dotenv to a file that cannot be written: a warning naming why; the run ends as it would', async () => {
    const m = memoryIo()
    const code = await main([...DEPLOY, '--dotenv', '/nowhere/at/all/brcloud.env'], { BRCLOUD_PASSWORD: 'pw', BRCLOUD_MAX_ATTEMPTS: 'zero' }, m.io)
    expect(code).toBe(2)
    expect(m.stderr()).toContain('warning: --dotenv: /nowhere/at/all/brcloud.env could not be written (ENOENT).')
  })
})
