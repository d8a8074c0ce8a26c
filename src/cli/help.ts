// What --help and --version print: the commands, the CLI's own flags, every input as a flag and a variable
// (from action.yml's list, so a new input appears here by itself), and the exit codes.
import { INPUT_DEFAULTS } from '../action-metadata.js'
import { EXIT } from './exit-codes.js'
import { version } from '../version.js'
import { envName, inputsOf, SECRET_INPUTS, type Command } from './inputs.js'

const ABOUT: { readonly [c in Command]: string } = {
  deploy: 'Deploys a brXM distribution to a Bloomreach Cloud environment (and runs the search check when search-query is set).',
  'search-check': 'Checks that Bloomreach product search answers a query with results (no deployment).'
}

export function mainHelp(): string {
  return [
    'brcloud: deploy brXM to Bloomreach Cloud from any CI or a terminal (the engine of the brcloud-deploy GitHub Action).',
    '',
    'Usage: brcloud <command> [flags]',
    '       npx brcloud-deploy <command> [flags]   (the package installs both names: brcloud and brcloud-deploy)',
    '',
    'Commands:',
    ...(Object.keys(ABOUT) as Command[]).map((c) => `  ${c.padEnd(14)}${ABOUT[c]}`),
    `  ${'status'.padEnd(14)}What runs in each environment of your stacks, against the tracked branch (read-only; brcloud status --help).`,
    `  ${'emulator'.padEnd(14)}Runs the local emulator of the Bloomreach Cloud API and the search API, to try everything with no account (brcloud emulator --help).`,
    '',
    'brcloud <command> --help lists its flags; brcloud --version prints the version.',
    'Every input of the action is a flag --<input> or a variable BRCLOUD_<INPUT>; secrets only as a variable or a file.',
    'The log goes to stderr; --json prints the outputs as one JSON object on stdout. See docs/cli.md.',
    ''
  ].join('\n')
}

export function commandHelp(command: Command): string {
  const inputs = inputsOf(command).map((name) => {
    const isSecret = SECRET_INPUTS.includes(name)
    const flag = isSecret ? `--${name}-file FILE` : `--${name} VALUE`
    const fallback = INPUT_DEFAULTS[name] === '' ? '' : ` (default ${INPUT_DEFAULTS[name]})`
    return `  ${flag.padEnd(36)}${envName(name)}${isSecret ? ' (secret: never a flag)' : ''}${fallback}`
  })
  return [
    `Usage: brcloud ${command} [flags]`,
    '',
    ABOUT[command],
    '',
    'Output:',
    "  --json                              the outputs as one JSON object on stdout, keyed by the action's output names",
    '  --summary FILE                      the Markdown summary, written to FILE',
    '  --debug                             debug lines in the log (also BRCLOUD_DEBUG=true)',
    "  --dotenv FILE                       the outputs as BRCLOUD_<OUTPUT>=value lines, for GitLab's artifacts:reports:dotenv",
    '  (under Azure Pipelines, TF_BUILD=True: each output as an output variable BRCLOUD_<OUTPUT>, the failure as an issue;',
    "   in a GitHub Actions run: step: the outputs and the summary in the runner's files)",
    '',
    'The run:',
    "  --commit SHA                        the commit deployed (BRCLOUD_COMMIT; else the CI's own: GIT_COMMIT, CI_COMMIT_SHA, CIRCLE_SHA1, ... in docs/cli.md)",
    '  --repository OWNER/NAME             the GitHub repository of its GitHub Deployments, with github-token (BRCLOUD_REPOSITORY, GITHUB_REPOSITORY)',
    '',
    "Inputs (a flag wins over its variable; the meanings are the action's, in README.md):",
    ...inputs,
    '',
    `Exit codes: ${Object.entries(EXIT)
      .map(([what, code]) => `${code} ${what}`)
      .join(', ')} (docs/cli.md).`,
    ''
  ].join('\n')
}

export { version }
