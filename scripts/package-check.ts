// `npm run package:check` (.ci/run, the release workflow): runs `npm publish --dry-run --json` and checks what it
// would publish. The package is the `brcloud` command and nothing else: its bundle (dist-cli/, which carries every
// dependency, so `npx brcloud-deploy` fetches nothing more), the page that documents it, the README, the CHANGELOG
// and the licence. A file that is not on the list (a source, a test, the action's own bundle, a stray report) or a
// rule of the manifest that does not hold is printed, and the run exits 1.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

/** What the package must hold, each exactly once. */
export const REQUIRED_FILES = [
  'package.json',
  'README.md',
  'LICENSE',
  'CHANGELOG.md',
  'docs/cli.md',
  'dist-cli/index.js',
  'dist-cli/package.json',
  'dist-cli/licenses.txt',
  'dist-cli/emulator/index.js',
  'dist-cli/emulator/package.json'
] as const

/** The bundle's chunks, loaded by import() (tracing, the code hosts' adapters...): ncc names them by number. */
const CHUNK = /^dist-cli\/(emulator\/)?\d+\.index\.js$/

/** The names the command is installed as: `brcloud` for the docs' examples, `brcloud-deploy` for `npx brcloud-deploy`. */
export const BINS = ['brcloud', 'brcloud-deploy'] as const

export interface Manifest {
  name?: string
  version?: string
  private?: boolean
  license?: string
  bin?: Record<string, string>
  repository?: { url?: string }
  publishConfig?: { access?: string; provenance?: boolean }
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
}

/** The problems of a package that would publish `files` with `manifest`; none when it is right. */
export function packageProblems(files: readonly string[], manifest: Manifest, mainBundle: string): string[] {
  const problems: string[] = []
  for (const f of REQUIRED_FILES) if (!files.includes(f)) problems.push(`${f} is not packed: add it to package.json's "files"`)
  for (const f of files) {
    if (!(REQUIRED_FILES as readonly string[]).includes(f) && !CHUNK.test(f)) {
      problems.push(`${f} would be published: it is not part of the command; narrow package.json's "files"`)
    }
  }
  return [...problems, ...manifestProblems(manifest), ...bundleProblems(mainBundle)]
}

function manifestProblems(manifest: Manifest): string[] {
  const problems: string[] = []
  if (manifest.name !== 'brcloud-deploy') problems.push(`the name is ${JSON.stringify(manifest.name)}, not "brcloud-deploy"`)
  if (manifest.private) problems.push('package.json says "private": true: npm refuses to publish it')
  if (manifest.license !== 'MIT') problems.push('the licence is not "MIT", the one LICENSE holds')
  if (!/github\.com\/brcloud\/brcloud-deploy/.test(manifest.repository?.url ?? '')) {
    problems.push('repository.url does not name github.com/brcloud/brcloud-deploy: npm checks provenance against it')
  }
  if (manifest.publishConfig?.access !== 'public') problems.push('publishConfig.access is not "public"')
  if (manifest.publishConfig?.provenance !== true) problems.push('publishConfig.provenance is not true')
  for (const bin of BINS) {
    if (manifest.bin?.[bin] !== 'dist-cli/index.js') problems.push(`bin.${bin} is not dist-cli/index.js`)
  }
  // The bundle carries every dependency: one declared would be fetched by every `npx brcloud-deploy` for nothing.
  for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies'] as const) {
    const names = Object.keys(manifest[field] ?? {})
    if (names.length > 0) problems.push(`${field} lists ${names.join(', ')}: dist-cli/ bundles them; move them to devDependencies`)
  }
  return problems
}

function bundleProblems(mainBundle: string): string[] {
  return mainBundle.startsWith('#!/usr/bin/env node\n') ? [] : ['dist-cli/index.js does not start with "#!/usr/bin/env node": npm links it as a command']
}

interface DryRun {
  [name: string]: { files: { path: string }[]; version: string }
}

function main(): void {
  // The same command a release runs, without the upload: npm's own reading of "files", .npmignore and the manifest.
  const out = execFileSync('npm', ['publish', '--dry-run', '--json'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
  const dryRun = JSON.parse(out) as DryRun
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest
  const packed = dryRun[manifest.name ?? ''] ?? Object.values(dryRun)[0]
  if (packed === undefined) throw new Error(`npm publish --dry-run --json printed no package:\n${out}`)
  const files = packed.files.map((f) => f.path).sort()
  const problems = packageProblems(files, manifest, readFileSync(join(root, 'dist-cli/index.js'), 'utf8'))
  if (problems.length > 0) {
    console.error(`The package would not be right (${problems.length}):\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    process.exit(1)
  }
  const chunks = files.filter((f) => CHUNK.test(f)).length
  console.log(
    `brcloud-deploy@${packed.version}: ${files.length} files (${REQUIRED_FILES.length} named, ${chunks} bundle chunks), bins ${BINS.join(' and ')}, no dependencies`
  )
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main()
