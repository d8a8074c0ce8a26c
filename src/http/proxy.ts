// Which proxy a call goes through, by the rules undici's EnvHttpProxyAgent applies (HTTPS_PROXY for https,
// HTTP_PROXY for http, lower case first, NO_PROXY's exceptions), so a failure can name the proxy and the
// variable that set it. Loopback addresses never go through a proxy: the proxy cannot reach the runner's own
// 127.0.0.1 (the emulator, a local stand-in), and it would see the password sent there.

/** Always bypass the proxy: loopback, by name and by address (IPv6 as undici compares it, in brackets). */
export const LOOPBACK_NO_PROXY = ['localhost', '127.0.0.1', '[::1]']

/** NO_PROXY as the transport applies it: the user's list plus loopback (a '*' stays '*': nothing is proxied). */
export function noProxyWithLoopback(env: NodeJS.ProcessEnv = process.env, host?: string): string {
  const user = env.no_proxy ?? env.NO_PROXY ?? ''
  if (user.trim() === '*') return '*'
  const extra = host !== undefined && isLoopbackAddress(host) && !LOOPBACK_NO_PROXY.includes(host) ? [host] : []
  return [user, ...LOOPBACK_NO_PROXY, ...extra].filter((e) => e !== '').join(',')
}

/** localhost, 127.0.0.0/8, ::1 (a host as URL.hostname gives it, IPv6 in brackets). */
export function isLoopbackAddress(hostname: string): boolean {
  const h = hostname.toLowerCase()
  return h === 'localhost' || h.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '[::1]' || h === '::1'
}

export interface ProxyUsed {
  /** The proxy's address, without a user name or password. */
  readonly url: string
  /** The environment variable that set it, as written (HTTPS_PROXY, https_proxy, ...). */
  readonly variable: string
}

/** The proxy a call to `target` goes through, or undefined when it goes direct. */
export function proxyFor(target: string, env: NodeJS.ProcessEnv = process.env): ProxyUsed | undefined {
  let url: URL
  try {
    url = new URL(target)
  } catch {
    return undefined
  }
  const names = url.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] : ['http_proxy', 'HTTP_PROXY']
  const variable = names.find((n) => (env[n] ?? '') !== '')
  if (variable === undefined) return undefined
  if (!shouldProxy(url, noProxyWithLoopback(env, url.hostname))) return undefined
  return { url: withoutCredentials(env[variable] ?? ''), variable }
}

/** undici's NO_PROXY rule: an exact host, or a suffix for an entry starting with '.' or '*'; a port when given. */
function shouldProxy(url: URL, noProxy: string): boolean {
  if (noProxy === '*') return false
  const host = url.host.replace(/:\d*$/, '').toLowerCase()
  const port = Number.parseInt(url.port, 10) || (url.protocol === 'https:' ? 443 : 80)
  for (const entry of noProxy.split(/[,\s]/)) {
    if (entry === '') continue
    const m = /^(.+):(\d+)$/.exec(entry)
    const name = (m ? (m[1] ?? '') : entry).toLowerCase()
    if (m && Number(m[2]) !== port) continue
    if (/^[.*]/.test(name) ? host.endsWith(name.replace(/^\*/, '')) : host === name) return false
  }
  return true
}

function withoutCredentials(proxy: string): string {
  try {
    const u = new URL(proxy)
    u.username = ''
    u.password = ''
    return u.toString().replace(/\/$/, '')
  } catch {
    return '(an address that is not a URL)'
  }
}
