// Records a deploy as a deployment of the environment on the code's host (a GitHub Deployment, a GitLab deployment), so
// it shows in the environment's history, with the distribution's id in its payload where the host keeps one: a later run
// reads which commit the environment runs from it (./evidence.ts). Best effort: any failure here is a warning, never a
// failed deploy.
import * as core from '../port.js'
import { describeError } from '../errors.js'
import { noteDeploymentFinalWanted, noteGitHubDeployment, noteGitHubDeploymentFinal, noteGitLabDeployment } from '../run-state.js'
import { CodeHostCallFailed, type CodeHost, type DeploymentPayload, type DeploymentUpdate } from './port.js'
import { GitHubApi } from '../github/client.js'
import { statusDescription } from '../github/status-description.js'

export type DeploymentState = DeploymentUpdate['state']

/** What a token needs to record deployments, per host: said only when the host refused it access (an outage or a token it does not take needs other words). */
const WRITE_ADVICE: Readonly<Record<CodeHost['host'], string>> = {
  GitHub: "Give the token 'deployments: write' permission.",
  GitLab: 'Give the token the api scope and at least the Developer role (docs/gitlab.md).'
}

/** A final status is one of the run's closing calls: its own short limit, not ended by the run's stop. */
const FINAL_LIMIT_MS = 5_000

export class RecordedDeployment {
  /** A final status was set: the first one stands. */
  private final = false

  private constructor(
    private readonly github: CodeHost,
    readonly id: number,
    private readonly environmentUrl: string | undefined
  ) {}

  /**
   * Creates the deployment of `ref` (the commit deployed) and marks it in progress; undefined (with a
   * warning) when GitHub refuses.
   */
  static async start(
    github: CodeHost,
    environment: string,
    description: string,
    payload: DeploymentPayload,
    ref: string,
    environmentUrl?: string
  ): Promise<RecordedDeployment | undefined> {
    try {
      const id = await github.createDeployment(ref, environment, description, payload)
      const deployment = new RecordedDeployment(github, id, environmentUrl)
      // The post step finishes a deployment the main step could not (src/post.ts).
      if (github instanceof GitHubApi) noteGitHubDeployment(id, github.repo, github.runUrl)
      else noteGitLabDeployment(id, github.project, github.apiUrl)
      await deployment.set('in_progress', `Deploying to ${environment}`)
      core.info(`Recorded as ${github.deploymentNoun} ${id} of environment '${environment}'.`)
      return deployment
    } catch (error) {
      const advice = lacksAccess(error) ? ` ${WRITE_ADVICE[github.host]}` : ''
      core.warning(`${describeError(error)}: the deploy is not recorded as a ${github.deploymentNoun}, and goes on.${advice}`)
      return undefined
    }
  }

  /** Sets a status; a final one (success, failure, error, canceled) once: the first stands. Never throws. */
  async set(state: DeploymentState, description: string): Promise<void> {
    if (this.final) return
    const closing = state !== 'in_progress'
    if (closing) this.final = true
    // A final status also goes out after a cancel or the watchdog stopped the run, on a door of its own.
    const github = closing ? this.github.closing(FINAL_LIMIT_MS) : this.github
    try {
      await github.setDeploymentState(this.id, {
        state,
        description: statusDescription(description),
        logUrl: this.github.runUrl,
        environmentUrl: state === 'success' ? this.environmentUrl : undefined
      })
      if (closing) noteGitHubDeploymentFinal()
    } catch (error) {
      // The outcome was decided: the post step sets it (on GitLab) if the main step cannot.
      if (state !== 'in_progress') noteDeploymentFinalWanted(state)
      core.warning(`Could not set ${this.github.deploymentNoun} ${this.id} to ${state} (${describeError(error)}).`)
    }
  }
}

/** A refusal a permission, scope or role fixes: 403, or the 404 a host answers for what the token may not see. */
function lacksAccess(error: unknown): boolean {
  return error instanceof CodeHostCallFailed && (error.failure === 'forbidden' || error.failure === 'not-found')
}
