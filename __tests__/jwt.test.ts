// What a JWT says of its own life (src/cloud/jwt.ts): `iat` to `exp`, and `exp`, read without verifying.
import { jwtExpiry, jwtLifetimeMs } from '../src/cloud/jwt.js'

const jwt = (claims: Record<string, unknown>): string =>
  `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`

test('the lifetime is exp minus iat, in milliseconds', () => {
  expect(jwtLifetimeMs(jwt({ iat: 1_000, exp: 1_600 }))).toBe(600_000)
  expect(jwtLifetimeMs(jwt({ iat: 1_000, exp: 1_001 }))).toBe(1_000)
})

test('a token that ends when it starts, or before, says no lifetime', () => {
  expect(jwtLifetimeMs(jwt({ iat: 1_000, exp: 1_000 }))).toBeUndefined()
  expect(jwtLifetimeMs(jwt({ iat: 1_000, exp: 400 }))).toBeUndefined()
})

test('without both claims as numbers, or without a readable JWT, there is no lifetime', () => {
  expect(jwtLifetimeMs(jwt({ exp: 1_600 }))).toBeUndefined()
  expect(jwtLifetimeMs(jwt({ iat: 1_000 }))).toBeUndefined()
  expect(jwtLifetimeMs(jwt({ iat: '1000', exp: 1_600 }))).toBeUndefined()
  expect(jwtLifetimeMs('not-a-jwt')).toBeUndefined()
  expect(jwtLifetimeMs('a..c')).toBeUndefined()
  expect(jwtLifetimeMs(`a.${Buffer.from('not json').toString('base64url')}.c`)).toBeUndefined()
})

test('the expiry is exp in milliseconds, when the token says it', () => {
  expect(jwtExpiry(jwt({ exp: 1_600 }))).toBe(1_600_000)
  expect(jwtExpiry(jwt({ iat: 1_000 }))).toBeUndefined()
  expect(jwtExpiry('a.b')).toBeUndefined()
})

describe('mutation survivors of part f', () => {
  test('a token of two or four parts is no JWT, even when its second part holds readable claims', () => {
    const [header, claims] = jwt({ iat: 1_000, exp: 1_600 }).split('.')
    expect(jwtExpiry(`${header}.${claims}`)).toBeUndefined()
    expect(jwtLifetimeMs(`${header}.${claims}`)).toBeUndefined()
    expect(jwtExpiry(`${header}.${claims}.sig.more`)).toBeUndefined()
    expect(jwtLifetimeMs(`${header}.${claims}.sig.more`)).toBeUndefined()
  })
})
