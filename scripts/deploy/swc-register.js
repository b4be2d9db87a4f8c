/**
 * Lets node run the TypeScript helpers in this folder without a build, through @swc/core (already a
 * dev dependency for jest): `node -r ./scripts/deploy/swc-register.js scripts/deploy/generate-k8s.ts`.
 */
const fs = require('node:fs');
const { transformSync } = require('@swc/core');

require.extensions['.ts'] = function compileTs(module, filename) {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  });
  module._compile(code, filename);
};
