// `npm run action`: the command line and the caller's shell become what a runner would give the step, and the
// run's folder keeps what a user reads and no secret.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseActionArgs, PASSED_THROUGH, RUNNER_VARIABLES } from '../scripts/lib/action-args.js'
import { leaveForReading, maskedValues, redactMasked, runAction, runnerEnvironment, RUNNER_SHA } from '../scripts/lib/run-action.js'
import { DEFAULT_GITHUB_TOKEN, seedSampleHistory, startGitHubStandIn } from '../src/emulator/github/server.js'
import { startEmulator } from '../src/emulator/server.js'

test('proxies and extra CAs of the caller pass through; nothing else of its shell does', () => {
  const env = {
    HTTPS_PROXY: 'http://proxy.corp:3128',
    no_proxy: 'internal.corp',
    NODE_EXTRA_CA_CERTS: '/etc/ssl/corp.pem',
    AWS_SECRET_ACCESS_KEY: 'not for the action'
  }
  const args = parseActionArgs(['api-url=http://127.0.0.1:4080'], env, '/repo')
  expect(args.env).toEqual({ HTTPS_PROXY: 'http://proxy.corp:3128', no_proxy: 'internal.corp', NODE_EXTRA_CA_CERTS: '/etc/ssl/corp.pem' })
  expect(PASSED_THROUGH).toEqual(expect.arrayContaining(['HTTP_PROXY', 'NO_PROXY', 'https_proxy']))
})

test('relative paths are taken from the directory the command was typed in (npm says it in INIT_CWD), not the package root', () => {
  expect(parseActionArgs(['distribution=site'], { INIT_CWD: '/home/me/project' }, '/repo').workspace).toBe('/home/me/project')
  expect(parseActionArgs(['distribution=site'], {}, '/somewhere').workspace).toBe('/somewhere')
})

test("a renamed input's old name is accepted, with the runner's warning for an input action.yml does not declare", () => {
  const args = parseActionArgs(['timeout-minutes=5', 'stack=mystack'], {}, '/repo')
  expect(args.inputs).toEqual({ 'timeout-minutes': '5', stack: 'mystack' })
  expect(args.warnings).toHaveLength(1)
  expect(args.warnings[0]).toMatch(/^Unexpected input\(s\) 'timeout-minutes', valid inputs are \['stack', /)
  expect(parseActionArgs(['stack=mystack'], {}, '/repo').warnings).toEqual([])
})

test('an unknown name or a word without = is refused, saying which', () => {
  expect(() => parseActionArgs(['stak=mystack'], {}, '/repo')).toThrow("'stak' is not an input of action.yml")
  expect(() => parseActionArgs(['stack'], {}, '/repo')).toThrow("'stack' is not name=value.")
})

test("the runner's variables pass through when set (GitHub's address, the run's commit, the OIDC token service); GITHUB_TOKEN does not", () => {
  const shell = {
    GITHUB_API_URL: 'http://127.0.0.1:4081',
    GITHUB_SERVER_URL: 'https://github.example.com',
    GITHUB_REPOSITORY: 'octo/shop',
    GITHUB_SHA: 'a'.repeat(40),
    GITHUB_REF: 'refs/heads/release',
    GITHUB_RUN_ID: '42',
    ACTIONS_ID_TOKEN_REQUEST_URL: 'http://127.0.0.1:4080/github-oidc/token?api-version=2.0',
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc-request-1',
    RUNNER_DEBUG: '1',
    GITHUB_TOKEN: 'ghp_the-users-own-token',
    GITHUB_EVENT_PATH: '/home/me/event.json'
  }
  const { GITHUB_TOKEN: _token, GITHUB_EVENT_PATH: _event, ...runner } = shell
  expect(parseActionArgs(['stack=mystack'], shell, '/repo').env).toEqual(runner)
  expect([...PASSED_THROUGH]).toEqual(expect.arrayContaining([...RUNNER_VARIABLES]))
})

test("unset, a run keeps a runner's defaults: the repository acme/site at RUNNER_SHA, and no OIDC token service", () => {
  const args = parseActionArgs(['stack=mystack'], { PATH: '/usr/bin' }, '/repo')
  expect(args.env).toEqual({})
  const env = { ...runnerEnvironment(mkdtempSync(join(tmpdir(), 'brcd-run-')), args.inputs).env, ...args.env }
  expect(env).toMatchObject({ GITHUB_REPOSITORY: 'acme/site', GITHUB_SHA: RUNNER_SHA })
  expect(env).not.toHaveProperty('ACTIONS_ID_TOKEN_REQUEST_URL')
  expect(env).not.toHaveProperty('GITHUB_API_URL')
})

test('masked values are hidden in the raw log as a runner hides them, also as ::add-mask:: escapes them', () => {
  const stdout = '::add-mask::s3cret\n::add-mask::a%25b%0Ac\nlogin with s3cret\nvalue a%b\nc\n::add-mask::\n'
  const masked = maskedValues(stdout)
  expect(masked).toEqual(expect.arrayContaining(['s3cret', 'a%25b%0Ac', 'a%b\nc']))
  expect(redactMasked(stdout, masked)).toBe('::add-mask::***\n::add-mask::***\nlogin with ***\nvalue ***\n::add-mask::\n')
})

describe('npm run action with the variables the emulator prints (--sso --github)', () => {
  test("GitHub's calls and its OIDC token work; an older commit is refused; each run's folder keeps no secret", async () => {
    const emu = await startEmulator({ sso: { refreshTokens: 'all' } })
    const github = await startGitHubStandIn()
    try {
      const [older = '', tip = ''] = seedSampleHistory(github.model).main.slice(-2)
      const sso = emu.sso
      if (sso === undefined) throw new Error('no sso handle')
      const site = mkdtempSync(join(tmpdir(), 'brcd-site-'))
      writeFileSync(join(site, 'index.html'), '<h1>hello</h1>\n')
      // The shell of a user who exported what the banner printed (and has a GitHub token of their own, which stays out).
      const shell = (sha: string): NodeJS.ProcessEnv => ({
        GITHUB_API_URL: github.url,
        GITHUB_REPOSITORY: 'acme/site',
        GITHUB_SHA: sha,
        ACTIONS_ID_TOKEN_REQUEST_URL: sso.oidcRequestUrl,
        ACTIONS_ID_TOKEN_REQUEST_TOKEN: sso.oidcRequestToken,
        GITHUB_TOKEN: 'ghp_the-users-own-token',
        INIT_CWD: site
      })
      const command = [
        `api-url=${emu.url}`,
        `token-url=${sso.tokenUrl}`,
        `client-id=${sso.federatedClientId}`,
        `oidc-audience=${sso.oidcAudience}`,
        `audience=${sso.audience}`,
        'distribution=.',
        'environment=development',
        `github-token=${DEFAULT_GITHUB_TOKEN}`
      ]
      const byHand = async (sha: string): Promise<Awaited<ReturnType<typeof runAction>>> => {
        const args = parseActionArgs(command, shell(sha), '/repo')
        return runAction(args.inputs, { env: args.env, workspace: args.workspace, timeoutMs: 120_000 })
      }

      const first = await byHand(tip)
      expect([first.code, first.errors]).toEqual([0, []])
      expect(emu.requests.filter((r) => r.operation === 'oidc-token').map((r) => r.status)).toContain(200)
      expect(github.model.deployments.map((d) => [d.sha, d.environment])).toEqual([[tip, 'development']])
      expect(first.outputs['distribution-name']).toBe(`site-${tip.slice(0, 7)}-distribution.tar.gz`)
      expect(first.outputs.order).toBe('unknown')

      const second = await byHand(older)
      expect(second.code).toBe(1)
      expect(second.outputs.order).toBe('behind')
      expect(second.outputs['running-commit']).toBe(tip)

      for (const run of [first, second]) {
        const masked = maskedValues(run.stdout)
        expect(masked).toContain(DEFAULT_GITHUB_TOKEN)
        const state = readFileSync(run.stateFile, 'utf8')
        expect(masked.some((value) => state.includes(value))).toBe(true) // the run's refresh token (revoked at its end)
        const { dir, rawLog } = leaveForReading(run)
        expect(readdirSync(dir).sort()).toEqual(['output', 'raw.log', 'summary.md'])
        for (const file of readdirSync(dir)) {
          const text = readFileSync(join(dir, file), 'utf8')
          for (const value of masked) expect(text).not.toContain(value)
        }
        expect(readFileSync(rawLog, 'utf8')).toMatch(/^::add-mask::\*\*\*$/m)
      }
    } finally {
      await Promise.all([emu.close(), github.close()])
    }
  }, 240_000)
})
