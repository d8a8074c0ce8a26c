// `brcloud status` in-process (src/cli/status.ts statusMain): the GitHub token it reads from the environment is a
// secret the moment it is read, so a GitHub answer that echoes it shows *** in the table on stdout, which no runner
// masks. Found by `npm run plant-deletions`: deleting that registration survived every test
// (docs/reliability-and-security.md, "Planted deletions").
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
