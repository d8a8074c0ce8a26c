import { useTestPort } from './test-port.js'

const secrets: string[] = []
const warnings: string[] = []
useTestPort({
  setSecret: (s: string) => secrets.push(s),
  getInput: () => '',
  warning: (m: string) => warnings.push(m)
})

const { readInputs, Input, MB } = await import('../src/inputs/index.js')
const { InputError } = await import('../src/errors.js')

const base: Record<string, string> = {
  [Input.Stack]: 'mystack',
  [Input.Username]: 'deployer',
  [Input.Password]: ' pass word ',
  [Input.Distribution]: 'target/*-distribution.tar.gz'
}

function reader(values: Record<string, string>) {
  return (name: string, options?: { trimWhitespace?: boolean }): string => {
    const v = values[name] ?? ''
    return options?.trimWhitespace === false ? v : v.trim()
  }
}

function readAll(over: Record<string, string> = {}) {
  return readInputs(reader({ ...base, ...over }))
}

function read(over: Record<string, string> = {}) {
  const inputs = readAll(over)
  if (!inputs.deploy) throw new Error('no deploy inputs')
  return inputs.deploy
}

const searchOnly = {
  [Input.Distribution]: '',
  [Input.Stack]: '',
  [Input.Username]: '',
  [Input.Password]: '',
  'search-query': 'shoes',
  'search-account-id': '6001',
  'search-auth-key': 'key-123456',
  'search-domain-key': 'example_com'
}

describe('inputs', () => {
  beforeEach(() => (secrets.length = 0))

  test('defaults', () => {
    const i = read()
    expect(i.address.apiUrl).toBe('https://api.mystack.bloomreach.cloud')
    expect(i.login).toEqual({ kind: 'password', username: 'deployer', password: ' pass word ' })
    expect(i.deployStrategy).toBe('stopstart')
    expect(i.dryRun).toBe(false)
    expect(i.environment).toBeUndefined()
    expect(i.distributionName).toBeUndefined()
    expect(i.maxDistributionBytes).toBe(650 * MB)
  })

  test('the password is masked before anything else is validated', () => {
    expect(() => read({ [Input.Stack]: 'bad.stack', [Input.Password]: 'only here&now' })).toThrow(InputError)
    // Masked as given, percent-encoded and form-encoded (a service may echo it either way).
    expect(secrets).toEqual(['only here&now', 'only%20here%26now', 'only+here%26now'])
  })

  test.each([
    ['github-token', { 'github-token': 'ghs_0123456789abcdefToken' }, 'ghs_0123456789abcdefToken'],
    ['access-token', { [Input.Username]: '', [Input.Password]: '', 'access-token': 'eyJ.access.token-0451' }, 'eyJ.access.token-0451'],
    [
      'client-secret',
      { [Input.Username]: '', [Input.Password]: '', 'token-url': 'https://idp.example.com/oauth/token', 'client-id': 'ci', 'client-secret': 'cs-0123456789' },
      'cs-0123456789'
    ],
    [
      'search-auth-key',
      { 'search-query': 'shoes', 'search-account-id': '6001', 'search-auth-key': 'key-0123456789', 'search-domain-key': 'example_com' },
      'key-0123456789'
    ]
  ])('%s is masked when the inputs are read', (_name, over, secret) => {
    readAll(over)
    expect(secrets).toContain(secret)
  })

  test.each([
    [Input.Username, /username is required/],
    [Input.Password, /password is required.*secret/],
    [Input.Distribution, /distribution is required/]
  ])('missing %s', (name, why) => {
    expect(() => read({ [name]: '' })).toThrow(why)
  })

  test('booleans', () => {
    expect(read({ [Input.DryRun]: 'true' }).dryRun).toBe(true)
    expect(read({ [Input.DryRun]: 'False' }).dryRun).toBe(false)
    expect(() => read({ [Input.DryRun]: 'maybe' })).toThrow(/dry-run 'maybe' is not a boolean: write true or false/)
  })

  test('numbers', () => {
    expect(read({ [Input.MaxDistributionSize]: '1000' }).maxDistributionBytes).toBe(1000 * MB)
    expect(() => read({ [Input.MaxDistributionSize]: 'lots' })).toThrow(/not a whole number/)
    expect(() => read({ [Input.MaxDistributionSize]: '0' })).toThrow(/out of range/)
    expect(() => read({ [Input.MaxDistributionSize]: '-5' })).toThrow(/not a whole number/)
  })

  test('reliability inputs: defaults and refusals', () => {
    const i = read()
    expect(i.maxAttempts).toBe(4)
    expect(i.requestTimeoutMs).toBe(60_000)
    expect(i.timeoutMs).toBeUndefined()
    expect(i.maxDistributions).toBeUndefined()
    expect(read({ [Input.MaxDistributions]: '20' }).maxDistributions).toBe(20)
    expect(read({ [Input.TimeoutMinutes]: '0.5' }).timeoutMs).toBe(30_000)
    expect(() => read({ [Input.MaxDistributions]: '0' })).toThrow(/max-distributions 0 is out of range/)
    expect(() => read({ [Input.MaxAttempts]: 'four' })).toThrow(/max-attempts 'four' is not a whole number/)
    expect(() => read({ [Input.MaxAttempts]: '0' })).toThrow(/out of range/)
    expect(() => read({ [Input.TimeoutMinutes]: '1e3' })).toThrow(/total-timeout-minutes '1e3' is not a number/)
    expect(() => read({ [Input.TimeoutMinutes]: '0' })).toThrow(/out of range/)
    expect(() => read({ [Input.RequestTimeoutSeconds]: '-1' })).toThrow(/not a whole number/)
  })

  test('total-timeout-minutes: derived from the budgets when empty; a value that cannot hold them is refused with the numbers', () => {
    // Upload only: no deploy budget, only the margin for building and uploading.
    expect(readAll().watchdogMs).toBe(10 * 60_000)
    // deploy 15 + health 10 (+ 10 margin); with rollback, see below.
    const verified = { [Input.Environment]: 'production', [Input.HealthUrl]: 'https://www.example.com/version.txt' }
    expect(readAll(verified).watchdogMs).toBe((15 + 10 + 10) * 60_000)
    // A rollback after "not applied" waits for that deploy, then switches: three deploy timeouts.
    expect(readAll({ ...verified, [Input.Rollback]: 'true' }).watchdogMs).toBe((3 * 15 + 2 * 10 + 10) * 60_000)
    expect(readAll({ ...verified, [Input.Rollback]: 'true', [Input.TimeoutMinutes]: '65' }).watchdogMs).toBe(65 * 60_000)
    expect(() => readAll({ ...verified, [Input.Rollback]: 'true', [Input.TimeoutMinutes]: '30' })).toThrow(
      /^total-timeout-minutes \(30\) cannot hold the run's own budgets: deploy-timeout-minutes 15 \+ health-timeout-minutes 10 \+ deploy-timeout-minutes \(rollback: the deploy in progress\) 15 \+ deploy-timeout-minutes \(rollback\) 15 \+ health-timeout-minutes \(rollback\) 10 = 65 min, so the watchdog would cut a rollback short\. Set total-timeout-minutes to at least 75/
    )
    // A dry run changes nothing: no deploy budget to hold.
    expect(readAll({ ...verified, [Input.DryRun]: 'true', [Input.TimeoutMinutes]: '1' }).watchdogMs).toBe(60_000)
  })

  test('renamed inputs: the old name still works, with a warning, when the new one is not set', () => {
    warnings.length = 0
    expect(readAll({ [Input.Environment]: 'p', 'timeout-minutes': '40' }).watchdogMs).toBe(40 * 60_000)
    expect(read({ 'max-distribution-size': '100', [Input.MaxDistributionSize]: '650' }).maxDistributionBytes).toBe(100 * MB)
    expect(warnings).toEqual([
      'The input timeout-minutes is now called total-timeout-minutes: rename it in your workflow (the old name still works for now).',
      'The input max-distribution-size is now called max-distribution-mb: rename it in your workflow (the old name still works for now).'
    ])
    expect(readAll({ [Input.TimeoutMinutes]: '45', 'timeout-minutes': '40' }).watchdogMs).toBe(45 * 60_000)
  })

  test('rollback-on-search needs rollback', () => {
    expect(read({ [Input.Environment]: 'production', [Input.Rollback]: 'true', [Input.RollbackOnSearch]: 'true' }).rollbackOnSearch).toBe(true)
    expect(() => read({ [Input.Environment]: 'production', [Input.RollbackOnSearch]: 'true' })).toThrow(/rollback-on-search: true needs rollback: true/)
  })

  test('search only: no distribution, no cloud address or credentials needed', () => {
    const inputs = readAll(searchOnly)
    expect(inputs.deploy).toBeUndefined()
    expect(inputs.search?.query).toBe('shoes')
    expect(secrets).toContain('key-123456')
  })

  test('deploy and search together', () => {
    const inputs = readAll({ ...searchOnly, ...base })
    expect(inputs.deploy?.address.stack).toBe('mystack')
    expect(inputs.search?.query).toBe('shoes')
  })

  test('neither a distribution nor a search query', () => {
    expect(() => read({ [Input.Distribution]: '' })).toThrow(/distribution is required.*set search-query and leave distribution empty/)
  })

  test('an unknown search-type is refused', () => {
    expect(() => readAll({ ...searchOnly, 'search-type': 'fuzzy' })).toThrow(/search-type/)
  })

  test('compression-level', () => {
    expect(read().compressionLevel).toBe(6)
    expect(read({ [Input.CompressionLevel]: '1' }).compressionLevel).toBe(1)
    expect(read({ [Input.CompressionLevel]: '0' }).compressionLevel).toBe(0)
    expect(() => read({ [Input.CompressionLevel]: '10' })).toThrow(/compression-level 10 is out of range: write a number from 0 to 9/)
    expect(() => read({ [Input.CompressionLevel]: '-1' })).toThrow(/compression-level '-1' is not a whole number: write a number from 0 to 9/)
    expect(() => read({ [Input.CompressionLevel]: 'fast' })).toThrow(/compression-level 'fast' is not a whole number/)
  })

  test('distribution-name', () => {
    expect(read({ [Input.DistributionName]: 'site-1.0.tar.gz' }).distributionName).toBe('site-1.0.tar.gz')
    expect(() => read({ [Input.DistributionName]: 'site.zip' })).toThrow(/must end with .tar.gz or .tgz/)
    expect(() => read({ [Input.DistributionName]: 'a/b.tar.gz' })).toThrow(/plain file name/)
  })

  test('a runner passing the defaults of action.yml changes nothing', async () => {
    const { INPUT_DEFAULTS } = await import('../src/action-metadata.js')
    warnings.length = 0
    expect(readAll({ ...INPUT_DEFAULTS, ...base })).toEqual(readAll())
    expect(warnings).toEqual([])
  })

  test('deploy-strategy', () => {
    expect(read({ [Input.DeployStrategy]: 'rolling' }).deployStrategy).toBe('rolling')
    expect(() => read({ [Input.DeployStrategy]: 'stop start' })).toThrow(/not a strategy name/)
  })
})

describe('verified deploys', () => {
  test('defaults: follow the deploy for 15 min, no health check, no rollback, no force, no config files', () => {
    const d = read({ [Input.Environment]: 'production' })
    expect(d.source).toEqual({ kind: 'upload', input: 'target/*-distribution.tar.gz' })
    expect(d).toMatchObject({ followDeploy: true, deployTimeoutMs: 15 * 60_000, health: undefined, rollback: false, forceDeploy: false, configFiles: [] })
  })

  test('the three sources of a distribution', () => {
    expect(read({ [Input.Distribution]: '', [Input.DistributionId]: 'd-1', [Input.Environment]: 'production' }).source).toEqual({ kind: 'id', id: 'd-1' })
    expect(read({ [Input.Distribution]: '', [Input.FromEnvironment]: 'acceptance', [Input.Environment]: 'production' }).source).toEqual({
      kind: 'environment',
      name: 'acceptance'
    })
    expect(() => read({ [Input.DistributionId]: 'd-1', [Input.FromEnvironment]: 'acceptance', [Input.Environment]: 'production' })).toThrow(
      /^distribution, distribution-id and from-environment are all set, but they are alternatives: keep distribution to upload a build, or distribution-id to deploy a distribution already on the stack, or from-environment to deploy what another environment runs, and remove the others\./
    )
    expect(() => read({ [Input.Distribution]: '', [Input.DistributionId]: 'a b', [Input.Environment]: 'x' })).toThrow(/is not a distribution id/)
  })

  test('config files: one per line or comma-separated, trimmed, each once', () => {
    expect(read({ [Input.Environment]: 'p', [Input.ConfigFiles]: ' a.properties,\nb.properties , a.properties\n\n' }).configFiles).toEqual([
      'a.properties',
      'b.properties'
    ])
  })

  test('health check: the address rule, health-expect, the time limit', () => {
    const d = read({
      [Input.Environment]: 'p',
      [Input.HealthUrl]: 'https://www.example.com/version.txt?x=1#top',
      [Input.HealthExpect]: 'abc123',
      [Input.HealthTimeoutMinutes]: '0.5'
    })
    expect(d.health).toEqual({
      url: 'https://www.example.com/version.txt?x=1',
      shown: 'https://www.example.com/version.txt',
      expect: 'abc123',
      timeoutMs: 30_000
    })
    expect(read({ [Input.Environment]: 'p', [Input.HealthUrl]: 'http://127.0.0.1:4080/sites/p/' }).health?.url).toBe('http://127.0.0.1:4080/sites/p/')
    expect(() => read({ [Input.Environment]: 'p', [Input.HealthUrl]: 'https://user:pw@www.example.com/' })).toThrow(/must not contain a user name or password/)
    expect(() => read({ [Input.Environment]: 'p', [Input.HealthUrl]: 'version.txt' })).toThrow(/is not an absolute address/)
    // Nothing secret is sent: plain http to any host is allowed (a development site may have no certificate).
    expect(read({ [Input.Environment]: 'p', [Input.HealthUrl]: 'http://dev.example.com/version.txt' }).health?.url).toBe('http://dev.example.com/version.txt')
    expect(() => read({ [Input.Environment]: 'p', [Input.HealthUrl]: 'ftp://dev.example.com/' })).toThrow(/must start with https:\/\/ or http:\/\//)
  })

  test('inputs made pointless by others are warned about, before any request; an unknown deploy-strategy too', () => {
    warnings.length = 0
    read({ [Input.EnvironmentUrl]: 'https://www.example.com', [Input.HealthTimeoutMinutes]: '3', [Input.DeployStrategy]: 'rolling' })
    expect(warnings).toEqual([
      expect.stringMatching(/^deploy-strategy 'rolling' is not a value public clients send \(they send stopstart\)\. It is sent as given/),
      expect.stringMatching(/^environment-url is set but github-token is empty: it is shown only on a GitHub Deployment .*\. It is ignored\.$/),
      'health-timeout-minutes is set but health-url is empty: no health check runs. It is ignored.',
      'deploy-strategy is set but environment is empty: nothing is deployed. It is ignored.',
      'environment-url is set but environment is empty: nothing is deployed. It is ignored.'
    ])
    warnings.length = 0
    read({ [Input.Environment]: 'p', [Input.HealthTimeoutMinutes]: '10', [Input.DeployStrategy]: 'stopstart' })
    expect(warnings).toEqual([])
  })

  test('environment-url is an http(s) address, only shown', () => {
    expect(read({ [Input.Environment]: 'p', [Input.EnvironmentUrl]: 'https://www.example.com' }).environmentUrl).toBe('https://www.example.com/')
    expect(() => read({ [Input.Environment]: 'p', [Input.EnvironmentUrl]: 'ftp://x' })).toThrow(/must start with https:\/\//)
  })
})

describe('allow-older-commit', () => {
  beforeEach(() => (warnings.length = 0))

  test('off by default; true with a token and an environment', () => {
    expect(read({ environment: 'production' }).allowOlderCommit).toBe(false)
    const i = read({ environment: 'production', 'allow-older-commit': 'true', 'github-token': 'ghs_abc' })
    expect(i.allowOlderCommit).toBe(true)
    expect(warnings).toEqual([])
  })

  test('without github-token it says it has no effect', () => {
    expect(read({ environment: 'production', 'allow-older-commit': 'true' }).allowOlderCommit).toBe(true)
    expect(warnings).toEqual([expect.stringMatching(/^allow-older-commit: true has no effect without github-token/)])
  })

  test('without an environment it is refused, like every input that acts on one', () => {
    expect(() => read({ 'allow-older-commit': 'true', 'github-token': 'ghs_abc' })).toThrow(/allow-older-commit: true needs an environment to act on/)
  })
})

describe('allow-unchecked-order', () => {
  beforeEach(() => (warnings.length = 0))

  test('off by default (a GitHub that cannot be read refuses the deploy); true with a token and an environment', () => {
    expect(read({ environment: 'production', 'github-token': 'ghs_abc' }).allowUncheckedOrder).toBe(false)
    expect(read({ environment: 'production', 'allow-unchecked-order': 'true', 'github-token': 'ghs_abc' }).allowUncheckedOrder).toBe(true)
    expect(warnings).toEqual([])
  })

  test('without github-token it says it has no effect', () => {
    expect(read({ environment: 'production', 'allow-unchecked-order': 'true' }).allowUncheckedOrder).toBe(true)
    expect(warnings).toEqual([expect.stringMatching(/^allow-unchecked-order: true has no effect without github-token/)])
  })

  test('without an environment it is refused; a word other than true or false is refused', () => {
    expect(() => read({ 'allow-unchecked-order': 'true', 'github-token': 'ghs_abc' })).toThrow(/allow-unchecked-order: true needs an environment to act on/)
    expect(() => read({ environment: 'production', 'allow-unchecked-order': 'yes' })).toThrow(/allow-unchecked-order/)
  })
})

describe('login: password, token-url, access-token', () => {
  const sso = { [Input.Username]: '', [Input.Password]: '', 'token-url': 'https://idp.example.com/oauth/token' }
  const env = process.env
  afterEach(() => (process.env = env))

  test('client credentials, with audience and scope; the secret is masked', () => {
    secrets.length = 0
    const login = read({ ...sso, 'client-id': 'ci', 'client-secret': 'shh-123456', audience: 'brcloud-api', scope: 'deploy' }).login
    expect(login).toMatchObject({
      kind: 'oauth',
      grant: 'client_credentials',
      clientId: 'ci',
      clientSecret: 'shh-123456',
      audience: 'brcloud-api',
      scope: 'deploy'
    })
    expect(secrets).toContain('shh-123456')
  })

  test("a script account's password grant, with the client's credentials when given", () => {
    const login = read({ ...sso, [Input.Username]: 'ci-bot', [Input.Password]: 'pw', 'client-id': 'ci' }).login
    expect(login).toMatchObject({ kind: 'oauth', grant: 'password', username: 'ci-bot', password: 'pw', clientId: 'ci' })
  })

  test("GitHub's OIDC token: needs id-token: write (the runner's two variables)", () => {
    process.env = { ...env, ACTIONS_ID_TOKEN_REQUEST_URL: undefined, ACTIONS_ID_TOKEN_REQUEST_TOKEN: undefined }
    expect(() => read({ ...sso, 'oidc-audience': 'api://brcloud' })).toThrow(/add 'permissions: id-token: write' to the job/)
    process.env = { ...env, ACTIONS_ID_TOKEN_REQUEST_URL: 'https://x/?api-version=2.0', ACTIONS_ID_TOKEN_REQUEST_TOKEN: 't' }
    expect(read({ ...sso, 'oidc-audience': 'api://brcloud', 'client-id': 'fed' }).login).toMatchObject({
      grant: 'client_assertion',
      oidcAudience: 'api://brcloud'
    })
    expect(() => read({ ...sso, 'oidc-audience': 'api://brcloud', 'client-id': 'fed', 'client-secret': 'x' })).toThrow(
      /client-secret is set, but oidc-audience logs in with GitHub's OIDC token/
    )
  })

  test.each([
    [{ 'token-url': 'http://idp.example.com/token', 'client-id': 'a', 'client-secret': 'b' }, /plain http to idp\.example\.com/],
    [{ 'token-url': 'https://idp.example.com/token' }, /token-url is set without credentials for it: set client-id and client-secret/],
    [{ 'token-url': 'https://idp.example.com/token', 'client-secret': 'b' }, /client-secret is set without client-id/],
    [{ 'token-url': 'https://idp.example.com/token', [Input.Username]: 'u' }, /username is set without password/],
    [{ 'client-id': 'a', 'client-secret': 'b' }, /client-id, client-secret are set, but token-url is empty/],
    [{ audience: 'x' }, /audience is set, but token-url is empty/]
  ])('refused before any request: %o', (over, message) => {
    expect(() => read({ ...sso, 'token-url': '', ...over })).toThrow(message)
  })

  test('plain http to this machine is the emulator: accepted', () => {
    expect(read({ ...sso, 'token-url': 'http://127.0.0.1:8080/idp/oauth/token', 'client-id': 'a', 'client-secret': 'b' }).login).toMatchObject({
      kind: 'oauth'
    })
  })

  const jwt = (exp: number) => `e30.${Buffer.from(JSON.stringify({ exp })).toString('base64url')}.sig`

  test('access-token: used as is; masked; alone', () => {
    secrets.length = 0
    const token = jwt(Math.floor(Date.now() / 1000) + 24 * 3600)
    expect(read({ ...sso, 'token-url': '', 'access-token': token }).login).toEqual({ kind: 'token', accessToken: token, expiresAtMs: expect.any(Number) })
    expect(secrets).toContain(token)
    expect(() => read({ 'access-token': token })).toThrow(/username, password are set, but access-token is used as it is/)
    expect(read({ ...sso, 'token-url': '', 'access-token': 'opaque-token' }).login).toEqual({
      kind: 'token',
      accessToken: 'opaque-token',
      expiresAtMs: undefined
    })
  })

  test('access-token: expired, or ending before the budgets, is refused', () => {
    expect(() => readAll({ ...sso, 'token-url': '', 'access-token': jwt(Math.floor(Date.now() / 1000) - 60) })).toThrow(/access-token expired at/)
    // 599 s, not 600: the budgets here are the 10-minute margin alone, and a token read on the very millisecond a second
    // begins would live exactly that long (not less), once in a thousand runs.
    expect(() => readAll({ ...sso, 'token-url': '', 'access-token': jwt(Math.floor(Date.now() / 1000) + 599) })).toThrow(
      /access-token expires at .*, in 9 min, before the run's budgets end \(\d+ min, total-timeout-minutes\)/
    )
  })
})

describe('issue 23: every missing required input at once', () => {
  test('two or more missing are named in one message; one alone keeps its own', () => {
    expect(() => readAll({ stack: '', 'api-url': '', 'console-url': '', username: '', password: '' })).toThrow(
      /^3 required inputs are missing: stack \(or console-url, or api-url\): .*; username: .*; password: /
    )
    expect(() => readAll({ username: '' })).toThrow(/^Input username is required/)
  })

  test('a search check alone needs no deployment inputs; a single sign-on input leaves the login to its own rules', () => {
    expect(
      readAll({
        distribution: '',
        username: '',
        password: '',
        'search-query': 'shirt',
        'search-account-id': '6001',
        'search-auth-key': 'k',
        'search-domain-key': 'd'
      }).deploy
    ).toBeUndefined()
    expect(() => readAll({ username: '', password: '', 'client-id': 'a' })).toThrow(/token-url is empty/)
  })
})

describe('build-command: only double quotes group arguments (issue 29)', () => {
  test('single quotes that group words are refused before anything runs, with the command rewritten', () => {
    expect(() => read({ 'build-command': "bash -c 'mvn -B package && ls target'" })).toThrow(
      new InputError(
        "build-command: bash -c 'mvn -B package && ls target' groups words with single quotes, which only a shell understands. " +
          'build-command runs without a shell, and only double quotes group arguments (as the runner splits them). ' +
          'Write it as: bash -c "mvn -B package && ls target"'
      )
    )
    expect(() => read({ 'build-command': "'mvn' package" })).toThrow(/groups words with single quotes/)
  })

  test('with double quotes in it too, the rewrite is left to the user', () => {
    expect(() => read({ 'build-command': `bash -c 'echo "x"'` })).toThrow(/which only a shell understands\. .*as the runner splits them\)\.$/)
  })

  test('double quotes, an apostrophe inside a word or inside double quotes, and an escaped quote pass as written', () => {
    for (const command of [
      'bash -c "mvn -B package && ls target"',
      "mvn -Dnote=it's package",
      `bash -c "echo 'hi' && true"`,
      `bash -c "echo \\" 'x"`,
      'mvn -B -P dist package'
    ]) {
      expect(read({ 'build-command': command }).buildCommand).toBe(command)
    }
    expect(read({ 'build-command': '' }).buildCommand).toBeUndefined()
  })
})
