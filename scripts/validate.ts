// `npm run validate`: checks action.yml and status/action.yml (the status report's action), every workflow in
// .github/workflows and every example in examples/ against GitHub's schemas (action-validator), then what a
// schema cannot see:
//   - each action's metadata: no `${{ }}` in a name or description (GitHub evaluates them when it loads the
//     action, finds no context there and fails every job that uses it);
//   - every step that uses one of the actions passes only inputs its metadata declares;
//   - every job that calls the reusable workflow passes only its inputs and secrets, and all the
//     required ones;
//   - the reusable workflow passes up every output of action.yml, from the deploy step;
//   - the reusable workflow passes every input of action.yml to the deploy step, unless NOT_IN_REUSABLE leaves it out
//     by decision (so a new input is offered or left out on purpose, never forgotten): each as inputs.<its name> or,
//     for a secret (the CLI's SECRET_INPUTS), as secrets.<its name>, declared by the workflow with action.yml's default;
//   - every `uses:` of another repository names a ref.
// Exits 1 on any failure, listing each problem.
//
// Known gap of action-validator 0.6.0: its action schema allows runs.using node12, node16 and
// node20 only, not node24 (which GitHub runners support since v2.327.1). Each action's metadata is therefore
// validated with `using: node24` read as node20; that `using` is node20 or node24 is checked here.
// Its workflow schema also predates the `attestations` permission (actions/attest-build-provenance
// needs `attestations: write`): such a line is left out of what the schema sees, and checked here to
// be read, write or none.
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { SECRET_INPUTS } from '../src/cli/inputs.js'

interface ValidationError {
  code: string
  detail?: string
  path?: string
  title: string
  location?: { line: number; column: number }
  states?: { errors: ValidationError[] }[]
}
interface Validator {
  validateAction(src: string): { errors: ValidationError[] }
  validateWorkflow(src: string): { errors: ValidationError[] }
}
type Yaml = Record<string, unknown>

// A CommonJS module (wasm-pack's nodejs target, the .wasm beside it).
const validator = createRequire(import.meta.url)('@action-validator/core') as Validator

const root = fileURLToPath(new URL('..', import.meta.url))
const ACTION_REPO = 'brcloud/brcloud-deploy'
const REUSABLE = '.github/workflows/deploy.yml'

const problems = new Map<string, string[]>()
const report = (file: string, message: string): void => {
  problems.set(file, [...(problems.get(file) ?? []), message])
}

/** Flattens the validator's nested oneOf states into one line per distinct leaf error. */
function describe(errors: ValidationError[], out = new Set<string>()): Set<string> {
  for (const e of errors) {
    if (e.states?.length) for (const s of e.states) describe(s.errors, out)
    else {
      const where = e.location ? `line ${e.location.line}:${e.location.column}` : e.path || '/'
      out.add(`${where}: ${e.detail ?? e.title}`)
    }
  }
  return out
}

const isMap = (v: unknown): v is Yaml => typeof v === 'object' && v !== null && !Array.isArray(v)
const keys = (v: unknown): string[] => (isMap(v) ? Object.keys(v) : [])

function yamlFiles(dir: string): string[] {
  try {
    return readdirSync(join(root, dir))
      .filter((f) => /\.ya?ml$/.test(f))
      .sort()
      .map((f) => `${dir}/${f}`)
  } catch {
    return []
  }
}

const NEW_PERMISSION = /^(\s*)attestations:\s*(\S+)(\s*#.*)?$/gm

/** The workflow as the schema can read it: `attestations:` permission lines left out, after checking their value. */
function withoutNewPermissions(text: string): string {
  return text.replace(NEW_PERMISSION, (_line: string, _indent: string, value: string) => {
    if (!['read', 'write', 'none'].includes(value)) throw new Error(`attestations: '${value}' is not read, write or none`)
    return ''
  })
}

// --- action.yml and status/action.yml ----------------------------------------------------------
/** The metadata of an action of this repository, checked; its inputs and outputs. */
function checkAction(file: string): { inputs: Set<string>; defaults: Map<string, string>; outputs: string[] } {
  const actionText = readFileSync(join(root, file), 'utf8')
  const action = parse(actionText) as Yaml
  const runs = isMap(action.runs) ? action.runs : {}
  if (runs.using !== 'node20' && runs.using !== 'node24') report(file, `runs.using is '${String(runs.using)}': expected node24`)
  const asNode20 = actionText.replace(/^(\s*using:\s*)(['"]?)node24\2\s*$/m, '$1$2node20$2')
  for (const line of describe(validator.validateAction(asNode20).errors)) report(file, line)

  const texts: [string, unknown][] = [
    ['name', action.name],
    ['description', action.description],
    ['author', action.author]
  ]
  for (const section of ['inputs', 'outputs'] as const) {
    const entries = action[section]
    if (isMap(entries))
      for (const [name, spec] of Object.entries(entries)) texts.push([`${section}.${name}.description`, isMap(spec) ? spec.description : undefined])
  }
  for (const [where, text] of texts) {
    if (typeof text === 'string' && text.includes('${{')) {
      report(file, `${where} contains "\${{": GitHub evaluates it when loading the action and fails; write it without the braces (e.g. "github.token")`)
    }
  }
  const defaults = new Map(
    Object.entries(isMap(action.inputs) ? action.inputs : {}).map(([name, spec]) => [name, isMap(spec) ? String(spec.default ?? '') : ''])
  )
  return { inputs: new Set(keys(action.inputs)), defaults, outputs: keys(action.outputs) }
}

const STATUS_ACTION = 'status/action.yml'
const { inputs: actionInputs, defaults: actionDefaults, outputs: actionOutputs } = checkAction('action.yml')
const { inputs: statusInputs } = checkAction(STATUS_ACTION)

// --- the reusable workflow ----------------------------------------------------------------------
const reusable = parse(readFileSync(join(root, REUSABLE), 'utf8')) as Yaml
const call = isMap(reusable.on) && isMap(reusable.on.workflow_call) ? reusable.on.workflow_call : {}
const callInputs = isMap(call.inputs) ? call.inputs : {}
const callSecrets = new Set(keys(call.secrets))
{
  const outputs = isMap(call.outputs) ? call.outputs : {}
  const jobs = isMap(reusable.jobs) ? reusable.jobs : {}
  const missing = actionOutputs.filter((o) => !(o in outputs))
  const extra = keys(outputs).filter((o) => !actionOutputs.includes(o))
  if (missing.length) report(REUSABLE, `workflow_call.outputs lacks action output(s): ${missing.join(', ')}`)
  if (extra.length) report(REUSABLE, `workflow_call.outputs has output(s) action.yml does not: ${extra.join(', ')}`)
  for (const [name, spec] of Object.entries(outputs)) {
    const value = isMap(spec) ? String(spec.value ?? '') : ''
    const m = /^\$\{\{\s*jobs\.([\w-]+)\.outputs\.([\w-]+)\s*\}\}$/.exec(value)
    const job = m && isMap(jobs[m[1] as string]) ? (jobs[m[1] as string] as Yaml) : undefined
    const jobOut = m && job && isMap(job.outputs) ? String(job.outputs[m[2] as string] ?? '') : ''
    if (!m || m[2] !== name || !new RegExp(`^\\$\\{\\{\\s*steps\\.[\\w-]+\\.outputs\\.${name}\\s*\\}\\}$`).test(jobOut)) {
      report(REUSABLE, `output ${name} is not passed up from the deploy step's output of the same name`)
    }
  }
}

// Inputs of action.yml the reusable workflow does not offer, each by decision. Every other input reaches the deploy step.
const NOT_IN_REUSABLE: Readonly<Record<string, string>> = {
  'platform-domain': 'stack names the default platform; console-url or api-url address another',
  'gitlab-token': "the code on GitLab (docs/gitlab.md): the workflow records GitHub Deployments with the run's own token; use the action",
  'gitlab-project': 'the code on GitLab (gitlab-token)',
  'gitlab-url': 'the code on GitLab (gitlab-token)',
  'token-url': 'single sign-on: the workflow logs in with its username and password secrets; use the action for SSO',
  'client-id': 'single sign-on (token-url)',
  'client-secret': 'single sign-on (token-url)',
  'oidc-audience': 'single sign-on (token-url)',
  audience: 'single sign-on (token-url)',
  scope: 'single sign-on (token-url)',
  'access-token': "single sign-on: a token an earlier step obtained is the action's case",
  'allow-unchecked-order': 'record-deployment passes the token that checks the order',
  'compression-level': "tuning: the action's default",
  'max-distribution-mb': "tuning: the action's default",
  'max-attempts': "tuning: the action's default",
  'request-timeout-seconds': "tuning: the action's default",
  'search-uid': "the action's default"
}

{
  const jobs = isMap(reusable.jobs) ? reusable.jobs : {}
  const steps = Object.values(jobs).flatMap((job) => (isMap(job) && Array.isArray(job.steps) ? (job.steps as unknown[]) : []))
  const step = steps.find((s): s is Yaml => isMap(s) && typeof s.uses === 'string' && s.uses.startsWith(`${ACTION_REPO}@`))
  const given = step && isMap(step.with) ? step.with : {}
  for (const input of actionInputs) {
    const left = input in NOT_IN_REUSABLE
    if (!left && !(input in given))
      report(REUSABLE, `the deploy step does not pass action input '${input}': add it (workflow_call input or secret), or to NOT_IN_REUSABLE with the reason`)
    if (left && input in given) report(REUSABLE, `action input '${input}' is passed, yet NOT_IN_REUSABLE (scripts/validate.ts) leaves it out`)
  }
  for (const name of Object.keys(NOT_IN_REUSABLE))
    if (!actionInputs.has(name)) report(REUSABLE, `NOT_IN_REUSABLE names '${name}', which action.yml does not have`)
  for (const [input, value] of Object.entries(given)) {
    const m = /^\$\{\{\s*(inputs|secrets)\.([\w-]+)\s*\}\}$/.exec(String(value))
    if (!m) continue // an expression of its own (github-token: the job's token when record-deployment)
    const [, from, name] = m as unknown as [string, 'inputs' | 'secrets', string]
    const secret = (SECRET_INPUTS as readonly string[]).includes(input)
    if (secret && from === 'inputs')
      report(REUSABLE, `secret input '${input}' is passed from inputs: declare it under workflow_call.secrets and pass secrets.${input}`)
    if (name !== input) report(REUSABLE, `action input '${input}' is passed from ${from}.${name}: use the same name`)
    const declared = from === 'inputs' ? name in callInputs : callSecrets.has(name)
    if (!declared) report(REUSABLE, `action input '${input}' is passed from ${from}.${name}, which workflow_call does not declare`)
  }
  for (const [name, spec] of Object.entries(callInputs)) {
    if (!actionInputs.has(name) || !isMap(spec)) continue
    const wanted = actionDefaults.get(name) ?? ''
    if (String(spec.default ?? '') !== wanted) report(REUSABLE, `input ${name} defaults to '${String(spec.default ?? '')}', action.yml to '${wanted}'`)
  }
}

// --- every workflow and example -----------------------------------------------------------------
const files = [...yamlFiles('.github/workflows'), ...yamlFiles('examples')]
if (!files.includes(REUSABLE)) report(REUSABLE, 'missing')
for (const file of files) {
  const text = readFileSync(join(root, file), 'utf8')
  for (const line of describe(validator.validateWorkflow(withoutNewPermissions(text)).errors)) report(file, line)
  let workflow: Yaml
  try {
    workflow = parse(text) as Yaml
  } catch {
    continue // the validator has reported the parse error
  }
  for (const [jobId, job] of Object.entries(isMap(workflow.jobs) ? workflow.jobs : {})) {
    if (!isMap(job)) continue
    if (typeof job.uses === 'string') checkCall(file, jobId, job)
    const steps = Array.isArray(job.steps) ? job.steps : []
    steps.forEach((step: unknown, i) => {
      if (!isMap(step) || typeof step.uses !== 'string') return
      const uses = step.uses
      const where = `jobs.${jobId}.steps[${i}]${typeof step.id === 'string' ? ` (${step.id})` : ''}`
      if (!uses.startsWith('./') && !uses.startsWith('docker://') && !/^[\w.-]+\/[\w./-]+@[\w./-]+$/.test(uses)) {
        report(file, `${where}: uses '${uses}' names no ref (owner/repo@v1)`)
      }
      if (uses === './' || uses.startsWith(`${ACTION_REPO}@`)) {
        for (const input of keys(step.with)) if (!actionInputs.has(input)) report(file, `${where}: input '${input}' is not in action.yml`)
      }
      if (uses === './status' || uses.startsWith(`${ACTION_REPO}/status@`)) {
        for (const input of keys(step.with)) if (!statusInputs.has(input)) report(file, `${where}: input '${input}' is not in ${STATUS_ACTION}`)
      }
    })
  }
}

function checkCall(file: string, jobId: string, job: Yaml): void {
  const uses = String(job.uses)
  if (!(uses === `./${REUSABLE}` || uses.startsWith(`${ACTION_REPO}/${REUSABLE}@`))) return
  const given = keys(job.with)
  for (const input of given) if (!(input in callInputs)) report(file, `jobs.${jobId}: input '${input}' is not an input of ${REUSABLE}`)
  for (const [name, spec] of Object.entries(callInputs)) {
    if (isMap(spec) && spec.required === true && !given.includes(name)) report(file, `jobs.${jobId}: required input '${name}' of ${REUSABLE} is not given`)
  }
  if (job.secrets !== 'inherit')
    for (const secret of keys(job.secrets)) if (!callSecrets.has(secret)) report(file, `jobs.${jobId}: secret '${secret}' is not a secret of ${REUSABLE}`)
}

// --- report -------------------------------------------------------------------------------------
const actions = ['action.yml', STATUS_ACTION]
for (const file of [...actions, ...files]) {
  const list = problems.get(file)
  console.log(`${list ? 'FAIL' : 'ok  '} ${file}`)
  for (const p of list ?? []) console.log(`       ${p}`)
}
for (const [file, list] of problems) if (!actions.includes(file) && !files.includes(file)) for (const p of list) console.log(`FAIL ${file}: ${p}`)
if (problems.size > 0) {
  console.error(`\n${[...problems.values()].flat().length} problem(s) in ${problems.size} file(s).`)
  process.exit(1)
}
console.log(`\n${files.length + actions.length} files valid (action-validator schemas and cross-file checks).`)
