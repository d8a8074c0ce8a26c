// The connections of every door of the action (the cloud API, the token endpoint): HTTP/1.1, through the
// environment's proxy, never for a loopback address. Its own module, so the simulation, which replaces
// the transport, still loads it.
import { EnvHttpProxyAgent, type Dispatcher } from 'undici'
import { noProxyWithLoopback } from './proxy.js'

/**
 * undici 6 (the one @actions/core already loads, so the bundle carries and loads one copy, not two)
 * marks EnvHttpProxyAgent experimental and says so on stderr, where a runner shows it as noise on
 * every step. Only that one warning is held back, only while the agent is made.
 */
function withoutExperimentalWarning<T>(make: () => T): T {
  const emitWarning = process.emitWarning
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String(warning).includes('EnvHttpProxyAgent is experimental')) return
    ;(emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest)
  }) as typeof process.emitWarning
  try {
    return make()
  } finally {
    process.emitWarning = emitWarning
  }
}

/** The connections to `baseUrl`: HTTP/1.1, HTTPS_PROXY / HTTP_PROXY / NO_PROXY honoured, loopback never proxied. */
export function proxyAwareDispatcher(baseUrl: string): Dispatcher {
  const noProxy = noProxyWithLoopback(process.env, new URL(baseUrl).hostname)
  return withoutExperimentalWarning(() => new EnvHttpProxyAgent({ allowH2: false, connect: { timeout: 30_000 }, noProxy }))
}
