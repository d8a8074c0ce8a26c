// The release workflow cannot run here (it needs GitHub, npm and a tag); what it would do is read from its steps,
// and its two decisions (the notes, the major tag) run from scripts/release.ts as the workflow calls them.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { parse } from 'yaml'
import { changelogSection, majorTagToMove, releaseNotes, releaseVersion } from '../scripts/release.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8')

interface Step {
  name?: string
  uses?: string
  run?: string
  with?: Record<string, string>
  env?: Record<string, string>
}
interface Job {
  needs?: string | string[]
  permissions?: Record<string, string>
  steps: Step[]
}
interface Workflow {
  on: { push?: { tags?: string[]; branches?: string[] } } & Record<string, unknown>
  permissions: Record<string, string>
  jobs: Record<string, Job>
}

const workflow = parse(read('.github/workflows/release.yml')) as Workflow
const release = workflow.jobs.release as Job
const check = workflow.jobs.check as Job

/** GitHub's filter pattern as a regular expression: `[0-9]+` one or more digits, `.` itself, `*` within a segment. */
const filter = (pattern: string): RegExp => new RegExp(`^${pattern.replace(/\./g, '\\.').replace(/\*/g, '[^/]*')}$`)

/** The index of the first step of `job` whose text matches, or -1. */
const stepIndex = (job: Job, match: RegExp): number => job.steps.findIndex((s) => match.test(JSON.stringify(s)))

describe('when it runs', () => {
  test('only for a tag vX.Y.Z: not a branch, a major tag, a pre-release or a pull request', () => {
    expect(Object.keys(workflow.on)).toEqual(['push'])
    expect(workflow.on.push?.branches).toBeUndefined()
    const tags = (workflow.on.push?.tags ?? []).map(filter)
    const runsFor = (tag: string): boolean => tags.some((t) => t.test(tag))
    expect(['v1.0.0', 'v1.12.3', 'v2.0.10'].filter(runsFor)).toEqual(['v1.0.0', 'v1.12.3', 'v2.0.10'])
    expect(['v1', 'v1.2', 'v1.2.3-rc.1', '1.2.3', 'v1.2.3.4', 'main'].filter(runsFor)).toEqual([])
  })

  test('one release at a time, never cancelled half-way', () => {
    expect(parse(read('.github/workflows/release.yml'))).toMatchObject({ concurrency: { 'cancel-in-progress': false } })
  })
})

describe('the checks come first', () => {
  test('the check job runs .ci/run, with no permission beyond reading', () => {
    expect(check.permissions).toEqual({ contents: 'read' })
    expect(check.steps.some((s) => s.run?.trim() === '.ci/run')).toBe(true)
    // The tag's version and notes are checked before the long run, so a wrong tag fails in seconds.
    expect(stepIndex(check, /release\.ts notes/)).toBeLessThan(stepIndex(check, /\.ci\/run/))
  })

  test(".ci/run holds the package's dry run and the bundles' comparison", () => {
    const ci = read('.ci/run')
    expect(ci).toMatch(/^npm run package:check$/m)
    for (const bundle of ['dist', 'dist-cli', 'status/dist']) expect(ci).toContain(`git status --porcelain -- ${bundle}`)
  })

  test('the release job waits for the checks, and nothing else holds a permission', () => {
    expect(release.needs).toBe('check')
    expect(workflow.permissions).toEqual({})
    expect(release.permissions).toEqual({ contents: 'write', 'id-token': 'write', attestations: 'write' })
  })
})

describe('what the release job does, in its order', () => {
  const order = [
    ['the notes', /release\.ts notes \\"\$GITHUB_REF_NAME\\" > /],
    ['the bundles rebuilt', /npm run build && npm run build:cli && npm run build:status/],
    ['the package checked', /npm run package:check/],
    ['the attestations', /actions\/attest-build-provenance@/],
    ['npm publish', /npm publish --provenance/],
    ['the GitHub release', /gh release create/],
    ['the major tag moved', /release\.ts major/]
  ] as const

  test.each(order.map(([what, match], i) => [what, match, i] as const))('%s, in its place', (_what, match, i) => {
    const at = stepIndex(release, match)
    expect(at).toBeGreaterThan(-1)
    const before = order.slice(0, i).map(([, m]) => stepIndex(release, m))
    for (const b of before) expect(b).toBeLessThan(at)
  })

  test('the bundles built on the tag must equal the committed ones', () => {
    const step = release.steps[stepIndex(release, /npm run build:status/)] as Step
    expect(step.run).toContain('git status --porcelain -- dist dist-cli status/dist')
    expect(step.run).toMatch(/exit 1/)
  })

  test('the attestations name the three bundles and the package', () => {
    const step = release.steps[stepIndex(release, /attest-build-provenance/)] as Step
    const subjects = (step.with?.['subject-path'] ?? '').trim().split('\n')
    expect(subjects).toEqual(['dist/**', 'dist-cli/**', 'status/dist/**', '${{ runner.temp }}/brcloud-deploy-*.tgz'])
  })

  test("the release's notes are the CHANGELOG section the notes step wrote", () => {
    const notes = release.steps[stepIndex(release, /release\.ts notes/)] as Step
    const file = /> "([^"]+)"/.exec(notes.run ?? '')?.[1]
    expect(file).toBe('$RUNNER_TEMP/notes.md')
    expect(release.steps[stepIndex(release, /gh release create/)]?.run).toContain(`--notes-file "${file}"`)
  })

  test('npm publishes with provenance, signed by the job, and a re-run does not publish twice', () => {
    const step = release.steps[stepIndex(release, /npm publish/)] as Step
    expect(step.run).toMatch(/npm view "brcloud-deploy@\$version" version/)
    expect(step.env).toEqual({ NODE_AUTH_TOKEN: '${{ secrets.NPM_TOKEN }}' })
    const setup = release.steps.find((s) => s.uses?.startsWith('actions/setup-node@'))
    expect(setup?.with?.['registry-url']).toBe('https://registry.npmjs.org')
  })

  test('the major tag is moved last, to the tagged commit', () => {
    const last = release.steps[release.steps.length - 1] as Step
    expect(last.run).toMatch(/release\.ts major/)
    expect(last.run).toContain('git tag --force "$major" "$GITHUB_SHA"')
    expect(last.run).toContain('git push --force origin "refs/tags/$major"')
  })

  test('every action is pinned by its full commit SHA (the job holds write permissions and an OIDC token)', () => {
    const uses = Object.values(workflow.jobs).flatMap((j) => j.steps.flatMap((s) => (s.uses ? [s.uses] : [])))
    expect(uses.length).toBeGreaterThan(0)
    for (const u of uses) expect(u).toMatch(/^[\w-]+\/[\w-]+@[0-9a-f]{40}$/)
  })

  test('no expression is pasted into a shell line (a tag name is data, read from the environment)', () => {
    const runs = Object.values(workflow.jobs).flatMap((j) => j.steps.flatMap((s) => (s.run ? [s.run] : [])))
    for (const r of runs) expect(r).not.toContain('${{')
  })
})

describe('the notes of a version', () => {
  const changelog = [
    '# Changelog',
    '',
    '## [Unreleased]',
    '',
    '- next',
    '',
    '## [1.2.0] - 2026-12-01',
    '',
    '### Added',
    '- a thing',
    '',
    '## [1.1.0] - 2026-11-01',
    '',
    '- older',
    '',
    '[1.2.0]: https://github.com/brcloud/brcloud-deploy/compare/v1.1.0...v1.2.0'
  ].join('\n')

  test("are that version's section, without the next heading or the link definitions", () => {
    expect(changelogSection(changelog, '1.2.0')).toBe('### Added\n- a thing')
    expect(changelogSection(changelog, '1.1.0')).toBe('- older')
    expect(releaseNotes('v1.2.0', '1.2.0', changelog)).toEqual({ notes: '### Added\n- a thing' })
  })

  test('refuse a tag that is not vX.Y.Z, a version package.json does not say, and a version with no section', () => {
    expect(releaseNotes('v1.2', '1.2.0', changelog)).toEqual({ refused: expect.stringContaining('releases are tagged vX.Y.Z') })
    expect(releaseNotes('v1.2.0', '1.1.0', changelog)).toEqual({
      refused: 'v1.2.0 names 1.2.0, but package.json says 1.1.0: set "version" to 1.2.0, commit, and tag that commit'
    })
    expect(releaseNotes('v1.3.0', '1.3.0', changelog)).toEqual({
      refused: 'CHANGELOG.md has no "## [1.3.0]" section with notes: rename [Unreleased] to [1.3.0] - <date> before tagging'
    })
    expect(releaseNotes('v1.3.0', '1.3.0', `${changelog}\n## [1.3.0]\n\n`)).toHaveProperty('refused')
  })

  test('the repository as it is: v<package.json version> is not releasable until the CHANGELOG names it', async () => {
    const { version } = JSON.parse(read('package.json')) as { version: string }
    const done = await promisify(execFile)(join(ROOT, 'node_modules/.bin/tsx'), ['scripts/release.ts', 'notes', `v${version}`], { cwd: ROOT }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e
    )
    const section = changelogSection(read('CHANGELOG.md'), version)
    if (section === undefined) expect(done).toMatchObject({ code: 1, stdout: '', stderr: expect.stringContaining(`no "## [${version}]" section`) })
    else expect(done).toMatchObject({ code: 0, stdout: `${section}\n` })
  }, 30_000)
})

describe('the major tag', () => {
  test('moves to the newest release of its major, never back to an older line, never across majors', () => {
    const tags = ['v1', 'v1.0.0', 'v1.1.0', 'v1.1.1', 'v2.0.0', 'v1.2.0-rc.1']
    expect(majorTagToMove('v1.2.0', tags)).toBe('v1')
    expect(majorTagToMove('v1.1.2', tags)).toBe('v1')
    expect(majorTagToMove('v1.0.1', tags)).toBeUndefined()
    expect(majorTagToMove('v1.1.0', tags)).toBeUndefined()
    expect(majorTagToMove('v1.1.1', tags)).toBe('v1')
    expect(majorTagToMove('v2.0.1', tags)).toBe('v2')
    expect(majorTagToMove('v3.0.0', tags)).toBe('v3')
    expect(majorTagToMove('v1.10.0', ['v1.9.9'])).toBe('v1')
    expect(majorTagToMove('v1.9.9', ['v1.10.0'])).toBeUndefined()
    expect(majorTagToMove('v1', tags)).toBeUndefined()
  })

  test('a release tag is vX.Y.Z and nothing else', () => {
    expect(releaseVersion('v1.2.3')).toEqual({ major: 1, minor: 2, patch: 3 })
    expect([' v1.2.3', 'v1.2.3\n'].map(releaseVersion)).toEqual([
      { major: 1, minor: 2, patch: 3 },
      { major: 1, minor: 2, patch: 3 }
    ])
    expect(['v1', 'v1.2', 'v1.2.3-rc.1', '1.2.3', 'v01.2.x'].map(releaseVersion)).toEqual([undefined, undefined, undefined, undefined, undefined])
  })
})
