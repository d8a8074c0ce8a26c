// What a token says of its own life, when it is a JWT: read, never verified (the issuer verifies it).
// The session renews by it; the inputs check a ready token's `exp` against the run's budgets.

/** The `iat` and `exp` claims (seconds) of a JWT, or undefined when the token is not a readable JWT. */
function lifeClaims(token: string): { iat: number | undefined; exp: number | undefined } | undefined {
  const parts = token.split('.')
  if (parts.length !== 3 || !parts[1]) return undefined
  try {
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as { iat?: unknown; exp?: unknown }
    return { iat: typeof claims.iat === 'number' ? claims.iat : undefined, exp: typeof claims.exp === 'number' ? claims.exp : undefined }
  } catch {
    return undefined
  }
}

/** Milliseconds between `iat` and `exp` of a JWT, or undefined when the token does not say. */
export function jwtLifetimeMs(token: string): number | undefined {
  const c = lifeClaims(token)
  if (c?.iat === undefined || c.exp === undefined || c.exp <= c.iat) return undefined
  return (c.exp - c.iat) * 1000
}

/** `exp` of a JWT in milliseconds, or undefined when the token does not say. */
export function jwtExpiry(token: string): number | undefined {
  const exp = lifeClaims(token)?.exp
  return exp === undefined ? undefined : exp * 1000
}
