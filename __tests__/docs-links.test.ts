// The documentation holds together: every relative link and #anchor in the README and docs/ resolves,
// and the README stays short enough to read in ten minutes (depth lives in docs/).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'

const root = fileURLToPath(new URL('..', import.meta.url))
const pages = [
  'README.md',
  'examples/README.md',
  'CHANGELOG.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  ...readdirSync(join(root, 'docs/decisions'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/decisions/${f}`)
]

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-')
}

function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '')
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1] ?? '')))
}

test.each(pages)('%s: every relative link and anchor resolves', (page) => {
  const file = join(root, page)
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '')
  const broken: string[] = []
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1] ?? ''
    if (/^[a-z]+:/i.test(target)) continue
    const [path = '', anchor] = target.split('#')
    const resolved = path === '' ? file : resolve(dirname(file), path)
    if (!existsSync(resolved)) broken.push(`${target} (no such file)`)
    else if (anchor !== undefined && resolved.endsWith('.md') && !anchors(resolved).has(anchor)) broken.push(`${target} (no such heading)`)
  }
  expect(broken).toEqual([])
})

test('the README is read in ten minutes: at most 20 KB', () => {
  expect(readFileSync(join(root, 'README.md')).length).toBeLessThanOrEqual(20 * 1024)
})

test('the map of the code is read in ten minutes: docs/architecture.md at most 15 KB', () => {
  expect(readFileSync(join(root, 'docs/architecture.md')).length).toBeLessThanOrEqual(15 * 1024)
})

test('every decision record has its Context, Decision and Consequences, and is listed in docs/decisions/README.md', () => {
  const dir = join(root, 'docs/decisions')
  const index = readFileSync(join(dir, 'README.md'), 'utf8')
  const records = readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'README.md')
  expect(records.length).toBeGreaterThan(0)
  for (const record of records) {
    const headings = [...readFileSync(join(dir, record), 'utf8').matchAll(/^## (.+)$/gm)].map((m) => m[1])
    expect({ record, headings }).toEqual({ record, headings: expect.arrayContaining(['Context', 'Decision', 'Consequences']) })
    expect({ record, listed: index.includes(`](${record})`) }).toEqual({ record, listed: true })
  }
})

test("the hints in the action's messages build with the same Maven command as the docs", () => {
  const commands = (text: string): string[] => [...text.matchAll(/mvn -B -P dist (\w+)/g)].map((m) => m[1] ?? '')
  const docs = new Set(pages.flatMap((p) => commands(readFileSync(join(root, p), 'utf8'))))
  expect([...docs]).toEqual(['package'])
  const src = join(root, 'src')
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? (e.name === 'emulator' ? [] : files(join(dir, e.name))) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []
    )
  const inHints = files(src).flatMap((f) => commands(readFileSync(f, 'utf8')))
  expect(inHints.length).toBeGreaterThan(0)
  expect(new Set(inHints)).toEqual(docs)
})

test("docs/emulator.md's 'Running the action by hand' lists every script that runs the action", () => {
  const section = /## Running the action by hand([\s\S]*?)\n## /.exec(readFileSync(join(root, 'docs/emulator.md'), 'utf8'))?.[1] ?? ''
  for (const script of ['demo', 'action', 'local-action', 'emulator']) expect(section).toContain(`\`npm run ${script}`)
})

/** Every `with:` of a workflow's steps that expects the commit on a page, and whether a step writes the commit into a file of that name. */
function verifiedDeploys(workflow: string): Array<{ page: string; written: boolean; rollback: unknown }> {
  const doc = parse(workflow) as { jobs: Record<string, { steps?: Array<{ run?: string; with?: Record<string, unknown> }> }> }
  const steps = Object.values(doc.jobs).flatMap((j) => j.steps ?? [])
  const writes = steps.map((s) => s.run ?? '').filter((r) => /(\$\{\{ github\.sha \}\}|\$GITHUB_SHA)"? > \S+/.test(r))
  return steps
    .filter((s) => s.with?.['health-expect'] === '${{ github.sha }}')
    .map((s) => {
      const page = new URL(String(s.with?.['health-url'])).pathname.split('/').pop() ?? ''
      return { page, written: writes.some((r) => new RegExp(`> \\S*/${page.replace('.', '\\.')}\\b`).test(r)), rollback: s.with?.rollback }
    })
}

test("the README's first workflow is a verified deploy: health-url, health-expect the commit its build writes into that page, rollback", () => {
  const first = /```yaml\n([\s\S]*?)```/.exec(readFileSync(join(root, 'README.md'), 'utf8'))?.[1] ?? ''
  const deploys = verifiedDeploys(first)
  expect(deploys.length).toBeGreaterThanOrEqual(2) // development, then the promotion to production
  for (const d of deploys) expect(d).toEqual({ page: 'version.txt', written: true, rollback: true })
})

test.each(readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.yml')))(
  'examples/%s: a page expected to show the commit is written by the build',
  (file) => {
    for (const d of verifiedDeploys(readFileSync(join(root, 'examples', file), 'utf8'))) expect(d).toMatchObject({ written: true })
  }
)
