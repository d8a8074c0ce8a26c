// The post step's claims, word for word, in-process: what it revoked at the platform (over real HTTP to the
// emulator, checked as effective), the GitHub Deployment it finished (the stand-in, through @actions/github),
// and the summary it writes when the main step never reported. The port is a recorder (test-port.ts).
import { actionPort } from '../src/action/port.js'
import { useTestPort } from './test-port.js'
import { DEFAULT_GITHUB_TOKEN, startGitHubStandIn } from '../src/emulator/github/server.js'
import { DEFAULT_GITLAB_PROJECT, DEFAULT_GITLAB_TOKEN, fakeSha, startGitLabStandIn } from '../src/emulator/gitlab/server.js'

const lines: Array<{ kind: 'info' | 'warning'; text: string }> = []
const masked: string[] = []
const summaries: string[] = []
let inputs: Record<string, string> = {}

// @actions/github reads GITHUB_API_URL once, when it is first imported: the stand-in listens before that.
const github = await startGitHubStandIn({ owner: 'acme', repo: 'site' })
process.env.GITHUB_API_URL = github.url
const gitlab = await startGitLabStandIn()

useTestPort({
  getInput: (name: string) => inputs[name] ?? '',
  info: (text: string) => lines.push({ kind: 'info', text }),
  debug: () => undefined,
  warning: (text: string) => lines.push({ kind: 'warning', text }),
  setSecret: (secret: string) => masked.push(secret),
  // What the action's face wrote to the job summary (nothing outside a runner: no GITHUB_STEP_SUMMARY).
  writeSummary: async (markdown: string) => {
    const written = await actionPort.writeSummary(markdown)
    if (written) summaries.push(markdown)
    return written
  }
})

const { runPost } = await import('../src/post.js')
const { startEmulator } = await import('../src/emulator/server.js')
type Emulator = import('../src/emulator/server.js').Emulator
type SavedState = import('../src/run-state.js').SavedState

let emu: Emulator

beforeEach(async () => {
  emu = await startEmulator()
  lines.length = 0
  masked.length = 0
  summaries.length = 0
  inputs = {}
  process.env.GITHUB_STEP_SUMMARY = '/dev/null'
  github.calls.length = 0
})
afterEach(async () => {
  await emu.close()
})
afterAll(async () => {
  await github.close()
  await gitlab.close()
})

/** A refresh token the platform issued (a login of the main step). */
async function refreshToken(): Promise<string> {
  const answer = await fetch(`${emu.url}/v3/authn/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: emu.username, password: emu.password })
  })
  return ((await answer.json()) as { refresh_token: string }).refresh_token
}

/** A refresh token someone revoked before the post step ran: the platform refuses it (401). */
async function revokedBefore(token: string): Promise<void> {
  await fetch(`${emu.url}/v3/authn/refresh_token`, {
    method: 'DELETE',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: token })
  })
}

/** Whether the platform still renews with it. */
async function stillWorks(token: string): Promise<boolean> {
  const answer = await fetch(`${emu.url}/v3/authn/refresh_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: token })
  })
  return answer.ok
}

function state(over: Partial<SavedState> = {}): () => SavedState {
  return () => ({
    apiUrl: emu.url,
    tokenIssuer: 'password',
    refreshTokens: [],
    revoked: false,
    githubDeployment: undefined,
    githubDeploymentFinal: false,
    reported: true,
    ...over
  })
}

const said = (kind: 'info' | 'warning') => lines.filter((l) => l.kind === kind).map((l) => l.text)
const revokes = () => emu.requests.filter((r) => r.operation === 'revoke-refresh').length

const NOTHING = [
  '### Bloomreach Cloud deploy: post step',
  '',
  'The main step was stopped before it wrote its report; what the post step could do:',
  '',
  '- nothing: it had nothing left to finish, or could not (see its warnings)',
  '',
  'The post step never deploys or rolls back: check the environment in the console.',
  ''
].join('\n')

describe('the refresh token the main step left valid', () => {
  test('one: revoked (it no longer works), masked, said once, and listed in the summary', async () => {
    const token = await refreshToken()
    await runPost(state({ refreshTokens: [token], reported: false }))
    expect(await stillWorks(token)).toBe(false)
    expect(masked).toContain(token)
    expect(said('info')).toEqual(["Revoked the main step's refresh token, which it had left valid."])
    expect(said('warning')).toEqual([])
    expect(summaries).toEqual([
      NOTHING.replace(
        '- nothing: it had nothing left to finish, or could not (see its warnings)',
        "- revoked this run's refresh token, which the main step had left valid"
      )
    ])
  })

  test('two: both revoked, counted, the summary in the plural', async () => {
    const tokens = [await refreshToken(), await refreshToken()]
    await runPost(state({ refreshTokens: tokens, reported: false }))
    expect(await stillWorks(tokens[0] as string)).toBe(false)
    expect(await stillWorks(tokens[1] as string)).toBe(false)
    expect(said('info')).toEqual(['Revoked the 2 refresh tokens the main step had left valid.'])
    expect(summaries[0]).toContain("- revoked this run's refresh tokens, which the main step had left valid\n")
  })

  test('one the platform refuses (401): no longer valid, said as such, nothing claimed revoked', async () => {
    const token = await refreshToken()
    await revokedBefore(token)
    await runPost(state({ refreshTokens: [token], reported: false }))
    expect(said('info')).toEqual(['The platform refused a refresh token (HTTP 401): it is no longer valid, nothing to revoke.'])
    expect(said('warning')).toEqual([])
    expect(summaries).toEqual([NOTHING])
  })

  test('a refused one and a valid one: the valid one is still revoked, and counted as one', async () => {
    const gone = await refreshToken()
    await revokedBefore(gone)
    const valid = await refreshToken()
    await runPost(state({ refreshTokens: [gone, valid] }))
    expect(await stillWorks(valid)).toBe(false)
    expect(said('info')).toEqual([
      'The platform refused a refresh token (HTTP 401): it is no longer valid, nothing to revoke.',
      "Revoked the main step's refresh token, which it had left valid."
    ])
  })

  test('a platform that fails (500): one attempt only, a warning that it expires by itself, nothing claimed', async () => {
    const token = await refreshToken()
    emu.addFault({ operation: 'revoke-refresh', kind: 'status', status: 500, times: 5 })
    await runPost(state({ refreshTokens: [token], reported: false }))
    expect(revokes()).toBe(1)
    expect(said('info')).toEqual([])
    expect(said('warning')).toEqual([
      "Could not revoke this run's refresh token (Revoking the refresh token failed: HTTP 500 (InternalServerError: Emulated fault on revoke-refresh)); it expires by itself within 24 hours."
    ])
    expect(summaries).toEqual([NOTHING])
  })

  test('a platform that cannot be reached: a warning that it expires by itself, nothing claimed', async () => {
    const token = await refreshToken()
    const url = emu.url
    await emu.close()
    await runPost(() => ({ ...state()(), apiUrl: url, refreshTokens: [token], reported: false }))
    expect(said('info')).toEqual([])
    expect(said('warning')).toHaveLength(1)
    expect(said('warning')[0]).toMatch(/^Could not revoke this run's refresh token \(.+\); it expires by itself within 24 hours\.$/)
    expect(said('warning')[0]).not.toContain(token)
    expect(summaries).toEqual([NOTHING])
    emu = await startEmulator() // for afterEach
  })

  test('the main step revoked it already, or saved no address, or none: no call', async () => {
    const token = await refreshToken()
    await runPost(state({ refreshTokens: [token], revoked: true }))
    await runPost(state({ refreshTokens: [token], apiUrl: undefined }))
    await runPost(state({ refreshTokens: [] }))
    expect(revokes()).toBe(0)
    expect(await stillWorks(token)).toBe(true)
    expect(lines).toEqual([])
    expect(summaries).toEqual([])
  })
})

describe("the identity provider's refresh token (token-url)", () => {
  /** An SSO stack; the script account's password grant through a client gives a refresh token, as the main step's login would. */
  async function ssoRefreshToken(revocation = true): Promise<{ token: string; works: () => Promise<boolean> }> {
    await emu.close()
    emu = await startEmulator({ sso: { revocation } })
    const sso = (emu as unknown as { sso: { tokenUrl: string; clientId: string; clientSecret: string } }).sso
    const client = { client_id: sso.clientId, client_secret: sso.clientSecret }
    const grant = (form: Record<string, string>) =>
      fetch(sso.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...client, ...form }).toString()
      })
    const answer = await grant({ grant_type: 'password', username: emu.username, password: emu.password, audience: 'brcloud-api' })
    const token = ((await answer.json()) as { refresh_token: string }).refresh_token
    inputs = {
      'token-url': sso.tokenUrl,
      'client-id': sso.clientId,
      'client-secret': sso.clientSecret,
      username: emu.username,
      password: emu.password,
      audience: 'brcloud-api'
    }
    return { token, works: async () => (await grant({ grant_type: 'refresh_token', refresh_token: token })).ok }
  }

  test('revoked at the token endpoint (it no longer works), the secrets masked, listed in the summary', async () => {
    const { token, works } = await ssoRefreshToken()
    expect(await works()).toBe(true)
    await runPost(state({ tokenIssuer: 'oauth', refreshTokens: [token], reported: false }))
    expect(await works()).toBe(false)
    expect(masked).toEqual(expect.arrayContaining([token, emu.password, inputs['client-secret']]))
    expect(said('warning')).toEqual([])
    expect(summaries[0]).toContain("- revoked this run's refresh token at the token endpoint, which the main step had left valid\n")
  })

  test('an identity provider with no revocation endpoint: said, nothing claimed', async () => {
    const { token, works } = await ssoRefreshToken(false)
    await runPost(state({ tokenIssuer: 'oauth', refreshTokens: [token], reported: false }))
    expect(await works()).toBe(true)
    expect(said('warning')).toEqual([])
    expect(said('info').join('\n')).toMatch(/names no revocation endpoint in its metadata/)
    expect(summaries).toEqual([NOTHING])
  })

  test('an identity provider that cannot be reached: a warning that it expires by itself, nothing claimed', async () => {
    const { token } = await ssoRefreshToken()
    await emu.close()
    await runPost(state({ tokenIssuer: 'oauth', refreshTokens: [token], reported: false }))
    expect(said('warning')).toHaveLength(1)
    expect(said('warning')[0]).toMatch(/^Could not revoke this run's refresh token \(.+\); it expires by itself\.$/)
    expect(said('warning')[0]).not.toContain(token)
    expect(summaries).toEqual([NOTHING])
    emu = await startEmulator() // for afterEach
  })

  test('token-url no longer set (inputs read again): no call, nothing claimed', async () => {
    const { token, works } = await ssoRefreshToken()
    inputs = { username: emu.username, password: emu.password }
    await runPost(state({ tokenIssuer: 'oauth', refreshTokens: [token], reported: false }))
    expect(await works()).toBe(true)
    expect(summaries).toEqual([NOTHING])
  })
})

describe('the GitHub Deployment the main step left in progress', () => {
  function deployment() {
    const d = github.model.addDeployment({ ref: 'main', sha: 'a'.repeat(40), environment: 'production' })
    return { id: d.id, owner: 'acme', repo: 'site' }
  }

  test('a stopped main step: set to error, with its log address, said, and listed in the summary', async () => {
    inputs = { 'github-token': DEFAULT_GITHUB_TOKEN }
    const saved = { ...deployment(), logUrl: 'https://github.com/o/r/actions/runs/1' }
    await runPost(state({ githubDeployment: saved, reported: false }))
    const call = github.calls.find((c) => c.route === 'create-status')
    expect(call?.json).toEqual({
      state: 'error',
      description: 'The main step was stopped before it reported; see the workflow run',
      log_url: 'https://github.com/o/r/actions/runs/1',
      auto_inactive: false
    })
    expect(masked).toContain(DEFAULT_GITHUB_TOKEN)
    expect(said('info')).toEqual([`Set GitHub Deployment ${saved.id} to error: The main step was stopped before it reported; see the workflow run.`])
    expect(summaries[0]).toContain(`- set GitHub Deployment ${saved.id} to error (it was left in progress)\n`)
  })

  test('a main step that reported without a final status: the other description, no log address, no summary', async () => {
    inputs = { 'github-token': DEFAULT_GITHUB_TOKEN }
    const saved = { ...deployment(), logUrl: undefined }
    await runPost(state({ githubDeployment: saved, reported: true }))
    expect(github.calls.find((c) => c.route === 'create-status')?.json).toEqual({
      state: 'error',
      description: 'The deploy step ended without a final status; see the workflow run',
      auto_inactive: false
    })
    expect(summaries).toEqual([])
  })

  test('no github-token: it stays in progress, and the warning says why', async () => {
    const saved = { ...deployment(), logUrl: undefined }
    await runPost(state({ githubDeployment: saved, reported: false }))
    expect(github.calls).toEqual([])
    expect(said('warning')).toEqual([`GitHub Deployment ${saved.id} stays in progress: the post step has no github-token.`])
    expect(summaries).toEqual([NOTHING])
  })

  test('GitHub refuses with an answer that echoes the token: the warning shows it as ***', async () => {
    inputs = { 'github-token': DEFAULT_GITHUB_TOKEN }
    github.fail('create-status', { status: 401, body: { message: `Bad credentials: ${DEFAULT_GITHUB_TOKEN}` } })
    const saved = { ...deployment(), logUrl: undefined }
    await runPost(state({ githubDeployment: saved, reported: false }))
    expect(said('warning')).toHaveLength(1)
    expect(said('warning')[0]).toContain('Bad credentials: ***')
    expect(said('warning')[0]).not.toContain(DEFAULT_GITHUB_TOKEN)
  })

  test('GitHub refuses: a warning naming the deployment, nothing claimed', async () => {
    inputs = { 'github-token': DEFAULT_GITHUB_TOKEN }
    github.fail('create-status', { status: 500, times: 5 })
    const saved = { ...deployment(), logUrl: undefined }
    await runPost(state({ githubDeployment: saved, reported: false }))
    expect(said('info')).toEqual([])
    expect(said('warning')).toHaveLength(1)
    expect(said('warning')[0]).toMatch(new RegExp(`^Could not set GitHub Deployment ${saved.id} to error \\(.+\\)\\.$`))
    expect(summaries).toEqual([NOTHING])
  })

  test('the main step finished it: no call', async () => {
    inputs = { 'github-token': DEFAULT_GITHUB_TOKEN }
    await runPost(state({ githubDeployment: { ...deployment(), logUrl: undefined }, githubDeploymentFinal: true }))
    expect(github.calls).toEqual([])
    expect(lines).toEqual([])
  })
})

describe('the GitLab deployment the main step left running', () => {
  const sha = fakeSha('post/1')
  gitlab.model.linear('main', [sha])
  function deployment(): { id: number; project: string; apiUrl: string } {
    const d = gitlab.model.createDeployment({ environment: 'production', sha, ref: 'main', tag: false, status: 'running' })
    return { id: d.id, project: DEFAULT_GITLAB_PROJECT, apiUrl: gitlab.apiUrl }
  }
  const statusOf = (id: number): string => gitlab.model.deployment(id).status

  test('a stopped main step: set to canceled, said, and listed in the summary', async () => {
    inputs = { 'gitlab-token': DEFAULT_GITLAB_TOKEN }
    const saved = deployment()
    await runPost(state({ gitlabDeployment: saved, reported: false }))
    expect(statusOf(saved.id)).toBe('canceled')
    expect(masked).toContain(DEFAULT_GITLAB_TOKEN)
    expect(said('info')).toEqual([`Set GitLab deployment ${saved.id} to canceled: the main step was stopped before it finished.`])
    expect(summaries[0]).toContain(`- set GitLab deployment ${saved.id} to canceled (it was left running)\n`)
  })

  test('a main step that decided its outcome and could not set it: that status, never "stopped" (found by the simulation)', async () => {
    // The main step failed and reported; its call setting failed got no answer in time. It was canceled, "stopped".
    inputs = { 'gitlab-token': DEFAULT_GITLAB_TOKEN }
    const failed = deployment()
    await runPost(state({ gitlabDeployment: failed, reported: true, finalWanted: 'failure' }))
    expect(statusOf(failed.id)).toBe('failed')
    const verified = deployment()
    await runPost(state({ gitlabDeployment: verified, reported: true, finalWanted: 'success' }))
    expect(statusOf(verified.id)).toBe('success')
    expect(said('info')).toEqual([
      `Set GitLab deployment ${failed.id} to failed: the status the main step decided and could not set.`,
      `Set GitLab deployment ${verified.id} to success: the status the main step decided and could not set.`
    ])
    expect(summaries).toEqual([])
  })

  test("the main step's call set it, though its answer was lost: nothing set again, no warning (found by the simulation)", async () => {
    // GitLab refuses a move to the status a deployment has (400): the post step warned that it could not set failed.
    inputs = { 'gitlab-token': DEFAULT_GITLAB_TOKEN }
    const saved = deployment()
    gitlab.model.updateDeployment(saved.id, 'failed')
    await runPost(state({ gitlabDeployment: saved, reported: true, finalWanted: 'failure' }))
    expect(said('warning')).toEqual([])
    expect(said('info')).toEqual([`GitLab deployment ${saved.id} is failed already: the post step has nothing to set.`])
    expect(gitlab.calls.filter((c) => c.route === 'update-deployment' && c.path.endsWith(`/${saved.id}`))).toEqual([])
    expect(statusOf(saved.id)).toBe('failed')
  })

  test('no gitlab-token: it stays running, and the warning says why; finished by the main step: no call', async () => {
    const saved = deployment()
    await runPost(state({ gitlabDeployment: saved, reported: false }))
    expect(said('warning')).toEqual([`GitLab deployment ${saved.id} stays running: the post step has no gitlab-token.`])
    inputs = { 'gitlab-token': DEFAULT_GITLAB_TOKEN }
    const calls = gitlab.calls.length
    await runPost(state({ gitlabDeployment: saved, githubDeploymentFinal: true }))
    expect(gitlab.calls.length).toBe(calls)
    expect(statusOf(saved.id)).toBe('running')
  })
})

describe('GitLab refusing the post step', () => {
  test('a warning naming the deployment, one attempt (a write), nothing claimed', async () => {
    inputs = { 'gitlab-token': DEFAULT_GITLAB_TOKEN }
    const sha = fakeSha('post/refused')
    gitlab.model.linear('main', [sha])
    const d = gitlab.model.createDeployment({ environment: 'production', sha, ref: 'main', tag: false, status: 'running' })
    gitlab.calls.length = 0
    gitlab.fail('update-deployment', { status: 500, times: 5 })
    await runPost(state({ gitlabDeployment: { id: d.id, project: DEFAULT_GITLAB_PROJECT, apiUrl: gitlab.apiUrl }, reported: false }))
    expect(said('info')).toEqual([])
    expect(said('warning')).toHaveLength(1)
    expect(said('warning')[0]).toMatch(new RegExp(`^Could not set GitLab deployment ${d.id} to canceled \\(.+\\)\\.$`))
    expect(gitlab.calls.filter((c) => c.route === 'update-deployment')).toHaveLength(1)
    expect(gitlab.model.deployment(d.id).status).toBe('running')
  })
})

describe('the summary and failures of the post step itself', () => {
  test('outside a runner (no summary file): nothing written', async () => {
    delete process.env.GITHUB_STEP_SUMMARY
    await runPost(state({ reported: false }))
    expect(summaries).toEqual([])
  })

  test('a state it cannot read: a warning, never a failure', async () => {
    await runPost(() => {
      throw new Error('state unreadable')
    })
    expect(said('warning')).toEqual(['The post step could not finish (state unreadable).'])
  })

  test('a failure that quotes a secret it knows: the warning shows *** in its place', async () => {
    const { registerSecret } = await import('../src/secrets.js')
    registerSecret('rt-known-to-the-post-step-0451')
    await runPost(() => {
      throw new Error('state unreadable near rt-known-to-the-post-step-0451')
    })
    expect(said('warning')).toEqual(['The post step could not finish (state unreadable near ***).'])
  })
})
