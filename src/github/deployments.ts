// Records a deploy as a GitHub Deployment of the environment, so it shows on the repository's
// Environments page, with the distribution's id in its payload: a later run reads which commit the
// environment runs from it (./evidence.ts). Best effort: any failure here is a warning, never a failed deploy.
import * as core from '../port.js'
import { describeError } from '../errors.js'
import { noteGitHubDeployment, noteGitHubDeploymentFinal } from '../run-state.js'
import type { DeploymentPayload, GitHubApi } from './client.js'
import { statusDescription } from './status-description.js'

export type DeploymentState = 'in_progress' | 'success' | 'failure' | 'error'

/** A final status is one of the run's closing calls: its own short limit, not ended by the run's stop. */
const FINAL_LIMIT_MS = 5_000

export class GitHubDeployment {
  /** A final status was set: the first one stands. */
  private final = false

  private constructor(
    private readonly github: GitHubApi,
    readonly id: number,
    private readonly environmentUrl: string | undefined
  ) {}

  /**
   * Creates the deployment of `ref` (the commit deployed) and marks it in progress; undefined (with a
   * warning) when GitHub refuses.
   */
  static async start(
    github: GitHubApi,
    environment: string,
    description: string,
    payload: DeploymentPayload,
    ref: string,
    environmentUrl?: string
  ): Promise<GitHubDeployment | undefined> {
    try {
      const id = await github.createDeployment(ref, environment, description, payload)
      const deployment = new GitHubDeployment(github, id, environmentUrl)
      noteGitHubDeployment(id, github.repo, github.runUrl)
      await deployment.set('in_progress', `Deploying to ${environment}`)
      core.info(`Recorded as GitHub Deployment ${id} of environment '${environment}'.`)
      return deployment
    } catch (error) {
      core.warning(`${describeError(error)}: the deploy is not recorded as a GitHub Deployment, and goes on. Give the token 'deployments: write' permission.`)
      return undefined
    }
  }

  /** Sets a status; a final one (success, failure, error) once: the first stands. Never throws. */
  async set(state: DeploymentState, description: string): Promise<void> {
    if (this.final) return
    const closing = state !== 'in_progress'
    if (closing) this.final = true
    // A final status also goes out after a cancel or the watchdog stopped the run, on a door of its own.
    const github = closing ? this.github.closing(FINAL_LIMIT_MS) : this.github
    try {
      await github.createStatus(this.id, {
        state,
        description: statusDescription(description),
        ...(this.github.runUrl ? { log_url: this.github.runUrl } : {}),
        ...(this.environmentUrl && state === 'success' ? { environment_url: this.environmentUrl } : {}),
        auto_inactive: state === 'success'
      })
      if (closing) noteGitHubDeploymentFinal()
    } catch (error) {
      core.warning(`Could not set GitHub Deployment ${this.id} to ${state} (${describeError(error)}).`)
    }
  }
}
