/**
 * Lets node run the TypeScript sources without a build, through @swc/core (a dev dependency):
 * `node -r ./scripts/ts-register.js services/main.ts gateway`. Used by tests that start real
 * processes (the cluster test) and by the deployment helpers.
 */
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
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

// `#libs/...` names libs/ (package.json "imports" maps it to the compiled dist/libs/ for `npm start`);
// run from the sources, it is the source file.
const libs = path.join(__dirname, '..', 'libs');
const resolve = Module._resolveFilename;
Module._resolveFilename = function resolveAlias(request, ...rest) {
  return resolve.call(this, request.startsWith('#libs/') ? path.join(libs, request.slice('#libs/'.length)) : request, ...rest);
};
