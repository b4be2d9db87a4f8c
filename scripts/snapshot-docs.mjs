#!/usr/bin/env node
// Serialises every route declaration and API document a running service publishes, into one JSON file,
// so that a change meant to keep the declarations as they are can be checked byte for byte (key order
// included): the REST index, each namespace index, the OpenAPI documents, OPTIONS on the calendar's
// routes and the abilities catalog (read as the administrator, who sees every ability).
//
//   node scripts/snapshot-docs.mjs http://127.0.0.1:8080 before.json [admin 'app password']
//   ... change ..., then again into after.json, and `cmp before.json after.json`.
import { writeFileSync } from 'node:fs';

const [base, out, user = 'admin', password = process.env.CONF_ADMIN_APP_PASSWORD ?? ''] = process.argv.slice(2);
if (!base || !out) {
  console.error('usage: snapshot-docs.mjs BASE_URL OUT.json [USER APP_PASSWORD]');
  process.exit(2);
}
const root = `${base.replace(/\/$/, '')}/index.php/cms-json`;
const auth = password ? { Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` } : {};

async function read(method, path, headers = {}) {
  const res = await fetch(`${root}${path}`, { method, headers });
  return { status: res.status, allow: res.headers.get('allow'), body: await res.text() };
}

const snapshot = {};
const take = async (method, path, headers) => (snapshot[`${method} ${path}${headers ? ' (admin)' : ''}`] = await read(method, path, headers));

await take('GET', '/');
await take('GET', '/?context=help');
const index = JSON.parse(snapshot['GET /'].body);
for (const ns of index.namespaces) {
  await take('GET', `/${ns}`);
  await take('GET', `/${ns}?context=help`);
}
await take('GET', '/vendor/events/v1/doc');
await take('GET', '/ec/v1/docs');
const concrete = (pattern) => pattern.replace(/\(\?P<id>[^)]*\)/g, '1').replace(/\(\?P<slug>[^)]*\)/g, 'a-slug');
for (const pattern of Object.keys(index.routes)) {
  if (/^\/(vendor\/events\/v1|ec\/v1)\//.test(pattern)) await take('OPTIONS', concrete(pattern));
}
await take('GET', '/cms-abilities/v1/abilities?per_page=100', auth);
await take('GET', '/cms-abilities/v1/abilities?per_page=100&context=edit', auth);
writeFileSync(out, `${JSON.stringify(snapshot, null, 1)}\n`);
console.log(`${Object.keys(snapshot).length} documents in ${out}`);
