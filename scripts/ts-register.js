/**
 * Lets node run the TypeScript sources without a build, through @swc/core (a dev dependency):
 * `node -r ./scripts/ts-register.js services/main.ts gateway`. Used by tests that start real
 * processes (the cluster test) and by the deployment helpers.
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

// `#libs/...` as the sources (scripts/libs-alias.js).
require('./libs-alias');
