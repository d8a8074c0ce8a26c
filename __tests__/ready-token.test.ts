// A ready access-token (src/cloud/login/ready-token.ts) word for word: what the session reads of it, the
// empty token refused, the token handed back as it is, and nothing revoked (an earlier step owns it).
import { ActionError } from '../src/errors.js'
import { ReadyToken } from '../src/cloud/login/ready-token.js'

test('what the session reads of a ready token: an OAuth token, checked before use, never renewed', () => {
  const login = new ReadyToken('eyJ.ready.token')
  expect({ issuer: login.issuer, who: login.who, preflight: login.preflight, renewable: login.renewable }).toEqual({
    issuer: 'oauth',
    who: 'the holder of access-token',
    preflight: true,
    renewable: false
  })
  expect(login.refusedHint).toBe(
    "The stack did not accept access-token: it may have expired, or be issued for another audience. Get a fresh token for the stack's API in the step before this one, or use token-url so the action gets and renews it."
  )
})

test('the token is handed back as it is, with no refresh token and no lifetime', async () => {
  await expect(new ReadyToken('eyJ.ready.token').obtain()).resolves.toStrictEqual({ accessToken: 'eyJ.ready.token' })
})

test('an empty access-token is refused with a message the user reads', async () => {
  const refused = new ReadyToken('').obtain()
  await expect(refused).rejects.toBeInstanceOf(ActionError)
  await expect(refused).rejects.toThrow(/^access-token is empty$/)
})

test('nothing is revoked, and the note says why', async () => {
  const login = new ReadyToken('eyJ.ready.token')
  await expect(login.revoke()).resolves.toBeUndefined()
  expect(login.revokeNote()).toBe('nothing revoked: access-token was made by an earlier step, which owns it')
})
