// The status report (src/status/, brcloud status) in-process: two emulators as two stacks and the GitHub stand-in with
// a commit graph. Every state, with its evidence; without GitHub; an unreadable stack (fails closed); the summary and
// the JSON; the file and the logins refused before any request; and no call that changes anything.
import { jest } from '@jest/globals'
import { EventEmitter, getEventListeners } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { DEFAULT_GITHUB_TOKEN, fakeSha, startGitHubStandIn } from '../src/emulator/github/server.js'
import type { DeploymentState } from '../src/emulator/github/model.js'
import { runOfAcmeSite } from './github-run.js'
import { useTestPort } from './test-port.js'

const standIn = await startGitHubStandIn({ owner: 'acme', repo: 'site' })
runOfAcmeSite(standIn.url, fakeSha('run'))
const { parseStatusConfig, prepareStatus, readStatus } = await import('../src/status/index.js')
const { statusJson, statusMarkdown, statusTable } = await import('../src/status/render.js')
const { statusExit } = await import('../src/cli/status.js')
const { statusVerdict, parseFailOn } = await import('../src/status/verdict.js')
const { trackOf, healthOf, DEFAULT_LOGIN_VARIABLES } = await import('../src/status/config.js')
const stopModule = await import('../src/status/stop.js')
const { STATUS_EXIT } = await import('../src/cli/exit-codes.js')
const { InputError } = await import('../src/errors.js')
const { runnerContext } = await import('../src/github/runner-context.js')
const { prepareSingleStack, singleStackChosen, maskedReader } = await import('../src/status/single-stack.js')
const { keepDriftIssues } = await import('../src/status/drift-issues.js')
const { GitHubApi } = await import('../src/github/client.js')

type Report = Awaited<ReturnType<typeof readStatus>>

// main: A - B - C - D - E; next: E - X (ahead); feature: C - F1 - F2 (diverged); E is main's head.
const [A, B, C, D, E] = standIn.model.linear('main', ['a', 'b', 'c', 'd', 'e'].map(fakeSha)) as [string, string, string, string, string]
const X = standIn.model.commit(fakeSha('x'), [E])
const F1 = standIn.model.commit(fakeSha('f1'), [C])
const F2 = standIn.model.commit(fakeSha('f2'), [F1])
void D

const nameOf = (sha: string): string => `site-${sha.slice(0, 7)}-distribution.tar.gz`
const FILES = { 'webapps/site.war': 'site' }

let eu: Emulator
let us: Emulator
/** A stack that answers nothing: an emulator started and closed, its port now refused. */
let downUrl: string
const warnings: string[] = []
/** What the report masked (the port's setSecret), in order. */
const masks: string[] = []
/** The report's debug lines. */
const debugs: string[] = []
/** The distribution each environment runs, by stack/environment. */
const running: Record<string, string> = {}

beforeAll(async () => {
  useTestPort({ warning: (m) => warnings.push(m), setSecret: (m) => masks.push(m), debug: (m) => debugs.push(m) })
  eu = await startEmulator({ environments: ['development', 'acceptance', 'production', 'test'], username: 'eu-deployer', password: 'eu-password' })
  us = await startEmulator({ environments: ['development', 'acceptance', 'production'] })
  const down = await startEmulator({})
  downUrl = down.url
  await down.close()

  const deploy = async (emu: Emulator, stack: string, environment: string, name: string, options?: { seconds?: number }): Promise<string> => {
    const id = await emu.addDistribution(name, FILES)
    emu.deployAs(environment, id, { seconds: options?.seconds ?? 0, by: 'someone' })
    running[`${stack}/${environment}`] = id
    return id
  }
  const record = (environment: string, sha: string, distributionId: string, apiUrl: string): number => {
    const d = standIn.model.addDeployment({ ref: sha, environment, payload: { distributionId, apiUrl }, creator: 'octocat' })
    standIn.model.addStatus(d.id, { state: 'success', log_url: `https://github.example/acme/site/actions/runs/${d.id}` })
    return d.id
  }
  // eu: production in sync (a Deployment recorded it), acceptance behind (its name), development ahead (a Deployment), test diverged (its name).
  record('production', E, await deploy(eu, 'eu', 'production', 'release.tar.gz'), eu.url)
  await deploy(eu, 'eu', 'acceptance', nameOf(C))
  record('development', X, await deploy(eu, 'eu', 'development', 'dev-build.tar.gz'), eu.url)
  await deploy(eu, 'eu', 'test', nameOf(F2))
  // us: production from Mission Control (no record, no commit in the name), acceptance switching, development empty.
  await deploy(us, 'us', 'production', 'hotfix.tar.gz')
  // A Deployment of another stack's production names us's distribution: it is no evidence for us.
  record('production', D, running['us/production'] as string, 'https://api.elsewhere.example')
  await deploy(us, 'us', 'acceptance', nameOf(E), { seconds: Number.POSITIVE_INFINITY })
}, 60_000)

afterAll(async () => {
  await Promise.all([eu?.close(), us?.close(), standIn.close()])
})

const FILE = (down = false): string => `
track: main
stacks:
  - name: eu
    api-url: ${eu.url}
    login:
      username-variable: EU_USER
      password-variable: EU_PASS
  - name: us
    api-url: ${us.url}
${down ? `  - name: down\n    api-url: ${downUrl}\n    environments: [production]\n` : ''}`

const ENV = (): NodeJS.ProcessEnv => ({ EU_USER: eu.username, EU_PASS: eu.password, BRCLOUD_USERNAME: us.username, BRCLOUD_PASSWORD: us.password })
const QUICK = { attempts: 2, baseDelayMs: 10, maxDelayMs: 20, maxTotalMs: 1_000 }

async function report(options: { down?: boolean; github?: boolean } = {}): Promise<Report> {
  const prepared = prepareStatus(parseStatusConfig(FILE(options.down), 'fleet.yml'), ENV())
  const context = { ...runnerContext(), repository: 'acme/site' }
  return readStatus(prepared, {
    github: options.github === false ? undefined : { token: DEFAULT_GITHUB_TOKEN, context },
    repository: 'acme/site',
    retry: QUICK
  })
}

const row = (r: Report, stack: string, environment: string | null) => {
  const found = r.environments.find((e) => e.stack === stack && e.environment === environment)
  if (found === undefined) throw new Error(`no row ${stack}/${environment}`)
  return found
}

/** Calls that would change a stack or GitHub: none may reach either. */
const CHANGES = ['upload', 'delete-distribution', 'deploy', 'logout']
function changeCalls(): string[] {
  return [
    ...[eu, us].flatMap((e) => e.requests.filter((r) => CHANGES.includes(r.operation)).map((r) => `${r.method} ${r.url}`)),
    ...standIn.calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`)
  ]
}

describe('every state, with GitHub', () => {
  let r: Report
  beforeAll(async () => {
    r = await report()
  })

  test('in-sync: a GitHub Deployment of this stack recorded the distribution, of the tracked head', () => {
    const p = row(r, 'eu', 'production')
    expect(p).toMatchObject({
      state: 'in-sync',
      commit: E,
      evidence: 'deployment',
      distributionId: running['eu/production'],
      distributionName: 'release.tar.gz',
      track: 'main'
    })
    expect(p).toMatchObject({ createdBy: 'someone-else', platformStatus: 'running', behindBy: 0, aheadBy: 0, reason: null })
    expect(p.md5hash).toMatch(/^[0-9a-f]{32}$/)
    expect(p.createdAt).not.toBeNull()
    expect(p.lastDeployment).toMatchObject({ commit: E, by: 'octocat', state: 'success', id: p.evidenceDeploymentId })
    expect(p.lastDeployment?.runUrl).toMatch(/actions\/runs\//)
  })

  test("each Deployment's status read once per report: the running distribution's record is usually the newest too", () => {
    const reads = standIn.calls.filter((c) => c.route === 'list-statuses').map((c) => c.path)
    expect(reads.length).toBeGreaterThan(0)
    expect(new Set(reads).size).toBe(reads.length)
  })

  test('behind, with how many commits: the commit from the name', () => {
    expect(row(r, 'eu', 'acceptance')).toMatchObject({
      state: 'behind',
      behindBy: 2,
      aheadBy: 0,
      commit: C.slice(0, 7),
      evidence: 'name',
      lastDeployment: null
    })
  })

  test('ahead and diverged', () => {
    expect(row(r, 'eu', 'development')).toMatchObject({ state: 'ahead', aheadBy: 1, commit: X, evidence: 'deployment' })
    expect(row(r, 'eu', 'test')).toMatchObject({ state: 'diverged', aheadBy: 2, behindBy: 2, commit: F2.slice(0, 7), evidence: 'name' })
  })

  test("outside: no record of this stack names it (another stack's does not count) and its name carries no commit", () => {
    const p = row(r, 'us', 'production')
    expect(p).toMatchObject({ state: 'outside', commit: null, evidence: 'unknown', distributionName: 'hotfix.tar.gz', lastDeployment: null })
    expect(p.reason).toBe(
      `no GitHub Deployment of acme/site on this stack recorded distribution ${p.distributionId} (uploaded by someone-else at ${p.createdAt}), ` +
        'and its name carries no commit of it: deployed from Mission Control or another tool'
    )
  })

  test('deploying (the platform says so) and empty', () => {
    expect(row(r, 'us', 'acceptance')).toMatchObject({ state: 'deploying', platformStatus: 'deploying', reason: "the platform's status is 'deploying'" })
    expect(row(r, 'us', 'development')).toMatchObject({ state: 'empty', distributionId: null, commit: null })
  })

  test('read in full: exit 0, also with drift; --fail-on a state present exits 8, one absent 0', () => {
    expect(r.stacks.map((s) => [s.name, s.errors])).toEqual([
      ['eu', []],
      ['us', []]
    ])
    const said: string[] = []
    expect(statusExit(r, [], (m) => said.push(m))).toBe(STATUS_EXIT.success)
    expect(statusExit(r, ['behind', 'outside'], (m) => said.push(m))).toBe(STATUS_EXIT.failOn)
    expect(said).toEqual(['--fail-on behind,outside: eu/acceptance is behind; us/production is outside.'])
    expect(statusExit(r, ['unknown'], () => undefined)).toBe(STATUS_EXIT.success)
  })

  test('the table, the Markdown summary and the JSON', () => {
    const table = statusTable(r)
    expect(table.split('\n')[0]).toMatch(/^STACK\s+ENVIRONMENT\s+STATE\s+HEALTH\s+TRACK\s+COMMIT\s+EVIDENCE\s+DISTRIBUTION\s+UPLOADED\s+FROZEN\s+BACKUP$/)
    expect(table).toMatch(/eu\s+acceptance\s+behind 2\s+-\s+main\s+[0-9a-f]{7}\s+name\s+site-/)
    expect(table).toMatch(/\nWhy:\n(.*\n)* {2}us\/production: no GitHub Deployment/)
    const md = statusMarkdown(r)
    expect(md).toContain('## What runs where')
    expect(md).toMatch(/\| eu \| production \| \*\*in-sync\*\* \| - \| main \| `[0-9a-f]{7}` \| deployment \| release\.tar\.gz \|/)
    expect(md).toMatch(/\[[0-9a-f]{7} success by octocat at [^\]]+\]\(https:\/\/github\.example\/acme\/site\/actions\/runs\/\d+\)/)
    expect(md).not.toContain('Not read')
    const json = JSON.parse(statusJson(r)) as { environments: Array<Record<string, unknown>>; stacks: unknown[] }
    expect(json.environments).toHaveLength(7)
    for (const e of json.environments)
      for (const key of ['stack', 'environment', 'distributionId', 'distributionName', 'commit', 'evidence', 'state', 'reason']) expect(e).toHaveProperty(key)
    expect(json.stacks).toEqual([
      { name: 'eu', apiUrl: eu.url, read: true, errors: [] },
      { name: 'us', apiUrl: us.url, read: true, errors: [] }
    ])
  })
})

test('a commit GitHub does not know: unknown, with the reason; not a failure to read', async () => {
  const ghost = fakeSha('ghost')
  const id = await eu.addDistribution(nameOf(ghost), FILES)
  eu.deployAs('test', id, { seconds: 0 })
  try {
    const r = await report()
    expect(row(r, 'eu', 'test')).toMatchObject({ state: 'unknown', commit: ghost.slice(0, 7), evidence: 'name' })
    expect(row(r, 'eu', 'test').reason).toMatch(/: main is known, but GitHub does not know commit [0-9a-f]{7} in acme\/site/)
    expect(r.githubErrors).toEqual([])
    expect(r.trackErrors).toEqual([])
  } finally {
    eu.deployAs('test', running['eu/test'] as string, { seconds: 0 })
  }
})

describe('every platform reading: a status field or none, the id reported, absent or null while switching, upper-case ids', () => {
  /** A stack of `options` with production being switched (held), acceptance never deployed, development running a recorded release. */
  async function readingOf(options: Parameters<typeof startEmulator>[0], recorded: DeploymentState = 'in_progress'): Promise<{ r: Report; emu: Emulator }> {
    const emu = await startEmulator({ environments: ['production', 'acceptance', 'development'], ...options })
    const id = await emu.addDistribution('release.tar.gz', FILES)
    emu.deployAs('development', id, { seconds: 0 })
    const d = standIn.model.addDeployment({ ref: E, environment: 'development', payload: { distributionId: id, apiUrl: emu.url }, creator: 'octocat' })
    standIn.model.addStatus(d.id, { state: 'success' })
    // The switch of production is recorded by its run (still in progress) and held: the platform is switching it.
    const next = await emu.addDistribution('next.tar.gz', FILES)
    const p = standIn.model.addDeployment({ ref: E, environment: 'production', payload: { distributionId: next, apiUrl: emu.url }, creator: 'octocat' })
    standIn.model.addStatus(p.id, { state: recorded })
    emu.deployAs('production', next, { seconds: Number.POSITIVE_INFINITY })
    const file = `track: main\nstacks:\n  - name: q\n    api-url: ${emu.url}\n`
    const prepared = prepareStatus(parseStatusConfig(file, 'f.yml'), { BRCLOUD_USERNAME: emu.username, BRCLOUD_PASSWORD: emu.password })
    const context = { ...runnerContext(), repository: 'acme/site' }
    const r = await readStatus(prepared, { github: { token: DEFAULT_GITHUB_TOKEN, context }, repository: 'acme/site', retry: QUICK })
    return { r, emu }
  }
  const states = (r: Report): Array<[string | null, string]> => r.environments.map((e) => [e.environment, e.state])

  test.each([
    ['queued', true],
    ['pending', true],
    ['failure', false]
  ] as Array<[DeploymentState, boolean]>)(
    'no status field, no id while switching, its last Deployment %s: said under way only while GitHub shows it under way',
    async (recorded, underWay) => {
      const { r, emu } = await readingOf({ environmentStatus: false, idWhileDeploying: 'absent' }, recorded)
      try {
        const switching = row(r, 'q', 'production')
        expect(switching.reason).toMatch(/^the platform reports no distribution and shows no status field: .* cannot be told\./)
        expect((switching.reason ?? '').endsWith(` GitHub Deployment ${switching.lastDeployment?.id} of it is ${recorded}.`)).toBe(underWay)
        if (!underWay) expect(switching.reason).not.toMatch(/GitHub Deployment/)
      } finally {
        await emu.close()
      }
    }
  )

  for (const idWhileDeploying of ['absent', 'null'] as const) {
    test(`no status field, the id ${idWhileDeploying} while switching: "no distribution reported" is unknown, never empty; fail-on empty and drift issues leave it`, async () => {
      const { r, emu } = await readingOf({ environmentStatus: false, idWhileDeploying })
      try {
        expect(states(r)).toEqual([
          ['production', 'unknown'],
          ['acceptance', 'unknown'],
          ['development', 'in-sync']
        ])
        const switching = row(r, 'q', 'production')
        expect(switching).toMatchObject({ distributionId: null, platformStatus: null, commit: null })
        expect(switching.reason).toBe(
          'the platform reports no distribution and shows no status field: it runs nothing, or it is being switched (a platform may not report ' +
            `the id while it switches); which one cannot be told. GitHub Deployment ${switching.lastDeployment?.id} of it is in_progress.`
        )
        expect(row(r, 'q', 'acceptance').reason).toMatch(/^the platform reports no distribution and shows no status field: .* cannot be told\.$/)
        expect(statusExit(r, ['empty'], () => undefined)).toBe(STATUS_EXIT.success)
        // Drift issues: nothing opened for what could not be told.
        const api = await GitHubApi.open(DEFAULT_GITHUB_TOKEN, undefined, { ...runnerContext(), repository: 'acme/site' })
        const kept = await keepDriftIssues(r, api, { failOn: ['empty'], runUrl: undefined, serverUrl: 'https://github.example' })
        expect(kept).toEqual({ opened: [], updated: [], closed: [], failures: [] })
      } finally {
        await emu.close()
      }
    })
  }

  test('a status field: the switch is deploying, and an environment that reports no distribution while its status says so is empty', async () => {
    const { r, emu } = await readingOf({ environmentStatus: true, idWhileDeploying: 'absent' })
    try {
      expect(states(r)).toEqual([
        ['production', 'deploying'],
        ['acceptance', 'empty'],
        ['development', 'in-sync']
      ])
      expect(statusExit(r, ['empty'], () => undefined)).toBe(STATUS_EXIT.failOn)
    } finally {
      await emu.close()
    }
  })

  test('no status field, the id reported while switching: the row says what the platform reports (the new release, its Deployment in progress)', async () => {
    const { r, emu } = await readingOf({ environmentStatus: false, idWhileDeploying: 'reported', deployReport: 'at-request' })
    try {
      expect(states(r)).toEqual([
        ['production', 'in-sync'],
        ['acceptance', 'unknown'],
        ['development', 'in-sync']
      ])
      expect(row(r, 'q', 'production').lastDeployment).toMatchObject({ state: 'in_progress' })
    } finally {
      await emu.close()
    }
  })

  for (const idCase of ['upper', 'upper-environments', 'upper-distributions'] as const) {
    test(`ids in upper case (${idCase}): the Deployment that recorded the id in lower case is still the evidence`, async () => {
      const { r, emu } = await readingOf({ idCase })
      try {
        expect(row(r, 'q', 'development')).toMatchObject({ state: 'in-sync', evidence: 'deployment', commit: E, distributionName: 'release.tar.gz' })
        expect(states(r).slice(0, 2)).toEqual([
          ['production', 'deploying'],
          ['acceptance', 'empty']
        ])
      } finally {
        await emu.close()
      }
    })
  }
})

test("the action's own promotion of a distribution whose commit no evidence names: unknown, not outside; its Deployment shows no commit", async () => {
  // acceptance got hotfix.tar.gz from Mission Control (nothing recorded); a run of this repository promoted it to production,
  // recording the Deployment as src/deploy/index.ts does: at the promoting run's commit, the payload saying the commit is unknown.
  const emu = await startEmulator({ environments: ['production', 'acceptance'] })
  try {
    const id = await emu.addDistribution('hotfix.tar.gz', FILES)
    emu.deployAs('acceptance', id, { seconds: 0, by: 'j.doe' })
    emu.deployAs('production', id, { seconds: 0 })
    const runCommit = fakeSha('promoting-run')
    const d = standIn.model.addDeployment({
      ref: runCommit,
      sha: runCommit,
      environment: 'production',
      payload: { distributionId: id, distributionName: 'hotfix.tar.gz', apiUrl: emu.url, commit: 'unknown' }
    })
    standIn.model.addStatus(d.id, { state: 'success', log_url: 'https://github.example/acme/site/actions/runs/99' })
    const file = `track: main\nstacks:\n  - name: p\n    api-url: ${emu.url}\n`
    const prepared = prepareStatus(parseStatusConfig(file, 'f.yml'), { BRCLOUD_USERNAME: emu.username, BRCLOUD_PASSWORD: emu.password })
    const context = { ...runnerContext(), repository: 'acme/site' }
    const r = await readStatus(prepared, { github: { token: DEFAULT_GITHUB_TOKEN, context }, repository: 'acme/site', retry: QUICK })
    const production = row(r, 'p', 'production')
    expect(production).toMatchObject({ state: 'unknown', commit: null, evidence: 'unknown', evidenceDeploymentId: null })
    expect(production.reason).toBe(
      `GitHub Deployment ${d.id} (by github-actions[bot]) recorded distribution ${id} (uploaded by someone-else at ${production.createdAt}) ` +
        'as promoted here by this action, of a commit no evidence names: no GitHub Deployment recorded its commit, and its name carries none'
    )
    expect(production.reason).not.toMatch(/Mission Control|another tool/)
    // The promoting run's commit is not the running commit: the Deployment is shown without one.
    expect(production.lastDeployment).toMatchObject({ id: d.id, commit: null, state: 'success' })
    expect(statusMarkdown(r)).toMatch(
      /\[commit unknown success by github-actions\[bot\] at [^\]]+\]\(https:\/\/github\.example\/acme\/site\/actions\/runs\/99\)/
    )
    expect(statusMarkdown(r)).not.toContain(runCommit.slice(0, 7))
    // acceptance got it from elsewhere: outside, and the reason names the promotion it did not come from.
    const acceptance = row(r, 'p', 'acceptance')
    expect(acceptance.state).toBe('outside')
    expect(acceptance.reason).toBe(
      `no GitHub Deployment of acme/site on this stack recorded distribution ${id} (uploaded by someone-else at ${acceptance.createdAt}) for acceptance ` +
        `(GitHub Deployment ${d.id} recorded it for production, of a commit no evidence names), and its name carries no commit of it: ` +
        'deployed from Mission Control or another tool'
    )
  } finally {
    await emu.close()
  }
})

describe('a track: ref GitHub does not know (a typo) fails the report closed, naming the ref and where it was written', () => {
  const unknownRef = (ref: string, where: string): string =>
    `track '${ref}' (${where}) is no branch, tag or commit that GitHub knows in acme/site: correct it (a misspelt name?), or push it`

  test('in the file: at the top, on a stack, on an environment; the other rows read; exit 1 whatever --fail-on says', async () => {
    const login = ['    login:', '      username-variable: EU_USER', '      password-variable: EU_PASS']
    const file = [
      'track: mian',
      'stacks:',
      '  - name: eu',
      `    api-url: ${eu.url}`,
      ...login,
      '    track: mian',
      '    environments:',
      '      - production',
      '      - name: acceptance',
      '        track: main',
      '      - name: development',
      '        track: relase/2',
      '  - name: eu2',
      `    api-url: ${eu.url}`,
      ...login,
      '    environments: [test]',
      ''
    ].join('\n')
    const r = await readStatus(prepareStatus(parseStatusConfig(file, 'fleet.yml'), ENV()), {
      github: { token: DEFAULT_GITHUB_TOKEN, context: { ...runnerContext(), repository: 'acme/site' } },
      repository: 'acme/site',
      retry: QUICK
    })
    const stack = unknownRef('mian', 'fleet.yml: stacks[0] (eu).track')
    const env = unknownRef('relase/2', 'fleet.yml: stacks[0] (eu).environments[2].track')
    const top = unknownRef('mian', 'fleet.yml: track')
    expect(r.environments.map((e) => [e.stack, e.environment, e.state, e.reason])).toEqual([
      ['eu', 'production', 'unknown', stack],
      ['eu', 'acceptance', 'behind', null],
      ['eu', 'development', 'unknown', env],
      ['eu2', 'test', 'unknown', top]
    ])
    // In the order of the rows, whichever answer came first.
    expect(r.trackErrors).toEqual([stack, env, top])
    expect(r.githubErrors).toEqual([])
    const said: string[] = []
    expect(statusExit(r, ['behind'], (m) => said.push(m))).toBe(STATUS_EXIT.unreadable)
    expect(said).toEqual([`The report is not complete: ${stack}; ${env}; ${top} (its rows read unknown).`])
    expect(statusTable(r)).toContain(`\nNot read:\n  ${stack}\n  ${env}\n  ${top}\n`)
    expect(JSON.parse(statusJson(r)).github).toEqual({ repository: 'acme/site', errors: [stack, env, top] })
    // Each ref asked for once, by comparing it with itself: GitHub resolves it as it resolves the report's compares.
    const asked = standIn.calls
      .filter((c) => c.route === 'compare' && /\/compare\/(mian|relase%2F2)\.\.\.(mian|relase%2F2)$/.test(c.path))
      .map((c) => c.path.split('/').at(-1))
    expect(asked.sort()).toEqual(['mian...mian', 'relase%2F2...relase%2F2'])
  })

  test("the refs' failures in the order of the rows, when GitHub answers the later row's first", async () => {
    const file = [
      'stacks:',
      '  - name: eu',
      `    api-url: ${eu.url}`,
      '    login:',
      '      username-variable: EU_USER',
      '      password-variable: EU_PASS',
      '    environments:',
      '      - name: production',
      '        track: mian',
      '      - name: development',
      '        track: relase/2',
      ''
    ].join('\n')
    // production's ref is answered only once development's has been: the failures arrive in the reverse order of the rows.
    const compare = GitHubApi.prototype.compare
    let laterAnswered: () => void = () => undefined
    const later = new Promise<void>((resolve) => (laterAnswered = resolve))
    const spy = jest.spyOn(GitHubApi.prototype, 'compare').mockImplementation(async function (this: typeof GitHubApi.prototype, base, head) {
      if (base === 'mian') await later
      try {
        return await compare.call(this, base, head)
      } finally {
        if (base === 'relase/2' && head === 'relase/2') setImmediate(laterAnswered)
      }
    })
    try {
      const r = await readStatus(prepareStatus(parseStatusConfig(file, 'order.yml'), ENV()), {
        github: { token: DEFAULT_GITHUB_TOKEN, context: { ...runnerContext(), repository: 'acme/site' } },
        repository: 'acme/site',
        retry: QUICK
      })
      const production = unknownRef('mian', 'order.yml: stacks[0] (eu).environments[0].track')
      const development = unknownRef('relase/2', 'order.yml: stacks[0] (eu).environments[1].track')
      expect(r.environments.map((e) => e.reason)).toEqual([production, development])
      expect(r.trackErrors).toEqual([production, development])
    } finally {
      spy.mockRestore()
    }
  })

  test('where no row has a commit to compare (one being deployed, one empty): the ref is still checked, the report fails closed', async () => {
    const file = `track: mian\nstacks:\n  - name: us\n    api-url: ${us.url}\n    environments: [acceptance, development]\n`
    const r = await readStatus(prepareStatus(parseStatusConfig(file, 'quiet.yml'), ENV()), {
      github: { token: DEFAULT_GITHUB_TOKEN, context: { ...runnerContext(), repository: 'acme/site' } },
      repository: 'acme/site',
      retry: QUICK
    })
    // What the platform showed stays true: the ref changes neither a switch under way nor an empty environment.
    expect(r.environments.map((e) => [e.environment, e.state])).toEqual([
      ['acceptance', 'deploying'],
      ['development', 'empty']
    ])
    const top = unknownRef('mian', 'quiet.yml: track')
    expect(r.trackErrors).toEqual([top])
    expect(statusExit(r, [], () => undefined)).toBe(STATUS_EXIT.unreadable)
  })

  test('where no row has a commit to compare, a tag pattern: it fails the report only when a whole listing has no tag matching it', async () => {
    const trackErrors = async (track: string, listing: { tags: Array<{ name: string; sha: string }>; complete: boolean }): Promise<readonly string[]> => {
      const spy = jest.spyOn(GitHubApi.prototype, 'listTags').mockResolvedValue(listing)
      try {
        const file = `track: ${track}\nstacks:\n  - name: us\n    api-url: ${us.url}\n    environments: [acceptance, development]\n`
        const r = await readStatus(prepareStatus(parseStatusConfig(file, 'tags.yml'), ENV()), {
          github: { token: DEFAULT_GITHUB_TOKEN, context: { ...runnerContext(), repository: 'acme/site' } },
          repository: 'acme/site',
          retry: QUICK
        })
        return r.trackErrors
      } finally {
        spy.mockRestore()
      }
    }
    const tags = [{ name: 'v1.2.0', sha: E }]
    expect(await trackErrors('v*', { tags, complete: true })).toEqual([])
    expect(await trackErrors('w*', { tags, complete: true })).toEqual([
      "track 'w*' (tags.yml: track) matches no tag of acme/site: correct the pattern, or tag a release"
    ])
    // A listing cut short may hide the match: nothing is claimed.
    expect(await trackErrors('w*', { tags, complete: false })).toEqual([])
  })

  test("a single stack's track: named as the face names it", async () => {
    const inputs: Record<string, string> = { 'api-url': eu.url, environments: 'production', track: 'mian', username: eu.username, password: eu.password }
    const prepared = prepareSingleStack((name) => inputs[name] ?? '', '--track')
    const r = await readStatus(prepared, {
      github: { token: DEFAULT_GITHUB_TOKEN, context: { ...runnerContext(), repository: 'acme/site' } },
      repository: 'acme/site',
      retry: QUICK
    })
    expect(r.trackErrors).toEqual([unknownRef('mian', '--track')])
  })
})

test('without GitHub: the commit from the name where it carries one; every state that needs GitHub is unknown, saying why', async () => {
  const r = await report({ github: false })
  expect(row(r, 'eu', 'acceptance')).toMatchObject({ state: 'unknown', commit: C.slice(0, 7), evidence: 'name', lastDeployment: null })
  expect(row(r, 'eu', 'acceptance').reason).toMatch(/needs GitHub: set BRCLOUD_GITHUB_TOKEN/)
  expect(row(r, 'eu', 'production')).toMatchObject({ state: 'unknown', commit: null })
  expect(row(r, 'us', 'production').reason).toMatch(/without a GitHub token the Deployments that may record it are not read/)
  expect(row(r, 'us', 'acceptance').state).toBe('deploying')
  expect(row(r, 'us', 'development').state).toBe('empty')
  expect(statusExit(r, [], () => undefined)).toBe(STATUS_EXIT.success)
})

test('without GitHub or a repository: a name says no commit, and the reason says to give the repository', async () => {
  const file = `stacks:\n  - name: us\n    api-url: ${us.url}\n    environments: [production]\n`
  const r = await readStatus(prepareStatus(parseStatusConfig(file, 'f.yml'), ENV()), { retry: QUICK })
  const production = row(r, 'us', 'production')
  expect(production).toMatchObject({ state: 'unknown', commit: null, evidence: 'unknown' })
  expect(production.reason).toMatch(
    new RegExp(`^no repository is given \\(--repository\\), so nothing tells which commit distribution ${production.distributionId} \\(uploaded by `)
  )
})

test('a tag pattern where GitHub holds more tags than a listing reads (20 pages of 100): unknown, saying the newest match cannot be told', async () => {
  const spy = jest.spyOn(GitHubApi.prototype, 'listTags').mockResolvedValue({ tags: [], complete: false })
  try {
    const file = `stacks:\n  - name: eu\n    api-url: ${eu.url}\n    login:\n      username-variable: EU_USER\n      password-variable: EU_PASS\n    track: v*\n    environments: [production]\n`
    const r = await readStatus(prepareStatus(parseStatusConfig(file, 'f.yml'), ENV()), {
      github: { token: DEFAULT_GITHUB_TOKEN, context: { ...runnerContext(), repository: 'acme/site' } },
      repository: 'acme/site',
      retry: QUICK
    })
    expect(row(r, 'eu', 'production')).toMatchObject({
      state: 'unknown',
      reason: 'acme/site has more than 2000 tags: the newest matching v* cannot be told'
    })
  } finally {
    spy.mockRestore()
  }
})

/** The eu stack's production alone (with `extra` settings of the stack), read with GitHub's token of acme/site. */
async function readEuProduction(extra = ''): Promise<Report> {
  const file = `stacks:\n  - name: eu\n    api-url: ${eu.url}\n    login:\n      username-variable: EU_USER\n      password-variable: EU_PASS\n${extra}    environments: [production]\n`
  return readStatus(prepareStatus(parseStatusConfig(file, 'f.yml'), ENV()), {
    github: { token: DEFAULT_GITHUB_TOKEN, context: { ...runnerContext(), repository: 'acme/site' } },
    repository: 'acme/site',
    retry: QUICK
  })
}

test("the recording Deployment's status, when its first read failed, is read again for the last Deployment", async () => {
  standIn.fail('list-statuses', { status: 403, times: 1 })
  const r = await readEuProduction()
  const production = row(r, 'eu', 'production')
  expect(production).toMatchObject({ evidence: 'deployment', commit: E })
  expect(production.lastDeployment).toMatchObject({ id: production.evidenceDeploymentId, state: 'success' })
})

test('a compare GitHub refuses (403) is a failure to read, not a commit it does not know', async () => {
  standIn.fail('compare', { status: 403, times: 1 })
  const r = await readEuProduction('    track: main\n')
  const production = row(r, 'eu', 'production')
  expect(production.state).toBe('unknown')
  expect(production.reason).toMatch(/^GitHub could not be read: .*\(the token lacks a permission: it needs deployments: read and contents: read\)$/)
  expect(r.githubErrors).toEqual([production.reason])
})

test.each([
  // A 404 is not tried again; a 500 is, by GitHub's client (3 attempts): the faults are all used, none left for the next test.
  [404, 1, 'GitHub does not show the repository to the token'],
  [500, 3, 'GitHub failed; try again later']
])("GitHub's HTTP %i on the Deployments: the row unknown, its advice in its words", async (status, times, advice) => {
  const before = standIn.calls.length
  standIn.fail('list-deployments', { status, times })
  const r = await readEuProduction()
  const production = row(r, 'eu', 'production')
  expect(production.state).toBe('unknown')
  expect(production.reason).toMatch(new RegExp(`^GitHub could not be read: .*HTTP ${status}.* \\(${advice.replace(/[.;]/g, '\\$&')}\\)$`))
  expect(standIn.calls.slice(before).filter((c) => c.route === 'list-deployments').length).toBe(times)
})

test('GitHub refusing the token: the rows that need it unknown, and the report fails closed', async () => {
  const prepared = prepareStatus(parseStatusConfig(FILE(), 'fleet.yml'), ENV())
  const r = await readStatus(prepared, { github: { token: 'ghs_notAToken', context: { ...runnerContext(), repository: 'acme/site' } }, retry: QUICK })
  expect(row(r, 'eu', 'production')).toMatchObject({ state: 'unknown' })
  expect(row(r, 'eu', 'production').reason).toMatch(/GitHub could not be read: .*401.*\(GitHub refused the token: give a valid token of the repository\)$/)
  expect(row(r, 'us', 'development').state).toBe('unknown')
  expect(r.githubErrors.length).toBeGreaterThan(0)
  expect(statusExit(r, [], () => undefined)).toBe(STATUS_EXIT.unreadable)
})

test("GitHub's error that echoes the token: the table, the summary and the json show it as ***", async () => {
  // A face registers the token as it reads it (cli/status.ts, action/status.ts); the report's words are scrubbed of it.
  const { registerSecret } = await import('../src/secrets.js')
  const token = 'ghs_echoedBackByAProxy0451'
  registerSecret(token)
  standIn.fail('list-deployments', { status: 401, times: 50, body: { message: `Bad credentials: ${token}` } })
  const prepared = prepareStatus(parseStatusConfig(FILE(), 'fleet.yml'), ENV())
  let r: Report
  try {
    r = await readStatus(prepared, { github: { token, context: { ...runnerContext(), repository: 'acme/site' } }, retry: QUICK })
  } finally {
    // The faults the report did not meet are used up here, so that no other test meets them.
    const list = (): Promise<Response> => fetch(`${standIn.url}/repos/acme/site/deployments`, { headers: { authorization: `Bearer ${DEFAULT_GITHUB_TOKEN}` } })
    for (let i = 0; i < 50 && (await list()).status === 401; i++);
  }
  expect(row(r, 'eu', 'production').reason).toContain('Bad credentials')
  for (const shown of [statusTable(r), statusMarkdown(r), statusJson(r)]) {
    expect(shown).toContain('Bad credentials: ***')
    expect(shown).not.toContain(token)
  }
})

test("the file's logins: each password masked the moment it is read", async () => {
  // As in a new process: no secret known yet.
  const { forgetSecrets } = await import('../src/secrets.js')
  forgetSecrets()
  masks.length = 0
  prepareStatus(parseStatusConfig(FILE(), 'fleet.yml'), ENV())
  expect(masks).toEqual(expect.arrayContaining([eu.password, us.password]))
})

describe('a stack that cannot be read', () => {
  test('its rows read unknown with the reason, the others are read, and the report fails closed', async () => {
    const r = await report({ down: true })
    expect(row(r, 'down', 'production')).toMatchObject({ state: 'unknown', distributionId: null })
    expect(row(r, 'down', 'production').reason).toMatch(/^the stack could not be read: /)
    expect(row(r, 'eu', 'production').state).toBe('in-sync')
    const said: string[] = []
    // Even a --fail-on state present yields to it: what was not read may hide anything.
    expect(statusExit(r, ['behind'], (m) => said.push(m))).toBe(STATUS_EXIT.unreadable)
    expect(said[0]).toMatch(/stack down could not be read/)
    expect(statusMarkdown(r)).toMatch(/\*\*Not read\*\* \(the report fails closed\):\n\n- stack down: the stack could not be read/)
    expect(JSON.parse(statusJson(r)).stacks[2]).toMatchObject({ name: 'down', read: false })
  })

  test('a wrong password: the login refused is that stack alone', async () => {
    const prepared = prepareStatus(parseStatusConfig(FILE(), 'fleet.yml'), { ...ENV(), EU_PASS: 'wrong-password' })
    const r = await readStatus(prepared, { repository: 'acme/site', retry: QUICK })
    expect(r.environments.filter((e) => e.stack === 'eu')).toEqual([expect.objectContaining({ environment: null, state: 'unknown' })])
    expect(r.stacks[0]?.errors[0]).toMatch(/could not be read/)
    expect(r.stacks[1]?.errors).toEqual([])
    expect(statusTable(r)).not.toContain('wrong-password')
  })

  /**
   * `us` behind a stand-in that passes every call on and lets `change` rewrite an answer (path, status, body), for what
   * the emulator does not do; `read` gets the stand-in's address.
   */
  async function behind(
    change: (method: string, path: string, status: number, text: string) => { status: number; text: string },
    read: (url: string) => Promise<void>
  ): Promise<void> {
    const proxy = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const headers: Record<string, string> = {}
        for (const name of ['authorization', 'content-type']) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name]
        const body = chunks.length > 0 ? Buffer.concat(chunks) : null
        void fetch(`${us.url}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers, body }).then(async (answer) => {
          const out = change(req.method ?? 'GET', req.url ?? '/', answer.status, await answer.text())
          res.writeHead(out.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(out.text)
        })
      })
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    try {
      await read(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`)
    } finally {
      proxy.closeAllConnections()
      await new Promise((resolve) => proxy.close(resolve))
    }
  }
  const usBehind = (url: string): string => `stacks:\n  - name: us\n    api-url: ${url}\n`

  test('a platform that says it has more environments and will not list them: those listed are read, a row says why, the report fails closed', async () => {
    // The environment lists say "more", and a second page brings nothing new.
    const more = (method: string, path: string, status: number, text: string) =>
      method === 'GET' && /^\/v3\/environments(\?|$)/.test(path)
        ? { status, text: JSON.stringify({ ...(JSON.parse(text) as object), more: true }) }
        : { status, text }
    await behind(more, async (url) => {
      const r = await readStatus(prepareStatus(parseStatusConfig(usBehind(url), 'f.yml'), ENV()), { repository: 'acme/site', retry: QUICK })
      const why = 'the platform said the stack has more environments than the 3 it listed, and would not list the rest'
      expect(r.stacks[0]?.errors).toEqual([why])
      expect(r.environments.map((e) => [e.environment, e.reason === why])).toEqual([
        [null, true],
        ['development', false],
        ['acceptance', false],
        ['production', false]
      ])
      expect(row(r, 'us', 'production').distributionId).toBe(running['us/production'])
      expect(statusExit(r, [], () => undefined)).toBe(STATUS_EXIT.unreadable)
    })
  })

  test('a running distribution that cannot be read: its row says which and why, and the report fails closed', async () => {
    const id = running['us/production'] as string
    const refused = (method: string, path: string, status: number, text: string) =>
      method === 'GET' && path === `/v3/distributions/${id}` ? { status: 403, text: JSON.stringify({ message: 'not yours' }) } : { status, text }
    await behind(refused, async (url) => {
      const r = await readStatus(prepareStatus(parseStatusConfig(usBehind(url), 'f.yml'), ENV()), { repository: 'acme/site', retry: QUICK })
      const production = row(r, 'us', 'production')
      expect(production).toMatchObject({ state: 'unknown', distributionId: id, distributionName: null })
      expect(production.reason).toMatch(new RegExp(`^its distribution ${id} could not be read: .*403`))
      expect(r.stacks[0]?.errors).toEqual([`production: ${production.reason}`])
      expect(statusExit(r, [], () => undefined)).toBe(STATUS_EXIT.unreadable)
    })
  })

  test('a login refused on a stack named beside its api-url: the failure names the stack and its address', async () => {
    const inputs: Record<string, string> = { stack: 'eu', 'api-url': eu.url, environments: 'production', username: eu.username, password: 'not-the-password' }
    const r = await readStatus(
      prepareSingleStack((name) => inputs[name] ?? ''),
      { repository: 'acme/site', retry: QUICK }
    )
    expect(r.stacks[0]?.errors[0]).toContain(`stack 'eu' (${eu.url})`)
  })

  test('who uploaded it, in the reason, only as far as the platform says: without a time, or without an uploader', async () => {
    const id = running['us/production'] as string
    let drop: string[] = []
    const without = (method: string, path: string, status: number, text: string) => {
      if (method !== 'GET' || path !== `/v3/distributions/${id}`) return { status, text }
      const d = JSON.parse(text) as Record<string, unknown>
      for (const field of drop) delete d[field]
      return { status, text: JSON.stringify(d) }
    }
    await behind(without, async (url) => {
      const reason = async (): Promise<string | null> => {
        const file = `stacks:\n  - name: us\n    api-url: ${url}\n    environments: [production]\n`
        const r = await readStatus(prepareStatus(parseStatusConfig(file, 'f.yml'), ENV()), { repository: 'acme/site', retry: QUICK })
        return row(r, 'us', 'production').reason
      }
      const tail = 'carries no commit of acme/site, and without a GitHub token the Deployments that may record it are not read'
      drop = ['createdAt']
      expect(await reason()).toMatch(new RegExp(`^the name of distribution ${id} \\(uploaded by [\\w-]+\\) ${tail}$`))
      drop = ['createdAt', 'createdBy']
      expect(await reason()).toBe(`the name of distribution ${id} ${tail}`)
    })
  })

  test('an environment the file names and the stack lacks: unknown, and the report fails closed', async () => {
    const file = `track: main\nstacks:\n  - name: us\n    api-url: ${us.url}\n    environments: [production, staging]\n`
    const before = us.requests.length
    const r = await readStatus(prepareStatus(parseStatusConfig(file, 'f.yml'), ENV()), { repository: 'acme/site', retry: QUICK })
    // One listing for the stack; only the name it lacks is looked for again (production is taken from the listing).
    const listings = us.requests.slice(before).filter((q) => q.method === 'GET' && /^\/v3\/environments(\?|$)/.test(q.url))
    expect(listings).toHaveLength(2)
    expect(r.environments.map((e) => [e.environment, e.state])).toEqual([
      ['production', 'unknown'],
      ['staging', 'unknown']
    ])
    expect(r.stacks[0]?.errors).toEqual(["the stack has no environment named 'staging'"])
    expect(statusExit(r, [], () => undefined)).toBe(STATUS_EXIT.unreadable)
  })
})

test('read-only: no upload, deploy, delete or logout reached either stack, nothing was written to GitHub; every refresh token revoked', () => {
  expect(changeCalls()).toEqual([])
  for (const emu of [eu, us]) {
    const logins = emu.requests.filter((q) => q.operation === 'login' && q.status === 200).length
    expect(logins).toBeGreaterThan(0)
    expect(emu.requests.filter((q) => q.operation === 'revoke-refresh' && q.status < 300).length).toBe(logins)
  }
  expect(warnings).toEqual([])
})

describe('per environment: the nearest track, a tag pattern (the newest tag by version), a health probe', () => {
  let site: Server
  let siteUrl = ''
  const siteCalls: string[] = []
  let r: Report
  const listings = (): string[] => standIn.calls.filter((c) => c.route === 'list-tags').map((c) => c.query.get('page') ?? '')

  beforeAll(async () => {
    // The sites: production's page redirects to where the build wrote its commit; acceptance still serves an old build.
    site = createServer((req, res) => {
      siteCalls.push(`${req.method} ${req.url}`)
      if (req.url === '/production/version.txt') res.writeHead(302, { location: '/live/production.txt' }).end()
      else if (req.url === '/live/production.txt') res.end(`build ${E}`)
      else if (req.url === '/acceptance/version.txt') res.end(`build ${C}`)
      else res.writeHead(404).end('no such page')
    })
    await new Promise<void>((done) => site.listen(0, '127.0.0.1', done))
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
    standIn.model.tag('v1.9.0', B)
    standIn.model.tag('v1.10.0', C)
    standIn.model.tag('v2.0.0-rc.1', E)
    // More than one page of tags: the newest of build-* is on the second.
    for (let i = 1; i <= 150; i++) standIn.model.tag(`build-${i}`, A)
    const file = [
      'track: main',
      'stacks:',
      '  - name: eu',
      `    api-url: ${eu.url}`,
      '    login:',
      '      username-variable: EU_USER',
      '      password-variable: EU_PASS',
      '    track: tags/v1.*',
      `    health-url: ${siteUrl}/{environment}/version.txt`,
      `    health-expect: ${E}`,
      '    environments:',
      '      - production',
      '      - name: acceptance',
      '        track: main',
      '      - name: development',
      '        track: v*',
      `        health-url: ${siteUrl}/none`,
      '      - name: test',
      "        track: 'build-*'",
      ''
    ].join('\n')
    const before = listings().length
    r = await readStatus(prepareStatus(parseStatusConfig(file, 'f.yml'), ENV()), {
      github: { token: DEFAULT_GITHUB_TOKEN, context: { ...runnerContext(), repository: 'acme/site' } },
      repository: 'acme/site',
      retry: QUICK
    })
    expect(listings().slice(before)).toEqual(['1', '2'])
  })

  afterAll(async () => {
    await new Promise((done) => site.close(done))
  })

  test('the nearest track wins; a pattern compares with its newest tag (one listing of every page for the whole report)', () => {
    expect(r.environments.map((e) => [e.environment, e.track, e.trackedRef, e.state, e.aheadBy, e.behindBy])).toEqual([
      ['production', 'tags/v1.*', 'v1.10.0', 'ahead', 2, 0],
      ['acceptance', 'main', 'main', 'behind', 0, 2],
      ['development', 'v*', 'v2.0.0-rc.1', 'ahead', 1, 0],
      ['test', 'build-*', 'build-150', 'ahead', 4, 0]
    ])
    // The compare GitHub was asked for: the tag's commit against the running one.
    expect(standIn.calls.some((c) => c.route === 'compare' && c.path.endsWith(`/compare/${C}...${E}`))).toBe(true)
  })

  test('health: its own axis; redirects followed, the expected text, one GET each, nothing else sent to the sites', () => {
    expect(r.environments.map((e) => [e.environment, e.health])).toEqual([
      ['production', 'ok'],
      ['acceptance', 'failing'],
      ['development', 'failing'],
      ['test', 'failing']
    ])
    const why = (environment: string): string | null => r.environments.find((e) => e.environment === environment)?.healthReason ?? null
    expect(why('production')).toBeNull()
    expect(why('acceptance')).toMatch(
      /^The health check of http:\/\/127\.0\.0\.1:\d+\/acceptance\/version\.txt did not pass; the last answer: HTTP 200, but the page does not contain/
    )
    expect(why('development')).toMatch(/\/none did not pass; the last answer: HTTP 404\. The page does not exist/)
    expect(siteCalls.every((c) => c.startsWith('GET '))).toBe(true)
    expect(siteCalls.filter((c) => c === 'GET /production/version.txt')).toHaveLength(1)
    // Each probe's attempt in the debug log, named by its stack and environment.
    expect(debugs).toContainEqual(expect.stringMatching(/^eu\/production: Health check 1: http:\/\/127\.0\.0\.1:\d+\/production\/version\.txt: HTTP 200/))
    expect(debugs).toContainEqual(expect.stringMatching(/^eu\/development: Health check 1: .*\/none: HTTP 404/))
    // A failing probe is a finding, not something unread: the report is complete.
    expect(r.stacks[0]?.errors).toEqual([])
  })

  test('shown in the table, the Markdown and the JSON; fail-on unhealthy fails, drift alone does not', () => {
    const table = statusTable(r)
    expect(table).toMatch(/^eu\s+production\s+ahead 2\s+ok\s+v1\.10\.0 \(tags\/v1\.\*\)\s+/m)
    expect(table).toMatch(/^eu\s+acceptance\s+behind 2\s+failing\s+main\s+/m)
    expect(table).toMatch(/\n {2}eu\/development: health: The health check of .*\/none did not pass/)
    expect(statusMarkdown(r)).toMatch(/\| eu \| production \| \*\*ahead 2\*\* \| ok \| v1\.10\.0 \(tags\/v1\.\*\) \|/)
    expect(JSON.parse(statusJson(r)).environments[1]).toMatchObject({
      health: 'failing',
      healthReason: expect.stringMatching(/does not contain/),
      trackedRef: 'main'
    })
    expect(statusVerdict(r, parseFailOn('unhealthy', '--fail-on'), '--fail-on')).toEqual({
      kind: 'fail-on',
      message: '--fail-on unhealthy: eu/acceptance is unhealthy; eu/development is unhealthy; eu/test is unhealthy.'
    })
    expect(statusVerdict(r, [], '--fail-on')).toEqual({ kind: 'read' })
    expect(() => parseFailOn('sick', 'fail-on')).toThrow(/^fail-on names 'sick': the states are in-sync, .*; unhealthy names a failing health probe\.$/)
  })

  test('no tag matches (a misspelt pattern): unknown, and the report fails closed naming the pattern and where it was written', async () => {
    const file = `stacks:\n  - name: eu\n    api-url: ${eu.url}\n    track: nope-*\n    environments: [production]\n    login:\n      username-variable: EU_USER\n      password-variable: EU_PASS\n`
    const none = await readStatus(prepareStatus(parseStatusConfig(file, 'f.yml'), ENV()), {
      github: { token: DEFAULT_GITHUB_TOKEN, context: { ...runnerContext(), repository: 'acme/site' } },
      repository: 'acme/site',
      retry: QUICK
    })
    const why = "track 'nope-*' (f.yml: stacks[0] (eu).track) matches no tag of acme/site: correct the pattern, or tag a release"
    expect(none.environments[0]).toMatchObject({ state: 'unknown', trackedRef: null, reason: why })
    expect(none.trackErrors).toEqual([why])
    expect(statusVerdict(none, [], '--fail-on')).toEqual({ kind: 'unreadable', message: `The report is not complete: ${why} (its rows read unknown).` })
  })
})

describe('a cancel', () => {
  const { stoppable, StatusCancelled } = stopModule
  test('aborts every call, begins no other stack, and revokes the refresh token of the stack being read on a door of its own', async () => {
    const signals = new EventEmitter()
    let release: () => void = () => undefined
    eu.holdRequests('list-environments', new Promise<void>((done) => (release = done)))
    const euBefore = eu.requests.length
    const usLogins = us.requests.filter((q) => q.operation === 'login').length
    const prepared = prepareStatus(parseStatusConfig(FILE(), 'fleet.yml'), ENV())
    try {
      const reading = stoppable(signals, (stop) => readStatus(prepared, { repository: 'acme/site', retry: QUICK, parallel: 1, stop }))
      // The order of events, forced: the listing has reached the stack (and is held there) before the cancel.
      while (!eu.requests.slice(euBefore).some((q) => q.operation === 'list-environments')) await new Promise((done) => setTimeout(done, 10))
      signals.emit('SIGINT', 'SIGINT')
      const error = await reading.then(
        () => undefined,
        (e: unknown) => e
      )
      expect(error).toBeInstanceOf(StatusCancelled)
      expect(error).toMatchObject({ stop: 'cancel', revoked: true })
      expect((error as Error).message).toBe(
        "The status report was cancelled (SIGINT): nothing was reported. Each stack's refresh token was revoked, or a warning says why not."
      )
      const after = eu.requests.slice(euBefore).map((q) => `${q.operation} ${q.status}`)
      expect(after).toEqual(['login 200', 'list-environments 0', 'revoke-refresh 200'])
      // us was never begun (one stack at a time): no login there.
      expect(us.requests.filter((q) => q.operation === 'login')).toHaveLength(usLogins)
      expect(signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM')).toBe(0)
    } finally {
      release()
    }
  })

  test('a second signal ends the wait for the stacks to close at once, saying a token may be left to expire', async () => {
    const signals = new EventEmitter()
    let aborted = false
    let limit = (): number => 0
    const reading = stoppable(signals, (stop) => {
      limit = () => stop.closeLimitMs()
      stop.signal.addEventListener('abort', () => (aborted = true))
      return new Promise<never>(() => undefined) // a stack that never closes
    })
    signals.emit('SIGINT', 'SIGINT')
    signals.emit('SIGTERM', 'SIGTERM')
    await expect(reading).rejects.toMatchObject({
      stop: 'cancel',
      revoked: false,
      message:
        'The status report was cancelled (SIGINT): nothing was reported. Not every stack closed in time: a refresh token not revoked expires by itself within 24 hours.'
    })
    expect(aborted).toBe(true)
    // The second signal only hurries: the stop stays the first one's, and so do its closing limits.
    expect(limit()).toBe(2500)
  })

  test('SIGTERM first: a terminate, its shorter closing limit, the reason on the aborted signal, no listener left on it', async () => {
    const signals = new EventEmitter()
    let seen: { limit: number; reason: unknown; signal: AbortSignal } | undefined
    const reading = stoppable(signals, (stop) => {
      // The closing door rejects once its calls are aborted: the stop still counts it as closed.
      return new Promise<never>((_, fail) =>
        stop.signal.addEventListener('abort', () => {
          seen = { limit: stop.closeLimitMs(), reason: stop.signal.reason, signal: stop.signal }
          fail(new Error('aborted'))
        })
      )
    })
    signals.emit('SIGTERM', 'SIGTERM')
    const error = await reading.then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(StatusCancelled)
    expect(error).toMatchObject({
      name: 'StatusCancelled',
      stop: 'terminate',
      revoked: true,
      message: "The status report was cancelled (SIGTERM): nothing was reported. Each stack's refresh token was revoked, or a warning says why not."
    })
    expect(seen?.limit).toBe(800)
    expect((seen?.reason as Error).message).toBe('cancelled (SIGTERM)')
    // The stop leaves no listener of its own on the signal it hands out: only the work's.
    expect(getEventListeners(seen!.signal, 'abort')).toHaveLength(1)
  })

  test('SIGINT first: a cancel, with the longer closing limit', async () => {
    const signals = new EventEmitter()
    let limit = 0
    const reading = stoppable(
      signals,
      (stop) => new Promise<never>((_, fail) => stop.signal.addEventListener('abort', () => ((limit = stop.closeLimitMs()), fail(new Error('aborted')))))
    )
    signals.emit('SIGINT', 'SIGINT')
    await expect(reading).rejects.toMatchObject({ name: 'StatusCancelled', stop: 'cancel', revoked: true })
    expect(limit).toBe(2500)
  })

  test('the wait for a stack that never closes: 5 s after SIGINT, 1.6 s after SIGTERM, none after a second signal', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] })
    try {
      const stopped = (...order: string[]): (() => unknown) => {
        const signals = new EventEmitter()
        let settled: unknown
        void stoppable(signals, () => new Promise<never>(() => undefined)).catch((e: unknown) => (settled = e))
        for (const signal of order) signals.emit(signal, signal)
        return () => settled
      }
      const cancel = stopped('SIGINT')
      await jest.advanceTimersByTimeAsync(4_999)
      expect(cancel()).toBeUndefined()
      await jest.advanceTimersByTimeAsync(1)
      expect(cancel()).toMatchObject({ stop: 'cancel', revoked: false })
      const terminate = stopped('SIGTERM')
      await jest.advanceTimersByTimeAsync(1_599)
      expect(terminate()).toBeUndefined()
      await jest.advanceTimersByTimeAsync(1)
      expect(terminate()).toMatchObject({ stop: 'terminate', revoked: false })
      const hurried = stopped('SIGTERM', 'SIGINT')
      await jest.advanceTimersByTimeAsync(0)
      expect(hurried()).toMatchObject({ stop: 'terminate', revoked: false })
    } finally {
      jest.useRealTimers()
    }
  })

  test('without a signal: the report, and the listeners gone', async () => {
    const signals = new EventEmitter()
    const r = await stoppable(signals, () => Promise.resolve('read'))
    expect(r).toBe('read')
    expect(signals.listenerCount('SIGINT')).toBe(0)
  })
})

describe('the file and the logins, refused before any request', () => {
  const refused = (text: string, env: NodeJS.ProcessEnv = ENV()): string => {
    try {
      prepareStatus(parseStatusConfig(text, 'fleet.yml'), env)
    } catch (error) {
      expect(error).toBeInstanceOf(InputError)
      return (error as Error).message
    }
    throw new Error('not refused')
  }
  const one = (extra: string): string => `stacks:\n  - name: eu\n    stack: acme\n${extra}`

  test('the file itself', () => {
    expect(refused('stacks: [')).toMatch(/^fleet\.yml:\d+:\d+ is not valid YAML/)
    expect(refused('track: main')).toMatch(/stacks must be a list of at least one stack/)
    expect(refused('stacks:\n  - stack: acme')).toMatch(/stacks\[0\] has no name/)
    expect(refused(one('    api-url: https://api.acme.bloomreach.cloud\n'))).toMatch(
      /exactly one of stack, console-url or api-url \(it has stack and api-url\)/
    )
    expect(refused('stacks:\n  - name: eu\n')).toMatch(/\(it has none\)/)
    expect(refused(one('    password: hunter2\n'))).toMatch(
      /unknown key 'password': a credential never stands in the file; name the variable that holds it with password-variable/
    )
    expect(refused(one('    enviroments: [production]\n'))).toMatch(/unknown key 'enviroments' \(it knows name, stack/)
    expect(refused(`${one('')}  - name: eu\n    stack: other\n`)).toMatch(/two stacks are named 'eu'/)
    expect(refused('stacks:\n  - name: eu\n    stack: missioncontrol.acme.bloomreach.cloud\n')).toMatch(
      /stacks\[0\] \(eu\): stack .* is an address, not a stack name/
    )
    expect(refused(one('    environments: [production, production]\n'))).toMatch(/names 'production' twice/)
    expect(refused(`track: 1.10\n${one('')}`)).toMatch(/track must be text \(quote it/)
    expect(refused(`track: 'a b'\n${one('')}`)).toMatch(/track 'a b' is not a branch or tag name/)
    expect(refused(one('    login:\n      password-variable: "hunter 2"\n'))).toMatch(/is not a variable name/)
  })

  test('a credential written where a *-variable name belongs is never repeated in the refusal, and is masked', () => {
    masks.length = 0
    const login = (line: string): string => one(`    login:\n      username-variable: EU_USER\n${line}\n`)
    // A valid name that is not set: named when it reads as a variable name (upper case), else not repeated.
    const lower = refused(login('      password-variable: hunter2secret'))
    expect(lower).toBe(
      "Stack 'eu': its login's password-variable names a variable that is not set or empty. The name is not repeated here: written with " +
        'lower-case letters, it may be the password itself rather than the name of the variable that holds it (e.g. EU_BRC_PASSWORD).'
    )
    expect(refused(login('      password-variable: EU_P'))).toBe(
      "Stack 'eu': its login's password-variable names EU_P, which is not set or empty (a CI job gets a secret only where it is passed in)."
    )
    // Not a name at all: refused without the value, whatever it is.
    for (const value of ['"pa ss:w0rd!"', '12345678', 'true', "'s3cr3t-t0ken'"]) {
      const message = refused(login(`      password-variable: ${value}`))
      expect(message).toBe(
        'fleet.yml: stacks[0] (eu).login.password-variable is not a variable name (letters, digits and _, not starting with a digit): ' +
          'name the variable that holds the password, not the password itself (the value is not repeated here).'
      )
    }
    expect(refused(login('      client-secret-variable: s3cr3t-t0ken'))).toMatch(
      /client-secret-variable is not a variable name .*the value is not repeated here/
    )
    // Each one masked the moment it was read, so no later line shows it either.
    expect(masks).toEqual(expect.arrayContaining(['hunter2secret', 'pa ss:w0rd!', '12345678', 'true', 's3cr3t-t0ken']))
    expect(masks).not.toContain('EU_P')
  })

  test("the logins: the defaults, named variables, the action's own rules", () => {
    expect(refused(one(''), {})).toMatch(/Stack 'eu' has no login \(BRCLOUD_USERNAME and BRCLOUD_PASSWORD are not set\)/)
    expect(refused(one(''), { BRCLOUD_USERNAME: 'u' })).toMatch(/BRCLOUD_PASSWORD is not set/)
    expect(refused(one('    login:\n      username-variable: EU_U\n      password-variable: EU_P\n'), { EU_U: 'u' })).toMatch(
      /Stack 'eu': its login's password-variable names EU_P, which is not set or empty/
    )
    expect(refused(one(''), { BRCLOUD_USERNAME: 'u', BRCLOUD_PASSWORD: 'p', BRCLOUD_ACCESS_TOKEN: 't' })).toMatch(
      /^Stack 'eu': username, password are set, but access-token is used as it is/
    )
    const expired = `x.${Buffer.from(JSON.stringify({ exp: 1 })).toString('base64url')}.y`
    expect(refused(one(''), { BRCLOUD_ACCESS_TOKEN: expired })).toMatch(/^Stack 'eu': access-token expired at 1970/)
    const sso = one('    login:\n      token-url: https://login.example.com/oauth/token\n      client-id: ci\n      client-secret-variable: EU_SECRET\n')
    expect(prepareStatus(parseStatusConfig(sso, 'f.yml'), { EU_SECRET: 's3cret' }).logins[0]).toMatchObject({
      kind: 'oauth',
      grant: 'client_credentials',
      clientId: 'ci'
    })
    expect(prepareStatus(parseStatusConfig(one(''), 'f.yml'), { BRCLOUD_ACCESS_TOKEN: 'tok' }).logins[0]).toMatchObject({ kind: 'token' })
  })

  test('environments as mappings: their own track and health probe; each mistake named where it is', () => {
    const config = parseStatusConfig(
      [
        'track: main',
        'stacks:',
        '  - name: eu',
        '    stack: acme',
        '    track: tags/v*',
        '    health-url: https://{environment}.acme.example/version.txt',
        '    environments:',
        '      - production',
        '      - name: acceptance',
        '        track: release/2',
        '        health-url: https://acc.acme.example/ok',
        '        health-expect: ok',
        ''
      ].join('\n'),
      'f.yml'
    )
    const [eu] = config.stacks
    if (eu === undefined) throw new Error('no stack')
    expect(eu.environments).toEqual(['production', 'acceptance'])
    expect([trackOf(eu, 'production'), trackOf(eu, 'acceptance'), trackOf(eu, null)]).toEqual(['tags/v*', 'release/2', 'tags/v*'])
    expect([healthOf(eu, 'production'), healthOf(eu, 'acceptance')]).toEqual([
      { url: 'https://production.acme.example/version.txt', expect: undefined },
      { url: 'https://acc.acme.example/ok', expect: 'ok' }
    ])
    expect(refused(one('    environments:\n      - name: production\n        heath-url: https://x.example\n'))).toMatch(
      /stacks\[0\] \(eu\)\.environments\[0\] \(production\) has an unknown key 'heath-url' \(it knows name, track, health-url, health-expect, deploy-freeze\)/
    )
    expect(refused(one('    environments:\n      - track: main\n'))).toMatch(/environments\[0\] has no name/)
    expect(refused(one('    health-expect: ok\n'))).toMatch(/^fleet\.yml: stacks\[0\] \(eu\): health-expect is set but health-url is empty/)
    expect(refused(one('    health-url: https://www.acme.example/v.txt\n'))).toMatch(
      /stacks\[0\] \(eu\)\.health-url 'https:\/\/www\.acme\.example\/v\.txt' would check one page for every environment: put \{environment\}/
    )
    expect(refused(one('    environments: [production]\n    health-url: ftp://x.example/v\n'))).toMatch(
      /health-url 'ftp:\/\/x\.example\/v' must start with https:\/\//
    )
    expect(refused(one('    track: v[12]\n'))).toMatch(/is not a branch or tag name, nor a pattern of tag names such as v\*/)
  })

  test("per-stack track over the file's; console-url and stack resolve as the action does", () => {
    const config = parseStatusConfig(
      'track: main\nstacks:\n  - name: a\n    stack: acme\n    track: release/2\n  - name: b\n    console-url: https://missioncontrol.beta.bloomreach.cloud\n',
      'f.yml'
    )
    expect(config.stacks.map((s) => [s.track, s.address.apiUrl])).toEqual([
      ['release/2', 'https://api.acme.bloomreach.cloud'],
      ['main', 'https://api.beta.bloomreach.cloud']
    ])
  })
})

describe("a single stack's inputs instead of a file", () => {
  const reader =
    (inputs: Record<string, string>) =>
    (name: string): string =>
      inputs[name] ?? ''

  test("read by the deploy action's rules: its rows named by the stack (or the API host), its environments, its track", async () => {
    const prepared = prepareSingleStack(
      reader({ 'api-url': eu.url, environments: 'production,\n acceptance', track: 'main', username: eu.username, password: eu.password })
    )
    expect(prepared.config.stacks).toEqual([expect.objectContaining({ name: new URL(eu.url).host, environments: ['production', 'acceptance'], track: 'main' })])
    expect(prepared.logins).toEqual([{ kind: 'password', username: eu.username, password: eu.password }])
    const context = { ...runnerContext(), repository: 'acme/site' }
    const r = await readStatus(prepared, { github: { token: DEFAULT_GITHUB_TOKEN, context }, repository: 'acme/site', retry: QUICK })
    expect(r.environments.map((e) => [e.environment, e.state])).toEqual([
      ['production', 'in-sync'],
      ['acceptance', 'behind']
    ])
    // With stack beside api-url, the stack names the rows (the action's rule: api-url is where it is).
    expect(prepareSingleStack(reader({ stack: 'eu', 'api-url': eu.url, 'access-token': 'tok' })).config.stacks[0]?.name).toBe('eu')
  })

  test('every secret masked the moment it is read, even when only asked whether it is set', () => {
    masks.length = 0
    const read = maskedReader(reader({ password: ' pass word ', 'client-secret': 'cs-1', 'access-token': 'at-1', username: 'u' }))
    for (const name of ['username', 'password', 'client-secret', 'access-token'] as const) read(name)
    // The form-encoded spelling too (a token endpoint may quote the password grant's body: a blank is '+').
    expect(masks).toEqual([' pass word ', '%20pass%20word%20', '+pass+word+', 'cs-1', 'at-1'])
  })

  test('a reader that masks nothing (the command passes its own): the single stack masks every secret it reads', async () => {
    const { forgetSecrets } = await import('../src/secrets.js')
    forgetSecrets()
    masks.length = 0
    prepareSingleStack(reader({ stack: 'acme', username: 'u', password: 'pw-single-0451' }))
    expect(masks).toContain('pw-single-0451')
  })

  test('no environments listed (or only blanks and commas): every environment of the stack; the login not read from variables', () => {
    for (const environments of ['', ' , \n ,']) {
      const [stack] = prepareSingleStack(reader({ stack: 'acme', environments, username: 'u', password: 'p' })).config.stacks
      expect(stack?.environments).toBeUndefined()
      expect(stack?.login).toEqual({ variables: DEFAULT_LOGIN_VARIABLES, defaults: true })
    }
  })

  test('one or the other: a file and these inputs, or neither, refused with what to do', () => {
    expect(() => singleStackChosen('fleet.yml', ['stack', 'username'], 'config', 'stack')).toThrow(
      new InputError(
        'config and stack, username are both set: a configuration file names its stacks and their logins itself; the single-stack inputs are ' +
          'for a report without a file. Use one or the other (docs/status.md).'
      )
    )
    expect(() => singleStackChosen('', [], 'config', 'stack (or console-url, or api-url)')).toThrow(
      /^Nothing to report on: set config to the YAML file that names the stacks, or stack \(or console-url, or api-url\) \(with its login\)/
    )
    expect(singleStackChosen('', ['stack'], 'config', 'stack')).toBe(true)
    expect(singleStackChosen('fleet.yml', [], 'config', 'stack')).toBe(false)
  })

  test("bad inputs: the deploy action's own messages, before any request", () => {
    const refused = (inputs: Record<string, string>): string => {
      try {
        prepareSingleStack(reader(inputs))
      } catch (error) {
        expect(error).toBeInstanceOf(InputError)
        return (error as Error).message
      }
      throw new Error('not refused')
    }
    expect(refused({ username: 'u', password: 'p' })).toMatch(/^No Bloomreach Cloud stack given/)
    expect(refused({ stack: 'acme', username: 'u' })).toMatch(/^Input password is required/)
    expect(refused({ stack: 'acme', 'access-token': 't', username: 'u' })).toMatch(/^username is set, but access-token is used as it is/)
    expect(refused({ stack: 'acme', 'client-id': 'ci', 'client-secret': 's' })).toMatch(/^client-id, client-secret are set, but token-url is empty/)
    expect(refused({ stack: 'acme', environments: 'production, production', username: 'u', password: 'p' })).toMatch(/^environments names 'production' twice/)
    expect(refused({ stack: 'acme', track: 'a b', username: 'u', password: 'p' })).toMatch(/^track 'a b' is not a branch or tag name/)
    expect(refused({ 'api-url': 'http://api.acme.example', username: 'u', password: 'p' })).toMatch(/uses plain http/)
    expect(refused({ stack: 'acme', 'health-expect': 'ok', username: 'u', password: 'p' })).toBe(
      'health-expect is set but health-url is empty: set health-url to the page that must contain it.'
    )
    expect(
      refused({ stack: 'acme', environments: 'production, acceptance', 'health-url': 'https://www.example.com/v.txt', username: 'u', password: 'p' })
    ).toBe(
      "health-url 'https://www.example.com/v.txt' would check one page for every environment: put {environment} where each environment's name goes " +
        '(e.g. https://{environment}.example.com/version.txt), or give each environment its own health-url.'
    )
  })
})
