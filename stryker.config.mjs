// Mutation testing with StrykerJS: `npm run mutation` (not part of `npm test` or .ci/run: it takes long).
// What it covers and leaves out, and why: docs/reliability-and-security.md, "Mutation testing".
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

// The deterministic simulation (__tests__/simulation.test.ts) runs 5000 schedules by default, about a minute: each
// mutant it covers (nearly every one: it runs the whole action) would run them all. 60 take half a second (300
// took three). Fewer schedules can only kill fewer mutants, so the score is a floor of the suite's;
// SIM_RUNS=... npm run mutation sets another count.
process.env.SIM_RUNS ??= '60'

// Each Jest run makes one temp folder (__tests__/global-setup.js) and its teardown removes it; a runner that Stryker
// kills on a timeout never gets there. Under .stryker-tmp/ such a folder stays out of the system temp folder.
const testTemp = fileURLToPath(new URL('.stryker-tmp/tmp/', import.meta.url))
mkdirSync(testTemp, { recursive: true })
for (const name of ['TMPDIR', 'TEMP', 'TMP']) process.env[name] = testTemp

// MUTATION_REPORT=<name>: the reports' file name (reports/mutation/<name>.json and .html), so that a run of part of
// the scope (npm run mutation -- --mutate src/deploy/release.ts) does not overwrite the whole run's.
const report = process.env.MUTATION_REPORT ?? 'mutation'

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  // The release logic, and since issue 41 the faces: the events, the status report and the command; since issue 43 the
  // release rules and their inputs; since issue 44 the code's host; since issue 45 tracing (docs: "Scope").
  mutate: [
    'src/deploy/**/*.ts',
    'src/cloud/**/*.ts',
    'src/github/**/*.ts',
    'src/main.ts',
    'src/post.ts',
    'src/report.ts',
    'src/events/**/*.ts',
    'src/status/**/*.ts',
    'src/cli/**/*.ts',
    'src/rules/**/*.ts',
    'src/inputs/rules.ts',
    // Since issue 44: the code host's port, GitLab's adapter and the inputs that choose the host.
    'src/code-host/**/*.ts',
    'src/gitlab/**/*.ts',
    'src/inputs/code-host.ts',
    // Since issue 45: the trace and its settings.
    'src/tracing/**/*.ts',
    'src/inputs/tracing.ts'
  ],

  testRunner: 'jest',
  // The project's tests are ESM: Jest needs the flag in the runner's own process.
  testRunnerNodeArgs: ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning'],
  jest: {
    projectType: 'custom',
    configFile: 'jest.config.js',
    config: {
      // --findRelatedTests follows imports only through files inside Jest's roots: with the project's roots
      // (__tests__ alone, plus the mutated file's folder that Stryker adds) a test that reaches the mutated file
      // through another folder (simulation.test.ts -> main.ts -> deploy/) would not be run at all.
      roots: ['<rootDir>/__tests__', '<rootDir>/src'],
      // The end-to-end suites run the bundle (dist/index.js), which Stryker does not mutate: they cannot kill a mutant.
      testPathIgnorePatterns: ['/node_modules/', '/__tests__/e2e-']
    },
    // Each mutant runs only the suites that import its file (Stryker adds the file's folder to Jest's roots).
    enableFindRelatedTests: true
  },
  // Each mutant runs only the tests that reached it in the first run.
  coverageAnalysis: 'perTest',
  // A mutant of module-level code would need every test: mostly constants and tables, left out.
  ignoreStatic: true,

  // ts-jest transpiles without type checks (diagnostics: false), so a mutant the compiler would refuse (two in three
  // here, under strict options) would run as JavaScript and could survive as noise: the checker marks it
  // CompileError instead, left out of the score.
  checkers: ['typescript'],
  // The checker compiles the action alone (tsconfig.mutation.json: src/ without the emulator), as it ships: half the
  // files of the project's tsconfig, and a mutant that only breaks a test's types is still a mutant to run.
  tsconfigFile: 'tsconfig.mutation.json',

  // On two cores Stryker makes three into two type-checker processes and one test runner: the checker was what the
  // runner waited on (measured with 60 schedules: 27 to 75 mutants a minute, against about 30 with one checker and 300).
  concurrency: 3,

  // A run reuses the results of mutants whose code and covering tests did not change since the last run of the same
  // report (a whole run takes hours on two cores; a re-run after new tests takes what changed).
  incremental: true,
  incrementalFile: `reports/stryker-incremental-${report}.json`,

  // event-recorder writes each mutant's result as it is tested (reports/mutation/events-<name>/): a run stopped before
  // its end (the json and html reports are written only at the end) still leaves what it measured.
  reporters: ['clear-text', 'progress', 'html', 'json', 'event-recorder'],
  eventReporter: { baseDir: `reports/mutation/events-${report}` },
  htmlReporter: { fileName: `reports/mutation/${report}.html` },
  jsonReporter: { fileName: `reports/mutation/${report}.json` },
  // The summary table and every surviving mutant, without the list of tests.
  clearTextReporter: { allowColor: false, logTests: false, reportTests: false },

  // Not copied to the sandbox: the bundle, coverage, the tests' temp folders, reports, and the sandboxes of another
  // run (parts run side by side each need their own --tempDirName, e.g. .stryker-tmp-claims).
  ignorePatterns: ['/dist', '/coverage', '/.tmp', '/reports', '/.stryker-tmp*'],
  tempDirName: '.stryker-tmp'
}
