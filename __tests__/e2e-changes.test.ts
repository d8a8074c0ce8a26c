// What is in the release, end to end: the bundled action against the emulator and the GitHub API stand-in, both over
// real HTTP. A deploy of a newer commit lists the commits between the one the environment ran and ours in the changes
// output and the summary, and in the GitHub Deployment's description and payload; the test asserts what GitHub received.
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { DEFAULT_GITHUB_TOKEN, fakeSha, startGitHubStandIn, type GitHubStandIn } from '../src/emulator/github/server.js'
import { release, run, sweepAndClose } from './e2e-support.js'

const TOKEN = DEFAULT_GITHUB_TOKEN
let emu: Emulator
let gh: GitHubStandIn
const [c1, c2, c3, c4] = ['x1', 'x2', 'x3', 'x4'].map(fakeSha) as [string, string, string, string]

afterEach(async () => {
  await gh?.close()
  await sweepAndClose(emu, [TOKEN])
})

function deployAt(sha: string, version: string, over: Record<string, string> = {}) {
  const inputs = {
    'api-url': emu.url,
    username: emu.username,
    password: emu.password,
    distribution: release(version),
    environment: 'production',
    'github-token': TOKEN,
    ...over
  }
  return run(inputs, { env: { GITHUB_API_URL: gh.url, GITHUB_SHA: sha, GITHUB_RUN_ID: String(parseInt(sha.slice(0, 6), 16)) } })
}

test('a newer commit: the commits it brings in the changes output, the summary and the GitHub Deployment', async () => {
  emu = await startEmulator({ deployLooks: 1 })
  gh = await startGitHubStandIn()
  const m = gh.model
  m.commit(c1, [], 'Start')
  m.commit(c2, [c1], 'Add search (#7)\n\nThe long story.', { name: 'Ann Writer', email: 'ann@example.com', login: 'ann' })
  m.commit(c3, [c2], 'Tidy the footer', { name: 'Bo Writer', email: 'bo@example.com' })
  m.commit(c4, [c3], 'Merge pull request #9 from acme/fix', { name: 'Cy Writer', email: 'cy@example.com', login: 'cy' })
  m.branch('main', c4)
  m.addIssue({ title: 'Tidy the footer', pullRequest: true, user: 'bo' })
  const footer = m.issues.at(-1)?.number ?? 0
  m.associatePullRequest(footer, c3)

  expect((await deployAt(c1, 'v1')).code).toBe(0)
  gh.calls.length = 0
  const r = await deployAt(c4, 'v4')
  expect(r.code).toBe(0)
  expect(r.outputs.changes).toBe(
    JSON.stringify([
      { sha: c2, title: 'Add search (#7)', author: 'ann', pullRequests: [7] },
      { sha: c3, title: 'Tidy the footer', author: 'Bo Writer', pullRequests: [footer] },
      { sha: c4, title: 'Merge pull request #9 from acme/fix', author: 'cy', pullRequests: [9] }
    ])
  )
  const link = (sha: string): string => `[\`${sha.slice(0, 7)}\`](https://github.com/acme/site/commit/${sha})`
  const lines = r.summary.split('\n')
  const at = lines.indexOf('### Changes')
  expect(lines.slice(at, at + 7)).toEqual([
    '### Changes',
    '',
    `**3 commit(s)** from ${link(c1)}, which 'production' ran, to ours, ${link(c4)}:`,
    '',
    `- ${link(c2)} Add search (#7) — ann`,
    `- ${link(c3)} Tidy the footer ([#${footer}](https://github.com/acme/site/pull/${footer})) — Bo Writer`,
    `- ${link(c4)} Merge pull request #9 from acme/fix — cy`
  ])
  // What GitHub received: the order's compare, the list's page, one lookup (the one title naming no pull request), the Deployment.
  const reads = gh.calls.filter((c) => c.route === 'compare' || c.route === 'commit-pulls').map((c) => `${c.path}?${c.query.toString()}`)
  expect(reads).toEqual([
    `/repos/acme/site/compare/${c1}...${c4}?per_page=1`,
    `/repos/acme/site/compare/${c1}...${c4}?per_page=100&page=1`,
    `/repos/acme/site/commits/${c3}/pulls?per_page=10`
  ])
  const created = gh.calls.filter((c) => c.route === 'create-deployment').map((c) => c.json as { description: string; payload: Record<string, unknown> })
  expect(created).toHaveLength(1)
  expect(created[0]?.description).toBe(
    `${r.outputs['distribution-name']} to ${emu.url}; 3 commits: Add search (#7); Tidy the footer; Merge pull request #9 from acme/fix`
  )
  expect(created[0]?.payload.changes).toEqual({
    direction: 'added',
    total: 3,
    commits: [
      { sha: c2, title: 'Add search (#7)', pullRequests: [7] },
      { sha: c3, title: 'Tidy the footer', pullRequests: [footer] },
      { sha: c4, title: 'Merge pull request #9 from acme/fix', pullRequests: [9] }
    ]
  })
})

test('the first deploy to an empty environment: changes is [] and the summary says why', async () => {
  emu = await startEmulator({ deployLooks: 1 })
  gh = await startGitHubStandIn()
  gh.model.commit(c1, [], 'Start')
  const r = await deployAt(c1, 'v1')
  expect(r.code).toBe(0)
  expect(r.outputs.changes).toBe('[]')
  expect(r.summary).toContain(
    "### Changes\n\nNo commits listed: the deploy order is unknown: 'production' runs no distribution, so there is no commit to compare with.\n"
  )
})
