// RS256 signing keys and JSON Web Tokens (RFC 7515, 7519) of the SSO stand-ins, with node:crypto only:
// the identity provider and the GitHub OIDC stand-in each sign with a key pair made per process.
import { createSign, createVerify, generateKeyPairSync, randomUUID, type JsonWebKey, type KeyObject } from 'node:crypto'

export type Claims = Record<string, unknown>

export interface SigningKey {
  readonly kid: string
  readonly privateKey: KeyObject
  readonly publicKey: KeyObject
  /** The public key as an entry of a JWK set. */
  readonly jwk: JsonWebKey
}

export type JwtReading = { ok: true; claims: Claims } | { ok: false; reason: 'malformed' | 'signature' | 'expired' }

const shared = new Map<string, SigningKey>()

/**
 * One key pair per process for `role`: a simulation makes thousands of stacks in one process, and a 2048-bit
 * key pair takes tens of milliseconds to make. A stack that shares keys trusts another such stack's tokens.
 */
export function sharedSigningKey(role: string): SigningKey {
  let key = shared.get(role)
  if (key === undefined) {
    key = newSigningKey()
    shared.set(role, key)
  }
  return key
}

export function newSigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const kid = randomUUID()
  return { kid, privateKey, publicKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' } }
}

const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url')

export function signJwt(claims: Claims, key: SigningKey): string {
  const input = `${encode({ alg: 'RS256', typ: 'JWT', kid: key.kid })}.${encode(claims)}`
  return `${input}.${createSign('RSA-SHA256').update(input).sign(key.privateKey, 'base64url')}`
}

function decode(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
  } catch {
    return undefined
  }
}

const isObject = (value: unknown): value is Claims => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Checks the structure, the signature with `key` (RS256 only: a token of another algorithm, such as the
 * password login's HS256, is not signed by this key) and `exp` against `nowMs` unless `ignoreExpiry`.
 */
export function verifyJwt(token: string, key: SigningKey, nowMs = Date.now(), ignoreExpiry = false): JwtReading {
  const parts = token.split('.')
  if (parts.length !== 3) return { ok: false, reason: 'malformed' }
  const [header, payload, signature] = parts as [string, string, string]
  const head = decode(header)
  const claims = decode(payload)
  if (!isObject(head) || !isObject(claims)) return { ok: false, reason: 'malformed' }
  if (head.alg !== 'RS256') return { ok: false, reason: 'signature' }
  if (!createVerify('RSA-SHA256').update(`${header}.${payload}`).verify(key.publicKey, signature, 'base64url')) return { ok: false, reason: 'signature' }
  if (typeof claims.exp !== 'number') return { ok: false, reason: 'malformed' }
  if (!ignoreExpiry && nowMs >= claims.exp * 1000) return { ok: false, reason: 'expired' }
  return { ok: true, claims }
}

/** An `aud` claim (a string or an array of strings) as a list. */
export function audiences(claims: Claims): string[] {
  const aud = claims.aud
  if (typeof aud === 'string') return [aud]
  return Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : []
}
