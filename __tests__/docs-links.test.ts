// The documentation holds together: every relative link and #anchor in the README and docs/ resolves,
// and the README stays short enough to read in ten minutes (depth lives in docs/).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const pages = [
  'README.md',
  'examples/README.md',
  'CHANGELOG.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`)
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
