// What is in the release, as the report shows it (src/report.ts with src/deploy/changes.ts): the changes output's exact
// JSON, and the summary's Changes section line by line: the commits linked, "and N more", another branch, the reason
// when empty, and after a rollback what it took out.
import type { ReleaseChanges } from '../src/deploy/changes.js'
import type { DeployResult } from '../src/deploy/result.js'
import { deployResult, releaseOf } from './report-fixtures.js'
import { outputValues, summaryMarkdown, type RunResult } from '../src/report.js'

const RUNNING = '1234567890abcdef1234567890abcdef12345678'
const OURS = 'abcdef1234567890abcdef1234567890abcdef12'
const REPO = 'https://github.com/acme/site'
const sha = (i: number): string => `${i}`.padStart(2, '0').repeat(20)

const changesOf = (over: Partial<ReleaseChanges> = {}): ReleaseChanges => ({
  commits: [
    { sha: sha(1), title: 'Add search (#7)', author: 'ann', pullRequests: [7] },
    { sha: sha(2), title: 'Tidy *the* footer', author: undefined, pullRequests: [9] }
  ],
  total: 2,
  direction: 'added',
  running: RUNNING,
  ours: OURS,
  repoUrl: REPO,
  ...over
})

const runOf = (deploy: DeployResult, error?: string): RunResult => ({ deploys: true, deploy, search: undefined, phases: [], error })

/** The summary's Changes section: the lines after its heading, up to the next heading or the end. */
function section(run: RunResult): string[] | undefined {
  const lines = summaryMarkdown(run).split('\n')
  const at = lines.indexOf('### Changes')
  if (at < 0) return undefined
  const end = lines.findIndex((l, i) => i > at && l.startsWith('### '))
  return lines.slice(at + 2, end < 0 ? undefined : end).filter((l, i, all) => !(l === '' && i === all.length - 1))
}

const link = (s: string): string => `[\`${s.slice(0, 7)}\`](${REPO}/commit/${s})`

describe('the changes output', () => {
  test('the commits as JSON, oldest first, exactly these fields; author null when not known', () => {
    expect(outputValues(runOf(deployResult({ changes: changesOf() }))).changes).toBe(
      `[{"sha":"${sha(1)}","title":"Add search (#7)","author":"ann","pullRequests":[7]},{"sha":"${sha(2)}","title":"Tidy *the* footer","author":null,"pullRequests":[9]}]`
    )
  })

  test('[] when the list is empty, or the order was checked and none was read; unset for a run that never got there', () => {
    expect(outputValues(runOf(deployResult({ changes: changesOf({ commits: [], total: 0, why: 'github-token is not set' }) }))).changes).toBe('[]')
    const order = { order: 'behind' as const, runningDistributionId: 'd0', running: undefined, ours: undefined, refused: true }
    expect(outputValues(runOf(deployResult({ order }), 'refused')).changes).toBe('[]')
    expect(outputValues(runOf(deployResult())).changes).toBeUndefined()
  })

  test('after a rollback seen applied: the same commits, now what was taken out', () => {
    const release = releaseOf(['requested', 'applied', 'failed', 'rollback-requested', 'rollback-applied'])
    const run = runOf(deployResult({ changes: changesOf(), release }), 'the health check failed')
    expect(JSON.parse(outputValues(run).changes ?? '')).toHaveLength(2)
    expect(section(run)?.[0]).toBe(
      `**2 commit(s) taken out by the rollback:** the failed release, ${link(OURS)}, had brought them over ${link(RUNNING)}, which 'development' ran:`
    )
  })
})

describe('the summary: the Changes section', () => {
  test('the commits linked, a pull request the title does not name added, Markdown escaped, the author', () => {
    expect(section(runOf(deployResult({ changes: changesOf() })))).toEqual([
      `**2 commit(s)** from ${link(RUNNING)}, which 'development' ran, to ours, ${link(OURS)}:`,
      '',
      `- ${link(sha(1))} Add search (#7) — ann`,
      `- ${link(sha(2))} Tidy \\*the\\* footer ([#9](${REPO}/pull/9))`
    ])
  })

  test('capped at 20 with "and N more", N counting beyond what GitHub listed', () => {
    const commits = Array.from({ length: 30 }, (_, i) => ({ sha: sha(i + 1), title: `T${i + 1}`, author: 'x', pullRequests: [] }))
    const lines = section(runOf(deployResult({ changes: changesOf({ commits, total: 300 }) }))) ?? []
    expect(lines.filter((l) => l.startsWith('- [')).length).toBe(20)
    expect(lines.at(-1)).toBe('- and 280 more')
  })

  test('an older commit deployed: what it takes out; another branch: what it also takes out; lookups not made, said', () => {
    expect(section(runOf(deployResult({ changes: changesOf({ direction: 'removed', commits: [], total: 4 }) })))).toEqual([
      `**4 commit(s) taken out:** 'development' ran ${link(RUNNING)}; ours, ${link(OURS)}, is older and lacks them.`,
      '- and 4 more'
    ])
    const lines = section(runOf(deployResult({ changes: changesOf({ alsoTakenOut: 5, pullLookups: 'only 20 commits were asked for their pull requests' }) })))
    expect(lines?.slice(-4)).toEqual([
      '',
      `Ours is on another branch: the deploy also takes out 5 commit(s) of ${link(RUNNING)} that ours lacks.`,
      '',
      'Not every commit was asked for its pull requests: only 20 commits were asked for their pull requests.'
    ])
  })

  test('empty: the reason; no section when the changes were never read, or without github-token (the order row says so)', () => {
    expect(section(runOf(deployResult({ changes: changesOf({ commits: [], total: 0, why: 'the environment runs the same commit' }) })))).toEqual([
      'No commits listed: the environment runs the same commit.'
    ])
    expect(section(runOf(deployResult()))).toBeUndefined()
    expect(section(runOf(deployResult({ changes: changesOf({ commits: [], total: 0, why: 'github-token is not set', withoutToken: true }) })))).toBeUndefined()
  })
})
