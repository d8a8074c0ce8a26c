// The README's first workflow, copied as a reader would, against the emulator: the development job's inputs
// as written (the stack, the secrets, the site and GitHub replaced by their stand-ins), with a build that wrote
// the commit into the version page of the site webapp, as the README's build step does. It must end "Verified" by that page.
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { makeDistributionTree } from '../scripts/lib/sample-tree.js'
import { RUNNER_SHA } from '../scripts/lib/run-action.js'
import { ops, run, sweepAndClose } from './e2e-support.js'

let emu: Emulator
beforeAll(async () => {
  emu = await startEmulator({ deploySeconds: 0.5 })
})
afterAll(async () => {
  await sweepAndClose(emu)
})

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8')
const workflow = parse(/```yaml\n([\s\S]*?)```/.exec(readme)?.[1] ?? '') as {
  jobs: Record<string, { steps: Array<{ uses?: string; run?: string; with?: Record<string, string> }> }>
}
const root = fileURLToPath(new URL('..', import.meta.url))

test("the README's first example ends 'Verified' by the commit its build wrote into the version page", async () => {
  const step = workflow.jobs.development?.steps.find((s) => s.uses?.startsWith('brcloud/brcloud-deploy@'))
  const given = step?.with ?? {}
  expect(given).toMatchObject({ environment: 'development', 'health-expect': '${{ github.sha }}', rollback: true })
  // Where the README's build step writes the page: the site webapp's sources, so it ends up inside webapps/site.war.
  const page = workflow.jobs.development?.steps.find((s) => s.run?.includes('version.txt'))?.run
  expect(page).toBe('echo "${{ github.sha }}" > site/webapp/src/main/webapp/version.txt')
  const sha = RUNNER_SHA
  // What the build step made: the version page written into the site webapp (site/webapp/src/main/webapp/version.txt),
  // so it sits at the root of webapps/site.war, which the environment's host serves; nothing at the distribution's root.
  const tree = makeDistributionTree(undefined, 2_000, { 'version.txt': `${sha}\n` })
  expect(existsSync(join(tree, 'version.txt'))).toBe(false)
  const inputs: Record<string, string> = {}
  for (const [name, value] of Object.entries(given)) inputs[name] = String(value).replace('${{ github.sha }}', sha)
  delete inputs.stack
  delete inputs['github-token']
  Object.assign(inputs, {
    'api-url': emu.url,
    username: emu.username,
    password: emu.password,
    distribution: tree,
    'health-url': `${emu.url}/sites/development/version.txt`
  })
  const r = await run(inputs)
  expect(r.errors).toEqual([])
  expect(r.code).toBe(0)
  const id = r.outputs['distribution-id'] ?? ''
  expect(ops(emu, 'deploy')).toHaveLength(1)
  expect(r.summary).toContain(`**✅ Verified: 'development' runs \`${id}\`**`)
  expect(r.outputs['release-state']).toBe('verified')
})

test("the README's by-hand commands run as written (the emulator's address and the folder aside): a sample distribution deployed and its page served", async () => {
  const block = /To run the action by hand[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? ''
  const commands = block
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '')
  expect(commands.map((c) => c.split(' ').slice(0, 3).join(' '))).toEqual(['npm run sample', 'npm run action'])
  const folder = join(mkdtempSync(join(tmpdir(), 'brcd-readme-')), 'sample-distribution')
  const before = ops(emu, 'deploy').length
  let log = ''
  for (const command of commands) {
    const [, ...args] = command.replaceAll('http://127.0.0.1:4080', emu.url).replaceAll('sample-distribution', folder).split(/\s+/)
    // Not execFileSync: the emulator answers from this very process. A non-zero exit rejects: each command must succeed as written.
    log = (await promisify(execFile)('npm', args, { cwd: root, encoding: 'utf8', env: { ...process.env, INIT_CWD: root } })).stdout
  }
  expect(existsSync(join(folder, 'webapps/site.war'))).toBe(true)
  expect(ops(emu, 'deploy')).toHaveLength(before + 1)
  expect(log).toMatch(/Health check 1: .*\/sites\/development\/version\.txt: HTTP 200/)
  // npm echoes the command typed ("> tsx scripts/action.ts ... password=..."); the action's own lines never show it.
  expect(log.split('\n').filter((line) => !line.startsWith('> ') && line.includes('emulator-password'))).toEqual([])
})
