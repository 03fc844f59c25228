// ESLint: typescript-eslint's strict, type-checked rules. The action's code (src/) gets them all; tests,
// fixtures and scripts relax only what test code does on purpose (reading untyped JSON bodies, non-null
// assertions on values the test has just checked, async fakes that do not await).
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/', 'build/', 'node_modules/', 'coverage/', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname }
    },
    rules: {
      // Numbers and booleans in template strings are what log lines are made of.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // Control characters in regular expressions are the point where untrusted text is made inert.
      'no-control-regex': 'off',
      // Leaving a field out of a copy with a rest sibling (`const { verdict: _v, ...rest } = body`) is how a
      // field is dropped without mutating; a leading _ marks a parameter or binding that is unused on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true, argsIgnorePattern: '^_', varsIgnorePattern: '^_' }]
    }
  },
  {
    files: ['__tests__/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-empty-function': 'off'
    }
  }
)
