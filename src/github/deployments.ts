// Records a deploy as a GitHub Deployment of the environment, so it shows on the repository's
// Environments page. Best effort: any failure here is a warning, never a failed deploy.
import * as core from '@actions/core'
import { describeError } from '../errors.js'
import { noteGitHubDeployment, noteGitHubDeploymentFinal } from '../run-state.js'

export type DeploymentState = 'in_progress' | 'success' | 'failure'

interface Octokit {
  rest: {
    repos: {
      createDeployment(params: Record<string, unknown>): Promise<{ status: number; data: unknown }>
      createDeploymentStatus(params: Record<string, unknown>): Promise<unknown>
    }
  }
}

export class GitHubDeployment {
  private constructor(
    private readonly octokit: Octokit,
    private readonly repo: { owner: string; repo: string },
    private readonly id: number,
    private readonly logUrl: string | undefined,
    private readonly environmentUrl: string | undefined
  ) {}

  /** Creates the deployment and marks it in progress; undefined (with a warning) when GitHub refuses. */
  static async start(token: string, environment: string, description: string, environmentUrl?: string): Promise<GitHubDeployment | undefined> {
    try {
      const github = await import('@actions/github')
      const { context } = github
      const octokit = github.getOctokit(token) as unknown as Octokit
      const repo = context.repo
      const answer = await octokit.rest.repos.createDeployment({
        ...repo,
        ref: context.sha || context.ref,
        environment,
        description,
        auto_merge: false,
        required_contexts: [],
        production_environment: /prod/i.test(environment),
        transient_environment: false
      })
      const id = (answer.data as { id?: unknown }).id
      if (typeof id !== 'number') throw new Error(`GitHub answered HTTP ${answer.status} without a deployment id`)
      const logUrl = context.runId ? `${context.serverUrl}/${repo.owner}/${repo.repo}/actions/runs/${context.runId}` : undefined
      const deployment = new GitHubDeployment(octokit, repo, id, logUrl, environmentUrl)
      noteGitHubDeployment(id, repo, logUrl)
      await deployment.set('in_progress', `Deploying to ${environment}`)
      core.info(`Recorded as GitHub Deployment ${id} of environment '${environment}'.`)
      return deployment
    } catch (error) {
      core.warning(
        `Could not record the deploy as a GitHub Deployment (${describeError(error)}); the deploy goes on. Give the token 'deployments: write' permission.`
      )
      return undefined
    }
  }

  async set(state: DeploymentState, description: string): Promise<void> {
    try {
      await this.octokit.rest.repos.createDeploymentStatus({
        ...this.repo,
        deployment_id: this.id,
        state,
        description: description.slice(0, 140),
        ...(this.logUrl ? { log_url: this.logUrl } : {}),
        ...(this.environmentUrl && state === 'success' ? { environment_url: this.environmentUrl } : {}),
        auto_inactive: state === 'success'
      })
      if (state !== 'in_progress') noteGitHubDeploymentFinal()
    } catch (error) {
      core.warning(`Could not set GitHub Deployment ${this.id} to ${state} (${describeError(error)}).`)
    }
  }
}
