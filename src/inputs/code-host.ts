// Where the code lives, from the inputs: GitHub (github-token; the repository is the run's) or GitLab (gitlab-token,
// gitlab-project, gitlab-url). One host per run: both tokens is refused, before any request.
import { InputError } from '../errors.js'
import { registerSecret } from '../secrets.js'
import { gitlabApiUrl, isGitLabProject } from '../gitlab/client.js'
import type { InputReader } from './reader.js'

export interface GitLabSettings {
  readonly token: string
  /** A path (group/sub/project) or a numeric id. */
  readonly project: string
  /** The API's address, ending /api/v4. */
  readonly apiUrl: string
}

export interface CodeHostInputs {
  readonly githubToken?: string | undefined
  readonly gitlab?: GitLabSettings | undefined
}

/** GitLab.com, when gitlab-url is empty. */
export const GITLAB_COM = 'https://gitlab.com'

/** The code's host the inputs name; `warn` says what is set and has no effect. Masks the tokens first. */
export function readCodeHost(getInput: InputReader, warn: (line: string) => void): CodeHostInputs {
  const githubToken = getInput('github-token')
  const gitlabToken = getInput('gitlab-token')
  registerSecret(githubToken)
  registerSecret(gitlabToken)
  const project = getInput('gitlab-project')
  const url = getInput('gitlab-url')
  if (githubToken !== '' && gitlabToken !== '') {
    throw new InputError(
      'github-token and gitlab-token are both set: the code lives in one place. Keep github-token for a repository on GitHub, ' +
        'or gitlab-token (with gitlab-project) for a project on GitLab, and remove the other.'
    )
  }
  if (gitlabToken === '') {
    const unused = [project !== '' && 'gitlab-project', url !== '' && 'gitlab-url'].filter((n): n is string => n !== false)
    if (unused.length > 0)
      warn(`${unused.join(' and ')} ${unused.length > 1 ? 'have' : 'has'} no effect without gitlab-token, which reads and records the deploys on GitLab.`)
    return { githubToken: githubToken || undefined }
  }
  return { gitlab: { token: gitlabToken, project: gitLabProject(project), apiUrl: gitLabApi(url) } }
}

function gitLabProject(project: string): string {
  if (project === '') {
    throw new InputError(
      'gitlab-token is set but gitlab-project is empty: name the project as its path (group/project, or group/sub/project) or its numeric id. ' +
        'In a GitLab CI job the brcloud command takes CI_PROJECT_PATH by itself.'
    )
  }
  if (!isGitLabProject(project)) {
    throw new InputError(
      `gitlab-project is not a GitLab project: '${project}'. Give its path as GitLab shows it (group/project, or group/sub/project) or its numeric id (Settings > General).`
    )
  }
  return project
}

function gitLabApi(url: string): string {
  try {
    return gitlabApiUrl(url === '' ? GITLAB_COM : url)
  } catch (error) {
    throw new InputError(`gitlab-url: ${(error as Error).message}.`)
  }
}
