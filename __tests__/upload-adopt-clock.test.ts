// Adopting the stored upload after a lost answer must not depend on the platform's clock: a stored copy is
// one the stack did not list before the upload, whatever time it carries. Runs the bundle (dist/index.js).
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { makeDistributionTree } from '../scripts/lib/sample-tree.js'
import { ops, run, sweepAndClose } from './e2e-support.js'

let emu: Emulator
afterEach(async () => {
  await sweepAndClose(emu)
})

const tree = makeDistributionTree(undefined, 200_000)
const base = () => ({ 'api-url': emu.url, username: emu.username, password: emu.password, distribution: tree, environment: 'development' })

test.each([-600, 600])('a platform clock %i s off: the upload whose answer was lost is adopted, not sent again', async (clockOffsetSeconds) => {
  emu = await startEmulator({ clockOffsetSeconds, faults: [{ operation: 'upload', kind: 'drop-after-upload', times: 1 }] })
  const r = await run(base())
  expect(r.errors).toEqual([])
  expect(r.code).toBe(0)
  expect(ops(emu, 'upload')).toHaveLength(1)
  expect(emu.distributions).toHaveLength(1)
  const id = emu.distributions[0]?.id
  expect(r.visible).toContain(`adopting distribution ${id} instead of uploading a duplicate`)
  expect(r.outputs['distribution-id']).toBe(id)
  expect(ops(emu, 'deploy')[0]?.json).toMatchObject({ distributionId: id })
})
