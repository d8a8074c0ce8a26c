// `npm run action`: the command line and the caller's shell become what a runner would give the step.
import { parseActionArgs, PASSED_THROUGH } from '../scripts/lib/action-args.js'

test('proxies and extra CAs of the caller pass through; nothing else of its shell does', () => {
  const env = {
    HTTPS_PROXY: 'http://proxy.corp:3128',
    no_proxy: 'internal.corp',
    NODE_EXTRA_CA_CERTS: '/etc/ssl/corp.pem',
    AWS_SECRET_ACCESS_KEY: 'not for the action'
  }
  const args = parseActionArgs(['api-url=http://127.0.0.1:4080'], env, '/repo')
  expect(args.env).toEqual({ HTTPS_PROXY: 'http://proxy.corp:3128', no_proxy: 'internal.corp', NODE_EXTRA_CA_CERTS: '/etc/ssl/corp.pem' })
  expect(PASSED_THROUGH).toEqual(expect.arrayContaining(['HTTP_PROXY', 'NO_PROXY', 'https_proxy']))
})

test('relative paths are taken from the directory the command was typed in (npm says it in INIT_CWD), not the package root', () => {
  expect(parseActionArgs(['distribution=site'], { INIT_CWD: '/home/me/project' }, '/repo').workspace).toBe('/home/me/project')
  expect(parseActionArgs(['distribution=site'], {}, '/somewhere').workspace).toBe('/somewhere')
})

test("a renamed input's old name is accepted, with the runner's warning for an input action.yml does not declare", () => {
  const args = parseActionArgs(['timeout-minutes=5', 'stack=mystack'], {}, '/repo')
  expect(args.inputs).toEqual({ 'timeout-minutes': '5', stack: 'mystack' })
  expect(args.warnings).toHaveLength(1)
  expect(args.warnings[0]).toMatch(/^Unexpected input\(s\) 'timeout-minutes', valid inputs are \['stack', /)
  expect(parseActionArgs(['stack=mystack'], {}, '/repo').warnings).toEqual([])
})

test('an unknown name or a word without = is refused, saying which', () => {
  expect(() => parseActionArgs(['stak=mystack'], {}, '/repo')).toThrow("'stak' is not an input of action.yml")
  expect(() => parseActionArgs(['stack'], {}, '/repo')).toThrow("'stack' is not name=value.")
})
