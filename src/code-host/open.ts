// Opens the door to the code's host the inputs name (src/inputs/code-host.ts): GitHub's or GitLab's adapter, loaded
// only when asked for; none without a token.
import type { CodeHostInputs } from '../inputs/code-host.js'
import type { RunContext } from '../port.js'
import type { CodeHost } from './port.js'

export async function openCodeHost(inputs: CodeHostInputs, signal?: AbortSignal, run?: RunContext): Promise<CodeHost | undefined> {
  if (inputs.githubToken !== undefined) {
    const { GitHubApi } = await import('../github/client.js')
    return GitHubApi.open(inputs.githubToken, signal, run)
  }
  if (inputs.gitlab !== undefined) {
    const { GitLabApi } = await import('../gitlab/client.js')
    return GitLabApi.open(inputs.gitlab, signal, run)
  }
  return undefined
}
