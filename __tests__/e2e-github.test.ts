// GitHub fit, end to end: GitHub Deployments against a local stand-in for the GitHub API,
// build-command, and the whole deploy through a real forward proxy on 127.0.0.1.
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { DEFAULT_GITHUB_TOKEN, startGitHubStandIn, type GitHubStandIn } from '../src/emulator/github/server.js'
import { makeDistributionTree } from '../scripts/lib/sample-tree.js'
import { ops, run, sweepAndClose } from './e2e-support.js'

const GITHUB_TOKEN = DEFAULT_GITHUB_TOKEN
const RUN_SHA = '0123456789abcdef0123456789abcdef01234567'

let emu: Emulator
beforeEach(async () => {
  emu = await startEmulator()
})
afterEach(async () => {
  await sweepAndClose(emu, [GITHUB_TOKEN])
})

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** A GitHub API stand-in (src/emulator/github) that knows the run's commit; `failCreate` answers 500 to the creation. */
async function githubStandIn(failCreate = false) {
  const gh = await startGitHubStandIn()
  gh.model.linear('main', [RUN_SHA])
  if (failCreate) gh.fail('create-deployment', { status: 500, times: 10 })
  return gh
}

/** The calls that write: what GitHub records of the run. */
const writes = (gh: GitHubStandIn) => gh.calls.filter((c) => c.method === 'POST')

const deployInputs = (over: Record<string, string> = {}) => ({
  'api-url': emu.url,
  username: emu.username,
  password: emu.password,
  distribution: makeDistributionTree(),
  environment: 'development',
  ...over
})

describe('GitHub Deployments', () => {
  test('a deploy is recorded with its statuses: in progress, then success', async () => {
    const gh = await githubStandIn()
    try {
      const r = await run(deployInputs({ 'github-token': GITHUB_TOKEN }), { env: { GITHUB_API_URL: gh.url, GITHUB_RUN_ID: '77' } })
      expect(r.errors).toEqual([])
      expect(r.code).toBe(0)
      const id = gh.model.deployments[0]?.id
      expect(writes(gh).map((c) => `${c.method} ${c.path}`)).toEqual([
        'POST /repos/acme/site/deployments',
        `POST /repos/acme/site/deployments/${id}/statuses`,
        `POST /repos/acme/site/deployments/${id}/statuses`
      ])
      const calls = writes(gh)
      expect(calls[0]?.auth).toMatch(new RegExp(`^(token|Bearer) ${GITHUB_TOKEN}$`))
      expect(calls[0]?.json).toMatchObject({
        ref: RUN_SHA,
        environment: 'development',
        auto_merge: false,
        required_contexts: [],
        payload: { distributionId: r.outputs['distribution-id'], distributionName: r.outputs['distribution-name'], apiUrl: emu.url }
      })
      expect(calls.slice(1).map((c) => (c.json as { state: string }).state)).toEqual(['in_progress', 'success'])
      expect(calls[2]?.json).toMatchObject({ log_url: 'https://github.com/acme/site/actions/runs/77' })
    } finally {
      await gh.close()
    }
  })

  test('a failed deploy sets the GitHub Deployment to failure', async () => {
    const gh = await githubStandIn()
    await emu.close()
    emu = await startEmulator({ faults: [{ operation: 'deploy', kind: 'status', status: 400, times: 1 }] })
    try {
      const r = await run(deployInputs({ 'github-token': GITHUB_TOKEN }), { env: { GITHUB_API_URL: gh.url } })
      expect(r.code).toBe(1)
      expect(
        writes(gh)
          .slice(1)
          .map((c) => (c.json as { state: string }).state)
      ).toEqual(['in_progress', 'failure'])
    } finally {
      await gh.close()
    }
  })

  test('environment-url is shown on the success status; a rollback marks the deployment failed with the reason', async () => {
    const gh = await githubStandIn()
    await emu.close()
    // Each switch seen in progress by one look: the rollback is seen applied, whatever the machine's speed.
    emu = await startEmulator({ deployLooks: 1 })
    try {
      const good = makeDistributionTree()
      writeFileSync(join(good, 'version.txt'), 'good\n')
      const first = await run(deployInputs({ distribution: good, 'github-token': GITHUB_TOKEN, 'environment-url': 'https://dev.example.com' }), {
        env: { GITHUB_API_URL: gh.url }
      })
      expect(first.code).toBe(0)
      expect(writes(gh)[2]?.json).toMatchObject({ state: 'success', environment_url: 'https://dev.example.com/' })

      const bad = makeDistributionTree()
      writeFileSync(join(bad, 'EMULATOR-SITE-FAILS'), 'x')
      const r = await run(
        deployInputs({
          distribution: bad,
          'github-token': GITHUB_TOKEN,
          rollback: 'true',
          'health-url': `${emu.url}/sites/development/version.txt`,
          'health-timeout-minutes': '0.03'
        }),
        { env: { GITHUB_API_URL: gh.url } }
      )
      expect(r.code).toBe(1)
      const last = writes(gh).at(-1)?.json as { state: string; description: string }
      expect(last.state).toBe('failure')
      expect(last.description).toMatch(/^Rolled back to /)
    } finally {
      await gh.close()
    }
  })

  test('best effort: GitHub refusing is a warning, the deploy still succeeds', async () => {
    const gh = await githubStandIn(true)
    try {
      const r = await run(deployInputs({ 'github-token': GITHUB_TOKEN, 'max-attempts': '1' }), { env: { GITHUB_API_URL: gh.url } })
      expect(r.errors).toEqual([])
      expect(r.code).toBe(0)
      expect(r.visible).toMatch(
        /::warning::Creating a GitHub Deployment: HTTP 500 \(Server Error\): the deploy is not recorded as a GitHub Deployment, and goes on/
      )
      expect(ops(emu, 'deploy').map((x) => x.status)).toEqual([202])
    } finally {
      await gh.close()
    }
  })
})

describe('build-command', () => {
  test('runs in the workspace before packing, its output in its own group', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'brcd-build-'))
    writeFileSync(
      join(workspace, 'build.mjs'),
      "import { mkdirSync, writeFileSync } from 'node:fs'\nmkdirSync('target/dist/conf', { recursive: true })\nwriteFileSync('target/dist/conf/built.txt', 'built by the build command')\nconsole.log('BUILD OUTPUT LINE')\n"
    )
    const r = await run(deployInputs({ 'build-command': `"${process.execPath}" build.mjs`, distribution: 'target/dist' }), { workspace })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.visible).toMatch(/::group::Build: .*build\.mjs\n(.*\n)*BUILD OUTPUT LINE\n(.*\n)*::endgroup::\n::group::Prepare the distribution/)
    expect(emu.distributions).toHaveLength(1)
  })

  test('a non-zero exit fails the step before anything is uploaded', async () => {
    const r = await run(deployInputs({ 'build-command': `"${process.execPath}" -e "process.exit(3)"` }))
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(/build-command .* exited with code 3; nothing was uploaded/)
    expect(emu.requests).toEqual([])
  })

  test('a program that does not exist', async () => {
    const r = await run(deployInputs({ 'build-command': 'no-such-program-xyz package' }))
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/build-command 'no-such-program-xyz package' could not be started/)
    expect(emu.requests).toEqual([])
  })
})

describe('proxies', () => {
  /** A small forward proxy: CONNECT tunnels (what undici uses) and absolute-form requests. */
  async function forwardProxy() {
    const seen: string[] = []
    const upstreamPorts = new Set<number>()
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`)
      const target = new URL(req.url ?? '')
      const up = httpRequest(
        { host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        }
      )
      up.on('socket', (s: Socket) => s.once('connect', () => s.localPort && upstreamPorts.add(s.localPort)))
      up.on('error', () => res.destroy())
      req.pipe(up)
    })
    server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
      seen.push(`CONNECT ${req.url}`)
      const [host, port] = (req.url ?? '').split(':')
      const upstream = connect(Number(port), host ?? '127.0.0.1', () => {
        if (upstream.localPort) upstreamPorts.add(upstream.localPort)
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        upstream.write(head)
        upstream.pipe(client)
        client.pipe(upstream)
      })
      upstream.on('error', () => client.destroy())
      client.on('error', () => upstream.destroy())
    })
    const url = await listen(server)
    return {
      url,
      seen,
      upstreamPorts,
      close: () =>
        new Promise<void>((r) => {
          server.closeAllConnections()
          server.close(() => r())
        })
    }
  }

  test('HTTP_PROXY: a loopback address (the emulator) never goes through the proxy, even with NO_PROXY empty', async () => {
    const proxy = await forwardProxy()
    try {
      const r = await run(deployInputs(), { env: { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: '' } })
      expect(r.errors).toEqual([])
      expect(r.code).toBe(0)
      // The proxy could not reach the runner's own 127.0.0.1, and it would see the password sent there.
      expect(proxy.seen).toEqual([])
      expect(emu.requests.map((x) => x.operation)).toEqual([
        'login',
        'list-environments',
        'list-distributions',
        'upload',
        'list-environments',
        'deploy',
        'list-environments',
        'list-environments',
        'revoke-refresh'
      ])
      for (const x of emu.requests) expect(proxy.upstreamPorts.has(x.remotePort ?? -1)).toBe(false)
    } finally {
      await proxy.close()
    }
  })

  test('HTTPS_PROXY: a call to a stack goes through the proxy (a CONNECT to its host), and a failed tunnel names the proxy', async () => {
    // A proxy that refuses every tunnel: nothing leaves this machine.
    const seen: string[] = []
    const server = createServer((_req, res) => res.writeHead(405).end())
    server.on('connect', (req: IncomingMessage, client: Socket) => {
      seen.push(`CONNECT ${req.url ?? ''}`)
      client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n')
    })
    const proxy = {
      url: await listen(server),
      seen,
      close: () => new Promise<void>((r) => server.close(() => r()))
    }
    try {
      const r = await run(
        { ...deployInputs(), 'api-url': 'https://api.mystack.invalid', 'max-attempts': '1' },
        { env: { HTTPS_PROXY: proxy.url, NO_PROXY: 'example.com' } }
      )
      expect(r.code).toBe(1)
      expect(proxy.seen).toEqual(['CONNECT api.mystack.invalid:443'])
      expect(r.errors[0]).toContain(`through the proxy ${proxy.url} (set by HTTPS_PROXY)`)
      expect(emu.requests).toHaveLength(0)
    } finally {
      await proxy.close()
    }
  })

  test('NO_PROXY skips the proxy', async () => {
    const proxy = await forwardProxy()
    try {
      const r = await run(deployInputs(), { env: { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1' } })
      expect(r.code).toBe(0)
      expect(proxy.seen).toEqual([])
      expect(emu.requests).toHaveLength(9)
    } finally {
      await proxy.close()
    }
  })
})
