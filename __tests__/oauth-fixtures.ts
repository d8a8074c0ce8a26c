// What the token endpoint login's tests share (oauth-claims, oauth-more): its inputs against the emulator's
// identity provider, and what a call printed.
import type { SsoHandle } from '../src/emulator/server.js'
import type { Login } from '../src/inputs/login.js'

export type OAuthInputs = Extract<Login, { kind: 'oauth' }>

/** token-url with the client credentials grant of the emulator's identity provider, as changed by `over`. */
export function oauthInputs(sso: SsoHandle, over: Partial<OAuthInputs> = {}): OAuthInputs {
  return {
    kind: 'oauth',
    tokenUrl: sso.tokenUrl,
    grant: 'client_credentials',
    clientId: sso.clientId,
    clientSecret: sso.clientSecret,
    username: undefined,
    password: undefined,
    oidcAudience: undefined,
    audience: sso.audience,
    scope: undefined,
    ...over
  }
}

/** What a call printed on stdout (core.info, core.warning; not the masks of secrets nor debug lines), and its outcome. */
export async function printed<T>(call: () => Promise<T>): Promise<{ lines: string[]; value?: T; error?: unknown }> {
  const out: string[] = []
  const write = process.stdout.write.bind(process.stdout)
  process.stdout.write = ((chunk: string | Uint8Array) => out.push(String(chunk)) > 0) as typeof process.stdout.write
  const lines = (): string[] =>
    out
      .join('')
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('::add-mask::') && !l.startsWith('::debug::'))
  try {
    const value = await call()
    return { lines: lines(), value }
  } catch (error) {
    return { lines: lines(), error }
  } finally {
    process.stdout.write = write
  }
}
