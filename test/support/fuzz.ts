/**
 * A request fuzzer driven by the route registry: for every route and method it declares, bad values
 * per declared argument (wrong types, out-of-range numbers, huge and malformed text, operator and
 * prototype keys, deep and huge JSON), sent in the query string, a JSON body or a form body, plus
 * bad URL ids and wrong bodies (content types, invalid JSON). Sampling is deterministic: a seeded PRNG
 * picks the values, the channel and the caller of each case, so a failure reproduces.
 *
 * It also knows what an answer must never contain (a stack trace, driver or SQL text, a file path) and
 * how to digest the store, so a test can tell whether a refused request changed anything.
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { COLLECTIONS } from '../../libs/data/collections';
import type { ArgDecl, CompiledRoute, EndpointDecl, RouteRegistry } from '../../libs/rest/registry';
import type { Store } from '../../libs/store/types';
import type { Who } from './roles';
import { markupProbe, xssIn } from './xss';

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

/** mulberry32: a small seeded PRNG, enough to sample cases reproducibly. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)];
}

/** `n` distinct items of a list, in a seeded order. */
function sample<T>(rand: () => number, list: readonly T[], n: number): T[] {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, n);
}

// ---------------------------------------------------------------------------------------------
// Bad values

/**
 * One bad value of an argument, in the forms a channel carries it: `json` (a JS value placed in a JSON
 * body), `jsonRaw` (JSON text or bytes placed as they are, for what JSON.stringify cannot write: 1e309,
 * lone surrogates, invalid UTF-8, 10,000 levels of nesting), and `qs` (an encoded query/form fragment).
 */
export interface BadValue {
  label: string;
  json?: unknown;
  jsonRaw?: string | Buffer;
  qs?: (name: string) => string;
  /** A large payload: only a few are sent per route. */
  huge?: boolean;
}

const enc = encodeURIComponent;
const q = (suffix: string) => (n: string) => `${enc(n)}${suffix}`;
const qv = (value: string) => (n: string) => `${enc(n)}=${enc(value)}`;

const DEPTH = 10_000;
/** Text sent only under a `__proto__` key; an answer that shows it without that key read it through a prototype. */
export const PROTO_MARKER = 'PROTO-SHADOW-VALUE';
const HUGE_TEXT = 'x'.repeat(100_000);

export const BAD_VALUES: BadValue[] = [
  { label: 'array', json: ['a', 'b'], qs: q('[]=a&NAME[]=b') },
  { label: 'nested-array', json: [['a'], [{}]], qs: q('[0][0]=a&NAME[1][x]=1') },
  { label: 'object', json: { a: 1 }, qs: q('[a]=1') },
  { label: 'empty-object', json: {} },
  { label: 'empty-array', json: [] },
  { label: 'op-ne', json: { $ne: 'x' }, qs: q('[$ne]=x') },
  { label: 'op-gt', json: { $gt: '' }, qs: q('[$gt]=') },
  { label: 'op-regex', json: { $regex: '.*' }, qs: q('[$regex]=.*') },
  { label: 'op-where', json: { $where: 'sleep(10000) || true' }, qs: q('[$where]=sleep(10000)') },
  { label: 'op-in', json: { $in: [1, 'a'] }, qs: q('[$in][]=1&NAME[$in][]=a') },
  { label: 'op-exists', json: { $exists: true }, qs: q('[$exists]=1') },
  { label: 'op-icontains', json: { $icontains: '' }, qs: q('[$icontains]=') },
  { label: 'op-or', json: [{ $or: [{}] }], qs: q('[0][$or][0][a]=1') },
  { label: 'proto', jsonRaw: '{"__proto__":{"polluted":"yes"}}', qs: q('[__proto__][polluted]=yes') },
  {
    // Properties only an object's prototype would carry: none of them may take effect.
    label: 'proto-shadow',
    jsonRaw: `{"__proto__":${JSON.stringify(Object.fromEntries(['raw', 'rendered', 'name', 'title', 'status', 'id', 'slug', 'value', '0'].map((k) => [k, PROTO_MARKER])))}}`,
  },
  { label: 'constructor', json: { constructor: { prototype: { polluted: 'yes' } } }, qs: q('[constructor][prototype][polluted]=yes') },
  { label: 'proto-in-array', jsonRaw: '[{"__proto__":{"polluted":"yes"}}]', qs: q('[0][__proto__][polluted]=yes') },
  { label: 'negative', json: -1, qs: qv('-1') },
  { label: 'below-int32', json: -2147483649, qs: qv('-2147483649') },
  { label: 'huge-int-text', json: '99999999999999999999', qs: qv('99999999999999999999') },
  { label: 'huge-int-number', jsonRaw: '99999999999999999999', qs: qv('1e21') },
  { label: 'unsafe-int', jsonRaw: '9007199254740993', qs: qv('9007199254740993') },
  { label: 'inf-literal', jsonRaw: '1e309', qs: qv('1e309') },
  { label: 'neg-inf-literal', jsonRaw: '-1e309', qs: qv('-1e309') },
  { label: 'inf-text', json: '1e309' },
  { label: 'nan-text', json: 'NaN', qs: qv('NaN') },
  { label: 'infinity-text', json: 'Infinity', qs: qv('-Infinity') },
  { label: 'hex-text', json: '0x10', qs: qv('0x10') },
  { label: 'negative-zero', jsonRaw: '-0', qs: qv('-0') },
  { label: 'float', json: 1.5, qs: qv('1.5') },
  { label: 'tiny-float', jsonRaw: '1e-400', qs: qv('4.9e-324') },
  { label: 'boolean', json: true, qs: qv('true') },
  { label: 'null', json: null, qs: (n) => enc(n) },
  { label: 'empty', json: '', qs: qv('') },
  { label: 'spaces', json: '   ', qs: qv('   ') },
  { label: 'nul-byte', json: 'a\u0000b', qs: q('=a%00b') },
  { label: 'invalid-utf8', jsonRaw: Buffer.from([0x22, 0x61, 0xff, 0xfe, 0xc3, 0x28, 0x22]), qs: q('=a%FF%FE%C3%28') },
  { label: 'lone-surrogate', jsonRaw: '"a\\ud800b\\udfff"', qs: q('=a%ED%A0%80b') },
  { label: 'catastrophic-regex', json: '(a+)+$', qs: qv('(a+)+$') },
  { label: 'backtracking-text', json: `${'a'.repeat(5000)}!`, qs: qv(`${'a'.repeat(3000)}!`) },
  { label: 'regex-special', json: '.*[](){}|\\^$?+', qs: qv('.*[](){}|\\^$?+') },
  { label: 'sql-text', json: "' OR 1=1; DROP TABLE posts; --", qs: qv("' OR '1'='1") },
  { label: 'like-wildcards', json: '%_%\\', qs: qv('%_%\\') },
  { label: 'template-text', json: '${process.exit()}{{7*7}}<script>', qs: qv('${7*7}{{7*7}}') },
  { label: 'rtl-emoji', json: '\u202e\ud83d\ude00\ufeff', qs: qv('\u202e\ud83d\ude00') },
  { label: 'bad-date', json: '2021-02-30T25:61:61', qs: qv('0000-00-00 00:00:00') },
  { label: 'list-junk', json: '1,2,abc,-5,,', qs: qv('1, 2 ,abc,-5,,') },
  { label: 'path-traversal', json: '../../../etc/passwd', qs: qv('..%2F..%2Fetc%2Fpasswd') },
  { label: 'sparse-index', json: { 0: 1, 999999: 2 }, qs: q('[0]=1&NAME[999999]=2') },
  { label: 'qs-deep', qs: q('[a][b][c][d][e][f][g][h]=1') },
  { label: 'many-items', json: Array.from({ length: 2000 }, (_, i) => i), qs: (n) => Array.from({ length: 1500 }, (_, i) => `${enc(n)}[]=${i}`).join('&') },
  { label: 'huge-text', json: HUGE_TEXT, huge: true },
  { label: 'huge-array', json: new Array(100_000).fill(1), huge: true },
  { label: 'huge-object', json: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i])), huge: true },
  { label: 'deep-array', jsonRaw: '['.repeat(DEPTH) + ']'.repeat(DEPTH), huge: true },
  { label: 'deep-object', jsonRaw: '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH), huge: true },
];

// ---------------------------------------------------------------------------------------------
// Cases

export interface FuzzCase {
  who: Who;
  method: string;
  /** Route path relative to the REST root, already URL-encoded where needed. */
  path: string;
  /** Raw query string, encoded, without '?'. */
  query: string;
  body?: Buffer;
  contentType?: string;
  /** Endpoint id and what was fuzzed, for reports. */
  label: string;
  /** Whether the request may write (any method but GET). */
  write: boolean;
}

/**
 * Records the fuzz works on, so paths name things that exist: a path group's value is found by the
 * route text before it (`/cms/v2/posts/` for a post id), else by the group's name (`uuid`, `type`).
 */
export interface Fixtures {
  byPrefix: Record<string, string>;
  byGroup: Record<string, string>;
}

const GROUP_RE = /\(\?P<([A-Za-z_][A-Za-z0-9_]*)>/g;

/** The pattern's text up to the start of a group, with earlier groups as they were filled. */
function fillPath(route: CompiledRoute, fill: (group: string, prefix: string, index: number) => string): string {
  let out = '';
  let i = 0;
  let index = 0;
  const src = route.pattern;
  GROUP_RE.lastIndex = 0;
  for (let m = GROUP_RE.exec(src); m; m = GROUP_RE.exec(src)) {
    out += src.slice(i, m.index);
    // Skip to the group's closing parenthesis.
    let depth = 0;
    let j = m.index;
    for (; j < src.length; j++) {
      if (src[j] === '\\') {
        j++;
        continue;
      }
      if (src[j] === '(') depth++;
      else if (src[j] === ')' && --depth === 0) break;
    }
    out += fill(m[1], out, index++);
    i = j + 1;
    GROUP_RE.lastIndex = i;
  }
  return out + src.slice(i);
}

/** Fills every path group of a route with a value that exists (or at least matches the route). */
export function samplePath(registry: RouteRegistry, route: CompiledRoute, fx: Fixtures, override?: { index: number; value: string }): string {
  const fill = (group: string, prefix: string, index: number): string => {
    if (override && override.index === index) return override.value;
    const hit = Object.entries(fx.byPrefix).find(([p]) => prefix.endsWith(p));
    if (hit) return hit[1];
    if (fx.byGroup[group] !== undefined) return fx.byGroup[group];
    return group === 'id' || group === 'parent' ? '1' : 'abc';
  };
  const path = fillPath(route, fill);
  if (!override) {
    const m = registry.match(path);
    if (m?.route !== route) throw new Error(`sample path ${path} does not reach ${route.pattern}`);
  }
  return path;
}

/** The values a URL id is fuzzed with (already encoded). */
const BAD_IDS = ['abc', '99999999999999999999', '-1', '0', '1e3', '1.5', '%00', '%FF%FE', '1%2F2', '..%2F..', '%20', '1%0A'];

function jsonBody(fields: Record<string, BadValue | unknown>): Buffer {
  // Raw JSON parts are spliced in where a marker string stands.
  const raws: Array<string | Buffer> = [];
  const obj: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (isBad(v)) {
      if (v.jsonRaw !== undefined) {
        obj[k] = `\u0001RAW${raws.length}\u0001`;
        raws.push(v.jsonRaw);
      } else obj[k] = v.json;
    } else obj[k] = v;
  }
  const text = JSON.stringify(obj);
  const parts: Buffer[] = [];
  let rest = text;
  raws.forEach((raw, i) => {
    const marker = JSON.stringify(`\u0001RAW${i}\u0001`);
    const at = rest.indexOf(marker);
    parts.push(Buffer.from(rest.slice(0, at)), typeof raw === 'string' ? Buffer.from(raw) : raw);
    rest = rest.slice(at + marker.length);
  });
  parts.push(Buffer.from(rest));
  return Buffer.concat(parts);
}

function isBad(v: unknown): v is BadValue {
  return typeof v === 'object' && v !== null && 'label' in v && ('json' in v || 'jsonRaw' in v || 'qs' in v);
}

function qsOf(name: string, v: BadValue): string | undefined {
  return v.qs ? v.qs(name).replace(/NAME/g, enc(name)) : undefined;
}

export interface GenerateOptions {
  seed: number;
  principals: readonly Who[];
  /** Bad values per argument (the huge ones are extra, a few per route). */
  perArg: number;
  /** Huge payloads per endpoint. */
  hugePerEndpoint: number;
}

/** Every case of the run, in a deterministic order. */
export function generateCases(registry: RouteRegistry, fx: Fixtures, opts: GenerateOptions): FuzzCase[] {
  const rand = prng(opts.seed);
  const small = BAD_VALUES.filter((v) => !v.huge);
  const huge = BAD_VALUES.filter((v) => v.huge);
  const cases: FuzzCase[] = [];
  for (const route of registry.all()) {
    const path = samplePath(registry, route, fx);
    for (const ep of route.endpoints) {
      const methods = ep.methods;
      const add = (c: Omit<FuzzCase, 'who' | 'method' | 'write'> & { method?: string }) => {
        const method = c.method ?? pick(rand, methods);
        cases.push({ ...c, who: pick(rand, opts.principals), method, write: method !== 'GET' });
      };
      const write = methods.some((m) => m !== 'GET');
      const argNames = Object.keys(ep.args);
      for (const name of argNames) {
        for (const bad of sample(rand, small, opts.perArg)) addValueCase(add, rand, ep, path, name, bad, write);
      }
      // A few huge payloads per endpoint, on arguments picked at random (or an unknown one).
      for (let i = 0; i < opts.hugePerEndpoint; i++) {
        const name = argNames.length ? pick(rand, argNames) : 'x';
        addValueCase(add, rand, ep, path, name, pick(rand, huge), write);
      }
      // Bad ids in the URL.
      const groups = route.groups.length;
      for (let g = 0; g < groups; g++) {
        for (const bad of sample(rand, BAD_IDS, 3)) {
          add({ path: samplePath(registry, route, fx, { index: g, value: bad }), query: '', label: `${ep.id} url[${route.groups[g]}]=${bad}` });
        }
      }
      // Global parameters and prototype keys at the top of the query.
      for (const extra of sample(rand, GLOBAL_QUERIES, 2)) add({ path, query: extra, label: `${ep.id} ?${extra.slice(0, 60)}` });
      if (write) {
        const writeMethods = methods.filter((m) => m !== 'GET');
        for (const body of sample(rand, BAD_BODIES, 3)) {
          add({ path, query: '', method: pick(rand, writeMethods), body: body.body, contentType: body.contentType, label: `${ep.id} body:${body.label}` });
        }
      }
    }
  }
  // Batches: bad values inside sub-requests of batchable write endpoints, and malformed batches.
  const batchable = registry
    .all()
    .flatMap((route) => route.endpoints.filter((ep) => ep.allowBatch && ep.methods.some((m) => m !== 'GET')).map((ep) => ({ route, ep })));
  const jsonValues = BAD_VALUES.filter((v) => !v.huge && 'json' in v);
  for (const { route, ep } of batchable) {
    const path = samplePath(registry, route, fx);
    const names = Object.keys(ep.args);
    for (let i = 0; i < 4; i++) {
      const name = names.length ? pick(rand, names) : 'x';
      const bad = pick(rand, jsonValues);
      const method = pick(
        rand,
        ep.methods.filter((m) => m !== 'GET'),
      );
      const validation = pick(rand, ['normal', 'require-all-validate']);
      const requests = [
        { method, path, body: { [name]: bad.json } },
        { method: 'POST', path: `${path}?${qsOf(name, bad) ?? ''}`, body: {} },
      ];
      cases.push({
        who: pick(rand, opts.principals),
        method: 'POST',
        path: '/batch/v1',
        query: '',
        body: Buffer.from(JSON.stringify({ validation, requests })),
        contentType: 'application/json',
        label: `batch.v1 ${ep.id} ${name}=${bad.label}`,
        write: true,
      });
    }
  }
  for (const batch of BAD_BATCHES) {
    for (const who of opts.principals) {
      cases.push({
        who,
        method: 'POST',
        path: '/batch/v1',
        query: '',
        body: Buffer.from(batch.body),
        contentType: 'application/json',
        label: `batch.v1 ${batch.label}`,
        write: true,
      });
    }
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Stored XSS probes

/** Values for a write's required arguments (by name, else by type), so a probe in another argument reaches the store. */
function requiredValue(name: string, decl: ArgDecl, fx: Fixtures, n: number): unknown {
  const byName: Record<string, unknown> = {
    start_date: '2031-08-01 10:00:00',
    end_date: '2031-08-01 12:00:00',
    username: `probe-user-${n}`,
    email: `probe-${n}@example.com`,
    password: 'pw-123456',
    post: Number(fx.byPrefix['/cms/v2/posts/']),
    reassign: 1,
  };
  if (name in byName) return byName[name];
  if (decl.default !== undefined) return decl.default;
  const types = decl.type === undefined ? ['string'] : Array.isArray(decl.type) ? decl.type : [decl.type];
  if (decl.enum?.length) return decl.enum[0];
  if (types.includes('string')) return `Probe ${n}`;
  if (types.includes('integer') || types.includes('number')) return 1;
  if (types.includes('boolean')) return true;
  if (types.includes('array')) return [];
  return {};
}

/** An argument a writer may put text in: declared as a string (or untyped), not one of a fixed set of values. */
function takesText(decl: ArgDecl): boolean {
  const types = decl.type === undefined ? ['string'] : Array.isArray(decl.type) ? decl.type : [decl.type];
  return types.includes('string') && !decl.enum && decl.format !== 'date-time' && decl.format !== 'email';
}

/** Whether an argument holds a URL. */
const isUrlArg = (name: string, decl: ArgDecl) => decl.format === 'uri' || /(^|_)(url|website|link)$/.test(name);

/**
 * One write per text argument of every write endpoint, carrying a probe marked with who sends it
 * (`xss_author`): markup in text arguments, a `javascript:` URL in URL arguments, the endpoint's other
 * required arguments filled so the write can succeed. A scan of the store afterwards (storedXss) finds
 * a probe of a writer without unfiltered_html that kept its runnable markup.
 */
export function generateXssCases(registry: RouteRegistry, fx: Fixtures, opts: Pick<GenerateOptions, 'seed' | 'principals'>): FuzzCase[] {
  const rand = prng(opts.seed + 1);
  const cases: FuzzCase[] = [];
  let n = 0;
  for (const route of registry.all()) {
    const path = samplePath(registry, route, fx);
    for (const ep of route.endpoints) {
      const methods = ep.methods.filter((m) => m !== 'GET' && m !== 'DELETE');
      if (!methods.length || ep.service === 'gateway') continue;
      for (const [name, decl] of Object.entries(ep.args)) {
        if (!takesText(decl) || route.groups.includes(name)) continue;
        const who = pick(rand, opts.principals);
        const marker = `xss_${who}_${++n}`;
        const body: Record<string, unknown> = {};
        for (const [other, d] of Object.entries(ep.args)) if (d.required && !route.groups.includes(other)) body[other] = requiredValue(other, d, fx, n);
        body[name] = isUrlArg(name, decl) ? `javascript:${marker}()` : markupProbe(marker);
        cases.push({
          who,
          method: pick(rand, methods),
          path,
          query: '',
          body: Buffer.from(JSON.stringify(body)),
          contentType: 'application/json',
          label: `${ep.id} ${name}=xss`,
          write: true,
        });
      }
    }
  }
  return cases;
}

/** Writers whose markup the reference filters: a probe of theirs must never be stored runnable. */
const FILTERED_WRITER = /xss_(guest|subscriber|contributor|author)_\d+/;

/** Every stored document holding a filtered writer's probe in runnable form, with where. */
export async function storedXss(store: Store): Promise<string[]> {
  const found: string[] = [];
  for (const spec of COLLECTIONS) {
    for (const doc of await store.collection(spec.name).find({})) {
      for (const hit of xssIn(doc)) if (FILTERED_WRITER.test(hit)) found.push(`${spec.name}:${String(doc.id)} ${hit}`);
    }
  }
  return found;
}

const BAD_BATCHES: Array<{ label: string; body: string }> = [
  { label: 'path-operator', body: '{"requests":[{"path":{"$gt":""}}]}' },
  { label: 'path-relative', body: '{"requests":[{"path":"cms/v2/posts"},{"path":"//evil.test/x"},{"path":"/../../etc/passwd"}]}' },
  { label: 'path-bad-escape', body: '{"requests":[{"path":"/cms/v2/posts/%FF%FE"},{"path":"/cms/v2/posts/1%00"}]}' },
  {
    label: 'method-junk',
    body: '{"requests":[{"method":"TRACE","path":"/cms/v2/posts"},{"method":["POST"],"path":"/cms/v2/posts"},{"method":{"$ne":1},"path":"/cms/v2/tags"}]}',
  },
  { label: 'nested-batch', body: '{"requests":[{"path":"/batch/v1","body":{"requests":[{"path":"/cms/v2/posts"}]}}]}' },
  { label: 'too-many', body: JSON.stringify({ requests: Array.from({ length: 30 }, () => ({ path: '/cms/v2/tags', body: { name: 'x' } })) }) },
  {
    label: 'body-not-object',
    body: '{"requests":[{"path":"/cms/v2/posts","body":[1,2]},{"path":"/cms/v2/tags","body":"name=x"},{"path":"/cms/v2/tags","body":null}]}',
  },
  {
    label: 'headers-junk',
    body: '{"requests":[{"path":"/cms/v2/tags","headers":{"__proto__":["x"],"X-HTTP-Method-Override":{"a":1}},"body":{"name":{"__proto__":{"raw":"PROTO-SHADOW-VALUE"}}}}]}',
  },
  { label: 'method-override-delete', body: '{"requests":[{"path":"/cms/v2/tags/1?_method=DELETE&force=maybe","body":{}}]}' },
  {
    label: 'require-all-one-bad',
    body: '{"validation":"require-all-validate","requests":[{"path":"/cms/v2/tags","body":{"name":"fine"}},{"path":"/cms/v2/tags","body":{"name":{"$gt":""}}}]}',
  },
  { label: 'requests-object', body: '{"requests":{"0":{"path":"/cms/v2/tags","body":{"name":"a"}},"$gt":""}}' },
  { label: 'requests-empty', body: '{"requests":[]}' },
];

function addValueCase(
  add: (c: Omit<FuzzCase, 'who' | 'method' | 'write'> & { method?: string }) => void,
  rand: () => number,
  ep: EndpointDecl,
  path: string,
  name: string,
  bad: BadValue,
  write: boolean,
): void {
  const label = `${ep.id} ${name}=${bad.label}`;
  const canJson = bad.json !== undefined || bad.jsonRaw !== undefined || 'json' in bad;
  const fragment = qsOf(name, bad);
  const writeMethods = ep.methods.filter((m) => m !== 'GET');
  if (!write) {
    // A GET carries its arguments in the query; a value a query cannot write is left out.
    if (fragment && !bad.huge) add({ path, query: fragment, label: `${label} (query)` });
    return;
  }
  const r = rand();
  const method = writeMethods.length ? pick(rand, writeMethods) : undefined;
  if (canJson && (r < 0.7 || !fragment)) {
    add({ path, query: '', method, body: jsonBody({ [name]: bad }), contentType: 'application/json', label: `${label} (json)` });
  } else if (fragment && r < 0.85 && !bad.huge) {
    add({ path, query: fragment, method, label: `${label} (query)` });
  } else if (fragment) {
    add({ path, query: '', method, body: Buffer.from(fragment), contentType: 'application/x-www-form-urlencoded', label: `${label} (form)` });
  }
}

const GLOBAL_QUERIES = [
  '__proto__[polluted]=yes',
  'constructor[prototype][polluted]=yes',
  '_fields[$ne]=x',
  '_fields[__proto__]=x',
  '_embed[]=author&_embed[x][y]=1',
  '_method[]=DELETE',
  '_method=%00',
  '_envelope[a]=1',
  'context[]=edit',
  'context=%FF%FE',
  'page=99999999999999999999&per_page=-1',
  'offset=1e309&page=NaN',
  'search[$regex]=.*',
  'search=(a%2B)%2B%24',
  'slug[$ne]=x',
  'orderby[$where]=1',
  'a[b][c][d][e][f][g][h][i]=1',
  Array.from({ length: 2100 }, (_, i) => `p${i}`).join('&'),
];

const MULTIPART_JUNK = [
  '--xyz',
  'Content-Disposition: form-data; name="title"',
  '',
  'hello',
  '--xyz',
  'Content-Disposition: form-data; name="file"; filename="../../\u0000evil.php"',
  'Content-Type: image/png',
  '',
  '\u0089PNG junk',
  '--xyz',
  'Content-Disposition: form-data; name="meta[__proto__][polluted]"',
  '',
  'yes',
].join('\r\n');

const BAD_BODIES: Array<{ label: string; body: Buffer; contentType?: string }> = [
  { label: 'text-plain', body: Buffer.from('{"title":"x"}'), contentType: 'text/plain' },
  { label: 'no-content-type', body: Buffer.from('{"title":"x"}') },
  { label: 'invalid-json', body: Buffer.from('{"title":'), contentType: 'application/json' },
  { label: 'json-bom', body: Buffer.from('\ufeff{"title":"x"}'), contentType: 'application/json' },
  { label: 'json-null', body: Buffer.from('null'), contentType: 'application/json' },
  { label: 'json-array', body: Buffer.from('[1,2,{"$gt":""}]'), contentType: 'application/json' },
  { label: 'json-string', body: Buffer.from('"x"'), contentType: 'application/json' },
  { label: 'json-inf', body: Buffer.from('1e309'), contentType: 'application/json' },
  {
    label: 'json-proto',
    body: Buffer.from('{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}'),
    contentType: 'application/json',
  },
  { label: 'json-invalid-utf8', body: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x22, 0xfe, 0x22, 0x7d]), contentType: 'application/json' },
  { label: 'json-deep', body: Buffer.from('{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH)), contentType: 'application/json' },
  { label: 'json-deep-array', body: Buffer.from('['.repeat(DEPTH) + ']'.repeat(DEPTH)), contentType: 'application/json' },
  { label: 'json-huge-array', body: Buffer.from(JSON.stringify(new Array(200_000).fill(0))), contentType: 'application/json' },
  { label: 'json-charset-junk', body: Buffer.from('{"title":"x"}'), contentType: 'application/json; charset=ebcdic' },
  { label: 'multipart-junk', body: Buffer.from(MULTIPART_JUNK, 'latin1'), contentType: 'multipart/form-data; boundary=xyz' },
  { label: 'multipart-no-boundary', body: Buffer.from('junk'), contentType: 'multipart/form-data' },
  {
    label: 'multipart-truncated',
    body: Buffer.from('--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\nb'),
    contentType: 'multipart/form-data; boundary=xyz',
  },
  {
    label: 'form-proto',
    body: Buffer.from('__proto__[polluted]=yes&constructor[prototype][polluted]=yes&a[$gt]='),
    contentType: 'application/x-www-form-urlencoded',
  },
  { label: 'form-invalid-utf8', body: Buffer.from('title=%FF%FE&content=%ED%A0%80'), contentType: 'application/x-www-form-urlencoded' },
  { label: 'xml', body: Buffer.from('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>'), contentType: 'application/xml' },
];

// ---------------------------------------------------------------------------------------------
// What an answer must not carry

/** Internals that must never reach a client: stack frames, driver and SQL errors, source paths. */
export const LEAK_PATTERNS: RegExp[] = [
  /\bat (Object\.|async |new |Module\.|process\.|[A-Za-z_$][\w$.]*\s\()/,
  /SQLITE_|SqliteError|better-sqlite3|no such (table|column)|syntax error near/i,
  /Mongo(Server|Network|Bulk)?Error|E11000|BSONError|MongoServerSelection/,
  /node_modules/,
  /SyntaxError: Unexpected token|Unexpected token .* in JSON at position/,
  /RangeError|TypeError: |ReferenceError|Maximum call stack/,
  /\/(work|home|root|usr|app|tmp)\/[\w.-]+\/[\w./-]*\.(ts|js|mjs|cjs)\b/,
  /\.(ts|js):\d+:\d+/,
  /root:x:0:0:/,
];

export function leakIn(text: string): string | null {
  for (const re of LEAK_PATTERNS) {
    const m = re.exec(text);
    if (m) return text.slice(Math.max(0, m.index - 80), m.index + 120);
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Store digests

/** Collections whose changes are not content: the oEmbed proxy's cache fills on reads. */
const VOLATILE_COLLECTIONS = new Set(['oembed_cache']);

/** Fields a request may touch without changing content: when an application password was last used. */
function stable(collection: string, doc: Record<string, unknown>): unknown {
  if (collection === 'credentials' && Array.isArray(doc.app_passwords)) {
    return { ...doc, app_passwords: doc.app_passwords.map((p: Record<string, unknown>) => ({ ...p, last_used: null, last_ip: null })) };
  }
  return doc;
}

/** A digest of every stored document, per document, so a change can be named. */
export type Digest = Map<string, string>;

export async function digestStore(store: Store, dataDir?: string): Promise<Digest> {
  const out: Digest = new Map();
  const specs = COLLECTIONS.filter((spec) => !VOLATILE_COLLECTIONS.has(spec.name));
  const all = await Promise.all(specs.map((spec) => store.collection(spec.name).find({})));
  for (const [i, spec] of specs.entries()) {
    for (const doc of all[i]) {
      out.set(
        `${spec.name}:${String(doc.id)}`,
        createHash('sha1')
          .update(JSON.stringify(stable(spec.name, doc)))
          .digest('base64'),
      );
    }
  }
  if (dataDir) {
    // Uploaded files of the embedded store's file storage.
    const walk = (dir: string): void => {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return;
      }
      for (const n of names) {
        const p = join(dir, n);
        const st = statSync(p);
        if (st.isDirectory()) walk(p);
        else out.set(`file:${p.slice(dataDir.length)}`, `${st.size}`);
      }
    };
    walk(join(dataDir, 'uploads'));
  }
  return out;
}

/**
 * Counts the writes that changed something, through the store port of this process (the app under
 * test runs in it, so its adapter shares the prototype patched here). A refused request that moved the
 * counter is then checked with a full digest; one that did not needs none.
 */
export interface WriteCounter {
  readonly count: number;
}

const WATCHED = Symbol('fuzz write counter');

export function watchWrites(store: Store): WriteCounter {
  const proto = Object.getPrototypeOf(store.collection('posts')) as Record<string | symbol, unknown>;
  if (proto[WATCHED]) return proto[WATCHED] as WriteCounter;
  const counter = { count: 0 };
  const changed: Record<string, (result: unknown) => boolean> = {
    insertOne: () => true,
    insertMany: () => true,
    updateOne: (r) => (r as { modified: number }).modified > 0,
    updateMany: (r) => (r as { modified: number }).modified > 0,
    findOneAndUpdate: (r) => r !== null,
    deleteOne: (r) => (r as number) > 0,
    deleteMany: (r) => (r as number) > 0,
  };
  for (const [method, didChange] of Object.entries(changed)) {
    const original = proto[method] as (...args: unknown[]) => Promise<unknown>;
    proto[method] = async function (this: unknown, ...args: unknown[]) {
      const result = await original.apply(this, args);
      if (didChange(result)) counter.count++;
      return result;
    };
  }
  proto[WATCHED] = counter;
  return counter;
}

/**
 * Keys no stored document should have: operator-like (`$gt`), dotted (MongoDB reads them as paths) or
 * prototype keys. Lists each with its document and path.
 */
export async function suspiciousKeys(store: Store): Promise<string[]> {
  const found: string[] = [];
  for (const spec of COLLECTIONS) {
    for (const doc of await store.collection(spec.name).find({})) {
      const stack: Array<[unknown, string]> = [[doc, '']];
      while (stack.length) {
        const [v, at] = stack.pop()!;
        if (typeof v !== 'object' || v === null || v instanceof Date) continue;
        if (Array.isArray(v)) {
          v.forEach((x, i) => stack.push([x, `${at}[${i}]`]));
          continue;
        }
        if (Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null)
          found.push(`${spec.name}:${String(doc.id)} ${at}: odd prototype`);
        for (const k of Object.keys(v)) {
          if (k.startsWith('$') || k.includes('.') || k === '__proto__' || k === 'constructor' || k === 'prototype')
            found.push(`${spec.name}:${String(doc.id)} ${at}.${k}`);
          stack.push([(v as Record<string, unknown>)[k], `${at}.${k}`]);
        }
      }
    }
  }
  return found;
}

/** What differs between two digests: keys added, removed or changed. */
export function digestDiff(before: Digest, after: Digest): string[] {
  const diff: string[] = [];
  for (const [k, v] of after)
    if (!before.has(k)) diff.push(`+${k}`);
    else if (before.get(k) !== v) diff.push(`~${k}`);
  for (const k of before.keys()) if (!after.has(k)) diff.push(`-${k}`);
  return diff;
}
