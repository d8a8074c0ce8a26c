// A small cookie jar for one run: the search service sets a cookie that a backend must present on later
// calls. One host per run, so Domain and Path are not consulted; Max-Age/Expires in the past delete.

export class CookieJar {
  private readonly cookies = new Map<string, string>()

  constructor(private readonly now: () => number = Date.now) {}

  /** Takes the Set-Cookie header(s) of an answer. */
  store(setCookie: string | string[] | undefined): void {
    if (setCookie === undefined) return
    for (const line of Array.isArray(setCookie) ? setCookie : [setCookie]) this.storeOne(line)
  }

  private storeOne(line: string): void {
    const [pair = '', ...attributes] = line.split(';')
    const eq = pair.indexOf('=')
    if (eq <= 0) return
    const name = pair.slice(0, eq).trim()
    const value = pair.slice(eq + 1).trim()
    if (name === '' || /[\s;,\p{Cc}]/u.test(name) || /[;\p{Cc}]/u.test(value)) return
    let expired = false
    for (const attribute of attributes) {
      const [key = '', ...rest] = attribute.split('=')
      const v = rest.join('=').trim()
      if (/^max-age$/i.test(key.trim()) && /^-?\d+$/.test(v)) expired = Number(v) <= 0
      else if (/^expires$/i.test(key.trim()) && !attributes.some((a) => /^\s*max-age\s*=/i.test(a))) {
        const at = Date.parse(v)
        if (!Number.isNaN(at)) expired = at <= this.now()
      }
    }
    if (expired) this.cookies.delete(name)
    else this.cookies.set(name, value)
  }

  /** The Cookie header to present, or undefined when the jar is empty. */
  header(): string | undefined {
    if (this.cookies.size === 0) return undefined
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }

  get size(): number {
    return this.cookies.size
  }
}
