// `brcloud status` in-process (src/cli/status.ts statusMain): the GitHub token it reads from the environment is a
// secret the moment it is read, so a GitHub answer that echoes it shows *** in the table on stdout, which no runner
// masks. Found by `npm run plant-deletions`: deleting that registration survived every test
// (docs/reliability-and-security.md, "Planted deletions").
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_GITHUB_TOKEN, fakeSha, startGitHubStandIn } from '../src/emulator/github/server.js'
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { memoryIo } from './cli-io.js'
import { runOfAcmeSite } from './github-run.js'

// @actions/github reads GITHUB_API_URL once, when it is first imported: the stand-in listens before that.
const standIn = await startGitHubStandIn({ owner: 'acme', repo: 'site' })
runOfAcmeSite(standIn.url, fakeSha('run'))
const { statusMain } = await import('../src/cli/status.js')

let emu: Emulator
beforeAll(async () => {
  emu = await startEmulator({ environments: ['production'] })
})
afterAll(async () => {
  await emu.close()
  await standIn.close()
})

/** What the command wrote on stdout and stderr, and its exit code (its io in memory: __tests__/cli-io.ts). */
async function status(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  const mem = memoryIo()
  const code = await statusMain(args, env, mem.io)
  return { code, stdout: mem.stdout(), stderr: mem.stderr() }
}

test('BRCLOUD_GITHUB_TOKEN echoed back by GitHub: the table shows it as ***, and the command fails closed', async () => {
  standIn.fail('list-deployments', { status: 401, times: 20, body: { message: `Bad credentials: ${DEFAULT_GITHUB_TOKEN}` } })
  const r = await status(['--api-url', emu.url, '--repository', 'acme/site'], {
    BRCLOUD_USERNAME: emu.username,
    BRCLOUD_PASSWORD: emu.password,
    BRCLOUD_GITHUB_TOKEN: DEFAULT_GITHUB_TOKEN
  })
  expect(r.stdout).toContain('Bad credentials: ***')
  expect(r.stdout + r.stderr).not.toContain(DEFAULT_GITHUB_TOKEN)
  expect(r.code).toBe(1)
})

describe("brcloud status's own refusals, each in its words, before any request (exit 2)", () => {
  const refused = async (args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> => {
    const r = await status(args, env)
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: '' })
    return r.stderr
  }

  test('a GitHub token without its repository', async () => {
    expect(await refused(['--api-url', emu.url], { BRCLOUD_GITHUB_TOKEN: DEFAULT_GITHUB_TOKEN })).toBe(
      'error: A GitHub token is set: name its repository with --repository owner/name or BRCLOUD_REPOSITORY.\n'
    )
  })

  test('--drift-issues without a GitHub token', async () => {
    expect(await refused(['--api-url', emu.url, '--drift-issues'])).toBe(
      'error: --drift-issues needs a GitHub token with issues: write: BRCLOUD_GITHUB_TOKEN or --github-token-file (or, for code on GitLab, BRCLOUD_GITLAB_TOKEN with scope api).\n'
    )
  })

  test('an argument besides the flags', async () => {
    expect(await refused(['status', 'production'])).toBe('error: brcloud status takes no argument besides its flags (brcloud status --help lists them).\n')
  })

  test('a flag parseArgs refuses: in its words, and where the flags are listed', async () => {
    expect(await refused(['--api-url'])).toMatch(/^error: Option '--api-url <value>' argument missing \(brcloud status --help\)\.\n$/)
  })

  test('a secret given by its file flag is a single-stack input too: named beside --config', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'brcd-status-'))
    writeFileSync(join(dir, 'pw'), 'secret-pw\n')
    expect(await refused(['--config', join(dir, 'fleet.yml'), '--password-file', join(dir, 'pw')])).toMatch(
      /^error: --config and --password-file are both set: /
    )
  })
})

test('--summary to a file that cannot be written: a warning naming why, and the report as it is', async () => {
  const r = await status(['--api-url', emu.url, '--summary', '/nowhere/at/all/summary.md'], {
    BRCLOUD_USERNAME: emu.username,
    BRCLOUD_PASSWORD: emu.password
  })
  expect(r.stderr).toContain('warning: --summary: the file could not be written (ENOENT).')
  expect(r.stdout).toMatch(/production/)
  expect(r.code).toBe(0)
})
