import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.tmp/**', 'reports/**', '.stryker-tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off'
    }
  },
  // The boundaries between the action and its stand-in services, both ways: a stand-in that shared
  // code with the client it tests would let a shared bug pass both.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/emulator/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/emulator', '**/emulator/**'], message: 'The action never imports the emulator: it is a test stand-in, not bundled.' }] }
      ]
    }
  },
  {
    files: ['src/emulator/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['../*', '../**'], message: 'The emulator never imports action code: a stand-in must not share code with the client it tests.' }]
        }
      ]
    }
  }
)
