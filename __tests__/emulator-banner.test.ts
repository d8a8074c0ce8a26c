// The emulator's banner and --help name the commands of how it was started: a clone's npm scripts, or, run as
// `brcloud emulator` from the package (BRCLOUD_EMULATOR_FACE=brcloud, set by src/cli/emulator.ts), the brcloud command.
import { deployLines, faceOf, gitHubLines, gitLabLines, ssoLines, type GitHubSide, type GitLabSide } from '../src/emulator/banner.js'
import { helpText } from '../src/emulator/cli-args.js'
import type { Emulator, SsoHandle } from '../src/emulator/server.js'

const sso = {
  tokenUrl: 'http://127.0.0.1:4080/idp/token',
  issuer: 'http://127.0.0.1:4080/idp',
  audience: 'brc',
  clientId: 'ci-client',
  clientSecret: 'ci-secret',
  federatedClientId: 'gh-federated',
  federationSubject: 'repo:acme/site:*',
  oidcAudience: 'brc-federation',
  oidcRequestUrl: 'http://127.0.0.1:4080/github-oidc/token?api-version=2.0',
  oidcRequestToken: 'oidc-request',
  oidcIssuer: 'https://token.actions.githubusercontent.com',
  oidcSubject: 'repo:acme/site:ref:refs/heads/main'
} as SsoHandle
const emulator = (withSso = false) =>
  ({ url: 'http://127.0.0.1:4080', username: 'deployer', password: 'emulator-password', ...(withSso && { sso }) }) as unknown as Emulator
const github: GitHubSide = { url: 'http://127.0.0.1:4081', repository: 'acme/site', tip: 'b'.repeat(40), older: 'a'.repeat(40), token: 'ghp_standin' }
const CLONE_ONLY = /npm run|npx|tsx|password=|ACTIONS_ID_TOKEN/

const HISTORY = {
  main: ['a'.repeat(40), 'b'.repeat(40)],
  branch: { name: 'feature/search', commits: ['c'.repeat(40)] },
  tags: [{ name: 'v1.1.0', commit: 'a'.repeat(40), annotated: true }]
}

test('told by brcloud, the face is brcloud; otherwise a clone', () => {
  expect(faceOf({ BRCLOUD_EMULATOR_FACE: 'brcloud' })).toBe('brcloud')
  expect(faceOf({})).toBe('clone')
})

test('--help: brcloud emulator as brcloud, npm run emulator from a clone', () => {
  expect(helpText('brcloud')).toContain('\nUsage: brcloud emulator [flags]\n')
  expect(helpText('brcloud')).not.toMatch(CLONE_ONLY)
  expect(helpText()).toContain('Usage: npm run emulator -- [flags]      (or: npx tsx src/emulator/cli.ts [flags])')
})

test('as brcloud: brcloud deploy with the password in the environment; with --github, the order flags and the variables to export', () => {
  const lines = [...deployLines(emulator(), github, 'brcloud'), ...gitHubLines(github, HISTORY, 'brcloud')]
  expect(lines).toEqual(
    expect.arrayContaining([
      '  export BRCLOUD_PASSWORD=emulator-password',
      `  brcloud deploy --api-url http://127.0.0.1:4080 --username deployer --environment development --distribution PATH --repository acme/site --commit ${'b'.repeat(40)}`,
      "  export GITHUB_API_URL='http://127.0.0.1:4081'",
      '  export BRCLOUD_GITHUB_TOKEN=ghp_standin',
      `  after a deploy, --commit ${'a'.repeat(40)} (an older commit) to see the deploy order refuse it`,
      `  or --commit ${'c'.repeat(40)} (the tip of feature/search) to deploy a commit of another line (diverged)`,
      '  tags: v1.1.0 (annotated, aaaaaaa)',
      // The token is exported just above: brcloud status needs only the repository besides.
      'For brcloud status, also export BRCLOUD_REPOSITORY=acme/site:',
      '  track main, feature/search, or v* (the newest tag, v1.1.0)'
    ])
  )
  expect(lines.join('\n')).not.toMatch(CLONE_ONLY)
})

test("as brcloud in single sign-on mode: the client's credentials, never GitHub's OIDC token (the action's alone)", () => {
  const lines = [...deployLines(emulator(true), undefined, 'brcloud'), ...ssoLines(sso, 'brcloud')]
  expect(lines).toEqual(
    expect.arrayContaining([
      '  export BRCLOUD_CLIENT_SECRET=ci-secret',
      '  brcloud deploy --api-url http://127.0.0.1:4080 --token-url http://127.0.0.1:4080/idp/token --client-id ci-client --audience brc --environment development --distribution PATH'
    ])
  )
  expect(lines.join('\n')).not.toMatch(CLONE_ONLY)
  // From a clone, the action with the OIDC federation, as before.
  expect(deployLines(emulator(true), github, 'clone')[1]).toMatch(
    /^ {2}npm run action -- .* client-id=gh-federated oidc-audience=brc-federation .* github-token=ghp_standin$/
  )
  expect(ssoLines(sso, 'clone')).toContain("  export ACTIONS_ID_TOKEN_REQUEST_TOKEN='oidc-request'")
})

test('with --gitlab: the variables brcloud reads to record GitLab deployments, as brcloud or from a clone (the bundle it builds)', () => {
  const gitlab: GitLabSide = { url: 'http://127.0.0.1:4082', project: 'acme/platform/site', token: 'glpat-standin' }
  const lines = gitLabLines(gitlab, HISTORY, 'brcloud')
  expect(lines).toEqual(
    expect.arrayContaining([
      'GitLab API stand-in listening on http://127.0.0.1:4082 (REST API v4 at http://127.0.0.1:4082/api/v4): project acme/platform/site (deployments, environments, compare, merge base, tags, issues)',
      '  export BRCLOUD_GITLAB_URL=http://127.0.0.1:4082',
      '  export BRCLOUD_GITLAB_PROJECT=acme/platform/site',
      '  export BRCLOUD_GITLAB_TOKEN=glpat-standin',
      `  export BRCLOUD_COMMIT=${'b'.repeat(40)}`,
      `  after a deploy, export BRCLOUD_COMMIT=${'a'.repeat(40)} (an older commit) to see the deploy order refuse it`,
      `  or export BRCLOUD_COMMIT=${'c'.repeat(40)} (the tip of feature/search) to deploy a commit of another line (diverged)`,
      '  track main, feature/search, or v* (the newest tag, v1.1.0)'
    ])
  )
  expect(lines.join('\n')).not.toMatch(CLONE_ONLY)
  const clone = gitLabLines(gitlab, HISTORY, 'clone')
  expect(clone).toContain('  (brcloud from this clone: npm run build:cli, then node dist-cli/index.js deploy ...)')
  expect(clone.filter((l) => !lines.includes(l))).toHaveLength(1)
})
