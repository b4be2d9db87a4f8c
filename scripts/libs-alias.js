/**
 * Makes `#libs/...` (package.json "imports", which points node at the compiled dist/libs/) name the
 * TypeScript sources of libs/ instead, for the loaders that run the sources: scripts/ts-register.js and
 * scripts/request-trip.js. Loaded for its effect.
 */
const path = require('node:path');
const Module = require('node:module');

const libs = path.join(__dirname, '..', 'libs');
const resolve = Module._resolveFilename;
Module._resolveFilename = function resolveAlias(request, ...rest) {
  return resolve.call(this, request.startsWith('#libs/') ? path.join(libs, request.slice('#libs/'.length)) : request, ...rest);
};
