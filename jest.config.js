// ESM project: ts-jest transpiles each file on its own (type-checking is `npm run typecheck`).
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, diagnostics: false }]
  },
  // One temporary folder per run, removed at its end: a test run leaves the system temp folder as it found it.
  globalSetup: '<rootDir>/__tests__/global-setup.js',
  globalTeardown: '<rootDir>/__tests__/global-teardown.js',
  // The engine talks to its port (src/port.ts): each test file starts with the action's, as the bundle does.
  setupFiles: ['<rootDir>/__tests__/setup-port.ts'],
  // The simulation starts first, whatever the last run's times say (__tests__/sequencer.js).
  testSequencer: '<rootDir>/__tests__/sequencer.js',
  testTimeout: 60000,
  // The end-to-end suites mostly wait (on the action's pace of looking, on its budgets): four of them at once keep
  // two cores busy where two left them idle more than half the time.
  maxWorkers: 4
}
