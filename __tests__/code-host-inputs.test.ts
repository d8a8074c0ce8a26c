// Where the code lives, from the inputs (src/inputs/code-host.ts, src/status/code-host.ts, the CLI's GitLab CI
// defaults and ref, the status file's gitlab:): every refusal in its words, before any request; the tokens masked.
import { useTestPort } from './test-port.js'

const masked: string[] = []
useTestPort({ setSecret: (value) => void masked.push(value) })

const { readCodeHost, GITLAB_COM } = await import('../src/inputs/code-host.js')
const { statusCodeHost, DEFAULT_GITLAB_TOKEN_VARIABLE } = await import('../src/status/code-host.js')
const { parseStatusConfig } = await import('../src/status/config.js')
const { collectInputs } = await import('../src/cli/inputs.js')
const { cliRunContext } = await import('../src/cli/run-context.js')
const { InputError } = await import('../src/errors.js')
const { readInputs } = await import('../src/inputs/index.js')
const { DeployOrder } = await import('../src/deploy/order.js')
const { redact } = await import('../src/secrets.js')

function read(values: Record<string, string>, warnings: string[] = []) {
  return readCodeHost(
    (name) => values[name] ?? '',
    (line) => void warnings.push(line)
  )
}

function refusal(fn: () => unknown): string {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(InputError)
    return (error as Error).message
  }
  throw new Error('not refused')
}

describe('readCodeHost: one host per run', () => {
  test('GitHub alone: its token, nothing of GitLab', () => {
    expect(read({ 'github-token': 'ghs_one' })).toEqual({ githubToken: 'ghs_one' })
    expect(masked).toContain('ghs_one')
  })

  test('GitLab: the token masked, the project as given, the API from the instance (gitlab.com when empty)', () => {
    const host = read({ 'gitlab-token': 'glpat-aaa', 'gitlab-project': 'acme/platform/site' })
    expect(host).toEqual({ gitlab: { token: 'glpat-aaa', project: 'acme/platform/site', apiUrl: `${GITLAB_COM}/api/v4` } })
    expect(masked).toContain('glpat-aaa')
    expect(redact('a glpat-aaa b')).toBe('a *** b')
    expect(read({ 'gitlab-token': 't', 'gitlab-project': '42', 'gitlab-url': 'https://git.example.com/' }).gitlab).toEqual({
      token: 't',
      project: '42',
      apiUrl: 'https://git.example.com/api/v4'
    })
    expect(read({ 'gitlab-token': 't', 'gitlab-project': 'a/b', 'gitlab-url': 'https://git.example.com/api/v4' }).gitlab?.apiUrl).toBe(
      'https://git.example.com/api/v4'
    )
  })

  test('both tokens: refused, saying to keep one', () => {
    expect(refusal(() => read({ 'github-token': 'ghs_x', 'gitlab-token': 'glpat-x', 'gitlab-project': 'a/b' }))).toBe(
      'github-token and gitlab-token are both set: the code lives in one place. Keep github-token for a repository on GitHub, ' +
        'or gitlab-token (with gitlab-project) for a project on GitLab, and remove the other.'
    )
  })

  test('a GitLab token without a project, or with one GitLab would not name, is refused with how to write it', () => {
    expect(refusal(() => read({ 'gitlab-token': 't' }))).toMatch(/^gitlab-token is set but gitlab-project is empty: name the project as its path/)
    expect(refusal(() => read({ 'gitlab-token': 't' }))).toContain('CI_PROJECT_PATH')
    for (const bad of ['site', 'acme/', '/site', 'acme//site', 'acme/si te', '-acme/site'])
      expect(refusal(() => read({ 'gitlab-token': 't', 'gitlab-project': bad }))).toBe(
        `gitlab-project is not a GitLab project: '${bad}'. Give its path as GitLab shows it (group/project, or group/sub/project) or its numeric id (Settings > General).`
      )
  })

  test('a gitlab-url that is no http(s) address is refused, named as gitlab-url', () => {
    expect(refusal(() => read({ 'gitlab-token': 't', 'gitlab-project': 'a/b', 'gitlab-url': 'ftp://git.example.com' }))).toMatch(/^gitlab-url: /)
    expect(refusal(() => read({ 'gitlab-token': 't', 'gitlab-project': 'a/b', 'gitlab-url': 'git.example.com' }))).toMatch(/^gitlab-url: .*not a URL/)
  })

  test('the project or address without a token: a warning that they do nothing, and no host', () => {
    const warnings: string[] = []
    expect(read({ 'gitlab-project': 'a/b', 'gitlab-url': 'https://g.example' }, warnings)).toEqual({ githubToken: undefined })
    expect(warnings).toEqual(['gitlab-project and gitlab-url have no effect without gitlab-token, which reads and records the deploys on GitLab.'])
    const one: string[] = []
    read({ 'gitlab-project': 'a/b' }, one)
    expect(one).toEqual(['gitlab-project has no effect without gitlab-token, which reads and records the deploys on GitLab.'])
    const none: string[] = []
    read({}, none)
    expect(none).toEqual([])
  })
})

describe('the brcloud command in a GitLab CI job', () => {
  const job = {
    GITLAB_CI: 'true',
    CI_PROJECT_PATH: 'acme/platform/site',
    CI_API_V4_URL: 'https://git.example.com/api/v4',
    CI_COMMIT_SHA: 'a'.repeat(40),
    CI_COMMIT_BRANCH: 'main'
  }

  test("with a token, the job's own project and API unless given; without one, neither", () => {
    const given = collectInputs('deploy', {}, { ...job, BRCLOUD_GITLAB_TOKEN: 'glpat-job' })
    expect(given.get('gitlab-project')).toBe('acme/platform/site')
    expect(given.get('gitlab-url')).toBe('https://git.example.com/api/v4')
    const own = collectInputs(
      'deploy',
      { 'gitlab-project': 'other/proj' },
      { ...job, BRCLOUD_GITLAB_TOKEN: 'glpat-job', BRCLOUD_GITLAB_URL: 'https://x.example' }
    )
    expect(own.get('gitlab-project')).toBe('other/proj')
    expect(own.get('gitlab-url')).toBe('https://x.example')
    const none = collectInputs('deploy', {}, job)
    expect(none.has('gitlab-project')).toBe(false)
    expect(none.has('gitlab-url')).toBe(false)
    // Not in GitLab CI: nothing filled in, also with a token.
    const jenkins = collectInputs('deploy', {}, { CI_PROJECT_PATH: 'acme/platform/site', BRCLOUD_GITLAB_TOKEN: 'glpat-job' })
    expect(jenkins.has('gitlab-project')).toBe(false)
  })

  test('the token is a secret: never a flag, from its variable or file', () => {
    expect(collectInputs('deploy', { 'gitlab-token': 'flag' }, { BRCLOUD_GITLAB_TOKEN: 'env' }).get('gitlab-token')).toBe('env')
  })

  test("the branch or tag the job builds is the run's ref", () => {
    expect(cliRunContext({}, job).ref).toBe('refs/heads/main')
    expect(cliRunContext({}, { ...job, CI_COMMIT_BRANCH: undefined, CI_COMMIT_TAG: 'v1.2.0' }).ref).toBe('refs/tags/v1.2.0')
    expect(cliRunContext({}, { ...job, CI_COMMIT_BRANCH: undefined, CI_COMMIT_REF_NAME: 'feature/x' }).ref).toBe('refs/heads/feature/x')
    expect(cliRunContext({}, { JENKINS_URL: 'https://j.example/', GIT_COMMIT: 'b'.repeat(40) }).ref).toBe('')
  })
})

describe('the status report', () => {
  const base = { githubToken: undefined, gitlabToken: undefined, gitlabProject: undefined, gitlabUrl: undefined, file: undefined, env: {} }

  test("the file's gitlab: as a project, or a mapping; unknown keys and a token in place of its variable refused", () => {
    const stacks = 'stacks:\n  - name: eu\n    stack: acme-eu\n'
    expect(parseStatusConfig(`gitlab: acme/site\n${stacks}`, 'f.yml').gitlab).toEqual({ project: 'acme/site', url: undefined, tokenVariable: undefined })
    expect(parseStatusConfig(`gitlab:\n  project: 42\n  url: https://g.example\n  token-variable: GL_TOKEN\n${stacks}`, 'f.yml').gitlab).toEqual({
      project: '42',
      url: 'https://g.example',
      tokenVariable: 'GL_TOKEN'
    })
    expect(parseStatusConfig(stacks, 'f.yml').gitlab).toBeUndefined()
    expect(refusal(() => parseStatusConfig(`gitlab:\n  projct: a/b\n${stacks}`, 'f.yml'))).toBe(
      "f.yml: gitlab has an unknown key 'projct' (it knows project, url, token-variable)."
    )
    const message = refusal(() => parseStatusConfig(`gitlab:\n  token-variable: glpat-xyz.secret\n${stacks}`, 'f.yml'))
    expect(message).toBe('f.yml: gitlab.token-variable must name the variable that holds the token (e.g. GITLAB_TOKEN), not the token itself.')
    expect(masked).toContain('glpat-xyz.secret')
  })

  test("flags over the file over a GitLab CI job's own; the token from the file's variable, else BRCLOUD_GITLAB_TOKEN", () => {
    const file = { project: 'file/proj', url: 'https://file.example', tokenVariable: 'GL_TOKEN' }
    const warn = (): void => undefined
    expect(statusCodeHost({ ...base, file, env: { GL_TOKEN: 'tok' } }, warn).gitlab).toEqual({
      token: 'tok',
      project: 'file/proj',
      apiUrl: 'https://file.example/api/v4'
    })
    expect(statusCodeHost({ ...base, file, gitlabProject: 'flag/proj', gitlabUrl: 'https://flag.example', env: { GL_TOKEN: 'tok' } }, warn).gitlab).toEqual({
      token: 'tok',
      project: 'flag/proj',
      apiUrl: 'https://flag.example/api/v4'
    })
    const ci = { GITLAB_CI: 'true', CI_PROJECT_PATH: 'ci/proj', CI_API_V4_URL: 'https://ci.example/api/v4', [DEFAULT_GITLAB_TOKEN_VARIABLE]: 'ci-tok' }
    expect(statusCodeHost({ ...base, env: ci }, warn).gitlab).toEqual({ token: 'ci-tok', project: 'ci/proj', apiUrl: 'https://ci.example/api/v4' })
    // The file names its token's variable, and it is not set: refused before any request, as a stack's login variable is.
    expect(refusal(() => statusCodeHost({ ...base, file, env: {} }, warn))).toMatch(
      /^The file's gitlab.token-variable names GL_TOKEN, which is not set or empty/
    )
    expect(refusal(() => statusCodeHost({ ...base, githubToken: 'ghs', file, env: { GL_TOKEN: 'tok' } }, warn))).toMatch(
      /^github-token and gitlab-token are both set/
    )
  })
})

describe('the soak gate and the order with GitLab', () => {
  test('require-verified-in with a GitLab token is bad input, saying why GitLab cannot tell', () => {
    const values: Record<string, string> = {
      stack: 's',
      username: 'u',
      password: 'p',
      'from-environment': 'acceptance',
      environment: 'production',
      'gitlab-token': 'glpat-soak',
      'gitlab-project': 'a/b',
      'require-verified-in': 'acceptance'
    }
    expect(refusal(() => readInputs((name) => values[name] ?? ''))).toBe(
      "require-verified-in reads which distribution each deployment of 'acceptance' recorded; GitLab's deployments carry no distribution, " +
        'so the soak gate needs the code on GitHub (github-token). Remove require-verified-in, or see docs/gitlab.md.'
    )
  })

  test("a running distribution whose name carries no commit: GitLab's deployments are said to record none, not searched", async () => {
    let listed = 0
    const host = {
      host: 'GitLab',
      project: 'acme/site',
      repoName: 'site',
      repoUrl: 'https://g.example/acme/site',
      runUrl: undefined,
      sha: 'c'.repeat(40),
      ref: 'refs/heads/main',
      apiUrl: 'https://g.example/api/v4',
      deploymentNoun: 'GitLab deployment',
      keepsPayload: false,
      listDeploymentPages: async () => {
        listed++
        return { deployments: [], complete: true }
      }
    }
    const client = { getDistribution: async () => ({ id: 'd-1', name: 'custom.tar.gz' }) }
    const lines: string[] = []
    const order = new DeployOrder({
      host: host as never,
      client: client as never,
      apiUrl: 'https://api.example',
      environment: 'production',
      allowOlder: false,
      allowUnchecked: false,
      promoted: undefined,
      dryRun: false,
      log: (l) => void lines.push(l),
      warn: (l) => void lines.push(l),
      notice: (l) => void lines.push(l),
      record: () => undefined
    })
    const check = await order.check('d-1')
    expect(check.order).toBe('unknown')
    expect(check.why).toBe(
      "GitLab's deployments do not record distributions (so none names d-1), which 'production' runs, and its name carries no commit of this repository"
    )
    expect(check.failed).toBeUndefined()
    expect(listed).toBeGreaterThan(0)
  })
})
