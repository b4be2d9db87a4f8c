/**
 * The modules one REST request passes through, as the code runs:
 *   node scripts/request-trip.js [METHOD PATH [JSON-BODY]]
 * (default: a vendor/events/v1 event create with an inline venue, as the administrator).
 *
 * It starts the all-in-one process on a fresh embedded store in this process, with every function of
 * libs/ and services/ compiled to note its entry, and sends the request once unmeasured (so one-time
 * work such as warming caches is not counted) and then once measured. At each function entry during
 * the measured request it reads the call stack (async frames included) and keeps the chain of project
 * modules on it, outermost first. It prints the modules in the order they were first entered, then:
 *   - climbs: calls from a module to one on a higher floor (a callback up the layers), where a module's
 *     floor is one above the highest module it imports (libs/ and services/ only; cycles cut);
 *   - returns: chains that enter a module again after leaving it for another (A -> B -> A).
 * Figures count distinct edges and patterns. Nothing of the project is changed.
 */
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');
const ts = require('typescript');

const root = path.resolve(__dirname, '..');
const rel = (f) => path.relative(root, f).split(path.sep).join('/');
const ours = (f) => /^(libs|services)\//.test(rel(f)) && !f.includes(`${path.sep}node_modules${path.sep}`);

let recording = false;
const chains = [];
Error.stackTraceLimit = Infinity;
global.__tripEnter = function tripEnter() {
  if (!recording) return;
  const files = [];
  for (const line of String(new Error().stack).split('\n').slice(2)) {
    const m = /\(?((?:\/|[A-Za-z]:\\)[^():]+\.ts):\d+:\d+\)?$/.exec(line);
    if (!m || !ours(m[1])) continue;
    const r = rel(m[1]);
    if (files[files.length - 1] !== r) files.push(r);
  }
  if (files.length) chains.push(files.reverse());
};

/** Prepends `__tripEnter()` to every function body. */
function noteEntries(context) {
  const f = context.factory;
  const note = () => f.createExpressionStatement(f.createCallExpression(f.createIdentifier('__tripEnter'), undefined, []));
  const visit = (node) => {
    node = ts.visitEachChild(node, visit, context);
    if (ts.isArrowFunction(node) && !ts.isBlock(node.body)) {
      return f.updateArrowFunction(
        node,
        node.modifiers,
        node.typeParameters,
        node.parameters,
        node.type,
        node.equalsGreaterThanToken,
        f.createBlock([note(), f.createReturnStatement(node.body)], true),
      );
    }
    if ((ts.isFunctionLike(node) || ts.isClassStaticBlockDeclaration(node)) && node.body && ts.isBlock(node.body)) {
      const body = f.updateBlock(node.body, [note(), ...node.body.statements]);
      if (ts.isFunctionDeclaration(node))
        return f.updateFunctionDeclaration(node, node.modifiers, node.asteriskToken, node.name, node.typeParameters, node.parameters, node.type, body);
      if (ts.isFunctionExpression(node))
        return f.updateFunctionExpression(node, node.modifiers, node.asteriskToken, node.name, node.typeParameters, node.parameters, node.type, body);
      if (ts.isArrowFunction(node))
        return f.updateArrowFunction(node, node.modifiers, node.typeParameters, node.parameters, node.type, node.equalsGreaterThanToken, body);
      if (ts.isMethodDeclaration(node))
        return f.updateMethodDeclaration(
          node,
          node.modifiers,
          node.asteriskToken,
          node.name,
          node.questionToken,
          node.typeParameters,
          node.parameters,
          node.type,
          body,
        );
      if (ts.isGetAccessorDeclaration(node)) return f.updateGetAccessorDeclaration(node, node.modifiers, node.name, node.parameters, node.type, body);
      if (ts.isSetAccessorDeclaration(node)) return f.updateSetAccessorDeclaration(node, node.modifiers, node.name, node.parameters, body);
      // Constructors may have to call super() first: their entry is left unnoted.
    }
    return node;
  };
  return (sf) => ts.visitNode(sf, visit);
}

// `#libs/...` as the sources, so libs/ is compiled (and noted) here rather than loaded from dist/.
require('./libs-alias');

require.extensions['.ts'] = function compileTs(module, filename) {
  const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
    fileName: filename,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, experimentalDecorators: true },
    transformers: ours(filename) ? { before: [noteEntries] } : undefined,
  });
  module._compile(outputText, filename);
};

/** Floors from the import graph of libs/ and services/ (every relative and `#libs/` import, types too). */
function floors() {
  const graph = new Map();
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts') && !/\.(test|fixtures|d)\.ts$/.test(p)) {
        const deps = new Set();
        for (const m of fs.readFileSync(p, 'utf8').matchAll(/(?:from|import|require\()\s*['"](\.[^'"]+|#libs\/[^'"]+)['"]/g)) {
          const base = m[1].startsWith('#libs/') ? path.join(root, 'libs', m[1].slice('#libs/'.length)) : path.resolve(path.dirname(p), m[1]);
          const hit = [`${base}.ts`, path.join(base, 'index.ts')].find((c) => fs.existsSync(c));
          if (hit && ours(hit)) deps.add(rel(hit));
        }
        graph.set(rel(p), [...deps]);
      }
    }
  };
  walk(path.join(root, 'libs'));
  walk(path.join(root, 'services'));
  const floor = new Map();
  const on = new Set();
  const of = (m) => {
    if (floor.has(m)) return floor.get(m);
    if (on.has(m)) return 0;
    on.add(m);
    const f = 1 + Math.max(0, ...(graph.get(m) ?? []).map(of));
    on.delete(m);
    floor.set(m, f);
    return f;
  };
  for (const m of graph.keys()) of(m);
  return floor;
}

async function main() {
  const [method = 'POST', route = '/vendor/events/v1/events', json] = process.argv.slice(2);
  const at = new Date(Date.now() + 86400e3).toISOString().slice(0, 19).replace('T', ' ');
  const later = new Date(Date.now() + 90000e3).toISOString().slice(0, 19).replace('T', ' ');
  const body = json ? JSON.parse(json) : { title: 'Trip', start_date: at, end_date: later, venue: { venue: 'Trip hall', city: 'Paris' } };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'request-trip-'));
  const admin = { login: 'admin', password: 'admin-account-password', app: 'abcd EFGH ijkl MNOP qrst UVWX' };
  const { loadConfig } = require('../libs/config/env');
  const { start } = require('../services/runtime');
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SITE_URL: 'http://example.test',
    ADMIN_USER: admin.login,
    ADMIN_PASSWORD: admin.password,
    ADMIN_APP_PASSWORD: admin.app,
    LOG_LEVEL: 'silent',
  });
  const running = await start('all', config);
  const url = `http://127.0.0.1:${running.server.address().port}/index.php/cms-json${route}`;
  const send = async (b) => {
    const headers = { Authorization: `Basic ${Buffer.from(`${admin.login}:${admin.app}`).toString('base64')}` };
    if (method !== 'GET') headers['Content-Type'] = 'application/json';
    const res = await fetch(url, { method, headers, body: method === 'GET' ? undefined : JSON.stringify(b) });
    return { status: res.status, text: await res.text() };
  };
  try {
    const warm = await send({ ...body, title: `${body.title ?? 'Trip'} (warm-up)` });
    recording = true;
    const res = await send(body);
    recording = false;
    report(res, warm);
  } finally {
    await running.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Modules in order of first entry, climbs and returns over some chains. */
function measure(list, floor) {
  const order = [];
  const climbs = new Map();
  const returns = new Map();
  const count = (map, key) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const chain of list) {
    for (const m of chain) if (!order.includes(m)) order.push(m);
    for (let i = 1; i < chain.length; i++) {
      const [a, b] = [chain[i - 1], chain[i]];
      if ((floor.get(b) ?? 0) > (floor.get(a) ?? 0)) count(climbs, `${a} -> ${b}`);
      const back = chain.lastIndexOf(b, i - 1);
      if (back >= 0) count(returns, chain.slice(back, i + 1).join(' -> '));
    }
  }
  return { order, climbs, returns };
}

function print(title, { order, climbs, returns }, floor) {
  console.log(`\n== ${title}: ${order.length} modules, ${climbs.size} climbs, ${returns.size} returns`);
  console.log('modules, in order of first entry (floor):');
  for (const m of order) console.log(`  ${String(floor.get(m) ?? '?').padStart(2)}  ${m}`);
  console.log('climbs (a call to a module on a higher floor; entries):');
  for (const [k, n] of climbs) console.log(`  ${k}  (${n})`);
  console.log('returns (a module entered again after leaving it for another; entries):');
  for (const [k, n] of returns) console.log(`  ${k}  (${n})`);
}

function report(res, warm) {
  const floor = floors();
  console.log(`${process.argv[2] ?? 'POST'} ${process.argv[3] ?? '/vendor/events/v1/events'}: ${res.status} (warm-up ${warm.status})`);
  if (res.status >= 400) console.log(res.text);
  // The service's part: from the dispatch contract inward, on the calls that reach the store.
  const service = chains.map((c) => c.slice(Math.max(0, c.indexOf(SERVICE)))).filter((c) => c[0] === SERVICE && c.some((m) => m.startsWith('libs/store/')));
  const spine = (c) => c.filter((m) => !m.startsWith('libs/store/') || m === 'libs/store/repository.ts');
  print('the service, from the dispatch to the store (store internals folded into the repository)', measure(service.map(spine), floor), floor);
  print('the whole request, every module entered', measure(chains, floor), floor);
}

const SERVICE = 'libs/rest/service.ts';

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
