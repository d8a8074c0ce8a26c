import js from '@eslint/js'
import tseslint from 'typescript-eslint'

const NO_EMULATOR = { group: ['**/emulator', '**/emulator/**'], message: 'The action never imports the emulator: it is a test stand-in, not bundled.' }

/** @actions/* refused, except `allowed`: the engine talks to its port (src/port.ts), the action's face to the runner. */
const ONLY_THE_FACE = (...allowed) => ({
  group: ['@actions/*', ...allowed.map((name) => `!${name}`)],
  message: "Only the action's face (src/index.ts, src/action/) imports @actions/*: the engine talks to its port, src/port.ts."
})

/** The platform's client (src/cloud/) is the door to Bloomreach Cloud, and the deploy step is built on it: never the other way. */
const NO_RELEASE_IN_THE_CLIENT = {
  group: ['../deploy/*', '../../deploy/*'],
  message:
    "src/cloud is the platform's client and knows nothing of the release: a rule of the platform's that src/deploy needs too (how ids compare, what a status says) lives in src/cloud (platform-reading.ts), and src/deploy imports it from there."
}

const refused = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] })

/** The emulator imports nothing above src/emulator/: `allowed`, modules of the emulator's own a subfolder may reach. */
const EMULATOR_ALONE = (...allowed) =>
  refused({
    group: ['../*', '../**', ...allowed.map((name) => `!${name}`)],
    message: 'The emulator never imports action code: a stand-in must not share code with the client it tests.'
  })

export default tseslint.config(
  { ignores: ['dist/**', 'dist-cli/**', 'status/dist/**', 'node_modules/**', 'coverage/**', '.tmp/**', 'reports/**', '.stryker-tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // A function longer than a screen is usually two (issue 46): every function of src/ fits in 60 lines, blank lines and
  // comments counted. The one exception is the emulator's cloud API route table, marked where it stands.
  { files: ['src/**/*.ts'], rules: { 'max-lines-per-function': ['error', { max: 60, skipBlankLines: false, skipComments: false, IIFEs: true }] } },
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off'
    }
  },
  // The boundaries between the action and its stand-in services, both ways: a stand-in that shared
  // code with the client it tests would let a shared bug pass both. And between the engine and its faces
  // (issue 30): only the action's face (src/index.ts, src/action/) talks to the runner through @actions/*;
  // the engine talks to its port (src/port.ts). Two libraries stay where they are used: @actions/exec runs
  // build-command (src/build.ts: a child process, no runner needed), @actions/github is the door to GitHub's
  // API (src/github/). __tests__/boundaries.test.ts checks the same, dynamic import() included.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/emulator/**', 'src/index.ts', 'src/action/**', 'src/build.ts', 'src/github/**'],
    rules: refused(NO_EMULATOR, ONLY_THE_FACE())
  },
  // The client knows nothing of the release (issue 46): an import of src/deploy from src/cloud closes a loop a reader
  // cannot enter. __tests__/boundaries.test.ts checks it with import() and import type, and that src/ has no loop at all.
  { files: ['src/cloud/**/*.ts'], rules: refused(NO_EMULATOR, ONLY_THE_FACE(), NO_RELEASE_IN_THE_CLIENT) },
  { files: ['src/build.ts'], rules: refused(NO_EMULATOR, ONLY_THE_FACE('@actions/exec')) },
  { files: ['src/github/**/*.ts'], rules: refused(NO_EMULATOR, ONLY_THE_FACE('@actions/github')) },
  { files: ['src/index.ts', 'src/action/**/*.ts'], rules: refused(NO_EMULATOR) },
  { files: ['src/emulator/**/*.ts'], rules: EMULATOR_ALONE() },
  // The code hosts' stand-ins (github/, gitlab/) share two things of the emulator's own: the commit graph, and the listener.
  { files: ['src/emulator/github/**/*.ts', 'src/emulator/gitlab/**/*.ts'], rules: EMULATOR_ALONE('../commit-graph.js', '../listen.js') }
)
