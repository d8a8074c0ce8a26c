// Where tracing/plan.ts puts a health attempt and a look (issue 45): inside the deepest phase that holds it, never in
// a phase it outlasts. Found by the simulation: a follow that took no time, begun in the millisecond the health check
// began, took the health check's attempts as its children, spans that ended 5 s after their parent.
import type { DeployResult } from '../src/deploy/result.js'
import type { RunContext } from '../src/port.js'
import type { RunResult } from '../src/report.js'
import { planRunTrace, type PlannedSpan } from '../src/tracing/plan.js'

const T = Date.parse('2026-11-24T08:00:00Z')
const context: RunContext = {
  sha: '',
  noCommit: 'none',
  ref: '',
  repository: '',
  serverUrl: 'https://github.com',
  runUrl: undefined,
  workspace: '/tmp',
  runId: '1',
  runAttempt: '1',
  actor: undefined
}

function planOf(deploy: Partial<DeployResult>, phases: RunResult['phases']): PlannedSpan {
  const result: RunResult = { deploys: true, deploy: { cautions: [], plan: [], ...deploy } as DeployResult, search: undefined, phases, error: undefined }
  return planRunTrace(result, { context, startedAt: T, endedAt: T + 10_000, failure: undefined, stack: 'acme', observed: undefined })
}

/** Every span's name with its parent's. */
function parents(span: PlannedSpan, parent = '(none)'): Array<[string, string]> {
  return [[span.name, parent], ...span.children.flatMap((c) => parents(c, span.name))]
}

test('an attempt begun as a phase of no time ended: in the health check that holds it, not in the phase it outlasts', () => {
  const plan = planOf({ healthAttempts: [{ url: 'https://site.example/version.txt', startedAt: T + 1_000, endedAt: T + 6_000, ok: true, what: 'HTTP 200' }] }, [
    { name: "Wait until 'production' runs d-1", startedAt: T + 1_000, ms: 0, ok: true },
    { name: 'Health check https://site.example/version.txt', startedAt: T + 1_000, ms: 5_000, ok: true }
  ])
  expect(parents(plan).find(([name]) => name === 'GET')).toEqual(['GET', 'health check'])
})

test('an attempt no phase holds whole: in the run itself', () => {
  const plan = planOf({ healthAttempts: [{ url: 'https://site.example/', startedAt: T + 1_000, endedAt: T + 3_000, ok: false, what: 'HTTP 503' }] }, [
    { name: 'Health check https://site.example/', startedAt: T + 1_000, ms: 1_000, ok: false }
  ])
  expect(parents(plan).find(([name]) => name === 'GET')).toEqual(['GET', 'brcloud deploy'])
})
