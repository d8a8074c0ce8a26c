// The README's first workflow, copied as a reader would, against the emulator: the development job's inputs
// as written (the stack, the secrets, the site and GitHub replaced by their stand-ins), with a build that wrote
// the commit into the version page. It must end "Verified" by that page.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
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
  jobs: Record<string, { steps: Array<{ uses?: string; with?: Record<string, string> }> }>
}

test("the README's first example ends 'Verified' by the commit its build wrote into the version page", async () => {
  const step = workflow.jobs.development?.steps.find((s) => s.uses?.startsWith('brcloud/brcloud-deploy@'))
  const given = step?.with ?? {}
  expect(given).toMatchObject({ environment: 'development', 'health-expect': '${{ github.sha }}', rollback: true })
  const sha = RUNNER_SHA
  // What the build step made: a distribution whose version page holds the commit.
  const tree = makeDistributionTree(undefined, 2_000)
  writeFileSync(join(tree, 'version.txt'), `${sha}\n`)
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
