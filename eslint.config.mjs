// ESLint for the project's code: the recommended rules of ESLint and typescript-eslint, and the
// project's import boundaries (scripts/eslint/boundaries.mjs, and route declarations below). Layout is
// Prettier's (.prettierrc.json); `npm run lint` runs both and `npm test` runs lint first.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import boundaries from './scripts/eslint/boundaries.mjs';

/**
 * What may be taken from the route declarations (libs/routes) elsewhere: declarations (endpoint
 * constants, schemas, argument lists, endpoint and route makers, the registry), never a helper such as a
 * validator: a helper two places need lives in libs/ beside what it is about.
 */
const ROUTE_DECLARATION = '^([A-Z][A-Z0-9_]*|\\w*(Schema|Args|Endpoints|Routes|[Cc]omponent)|component|registry|buildRegistry|register\\w+)$';

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
  // Import boundaries: libs never import services, services never import each other. Tests assemble
  // what they test, across services, so they are not bound.
  {
    files: ['libs/**/*.ts', 'services/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { boundaries },
    rules: { 'boundaries/no-crossing': 'error' },
  },
  // Route declarations are not a utility module.
  {
    files: ['**/*.ts'],
    ignores: ['libs/routes/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/|#)libs/routes(/|$)',
              allowImportNamePattern: ROUTE_DECLARATION,
              allowTypeImports: true,
              message: 'libs/routes holds route declarations: take only declarations from it; a helper belongs in libs/ beside what it is about.',
            },
          ],
        },
      ],
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
  // Tests (and the set-up they share, `*.fixtures.ts` beside them) read loosely typed JSON answers and reach into internals.
  {
    files: ['**/*.test.ts', '**/*.fixtures.ts', 'test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-require-imports': 'off' },
  },
);
