// The package as npm publishes it and a user runs it: `npm pack` (the same files `npm publish` sends), then
// `npm exec --package=<tarball>`, which is what `npx brcloud-deploy` does, with an empty cache and --offline:
// a dependency the package declared would have to be fetched, and the install would fail. Then `npm install -g`
// into a folder of its own, for the two command names. The emulator and the deploy both come from the package.
import { execFile, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { BINS, packageProblems, REQUIRED_FILES, type Manifest } from '../scripts/package-check.js'
import { release } from './e2e-support.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const run = promisify(execFile)
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest & { version: string }

let folder: string
let tarball: string

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'brcd-npx-'))
  const { stdout } = await run('npm', ['pack', '--pack-destination', folder, '--silent'], { cwd: ROOT })
  tarball = join(folder, stdout.trim().split('\n').pop() ?? '')
}, 120_000)

/** PATH with the Node the end-to-end tests run (E2E_NODE: Node 24 on CI) first, as the command's shebang finds it. */
const path = (): string => [process.env.E2E_NODE ? dirname(process.env.E2E_NODE) : dirname(process.execPath), process.env.PATH ?? ''].join(delimiter)

/**
 * `npx brcloud-deploy args`, as npx runs it: npm exec with the package given, from an empty cache, offline. In a
 * process group of its own, as a terminal runs a command: Ctrl-C (`stop`) reaches npm and the command it started.
 */
function npx(args: string[], env: Record<string, string> = {}): ReturnType<typeof spawn> {
  const npmArgs = ['exec', '--yes', '--offline', '--no-audit', '--no-fund', '--cache', join(folder, 'npm-cache'), `--package=${tarball}`, '--', ...args]
  return spawn('npm', npmArgs, {
    cwd: folder,
    env: { PATH: path(), HOME: folder, TMPDIR: tmpdir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true
  })
}

/** A signal to the child's whole process group, as a terminal's Ctrl-C sends it (npm exec does not pass it on). */
function stop(child: ReturnType<typeof spawn>, signal: NodeJS.Signals): void {
  try {
    process.kill(-(child.pid ?? 0), signal)
  } catch {
    child.kill(signal) // not a group of its own (a command run directly), or the group has ended
  }
}

function ended(child: ReturnType<typeof spawn>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()))
  const timer = setTimeout(() => stop(child, 'SIGKILL'), 90_000)
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  )
}

test('npx brcloud-deploy --version: installs from the tarball alone (no dependency to fetch) and prints the version', async () => {
  const r = await ended(npx(['brcloud-deploy', '--version']))
  expect(r).toMatchObject({ code: 0, stdout: `${manifest.version}\n` })
  // npx installed it into its own cache, with both names linked.
  const installed = join(folder, 'npm-cache', '_npx')
  expect(existsSync(installed)).toBe(true)
}, 120_000)

test('npx brcloud-deploy: the emulator and a deploy to it, both from the package', async () => {
  const emulator = npx(['brcloud-deploy', 'emulator', '--port', '0', '--deploy-seconds', '0.2'])
  const emulatorEnded = ended(emulator)
  let banner = ''
  const url = await new Promise<string>((resolve, reject) => {
    emulator.stdout?.on('data', (d: Buffer) => {
      banner += d.toString()
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1]
      if (found) resolve(found)
    })
    void emulatorEnded.then((r) => reject(new Error(`the emulator ended before it listened:\n${banner}${r.stderr}`)))
  })
  try {
    const r = await ended(
      npx(['brcloud-deploy', 'deploy', '--api-url', url, '--username', 'deployer', '--environment', 'development', '--json'], {
        BRCLOUD_PASSWORD: 'emulator-password',
        BRCLOUD_DISTRIBUTION: release('v1')
      })
    )
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ deployed: 'true', 'environment-distribution-id': expect.any(String) })
    expect(r.stderr).not.toContain('emulator-password')
  } finally {
    stop(emulator, 'SIGINT')
  }
  // Its output closes when the last process of the group holding it has ended: the emulator too, not only npm.
  const r = await emulatorEnded
  expect(r.stderr).not.toMatch(/error/i)
}, 180_000)

test('npm install -g: both names on PATH, the same command', async () => {
  const prefix = join(folder, 'global')
  await run('npm', ['install', '-g', '--offline', '--no-audit', '--no-fund', '--cache', join(folder, 'npm-cache-g'), '--prefix', prefix, tarball], {
    cwd: folder,
    env: { PATH: path(), HOME: folder }
  })
  for (const bin of BINS) {
    const r = await ended(spawn(join(prefix, 'bin', bin), ['--version'], { env: { PATH: path(), HOME: folder }, stdio: ['ignore', 'pipe', 'pipe'] }))
    expect({ bin, ...r }).toMatchObject({ bin, code: 0, stdout: `${manifest.version}\n` })
  }
  const help = await ended(spawn(join(prefix, 'bin', 'brcloud-deploy'), ['--help'], { env: { PATH: path(), HOME: folder }, stdio: ['ignore', 'pipe', 'pipe'] }))
  expect(help.stdout).toContain('npx brcloud-deploy <command> [flags]')
}, 120_000)

describe('what the package holds (scripts/package-check.ts, which .ci/run runs on npm publish --dry-run)', () => {
  const files = [...REQUIRED_FILES, 'dist-cli/4.index.js', 'dist-cli/emulator/12.index.js']
  const bundle = '#!/usr/bin/env node\nimport x from "y"\n'

  test('the repository as it is: nothing to say', () => {
    expect(packageProblems(files, manifest, readFileSync(join(ROOT, 'dist-cli/index.js'), 'utf8'))).toEqual([])
  })

  test('a missing file, a stray one, and what the manifest gets wrong are each named', () => {
    const stray = [...files.filter((f) => f !== 'LICENSE'), 'src/main.ts', 'dist/index.js', 'dist-cli/index.js.map']
    expect(packageProblems(stray, manifest, bundle)).toEqual([
      `LICENSE is not packed: add it to package.json's "files"`,
      'src/main.ts would be published: it is not part of the command; narrow package.json\'s "files"',
      'dist/index.js would be published: it is not part of the command; narrow package.json\'s "files"',
      'dist-cli/index.js.map would be published: it is not part of the command; narrow package.json\'s "files"'
    ])
    const wrong: Manifest = {
      ...manifest,
      private: true,
      license: 'ISC',
      repository: { url: 'git+https://github.com/someone/else.git' },
      publishConfig: { access: 'restricted' },
      bin: { brcloud: 'dist-cli/index.js' },
      dependencies: { '@opentelemetry/api': '1.9.1' }
    }
    expect(packageProblems(files, wrong, 'import x from "y"\n')).toEqual([
      'package.json says "private": true: npm refuses to publish it',
      'the licence is not "MIT", the one LICENSE holds',
      'repository.url does not name github.com/brcloud/brcloud-deploy: npm checks provenance against it',
      'publishConfig.access is not "public"',
      'publishConfig.provenance is not true',
      'bin.brcloud-deploy is not dist-cli/index.js',
      'dependencies lists @opentelemetry/api: dist-cli/ bundles them; move them to devDependencies',
      'dist-cli/index.js does not start with "#!/usr/bin/env node": npm links it as a command'
    ])
    expect(packageProblems(files, { ...manifest, name: 'brcloud' }, bundle)).toEqual(['the name is "brcloud", not "brcloud-deploy"'])
  })
})
