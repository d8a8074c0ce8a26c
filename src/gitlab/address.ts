// Where a GitLab instance's API is, and what names a project on it: checked before any request, each mistake
// refused with what is wrong and how to fix it.

const EXAMPLE = 'https://gitlab.example.com'

/**
 * The REST API v4 of a GitLab instance, from its web address ('https://gitlab.example.com', a relative root such as
 * 'https://example.com/gitlab') or from the API's own ('.../api/v4'), with or without a trailing '/'.
 */
export function gitlabApiUrl(url: string): string {
  const given = url.trim()
  let parsed: URL
  try {
    parsed = new URL(given)
  } catch {
    throw new Error(`The GitLab address '${given}' is not a URL: give the instance's address with its scheme, e.g. ${EXAMPLE}`)
  }
  // Said before the address is quoted anywhere: it carries a password.
  if (parsed.username !== '' || parsed.password !== '')
    throw new Error(`The GitLab address carries a user name or password: give it without them (${EXAMPLE}); the token is given apart`)
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new Error(`The GitLab address '${given}' is a ${parsed.protocol} address: give the instance's http(s) address, e.g. ${EXAMPLE}`)
  if (parsed.search !== '' || parsed.hash !== '')
    throw new Error(`The GitLab address '${given}' carries a query or a fragment: give the instance's address alone, e.g. ${EXAMPLE}`)
  const path = parsed.pathname.replace(/\/+$/, '')
  if (/\/api\/v4$/.test(path)) return `${parsed.origin}${path}`
  const root = /^(.*)\/api(?:\/v\d+)?$/.exec(path)
  if (root) throw new Error(`The GitLab address '${given}' names an API other than v4: give the instance's address, or ${parsed.origin}${root[1]}/api/v4`)
  return `${parsed.origin}${path}/api/v4`
}

/** The instance's web address: its API's without '/api/v4'. */
export function gitlabWebUrl(apiUrl: string): string {
  return apiUrl.replace(/\/api\/v4\/?$/, '')
}

/** GitLab's rule for a group's or project's path: letters, digits, '_', '-', '.'; not starting with '-', not ending with '.'. */
const SEGMENT = /^(?:[A-Za-z0-9_]|[A-Za-z0-9_.][A-Za-z0-9_.-]*[A-Za-z0-9_-])$/

/** A project's numeric id. */
export function isProjectId(value: string): boolean {
  return /^[1-9][0-9]*$/.test(value)
}

/** A project as GitLab names it: its numeric id, or its path of two segments or more ('group/sub/project'). */
export function isGitLabProject(value: string): boolean {
  if (isProjectId(value)) return true
  const segments = value.split('/')
  return segments.length >= 2 && segments.every((s) => SEGMENT.test(s) && !/\.(?:git|atom)$/i.test(s))
}
