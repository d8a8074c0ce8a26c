// run() when the inputs are refused (src/main.ts): what the run was asked to do is read from the raw inputs, so
// the summary names the environment given and whether a deploy or a search check alone was asked for. Real
// @actions/core, as a runner would drive it: INPUT_* variables in, the summary and outputs files out.
import { run } from '../src/main.js'
import { runAsRunner } from './main-as-runner.js'

/** Runs with these inputs (and no others); the summary written, and the failure line on stdout. */
const refused = (inputs: Record<string, string>) => runAsRunner(run, inputs)

test('a deploy refused before any request: the environment given is named, as not resolved', async () => {
  const { summary, stdout } = await refused({ environment: 'production', 'distribution-id': 'abc' })
  expect(stdout).toMatch(/::error::/)
  expect(summary).toMatch(/\| Environment \| production \(not resolved to an id\) \|/)
  expect(summary).toMatchSnapshot()
})

test('a search check alone (search-query, no distribution source), refused: no deploy is claimed', async () => {
  const { summary } = await refused({ 'search-query': 'shoes' })
  expect(summary).not.toMatch(/\| Environment \|/)
  expect(summary).toMatchSnapshot()
})

test('nothing at all: taken as a deploy refused, with no environment', async () => {
  const { summary } = await refused({})
  expect(summary).toMatchSnapshot()
})

test('an environment and a search query but no source: a search check alone, no deploy row', async () => {
  const { summary } = await refused({ environment: 'staging', 'search-query': 'shoes', 'from-environment': '' })
  expect(summary).toMatchSnapshot()
})

test('from-environment alone counts as a deploy source', async () => {
  const { summary } = await refused({ 'from-environment': 'staging', 'search-query': 'shoes' })
  expect(summary).toMatchSnapshot()
})

test.each(['distribution', 'distribution-id', 'from-environment'])('%s with a search query counts as a deploy source', async (name) => {
  const { summary } = await refused({ environment: 'production', [name]: 'x', 'search-query': 'shoes', 'max-attempts': '0' })
  expect(summary).toMatch(/\| Environment \| production \(not resolved to an id\) \|/)
})

test('a search query alone with an environment: no deploy row, whatever the environment', async () => {
  const { summary } = await refused({ environment: 'production', 'search-query': 'shoes', 'max-attempts': '0' })
  expect(summary).not.toMatch(/\| Environment \|/)
})
