// Records a deploy as a GitHub Deployment of the environment, so it shows on the repository's
// Environments page, with the distribution's id in its payload: a later run reads which commit the
// environment runs from it (./evidence.ts). Best effort: any failure here is a warning, never a failed deploy.
import * as core from '@actions/core'
import { describeError } from '../errors.js'
import { noteGitHubDeployment, noteGitHubDeploymentFinal } from '../run-state.js'
import type { DeploymentPayload, GitHubApi } from './client.js'

export type DeploymentState = 'in_progress' | 'success' | 'failure'

export class GitHubDeployment {
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

  async set(state: DeploymentState, description: string): Promise<void> {
    try {
      await this.github.createStatus(this.id, {
        state,
        description: description.slice(0, 140),
        ...(this.github.runUrl ? { log_url: this.github.runUrl } : {}),
        ...(this.environmentUrl && state === 'success' ? { environment_url: this.environmentUrl } : {}),
        auto_inactive: state === 'success'
      })
      if (state !== 'in_progress') noteGitHubDeploymentFinal()
    } catch (error) {
      core.warning(`Could not set GitHub Deployment ${this.id} to ${state} (${describeError(error)}).`)
    }
  }
}
