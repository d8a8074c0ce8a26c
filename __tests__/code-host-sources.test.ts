// Where the code lives, from the inputs (src/inputs/code-host.ts), from the status report's flags, file and variables
// (src/status/code-host.ts), and a GitLab CI job's own project and API for brcloud deploy (src/cli/inputs.ts): every
// refusal in its words, before any request; the GitLab CI defaults only with a token; flags over the file over the CI.
import { collectInputs } from '../src/cli/inputs.js'
import { InputError } from '../src/errors.js'
import { GITLAB_COM, readCodeHost, type CodeHostInputs } from '../src/inputs/code-host.js'
import { forgetSecrets, redact } from '../src/secrets.js'
import { statusCodeHost, type StatusHostSources } from '../src/status/code-host.js'

afterEach(() => forgetSecrets())

/** readCodeHost over these inputs (the others empty); the warnings it gave. */
function read(inputs: Record<string, string>): { hosts: CodeHostInputs; warnings: string[] } {
  const warnings: string[] = []
  const hosts = readCodeHost(
    (name) => inputs[name] ?? '',
    (line) => warnings.push(line)
  )
  return { hosts, warnings }
}

/** The refusal's message, or a failure when there was none. */
function refusal(work: () => unknown): string {
  try {
    work()
  } catch (error) {
    expect(error).toBeInstanceOf(InputError)
    return (error as Error).message
  }
  throw new Error('not refused')
}

describe('readCodeHost: the inputs github-token, gitlab-token, gitlab-project, gitlab-url', () => {
  test('none: no host, nothing said; a GitHub token alone: GitHub', () => {
    expect(read({})).toEqual({ hosts: { githubToken: undefined }, warnings: [] })
    expect(read({ 'github-token': 'ghs_only' })).toEqual({ hosts: { githubToken: 'ghs_only' }, warnings: [] })
  })

  test('a GitLab token with its project: GitLab.com unless gitlab-url names the instance (its address or its API)', () => {
    expect(read({ 'gitlab-token': 'glpat-1', 'gitlab-project': 'acme/site' }).hosts).toEqual({
      gitlab: { token: 'glpat-1', project: 'acme/site', apiUrl: `${GITLAB_COM}/api/v4` }
    })
    const at = (url: string): string | undefined => read({ 'gitlab-token': 'glpat-1', 'gitlab-project': '42', 'gitlab-url': url }).hosts.gitlab?.apiUrl
    expect(at('https://gitlab.example.com')).toBe('https://gitlab.example.com/api/v4')
    expect(at('https://gitlab.example.com/')).toBe('https://gitlab.example.com/api/v4')
    expect(at('https://example.com/gitlab')).toBe('https://example.com/gitlab/api/v4')
    expect(at('https://gitlab.example.com/api/v4/')).toBe('https://gitlab.example.com/api/v4')
    expect(at('http://127.0.0.1:4082')).toBe('http://127.0.0.1:4082/api/v4')
    // A subgroup's project and a numeric id are projects.
    expect(read({ 'gitlab-token': 'glpat-1', 'gitlab-project': 'acme/platform/site' }).hosts.gitlab?.project).toBe('acme/platform/site')
  })

  test('both tokens: refused, saying the code lives in one place and what to keep', () => {
    expect(refusal(() => read({ 'github-token': 'ghs_1', 'gitlab-token': 'glpat-1', 'gitlab-project': 'acme/site' }))).toBe(
      'github-token and gitlab-token are both set: the code lives in one place. Keep github-token for a repository on GitHub, ' +
        'or gitlab-token (with gitlab-project) for a project on GitLab, and remove the other.'
    )
  })

  test('a GitLab token without its project, or with one that is no path or id: refused, with the form it needs', () => {
    expect(refusal(() => read({ 'gitlab-token': 'glpat-1' }))).toBe(
      'gitlab-token is set but gitlab-project is empty: name the project as its path (group/project, or group/sub/project) or its numeric id. ' +
        'In a GitLab CI job the brcloud command takes CI_PROJECT_PATH by itself.'
    )
    for (const project of ['acme', 'acme/site.git', 'acme/-site', 'acme/site.', '/acme/site', 'acme//site', 'acme/my site', '0', '042']) {
      expect(refusal(() => read({ 'gitlab-token': 'glpat-1', 'gitlab-project': project }))).toBe(
        `gitlab-project is not a GitLab project: '${project}'. Give its path as GitLab shows it (group/project, or group/sub/project) or its numeric id (Settings > General).`
      )
    }
  })

  test('a gitlab-url that is not the http(s) address of an instance: refused, naming what is wrong; a password in it is never repeated', () => {
    const url = (value: string): string => refusal(() => read({ 'gitlab-token': 'glpat-1', 'gitlab-project': 'acme/site', 'gitlab-url': value }))
    expect(url('gitlab.example.com')).toBe(
      "gitlab-url: The GitLab address 'gitlab.example.com' is not a URL: give the instance's address with its scheme, e.g. https://gitlab.example.com."
    )
    expect(url('ftp://gitlab.example.com')).toBe(
      "gitlab-url: The GitLab address 'ftp://gitlab.example.com' is a ftp: address: give the instance's http(s) address, e.g. https://gitlab.example.com."
    )
    const withPassword = url('https://ci:s3cr3t-pass@gitlab.example.com')
    expect(withPassword).toBe(
      'gitlab-url: The GitLab address carries a user name or password: give it without them (https://gitlab.example.com); the token is given apart.'
    )
    expect(url('https://gitlab.example.com/?private_token=x')).toMatch(/carries a query or a fragment/)
    expect(url('https://gitlab.example.com/api/v3')).toBe(
      "gitlab-url: The GitLab address 'https://gitlab.example.com/api/v3' names an API other than v4: give the instance's address, or https://gitlab.example.com/api/v4."
    )
  })

  test('gitlab-project or gitlab-url without a token: a warning that they do nothing, and no host', () => {
    expect(read({ 'gitlab-project': 'acme/site' })).toEqual({
      hosts: { githubToken: undefined },
      warnings: ['gitlab-project has no effect without gitlab-token, which reads and records the deploys on GitLab.']
    })
    expect(read({ 'gitlab-project': 'acme/site', 'gitlab-url': 'https://gitlab.example.com', 'github-token': 'ghs_1' })).toEqual({
      hosts: { githubToken: 'ghs_1' },
      warnings: ['gitlab-project and gitlab-url have no effect without gitlab-token, which reads and records the deploys on GitLab.']
    })
  })

  test('both tokens are masked the moment they are read, also when the inputs are refused', () => {
    refusal(() => read({ 'github-token': 'ghs_MaskedFirst', 'gitlab-token': 'glpat-MaskedFirst' }))
    expect(redact('ghs_MaskedFirst glpat-MaskedFirst')).toBe('*** ***')
  })
})

describe('statusCodeHost: the flags (or inputs) over the file over a GitLab CI job', () => {
  const none: StatusHostSources = { githubToken: undefined, gitlabToken: undefined, gitlabProject: undefined, gitlabUrl: undefined, file: undefined, env: {} }
  const hosts = (over: Partial<StatusHostSources>): CodeHostInputs => statusCodeHost({ ...none, ...over }, () => undefined)
  const job = { GITLAB_CI: 'true', CI_PROJECT_PATH: 'acme/ci/project', CI_API_V4_URL: 'https://ci.gitlab.example/api/v4' }
  const file = { project: 'acme/file/project', url: 'https://file.gitlab.example', tokenVariable: undefined }

  test("the project and the instance: the flag's, else the file's, else the GitLab CI job's", () => {
    const env = { ...job, BRCLOUD_GITLAB_TOKEN: 'glpat-env' }
    expect(hosts({ env }).gitlab).toEqual({ token: 'glpat-env', project: 'acme/ci/project', apiUrl: 'https://ci.gitlab.example/api/v4' })
    expect(hosts({ env, file }).gitlab).toEqual({ token: 'glpat-env', project: 'acme/file/project', apiUrl: 'https://file.gitlab.example/api/v4' })
    // The short form names the project only: the instance is still the job's.
    expect(hosts({ env, file: { ...file, url: undefined } }).gitlab?.apiUrl).toBe('https://ci.gitlab.example/api/v4')
    expect(hosts({ env, file, gitlabProject: 'acme/flag/project', gitlabUrl: 'https://flag.gitlab.example' }).gitlab).toEqual({
      token: 'glpat-env',
      project: 'acme/flag/project',
      apiUrl: 'https://flag.gitlab.example/api/v4'
    })
  })

  test("the token: the flag's (or input's), else the variable the file names, else BRCLOUD_GITLAB_TOKEN", () => {
    const env = { ...job, BRCLOUD_GITLAB_TOKEN: 'glpat-default', SITE_TOKEN: 'glpat-named' }
    expect(hosts({ env }).gitlab?.token).toBe('glpat-default')
    expect(hosts({ env, file: { ...file, tokenVariable: 'SITE_TOKEN' } }).gitlab?.token).toBe('glpat-named')
    expect(hosts({ env, file: { ...file, tokenVariable: 'SITE_TOKEN' }, gitlabToken: 'glpat-flag' }).gitlab?.token).toBe('glpat-flag')
  })

  test("without a token a GitLab CI job's project and API are not taken: no host, and nothing to warn about", () => {
    const warnings: string[] = []
    expect(statusCodeHost({ ...none, env: job }, (line) => warnings.push(line))).toEqual({ githubToken: undefined })
    expect(warnings).toEqual([])
    // Outside GitLab CI, the job's variables are not read even with a token: the project is missing.
    expect(refusal(() => hosts({ env: { ...job, GITLAB_CI: '', BRCLOUD_GITLAB_TOKEN: 'glpat-env' } }))).toMatch(
      /^gitlab-token is set but gitlab-project is empty/
    )
  })

  test("a file's token-variable that names a variable not set: refused, as a stack's login variable is; a name that may be the token is not repeated", () => {
    expect(refusal(() => hosts({ env: {}, file: { ...file, tokenVariable: 'SITE_TOKEN' } }))).toBe(
      "The file's gitlab.token-variable names SITE_TOKEN, which is not set or empty (a CI job gets a secret only where it is passed in): " +
        'set it to a GitLab access token with scope read_api (api to keep drift issues).'
    )
    const hidden = refusal(() => hosts({ env: {}, file: { ...file, tokenVariable: 'glpatAbc123secret' } }))
    expect(hidden).toBe(
      "The file's gitlab.token-variable names a variable that is not set or empty. The name is not repeated here: written with lower-case letters, " +
        'it may be the token itself rather than the name of the variable that holds it (e.g. GITLAB_TOKEN).'
    )
    expect(redact('glpatAbc123secret')).toBe('***')
    // The flag's (or input's) token needs no variable.
    expect(hosts({ env: {}, file: { ...file, tokenVariable: 'SITE_TOKEN' }, gitlabToken: 'glpat-flag' }).gitlab?.token).toBe('glpat-flag')
  })

  test('both tokens: refused as the deploy refuses them', () => {
    expect(refusal(() => hosts({ githubToken: 'ghs_1', env: { ...job, BRCLOUD_GITLAB_TOKEN: 'glpat-env' } }))).toMatch(
      /^github-token and gitlab-token are both set: the code lives in one place\./
    )
  })
})

describe("brcloud deploy in a GitLab CI job: the job's project and API only with a token", () => {
  const job = { GITLAB_CI: 'true', CI_PROJECT_PATH: 'acme/ci/project', CI_API_V4_URL: 'https://ci.gitlab.example/api/v4' }
  const gitlab = (values: Map<string, string>) => [values.get('gitlab-project'), values.get('gitlab-url')]

  test('with BRCLOUD_GITLAB_TOKEN: the job fills in what is not given; a flag or variable wins', () => {
    expect(gitlab(collectInputs('deploy', {}, { ...job, BRCLOUD_GITLAB_TOKEN: 'glpat-1' }))).toEqual(['acme/ci/project', 'https://ci.gitlab.example/api/v4'])
    expect(gitlab(collectInputs('deploy', { 'gitlab-project': 'acme/flag' }, { ...job, BRCLOUD_GITLAB_TOKEN: 'glpat-1' }))).toEqual([
      'acme/flag',
      'https://ci.gitlab.example/api/v4'
    ])
    expect(gitlab(collectInputs('deploy', {}, { ...job, BRCLOUD_GITLAB_TOKEN: 'glpat-1', BRCLOUD_GITLAB_URL: 'https://own.example' }))).toEqual([
      'acme/ci/project',
      'https://own.example'
    ])
  })

  test('without a token, or outside GitLab CI: nothing filled in', () => {
    expect(gitlab(collectInputs('deploy', {}, job))).toEqual([undefined, undefined])
    expect(gitlab(collectInputs('deploy', {}, { ...job, GITLAB_CI: '', BRCLOUD_GITLAB_TOKEN: 'glpat-1' }))).toEqual([undefined, undefined])
    // A search check reads nothing of GitLab.
    expect(gitlab(collectInputs('search-check', {}, { ...job, BRCLOUD_GITLAB_TOKEN: 'glpat-1' }))).toEqual([undefined, undefined])
  })
})
