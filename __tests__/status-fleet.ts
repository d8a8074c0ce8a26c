// The fleet the status report's end-to-end tests read (e2e-status, e2e-status-action): two emulators as two stacks
// and the GitHub stand-in with a commit graph a-c-e on main. eu/production runs a distribution a GitHub Deployment
// recorded at e (in-sync); eu/acceptance one whose name carries c (behind by 1); us/production one deployed by hand
// (outside). `downUrl` is a stack that does not answer.
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { fakeSha, startGitHubStandIn, type GitHubStandIn } from '../src/emulator/github/server.js'

export interface Fleet {
  eu: Emulator
  us: Emulator
  github: GitHubStandIn
  downUrl: string
  close(): Promise<void>
}

export async function startFleet(): Promise<Fleet> {
  const github = await startGitHubStandIn({ owner: 'acme', repo: 'site' })
  const [, C, E] = github.model.linear('main', ['a', 'c', 'e'].map(fakeSha)) as [string, string, string]
  const eu = await startEmulator({ environments: ['production', 'acceptance'] })
  const us = await startEmulator({ environments: ['production'], username: 'us-deployer', password: 'us-password' })
  const down = await startEmulator({})
  const downUrl = down.url
  await down.close()
  const prod = await eu.addDistribution('release.tar.gz', { 'index.html': 'e' })
  eu.deployAs('production', prod, { seconds: 0 })
  const d = github.model.addDeployment({ ref: E, environment: 'production', payload: { distributionId: prod, apiUrl: eu.url }, creator: 'octocat' })
  github.model.addStatus(d.id, { state: 'success', log_url: 'https://github.example/acme/site/actions/runs/7' })
  eu.deployAs('acceptance', await eu.addDistribution(`site-${C.slice(0, 7)}-distribution.tar.gz`, { 'index.html': 'c' }), { seconds: 0 })
  us.deployAs('production', await us.addDistribution('manual.tar.gz', { 'index.html': 'm' }), { seconds: 0 })
  return { eu, us, github, downUrl, close: async () => void (await Promise.all([eu.close(), us.close(), github.close()])) }
}
