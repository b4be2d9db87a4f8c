// ESLint for the project's code: the recommended rules of ESLint and typescript-eslint. Layout is
// Prettier's (.prettierrc.json); `npm run lint` runs both and `npm test` runs lint first.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'dist-prof/', 'coverage/', 'charts/', 'k8s/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `_name` marks a parameter a signature needs but the body does not use.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  // Node scripts in JavaScript: the jest set-up, the test servers' launchers, the TypeScript loader.
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // Served to browsers: the calendar views' script.
  {
    files: ['services/gateway/calendar-assets/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
  },
  // Tests read loosely typed JSON answers and reach into internals.
  {
    files: ['**/*.test.ts', 'test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-require-imports': 'off' },
  },
);
