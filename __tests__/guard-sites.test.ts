// What `npm run plant-deletions` plants (scripts/lib/guard-sites.ts): every call that guards a secret or a promise,
// found by pattern (so a new one needs no list kept by hand), and planted so the file still parses.
import { readFileSync } from 'node:fs'
import { findGuardSites, plant, syntaxError } from '../scripts/lib/guard-sites.js'

const SOURCE = `
import * as core from './port.js'
export async function run(session, deployment, api, secrets) {
  registerSecret(password)
  for (const t of tokens) core.setSecret(t)
  const failed = await session.revoke(api)
  await deployment.set('in_progress', 'Deploying')
  await github.deployment?.set('success', 'Deployed')
  noteRefreshTokens('password', url, [])
  core.warning(\`Could not (\${redact(failed)})\`)
  process.stdout.write(\`::add-mask::\${value}\\n\`)
  const note = this.method.revokeNote?.(true)
  if (closed) void this.revokeTokens(api, [token])
  return revokeAt(token)
}
const port = { setSecret: (s) => secrets.add(s) }
`

const sites = findGuardSites('src/x.ts', SOURCE)
const at = (call: string) => sites.find((s) => s.call.startsWith(call))

test('each kind is found by its name, receiver or text; notes and opening statuses are not guards', () => {
  expect(sites.map((s) => [s.kind, s.call.split('(')[0]])).toEqual([
    ['mask', 'registerSecret'],
    ['mask', 'core.setSecret'],
    ['revoke', 'session.revoke'],
    ['final-status', 'github.deployment?.set'],
    ['handoff', 'noteRefreshTokens'],
    ['scrub', 'redact'],
    ['mask', 'process.stdout.write'],
    ['revoke', 'this.revokeTokens'],
    ['revoke', 'revokeAt'],
    ['mask', 'secrets.add']
  ])
})

test('a statement is deleted (same lines), a used value becomes undefined, a scrubbing wrapper its argument', () => {
  expect(at('registerSecret')).toMatchObject({ plant: 'delete-statement', line: 4 })
  expect(at('session.revoke')?.plant).toBe('undefined')
  expect(at('redact')).toMatchObject({ plant: 'unwrap', replacement: '(failed)' })
  expect(at('revokeAt')?.plant).toBe('undefined')
  for (const site of sites) {
    const planted = plant(SOURCE, site)
    expect(syntaxError('src/x.ts', planted)).toBeUndefined()
    expect(planted.split('\n')).toHaveLength(SOURCE.split('\n').length)
  }
  expect(plant(SOURCE, at('this.revokeTokens') ?? sites[0]!)).toContain('if (closed) ;')
})

test("in the sources: the identity provider's access token mask, the one that survived the whole suite", () => {
  const file = 'src/cloud/login/oauth.ts'
  const found = findGuardSites(file, readFileSync(file, 'utf8'))
  expect(found.map((s) => s.call)).toContain('registerSecret(answer.access_token)')
})
