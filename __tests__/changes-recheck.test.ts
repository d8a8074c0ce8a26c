// The release's commits after a wait (src/deploy/index.ts): another job's deploy lands while this run waits for the busy
// environment, the deploy order is checked again against it, and `changes` follows that last check, so the commits
// named are those this release brings over what it replaced, not over what ran before the wait.
import { useTestPort } from './test-port.js'
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { DEFAULT_GITHUB_TOKEN, fakeSha, startGitHubStandIn } from '../src/emulator/github/server.js'
import { runOfAcmeSite } from './github-run.js'
import { runDeploy } from './deploy-run.js'

const standIn = await startGitHubStandIn({ owner: 'acme', repo: 'site' })
const m = standIn.model
const c1 = m.commit(fakeSha('recheck-1'), [], 'First')
const c2 = m.commit(fakeSha('recheck-2'), [c1], 'Second, deployed by another job')
const c3 = m.commit(fakeSha('recheck-3'), [c2], 'Third, ours')
m.branch('main', c3)
runOfAcmeSite(standIn.url, c3, { GITHUB_RUN_ID: '93', GITHUB_STATE: '/dev/null' })

const lines: string[] = []
useTestPort({
  info: (text: string) => lines.push(text),
  warning: (text: string) => lines.push(text),
  notice: (text: string) => lines.push(text),
  debug: () => undefined,
  setSecret: () => undefined,
  getInput: () => '',
  isDebug: () => false,
  saveState: () => undefined,
  getState: () => ''
})
const { changesOutput } = await import('../src/deploy/changes.js')

let emu: Emulator
afterAll(async () => {
  await emu?.close()
  await standIn.close()
})

/** A GitHub Deployment of this action that recorded `distributionId` at `sha`, with its final state. */
function recorded(environment: string, distributionId: string, sha: string, state: 'success' | 'in_progress'): void {
  const d = m.addDeployment({ ref: sha, environment, payload: { distributionId, apiUrl: emu.url } })
  m.addStatus(d.id, { state })
}

test("another job's deploy lands during the wait: the commits follow the order's check after it", async () => {
  emu = await startEmulator()
  const d1 = await emu.addDistribution('site-1-distribution.tar.gz', { 'version.txt': '1\n' })
  const d2 = await emu.addDistribution('site-2-distribution.tar.gz', { 'version.txt': '2\n' })
  const d3 = await emu.addDistribution('site-3-distribution.tar.gz', { 'version.txt': '3\n' })
  emu.deployAs('production', d1)
  recorded('production', d1, c1, 'success')
  recorded('production', d2, c2, 'in_progress')
  recorded('acceptance', d3, c3, 'success')
  // Right after the run found the environment, another job starts deploying d2: the run waits for it.
  emu.onRequest('list-environments', () => emu.deployAs('production', d2, { looks: 2 }), { times: 1 })
  const outcome = await runDeploy(emu, { 'distribution-id': d3, environment: 'production', 'github-token': DEFAULT_GITHUB_TOKEN })
  expect(outcome.error).toBeUndefined()
  expect(outcome.result.order).toMatchObject({ order: 'ahead', recheck: true, running: { sha: c2 } })
  expect(outcome.result.changes).toMatchObject({ running: c2, ours: c3, total: 1, direction: 'added' })
  expect(JSON.parse(changesOutput(outcome.result.changes))).toEqual([{ sha: c3, title: 'Third, ours', author: expect.anything(), pullRequests: [] }])
})
