// The failure annotation's words for what no step explained (src/main.ts failureMessage): a failed connection,
// with the cause a fix needs (a proxy, a host that does not exist, a flaky network), never a secret.
import { failureMessage, WatchdogTimeout } from '../src/main.js'
import { registerSecret } from '../src/secrets.js'
import type { ActionInputs } from '../src/inputs/index.js'

const API = 'https://api.acme-prod.bloomreach.cloud'
const inputs = { deploy: { address: { apiUrl: API }, maxAttempts: 4 } } as unknown as ActionInputs
const failed = (code: string, text = `${code} at connect`): Error => Object.assign(new Error(text), { code })

const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'no_proxy', 'NO_PROXY']
const saved = Object.fromEntries(PROXY_VARIABLES.map((n) => [n, process.env[n]]))
beforeEach(() => {
  for (const n of PROXY_VARIABLES) delete process.env[n]
})
afterAll(() => {
  for (const [n, v] of Object.entries(saved))
    if (v === undefined) delete process.env[n]
    else process.env[n] = v
})

describe('a failed connection', () => {
  test('one that is retried: the code, the attempts (max-attempts), and what to check', () => {
    expect(failureMessage(failed('ECONNRESET', 'socket hang up'), inputs, 'Upload the distribution')).toBe(
      `The connection to ${API} failed during "Upload the distribution" (ECONNRESET: socket hang up), on each of up to 4 attempt(s) (max-attempts). ` +
        `Check that the runner can reach the platform; if the network is flaky, raise max-attempts.`
    )
  })

  test('one that is not retried: said so, with what to check; no phase, no "during"', () => {
    expect(failureMessage(failed('ECERTIFICATE'), inputs, undefined)).toBe(
      `The connection to ${API} failed (ECERTIFICATE: ECERTIFICATE at connect); this failure is not retried. Check the stack name or api-url and that the runner can reach the platform.`
    )
  })

  test('a host that does not exist: the stack name, tried once, where to copy it from', () => {
    expect(failureMessage(failed('ENOTFOUND'), inputs, 'Log in')).toBe(
      `The host api.acme-prod.bloomreach.cloud does not exist during "Log in" (ENOTFOUND): the stack name is probably wrong. It was tried once and is not retried. ` +
        `Copy the word after "missioncontrol." from your console address into stack (or set console-url to that address).`
    )
  })

  test('through a proxy: the proxy (without its credentials) and its variable; attempts only for a retried code', () => {
    process.env.HTTPS_PROXY = 'http://user:secret@proxy.corp:3128'
    expect(failureMessage(failed('ECONNREFUSED'), inputs, 'Log in')).toBe(
      `The connection to ${API} through the proxy http://proxy.corp:3128 (set by HTTPS_PROXY) failed during "Log in" (ECONNREFUSED: ECONNREFUSED at connect), on each of up to 4 attempt(s). ` +
        `Check that the proxy runs and that the runner can reach it, or correct HTTPS_PROXY; a host listed in NO_PROXY bypasses it. More attempts (max-attempts) will not help while the proxy is unreachable.`
    )
    expect(failureMessage(failed('ENOTFOUND'), inputs, undefined)).toBe(
      `The connection to ${API} through the proxy http://proxy.corp:3128 (set by HTTPS_PROXY) failed (ENOTFOUND: ENOTFOUND at connect). ` +
        `Check that the proxy runs and that the runner can reach it, or correct HTTPS_PROXY; a host listed in NO_PROXY bypasses it. More attempts (max-attempts) will not help while the proxy is unreachable.`
    )
  })

  test("undici's own codes count as connection codes; other codes, and no deploy, keep the error's words", () => {
    expect(failureMessage(failed('UND_ERR_SOCKET', 'other side closed'), inputs, undefined)).toMatch(
      /^The connection to .* \(UND_ERR_SOCKET: other side closed\), on each of up to 4/
    )
    expect(failureMessage(failed('ERR_INVALID_ARG_TYPE', 'bad argument'), inputs, undefined)).toBe('bad argument')
    expect(failureMessage(failed('ECONNRESET', 'socket hang up'), { deploy: undefined } as unknown as ActionInputs, undefined)).toBe('socket hang up')
    expect(failureMessage(failed('ECONNRESET', 'socket hang up'), undefined, undefined)).toBe('socket hang up')
    expect(failureMessage(failed('eCONNRESET', 'lower case'), inputs, undefined)).toBe('lower case')
  })
})

describe('any other failure', () => {
  test("an ActionError's message as it is; a thrown non-Error as text; a secret in either is redacted", () => {
    registerSecret('s3cr3t-value')
    expect(failureMessage(new WatchdogTimeout('too slow'), inputs, 'x')).toBe('too slow')
    expect(failureMessage(new WatchdogTimeout('leaked s3cr3t-value'), inputs, 'x')).not.toContain('s3cr3t-value')
    expect(failureMessage('plain s3cr3t-value', inputs, 'x')).not.toContain('s3cr3t-value')
    expect(failureMessage('plain text', inputs, 'x')).toBe('plain text')
    expect(failureMessage(failed('ECONNRESET', 'hang up s3cr3t-value'), inputs, undefined)).not.toContain('s3cr3t-value')
  })
})
