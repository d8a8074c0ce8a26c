// Where the status report reads the code from: GitHub (a token; the repository is the run's) or GitLab (a token, the
// project and the instance from the flags or inputs, else the file's `gitlab:`, else a GitLab CI job's own), checked
// as the deploy checks them (src/inputs/code-host.ts): both is refused, before any request.
import { InputError } from '../errors.js'
import { readCodeHost, type CodeHostInputs } from '../inputs/code-host.js'
import { registerSecret } from '../secrets.js'
import { readsAsVariableName, type GitLabFileSettings } from './config.js'

export interface StatusHostSources {
  readonly githubToken: string | undefined
  /** The flag's or input's values; each wins over the file's. */
  readonly gitlabToken: string | undefined
  readonly gitlabProject: string | undefined
  readonly gitlabUrl: string | undefined
  readonly file: GitLabFileSettings | undefined
  /** The variables: the file's token variable, and a GitLab CI job's own project and API. */
  readonly env: NodeJS.ProcessEnv
}

/** The token variable a file's `gitlab:` reads when it names none. */
export const DEFAULT_GITLAB_TOKEN_VARIABLE = 'BRCLOUD_GITLAB_TOKEN'

export function statusCodeHost(s: StatusHostSources, warn: (line: string) => void): CodeHostInputs {
  const token = s.gitlabToken || s.env[s.file?.tokenVariable ?? DEFAULT_GITLAB_TOKEN_VARIABLE] || ''
  if (token === '' && s.file?.tokenVariable !== undefined) refuseUnsetToken(s.file.tokenVariable)
  const inCi = s.env.GITLAB_CI === 'true' && token !== ''
  const values: Record<string, string> = {
    'github-token': s.githubToken ?? '',
    'gitlab-token': token,
    'gitlab-project': s.gitlabProject || s.file?.project || (inCi ? (s.env.CI_PROJECT_PATH ?? '') : ''),
    'gitlab-url': s.gitlabUrl || s.file?.url || (inCi ? (s.env.CI_API_V4_URL ?? '') : '')
  }
  return readCodeHost((name) => values[name] ?? '', warn)
}

/**
 * The variable the file names must hold the token, as a stack's login variables must: an empty one is a secret this job
 * was not given, and reading on without GitLab would report every commit unknown. A name that does not read as a
 * variable's (lower case) may be the token itself written in its place: masked, and not repeated.
 */
function refuseUnsetToken(name: string): never {
  if (readsAsVariableName(name))
    throw new InputError(
      `The file's gitlab.token-variable names ${name}, which is not set or empty (a CI job gets a secret only where it is passed in): ` +
        'set it to a GitLab access token with scope read_api (api to keep drift issues).'
    )
  registerSecret(name)
  throw new InputError(
    "The file's gitlab.token-variable names a variable that is not set or empty. The name is not repeated here: written with lower-case letters, " +
      'it may be the token itself rather than the name of the variable that holds it (e.g. GITLAB_TOKEN).'
  )
}
