/**
 * Jest runs TypeScript through swc; tests sit beside the code (`*.test.ts`) and cross-service tests under test/.
 *
 * Two projects, told apart by file name:
 * - `fast` (`npm test`): unit, in-process, store contract and SQLite fuzz suites, run in parallel workers;
 * - `full` (`npm run test:full`): suites that start browsers, process clusters or crash processes, the
 *   deployment checks and long runs: `*.browser.test.ts`, `*-cluster.test.ts`, `test/crash-*.test.ts`,
 *   `test/deploy/**`, `*.slow.test.ts`.
 * `npm run test:all` runs both. Every suite belongs to exactly one project.
 */
const FULL = ['\\.browser\\.test\\.ts$', '-cluster\\.test\\.ts$', '/test/crash-[^/]*\\.test\\.ts$', '/test/deploy/[^/]*\\.test\\.ts$', '\\.slow\\.test\\.ts$'];

const common = {
  testEnvironment: 'node',
  roots: ['<rootDir>/libs', '<rootDir>/services', '<rootDir>/test'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }] },
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
  // `#libs/...` (package.json "imports", the compiled code's) is the source here.
  moduleNameMapper: { '^#libs/(.*)$': '<rootDir>/libs/$1' },
};

module.exports = {
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
  // Two suites run at a time (a test gets about half of a 2-core machine), so a test's time bound is twice
  // what a lone suite needs; a bound for a stuck test, never a measure of speed.
  testTimeout: 60000,
  projects: [
    { ...common, displayName: 'fast', testMatch: ['**/*.test.ts'], testPathIgnorePatterns: ['/node_modules/', ...FULL] },
    { ...common, displayName: 'full', testRegex: FULL },
  ],
};
