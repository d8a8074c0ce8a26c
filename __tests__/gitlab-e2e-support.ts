// Shared by the GitLab end-to-end suites (e2e-gitlab*.test.ts): the bundled command (dist-cli/index.js; npm run
// build:cli) as a child process, the variables a GitLab CI job and a Jenkins job give it, what the GitLab stand-in
// received, and the sweep for secrets in everything a run printed.
import { spawn } from 'node:child_process'
import { tmpdir } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { Emulator } from '../src/emulator/server.js'
import { DEFAULT_GITLAB_PROJECT, type GitLabCall, type GitLabStandIn, type RouteName } from '../src/emulator/gitlab/server.js'
import { secretsOf } from './e2e-support.js'

const BUNDLE = fileURLToPath(new URL('../dist-cli/index.js', import.meta.url))

export const PROJECT = DEFAULT_GITLAB_PROJECT

export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

/** Every run of the file so far, for the sweep. */
export const cliRuns: CliRun[] = []

/** `brcloud args` (the bundle) in `env` alone (and PATH, HOME, TMPDIR); `onStderr` sees the log so far as it grows. */
export function brcloud(
  args: string[],
  env: Record<string, string>,
  onStderr?: (sofar: string, kill: (signal: NodeJS.Signals) => void) => void
): Promise<CliRun> {
  // E2E_NODE (CI: Node 24) runs the bundle as it runs the other end-to-end suites.
  const child = spawn(process.env.E2E_NODE ?? process.execPath, [BUNDLE, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), TMPDIR: tmpdir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString()
    onStderr?.(stderr, (signal) => child.kill(signal))
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000)
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer)
      const r = { code, stdout, stderr }
      cliRuns.push(r)
      resolve(r)
    })
  )
}

/** The variables of a GitLab CI job of the stand-in's project at `sha` on `branch` (GitLab sets them; the token is the project's CI/CD variable). */
export function gitLabCiJob(gl: GitLabStandIn, sha: string, over: Record<string, string> = {}): Record<string, string> {
  return {
    GITLAB_CI: 'true',
    CI_API_V4_URL: gl.apiUrl,
    CI_PROJECT_PATH: PROJECT,
    CI_COMMIT_SHA: sha,
    CI_COMMIT_BRANCH: 'main',
    CI_PIPELINE_ID: '4711',
    CI_JOB_ID: '815',
    CI_JOB_URL: `https://gitlab.example/${PROJECT}/-/jobs/815`,
    ...over
  }
}

/** The variables of a Jenkins job at `sha`: the Git plugin's commit, GitLab named by BRCLOUD_GITLAB_* from its credentials. */
export function jenkinsJob(gl: GitLabStandIn, sha: string, token: string, over: Record<string, string> = {}): Record<string, string> {
  return {
    JENKINS_URL: 'https://jenkins.example/',
    BUILD_URL: 'https://jenkins.example/job/site/7/',
    BUILD_TAG: 'jenkins-site-7',
    GIT_COMMIT: sha,
    BRCLOUD_GITLAB_URL: gl.url,
    BRCLOUD_GITLAB_PROJECT: PROJECT,
    BRCLOUD_GITLAB_TOKEN: token,
    ...over
  }
}

/** The calls of a route the stand-in received. */
export const callsOf = (gl: GitLabStandIn, ...routes: RouteName[]): GitLabCall[] => gl.calls.filter((c) => routes.includes(c.route as RouteName))

/** The calls that change something on GitLab, as `METHOD route status`. */
export const writesOf = (gl: GitLabStandIn): string[] => gl.calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.route} ${c.status}`)

/** A deployment of the stand-in in the port's terms the tests assert: its environment's name, sha, ref, tag and status. */
export function deploymentsOf(gl: GitLabStandIn): Array<{ environment: string | undefined; sha: string; ref: string; tag: boolean; status: string }> {
  return gl.model.deployments.map((d) => ({ environment: gl.model.environmentOf(d)?.name, sha: d.sha, ref: d.ref, tag: d.tag, status: d.status }))
}

/** No secret in anything a run printed: the platform's password and tokens, and every token the stand-in was sent. */
export function sweepRuns(emus: Array<Emulator | undefined>, gls: Array<GitLabStandIn | undefined>, extra: string[] = []): void {
  const secrets = new Set(extra)
  for (const emu of emus) if (emu) for (const s of secretsOf(emu)) secrets.add(s)
  for (const gl of gls) for (const c of gl?.calls ?? []) if (c.token) secrets.add(c.token)
  const list = cliRuns.splice(0)
  for (const r of list) for (const s of secrets) if (s.length >= 4) expect(r.stdout + r.stderr).not.toContain(s)
}
