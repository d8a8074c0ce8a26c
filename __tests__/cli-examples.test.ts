// The CI examples (examples/ci/) against what brcloud writes: every BRCLOUD_<OUTPUT> variable an example reads is
// an output, and a deploy against the emulator writes it where that CI takes it from: the --dotenv file the GitLab
// job reports and the Jenkinsfile reads, the ##vso output variables of the Azure step the pipeline names. The
// examples are read as their CI reads them (YAML through the yaml package); brcloud runs in-process (src/cli/main.ts).
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { parse } from 'yaml'
import { actionPort } from '../src/action/port.js'
import { OUTPUT_NAMES } from '../src/action-metadata.js'
import { main } from '../src/cli/main.js'
import { envName } from '../src/cli/inputs.js'
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { DEFAULT_GITLAB_TOKEN, seedSampleHistory, startGitLabStandIn } from '../src/emulator/gitlab/server.js'
import { usePort } from '../src/port.js'
import { release } from './e2e-support.js'
import { memoryIo } from './cli-io.js'

const EXAMPLES = fileURLToPath(new URL('../examples/ci/', import.meta.url))
const read = (file: string): string => readFileSync(join(EXAMPLES, file), 'utf8')
const OUTPUT_VARIABLES = new Set<string>(OUTPUT_NAMES.map(envName))

let emu: Emulator
beforeEach(async () => {
  emu = await startEmulator()
})
afterEach(async () => {
  usePort(actionPort)
  await emu.close()
})

/** One deploy of the emulator's production by brcloud in-process, as the examples run it; what it printed on stdout. */
async function deploy(flags: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string }> {
  const m = memoryIo()
  const args = ['deploy', '--api-url', emu.url, '--username', emu.username, '--environment', 'production', '--distribution', release('v1'), ...flags]
  const code = await main(args, { BRCLOUD_PASSWORD: emu.password, ...env }, m.io)
  return { code, stdout: m.stdout() }
}

/** Every string in a parsed YAML document. */
function strings(node: unknown): string[] {
  if (typeof node === 'string') return [node]
  if (Array.isArray(node)) return node.flatMap(strings)
  if (node !== null && typeof node === 'object') return Object.values(node).flatMap(strings)
  return []
}

/** Every mapping in a parsed YAML document (an Azure step among them). */
function objects(node: unknown): Record<string, unknown>[] {
  if (Array.isArray(node)) return node.flatMap(objects)
  if (node !== null && typeof node === 'object') return [node as Record<string, unknown>, ...Object.values(node).flatMap(objects)]
  return []
}

/** The BRCLOUD_<OUTPUT> variables a text reads (inputs such as BRCLOUD_ENVIRONMENT are not outputs). */
function outputsRead(texts: string[], pattern: RegExp): string[] {
  const found = new Set<string>()
  for (const text of texts) for (const m of text.matchAll(pattern)) found.add(m[1] as string)
  return [...found].sort()
}

function dotenvVariables(file: string): Map<string, string> {
  return new Map(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)])
  )
}

test("GitLab: the job's dotenv report holds every BRCLOUD_ variable a later job and the environment read", async () => {
  const pipeline = parse(read('.gitlab-ci.yml')) as Record<string, Record<string, unknown>>
  const [name, job] = Object.entries(pipeline).find(([, j]) => (j.artifacts as { reports?: { dotenv?: string } } | undefined)?.reports?.dotenv) ?? []
  const report = (job?.artifacts as { reports: { dotenv: string } }).reports.dotenv
  expect(strings(job?.script).join('\n')).toContain(`--dotenv ${report}`)
  const later = Object.entries(pipeline).filter(([n, j]) => n !== name && typeof j === 'object' && j !== null && 'script' in j)
  const used = outputsRead(
    later.flatMap(([, j]) => strings(j)),
    /\$\{?(BRCLOUD_[A-Z_]+)/g
  )
  expect(used.length).toBeGreaterThan(0)
  for (const variable of used) expect(OUTPUT_VARIABLES).toContain(variable)
  // The environment's link, which GitLab fills from the same job's dotenv report: the site's address.
  const environment = job?.environment as { url?: string } | undefined
  expect(environment?.url).toBe('$BRCLOUD_SITE_URL')
  // The job checks a page of the site (health-url): that check is what sets site-url. With the text it must show (the
  // commit the build wrote there): without it every run warns that the old release could pass the check.
  const variables = job?.variables as Record<string, string> | undefined
  expect(variables?.BRCLOUD_HEALTH_URL).toMatch(/^https:\/\//)
  expect(variables?.BRCLOUD_HEALTH_EXPECT).toBe('$CI_COMMIT_SHA')
  expect(strings(pipeline.build?.script).join('\n')).toContain('echo "$CI_COMMIT_SHA" >')

  const file = join(mkdtempSync(join(tmpdir(), 'brcd-examples-')), report)
  const site = `${emu.url}/sites/production/`
  const r = await deploy(['--dotenv', file, '--health-url', `${site}?from=ci`], { GITLAB_CI: 'true', CI_COMMIT_SHA: 'a'.repeat(40) })
  expect(r.code).toBe(0)
  const written = dotenvVariables(file)
  for (const variable of [...used, 'BRCLOUD_SITE_URL']) expect(written.get(variable)).toBeTruthy()
  expect(written.get('BRCLOUD_DISTRIBUTION_ID')).toBe(emu.environments.find((e) => e.name === 'production')?.distributionId)
  // Origin and path of the page that answered, never its query string.
  expect(written.get('BRCLOUD_SITE_URL')).toBe(site)
})

test('GitLab: with the code on GitLab, the deploy job records a GitLab deployment of its commit, and the schedule keeps drift issues', async () => {
  const pipeline = parse(read('.gitlab-ci.yml')) as Record<string, Record<string, unknown>>
  const deployJob = pipeline['deploy-production'] as { environment: { action?: string }; script: string[] }
  // brcloud records the deployment itself: the job's own would be a second record of the same deploy.
  expect(deployJob.environment.action).toBe('prepare')
  const schedule = pipeline['fleet-status'] as { rules: Array<{ if: string }>; script: string[] }
  expect(schedule.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "schedule"' }])
  const statusLine = schedule.script.find((line) => line.startsWith('brcloud status')) ?? ''
  expect(statusLine).toContain('--drift-issues')
  for (const [name, job] of Object.entries(pipeline))
    if (name !== 'fleet-status' && typeof job === 'object' && job !== null && 'script' in job)
      expect(job.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE != "schedule"' }])

  const gitlab = await startGitLabStandIn()
  try {
    const tip = seedSampleHistory(gitlab.model).main.at(-1) ?? ''
    // Only the token is set: the project, the API, the commit and the branch are the job's own.
    const job = {
      GITLAB_CI: 'true',
      CI_API_V4_URL: gitlab.apiUrl,
      CI_PROJECT_PATH: 'acme/platform/site',
      CI_COMMIT_SHA: tip,
      CI_COMMIT_BRANCH: 'main',
      BRCLOUD_GITLAB_TOKEN: DEFAULT_GITLAB_TOKEN
    }
    expect((await deploy([], job)).code).toBe(0)
    const production = gitlab.model.environment('production')
    const recorded = gitlab.model.deployments.filter((d) => d.environment_id === production?.id)
    expect(recorded.map((d) => ({ sha: d.sha, ref: d.ref, tag: d.tag, status: d.status }))).toEqual([{ sha: tip, ref: 'main', tag: false, status: 'success' }])

    // The scheduled job: brcloud status with drift issues, in the same project (a single stack here for the file).
    const m = memoryIo()
    const args = ['status', '--api-url', emu.url, '--environments', 'development', '--track', 'main', '--drift-issues']
    const code = await main(args, { ...job, CI_PIPELINE_SOURCE: 'schedule', BRCLOUD_USERNAME: emu.username, BRCLOUD_PASSWORD: emu.password }, m.io)
    expect(code).toBe(0)
    expect(gitlab.model.issues.map((i) => ({ title: i.title, labels: i.labels, state: i.state }))).toEqual([
      { title: `Drift: ${new URL(emu.url).host}/development is empty`, labels: ['brcloud-drift'], state: 'opened' }
    ])
    expect(gitlab.calls.every((c) => c.token === DEFAULT_GITLAB_TOKEN)).toBe(true)
  } finally {
    await gitlab.close()
  }
})

test('Jenkins: the --dotenv file holds every output the Jenkinsfile reads', async () => {
  const text = read('Jenkinsfile')
  const file = /brcloud deploy [^\n]*--dotenv (\S+?)["'\s]/.exec(text)?.[1]
  expect(text).toContain(`readProperties(file: '${file}')`)
  const used = outputsRead([text], /out\.(BRCLOUD_[A-Z_]+)/g)
  expect(used.length).toBeGreaterThan(0)
  for (const variable of used) expect(OUTPUT_VARIABLES).toContain(variable)

  const path = join(mkdtempSync(join(tmpdir(), 'brcd-examples-')), file ?? '')
  const jenkins = { JENKINS_URL: 'https://jenkins.example/', GIT_COMMIT: 'b'.repeat(40) }
  expect((await deploy(['--dotenv', path], jenkins)).code).toBe(0)
  const written = dotenvVariables(path)
  for (const variable of used) expect(written.get(variable)).toBeTruthy()

  // Refused before anything ran (a credential file that is not there): exit 2, and the file readProperties reads is
  // written (empty), so the pipeline fails on the exit code it branches on, not on a missing file.
  const refusedPath = join(mkdtempSync(join(tmpdir(), 'brcd-examples-')), file ?? '')
  const refused = await deploy(['--dotenv', refusedPath], { ...jenkins, BRCLOUD_PASSWORD_FILE: '/nowhere/brcloud-password' })
  expect(refused.code).toBe(2)
  expect(readFileSync(refusedPath, 'utf8')).toBe('')
  expect(text).toMatch(/if \(code == 2\) \{/)
})

test('the tarball the examples install is the one npm pack makes', async () => {
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: fileURLToPath(new URL('..', import.meta.url))
  })
  const made = (JSON.parse(stdout) as Array<{ filename: string }>)[0]?.filename ?? ''
  expect(made).toMatch(/^brcloud-deploy-\d+\.\d+\.\d+\.tgz$/)
  for (const example of ['.gitlab-ci.yml', 'azure-pipelines.yml']) {
    const installed = [...read(example).matchAll(/npm install -g (\S+\.tgz)/g)].map((m) => m[1] ?? '')
    expect(installed.length).toBeGreaterThan(0)
    // As the shell expands it: a * is any run of characters in the file's name.
    for (const glob of installed) {
      const name = glob.split('/').pop() ?? ''
      expect(made).toMatch(new RegExp(`^${name.replace(/\./g, '\\.').replace(/\*/g, '[^/]*')}$`))
    }
  }
})

test('Azure Pipelines: the step the pipeline names sets, as output variables, every BRCLOUD_ variable a later step and stage read', async () => {
  const pipeline = parse(read('azure-pipelines.yml')) as unknown
  const steps = strings(pipeline)
  const step = objects(pipeline).find((o) => String(o.script).startsWith('brcloud deploy'))?.name as string
  expect(step).toBeTruthy()
  const used = outputsRead(steps, new RegExp(`(?:\\$\\(${step}\\.|outputs\\['${step}\\.)(BRCLOUD_[A-Z_]+)`, 'g'))
  expect(used).toEqual(expect.arrayContaining(['BRCLOUD_DEPLOYED', 'BRCLOUD_DISTRIBUTION_ID']))
  for (const variable of used) expect(OUTPUT_VARIABLES).toContain(variable)

  const r = await deploy([], { TF_BUILD: 'True', BUILD_SOURCEVERSION: 'c'.repeat(40) })
  expect(r.code).toBe(0)
  const set = new Map([...r.stdout.matchAll(/^##vso\[task\.setvariable variable=(BRCLOUD_[A-Z_]+);isOutput=true\](.*)$/gm)].map((m) => [m[1], m[2]]))
  for (const variable of used) expect(set.get(variable)).toBeTruthy()
  expect(r.stdout).not.toContain('task.complete result=Failed')
})
