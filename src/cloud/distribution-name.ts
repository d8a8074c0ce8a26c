// The one rule for the name a distribution is stored under, whether it comes from distribution-name
// or is the archive's own file name. The name travels in the multipart Content-Disposition, where a
// quote, a backslash or a line break is escaped or dropped (so the platform would store another name
// than the one we compare with after a lost answer), and it becomes a file on whatever machine
// downloads the distribution again, so what Windows cannot name is refused too.

/** Characters no file name may hold on Windows, and that the Content-Disposition header would alter. */
const FORBIDDEN = /[<>:"/\\|?*\p{Cc}]/u
/** Windows' reserved device names, also with an extension (CON.tar.gz is the device CON). */
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)/i
const MAX_BYTES = 255

/** Why `name` cannot be a distribution's name, or undefined when it can. */
export function distributionNameProblem(name: string): string | undefined {
  if (name === '') return 'it is empty'
  const bad = FORBIDDEN.exec(name)?.[0]
  if (bad !== undefined) {
    const shown = /\p{Cc}/u.test(bad) ? `a control character (U+${(bad.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')})` : `'${bad}'`
    return `it contains ${shown}: a distribution name is a plain file name, without slashes, quotes, control characters or any of < > : " / \\ | ? *`
  }
  if (RESERVED.test(name)) return `'${name.split('.')[0] ?? name}' is a device name on Windows (CON, PRN, AUX, NUL, COM1-9, LPT1-9)`
  if (/[. ]$/.test(name)) return 'it ends with a dot or a space'
  if (Buffer.byteLength(name) > MAX_BYTES) return `it is ${Buffer.byteLength(name)} bytes long (at most ${MAX_BYTES})`
  if (!/\.(tar\.gz|tgz)$/i.test(name)) return 'it must end with .tar.gz or .tgz'
  return undefined
}

/** The platform's name and ours are the same distribution name (a platform may give it back percent-encoded). */
export function sameDistributionName(stored: string | undefined, ours: string): boolean {
  if (stored === undefined) return false
  if (stored === ours) return true
  try {
    return decodeURIComponent(stored) === ours
  } catch {
    return false
  }
}

/** A name part made safe: what is not a letter, digit, dot, underscore or hyphen becomes a hyphen. */
function safePart(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '')
}

/** The default upload name, `<repository>-<short sha>-distribution.tar.gz`: where the distribution came from, so the platform's list tells. */
export function defaultName(repository: string, sha: string, fallback: string): string {
  const name = safePart(repository) || safePart(fallback) || 'distribution'
  const short = safePart(sha.slice(0, 7)) || 'local'
  return `${name}-${short}-distribution.tar.gz`
}

/** The commit a default name carries, when it is a name this repository's runs give (see defaultName). */
export function commitInName(name: string | undefined, repository: string): string | undefined {
  const match = /^(.+)-([0-9a-f]{7,40})-distribution\.tar\.gz$/i.exec(name ?? '')
  if (match === null || repository === '' || match[1] !== safePart(repository)) return undefined
  return match[2]?.toLowerCase()
}
