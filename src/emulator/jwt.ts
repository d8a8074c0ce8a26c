// Minimal HS256 JSON Web Tokens (RFC 7519) with node:crypto only.
import { createHmac, timingSafeEqual } from 'node:crypto'

export interface JwtPayload {
  sub: string
  iat: number
  exp: number
  jti: string
  typ: 'access' | 'refresh'
}

export type JwtCheck = { ok: true; payload: JwtPayload } | { ok: false; reason: 'malformed' | 'signature' | 'expired' }

const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))

function base64url(text: string | Buffer): string {
  return Buffer.from(text).toString('base64url')
}

function sign(data: string, secret: Buffer): Buffer {
  return createHmac('sha256', secret).update(data).digest()
}

export function signJwt(payload: JwtPayload, secret: Buffer): string {
  const body = `${HEADER}.${base64url(JSON.stringify(payload))}`
  return `${body}.${sign(body, secret).toString('base64url')}`
}

function isPayload(value: unknown): value is JwtPayload {
  if (typeof value !== 'object' || value === null) return false
  const p = value as Record<string, unknown>
  return (
    typeof p.sub === 'string' &&
    typeof p.iat === 'number' &&
    typeof p.exp === 'number' &&
    typeof p.jti === 'string' &&
    (p.typ === 'access' || p.typ === 'refresh')
  )
}

/** Checks structure, algorithm, signature and `exp` (seconds since the epoch) against `nowMs`. */
export function verifyJwt(token: string, secret: Buffer, nowMs: number = Date.now()): JwtCheck {
  const pieces = token.split('.')
  if (pieces.length !== 3) return { ok: false, reason: 'malformed' }
  const [header, body, signature] = pieces as [string, string, string]
  let payload: unknown
  try {
    const h = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown }
    if (h.alg !== 'HS256') return { ok: false, reason: 'malformed' }
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'))
  } catch {
    return { ok: false, reason: 'malformed' }
  }
  const expected = sign(`${header}.${body}`, secret)
  const given = Buffer.from(signature, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature' }
  if (!isPayload(payload)) return { ok: false, reason: 'malformed' }
  if (nowMs >= payload.exp * 1000) return { ok: false, reason: 'expired' }
  return { ok: true, payload }
}
